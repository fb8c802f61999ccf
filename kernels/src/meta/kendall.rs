//! Kendall's tau and its variants with ties, as mt-metrics-eval's
//! `KendallVariants` computes them (Deutsch et al. 2023, "Ties Matter").
//!
//! The statistics are five pair counts over `(metric, gold)` pairs:
//! concordant, discordant, tied in the metric only, in the gold only, and in
//! both. A pair is tied in the metric when `|m_i - m_j| <= epsilon` (the
//! difference computed in float64, as numpy's pairwise-difference matrix
//! holds it) and in the gold when `g_i == g_j`. mt-metrics-eval counts them
//! with a Fenwick tree when `epsilon` is 0 and with n x n matrices
//! otherwise; both give the same integers, which this module counts in
//! O(n log n) for any `epsilon` (sorted by the metric, a window of tied
//! pairs, a Fenwick tree over the gold ranks). The taus then follow the
//! reference's arithmetic on those integers.

use std::cmp::Ordering;

/// Kendall's tau variants of `KendallVariants`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Variant {
    /// tau-b (ties in either vector shrink the denominator).
    B,
    /// tau-c (Stuart's, with the fewer distinct values of the two vectors).
    C,
    /// tau-23: pairs tied in both count as concordant, pairs tied in one as
    /// discordant.
    T23,
    /// acc-23: the fraction of pairs concordant or tied in both.
    Acc23,
}

impl Variant {
    /// The variant of mt-metrics-eval's name (`b`, `c`, `23`, `acc23`).
    #[must_use]
    pub fn from_name(name: &str) -> Option<Self> {
        match name {
            "b" => Some(Self::B),
            "c" => Some(Self::C),
            "23" => Some(Self::T23),
            "acc23" => Some(Self::Acc23),
            _ => None,
        }
    }
}

/// The pair counts of two vectors.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct TauStats {
    /// Pairs ordered the same way by both.
    pub concordant: u64,
    /// Pairs ordered oppositely.
    pub discordant: u64,
    /// Pairs tied in the metric only.
    pub metric_ties: u64,
    /// Pairs tied in the gold only.
    pub gold_ties: u64,
    /// Pairs tied in both.
    pub both_ties: u64,
}

impl TauStats {
    /// The counts of `gold` against `metric` (equal lengths) with metric
    /// differences up to `epsilon` taken as ties. The reference assumes no
    /// NaN (see [`kendall`], which refuses a NaN gold score); a NaN here
    /// is a value of its own above every number, tied with nothing.
    ///
    /// # Panics
    /// Vectors of different lengths.
    #[must_use]
    pub fn of(gold: &[f64], metric: &[f64], epsilon: f64) -> Self {
        assert_eq!(gold.len(), metric.len(), "the gold and metric vectors differ in length");
        let n = gold.len();
        let total = pairs(n as u64);
        // Sorted by the metric; within equal metric values, by the gold.
        let gold_rank = dense_ranks(gold);
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by(|&a, &b| cmp(metric[a], metric[b]).then(gold_rank[a].cmp(&gold_rank[b])));
        let ranks = gold_rank.iter().max().map_or(0, |&r| r + 1);
        // For each j (in metric order), the pairs (i, j) with i before the
        // window of values within epsilon of m_j are untied in the metric:
        // concordant if g_i < g_j, discordant if g_i > g_j.
        let mut tree = Fenwick::new(ranks);
        let (mut concordant, mut discordant, mut metric_tied) = (0u64, 0u64, 0u64);
        let mut left = 0;
        for (pos, &j) in order.iter().enumerate() {
            while metric[j] - metric[order[left]] > epsilon {
                tree.add(gold_rank[order[left]]);
                left += 1;
            }
            metric_tied += (pos - left) as u64;
            let below = tree.count_below(gold_rank[j]);
            let equal = tree.count_below(gold_rank[j] + 1) - below;
            concordant += below;
            discordant += left as u64 - below - equal;
        }
        // Pairs tied in both: equal gold, metric within epsilon (the same
        // window, within each gold value).
        let mut by_gold = order.clone();
        by_gold.sort_by(|&a, &b| gold_rank[a].cmp(&gold_rank[b]).then(cmp(metric[a], metric[b])));
        let mut both_ties = 0u64;
        let mut gold_tied = 0u64;
        let mut start = 0;
        while start < n {
            // A run of equal gold values (one rank): at least one value.
            let mut end = start + 1;
            while end < n && gold_rank[by_gold[end]] == gold_rank[by_gold[start]] {
                end += 1;
            }
            gold_tied += pairs((end - start) as u64);
            let mut left = start;
            for pos in start..end {
                while metric[by_gold[pos]] - metric[by_gold[left]] > epsilon {
                    left += 1;
                }
                both_ties += (pos - left) as u64;
            }
            start = end;
        }
        let stats = Self {
            concordant,
            discordant,
            metric_ties: metric_tied - both_ties,
            gold_ties: gold_tied - both_ties,
            both_ties,
        };
        debug_assert_eq!(stats.total(), total);
        stats
    }

