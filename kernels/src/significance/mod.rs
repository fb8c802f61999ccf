//! Paired significance tests and bootstrap confidence intervals, exactly as
//! sacrebleu 2.6.0 computes them (`sacrebleu/significance.py` and
//! `Score.estimate_ci` in `metrics/base.py`), for every metric with a
//! [`FromStats`] view (each metric's module implements it).
//!
//! Everything starts from the per-segment statistics a corpus score sums
//! ([`SegmentStats`], one row per segment, as each metric's
//! `Metric::segment` gives it: e.g. chrF's `[hyp, ref, match]` per order,
//! TER's `[edits, average reference length]`).
//!
//! * **Random streams**: numpy's `default_rng(seed)` ([`crate::py::random`]), seed
//!   `SACREBLEU_SEED` (default 12345; `none` for OS entropy). A bootstrap
//!   draws `choice(n, size=(samples, n))`, row `r` being resample `r`;
//!   approximate randomization draws `integers(2, size=(trials, n),
//!   dtype=bool)` and then, with confidence intervals, the bootstrap indices
//!   from the same generator. sacrebleu seeds every compared system's
//!   generator with the seed, except that a seed of 0 gives the systems (not
//!   the baseline) OS entropy (`seed if seed else None`); so does mteval.
//! * **Bootstrap resamples** (`_bootstrap_resample`, `_paired_bs_test`): the
//!   statistics become numpy `float32`, each resample's rows are summed in
//!   `float32` in row order (numpy's `sum(0)`), and the metric's scoring code
//!   runs on those `float32` sums, where numpy 2's promotion keeps chrF's and
//!   TER's arithmetic in `float32` (others end in doubles, e.g. `math.exp`):
//!   [`FromStats::score_f32`] reproduces each formula with the types it meets
//!   ([`Py`]). The resample scores form a `float32` array when every one is
//!   a `float32`, else a `float64` one, and the statistics below run in that
//!   type.
//! * **Paired bootstrap** p-value: `d = |sys − base|` per resample,
//!   `c = #{d − mean(d) > |SYS − BASE|}` (the real difference converted to
//!   the array's type), `p = (c + 1) / (samples + 1)`; the system's `mean ±
//!   ci` come from its resample scores.
//! * **Approximate randomization**: per trial, segment `i` of pseudo-system
//!   A takes the baseline's statistics where the selector is true, the
//!   system's otherwise (B the reverse), summed as numpy's
//!   `pos_sel @ bl_stats + neg_sel @ sys_stats` sums them: the selected
//!   baseline rows and the unselected system rows each summed from 0 in
//!   segment order, then the two sums added (B: the unselected baseline
//!   rows plus the selected system rows), and scored as Python does on
//!   `int64`/`float64` values ([`FromStats::score_ar`]); `c = #{|A − B| >
//!   |SYS − BASE|}`, `p = (c + 1) / (trials + 1)`. Integer statistics sum
//!   exactly in any order (`int64` products). Float statistics (segment
//!   scores, multi-reference TER) go through BLAS, whose order is segment
//!   order on small corpora (numpy 2.4.6 with `OpenBLAS` 0.3.31 on an x86-64
//!   AVX-512 machine: up to 15 segments; from 16 on, 8 interleaved partial
//!   sums, an order of the CPU's kernel). So on few segments, where a trial
//!   that swaps every segment (or none) is common, its difference equals
//!   the real one exactly, as in sacrebleu; on larger corpora a trial's
//!   score can differ from numpy's in the last bit, which changes a count
//!   only on a near-tie with the real difference.
//! * **Intervals**: `significance.estimate_ci` (paired tests) sorts the
//!   resample scores, takes the elements at `n // 40` and `n − n // 40 − 1`,
//!   `ci = 0.5 · (upper − lower)`, and the mean with numpy's pairwise
//!   summation ([`numpy_sum`]); `Score.estimate_ci` (`--confidence`, single
//!   system) has the same interval but the exact mean of `statistics.mean`,
//!   rounded to the scores' type.

pub mod comet;

use crate::py::{Py, numpy_sum};

use rayon::prelude::*;

use crate::MetricError;
use crate::charac_ter::corpus::exact_mean;
use crate::metric::FromStats;
use crate::py::random::Generator;

