//! Input helpers shared by the fuzz targets: bounded UTF-8 text, field
//! splitting and word caps, so that no single input can take long.

/// The fuzz bytes as text (invalid UTF-8 replaced), at most `max_bytes`
/// bytes, cut at a character boundary.
#[must_use]
pub fn text(data: &[u8], max_bytes: usize) -> String {
    let s = String::from_utf8_lossy(data);
    truncate(&s, max_bytes).to_owned()
}

/// `s` cut to at most `max_bytes` bytes, at a character boundary.
#[must_use]
pub fn truncate(s: &str, max_bytes: usize) -> &str {
    if s.len() <= max_bytes {
        return s;
    }
    let mut end = max_bytes;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    &s[..end]
}

/// At most `max` fields of `s` split on `sep`, each cut to `max_bytes`.
#[must_use]
pub fn fields(s: &str, sep: char, max: usize, max_bytes: usize) -> Vec<&str> {
    s.split(sep).take(max).map(|f| truncate(f, max_bytes)).collect()
}

/// Python's `str.isspace()` (the kernels' notion of whitespace).
#[must_use]
pub fn is_py_space(c: char) -> bool {
    mteval_kernels::py::text::is_py_space(c)
}

/// The prefix of `s` holding at most `max_words` whitespace-separated words.
#[must_use]
pub fn cap_words(s: &str, max_words: usize) -> &str {
    let mut words = 0;
    let mut in_word = false;
    for (i, c) in s.char_indices() {
        let space = is_py_space(c);
        if !space && !in_word {
            if words == max_words {
                return &s[..i];
            }
            words += 1;
        }
        in_word = !space;
    }
    s
}


/// A finite, non-negative f64 is a score on `[0, hi]` (with `slack` for
/// rounding in the last digits).
#[must_use]
pub fn in_range(x: f64, hi: f64, slack: f64) -> bool {
    x.is_finite() && x >= 0.0 && x <= hi + slack
}
