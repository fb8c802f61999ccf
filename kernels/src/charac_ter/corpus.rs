//! Corpus summary of sentence `CharacTER` scores, as `cer.calculate_cer_corpus`
//! computes it with Python 3.11's `statistics` module: `mean` is the exact
//! mean of the floats rounded once, `stdev` the correctly rounded square root
//! of the exact sample variance, `median` the middle value (the float average
//! of the two middle values for an even count).
//!
//! Exactness: every finite f64 is `m · 2^e` with an integer `m`, so sums of
//! scores and of their squares are exact big integers at a common scale; only
//! the final division and square root round.

use num_bigint::BigUint;

/// `{count, mean, median, std, min, max}` of a list of scores.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CorpusSummary {
    /// Number of scores.
    pub count: usize,
    /// `statistics.mean`.
    pub mean: f64,
    /// `statistics.median`.
    pub median: f64,
    /// `statistics.stdev`; `None` for a single score (as `cer`).
    pub std: Option<f64>,
    /// Smallest score.
    pub min: f64,
    /// Largest score.
    pub max: f64,
}

/// Smallest binary exponent of a finite f64 (subnormal unit), negated: every
/// f64 is an integer multiple of `2^-SCALE`.
const SCALE: u64 = 1074;

/// `statistics.mean(scores)` of Python 3.11: the exact mean of the floats,
/// rounded once; `None` when empty or when a score is negative or not
/// finite.
#[must_use]
pub fn exact_mean(scores: &[f64]) -> Option<f64> {
    if scores.is_empty() || scores.iter().any(|x| !x.is_finite() || *x < 0.0) {
        return None;
    }
    let mut sx = BigUint::default();
    for &x in scores {
        sx += scaled(x);
    }
    Some(ratio_to_f64(&sx, &(BigUint::from(scores.len()) << SCALE)))
}

/// `x · 2^SCALE` as an exact integer (x finite, non-negative).
fn scaled(x: f64) -> BigUint {
    let (m, e) = decompose(x);
    let shift = u64::try_from(i64::from(e) + SCALE.cast_signed()).unwrap_or(0);
    BigUint::from(m) << shift
}

impl CorpusSummary {
    /// The summary of `scores`; `None` when empty (Python raises
    /// `StatisticsError`) or when a score is negative or not finite
    /// (`CharacTER` scores lie in [0, 1]).
    #[must_use]
    pub fn from_scores(scores: &[f64]) -> Option<Self> {
        if scores.is_empty() || scores.iter().any(|x| !x.is_finite() || *x < 0.0) {
            return None;
        }
        let n = scores.len();
        let mut sorted = scores.to_vec();
        sorted.sort_by(f64::total_cmp);
        let median = if n % 2 == 1 { sorted[n / 2] } else { f64::midpoint(sorted[n / 2 - 1], sorted[n / 2]) };
        let min = sorted[0];
        let max = sorted[n - 1];

        // Exact Σx · 2^SCALE and Σx² · 2^(2·SCALE).
        let mut sx = BigUint::default();
        let mut sxx = BigUint::default();
        for &x in scores {
            let (m, e) = decompose(x);
            if m == 0 {
                continue;
            }
            let shift = u64::try_from(i64::from(e) + SCALE.cast_signed()).unwrap_or(0);
            sx += BigUint::from(m) << shift;
            sxx += BigUint::from(u128::from(m) * u128::from(m)) << (2 * shift);
        }
        let nb = BigUint::from(n);
        let mean = ratio_to_f64(&sx, &(nb.clone() << SCALE));
        let std = (n > 1).then(|| {
            // Sample variance = (n·Σx² − (Σx)²) / (n·(n−1)), at scale 2^(2·SCALE).
            let num = &nb * &sxx - &sx * &sx;
            let den = (&nb * BigUint::from(n - 1)) << (2 * SCALE);
            sqrt_ratio_to_f64(&num, &den)
        });
        Some(Self { count: n, mean, median, std, min, max })
    }
}

/// `x = m · 2^e` with an integer mantissa `m` (x finite, non-negative).
fn decompose(x: f64) -> (u64, i32) {
    let bits = x.to_bits();
    let exp = i32::try_from((bits >> 52) & 0x7ff).unwrap_or(0);
    let frac = bits & ((1u64 << 52) - 1);
    if exp == 0 { (frac, -1074) } else { (frac | (1u64 << 52), exp - 1075) }
}

