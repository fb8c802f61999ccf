//! The one regular expression the reference uses, matched by hand with
//! `CPython` 3.11 `re` semantics:
//!
//! ```text
//! re.finditer(r"(?<![a-zA-Z0-9])" + re.escape(alt) + r"(?![a-zA-Z0-9])", text, re.IGNORECASE)
//! ```
//!
//! * `re.escape` makes every character of `alt` a literal, so the pattern is a
//!   fixed-length literal: a match always spans `alt`'s length in code points.
//! * Under `IGNORECASE` (a `str` pattern, hence Unicode), sre compiles a
//!   literal character `p` as follows. If `p` is uncased (its one-character
//!   lower and upper mappings are both `p` itself), only `p` matches. Otherwise a
//!   text character `t` matches when `lower(t)` is `lower(p)` or one of
//!   `_casefix._EXTRA_CASES[lower(p)]`. `lower` is sre's `unicode_tolower`, the
//!   first character of the full lowercase mapping (so U+0130 → `i`). There is
//!   no full case folding (`ß` never matches `ss`).
//! * The class `[a-zA-Z0-9]` under `IGNORECASE` holds every `t` whose `lower(t)`
//!   is an ASCII letter or digit or one of their extra cases (`ı`, `ſ`). That is
//!   ASCII alphanumerics plus U+0130 `İ`, U+0131 `ı`, U+017F `ſ` and U+212A
//!   (Kelvin sign).
//! * `finditer` scans left to right. After a match at `[p, p + len)` it resumes
//!   at `p + len`, so matches never overlap. An empty `alt` gives a zero-width
//!   match at each position whose neighbours are both outside the class.
//!
//! Python 3.11 uses Unicode 14.0. Rust's tables are newer, so the case pairs
//! added since then are masked out (`NEWER_THAN_UNICODE_14`). With rustc 1.95
//! this reproduces `_sre.unicode_tolower` and `_sre.unicode_iscased` of Python
//! 3.11.7 for every code point. That was checked exhaustively against the
//! interpreter when this module was written.

/// Code points that have a case mapping in Rust's Unicode tables but none in
/// Unicode 14.0 (`CPython` 3.11): inclusive ranges, sorted. Python treats them as
/// uncased characters that only match themselves.
/// (`crate::py::text`'s `PY14_OVERRIDES` answers the same question for
/// `str.lower()`, whose `Final_Sigma` rule also reads the cased and
/// case-ignorable classes; its test pins the toolchain's Unicode version.)
const NEWER_THAN_UNICODE_14: [(u32, u32); 10] = [
    (0x019B, 0x019B),
    (0x0264, 0x0264),
    (0x1C89, 0x1C8A),
    (0xA7CB, 0xA7CF),
    (0xA7D2, 0xA7D5),
    (0xA7DA, 0xA7DC),
    (0x10D50, 0x10D65),
    (0x10D70, 0x10D85),
    (0x16EA0, 0x16EB8),
    (0x16EBB, 0x16ED3),
];

/// `re._casefix._EXTRA_CASES` of `CPython` 3.11: for a lowercased character,
/// the other lowercased characters with the same uppercase. Sorted by key.
const EXTRA_CASES: [(char, &[char]); 50] = [
    ('\u{0069}', &['\u{0131}']),
    ('\u{0073}', &['\u{017F}']),
    ('\u{00B5}', &['\u{03BC}']),
    ('\u{0131}', &['\u{0069}']),
    ('\u{017F}', &['\u{0073}']),
    ('\u{0345}', &['\u{03B9}', '\u{1FBE}']),
    ('\u{0390}', &['\u{1FD3}']),
    ('\u{03B0}', &['\u{1FE3}']),
    ('\u{03B2}', &['\u{03D0}']),
    ('\u{03B5}', &['\u{03F5}']),
    ('\u{03B8}', &['\u{03D1}']),
    ('\u{03B9}', &['\u{0345}', '\u{1FBE}']),
    ('\u{03BA}', &['\u{03F0}']),
    ('\u{03BC}', &['\u{00B5}']),
    ('\u{03C0}', &['\u{03D6}']),
    ('\u{03C1}', &['\u{03F1}']),
    ('\u{03C2}', &['\u{03C3}']),
    ('\u{03C3}', &['\u{03C2}']),
    ('\u{03C6}', &['\u{03D5}']),
    ('\u{03D0}', &['\u{03B2}']),
    ('\u{03D1}', &['\u{03B8}']),
    ('\u{03D5}', &['\u{03C6}']),
    ('\u{03D6}', &['\u{03C0}']),
    ('\u{03F0}', &['\u{03BA}']),
    ('\u{03F1}', &['\u{03C1}']),
    ('\u{03F5}', &['\u{03B5}']),
    ('\u{0432}', &['\u{1C80}']),
    ('\u{0434}', &['\u{1C81}']),
    ('\u{043E}', &['\u{1C82}']),
    ('\u{0441}', &['\u{1C83}']),
    ('\u{0442}', &['\u{1C84}', '\u{1C85}']),
    ('\u{044A}', &['\u{1C86}']),
    ('\u{0463}', &['\u{1C87}']),
    ('\u{1C80}', &['\u{0432}']),
    ('\u{1C81}', &['\u{0434}']),
    ('\u{1C82}', &['\u{043E}']),
    ('\u{1C83}', &['\u{0441}']),
    ('\u{1C84}', &['\u{0442}', '\u{1C85}']),
    ('\u{1C85}', &['\u{0442}', '\u{1C84}']),
    ('\u{1C86}', &['\u{044A}']),
    ('\u{1C87}', &['\u{0463}']),
    ('\u{1C88}', &['\u{A64B}']),
    ('\u{1E61}', &['\u{1E9B}']),
    ('\u{1E9B}', &['\u{1E61}']),
    ('\u{1FBE}', &['\u{0345}', '\u{03B9}']),
    ('\u{1FD3}', &['\u{0390}']),
    ('\u{1FE3}', &['\u{03B0}']),
    ('\u{A64B}', &['\u{1C88}']),
    ('\u{FB05}', &['\u{FB06}']),
    ('\u{FB06}', &['\u{FB05}']),
];

