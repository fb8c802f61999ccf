//! `corpus_term_accuracy_lemmatized(hyp, lemmas, terms) -> Float64`:
//! lemmatized match accuracy (LMA) of CBS `match_accuracy`, with the same
//! denominator rule as `corpus_term_accuracy`. `lemmas` as in
//! `term_match_lemmatized`. Errors where the reference raises: its lemma
//! mapping assertions (naming the row), and a kept prediction that holds a
//! newline between two non-blank lines (stanza would see two sentences).
//! The function is [`CorpusTermAccuracyFn`] over the lemmatized arguments.

use crate::terms::corpus_term_accuracy::CorpusTermAccuracyFn;
use crate::terms::term_match::ARG_TERMS;
use crate::terms::term_match_lemmatized::ARG_LEMMAS;
use crate::udf::{ARG_HYP, Aggregate, FunctionDoc};

/// The `corpus_term_accuracy_lemmatized` aggregate UDF.
pub type CorpusTermAccuracyLemmatizedUdaf = Aggregate<CorpusTermAccuracyFn<true, CorpusTermAccuracyLemmatizedDoc>>;

crate::udf::documented!(CorpusTermAccuracyLemmatizedDoc, "corpus_term_accuracy_lemmatized");

/// The documentation of `corpus_term_accuracy_lemmatized`.
pub const DOC: FunctionDoc = FunctionDoc {
    description: "Lemmatized match accuracy (LMA) of CBS `match_accuracy`, with `corpus_term_accuracy`'s \
                  denominator rule. Errors where the reference raises: its lemma-mapping assertions (naming \
                  the row), and a kept prediction holding a newline between two non-blank lines (stanza would \
                  see two sentences).",
    arguments: &[ARG_HYP, ARG_LEMMAS, ARG_TERMS],
    example: "SELECT system, corpus_term_accuracy_lemmatized(hyp, lemmas, terms) FROM t GROUP BY system;",
    related: &["term_match_lemmatized", "corpus_term_accuracy"],
};
