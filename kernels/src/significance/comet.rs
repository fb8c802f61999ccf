//! comet-compare's statistics (Unbabel COMET, `comet/cli/compare.py`),
//! exactly: for every pair of systems, in `itertools.combinations` order, a
//! paired t-test on the segment scores and bootstrap resampling with its
//! win/tie/loss shares, and the summary grid of who significantly beats whom.
//!
//! * **Scores** are numpy `float32` (comet-compare builds its score matrix
//!   with `dtype="float32"`); so is every step below.
//! * **Bootstrap** (`bootstrap_resampling`): numpy's legacy global state
//!   seeded with the seed (`seed_everything`), then `np.random.choice(n,
//!   size=(sample_size, num_splits))` — [`RandomState::choice_fill`], row
//!   by row — with `sample_size = max(int(n * sample_ratio), 1)`; each
//!   split's mean sums its `sample_size` scores in row order in `float32`
//!   (numpy's reduction over the middle axis), divided by `sample_size`;
//!   with one split the axis is contiguous and numpy sums pairwise.
//! * **Per pair** (`calculate_bootstrap`): `delta = x − y` over the splits;
//!   ties `|delta| < 0.001`, x wins `delta ≥ 0.001`, y wins `delta ≤
//!   −0.001` (the threshold as `float32`), each over `num_splits`;
//!   `x-mean`/`y-mean` are numpy's `mean` of the split means (pairwise sum).
//! * **Paired t-test** (`scipy.stats.ttest_rel(x, y)` on `float32`, scipy
//!   1.17): `d = x − y`, mean and variance (ddof 1) with numpy's pairwise
//!   sums, `t = mean / sqrt(var / n)`, all in `float32`; the p-value from
//!   [`stdtr`] with `n − 1` degrees of freedom (two-sided by default).
//! * **Summary** (`t_tests_summary`): where `p < 0.05`, the system with the
//!   higher bootstrap mean beats the other (y on equal means).

use crate::MetricError;
use crate::py::legacy::RandomState;
use crate::py::numpy_sum;
use crate::py::student_t::stdtr;
use rayon::prelude::*;

/// comet-compare's `--num_splits`.
pub const DEFAULT_SPLITS: usize = 300;
/// comet-compare's `--sample_ratio`.
pub const DEFAULT_SAMPLE_RATIO: f64 = 0.4;
/// The seed comet-compare's `--seed_everything` defaulted to.
pub const DEFAULT_SEED: u32 = 12;
/// The summary's significance threshold (`threshold_p_value`).
pub const SUMMARY_THRESHOLD: f32 = 0.05;
/// comet-compare's `EPS`, the tie threshold, compared as `float32`.
#[allow(clippy::cast_possible_truncation, reason = "numpy compares a float32 array with float32(0.001)")]
const EPS: f32 = 0.001f64 as f32;
/// The most segments a bootstrap draws from (numpy's 32-bit draws).
const MAX_SEGMENTS: usize = 1 << 32;

/// `ttest_rel`'s `alternative`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Alternative {
    /// `two-sided` (comet-compare's default).
    #[default]
    TwoSided,
    /// `less`: the mean of `x − y` is below 0.
    Less,
    /// `greater`: the mean of `x − y` is above 0.
    Greater,
}

impl Alternative {
    /// The name scipy takes.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::TwoSided => "two-sided",
            Self::Less => "less",
            Self::Greater => "greater",
        }
    }

    /// `two-sided`, `less` or `greater`.
    ///
    /// # Errors
    /// Any other name.
    pub fn parse(s: &str) -> Result<Self, MetricError> {
        [Self::TwoSided, Self::Less, Self::Greater].into_iter().find(|a| a.name() == s).ok_or_else(|| {
            MetricError::InvalidOption {
                metric: "comet-compare",
                reason: format!("t-test alternative '{s}': one of two-sided, less, greater (scipy's)"),
            }
        })
    }
}

