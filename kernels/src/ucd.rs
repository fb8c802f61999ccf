//! Generated Unicode tables, kept as data files in the notation of the
//! Unicode Character Database (`0300..036F ; Extend`) and read at compile time.
//!
//! The character classes and properties the tokenizers and normalisers match
//! (Python 3.11's `unicodedata`, the `regex` module's) are data, written by the
//! scripts in `scripts/` from the reference interpreters; this module turns each
//! file into a `const` slice while the crate compiles, so lookups cost what a
//! hand-written table costs. A line is one row:
//!
//! - `FIRST..LAST` or `FIRST` (hexadecimal code points): an inclusive range
//!   ([`ranges`]);
//! - `FIRST..LAST ; VALUE`: a range with a value, a decimal number or a name
//!   from a list, which gives its index + 1 ([`valued_ranges`]);
//! - `FIRST SECOND ; COMPOSITE`: a canonical composition ([`compositions`]).
//!
//! Spaces around the separators, blank lines and `#` comments are skipped.
//! Ranges must be sorted and disjoint, compositions sorted by their pair; a
//! file that breaks the notation or the order stops the build (a `const`
//! panic), so a table can never be read differently from what its file says.

/// The number of rows in `text` (the lines that are neither blank nor comments).
#[must_use]
pub(crate) const fn rows(text: &str) -> usize {
    let b = text.as_bytes();
    let (mut i, mut n) = (0, 0);
    while i < b.len() {
        let start = skip_spaces(b, i);
        if start < b.len() && b[start] != b'\n' && b[start] != b'#' {
            n += 1;
        }
        i = line_end(b, start) + 1;
    }
    n
}

/// The rows `FIRST..LAST` (or `FIRST`) of `text`: sorted, disjoint, inclusive ranges.
#[must_use]
pub(crate) const fn ranges<const N: usize>(text: &str) -> [(u32, u32); N] {
    let mut out = [(0, 0); N];
    let mut rows = Rows::new(text);
    let mut k = 0;
    while let Some(mut at) = rows.next() {
        let (first, last);
        (first, last, at) = range(rows.b, at);
        rows.done(at);
        assert!(k < N, "more rows than counted");
        assert!(k == 0 || out[k - 1].1 < first, "ranges must be sorted and disjoint");
        out[k] = (first, last);
        k += 1;
    }
    assert!(k == N, "fewer rows than counted");
    out
}

/// The rows `FIRST..LAST ; VALUE` of `text`: sorted, disjoint, inclusive ranges
/// with a value. With `names` empty the value is a decimal number (below 256);
/// otherwise it is one of `names`, read as its index + 1.
#[must_use]
pub(crate) const fn valued_ranges<const N: usize>(text: &str, names: &[&str]) -> [(u32, u32, u8); N] {
    let mut out = [(0, 0, 0); N];
    let mut rows = Rows::new(text);
    let mut k = 0;
    while let Some(mut at) = rows.next() {
        let (first, last, value);
        (first, last, at) = range(rows.b, at);
        at = expect(rows.b, at, b';');
        (value, at) = if names.is_empty() { decimal(rows.b, at) } else { name(rows.b, at, names) };
        rows.done(at);
        assert!(k < N, "more rows than counted");
        assert!(k == 0 || out[k - 1].1 < first, "ranges must be sorted and disjoint");
        out[k] = (first, last, value);
        k += 1;
    }
    assert!(k == N, "fewer rows than counted");
    out
}

/// The rows `FIRST SECOND ; COMPOSITE` of `text`, sorted by `(FIRST, SECOND)`.
#[must_use]
pub(crate) const fn compositions<const N: usize>(text: &str) -> [(u32, u32, u32); N] {
    let mut out = [(0, 0, 0); N];
    let mut rows = Rows::new(text);
    let mut k = 0;
    while let Some(mut at) = rows.next() {
        let (first, second, composite);
        (first, at) = hex(rows.b, at);
        (second, at) = hex(rows.b, skip_spaces(rows.b, at));
        at = expect(rows.b, at, b';');
        (composite, at) = hex(rows.b, at);
        rows.done(at);
        assert!(k < N, "more rows than counted");
        let (pf, ps, _) = if k == 0 { (0, 0, 0) } else { out[k - 1] };
        assert!(k == 0 || pf < first || (pf == first && ps < second), "compositions must be sorted");
        out[k] = (first, second, composite);
        k += 1;
    }
    assert!(k == N, "fewer rows than counted");
    out
}

