//! Soft pairwise accuracy (SPA), the system-level measure of WMT24 and
//! WMT25: mt-metrics-eval's `stats.PairwiseConfidenceError` over `pce.py`
//! (Thompson et al. 2024), commit 68a481a.
//!
//! For the gold scores and for the metric's, a paired permutation test
//! gives, for every pair of systems `i < j`, the p-value of "system `i` is
//! better than system `j`" from their segment scores; SPA is 1 minus the
//! mean absolute difference between the gold and the metric p-values.
//!
//! The test is `pce.compute_pairwise_p_values`: `np.random.default_rng(seed)`
//! draws a `perms x segments` float32 matrix in [0, 1), `np.rint` makes it
//! 0/1 and `2m - 1` makes it ±1 (the same matrix for the gold and every
//! metric, as the seed is fixed); the scores are cast to float32; a system's
//! score is its row's float32 sum (numpy's pairwise summation); each
//! permutation's system score is the ±1-weighted sum of its segments (a
//! float32 `matmul`); and the p-value of `i > j` is the share of
//! permutations whose difference reaches the observed one.
//!
//! The one departure: numpy's `matmul` sums in an order of its BLAS
//! library's choosing (blocked, vectorised), which no other program can
//! follow; here each permuted sum is accumulated in float64 and rounded
//! once to float32, the correctly rounded value BLAS approximates. A
//! p-value can then differ from the reference's by one permutation in a
//! thousand where a permuted difference lands within float32 rounding of
//! the observed one (the measured agreement is in the README).

use rayon::prelude::*;

use crate::py::number::{numpy_mean, numpy_sum};
use crate::py::random::Pcg64;

/// `PairwiseConfidenceError`'s defaults: 1000 permutations, seed 4.
pub const DEFAULT_PERMS: usize = 1000;
/// See [`DEFAULT_PERMS`].
pub const DEFAULT_SEED: u64 = 4;

/// `meta_spa`'s options: `perms:N` (1000), `seed:S` (4).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SpaOptions {
    /// Permutations per p-value.
    pub perms: usize,
    /// `np.random.default_rng`'s seed.
    pub seed: u64,
}

impl Default for SpaOptions {
    fn default() -> Self {
        Self { perms: DEFAULT_PERMS, seed: DEFAULT_SEED }
    }
}

/// The option keys of `meta_spa`.
pub const OPTIONS: &[crate::options::OptionKey] = &[
    crate::options::OptionKey::new("perms", "`1000` \\| N >= 1", "permutations of each pairwise test"),
    crate::options::OptionKey::new("seed", "`4` \\| an integer >= 0", "the seed of numpy's `default_rng`"),
];

impl SpaOptions {
    /// Parses `perms:N|seed:S`.
    ///
    /// # Errors
    /// Unknown keys, values that are not whole numbers, 0 permutations.
    pub fn parse(options: &str) -> Result<Self, crate::MetricError> {
        use crate::signature::{bad_value, parse_options};
        let mut o = Self::default();
        for (k, v) in parse_options("meta_spa", options)? {
            match k.as_str() {
                "perms" => {
                    o.perms =
                        v.parse().ok().filter(|&n| n > 0).ok_or_else(|| {
                            bad_value("meta_spa", &k, &v, "a whole number of permutations, at least 1")
                        })?;
                }
                "seed" => o.seed = v.parse().map_err(|_| bad_value("meta_spa", &k, &v, "a whole number >= 0"))?,
                _ => crate::options::other_key("meta_spa", &k, &[OPTIONS])?,
            }
        }
        Ok(o)
    }
}

/// The ±1 matrix of `compute_pairwise_p_values` (`perms` rows of `segments`),
/// as float64 signs.
#[must_use]
pub fn permutation_signs(perms: usize, segments: usize, seed: u64) -> Vec<f64> {
    let mut bits = Pcg64::new(u128::from(seed));
    (0..perms * segments)
        .map(|_| {
            // random(dtype=float32) is (u >> 8) / 2^24; rint rounds 0.5 to 0 (even).
            if bits.next_u32() >> 8 > 1 << 23 { 1.0 } else { -1.0 }
        })
        .collect()
}

/// `compute_pairwise_p_values(scores)` for `scores` as `num_sys` rows of
/// float32 segment scores, with the signs of [`permutation_signs`]: the
/// p-values of the upper triangle, row by row (`i < j`).
#[must_use]
#[allow(clippy::cast_possible_truncation, reason = "float32 is the reference's precision")]
#[allow(clippy::cast_precision_loss, reason = "counts are far below 2^53")]
pub fn pairwise_p_values(scores: &[f32], num_sys: usize, signs: &[f64]) -> Vec<f64> {
    let segments = scores.len() / num_sys.max(1);
    let perms = signs.len() / segments.max(1);
    let rows: Vec<&[f32]> = scores.chunks(segments.max(1)).take(num_sys).collect();
    let sys: Vec<f32> = rows.iter().map(|r| numpy_sum(r)).collect();
    let wide: Vec<Vec<f64>> = rows.iter().map(|r| r.iter().map(|&x| f64::from(x)).collect()).collect();
    // partial[p * num_sys + i]: permutation p's score of system i.
    let partial: Vec<f32> = signs
        .par_chunks(segments.max(1))
        .take(perms)
        .flat_map_iter(|m| wide.iter().map(move |x| m.iter().zip(x).map(|(s, v)| s * v).sum::<f64>() as f32))
        .collect();
    let mut out = Vec::with_capacity(num_sys * num_sys.saturating_sub(1) / 2);
    for i in 0..num_sys {
        for j in i + 1..num_sys {
            let test = sys[i] - sys[j];
            let hits = (0..perms).filter(|&p| partial[p * num_sys + i] - partial[p * num_sys + j] >= test).count();
            out.push(hits as f64 / perms as f64);
        }
    }
    out
}

