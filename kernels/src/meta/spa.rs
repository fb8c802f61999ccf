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
//! numpy's `matmul` sums in an order of its BLAS library's choosing. For
//! fewer than [`SEQUENTIAL_BELOW`] segments, `OpenBLAS`'s kernels accumulate
//! each output in segment order, one float32 FMA after the other (measured
//! on its `SkylakeX` kernels: every output equal to the sequential float32
//! sum up to 31 segments, none of the simple orders from 32 on), and here
//! each permuted sum is that sequential sum. This matters most there: with
//! few segments the same signs recur (each of 2^5 draws about 31 times in
//! 1,000 at 5 segments), and the all-plus draw then ties the observed
//! difference exactly as numpy's own sum gives it. From 32 segments the
//! kernels' order is blocked and vectorised, which no other program can
//! follow; there each permuted sum is computed exactly (the row's float32
//! values as integers on one scale; a float64 running sum where the values
//! span too many binary orders for that) and rounded once to float32, the
//! correctly rounded value BLAS approximates. A p-value can then differ
//! from the reference's by one permutation in a thousand where a permuted
//! difference lands within float32 rounding of the observed one (the
//! measured agreement is in docs/meta-evaluation.md).

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

/// Below this many segments, a permuted system score is the sequential
/// float32 sum of the signed scores, as `OpenBLAS`'s `sgemm` computes it (see
/// the module's documentation).
pub const SEQUENTIAL_BELOW: usize = 32;

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
    // partial[p * num_sys + i]: permutation p's score of system i.
    let partial: Vec<f32> = if segments < SEQUENTIAL_BELOW {
        // One float32 FMA after the other, in segment order (±1 × x is exact).
        signs
            .chunks(segments.max(1))
            .take(perms)
            .flat_map(|m| rows.iter().map(move |r| m.iter().zip(*r).fold(0f32, |acc, (&s, &x)| acc + s as f32 * x)))
            .collect()
    } else if let Some(fixed) = rows.iter().map(|r| FixedRow::new(r)).collect::<Option<Vec<FixedRow>>>() {
        // Exact integer sums, rounded once (order-free, vectorised).
        let masks: Vec<i64> = signs.iter().map(|&s| if s < 0.0 { -1 } else { 0 }).collect();
        masks
            .par_chunks(segments.max(1))
            .take(perms)
            .flat_map_iter(|m| fixed.iter().map(move |row| row.signed_sum(m)))
            .collect()
    } else {
        let wide: Vec<Vec<f64>> = rows.iter().map(|r| r.iter().map(|&x| f64::from(x)).collect()).collect();
        signs
            .par_chunks(segments.max(1))
            .take(perms)
            .flat_map_iter(|m| wide.iter().map(move |x| m.iter().zip(x).map(|(s, v)| s * v).sum::<f64>() as f32))
            .collect()
    };
    p_values(&partial, &sys, perms)
}

/// The upper triangle's p-values (`i < j`, row by row): the share of
/// permutations whose difference of system scores (`partial`, permutation
/// by permutation) reaches the observed one (of `sys`).
#[allow(clippy::cast_precision_loss, reason = "counts are far below 2^53")]
fn p_values(partial: &[f32], sys: &[f32], perms: usize) -> Vec<f64> {
    let ns = sys.len();
    let mut out = Vec::with_capacity(ns * ns.saturating_sub(1) / 2);
    for i in 0..ns {
        for j in i + 1..ns {
            let test = sys[i] - sys[j];
            let hits = (0..perms).filter(|&p| partial[p * ns + i] - partial[p * ns + j] >= test).count();
            out.push(hits as f64 / perms as f64);
        }
    }
    out
}

/// A row of float32 scores as integers on one scale: each value is
/// `ints[k] * 2^scale` exactly, so a ±1-weighted sum of the row is an exact
/// integer sum (any order gives it), rounded once to float32: the value a
/// float64 running sum gives whenever that sum is exact, and the correctly
/// rounded one otherwise.
struct FixedRow {
    ints: Vec<i64>,
    scale: i32,
}

