//! `corpus_term_accuracy_lemmatized(hyp, lemmas, terms) -> Float64`:
//! lemmatized match accuracy (LMA) of CBS `match_accuracy`, with the same
//! denominator rule as `corpus_term_accuracy`. `lemmas` as in
//! `term_match_lemmatized`. Errors where the reference raises: its lemma
//! mapping assertions (naming the row), and a kept prediction that holds a
//! newline between two non-blank lines (stanza would see two sentences).

use datafusion::arrow::datatypes::FieldRef;
use datafusion::common::Result;
use datafusion::logical_expr::Accumulator;
use datafusion::logical_expr::function::{AccumulatorArgs, StateFieldsArgs};
use mteval_kernels::backend::DeviceRequest;
use mteval_kernels::terms::TermAccuracy;

use crate::terms::corpus_term_accuracy::{TermAccuracyAccumulator, accuracy_state_fields};
use crate::terms::term_match::ARG_TERMS;
use crate::terms::term_match_lemmatized::{ARG_LEMMAS, coerce_lemmatized_args};
use crate::udf::{ARG_HYP, Aggregate, AggregateSpec, Coerce, FunctionDoc};

/// The `corpus_term_accuracy_lemmatized` aggregate function.
#[derive(Debug)]
pub struct CorpusTermAccuracyLemmatizedFn;

/// The `corpus_term_accuracy_lemmatized` aggregate UDF.
pub type CorpusTermAccuracyLemmatizedUdaf = Aggregate<CorpusTermAccuracyLemmatizedFn>;

impl AggregateSpec for CorpusTermAccuracyLemmatizedFn {
    const NAME: &'static str = "corpus_term_accuracy_lemmatized";
    const DOC: FunctionDoc = FunctionDoc {
        description: "Lemmatized match accuracy (LMA) of CBS `match_accuracy`, with `corpus_term_accuracy`'s \
                      denominator rule. Errors where the reference raises: its lemma-mapping assertions (naming \
                      the row), and a kept prediction holding a newline between two non-blank lines (stanza would \
                      see two sentences).",
        syntax: "corpus_term_accuracy_lemmatized(hyp, lemmas, terms) -> float64",
        arguments: &[ARG_HYP, ARG_LEMMAS, ARG_TERMS],
        example: "SELECT system, corpus_term_accuracy_lemmatized(hyp, lemmas, terms) FROM t GROUP BY system;",
        related: &["term_match_lemmatized", "corpus_term_accuracy"],
    };

    const COERCE: Coerce = coerce_lemmatized_args;

    fn accumulator(_args: &AccumulatorArgs, _device: Option<DeviceRequest>) -> Result<Box<dyn Accumulator>> {
        Ok(Box::new(TermAccuracyAccumulator { lemmatized: true, acc: TermAccuracy::default() }))
    }

    fn state_fields(args: &StateFieldsArgs) -> Vec<FieldRef> {
        accuracy_state_fields(args)
    }
}
