//! `corpus_chrf(hyp, ref [, options]) -> Float64`: sacrebleu's corpus chrF,
//! the F-score of the summed best-reference statistics, as a mergeable
//! aggregate (state: the summed statistics and the segment count). Rows with a
//! NULL hypothesis or no reference are skipped; a group with no scored row
//! gives NULL.

use std::sync::Arc;

use datafusion::arrow::array::{Array, ArrayRef, AsArray};
use datafusion::arrow::datatypes::{DataType, Field, FieldRef, UInt64Type};
use datafusion::common::{Result, ScalarValue};
use datafusion::logical_expr::function::{AccumulatorArgs, AggregateFunctionSimplification, StateFieldsArgs};
use datafusion::logical_expr::utils::format_state_name;
use datafusion::logical_expr::{Accumulator, AggregateUDF, AggregateUDFImpl, Signature};
use mteval_kernels::backend::DeviceRequest;
use mteval_kernels::{ChrfConfig, ChrfStats};

use crate::common::coerce_metric_args;
use crate::common::constant_options;
use crate::common::{RefsCol, StrCol, bind_aggregate, eval_rows_on, metric_err, session_backend};

crate::udf_struct!(
    /// The `corpus_chrf` aggregate UDF.
    CorpusChrfUdaf,
    device
);

impl AggregateUDFImpl for CorpusChrfUdaf {
    fn name(&self) -> &'static str {
        "corpus_chrf"
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
        let cfg = ChrfConfig::parse(&opts).map_err(|e| metric_err(self.name(), &e))?;
        Ok(Box::new(CorpusChrfAccumulator { cfg, stats: ChrfStats::default(), device: self.device }))
    }

    fn simplify(&self) -> Option<AggregateFunctionSimplification> {
        bind_aggregate("corpus_chrf", self.device, |d| AggregateUDF::from(Self::on(d)))
    }

    fn state_fields(&self, args: StateFieldsArgs) -> Result<Vec<FieldRef>> {
        Ok(vec![
            Arc::new(Field::new(
                format_state_name(args.name, "stats"),
                DataType::List(Arc::new(Field::new_list_field(DataType::UInt64, true))),
                true,
            )),
            Arc::new(Field::new(format_state_name(args.name, "segments"), DataType::UInt64, true)),
        ])
    }
}

/// Running corpus statistics of one group.
#[derive(Debug)]
pub struct CorpusChrfAccumulator {
    cfg: ChrfConfig,
    stats: ChrfStats,
    device: Option<DeviceRequest>,
}

impl Accumulator for CorpusChrfAccumulator {
    fn update_batch(&mut self, values: &[ArrayRef]) -> Result<()> {
        let name = "corpus_chrf";
        let n = values[0].len();
        let hyp = StrCol::from_array(name, values[0].as_ref())?;
        let refs = RefsCol::from_array(name, &values[1])?;
        let cfg = self.cfg;
        let backend = session_backend(name, None, self.device)?;
        let (segs, _) = eval_rows_on(
            name,
            backend.as_ref(),
            &hyp,
            &refs,
            n,
            |h, r| Ok(cfg.segment(h, r)),
            |on, rows| cfg.segments_on(on, rows).into_iter().map(Ok).collect(),
        )?;
        for s in segs.iter().flatten() {
            self.stats.add(&s.stats);
        }
        Ok(())
    }

    fn evaluate(&mut self) -> Result<ScalarValue> {
        Ok(ScalarValue::Float64(self.stats.score(&self.cfg)))
    }

    fn size(&self) -> usize {
        std::mem::size_of_val(self) + self.stats.stats.capacity() * 8
    }

    fn state(&mut self) -> Result<Vec<ScalarValue>> {
        let list = ScalarValue::new_list_nullable(
            &self.stats.stats.iter().map(|&x| ScalarValue::UInt64(Some(x))).collect::<Vec<_>>(),
            &DataType::UInt64,
        );
        Ok(vec![ScalarValue::List(list), ScalarValue::UInt64(Some(self.stats.segments))])
    }

    fn merge_batch(&mut self, states: &[ArrayRef]) -> Result<()> {
        let lists = states[0].as_list::<i32>();
        let segs = states[1].as_primitive::<UInt64Type>();
        for i in 0..lists.len() {
            if lists.is_null(i) || segs.is_null(i) {
                continue;
            }
            let v = lists.value(i);
            let v = v.as_primitive::<UInt64Type>();
            self.stats.merge(&ChrfStats { stats: v.values().to_vec(), segments: segs.value(i) });
        }
        Ok(())
    }
}
