//! Python-compatible string primitives.
//!
//! The reference implementations are Python, so "whitespace", "split" and
//! "lower" must mean what they mean in CPython 3.11 (metrics_spec.md §0.1):
//! `str.isspace()` includes U+001C–U+001F (Rust's `char::is_whitespace` does
//! not) and excludes U+200B; indices are code points.

/// `str.isspace()` of CPython 3.11 for one character.
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
pub fn py_split(s: &str) -> impl Iterator<Item = &str> {
    s.split(is_py_space).filter(|w| !w.is_empty())
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

/// Python `s.lower()`: full Unicode lower-casing, including Final_Sigma and
/// the expansion of U+0130 to `i` + U+0307. Rust's `str::to_lowercase`
/// implements the same SpecialCasing rules; only the Unicode version of the
/// tables can differ (Python 3.11 uses Unicode 14).
#[must_use]
pub fn py_lower(s: &str) -> String {
    if s.is_ascii() { s.to_ascii_lowercase() } else { s.to_lowercase() }
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn rstrip_and_strip() {
        assert_eq!(py_rstrip(" a b\r\n\u{1c}"), " a b");
        assert_eq!(py_strip("\u{3000}a\u{85}"), "a");
    }
}
