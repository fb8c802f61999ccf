//! Python-compatible string primitives.
//!
//! The reference implementations are Python, so "whitespace", "split" and
//! "lower" must mean what they mean in `CPython` 3.11:
//! `str.isspace()` includes U+001C–U+001F (Rust's `char::is_whitespace` does
//! not) and excludes U+200B; indices are code points.

/// `str.isspace()` of `CPython` 3.11 for one character.
#[must_use]
pub const fn is_py_space(c: char) -> bool {
    matches!(
        c,
        '\u{0009}'..='\u{000D}'
            | '\u{001C}'..='\u{001F}'
            | ' '
            | '\u{0085}'
            | '\u{00A0}'
            | '\u{1680}'
            | '\u{2000}'..='\u{200A}'
            | '\u{2028}'
            | '\u{2029}'
            | '\u{202F}'
            | '\u{205F}'
            | '\u{3000}'
    )
}

/// Python `s.split()` (no argument): maximal runs of non-whitespace.
#[must_use]
pub const fn py_split(s: &str) -> PySplit<'_> {
    PySplit { s, at: 0 }
}

/// [`py_split`]'s iterator. It scans bytes: an ASCII byte is looked up
/// directly, and only the lead bytes of the multi-byte whitespace characters
/// (U+0085, U+00A0, U+1680, U+2000–U+205F, U+3000) are decoded; every other
/// byte, continuation bytes included, is part of a word.
pub struct PySplit<'a> {
    s: &'a str,
    at: usize,
}

impl PySplit<'_> {
    /// Byte length of the whitespace character at byte `i`, 0 if none.
    #[inline]
    fn space_at(&self, i: usize) -> usize {
        let b = self.s.as_bytes()[i];
        match b {
            0x09..=0x0D | 0x1C..=0x20 => 1,
            0xC2 | 0xE1 | 0xE2 | 0xE3 => {
                self.s[i..].chars().next().filter(|&c| is_py_space(c)).map_or(0, char::len_utf8)
            }
            _ => 0,
        }
    }
}

impl<'a> Iterator for PySplit<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        let n = self.s.len();
        let mut i = self.at;
        loop {
            if i >= n {
                self.at = n;
                return None;
            }
            match self.space_at(i) {
                0 => break,
                k => i += k,
            }
        }
        let start = i;
        let bytes = self.s.as_bytes();
        while i < n {
            // Most bytes of a word are printable ASCII or continuation
            // bytes (0x80..0xC0), which are never whitespace.
            let b = bytes[i];
            if (0x21..0x7F).contains(&b) || (0x80..0xC0).contains(&b) || self.space_at(i) == 0 {
                i += 1;
            } else {
                break;
            }
        }
        self.at = i;
        Some(&self.s[start..i])
    }
}

/// `re.sub(r"\s+", " ", s)`.
#[must_use]
pub fn collapse_py_space(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut in_space = false;
    for c in s.chars() {
        if is_py_space(c) {
            if !in_space {
                out.push(' ');
            }
            in_space = true;
        } else {
            out.push(c);
            in_space = false;
        }
    }
    out
}

/// Python `s.rstrip()` (no argument).
#[must_use]
pub fn py_rstrip(s: &str) -> &str {
    s.trim_end_matches(is_py_space)
}

/// Python `s.strip()` (no argument).
#[must_use]
pub fn py_strip(s: &str) -> &str {
    s.trim_matches(is_py_space)
}

/// Python `s.lower()`: full Unicode lower-casing, including `Final_Sigma` and
/// the expansion of U+0130 to `i` + U+0307. Rust's `str::to_lowercase`
/// implements the same `SpecialCasing` rules, but from newer tables: Python 3.11
/// uses Unicode 14.0. The characters on which the two disagree are listed in
/// `PY14_OVERRIDES` and lower-cased as Python 3.11 does.
///
/// `str::to_lowercase` maps each character on its own except `Σ` (whose
/// lower case depends on its neighbours), so without a `Σ` this does the
/// same per character, skipping the table lookup for the CJK, kana and
/// Hangul blocks, which have no case.
#[must_use]
pub fn py_lower(s: &str) -> String {
    if s.is_ascii() {
        return s.to_ascii_lowercase();
    }
    if s.contains('Σ') {
        return lower_with_sigma(s);
    }
    // The characters lower-casing leaves alone are copied a run at a time.
    let mut out = String::with_capacity(s.len());
    let (bytes, mut i, mut run) = (s.as_bytes(), 0, 0);
    while i < bytes.len() {
        let b = bytes[i];
        if b.is_ascii() {
            if b.is_ascii_uppercase() {
                out.push_str(&s[run..i]);
                out.push(char::from(b.to_ascii_lowercase()));
                run = i + 1;
            }
            i += 1;
            continue;
        }
        let c = s[i..].chars().next().unwrap_or(' ');
        let len = c.len_utf8();
        if !(is_caseless_block(c) || py14_override(c).is_some()) {
            let mut lower = c.to_lowercase();
            if !(lower.len() == 1 && lower.next() == Some(c)) {
                out.push_str(&s[run..i]);
                out.extend(c.to_lowercase());
                run = i + len;
            }
        }
        i += len;
    }
    out.push_str(&s[run..]);
    out
}