/// comet-compare's settings.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Options {
    /// Bootstrap splits (`--num_splits`).
    pub num_splits: usize,
    /// Share of the segments in each split (`--sample_ratio`).
    pub sample_ratio: f64,
    /// numpy's global seed, set right before the resampling.
    pub seed: u32,
    /// The t-test's alternative hypothesis (`--t_test_alternative`).
    pub alternative: Alternative,
}

impl Default for Options {
    fn default() -> Self {
        Self {
            num_splits: DEFAULT_SPLITS,
            sample_ratio: DEFAULT_SAMPLE_RATIO,
            seed: DEFAULT_SEED,
            alternative: Alternative::TwoSided,
        }
    }
}

/// The option keys of the SQL aggregate `comet_compare`.
pub const OPTIONS: &[crate::options::OptionKey] = &[
    crate::options::OptionKey::new("splits", "`300` \\| N >= 1", "bootstrap splits (comet-compare's `--num_splits`)"),
    crate::options::OptionKey::new(
        "ratio",
        "`0.4` \\| a number > 0",
        "share of the segments in each split (`--sample_ratio`)",
    ),
    crate::options::OptionKey::new("seed", "`12` \\| an integer from 0 to 2^32 - 1", "numpy's global seed"),
    crate::options::OptionKey::new(
        "alt",
        "`two-sided` \\| `less` \\| `greater`",
        "the t-test's alternative (`--t_test_alternative`)",
    ),
    crate::options::OptionKey::new(
        "dir",
        "`higher` \\| `lower`",
        "which way is better: the summary credits the lower mean for `lower`",
    ),
];

impl Options {
    /// comet-compare's settings and the score's direction (lower is better)
    /// from options in signature syntax (`splits:1000|seed:1|dir:lower`).
    ///
    /// # Errors
    /// Unknown keys, values out of range.
    pub fn parse(options: &str) -> Result<(Self, bool), MetricError> {
        use crate::signature::{bad_value, parse_options};
        const NAME: &str = "comet_compare";
        let mut o = Self::default();
        let mut lower = false;
        for (k, v) in parse_options(NAME, options)? {
            match k.as_str() {
                "splits" => {
                    o.num_splits = v
                        .parse()
                        .ok()
                        .filter(|&n| n > 0)
                        .ok_or_else(|| bad_value(NAME, &k, &v, "a whole number of splits, at least 1"))?;
                }
                "ratio" => {
                    o.sample_ratio = v
                        .parse()
                        .ok()
                        .filter(|r: &f64| r.is_finite() && *r > 0.0)
                        .ok_or_else(|| bad_value(NAME, &k, &v, "a number above 0"))?;
                }
                "seed" => o.seed = v.parse().map_err(|_| bad_value(NAME, &k, &v, "an integer from 0 to 4294967295"))?,
                "alt" => {
                    o.alternative =
                        Alternative::parse(&v).map_err(|_| bad_value(NAME, &k, &v, "two-sided, less or greater"))?;
                }
                "dir" => {
                    lower = match v.as_str() {
                        "higher" => false,
                        "lower" => true,
                        _ => return Err(bad_value(NAME, &k, &v, "higher or lower")),
                    };
                }
                _ => crate::options::other_key(NAME, &k, &[OPTIONS])?,
            }
        }
        Ok((o, lower))
    }
}

/// One pair's bootstrap numbers (`bootstrap_resampling` of comet's JSON).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Bootstrap {
    /// `x-mean`: the mean of x's split means.
    pub x_mean: f32,
    /// `y-mean`.
    pub y_mean: f32,
    /// `ties (%)`: the share of splits within 0.001.
    pub ties: f64,
    /// `x_wins (%)`.
    pub x_wins: f64,
    /// `y_wins (%)`.
    pub y_wins: f64,
}

impl Bootstrap {
    /// Whether x's mean is the better one: comet-compare's `x-mean >
    /// y-mean`, or `<` for lower-is-better scores.
    #[must_use]
    pub fn x_better(&self, lower_is_better: bool) -> bool {
        if lower_is_better { self.x_mean < self.y_mean } else { self.x_mean > self.y_mean }
    }
}