/// Declares `const` tables read from data files beside the module, one a line:
///
/// ```ignore
/// ucd_tables! {
///     pub(crate) NAME: (u32, u32) = ranges("dir/name.txt");
///     pub(crate) VALUED: (u32, u32, u8) = valued_ranges("dir/valued.txt", &["Name", "Other"]);
///     pub(crate) PAIRS: (u32, u32, u32) = compositions("dir/pairs.txt");
/// }
/// ```
///
/// (`&[]` for decimal values). What each table holds is said in its file's
/// header and in the declaring module's documentation.
macro_rules! ucd_tables {
    ($($vis:vis $name:ident: $row:ty = $parse:ident($file:literal $(, $names:expr)?);)*) => {
        $(
            #[doc = concat!("The table in `", $file, "` (its header says what it holds).")]
            $vis const $name: &[$row] = {
                const TEXT: &str = include_str!($file);
                &$crate::ucd::$parse::<{ $crate::ucd::rows(TEXT) }>(TEXT $(, $names)?)
            };
        )*
    };
}
pub(crate) use ucd_tables;

/// The rows of a data file, one line at a time.
struct Rows<'a> {
    b: &'a [u8],
    i: usize,
}

impl<'a> Rows<'a> {
    const fn new(text: &'a str) -> Self {
        Self { b: text.as_bytes(), i: 0 }
    }

    /// Where the next row starts, skipping blank and comment lines.
    const fn next(&mut self) -> Option<usize> {
        while self.i < self.b.len() {
            let start = skip_spaces(self.b, self.i);
            if start < self.b.len() && self.b[start] != b'\n' && self.b[start] != b'#' {
                return Some(start);
            }
            self.i = line_end(self.b, start) + 1;
        }
        None
    }

    /// Ends the row read up to `at`: only spaces or a comment may follow.
    const fn done(&mut self, at: usize) {
        let at = skip_spaces(self.b, at);
        assert!(at >= self.b.len() || self.b[at] == b'\n' || self.b[at] == b'#', "unexpected text after a row");
        self.i = line_end(self.b, at) + 1;
    }
}

const fn skip_spaces(b: &[u8], mut i: usize) -> usize {
    while i < b.len() && (b[i] == b' ' || b[i] == b'\t' || b[i] == b'\r') {
        i += 1;
    }
    i
}

const fn line_end(b: &[u8], mut i: usize) -> usize {
    while i < b.len() && b[i] != b'\n' {
        i += 1;
    }
    i
}

/// `sep` after optional spaces, then the spaces after it.
const fn expect(b: &[u8], i: usize, sep: u8) -> usize {
    let i = skip_spaces(b, i);
    assert!(i < b.len() && b[i] == sep, "a separator is missing");
    skip_spaces(b, i + 1)
}

/// `FIRST..LAST` or `FIRST`, with `FIRST <= LAST`.
const fn range(b: &[u8], i: usize) -> (u32, u32, usize) {
    let (first, mut i) = hex(b, i);
    let mut last = first;
    if i + 1 < b.len() && b[i] == b'.' && b[i + 1] == b'.' {
        (last, i) = hex(b, i + 2);
    }
    assert!(first <= last, "a range ends before it starts");
    (first, last, i)
}

