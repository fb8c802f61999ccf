//! Whisper's `EnglishNumberNormalizer` (whisper-normalizer 0.1.15 on
//! `CPython` 3.11): spoken numbers to digits, with currencies, percentages,
//! ordinals and plurals kept as suffixes.
//!
//! It runs in three steps, each reproduced here with Python's semantics
//! (`\d` is any Unicode decimal digit, `\s` Python's whitespace, `\b` the edge
//! of a run of `isalnum() or "_"` characters; substitutions scan left to
//! right and never overlap):
//!
//! 1. `preprocess`: "<n> and a half" becomes "<n> point five" (when the word
//!    before is a number word), a space goes between letters and digits,
//!    and a space between a digit and `st`/`nd`/`rd`/`th`/`s` is removed.
//! 2. `process_words`: a left-to-right state machine over the words, which
//!    keeps the number being read either as an integer or as a string of
//!    digits (Python's `int` or `str`; the two behave differently, e.g.
//!    "twenty five" adds but "one five" concatenates). Integers are
//!    unbounded in Python, so they are kept as decimal strings here.
//! 3. `postprocess`: cents folded into their currency ("$2 and ¢7" →
//!    "$2.07"), "$0.07" → "¢7", and a lone "1"/"1s" written "one"/"ones".

use std::borrow::Cow;

use crate::py::text::{is_py_decimal, is_py_space, is_py_word, py_decimal_value, py_split};

