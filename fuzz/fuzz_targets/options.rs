//! Every option parser on arbitrary strings: Ok or Err, never a panic; what
//! parses survives its own signature.
//!
//! Input: lossy UTF-8, at most 1,000 bytes.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mteval_fuzz::text;
use mteval_kernels::chrf::group::{mbr_signature, parse_mbr_options};
use mteval_kernels::signature::{parse_bool, parse_options};
use mteval_kernels::{CharacTerConfig, ChrfConfig, FastChrfOptions, NRefs, Ter, TerConfig, terms};

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

    if let Ok(c) = ChrfConfig::parse(&s) {
        assert!(c.orders() > 0 && c.beta.is_finite() && c.beta >= 0.0, "{c:?}");
        let sig = c.signature(NRefs::Fixed(2)).to_string();
        assert_eq!(ChrfConfig::parse(&sig), Ok(c), "chrF signature {sig:?} of {s:?}");
        let _ = c.name();
    }
    let fast = FastChrfOptions::default().config();
    if let Ok(c) = ChrfConfig::parse_with(fast, &s) {
        assert!(c.orders() > 0, "{c:?}");
    }

    if let Ok((c, include_self)) = parse_mbr_options(&s) {
        assert!(c.orders() > 0, "{c:?}");
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
        let sig = c.signature(NRefs::Fixed(1)).to_string();
        assert_eq!(
            CharacTerConfig::parse(&sig),
            Ok(CharacTerConfig { max_words: None, ..c }),
            "CharacTER signature {sig:?} of {s:?}"
        );
    }

    let _ = terms::signature(s.len() % 2 == 0).to_string();
});
