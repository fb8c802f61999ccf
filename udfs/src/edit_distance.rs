//! `edit_distance(a, b) -> Int64`: Levenshtein distance in code points (unit
//! costs, as python-Levenshtein's `distance` on strings), bit-parallel for
//! any length. NULL in gives NULL out.

use std::cell::RefCell;

use datafusion::arrow::datatypes::DataType;
use datafusion::common::Result;
use datafusion::logical_expr::{ColumnarValue, ScalarFunctionArgs, ScalarUDFImpl, Signature};
use mteval_kernels::levenshtein::{CharScratch, char_distance_with, char_distances_on};

use crate::common::{coerce_two_strings, eval_pairs};

thread_local! {
    static SCRATCH: RefCell<CharScratch> = RefCell::new(CharScratch::default());
}

crate::udf_struct!(
    /// The `edit_distance` scalar UDF.
    EditDistanceUdf
);

impl ScalarUDFImpl for EditDistanceUdf {
    fn name(&self) -> &'static str {
        "edit_distance"
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
            |a, b| SCRATCH.with(|s| char_distance_with(&mut s.borrow_mut(), a, b)),
            char_distances_on,
        )
    }
}
