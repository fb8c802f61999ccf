//! whisper-normalizer 0.1.15's `BasicTextNormalizer`, step for step:
//!
//! ```text
//! s = s.lower()
//! s = re.sub(r"[<\[][^>\]]*[>\]]", "", s)     # [...] and <...>
//! s = re.sub(r"\(([^)]+?)\)", "", s)          # (...) with something inside
//! s = clean(s).lower()
//! s = re.sub(r"\s+", " ", s)
//! ```
//!
//! where `clean` is `remove_symbols` (NFKC, then every character of a
//! category M*, S* or P* becomes a space; S* and P* only with
//! `preserve_marks`) or, with `remove_diacritics`, `remove_symbols_and_diacritics`
//! (NFKD, then the letters NFKD does not separate spelled out (`æ` → `ae`),
//! category Mn dropped, M*, S* and P* to a space). Categories, case and
//! normalisation are `CPython` 3.11's (Unicode 14.0). `split_letters` then
//! puts a space between grapheme clusters (the `regex` module's `\X`, see
//! [`super::graphemes`]) before whitespace is collapsed.

use super::graphemes::join_graphemes;
use std::borrow::Cow;

use crate::py::normalize::{Form, normalize, normalize_cow};
use crate::py::text::{
    collapse_py_space, is_py_mark, is_py_mark_symbol_punct, is_py_nonspacing_mark, is_py_space, py_lower,
};
use crate::wer::transform::remove_kaldi_non_words;

/// `BasicTextNormalizer`'s options.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct BasicOptions {
    /// `remove_diacritics=True`.
    pub remove_diacritics: bool,
    /// `preserve_marks=True` (not with `remove_diacritics`).
    pub preserve_marks: bool,
    /// `split_letters=True`: grapheme clusters (the `regex` module's `\X`)
    /// separated by spaces.
    pub split_letters: bool,
}

/// Letters NFKD leaves whole, spelled out by `remove_symbols_and_diacritics`
/// (`ADDITIONAL_DIACRITICS`).
const ADDITIONAL_DIACRITICS: [(char, &str); 16] = [
    ('œ', "oe"),
    ('Œ', "OE"),
    ('ø', "o"),
    ('Ø', "O"),
    ('æ', "ae"),
    ('Æ', "AE"),
    ('ß', "ss"),
    ('ẞ', "SS"),
    ('đ', "d"),
    ('Đ', "D"),
    ('ð', "d"),
    ('Ð', "D"),
    ('þ', "th"),
    ('Þ', "th"),
    ('ł', "l"),
    ('Ł', "L"),
];

/// ASCII whitespace (`str.isspace()`) and punctuation (every ASCII
/// character of a category M*, S* or P*): what the default basic
/// normaliser turns into a space.
const ASCII_SEPARATOR: [bool; 128] = {
    let mut t = [false; 128];
    let mut b: u8 = 0;
    while b < 128 {
        let c = b as char;
        t[b as usize] = is_py_space(c) || c.is_ascii_punctuation();
        b += 1;
    }
    t
};

/// `remove_symbols(s, preserve_marks)`.
#[must_use]
pub fn remove_symbols(s: &str, preserve_marks: bool) -> String {
    normalize(Form::Nfkc, s)
        .chars()
        .map(|c| if is_py_mark_symbol_punct(c) && !(preserve_marks && is_py_mark(c)) { ' ' } else { c })
        .collect()
}

/// `remove_symbols_and_diacritics(s)` (with no `keep` characters).
#[must_use]
pub fn remove_symbols_and_diacritics(s: &str) -> String {
    remove_symbols_and_diacritics_keeping(s, &[])
}

/// `remove_symbols_and_diacritics(s, keep)`: the characters of `keep` stay.
#[must_use]
pub fn remove_symbols_and_diacritics_keeping(s: &str, keep: &[char]) -> String {
    let mut out = String::with_capacity(s.len());
    for c in normalize(Form::Nfkd, s).chars() {
        if keep.contains(&c) {
            out.push(c);
        } else if let Some(&(_, by)) = ADDITIONAL_DIACRITICS.iter().find(|(d, _)| *d == c) {
            out.push_str(by);
        } else if is_py_nonspacing_mark(c) {
        } else if is_py_mark_symbol_punct(c) {
            out.push(' ');
        } else {
            out.push(c);
        }
    }
    out
}