/// A code point in hexadecimal (at most six digits, at most U+10FFFF).
const fn hex(b: &[u8], mut i: usize) -> (u32, usize) {
    let start = i;
    let mut v: u32 = 0;
    while i < b.len() && i - start < 7 {
        let d = match b[i] {
            c @ b'0'..=b'9' => c - b'0',
            c @ b'A'..=b'F' => c - b'A' + 10,
            c @ b'a'..=b'f' => c - b'a' + 10,
            _ => break,
        };
        v = v * 16 + d as u32;
        i += 1;
    }
    assert!(i > start && i - start <= 6 && v <= 0x10_FFFF, "a code point is malformed");
    (v, i)
}

/// A decimal value below 256.
#[allow(clippy::cast_possible_truncation, reason = "the value is checked below 256 before the cast")]
const fn decimal(b: &[u8], mut i: usize) -> (u8, usize) {
    let start = i;
    let mut v: u32 = 0;
    while i < b.len() && b[i].is_ascii_digit() && v < 256 {
        v = v * 10 + (b[i] - b'0') as u32;
        i += 1;
    }
    assert!(i > start && v < 256, "a value is malformed");
    (v as u8, i)
}

/// One of `names` (a run of letters, digits and `_`), as its index + 1.
#[allow(clippy::cast_possible_truncation, reason = "the index is checked below 255 before the cast")]
const fn name(b: &[u8], mut i: usize, names: &[&str]) -> (u8, usize) {
    let start = i;
    while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
        i += 1;
    }
    let mut k = 0;
    while k < names.len() {
        let n = names[k].as_bytes();
        if n.len() == i - start {
            let mut j = 0;
            while j < n.len() && n[j] == b[start + j] {
                j += 1;
            }
            if j == n.len() {
                assert!(k < 255, "too many names");
                return ((k + 1) as u8, i);
            }
        }
        k += 1;
    }
    // Unreachable at run time, like every `assert!` of this module: the
    // parsers run only in the `const` initializers that `ucd_tables!` writes,
    // so a row that names no value stops the build instead.
    panic!("a value is not one of the names")
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "# a comment\n\n0041..005A ; 3\n  00DF ; 12 # trailing\n1E900..1E943;255\n";

    #[test]
    fn reads_rows_comments_and_blank_lines() {
        assert_eq!(rows(TEXT), 3);
        assert_eq!(valued_ranges::<3>(TEXT, &[]), [(0x41, 0x5A, 3), (0xDF, 0xDF, 12), (0x1E900, 0x1E943, 255)]);
        assert_eq!(ranges::<2>("0000..0009\n000b\n"), [(0, 9), (0xB, 0xB)]);
        assert_eq!(valued_ranges::<2>("0..1 ; L\n5 ; LVT\n", &["L", "V", "LVT"]), [(0, 1, 1), (5, 5, 3)]);
        assert_eq!(
            compositions::<2>("003C 0338 ; 226E\n0041 0300; 00C0"),
            [(0x3C, 0x338, 0x226E), (0x41, 0x300, 0xC0)]
        );
        assert_eq!(rows(""), 0);
        assert_eq!(ranges::<0>("# nothing\n"), []);
    }

    #[test]
    fn refuses_what_breaks_the_notation_or_the_order() {
        // At compile time each of these stops the build; at run time they panic.
        fn refused<T>(f: fn() -> T) {
            assert!(std::panic::catch_unwind(f).is_err());
        }
        refused(|| ranges::<2>("0005\n0003\n"));
        refused(|| ranges::<2>("0000..0005\n0005..0009\n"));
        refused(|| ranges::<1>("0009..0005\n"));
        refused(|| ranges::<1>("110000\n"));
        refused(|| ranges::<1>("00G1\n"));
        refused(|| ranges::<1>("0041 x\n"));
        refused(|| ranges::<2>("0041\n"));
        refused(|| ranges::<1>("0041\n0042\n"));
        refused(|| valued_ranges::<1>("0041 ; 256\n", &[]));
        refused(|| valued_ranges::<1>("0041 3\n", &[]));
        refused(|| valued_ranges::<1>("0041 ; Lx\n", &["L"]));
        refused(|| compositions::<2>("0041 0301 ; 00C1\n0041 0300 ; 00C0\n"));
    }
}
