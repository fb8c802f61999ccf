//! CharacTER sentence scores in both compat modes, exact and fuzzy, and the
//! corpus summary.
//!
//! Input: byte 0 picks the options (bit 0 compat:cer, bits 1-3 the fuzzy
//! threshold: none or one of seven values, bit 4 max_words:12); the rest is lossy UTF-8 split on
//! '\n': the hypothesis, then 1 to 3 references (at most 100 words each).
//! The summary is also fed the input's bytes as raw f64 values.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mteval_fuzz::{cap_words, fields, text};
use mteval_kernels::py::text::py_split;
use mteval_kernels::{CharacTerConfig, Compat, CorpusSummary, NRefs};

const FUZZY: [Option<f64>; 8] = [None, Some(0.0), Some(0.1), Some(0.25), Some(0.34), Some(0.5), Some(0.75), Some(1.0)];
const MAX_WORDS: usize = 100;

fn check_summary(scores: &[f64]) {
    let s = CorpusSummary::from_scores(scores);
    let valid = !scores.is_empty() && scores.iter().all(|x| x.is_finite() && *x >= 0.0);
    assert_eq!(s.is_some(), valid, "from_scores({scores:?}) = {s:?}");
    let Some(s) = s else { return };
    assert_eq!(s.count, scores.len());
    assert!(s.min <= s.median && s.median <= s.max, "{s:?}");
    assert!(s.min <= s.mean && s.mean <= s.max, "{s:?}");
    assert_eq!(s.std.is_none(), scores.len() == 1, "{s:?}");
    if let Some(sd) = s.std {
        assert!(sd.is_finite() && sd >= 0.0, "{s:?}");
        if s.min == s.max {
            assert_eq!(sd, 0.0, "{s:?}");
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&flags, rest)) = data.split_first() else { return };
    let compat = if flags & 1 != 0 { Compat::Cer } else { Compat::Original };
    // Bit 4: a small length limit (over it, scores are errors).
    let max_words = (flags & 16 != 0).then_some(12);
    let cfg = CharacTerConfig { compat, fuzzy: FUZZY[usize::from(flags >> 1) & 7], max_words };
    // The options survive their own signature (the limit is not part of it).
    let back = CharacTerConfig::parse(&cfg.signature(NRefs::Fixed(1)).to_string());
    assert_eq!(back, Ok(CharacTerConfig { max_words: None, ..cfg }));

    let s = text(rest, 4000);
    let parts: Vec<&str> = fields(&s, '\n', 4, 1500).into_iter().map(|f| cap_words(f, MAX_WORDS)).collect();
    let hyp = parts[0];
    let refs: Vec<&str> = if parts.len() > 1 { parts[1..].to_vec() } else { vec![hyp] };
    let hw: Vec<&str> = py_split(hyp).collect();

    let mut scores = Vec::new();
    for &r in &refs {
        let rw: Vec<&str> = py_split(r).collect();
        let x = cfg.sentence(hyp, r);
        let limit = max_words.unwrap_or(usize::MAX);
        if hw.len() > limit || rw.len() > limit {
            assert!(x.is_err(), "length limit {limit} not enforced");
            assert!(cfg.sentence_multi(hyp, refs.iter().copied()).is_err());
            return;
        }
        let x = x.unwrap_or_else(|e| panic!("sentence failed: {e}"));
        assert!(x.is_finite() && (0.0..=1.0).contains(&x), "CharacTER {x} for {hyp:?} / {r:?}");
        if hw.is_empty() || rw.is_empty() {
            assert_eq!(x, 1.0, "empty side but {x}");
        } else if hw == rw {
            assert_eq!(x, 0.0, "identical words but {x}");
        }
        if cfg.fuzzy == Some(0.0) {
            // Threshold 0 accepts only equal words: the exact metric.
            let exact = CharacTerConfig { fuzzy: None, ..cfg }.sentence(hyp, r).expect("exact sentence");
            assert_eq!(x.to_bits(), exact.to_bits(), "fuzzy:0 {x} != exact {exact}");
        }
        scores.push(x);
    }
    let best = cfg.sentence_multi(hyp, refs.iter().copied()).expect("sentence_multi failed").expect("no score");
    assert_eq!(best, scores.iter().copied().fold(f64::INFINITY, f64::min));
    assert_eq!(cfg.sentence_multi(hyp, std::iter::empty()), Ok(None));
    check_summary(&scores);

    // The summary on arbitrary floats (at most 16).
    let raw: Vec<f64> = rest.chunks_exact(8).take(16).map(|c| f64::from_le_bytes(c.try_into().unwrap())).collect();
    check_summary(&raw);
    let abs: Vec<f64> = raw.iter().map(|x| x.abs()).filter(|x| x.is_finite()).collect();
    check_summary(&abs);
});
