//! Pearson's r and Spearman's rho, as scipy 1.17's `pearsonr` and
//! `spearmanr` compute them, with every sum exact.
//!
//! `pearsonr`: the means, the centred vectors scaled by their largest
//! magnitude, their norms (the square root of the sum of the squares), and
//! the dot product of the normalised vectors, clipped to [-1, 1]; with two
//! values, r is rounded to +-1. `spearmanr`: the average ranks
//! (`rankdata`), then `numpy.corrcoef` of the ranks (the centred dot
//! products over `n - 1`, divided by the square roots of the variances,
//! clipped). A constant vector gives NaN.
//!
//! Every operation is scipy's, in float64, except the sums: each (the
//! means' sums, the sums of squares, the dot products) is the exact sum of
//! its terms rounded once ([`ExactSum`]; the dot products' terms are the
//! exact products), so the result is the same in any order of the pairs,
//! however a query splits and merges them. numpy rounds as it sums instead
//! (`np.mean` and `np.linalg.norm` by pairwise summation, the dot product
//! from BLAS, whose order depends on the CPU), and the order is the input's:
//! scipy's value can differ in the last bits (in 390 random groups of 5 to
//! 150 pairs, 39% equal, up to 4 units in the last place). Spearman's sums
//! of ranks are exact in numpy too below about 10^5 pairs, so it is
//! scipy's value there.

use std::cmp::Ordering;

/// A sum of float64 values kept exactly as non-overlapping partial sums
/// (Shewchuk's algorithm, as Python's `math.fsum`) and rounded once, half to
/// even: the same value in any order of the terms. A non-finite term, or a
/// partial sum that overflows, makes the sum their float sum (infinite or
/// NaN), as numpy's would be.
#[derive(Debug, Clone, Default)]
pub struct ExactSum {
    partials: Vec<f64>,
    special: f64,
}

impl ExactSum {
    /// Adds `x`.
    pub fn add(&mut self, x: f64) {
        if !x.is_finite() {
            self.special += x;
            return;
        }
        let mut x = x;
        let mut i = 0;
        for j in 0..self.partials.len() {
            let mut y = self.partials[j];
            if x.abs() < y.abs() {
                std::mem::swap(&mut x, &mut y);
            }
            let hi = x + y;
            if !hi.is_finite() {
                // Python raises "intermediate overflow"; numpy's sum is infinite.
                self.special += hi;
                return;
            }
            let lo = y - (hi - x);
            if lo != 0.0 {
                self.partials[i] = lo;
                i += 1;
            }
            x = hi;
        }
        self.partials.truncate(i);
        self.partials.push(x);
    }

    /// Adds the exact product `a * b` (its rounded value and the rounding
    /// error, from a fused multiply-add).
    pub fn add_product(&mut self, a: f64, b: f64) {
        let p = a * b;
        self.add(p);
        if p.is_finite() {
            self.add(a.mul_add(b, -p));
        }
    }

    /// The sum, rounded once (`math.fsum`'s last step).
    #[must_use]
    pub fn value(&self) -> f64 {
        if self.special != 0.0 || self.special.is_nan() {
            return self.special;
        }
        let p = &self.partials;
        let Some(&last) = p.last() else { return 0.0 };
        let (mut hi, mut lo, mut n) = (last, 0.0f64, p.len() - 1);
        while n > 0 {
            let (x, y) = (hi, p[n - 1]);
            n -= 1;
            hi = x + y;
            lo = y - (hi - x);
            if lo != 0.0 {
                break;
            }
        }
        // Half-even rounding across the partials left below.
        if n > 0 && ((lo < 0.0 && p[n - 1] < 0.0) || (lo > 0.0 && p[n - 1] > 0.0)) {
            let y = lo * 2.0;
            let x = hi + y;
            if y == x - hi {
                hi = x;
            }
        }
        hi
    }
}

/// The exact sum of `v`, rounded once.
fn exact_sum(v: impl IntoIterator<Item = f64>) -> f64 {
    let mut s = ExactSum::default();
    for x in v {
        s.add(x);
    }
    s.value()
}

/// The exact dot product of `a` and `b`, rounded once.
fn exact_dot(a: impl IntoIterator<Item = f64>, b: impl IntoIterator<Item = f64>) -> f64 {
    let mut s = ExactSum::default();
    for (x, y) in a.into_iter().zip(b) {
        s.add_product(x, y);
    }
    s.value()
}

/// The length of `x` and `y`, when scipy defines their correlation: as many
/// values in each, at least two, neither vector constant.
#[allow(clippy::cast_precision_loss, reason = "a vector's length is far below 2^53")]
fn correlated_len(x: &[f64], y: &[f64]) -> Option<f64> {
    (x.len() == y.len() && x.len() >= 2 && !constant(x) && !constant(y)).then_some(x.len() as f64)
}

