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

#[cfg(test)]
mod tests {
    use super::*;

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
    fn rstrip_and_strip() {
        assert_eq!(py_rstrip(" a b\r\n\u{1c}"), " a b");
        assert_eq!(py_strip("\u{3000}a\u{85}"), "a");
    }
}
