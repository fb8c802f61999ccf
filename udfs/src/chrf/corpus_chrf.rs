//! `corpus_chrf(hyp, ref [, options]) -> Float64`: sacrebleu's corpus chrF,
//! the F-score of the summed best-reference statistics, as a mergeable
//! aggregate (state: the summed statistics and the segment count). Rows with a
//! NULL hypothesis or no reference are skipped; a group with no scored row
//! gives NULL.

use datafusion::arrow::array::ArrayRef;
use datafusion::arrow::datatypes::FieldRef;
use datafusion::common::Result;
use datafusion::logical_expr::Accumulator;
use datafusion::logical_expr::function::{AccumulatorArgs, StateFieldsArgs};
use mteval_kernels::backend::DeviceRequest;
use mteval_kernels::{ChrfConfig, ChrfStats};

use crate::common::{CountSumsAccumulator, constant_options, count_sums_fields, eval_columns_on, metric_err};
use crate::udf::{ARG_HYP, ARG_OPTIONS, ARG_REF, Aggregate, AggregateSpec, FunctionDoc};

/// The `corpus_chrf` aggregate function.
#[derive(Debug)]
pub struct CorpusChrfFn;

/// The `corpus_chrf` aggregate UDF.
pub type CorpusChrfUdaf = Aggregate<CorpusChrfFn>;

impl AggregateSpec for CorpusChrfFn {
    const NAME: &'static str = "corpus_chrf";
    const DOC: FunctionDoc = FunctionDoc {
        description: "Corpus chrF exactly as sacrebleu 2.6.0's `CHRF().corpus_score`: the F-score of the summed \
                      best-reference statistics, as a mergeable aggregate. Rows with a NULL hypothesis or no \
                      reference are skipped; a group with no scored row gives NULL.",
        syntax: "corpus_chrf(hyp, ref, options?) -> float64",
        arguments: &[ARG_HYP, ARG_REF, ARG_OPTIONS],
        example: "SELECT system, corpus_chrf(hyp, ref, 'nw:2') FROM t GROUP BY system;",
        related: &["chrf", "chrf_stats", "corpus_ter"],
    };
    const ON_DEVICE: bool = true;

    fn accumulator(args: &AccumulatorArgs, device: Option<DeviceRequest>) -> Result<Box<dyn Accumulator>> {
        let opts = constant_options(Self::NAME, args.exprs, 2)?;
        let cfg = ChrfConfig::parse(&opts).map_err(|e| metric_err(Self::NAME, &e))?;
        Ok(Box::new(CountSumsAccumulator::new(cfg, device, add_rows)))
    }

    fn state_fields(args: &StateFieldsArgs) -> Vec<FieldRef> {
        count_sums_fields(args)
    }
}

/// Adds a batch's scored rows to the sums.
fn add_rows(cfg: &ChrfConfig, values: &[ArrayRef], device: Option<DeviceRequest>, sums: &mut ChrfStats) -> Result<()> {
    let segs = eval_columns_on(
        CorpusChrfFn::NAME,
        values,
        device,
        |h, r| Ok(cfg.segment(h, r)),
        |on, rows| cfg.segments_on(on, rows).into_iter().map(Ok).collect(),
    )?;
    for s in segs.iter().flatten() {
        sums.add(&s.stats);
    }
    Ok(())
}