/// sacrebleu's default seed (`SACREBLEU_SEED`).
pub const DEFAULT_SEED: u128 = 12345;
/// sacrebleu's default number of bootstrap resamples.
pub const DEFAULT_BOOTSTRAP: usize = 1000;
/// sacrebleu's default number of approximate randomization trials.
pub const DEFAULT_TRIALS: usize = 10_000;

/// The most bootstrap resamples or randomization trials a test takes:
/// 1,000 times sacrebleu's default of 1,000. Each resample's score is held
/// in memory per system and metric, and the work grows with the count
/// times the segments, so a larger count would exhaust the memory or run
/// for hours without a word.
pub const MAX_RESAMPLES: usize = 1_000_000;

/// `n` as a resample or trial count: from 1 to [`MAX_RESAMPLES`]; `what`
/// names it in the error (a flag, an option key).
///
/// # Errors
/// 0, or a count over the limit.
pub fn check_resamples(n: usize, what: &str) -> Result<usize, MetricError> {
    let reason = if n == 0 {
        format!("{what} must be at least 1")
    } else if n > MAX_RESAMPLES {
        format!(
            "{what} = {n} is over the limit of 1,000,000 resamples (sacrebleu's default is 1,000; every resample's \
             score is kept in memory and the work grows with the count times the segments)"
        )
    } else {
        return Ok(n);
    };
    Err(MetricError::InvalidOption { metric: "significance", reason })
}

/// Random draws generated at once (the rest of the work streams through
/// chunks of this many indices, so memory stays bounded for any corpus).
const CHUNK_DRAWS: usize = 1 << 22;

/// A progress hook: called with the segment draws just done.
pub type ProgressHook = std::sync::Arc<dyn Fn(u64) + Send + Sync>;

static PROGRESS: std::sync::RwLock<Option<ProgressHook>> = std::sync::RwLock::new(None);

/// Sets (or, with `None`, clears) the process's resampling progress hook.
/// Every test calls it after each chunk of at most 2^22 draws, on the
/// thread that called the test, with the number of segment draws in the
/// chunk: resamples × segments for the bootstrap (per system resampled),
/// trials × segments for approximate randomization. Applications draw a
/// progress bar with it (`mteval compare` and `report` do).
pub fn set_progress(hook: Option<ProgressHook>) {
    *PROGRESS.write().unwrap_or_else(std::sync::PoisonError::into_inner) = hook;
}

pub(crate) fn progress(draws: usize) {
    if let Some(h) = PROGRESS.read().unwrap_or_else(std::sync::PoisonError::into_inner).as_ref() {
        h(draws as u64);
    }
}

/// Per-segment statistics of one system for one metric: a row per segment.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SegmentStats {
    width: usize,
    data: Vec<f64>,
}

impl SegmentStats {
    /// No segments yet, `width` statistics per segment.
    #[must_use]
    pub const fn new(width: usize) -> Self {
        Self { width, data: Vec::new() }
    }

    /// Appends a segment's statistics.
    ///
    /// # Panics
    /// When `row` does not have [`Self::width`] values.
    pub fn push(&mut self, row: &[f64]) {
        // Every caller builds rows from the metric whose width made this
        // set (`FromStats::width`), so a row of another width is a bug of
        // the caller, not of the data.
        assert_eq!(row.len(), self.width, "segment statistics of another width");
        self.data.extend_from_slice(row);
    }

    /// Statistics per segment.
    #[must_use]
    pub const fn width(&self) -> usize {
        self.width
    }

    /// Segments.
    #[must_use]
    pub fn len(&self) -> usize {
        self.data.len().checked_div(self.width).unwrap_or(0)
    }

    /// No segment.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }

    /// Segment `i`'s statistics.
    #[must_use]
    pub fn row(&self, i: usize) -> &[f64] {
        &self.data[i * self.width..(i + 1) * self.width]
    }

    /// The element-wise sums in segment order (sacrebleu's `sum_of_lists`).
    #[must_use]
    pub fn sums(&self) -> Vec<f64> {
        let mut s = vec![0.0; self.width];
        for row in self.data.chunks_exact(self.width.max(1)) {
            for (a, &x) in s.iter_mut().zip(row) {
                *a += x;
            }
        }
        s
    }