/// One pair's paired t-test (`paired_t-test`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TTest {
    /// The t statistic (NaN with fewer than 2 segments or no variance and no difference).
    pub statistic: f32,
    /// Its p-value.
    pub p_value: f32,
}

/// One pair of systems, `x` before `y` in the systems' order.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Pair {
    /// Index of system x.
    pub x: usize,
    /// Index of system y.
    pub y: usize,
    /// Bootstrap resampling.
    pub bootstrap: Bootstrap,
    /// Paired t-test.
    pub t_test: TTest,
}

/// Every pair, and the split size used.
#[derive(Debug, Clone, PartialEq)]
pub struct Comparison {
    /// Systems compared.
    pub systems: usize,
    /// Segments per system.
    pub segments: usize,
    /// Segments per split: `max(int(segments * sample_ratio), 1)`.
    pub sample_size: usize,
    /// The pairs in `itertools.combinations` order.
    pub pairs: Vec<Pair>,
}

impl Comparison {
    /// `t_tests_summary`'s grid: `grid[i][j]` is `Some(true)` where system
    /// `i` significantly beats `j` (`p < threshold`), `Some(false)` for
    /// other pairs, `None` on the diagonal. The better bootstrap mean is the
    /// higher one (comet-compare's), or the lower one for `lower_is_better`
    /// scores (error rates, MQM penalties).
    #[must_use]
    pub fn grid(&self, threshold: f32, lower_is_better: bool) -> Vec<Vec<Option<bool>>> {
        let mut grid = vec![vec![None; self.systems]; self.systems];
        for p in &self.pairs {
            grid[p.x][p.y] = Some(false);
            grid[p.y][p.x] = Some(false);
            if p.t_test.p_value < threshold {
                if p.bootstrap.x_better(lower_is_better) {
                    grid[p.x][p.y] = Some(true);
                } else {
                    grid[p.y][p.x] = Some(true);
                }
            }
        }
        grid
    }
}

/// `max(int(segments * sample_ratio), 1)`.
#[must_use]
#[allow(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    clippy::cast_precision_loss,
    reason = "Python's int() of a non-negative product"
)]
pub fn sample_size(segments: usize, sample_ratio: f64) -> usize {
    let p = segments as f64 * sample_ratio;
    if p.is_finite() && p >= 1.0 { p as usize } else { 1 }
}

/// `scipy.stats.ttest_rel(x, y, alternative)` on `float32` scores.
#[must_use]
#[allow(clippy::cast_precision_loss, reason = "numpy converts the count to float32")]
pub fn ttest_rel(x: &[f32], y: &[f32], alternative: Alternative) -> TTest {
    let d: Vec<f32> = x.iter().zip(y).map(|(a, b)| a - b).collect();
    let n = d.len();
    if n < 2 {
        return TTest { statistic: f32::NAN, p_value: f32::NAN };
    }
    let nf = n as f32;
    let mean = numpy_sum(&d) / nf;
    let sq: Vec<f32> = d.iter().map(|v| (v - mean) * (v - mean)).collect();
    let var = (numpy_sum(&sq) / nf) * (nf / (nf - 1.0));
    let denom = (var / nf).sqrt();
    let t = mean / denom;
    let df = (n - 1) as f32;
    let p = match alternative {
        Alternative::TwoSided => 2.0 * stdtr(df, -t.abs()),
        Alternative::Less => stdtr(df, t),
        Alternative::Greater => stdtr(df, -t),
    };
    TTest { statistic: t, p_value: p }
}

/// Rows of the index matrix drawn at a time (the draws are row-major, so a
/// block of rows is a contiguous run of the stream).
const ROWS_PER_BLOCK: usize = 2048;