impl FixedRow {
    /// The row on the scale of its smallest exponent; `None` when the
    /// values span too many binary orders for an exact 63-bit sum (or one is
    /// not finite).
    fn new(row: &[f32]) -> Option<Self> {
        let (mut ints, scale) = on_one_scale(&[row], 62)?;
        Some(Self { ints: ints.pop()?, scale })
    }

    /// The row summed with the signs `masks` (0: +1, -1: -1), exactly, then
    /// rounded once to float32.
    fn signed_sum(&self, masks: &[i64]) -> f32 {
        round_scaled(signed_int_sum(&self.ints, masks), self.scale)
    }
}

/// Rows of float32 values as integers on the scale of their smallest
/// exponent (`value = int * 2^scale` exactly); `None` when they span too
/// many binary orders for a row's sum to stay under `2^bits` (or one is not
/// finite).
fn on_one_scale(rows: &[&[f32]], bits: i32) -> Option<(Vec<Vec<i64>>, i32)> {
    let mut all: Vec<Vec<(i64, i32)>> = Vec::with_capacity(rows.len());
    for row in rows {
        if row.iter().any(|x| !x.is_finite()) {
            return None;
        }
        all.push(
            row.iter()
                .map(|&x| {
                    let bits = x.to_bits();
                    let exp = i32::try_from((bits >> 23) & 0xff).unwrap_or(0);
                    let mant = i64::from(bits & 0x007f_ffff) | if exp > 0 { 0x0080_0000 } else { 0 };
                    let sign = if bits >> 31 == 1 { -1 } else { 1 };
                    (sign * mant, exp.max(1) - 150)
                })
                .collect(),
        );
    }
    let nonzero = || all.iter().flatten().filter(|p| p.0 != 0).map(|p| p.1);
    let scale = nonzero().min().unwrap_or(0);
    let top = nonzero().max().unwrap_or(0);
    // 24-bit mantissas shifted by the span, summed over a row: under 2^62.
    let longest = rows.iter().map(|r| r.len()).max().unwrap_or(0);
    let len_bits = i32::try_from(usize::BITS - longest.leading_zeros()).unwrap_or(i32::MAX);
    if top - scale + 24 + len_bits > bits {
        return None;
    }
    let ints =
        all.iter().map(|r| r.iter().map(|&(m, e)| if m == 0 { 0 } else { m << (e - scale) }).collect()).collect();
    Some((ints, scale))
}

/// `ints` summed with the signs `masks` (0: +1, -1: -1), exactly.
fn signed_int_sum(ints: &[i64], masks: &[i64]) -> i64 {
    let mut acc = [0i64; 4];
    let whole = ints.len() / 4 * 4;
    for (v, m) in ints[..whole].chunks_exact(4).zip(masks[..whole].chunks_exact(4)) {
        for k in 0..4 {
            acc[k] += (v[k] ^ m[k]) - m[k];
        }
    }
    let mut sum = (acc[0] + acc[1]) + (acc[2] + acc[3]);
    for (v, m) in ints[whole..].iter().zip(&masks[whole..]) {
        sum += (v ^ m) - m;
    }
    sum
}

/// The exact value `sum * 2^scale` rounded once to float32.
#[allow(clippy::cast_precision_loss, reason = "the one rounding of the exact sum, as intended")]
#[allow(clippy::cast_possible_truncation, reason = "float32 is the reference's precision")]
fn round_scaled(sum: i64, scale: i32) -> f32 {
    // Exact in float64 when under 2^53; otherwise round to float32 directly (one rounding).
    if sum.unsigned_abs() < 1 << 53 {
        (sum as f64 * 2f64.powi(scale)) as f32
    } else {
        (f64::from(sum as f32) * 2f64.powi(scale)) as f32
    }
}

