//! `word_edit_distance(a, b) -> Int64`: Levenshtein distance over words (one
//! edit per inserted, deleted or substituted word; words = Python
//! `str.split()`, as `CharacTER`'s word level). NULL in gives NULL out. The
//! function is `DistanceFn` over words; this file holds its routines and
//! documentation.

use mteval_kernels::backend::Backend;
use mteval_kernels::levenshtein::{word_distance, word_distances_on};
use mteval_kernels::py::text::py_split;

use crate::udf::{Arg, FunctionDoc, Kind};

/// The SQL name.
pub const NAME: &str = "word_edit_distance";

/// The documentation of `word_edit_distance`.
pub const DOC: FunctionDoc = FunctionDoc {
    description: "Levenshtein distance over words: one edit per inserted, deleted or substituted word, the words \
                  being Python's `str.split()` (CharacTER's word level). NULL in gives NULL out.",
    arguments: &[
        Arg::new("a", Kind::Text, "A string, split into words."),
        Arg::new("b", Kind::Text, "A string, split into words."),
    ],
    example: "SELECT word_edit_distance('the cat sat', 'the dog sat down');",
    related: &["edit_distance", "charac_ter"],
};

/// One row's distance.
pub(super) fn one(a: &str, b: &str) -> usize {
    let (wa, wb): (Vec<&str>, Vec<&str>) = (py_split(a).collect(), py_split(b).collect());
    word_distance(&wa, &wb)
}

/// A batch's distances on `backend`.
pub(super) fn many(backend: &dyn Backend, pairs: &[(&str, &str)]) -> Vec<usize> {
    let words: Vec<(Vec<&str>, Vec<&str>)> =
        pairs.iter().map(|(a, b)| (py_split(a).collect(), py_split(b).collect())).collect();
    word_distances_on(backend, &words)
}