fn newer_than_unicode_14(c: char) -> bool {
    let cp = u32::from(c);
    cp >= 0x019B && NEWER_THAN_UNICODE_14.iter().any(|&(lo, hi)| (lo..=hi).contains(&cp))
}

/// sre's `unicode_tolower` (`CPython` 3.11): the first character of the full
/// lowercase mapping, which is the simple mapping for every character.
#[must_use]
pub fn re_lower(c: char) -> char {
    if c.is_ascii() {
        return c.to_ascii_lowercase();
    }
    if newer_than_unicode_14(c) {
        return c;
    }
    c.to_lowercase().next().unwrap_or(c)
}

/// sre's `unicode_toupper`: the first character of the full uppercase mapping
/// (`ß` → `S`).
fn re_upper(c: char) -> char {
    if c.is_ascii() {
        return c.to_ascii_uppercase();
    }
    if newer_than_unicode_14(c) {
        return c;
    }
    c.to_uppercase().next().unwrap_or(c)
}

/// sre's `unicode_iscased`: whether `c` differs from its lower or upper mapping.
#[must_use]
pub fn re_iscased(c: char) -> bool {
    re_lower(c) != c || re_upper(c) != c
}

/// The extra case-equivalents of a lowercased character (`_EXTRA_CASES`).
#[must_use]
pub fn extra_cases(lower: char) -> &'static [char] {
    EXTRA_CASES.binary_search_by_key(&lower, |&(k, _)| k).map_or(&[], |i| EXTRA_CASES[i].1)
}

/// Whether `c` belongs to `[a-zA-Z0-9]` under `re.IGNORECASE`: a "word"
/// character for the reference's boundary look-arounds.
#[must_use]
pub const fn is_boundary_word(c: char) -> bool {
    matches!(c, 'a'..='z' | 'A'..='Z' | '0'..='9' | '\u{130}' | '\u{131}' | '\u{17F}' | '\u{212A}')
}

/// One compiled pattern character.
#[derive(Debug, Clone, Copy)]
enum PatChar {
    /// An uncased character: only itself matches.
    Exact(char),
    /// A cased character: its lowercase and the extra cases of that.
    Fold { lower: char, extra: &'static [char] },
}

impl PatChar {
    fn new(p: char) -> Self {
        if re_iscased(p) {
            let lower = re_lower(p);
            Self::Fold { lower, extra: extra_cases(lower) }
        } else {
            Self::Exact(p)
        }
    }

    #[inline]
    fn matches(self, t: char, t_lower: char) -> bool {
        match self {
            Self::Exact(p) => t == p,
            Self::Fold { lower, extra } => t_lower == lower || extra.contains(&t_lower),
        }
    }
}

/// A text prepared for matching: code points with their sre lowercase and
/// boundary-class membership.
#[derive(Debug, Clone, Default)]
pub struct Text {
    chars: Vec<char>,
    lower: Vec<char>,
    word: Vec<bool>,
}

impl Text {
    /// Prepares `chars` (a string's code points).
    #[must_use]
    pub fn new(chars: Vec<char>) -> Self {
        let lower = chars.iter().map(|&c| re_lower(c)).collect();
        let word = chars.iter().map(|&c| is_boundary_word(c)).collect();
        Self { chars, lower, word }
    }

    /// The number of code points.
    #[must_use]
    pub fn len(&self) -> usize {
        self.chars.len()
    }

    /// Whether the text is empty.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.chars.is_empty()
    }

    /// The code points.
    #[must_use]
    pub fn chars(&self) -> &[char] {
        &self.chars
    }

    /// Whether the look-behind and look-ahead hold around `[start, end)`.
    fn boundaries_hold(&self, start: usize, end: usize) -> bool {
        (start == 0 || !self.word[start - 1]) && (end >= self.len() || !self.word[end])
    }
}

/// An alternative compiled to the reference's pattern (escaped literal with
/// the ASCII-alphanumeric boundary look-arounds, `IGNORECASE`).
#[derive(Debug, Clone)]
pub struct Literal {
    pattern: Vec<PatChar>,
}

