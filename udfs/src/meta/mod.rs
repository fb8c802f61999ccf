//! Meta-evaluation in SQL: how well a metric's segment or system scores
//! agree with gold (human) scores, as mt-metrics-eval's `stats.py` computes
//! it (kernels' `meta`). `meta_corr(metric, gold [, options])` is the
//! correlation of one vector of pairs; `GROUP BY` an item or a system, and an
//! average over the groups, give mt-metrics-eval's `average_by`.
//! `meta_tie_opt(metric, gold [, options [, row]])` is its tie calibration,
//! averaged over rows that share one threshold. `meta_spa(metric, gold,
//! system, segment [, options])` is WMT24/25's soft pairwise accuracy.

pub mod meta_corr;
pub mod meta_spa;
pub mod meta_tie_opt;
pub(crate) mod systems;

use datafusion::arrow::array::{Array, Float64Array};
use datafusion::common::{Result, exec_err};

use crate::common::ROW_IN_BATCH;
use crate::udf::{Arg, Kind};

/// Refuses a score that is not a finite number, naming its row in the batch
/// and its argument: NULL is a missing score (mt-metrics-eval's `None`,
/// skipped); the reference has no rule for NaN (scipy turns the vector's
/// correlation into NaN, `KendallVariants` assumes there is none), so no
/// NaN (nor infinity) is guessed at.
fn check_scores(name: &str, metric: &Float64Array, gold: &Float64Array) -> Result<()> {
    for (what, col, other, other_col) in [
        ("metric score (first argument)", metric, "gold", gold),
        ("gold score (second argument)", gold, "metric", metric),
    ] {
        if col.null_count() == 0 && col.values().iter().all(|v| v.is_finite()) {
            continue;
        }
        for (i, v) in col.iter().enumerate() {
            if let Some(v) = v.filter(|v| !v.is_finite()) {
                let o = if other_col.is_null(i) { "NULL".to_owned() } else { other_col.value(i).to_string() };
                return exec_err!(
                    "{name}: row {i}{ROW_IN_BATCH}: the {what} is {v} ({other} score {o}): scores must be finite numbers; a missing score is NULL, which is skipped"
                );
            }
        }
    }
    Ok(())
}

/// The argument `gold` of the meta-evaluation functions.
const ARG_GOLD: Arg = Arg::new("gold", Kind::Number, "The gold (human) score of the same segment; NULL when missing.");
