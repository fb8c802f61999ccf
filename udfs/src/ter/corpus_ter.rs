//! `corpus_ter(hyp, ref [, options]) -> Float64`: sacrebleu's corpus TER,
//! Σ edits / Σ average reference length, as a mergeable aggregate (works with
//! GROUP BY and across partitions). Rows with a NULL hypothesis or no
//! reference are skipped; a group with no scored row gives NULL.

use std::sync::Arc;

use datafusion::arrow::array::{Array, ArrayRef, AsArray};
use datafusion::arrow::datatypes::{DataType, Field, FieldRef, Float64Type, UInt64Type};
use datafusion::common::{Result, ScalarValue};
use datafusion::logical_expr::Accumulator;
use datafusion::logical_expr::function::{AccumulatorArgs, StateFieldsArgs};
use datafusion::logical_expr::utils::format_state_name;
use mteval_kernels::Ter;
use mteval_kernels::backend::DeviceRequest;
use mteval_kernels::ter::TerStats;

use crate::common::{constant_options, eval_columns_on, metric_err};
use crate::udf::{ARG_HYP, ARG_OPTIONS, ARG_REF, Aggregate, AggregateSpec, FunctionDoc};

/// The `corpus_ter` aggregate function.
#[derive(Debug)]
pub struct CorpusTerFn;

/// The `corpus_ter` aggregate UDF.
pub type CorpusTerUdaf = Aggregate<CorpusTerFn>;

impl AggregateSpec for CorpusTerFn {
    const NAME: &'static str = "corpus_ter";
    const DOC: FunctionDoc = FunctionDoc {
        description: "Corpus TER exactly as sacrebleu 2.6.0's `TER().corpus_score`: Σ edits / Σ average reference \
                      length, as a mergeable aggregate (GROUP BY, any partitioning). Rows with a NULL hypothesis or \
                      no reference are skipped; a group with no scored row gives NULL.",
        syntax: "corpus_ter(hyp, ref, options?) -> float64",
        arguments: &[ARG_HYP, ARG_REF, ARG_OPTIONS],
        example: "SELECT system, corpus_ter(hyp, ref) FROM t GROUP BY system;",
        related: &["ter", "ter_stats", "corpus_chrf"],
    };
    const ON_DEVICE: bool = true;

    fn accumulator(args: &AccumulatorArgs, device: Option<DeviceRequest>) -> Result<Box<dyn Accumulator>> {
        let opts = constant_options(Self::NAME, args.exprs, 2)?;
        let ter = Ter::from_options(&opts).map_err(|e| metric_err(Self::NAME, &e))?;
        Ok(Box::new(CorpusTerAccumulator { ter, stats: TerStats::default(), device }))
    }

    fn state_fields(args: &StateFieldsArgs) -> Vec<FieldRef> {
        vec![
            Arc::new(Field::new(format_state_name(args.name, "num_edits"), DataType::UInt64, true)),
            Arc::new(Field::new(format_state_name(args.name, "ref_len"), DataType::Float64, true)),
            Arc::new(Field::new(format_state_name(args.name, "num_shifts"), DataType::UInt64, true)),
            Arc::new(Field::new(format_state_name(args.name, "segments"), DataType::UInt64, true)),
        ]
    }
}

/// Running corpus statistics of one group.
#[derive(Debug)]
pub struct CorpusTerAccumulator {
    ter: Ter,
    stats: TerStats,
    device: Option<DeviceRequest>,
}

impl Accumulator for CorpusTerAccumulator {
    fn update_batch(&mut self, values: &[ArrayRef]) -> Result<()> {
        let ter = self.ter;
        let segs = eval_columns_on(
            CorpusTerFn::NAME,
            values,
            self.device,
            |h, r| ter.segment(h, r),
            |on, rows| ter.segments_on(on, rows),
        )?;
        // Sequential, in row order, so the float sum matches sacrebleu's.
        for s in segs.iter().flatten() {
            self.stats.add(s);
        }
        Ok(())
    }

    fn evaluate(&mut self) -> Result<ScalarValue> {
        if self.stats.segments == 0 {
            return Ok(ScalarValue::Float64(None));
        }
        Ok(ScalarValue::Float64(Some(self.ter.score(&self.stats))))
    }

    fn size(&self) -> usize {
        std::mem::size_of_val(self)
    }

    fn state(&mut self) -> Result<Vec<ScalarValue>> {
        let s = &self.stats;
        Ok(vec![
            ScalarValue::UInt64(Some(s.num_edits)),
            ScalarValue::Float64(Some(s.ref_len)),
            ScalarValue::UInt64(Some(s.num_shifts)),
            ScalarValue::UInt64(Some(s.segments)),
        ])
    }

    fn merge_batch(&mut self, states: &[ArrayRef]) -> Result<()> {
        let e = states[0].as_primitive::<UInt64Type>();
        let l = states[1].as_primitive::<Float64Type>();
        let sh = states[2].as_primitive::<UInt64Type>();
        let n = states[3].as_primitive::<UInt64Type>();
        for i in 0..e.len() {
            if e.is_null(i) {
                continue;
            }
            self.stats.merge(&TerStats {
                num_edits: e.value(i),
                ref_len: l.value(i),
                num_shifts: sh.value(i),
                segments: n.value(i),
            });
        }
        Ok(())
    }
}
