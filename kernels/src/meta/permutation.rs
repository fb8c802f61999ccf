//! Ranking metrics into significance clusters: mt-metrics-eval's
//! `CompareMetrics`, `CompareMetricsWithGlobalAccuracy` (one test set),
//! `PermutationSigDiff`, `PairwisePermutationSigDiff` and `AssignRanks`
//! (`data.py`, `stats.py` at commit 68a481a).
//!
//! Every metric gets its correlation with the gold scores ([`Measure`]); the
//! metrics are sorted by decreasing correlation, then by name. For each pair
//! `i < j` of that order a permutation test gives the p-value of "metric
//! `j` correlates at least as well as metric `i`":
//!
//! * [`Test::Scores`] (PERM-BOTH, `PermutationSigDiff`): both metrics' scores
//!   are z-scored; each draw swaps the two metrics' scores where
//!   `np.random.binomial(1, 0.5, n)` says so and recomputes both
//!   correlations;
//! * [`Test::Pairs`] (`PairwisePermutationSigDiff`): each metric's ties are
//!   calibrated first; each draw swaps the two metrics' pairwise
//!   comparisons, by an `n x n` binomial matrix per row whose upper triangle
//!   is used.
//!
//! The draw counts as "large" when the swapped difference reaches the
//! observed one; the p-value is the share of large draws, with early
//! stopping at block boundaries. A metric's rank is its cluster's: a new
//! cluster starts at a metric that some metric of the current cluster beats
//! with p <= `pval`.
//!
//! All draws come from one [`RandomState`] in the reference's order, so a
//! run seeded as `np.random.seed(s)` before `CompareMetrics` reproduces the
//! reference's p-values. The draws of a block are generated in order, then
//! the block's correlations are computed on all cores.

use rayon::prelude::*;

use super::kendall::{TauStats, Variant};
use super::tie_opt::tie_optimization;
use super::{AverageBy, Statistic, average_correlation, check_packed, pairwise_accuracy};
use crate::py::legacy::RandomState;
use crate::py::number::numpy_mean;

/// What a metric is ranked by.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Measure {
    /// `AverageCorrelation` of a statistic.
    Corr(Statistic),
    /// `KendallWithTiesOpt` with a tau-23 or acc-23 variant and the share
    /// of pairs its search samples (1 for the exact search).
    TiesOpt {
        /// `23` or `acc23`.
        variant: Variant,
        /// `sample_rate`.
        sample_rate: f64,
    },
    /// System-level pairwise accuracy (`CompareMetricsWithGlobalAccuracy`
    /// over one test set; no averaging).
    Accuracy,
}

/// The permutation test (`perm_test`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Test {
    /// `scores`: `PermutationSigDiff`.
    Scores,
    /// `pairs`: `PairwisePermutationSigDiff` (with [`Measure::TiesOpt`]).
    Pairs,
}

/// `CompareMetrics`' arguments besides the scores.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Params {
    /// `average_by`.
    pub average_by: AverageBy,
    /// Resampling runs per pair of metrics (`k`); 0 ranks by correlation only.
    pub k: usize,
    /// `PermutationSigDiffParams.block_size`.
    pub block_size: usize,
    /// Stop early when the p-value is below this at a block boundary.
    pub early_min: f64,
    /// Stop early when the p-value is above this at a block boundary.
    pub early_max: f64,
    /// The p-value threshold of the clusters.
    pub pval: f64,
    /// Count NaN correlations as 0 instead of leaving them out.
    pub replace_nans_with_zeros: bool,
    /// The permutation test.
    pub test: Test,
}

impl Default for Params {
    /// mt-metrics-eval's defaults: no averaging, k = 1000, blocks of 1000,
    /// early stopping below 0.02 and above 0.5, p = 0.05, the scores test.
    fn default() -> Self {
        Self {
            average_by: AverageBy::None,
            k: 1000,
            block_size: 1000,
            early_min: 0.02,
            early_max: 0.5,
            pval: 0.05,
            replace_nans_with_zeros: false,
            test: Test::Scores,
        }
    }
}

/// One metric's line of the ranking.
#[derive(Debug, Clone, PartialEq)]
pub struct Ranked {
    /// The metric's name.
    pub name: String,
    /// Its correlation (or accuracy).
    pub corr: f64,
    /// Its significance cluster, from 1.
    pub rank: usize,
}