/// `q · 2^-k` as an f64, for `q < 2^64` (exact power-of-two scaling in two steps).
fn scale_down(q: u64, k: i64) -> f64 {
    #[allow(clippy::cast_precision_loss, reason = "correctly rounded by `as`; q carries a sticky bit")]
    let mut v = q as f64;
    let mut k = k;
    while k > 1000 {
        v *= 2f64.powi(-1000);
        k -= 1000;
    }
    while k < -1000 {
        v *= 2f64.powi(1000);
        k += 1000;
    }
    v * 2f64.powi(i32::try_from(-k).unwrap_or(0))
}

/// `num / den` correctly rounded to nearest (ties to even), as Python's
/// `int / int` (den > 0).
fn ratio_to_f64(num: &BigUint, den: &BigUint) -> f64 {
    if num.bits() == 0 {
        return 0.0;
    }
    // Choose k so that the quotient has 62 or 63 bits.
    let k = 62 + i64::try_from(den.bits()).unwrap_or(0) - i64::try_from(num.bits()).unwrap_or(0);
    let (n, d) = shifted(num, den, k);
    let q = &n / &d;
    let sticky = u64::from(&q * &d != n);
    let q = u64::try_from(q).unwrap_or(u64::MAX) | sticky;
    scale_down(q, k)
}

/// `sqrt(num / den)` correctly rounded (den > 0), as Python 3.11's
/// `statistics._float_sqrt_of_frac`.
fn sqrt_ratio_to_f64(num: &BigUint, den: &BigUint) -> f64 {
    if num.bits() == 0 {
        return 0.0;
    }
    // sqrt(num · 4^k / den) with 62–64 bits, then scaled by 2^-k.
    let k = (124 + i64::try_from(den.bits()).unwrap_or(0) - i64::try_from(num.bits()).unwrap_or(0)).div_euclid(2) + 1;
    let (n, d) = shifted(num, den, 2 * k);
    let q = &n / &d;
    let s = q.sqrt();
    // Exact iff s² · den == num · 4^k.
    let sticky = u64::from(&s * &s * &d != n);
    let s = u64::try_from(s).unwrap_or(u64::MAX) | sticky;
    scale_down(s, k)
}

/// `(num · 2^k, den)` for k ≥ 0, `(num, den · 2^-k)` otherwise.
fn shifted(num: &BigUint, den: &BigUint, k: i64) -> (BigUint, BigUint) {
    if k >= 0 { (num << k.unsigned_abs(), den.clone()) } else { (num.clone(), den << k.unsigned_abs()) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cer_readme_example() {
        // cer README: mean 0.3127282211789254, std 0.07561653111280243.
        let s = CorpusSummary::from_scores(&[0.36619718309859156, 0.25925925925925924]).unwrap();
        assert_eq!(s.count, 2);
        assert_eq!(s.mean, 0.3127282211789254);
        assert_eq!(s.std, Some(0.07561653111280243));
        assert_eq!(s.median, 0.3127282211789254);
        assert_eq!(s.min, 0.25925925925925924);
        assert_eq!(s.max, 0.36619718309859156);
    }

    #[test]
    fn python_statistics_values() {
        // statistics.mean([0.1, 0.2, 0.3]) == 0.2 (exact mean rounded once;
        // the float sum would give 0.20000000000000004).
        let s = CorpusSummary::from_scores(&[0.1, 0.2, 0.3]).unwrap();
        assert_eq!(s.mean, 0.2);
        assert_eq!(s.std, Some(0.09999999999999999));
        let one = CorpusSummary::from_scores(&[0.5]).unwrap();
        assert_eq!((one.mean, one.median, one.std), (0.5, 0.5, None));
        let same = CorpusSummary::from_scores(&[0.25, 0.25, 0.25]).unwrap();
        assert_eq!(same.std, Some(0.0));
        assert!(CorpusSummary::from_scores(&[]).is_none());
        let z = CorpusSummary::from_scores(&[0.0, 1.0, 0.0, 1.0]).unwrap();
        assert_eq!((z.mean, z.median), (0.5, 0.5));
        assert_eq!(z.std, Some(0.5773502691896257));
    }
}
