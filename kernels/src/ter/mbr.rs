//! TER as an MBR utility: each candidate's mean sentence TER against the
//! pseudo-references of its group (lower is better), averaged as
//! `numpy.mean` does, with the same `self` option as the chrF utilities.

use rayon::prelude::*;

use crate::chrf::group::{MBR_OPTIONS, numpy_mean};
use crate::options::{SIGNATURE_KEYS, unknown_key};
use crate::signature::{parse_bool, parse_options};
use crate::{MetricError, NRefs, Signature, Ter};

const METRIC: &str = "TER";

/// Parses MBR TER options: the TER keys, plus `self` (`yes`: each candidate
/// is also its own pseudo-reference; `no`: left out). `utility` (from a
/// pasted-back signature) is accepted and ignored.
///
/// # Errors
/// Unknown keys and bad values, naming them.
pub fn parse_mbr_ter_options(options: &str) -> Result<(Ter, bool), MetricError> {
    let mut include_self = true;
    let mut rest = Vec::new();
    for (k, v) in parse_options(METRIC, options)? {
        match k.as_str() {
            "self" => include_self = parse_bool(METRIC, &k, &v)?,
            "utility" => {}
            key if super::OPTIONS.iter().any(|o| o.key == key) || SIGNATURE_KEYS.contains(key) => {
                rest.push(format!("{k}:{v}"));
            }
            _ => {
                let extra = format!("{SIGNATURE_KEYS}, utility");
                return Err(unknown_key(METRIC, &k, &[super::OPTIONS, MBR_OPTIONS], &extra));
            }
        }
    }
    Ok((Ter::from_options(&rest.join("|"))?, include_self))
}

/// The signature of the MBR TER utility, e.g.
/// `utility:ter-mean|nrefs:1|case:lc|...|impl:mteval-X|self:yes`.
#[must_use]
pub fn mbr_ter_signature(ter: &Ter, include_self: bool) -> Signature {
    let mut s = Signature::default();
    s.push("utility", "ter-mean");
    s.entries.extend(ter.config.signature(NRefs::Fixed(1)).entries);
    s.push("self", if include_self { "yes" } else { "no" });
    s
}

/// Each candidate's mean sentence TER against `refs` (the candidates
/// themselves when `None`), leaving out pseudo-reference `skip[j]` for
/// candidate `j`; `None` for a candidate with no pseudo-reference left.
/// Candidates are scored on all cores.
///
/// # Errors
/// A candidate or pseudo-reference over TER's length limit.
pub fn mean_ter(
    ter: &Ter,
    hyps: &[&str],
    refs: Option<&[&str]>,
    skip: &[Option<usize>],
) -> Result<Vec<Option<f64>>, MetricError> {
    let refs = refs.unwrap_or(hyps);
    hyps.par_iter()
        .enumerate()
        .map(|(j, h)| {
            let mut row = Vec::with_capacity(refs.len());
            for (k, r) in refs.iter().enumerate() {
                if skip.get(j).copied().flatten() == Some(k) {
                    continue;
                }
                if let Some(seg) = ter.segment(h, &[r])? {
                    row.push(ter.sentence_score(&seg));
                }
            }
            Ok(numpy_mean(&row))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_signature_and_utilities() {
        let (ter, include_self) = parse_mbr_ter_options("norm:yes|self:no").unwrap();
        assert!(ter.config.tokenizer.normalized && !include_self);
        let sig = mbr_ter_signature(&ter, include_self).to_string();
        assert!(sig.starts_with("utility:ter-mean|nrefs:1|case:lc|tok:tercom|norm:yes|"), "{sig}");
        assert!(sig.ends_with("|self:no"), "{sig}");
        // The signature pastes back.
        let (again, s) = parse_mbr_ter_options(&sig).unwrap();
        assert_eq!((again, s), (ter, include_self));
        let e = parse_mbr_ter_options("colour:red").unwrap_err().to_string();
        assert!(e.contains("unknown key 'colour'") && e.contains("self") && e.contains("max_words"), "{e}");

        // Three candidates against themselves; one substitution in three words.
        let hyps = ["a b c", "a b d", "a b c"];
        let plain = Ter::default();
        let third = plain.sentence_score(&plain.segment("a b c", &["a b d"]).unwrap().unwrap());
        assert!((third - 100.0 / 3.0).abs() < 1e-12);
        let with_self = mean_ter(&plain, &hyps, None, &[None; 3]).unwrap();
        let without = mean_ter(&plain, &hyps, None, &[Some(0), Some(1), Some(2)]).unwrap();
        assert_eq!(with_self, vec![numpy_mean(&[0.0, third, 0.0]), numpy_mean(&[third, 0.0, third]), with_self[0]]);
        assert_eq!(without, vec![numpy_mean(&[third, 0.0]), Some(third), numpy_mean(&[0.0, third])]);
        assert_eq!(mean_ter(&plain, &["a"], None, &[Some(0)]).unwrap(), vec![None]);
    }
}

/// The MBR TER utility's row of the metric table.
pub static INFO: crate::metric::MetricInfo = crate::metric::MetricInfo {
    name: "mbr_ter",
    aliases: &[],
    column: None,
    functions: &[],
    reference: "sacrebleu 2.6.0 TER, averaged as `numpy.mean`",
    options: &[super::OPTIONS, MBR_OPTIONS],
    direction: crate::metric::Direction::Lower,
    inputs: crate::metric::Inputs::Candidates,
    sacrebleu: None,
    configure: |o| {
        let (ter, include_self) = parse_mbr_ter_options(o)?;
        Ok(std::sync::Arc::new(MbrTer { ter, include_self }))
    },
};

/// The MBR utility mean sentence TER.
#[derive(Debug, Clone, Copy)]
pub struct MbrTer {
    /// TER options.
    pub ter: Ter,
    /// Whether each candidate is also its own pseudo-reference.
    pub include_self: bool,
}

impl crate::metric::Metric for MbrTer {
    fn info(&self) -> &'static crate::metric::MetricInfo {
        &INFO
    }

    fn display(&self) -> String {
        "MBR-TER".to_owned()
    }

    fn signature(&self, _nrefs: NRefs) -> Signature {
        mbr_ter_signature(&self.ter, self.include_self)
    }

    fn max_words(&self) -> Option<usize> {
        self.ter.config.max_words
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