/// `scipy.stats.pearsonr(x, y).statistic`, its sums exact; NaN when either
/// vector is constant or has fewer than two values.
#[must_use]
pub fn pearson(x: &[f64], y: &[f64]) -> f64 {
    let Some(n) = correlated_len(x, y) else { return f64::NAN };
    // xmean = x.mean(); xm = x - xmean; xmax = max(abs(xm));
    // normxm = xmax * norm(xm / xmax); r = vecdot(xm / normxm, ym / normym)
    let centred = |v: &[f64]| {
        let mean = exact_sum(v.iter().copied()) / n;
        let c: Vec<f64> = v.iter().map(|a| a - mean).collect();
        let max = c.iter().fold(0.0f64, |m, a| m.max(a.abs()));
        let norm = max * exact_sum(c.iter().map(|a| (a / max) * (a / max))).sqrt();
        (c, norm)
    };
    let ((xm, normx), (ym, normy)) = (centred(x), centred(y));
    let r = exact_dot(xm.iter().map(|a| a / normx), ym.iter().map(|b| b / normy)).clamp(-1.0, 1.0);
    if x.len() == 2 { r.round() } else { r }
}

/// `scipy.stats.spearmanr(x, y).statistic`, its sums exact; NaN when either
/// vector is constant or has fewer than two values.
#[must_use]
pub fn spearman(x: &[f64], y: &[f64]) -> f64 {
    let Some(n) = correlated_len(x, y) else { return f64::NAN };
    let centred = |v: &[f64]| {
        let r = average_ranks(v);
        let mean = exact_sum(r.iter().copied()) / n;
        r.into_iter().map(|a| a - mean).collect::<Vec<f64>>()
    };
    let (cx, cy) = (centred(x), centred(y));
    let fact = 1.0 / (n - 1.0);
    let dot = |a: &[f64], b: &[f64]| exact_dot(a.iter().copied(), b.iter().copied()) * fact;
    let (cxx, cxy, cyy) = (dot(&cx, &cx), dot(&cx, &cy), dot(&cy, &cy));
    (cxy / cxx.sqrt() / cyy.sqrt()).clamp(-1.0, 1.0)
}

/// `scipy.stats.rankdata(v)` (method `average`): ranks from 1, ties sharing
/// the mean of their ranks.
#[must_use]
#[allow(clippy::cast_precision_loss, reason = "ranks are far below 2^53")]
pub fn average_ranks(v: &[f64]) -> Vec<f64> {
    let mut order: Vec<usize> = (0..v.len()).collect();
    order.sort_by(|&a, &b| v[a].partial_cmp(&v[b]).unwrap_or(Ordering::Equal));
    let mut ranks = vec![0.0; v.len()];
    let mut start = 0;
    while start < order.len() {
        let mut end = start + 1;
        while end < order.len() && v[order[end]] == v[order[start]] {
            end += 1;
        }
        // rankdata: 0.5 * (count[dense] + count[dense - 1] + 1)
        let rank = 0.5 * ((end + start + 1) as f64);
        for &i in &order[start..end] {
            ranks[i] = rank;
        }
        start = end;
    }
    ranks
}

