//! `corpus_term_accuracy(hyp, terms) -> Float64`: exact match accuracy (EMA)
//! of CBS `match_accuracy.get_match_accuracies`, in [0, 1]: Σ matched terms /
//! Σ terms of the predictions that are not empty or whitespace-only (those
//! are dropped: their terms count as wrong but leave the denominator). NULL
//! when the denominator is 0 (the reference raises `ZeroDivisionError`).
//! Rows with a NULL hypothesis or NULL terms are skipped. The state is the
//! summed counts, so it merges across partitions.
//!
//! [`CorpusTermAccuracyFn`] also makes `corpus_term_accuracy_lemmatized`
//! ([`crate::terms::corpus_term_accuracy_lemmatized`]).

use std::sync::Arc;

use datafusion::arrow::array::ArrayRef;
use datafusion::arrow::datatypes::{DataType, Field, FieldRef};
use datafusion::common::{Result, ScalarValue};
use datafusion::logical_expr::function::{AccumulatorArgs, StateFieldsArgs};
use datafusion::logical_expr::utils::format_state_name;
use datafusion::logical_expr::{Accumulator, ColumnarValue};
use mteval_kernels::backend::DeviceRequest;
use mteval_kernels::terms::TermAccuracy;

use crate::common::{merge_u64_states, metric_err, u64_state};
use crate::terms::term_cols::TermArgs;
use crate::terms::term_match::ARG_TERMS;
use crate::udf::{ARG_HYP, Aggregate, AggregateSpec, Documented, FunctionDoc};

const STATE: [&str; 6] = ["exact", "lemmatized", "wrong", "denominator", "kept", "lemma_sentences"];

/// A corpus terminology accuracy: `corpus_term_accuracy`, or with
/// `LEMMATIZED`, `corpus_term_accuracy_lemmatized`.
#[derive(Debug)]
pub struct CorpusTermAccuracyFn<const LEMMATIZED: bool, D>(std::marker::PhantomData<D>);

/// The `corpus_term_accuracy` aggregate UDF.
pub type CorpusTermAccuracyUdaf = Aggregate<CorpusTermAccuracyFn<false, CorpusTermAccuracyDoc>>;

crate::udf::documented!(CorpusTermAccuracyDoc, "corpus_term_accuracy");

/// The documentation of `corpus_term_accuracy`.
pub const DOC: FunctionDoc = FunctionDoc {
    description: "Exact match accuracy (EMA) of CBS `match_accuracy.get_match_accuracies`, in [0, 1]: Σ matched \
                  terms / Σ terms of the predictions that are not empty or whitespace-only. NULL when that \
                  denominator is 0 (the reference raises `ZeroDivisionError`). Rows with a NULL hypothesis or \
                  NULL terms are skipped.",
    arguments: &[ARG_HYP, ARG_TERMS],
    example: "SELECT system, corpus_term_accuracy(hyp, terms) FROM t GROUP BY system;",
    related: &["term_match", "corpus_term_accuracy_lemmatized"],
};

impl<const LEMMATIZED: bool, D: Documented + std::fmt::Debug> AggregateSpec for CorpusTermAccuracyFn<LEMMATIZED, D> {
    const NAME: &'static str = D::NAME;
    const DOC: FunctionDoc = D::DOC;

    fn accumulator(_args: &AccumulatorArgs, _device: Option<DeviceRequest>) -> Result<Box<dyn Accumulator>> {
        Ok(Box::new(TermAccuracyAccumulator { name: Self::NAME, lemmatized: LEMMATIZED, acc: TermAccuracy::default() }))
    }

    fn state_fields(args: &StateFieldsArgs) -> Vec<FieldRef> {
        STATE
            .iter()
            .map(|s| Arc::new(Field::new(format_state_name(args.name, s), DataType::UInt64, true)) as FieldRef)
            .collect()
    }
}

/// Summed term counts of one group; `lemmatized` picks the variant.
#[derive(Debug)]
struct TermAccuracyAccumulator {
    name: &'static str,
    /// Lemmatized variant (arguments `hyp, lemmas, terms`), else exact (`hyp, terms`).
    lemmatized: bool,
    acc: TermAccuracy,
}

impl Accumulator for TermAccuracyAccumulator {
    fn update_batch(&mut self, values: &[ArrayRef]) -> Result<()> {
        let cols: Vec<ColumnarValue> = values.iter().cloned().map(ColumnarValue::Array).collect();
        let counts = TermArgs::new(self.name, self.lemmatized, &cols)?.rows(self.name, values[0].len())?;
        for c in counts.iter().flatten() {
            self.acc.add(c);
        }
        Ok(())
    }

    fn evaluate(&mut self) -> Result<ScalarValue> {
        if self.lemmatized {
            // The reference lemmatizes the newline-joined predictions as one
            // stanza document; a prediction with an inner newline breaks it.
            self.acc.check().map_err(|e| metric_err(self.name, &e))?;
            return Ok(ScalarValue::Float64(self.acc.lemmatized_accuracy()));
        }
        Ok(ScalarValue::Float64(self.acc.exact_accuracy()))
    }

    fn size(&self) -> usize {
        std::mem::size_of_val(self)
    }

    fn state(&mut self) -> Result<Vec<ScalarValue>> {
        Ok(u64_state(&self.acc.to_array()))
    }

    fn merge_batch(&mut self, states: &[ArrayRef]) -> Result<()> {
        merge_u64_states(states, |v| self.acc.merge(&TermAccuracy::from_array(std::array::from_fn(v))));
        Ok(())
    }
}
