//! `meta_spa(metric, gold, system, segment [, options]) -> float64`: soft
//! pairwise accuracy (WMT24/25's system-level measure,
//! `stats.PairwiseConfidenceError`) over a group's segment scores. The
//! systems are taken in name order and the segments in key order (each
//! numerically when all its keys are numbers), as mt-metrics-eval packs
//! them. A NULL gold
//! score is missing: mt-metrics-eval drops it from the packed vector and
//! reshapes the rest into one row per system, which works only when the
//! segment misses its gold score for every system; otherwise the call is
//! refused, saying why. A NULL metric score, system or segment, a NaN, a
//! segment scored twice for a system, or a system without a segment that
//! another has, is refused naming the row or the system.

use datafusion::arrow::array::{Array, ArrayRef, AsArray, StringArray};
use datafusion::arrow::datatypes::{DataType, FieldRef, Float64Type};
use datafusion::common::{Result, ScalarValue, exec_datafusion_err};
use datafusion::logical_expr::Accumulator;
use datafusion::logical_expr::function::{AccumulatorArgs, StateFieldsArgs};
use mteval_kernels::backend::DeviceRequest;
use mteval_kernels::meta::spa::{SpaOptions, spa};

use crate::common::{constant_options, list_state_fields, metric_err};
use crate::meta::systems::{by_system, refuse_null};
use crate::udf::{ARG_OPTIONS, AggregateSpec, Arg, FunctionDoc, Kind, Output};

crate::udf::spec!("meta_spa": MetaSpaFn, MetaSpaUdaf = Aggregate);

impl AggregateSpec for MetaSpaFn {
    const NAME: &'static str = "meta_spa";
    const DOC: FunctionDoc = FunctionDoc {
        description: "Soft pairwise accuracy (SPA), the system-level measure of WMT24 and WMT25 \
                      (mt-metrics-eval's PairwiseConfidenceError): for every pair of systems, a paired \
                      permutation test over the segments gives the p-value of one beating the other under the \
                      gold scores and under the metric's; SPA is 1 minus the mean absolute difference. Systems \
                      in name order, segments in key order (each numerically when all are numbers). `perms:N` \
                      (1000) and `seed:S` (4) are pce.py's. A NULL gold score is missing (the segment must miss \
                      it for every system, as the reference reshapes); a NULL metric score is refused.",
        arguments: &[
            Arg::new("metric", Kind::Number, "The metric's score of a system's segment."),
            super::ARG_GOLD,
            Arg::new("system", Kind::Key, "The system that translated it."),
            Arg::new("segment", Kind::Key, "The segment's id (the same ids for every system)."),
            ARG_OPTIONS,
        ],
        example: "SELECT lp, meta_spa(comet, mqm, system, seg_id) FROM seg_scores GROUP BY lp;",
        related: &["meta_corr", "meta_tie_opt"],
    };
    const OUTPUT: Output = || DataType::Float64;

    fn accumulator(args: &AccumulatorArgs, _device: Option<DeviceRequest>) -> Result<Box<dyn Accumulator>> {
        let opts = constant_options(Self::NAME, args.exprs, 4)?;
        let options = SpaOptions::parse(&opts).map_err(|e| metric_err(Self::NAME, &e))?;
        Ok(Box::new(SpaAccumulator { options, rows: Vec::new() }))
    }

    fn state_fields(args: &StateFieldsArgs) -> Vec<FieldRef> {
        list_state_fields(
            args.name,
            &[
                ("metric", DataType::Float64),
                ("gold", DataType::Float64),
                ("system", DataType::Utf8),
                ("segment", DataType::Utf8),
            ],
        )
    }
}

/// One scored row: metric, gold, system, segment.
type Row = (f64, Option<f64>, String, String);

#[derive(Debug)]
struct SpaAccumulator {
    options: SpaOptions,
    rows: Vec<Row>,
}