/// The word lists, built as the Python class builds them (so that its
/// spellings come out the same: "nineth", not "ninth").
struct Words {
    ones: Vec<(String, u32)>,
    ones_suffixed: Vec<(String, u32, &'static str)>,
    tens_suffixed: Vec<(String, u32, &'static str)>,
    multipliers_suffixed: Vec<(String, u32, &'static str)>,
}

const ONES: [&str; 19] = [
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
];
const TENS: [(&str, u32); 8] = [
    ("twenty", 20),
    ("thirty", 30),
    ("forty", 40),
    ("fifty", 50),
    ("sixty", 60),
    ("seventy", 70),
    ("eighty", 80),
    ("ninety", 90),
];
/// The multipliers as powers of ten: hundred is 10², thousand 10³ ...
const MULTIPLIERS: [(&str, u32); 12] = [
    ("hundred", 2),
    ("thousand", 3),
    ("million", 6),
    ("billion", 9),
    ("trillion", 12),
    ("quadrillion", 15),
    ("quintillion", 18),
    ("sextillion", 21),
    ("septillion", 24),
    ("octillion", 27),
    ("nonillion", 30),
    ("decillion", 33),
];
const ZEROS: [&str; 3] = ["o", "oh", "zero"];

fn tables() -> &'static Words {
    static W: std::sync::OnceLock<Words> = std::sync::OnceLock::new();
    W.get_or_init(|| {
        let ones: Vec<(String, u32)> = ONES.iter().zip(1..).map(|(n, v)| ((*n).to_string(), v)).collect();
        let mut ones_suffixed: Vec<(String, u32, &str)> = ones
            .iter()
            .map(|(n, v)| (if n == "six" { "sixes".to_string() } else { format!("{n}s") }, *v, "s"))
            .collect();
        for (n, v, suffix) in [
            ("zeroth", 0, "th"),
            ("first", 1, "st"),
            ("second", 2, "nd"),
            ("third", 3, "rd"),
            ("fifth", 5, "th"),
            ("twelfth", 12, "th"),
        ] {
            ones_suffixed.push((n.to_string(), v, suffix));
        }
        for (n, v) in &ones {
            if *v > 3 && *v != 5 && *v != 12 {
                ones_suffixed.push((format!("{n}{}", if n.ends_with('t') { "h" } else { "th" }), *v, "th"));
            }
        }
        let mut tens_suffixed: Vec<(String, u32, &str)> =
            TENS.iter().map(|(n, v)| (n.replace('y', "ies"), *v, "s")).collect();
        tens_suffixed.extend(TENS.iter().map(|(n, v)| (n.replace('y', "ieth"), *v, "th")));
        let mut multipliers_suffixed: Vec<(String, u32, &str)> =
            MULTIPLIERS.iter().map(|(n, k)| (format!("{n}s"), *k, "s")).collect();
        multipliers_suffixed.extend(MULTIPLIERS.iter().map(|(n, k)| (format!("{n}th"), *k, "th")));
        Words { ones, ones_suffixed, tens_suffixed, multipliers_suffixed }
    })
}

fn ones_of(w: &str) -> Option<u32> {
    tables().ones.iter().find(|(n, _)| n == w).map(|&(_, v)| v)
}
fn tens_of(w: &str) -> Option<u32> {
    TENS.iter().find(|(n, _)| *n == w).map(|&(_, v)| v)
}
fn multiplier_of(w: &str) -> Option<u32> {
    MULTIPLIERS.iter().find(|(n, _)| *n == w).map(|&(_, k)| k)
}
fn suffixed(table: &[(String, u32, &'static str)], w: &str) -> Option<(u32, &'static str)> {
    table.iter().find(|(n, _, _)| n == w).map(|&(_, v, s)| (v, s))
}
fn is_zero_word(w: &str) -> bool {
    ZEROS.contains(&w)
}
fn preceding_prefix(w: &str) -> Option<&'static str> {
    match w {
        "minus" | "negative" => Some("-"),
        "plus" | "positive" => Some("+"),
        _ => None,
    }
}
fn following_prefix(w: &str) -> Option<&'static str> {
    match w {
        "pound" | "pounds" => Some("£"),
        "euro" | "euros" => Some("€"),
        "dollar" | "dollars" => Some("$"),
        "cent" | "cents" => Some("¢"),
        _ => None,
    }
}
const fn is_prefix_char(c: char) -> bool {
    matches!(c, '-' | '+' | '£' | '€' | '$' | '¢')
}
fn is_special(w: &str) -> bool {
    matches!(w, "and" | "double" | "triple" | "point")
}
fn is_suffixer(w: &str) -> bool {
    matches!(w, "per" | "percent")
}
/// `self.decimals`: the ones, the tens and the zeros.
fn is_decimal_word(w: &str) -> bool {
    ones_of(w).is_some() || tens_of(w).is_some() || is_zero_word(w)
}
/// `self.words`: every word the state machine handles.
fn is_number_word(w: &str) -> bool {
    let t = tables();
    is_decimal_word(w)
        || suffixed(&t.ones_suffixed, w).is_some()
        || suffixed(&t.tens_suffixed, w).is_some()
        || multiplier_of(w).is_some()
        || suffixed(&t.multipliers_suffixed, w).is_some()
        || preceding_prefix(w).is_some()
        || following_prefix(w).is_some()
        || is_suffixer(w)
        || is_special(w)
}

/// `re.match(r"^\d+(\.\d+)?$", w)` (a word from `split()` has no newline).
fn is_arabic(w: &str) -> bool {
    let (int, frac) = match w.split_once('.') {
        Some((i, f)) => (i, Some(f)),
        None => (w, None),
    };
    let digits = |s: &str| !s.is_empty() && s.chars().all(is_py_decimal);
    digits(int) && frac.is_none_or(digits)
}

/// Decimal digits (any script) as ASCII, without leading zeros (`"0"` for
/// none): `str(int(s))`.
fn canonical(digits: impl Iterator<Item = char>) -> String {
    let s: String =
        digits.map(|c| char::from(b'0' + py_decimal_value(c).unwrap_or(0))).skip_while(|&c| c == '0').collect();
    if s.is_empty() { "0".into() } else { s }
}

/// `a + b` of two canonical decimal strings.
fn add(a: &str, b: &str) -> String {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let mut out = Vec::with_capacity(a.len().max(b.len()) + 1);
    let (mut i, mut j, mut carry) = (a.len(), b.len(), 0u8);
    while i > 0 || j > 0 || carry > 0 {
        let mut d = carry;
        if i > 0 {
            i -= 1;
            d += a[i] - b'0';
        }
        if j > 0 {
            j -= 1;
            d += b[j] - b'0';
        }
        out.push(b'0' + d % 10);
        carry = d / 10;
    }
    out.reverse();
    canonical(out.into_iter().map(char::from))
}

/// `v % 10^k` of a canonical decimal string, k at most 3.
fn low(v: &str, k: usize) -> u32 {
    v[v.len().saturating_sub(k)..].parse().unwrap_or(0)
}

/// `10^k` times `n`.
fn times_pow10(n: u32, k: u32) -> String {
    if n == 0 { "0".into() } else { format!("{n}{}", "0".repeat(k as usize)) }
}

/// `value // 1000 * 1000 + value % 1000 * 10^k`.
fn multiply_last_group(v: &str, k: u32) -> String {
    let before = if v.len() > 3 { format!("{}000", &v[..v.len() - 3]) } else { "0".into() };
    add(&before, &times_pow10(low(v, 3), k))
}

/// `Fraction(s) * 10^k` when `s` is a `Fraction` literal (here: digits with
/// at most one `.`, starting with a digit or `.digit`) and the product is
/// whole: its numerator.
fn fraction_times_pow10(s: &str, k: u32) -> Option<String> {
    let (int, frac) = match s.split_once('.') {
        Some((i, f)) => (i, f),
        None => (s, ""),
    };
    let all = |t: &str| t.chars().all(is_py_decimal);
    if !all(int) || !all(frac) || (int.is_empty() && frac.is_empty()) {
        return None;
    }
    let d = frac.chars().count();
    let k = k as usize;
    // (int·10^d + frac)·10^k / 10^d is whole when the last d - k digits of frac are zeros.
    if d > k && !frac.chars().rev().take(d - k).all(|c| py_decimal_value(c) == Some(0)) {
        return None;
    }
    let digits: Vec<char> = int.chars().chain(frac.chars()).chain(std::iter::repeat_n('0', k)).collect();
    Some(canonical(digits[..digits.len() - d].iter().copied()))
}

/// The number being read: Python's `int` (kept as a canonical decimal
/// string) or `str`.
#[derive(Debug, Clone)]
enum Value {
    Int(String),
    Str(String),
}

impl Value {
    fn int(n: u32) -> Self {
        Self::Int(n.to_string())
    }
    /// `str(value)`.
    fn text(&self) -> &str {
        match self {
            Self::Int(s) | Self::Str(s) => s,
        }
    }
    /// `str(value or "")`: an integer 0 is false.
    fn or_empty(v: Option<&Self>) -> &str {
        match v {
            Some(Self::Int(s)) if s == "0" => "",
            Some(v) => v.text(),
            None => "",
        }
    }
}

/// The ones digit (1 to 19) read after `v`: `prev` in the ones concatenates
/// ("one five" → "15"), after "twenty" a string's trailing 0 is replaced, an
/// integer ending in 0 (00 for 11 to 19) adds, anything else concatenates.
fn add_ones(v: Value, ones: u32, prev: Option<&str>) -> Value {
    match v {
        Value::Int(v) if prev.is_none_or(|p| ones_of(p).is_none()) => {
            let (k, unit) = if ones < 10 { (1, 10) } else { (2, 100) };
            if low(&v, k).is_multiple_of(unit) {
                Value::Int(add(&v, &ones.to_string()))
            } else {
                Value::Str(format!("{v}{ones}"))
            }
        }
        v => {
            let mut s = v.text().to_string();
            if prev.is_some_and(|p| tens_of(p).is_some()) && ones < 10 {
                s.pop();
            }
            Value::Str(format!("{s}{ones}"))
        }
    }
}

/// `EnglishNumberNormalizer.process_words`.
struct Machine {
    prefix: Option<String>,
    value: Option<Value>,
    out: Vec<String>,
}

impl Machine {
    /// `output(result)`: the prefix goes in front, and both are reset.
    fn output(&mut self, result: &str) {
        let r = match self.prefix.take() {
            Some(p) => p + result,
            None => result.to_string(),
        };
        self.value = None;
        self.out.push(r);
    }
    /// `output(value)` of the value being read.
    fn flush(&mut self) {
        if let Some(v) = self.value.take() {
            self.output(v.text());
        }
    }
}

#[allow(clippy::too_many_lines)]
fn process_words(words: &[&str]) -> Vec<String> {
    let t = tables();
    let mut m = Machine { prefix: None, value: None, out: Vec::with_capacity(words.len()) };
    let mut skip = false;
    for (i, &current) in words.iter().enumerate() {
        if skip {
            skip = false;
            continue;
        }
        let prev = if i > 0 { Some(words[i - 1]) } else { None };
        let next = words.get(i + 1).copied();
        let prev_is = |f: fn(&str) -> bool| prev.is_some_and(f);
        let next_is_numeric = next.is_some_and(is_arabic);
        let first = current.chars().next().unwrap_or(' ');
        let has_prefix = is_prefix_char(first);
        let without_prefix = if has_prefix { &current[first.len_utf8()..] } else { current };
        if is_arabic(without_prefix) {
            if let Some(v) = &m.value {
                if let Value::Str(s) = v
                    && s.ends_with('.')
                {
                    // Decimals and IP-address parts: concatenated, prefix included.
                    m.value = Some(Value::Str(format!("{s}{current}")));
                    continue;
                }
                m.flush();
            }
            if has_prefix {
                m.prefix = Some(first.to_string());
            }
            let (int, frac) = without_prefix.split_once('.').unwrap_or((without_prefix, ""));
            m.value = Some(if frac.chars().all(|c| py_decimal_value(c) == Some(0)) {
                Value::Int(canonical(int.chars()))
            } else {
                Value::Str(without_prefix.to_string())
            });
        } else if !is_number_word(current) {
            m.flush();
            m.output(current);
        } else if is_zero_word(current) {
            m.value = Some(Value::Str(format!("{}0", Value::or_empty(m.value.as_ref()))));
        } else if let Some(ones) = ones_of(current) {
            let text = m.value.take().map(|v| add_ones(v, ones, prev));
            m.value = Some(text.unwrap_or_else(|| Value::int(ones)));
        } else if let Some((ones, suffix)) = suffixed(&t.ones_suffixed, current) {
            let text = match m.value.take() {
                None => format!("{ones}{suffix}"),
                Some(v) => format!("{}{suffix}", add_ones(v, ones, prev).text()),
            };
            m.output(&text);
        } else if let Some(tens) = tens_of(current) {
            m.value = Some(match m.value.take() {
                None => Value::int(tens),
                Some(Value::Str(s)) => Value::Str(format!("{s}{tens}")),
                Some(Value::Int(v)) => {
                    if low(&v, 2) == 0 {
                        Value::Int(add(&v, &tens.to_string()))
                    } else {
                        Value::Str(format!("{v}{tens}"))
                    }
                }
            });
        } else if let Some((tens, suffix)) = suffixed(&t.tens_suffixed, current) {
            let text = match m.value.take() {
                None => format!("{tens}{suffix}"),
                Some(Value::Str(s)) => format!("{s}{tens}{suffix}"),
                Some(Value::Int(v)) => {
                    if low(&v, 2) == 0 {
                        format!("{}{suffix}", add(&v, &tens.to_string()))
                    } else {
                        format!("{v}{tens}{suffix}")
                    }
                }
            };
            m.output(&text);
        } else if let Some(k) = multiplier_of(current) {
            m.value = Some(match m.value.take() {
                None => Value::Int(times_pow10(1, k)),
                Some(Value::Int(v)) if v != "0" => Value::Int(multiply_last_group(&v, k)),
                Some(v) => {
                    if let Some(p) = fraction_times_pow10(v.text(), k) {
                        Value::Int(p)
                    } else {
                        m.output(v.text());
                        Value::Int(times_pow10(1, k))
                    }
                }
            });
        } else if let Some((k, suffix)) = suffixed(&t.multipliers_suffixed, current) {
            match m.value.take() {
                None => m.output(&format!("{}{suffix}", times_pow10(1, k))),
                Some(Value::Str(s)) => {
                    if let Some(p) = fraction_times_pow10(&s, k) {
                        m.output(&format!("{p}{suffix}"));
                    } else {
                        m.output(&s);
                        m.output(&format!("{}{suffix}", times_pow10(1, k)));
                    }
                }
                Some(Value::Int(v)) => m.output(&format!("{}{suffix}", multiply_last_group(&v, k))),
            }
            m.value = None;
        } else if let Some(p) = preceding_prefix(current) {
            m.flush();
            if next.is_some_and(is_number_word) || next_is_numeric {
                m.prefix = Some(p.to_string());
            } else {
                m.output(current);
            }
        } else if let Some(p) = following_prefix(current) {
            if m.value.is_some() {
                m.prefix = Some(p.to_string());
                m.flush();
            } else {
                m.output(current);
            }
        } else if is_suffixer(current) {
            if m.value.is_some() {
                if current == "per" {
                    if next == Some("cent") {
                        let v = m.value.take().map(|v| v.text().to_string()).unwrap_or_default();
                        m.output(&format!("{v}%"));
                        skip = true;
                    } else {
                        m.flush();
                        m.output(current);
                    }
                } else {
                    let v = m.value.take().map(|v| v.text().to_string()).unwrap_or_default();
                    m.output(&format!("{v}%"));
                }
            } else {
                m.output(current);
            }
        } else {
            // The specials: and, double, triple, point.
            if !next.is_some_and(is_number_word) && !next_is_numeric {
                m.flush();
                m.output(current);
            } else if current == "and" {
                // "and" after hundred, thousand ... is dropped.
                if !prev_is(|p| multiplier_of(p).is_some()) {
                    m.flush();
                    m.output(current);
                }
            } else if current == "double" || current == "triple" {
                let next = next.unwrap_or("");
                if ones_of(next).is_some() || is_zero_word(next) {
                    let repeats = if current == "double" { 2 } else { 3 };
                    let digit = ones_of(next).unwrap_or(0).to_string();
                    m.value =
                        Some(Value::Str(format!("{}{}", Value::or_empty(m.value.as_ref()), digit.repeat(repeats))));
                    skip = true;
                } else {
                    m.flush();
                    m.output(current);
                }
            } else if next.is_some_and(is_decimal_word) || next_is_numeric {
                // "point" before a number word or digits; before any other number word it is dropped.
                m.value = Some(Value::Str(format!("{}.", Value::or_empty(m.value.as_ref()))));
            }
        }
    }
    m.flush();
    m.out
}

/// Byte offsets of the matches of `\band\s+a\s+half\b`, left to right.
fn and_a_half_matches(s: &str) -> Vec<(usize, usize)> {
    let mut found = Vec::new();
    let mut from = 0;
    while let Some(k) = s[from..].find("and") {
        let start = from + k;
        from = start + 1;
        if s[..start].chars().next_back().is_some_and(is_py_word) {
            continue;
        }
        let mut rest = &s[start + 3..];
        let mut ok = true;
        for word in ["a", "half"] {
            let trimmed = rest.trim_start_matches(is_py_space);
            if trimmed.len() == rest.len() || !trimmed.starts_with(word) {
                ok = false;
                break;
            }
            rest = &trimmed[word.len()..];
        }
        if ok && !rest.chars().next().is_some_and(is_py_word) {
            let end = s.len() - rest.len();
            found.push((start, end));
            from = end;
        }
    }
    found
}

/// `EnglishNumberNormalizer.preprocess`.
fn preprocess(s: &str) -> String {
    let matches = and_a_half_matches(s);
    let s: Cow<'_, str> = if matches.is_empty() {
        Cow::Borrowed(s)
    } else {
        let mut segments = Vec::with_capacity(matches.len() + 1);
        let mut last = 0;
        for &(a, b) in &matches {
            segments.push(&s[last..a]);
            last = b;
        }
        segments.push(&s[last..]);
        let mut results: Vec<&str> = Vec::new();
        let n = segments.len();
        for (i, seg) in segments.into_iter().enumerate() {
            if seg.trim_matches(is_py_space).is_empty() {
                continue;
            }
            results.push(seg);
            if i + 1 < n {
                let last_word = py_split(seg).last().unwrap_or("");
                results.push(if is_decimal_word(last_word) || multiplier_of(last_word).is_some() {
                    "point five"
                } else {
                    "and a half"
                });
            }
        }
        Cow::Owned(results.join(" "))
    };
    let s = space_between(&s, |a| a.is_ascii_lowercase(), |b| b.is_ascii_digit());
    let s = space_between(&s, |a| a.is_ascii_digit(), |b| b.is_ascii_lowercase());
    join_ordinal_suffixes(&s.chars().collect::<Vec<char>>())
}

/// `re.sub(r"(A)(B)", r"\1 \2", s)` for single-character classes A and B.
fn space_between(s: &str, a: impl Fn(char) -> bool, b: impl Fn(char) -> bool) -> String {
    super::substitute_windows(
        s,
        2,
        |w| w.len() == 2 && a(w[0]) && b(w[1]),
        |out, w| {
            out.extend([w[0], ' ', w[1]]);
        },
    )
}

/// The end of the run of `\w` characters starting at `i`.
fn word_end(c: &[char], i: usize) -> usize {
    c[i..].iter().position(|&x| !is_py_word(x)).map_or(c.len(), |k| i + k)
}

/// `re.sub(r"([0-9])\s+(st|nd|rd|th|s)\b", r"\1\2", s)`.
fn join_ordinal_suffixes(c: &[char]) -> String {
    let mut out = String::with_capacity(c.len());
    let mut i = 0;
    while i < c.len() {
        if c[i].is_ascii_digit() {
            let ws = c[i + 1..].iter().take_while(|&&x| is_py_space(x)).count();
            if ws > 0 {
                let j = i + 1 + ws;
                let end = word_end(c, j);
                let suffix: String = c[j..end].iter().collect();
                if matches!(suffix.as_str(), "st" | "nd" | "rd" | "th" | "s") {
                    out.push(c[i]);
                    out.push_str(&suffix);
                    i = end;
                    continue;
                }
            }
        }
        out.push(c[i]);
        i += 1;
    }
    out
}

/// The length (1 or 2) of the ASCII digits at `c[i..]` when a `[0-9]{1,2}\b`
/// matches there.
fn cents_at(c: &[char], i: usize) -> Option<usize> {
    let n = c[i.min(c.len())..].iter().take_while(|x| x.is_ascii_digit()).count();
    let after = c.get(i + n).copied();
    ((1..=2).contains(&n) && !after.is_some_and(is_py_word)).then_some(n)
}

fn digits_value(c: &[char]) -> u32 {
    c.iter().fold(0, |v, d| v * 10 + d.to_digit(10).unwrap_or(0))
}

/// `EnglishNumberNormalizer.postprocess`.
fn postprocess(s: &str) -> String {
    let c: Vec<char> = s.chars().collect();
    let is_currency = |x: char| matches!(x, '€' | '£' | '$');
    // ([€£$])([0-9]+) (?:and )?¢([0-9]{1,2})\b  →  {currency}{integer}.{cents:02d}
    let mut a = Vec::with_capacity(c.len());
    let mut i = 0;
    while i < c.len() {
        if is_currency(c[i]) {
            let n = c[i + 1..].iter().take_while(|x| x.is_ascii_digit()).count();
            let mut j = i + 1 + n;
            if n > 0 && c.get(j) == Some(&' ') {
                j += 1;
                if c[j..].starts_with(&['a', 'n', 'd', ' ', '¢']) {
                    j += 4;
                }
                if c.get(j) == Some(&'¢')
                    && let Some(k) = cents_at(&c, j + 1)
                {
                    a.extend_from_slice(&c[i..=i + n]);
                    a.push('.');
                    a.extend(format!("{:02}", digits_value(&c[j + 1..j + 1 + k])).chars());
                    i = j + 1 + k;
                    continue;
                }
            }
        }
        a.push(c[i]);
        i += 1;
    }
    // [€£$]0.([0-9]{1,2})\b  →  ¢{int(cents)}   (the "." is any character but a newline)
    let mut b = Vec::with_capacity(a.len());
    let mut i = 0;
    while i < a.len() {
        if is_currency(a[i])
            && a.get(i + 1) == Some(&'0')
            && a.get(i + 2).is_some_and(|&x| x != '\n')
            && let Some(k) = cents_at(&a, i + 3)
        {
            b.push('¢');
            b.extend(digits_value(&a[i + 3..i + 3 + k]).to_string().chars());
            i += 3 + k;
            continue;
        }
        b.push(a[i]);
        i += 1;
    }
    // \b1(s?)\b  →  one\1
    let mut out = String::with_capacity(b.len() + 8);
    let mut i = 0;
    while i < b.len() {
        if b[i] == '1' && (i == 0 || !is_py_word(b[i - 1])) {
            let plural = b.get(i + 1) == Some(&'s');
            let n = if plural && !b.get(i + 2).copied().is_some_and(is_py_word) {
                Some(2)
            } else if !b.get(i + 1).copied().is_some_and(is_py_word) {
                Some(1)
            } else {
                None
            };
            if let Some(n) = n {
                out.push_str(if n == 2 { "ones" } else { "one" });
                i += n;
                continue;
            }
        }
        out.push(b[i]);
        i += 1;
    }
    out
}

/// `EnglishNumberNormalizer()(s)`.
#[must_use]
pub fn normalize_numbers(s: &str) -> String {
    let s = preprocess(s);
    let words: Vec<&str> = py_split(&s).collect();
    postprocess(&process_words(&words).join(" "))
}

#[cfg(test)]
mod tests {
    use super::*;

