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
//!
//! NaN is not a missing score, and the reference has no rule for it:
//! `filter_gold_nones` keeps it, scipy's `pearsonr` and `spearmanr` turn the
//! vector's correlation into NaN, which `AverageCorrelation` then leaves out
//! of the average without a word, and `KendallVariants` and
//! `KendallWithTiesOpt` assume there is none (their counts then depend on
//! where it sits). The statistics here refuse a NaN gold score; the SQL
//! functions and `mteval meta` refuse any score that is not a finite number,
//! naming its row. (A NaN metric score still reaches the statistics in one
//! place, as in the reference: the permutation test's z-scores of a
//! constant metric.)

pub mod kendall;
pub mod keys;
pub mod linear;
pub mod permutation;
pub mod spa;
pub mod tie_opt;

pub use kendall::{TauStats, Variant, kendall};
pub use linear::{pearson, spearman};
pub use permutation::{Comparison, Extra, Measure, compare_metrics};
pub use tie_opt::{MAX_PAIRS, TieOpt, pair_count, rate_within_limit, tie_optimization, tie_optimization_rows};

/// A correlation statistic of two vectors.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Statistic {
    /// `scipy.stats.pearsonr`.
    Pearson,
    /// `scipy.stats.spearmanr`.
    Spearman,
    /// Pairwise Difference Pearson (`pearsonr` with mt-metrics-eval's
    /// `pdp=True`, added for WMT25): Pearson's r of the differences of every
    /// ordered pair of the vector's scores (itself included), gold against
    /// metric.
    PearsonPdp,
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
    /// A NaN gold score, a bad epsilon (see [`kendall`]).
    pub fn of(&self, gold: &[f64], metric: &[f64]) -> Result<f64, String> {
        check_gold(gold)?;
        match *self {
            Self::Pearson => Ok(pearson(gold, metric)),
            Self::Spearman => Ok(spearman(gold, metric)),
            Self::PearsonPdp => {
                let idx: Vec<usize> = (0..gold.len()).collect();
                let (g, m) = pairwise_differences(gold, metric, std::slice::from_ref(&idx))?;
                Ok(pearson(&g, &m))
            }
            Self::Kendall { variant, epsilon } => kendall(gold, metric, variant, epsilon),
        }
    }
}

/// Refuses a NaN gold score: the reference has no rule for one (see the
/// module's documentation); a missing score is left out before.
///
/// # Errors
/// The first NaN, by its index.
pub(crate) fn check_gold(gold: &[f64]) -> Result<(), String> {
    match gold.iter().position(|g| g.is_nan()) {
        Some(i) => Err(format!(
            "gold score {i} (counting from 0) is NaN: a missing score is left out (NULL, mt-metrics-eval's None); a NaN has no meaning in the reference"
        )),
        None => Ok(()),
    }
}

/// The options of the meta-evaluation functions (`meta_corr`).
pub const OPTIONS: &[crate::options::OptionKey] = &[
    crate::options::OptionKey::new(
        "stat",
        "`pearson` \\| `spearman` \\| `kendall`",
        "the correlation: scipy's `pearsonr` / `spearmanr`, or mt-metrics-eval's `KendallVariants`",
    ),
    crate::options::OptionKey::new(
        "variant",
        "`b` \\| `c` \\| `23` \\| `acc23`",
        "with `stat:kendall`: tau-b, tau-c, or the tie-aware tau-23 and acc-23 of Deutsch et al. 2023",
    ),
    crate::options::OptionKey::new(
        "epsilon",
        "`0` \\| a number >= 0",
        "with `stat:kendall`: metric differences up to it count as ties (not with `variant:c`)",
    ),
    crate::options::OptionKey::new(
        "pdp",
        "`no` \\| `yes`",
        "with `stat:pearson`: Pairwise Difference Pearson (mt-metrics-eval's `pdp=True`): Pearson's r of the \
         differences of every pair of the group's rows",
    ),
];

const METRIC: &str = "meta_corr";