/// `bootstrap_resampling`: each system's `num_splits` split means, from
/// numpy's global state seeded with `seed`.
#[must_use]
#[allow(clippy::cast_precision_loss, reason = "numpy divides by the count as float32")]
pub fn bootstrap_means(scores: &[Vec<f32>], sample_size: usize, num_splits: usize, seed: u32) -> Vec<Vec<f32>> {
    let n = scores.first().map_or(0, Vec::len);
    let mut rng = RandomState::seed(seed);
    let mut sums = vec![vec![0.0f32; num_splits]; scores.len()];
    let mut ids = vec![0u32; ROWS_PER_BLOCK.min(sample_size) * num_splits];
    // One split: numpy's reduction axis is then contiguous, and it sums the
    // picked scores pairwise (its `sum` of one vector), not row by row.
    let mut picked: Vec<Vec<f32>> = vec![Vec::new(); if num_splits == 1 { scores.len() } else { 0 }];
    let mut done = 0;
    while done < sample_size {
        let rows = ROWS_PER_BLOCK.min(sample_size - done);
        let block = &mut ids[..rows * num_splits];
        rng.choice_fill(n as u64, block);
        let block = &*block;
        if num_splits == 1 {
            for (p, s) in picked.iter_mut().zip(scores) {
                p.extend(block.iter().map(|&i| s[i as usize]));
            }
        } else {
            sums.par_iter_mut().zip(scores).for_each(|(acc, s)| {
                for row in block.chunks_exact(num_splits) {
                    for (a, &i) in acc.iter_mut().zip(row) {
                        *a += s[i as usize];
                    }
                }
            });
        }
        done += rows;
    }
    for (acc, p) in sums.iter_mut().zip(&picked) {
        acc[0] = numpy_sum(p);
    }
    let k = sample_size as f32;
    for per in &mut sums {
        for v in per.iter_mut() {
            *v /= k;
        }
    }
    sums
}

/// `calculate_bootstrap` of two systems' split means.
#[must_use]
#[allow(clippy::cast_precision_loss, reason = "counts and split numbers as Python floats")]
pub fn pair_bootstrap(x: &[f32], y: &[f32]) -> Bootstrap {
    let splits = x.len() as f64;
    let (mut ties, mut x_wins, mut y_wins) = (0usize, 0usize, 0usize);
    for (a, b) in x.iter().zip(y) {
        let delta = a - b;
        ties += usize::from(delta.abs() < EPS);
        x_wins += usize::from(delta >= EPS);
        y_wins += usize::from(delta <= -EPS);
    }
    let mean = |v: &[f32]| numpy_sum(v) / v.len() as f32;
    Bootstrap {
        x_mean: mean(x),
        y_mean: mean(y),
        ties: ties as f64 / splits,
        x_wins: x_wins as f64 / splits,
        y_wins: y_wins as f64 / splits,
    }
}

/// comet-compare's statistics over `scores[system][segment]` (already
/// `float32`, in the systems' order).
///
/// # Errors
/// Fewer than two systems, systems of different lengths, no segments, a
/// non-finite score (naming system and segment), no splits.
pub fn compare(scores: &[Vec<f32>], opts: &Options) -> Result<Comparison, MetricError> {
    let bad = |reason: String| MetricError::InvalidInput { metric: "comet-compare", reason };
    if scores.len() < 2 {
        return Err(bad(format!("comparing systems needs two or more; got {}", scores.len())));
    }
    let n = scores[0].len();
    if let Some((i, s)) = scores.iter().enumerate().find(|(_, s)| s.len() != n) {
        return Err(bad(format!("system {i} has {} segment scores, system 0 has {n}", s.len())));
    }
    if n == 0 {
        return Err(bad("no segments to compare".to_owned()));
    }
    if n > MAX_SEGMENTS {
        return Err(bad(format!("{n} segments: numpy's 32-bit draws take at most {MAX_SEGMENTS}")));
    }
    for (i, s) in scores.iter().enumerate() {
        if let Some(j) = s.iter().position(|v| !v.is_finite()) {
            return Err(bad(format!("system {i}, segment {j}: score {} is not a finite float32", s[j])));
        }
    }
    if opts.num_splits == 0 {
        return Err(bad("num_splits must be at least 1".to_owned()));
    }
    if !(opts.sample_ratio.is_finite() && opts.sample_ratio > 0.0) {
        return Err(bad(format!("sample_ratio must be a positive number, got {}", opts.sample_ratio)));
    }
    let sample_size = sample_size(n, opts.sample_ratio);
    let means = bootstrap_means(scores, sample_size, opts.num_splits, opts.seed);
    let mut pairs = Vec::new();
    for x in 0..scores.len() {
        for y in x + 1..scores.len() {
            pairs.push((x, y));
        }
    }
    let pairs = pairs
        .into_par_iter()
        .map(|(x, y)| Pair {
            x,
            y,
            bootstrap: pair_bootstrap(&means[x], &means[y]),
            t_test: ttest_rel(&scores[x], &scores[y], opts.alternative),
        })
        .collect();
    Ok(Comparison { systems: scores.len(), segments: n, sample_size, pairs })
}

