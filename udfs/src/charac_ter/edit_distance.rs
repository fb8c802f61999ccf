//! `edit_distance(a, b) -> Int64`: Levenshtein distance in code points (unit
//! costs, as python-Levenshtein's `distance` on strings), bit-parallel for
//! any length. NULL in gives NULL out.

use std::cell::RefCell;

use datafusion::arrow::datatypes::DataType;
use datafusion::common::Result;
use datafusion::logical_expr::{ColumnarValue, ScalarFunctionArgs};
use mteval_kernels::levenshtein::{CharScratch, char_distance_with, char_distances_on};

use crate::common::{coerce_two_strings, eval_pairs};
use crate::udf::{Coerce, FunctionDoc, Output, Scalar, ScalarSpec};

thread_local! {
    static SCRATCH: RefCell<CharScratch> = RefCell::new(CharScratch::default());
}

/// The `edit_distance` scalar function.
#[derive(Debug)]
pub struct EditDistanceFn;

/// The `edit_distance` scalar UDF.
pub type EditDistanceUdf = Scalar<EditDistanceFn>;

/// The documentation of `edit_distance`.
pub const DOC: FunctionDoc = FunctionDoc {
    description: "Levenshtein distance in code points with unit costs, as python-Levenshtein's `distance` on \
                  strings; bit-parallel for any length. NULL in gives NULL out.",
    syntax: "edit_distance(a: str, b: str) -> int64",
    arguments: &[("a", "A string."), ("b", "A string.")],
    example: "SELECT edit_distance('kitten', 'sitting');",
    related: &["word_edit_distance", "charac_ter"],
};

impl ScalarSpec for EditDistanceFn {
    const NAME: &'static str = "edit_distance";
    const DOC: FunctionDoc = DOC;
    const COERCE: Coerce = coerce_two_strings;
    const OUTPUT: Output = || DataType::Int64;

    fn invoke(args: &ScalarFunctionArgs) -> Result<ColumnarValue> {
        eval_pairs(
            Self::NAME,
            args,
            |a, b| SCRATCH.with(|s| char_distance_with(&mut s.borrow_mut(), a, b)),
            char_distances_on,
        )
    }
}
