//! `corpus_bleu(hyp, ref [, options]) -> Float64`: sacrebleu's corpus BLEU
//! (`BLEU().corpus_score`, `eff:no` by default), the score of the summed
//! segment statistics, as a mergeable aggregate. Rows with a NULL hypothesis
//! or no reference are skipped; a group with no scored row gives NULL.

use datafusion::arrow::array::ArrayRef;
use datafusion::arrow::datatypes::{DataType, FieldRef};
use datafusion::common::{Result, ScalarValue};
use datafusion::logical_expr::Accumulator;
use datafusion::logical_expr::function::{AccumulatorArgs, StateFieldsArgs};
use mteval_kernels::backend::DeviceRequest;
use mteval_kernels::{BleuConfig, BleuStats};

use crate::common::{
    RefsCol, StrCol, constant_options, count_sums_fields, count_sums_size, count_sums_state, eval_rows,
    merge_count_sums, metric_err,
};
use crate::udf::{ARG_HYP, ARG_OPTIONS, ARG_REF, Aggregate, AggregateSpec, FunctionDoc, Output};

/// The `corpus_bleu` aggregate function.
#[derive(Debug)]
pub struct CorpusBleuFn;

/// The `corpus_bleu` aggregate UDF.
pub type CorpusBleuUdaf = Aggregate<CorpusBleuFn>;

impl AggregateSpec for CorpusBleuFn {
    const NAME: &'static str = "corpus_bleu";
    const DOC: FunctionDoc = FunctionDoc {
        description: "Corpus BLEU exactly as sacrebleu 2.6.0's `BLEU().corpus_score` (`eff:no` by default): the \
                      score of the summed n-gram statistics, as a mergeable aggregate. Rows with a NULL hypothesis \
                      or no reference are skipped; a group with no scored row gives NULL.",
        syntax: "corpus_bleu(hyp, ref, options?) -> float64",
        arguments: &[ARG_HYP, ARG_REF, ARG_OPTIONS],
        example: "SELECT system, corpus_bleu(hyp, ref) FROM t GROUP BY system;",
        related: &["bleu", "bleu_stats", "corpus_chrf", "corpus_ter", "corpus_bootstrap"],
    };

    const OUTPUT: Output = || DataType::Float64;

    fn accumulator(args: &AccumulatorArgs, _device: Option<DeviceRequest>) -> Result<Box<dyn Accumulator>> {
        let opts = constant_options(Self::NAME, args.exprs, 2)?;
        let cfg = BleuConfig::parse(&opts).map_err(|e| metric_err(Self::NAME, &e))?;
        Ok(Box::new(CorpusBleuAccumulator { cfg, stats: BleuStats::default() }))
    }

    fn state_fields(args: &StateFieldsArgs) -> Vec<FieldRef> {
        count_sums_fields(args)
    }
}

/// Running corpus statistics of one group.
#[derive(Debug)]
pub struct CorpusBleuAccumulator {
    cfg: BleuConfig,
    stats: BleuStats,
}

impl Accumulator for CorpusBleuAccumulator {
    fn update_batch(&mut self, values: &[ArrayRef]) -> Result<()> {
        let cfg = self.cfg;
        let name = CorpusBleuFn::NAME;
        let hyp = StrCol::from_array(name, values[0].as_ref())?;
        let refs = RefsCol::from_array(name, &values[1])?;
        let (segs, _) = eval_rows(name, &hyp, &refs, values[0].len(), |h, r| Ok(cfg.segment(h, r)))?;
        for s in segs.iter().flatten() {
            self.stats.add(s);
        }
        Ok(())
    }

    fn evaluate(&mut self) -> Result<ScalarValue> {
        Ok(ScalarValue::Float64(self.stats.score(&self.cfg)))
    }

    fn size(&self) -> usize {
        count_sums_size(&self.stats) + std::mem::size_of_val(&self.cfg)
    }

    fn state(&mut self) -> Result<Vec<ScalarValue>> {
        Ok(count_sums_state(&self.stats))
    }

    fn merge_batch(&mut self, states: &[ArrayRef]) -> Result<()> {
        merge_count_sums(&mut self.stats, states)
    }
}