/// `re.sub(r"\(([^)]+?)\)", "", s)`: from each `(` to the next `)` when at
/// least one character lies between (a `(` inside counts as one), left to
/// right, not overlapping.
pub(super) fn remove_parenthesised(s: &str) -> Cow<'_, str> {
    if !s.contains('(') {
        return Cow::Borrowed(s);
    }
    let b = s.as_bytes();
    let mut out = String::with_capacity(s.len());
    let (mut i, mut last) = (0, 0);
    while i < b.len() {
        if b[i] == b'(' {
            match b[i + 1..].iter().position(|&c| c == b')') {
                Some(k) if k > 0 => {
                    out.push_str(&s[last..i]);
                    i += k + 2;
                    last = i;
                    continue;
                }
                Some(_) => {}
                None => break,
            }
        }
        i += 1;
    }
    out.push_str(&s[last..]);
    Cow::Owned(out)
}

/// `BasicTextNormalizer(remove_diacritics, preserve_marks=...)(s)`.
#[must_use]
pub fn basic(s: &str, o: BasicOptions) -> String {
    let s = py_lower(s);
    let s = remove_kaldi_non_words(&s);
    let s = remove_parenthesised(&s);
    if o.split_letters || o.remove_diacritics || o.preserve_marks {
        let s =
            if o.remove_diacritics { remove_symbols_and_diacritics(&s) } else { remove_symbols(&s, o.preserve_marks) };
        let s = py_lower(&s);
        if o.split_letters {
            return collapse_py_space(&join_graphemes(&s));
        }
        return collapse_py_space(&s);
    }
    // The default: NFKC, then marks, symbols and punctuation to a space and whitespace collapsed in one pass,
    // then lower-cased (collapsing first changes nothing: lower-casing neither makes nor removes whitespace,
    // and whitespace ends `Final_Sigma`'s look-around either way).
    let nfkc = normalize_cow(Form::Nfkc, &s);
    let mut out = String::with_capacity(nfkc.len());
    let mut in_space = false;
    let (bytes, mut i, mut run) = (nfkc.as_bytes(), 0, 0);
    while i < bytes.len() {
        // ASCII a byte at a time: whitespace and punctuation (every ASCII M*/S*/P*) become one space; the
        // characters kept are copied a run at a time.
        let (sep, len) = if bytes[i].is_ascii() {
            (ASCII_SEPARATOR[usize::from(bytes[i])], 1)
        } else {
            let c = nfkc[i..].chars().next().unwrap_or(' ');
            (is_py_space(c) || is_py_mark_symbol_punct(c), c.len_utf8())
        };
        if sep {
            if run < i {
                out.push_str(&nfkc[run..i]);
                in_space = false;
            }
            if !in_space {
                out.push(' ');
                in_space = true;
            }
            run = i + len;
        }
        i += len;
    }
    out.push_str(&nfkc[run..]);
    // The text was lower-cased before, and `str.lower` is idempotent (checked on every code point in
    // python/tests/test_whisper.py; the only context rule, Final_Sigma, concerns the capital Σ, which
    // lower-casing removes): only characters NFKC made can need it again.
    if matches!(nfkc, Cow::Borrowed(_)) { out } else { py_lower(&out) }
}

#[cfg(test)]
mod tests {
    use super::*;

    // Expected values: whisper-normalizer 0.1.15 on CPython 3.11.

    #[test]
    fn basic_as_whisper_normalizer() {
        let b = |s: &str| basic(s, BasicOptions::default());
        assert_eq!(b("Hello, World! [noise] (laughs) <unk>"), "hello world ");
        assert_eq!(b("Ça coûte 5€ — d'accord?"), "ça coûte 5 d accord ");
        assert_eq!(b("()a(b)c"), " ac");
        assert_eq!(b("ﬁ ½ Ｈｅｌｌｏ"), "fi 1 2 hello");
        let d = |s: &str| basic(s, BasicOptions { remove_diacritics: true, ..BasicOptions::default() });
        assert_eq!(d("Ça coûte Æsir Łódź straße"), "ca coute aesir lodz strasse");
        let m = |s: &str| basic(s, BasicOptions { preserve_marks: true, ..BasicOptions::default() });
        assert_eq!(m("नमस्ते, दुनिया!"), "नमस्ते दुनिया ");
        assert_eq!(b("नमस्ते"), "नमस त ");
    }
}
