//! The tercom tokenizer exactly as sacrebleu 2.6.0 implements it
//! (`sacrebleu/tokenizers/tokenizer_ter.py`).
//!
//! Quirks reproduced on purpose:
//! * `\n-` (not tercom's `-\n`) is removed when normalising;
//! * the `'s$` rule never fires (the string is wrapped in spaces first);
//! * period/comma splitting is a left-to-right, non-overlapping scan, so in
//!   `a..b` only the first period is split off by the "not preceded by a digit" rule;
//! * the kana-splitting rules are dead code in sacrebleu and are not applied;
//! * `asian_support` alone (without `normalized` or `no_punct`) changes nothing.
//!
//! The tokenizer returns the word list; sacrebleu's string output is these
//! words joined by single spaces.

use crate::py::text::{py_lower, py_rstrip, py_split};

/// Options of the tercom tokenizer (sacrebleu `TER(...)` keyword arguments).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[allow(
    clippy::struct_excessive_bools,
    reason = "mirrors sacrebleu's four independent boolean TER(...) keyword arguments"
)]
pub struct TercomTokenizer {
    /// Keep case (`case:mixed`); the default lower-cases.
    pub case_sensitive: bool,
    /// Apply tercom's normalisation (punctuation splitting, XML entities...).
    pub normalized: bool,
    /// Remove punctuation.
    pub no_punct: bool,
    /// Asian-language character splitting and punctuation (with `normalized`/`no_punct`).
    pub asian_support: bool,
}

/// ``[{-~[-\` -&(-+:-@/]``: the punctuation class that normalisation pads with spaces.
const fn is_western_punct(c: char) -> bool {
    matches!(c, '{'..='~' | '['..='`' | ' '..='&' | '('..='+' | ':'..='@' | '/')
}

const fn is_cjk_split(c: char) -> bool {
    matches!(
        c,
        '\u{4e00}'..='\u{9fff}'
            | '\u{3400}'..='\u{4dbf}'
            | '\u{31c0}'..='\u{31ef}'
            | '\u{2e80}'..='\u{2eff}'
            | '\u{3300}'..='\u{33ff}'
            | '\u{f900}'..='\u{faff}'
            | '\u{fe30}'..='\u{fe4f}'
            // sacrebleu's comment says 3200-32FF but the class runs to 3F22.
            | '\u{3200}'..='\u{3f22}'
    )
}

const fn is_asian_punct(c: char) -> bool {
    matches!(
        c,
        '\u{3001}' | '\u{3002}' | '\u{3008}'..='\u{3011}' | '\u{3014}'..='\u{301f}' | '\u{ff61}'..='\u{ff65}' | '\u{30fb}'
    )
}

const fn is_full_width_punct(c: char) -> bool {
    matches!(
        c,
        '\u{ff0e}'
            | '\u{ff0c}'
            | '\u{ff1f}'
            | '\u{ff1a}'
            | '\u{ff1b}'
            | '\u{ff01}'
            | '\u{ff02}'
            | '\u{ff08}'
            | '\u{ff09}'
    )
}

const fn is_basic_punct(c: char) -> bool {
    matches!(c, '.' | ',' | '?' | ':' | ';' | '!' | '"' | '(' | ')')
}

/// Emulates `re.sub(r"(A)(B)", repl, s)` for two single-character classes:
/// leftmost, non-overlapping, scanning resumes after each match.
fn sub_pair(
    s: &str,
    first: impl Fn(char) -> bool,
    second: impl Fn(char) -> bool,
    emit: impl Fn(&mut String, char, char),
) -> String {
    let chars: Vec<char> = s.chars().collect();
    let mut out = String::with_capacity(s.len() + 16);
    let mut i = 0;
    while i < chars.len() {
        if i + 1 < chars.len() && first(chars[i]) && second(chars[i + 1]) {
            emit(&mut out, chars[i], chars[i + 1]);
            i += 2;
        } else {
            out.push(chars[i]);
            i += 1;
        }
    }
    out
}

fn normalize_general_and_western(s: &str) -> String {
    let s = s.replace("\n-", "").replace('\n', " ");
    let s = s.replace("&quot;", "\"").replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">");
    let s = format!(" {s} ");
    let s = crate::py::text::pad_chars(&s, is_western_punct);
    // Possessives; the `'s$` rule cannot match after the padding above.
    let s = s.replace("'s ", " 's ");
    let is_digit = |c: char| c.is_ascii_digit();
    let is_pc = |c: char| c == '.' || c == ',';
    // ([^0-9])([\.,]) -> "\1 \2 "
    let s = sub_pair(
        &s,
        |c| !is_digit(c),
        is_pc,
        |o, a, b| {
            o.push(a);
            o.push(' ');
            o.push(b);
            o.push(' ');
        },
    );
    // ([\.,])([^0-9]) -> " \1 \2"
    let s = sub_pair(
        &s,
        is_pc,
        |c| !is_digit(c),
        |o, a, b| {
            o.push(' ');
            o.push(a);
            o.push(' ');
            o.push(b);
        },
    );
    // ([0-9])(-) -> "\1 \2 "
    sub_pair(
        &s,
        is_digit,
        |c| c == '-',
        |o, a, b| {
            o.push(a);
            o.push(' ');
            o.push(b);
            o.push(' ');
        },
    )
}

fn normalize_asian(s: &str) -> String {
    // All the asian rules only pad single characters with spaces; padding a
    // character twice (it is in two classes) only adds whitespace, which the
    // final split removes. The kana rules are dead code in sacrebleu.
    crate::py::text::pad_chars(s, |c| is_cjk_split(c) || is_asian_punct(c) || is_full_width_punct(c))
}