/// SPA of the two mixtures of a permutation test's draw between metrics
/// `a` and `b` (float32, `num_sys` rows): the first takes `a`'s score where
/// the draw says so and `b`'s elsewhere, the second the opposite. Each
/// permutation's system sums are `B + X` and `A - X`, `X` the signed sum of
/// the picked differences `a - b`, all exact integers on one scale per
/// system, so one sum gives both mixtures the values
/// [`pairwise_p_values`] gives each. `X` comes from subset sums: the
/// segments in groups of 8, each group's 256 sums of picked differences
/// tabled once per draw, then a permutation's sum is one lookup per group
/// (its signs as a byte).
pub struct MixedSpa {
    num_sys: usize,
    segments: usize,
    perms: usize,
    /// Per permutation and group of segments: the segments signed +1.
    plus: Vec<u8>,
    a: Vec<f32>,
    b: Vec<f32>,
    /// Per permutation and system: the exact signed sums of `a` and `b`.
    pa: Vec<i64>,
    pb: Vec<i64>,
    /// Per system row: `a - b` as integers, and `2^scale` of the row.
    d: Vec<Vec<i64>>,
    factors: Vec<f64>,
    gold_p: Vec<f64>,
}

/// Segments per group of [`MixedSpa`]'s subset sums.
const GROUP: usize = 8;
/// Subsets of a group.
const SUBSETS: usize = 1 << GROUP;

impl MixedSpa {
    /// `None` where a row's values span too many binary orders, or there are
    /// fewer than [`SEQUENTIAL_BELOW`] segments (the caller mixes and scores
    /// each draw as it is).
    #[must_use]
    pub fn new(a: &[f32], b: &[f32], num_sys: usize, signs: &[f64], gold_p: Vec<f64>) -> Option<Self> {
        let segments = a.len() / num_sys.max(1);
        // Sums in segment order (few segments) are not exact integer sums.
        if segments < SEQUENTIAL_BELOW || a.len() != b.len() || a.len() != segments * num_sys {
            return None;
        }
        let masks: Vec<i64> = signs.iter().map(|&s| if s < 0.0 { -1 } else { 0 }).collect();
        let perms = masks.len() / segments;
        let (mut ia, mut ib, mut d, mut factors) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        for (ra, rb) in a.chunks(segments).zip(b.chunks(segments)) {
            // Two bits to spare: the differences, and twice their plus-signed sum.
            let (ints, scale) = on_one_scale(&[ra, rb], 60)?;
            d.push(ints[0].iter().zip(&ints[1]).map(|(x, y)| x - y).collect::<Vec<i64>>());
            ia.push(ints[0].clone());
            ib.push(ints[1].clone());
            factors.push(2f64.powi(scale));
        }
        let sums = |rows: &[Vec<i64>]| -> Vec<i64> {
            (0..perms)
                .flat_map(|p| rows.iter().map(move |r| (p, r)))
                .map(|(p, r)| signed_int_sum(r, &masks[p * segments..(p + 1) * segments]))
                .collect()
        };
        let (pa, pb) = (sums(&ia), sums(&ib));
        let groups = segments.div_ceil(GROUP);
        let mut plus = vec![0u8; perms * groups];
        for p in 0..perms {
            for (t, &m) in masks[p * segments..(p + 1) * segments].iter().enumerate() {
                if m == 0 {
                    plus[p * groups + t / GROUP] |= 1 << (t % GROUP);
                }
            }
        }
        Some(Self { num_sys, segments, perms, plus, a: a.to_vec(), b: b.to_vec(), pa, pb, d, factors, gold_p })
    }

