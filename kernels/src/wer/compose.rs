//! jiwer 4.0.0's transform classes (`jiwer.transforms`) as steps of a
//! program run in Rust over a whole list of sentences: what a `Compose` of
//! them does to a `str` or a `list` of `str`, step for step.
//!
//! Each step follows the class's `process_string` (a `str` input) or
//! `process_list` (a `list`): most map every sentence; `RemoveEmptyStrings`
//! and `ReduceToSingleSentence` change the number of sentences; the two
//! reductions (`ReduceToListOfListOfWords`, `ReduceToListOfListOfChars`)
//! end the program with lists of tokens. "Whitespace", "punctuation" and
//! "word character" are `CPython` 3.11's ([`crate::py::text`]).
//!
//! The Python package gives a step list to [`apply`] only when the program
//! is one this module runs exactly; anything else (a step after a
//! reduction, a non-string input, a parameter outside what is listed here)
//! runs in Python with jiwer's semantics.

use std::borrow::Cow;

use rayon::prelude::*;

use super::transform::{CONTRACTIONS, remove_kaldi_non_words, remove_multiple_spaces};
use crate::py::text::{is_py_punctuation, py_lower, py_strip, py_upper, substitute_bounded};

/// One transform.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    /// `ToLowerCase`: `str.lower()`.
    Lower,
    /// `ToUpperCase`: `str.upper()`.
    Upper,
    /// `RemovePunctuation`: every character of a category `P*` removed.
    RemovePunctuation,
    /// `RemoveMultipleSpaces`: `re.sub(r"\s\s+", " ", s)`.
    RemoveMultipleSpaces,
    /// `RemoveWhiteSpace`: each of `string.whitespace` (`" \t\n\r\x0b\x0c"`)
    /// removed, or replaced by a space.
    RemoveWhiteSpace {
        /// `replace_by_space=True`.
        by_space: bool,
    },
    /// `Strip`: `str.strip()`.
    Strip,
    /// `RemoveEmptyStrings`: a list keeps the sentences that are not blank;
    /// a string is stripped.
    RemoveEmptyStrings,
    /// `RemoveKaldiNonWords`: `re.sub(r"[<\[][^>\]]*[>\]]", "", s)`.
    RemoveKaldiNonWords,
    /// `ExpandCommonEnglishContractions`.
    ExpandContractions,
    /// `SubstituteWords` (and `RemoveSpecificWords`, whose value is a
    /// space): for each `(key, value)` in order, `re.sub(r"\b" +
    /// re.escape(key) + r"\b", value, s)`. Keys are not empty and values hold
    /// no backslash (a template escape): the caller checks.
    SubstituteWords(Vec<(String, String)>),
    /// `ReduceToSingleSentence(word_delimiter)`: a list's non-empty sentences
    /// joined by the delimiter (none: an empty list); a string unchanged.
    Single(String),
    /// `ReduceToListOfListOfWords(word_delimiter)`: each sentence split on the
    /// delimiter (not empty), without empty words; the last step.
    Words(String),
    /// `ReduceToListOfListOfChars`: each sentence's characters; the last step.
    Chars,
    /// One of Whisper's text normalisers (`mteval.normalizers`' classes in a
    /// `Compose`).
    Whisper(crate::whisper::Normalizer),
}

/// What a program is given and what it gives back: jiwer's `str`, `list`
/// of `str` and `list` of `list` of `str`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Text {
    /// A `str`.
    One(String),
    /// A `list` of `str`.
    List(Vec<String>),
    /// A `list` of lists of tokens.
    Tokens(Vec<Vec<String>>),
}

/// Why a step list is not run here.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct NotNative(pub &'static str);

/// Checks that `steps` is a program [`apply`] runs exactly: reductions only
/// as the last step, non-empty delimiters and keys, values without
/// backslashes.
///
/// # Errors
/// What is not run here.
pub fn check(steps: &[Step]) -> Result<(), NotNative> {
    for (i, step) in steps.iter().enumerate() {
        match step {
            Step::Words(d) | Step::Single(d) if d.is_empty() => return Err(NotNative("an empty delimiter")),
            Step::Words(_) | Step::Chars if i + 1 != steps.len() => {
                return Err(NotNative("a step after a reduction to lists of tokens"));
            }
            Step::SubstituteWords(map) if map.iter().any(|(k, v)| k.is_empty() || v.contains('\\')) => {
                return Err(NotNative("an empty word or a replacement template"));
            }
            _ => {}
        }
    }
    Ok(())
}

