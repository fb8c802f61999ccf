//! `meta_corr(metric, gold [, options]) -> Float64`: the correlation of a
//! metric's scores with gold scores over the rows of a group: Pearson
//! (default, `scipy.stats.pearsonr`), `stat:spearman` (`spearmanr`) or
//! `stat:kendall` with `variant:b|c|23|acc23` and `epsilon:E`
//! (mt-metrics-eval's `KendallVariants`), or `pdp:yes`: Pairwise
//! Difference Pearson, Pearson's r of the differences of every ordered pair
//! of the group's rows (mt-metrics-eval's `Pearson(pdp=True)`). A row whose gold or metric score
//! is NULL is skipped, as mt-metrics-eval filters a missing gold score; a
//! score that is NaN or infinite is refused, naming its row (the reference
//! has no rule for it); a group with fewer than two pairs, or whose
//! correlation is NaN in the reference (a constant vector), gives NULL.
//! State: the pairs, in the order the rows arrive; every statistic is the
//! same in any order (Pearson's and Spearman's sums are exact, see kernels'
//! `meta::linear`), so the partitions do not change it.

use datafusion::arrow::array::{Array, ArrayRef, AsArray};
use datafusion::arrow::datatypes::{DataType, FieldRef, Float64Type};
use datafusion::common::{Result, ScalarValue};
use datafusion::logical_expr::Accumulator;
use datafusion::logical_expr::function::{AccumulatorArgs, StateFieldsArgs};
use mteval_kernels::backend::DeviceRequest;
use mteval_kernels::meta::Statistic;

use crate::common::{constant_options, list_state_fields, metric_err};
use crate::udf::{ARG_OPTIONS, AggregateSpec, Arg, FunctionDoc, Kind};

crate::udf::spec!("meta_corr": MetaCorrFn, MetaCorrUdaf = Aggregate);

impl AggregateSpec for MetaCorrFn {
    const NAME: &'static str = "meta_corr";
    const DOC: FunctionDoc = FunctionDoc {
        description: "The correlation of a metric's scores with gold (human) scores over a group's rows, as \
                      mt-metrics-eval's stats.py computes it: Pearson (default; scipy's pearsonr), `stat:spearman` \
                      (spearmanr), or `stat:kendall` with `variant:b|c|23|acc23` and `epsilon:E` (KendallVariants: \
                      tau-b, tau-c, and the tie-aware tau-23 and acc-23 of \"Ties Matter\"; metric differences up to \
                      epsilon are ties), or `pdp:yes` (Pairwise Difference Pearson: Pearson's r of the differences \
                      of every pair of the group's rows). Rows with a NULL score are skipped, as mt-metrics-eval filters a missing gold \
                      score; fewer than two pairs, or a constant vector, give NULL. Per item or per system with GROUP \
                      BY, then AVG over the groups: mt-metrics-eval's average_by.",
        arguments: &[
            Arg::new("metric", Kind::Number, "The metric's score of a segment (or of a system)."),
            super::ARG_GOLD,
            ARG_OPTIONS,
        ],
        example: "SELECT meta_corr(comet, mqm, 'stat:kendall|variant:acc23|epsilon:0.01') FROM seg_scores;",
        related: &["corpus_bootstrap", "paired_test"],
    };

    fn accumulator(args: &AccumulatorArgs, _device: Option<DeviceRequest>) -> Result<Box<dyn Accumulator>> {
        let opts = constant_options(Self::NAME, args.exprs, 2)?;
        let stat = Statistic::parse(&opts).map_err(|e| metric_err(Self::NAME, &e))?;
        Ok(Box::new(MetaCorrAccumulator { stat, metric: Vec::new(), gold: Vec::new() }))
    }

    fn state_fields(args: &StateFieldsArgs) -> Vec<FieldRef> {
        list_state_fields(args.name, &[("metric", DataType::Float64), ("gold", DataType::Float64)])
    }
}

/// The pairs of one group.
#[derive(Debug)]
struct MetaCorrAccumulator {
    stat: Statistic,
    metric: Vec<f64>,
    gold: Vec<f64>,
}

impl Accumulator for MetaCorrAccumulator {
    fn update_batch(&mut self, values: &[ArrayRef]) -> Result<()> {
        let (m, g) = (values[0].as_primitive::<Float64Type>(), values[1].as_primitive::<Float64Type>());
        super::check_scores(MetaCorrFn::NAME, m, g)?;
        for (m, g) in m.iter().zip(g.iter()) {
            if let (Some(m), Some(g)) = (m, g) {
                self.metric.push(m);
                self.gold.push(g);
            }
        }
        Ok(())
    }

    fn evaluate(&mut self) -> Result<ScalarValue> {
        if self.gold.len() < 2 {
            return Ok(ScalarValue::Float64(None));
        }
        let r = self
            .stat
            .of(&self.gold, &self.metric)
            .map_err(|e| datafusion::common::exec_datafusion_err!("meta_corr: {e}"))?;
        Ok(ScalarValue::Float64((!r.is_nan()).then_some(r)))
    }

    fn size(&self) -> usize {
        std::mem::size_of_val(self) + (self.metric.capacity() + self.gold.capacity()) * 8
    }

    fn state(&mut self) -> Result<Vec<ScalarValue>> {
        let list = |v: &[f64]| {
            let items: Vec<ScalarValue> = v.iter().map(|&x| ScalarValue::Float64(Some(x))).collect();
            ScalarValue::List(ScalarValue::new_list_nullable(&items, &DataType::Float64))
        };
        Ok(vec![list(&self.metric), list(&self.gold)])
    }

    fn merge_batch(&mut self, states: &[ArrayRef]) -> Result<()> {
        let (m, g) = (states[0].as_list::<i32>(), states[1].as_list::<i32>());
        for i in 0..m.len() {
            if m.is_null(i) || g.is_null(i) {
                continue;
            }
            self.metric.extend(m.value(i).as_primitive::<Float64Type>().iter().flatten());
            self.gold.extend(g.value(i).as_primitive::<Float64Type>().iter().flatten());
        }
        Ok(())
    }
}
