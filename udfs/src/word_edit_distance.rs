//! `word_edit_distance(a, b) -> Int64`: Levenshtein distance over words (one
//! edit per inserted, deleted or substituted word; words = Python
//! `str.split()`, as CharacTER's word level). NULL in gives NULL out.

use datafusion::arrow::datatypes::DataType;
use datafusion::common::Result;
use datafusion::logical_expr::{ColumnarValue, ScalarFunctionArgs, ScalarUDFImpl, Signature};
use mteval_kernels::levenshtein::{word_distance, word_distances_on};
use mteval_kernels::text::py_split;

use crate::common::{coerce_two_strings, eval_pairs};

crate::udf_struct!(
    /// The `word_edit_distance` scalar UDF.
    WordEditDistanceUdf
);

impl ScalarUDFImpl for WordEditDistanceUdf {
    fn name(&self) -> &'static str {
        "word_edit_distance"
    }

    fn signature(&self) -> &Signature {
        &self.signature
    }

    fn coerce_types(&self, arg_types: &[DataType]) -> Result<Vec<DataType>> {
        coerce_two_strings(self.name(), arg_types)
    }

    fn return_type(&self, _arg_types: &[DataType]) -> Result<DataType> {
        Ok(DataType::Int64)
    }

    fn invoke_with_args(&self, args: ScalarFunctionArgs) -> Result<ColumnarValue> {
        eval_pairs(
            self.name(),
            &args,
            |a, b| {
                let (wa, wb): (Vec<&str>, Vec<&str>) = (py_split(a).collect(), py_split(b).collect());
                word_distance(&wa, &wb)
            },
            |backend, pairs| {
                let words: Vec<(Vec<&str>, Vec<&str>)> =
                    pairs.iter().map(|(a, b)| (py_split(a).collect(), py_split(b).collect())).collect();
                word_distances_on(backend, &words)
            },
        )
    }
}
