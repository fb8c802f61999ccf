//! jiwer 4.0.0's transforms (`transforms.py`), as its presets chain them.
//!
//! * `wer_default` = `RemoveMultipleSpaces` (`re.sub(r"\s\s+", " ", s)`),
//!   `Strip` (`s.strip()`), `ReduceToListOfListOfWords` (`s.split(" ")`
//!   without empty pieces): [`words`].
//! * `wer_standardize` = `ToLowerCase`, `ExpandCommonEnglishContractions`,
//!   `RemoveKaldiNonWords`, `RemoveWhiteSpace(replace_by_space=True)`
//!   ([`standardize`]), then `wer_default`.
//! * `cer_default` = `Strip`, `ReduceToListOfListOfChars` (`list(s)`: code
//!   points, inner whitespace kept).
//!
//! "Whitespace" is Python's (`\s` of `re` and `str.strip()` are both
//! `str.isspace()`: [`is_py_space`]); the word delimiter is the ASCII space
//! only, so a single tab or no-break space inside a word stays in it.

use std::borrow::Cow;

use crate::py::text::{is_py_space, py_lower, py_strip};

/// The maximal runs of Python whitespace in `s`: start, end (bytes), length
/// (characters) and first character of each.
fn space_runs(s: &str) -> impl Iterator<Item = (usize, usize, usize, char)> + '_ {
    let mut it = s.char_indices().peekable();
    std::iter::from_fn(move || {
        while let Some((i, c)) = it.next() {
            if !is_py_space(c) {
                continue;
            }
            let mut end = i + c.len_utf8();
            let mut run = 1;
            while let Some(&(j, d)) = it.peek() {
                if !is_py_space(d) {
                    break;
                }
                end = j + d.len_utf8();
                run += 1;
                it.next();
            }
            return Some((i, end, run, c));
        }
        None
    })
}

/// The words of `s` after `RemoveMultipleSpaces`, `Strip` and
/// `ReduceToListOfListOfWords`, as slices of `s`, appended to `out`.
///
/// After stripping, a maximal run of whitespace separates two words when it
/// is two or more characters (collapsed to one space) or one ASCII space; a
/// single other whitespace character (tab, NBSP, ...) is kept inside the word.
pub fn words<'a>(s: &'a str, out: &mut Vec<&'a str>) {
    let s = py_strip(s);
    let mut word_start = 0;
    // A whitespace run is never at either end: s is stripped.
    for (i, end, run, c) in space_runs(s) {
        if run >= 2 || c == ' ' {
            out.push(&s[word_start..i]);
            word_start = end;
        }
    }
    if word_start < s.len() {
        out.push(&s[word_start..]);
    }
}

/// `RemoveMultipleSpaces`: every run of two or more whitespace characters
/// becomes one space.
#[must_use]
pub fn remove_multiple_spaces(s: &str) -> Cow<'_, str> {
    let mut out = String::new();
    let mut last = 0;
    for (i, end, run, _) in space_runs(s) {
        if run >= 2 {
            out.push_str(&s[last..i]);
            out.push(' ');
            last = end;
        }
    }
    if last == 0 {
        return Cow::Borrowed(s);
    }
    out.push_str(&s[last..]);
    Cow::Owned(out)
}

/// `ExpandCommonEnglishContractions`'s substitutions, in its order (plain
/// substrings, case-sensitive, ASCII apostrophe).
pub(super) const CONTRACTIONS: [(&str, &str); 11] = [
    ("won't", "will not"),
    ("can't", "can not"),
    ("let's", "let us"),
    ("n't", " not"),
    ("'re", " are"),
    ("'s", " is"),
    ("'d", " would"),
    ("'ll", " will"),
    ("'t", " not"),
    ("'ve", " have"),
    ("'m", " am"),
];

/// `RemoveKaldiNonWords`: `re.sub(r"[<\[][^>\]]*[>\]]", "", s)`: from each
/// `<` or `[` to the next `>` or `]` (spaces and newlines included), left to
/// right, non-overlapping; an opener with no closer after it stays.
pub(crate) fn remove_kaldi_non_words(s: &str) -> Cow<'_, str> {
    let b = s.as_bytes();
    let mut out = String::new();
    let (mut i, mut last) = (0, 0);
    while i < b.len() {
        if b[i] == b'<' || b[i] == b'[' {
            match b[i + 1..].iter().position(|&c| c == b'>' || c == b']') {
                Some(k) => {
                    out.push_str(&s[last..i]);
                    i += k + 2;
                    last = i;
                    continue;
                }
                // No closer after i, so none after any later opener either.
                None => break,
            }
        }
        i += 1;
    }
    if last == 0 {
        return Cow::Borrowed(s);
    }
    out.push_str(&s[last..]);
    Cow::Owned(out)
}

/// The string steps of `wer_standardize`: `ToLowerCase` (`str.lower()`),
/// `ExpandCommonEnglishContractions`, `RemoveKaldiNonWords`,
/// `RemoveWhiteSpace(replace_by_space=True)` (each of `" \t\n\r\x0b\x0c"`
/// becomes a space).
#[must_use]
pub fn standardize(s: &str) -> String {
    let mut t = py_lower(s);
    if t.contains('\'') {
        for (from, to) in CONTRACTIONS {
            if t.contains(from) {
                t = t.replace(from, to);
            }
        }
    }
    if let Cow::Owned(k) = remove_kaldi_non_words(&t) {
        t = k;
    }
    if t.bytes().any(|b| matches!(b, b'\t' | b'\n' | b'\r' | 0x0B | 0x0C)) {
        t = t.chars().map(|c| if matches!(c, '\t' | '\n' | '\r' | '\u{0B}' | '\u{0C}') { ' ' } else { c }).collect();
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    fn w(s: &str) -> Vec<&str> {
        let mut v = Vec::new();
        words(s, &mut v);
        v
    }

    #[test]
    fn words_split_on_ascii_space_after_collapsing_runs() {
        // Expected values: jiwer 4.0.0's wer_default([s]) on CPython 3.11.
        assert_eq!(w("  a  b "), ["a", "b"]);
        assert_eq!(w("a\tb"), ["a\tb"]);
        assert_eq!(w("a\u{a0}b"), ["a\u{a0}b"]);
        assert_eq!(w("a\u{a0}\u{a0}b"), ["a", "b"]);
        assert_eq!(w("a \tb\u{1c}"), ["a", "b"]);
        assert_eq!(w("\u{1f}a\u{1f}b c"), ["a\u{1f}b", "c"]);
        assert_eq!(w(""), Vec::<&str>::new());
        assert_eq!(w(" \u{3000} "), Vec::<&str>::new());
        assert_eq!(w("x\u{200b}y"), ["x\u{200b}y"]);
    }

    #[test]
    fn remove_multiple_spaces_and_kaldi() {
        assert_eq!(remove_multiple_spaces("a \t b\tc"), "a b\tc");
        assert_eq!(remove_kaldi_non_words("a [b> c <d] e [f"), "a  c  e [f");
        assert_eq!(remove_kaldi_non_words("<<a>> [x\ny]z"), "> z");
        assert_eq!(remove_kaldi_non_words("plain"), "plain");
    }

    #[test]
    fn standardize_is_the_preset_string_steps() {
        assert_eq!(standardize("She'll WON'T can't Let's john's"), "she will will not can not let us john is");
        assert_eq!(standardize("ain't\tI'm\nthey've"), "ai not i am they have");
        assert_eq!(standardize("[noise] hello <unk>"), " hello ");
    }
}