impl Accumulator for SpaAccumulator {
    fn update_batch(&mut self, values: &[ArrayRef]) -> Result<()> {
        let (m, g) = (values[0].as_primitive::<Float64Type>(), values[1].as_primitive::<Float64Type>());
        let (sys, seg) = (values[2].as_string::<i32>(), values[3].as_string::<i32>());
        super::check_scores(MetaSpaFn::NAME, m, g)?;
        let args: [(&str, &dyn Array); 3] = [
            ("metric score (first argument)", m),
            ("system (third argument)", sys),
            ("segment (fourth argument)", seg),
        ];
        let needs = "every system needs a metric score for every segment (only a gold score may be missing)";
        for i in 0..m.len() {
            refuse_null(MetaSpaFn::NAME, i, &args, needs)?;
            let gold = (!g.is_null(i)).then(|| g.value(i));
            self.rows.push((m.value(i), gold, sys.value(i).to_owned(), seg.value(i).to_owned()));
        }
        Ok(())
    }

    fn evaluate(&mut self) -> Result<ScalarValue> {
        if self.rows.is_empty() {
            return Ok(ScalarValue::Float64(None));
        }
        let systems: Vec<&str> = self.rows.iter().map(|r| r.2.as_str()).collect();
        let segments: Vec<&str> = self.rows.iter().map(|r| r.3.as_str()).collect();
        let why = "SPA compares systems on the same segments";
        let (_, by_system) = by_system(MetaSpaFn::NAME, &systems, &segments, |i| self.rows[i].0, why)?;
        let (gold, metric): (Vec<Option<f64>>, Vec<f64>) =
            by_system.iter().flatten().map(|&i| (self.rows[i].1, self.rows[i].0)).unzip();
        let value = spa(&gold, &metric, by_system.len(), self.options.perms, self.options.seed)
            .map_err(|e| exec_datafusion_err!("meta_spa: {e}"))?;
        Ok(ScalarValue::Float64(Some(value)))
    }

    fn size(&self) -> usize {
        std::mem::size_of_val(self)
            + self.rows.iter().map(|r| std::mem::size_of::<Row>() + r.2.capacity() + r.3.capacity()).sum::<usize>()
    }

    fn state(&mut self) -> Result<Vec<ScalarValue>> {
        let floats = |v: Vec<Option<f64>>| {
            let items: Vec<ScalarValue> = v.into_iter().map(ScalarValue::Float64).collect();
            ScalarValue::List(ScalarValue::new_list_nullable(&items, &DataType::Float64))
        };
        let texts = |v: Vec<&String>| {
            let items: Vec<ScalarValue> = v.into_iter().map(|s| ScalarValue::Utf8(Some(s.clone()))).collect();
            ScalarValue::List(ScalarValue::new_list_nullable(&items, &DataType::Utf8))
        };
        Ok(vec![
            floats(self.rows.iter().map(|r| Some(r.0)).collect()),
            floats(self.rows.iter().map(|r| r.1).collect()),
            texts(self.rows.iter().map(|r| &r.2).collect()),
            texts(self.rows.iter().map(|r| &r.3).collect()),
        ])
    }

    fn merge_batch(&mut self, states: &[ArrayRef]) -> Result<()> {
        let lists: Vec<_> = states.iter().map(AsArray::as_list::<i32>).collect();
        for i in 0..lists[0].len() {
            if lists.iter().any(|l| l.is_null(i)) {
                continue;
            }
            let m = lists[0].value(i);
            let g = lists[1].value(i);
            let (sys, seg) = (lists[2].value(i), lists[3].value(i));
            let (m, g) = (m.as_primitive::<Float64Type>(), g.as_primitive::<Float64Type>());
            let (sys, seg): (&StringArray, &StringArray) = (sys.as_string::<i32>(), seg.as_string::<i32>());
            for j in 0..m.len() {
                let gold = (!g.is_null(j)).then(|| g.value(j));
                self.rows.push((m.value(j), gold, sys.value(j).to_owned(), seg.value(j).to_owned()));
            }
        }
        Ok(())
    }
}
