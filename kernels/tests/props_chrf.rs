//! Property tests of the chrF kernels (sentence, corpus, pairwise, aggregate).

use mteval_kernels::chrf::group::Group;
use mteval_kernels::chrf::{FastChrfOptions, Whitespace};
use mteval_kernels::{ChrfConfig, ChrfStats};
use proptest::prelude::*;

/// Short texts over a small alphabet (with punctuation, case, odd whitespace
/// and a non-BMP character), so shared n-grams are frequent.
fn text() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop::sample::select(vec!["a", "b", "ab", "ba", "c.", "(a", "A", "é", "𠀀", " ", " ", "\u{1f}", "\u{a0}", "x"]),
        0..16,
    )
    .prop_map(|w| w.concat())
}

fn configs() -> impl Strategy<Value = ChrfConfig> {
    prop::sample::select(vec![
        "",
        "eff:no",
        "nw:2",
        "nw:2|eff:no",
        "case:lc|space:yes",
        "beta:1|nc:3|nw:1",
        "nc:8|ws:unicode",
    ])
    .prop_map(|o| ChrfConfig::parse(o).unwrap())
}

fn has_chars(cfg: &ChrfConfig, s: &str) -> bool {
    s.chars().any(|c| cfg.whitespace || !cfg.ws_rule.is_space(c))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn bounded_and_identical_is_100(c in configs(), h in text(), r in text()) {
        let s = c.sentence_score(&h, &[&r]).unwrap();
        prop_assert!((0.0..=100.0).contains(&s), "{}", s);
        if has_chars(&c, &h) && !c.eps_smoothing {
            prop_assert_eq!(c.sentence_score(&h, &[&h]).unwrap(), 100.0);
        }
    }

    #[test]
    fn f1_is_symmetric(h in text(), r in text()) {
        let c = ChrfConfig::parse("beta:1|nw:2").unwrap();
        let a = c.sentence_score(&h, &[&r]).unwrap();
        let b = c.sentence_score(&r, &[&h]).unwrap();
        prop_assert!((a - b).abs() < 1e-12, "{} vs {}", a, b);
    }

    #[test]
    fn multi_reference_is_best_single(c in configs(), h in text(), r1 in text(), r2 in text()) {
        let m = c.sentence_score(&h, &[&r1, &r2]).unwrap();
        let s1 = c.sentence_score(&h, &[&r1]).unwrap();
        let s2 = c.sentence_score(&h, &[&r2]).unwrap();
        prop_assert_eq!(m, s1.max(s2));
    }

    #[test]
    fn corpus_merges_from_any_split(c in configs(), pairs in prop::collection::vec((text(), text()), 1..12), cut in 0usize..12) {
        let mut whole = ChrfStats::default();
        let (mut a, mut b) = (ChrfStats::default(), ChrfStats::default());
        for (i, (h, r)) in pairs.iter().enumerate() {
            let s = c.segment(h, &[r]).unwrap().stats;
            whole.add(&s);
            if i < cut { a.add(&s) } else { b.add(&s) }
        }
        a.merge(&b);
        prop_assert_eq!(&a, &whole);
        prop_assert_eq!(a.score(&c), whole.score(&c));
    }

    #[test]
    fn pairwise_rows_are_sentence_chrf(hyps in prop::collection::vec(text(), 1..6), refs in prop::collection::vec(text(), 1..6), nw in 0usize..3, eps in any::<bool>()) {
        let cfg = FastChrfOptions { word_order: nw, eps_smoothing: eps, ..FastChrfOptions::default() }.config();
        prop_assert_eq!(cfg.ws_rule, Whitespace::Unicode);
        let h: Vec<&str> = hyps.iter().map(String::as_str).collect();
        let r: Vec<&str> = refs.iter().map(String::as_str).collect();
        let m = Group::new(&cfg, &h, Some(&r)).unwrap().pairwise();
        for (j, hj) in h.iter().enumerate() {
            for (k, rk) in r.iter().enumerate() {
                prop_assert_eq!(m[j][k], cfg.sentence_score(hj, &[rk]).unwrap());
            }
        }
        // Self groups share profiles (also when the same list is passed as
        // the references); the rows are still sentence chrF.
        let s = Group::new(&cfg, &h, None).unwrap().pairwise();
        let copies: Vec<String> = hyps.clone();
        let c: Vec<&str> = copies.iter().map(String::as_str).collect();
        prop_assert_eq!(&Group::new(&cfg, &h, Some(&c)).unwrap().pairwise(), &s);
        for (j, hj) in h.iter().enumerate() {
            for (k, hk) in h.iter().enumerate() {
                prop_assert_eq!(s[j][k], cfg.sentence_score(hj, &[hk]).unwrap());
            }
        }
        // With one reference, aggregate chrF is pairwise chrF.
        for (j, hj) in h.iter().enumerate() {
            let a = Group::new(&cfg, &[hj], Some(&r[..1])).unwrap().aggregate();
            prop_assert_eq!(a[0], m[j][0]);
        }
    }
}