/// `compute_one_minus_pce`: 1 - the mean absolute difference of two
/// upper triangles (numpy's mean).
#[must_use]
pub fn one_minus_pce(gold: &[f64], metric: &[f64]) -> f64 {
    let d: Vec<f64> = gold.iter().zip(metric).map(|(g, m)| (g - m).abs()).collect();
    1.0 - numpy_mean(&d).unwrap_or(f64::NAN)
}

/// `PairwiseConfidenceError(gold, metric, num_sys, perms, filter_nones)`
/// with the gold p-values given (they are the same for every metric of a
/// test set): the packed vectors, missing gold scores filtered out in
/// tandem as `filter_gold_nones` does, then reshaped into `num_sys` rows.
///
/// # Errors
/// What the reference cannot reshape: filtered vectors whose length is not
/// a multiple of `num_sys` (the missing gold scores are not the same
/// segments for every system), or fewer than two systems.
pub fn spa(gold: &[Option<f64>], metric: &[f64], num_sys: usize, perms: usize, seed: u64) -> Result<f64, String> {
    let (g, m) = filtered(gold, metric, num_sys)?;
    let signs = permutation_signs(perms, g.len() / num_sys, seed);
    let gp = pairwise_p_values(&g, num_sys, &signs);
    Ok(one_minus_pce(&gp, &pairwise_p_values(&m, num_sys, &signs)))
}

/// The gold and metric scores as `PairwiseConfidenceError` reshapes them:
/// missing gold scores dropped in tandem, cast to float32.
///
/// # Errors
/// See [`spa`].
#[allow(clippy::cast_possible_truncation, reason = "float32 is the reference's precision")]
pub fn filtered(gold: &[Option<f64>], metric: &[f64], num_sys: usize) -> Result<(Vec<f32>, Vec<f32>), String> {
    if num_sys < 2 {
        return Err(format!("soft pairwise accuracy compares systems: {num_sys} system(s) given"));
    }
    if gold.len() != metric.len() {
        return Err(format!("{} gold scores but {} metric scores", gold.len(), metric.len()));
    }
    let (g, m): (Vec<f32>, Vec<f32>) =
        gold.iter().zip(metric).filter_map(|(g, &m)| g.map(|g| (g as f32, m as f32))).unzip();
    if g.is_empty() || g.len() % num_sys != 0 {
        return Err(format!(
            "{} of {} gold scores are missing, which leaves {} scores: not {num_sys} equal rows. \
             mt-metrics-eval drops missing gold scores from the packed vector and reshapes it into one row per \
             system, which fails here (a segment must miss its gold score for every system or for none)",
            gold.len() - g.len(),
            gold.len(),
            g.len()
        ));
    }
    Ok((g, m))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn p_values_of_a_clear_order_and_of_equal_systems() {
        let signs = permutation_signs(1000, 5, 4);
        // numpy: np.rint(default_rng(4).random((1000, 5), dtype=np.float32)) has 2531 ones.
        assert_eq!(signs.iter().filter(|&&s| s > 0.0).count(), 2531);
        // A beats B on every segment: only the all-plus permutations reach the observed difference.
        let a = [0.8f32, 0.9, 0.7, 1.0, 0.6];
        let b = [0.2f32, 0.3, 0.1, 0.4, 0.0];
        let scores: Vec<f32> = a.iter().chain(&b).copied().collect();
        let all_plus = signs.chunks(5).filter(|m| m.iter().all(|&s| s > 0.0)).count();
        #[allow(clippy::cast_precision_loss)]
        let want = all_plus as f64 / 1000.0;
        assert_eq!(pairwise_p_values(&scores, 2, &signs), vec![want]);
        // pce.compute_pairwise_p_values([a, b]) at 68a481a: 0.036.
        assert_eq!(want, 0.036);
        // Identical gold and metric: SPA 1.
        let gold: Vec<Option<f64>> = scores.iter().map(|&x| Some(f64::from(x))).collect();
        let metric: Vec<f64> = scores.iter().map(|&x| f64::from(x)).collect();
        assert_eq!(spa(&gold, &metric, 2, 1000, 4), Ok(1.0));
        // A missing gold score on one system only cannot be reshaped.
        let mut g2 = gold;
        g2[0] = None;
        assert!(spa(&g2, &metric, 2, 1000, 4).unwrap_err().contains("not 2 equal rows"));
    }
}
