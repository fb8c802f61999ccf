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
//! reference's p-values. The draws are generated in order a chunk at a
//! time, the next chunk while the current one is scored on the other cores
//! (early stopping is decided only at block ends, so drawing ahead within a
//! block leaves the stream where the reference leaves it).

use rayon::prelude::*;

use super::kendall::{TauStats, Variant};
use super::spa::{self, spa};
use super::tie_opt::tie_optimization;
use super::{AverageBy, Statistic, average_correlation, check_packed, pairwise_accuracy, pairwise_agreement};
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
    /// Soft pairwise accuracy over the systems' segment scores
    /// (`CompareMetricsWithPairwiseConfidenceError`; no averaging).
    Spa {
        /// Permutations of `compute_pairwise_p_values` (1000).
        perms: usize,
        /// Its seed (4).
        seed: u64,
    },
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
    /// With tie calibration: the threshold (epsilon) of the metric's
    /// calibrated tau, under which metric differences are ties.
    pub epsilon: Option<f64>,
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
    /// With [`Extra::keep_draws`]: each pair's resampled correlations,
    /// `(i, j)` (`j > i`) to the runs' `(metric j's mixture, metric i's)`
    /// pairs, as the reference's `draws_list` holds them (what
    /// `AverageCorrMatrix` tests averages over tasks with).
    pub resampled: std::collections::BTreeMap<(usize, usize), Vec<(f64, f64)>>,
}

/// What [`compare_metrics`] takes besides the scores and the test: accuracy pooled over blocks of systems, the resampling runs kept.
#[derive(Debug, Clone, Copy, Default)]
pub struct Extra<'a> {
    /// With [`Measure::Accuracy`]: the systems of each test set, in order,
    /// whose pairs are compared within it and pooled
    /// (`CompareMetricsWithGlobalAccuracy` over several language pairs: the
    /// agreements and pairs summed over the sets, then divided).
    pub blocks: Option<&'a [usize]>,
    /// Keep every resampling run's pair of correlations
    /// ([`Comparison::resampled`]).
    pub keep_draws: bool,
}

/// Draws (`coin`s) of a chunk of resamples, drawn while the previous chunk
/// is scored.
const CHUNK_DRAWS: usize = 1 << 20;

