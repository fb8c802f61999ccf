//! `edit_distance(a, b) -> Int64`: Levenshtein distance in code points (unit
//! costs, as python-Levenshtein's `distance` on strings), bit-parallel for
//! any length. NULL in gives NULL out.

use std::cell::RefCell;

use datafusion::arrow::datatypes::DataType;
use datafusion::common::Result;
use datafusion::logical_expr::{ColumnarValue, ScalarFunctionArgs};
use mteval_kernels::levenshtein::{
    CharScratch, char_distance_with, char_distances_on, word_distance, word_distances_on,
};
use mteval_kernels::text::py_split;

use crate::common::{coerce_two_strings, eval_pairs};
use crate::udf::{Coerce, FunctionDoc, Output, Scalar, ScalarSpec};

thread_local! {
    static SCRATCH: RefCell<CharScratch> = RefCell::new(CharScratch::default());
}

/// The edit distances: `edit_distance` over code points, and with `WORDS`
/// `word_edit_distance` over words (documented in its own module).
#[derive(Debug)]
pub struct DistanceFn<const WORDS: bool>;

/// The `edit_distance` scalar function.
pub type EditDistanceFn = DistanceFn<false>;

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

impl<const WORDS: bool> ScalarSpec for DistanceFn<WORDS> {
    const NAME: &'static str = if WORDS { "word_edit_distance" } else { "edit_distance" };
    const DOC: FunctionDoc = if WORDS { crate::word_edit_distance::DOC } else { DOC };
    const COERCE: Coerce = coerce_two_strings;
    const OUTPUT: Output = || DataType::Int64;

    fn invoke(args: &ScalarFunctionArgs) -> Result<ColumnarValue> {
        if WORDS {
            return eval_pairs(
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
            );
        }
        eval_pairs(
            Self::NAME,
            args,
            |a, b| SCRATCH.with(|s| char_distance_with(&mut s.borrow_mut(), a, b)),
            char_distances_on,
        )
    }
}
