//! `edit_distance(a, b) -> Int64`: Levenshtein distance in code points (unit
//! costs, as python-Levenshtein's `distance` on strings), bit-parallel for
//! any length. NULL in gives NULL out. The function is `DistanceFn` in
//! code points; this file holds its routines and documentation.

use std::cell::RefCell;

use mteval_kernels::backend::Backend;
use mteval_kernels::levenshtein::{CharScratch, char_distance_with, char_distances_on};

use crate::udf::{Arg, FunctionDoc, Kind};

thread_local! {
    static SCRATCH: RefCell<CharScratch> = RefCell::new(CharScratch::default());
}

/// The SQL name.
pub const NAME: &str = "edit_distance";

/// The documentation of `edit_distance`.
pub const DOC: FunctionDoc = FunctionDoc {
    description: "Levenshtein distance in code points with unit costs, as python-Levenshtein's `distance` on \
                  strings; bit-parallel for any length. NULL in gives NULL out.",
    arguments: &[Arg::new("a", Kind::Text, "A string."), Arg::new("b", Kind::Text, "A string.")],
    example: "SELECT edit_distance('kitten', 'sitting');",
    related: &["word_edit_distance", "charac_ter"],
};

/// One row's distance.
pub(super) fn one(a: &str, b: &str) -> usize {
    SCRATCH.with(|s| char_distance_with(&mut s.borrow_mut(), a, b))
}

/// A batch's distances on `backend`.
pub(super) fn many(backend: &dyn Backend, pairs: &[(&str, &str)]) -> Vec<usize> {
    char_distances_on(backend, pairs)
}