    /// `(SPA of the second mixture, SPA of the first)` for the draw `w`
    /// (true: the first takes `a`'s score).
    #[must_use]
    #[allow(clippy::cast_precision_loss, reason = "counts are far below 2^53")]
    pub fn pair(&self, w: &[bool]) -> (f64, f64) {
        let (ns, segs, perms) = (self.num_sys, self.segments, self.perms);
        let groups = segs.div_ceil(GROUP);
        // table[(g * SUBSETS + subset) * ns + i]: system i's picked differences summed over the subset of group g.
        let mut table = vec![0i64; groups * SUBSETS * ns];
        let mut total = vec![0i64; ns];
        for g in 0..groups {
            for v in 1..SUBSETS {
                let low = v.trailing_zeros() as usize;
                let t = g * GROUP + low;
                let (at, from) = ((g * SUBSETS + v) * ns, (g * SUBSETS + (v & (v - 1))) * ns);
                for i in 0..ns {
                    let y = if t < segs && w[i * segs + t] { self.d[i][t] } else { 0 };
                    table[at + i] = table[from + i] + y;
                }
            }
            for i in 0..ns {
                total[i] += table[(g * SUBSETS + SUBSETS - 1) * ns + i];
            }
        }
        let (mut p1, mut p2) = (vec![0f32; perms * ns], vec![0f32; perms * ns]);
        let mut acc = vec![0i64; ns];
        for p in 0..perms {
            acc.fill(0);
            for (g, &byte) in self.plus[p * groups..(p + 1) * groups].iter().enumerate() {
                let row = &table[(g * SUBSETS + usize::from(byte)) * ns..][..ns];
                for (x, y) in acc.iter_mut().zip(row) {
                    *x += y;
                }
            }
            for i in 0..ns {
                // Plus-signed minus minus-signed: twice the plus sum less the total.
                let x = 2 * acc[i] - total[i];
                p1[p * ns + i] = round_factor(self.pb[p * ns + i] + x, self.factors[i]);
                p2[p * ns + i] = round_factor(self.pa[p * ns + i] - x, self.factors[i]);
            }
        }
        let spa_of = |partial: &[f32], first: bool| {
            let sys: Vec<f32> = (0..ns)
                .map(|i| {
                    let row: Vec<f32> =
                        (i * segs..(i + 1) * segs).map(|t| if w[t] == first { self.a[t] } else { self.b[t] }).collect();
                    numpy_sum(&row)
                })
                .collect();
            one_minus_pce(&self.gold_p, &p_values(partial, &sys, perms))
        };
        (spa_of(&p2, false), spa_of(&p1, true))
    }
}