/// Runs `steps` (checked by [`check`]) over `text` (a string or a list of
/// strings), the per-sentence steps in parallel.
///
/// # Errors
/// A program [`check`] refuses.
pub fn apply(steps: &[Step], text: Text) -> Result<Text, NotNative> {
    check(steps)?;
    let mut text = text;
    let mut i = 0;
    while i < steps.len() {
        // A run of steps that map each sentence on its own.
        let run = steps[i..].iter().take_while(|s| is_per_sentence(s)).count();
        if run > 0 {
            let part = &steps[i..i + run];
            text = match text {
                Text::One(s) => Text::One(map_sentence(part, s)),
                Text::List(v) => {
                    Text::List(v.into_par_iter().with_min_len(64).map(|s| map_sentence(part, s)).collect())
                }
                Text::Tokens(_) => return Err(NotNative("a step after a reduction to lists of tokens")),
            };
            i += run;
            continue;
        }
        text = match (&steps[i], text) {
            (Step::RemoveEmptyStrings, Text::One(s)) => Text::One(py_strip(&s).to_owned()),
            (Step::RemoveEmptyStrings, Text::List(v)) => {
                Text::List(v.into_iter().filter(|s| !py_strip(s).is_empty()).collect())
            }
            (Step::Single(_), Text::One(s)) => Text::One(s),
            (Step::Single(d), Text::List(v)) => {
                let kept: Vec<String> = v.into_iter().filter(|s| !s.is_empty()).collect();
                Text::List(if kept.is_empty() { Vec::new() } else { vec![kept.join(d.as_str())] })
            }
            (Step::Words(d), Text::One(s)) => Text::Tokens(vec![split_words(&s, d)]),
            (Step::Words(d), Text::List(v)) => {
                Text::Tokens(or_one_empty(v.par_iter().with_min_len(64).map(|s| split_words(s, d)).collect()))
            }
            (Step::Chars, Text::One(s)) => Text::Tokens(vec![chars(&s)]),
            (Step::Chars, Text::List(v)) => {
                Text::Tokens(or_one_empty(v.par_iter().with_min_len(64).map(|s| chars(s)).collect()))
            }
            (_, Text::Tokens(_)) => return Err(NotNative("a step after a reduction to lists of tokens")),
            (step, _) => unreachable!("{step:?} maps each sentence"),
        };
        i += 1;
    }
    Ok(text)
}

/// jiwer's reductions turn an empty list into one empty sentence (`[[]]`).
fn or_one_empty(v: Vec<Vec<String>>) -> Vec<Vec<String>> {
    if v.is_empty() { vec![Vec::new()] } else { v }
}

fn split_words(s: &str, delimiter: &str) -> Vec<String> {
    s.split(delimiter).filter(|w| !w.is_empty()).map(str::to_owned).collect()
}

fn chars(s: &str) -> Vec<String> {
    s.chars().map(String::from).collect()
}

const fn is_per_sentence(step: &Step) -> bool {
    !matches!(step, Step::RemoveEmptyStrings | Step::Single(_) | Step::Words(_) | Step::Chars)
}

/// The per-sentence steps of `steps`, in order, on one sentence.
fn map_sentence(steps: &[Step], mut s: String) -> String {
    for step in steps {
        match map_one(step, &s) {
            Cow::Owned(t) => s = t,
            // A borrowed part (Strip): shorter, or the sentence itself.
            Cow::Borrowed(t) if t.len() != s.len() => s = t.to_owned(),
            Cow::Borrowed(_) => {}
        }
    }
    s
}

/// One per-sentence step; borrowed when it changes nothing.
fn map_one<'a>(step: &Step, s: &'a str) -> Cow<'a, str> {
    match step {
        Step::Lower => Cow::Owned(py_lower(s)),
        Step::Upper => Cow::Owned(py_upper(s)),
        Step::RemovePunctuation => {
            if s.chars().any(is_py_punctuation) {
                Cow::Owned(s.chars().filter(|&c| !is_py_punctuation(c)).collect())
            } else {
                Cow::Borrowed(s)
            }
        }
        Step::RemoveMultipleSpaces => remove_multiple_spaces(s),
        Step::RemoveWhiteSpace { by_space } => {
            let ws = |c: char| matches!(c, ' ' | '\t' | '\n' | '\r' | '\u{0B}' | '\u{0C}');
            if !s.chars().any(ws) {
                Cow::Borrowed(s)
            } else if *by_space {
                Cow::Owned(s.chars().map(|c| if ws(c) { ' ' } else { c }).collect())
            } else {
                Cow::Owned(s.chars().filter(|&c| !ws(c)).collect())
            }
        }
        Step::Strip => Cow::Borrowed(py_strip(s)),
        Step::RemoveKaldiNonWords => remove_kaldi_non_words(s),
        Step::Whisper(n) => Cow::Owned(n.apply(s)),
        Step::ExpandContractions => {
            let mut t = Cow::Borrowed(s);
            for (from, to) in CONTRACTIONS {
                if t.contains(from) {
                    t = Cow::Owned(t.replace(from, to));
                }
            }
            t
        }
        Step::SubstituteWords(map) => {
            let mut t = Cow::Borrowed(s);
            for (key, value) in map {
                if let Some(r) = substitute_word(&t, key, value) {
                    t = Cow::Owned(r);
                }
            }
            t
        }
        Step::RemoveEmptyStrings | Step::Single(_) | Step::Words(_) | Step::Chars => {
            unreachable!("not a per-sentence step")
        }
    }
}