    /// `np.array(stats, dtype='float32')`, flat.
    #[allow(clippy::cast_possible_truncation, reason = "numpy's float32 conversion, rounding to nearest")]
    fn to_f32(&self) -> Vec<f32> {
        self.data.iter().map(|&x| x as f32).collect()
    }
}

/// A mean and the half-width of a 95% interval around it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Estimate {
    /// Mean of the resample scores.
    pub mean: f64,
    /// Half the distance between the 2.5% and 97.5% resample scores.
    pub ci: f64,
}

/// One system's result for one metric, sacrebleu's `Result`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TestResult {
    /// The corpus score.
    pub score: f64,
    /// p-value against the baseline (`None` for the baseline itself).
    pub p_value: Option<f64>,
    /// Bootstrap mean and interval, when computed.
    pub estimate: Option<Estimate>,
}

/// Which paired test.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PairedTest {
    /// Paired bootstrap resampling with this many resamples (`--paired-bs-n`).
    Bootstrap(usize),
    /// Paired approximate randomization with this many trials
    /// (`--paired-ar-n`), and optionally bootstrap intervals with this many
    /// resamples (sacrebleu's `n_ar_confidence`; its command line has none).
    Randomization(usize, Option<usize>),
}

impl PairedTest {
    /// The signature keys a test adds after `nrefs` (`bs:1000|seed:12345`,
    /// `ar:10000|seed:12345`, with `bs:` before `ar:` when both), as
    /// sacrebleu's `PairedTest` updates the metric's signature.
    #[must_use]
    pub fn signature_keys(&self, seed: Option<u128>) -> String {
        let seed = seed.map_or_else(|| "none".to_owned(), |s| s.to_string());
        match self {
            Self::Bootstrap(n) => format!("bs:{n}|seed:{seed}"),
            Self::Randomization(n, Some(c)) => format!("bs:{c}|ar:{n}|seed:{seed}"),
            Self::Randomization(n, None) => format!("ar:{n}|seed:{seed}"),
        }
    }
}

/// `signature` with `keys` inserted after its first entry (`nrefs`), where
/// sacrebleu puts its test and seed keys.
#[must_use]
pub fn with_test_keys(signature: &str, keys: &str) -> String {
    match signature.split_once('|') {
        Some((nrefs, rest)) => format!("{nrefs}|{keys}|{rest}"),
        None => format!("{signature}|{keys}"),
    }
}

/// Parses `SACREBLEU_SEED`'s value: a non-negative integer, or `none` (any
/// case) for OS entropy.
///
/// # Errors
/// Anything else, naming the value.
pub fn parse_seed(s: &str) -> Result<Option<u128>, MetricError> {
    let t = s.trim();
    if t.eq_ignore_ascii_case("none") {
        return Ok(None);
    }
    let digits = t.strip_prefix('+').unwrap_or(t).replace('_', "");
    digits.parse::<u128>().map(Some).map_err(|_| {
        let too_big = !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit());
        let reason = if too_big {
            format!("seed '{s}' is over the largest seed mteval takes, 2^128 - 1 ({})", u128::MAX)
        } else {
            format!("seed '{s}': expected an integer from 0 to 2^128 - 1, or none")
        };
        MetricError::InvalidOption { metric: "significance", reason }
    })
}

/// Resample scores: numpy's array of them, `float32` when every score is.
#[derive(Debug, Clone, PartialEq)]
enum Scores {
    F32(Vec<f32>),
    F64(Vec<f64>),
}

impl Scores {
    #[allow(clippy::cast_possible_truncation, reason = "only float32 values are narrowed, exactly")]
    fn collect(v: Vec<Py>) -> Self {
        if v.iter().all(|x| x.is_f32()) {
            Self::F32(v.into_iter().map(|x| x.value() as f32).collect())
        } else {
            Self::F64(v.into_iter().map(Py::value).collect())
        }
    }

    fn len(&self) -> usize {
        match self {
            Self::F32(v) => v.len(),
            Self::F64(v) => v.len(),
        }
    }

    /// `significance.estimate_ci`: sorted, numpy's mean.
    #[allow(clippy::cast_precision_loss, reason = "resample counts are far below 2^24")]
    fn numpy_ci(&self) -> Option<Estimate> {
        self.sorted_ci(|s| f64::from(numpy_sum(s) / s.len() as f32), |s| numpy_sum(s) / s.len() as f64)
    }