/// `CompareMetrics` (or, with [`Measure::Accuracy`],
/// `CompareMetricsWithGlobalAccuracy`) over `metrics` (name, scores packed
/// as `num_sys` rows like `gold`), drawing from `rng`; with accuracy pooled
/// over test sets (blocks of systems) and the resampling runs kept, as
/// [`Extra`] asks (`Extra::default()`: neither).
///
/// # Errors
/// Bad shapes, a pairs test without tie calibration, averaging with
/// accuracy, bad parameters, or a tie calibration that fails; blocks that do not add up to the systems, or
/// blocks with a measure other than accuracy.
pub fn compare_metrics(
    gold: &[Option<f64>],
    metrics: &[(String, Vec<f64>)],
    num_sys: usize,
    measure: Measure,
    params: &Params,
    rng: &mut RandomState,
    extra: Extra<'_>,
) -> Result<Comparison, String> {
    if let Some(b) = extra.blocks {
        if measure != Measure::Accuracy {
            return Err("blocks of systems go with pairwise accuracy".to_owned());
        }
        if b.iter().sum::<usize>() != num_sys || gold.len() != num_sys {
            return Err(format!(
                "the blocks hold {} systems, the scores {} (system-level: one score per system)",
                b.iter().sum::<usize>(),
                gold.len()
            ));
        }
    }
    if metrics.is_empty() {
        return Err("no metric to compare".to_owned());
    }
    if params.test == Test::Pairs && !matches!(measure, Measure::TiesOpt { .. }) {
        return Err("the pairs permutation test goes with tie calibration (KendallWithTiesOpt)".to_owned());
    }
    if measure == Measure::Accuracy && params.average_by != AverageBy::None {
        return Err("pairwise accuracy is system-level: no averaging".to_owned());
    }
    if matches!(measure, Measure::Spa { .. }) && params.average_by != AverageBy::None {
        return Err("soft pairwise accuracy is system-level: no averaging".to_owned());
    }
    if measure == Measure::Corr(Statistic::PearsonPdp) && params.k > 0 {
        return Err("Pairwise Difference Pearson has no permutation test in mt-metrics-eval (its PermutationSigDiff \
                    hands pdp to scipy's pearsonr, which raises TypeError): rank it by correlation alone (k = 0)"
            .to_owned());
    }
    if params.k > 0 && params.block_size == 0 {
        return Err("the block size must be at least 1".to_owned());
    }
    for (name, m) in metrics {
        check_packed(gold.len(), m.len(), num_sys, params.average_by).map_err(|e| format!("{name}: {e}"))?;
    }
    let ctx = Ctx { gold, num_sys, measure, params, blocks: extra.blocks };
    let mut corrs = Vec::with_capacity(metrics.len());
    for (name, m) in metrics {
        let (corr, epsilon) = ctx.correlation(m, rng)?;
        corrs.push((name.clone(), corr, epsilon));
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
    let mut resampled = std::collections::BTreeMap::new();
    if params.k > 0 {
        for i in 0..n {
            for j in i + 1..n {
                // PermutationSigDiff(corr[metric j], corr[metric i]).
                let (m1, m2) = (&metrics[order[j]].1, &metrics[order[i]].1);
                let mut kept = extra.keep_draws.then(Vec::new);
                let (p, used) = match params.test {
                    Test::Scores => ctx.scores_test(m1, m2, rng, kept.as_mut())?,
                    Test::Pairs => {
                        let calibrated = ctx.calibrate(m1, m2, rng)?;
                        ctx.pairs_test(m1, m2, calibrated, rng, kept.as_mut())?
                    }
                };
                sig[i][j] = p;
                draws[i][j] = used;
                if let Some(k) = kept {
                    resampled.insert((i, j), k);
                }
            }
        }
    }
    let ranks = assign_ranks(&sig, params.pval);
    let metrics = order
        .iter()
        .zip(ranks)
        .map(|(&o, rank)| Ranked { name: corrs[o].0.clone(), corr: corrs[o].1, rank, epsilon: corrs[o].2 })
        .collect();
    Ok(Comparison { metrics, sig, draws, resampled })
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
    blocks: Option<&'a [usize]>,
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

    /// The metric's correlation as `CompareMetrics` first computes it, and
    /// the threshold of its tie calibration where there is one.
    fn correlation(&self, m: &[f64], rng: &mut RandomState) -> Result<(f64, Option<f64>), String> {
        let p = self.params;
        Ok(match self.measure {
            Measure::Corr(stat) => (
                average_correlation(stat, self.gold, m, self.num_sys, p.average_by, p.replace_nans_with_zeros)?.0,
                None,
            ),
            Measure::TiesOpt { variant, sample_rate } => {
                let opt = self.ties_opt(self.gold, m, variant, sample_rate, rng)?;
                (opt.tau, Some(opt.epsilon))
            }
            Measure::Accuracy => (self.accuracy(self.gold, m, false), None),
            Measure::Spa { perms, seed } => (spa(self.gold, m, self.num_sys, perms, seed)?, None),
        })
    }

    /// Pairwise accuracy, within each block of systems when there are
    /// blocks (`filtered`: the missing gold scores already left out).
    fn accuracy(&self, gold: &[Option<f64>], m: &[f64], filtered: bool) -> f64 {
        let Some(blocks) = self.blocks else { return pairwise_accuracy(gold, m) };
        let (mut agree, mut pairs, mut at, mut orig) = (0u64, 0u64, 0usize, 0usize);
        for &b in blocks {
            // A block's length among the kept scores.
            let len = if filtered { self.gold[orig..orig + b].iter().filter(|g| g.is_some()).count() } else { b };
            let (a, p) = pairwise_agreement(&gold[at..at + len], &m[at..at + len]);
            agree += a;
            pairs += p;
            at += len;
            orig += b;
        }
        #[allow(clippy::cast_precision_loss, reason = "pair counts are far below 2^53")]
        let acc = agree as f64 / pairs as f64;
        acc
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
    fn scores_test(
        &self,
        m1: &[f64],
        m2: &[f64],
        rng: &mut RandomState,
        kept: Option<&mut Vec<(f64, f64)>>,
    ) -> Result<(f64, usize), String> {
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
        // SPA: the permutation signs and the gold's p-values are the same in every run.
        let spa_fixed = if let Measure::Spa { perms, seed } = self.measure {
            let some: Vec<Option<f64>> = gold.iter().copied().map(Some).collect();
            let (g32, _) = spa::filtered(&some, &gold, self.num_sys)?;
            let signs = spa::permutation_signs(perms, g32.len() / self.num_sys, seed);
            let gp = spa::pairwise_p_values(&g32, self.num_sys, &signs);
            Some((signs, gp))
        } else {
            None
        };
        let corr = |m: &[f64], rng: Option<&mut RandomState>| -> Result<f64, String> {
            match self.measure {
                Measure::Spa { .. } => {
                    let Some((signs, gp)) = &spa_fixed else { return Err("no SPA state".to_owned()) };
                    #[allow(clippy::cast_possible_truncation, reason = "float32 is the reference's precision")]
                    let m32: Vec<f32> = m.iter().map(|&x| x as f32).collect();
                    Ok(spa::one_minus_pce(gp, &spa::pairwise_p_values(&m32, self.num_sys, signs)))
                }
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
                    Ok(average(&mut vec![self.accuracy(&g, m, true)], zeros))
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
        if self.measure == Measure::Corr(Statistic::Pearson) {
            let fast = MixedPearson::new(&bounds, &gold, &z1, &z2);
            let (c1, c2) = fast.pair(None, zeros);
            let delta = c2 - c1;
            let run = |w: &[bool], _: Option<&mut RandomState>| -> Result<(f64, f64), String> {
                let (c1, c2) = fast.pair(Some(w), zeros);
                Ok((c2, c1))
            };
            return self.resample(n, rng, run, RandomState::coins, (delta, kept), false, false);
        }
        if let Some((signs, gp)) = &spa_fixed {
            // Both mixtures of a draw from one pass, exactly as scored one by one.
            #[allow(clippy::cast_possible_truncation, reason = "float32 is the reference's precision")]
            let f32s = |z: &[f64]| -> Vec<f32> { z.iter().map(|&x| x as f32).collect() };
            if let Some(mixed) = spa::MixedSpa::new(&f32s(&z1), &f32s(&z2), self.num_sys, signs, gp.clone()) {
                let run = |w: &[bool], _: Option<&mut RandomState>| -> Result<(f64, f64), String> { Ok(mixed.pair(w)) };
                return self.resample(n, rng, run, RandomState::coins, (delta, kept), false, false);
            }
        }
        let mix = |w: &[bool], a: &[f64], b: &[f64]| -> Vec<f64> {
            // w1 * a + w2 * b with 0/1 weights, as numpy computes it.
            w.iter().zip(a.iter().zip(b)).map(|(&w, (&a, &b))| if w { a + 0.0 * b } else { 0.0 * a + b }).collect()
        };
        let run = |w: &[bool], rng: Option<&mut RandomState>| -> Result<(f64, f64), String> {
            let (m1, m2) = (mix(w, &z1, &z2), mix(w, &z2, &z1));
            let (c1, c2) = match rng {
                Some(r) => {
                    let c1 = corr(&m1, Some(&mut *r))?;
                    (c1, corr(&m2, Some(r))?)
                }
                None => (corr(&m1, None)?, corr(&m2, None)?),
            };
            Ok((c2, c1))
        };
        self.resample(n, rng, run, RandomState::coins, (delta, kept), sampled, false)
    }

    /// The resampling loop shared by both tests: runs of `draws` coins each
    /// (`coins` draws one run's), early stopping at block boundaries.
    /// Within a block the runs are drawn in order a chunk at a time, the
    /// next chunk drawn while the current one is scored on the other cores
    /// (no run inside a block can stop the test, so drawing ahead of it
    /// leaves the stream where the reference leaves it). With `sequential`
    /// (a run that draws too) each run draws and is scored in turn.
    /// `boundary_needs_hit`: the pairs test checks the boundary only after a
    /// large draw there (as the reference's indentation has it).
    #[allow(clippy::too_many_arguments, reason = "the loop's parts, each used once")]
    fn resample<F, G>(
        &self,
        draws: usize,
        rng: &mut RandomState,
        run: F,
        coins: G,
        (delta, mut kept): (f64, Option<&mut Vec<(f64, f64)>>),
        sequential: bool,
        boundary_needs_hit: bool,
    ) -> Result<(f64, usize), String>
    where
        F: Fn(&[bool], Option<&mut RandomState>) -> Result<(f64, f64), String> + Sync,
        G: Fn(&mut RandomState, &mut [bool]) + Sync,
    {
        let p = self.params;
        let (mut large, mut i) = (0usize, 0usize);
        let per_chunk = (CHUNK_DRAWS / draws.max(1)).max(1);
        #[allow(clippy::cast_precision_loss, reason = "counts are far below 2^53")]
        let pval = |large: usize, i: usize| large as f64 / i as f64;
        let draw = |rng: &mut RandomState, runs: usize| {
            let mut w = vec![false; draws * runs];
            for one in w.chunks_mut(draws.max(1)) {
                coins(rng, one);
            }
            w
        };
        while i < p.k {
            let block_end = (i / p.block_size + 1) * p.block_size;
            let end = block_end.min(p.k);
            let mut last_hit = false;
            let mut ahead: Option<Vec<bool>> = None;
            while i < end {
                let runs = per_chunk.min(end - i);
                let pairs: Vec<(f64, f64)> = if sequential {
                    let mut w = vec![false; draws];
                    let mut hits = Vec::with_capacity(runs);
                    for _ in 0..runs {
                        coins(rng, &mut w);
                        hits.push(run(&w, Some(&mut *rng))?);
                    }
                    hits
                } else {
                    let w = ahead.take().unwrap_or_else(|| draw(rng, runs));
                    let next = per_chunk.min(end - i - runs);
                    let (hits, next_w) = rayon::join(
                        || w.par_chunks(draws.max(1)).map(|w| run(w, None)).collect::<Result<Vec<_>, _>>(),
                        || (next > 0).then(|| draw(rng, next)),
                    );
                    ahead = next_w;
                    hits?
                };
                crate::significance::progress(draws * runs);
                // A run is large when metric j's mixture gains at least the observed delta.
                let hit = |&(c2, c1): &(f64, f64)| c2 - c1 >= delta;
                large += pairs.iter().filter(|p| hit(p)).count();
                last_hit = pairs.last().is_some_and(hit);
                if let Some(k) = kept.as_deref_mut() {
                    k.extend_from_slice(&pairs);
                }
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

    /// The pairs test's tau variant and each metric's calibrated epsilon,
    /// drawn in that order (the first draws of a sampled calibration).
    fn calibrate(&self, m1: &[f64], m2: &[f64], rng: &mut RandomState) -> Result<(Variant, f64, f64), String> {
        let Measure::TiesOpt { variant, sample_rate } = self.measure else {
            return Err("the pairs test needs tie calibration".to_owned());
        };
        let eps1 = self.ties_opt(self.gold, m1, variant, sample_rate, rng)?.epsilon;
        Ok((variant, eps1, self.ties_opt(self.gold, m2, variant, sample_rate, rng)?.epsilon))
    }

    /// `PairwisePermutationSigDiff(corr1 = m1, corr2 = m2)` with the
    /// epsilons [`Self::calibrate`] found: the p-value and the resampling
    /// runs done.
    fn pairs_test(
        &self,
        m1: &[f64],
        m2: &[f64],
        (variant, eps1, eps2): (Variant, f64, f64),
        rng: &mut RandomState,
        kept: Option<&mut Vec<(f64, f64)>>,
    ) -> Result<(f64, usize), String> {
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
        let draws: usize = lens.iter().map(|n| n * n.saturating_sub(1) / 2).sum();
        let coins = |rng: &mut RandomState, w: &mut [bool]| rng.triu_coins(&lens, w);
        // A draw's counts per row: the first hybrid's counts are metric 2's
        // plus, for each pair where the two metrics' kinds differ and the
        // draw keeps metric 1's, one more of metric 1's kind and one fewer
        // of metric 2's; the second hybrid's are the rest of both metrics'.
        // The five counts are packed in 12-bit fields of a u64 (exact for a
        // row of under 2^12 pairs, however the wrapping sum borrows on the
        // way); longer rows are counted pair by pair.
        let packed = |kinds: &[u8]| kinds.iter().fold(0u64, |a, &k| a.wrapping_add(1 << (12 * u64::from(k))));
        let packed_rows: Vec<PackedRow> = rows
            .iter()
            .map(|(n, k1, k2)| {
                let mut both = [0u64; 5];
                for &k in k1.iter().chain(k2) {
                    both[usize::from(k)] += 1;
                }
                let diffs = k1
                    .iter()
                    .zip(k2)
                    .enumerate()
                    .filter(|(_, (a, b))| a != b)
                    .map(|(p, (&a, &b))| (p, (1u64 << (12 * u64::from(a))).wrapping_sub(1 << (12 * u64::from(b)))))
                    .collect();
                (*n, packed(k2), both, diffs)
            })
            .collect();
        let run = |w: &[bool], _: Option<&mut RandomState>| -> Result<(f64, f64), String> {
            let (mut v1, mut v2) = (Vec::with_capacity(rows.len()), Vec::with_capacity(rows.len()));
            let mut off = 0;
            for ((n, base, both, diffs), (_, k1, k2)) in packed_rows.iter().zip(&rows) {
                let w = &w[off..off + k1.len()];
                let c1: [u64; 5] = if k1.len() < 1 << 12 {
                    let mut acc = *base;
                    for &(p, d) in diffs {
                        acc = acc.wrapping_add(d & u64::from(w[p]).wrapping_neg());
                    }
                    std::array::from_fn(|x| (acc >> (12 * x)) & 0xfff)
                } else {
                    // Too many pairs for 12-bit fields: count them one by one.
                    let mut c = [0u64; 5];
                    for ((&keep, &a), &b) in w.iter().zip(k1).zip(k2) {
                        c[usize::from(if keep { a } else { b })] += 1;
                    }
                    c
                };
                let c2: [u64; 5] = std::array::from_fn(|x| both[x] - c1[x]);
                v1.push(tau(*n, c1));
                v2.push(tau(*n, c2));
                off += k1.len();
            }
            Ok((average(&mut v2, zeros), average(&mut v1, zeros)))
        };
        self.resample(draws, rng, run, coins, (delta, kept), false, true)
    }
}

/// One row of the pairs test: its length, metric 2's counts packed, both
/// metrics' counts together, and the pairs where their kinds differ (the
/// pair's index, metric 1's kind minus metric 2's, packed).
type PackedRow = (usize, u64, [u64; 5], Vec<(usize, u64)>);

/// Pearson's r of the two mixtures of a permutation draw, from sums: the
/// draw only picks each score from one metric or the other, so the sums of
/// a mixture are the other metric's plus the picked differences (one pass
/// over the draw instead of two vectors rebuilt and correlated). The
/// observed correlations are the same sums under an all-picked draw, so a
/// draw that picks everything reproduces them bit for bit, as in the
/// reference. The values agree with scipy's `pearsonr` to the last bits
/// (the summation order differs, as numpy's BLAS order differs anyway).
/// Where the sums cancel (a mixture of two values, or nearly constant, as
/// the mixtures of two systems' z-scores `[-1, 1]` and `[1, -1]` are), the
/// mixture is rebuilt and correlated as scipy does ([`pearson`]).
struct MixedPearson<'a> {
    bounds: &'a [(usize, usize)],
    gold: &'a [f64],
    z1: &'a [f64],
    z2: &'a [f64],
    /// `z1 - z2`, `z1^2 - z2^2` and `(g - mean g) (z1 - z2)` per score.
    diffs: [Vec<f64>; 3],
    /// Per vector: the sums of z2 (`s`, `q`: squares, `p`: with the centred
    /// gold) and of z1, the centred gold's sum and norm, and whether it is
    /// constant or a mixture could be.
    sums: Vec<BoundSums>,
}

struct BoundSums {
    s: [f64; 2],
    q: [f64; 2],
    p: [f64; 2],
    g_sum: f64,
    g_norm: f64,
    gold_constant: bool,
    may_be_constant: bool,
}

impl<'a> MixedPearson<'a> {
    fn new(bounds: &'a [(usize, usize)], gold: &'a [f64], z1: &'a [f64], z2: &'a [f64]) -> Self {
        let mut diffs = [vec![0.0; z1.len()], vec![0.0; z1.len()], vec![0.0; z1.len()]];
        let mut sums = Vec::with_capacity(bounds.len());
        for &(b, e) in bounds {
            let g = &gold[b..e];
            let mean = numpy_mean(g).unwrap_or(f64::NAN);
            let (mut g_sum, mut g_sq) = (0.0, 0.0);
            let (mut s, mut q, mut p) = ([0.0; 2], [0.0; 2], [0.0; 2]);
            for i in b..e {
                let gc = gold[i] - mean;
                g_sum += gc;
                g_sq += gc * gc;
                for (k, z) in [z2[i], z1[i]].into_iter().enumerate() {
                    s[k] += z;
                    q[k] += z * z;
                    p[k] += gc * z;
                }
                diffs[0][i] = z1[i] - z2[i];
                diffs[1][i] = z1[i] * z1[i] - z2[i] * z2[i];
                diffs[2][i] = gc * (z1[i] - z2[i]);
            }
            // A mixture can be constant only if one value is at every
            // position in z1 or z2; test the two candidates.
            let may_be_constant = e > b && [z1[b], z2[b]].iter().any(|&v| (b..e).all(|i| z1[i] == v || z2[i] == v));
            sums.push(BoundSums {
                s,
                q,
                p,
                g_sum,
                g_norm: g_sq.sqrt(),
                gold_constant: super::linear::constant(g),
                may_be_constant,
            });
        }
        Self { bounds, gold, z1, z2, diffs, sums }
    }

    /// The averaged correlations of the two mixtures (`m1`: z1 where the
    /// draw picks, else z2; `m2` the opposite), or of (z1, z2) without a
    /// draw.
    #[allow(clippy::cast_precision_loss, reason = "vector lengths are far below 2^53")]
    fn pair(&self, w: Option<&[bool]>, zeros: bool) -> (f64, f64) {
        let mut v1 = Vec::with_capacity(self.bounds.len());
        let mut v2 = Vec::with_capacity(self.bounds.len());
        for (&(b, e), t) in self.bounds.iter().zip(&self.sums) {
            let n = e - b;
            if n < 2 || t.gold_constant {
                v1.push(f64::NAN);
                v2.push(f64::NAN);
                continue;
            }
            let acc = picked_sums([0, 1, 2].map(|q| &self.diffs[q][b..e]), w.map(|w| &w[b..e]));
            let pick = |i: usize| w.is_none_or(|w| w[i]);
            // Mixture 1 takes z1 where the draw picks, mixture 2 takes z2.
            let mixture = |first: bool| -> Vec<f64> {
                (b..e).map(|i| if pick(i) == first { self.z1[i] } else { self.z2[i] }).collect()
            };
            let r = |s: f64, q: f64, p: f64, first: bool| {
                let mean = s / n as f64;
                let varn = q - s * mean;
                // Cancellation: the vector itself, as scipy correlates it.
                if n == 2 || varn.is_nan() || varn <= q * 1e-6 {
                    return super::linear::pearson(&self.gold[b..e], &mixture(first));
                }
                let cov = p - mean * t.g_sum;
                (cov / (t.g_norm * varn.sqrt())).clamp(-1.0, 1.0)
            };
            let (mut r1, mut r2) = (
                r(t.s[0] + acc[0], t.q[0] + acc[1], t.p[0] + acc[2], true),
                r(t.s[1] - acc[0], t.q[1] - acc[1], t.p[1] - acc[2], false),
            );
            if t.may_be_constant {
                let constant = |m: Vec<f64>| m.iter().all(|&v| v == m[0]);
                if constant(mixture(true)) {
                    r1 = f64::NAN;
                }
                if constant(mixture(false)) {
                    r2 = f64::NAN;
                }
            }
            v1.push(r1);
            v2.push(r2);
        }
        (average(&mut v1, zeros), average(&mut v2, zeros))
    }
}

/// The sums of the picked values of three vectors (all values without a
/// draw), each in four interleaved partial sums: the same order for every
/// draw, so an all-picked draw gives the undrawn sums bit for bit. A value
/// is picked by masking its bits (no branch on the random draw).
fn picked_sums(v: [&[f64]; 3], pick: Option<&[bool]>) -> [f64; 3] {
    #[inline]
    fn add(acc: &mut [[f64; 4]; 3], x: [&[f64]; 3], masks: [u64; 4]) {
        for (a, x) in acc.iter_mut().zip(x) {
            for j in 0..4 {
                a[j] += f64::from_bits(x[j].to_bits() & masks[j]);
            }
        }
    }
    let n = v[0].len();
    let whole = n / 4 * 4;
    let mut acc = [[0.0f64; 4]; 3];
    let quads = v[0][..whole].chunks_exact(4).zip(v[1][..whole].chunks_exact(4)).zip(v[2][..whole].chunks_exact(4));
    match pick {
        Some(p) => {
            for (((a, b), c), k) in quads.zip(p[..whole].chunks_exact(4)) {
                add(&mut acc, [a, b, c], [0, 1, 2, 3].map(|j| u64::from(k[j]).wrapping_neg()));
            }
        }
        None => {
            for ((a, b), c) in quads {
                add(&mut acc, [a, b, c], [u64::MAX; 4]);
            }
        }
    }
    let mut out = acc.map(|a| (a[0] + a[1]) + (a[2] + a[3]));
    for i in whole..n {
        let m = pick.map_or(u64::MAX, |p| u64::from(p[i]).wrapping_neg());
        for (o, x) in out.iter_mut().zip(&v) {
            *o += f64::from_bits(x[i].to_bits() & m);
        }
    }
    out
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
