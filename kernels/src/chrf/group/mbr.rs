//! MBR on chrF: the utilities' options (chrF keys on fastchrf's defaults,
//! plus `self`) and signature, and numpy's mean, which the expected utility
//! of a candidate reproduces bit for bit.

use std::sync::Arc;

use super::FastChrfOptions;
use crate::MetricError;
use crate::backend::Backend;
use crate::chrf::ChrfConfig;
use crate::chrf::Whitespace;
use crate::metric::Direction;
use crate::metric::mbr::{Candidates, MBR_OPTIONS, Utility, UtilityInfo, split_options};
use crate::py::numpy_mean;

/// Options of the MBR utilities: chrF keys on top of fastchrf's defaults
/// (whitespace removed with Unicode's rule, effective order), plus `self`
/// (`yes`: every row of the group is a pseudo-reference for itself too, as
/// in fastchrf; `no`: a row's own pseudo-reference is left out).
///
/// # Errors
/// Unknown keys or values.
pub fn parse_mbr_options(options: &str) -> Result<(ChrfConfig, bool), MetricError> {
    let (include_self, rest) = split_options("chrF", options)?;
    Ok((ChrfConfig::parse_keys(FastChrfOptions::default().config(), &rest, ", self, utility")?, include_self))
}

/// Signature of an MBR utility: `utility` (`pairwise` or `aggregate`), the
/// chrF options, `self`, and the fastchrf version reproduced, e.g.
/// `utility:pairwise|case:mixed|eff:yes|nc:6|nw:0|space:no|ws:unicode|self:yes|version:fastchrf-0.2.1|impl:mteval-X`.
#[must_use]
pub fn mbr_signature(cfg: &ChrfConfig, include_self: bool, utility: &str) -> crate::Signature {
    let mut s = crate::Signature::default();
    s.push("utility", utility);
    s.entries.extend(cfg.signature_core().entries);
    if cfg.ws_rule == Whitespace::Python {
        // Not MBR's default (fastchrf splits on Unicode whitespace): say so,
        // so the signature pastes back to the same options.
        s.push("ws", "python");
    }
    s.push("self", if include_self { "yes" } else { "no" });
    s.stamped(format_args!("fastchrf-{}", crate::chrf::FASTCHRF_VERSION))
}

/// `numpy.mean` of `row` without entry `skip` (when in range).
pub(super) fn mean_skipping(row: &[f64], skip: Option<usize>) -> Option<f64> {
    match skip {
        Some(s) if s < row.len() => {
            let rest: Vec<f64> = row.iter().enumerate().filter(|&(k, _)| k != s).map(|(_, &v)| v).collect();
            numpy_mean(&rest)
        }
        _ => numpy_mean(row),
    }
}

/// The pairwise chrF utility's row of the utility table.
pub static PAIRWISE: UtilityInfo = row(&["mbr_chrf"], "fastchrf 0.2.1 pairwise_chrf", |o| configure(o, false));

/// The aggregate chrF utility's row of the utility table.
pub static AGGREGATE: UtilityInfo =
    row(&["mbr_chrf_aggregate"], "fastchrf 0.2.1 aggregate_chrf", |o| configure(o, true));

/// A chrF utility's row: named as its one window function, chrF's options
/// and `self`.
const fn row(
    function: &'static [&'static str; 1],
    reference: &'static str,
    configure: crate::metric::mbr::ConfigureUtility,
) -> UtilityInfo {
    UtilityInfo {
        name: function[0],
        functions: function,
        reference,
        options: &[crate::chrf::OPTIONS, MBR_OPTIONS],
        configure,
    }
}

fn configure(options: &str, aggregate: bool) -> Result<Arc<dyn Utility>, MetricError> {
    let (cfg, include_self) = parse_mbr_options(options)?;
    Ok(Arc::new(MbrChrf { cfg, include_self, aggregate }))
}

/// An MBR utility on chrF.
#[derive(Debug, Clone, Copy)]
pub struct MbrChrf {
    /// chrF options.
    pub cfg: ChrfConfig,
    /// Whether each candidate is also its own pseudo-reference.
    pub include_self: bool,
    /// Aggregate chrF rather than mean pairwise chrF.
    pub aggregate: bool,
}

impl Utility for MbrChrf {
    fn signature(&self) -> crate::Signature {
        mbr_signature(&self.cfg, self.include_self, if self.aggregate { "aggregate" } else { "pairwise" })
    }

    fn direction(&self) -> Direction {
        Direction::Higher
    }

    fn include_self(&self) -> bool {
        self.include_self
    }

    /// fastchrf's pairwise chrF of each candidate averaged as `numpy.mean`,
    /// or its aggregate chrF, on `backend`.
    fn expected(&self, backend: &dyn Backend, group: &Candidates<'_>) -> Result<Vec<Option<f64>>, MetricError> {
        let g = super::Group::new(&self.cfg, group.hyps, group.refs)?;
        Ok(if self.aggregate {
            g.aggregate_skipping_on(backend, group.skip)
        } else {
            g.expected_utility_skipping_on(backend, group.skip)
        })
    }
}
