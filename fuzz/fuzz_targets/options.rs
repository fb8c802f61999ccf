//! Every option parser on arbitrary strings: Ok or Err, never a panic; what
//! parses survives its own signature, and scores a few fixed sentence pairs
//! to finite numbers in the metric's range (extreme numeric options such as
//! `beta:1e200` once parsed and then panicked or gave NaN).
//!
//! Input: lossy UTF-8, at most 1,000 bytes.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mteval_fuzz::text;
use mteval_kernels::chrf::group::{Group, mbr_signature, parse_mbr_options};
use mteval_kernels::signature::{parse_bool, parse_options};
use mteval_kernels::{CharacTerConfig, ChrfConfig, FastChrfOptions, NRefs, Ter, TerConfig, terms};

/// Sentence pairs every configuration that parses must score.
const PAIRS: [(&str, &str); 4] =
    [("the cat sat", "the cat sat on"), ("", "a"), ("a b c", ""), ("Der Hund, bellt!", "le chien aboie .")];

fn chrf_in_range(c: &ChrfConfig, s: &str) {
    for (h, r) in PAIRS {
        let score = c.sentence_score(h, &[r, h]).expect("references given");
        assert!(score.is_finite() && (0.0..=100.0).contains(&score), "chrF {score} of {s:?}");
    }
}

fuzz_target!(|data: &[u8]| {
    let s = text(data, 1000);

    if let Ok(pairs) = parse_options("fuzz", &s) {
        for (k, v) in &pairs {
            assert!(!k.is_empty(), "empty key from {s:?}");
            assert!(!k.contains(['|', ',']) && !v.contains(['|', ',']), "separator kept in ({k:?}, {v:?})");
            assert_eq!(k.trim(), k);
            assert_eq!(v.trim(), v);
            if let Ok(b) = parse_bool("fuzz", k, v) {
                assert_eq!(parse_bool("fuzz", k, if b { "yes" } else { "no" }), Ok(b));
            }
        }
    }
    let _ = parse_bool("fuzz", "key", &s);

    if let Ok(c) = TerConfig::parse(&s) {
        assert!(c.max_words.is_none_or(|n| n > 0), "{c:?}");
        let sig = c.signature(NRefs::Var).to_string();
        assert_eq!(TerConfig::parse(&sig), Ok(TerConfig { max_words: None, ..c }), "TER signature {sig:?} of {s:?}");
        assert_eq!(Ter::from_options(&s).map(|t| t.config), Ok(c));
    } else {
        assert!(Ter::from_options(&s).is_err());
    }

    if let Ok(t) = Ter::from_options(&s) {
        for (h, r) in PAIRS {
            if let Ok(Some(seg)) = t.segment(h, &[r]) {
                let score = t.sentence_score(&seg);
                assert!(score.is_finite() && score >= 0.0, "TER {score} of {s:?}");
            }
        }
    }

    if let Ok(c) = ChrfConfig::parse(&s) {
        assert!(c.orders() > 0 && (0.0..=mteval_kernels::chrf::MAX_BETA).contains(&c.beta), "{c:?}");
        chrf_in_range(&c, &s);
        let sig = c.signature(NRefs::Fixed(2)).to_string();
        assert_eq!(ChrfConfig::parse(&sig), Ok(c), "chrF signature {sig:?} of {s:?}");
        let _ = c.name();
    }
    let fast = FastChrfOptions::default().config();
    if let Ok(c) = ChrfConfig::parse_with(fast, &s) {
        assert!(c.orders() > 0, "{c:?}");
        chrf_in_range(&c, &s);
    }

    if let Ok((c, include_self)) = parse_mbr_options(&s) {
        assert!(c.orders() > 0, "{c:?}");
        let hyps: Vec<&str> = PAIRS.iter().flat_map(|(h, r)| [*h, *r]).collect();
        let g = Group::new(&c, &hyps, None).expect("group");
        for u in g.expected_utility(!include_self).into_iter().flatten().chain(g.aggregate()) {
            assert!(u.is_finite() && (0.0..=100.0).contains(&u), "MBR utility {u} of {s:?}");
        }
        // Every MBR signature pastes back to the same options (this found
        // `ws:python` missing from MBR signatures, since fixed).
        for utility in ["pairwise", "aggregate"] {
            let sig = mbr_signature(&c, include_self, utility).to_string();
            assert_eq!(parse_mbr_options(&sig), Ok((c, include_self)), "MBR signature {sig:?} of {s:?}");
        }
    }

    if let Ok(c) = CharacTerConfig::parse(&s) {
        assert!(c.fuzzy.is_none_or(|t| (0.0..=1.0).contains(&t)), "{c:?}");
        assert!(c.max_words.is_none_or(|n| n > 0), "{c:?}");
        for (h, r) in PAIRS {
            if let Ok(x) = c.sentence(h, r) {
                assert!(x.is_finite() && (0.0..=1.0).contains(&x), "CharacTER {x} of {s:?}");
            }
        }
        let sig = c.signature(NRefs::Fixed(1)).to_string();
        assert_eq!(
            CharacTerConfig::parse(&sig),
            Ok(CharacTerConfig { max_words: None, ..c }),
            "CharacTER signature {sig:?} of {s:?}"
        );
    }

    let _ = terms::signature(s.len() % 2 == 0).to_string();
});
