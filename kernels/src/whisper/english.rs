//! whisper-normalizer 0.1.15's `EnglishTextNormalizer` (`OpenAI` Whisper's
//! English normaliser, the one ASR papers and leaderboards apply before WER),
//! step for step on `CPython` 3.11:
//!
//! ```text
//! s = s.lower()
//! s = re.sub(r"[<\[][^>\]]*[>\]]", "", s)           # [noise], <unk>
//! s = re.sub(r"\(([^)]+?)\)", "", s)                # (laughs)
//! s = re.sub(r"\b(hmm|mm|mhm|mmm|uh|um)\b", "", s)  # fillers
//! s = re.sub(r"\s+'", "'", s)
//! for pattern, replacement in replacers: s = re.sub(pattern, replacement, s)   # contractions, titles
//! s = re.sub(r"(\d),(\d)", r"\1\2", s)
//! s = re.sub(r"\.([^0-9]|$)", r" \1", s)
//! s = remove_symbols_and_diacritics(s, keep=".%$¢€£")
//! s = EnglishNumberNormalizer()(s)                  # see `numbers`
//! s = EnglishSpellingNormalizer()(s)                # British to American
//! s = re.sub(r"[.$¢€£]([^0-9])", r" \1", s)
//! s = re.sub(r"([^0-9])%", r"\1 ", s)
//! s = re.sub(r"\s+", " ", s)
//! ```
//!
//! Each `re.sub` is a scan with Python's meanings (`\d` any Unicode decimal
//! digit, `\s` Python's whitespace, `\b` the edge of a run of `isalnum()` or
//! `_`), leftmost matches that never overlap and that test their context on
//! the string before the substitution.

use std::collections::HashMap;
use std::sync::OnceLock;

use super::basic::{remove_parenthesised, remove_symbols_and_diacritics_keeping};
use super::numbers::normalize_numbers;
use super::substitute_windows;
use crate::py::text::{
    collapse_py_space, is_py_decimal, is_py_space, is_py_word, py_lower, py_split, substitute_bounded,
};
use crate::wer::transform::remove_kaldi_non_words;

/// The replacers, in their order: the literal, whether a `\b` comes before it,
/// and its replacement (every pattern ends with `\b`).
const REPLACERS: [(&str, bool, &str); 47] = [
    // common contractions
    ("won't", true, "will not"),
    ("can't", true, "can not"),
    ("let's", true, "let us"),
    ("ain't", true, "aint"),
    ("y'all", true, "you all"),
    ("wanna", true, "want to"),
    ("kinda", true, "kind of"),
    ("sorta", true, "sort of"),
    ("dunno", true, "do not know"),
    ("gotta", true, "got to"),
    ("gonna", true, "going to"),
    ("i'ma", true, "i am going to"),
    ("imma", true, "i am going to"),
    ("woulda", true, "would have"),
    ("coulda", true, "could have"),
    ("shoulda", true, "should have"),
    ("cause", true, "because"),
    ("ma'am", true, "madam"),
    // titles and prefixes
    ("mr", true, "mister "),
    ("mrs", true, "missus "),
    ("st", true, "saint "),
    ("dr", true, "doctor "),
    ("prof", true, "professor "),
    ("capt", true, "captain "),
    ("gov", true, "governor "),
    ("ald", true, "alderman "),
    ("gen", true, "general "),
    ("sen", true, "senator "),
    ("rep", true, "representative "),
    ("pres", true, "president "),
    ("rev", true, "reverend "),
    ("hon", true, "honorable "),
    ("asst", true, "assistant "),
    ("assoc", true, "associate "),
    ("lt", true, "lieutenant "),
    ("col", true, "colonel "),
    ("jr", true, "junior "),
    ("sr", true, "senior "),
    ("esq", true, "esquire "),
    // perfect tenses
    ("'d been", false, " had been"),
    ("'s been", false, " has been"),
    ("'d gone", false, " had gone"),
    ("'s gone", false, " has gone"),
    ("'d done", false, " had done"),
    ("'s got", false, " has got"),
    // general contractions
    ("n't", false, " not"),
    ("'re", false, " are"),
];
/// The rest of the general contractions (after `'re`).
const CONTRACTIONS: [(&str, &str); 6] =
    [("'s", " is"), ("'d", " would"), ("'ll", " will"), ("'t", " not"), ("'ve", " have"), ("'m", " am")];

/// `re.sub(r"\b?LITERAL\b", repl, s)` (the `\b` before it when `lead`).
fn replace_literal(s: String, lit: &str, lead: bool, repl: &str) -> String {
    substitute_bounded(&s, lit, repl, lead).unwrap_or(s)
}

