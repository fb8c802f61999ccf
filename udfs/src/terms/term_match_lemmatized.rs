//! `term_match_lemmatized(hyp, lemmas, terms) -> Struct{matched, exact,
//! total, dropped}`: terminology match counts with the lemmatized variant
//! (CBS `match_accuracy`, `count_matches`): `matched` counts terms found in
//! the prediction or in its lemmas (raised to `exact` when lower, as the
//! reference does), `exact` the surface-only count. The function is
//! [`TermMatchFn`] over the lemmatized arguments.
//!
//! `lemmas` is `List<Struct{lemma: Utf8, start: Int64, end: Int64}>`: the
//! prediction's words in order (one per whitespace token, as stanza's
//! pretokenized mode or spaCy give them), each with its lemma (NULL = the
//! surface word) and its `[start, end)` offsets in code points. Any integer
//! type works for the offsets; field order does not matter. Inputs the
//! reference rejects (its lemma-mapping assertions, e.g. a trailing run of
//! spaces or a space before a tab) are errors naming the row.

use crate::terms::term_cols::coerce_lemmas;
use crate::terms::term_match::{ARG_TERMS, TermMatchFn};
use crate::udf::{ARG_HYP, Arg, FunctionDoc, Kind, Scalar};

/// The argument `lemmas` of the lemmatized terminology functions.
pub const ARG_LEMMAS: Arg = Arg::new(
    "lemmas",
    Kind::Other { ty: "list<struct{lemma: str, start: int64, end: int64}>", coerce: coerce_lemmas },
    "The prediction's words in order: `list<struct{lemma: str, start: int, end: int}>`, one per whitespace token, \
     each with its lemma (NULL: the surface word) and its `[start, end)` offsets in code points.",
);

/// The `term_match_lemmatized` scalar UDF.
pub type TermMatchLemmatizedUdf = Scalar<TermMatchFn<true, TermMatchLemmatizedDoc>>;

crate::udf::documented!(TermMatchLemmatizedDoc, "term_match_lemmatized");

/// The documentation of `term_match_lemmatized`.
pub const DOC: FunctionDoc = FunctionDoc {
    description: "Terminology match counts with the lemmatized variant (CBS `count_matches`): `matched` counts \
                  terms found in the prediction or in its lemmas (raised to `exact` when lower, as the \
                  reference does), `exact` the surface-only count. Inputs the reference rejects (its \
                  lemma-mapping assertions) are errors naming the row.",
    arguments: &[ARG_HYP, ARG_LEMMAS, ARG_TERMS],
    example: "SELECT term_match_lemmatized(hyp, lemmas, terms) FROM t;",
    related: &["corpus_term_accuracy_lemmatized", "term_match"],
};
