//! Meta-evaluation in SQL: how well a metric's segment or system scores
//! agree with gold (human) scores, as mt-metrics-eval's `stats.py` computes
//! it (kernels' `meta`). `meta_corr(metric, gold [, options])` is the
//! correlation of one vector of pairs; `GROUP BY` an item or a system, and an
//! average over the groups, give mt-metrics-eval's `average_by`.
//! `meta_tie_opt(metric, gold [, options [, row]])` is its tie calibration,
//! averaged over rows that share one threshold.

pub mod meta_corr;
pub mod meta_tie_opt;