/// `CompareMetrics`' result.
#[derive(Debug, Clone, PartialEq)]
pub struct Comparison {
    /// The metrics by decreasing correlation (then name).
    pub metrics: Vec<Ranked>,
    /// `sig[i][j]` (`j > i`): the p-value that metric `j` correlates at least
    /// as well as metric `i`; 0 elsewhere, and everywhere when `k` is 0.
    pub sig: Vec<Vec<f64>>,
    /// Resampling runs done per pair, `draws[i][j]` (`j > i`), after early
    /// stopping.
    pub draws: Vec<Vec<usize>>,
}

/// Draws (`coin`s) generated before a batch of resamples is scored.
const CHUNK_DRAWS: usize = 1 << 24;

/// `CompareMetrics` (or, with [`Measure::Accuracy`],
/// `CompareMetricsWithGlobalAccuracy`) over `metrics` (name, scores packed
/// as `num_sys` rows like `gold`), drawing from `rng`.
///
/// # Errors
/// Bad shapes, a pairs test without tie calibration, averaging with
/// accuracy, bad parameters, or a tie calibration that fails.
pub fn compare_metrics(
    gold: &[Option<f64>],
    metrics: &[(String, Vec<f64>)],
    num_sys: usize,
    measure: Measure,
    params: &Params,
    rng: &mut RandomState,
) -> Result<Comparison, String> {
    if metrics.is_empty() {
        return Err("no metric to compare".to_owned());
    }
    if params.test == Test::Pairs && !matches!(measure, Measure::TiesOpt { .. }) {
        return Err("the pairs permutation test goes with tie calibration (KendallWithTiesOpt)".to_owned());
    }
    if measure == Measure::Accuracy && params.average_by != AverageBy::None {
        return Err("pairwise accuracy is system-level: no averaging".to_owned());
    }
    if params.k > 0 && params.block_size == 0 {
        return Err("the block size must be at least 1".to_owned());
    }
    for (name, m) in metrics {
        check_packed(gold.len(), m.len(), num_sys, params.average_by).map_err(|e| format!("{name}: {e}"))?;
    }
    let ctx = Ctx { gold, num_sys, measure, params };
    let mut corrs = Vec::with_capacity(metrics.len());
    for (name, m) in metrics {
        corrs.push((name.clone(), ctx.correlation(m, rng)?));
    }
    let mut order: Vec<usize> = (0..metrics.len()).collect();
    // Python's sort on (-corr, name).
    order.sort_by(|&a, &b| {
        (-corrs[a].1)
            .partial_cmp(&-corrs[b].1)
            .unwrap_or(std::cmp::Ordering::Equal)
            .then_with(|| corrs[a].0.cmp(&corrs[b].0))
    });
    let n = order.len();
    let mut sig = vec![vec![0.0; n]; n];
    let mut draws = vec![vec![0usize; n]; n];
    if params.k > 0 {
        for i in 0..n {
            for j in i + 1..n {
                // PermutationSigDiff(corr[metric j], corr[metric i]).
                let (m1, m2) = (&metrics[order[j]].1, &metrics[order[i]].1);
                let (p, used) = match params.test {
                    Test::Scores => ctx.scores_test(m1, m2, rng)?,
                    Test::Pairs => ctx.pairs_test(m1, m2, rng)?,
                };
                sig[i][j] = p;
                draws[i][j] = used;
            }
        }
    }
    let ranks = assign_ranks(&sig, params.pval);
    let metrics =
        order.iter().zip(ranks).map(|(&o, rank)| Ranked { name: corrs[o].0.clone(), corr: corrs[o].1, rank }).collect();
    Ok(Comparison { metrics, sig, draws })
}

/// `AssignRanks`: a new rank starts at the first metric that a metric since
/// the current rank's start beats with a p-value of at most `pval`.
#[must_use]
pub fn assign_ranks(sig: &[Vec<f64>], pval: f64) -> Vec<usize> {
    let (mut rank, mut start) = (1, 0);
    (0..sig.len())
        .map(|i| {
            if (start..i).any(|s| sig[s][i] <= pval) {
                rank += 1;
                start = i;
            }
            rank
        })
        .collect()
}