/// Scores given as Python floats, as comet-compare stores them
/// (`np.array(..., dtype="float32")`: rounded to the nearest `float32`).
#[must_use]
#[allow(clippy::cast_possible_truncation, reason = "numpy's float64 to float32 conversion")]
pub fn to_f32(scores: &[f64]) -> Vec<f32> {
    scores.iter().map(|&v| v as f32).collect()
}

#[cfg(test)]
#[allow(clippy::cast_possible_truncation, reason = "small counts and seeds from the golden file")]
mod tests {
    use super::*;

    #[test]
    fn masked_choice_matches_numpy_legacy() {
        // np.random.seed(12); np.random.choice(10, size=8) (numpy 2.4.6).
        let mut rng = RandomState::seed(12);
        let mut out = [0u32; 8];
        rng.choice_fill(10, &mut out);
        assert_eq!(out, [6, 1, 2, 3, 3, 0, 6, 1]);
        let mut one = [7u32; 3];
        RandomState::seed(12).choice_fill(1, &mut one);
        assert_eq!(one, [0, 0, 0]);
    }

    #[test]
    fn sample_size_is_pythons() {
        assert_eq!(sample_size(1013, 0.4), 405);
        assert_eq!(sample_size(2, 0.4), 1);
        assert_eq!(sample_size(10, 0.0), 1);
        assert_eq!(sample_size(5, 0.2), 1);
    }

    #[test]
    fn grid_marks_the_higher_mean_where_significant() {
        let pair = |x, y, xm, ym, p| Pair {
            x,
            y,
            bootstrap: Bootstrap { x_mean: xm, y_mean: ym, ties: 0.0, x_wins: 0.0, y_wins: 0.0 },
            t_test: TTest { statistic: 0.0, p_value: p },
        };
        let c = Comparison {
            systems: 3,
            segments: 10,
            sample_size: 4,
            pairs: vec![pair(0, 1, 0.5, 0.6, 0.01), pair(0, 2, 0.7, 0.6, 0.2), pair(1, 2, 0.6, 0.6, 0.04)],
        };
        let g = c.grid(SUMMARY_THRESHOLD, false);
        assert_eq!(c.grid(SUMMARY_THRESHOLD, true)[0][1], Some(true));
        assert_eq!(g[1][0], Some(true));
        assert_eq!(g[0][1], Some(false));
        assert_eq!((g[0][2], g[2][0]), (Some(false), Some(false)));
        // Equal means: comet's `else` branch credits y.
        assert_eq!((g[2][1], g[1][2]), (Some(true), Some(false)));
        assert_eq!(g[1][1], None);
    }

