//! TER as an MBR utility (row `mbr_ter`): each candidate's mean sentence TER
//! against the pseudo-references of its group (lower is better), averaged
//! as `numpy.mean` does: the [`MeanUtility`] of TER, with the same `self`
//! option as the chrF utilities.

use std::sync::Arc;

use crate::metric::mbr::{MBR_OPTIONS, MeanUtility, UtilityInfo};

/// The MBR TER utility's row of the utility table.
pub static INFO: UtilityInfo = UtilityInfo {
    name: "mbr_ter",
    functions: &[],
    reference: "sacrebleu 2.6.0 TER, averaged as `numpy.mean`",
    options: &[super::OPTIONS, MBR_OPTIONS],
    configure: |o| Ok(Arc::new(MeanUtility::configure(&super::metric::INFO, o)?)),
};

#[cfg(test)]
mod tests {
    use crate::Ter;
    use crate::backend::CpuBackend;
    use crate::metric::Direction;
    use crate::metric::mbr::{Candidates, Utility};
    use crate::metrics::utility as configure;
    use crate::py::numpy_mean;

    fn mean(u: &dyn Utility, hyps: &[&str], skip: &[Option<usize>]) -> Vec<Option<f64>> {
        u.expected(&CpuBackend, &Candidates { hyps, refs: None, skip }).unwrap()
    }

    #[test]
    fn options_signature_and_utilities() {
        let u = configure("ter", "norm:yes|self:no").unwrap();
        assert!(!u.include_self());
        assert_eq!(u.direction(), Direction::Lower);
        let sig = u.signature().to_string();
        assert!(sig.starts_with("utility:ter-mean|nrefs:1|case:lc|tok:tercom|norm:yes|"), "{sig}");
        assert!(sig.ends_with("|self:no"), "{sig}");
        // The signature pastes back, under either name.
        assert_eq!(configure("mbr_ter", &sig).unwrap().signature().to_string(), sig);
        let e = configure("ter", "colour:red").unwrap_err().to_string();
        assert!(e.contains("unknown key 'colour'") && e.contains("self") && e.contains("max_words"), "{e}");

        // Three candidates against themselves; one substitution in three words.
        let hyps = ["a b c", "a b d", "a b c"];
        let plain = Ter::default();
        let third = plain.sentence_score(&plain.segment("a b c", &["a b d"]).unwrap().unwrap());
        assert!((third - 100.0 / 3.0).abs() < 1e-12);
        let with_self = configure("ter", "").unwrap();
        let without = configure("ter", "self:no").unwrap();
        let all = mean(with_self.as_ref(), &hyps, &[None; 3]);
        assert_eq!(all, vec![numpy_mean(&[0.0, third, 0.0]), numpy_mean(&[third, 0.0, third]), all[0]]);
        let loo = mean(without.as_ref(), &hyps, &[Some(0), Some(1), Some(2)]);
        assert_eq!(loo, vec![numpy_mean(&[third, 0.0]), Some(third), numpy_mean(&[0.0, third])]);
        assert_eq!(mean(without.as_ref(), &["a"], &[Some(0)]), vec![None]);
    }

    #[test]
    fn any_text_metric_is_a_mean_utility() {
        // WER: "a b c" against "a b d" is one substitution in three words.
        let u = configure("wer", "self:no").unwrap();
        assert_eq!(u.direction(), Direction::Lower);
        assert!(u.signature().to_string().starts_with("utility:wer-mean|nrefs:1|unit:word|"), "{}", u.signature());
        // Against "x" (one word), "a b c" is one substitution and two insertions: 3.0.
        let got = mean(u.as_ref(), &["a b c", "a b d", "x"], &[Some(0), Some(1), Some(2)]);
        assert_eq!(got, vec![numpy_mean(&[1.0 / 3.0, 3.0]), numpy_mean(&[1.0 / 3.0, 3.0]), Some(1.0)]);
        // Sentence BLEU (effective order): higher is better.
        let b = configure("bleu", "").unwrap();
        assert_eq!(b.direction(), Direction::Higher);
        let bleu = crate::metrics::lookup("bleu").unwrap().configure("").unwrap();
        let same = bleu.sentence_score(&bleu.segment("a b c d", &["a b c d"]).unwrap().unwrap());
        assert!((same.unwrap() - 100.0).abs() < 1e-9);
        assert_eq!(mean(b.as_ref(), &["a b c d", "a b c d"], &[None, None]), vec![same, same]);
        // The chrF names stay fastchrf's utilities; term lists and unknown names are refused by name.
        assert!(configure("chrf", "").unwrap().signature().to_string().starts_with("utility:pairwise|"));
        let e = configure("term_acc", "").unwrap_err().to_string();
        assert!(e.contains("cannot be an MBR utility"), "{e}");
        let e = configure("nope", "").unwrap_err().to_string();
        assert!(
            e.contains("unknown utility 'nope' (known: chrf, chrf_aggregate, ter, or the mean") && e.contains("wer"),
            "{e}"
        );
    }
}
