//! `corpus_wer(hyp, ref [, options]) -> Struct{wer, mer, wil, wip, hits,
//! substitutions, deletions, insertions}`: jiwer 4.0.0's `process_words`
//! (or `process_characters`) over the rows of a group, as a mergeable
//! aggregate: the counts are summed, then the measures taken once.

use std::sync::Arc;

use datafusion::arrow::array::{Array, ArrayRef, Float64Array, Int64Array, StructArray};
use datafusion::arrow::datatypes::{DataType, Field, FieldRef, Fields};
use datafusion::common::{Result, ScalarValue};
use datafusion::logical_expr::Accumulator;
use datafusion::logical_expr::function::{AccumulatorArgs, StateFieldsArgs};
use datafusion::logical_expr::utils::format_state_name;
use mteval_kernels::backend::DeviceRequest;
use mteval_kernels::{WerConfig, WerCounts};

use super::eval::RELATED;
use super::wer_stats::{COUNTS, int};
use crate::common::{RefsCol, StrCol, constant_options, eval_rows, merge_u64_states, metric_err, u64_state};
use crate::udf::{ARG_HYP, ARG_OPTIONS, ARG_REF, Aggregate, AggregateSpec, FunctionDoc, Output};

const MEASURES: [&str; 4] = ["wer", "mer", "wil", "wip"];

/// The struct fields of `corpus_wer`'s result.
#[must_use]
pub fn corpus_wer_fields() -> Fields {
    MEASURES
        .iter()
        .map(|n| Field::new(*n, DataType::Float64, false))
        .chain(COUNTS.iter().map(|n| Field::new(*n, DataType::Int64, false)))
        .collect()
}

/// The state's columns: the six counts (`ref_len`, `hyp_len` too) and the
/// number of scored rows.
const STATE: [&str; 7] = ["hits", "substitutions", "deletions", "insertions", "ref_len", "hyp_len", "segments"];

/// The `corpus_wer` aggregate function.
#[derive(Debug)]
pub struct CorpusWerFn;

/// The `corpus_wer` aggregate UDF.
pub type CorpusWerUdaf = Aggregate<CorpusWerFn>;

impl AggregateSpec for CorpusWerFn {
    const NAME: &'static str = "corpus_wer";
    const DOC: FunctionDoc = FunctionDoc {
        description: "jiwer 4.0.0's `process_words` over the rows of a group (`process_characters` with \
                      `unit:char`): the hits, substitutions, deletions and insertions summed, and WER, MER, WIL and \
                      WIP of the sums, as jiwer computes them for a list of sentences. A mergeable aggregate \
                      (GROUP BY, any partitioning). Rows with a NULL hypothesis or no reference are skipped; a \
                      group with no scored row gives NULL.",
        syntax: "corpus_wer(hyp, ref, options?) -> struct{wer: float64, mer: float64, wil: float64, wip: float64, \
                 hits: int64, substitutions: int64, deletions: int64, insertions: int64}",
        arguments: &[ARG_HYP, ARG_REF, ARG_OPTIONS],
        example: "SELECT system, corpus_wer(hyp, ref).wer, corpus_wer(hyp, ref, 'unit:char').wer AS cer FROM t \
                  GROUP BY system;",
        related: RELATED,
    };

    const OUTPUT: Output = || DataType::Struct(corpus_wer_fields());

    fn accumulator(args: &AccumulatorArgs, _device: Option<DeviceRequest>) -> Result<Box<dyn Accumulator>> {
        let opts = constant_options(Self::NAME, args.exprs, 2)?;
        let cfg = WerConfig::parse(&opts).map_err(|e| metric_err(Self::NAME, &e))?;
        Ok(Box::new(CorpusWerAccumulator { cfg, counts: WerCounts::default(), segments: 0 }))
    }

    fn state_fields(args: &StateFieldsArgs) -> Vec<FieldRef> {
        STATE.iter().map(|n| Arc::new(Field::new(format_state_name(args.name, n), DataType::UInt64, true))).collect()
    }
}

/// The summed counts of one group.
#[derive(Debug)]
pub struct CorpusWerAccumulator {
    cfg: WerConfig,
    counts: WerCounts,
    segments: u64,
}

impl Accumulator for CorpusWerAccumulator {
    fn update_batch(&mut self, values: &[ArrayRef]) -> Result<()> {
        let name = CorpusWerFn::NAME;
        let hyp = StrCol::from_array(name, values[0].as_ref())?;
        let refs = RefsCol::from_array(name, &values[1])?;
        let cfg = self.cfg;
        let (vals, _) = eval_rows(name, &hyp, &refs, values[0].len(), |h, r| Ok(cfg.best(h, r).map(|(_, c)| c)))?;
        for c in vals.iter().flatten() {
            self.counts.add(c);
            self.segments += 1;
        }
        Ok(())
    }

    fn evaluate(&mut self) -> Result<ScalarValue> {
        if self.segments == 0 {
            return ScalarValue::try_from(&DataType::Struct(corpus_wer_fields()));
        }
        let s = self.counts.scores();
        let c = &self.counts;
        let cols: Vec<ArrayRef> = [s.wer, s.mer, s.wil, s.wip]
            .into_iter()
            .map(|x| Arc::new(Float64Array::from(vec![x])) as ArrayRef)
            .chain(
                [c.hits, c.substitutions, c.deletions, c.insertions]
                    .into_iter()
                    .map(|x| Arc::new(Int64Array::from(vec![int(x)])) as ArrayRef),
            )
            .collect();
        Ok(ScalarValue::Struct(Arc::new(StructArray::try_new(corpus_wer_fields(), cols, None)?)))
    }

    fn size(&self) -> usize {
        std::mem::size_of_val(self)
    }

    /// `[H, S, D, I, N, P, segments]`.
    fn state(&mut self) -> Result<Vec<ScalarValue>> {
        let [h, s, d, i, n, p] = self.counts.to_array();
        Ok(u64_state(&[h, s, d, i, n, p, self.segments]))
    }

    fn merge_batch(&mut self, states: &[ArrayRef]) -> Result<()> {
        merge_u64_states(states, |v| {
            self.counts.add(&WerCounts::from_array(std::array::from_fn(v)));
            self.segments += v(6);
        });
        Ok(())
    }
}