/// mt-metrics-eval's `is_constant_array`: every value equal to the first.
#[must_use]
pub fn constant(v: &[f64]) -> bool {
    v.iter().all(|&a| a == v[0])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_cases_equal_scipy() {
        // scipy.stats.pearsonr([1, 2, 3, 4], [2, 1, 4, 3]).statistic
        assert!((pearson(&[1.0, 2.0, 3.0, 4.0], &[2.0, 1.0, 4.0, 3.0]) - 0.6).abs() < 1e-15);
        // scipy.stats.spearmanr([1, 2, 2, 4], [2, 1, 4, 3]).statistic = 0.31622776601683794
        assert!((spearman(&[1.0, 2.0, 2.0, 4.0], &[2.0, 1.0, 4.0, 3.0]) - 0.316_227_766_016_837_94).abs() < 1e-15);
        assert_eq!(average_ranks(&[3.0, 1.0, 3.0, 2.0]), [3.5, 1.0, 3.5, 2.0]);
        assert_eq!(pearson(&[1.0, 5.0], &[3.0, 2.0]), -1.0);
        assert!(pearson(&[1.0, 1.0, 1.0], &[1.0, 2.0, 3.0]).is_nan());
        assert!(spearman(&[1.0], &[1.0]).is_nan());
    }

    #[test]
    fn exact_sums_equal_pythons_fsum_in_any_order() {
        // math.fsum([1e16, 1.0, 1e-16]) = 1.0000000000000002e+16 (sum(): 1e+16);
        // math.fsum([0.1] * 10) = 1.0 (sum(): 0.9999999999999999);
        // math.fsum([1e100, 1.0, -1e100, 1e-100, 1e50, -1.0, -1e50]) = 1e-100.
        let cases: [(&[f64], f64); 3] = [
            (&[1e16, 1.0, 1e-16], 1.000_000_000_000_000_2e16),
            (&[0.1; 10], 1.0),
            (&[1e100, 1.0, -1e100, 1e-100, 1e50, -1.0, -1e50], 1e-100),
        ];
        for (terms, want) in cases {
            let mut v = terms.to_vec();
            for _ in 0..v.len() {
                assert_eq!(exact_sum(v.iter().copied()), want, "{v:?}");
                v.rotate_left(1);
            }
            v.reverse();
            assert_eq!(exact_sum(v.iter().copied()), want, "{v:?}");
        }
        assert!(exact_sum([1.0, f64::INFINITY, f64::NEG_INFINITY]).is_nan());
        assert_eq!(exact_sum([f64::MAX, f64::MAX]), f64::INFINITY);
    }

    /// 53 bits as a number in [0, 1).
    #[allow(clippy::cast_precision_loss, reason = "53 bits, exact")]
    fn unit(bits: u64) -> f64 {
        bits as f64 / 9_007_199_254_740_992.0
    }

    /// A group of `n` pairs, as the Python below makes it: a 64-bit LCG's
    /// top 53 bits as uniform numbers, gold scores in quarter steps, the
    /// metric `0.3 * gold + noise` (rounded to one decimal, for ties).
    fn lcg_group(seed: u64, n: usize, rounded: bool) -> (Vec<f64>, Vec<f64>) {
        let mut s = seed;
        let mut next = || {
            s = s.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            unit(s >> 11)
        };
        let (mut metric, mut gold) = (Vec::new(), Vec::new());
        for _ in 0..n {
            let g = (next() * 20.0).floor() / 4.0;
            let m = g * 0.3 + next();
            metric.push(if rounded { (m * 10.0 + 0.5).floor() / 10.0 } else { m });
            gold.push(g);
        }
        (metric, gold)
    }

    #[test]
    fn pearson_is_the_same_in_any_order_and_next_to_scipys() {
        // (seed, n, rounded, scipy 1.17.1's pearsonr(metric, gold).statistic
        // with numpy 2.4.6 and its OpenBLAS 0.3.31 on x86-64, pearsonr's
        // formula with every sum exact). Made with:
        //   import math, numpy as np, scipy.stats as ss; from fractions import Fraction as F
        //   def group(seed, n, rounded):
        //       s, m, g = seed, [], []
        //       def nxt():
        //           nonlocal s; s = (s * 6364136223846793005 + 1442695040888963407) % 2**64
        //           return (s >> 11) / 2.0**53
        //       for _ in range(n):
        //           gv = math.floor(nxt() * 20) / 4; mv = gv * 0.3 + nxt()
        //           m.append(math.floor(mv * 10 + 0.5) / 10 if rounded else mv); g.append(gv)
        //       return m, g
        //   def exact(x, y):
        //       x, y = np.asarray(x), np.asarray(y); n = len(x)
        //       xm = x - math.fsum(x) / n; ym = y - math.fsum(y) / n
        //       xmax, ymax = np.max(np.abs(xm)), np.max(np.abs(ym)); xs, ys = xm / xmax, ym / ymax
        //       nx = xmax * math.sqrt(math.fsum(xs * xs)); ny = ymax * math.sqrt(math.fsum(ys * ys))
        //       return min(1.0, max(-1.0, float(sum(F(a) * F(b) for a, b in zip(xm / nx, ym / ny)))))
        //   m, g = group(seed, n, rounded); print(ss.pearsonr(m, g).statistic, exact(m, g))
        let cases = [
            (4, 5, true, 0.939_036_473_865_816_7, 0.939_036_473_865_817),
            (22, 5, false, 0.062_357_953_678_685_88, 0.062_357_953_678_685_86),
            (3, 9, false, 0.926_557_870_527_857_1, 0.926_557_870_527_857_1),
            (12, 17, true, 0.840_525_784_733_970_1, 0.840_525_784_733_969_8),
            (9, 40, false, 0.811_653_495_829_546_4, 0.811_653_495_829_546_7),
            (31, 40, false, 0.863_886_656_237_416_9, 0.863_886_656_237_416_5),
            (6, 150, true, 0.843_016_679_468_953_9, 0.843_016_679_468_954_2),
            (35, 150, true, 0.829_188_611_534_358_3, 0.829_188_611_534_358_7),
        ];
        for (seed, n, rounded, scipy, exact) in cases {
            let (mut m, mut g) = lcg_group(seed, n, rounded);
            let r = pearson(&m, &g);
            assert_eq!(r.to_bits(), f64::to_bits(exact), "seed {seed}: {r} vs {exact}");
            // numpy rounds its sums (BLAS's dot product): a few units in the last place.
            assert!(r.to_bits().abs_diff(f64::to_bits(scipy)) <= 4, "seed {seed}: {r} vs scipy's {scipy}");
            for step in [1, n / 2, n - 1] {
                m.rotate_left(step);
                g.rotate_left(step);
                assert_eq!(pearson(&m, &g).to_bits(), r.to_bits(), "seed {seed} rotated by {step}");
            }
            m.reverse();
            g.reverse();
            assert_eq!(pearson(&m, &g).to_bits(), r.to_bits(), "seed {seed} reversed");
        }
    }
}
