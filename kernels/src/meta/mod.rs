//! Meta-evaluation: how well a metric's scores agree with gold (human)
//! scores, as google-research/mt-metrics-eval's `stats.py` (commit 68a481a)
//! computes it: Pearson and Spearman (scipy 1.17's numbers, [`linear`]),
//! Kendall's tau variants with ties and an epsilon tie threshold
//! ([`kendall`]), and `AverageCorrelation`'s averaging of a systems x items
//! matrix ([`average_correlation`]).
//!
//! Scores are packed as mt-metrics-eval's `Correlation` holds them: one
//! vector of `num_sys` consecutive rows of `num_items` scores. A gold score
//! may be missing (`None`, which the reference filters out in tandem with
//! the metric's score).

pub mod kendall;
pub mod linear;

pub use kendall::{TauStats, Variant, kendall};
pub use linear::{pearson, spearman};

/// A correlation statistic of two vectors.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Statistic {
    /// `scipy.stats.pearsonr`.
    Pearson,
    /// `scipy.stats.spearmanr`.
    Spearman,
    /// `KendallVariants` with a tie threshold on the metric's differences.
    Kendall {
        /// The variant.
        variant: Variant,
        /// Metric differences up to this count as ties.
        epsilon: f64,
    },
}

impl Statistic {
    /// The statistic of `metric` against `gold`; NaN where the reference
    /// gives NaN (a constant vector, for Pearson and Spearman as
    /// mt-metrics-eval sets it).
    ///
    /// # Errors
    /// A bad epsilon (see [`kendall`]).
    pub fn of(&self, gold: &[f64], metric: &[f64]) -> Result<f64, String> {
        match *self {
            Self::Pearson => Ok(pearson(gold, metric)),
            Self::Spearman => Ok(spearman(gold, metric)),
            Self::Kendall { variant, epsilon } => kendall(gold, metric, variant, epsilon),
        }
    }
}

/// How a matrix of scores becomes vectors (`average_by`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AverageBy {
    /// One vector of every score (`none`; the only choice at system level).
    None,
    /// One vector per system (a row), the correlations averaged (`sys`).
    Sys,
    /// One vector per item (a column), the correlations averaged (`item`).
    Item,
}

impl AverageBy {
    /// The averaging of mt-metrics-eval's name (`none`, `sys`, `item`).
    #[must_use]
    pub fn from_name(name: &str) -> Option<Self> {
        match name {
            "none" => Some(Self::None),
            "sys" => Some(Self::Sys),
            "item" => Some(Self::Item),
            _ => None,
        }
    }

    /// The index lists of the vectors of a packed `num_sys` x `items`
    /// matrix.
    fn groups(self, num_sys: usize, items: usize) -> Vec<Vec<usize>> {
        match self {
            Self::None => vec![(0..num_sys * items).collect()],
            Self::Sys => (0..num_sys).map(|s| (s * items..(s + 1) * items).collect()).collect(),
            Self::Item => (0..items).map(|i| (0..num_sys).map(|s| s * items + i).collect()).collect(),
        }
    }
}

/// `AverageCorrelation(stat, num_sys, average_by, filter_nones=True,
/// replace_nans_with_zeros, macro=True)(gold, metric)`: the correlation of
/// each vector whose gold scores are not missing (vectors with fewer than two
/// such scores skipped), averaged in order, a NaN correlation left out (or
/// counted as 0 with `replace_nans_with_zeros`); and the number averaged.
/// `(0.0, 0)` when nothing is averaged, as the reference returns.
///
/// # Errors
/// Vectors of different lengths, a length that is not a multiple of
/// `num_sys`, or a bad statistic.
pub fn average_correlation(
    stat: Statistic,
    gold: &[Option<f64>],
    metric: &[f64],
    num_sys: usize,
    by: AverageBy,
    replace_nans_with_zeros: bool,
) -> Result<(f64, usize), String> {
    if gold.len() != metric.len() {
        return Err(format!("{} gold scores but {} metric scores", gold.len(), metric.len()));
    }
    if num_sys == 0 || !gold.len().is_multiple_of(num_sys) {
        return Err(format!("{} scores are not {num_sys} systems x the same number of items", gold.len()));
    }
    let (mut total, mut n) = (0.0f64, 0usize);
    for idx in by.groups(num_sys, gold.len() / num_sys) {
        let (g, m): (Vec<f64>, Vec<f64>) = idx.iter().filter_map(|&i| Some((gold[i]?, metric[i]))).unzip();
        if g.len() < 2 {
            continue;
        }
        let corr = stat.of(&g, &m)?;
        if !corr.is_nan() {
            total += corr;
            n += 1;
        } else if replace_nans_with_zeros {
            n += 1;
        }
    }
    #[allow(clippy::cast_precision_loss, reason = "the number of vectors is far below 2^53")]
    Ok(if n == 0 { (0.0, 0) } else { (total / n as f64, n) })
}