    /// comet-compare's own numbers (`tests/golden/comet_compare.json`,
    /// unbabel-comet 2.2.7's compare.py on seeded random scores), bit for bit.
    #[test]
    fn golden_cases_match_comet_compare() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/golden/comet_compare.json");
        let golden: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        let num = |v: &serde_json::Value| v.as_f64().unwrap_or(f64::NAN);
        let same = |a: f64, b: f64| a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan());
        for c in golden["cases"].as_array().unwrap() {
            let scores: Vec<Vec<f32>> = c["scores"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| to_f32(&s.as_array().unwrap().iter().map(num).collect::<Vec<_>>()))
                .collect();
            let o = &c["options"];
            let opts = Options {
                num_splits: o["num_splits"].as_u64().unwrap() as usize,
                sample_ratio: num(&o["sample_ratio"]),
                seed: o["seed"].as_u64().unwrap() as u32,
                alternative: Alternative::parse(o["alternative"].as_str().unwrap()).unwrap(),
            };
            let got = compare(&scores, &opts).unwrap();
            for (p, want) in got.pairs.iter().zip(c["results"].as_array().unwrap()) {
                let (b, t) = (&want["bootstrap_resampling"], &want["paired_t-test"]);
                let name = format!("{}: {} vs {}", c["name"], p.x, p.y);
                assert!(same(f64::from(p.bootstrap.x_mean), num(&b["x-mean"])), "{name} x-mean");
                assert!(same(f64::from(p.bootstrap.y_mean), num(&b["y-mean"])), "{name} y-mean");
                assert!(same(p.bootstrap.ties, num(&b["ties (%)"])), "{name} ties");
                assert!(same(p.bootstrap.x_wins, num(&b["x_wins (%)"])), "{name} x wins");
                assert!(same(p.bootstrap.y_wins, num(&b["y_wins (%)"])), "{name} y wins");
                assert!(same(f64::from(p.t_test.statistic), num(&t["statistic"])), "{name} t");
                assert!(same(f64::from(p.t_test.p_value), num(&t["p_value"])), "{name} p");
            }
        }
    }

    /// numpy's `np.mean(np.take(seg, ids, axis=1), axis=1)` after
    /// `np.random.seed(12)` (numpy 2.4.6): row by row for two splits,
    /// pairwise for one (the reduction axis is then contiguous).
    #[test]
    #[allow(clippy::cast_precision_loss)]
    fn split_means_sum_as_numpy_for_one_split_and_several() {
        let a: Vec<f32> = (0..400u32).map(|i| (i * 7919 % 1000) as f32 / 997.0).collect();
        let b: Vec<f32> = (0..400u32).map(|i| (i * 104_729 % 1000) as f32 / 991.0).collect();
        let scores = [a, b];
        assert_eq!(bootstrap_means(&scores, 160, 1, 12), [[0.487_117_6_f32], [0.552_819_13]]);
        assert_eq!(bootstrap_means(&scores, 160, 2, 12), [[0.539_669_f32, 0.448_025_3], [0.499_546_05, 0.540_987_73]]);
    }

    #[test]
    fn bad_input_is_named() {
        let opts = Options::default();
        assert!(compare(&[vec![0.5]], &opts).is_err());
        let e = compare(&[vec![0.5, 0.1], vec![0.4]], &opts).unwrap_err().to_string();
        assert!(e.contains("system 1 has 1"), "{e}");
        let e = compare(&[vec![0.5, f32::NAN], vec![0.4, 0.3]], &opts).unwrap_err().to_string();
        assert!(e.contains("system 0, segment 1"), "{e}");
        assert!(Alternative::parse("two_sided").is_err());
        let (o, lower) = Options::parse("splits:50|ratio:0.25|seed:7|alt:less|dir:lower").unwrap();
        assert_eq!(
            (o.num_splits, o.sample_ratio, o.seed, o.alternative, lower),
            (50, 0.25, 7, Alternative::Less, true)
        );
        assert_eq!(Options::parse("").unwrap(), (Options::default(), false));
        for bad in ["splits:0", "ratio:-1", "seed:-3", "alt:both", "dir:up", "perms:5"] {
            assert!(Options::parse(bad).is_err(), "{bad}");
        }
    }
}