    /// `Score.estimate_ci`: sorted, `statistics.mean` (exact, rounded to the
    /// scores' type).
    #[allow(clippy::cast_possible_truncation, reason = "statistics.mean converts to the scores' float32 type")]
    fn statistics_ci(&self) -> Option<Estimate> {
        self.sorted_ci(
            |s| {
                let wide: Vec<f64> = s.iter().map(|&x| f64::from(x)).collect();
                exact_mean(&wide).map_or(f64::NAN, |m| f64::from(m as f32))
            },
            |s| exact_mean(s).unwrap_or(f64::NAN),
        )
    }

    /// The estimate of the sorted scores: `mean32`/`mean64` of them, and half
    /// the width of their central 95% (in the scores' type); `None` without
    /// a score.
    fn sorted_ci(&self, mean32: impl Fn(&[f32]) -> f64, mean64: impl Fn(&[f64]) -> f64) -> Option<Estimate> {
        let n = self.len();
        if n == 0 {
            return None;
        }
        let lo = n / 40;
        let hi = n - lo - 1;
        Some(match self {
            Self::F32(v) => {
                let mut s = v.clone();
                s.sort_by(f32::total_cmp);
                Estimate { mean: mean32(&s), ci: f64::from(0.5f32 * (s[hi] - s[lo])) }
            }
            Self::F64(v) => {
                let mut s = v.clone();
                s.sort_by(f64::total_cmp);
                Estimate { mean: mean64(&s), ci: 0.5 * (s[hi] - s[lo]) }
            }
        })
    }

    /// `#{|sys − base| − mean > real}` over paired resamples, in the
    /// arrays' common type.
    #[allow(clippy::cast_possible_truncation, clippy::cast_precision_loss, reason = "numpy's float32 arithmetic")]
    fn count_bootstrap_exceed(sys: &Self, base: &Self, real: f64) -> usize {
        if let (Self::F32(s), Self::F32(b)) = (sys, base) {
            let d: Vec<f32> = s.iter().zip(b).map(|(x, y)| (x - y).abs()).collect();
            let mean = numpy_sum(&d) / d.len() as f32;
            let real = real as f32;
            return d.iter().filter(|&&x| x - mean > real).count();
        }
        let (s, b) = (sys.widened(), base.widened());
        let d: Vec<f64> = s.iter().zip(&b).map(|(x, y)| (x - y).abs()).collect();
        let mean = numpy_sum(&d) / d.len() as f64;
        d.iter().filter(|&&x| x - mean > real).count()
    }

    fn widened(&self) -> Vec<f64> {
        match self {
            Self::F32(v) => v.iter().map(|&x| f64::from(x)).collect(),
            Self::F64(v) => v.clone(),
        }
    }
}

/// `(c + 1) / (n + 1)`.
#[allow(clippy::cast_precision_loss, reason = "counts far below 2^53")]
fn p_value(c: usize, n: usize) -> f64 {
    (c + 1) as f64 / (n + 1) as f64
}

/// Bootstrap sums of several statistics sets over the same resamples: for
/// each set, `samples` rows of `float32` sums (flat), from
/// `rng.choice(n, size=(samples, n))`.
fn bootstrap_sums(
    rng: &mut Generator,
    samples: usize,
    sets: &[(&[f32], usize)],
    n: usize,
) -> Result<Vec<Vec<f32>>, MetricError> {
    let mut out: Vec<Vec<f32>> = sets.iter().map(|&(_, w)| vec![0.0f32; samples * w]).collect();
    if n == 0 || samples == 0 {
        return Ok(out);
    }
    // The sets side by side, one row per segment: a drawn segment is one
    // contiguous read for every set. Each column is still summed in draw
    // order, so the sums are those of one set at a time.
    let total: usize = sets.iter().map(|&(_, w)| w).sum();
    let mut wide = vec![0.0f32; n * total];
    let mut at = 0;
    for &(data, w) in sets {
        for (row, src) in wide.chunks_exact_mut(total).zip(data.chunks_exact(w)) {
            row[at..at + w].copy_from_slice(src);
        }
        at += w;
    }
    let rows = (CHUNK_DRAWS / n).max(1);
    let mut idx = vec![0usize; rows.min(samples) * n];
    let mut acc = vec![0.0f32; rows.min(samples) * total];
    let mut start = 0;
    while start < samples {
        let r = rows.min(samples - start);
        let idx = &mut idx[..r * n];
        rng.choice_fill(n, idx)?;
        progress(r * n);
        let acc = &mut acc[..r * total];
        acc.par_chunks_mut(total).zip(idx.par_chunks(n)).for_each(|(acc, row)| sum_rows(acc, row, &wide));
        for (s, sums) in acc.chunks_exact(total).enumerate() {
            let mut at = 0;
            for (&(_, w), o) in sets.iter().zip(out.iter_mut()) {
                o[(start + s) * w..(start + s + 1) * w].copy_from_slice(&sums[at..at + w]);
                at += w;
            }
        }
        start += r;
    }
    Ok(out)
}