impl Statistic {
    /// Parses `stat:pearson|spearman|kendall`, `variant:b|c|23|acc23` and
    /// `epsilon:E` (Pearson by default; Kendall's variant `b`, epsilon 0).
    ///
    /// # Errors
    /// Unknown keys or values, a variant or epsilon without `stat:kendall`,
    /// a negative epsilon, an epsilon with tau-c.
    pub fn parse(options: &str) -> Result<Self, crate::MetricError> {
        use crate::signature::bad_value;
        let (mut stat, mut variant, mut epsilon, mut pdp) = (None, None, None, false);
        for (k, v) in crate::signature::parse_options(METRIC, options)? {
            let lower = v.to_ascii_lowercase();
            match k.as_str() {
                "stat" => {
                    stat = Some(match lower.as_str() {
                        "pearson" => "pearson",
                        "spearman" => "spearman",
                        "kendall" => "kendall",
                        _ => return Err(bad_value(METRIC, &k, &v, "pearson, spearman or kendall")),
                    });
                }
                "variant" => {
                    variant =
                        Some(Variant::from_name(&lower).ok_or_else(|| bad_value(METRIC, &k, &v, "b, c, 23 or acc23"))?);
                }
                "epsilon" => {
                    epsilon = Some(
                        v.trim()
                            .parse::<f64>()
                            .ok()
                            .filter(|e| e.is_finite() && *e >= 0.0)
                            .ok_or_else(|| bad_value(METRIC, &k, &v, "a number >= 0"))?,
                    );
                }
                "pdp" => pdp = crate::signature::parse_bool(METRIC, &k, &v)?,
                _ => return Err(crate::options::unknown_key(METRIC, &k, &[OPTIONS], "")),
            }
        }
        let bad = |reason: &str| crate::MetricError::InvalidOption { metric: METRIC, reason: reason.to_owned() };
        if pdp && stat.is_some_and(|s| s != "pearson") {
            return Err(bad("pdp:yes goes with stat:pearson (Pairwise Difference Pearson), as in mt-metrics-eval"));
        }
        match stat.unwrap_or("pearson") {
            "kendall" => {
                let (variant, epsilon) = (variant.unwrap_or(Variant::B), epsilon.unwrap_or(0.0));
                if variant == Variant::C && epsilon > 0.0 {
                    return Err(bad("epsilon with variant:c is not supported (as in mt-metrics-eval)"));
                }
                Ok(Self::Kendall { variant, epsilon })
            }
            other if variant.is_some() || epsilon.is_some() => {
                Err(bad(&format!("variant and epsilon go with stat:kendall, not stat:{other}")))
            }
            "spearman" => Ok(Self::Spearman),
            _ if pdp => Ok(Self::PearsonPdp),
            _ => Ok(Self::Pearson),
        }
    }
}

/// The options of `meta_tie_opt`.
pub const TIE_OPT_OPTIONS: &[crate::options::OptionKey] = &[
    crate::options::OptionKey::new("variant", "`acc23` \\| `23`", "the tau the threshold maximises, averaged"),
    crate::options::OptionKey::new(
        "sample",
        "`1` \\| a rate in (0, 1]",
        "the share of pairs the search samples (`sample_rate`; 1, the exact search, as WMT's tasks run it)",
    ),
    crate::options::OptionKey::new("seed", "0 to 2^32 - 1", "with `sample` under 1: `np.random.seed` for the draws"),
];

/// `meta_tie_opt`'s options: the tau variant, the sample rate and, for a
/// sampled search, numpy's seed.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TieOptOptions {
    /// `23` or `acc23`.
    pub variant: Variant,
    /// `sample_rate`, in (0, 1].
    pub sample_rate: f64,
    /// `np.random.seed(seed)` before a sampled search.
    pub seed: Option<u32>,
}