    /// All pairs.
    #[must_use]
    pub const fn total(&self) -> u64 {
        self.concordant + self.discordant + self.metric_ties + self.gold_ties + self.both_ties
    }

    /// The variant's tau, in `KendallVariants`' arithmetic; NaN where it
    /// gives NaN (tau-b and tau-c when every pair is tied in one vector) or
    /// divides by zero (no pair). `classes` is tau-c's
    /// `min(len(set(metric)), len(set(gold)))`.
    #[must_use]
    #[allow(clippy::cast_precision_loss, reason = "pair counts are far below 2^53, exact in f64")]
    pub fn tau(&self, variant: Variant, size: usize, classes: usize) -> f64 {
        let tot = self.total();
        let (metric_tie, gold_tie) = (self.metric_ties + self.both_ties, self.gold_ties + self.both_ties);
        if matches!(variant, Variant::B | Variant::C) && (metric_tie == tot || gold_tie == tot) {
            return f64::NAN;
        }
        let diff = self.concordant as f64 - self.discordant as f64;
        match variant {
            // (con - dis) / np.sqrt(tot - xtie) / np.sqrt(tot - ytie)
            Variant::B => diff / ((tot - metric_tie) as f64).sqrt() / ((tot - gold_tie) as f64).sqrt(),
            // 2 * (con - dis) / (size**2 * (minclasses - 1) / minclasses)
            Variant::C => {
                let m = classes as u64;
                let denom = ((size as u64).pow(2) * (m - 1)) as f64 / m as f64;
                2.0 * diff / denom
            }
            // Python's int / int: the exact quotient, rounded once.
            Variant::T23 => {
                let num = (self.concordant + self.both_ties) as f64
                    - (self.discordant + self.metric_ties + self.gold_ties) as f64;
                num / tot as f64
            }
            Variant::Acc23 => (self.concordant + self.both_ties) as f64 / tot as f64,
        }
    }
}

/// `KendallVariants(gold, metric, variant, epsilon)[0]`.
///
/// # Errors
/// A negative epsilon, or a non-zero one with tau-c (as the reference); a
/// NaN gold score (`KendallVariants` assumes there is none; a missing score
/// is left out before, as mt-metrics-eval filters `None`).
pub fn kendall(gold: &[f64], metric: &[f64], variant: Variant, epsilon: f64) -> Result<f64, String> {
    super::check_gold(gold)?;
    if epsilon.is_nan() || epsilon < 0.0 {
        return Err(format!("epsilon must be non-negative (got {epsilon})"));
    }
    if epsilon > 0.0 && variant == Variant::C {
        return Err("a non-zero epsilon with tau-c is not supported (as in mt-metrics-eval)".into());
    }
    let stats = TauStats::of(gold, metric, epsilon);
    let classes = if variant == Variant::C { distinct(metric).min(distinct(gold)) } else { 0 };
    Ok(stats.tau(variant, gold.len(), classes))
}

const fn pairs(n: u64) -> u64 {
    n * n.saturating_sub(1) / 2
}

/// numpy's order of float64 values, NaN after every number (a total
/// order: sorting never meets an inconsistent comparison).
fn cmp(a: f64, b: f64) -> Ordering {
    a.partial_cmp(&b).unwrap_or_else(|| a.is_nan().cmp(&b.is_nan()))
}

/// Ranks 0.. of the values in increasing order: equal values (`-0.0 == 0.0`
/// too) share one; each NaN, equal to nothing, has its own, above every
/// number.
fn dense_ranks(v: &[f64]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..v.len()).collect();
    order.sort_by(|&a, &b| cmp(v[a], v[b]));
    let mut ranks = vec![0; v.len()];
    let mut rank = 0;
    for k in 1..order.len() {
        if v[order[k]] != v[order[k - 1]] {
            rank += 1;
        }
        ranks[order[k]] = rank;
    }
    ranks
}