    // Expected values: whisper-normalizer 0.1.15's EnglishNumberNormalizer on CPython 3.11.

    #[test]
    fn spoken_numbers_as_the_oracle() {
        let n = normalize_numbers;
        assert_eq!(n("twenty five"), "25");
        assert_eq!(n("one five"), "15");
        assert_eq!(n("one oh one"), "101");
        assert_eq!(n("two thousand and twenty"), "2020");
        assert_eq!(n("nineteen ninety nine"), "1999");
        assert_eq!(n("twenty dollars and five cents"), "$20.05");
        assert_eq!(n("ten thousand dollars"), "$10000");
        assert_eq!(n("fifty percent"), "50%");
        assert_eq!(n("five per cent"), "5%");
        assert_eq!(n("the twenty first"), "the 21st");
        assert_eq!(n("the ninth and the nineth"), "the ninth and the 9th");
        assert_eq!(n("double five"), "55");
        assert_eq!(n("two and a half million"), "2500000");
        assert_eq!(n("one"), "one");
        assert_eq!(n("the 1960s"), "the 1960s");
        assert_eq!(n("minus three point five"), "-3.5");
        assert_eq!(n("one decillion decillion"), "1000000000000000000000000000000000");
        assert_eq!(n("٣ apples"), "3 apples");
    }
}