/// `acc` (one resample's sums, zeroed here) plus the rows `draws` of
/// `wide` (rows as long as `acc`), each column in draw order. The hot loop
/// of the bootstrap: a function of its own, so that its code does not
/// depend on what the compiler inlines around it.
#[inline(never)]
fn sum_rows(acc: &mut [f32], draws: &[usize], wide: &[f32]) {
    let w = acc.len();
    acc.fill(0.0);
    for &j in draws {
        for (a, &x) in acc.iter_mut().zip(&wide[j * w..(j + 1) * w]) {
            *a += x;
        }
    }
}

/// The `float32` scores of bootstrap sums (rows of `w`), on all cores.
fn resample_scores(metric: &dyn FromStats, sums: &[f32]) -> Scores {
    Scores::collect(sums.par_chunks(metric.width()).map(|s| metric.score_f32(s)).collect())
}

/// Checks that every statistics set has the metric's width and `n` rows.
fn check(metric: &dyn FromStats, stats: &SegmentStats, n: usize) -> Result<(), MetricError> {
    if stats.width() != metric.width() || stats.len() != n {
        return Err(MetricError::InvalidInput {
            metric: "significance",
            reason: format!(
                "statistics of {} segments × {} values, expected {n} × {}",
                stats.len(),
                stats.width(),
                metric.width()
            ),
        });
    }
    Ok(())
}

/// A single system's score with its bootstrap interval, as `corpus_score(...,
/// n_bootstrap=samples)` reports it (`Score.estimate_ci`: the exact mean).
///
/// # Errors
/// Statistics of the wrong width; an empty corpus.
pub fn confidence(
    metric: &dyn FromStats,
    stats: &SegmentStats,
    samples: usize,
    seed: Option<u128>,
) -> Result<TestResult, MetricError> {
    with_interval(metric, stats, samples, seed, Scores::statistics_ci)
}

/// The scores of `samples` bootstrap resamples of one system's statistics,
/// drawn by a fresh generator from `seed` (sacrebleu's `_bootstrap_resample`).
fn bootstrap_scores(
    metric: &dyn FromStats,
    stats: &SegmentStats,
    samples: usize,
    seed: Option<u128>,
) -> Result<Scores, MetricError> {
    let mut rng = Generator::default_rng(seed);
    let sums = bootstrap_sums(&mut rng, samples, &[(&stats.to_f32(), metric.width())], stats.len())?;
    Ok(resample_scores(metric, &sums[0]))
}

/// The baseline's row of a paired test: its score and, when the test makes
/// one, its bootstrap interval (`_bootstrap_resample` with a fresh generator
/// from `seed`, numpy's mean).
///
/// # Errors
/// Statistics of the wrong width.
pub fn baseline(
    metric: &dyn FromStats,
    stats: &SegmentStats,
    test: PairedTest,
    seed: Option<u128>,
) -> Result<TestResult, MetricError> {
    let samples = match test {
        PairedTest::Bootstrap(n) | PairedTest::Randomization(_, Some(n)) => n,
        PairedTest::Randomization(_, None) => 0,
    };
    with_interval(metric, stats, samples, seed, Scores::numpy_ci)
}

/// One system's score and the interval `ci` makes of `samples` bootstrap
/// resamples of its statistics (none for no resample).
fn with_interval(
    metric: &dyn FromStats,
    stats: &SegmentStats,
    samples: usize,
    seed: Option<u128>,
    ci: fn(&Scores) -> Option<Estimate>,
) -> Result<TestResult, MetricError> {
    check(metric, stats, stats.len())?;
    let score = metric.score(&stats.sums());
    let estimate = if samples > 0 { ci(&bootstrap_scores(metric, stats, samples, seed)?) } else { None };
    Ok(TestResult { score, p_value: None, estimate })
}

