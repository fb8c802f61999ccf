//! `word_edit_distance(a, b) -> Int64`: Levenshtein distance over words (one
//! edit per inserted, deleted or substituted word; words = Python
//! `str.split()`, as `CharacTER`'s word level). NULL in gives NULL out.

use crate::edit_distance::DistanceFn;
use crate::udf::{FunctionDoc, Scalar};

/// The `word_edit_distance` scalar function.
pub type WordEditDistanceFn = DistanceFn<true>;

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