/// How `CPython` 3.11 (Unicode 14.0) sees a character that Rust's tables
/// lower-case differently, or treat differently next to a `Σ`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Py14 {
    /// No case mapping, neither cased nor case-ignorable (mostly code points
    /// unassigned in 14.0).
    Uncased,
    /// Cased, lower-cases to itself.
    Cased,
    /// Case-ignorable, uncased, lower-cases to itself.
    Ignorable,
}

impl Py14 {
    /// A character Rust's tables classify the same way, that lower-cases to
    /// itself, and that no other character lower-cases to.
    const fn stand_in(self) -> char {
        match self {
            Self::Uncased => '0',
            Self::Cased => '\u{AA}',
            Self::Ignorable => '\'',
        }
    }
}

/// The code points on which `str.lower()` of `CPython` 3.11 and Rust's
/// `str::to_lowercase` (Unicode 17.0, rustc 1.95) disagree: alone, or as the
/// neighbour of a `Σ` (`Final_Sigma` looks at the cased and case-ignorable
/// characters around it). Inclusive ranges, sorted. Derived by lower-casing
/// every code point, alone and in five contexts around `Σ`, in both; the test
/// `unicode_tables_are_the_derived_ones` fails when the toolchain's Unicode
/// version changes, so that this is derived again.
const PY14_OVERRIDES: [(u32, u32, Py14); 52] = [
    (0x0295, 0x0295, Py14::Cased),
    (0x0897, 0x0897, Py14::Uncased),
    (0x0ECE, 0x0ECE, Py14::Uncased),
    (0x1ACF, 0x1ADD, Py14::Uncased),
    (0x1AE0, 0x1AEB, Py14::Uncased),
    (0x1C89, 0x1C8A, Py14::Uncased),
    (0xA7CB, 0xA7CF, Py14::Uncased),
    (0xA7D2, 0xA7D2, Py14::Uncased),
    (0xA7D4, 0xA7D4, Py14::Uncased),
    (0xA7DA, 0xA7DC, Py14::Uncased),
    (0xA7F1, 0xA7F1, Py14::Uncased),
    (0x10D4E, 0x10D4E, Py14::Uncased),
    (0x10D50, 0x10D65, Py14::Uncased),
    (0x10D69, 0x10D6D, Py14::Uncased),
    (0x10D6F, 0x10D85, Py14::Uncased),
    (0x10EC5, 0x10EC5, Py14::Uncased),
    (0x10EFA, 0x10EFF, Py14::Uncased),
    (0x11241, 0x11241, Py14::Uncased),
    (0x113BB, 0x113C0, Py14::Uncased),
    (0x113CE, 0x113CE, Py14::Uncased),
    (0x113D0, 0x113D0, Py14::Uncased),
    (0x113D2, 0x113D2, Py14::Uncased),
    (0x113E1, 0x113E2, Py14::Uncased),
    (0x1171E, 0x1171E, Py14::Ignorable),
    (0x11B60, 0x11B60, Py14::Uncased),
    (0x11B62, 0x11B64, Py14::Uncased),
    (0x11B66, 0x11B66, Py14::Uncased),
    (0x11DD9, 0x11DD9, Py14::Uncased),
    (0x11F00, 0x11F01, Py14::Uncased),
    (0x11F36, 0x11F3A, Py14::Uncased),
    (0x11F40, 0x11F40, Py14::Uncased),
    (0x11F42, 0x11F42, Py14::Uncased),
    (0x11F5A, 0x11F5A, Py14::Uncased),
    (0x13439, 0x13440, Py14::Uncased),
    (0x13447, 0x13455, Py14::Uncased),
    (0x1611E, 0x16129, Py14::Uncased),
    (0x1612D, 0x1612F, Py14::Uncased),
    (0x16D40, 0x16D42, Py14::Uncased),
    (0x16D6B, 0x16D6C, Py14::Uncased),
    (0x16EA0, 0x16EB8, Py14::Uncased),
    (0x16EBB, 0x16ED3, Py14::Uncased),
    (0x16FF2, 0x16FF3, Py14::Uncased),
    (0x1DF25, 0x1DF2A, Py14::Uncased),
    (0x1E030, 0x1E06D, Py14::Uncased),
    (0x1E08F, 0x1E08F, Py14::Uncased),
    (0x1E4EB, 0x1E4EF, Py14::Uncased),
    (0x1E5EE, 0x1E5EF, Py14::Uncased),
    (0x1E6E3, 0x1E6E3, Py14::Uncased),
    (0x1E6E6, 0x1E6E6, Py14::Uncased),
    (0x1E6EE, 0x1E6EF, Py14::Uncased),
    (0x1E6F5, 0x1E6F5, Py14::Uncased),
    (0x1E6FF, 0x1E6FF, Py14::Uncased),
];