/// One system against the baseline for every metric (`metrics[k]` with
/// `base[k]` and `sys[k]`), with one generator seeded by `seed` whose draws
/// every metric shares, as `_paired_bs_test` / `_paired_ar_test`.
///
/// # Errors
/// Statistics of the wrong width or of different segment counts.
pub fn paired(
    metrics: &[&dyn FromStats],
    base: &[SegmentStats],
    sys: &[SegmentStats],
    test: PairedTest,
    seed: Option<u128>,
) -> Result<Vec<TestResult>, MetricError> {
    let n = base.first().map_or(0, SegmentStats::len);
    for ((m, b), s) in metrics.iter().zip(base).zip(sys) {
        check(*m, b, n)?;
        check(*m, s, n)?;
    }
    let mut rng = Generator::default_rng(seed);
    match test {
        PairedTest::Bootstrap(samples) => {
            let data: Vec<(Vec<f32>, Vec<f32>)> = base.iter().zip(sys).map(|(b, s)| (b.to_f32(), s.to_f32())).collect();
            let sets: Vec<(&[f32], usize)> = data
                .iter()
                .zip(metrics)
                .flat_map(|((b, s), m)| [(b.as_slice(), m.width()), (s.as_slice(), m.width())])
                .collect();
            let sums = bootstrap_sums(&mut rng, samples, &sets, n)?;
            Ok(metrics
                .iter()
                .enumerate()
                .map(|(k, m)| {
                    let (bl_score, sys_score) = (m.score(&base[k].sums()), m.score(&sys[k].sums()));
                    let scores_bl = resample_scores(*m, &sums[2 * k]);
                    let scores_sys = resample_scores(*m, &sums[2 * k + 1]);
                    let c = Scores::count_bootstrap_exceed(&scores_sys, &scores_bl, (bl_score - sys_score).abs());
                    TestResult { score: sys_score, p_value: Some(p_value(c, samples)), estimate: scores_sys.numpy_ci() }
                })
                .collect())
        }
        PairedTest::Randomization(trials, confidence) => {
            let exceed = randomization_counts(&mut rng, metrics, base, sys, trials, n);
            let estimates = match confidence {
                Some(c) if c > 0 => {
                    let data: Vec<Vec<f32>> = sys.iter().map(SegmentStats::to_f32).collect();
                    let sets: Vec<(&[f32], usize)> =
                        data.iter().zip(metrics).map(|(d, m)| (d.as_slice(), m.width())).collect();
                    let sums = bootstrap_sums(&mut rng, c, &sets, n)?;
                    metrics.iter().zip(&sums).map(|(m, s)| resample_scores(*m, s).numpy_ci()).collect()
                }
                _ => vec![None; metrics.len()],
            };
            Ok(metrics
                .iter()
                .zip(sys)
                .zip(exceed.into_iter().zip(estimates))
                .map(|((m, s), (c, estimate))| TestResult {
                    score: m.score(&s.sums()),
                    p_value: Some(p_value(c, trials)),
                    estimate,
                })
                .collect())
        }
    }
}

/// For integer statistics: per segment `base − sys`, and the system's and
/// the baseline's sums.
type IntegerTrials = (Vec<f64>, Vec<f64>, Vec<f64>);

/// `acc += row`, element by element.
fn add_to(acc: &mut [f64], row: &[f64]) {
    for (x, &y) in acc.iter_mut().zip(row) {
        *x += y;
    }
}

