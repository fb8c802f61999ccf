//! `meta_tie_opt(metric, gold [, options [, row]]) -> Struct{tau, epsilon}`:
//! mt-metrics-eval's tie calibration (`KendallWithTiesOpt`) over the rows of
//! a group: the metric-difference threshold under which pairs count as
//! tied that maximises acc-23 (default) or tau-23 (`variant:23`), and that
//! tau. With a fourth argument, the pairs are formed within each value of
//! it and the taus averaged over the values, sharing one threshold: a
//! segment id gives mt-metrics-eval's `average_by='item'`, a system name
//! `'sys'`. The values are taken in ascending order (numerically when all
//! are numbers); the rows within a value in the order they arrive.
//! `sample:R|seed:S` samples the pairs as the reference does after
//! `np.random.seed(S)`. Rows with a NULL score are skipped; a score that is
//! NaN or infinite is refused, naming its row; no pair gives NULL.

use std::collections::BTreeMap;
use std::sync::Arc;

use datafusion::arrow::array::{Array, ArrayRef, AsArray, Float64Array, StructArray};
use datafusion::arrow::datatypes::{DataType, Field, FieldRef, Fields, Float64Type};
use datafusion::common::{Result, ScalarValue, exec_datafusion_err};
use datafusion::logical_expr::Accumulator;
use datafusion::logical_expr::function::{AccumulatorArgs, StateFieldsArgs};
use mteval_kernels::backend::DeviceRequest;
use mteval_kernels::meta::{MAX_PAIRS, TieOptOptions, pair_count, rate_within_limit, tie_optimization_rows};
use mteval_kernels::py::legacy::RandomState;

use crate::common::{constant_options, list_state_fields, metric_err};
use crate::udf::{ARG_OPTIONS, AggregateSpec, Arg, FunctionDoc, Kind, Output};

crate::udf::spec!("meta_tie_opt": MetaTieOptFn, MetaTieOptUdaf = Aggregate);

fn output_fields() -> Fields {
    Fields::from(vec![Field::new("tau", DataType::Float64, true), Field::new("epsilon", DataType::Float64, true)])
}

impl AggregateSpec for MetaTieOptFn {
    const NAME: &'static str = "meta_tie_opt";
    const DOC: FunctionDoc = FunctionDoc {
        description: "mt-metrics-eval's tie calibration (KendallWithTiesOpt, \"Ties Matter\"): the threshold under \
                      which metric differences count as ties that maximises acc-23 (default) or tau-23 \
                      (`variant:23`) over a group's rows, and that tau, as {tau, epsilon}. A fourth argument forms \
                      the pairs within each of its values and averages the taus with one shared threshold: a \
                      segment id is average_by item, a system average_by sys (values in ascending order, \
                      numerically when all are numbers; rows within a value in arrival order). `sample:R|seed:S` \
                      samples the pairs as the reference does after np.random.seed(S). Rows with a NULL score are \
                      skipped; no pair gives NULL.",
        arguments: &[
            Arg::new("metric", Kind::Number, "The metric's score of a segment."),
            super::ARG_GOLD,
            ARG_OPTIONS,
            Arg::new(
                "row",
                Kind::Key,
                "Optional: the item (segment id) or system whose pairs are compared and averaged.",
            )
            .optional(),
        ],
        example: "SELECT meta_tie_opt(comet, mqm, 'variant:acc23', seg_id)['tau'] FROM seg_scores;",
        related: &["meta_corr"],
    };
    const OUTPUT: Output = || DataType::Struct(output_fields());

    fn accumulator(args: &AccumulatorArgs, _device: Option<DeviceRequest>) -> Result<Box<dyn Accumulator>> {
        let opts = constant_options(Self::NAME, args.exprs, 2)?;
        let options = TieOptOptions::parse(&opts).map_err(|e| metric_err(Self::NAME, &e))?;
        Ok(Box::new(TieOptAccumulator { options, metric: Vec::new(), gold: Vec::new(), row: Vec::new() }))
    }

    fn state_fields(args: &StateFieldsArgs) -> Vec<FieldRef> {
        list_state_fields(
            args.name,
            &[("metric", DataType::Float64), ("gold", DataType::Float64), ("row", DataType::Utf8)],
        )
    }
}

/// The scored rows of one group, with their row keys ("" without one).
#[derive(Debug)]
struct TieOptAccumulator {
    options: TieOptOptions,
    metric: Vec<f64>,
    gold: Vec<f64>,
    row: Vec<String>,
}

impl TieOptAccumulator {
    /// The row keys in ascending order (numerically when all are numbers),
    /// each with the indices of its rows in arrival order.
    fn rows(&self) -> Vec<Vec<usize>> {
        let mut by: BTreeMap<mteval_kernels::meta::keys::Key, Vec<usize>> = BTreeMap::new();
        for (i, k) in mteval_kernels::meta::keys::keys(&self.row).into_iter().enumerate() {
            by.entry(k).or_default().push(i);
        }
        by.into_values().collect()
    }
}