/// `re.sub(r"\b(hmm|mm|mhm|mmm|uh|um)\b", "", s)`: a whole run of word
/// characters that is one of the fillers goes.
fn remove_fillers(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut run_start: Option<usize> = None;
    let flush = |out: &mut String, run: &str| {
        if !matches!(run, "hmm" | "mm" | "mhm" | "mmm" | "uh" | "um") {
            out.push_str(run);
        }
    };
    for (i, c) in s.char_indices() {
        if is_py_word(c) {
            run_start.get_or_insert(i);
        } else {
            if let Some(a) = run_start.take() {
                flush(&mut out, &s[a..i]);
            }
            out.push(c);
        }
    }
    if let Some(a) = run_start {
        flush(&mut out, &s[a..]);
    }
    out
}

/// `re.sub(r"\s+'", "'", s)`.
fn join_apostrophes(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut pending = String::new();
    for c in s.chars() {
        if is_py_space(c) {
            pending.push(c);
        } else {
            if c != '\'' {
                out.push_str(&pending);
            }
            pending.clear();
            out.push(c);
        }
    }
    out.push_str(&pending);
    out
}

/// `re.sub(r"(\d),(\d)", r"\1\2", s)`: the digit after the comma is consumed,
/// so "1,2,3" becomes "12,3".
fn remove_digit_commas(s: &str) -> String {
    substitute_windows(
        s,
        3,
        |w| w.len() == 3 && is_py_decimal(w[0]) && w[1] == ',' && is_py_decimal(w[2]),
        |out, w| {
            out.push(w[0]);
            out.push(w[2]);
        },
    )
}

/// `re.sub(r"\.([^0-9]|$)", r" \1", s)`.
fn remove_periods(s: &str) -> String {
    substitute_windows(
        s,
        2,
        |w| w[0] == '.' && !w.get(1).is_some_and(char::is_ascii_digit),
        |out, w| {
            out.push(' ');
            out.extend(w.get(1));
        },
    )
}

/// `EnglishSpellingNormalizer`'s table (`english_spelling.tsv`).
fn spellings() -> &'static HashMap<&'static str, &'static str> {
    static M: OnceLock<HashMap<&'static str, &'static str>> = OnceLock::new();
    M.get_or_init(|| {
        include_str!("english_spelling.tsv")
            .lines()
            .filter(|l| !l.starts_with('#'))
            .filter_map(|l| l.split_once('\t'))
            .collect()
    })
}

/// `EnglishSpellingNormalizer()(s)`: `" ".join(mapping.get(word, word) for
/// word in s.split())`.
#[must_use]
pub fn american_spellings(s: &str) -> String {
    let m = spellings();
    let mut out = String::with_capacity(s.len());
    for (i, w) in py_split(s).enumerate() {
        if i > 0 {
            out.push(' ');
        }
        out.push_str(m.get(w).copied().unwrap_or(w));
    }
    out
}

/// `EnglishTextNormalizer()(s)`.
#[must_use]
pub fn english(s: &str) -> String {
    let s = py_lower(s);
    let s = remove_kaldi_non_words(&s);
    let s = remove_parenthesised(&s);
    let s = remove_fillers(&s);
    let mut s = join_apostrophes(&s);
    for (lit, lead, repl) in REPLACERS {
        s = replace_literal(s, lit, lead, repl);
    }
    for (lit, repl) in CONTRACTIONS {
        s = replace_literal(s, lit, false, repl);
    }
    let s = remove_digit_commas(&s);
    let s = remove_periods(&s);
    let s = remove_symbols_and_diacritics_keeping(&s, &['.', '%', '$', '¢', '€', '£']);
    let s = normalize_numbers(&s);
    let s = american_spellings(&s);
    let s = substitute_windows(
        &s,
        2,
        |w| matches!(w[0], '.' | '$' | '¢' | '€' | '£') && w.get(1).is_some_and(|b| !b.is_ascii_digit()),
        |out, w| {
            out.push(' ');
            out.push(w[1]);
        },
    );
    let s = substitute_windows(
        &s,
        2,
        |w| !w[0].is_ascii_digit() && w.get(1) == Some(&'%'),
        |out, w| {
            out.push(w[0]);
            out.push(' ');
        },
    );
    collapse_py_space(&s)
}

#[cfg(test)]
mod tests {
    use super::*;

    // Expected values: whisper-normalizer 0.1.15's EnglishTextNormalizer on CPython 3.11.

    #[test]
    fn english_as_the_oracle() {
        assert_eq!(
            english("Mr. Smith won't pay £20 million, um, for the colour [noise] (laughs)."),
            "mister smith will not pay £20000000 for the color"
        );
    }
}
