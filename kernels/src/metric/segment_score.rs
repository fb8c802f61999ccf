//! A segment score computed elsewhere (COMET, `MetricX`, xCOMET, human
//! judgements) as a metric: a number per segment, whose corpus score is the
//! mean over the segments. Its statistics are `[value, 1]`, the corpus
//! score their sums' quotient, so sacrebleu's significance arithmetic
//! applies unchanged: these are the numbers sacrebleu's `PairedTest`
//! computes for a `Metric` subclass whose `_extract_corpus_statistics`
//! gives `[value, 1.0]` per segment and whose `_compute_score_from_stats`
//! is `stats[0] / stats[1]`.
//!
//! Not a row of [`crate::metrics::METRICS`]: it reads a number column, not text, so
//! it is made from the column's name ([`SegmentScore::new`]) or from options
//! ([`SegmentScore::parse`]), by `compare --score-col`, `report
//! --score-col`, the resampling SQL aggregates and Python.

use std::sync::Arc;

use super::{Direction, FromStats, Inputs, Mean, Metric, MetricInfo};
use crate::options::{OptionKey, unknown_key};
use crate::signature::{IMPL_VERSION, bad_value, parse_options};
use crate::{MetricError, NRefs, Signature};

const METRIC: &str = "segment score";

/// The option keys of a segment score.
pub const OPTIONS: &[OptionKey] = &[
    OptionKey::new("score", "`score` \\| any name", "the score's name (its column), shown as the metric's name"),
    OptionKey::new("dir", "`higher` \\| `lower`", "which way is better: `lower` for error-like scores (MQM penalties)"),
];

/// The segment score's entry (not listed in [`crate::metrics::METRICS`]: see the module).
pub static INFO: MetricInfo = MetricInfo {
    name: "score",
    display: "score",
    column: None,
    functions: &["corpus_bootstrap", "paired_test"],
    reference: "sacrebleu 2.6.0's significance tests over a Metric whose statistics are [value, 1.0]",
    options: &[OPTIONS],
    inputs: Inputs::Score,
    configure: |o| Ok(Arc::new(SegmentScore::parse(o)?)),
    ..MetricInfo::TEXT
};

/// A numeric segment score, averaged over the segments.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SegmentScore {
    /// Its name (the column's), as tables and signatures show it.
    pub name: String,
    /// Which way is better.
    pub direction: Direction,
}

impl SegmentScore {
    /// The score of column `name`, higher is better.
    #[must_use]
    pub fn new(name: &str) -> Self {
        Self { name: name.to_owned(), direction: Direction::Higher }
    }

    /// `NAME` or `NAME:lower` / `NAME:higher`, as `--score-col` takes it.
    ///
    /// # Errors
    /// An empty name, or a direction other than `lower` or `higher`.
    pub fn from_flag(flag: &str) -> Result<Self, MetricError> {
        let (name, dir) = match flag.rsplit_once(':') {
            Some((n, d)) => (n, Some(d)),
            None => (flag, None),
        };
        if name.trim().is_empty() {
            return Err(MetricError::InvalidOption {
                metric: METRIC,
                reason: format!("'{flag}': give a column name, as in comet or metricx:lower"),
            });
        }
        let mut s = Self::new(name.trim());
        if let Some(d) = dir {
            s.direction = parse_direction("--score-col", d)?;
        }
        Ok(s)
    }

    /// Options in signature syntax: `score:NAME` and `dir:higher|lower`
    /// (a signature pastes back; its `agg` and `impl` keys are read and
    /// ignored).
    ///
    /// # Errors
    /// Unknown keys and bad values, naming them.
    pub fn parse(options: &str) -> Result<Self, MetricError> {
        let mut s = Self::new("score");
        for (k, v) in parse_options(METRIC, options)? {
            match k.as_str() {
                "score" if v.trim().is_empty() => return Err(bad_value(METRIC, &k, &v, "a name")),
                "score" => v.trim().clone_into(&mut s.name),
                "dir" => s.direction = parse_direction(&k, &v)?,
                "agg" | "impl" => {}
                _ => return Err(unknown_key(METRIC, &k, &[OPTIONS], "agg, impl")),
            }
        }
        Ok(s)
    }
}

fn parse_direction(key: &str, v: &str) -> Result<Direction, MetricError> {
    match v.trim().to_ascii_lowercase().as_str() {
        "higher" => Ok(Direction::Higher),
        "lower" => Ok(Direction::Lower),
        _ => Err(bad_value(METRIC, key, v, "higher or lower")),
    }
}

impl Metric for SegmentScore {
    fn info(&self) -> &'static MetricInfo {
        &INFO
    }

    fn score_column(&self) -> Option<&str> {
        Some(&self.name)
    }

    fn display(&self) -> String {
        self.name.clone()
    }

    /// `score:NAME|agg:mean|dir:higher|impl:mteval-VERSION` (no `nrefs`:
    /// the score was computed elsewhere).
    fn signature(&self, _nrefs: NRefs) -> Signature {
        let mut s = Signature::default();
        s.push("score", &self.name);
        s.push("agg", "mean");
        s.push("dir", if self.direction == Direction::Lower { "lower" } else { "higher" });
        s.push("impl", format!("mteval-{IMPL_VERSION}"));
        s
    }

    /// Neural and human scores are fractions or small numbers.
    fn decimals(&self) -> usize {
        4
    }

    fn direction(&self) -> Direction {
        self.direction
    }

    fn stats(&self) -> Option<&dyn FromStats> {
        Some(&Mean)
    }
}

/// The statistics of one segment's score: `[value, 1]`.
#[must_use]
pub const fn stats(value: f64) -> [f64; 2] {
    [value, 1.0]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags_options_and_signature() {
        let s = SegmentScore::from_flag("metricx:lower").unwrap();
        assert_eq!((s.name.as_str(), s.direction), ("metricx", Direction::Lower));
        assert_eq!(SegmentScore::from_flag("comet").unwrap().direction, Direction::Higher);
        assert!(SegmentScore::from_flag(":lower").is_err());
        let e = SegmentScore::from_flag("comet:down").unwrap_err().to_string();
        assert!(e.contains("higher or lower"), "{e}");
        let sig = s.signature(NRefs::Fixed(1)).to_string();
        assert_eq!(sig, format!("score:metricx|agg:mean|dir:lower|impl:mteval-{IMPL_VERSION}"));
        assert_eq!(SegmentScore::parse(&sig).unwrap(), s, "the signature pastes back");
        assert!(SegmentScore::parse("nc:6").unwrap_err().to_string().contains("unknown key 'nc'"));
        assert_eq!(s.display(), "metricx");
        let e = s.segment("a", &["b"]).unwrap_err().to_string();
        assert!(e.contains("score scores a number column, not references"), "{e}");
    }

    #[test]
    fn corpus_score_is_the_mean_and_resamples_in_float32() {
        let s = SegmentScore::new("comet");
        let values = [0.1, 0.2, 0.7];
        let mut c = s.corpus().unwrap();
        for v in values {
            c.add(&stats(v));
        }
        assert_eq!(c.score(), Some((0.1 + 0.2 + 0.7) / 3.0));
        let r = s.stats().unwrap();
        assert_eq!(r.score(&[1.0, 3.0]), 1.0 / 3.0);
        let q = r.score_f32(&[1.0, 3.0]);
        assert_eq!(q, crate::py::Py::F32(1.0f32 / 3.0f32));
    }
}
