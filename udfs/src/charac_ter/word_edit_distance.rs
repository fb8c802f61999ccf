//! `word_edit_distance(a, b) -> Int64`: Levenshtein distance over words (one
//! edit per inserted, deleted or substituted word; words = Python
//! `str.split()`, as `CharacTER`'s word level). NULL in gives NULL out.

use datafusion::arrow::datatypes::DataType;
use datafusion::common::Result;
use datafusion::logical_expr::{ColumnarValue, ScalarFunctionArgs};
use mteval_kernels::levenshtein::{word_distance, word_distances_on};
use mteval_kernels::py::text::py_split;

use crate::common::{coerce_two_strings, eval_pairs};
use crate::udf::{Coerce, FunctionDoc, Output, Scalar, ScalarSpec};

/// The `word_edit_distance` scalar function.
#[derive(Debug)]
pub struct WordEditDistanceFn;

impl ScalarSpec for WordEditDistanceFn {
    const NAME: &'static str = "word_edit_distance";
    const DOC: FunctionDoc = DOC;
    const COERCE: Coerce = coerce_two_strings;
    const OUTPUT: Output = || DataType::Int64;

    fn invoke(args: &ScalarFunctionArgs) -> Result<ColumnarValue> {
        eval_pairs(
            Self::NAME,
            args,
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

/// The `word_edit_distance` scalar UDF.
pub type WordEditDistanceUdf = Scalar<WordEditDistanceFn>;

/// The documentation of `word_edit_distance`.
pub const DOC: FunctionDoc = FunctionDoc {
    description: "Levenshtein distance over words: one edit per inserted, deleted or substituted word, the words \
                  being Python's `str.split()` (CharacTER's word level). NULL in gives NULL out.",
    syntax: "word_edit_distance(a: str, b: str) -> int64",
    arguments: &[("a", "A string, split into words."), ("b", "A string, split into words.")],
    example: "SELECT word_edit_distance('the cat sat', 'the dog sat down');",
    related: &["edit_distance", "charac_ter"],
};
