//! Tie calibration: `KendallWithTiesOpt` and `tau_optimization.py` of
//! mt-metrics-eval (Deutsch et al. 2023, "Ties Matter").
//!
//! The metric's scores get ties introduced: every pair of scores closer than
//! a threshold epsilon counts as tied. The search tries every pair
//! difference as epsilon (and 0), in increasing order, and keeps the one
//! that maximises the average tau-23 or acc-23 over the rows (one row
//! without averaging; one per system or per item). Ties in the search
//! follow the reference to the last bit:
//!
//! * the pairs are enumerated row by row, `i < j`, and sorted stably by
//!   their float64 difference;
//! * the running total of the row taus starts as Python's `sum` over the
//!   rows in the order of a `set` of row numbers ([`int_set_order`]), and
//!   each flipped pair subtracts its row's old tau and adds the new one;
//! * the first threshold with the largest average wins (`nanargmax`).
//!
//! With a sample rate under 1, each pair is kept when numpy's global
//! `np.random.random()` is at most the rate ([`RandomState`]).

use super::{AverageBy, Variant};
use crate::py::legacy::RandomState;
use crate::py::set::int_set_order;

/// The most pairs one calibration enumerates (16 bytes each).
pub const MAX_PAIRS: usize = 100_000_000;

/// The calibrated tau and its threshold.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TieOpt {
    /// The best average tau (`best_tau`).
    pub tau: f64,
    /// The threshold that gives it (`best_threshold`).
    pub epsilon: f64,
}

/// A pair's place in the five counts.
#[derive(Clone, Copy)]
#[repr(u8)]
enum Kind {
    Concordant,
    Discordant,
    /// Tied in the gold only (`ties_human`).
    Gold,
    /// Tied in the metric only.
    Metric,
    Both,
}

#[derive(Clone, Copy)]
struct Pair {
    diff: f64,
    row: u32,
    kind: Kind,
}

/// `[con, dis, ties_human, ties_metric, ties_both]` of one row.
type Counts = [i64; 5];

/// `TauSufficientStats.tau_23` / `acc_23`: Python's int arithmetic, then one
/// correctly rounded division.
#[allow(clippy::cast_precision_loss, reason = "pair counts are far below 2^53")]
fn tau_of(c: &Counts, variant: Variant) -> f64 {
    let total: i64 = c.iter().sum();
    let num = match variant {
        Variant::Acc23 => c[0] + c[4],
        _ => c[0] + c[4] - c[1] - c[2] - c[3],
    };
    num as f64 / total as f64
}

/// The pairs the exact search enumerates over `groups` (index lists into
/// `gold`): within each, the pairs of present gold scores.
#[must_use]
pub fn pair_count(gold: &[Option<f64>], groups: &[Vec<usize>]) -> usize {
    groups
        .iter()
        .map(|g| {
            let n = g.iter().filter(|&&i| gold[i].is_some()).count();
            n * n.saturating_sub(1) / 2
        })
        .sum()
}

/// A sample rate (`sample_rate`, two significant digits) whose expected
/// sample of `pairs` pairs is 1% under [`MAX_PAIRS`]: the rate to advise
/// when the exact search is over the limit.
#[must_use]
#[allow(
    clippy::cast_precision_loss,
    clippy::cast_possible_truncation,
    reason = "pair counts far below 2^53; the exponent of a rate in (0, 1) is small"
)]
pub fn rate_within_limit(pairs: usize) -> String {
    let rate = (0.99 * MAX_PAIRS as f64 / pairs.max(1) as f64).min(1.0);
    // The digits after the point that give two significant ones.
    let decimals = (1 - rate.log10().floor() as i32).max(1);
    let scale = 10f64.powi(decimals);
    format!("{:.*}", decimals.unsigned_abs() as usize, (rate * scale).floor() / scale)
}

/// `KendallWithTiesOpt(gold, metric, variant, num_sys, average_by,
/// sample_rate)[:2]`; `None` when no row has a pair (the reference divides
/// by zero).
///
/// # Errors
/// A variant other than tau-23 / acc-23, a sample rate outside (0, 1], a
/// sampled search without a random state, a score that is not a finite
/// number, more than [`MAX_PAIRS`] pairs, or vectors that are not `num_sys`
/// rows.
pub fn tie_optimization(
    gold: &[Option<f64>],
    metric: &[f64],
    num_sys: usize,
    by: AverageBy,
    variant: Variant,
    sample: Option<(f64, &mut RandomState)>,
) -> Result<Option<TieOpt>, String> {
    let groups = super::check_packed(gold.len(), metric.len(), num_sys, by)?;
    tie_optimization_rows(gold, metric, &groups, variant, sample)
}