/// The exact value `sum * factor` (a power of two) rounded once to float32.
#[allow(clippy::cast_precision_loss, reason = "the one rounding of the exact sum, as intended")]
#[allow(clippy::cast_possible_truncation, reason = "float32 is the reference's precision")]
fn round_factor(sum: i64, factor: f64) -> f32 {
    if sum.unsigned_abs() < 1 << 53 { (sum as f64 * factor) as f32 } else { (f64::from(sum as f32) * factor) as f32 }
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

    /// The integer sums equal float64 running sums where those are exact,
    /// round once where they are not, and leave rows spanning too many
    /// binary orders to the float64 path.
    #[test]
    #[allow(clippy::cast_possible_truncation, clippy::cast_precision_loss)]
    fn exact_integer_sums() {
        let mut next = crate::testutil::xorshift(0x9e37_79b9_7f4a_7c15);
        for n in [1usize, 3, 4, 5, 200, 1501] {
            let row: Vec<f32> = (0..n).map(|_| ((next() % 20_001) as f32 - 10_000.0) / 4096.0).collect();
            let masks: Vec<i64> = (0..n).map(|_| if next().is_multiple_of(2) { 0 } else { -1 }).collect();
            let fixed = FixedRow::new(&row).unwrap();
            let want =
                row.iter().zip(&masks).map(|(&v, &m)| if m == 0 { f64::from(v) } else { -f64::from(v) }).sum::<f64>();
            assert_eq!(fixed.signed_sum(&masks), want as f32, "n = {n}");
        }
        // 2^-20 + 3 * 2^10 as integers passes 2^53: the exact sum is rounded
        // once to float32 (2^-20 is below half its ulp), whatever the sign.
        let row = [2f32.powi(-20), 1024.0, 2048.0];
        let fixed = FixedRow::new(&row).unwrap();
        assert_eq!(fixed.signed_sum(&[0, 0, 0]), 3072.0);
        assert_eq!(fixed.signed_sum(&[-1, 0, -1]), -1024.0);
        assert!(FixedRow::new(&[1e-30, 1e30]).is_none());
        // Both mixtures of a draw from one pass equal each mixture scored on its own.
        for (ns, segs) in [(2usize, 32usize), (5, 40), (7, 64)] {
            let a: Vec<f32> = (0..ns * segs).map(|_| ((next() % 2001) as f32 - 1000.0) / 256.0).collect();
            let b: Vec<f32> = (0..ns * segs).map(|_| ((next() % 2001) as f32 - 1000.0) / 300.0).collect();
            let gold: Vec<f32> = (0..ns * segs).map(|_| (next() % 5) as f32).collect();
            let signs = permutation_signs(100, segs, 4);
            let gp = pairwise_p_values(&gold, ns, &signs);
            let mixed = MixedSpa::new(&a, &b, ns, &signs, gp.clone()).unwrap();
            for _ in 0..5 {
                let w: Vec<bool> = (0..ns * segs).map(|_| next().is_multiple_of(2)).collect();
                let m1: Vec<f32> = (0..ns * segs).map(|t| if w[t] { a[t] } else { b[t] }).collect();
                let m2: Vec<f32> = (0..ns * segs).map(|t| if w[t] { b[t] } else { a[t] }).collect();
                let want = (
                    one_minus_pce(&gp, &pairwise_p_values(&m2, ns, &signs)),
                    one_minus_pce(&gp, &pairwise_p_values(&m1, ns, &signs)),
                );
                assert_eq!(mixed.pair(&w), want, "{ns} x {segs}");
            }
        }
        assert!(FixedRow::new(&[f32::NAN, 1.0]).is_none());
        // Few segments: no integer sums (they are sums in segment order).
        assert!(MixedSpa::new(&[1.0; 62], &[2.0; 62], 2, &permutation_signs(10, 31, 4), vec![0.5]).is_none());
    }

    /// Few segments: each permuted score is the float32 sum in segment
    /// order, as `OpenBLAS`'s sgemm gives it, so the all-plus draws (about 31
    /// in 1,000 at 5 segments) tie the observed difference as in the
    /// reference. Values: `pce.compute_pairwise_p_values` at 68a481a, numpy
    /// 2.4.6 (`OpenBLAS` 0.3.31); the exact sums rounded once gave other
    /// p-values on these rows.
    #[test]
    fn few_segments_sum_in_segment_order() {
        let signs = permutation_signs(1000, 5, 4);
        let gold = [23.8f32, 54.42, 37.0, 60.39, 62.57, 6.55, 1.32, 83.75, 25.94, 23.43];
        let metric = [27.18f32, 54.33, 38.76, 57.47, 61.47, 5.24, -2.68, 79.22, 21.06, 22.71];
        assert_eq!(pairwise_p_values(&gold, 2, &signs), [0.171]);
        assert_eq!(pairwise_p_values(&metric, 2, &signs), [0.171]);
        let a = [1.1f32, 2.2, 3.3, 0.1, 0.7, 0.5, 0.25, 4.0, 1.0, 0.3];
        assert_eq!(pairwise_p_values(&a, 2, &signs), [0.344]);
        let (top, bottom) = a.split_at(5);
        let reversed: Vec<f32> = bottom.iter().chain(top).copied().collect();
        assert_eq!(pairwise_p_values(&reversed, 2, &signs), [0.692]);
    }
}