/// The span of [`PY14_OVERRIDES`]: a quick rejection for everything outside.
const PY14_SPAN: std::ops::RangeInclusive<u32> = PY14_OVERRIDES[0].0..=PY14_OVERRIDES[PY14_OVERRIDES.len() - 1].1;

fn py14_override(c: char) -> Option<Py14> {
    let cp = u32::from(c);
    if !PY14_SPAN.contains(&cp) {
        return None;
    }
    let i = PY14_OVERRIDES.partition_point(|&(_, hi, _)| hi < cp);
    PY14_OVERRIDES.get(i).filter(|&&(lo, _, _)| lo <= cp).map(|&(_, _, k)| k)
}

/// `str.lower()` of a string with a `Σ`. Rust's `Final_Sigma` rule is Python's;
/// only the classification of the [`PY14_OVERRIDES`] characters differs. Each
/// of them is replaced by a stand-in that Rust's tables classify as Python's
/// do, the string is lower-cased, and the originals are put back in order (a
/// stand-in lower-cases only to itself and is the lower case of nothing else,
/// so the stand-ins of the output are those of the input, in order).
fn lower_with_sigma(s: &str) -> String {
    let is_stand_in = |c: char| [Py14::Uncased, Py14::Cased, Py14::Ignorable].map(Py14::stand_in).contains(&c);
    if !s.chars().any(|c| py14_override(c).is_some()) {
        return s.to_lowercase();
    }
    let mut originals = Vec::new();
    let masked: String = s
        .chars()
        .map(|c| {
            if let Some(kind) = py14_override(c) {
                originals.push(c);
                kind.stand_in()
            } else {
                if is_stand_in(c) {
                    originals.push(c);
                }
                c
            }
        })
        .collect();
    let mut originals = originals.into_iter();
    masked.to_lowercase().chars().map(|c| if is_stand_in(c) { originals.next().unwrap_or(c) } else { c }).collect()
}

/// Lower-case letters whose upper case is new after Unicode 14.0 (their
/// capitals were added later): `CPython` 3.11 leaves them as they are.
/// Found by comparing `str.upper()` with this function on every code point
/// (`python/tests/test_jiwer_transforms.py` does at every run).
const UPPER_NEW_AFTER_PY14: [char; 4] = ['\u{019B}', '\u{0264}', '\u{A7D3}', '\u{A7D5}'];

/// Python `s.upper()`: full Unicode upper-casing (`ß` → `SS`), as `CPython`
/// 3.11's Unicode 14.0 tables give it: the characters of [`PY14_OVERRIDES`]
/// (assigned or cased only in newer tables) and [`UPPER_NEW_AFTER_PY14`]
/// stay as they are.
#[must_use]
pub fn py_upper(s: &str) -> String {
    if s.is_ascii() {
        return s.to_ascii_uppercase();
    }
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if c.is_ascii() {
            out.push(c.to_ascii_uppercase());
        } else if is_caseless_block(c) || py14_override(c).is_some() || UPPER_NEW_AFTER_PY14.contains(&c) {
            out.push(c);
        } else {
            out.extend(c.to_uppercase());
        }
    }
    out
}