impl Literal {
    /// Compiles `alt` as `re.escape(alt)` would be compiled.
    #[must_use]
    pub fn new(alt: &str) -> Self {
        Self { pattern: alt.chars().map(PatChar::new).collect() }
    }

    /// The pattern length in code points (the length of every match).
    #[must_use]
    pub fn len(&self) -> usize {
        self.pattern.len()
    }

    /// Whether the alternative is empty (zero-width matches).
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.pattern.is_empty()
    }

    fn matches_at(&self, text: &Text, start: usize) -> bool {
        let end = start + self.len();
        text.boundaries_hold(start, end)
            && self
                .pattern
                .iter()
                .zip(&text.chars[start..end])
                .zip(&text.lower[start..end])
                .all(|((p, &t), &tl)| p.matches(t, tl))
    }

    /// The `[start, end)` spans `re.finditer` yields, in order.
    pub fn find_iter<'t>(&'t self, text: &'t Text) -> impl Iterator<Item = (usize, usize)> + 't {
        let len = self.len();
        let mut pos = 0;
        std::iter::from_fn(move || {
            while pos + len <= text.len() {
                let start = pos;
                if self.matches_at(text, start) {
                    // Resume after the match; an empty match moves on by one.
                    pos = start + len.max(1);
                    return Some((start, start + len));
                }
                pos += 1;
            }
            None
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spans(alt: &str, text: &str) -> Vec<(usize, usize)> {
        let t = Text::new(text.chars().collect());
        Literal::new(alt).find_iter(&t).collect()
    }

    #[test]
    fn extra_cases_table_is_sorted_and_symmetric() {
        assert!(EXTRA_CASES.windows(2).all(|w| w[0].0 < w[1].0));
        for &(k, vs) in &EXTRA_CASES {
            for &v in vs {
                assert!(extra_cases(v).contains(&k), "{k:?} -> {v:?}");
            }
        }
    }

    #[test]
    fn lower_and_cased_follow_python_3_11() {
        assert_eq!(re_lower('\u{130}'), 'i');
        assert_eq!(re_lower('\u{212A}'), 'k');
        assert_eq!(re_lower('ẞ'), 'ß');
        assert!(re_iscased('ß'));
        assert!(!re_iscased('5') && !re_iscased('京') && !re_iscased('.'));
        // Case pairs newer than Unicode 14 are uncased in Python 3.11.
        for c in ['\u{19B}', '\u{A7CB}', '\u{1C89}', '\u{10D50}', '\u{16EBB}'] {
            assert_eq!(re_lower(c), c);
            assert!(!re_iscased(c), "{c:?}");
        }
    }

    #[test]
    fn case_insensitive_literals() {
        assert_eq!(spans("cat", "The CAT Cat"), vec![(4, 7), (8, 11)]);
        assert_eq!(spans("istanbul", "İstanbul Istanbul ıstanbul"), vec![(0, 8), (9, 17), (18, 26)]);
        assert_eq!(spans("σοφος", "ΣΟΦΟΣ"), vec![(0, 5)]);
        assert_eq!(spans("ς", "Σ σ ς"), vec![(0, 1), (2, 3), (4, 5)]);
        assert_eq!(spans("µ", "μ Μ µ"), vec![(0, 1), (2, 3), (4, 5)]);
        assert_eq!(spans("STRASSE", "Straße"), vec![]);
        assert_eq!(spans("groß", "GROẞ"), vec![(0, 4)]);
        assert_eq!(spans("k", "\u{212A}"), vec![(0, 1)]);
        assert_eq!(spans("s", "ſ"), vec![(0, 1)]);
    }

    #[test]
    fn boundaries_are_ascii_alphanumeric_plus_four() {
        assert_eq!(spans("cat", "xcat cat"), vec![(5, 8)]);
        assert_eq!(spans("cat", "écat"), vec![(1, 4)]);
        assert_eq!(spans("cat", "cat5 cats"), vec![]);
        assert_eq!(spans("cat", "cat-like cat_x"), vec![(0, 3), (9, 12)]);
        assert_eq!(spans("cat", "\u{212A}cat ſcat ıcat İcat cat"), vec![(20, 23)]);
        assert_eq!(spans("Stra", "Straße"), vec![(0, 4)]);
    }

    #[test]
    fn finditer_is_leftmost_non_overlapping() {
        assert_eq!(spans("aa", "aaaa"), vec![]);
        assert_eq!(spans("aa", "aa aa"), vec![(0, 2), (3, 5)]);
        assert_eq!(spans("a.b", "a.b axb"), vec![(0, 3)]);
        assert_eq!(spans("c++", "C++ and c++"), vec![(0, 3), (8, 11)]);
        assert_eq!(spans("😀", "😀cat 😀 😀"), vec![(5, 6), (7, 8)]);
    }

    #[test]
    fn empty_alternative_is_zero_width() {
        assert_eq!(spans("", ""), vec![(0, 0)]);
        assert_eq!(spans("", "a b"), vec![]);
        assert_eq!(spans("", "a b "), vec![(4, 4)]);
        assert_eq!(spans("", ". a"), vec![(0, 0), (1, 1)]);
    }
}
