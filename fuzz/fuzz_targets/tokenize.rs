//! The tercom tokenizer (all 16 option combinations), chrF++ word splitting
//! and the Python-compatible string helpers, on arbitrary text.
//!
//! Input: the whole input is the text (lossy UTF-8, at most 2,000 bytes); its
//! first 8 bytes are also read as an f64 for `py_float_repr`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mteval_fuzz::{is_py_space, text};
use mteval_kernels::chrf::{Whitespace, punctuation_words};
use mteval_kernels::py::text::{py_float_repr, py_lower, py_rstrip, py_split, py_strip};
use mteval_kernels::tokenize::TercomTokenizer;

fn check_words(words: &[String], what: &str, s: &str) {
    for w in words {
        assert!(!w.is_empty(), "{what}: empty word for {s:?}");
        assert!(!w.chars().any(is_py_space), "{what}: word {w:?} holds whitespace for {s:?}");
    }
}

fuzz_target!(|data: &[u8]| {
    let s = text(data, 2000);

    for flags in 0u8..16 {
        let t = TercomTokenizer {
            case_sensitive: flags & 1 != 0,
            normalized: flags & 2 != 0,
            no_punct: flags & 4 != 0,
            asian_support: flags & 8 != 0,
        };
        let words = t.words(&s);
        check_words(&words, "words", &s);
        assert_eq!(t.tokenize(&s), words.join(" "));
        let _ = t.tokenize_raw(&s);
        let _ = t.preprocess(&s);
        let refs = t.reference_words(&s);
        check_words(&refs, "reference_words", &s);
        if t.case_sensitive && !t.normalized && !t.no_punct {
            // Nothing to do but rstrip + split.
            let plain: Vec<&str> = py_split(py_rstrip(&s)).collect();
            assert_eq!(words, plain, "identity tokenizer changed {s:?}");
            assert_eq!(refs, plain, "identity tokenizer changed reference {s:?}");
        }
    }

    // chrF++ word tokens: the pieces concatenate back to the words.
    for ws in [Whitespace::Python, Whitespace::Unicode] {
        let mut pieces = String::new();
        punctuation_words(&s, ws, |p| {
            assert!(!p.is_empty(), "empty chrF++ word piece for {s:?}");
            pieces.push_str(p);
        });
        let joined: String = s.split(|c| ws.is_space(c)).collect();
        assert_eq!(pieces, joined, "chrF++ pieces lose characters of {s:?}");
    }

    // Python string helpers.
    let stripped = py_strip(&s);
    assert!(!stripped.starts_with(is_py_space) && !stripped.ends_with(is_py_space));
    assert!(!py_rstrip(&s).ends_with(is_py_space));
    let _ = py_lower(&s);

    if data.len() >= 8 {
        let x = f64::from_le_bytes(data[..8].try_into().unwrap());
        let r = py_float_repr(x);
        let back: f64 = r.parse().unwrap_or_else(|e| panic!("py_float_repr({x:e}) = {r:?} does not parse: {e}"));
        assert!(back.to_bits() == x.to_bits() || (x.is_nan() && back.is_nan()), "py_float_repr({x:e}) = {r:?}");
    }
});