/// Whether `c` lies in one of `table`'s sorted, disjoint, inclusive
/// code-point ranges (the generated Unicode tables' form).
pub(crate) fn in_ranges(table: &[(u32, u32)], c: char) -> bool {
    let cp = u32::from(c);
    let i = table.partition_point(|&(_, hi)| hi < cp);
    table.get(i).is_some_and(|&(lo, _)| lo <= cp)
}

/// `unicodedata.category(c).startswith("P")` of `CPython` 3.11.
#[must_use]
pub fn is_py_punctuation(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_punctuation() && !matches!(c, '$' | '+' | '<' | '=' | '>' | '^' | '`' | '|' | '~');
    }
    in_ranges(super::unicode14::PUNCTUATION, c)
}

/// `c.isalnum() or c == "_"` of `CPython` 3.11: a character of `re`'s `\w`
/// for `str` patterns, which decides where `\b` holds.
#[must_use]
pub fn is_py_word(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_alphanumeric() || c == '_';
    }
    in_ranges(super::unicode14::WORD, c)
}

/// `c.isdecimal()` of `CPython` 3.11: `re`'s `\d` for `str` patterns, and the
/// digits `int()` and `Fraction()` read.
#[must_use]
pub fn is_py_decimal(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_digit();
    }
    in_ranges(super::unicode14::DECIMAL, c)
}

/// The value 0 to 9 of a decimal digit (`unicodedata.decimal(c)`), `None` for
/// any other character. Decimal digits come in whole runs of ten from 0
/// (the generator checks it), so the value is the offset in the run.
#[must_use]
pub fn py_decimal_value(c: char) -> Option<u8> {
    if c.is_ascii_digit() {
        return Some(c as u8 - b'0');
    }
    let table = super::unicode14::DECIMAL;
    let cp = u32::from(c);
    let i = table.partition_point(|&(_, hi)| hi < cp);
    let &(lo, _) = table.get(i).filter(|&&(lo, _)| lo <= cp)?;
    u8::try_from((cp - lo) % 10).ok()
}

/// A category M*, S* or P* character of `CPython` 3.11's `unicodedata`.
/// ASCII is decided directly, the rest of the Basic Multilingual Plane by a
/// bit table built once from the ranges (8 KiB), the other planes by the
/// ranges.
#[must_use]
#[inline]
pub fn is_py_mark_symbol_punct(c: char) -> bool {
    static BMP: std::sync::OnceLock<Vec<u64>> = std::sync::OnceLock::new();
    if c.is_ascii() {
        // Every ASCII punctuation character is P* or S*; no other ASCII character is M*, S* or P*.
        return c.is_ascii_punctuation();
    }
    let cp = u32::from(c);
    if cp > 0xFFFF {
        return in_ranges(super::unicode14::MARK_SYMBOL_PUNCT, c);
    }
    let bits = BMP.get_or_init(|| {
        let mut bits = vec![0u64; 0x10000 / 64];
        for &(lo, hi) in super::unicode14::MARK_SYMBOL_PUNCT {
            for cp in lo..=hi.min(0xFFFF) {
                bits[(cp / 64) as usize] |= 1 << (cp % 64);
            }
        }
        bits
    });
    bits[(cp / 64) as usize] >> (cp % 64) & 1 == 1
}

/// A category M* (mark) character of `CPython` 3.11's `unicodedata`.
#[must_use]
pub fn is_py_mark(c: char) -> bool {
    in_ranges(super::unicode14::MARK, c)
}

/// A category Mn (non-spacing mark) character of `CPython` 3.11's `unicodedata`.
#[must_use]
pub fn is_py_nonspacing_mark(c: char) -> bool {
    in_ranges(super::unicode14::NONSPACING_MARK, c)
}

/// The CJK symbols, kana, CJK ideographs and Hangul syllables: no character
/// here has a lower-case mapping (checked for every one in the tests).
const fn is_caseless_block(c: char) -> bool {
    matches!(c, '\u{3000}'..='\u{9FFF}' | '\u{AC00}'..='\u{D7AF}')
}