/// Approximate randomization: per metric, the trials whose shuffled
/// pseudo-systems differ by more than the real systems do. Each trial sums
/// as numpy's `pos_sel @ bl_stats + neg_sel @ sys_stats` (see the module):
/// the selected baseline rows and the unselected system rows, each in
/// segment order from 0, then their two sums added; so a trial that swaps
/// every segment (or none) scores exactly the real systems. Integer
/// statistics (BLEU's, chrF's, TER's with one reference) take half the
/// additions: any order sums them exactly.
fn randomization_counts(
    rng: &mut Generator,
    metrics: &[&dyn FromStats],
    base: &[SegmentStats],
    sys: &[SegmentStats],
    trials: usize,
    n: usize,
) -> Vec<usize> {
    let real: Vec<f64> = metrics
        .iter()
        .zip(base.iter().zip(sys))
        .map(|(m, (b, s))| (m.score(&b.sums()) - m.score(&s.sums())).abs())
        .collect();
    let mut exceed = vec![0usize; metrics.len()];
    if trials == 0 {
        return exceed;
    }
    // Integer statistics whose absolute values sum below 2^53 add up
    // exactly in any order: for them a trial is Σ sys + Σ_selected (base −
    // sys) and Σ base − Σ_selected (base − sys), one sum over the selected
    // segments, equal to numpy's two products bit for bit.
    let diffs: Vec<Option<IntegerTrials>> = base
        .iter()
        .zip(sys)
        .map(|(b, s)| {
            let all = b.data.iter().chain(&s.data);
            let exact =
                all.clone().all(|x| x.fract() == 0.0) && all.map(|x| x.abs()).sum::<f64>() < 9.007_199_254_740_992e15;
            exact.then(|| (b.data.iter().zip(&s.data).map(|(x, y)| x - y).collect(), s.sums(), b.sums()))
        })
        .collect();
    // Chunks of whole 32-bit draws, so that chunked fills equal numpy's one call.
    let rows = ((CHUNK_DRAWS / n.max(1)).max(32) / 32) * 32;
    let mut sel = vec![false; rows.min(trials) * n];
    let mut start = 0;
    while start < trials {
        let r = rows.min(trials - start);
        let sel = &mut sel[..r * n];
        rng.bit_generator_mut().bounded_bool_fill(false, true, sel);
        progress(r * n);
        for (k, m) in metrics.iter().enumerate() {
            let (w, b_rows, s_rows) = (m.width(), &base[k].data, &sys[k].data);
            let beats = |a: &[f64], b: &[f64]| (m.score_ar(a) - m.score_ar(b)).abs() > real[k];
            exceed[k] += match &diffs[k] {
                // Integers: every order of summation gives numpy's sums, so
                // one sum of the selected differences makes both systems.
                Some((d, s_sys, s_base)) => sel
                    .par_chunks(n.max(1))
                    .map_init(
                        || vec![0.0f64; 3 * w],
                        |buf, row| {
                            let (acc, rest) = buf.split_at_mut(w);
                            let (a, b) = rest.split_at_mut(w);
                            acc.fill(0.0);
                            for (_, di) in row.iter().zip(d.chunks_exact(w)).filter(|(pick, _)| **pick) {
                                add_to(acc, di);
                            }
                            for j in 0..w {
                                a[j] = s_sys[j] + acc[j];
                                b[j] = s_base[j] - acc[j];
                            }
                            beats(a, b)
                        },
                    )
                    .filter(|&x| x)
                    .count(),
                None => sel
                    .par_chunks(n.max(1))
                    .map_init(
                        || vec![0.0f64; 6 * w],
                        |buf, row| {
                            buf.fill(0.0);
                            // A's baseline and system parts, B's, then A and B.
                            let (a_base, rest) = buf.split_at_mut(w);
                            let (a_sys, rest) = rest.split_at_mut(w);
                            let (b_base, rest) = rest.split_at_mut(w);
                            let (b_sys, rest) = rest.split_at_mut(w);
                            let (a, b) = rest.split_at_mut(w);
                            let segments = row.iter().zip(b_rows.chunks_exact(w)).zip(s_rows.chunks_exact(w));
                            for ((&pick, bl), sy) in segments {
                                if pick {
                                    add_to(a_base, bl);
                                    add_to(b_sys, sy);
                                } else {
                                    add_to(a_sys, sy);
                                    add_to(b_base, bl);
                                }
                            }
                            for j in 0..w {
                                a[j] = a_base[j] + a_sys[j];
                                b[j] = b_base[j] + b_sys[j];
                            }
                            beats(a, b)
                        },
                    )
                    .filter(|&x| x)
                    .count(),
            };
        }
        start += r;
    }
    exceed
}

