//! What `mteval mbr` asks of a metric: an MBR utility, the expected utility
//! of every candidate of one source against that source's pseudo-references.
//!
//! Two kinds exist. A metric built for MBR (fastchrf's pairwise and aggregate
//! chrF, rows `mbr_chrf` and `mbr_chrf_aggregate`) implements [`Utility`]
//! itself. Every other text metric is a utility through [`MeanUtility`]: the
//! mean of its sentence scores against the pseudo-references, averaged as
//! `numpy.mean` does (row `mbr_ter` is this over TER; `--utility wer`,
//! `bleu`, `char_error_rate`... are the same over those rows). The named
//! utilities are rows of their own table ([`UtilityInfo`],
//! [`crate::metrics::UTILITIES`]), not of the metric table: they read the
//! candidates of a source, not a hypothesis and references, and have no
//! per-row or corpus score. [`crate::metrics::utility`] resolves a
//! utility's name to one of them.

use std::fmt;
use std::sync::Arc;

use rayon::prelude::*;

use super::{Direction, Metric, MetricInfo};
use crate::backend::Backend;
use crate::options::OptionKey;
use crate::py::numpy_mean;
use crate::signature::{parse_bool, parse_options};
use crate::{MetricError, NRefs, Signature};

/// The option every MBR utility takes besides its metric's.
pub const MBR_OPTIONS: &[OptionKey] = &[OptionKey::new(
    "self",
    "`yes` \\| `no`",
    "`yes`: every row of the group is a pseudo-reference for itself too, as in fastchrf; `no`: a row's own \
     pseudo-reference is left out",
)];

/// Parses a utility's options (signature syntax, `key:value|...`).
pub type ConfigureUtility = fn(&str) -> Result<Arc<dyn Utility>, MetricError>;

/// One row of the MBR utility table ([`crate::metrics::UTILITIES`]).
pub struct UtilityInfo {
    /// Its name (`mbr_chrf`); `mteval mbr --utility` takes it with or
    /// without the `mbr_` prefix.
    pub name: &'static str,
    /// Its SQL window functions.
    pub functions: &'static [&'static str],
    /// The reference implementation it reproduces.
    pub reference: &'static str,
    /// Its option keys, in groups (the SQL guide's option tables).
    pub options: &'static [&'static [OptionKey]],
    /// Parses options (signature syntax).
    pub configure: ConfigureUtility,
}

impl UtilityInfo {
    /// Parses `options` for this utility.
    ///
    /// # Errors
    /// Unknown keys and bad values, naming them.
    pub fn configure(&self, options: &str) -> Result<Arc<dyn Utility>, MetricError> {
        (self.configure)(options)
    }

    /// Whether `name` names it (any case, `-` for `_`, with or without
    /// `mbr_`).
    #[must_use]
    pub fn is_named(&self, name: &str) -> bool {
        let wanted = name.trim().replace('-', "_").to_ascii_lowercase();
        self.name == wanted || self.name.strip_prefix("mbr_") == Some(wanted.as_str())
    }
}

super::table_row!(UtilityInfo);

/// An MBR utility with its options parsed.
pub trait Utility: fmt::Debug + Send + Sync {
    /// The reproducibility signature (`utility:...|...|self:yes`).
    fn signature(&self) -> Signature;

    /// Whether the highest or the lowest expected utility wins.
    fn direction(&self) -> Direction;

    /// Whether each candidate is also its own pseudo-reference (option `self`).
    fn include_self(&self) -> bool;

    /// Each candidate's expected utility against the group's
    /// pseudo-references; `None` for a candidate with no pseudo-reference
    /// left. On `backend` where the utility has a batched path, else on all
    /// cores.
    ///
    /// # Errors
    /// A candidate or pseudo-reference the metric refuses (over a length limit).
    fn expected(&self, backend: &dyn Backend, group: &Candidates<'_>) -> Result<Vec<Option<f64>>, MetricError>;
}

/// The candidates of one source and their pseudo-references.
#[derive(Debug, Clone, Copy)]
pub struct Candidates<'a> {
    /// The candidates.
    pub hyps: &'a [&'a str],
    /// The pseudo-references; `None`: the candidates themselves.
    pub refs: Option<&'a [&'a str]>,
    /// `skip[j]`: the pseudo-reference left out for candidate `j`.
    pub skip: &'a [Option<usize>],
}

/// An MBR utility's bad option.
pub(crate) fn invalid(reason: String) -> MetricError {
    MetricError::InvalidOption { metric: "MBR utility", reason }
}

/// Splits an MBR utility's options into `self` and the rest (for its
/// metric, rejoined in signature syntax); `utility` (from a pasted-back
/// signature) is dropped.
///
/// # Errors
/// Malformed options, a bad `self`.
pub fn split_options(metric: &'static str, options: &str) -> Result<(bool, String), MetricError> {
    let mut include_self = true;
    let mut rest = Vec::new();
    for (k, v) in parse_options(metric, options)? {
        match k.as_str() {
            "self" => include_self = parse_bool(metric, &k, &v)?,
            "utility" => {}
            _ => rest.push(format!("{k}:{v}")),
        }
    }
    Ok((include_self, rest.join("|")))
}

/// A text metric as an MBR utility: each candidate's mean sentence score
/// ([`Metric::sentence_score`]) against the pseudo-references, averaged as
/// `numpy.mean` does, the metric's direction deciding.
#[derive(Debug, Clone)]
pub struct MeanUtility {
    metric: Arc<dyn Metric>,
    include_self: bool,
}

impl MeanUtility {
    /// The mean of `of`'s sentence scores with `options` (`of`'s keys plus
    /// `self`).
    ///
    /// # Errors
    /// Unknown keys (the error lists `of`'s and `self`) and bad values.
    pub fn configure(of: &'static MetricInfo, options: &str) -> Result<Self, MetricError> {
        let (include_self, rest) = split_options(of.name, options)?;
        let metric = of.configure(&rest).map_err(|e| match e {
            MetricError::InvalidOption { metric, reason } if reason.starts_with("unknown key") => {
                MetricError::InvalidOption { metric, reason: format!("{reason}; as an MBR utility also: self") }
            }
            e => e,
        })?;
        Ok(Self { metric, include_self })
    }

    /// The metric averaged.
    #[must_use]
    pub fn metric(&self) -> &dyn Metric {
        self.metric.as_ref()
    }
}

impl Utility for MeanUtility {
    /// `utility:NAME-mean`, the metric's signature for one reference, `self`.
    fn signature(&self) -> Signature {
        let mut s = Signature::default();
        s.push("utility", format_args!("{}-mean", self.metric.info().name));
        s.entries.extend(self.metric.signature(NRefs::Fixed(1)).entries);
        s.push("self", if self.include_self { "yes" } else { "no" });
        s
    }

    fn direction(&self) -> Direction {
        self.metric.info().direction
    }

    fn include_self(&self) -> bool {
        self.include_self
    }

    fn expected(&self, _backend: &dyn Backend, group: &Candidates<'_>) -> Result<Vec<Option<f64>>, MetricError> {
        let Candidates { hyps, refs, skip } = *group;
        let refs = refs.unwrap_or(hyps);
        hyps.par_iter()
            .enumerate()
            .map(|(j, h)| {
                let mut row = Vec::with_capacity(refs.len());
                for (k, r) in refs.iter().enumerate() {
                    if skip.get(j).copied().flatten() == Some(k) {
                        continue;
                    }
                    if let Some(seg) = self.metric.segment(h, &[r])? {
                        row.extend(self.metric.sentence_score(&seg));
                    }
                }
                Ok(numpy_mean(&row))
            })
            .collect()
    }
}
