//! Properties of BLEU and of the significance tests on random corpora.

use mteval_kernels::BleuConfig;
use mteval_kernels::metric::FromStats;
use mteval_kernels::significance::{self, PairedTest, SegmentStats};
use proptest::prelude::*;

fn words() -> impl Strategy<Value = String> {
    prop::collection::vec("[a-e]{1,3}|[.,!?]|ß|é|中", 1..14).prop_map(|w| w.join(" "))
}

#[allow(clippy::cast_precision_loss)]
fn stats(cfg: &BleuConfig, hyps: &[String], refs: &[String]) -> SegmentStats {
    let mut s = SegmentStats::new(cfg.width());
    for (h, r) in hyps.iter().zip(refs) {
        s.push(&cfg.segment(h, &[r.as_str()]).unwrap().iter().map(|&x| x as f64).collect::<Vec<_>>());
    }
    s
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// A hypothesis equal to its reference scores 100 (sacrebleu's
    /// `exp(log(100))`, 100.00000000000004), sentence (effective order) and corpus.
    #[test]
    fn identical_text_scores_100(texts in prop::collection::vec(words(), 1..20)) {
        let sentence = BleuConfig::sentence();
        for t in &texts {
            let s = sentence.sentence_score(t, &[t.as_str()]).unwrap();
            prop_assert!((s - 100.0).abs() < 1e-9, "{t}: {s}");
        }
        let corpus = BleuConfig::default();
        let st = stats(&corpus, &texts, &texts);
        // Corpus BLEU without effective order is 0 when no segment has a
        // 4-gram (sacrebleu's log of a zero precision), however many words.
        if texts.iter().any(|t| t.split_whitespace().count() >= 4) {
            prop_assert!((FromStats::score(&corpus, &st.sums()) - 100.0).abs() < 1e-9);
        }
    }

    /// A system compared with itself: no trial or resample differs by more
    /// than the real difference (0), so p = 1/(n+1) under both tests, as
    /// sacrebleu counts strictly larger differences; the resample mean lies
    /// within the interval's reach of the score.
    #[test]
    fn a_system_against_itself(
        hyps in prop::collection::vec(words(), 2..30),
        refs in prop::collection::vec(words(), 30),
        seed in 0u64..1000,
    ) {
        let cfg = BleuConfig::default();
        let s = stats(&cfg, &hyps, &refs[..hyps.len()]);
        let m: [&dyn FromStats; 1] = [&cfg];
        for test in [PairedTest::Bootstrap(50), PairedTest::Randomization(80, Some(20))] {
            let n = match test { PairedTest::Bootstrap(n) | PairedTest::Randomization(n, _) => n };
            let r = significance::paired(&m, std::slice::from_ref(&s), std::slice::from_ref(&s), test, Some(u128::from(seed))).unwrap();
            prop_assert_eq!(r[0].p_value, Some(1.0 / (n + 1) as f64));
            let e = r[0].estimate.unwrap();
            prop_assert!(e.ci >= 0.0 && e.mean >= 0.0);
        }
    }
}