impl TercomTokenizer {
    /// sacrebleu's `TercomTokenizer.__call__`, string in, string out. Only the
    /// normalised mode collapses whitespace; otherwise the string keeps its
    /// spacing (TER splits it into words afterwards).
    #[must_use]
    pub fn tokenize_raw(&self, s: &str) -> String {
        if s.is_empty() {
            return String::new();
        }
        let mut s: String = if self.case_sensitive { s.to_owned() } else { py_lower(s) };
        if self.normalized {
            s = normalize_general_and_western(&s);
            if self.asian_support {
                s = normalize_asian(&s);
            }
            // `\s+` -> " ", then strip: Python's `\s` is `str.isspace()`.
            s = py_split(&s).collect::<Vec<_>>().join(" ");
        }
        if self.no_punct {
            s.retain(|c| !is_basic_punct(c) && !(self.asian_support && (is_asian_punct(c) || is_full_width_punct(c))));
        }
        s
    }

    /// sacrebleu's TER `_preprocess_segment`: `tokenizer(s.rstrip())`.
    #[must_use]
    pub fn preprocess(&self, s: &str) -> String {
        self.tokenize_raw(py_rstrip(s))
    }

    /// The words of a hypothesis: `preprocess(s).split()`.
    #[must_use]
    pub fn words(&self, s: &str) -> Vec<String> {
        py_split(&self.preprocess(s)).map(str::to_owned).collect()
    }

    /// The words of a reference. sacrebleu 2.6.0 preprocesses references
    /// twice (`_cache_references` tokenizes them, then `_extract_reference_info`
    /// tokenizes the result again), which matters when the first pass exposes
    /// new matches: e.g. with `norm:yes`, `father's<NBSP>mission` becomes
    /// `father's mission` in the first pass and `father 's mission` in the second.
    #[must_use]
    pub fn reference_words(&self, s: &str) -> Vec<String> {
        py_split(&self.preprocess_reference(s)).map(str::to_owned).collect()
    }

    /// A reference preprocessed twice, as sacrebleu does (see
    /// [`Self::reference_words`]); its `split()` gives the words.
    #[must_use]
    pub fn preprocess_reference(&self, s: &str) -> String {
        self.preprocess(&self.preprocess(s))
    }

    /// The words of a hypothesis joined by one space (TER's preprocessing:
    /// `s.rstrip()` first).
    #[must_use]
    pub fn tokenize(&self, s: &str) -> String {
        self.words(s).join(" ")
    }

    /// sacrebleu's `TercomTokenizer.__call__`: the tokenizer alone, without
    /// TER's `rstrip()` first, whitespace collapsed. The two differ where the
    /// trailing whitespace is what a rule looks at: `it's\t` stays `it's`
    /// here, TER's preprocessing makes it `it 's`.
    #[must_use]
    pub fn call(&self, s: &str) -> String {
        py_split(&self.tokenize_raw(s)).collect::<Vec<_>>().join(" ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn norm() -> TercomTokenizer {
        TercomTokenizer { normalized: true, ..Default::default() }
    }

    #[test]
    fn the_tokenizer_alone_does_not_strip_first() {
        // sacrebleu 2.6.0: TercomTokenizer(normalized=True)("it's\t") == "it's";
        // TER's _preprocess_segment rstrips first, giving "it 's".
        assert_eq!(norm().call("it's\t"), "it's");
        assert_eq!(norm().call("a's\u{3000}"), "a's");
        assert_eq!(norm().tokenize("it's\t"), "it 's");
        assert_eq!(norm().call("It's  here "), "it 's here");
        assert_eq!(TercomTokenizer::default().call(""), "");
    }

    #[test]
    fn possessive_before_period_split() {
        assert_eq!(norm().tokenize("Jim's."), "jim's .");
        assert_eq!(norm().tokenize("It's here"), "it 's here");
    }

    #[test]
    fn numbers_keep_separators() {
        assert_eq!(norm().tokenize("costs 1,000.50 in 1990-2000."), "costs 1,000.50 in 1990 - 2000 .");
    }

    #[test]
    fn non_overlapping_period_scan() {
        assert_eq!(norm().tokenize("a..b"), "a . . b");
    }

    #[test]
    fn asian_alone_is_noop_and_kana_not_split() {
        let t = TercomTokenizer { asian_support: true, ..Default::default() };
        assert_eq!(t.tokenize("我们，好"), "我们，好");
        let t = TercomTokenizer { asian_support: true, normalized: true, ..Default::default() };
        assert_eq!(t.tokenize("ひらがなabc東京。"), "ひらがなabc 東 京 。");
    }

    #[test]
    fn no_punct_without_normalisation_deletes_in_place() {
        let t = TercomTokenizer { no_punct: true, ..Default::default() };
        assert_eq!(t.tokenize("it's a-b, (c)."), "it's a-b c");
    }

    #[test]
    fn references_are_preprocessed_twice() {
        let t = norm();
        assert_eq!(t.words("father's\u{a0}mission"), vec!["father's", "mission"]);
        assert_eq!(t.reference_words("father's\u{a0}mission"), vec!["father", "'s", "mission"]);
        assert_eq!(t.reference_words("&amp;quot;"), vec!["&", "quot", ";"]);
    }

    #[test]
    fn empty_and_whitespace() {
        assert!(TercomTokenizer::default().words(" \t\n").is_empty());
    }
}
