//! `corpus_term_accuracy(hyp, terms) -> Float64`: exact match accuracy (EMA)
//! of CBS `match_accuracy.get_match_accuracies`, in [0, 1]: Σ matched terms /
//! Σ terms of the predictions that are not empty or whitespace-only (those
//! are dropped: their terms count as wrong but leave the denominator). NULL
//! when the denominator is 0 (the reference raises `ZeroDivisionError`).
//! Rows with a NULL hypothesis or NULL terms are skipped. The state is the
//! summed counts, so it merges across partitions.

use std::sync::Arc;

use datafusion::arrow::array::{Array, ArrayRef};
use datafusion::arrow::datatypes::{DataType, Field, FieldRef};
use datafusion::common::{Result, ScalarValue};
use datafusion::logical_expr::Accumulator;
use datafusion::logical_expr::function::{AccumulatorArgs, StateFieldsArgs};
use datafusion::logical_expr::utils::format_state_name;
use mteval_kernels::backend::DeviceRequest;
use mteval_kernels::terms::TermAccuracy;

use crate::common::{StrCol, merge_u64_states, metric_err, u64_state};
use crate::terms::term_cols::{LemmasCol, TermsCol};
use crate::terms::term_match::{ARG_TERMS, coerce_terms_args, exact_rows};
use crate::terms::term_match_lemmatized::lemmatized_rows;
use crate::udf::{ARG_HYP, Aggregate, AggregateSpec, Coerce, FunctionDoc};

const STATE: [&str; 6] = ["exact", "lemmatized", "wrong", "denominator", "kept", "lemma_sentences"];

/// The state fields shared by both accuracy aggregates.
pub(crate) fn accuracy_state_fields(args: &StateFieldsArgs) -> Vec<FieldRef> {
    STATE
        .iter()
        .map(|s| Arc::new(Field::new(format_state_name(args.name, s), DataType::UInt64, true)) as FieldRef)
        .collect()
}

/// The `corpus_term_accuracy` aggregate function.
#[derive(Debug)]
pub struct CorpusTermAccuracyFn;

/// The `corpus_term_accuracy` aggregate UDF.
pub type CorpusTermAccuracyUdaf = Aggregate<CorpusTermAccuracyFn>;

impl AggregateSpec for CorpusTermAccuracyFn {
    const NAME: &'static str = "corpus_term_accuracy";
    const DOC: FunctionDoc = FunctionDoc {
        description: "Exact match accuracy (EMA) of CBS `match_accuracy.get_match_accuracies`, in [0, 1]: Σ matched \
                      terms / Σ terms of the predictions that are not empty or whitespace-only. NULL when that \
                      denominator is 0 (the reference raises `ZeroDivisionError`). Rows with a NULL hypothesis or \
                      NULL terms are skipped.",
        syntax: "corpus_term_accuracy(hyp: str, terms: list<list<str>>) -> float64",
        arguments: &[ARG_HYP, ARG_TERMS],
        example: "SELECT system, corpus_term_accuracy(hyp, terms) FROM t GROUP BY system;",
        related: &["term_match", "corpus_term_accuracy_lemmatized"],
    };

    const COERCE: Coerce = coerce_terms_args;

    fn accumulator(_args: &AccumulatorArgs, _device: Option<DeviceRequest>) -> Result<Box<dyn Accumulator>> {
        Ok(Box::new(TermAccuracyAccumulator { lemmatized: false, acc: TermAccuracy::default() }))
    }

    fn state_fields(args: &StateFieldsArgs) -> Vec<FieldRef> {
        accuracy_state_fields(args)
    }
}

/// Summed term counts of one group; `lemmatized` picks the variant.
#[derive(Debug)]
pub struct TermAccuracyAccumulator {
    /// Lemmatized variant (arguments `hyp, lemmas, terms`), else exact (`hyp, terms`).
    pub(crate) lemmatized: bool,
    pub(crate) acc: TermAccuracy,
}

impl TermAccuracyAccumulator {
    const fn name(&self) -> &'static str {
        if self.lemmatized { "corpus_term_accuracy_lemmatized" } else { "corpus_term_accuracy" }
    }
}

impl Accumulator for TermAccuracyAccumulator {
    fn update_batch(&mut self, values: &[ArrayRef]) -> Result<()> {
        let name = self.name();
        let n = values[0].len();
        let hyp = StrCol::from_array(name, values[0].as_ref())?;
        let counts = if self.lemmatized {
            let lemmas = LemmasCol::from_array(name, &values[1], false)?;
            let terms = TermsCol::from_array(name, &values[2], false)?;
            lemmatized_rows(name, &hyp, &lemmas, &terms, n)?
        } else {
            exact_rows(name, &hyp, &TermsCol::from_array(name, &values[1], false)?, n)?
        };
        for c in counts.iter().flatten() {
            self.acc.add(c);
        }
        Ok(())
    }

    fn evaluate(&mut self) -> Result<ScalarValue> {
        if self.lemmatized {
            // The reference lemmatizes the newline-joined predictions as one
            // stanza document; a prediction with an inner newline breaks it.
            self.acc.check().map_err(|e| metric_err(self.name(), &e))?;
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