/// `re.sub(r"\b" + re.escape(key) + r"\b", value, s)` for a non-empty `key`
/// and a `value` without backslashes: the leftmost occurrences bounded by
/// `\b` on both sides, left to right, not overlapping. `None` when there is
/// none.
fn substitute_word(s: &str, key: &str, value: &str) -> Option<String> {
    substitute_bounded(s, key, value, true)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn list(v: &[&str]) -> Text {
        Text::List(v.iter().map(|s| (*s).to_owned()).collect())
    }

    fn tokens(v: &[&[&str]]) -> Text {
        Text::Tokens(v.iter().map(|s| s.iter().map(|w| (*w).to_owned()).collect()).collect())
    }

    fn run(steps: &[Step], t: Text) -> Text {
        apply(steps, t).unwrap()
    }

    // Expected values: jiwer 4.0.0's classes on CPython 3.11.

    #[test]
    fn reductions_and_list_steps() {
        let w = || Step::Words(" ".into());
        assert_eq!(run(&[w()], Text::One("a  b".into())), tokens(&[&["a", "b"]]));
        assert_eq!(run(&[w()], list(&[])), tokens(&[&[]]));
        assert_eq!(run(&[Step::Chars], list(&["ab", ""])), tokens(&[&["a", "b"], &[]]));
        assert_eq!(run(&[Step::Single(" ".into())], list(&["a", "", "b c"])), list(&["a b c"]));
        assert_eq!(run(&[Step::Single("_".into())], list(&[""])), list(&[]));
        assert_eq!(run(&[Step::Single(" ".into())], Text::One(String::new())), Text::One(String::new()));
        assert_eq!(run(&[Step::RemoveEmptyStrings], list(&["", " a ", "\t "])), list(&[" a "]));
        assert_eq!(run(&[Step::RemoveEmptyStrings], Text::One(" a ".into())), Text::One("a".into()));
        assert_eq!(run(&[Step::Words("_".into())], list(&["a_b__c", "x y"])), tokens(&[&["a", "b", "c"], &["x y"]]));
    }

    #[test]
    fn programs_run_here_only_when_exact() {
        assert!(check(&[Step::Chars, Step::Lower]).is_err());
        assert!(check(&[Step::Words(String::new())]).is_err());
        assert!(check(&[Step::SubstituteWords(vec![("a".into(), r"\1".into())])]).is_err());
        assert!(check(&[Step::SubstituteWords(vec![(String::new(), "x".into())])]).is_err());
        assert!(check(&[Step::Lower, Step::RemovePunctuation, Step::Words(" ".into())]).is_ok());
    }

    #[test]
    fn punctuation_is_unicode_category_p() {
        let t = run(&[Step::RemovePunctuation], Text::One("¡Hola! «ça» — 你好。$5 + x_y 'a'".into()));
        assert_eq!(t, Text::One("Hola ça  你好$5 + xy a".into()));
    }

    #[test]
    fn substitute_words_matches_whole_words_with_unicode_boundaries() {
        let sub =
            |k: &str, v: &str, s: &str| run(&[Step::SubstituteWords(vec![(k.into(), v.into())])], Text::One(s.into()));
        assert_eq!(sub("foo", "bar", "foo foobar barfoo foo_ foo."), Text::One("bar foobar barfoo foo_ bar.".into()));
        // "'re" needs a word character before its apostrophe.
        assert_eq!(sub("'re", " are", "you're 're"), Text::One("you are 're".into()));
        // A combining mark is no word character in Python: é written
        // e + U+0301 ends the word "caf" + "e".
        assert_eq!(sub("cafe", "X", "cafe\u{301} café cafe"), Text::One("X\u{301} café X".into()));
        assert_eq!(sub("aa", "b", "aaa aa"), Text::One("aaa b".into()));
        assert_eq!(sub("שלום", "x", "שלום, עולם"), Text::One("x, עולם".into()));
    }

    #[test]
    fn string_steps() {
        let one = |steps: &[Step], s: &str| run(steps, Text::One(s.into()));
        assert_eq!(one(&[Step::Upper], "straße ǆ"), Text::One("STRASSE Ǆ".into()));
        // Capitals added after Unicode 14.0: CPython 3.11 keeps the small letter.
        assert_eq!(one(&[Step::Upper], "ƛɤ"), Text::One("ƛɤ".into()));
        assert_eq!(one(&[Step::Lower], "ΣΑΣ İ"), Text::One("σας i\u{307}".into()));
        assert_eq!(one(&[Step::RemoveWhiteSpace { by_space: false }], "a b\tc\u{a0}d"), Text::One("abc\u{a0}d".into()));
        assert_eq!(one(&[Step::RemoveWhiteSpace { by_space: true }], "a\nb"), Text::One("a b".into()));
        assert_eq!(one(&[Step::ExpandContractions], "won't they've"), Text::One("will not they have".into()));
        assert_eq!(one(&[Step::Strip], "\u{1c} a \u{3000}"), Text::One("a".into()));
    }
}