impl TieOptOptions {
    /// Parses `variant:acc23|23`, `sample:R` and `seed:S` (acc-23, the
    /// exact search).
    ///
    /// # Errors
    /// Unknown keys or values, a rate outside (0, 1], a sampled search
    /// without a seed, a seed without sampling.
    pub fn parse(options: &str) -> Result<Self, crate::MetricError> {
        use crate::signature::bad_value;
        const NAME: &str = "meta_tie_opt";
        let mut out = Self { variant: Variant::Acc23, sample_rate: 1.0, seed: None };
        for (k, v) in crate::signature::parse_options(NAME, options)? {
            match k.as_str() {
                "variant" => {
                    out.variant = Variant::from_name(&v.to_ascii_lowercase())
                        .filter(|x| matches!(x, Variant::T23 | Variant::Acc23))
                        .ok_or_else(|| bad_value(NAME, &k, &v, "acc23 or 23 (the tie-aware variants)"))?;
                }
                "sample" => {
                    out.sample_rate = v
                        .trim()
                        .parse::<f64>()
                        .ok()
                        .filter(|r| *r > 0.0 && *r <= 1.0)
                        .ok_or_else(|| bad_value(NAME, &k, &v, "a rate in (0, 1]"))?;
                }
                "seed" => {
                    out.seed =
                        Some(v.trim().parse().map_err(|_| bad_value(NAME, &k, &v, "an integer from 0 to 2^32 - 1"))?);
                }
                _ => return Err(crate::options::unknown_key(NAME, &k, &[TIE_OPT_OPTIONS], "")),
            }
        }
        let bad = |reason: &str| crate::MetricError::InvalidOption { metric: NAME, reason: reason.to_owned() };
        match (out.sample_rate < 1.0, out.seed) {
            (true, None) => Err(bad("a sampled search (sample under 1) needs seed:S, numpy's np.random.seed")),
            (false, Some(_)) => Err(bad("seed goes with sample under 1; the exact search draws nothing")),
            _ => Ok(out),
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
    #[must_use]
    pub fn groups(self, num_sys: usize, items: usize) -> Vec<Vec<usize>> {
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
/// With [`Statistic::PearsonPdp`] (`AverageCorrelation(pearsonr, ...,
/// pdp=True)`): the pairwise differences within each vector, all pooled
/// into one vector, then one Pearson correlation of the present gold
/// differences (not an average over vectors); 0 where the reference's
/// average is empty (fewer than two differences, or a NaN correlation).
///
/// # Errors
/// Vectors of different lengths, a length that is not a multiple of
/// `num_sys`, a bad statistic; with PDP, a vector of fewer than two scores
/// or too many differences.
pub fn average_correlation(
    stat: Statistic,
    gold: &[Option<f64>],
    metric: &[f64],
    num_sys: usize,
    by: AverageBy,
    replace_nans_with_zeros: bool,
) -> Result<(f64, usize), String> {
    let groups = check_packed(gold.len(), metric.len(), num_sys, by)?;
    if stat == Statistic::PearsonPdp {
        let (g, m) = pairwise_differences(gold, metric, &groups)?;
        return average_correlation(Statistic::Pearson, &g, &m, 1, AverageBy::None, replace_nans_with_zeros);
    }
    let (mut total, mut n) = (0.0f64, 0usize);
    for idx in groups {
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

/// Gold and metric differences of every ordered pair `(i, j)` within each
/// vector of `groups` (`x[j] - x[i]`, rows, then `i`, then `j`, as
/// mt-metrics-eval's `_enumerate_pairwise_diffs` lays them out); a gold
/// difference is missing where either gold score is.
///
/// # Errors
/// A vector of fewer than two scores (the reference raises `ValueError`),
/// or more differences than [`MAX_PAIRS`].
pub fn pairwise_differences<G: Copy + Difference>(
    gold: &[G],
    metric: &[f64],
    groups: &[Vec<usize>],
) -> Result<(Vec<G::Out>, Vec<f64>), String> {
    if groups.iter().any(|g| g.len() < 2) {
        return Err("pairwise differences need at least 2 scores in each averaged vector (mt-metrics-eval raises \
             ValueError: 'Pairwise diffs cannot be calculated for less than 2 systems')"
            .to_owned());
    }
    let total: usize = groups.iter().map(|g| g.len() * g.len()).sum();
    if total > MAX_PAIRS {
        return Err(format!(
            "Pairwise Difference Pearson over {total} differences, over the limit of {MAX_PAIRS}: average by item or \
             system"
        ));
    }
    let (mut g, mut m) = (Vec::with_capacity(total), Vec::with_capacity(total));
    for idx in groups {
        for &i in idx {
            for &j in idx {
                g.push(gold[j].minus(gold[i]));
                m.push(metric[j] - metric[i]);
            }
        }
    }
    Ok((g, m))
}

/// A gold score that can be subtracted: `f64`, or `Option<f64>` (missing
/// where either side is).
pub trait Difference {
    /// The difference's type.
    type Out;
    /// `self - other`.
    fn minus(self, other: Self) -> Self::Out;
}

impl Difference for f64 {
    type Out = f64;
    fn minus(self, other: Self) -> f64 {
        self - other
    }
}

impl Difference for Option<f64> {
    type Out = Option<f64>;
    fn minus(self, other: Self) -> Option<f64> {
        Some(self? - other?)
    }
}

/// The vectors (index lists) of `by` over `num_sys` packed rows, after
/// checking the lengths.
///
/// # Errors
/// Vectors of different lengths, or a length that is not a multiple of
/// `num_sys`.
pub(crate) fn check_packed(
    gold: usize,
    metric: usize,
    num_sys: usize,
    by: AverageBy,
) -> Result<Vec<Vec<usize>>, String> {
    if gold != metric {
        return Err(format!("{gold} gold scores but {metric} metric scores"));
    }
    if num_sys == 0 || !gold.is_multiple_of(num_sys) {
        return Err(format!("{gold} scores are not {num_sys} systems x the same number of items"));
    }
    Ok(by.groups(num_sys, gold / num_sys))
}

/// mt-metrics-eval's `Agreement` as its system-level pairwise accuracy
/// divides it: of the pairs whose gold scores are both present, the
/// fraction whose gold and metric differences have the same sign (a tie in
/// both agrees); NaN when no pair is left.
#[must_use]
#[allow(clippy::cast_precision_loss, reason = "pair counts are far below 2^53")]
pub fn pairwise_accuracy(gold: &[Option<f64>], metric: &[f64]) -> f64 {
    let (agree, pairs) = pairwise_agreement(gold, metric);
    agree as f64 / pairs as f64
}

/// `stats.Agreement`: the pairs whose gold and metric differences have the
/// same sign, and the pairs compared (a missing gold score in none).
#[must_use]
pub fn pairwise_agreement(gold: &[Option<f64>], metric: &[f64]) -> (u64, u64) {
    let sign = |d: f64| {
        if d > 0.0 {
            1
        } else if d < 0.0 {
            -1
        } else if d == 0.0 {
            0
        } else {
            2
        }
    };
    let (mut agree, mut pairs) = (0u64, 0u64);
    for (a, (ga, ma)) in gold.iter().zip(metric).enumerate() {
        let Some(ga) = ga else { continue };
        for (gb, mb) in gold[a + 1..].iter().zip(&metric[a + 1..]) {
            let Some(gb) = gb else { continue };
            // np.sign(nan) is nan, equal to nothing.
            let (s, t) = (sign(ga - gb), sign(ma - mb));
            agree += u64::from(s == t && s != 2);
            pairs += 1;
        }
    }
    (agree, pairs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_parse_and_refuse() {
        assert_eq!(Statistic::parse("").unwrap(), Statistic::Pearson);
        assert_eq!(Statistic::parse("stat:Spearman").unwrap(), Statistic::Spearman);
        assert_eq!(
            Statistic::parse("stat:kendall|variant:acc23|epsilon:0.5").unwrap(),
            Statistic::Kendall { variant: Variant::Acc23, epsilon: 0.5 }
        );
        assert_eq!(Statistic::parse("stat:kendall").unwrap(), Statistic::Kendall { variant: Variant::B, epsilon: 0.0 });
        for (bad, needle) in [
            ("stat:tau", "stat:tau"),
            ("stat:kendall|variant:d", "variant:d"),
            ("stat:kendall|epsilon:-1", "epsilon:-1"),
            ("stat:kendall|epsilon:nan", "epsilon:nan"),
            ("stat:kendall|variant:c|epsilon:1", "variant:c"),
            ("variant:b", "stat:kendall"),
            ("stat:pearson|epsilon:1", "stat:pearson"),
            ("x:1", "unknown key 'x'"),
        ] {
            let e = Statistic::parse(bad).unwrap_err().to_string();
            assert!(e.contains(needle), "{bad}: {e}");
        }
    }

    #[test]
    fn a_nan_gold_score_is_refused_by_every_statistic() {
        // scipy: pearsonr and spearmanr with [1, nan, 3, 2] are nan;
        // KendallVariants([1, nan, 3, 2], [0.1, 0.2, 0.3, 0.5]) is 0.0 (tau-b),
        // a number only where the NaN happens to sit.
        let (gold, metric) = ([1.0, f64::NAN, 3.0, 2.0], [0.1, 0.2, 0.3, 0.5]);
        for stat in [
            Statistic::Pearson,
            Statistic::Spearman,
            Statistic::Kendall { variant: Variant::B, epsilon: 0.0 },
            Statistic::Kendall { variant: Variant::Acc23, epsilon: 0.1 },
        ] {
            let e = stat.of(&gold, &metric).unwrap_err();
            assert!(e.contains("gold score 1 (counting from 0) is NaN"), "{stat:?}: {e}");
            let packed: Vec<Option<f64>> = gold.iter().copied().map(Some).collect();
            assert!(average_correlation(stat, &packed, &metric, 1, AverageBy::None, false).is_err(), "{stat:?}");
        }
    }

    #[test]
    #[allow(clippy::manual_midpoint, reason = "the average as AverageCorrelation computes it: the sum, then / n")]
    fn averaging_filters_missing_gold_scores() {
        // Two systems x three items; the second system's middle gold missing.
        let gold = [Some(1.0), Some(2.0), Some(3.0), Some(1.0), None, Some(2.0)];
        let metric = [0.1, 0.3, 0.2, 0.5, 9.0, 0.6];
        let k = Statistic::Kendall { variant: Variant::Acc23, epsilon: 0.0 };
        // sys: row 1 acc23 = 2/3, row 2 (two scores, concordant) = 1.
        let (c, n) = average_correlation(k, &gold, &metric, 2, AverageBy::Sys, false).unwrap();
        assert_eq!((c, n), ((2.0 / 3.0 + 1.0) / 2.0, 2));
        // item: the middle item has one gold score and is skipped.
        assert_eq!(average_correlation(k, &gold, &metric, 2, AverageBy::Item, false).unwrap().1, 2);
        assert!(average_correlation(k, &gold, &metric, 4, AverageBy::Sys, false).is_err());
    }
}