/// Python's `repr(float)`: the shortest round-trip digits, in positional
/// notation for decimal exponents −4..16 and scientific (`1e-05`, `1.5e+16`)
/// otherwise; `inf`, `-inf`, `nan`.
#[must_use]
pub fn py_float_repr(x: f64) -> String {
    if x.is_nan() {
        return "nan".to_owned();
    }
    if x.is_infinite() {
        return if x > 0.0 { "inf" } else { "-inf" }.to_owned();
    }
    // Rust's `{:e}` gives the shortest round-trip digits: "d.ddde-x".
    let sci = format!("{x:e}");
    let (mant, exp) = sci.split_once('e').unwrap_or((sci.as_str(), "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let (sign, mant) = mant.strip_prefix('-').map_or(("", mant), |m| ("-", m));
    let digits: String = mant.chars().filter(char::is_ascii_digit).collect();
    let n = i32::try_from(digits.len()).unwrap_or(i32::MAX);
    if (-4..16).contains(&exp) {
        if exp < 0 {
            let zeros = "0".repeat(usize::try_from(-exp - 1).unwrap_or(0));
            format!("{sign}0.{zeros}{digits}")
        } else if exp + 1 >= n {
            let zeros = "0".repeat(usize::try_from(exp + 1 - n).unwrap_or(0));
            format!("{sign}{digits}{zeros}.0")
        } else {
            let point = usize::try_from(exp + 1).unwrap_or(0);
            format!("{sign}{}.{}", &digits[..point], &digits[point..])
        }
    } else {
        let m = if digits.len() == 1 { digits } else { format!("{}.{}", &digits[..1], &digits[1..]) };
        let es = if exp < 0 { '-' } else { '+' };
        format!("{sign}{m}e{es}{:02}", exp.unsigned_abs())
    }
}

/// `re.sub(r'([A])', r' \1 ', s)` for a class `A` of single characters:
/// every character `pred` accepts gets a space on each side.
#[must_use]
pub fn pad_chars(s: &str, pred: impl Fn(char) -> bool) -> String {
    let mut out = String::with_capacity(s.len() + 16);
    for c in s.chars() {
        if pred(c) {
            out.push(' ');
            out.push(c);
            out.push(' ');
        } else {
            out.push(c);
        }
    }
    out
}

/// Whether `re`'s `\b` holds at byte `i` of `s`: a word character on one
/// side only (the ends of the string count as non-word).
fn is_boundary(s: &str, i: usize) -> bool {
    let before = s[..i].chars().next_back().is_some_and(is_py_word);
    let after = s[i..].chars().next().is_some_and(is_py_word);
    before != after
}

/// `re.sub(r"\b" + re.escape(key) + r"\b", value, s)` for a non-empty
/// `key` and a `value` without backslashes (the leftmost occurrences bounded
/// by `\b`, left to right, not overlapping), with the `\b` before `key` only
/// when `lead` (the one after it always); `None` when there is none.
pub fn substitute_bounded(s: &str, key: &str, value: &str, lead: bool) -> Option<String> {
    let mut out = String::new();
    let (mut last, mut from) = (0, 0);
    while let Some(k) = s[from..].find(key) {
        let at = from + k;
        let end = at + key.len();
        if (!lead || is_boundary(s, at)) && is_boundary(s, end) {
            out.push_str(&s[last..at]);
            out.push_str(value);
            last = end;
            from = end;
        } else {
            // The next start position: one character on.
            from = at + s[at..].chars().next().map_or(1, char::len_utf8);
        }
        if from > s.len() {
            break;
        }
    }
    if last == 0 && out.is_empty() {
        return None;
    }
    out.push_str(&s[last..]);
    Some(out)
}

#[cfg(test)]
#[allow(
    clippy::cast_possible_truncation,
    reason = "random lengths and indices are shifted or reduced far below the target types' range"
)]
mod tests {
    use super::*;

    #[test]
    fn split_is_str_split_on_python_whitespace() {
        // Every Python whitespace character, their UTF-8 neighbours (same
        // lead bytes), and ordinary ASCII, Latin-1, CJK and emoji.
        let alphabet: Vec<char> = (0u32..0x40)
            .chain([0x7F, 0x80, 0x84, 0x85, 0x86, 0x9F, 0xA0, 0xA1, 0xE9, 0x167F, 0x1680, 0x1681, 0x1FFF])
            .chain(0x2000..0x2070)
            .chain([0x2FFF, 0x3000, 0x3001, 0x4E00, 0xFEFF, 0x1F600])
            .filter_map(char::from_u32)
            .collect();
        let mut x = 3u64;
        for _ in 0..20_000 {
            x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            let len = (x >> 59) as usize;
            let s: String = (0..len)
                .map(|k| {
                    let r = x.rotate_left(7 * k as u32 + 3) >> 40;
                    // Half of the characters are plain letters, so words form.
                    if r.is_multiple_of(2) { 'a' } else { alphabet[(r / 2) as usize % alphabet.len()] }
                })
                .collect();
            let want: Vec<&str> = s.split(is_py_space).filter(|w| !w.is_empty()).collect();
            assert_eq!(py_split(&s).collect::<Vec<_>>(), want, "{s:?}");
        }
    }

