//! `corpus_bleu(hyp, ref [, options]) -> Float64`: sacrebleu's corpus BLEU
//! (`BLEU().corpus_score`, `eff:no` by default), the score of the summed
//! segment statistics, as a mergeable aggregate. Rows with a NULL hypothesis
//! or no reference are skipped; a group with no scored row gives NULL.

use datafusion::arrow::array::ArrayRef;
use datafusion::arrow::datatypes::FieldRef;
use datafusion::common::Result;
use datafusion::logical_expr::Accumulator;
use datafusion::logical_expr::function::{AccumulatorArgs, StateFieldsArgs};
use mteval_kernels::backend::DeviceRequest;
use mteval_kernels::{BleuConfig, BleuStats};

use crate::common::{
    CountSumsAccumulator, RefsCol, StrCol, constant_options, count_sums_fields, eval_rows, metric_err,
};
use crate::udf::{ARG_HYP, ARG_OPTIONS, ARG_REF, Aggregate, AggregateSpec, FunctionDoc};

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

    fn accumulator(args: &AccumulatorArgs, _device: Option<DeviceRequest>) -> Result<Box<dyn Accumulator>> {
        let opts = constant_options(Self::NAME, args.exprs, 2)?;
        let cfg = BleuConfig::parse(&opts).map_err(|e| metric_err(Self::NAME, &e))?;
        Ok(Box::new(CountSumsAccumulator::new(cfg, None, add_rows)))
    }

    fn state_fields(args: &StateFieldsArgs) -> Vec<FieldRef> {
        count_sums_fields(args)
    }
}

/// Adds a batch's scored rows to the sums.
fn add_rows(cfg: &BleuConfig, values: &[ArrayRef], _device: Option<DeviceRequest>, sums: &mut BleuStats) -> Result<()> {
    let name = CorpusBleuFn::NAME;
    let hyp = StrCol::from_array(name, values[0].as_ref())?;
    let refs = RefsCol::from_array(name, &values[1])?;
    let (segs, _) = eval_rows(name, &hyp, &refs, values[0].len(), |h, r| Ok(cfg.segment(h, r)))?;
    for s in segs.iter().flatten() {
        sums.add(s);
    }
    Ok(())
}
