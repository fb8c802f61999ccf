//! MBR on chrF: the utilities' options (chrF keys on fastchrf's defaults,
//! plus `self`) and signature, and numpy's mean, which the expected utility
//! of a candidate reproduces bit for bit.

use super::FastChrfOptions;
use crate::MetricError;
use crate::chrf::ChrfConfig;
use crate::chrf::Whitespace;

/// The MBR utilities' own option key; the chrF keys come first (on
/// fastchrf's defaults: `space:no`, `ws:unicode`).
pub const MBR_OPTIONS: &[crate::options::OptionKey] = &[crate::options::OptionKey::new(
    "self",
    "`yes` \\| `no`",
    "`yes`: every row of the group is a pseudo-reference for itself too, as in fastchrf; `no`: a row's own \
     pseudo-reference is left out",
)];

/// Options of the MBR utilities: chrF keys on top of fastchrf's defaults
/// (whitespace removed with Unicode's rule, effective order), plus `self`
/// (`yes`: every row of the group is a pseudo-reference for itself too, as
/// in fastchrf; `no`: a row's own pseudo-reference is left out).
///
/// # Errors
/// Unknown keys or values.
pub fn parse_mbr_options(options: &str) -> Result<(ChrfConfig, bool), MetricError> {
    let mut include_self = true;
    let mut rest = Vec::new();
    for (k, v) in crate::signature::parse_options("chrF", options)? {
        if k == "self" {
            include_self = crate::signature::parse_bool("chrF", &k, &v)?;
        } else if k == "utility" {
            // Part of a pasted-back MBR signature.
        } else {
            rest.push(format!("{k}:{v}"));
        }
    }
    Ok((ChrfConfig::parse_keys(FastChrfOptions::default().config(), &rest.join("|"), ", self, utility")?, include_self))
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
    s.push("version", format_args!("fastchrf-{}", crate::chrf::FASTCHRF_VERSION));
    s.push("impl", format_args!("mteval-{}", crate::IMPL_VERSION));
    s
}

/// `numpy.mean` of a contiguous float64 row, bit for bit: numpy's pairwise
/// summation (blocks of 128 with 8 accumulators), divided by the length.
/// `None` for an empty row (numpy gives NaN).
#[must_use]
#[allow(clippy::cast_precision_loss, reason = "a row's length is far below 2^53, exact in f64")]
pub fn numpy_mean(row: &[f64]) -> Option<f64> {
    (!row.is_empty()).then(|| numpy_sum(row) / row.len() as f64)
}

fn numpy_sum(a: &[f64]) -> f64 {
    let n = a.len();
    if n < 8 {
        let mut res = 0.0;
        for &x in a {
            res += x;
        }
        res
    } else if n <= 128 {
        let mut r = [a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7]];
        let full = n - n % 8;
        let mut i = 8;
        while i < full {
            for j in 0..8 {
                r[j] += a[i + j];
            }
            i += 8;
        }
        let mut res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
        for &x in &a[full..] {
            res += x;
        }
        res
    } else {
        let mut n2 = n / 2;
        n2 -= n2 % 8;
        numpy_sum(&a[..n2]) + numpy_sum(&a[n2..])
    }
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

/// The pairwise chrF utility's row of the metric table.
pub static PAIRWISE: crate::metric::MetricInfo = crate::metric::MetricInfo {
    name: "mbr_chrf",
    aliases: &[],
    column: None,
    functions: &["mbr_chrf"],
    reference: "fastchrf 0.2.1 pairwise_chrf",
    options: &[crate::chrf::OPTIONS, MBR_OPTIONS],
    direction: crate::metric::Direction::Higher,
    inputs: crate::metric::Inputs::Candidates,
    sacrebleu: None,
    configure: |o| configure(o, false),
};

/// The aggregate chrF utility's row of the metric table.
pub static AGGREGATE: crate::metric::MetricInfo = crate::metric::MetricInfo {
    name: "mbr_chrf_aggregate",
    aliases: &[],
    column: None,
    functions: &["mbr_chrf_aggregate"],
    reference: "fastchrf 0.2.1 aggregate_chrf",
    options: &[crate::chrf::OPTIONS, MBR_OPTIONS],
    direction: crate::metric::Direction::Higher,
    inputs: crate::metric::Inputs::Candidates,
    sacrebleu: None,
    configure: |o| configure(o, true),
};

fn configure(options: &str, aggregate: bool) -> Result<std::sync::Arc<dyn crate::metric::Metric>, MetricError> {
    let (cfg, include_self) = parse_mbr_options(options)?;
    Ok(std::sync::Arc::new(MbrChrf { cfg, include_self, aggregate }))
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

impl crate::metric::Metric for MbrChrf {
    fn info(&self) -> &'static crate::metric::MetricInfo {
        if self.aggregate { &AGGREGATE } else { &PAIRWISE }
    }

    fn display(&self) -> String {
        if self.aggregate { "MBR-chrF-aggregate" } else { "MBR-chrF" }.to_owned()
    }

    fn signature(&self, _nrefs: crate::NRefs) -> crate::Signature {
        mbr_signature(&self.cfg, self.include_self, if self.aggregate { "aggregate" } else { "pairwise" })
    }

    fn width(&self) -> usize {
        0
    }

    fn segment(&self, _hyp: &str, _refs: &[&str]) -> Result<Option<Vec<f64>>, MetricError> {
        Err(crate::metric::not_text(self.info()))
    }

    fn sentence_score(&self, _stats: &[f64]) -> Option<f64> {
        None
    }

    fn corpus(&self) -> Option<Box<dyn crate::metric::CorpusState>> {
        None
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}
