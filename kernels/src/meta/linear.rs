//! Pearson's r and Spearman's rho, as scipy 1.17's `pearsonr` and
//! `spearmanr` compute them.
//!
//! `pearsonr`: the means by numpy's pairwise summation, the centred vectors
//! scaled by their largest magnitude, their norms, and the dot product of
//! the normalised vectors, clipped to [-1, 1]; with two values, r is
//! rounded to +-1. `spearmanr`: the average ranks (`rankdata`), then
//! `numpy.corrcoef` of the ranks (the centred dot products over `n - 1`,
//! divided by the square roots of the variances, clipped). numpy takes its
//! dot products and norms from BLAS, whose summation order depends on the
//! CPU, so the last bit or two may differ; the values agree with scipy's to
//! 1e-14 (tests/golden/meta.json). A constant vector gives NaN.

use crate::py::number::numpy_mean;

/// `scipy.stats.pearsonr(x, y).statistic`; NaN when either vector is
/// constant or has fewer than two values.
#[must_use]
pub fn pearson(x: &[f64], y: &[f64]) -> f64 {
    if x.len() != y.len() || x.len() < 2 || constant(x) || constant(y) {
        return f64::NAN;
    }
    let (Some(xmean), Some(ymean)) = (numpy_mean(x), numpy_mean(y)) else { return f64::NAN };
    let xm: Vec<f64> = x.iter().map(|v| v - xmean).collect();
    let ym: Vec<f64> = y.iter().map(|v| v - ymean).collect();
    let xmax = xm.iter().fold(0.0f64, |m, v| m.max(v.abs()));
    let ymax = ym.iter().fold(0.0f64, |m, v| m.max(v.abs()));
    let normx = xmax * norm(&xm, xmax);
    let normy = ymax * norm(&ym, ymax);
    let r: f64 = xm.iter().zip(&ym).map(|(a, b)| (a / normx) * (b / normy)).sum();
    let r = r.clamp(-1.0, 1.0);
    if x.len() == 2 { r.round() } else { r }
}

/// `||v / scale||`.
fn norm(v: &[f64], scale: f64) -> f64 {
    v.iter().map(|a| (a / scale) * (a / scale)).sum::<f64>().sqrt()
}

/// `scipy.stats.spearmanr(x, y).statistic`; NaN when either vector is
/// constant or has fewer than two values.
#[must_use]
#[allow(clippy::cast_precision_loss, reason = "a vector's length is far below 2^53")]
pub fn spearman(x: &[f64], y: &[f64]) -> f64 {
    if x.len() != y.len() || x.len() < 2 || constant(x) || constant(y) {
        return f64::NAN;
    }
    let (rx, ry) = (average_ranks(x), average_ranks(y));
    let (Some(mx), Some(my)) = (numpy_mean(&rx), numpy_mean(&ry)) else { return f64::NAN };
    let cx: Vec<f64> = rx.iter().map(|v| v - mx).collect();
    let cy: Vec<f64> = ry.iter().map(|v| v - my).collect();
    let fact = 1.0 / (x.len() - 1) as f64;
    let dot = |a: &[f64], b: &[f64]| a.iter().zip(b).map(|(p, q)| p * q).sum::<f64>() * fact;
    let (cxx, cxy, cyy) = (dot(&cx, &cx), dot(&cx, &cy), dot(&cy, &cy));
    (cxy / cxx.sqrt() / cyy.sqrt()).clamp(-1.0, 1.0)
}

/// `scipy.stats.rankdata(v)` (method `average`): ranks from 1, ties sharing
/// the mean of their ranks.
#[must_use]
#[allow(clippy::cast_precision_loss, reason = "ranks are far below 2^53")]
pub fn average_ranks(v: &[f64]) -> Vec<f64> {
    let mut order: Vec<usize> = (0..v.len()).collect();
    order.sort_by(|&a, &b| v[a].partial_cmp(&v[b]).unwrap_or(std::cmp::Ordering::Equal));
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
}
