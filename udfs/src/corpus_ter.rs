//! `corpus_ter(hyp, ref [, options]) -> Float64`: sacrebleu's corpus TER,
//! Σ edits / Σ average reference length, as a mergeable aggregate (works with
//! GROUP BY and across partitions). Rows with a NULL hypothesis or no
//! reference are skipped; a group with no scored row gives NULL.

use std::sync::Arc;

use datafusion::arrow::array::{Array, ArrayRef, AsArray};
use datafusion::arrow::datatypes::{DataType, Field, FieldRef, Float64Type, UInt64Type};
use datafusion::common::{Result, ScalarValue};
use datafusion::logical_expr::function::{AccumulatorArgs, AggregateFunctionSimplification, StateFieldsArgs};
use datafusion::logical_expr::utils::format_state_name;
use datafusion::logical_expr::{Accumulator, AggregateUDF, AggregateUDFImpl, Signature};
use mteval_kernels::Ter;
use mteval_kernels::backend::DeviceRequest;
use mteval_kernels::ter::TerStats;

use crate::common::{RefsCol, StrCol, bind_aggregate, eval_rows_on, metric_err, session_backend};
use crate::common::{coerce_metric_args, constant_options};

crate::udf_struct!(
    /// The `corpus_ter` aggregate UDF.
    CorpusTerUdaf,
    device
);

impl AggregateUDFImpl for CorpusTerUdaf {
    fn name(&self) -> &'static str {
        "corpus_ter"
    }

    fn signature(&self) -> &Signature {
        &self.signature
    }

    fn coerce_types(&self, arg_types: &[DataType]) -> Result<Vec<DataType>> {
        coerce_metric_args(self.name(), arg_types)
    }

    fn return_type(&self, _arg_types: &[DataType]) -> Result<DataType> {
        Ok(DataType::Float64)
    }

    fn accumulator(&self, acc_args: AccumulatorArgs) -> Result<Box<dyn Accumulator>> {
        let opts = constant_options(self.name(), acc_args.exprs, 2)?;
        let ter = Ter::from_options(&opts).map_err(|e| metric_err(self.name(), &e))?;
        Ok(Box::new(CorpusTerAccumulator { ter, stats: TerStats::default(), device: self.device }))
    }

    fn simplify(&self) -> Option<AggregateFunctionSimplification> {
        bind_aggregate("corpus_ter", self.device, |d| AggregateUDF::from(Self::on(d)))
    }

    fn state_fields(&self, args: StateFieldsArgs) -> Result<Vec<FieldRef>> {
        Ok(vec![
            Arc::new(Field::new(format_state_name(args.name, "num_edits"), DataType::UInt64, true)),
            Arc::new(Field::new(format_state_name(args.name, "ref_len"), DataType::Float64, true)),
            Arc::new(Field::new(format_state_name(args.name, "num_shifts"), DataType::UInt64, true)),
            Arc::new(Field::new(format_state_name(args.name, "segments"), DataType::UInt64, true)),
        ])
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
        let name = "corpus_ter";
        let n = values[0].len();
        let hyp = StrCol::from_array(name, values[0].as_ref())?;
        let refs = RefsCol::from_array(name, &values[1])?;
        let ter = self.ter;
        let backend = session_backend(name, None, self.device)?;
        let (segs, _) = eval_rows_on(
            name,
            backend.as_ref(),
            &hyp,
            &refs,
            n,
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