struct Ctx<'a> {
    gold: &'a [Option<f64>],
    num_sys: usize,
    measure: Measure,
    params: &'a Params,
}

/// The mean of the non-NaN values (or of all, NaNs as 0), numpy's
/// `np.average`; 0 for none.
fn average(vals: &mut Vec<f64>, zeros: bool) -> f64 {
    if zeros {
        for v in vals.iter_mut() {
            if v.is_nan() {
                *v = 0.0;
            }
        }
    } else {
        vals.retain(|v| !v.is_nan());
    }
    numpy_mean(vals).unwrap_or(0.0)
}

/// `scipy.stats.zscore` of a float64 vector: numpy's mean and population
/// standard deviation; all NaN when the deviation is within an ulp of the
/// mean's scale.
#[must_use]
pub fn zscore(x: &[f64]) -> Vec<f64> {
    let mean = numpy_mean(x).unwrap_or(f64::NAN);
    let sq: Vec<f64> = x.iter().map(|v| (v - mean) * (v - mean)).collect();
    let std = numpy_mean(&sq).unwrap_or(f64::NAN).sqrt();
    if std <= (f64::EPSILON * mean).abs() {
        return vec![f64::NAN; x.len()];
    }
    x.iter().map(|v| (v - mean) / std).collect()
}