/// A whole comparison: `systems[s][k]` holds system `s`'s statistics for
/// `metrics[k]`, the baseline first. Returns `results[s][k]`. The
/// baseline's intervals use `seed`; the systems' generators use it too,
/// unless it is 0 (sacrebleu's `seed if seed else None`).
///
/// # Errors
/// Fewer than two systems; statistics of the wrong width or segment count.
pub fn compare(
    metrics: &[&dyn FromStats],
    systems: &[Vec<SegmentStats>],
    test: PairedTest,
    seed: Option<u128>,
) -> Result<Vec<Vec<TestResult>>, MetricError> {
    let Some((base, rest)) = systems.split_first() else {
        return Err(MetricError::InvalidInput { metric: "significance", reason: "no system to compare".into() });
    };
    let mut out =
        vec![metrics.iter().zip(base).map(|(m, b)| baseline(*m, b, test, seed)).collect::<Result<Vec<_>, _>>()?];
    let sys_seed = seed.filter(|&s| s != 0);
    for s in rest {
        out.push(paired(metrics, base, s, test, sys_seed)?);
    }
    Ok(out)
}

/// Paired bootstrap resampling of every pair of systems, for a significance
/// matrix. sacrebleu seeds every paired test's generator alike, so all tests
/// draw the same resamples: each system's resampled scores are computed once
/// and every pair compares them. `results[s][k]` equals
/// [`compare`]`(metrics, systems, PairedTest::Bootstrap(samples), seed)`;
/// `p[i][j][k]` (`None` where `i == j`) is the p-value of system `j` against
/// `i` as the baseline, as [`compare`] gives it with `i` first.
///
/// # Errors
/// No system; statistics of the wrong width or of different segment counts;
/// a seed of 0, for which sacrebleu draws the systems' resamples from fresh
/// generators (use [`compare`] and [`paired`]).
#[allow(clippy::type_complexity, reason = "results and p-values, as documented")]
pub fn bootstrap_all(
    metrics: &[&dyn FromStats],
    systems: &[Vec<SegmentStats>],
    samples: usize,
    seed: Option<u128>,
) -> Result<(Vec<Vec<TestResult>>, Vec<Vec<Vec<Option<f64>>>>), MetricError> {
    if seed == Some(0) {
        return Err(MetricError::InvalidInput {
            metric: "significance",
            reason: "seed 0 gives every system a fresh generator; compare the pairs one by one".into(),
        });
    }
    let Some(first) = systems.first() else {
        return Err(MetricError::InvalidInput { metric: "significance", reason: "no system to compare".into() });
    };
    let n = first.first().map_or(0, SegmentStats::len);
    for per in systems {
        for (m, st) in metrics.iter().zip(per) {
            check(*m, st, n)?;
        }
    }
    let data: Vec<Vec<f32>> = systems.iter().flat_map(|per| per.iter().map(SegmentStats::to_f32)).collect();
    let k_n = metrics.len();
    let sets: Vec<(&[f32], usize)> =
        data.iter().enumerate().map(|(i, d)| (d.as_slice(), metrics[i % k_n].width())).collect();
    let mut rng = Generator::default_rng(seed);
    let sums = bootstrap_sums(&mut rng, samples, &sets, n)?;
    let scores: Vec<Scores> = sums.iter().enumerate().map(|(i, s)| resample_scores(metrics[i % k_n], s)).collect();
    let corpus: Vec<Vec<f64>> =
        systems.iter().map(|per| metrics.iter().zip(per).map(|(m, st)| m.score(&st.sums())).collect()).collect();
    let n_sys = systems.len();
    let mut p = vec![vec![vec![None; k_n]; n_sys]; n_sys];
    for i in 0..n_sys {
        for j in 0..n_sys {
            if i == j {
                continue;
            }
            for k in 0..k_n {
                let real = (corpus[i][k] - corpus[j][k]).abs();
                let c = Scores::count_bootstrap_exceed(&scores[j * k_n + k], &scores[i * k_n + k], real);
                p[i][j][k] = Some(p_value(c, samples));
            }
        }
    }
    let results = (0..n_sys)
        .map(|s| {
            (0..k_n)
                .map(|k| TestResult {
                    score: corpus[s][k],
                    p_value: p[0][s][k],
                    estimate: scores[s * k_n + k].numpy_ci(),
                })
                .collect()
        })
        .collect();
    Ok((results, p))
}

#[cfg(test)]
mod tests;
