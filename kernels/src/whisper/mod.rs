//! Whisper's text normalisers, as whisper-normalizer 0.1.15 (`OpenAI`
//! Whisper's `whisper/normalizers`) runs them on `CPython` 3.11: what ASR
//! evaluations apply to both sides before WER.
//!
//! * [`basic`]: `BasicTextNormalizer` (any language): lower-case, drop
//!   bracketed and parenthesised phrases, replace marks, symbols and
//!   punctuation by spaces (optionally dropping diacritics), collapse
//!   whitespace.
//! * [`english`]: `EnglishTextNormalizer`: the same clean-up, plus fillers,
//!   contractions and titles spelled out, spoken numbers and currencies to
//!   digits ([`numbers`]), British spellings to American.

pub mod basic;
pub mod english;
mod grapheme_tables;
pub mod graphemes;
pub mod numbers;

use crate::MetricError;

/// A substitution of `width` characters scanned left to right, as `re.sub`
/// of a fixed-width pattern does: where `hit` holds for the window at a
/// character (shorter at the end of the text), `then` writes the
/// replacement and the whole window is consumed; elsewhere the character is
/// kept.
pub(crate) fn substitute_windows(
    s: &str,
    width: usize,
    hit: impl Fn(&[char]) -> bool,
    then: impl Fn(&mut String, &[char]),
) -> String {
    let c: Vec<char> = s.chars().collect();
    let mut out = String::with_capacity(s.len() + 8);
    let mut i = 0;
    while i < c.len() {
        let w = &c[i..(i + width).min(c.len())];
        if hit(w) {
            then(&mut out, w);
            i += w.len();
        } else {
            out.push(c[i]);
            i += 1;
        }
    }
    out
}

/// A normaliser named as SQL and the CLI name it: `english`, or `basic` with options
/// `remove_diacritics:yes`, `preserve_marks:yes`, `split_letters:yes` (`|`-separated after the
/// name, e.g. `basic|remove_diacritics:yes`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Normalizer {
    /// `BasicTextNormalizer`.
    Basic(basic::BasicOptions),
    /// `EnglishTextNormalizer` (no options).
    English,
}

impl Normalizer {
    /// Parses `name[|key:yes|no...]`.
    ///
    /// # Errors
    /// An unknown name, key or value, or options that do not go together.
    pub fn parse(spec: &str) -> Result<Self, MetricError> {
        let bad = |reason: String| MetricError::InvalidOption { metric: "whisper_normalize", reason };
        let mut parts = spec.split('|').map(str::trim);
        let name = parts.next().unwrap_or("");
        match name {
            "basic" => {}
            "english" => {
                if let Some(p) = parts.find(|p| !p.is_empty()) {
                    return Err(bad(format!("'english' (EnglishTextNormalizer) takes no options, got '{p}'")));
                }
                return Ok(Self::English);
            }
            other => return Err(bad(format!("unknown normaliser '{other}': give 'basic' or 'english'"))),
        }
        let mut o = basic::BasicOptions::default();
        for p in parts.filter(|p| !p.is_empty()) {
            let (k, v) = p.split_once(':').ok_or_else(|| bad(format!("'{p}' is not key:value")))?;
            let v = match v.trim() {
                "yes" | "true" => true,
                "no" | "false" => false,
                other => return Err(bad(format!("{k}: '{other}' is not yes or no"))),
            };
            match k.trim() {
                "remove_diacritics" => o.remove_diacritics = v,
                "preserve_marks" => o.preserve_marks = v,
                "split_letters" => o.split_letters = v,
                other => {
                    return Err(bad(format!(
                        "unknown option '{other}' (known: remove_diacritics, preserve_marks, split_letters)"
                    )));
                }
            }
        }
        if o.remove_diacritics && o.preserve_marks {
            return Err(bad("preserve_marks cannot be used with remove_diacritics".into()));
        }
        Ok(Self::Basic(o))
    }

    /// The normalised text.
    #[must_use]
    pub fn apply(&self, s: &str) -> String {
        match self {
            Self::Basic(o) => basic::basic(s, *o),
            Self::English => english::english(s),
        }
    }
}