impl Ctx<'_> {
    fn ties_opt(
        &self,
        gold: &[Option<f64>],
        m: &[f64],
        variant: Variant,
        rate: f64,
        rng: &mut RandomState,
    ) -> Result<super::TieOpt, String> {
        tie_optimization(gold, m, self.num_sys, self.params.average_by, variant, Some((rate, rng)))?
            .ok_or_else(|| "tie calibration found no pair of gold scores to compare".to_owned())
    }

    /// The metric's correlation as `CompareMetrics` first computes it.
    fn correlation(&self, m: &[f64], rng: &mut RandomState) -> Result<f64, String> {
        let p = self.params;
        match self.measure {
            Measure::Corr(stat) => {
                Ok(average_correlation(stat, self.gold, m, self.num_sys, p.average_by, p.replace_nans_with_zeros)?.0)
            }
            Measure::TiesOpt { variant, sample_rate } => {
                Ok(self.ties_opt(self.gold, m, variant, sample_rate, rng)?.tau)
            }
            Measure::Accuracy => Ok(pairwise_accuracy(self.gold, m)),
        }
    }

    /// `_ReshapeAndFilter`: the row lengths, then gold, `m1` and `m2` with
    /// the missing gold scores left out, rows in the averaging's order.
    fn filtered(&self, m1: &[f64], m2: &[f64]) -> (Vec<usize>, Vec<f64>, Vec<f64>, Vec<f64>) {
        let groups = self.params.average_by.groups(self.num_sys, self.gold.len() / self.num_sys);
        let (mut lens, mut g, mut a, mut b) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        for idx in groups {
            let before = g.len();
            for i in idx {
                if let Some(v) = self.gold[i] {
                    g.push(v);
                    a.push(m1[i]);
                    b.push(m2[i]);
                }
            }
            if g.len() > before {
                lens.push(g.len() - before);
            }
        }
        (lens, g, a, b)
    }

    /// `PermutationSigDiff(corr1 = m1, corr2 = m2)`: the p-value and the
    /// resampling runs done.
    fn scores_test(&self, m1: &[f64], m2: &[f64], rng: &mut RandomState) -> Result<(f64, usize), String> {
        let zeros = self.params.replace_nans_with_zeros;
        let (lens, gold, z1, z2) = if let Measure::TiesOpt { .. } = self.measure {
            (Vec::new(), Vec::new(), zscore(m1), zscore(m2))
        } else {
            let (lens, g, a, b) = self.filtered(m1, m2);
            (lens, g, zscore(&a), zscore(&b))
        };
        let bounds: Vec<(usize, usize)> = lens
            .iter()
            .scan(0, |s, &l| {
                *s += l;
                Some((*s - l, *s))
            })
            .collect();
        let corr = |m: &[f64], rng: Option<&mut RandomState>| -> Result<f64, String> {
            match self.measure {
                Measure::TiesOpt { variant, sample_rate } => {
                    let opt = match rng {
                        Some(r) => tie_optimization(
                            self.gold,
                            m,
                            self.num_sys,
                            self.params.average_by,
                            variant,
                            Some((sample_rate, r)),
                        )?,
                        None => tie_optimization(self.gold, m, self.num_sys, self.params.average_by, variant, None)?,
                    };
                    opt.map(|o| o.tau)
                        .ok_or_else(|| "tie calibration found no pair of gold scores to compare".to_owned())
                }
                Measure::Corr(stat) => {
                    let mut vals = Vec::with_capacity(bounds.len());
                    for &(b, e) in &bounds {
                        vals.push(stat.of(&gold[b..e], &m[b..e])?);
                    }
                    Ok(average(&mut vals, zeros))
                }
                Measure::Accuracy => {
                    let g: Vec<Option<f64>> = gold.iter().copied().map(Some).collect();
                    Ok(average(&mut vec![pairwise_accuracy(&g, m)], zeros))
                }
            }
        };
        // A sampled calibration draws from the stream inside every run.
        let sampled = matches!(self.measure, Measure::TiesOpt { sample_rate, .. } if sample_rate < 1.0);
        let delta = if sampled {
            let c2 = corr(&z2, Some(rng))?;
            c2 - corr(&z1, Some(rng))?
        } else {
            corr(&z2, None)? - corr(&z1, None)?
        };
        let n = z1.len();
        let mix = |w: &[bool], a: &[f64], b: &[f64]| -> Vec<f64> {
            // w1 * a + w2 * b with 0/1 weights, as numpy computes it.
            w.iter().zip(a.iter().zip(b)).map(|(&w, (&a, &b))| if w { a + 0.0 * b } else { 0.0 * a + b }).collect()
        };
        let run = |w: &[bool], rng: Option<&mut RandomState>| -> Result<bool, String> {
            let (m1, m2) = (mix(w, &z1, &z2), mix(w, &z2, &z1));
            let (c1, c2) = match rng {
                Some(r) => {
                    let c1 = corr(&m1, Some(&mut *r))?;
                    (c1, corr(&m2, Some(r))?)
                }
                None => (corr(&m1, None)?, corr(&m2, None)?),
            };
            Ok(c2 - c1 >= delta)
        };
        self.resample(n, rng, run, sampled, false)
    }

    /// The resampling loop shared by both tests: runs of `draws` coins each,
    /// generated a block at a time (or run by run when a run draws too),
    /// early stopping at block boundaries. `boundary_needs_hit`: the pairs
    /// test checks the boundary only after a large draw there (as the
    /// reference's indentation has it).
    fn resample<F>(
        &self,
        draws: usize,
        rng: &mut RandomState,
        run: F,
        sequential: bool,
        boundary_needs_hit: bool,
    ) -> Result<(f64, usize), String>
    where
        F: Fn(&[bool], Option<&mut RandomState>) -> Result<bool, String> + Sync,
    {
        let p = self.params;
        let (mut large, mut i) = (0usize, 0usize);
        let per_chunk = (CHUNK_DRAWS / draws.max(1)).max(1);
        #[allow(clippy::cast_precision_loss, reason = "counts are far below 2^53")]
        let pval = |large: usize, i: usize| large as f64 / i as f64;
        while i < p.k {
            let block_end = (i / p.block_size + 1) * p.block_size;
            let end = block_end.min(p.k);
            let mut last_hit = false;
            while i < end {
                let runs = per_chunk.min(end - i);
                let hits: Vec<bool> = if sequential {
                    let mut w = vec![false; draws];
                    let mut hits = Vec::with_capacity(runs);
                    for _ in 0..runs {
                        rng.coins(&mut w);
                        hits.push(run(&w, Some(&mut *rng))?);
                    }
                    hits
                } else {
                    let mut w = vec![false; draws * runs];
                    rng.coins(&mut w);
                    w.par_chunks(draws.max(1)).map(|w| run(w, None)).collect::<Result<_, _>>()?
                };
                crate::significance::progress(draws * runs);
                large += hits.iter().filter(|&&h| h).count();
                last_hit = hits.last().copied().unwrap_or(false);
                i += runs;
            }
            if i == block_end && (!boundary_needs_hit || last_hit) {
                let v = pval(large, i);
                if v < p.early_min || v > p.early_max {
                    break;
                }
            }
        }
        Ok((pval(large, i.max(1)), i))
    }

    /// `PairwisePermutationSigDiff(corr1 = m1, corr2 = m2)` with calibrated
    /// epsilons: the p-value and the resampling runs done.
    fn pairs_test(&self, m1: &[f64], m2: &[f64], rng: &mut RandomState) -> Result<(f64, usize), String> {
        let Measure::TiesOpt { variant, sample_rate } = self.measure else {
            return Err("the pairs test needs tie calibration".to_owned());
        };
        let eps1 = self.ties_opt(self.gold, m1, variant, sample_rate, rng)?.epsilon;
        let eps2 = self.ties_opt(self.gold, m2, variant, sample_rate, rng)?.epsilon;
        let zeros = self.params.replace_nans_with_zeros;
        let (lens, gold, a, b) = self.filtered(m1, m2);
        // Each row's pairs (i < j, row-major): the kind under each metric.
        let mut rows: Vec<(usize, Vec<u8>, Vec<u8>)> = Vec::with_capacity(lens.len());
        let mut start = 0;
        for &n in &lens {
            let (g, x, y) = (&gold[start..start + n], &a[start..start + n], &b[start..start + n]);
            let (mut k1, mut k2) = (Vec::with_capacity(n * n / 2), Vec::with_capacity(n * n / 2));
            for i in 0..n {
                for j in i + 1..n {
                    k1.push(pair_kind(g[j] - g[i], x[j] - x[i], eps1));
                    k2.push(pair_kind(g[j] - g[i], y[j] - y[i], eps2));
                }
            }
            rows.push((n, k1, k2));
            start += n;
        }
        let tau = |n: usize, counts: [u64; 5]| {
            let s = TauStats {
                concordant: counts[0],
                discordant: counts[1],
                metric_ties: counts[2],
                gold_ties: counts[3],
                both_ties: counts[4],
            };
            s.tau(variant, n, 0)
        };
        let corr_of = |pick: &dyn Fn(usize, usize) -> u8| {
            let mut vals: Vec<f64> = rows
                .iter()
                .enumerate()
                .map(|(r, (n, k1, _))| {
                    let mut c = [0u64; 5];
                    for p in 0..k1.len() {
                        c[usize::from(pick(r, p))] += 1;
                    }
                    tau(*n, c)
                })
                .collect();
            average(&mut vals, zeros)
        };
        let delta = corr_of(&|r, p| rows[r].2[p]) - corr_of(&|r, p| rows[r].1[p]);
        // The draws of one run: an n x n matrix per row, of which the
        // pairs' upper triangle is kept (in the same row-major order).
        let draws: usize = lens.iter().map(|n| n * n).sum();
        let run = |w: &[bool], _: Option<&mut RandomState>| -> Result<bool, String> {
            let (mut v1, mut v2) = (Vec::with_capacity(rows.len()), Vec::with_capacity(rows.len()));
            let mut off = 0;
            for (n, k1, k2) in &rows {
                let (mut c1, mut c2) = ([0u64; 5], [0u64; 5]);
                let mut p = 0;
                for i in 0..*n {
                    for j in i + 1..*n {
                        let keep = w[off + i * n + j];
                        let (h1, h2) = if keep { (k1[p], k2[p]) } else { (k2[p], k1[p]) };
                        c1[usize::from(h1)] += 1;
                        c2[usize::from(h2)] += 1;
                        p += 1;
                    }
                }
                v1.push(tau(*n, c1));
                v2.push(tau(*n, c2));
                off += n * n;
            }
            Ok(average(&mut v2, zeros) - average(&mut v1, zeros) >= delta)
        };
        self.resample(draws, rng, run, false, true)
    }
}

/// A pair's kind (0 concordant, 1 discordant, 2 tied in the metric only, 3
/// in the gold only, 4 in both) from the gold and metric differences, the
/// metric tied within `eps`, as `_MatrixSufficientStatistics` counts it.
fn pair_kind(gd: f64, md: f64, eps: f64) -> u8 {
    let (mt, gt) = (md.abs() <= eps, gd == 0.0);
    match (mt, gt) {
        (true, true) => 4,
        (true, false) => 2,
        (false, true) => 3,
        _ if (md > 0.0 && gd > 0.0) || (md < 0.0 && gd < 0.0) => 0,
        _ => 1,
    }
}