/// Python's `len(set(v))` for float64 values.
fn distinct(v: &[f64]) -> usize {
    let mut sorted: Vec<f64> = v.to_vec();
    sorted.sort_by(|a, b| cmp(*a, *b));
    sorted.dedup_by(|a, b| a == b);
    sorted.len()
}

/// Counts of ranks inserted so far.
struct Fenwick(Vec<u64>);

impl Fenwick {
    fn new(n: usize) -> Self {
        Self(vec![0; n + 1])
    }

    fn add(&mut self, rank: usize) {
        let mut i = rank + 1;
        while i < self.0.len() {
            self.0[i] += 1;
            i += i & i.wrapping_neg();
        }
    }

    /// Inserted ranks below `rank`.
    fn count_below(&self, rank: usize) -> u64 {
        let mut i = rank.min(self.0.len() - 1);
        let mut s = 0;
        while i > 0 {
            s += self.0[i];
            i &= i - 1;
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The reference's n x n definition, pair by pair.
    fn brute(gold: &[f64], metric: &[f64], eps: f64) -> TauStats {
        let mut s = TauStats::default();
        for i in 0..gold.len() {
            for j in i + 1..gold.len() {
                let dx = metric[j] - metric[i];
                let (xt, yt) = (dx.abs() <= eps, gold[j] - gold[i] == 0.0);
                match (xt, yt) {
                    (true, true) => s.both_ties += 1,
                    (true, false) => s.metric_ties += 1,
                    (false, true) => s.gold_ties += 1,
                    _ if (dx > 0.0) == (gold[j] > gold[i]) => s.concordant += 1,
                    _ => s.discordant += 1,
                }
            }
        }
        s
    }

    #[test]
    fn counts_equal_the_pairwise_definition() {
        let mut state = 12345u64;
        let mut next = move |k: u64| {
            state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            (state >> 33) % k
        };
        for n in [0usize, 1, 2, 3, 7, 30, 200] {
            for eps in [0.0, 0.25, 1.0, 3.0] {
                #[allow(clippy::cast_precision_loss, reason = "small test values")]
                let gold: Vec<f64> = (0..n).map(|_| next(5) as f64).collect();
                #[allow(clippy::cast_precision_loss, reason = "small test values")]
                let metric: Vec<f64> = (0..n).map(|_| next(9) as f64 / 4.0).collect();
                assert_eq!(TauStats::of(&gold, &metric, eps), brute(&gold, &metric, eps), "n {n} eps {eps}");
            }
        }
    }

    #[test]
    fn taus_of_a_small_case() {
        // scipy.stats.kendalltau([1, 2, 3, 3], [1, 3, 2, 2]) and KendallVariants
        // give 0.19999999999999998 (tau-b: 1 / sqrt(5) / sqrt(5)).
        let (g, m) = ([1.0, 2.0, 3.0, 3.0], [1.0, 3.0, 2.0, 2.0]);
        assert_eq!(kendall(&g, &m, Variant::B, 0.0).unwrap(), 0.199_999_999_999_999_98);
        // KendallVariants(..., variant='acc23') = 0.6666666666666666.
        assert_eq!(kendall(&g, &m, Variant::Acc23, 0.0).unwrap(), 2.0 / 3.0);
        assert!(kendall(&[1.0, 1.0], &[1.0, 2.0], Variant::B, 0.0).unwrap().is_nan());
        assert!(kendall(&g, &m, Variant::C, 0.5).is_err());
        assert!(kendall(&g, &m, Variant::B, -1.0).is_err());
    }

    #[test]
    fn a_nan_gold_score_is_refused_and_never_hangs() {
        // The case: the run of equal gold values never advanced past
        // a NaN. Run in a thread, so that a hang fails the test.
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let (g, m) = ([1.0, f64::NAN, 3.0, 2.0], [0.1, 0.2, 0.3, 0.4]);
            let stats = TauStats::of(&g, &m, 0.0);
            let eps = TauStats::of(&g, &m, 0.15);
            tx.send((stats, eps, kendall(&g, &m, Variant::B, 0.0))).unwrap();
        });
        let (stats, eps, tau) =
            rx.recv_timeout(std::time::Duration::from_secs(20)).expect("TauStats::of hangs on a NaN");
        // Every pair counted once; the NaN tied with nothing in the gold.
        for s in [stats, eps] {
            assert_eq!((s.total(), s.gold_ties, s.both_ties), (6, 0, 0), "{s:?}");
        }
        let e = tau.unwrap_err();
        assert!(e.contains("NaN"), "{e}");
    }
}