/// [`tie_optimization`] over given rows: each row a list of indices into
/// `gold` and `metric`, in the order the reference holds them.
///
/// # Errors
/// As [`tie_optimization`].
pub fn tie_optimization_rows(
    gold: &[Option<f64>],
    metric: &[f64],
    groups: &[Vec<usize>],
    variant: Variant,
    sample: Option<(f64, &mut RandomState)>,
) -> Result<Option<TieOpt>, String> {
    if !matches!(variant, Variant::T23 | Variant::Acc23) {
        return Err("only the 23 and acc23 variants support tie calibration".to_owned());
    }
    let mut sample = match sample {
        Some((rate, _)) if !(rate > 0.0 && rate <= 1.0) => {
            return Err(format!("the sample rate must be in (0, 1], not {rate}"));
        }
        Some((1.0, _)) => None,
        other => other,
    };
    if let Some(m) = metric.iter().find(|m| !m.is_finite()) {
        return Err(format!("tie calibration needs finite metric scores, not {m}"));
    }
    if let Some(g) = gold.iter().flatten().find(|g| !g.is_finite()) {
        return Err(format!("tie calibration needs finite gold scores (a missing one is None), not {g}"));
    }
    if sample.is_none() {
        let pairs = pair_count(gold, groups);
        if pairs > MAX_PAIRS {
            return Err(format!("tie calibration over {pairs} pairs is over the limit of {MAX_PAIRS}"));
        }
    }
    let mut pairs: Vec<Pair> = Vec::new();
    let mut rows_added: Vec<usize> = Vec::new();
    let mut counts: Vec<Counts> = vec![[0; 5]; groups.len()];
    for (row, idx) in groups.iter().enumerate() {
        let kept: Vec<(f64, f64)> = idx.iter().filter_map(|&i| Some((gold[i]?, metric[i]))).collect();
        for (a, &(h1, m1)) in kept.iter().enumerate() {
            for &(h2, m2) in &kept[a + 1..] {
                if let Some((rate, rng)) = sample.as_mut()
                    && rng.random() > *rate
                {
                    continue;
                }
                let kind = if h1 == h2 && m1 == m2 {
                    Kind::Both
                } else if h1 == h2 {
                    Kind::Gold
                } else if m1 == m2 {
                    Kind::Metric
                } else if (h1 > h2) == (m1 > m2) {
                    Kind::Concordant
                } else {
                    Kind::Discordant
                };
                counts[row][kind as usize] += 1;
                #[expect(clippy::cast_possible_truncation, reason = "rows are far fewer than 2^32")]
                pairs.push(Pair { diff: (m1 - m2).abs(), row: row as u32, kind });
                rows_added.push(row);
                if pairs.len() > MAX_PAIRS {
                    return Err(format!("tie calibration sampled more than the limit of {MAX_PAIRS} pairs"));
                }
            }
        }
    }
    if pairs.is_empty() {
        return Ok(None);
    }
    let order = int_set_order(rows_added.iter().copied());
    #[allow(clippy::cast_precision_loss, reason = "rows are far fewer than 2^53")]
    let num_rows = order.len() as f64;
    // Python's `sum` of floats starting from the int 0: a left fold.
    let mut total = order.iter().fold(0.0f64, |t, &r| t + tau_of(&counts[r], variant));
    // The thresholds' average taus, each final when the next threshold
    // starts; the first largest wins.
    let mut best: Option<TieOpt> = None;
    let mut keep = |tau: f64, epsilon: f64| {
        if best.is_none_or(|b| tau > b.tau) {
            best = Some(TieOpt { tau, epsilon });
        }
    };
    let (mut last_eps, mut last_tau) = (0.0f64, total / num_rows);
    pairs.sort_by(|a, b| a.diff.total_cmp(&b.diff));
    for p in &pairs {
        let c = &mut counts[p.row as usize];
        total -= tau_of(c, variant);
        c[p.kind as usize] -= 1;
        let tie = if matches!(p.kind, Kind::Gold | Kind::Both) { Kind::Both } else { Kind::Metric };
        c[tie as usize] += 1;
        total += tau_of(c, variant);
        let tau = total / num_rows;
        if last_eps == p.diff {
            // The same threshold again: its entry is overwritten.
            last_tau = tau;
        } else {
            keep(last_tau, last_eps);
            (last_eps, last_tau) = (p.diff, tau);
        }
    }
    keep(last_tau, last_eps);
    Ok(best)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_score_that_is_not_a_number_is_refused() {
        // The issue: a NaN metric score was refused, a NaN gold score scored.
        let metric = [0.1, 0.2, 0.3, 0.5];
        for g in [f64::NAN, f64::INFINITY] {
            let gold = [Some(1.0), Some(g), Some(3.0), Some(2.0)];
            let e = tie_optimization(&gold, &metric, 1, AverageBy::None, Variant::Acc23, None).unwrap_err();
            assert!(e.contains(&format!("finite gold scores (a missing one is None), not {g}")), "{e}");
        }
        let gold = [Some(1.0), None, Some(3.0), Some(2.0)];
        assert!(tie_optimization(&gold, &metric, 1, AverageBy::None, Variant::Acc23, None).unwrap().is_some());
        assert_eq!(pair_count(&gold, &[vec![0, 1, 2, 3]]), 3);
    }

    #[test]
    fn the_advised_rate_keeps_the_sample_under_the_limit() {
        // 10,000 systems x 3 items, by item: 3 x 49,995,000 pairs.
        assert_eq!(rate_within_limit(149_985_000), "0.66");
        assert_eq!(rate_within_limit(5_000_000_000), "0.019");
        assert_eq!(rate_within_limit(100_000_001), "0.98");
    }
}