    #[test]
    fn lower_is_str_to_lowercase() {
        for c in (0..=0x10FFFFu32).filter_map(char::from_u32) {
            if is_caseless_block(c) {
                assert_eq!(c.to_lowercase().collect::<String>(), c.to_string(), "U+{:04X}", c as u32);
            }
        }
        for s in ["ΟΔΟΣ Σ ΣΑ aΣ", "İstanbul ÀÉ Straße", "中文 ＡＢＣ テスト 한국어 Ⅻ Ⓐ", "", "ǅ ß ﬃ"]
        {
            assert_eq!(py_lower(s), s.to_lowercase(), "{s}");
        }
    }

    #[test]
    fn float_repr_is_pythons() {
        for (x, want) in [
            (0.0, "0.0"),
            (-0.0, "-0.0"),
            (1.0, "1.0"),
            (0.1, "0.1"),
            (0.3127282211789254, "0.3127282211789254"),
            (1e-5, "1e-05"),
            (0.0001, "0.0001"),
            (1.5e-7, "1.5e-07"),
            (123.456, "123.456"),
            (1e16, "1e+16"),
            (1234567890123456.0, "1234567890123456.0"),
            (f64::INFINITY, "inf"),
            (-2.5, "-2.5"),
        ] {
            assert_eq!(py_float_repr(x), want, "{x}");
        }
    }

    #[test]
    fn split_uses_python_whitespace() {
        let words: Vec<&str> = py_split("a\u{1f}b\u{a0}c\u{200b}d  e\t").collect();
        assert_eq!(words, vec!["a", "b", "c\u{200b}d", "e"]);
    }

    #[test]
    fn lower_handles_final_sigma_and_dotted_i() {
        assert_eq!(py_lower("ΟΔΟΣ ΣΟΦΟΣ"), "οδος σοφος");
        assert_eq!(py_lower("İ"), "i\u{307}");
    }

    #[test]
    fn lower_follows_python_3_11_where_unicode_changed() {
        // Expected values are CPython 3.11.7's `str.lower()`.
        for (s, want) in [
            ("\u{A7CB}\u{264} \u{10D50}x", "\u{A7CB}\u{264} \u{10D50}x"),
            ("\u{A7CB}Σ", "\u{A7CB}σ"),
            ("Α\u{1171E}Σ", "α\u{1171E}ς"),
            ("ΑΣ\u{1AD0}Β", "ας\u{1AD0}β"),
            ("\u{295}Σ", "\u{295}ς"),
            ("Σ0Σ'ªΣ ΑΣ", "σ0σ'ªς ας"),
            ("ΑΣ\u{A7CB}'0ª\u{295}Σ", "ας\u{A7CB}'0ª\u{295}ς"),
            ("ΑΣ\u{1171E}", "ας\u{1171E}"),
        ] {
            assert_eq!(py_lower(s), want, "{s:?}");
        }
    }

    #[test]
    fn unicode_tables_are_the_derived_ones() {
        // PY14_OVERRIDES (and terms::pyre's NEWER_THAN_UNICODE_14, the same
        // question for sre's one-character case mappings) were derived
        // against these tables: a toolchain with another Unicode version
        // needs both derived again.
        assert_eq!(char::UNICODE_VERSION, (17, 0, 0));
        assert!(PY14_OVERRIDES.windows(2).all(|w| w[0].1 < w[1].0));
        assert!(PY14_OVERRIDES.iter().all(|&(lo, hi, _)| lo <= hi && (0x0295..=0x1E6FF).contains(&lo)));
        // The stand-ins lower-case to themselves and are no other
        // character's lower case.
        for kind in [Py14::Uncased, Py14::Cased, Py14::Ignorable] {
            let c = kind.stand_in();
            assert_eq!(c.to_lowercase().collect::<String>(), c.to_string());
            for d in (0..=0x10FFFFu32).filter_map(char::from_u32).filter(|&d| d != c) {
                assert!(!d.to_lowercase().any(|x| x == c), "U+{:04X}", d as u32);
            }
        }
    }

    #[test]
    fn rstrip_and_strip() {
        assert_eq!(py_rstrip(" a b\r\n\u{1c}"), " a b");
        assert_eq!(py_strip("\u{3000}a\u{85}"), "a");
    }
}