impl Accumulator for TieOptAccumulator {
    fn update_batch(&mut self, values: &[ArrayRef]) -> Result<()> {
        let (m, g) = (values[0].as_primitive::<Float64Type>(), values[1].as_primitive::<Float64Type>());
        let keys = values.get(3).map(AsArray::as_string::<i32>);
        super::check_scores(MetaTieOptFn::NAME, m, g)?;
        for i in 0..m.len() {
            if m.is_null(i) || g.is_null(i) {
                continue;
            }
            let key = match keys {
                Some(k) if k.is_null(i) => continue,
                Some(k) => k.value(i).to_owned(),
                None => String::new(),
            };
            self.metric.push(m.value(i));
            self.gold.push(g.value(i));
            self.row.push(key);
        }
        Ok(())
    }

    fn evaluate(&mut self) -> Result<ScalarValue> {
        let gold: Vec<Option<f64>> = self.gold.iter().copied().map(Some).collect();
        let rows = self.rows();
        let pairs = pair_count(&gold, &rows);
        // The exact search over the limit, or a sample expected near it.
        #[allow(clippy::cast_precision_loss, reason = "pair counts are far below 2^53")]
        let sampled = pairs as f64 * self.options.sample_rate;
        #[allow(clippy::cast_precision_loss, reason = "pair counts are far below 2^53")]
        let over = if self.options.sample_rate >= 1.0 { pairs > MAX_PAIRS } else { sampled > 0.99 * MAX_PAIRS as f64 };
        if over {
            let within = if rows.len() > 1 {
                String::new()
            } else {
                " compare them within each segment with a fourth argument, the segment id (average_by 'item'), or"
                    .to_owned()
            };
            let rate = self.options.sample_rate;
            let sampled = if rate < 1.0 { format!(" (about {sampled:.0} at sample:{rate})") } else { String::new() };
            return Err(exec_datafusion_err!(
                "meta_tie_opt: the calibration compares {pairs} pairs{sampled}, over the limit of {MAX_PAIRS}:{within} sample them with the options 'sample:{}|seed:S'",
                rate_within_limit(pairs)
            ));
        }
        let mut rng = self.options.seed.map(RandomState::seed);
        let sample = rng.as_mut().map(|r| (self.options.sample_rate, r));
        let opt = tie_optimization_rows(&gold, &self.metric, &rows, self.options.variant, sample)
            .map_err(|e| exec_datafusion_err!("meta_tie_opt: {e}"))?;
        let (tau, eps) = opt.map_or((None, None), |o| (Some(o.tau), Some(o.epsilon)));
        let cols: Vec<ArrayRef> =
            vec![Arc::new(Float64Array::from(vec![tau])), Arc::new(Float64Array::from(vec![eps]))];
        let nulls = if opt.is_some() { None } else { Some(vec![false].into()) };
        Ok(ScalarValue::Struct(Arc::new(StructArray::try_new(output_fields(), cols, nulls)?)))
    }

    fn size(&self) -> usize {
        std::mem::size_of_val(self)
            + (self.metric.capacity() + self.gold.capacity()) * 8
            + self.row.iter().map(|r| r.capacity() + std::mem::size_of::<String>()).sum::<usize>()
    }

    fn state(&mut self) -> Result<Vec<ScalarValue>> {
        let list = |v: &[f64]| {
            let items: Vec<ScalarValue> = v.iter().map(|&x| ScalarValue::Float64(Some(x))).collect();
            ScalarValue::List(ScalarValue::new_list_nullable(&items, &DataType::Float64))
        };
        let keys: Vec<ScalarValue> = self.row.iter().map(|k| ScalarValue::Utf8(Some(k.clone()))).collect();
        Ok(vec![
            list(&self.metric),
            list(&self.gold),
            ScalarValue::List(ScalarValue::new_list_nullable(&keys, &DataType::Utf8)),
        ])
    }

    fn merge_batch(&mut self, states: &[ArrayRef]) -> Result<()> {
        let (m, g, k) = (states[0].as_list::<i32>(), states[1].as_list::<i32>(), states[2].as_list::<i32>());
        for i in 0..m.len() {
            if m.is_null(i) || g.is_null(i) || k.is_null(i) {
                continue;
            }
            self.metric.extend(m.value(i).as_primitive::<Float64Type>().iter().flatten());
            self.gold.extend(g.value(i).as_primitive::<Float64Type>().iter().flatten());
            let keys = k.value(i);
            self.row.extend(keys.as_string::<i32>().iter().map(|s| s.unwrap_or_default().to_owned()));
        }
        Ok(())
    }
}
