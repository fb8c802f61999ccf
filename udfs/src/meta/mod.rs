//! Meta-evaluation in SQL: how well a metric's segment or system scores
//! agree with gold (human) scores, as mt-metrics-eval's `stats.py` computes
//! it (kernels' `meta`). `meta_corr(metric, gold [, options])` is the
//! correlation of one vector of pairs; `GROUP BY` an item or a system, and an
//! average over the groups, give mt-metrics-eval's `average_by`.
//! `meta_tie_opt(metric, gold [, options [, row]])` is its tie calibration,
//! averaged over rows that share one threshold.

pub mod meta_corr;
pub mod meta_tie_opt;

use datafusion::arrow::datatypes::DataType;
use datafusion::common::{Result, plan_err};

/// `(metric: number, gold: number [, options: string] ...)`: the scores as
/// float64, the options as text; `rest` coerces the arguments after them.
fn coerce_scores(
    name: &str,
    t: &[DataType],
    arity: std::ops::RangeInclusive<usize>,
    shape: &str,
    rest: impl Fn(&DataType) -> DataType,
) -> Result<Vec<DataType>> {
    crate::common::check_arity(name, t, arity, shape)?;
    let mut out = Vec::with_capacity(t.len());
    for (what, x) in [("the metric score", &t[0]), ("the gold score", &t[1])] {
        if !(x.is_numeric() || x.is_null()) {
            return plan_err!("{name}: {what} must be a number column, got {x}");
        }
        out.push(DataType::Float64);
    }
    if let Some(o) = t.get(2) {
        out.push(crate::common::coerce_options(name, o)?);
    }
    out.extend(t.iter().skip(3).map(rest));
    Ok(out)
}
