//! Reproducibility signatures, `key:value|key:value|...` as sacrebleu prints
//! them. The same grammar is the options language of every metric, so a
//! printed signature can be pasted back as options (keys that only describe
//! the data or the versions, `nrefs`, `version`, `impl`, are accepted and ignored).

use std::fmt;

use crate::MetricError;

/// Version of this implementation, appended to every signature as `impl:mteval-X`.
pub const IMPL_VERSION: &str = env!("CARGO_PKG_VERSION");

/// How many references each segment had (sacrebleu prints `var` when it varies).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum NRefs {
    /// Every segment had this many references.
    Fixed(usize),
    /// The number varied between segments.
    #[default]
    Var,
}

impl NRefs {
    /// Combines the reference count of one more segment into a running value.
    #[must_use]
    pub fn observe(acc: Option<Self>, n: usize) -> Option<Self> {
        Some(match acc {
            None => Self::Fixed(n),
            Some(Self::Fixed(k)) if k == n => Self::Fixed(k),
            Some(_) => Self::Var,
        })
    }
}

impl fmt::Display for NRefs {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Fixed(k) => write!(f, "{k}"),
            Self::Var => f.write_str("var"),
        }
    }
}

/// An ordered list of signature entries.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Signature {
    /// `(key, value)` pairs in print order.
    pub entries: Vec<(String, String)>,
}

impl Signature {
    /// A signature that starts with `nrefs:N`, as every text metric's does.
    #[must_use]
    pub fn of_refs(nrefs: NRefs) -> Self {
        let mut s = Self::default();
        s.push("nrefs", nrefs);
        s
    }

    /// Ends a signature: `version:V` (what reference it reproduces), then
    /// `impl:mteval-VERSION`.
    #[must_use]
    pub fn stamped(mut self, version: impl fmt::Display) -> Self {
        self.push("version", version);
        self.push("impl", format_args!("mteval-{IMPL_VERSION}"));
        self
    }

    /// Appends one entry.
    pub fn push(&mut self, key: &str, value: impl fmt::Display) {
        self.entries.push((key.to_owned(), value.to_string()));
    }

    /// Value of `key`, if present.
    #[must_use]
    pub fn get(&self, key: &str) -> Option<&str> {
        self.entries.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
    }
}

impl fmt::Display for Signature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, (k, v)) in self.entries.iter().enumerate() {
            if i > 0 {
                f.write_str("|")?;
            }
            write!(f, "{k}:{v}")?;
        }
        Ok(())
    }
}

/// Splits an options string (`"case:mixed|norm:yes"`, also `,`-separated and
/// with surrounding spaces; keys in any case) into `(key, value)` pairs.
/// Empty input gives no pairs.
///
/// # Errors
/// An entry without `:` or with an empty key is reported with the entry; a
/// key given twice is an error (`case:mixed|case:lc` has no one meaning).
pub fn parse_options(metric: &'static str, s: &str) -> Result<Vec<(String, String)>, MetricError> {
    let mut out = Vec::new();
    for part in s.split(['|', ',']) {
        let part = part.trim();
        if part.is_empty() {
            continue;
        }
        let Some((k, v)) = part.split_once(':') else {
            return Err(MetricError::InvalidOption {
                metric,
                reason: format!("'{part}' is not of the form key:value (e.g. '{}')", example(metric)),
            });
        };
        let k = k.trim().to_ascii_lowercase();
        if k.is_empty() {
            return Err(MetricError::InvalidOption { metric, reason: format!("empty key in '{part}'") });
        }
        if out.iter().any(|(seen, _)| *seen == k) {
            return Err(MetricError::InvalidOption {
                metric,
                reason: format!("'{k}' is given twice in '{}'", s.trim()),
            });
        }
        out.push((k, v.trim().to_owned()));
    }
    Ok(out)
}

/// A valid options string of `metric`, for error messages.
fn example(metric: &str) -> &'static str {
    match metric {
        "TER" => "case:mixed|norm:yes",
        "CharacTER" => "compat:cer|fuzzy:0.1",
        _ => "nw:2|case:lc",
    }
}

/// Parses a length limit: a positive integer, or `none` for no limit.
///
/// # Errors
/// Any other value.
pub fn parse_limit(metric: &'static str, key: &str, v: &str) -> Result<usize, MetricError> {
    if v.eq_ignore_ascii_case("none") {
        return Ok(usize::MAX);
    }
    v.parse::<usize>().ok().filter(|&n| n > 0).ok_or_else(|| MetricError::InvalidOption {
        metric,
        reason: format!("{key}:{v}: expected a positive number of words or none"),
    })
}

/// Parses a `yes`/`no` option value (also `true`/`false`, `1`/`0`).
///
/// # Errors
/// Any other value.
pub fn parse_bool(metric: &'static str, key: &str, v: &str) -> Result<bool, MetricError> {
    match v.to_ascii_lowercase().as_str() {
        "yes" | "true" | "1" | "on" => Ok(true),
        "no" | "false" | "0" | "off" => Ok(false),
        _ => Err(MetricError::InvalidOption { metric, reason: format!("{key}:{v}: expected yes or no") }),
    }
}

/// The value of `key` among `choices` (`(name, value)`, matched ignoring
/// ASCII case).
///
/// # Errors
/// Any other name: `key:v: expected a, b or c`.
pub fn parse_choice<T: Copy>(
    metric: &'static str,
    key: &str,
    v: &str,
    choices: &[(&str, T)],
) -> Result<T, MetricError> {
    choices.iter().find(|(name, _)| name.eq_ignore_ascii_case(v)).map(|&(_, t)| t).ok_or_else(|| {
        let names: Vec<&str> = choices.iter().map(|(n, _)| *n).collect();
        let expected = match names.split_last() {
            Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
            _ => names.join(""),
        };
        bad_value(metric, key, v, &expected)
    })
}

/// The error for a value a key does not take: `key:value: expected ...`.
#[must_use]
pub fn bad_value(metric: &'static str, key: &str, v: &str, expected: &str) -> MetricError {
    MetricError::InvalidOption { metric, reason: format!("{key}:{v}: expected {expected}") }
}

/// Parses `case:lc|mixed`; `true` for lower-cased scoring. `expected` is
/// the values as the metric's error names them (default first).
///
/// # Errors
/// Any other value.
pub fn parse_lowercase(metric: &'static str, key: &str, v: &str, expected: &str) -> Result<bool, MetricError> {
    match v {
        "lc" => Ok(true),
        "mixed" => Ok(false),
        _ => Err(bad_value(metric, key, v, expected)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn format_and_parse_round_trip() {
        let mut s = Signature::default();
        s.push("nrefs", NRefs::Fixed(2));
        s.push("case", "lc");
        let text = s.to_string();
        assert_eq!(text, "nrefs:2|case:lc");
        let back = parse_options("TER", &text).unwrap();
        assert_eq!(back, s.entries);
    }

    #[test]
    fn parse_rejects_garbage() {
        assert!(parse_options("TER", "case").is_err());
        assert!(parse_options("TER", ":x").is_err());
        assert!(parse_options("TER", " ").unwrap().is_empty());
    }

    #[test]
    fn the_example_of_a_malformed_entry_is_the_metric_s_own() {
        let e = |m| parse_options(m, "nw2").unwrap_err().to_string();
        assert!(e("chrF").contains("(e.g. 'nw:2|case:lc')"), "{}", e("chrF"));
        assert!(e("TER").contains("(e.g. 'case:mixed|norm:yes')"), "{}", e("TER"));
        assert!(e("CharacTER").contains("(e.g. 'compat:cer|fuzzy:0.1')"), "{}", e("CharacTER"));
        for m in ["chrF", "TER", "CharacTER"] {
            let ex = e(m);
            let ex = ex.split("e.g. '").nth(1).and_then(|r| r.split('\'').next()).unwrap();
            assert_eq!(parse_options(m, ex).unwrap().len(), 2, "{m}: {ex}");
        }
    }

    #[test]
    fn parse_rejects_a_key_given_twice() {
        let e = parse_options("TER", "case:mixed|norm:yes|CASE:lc").unwrap_err().to_string();
        assert!(e.contains("'case' is given twice"), "{e}");
        assert!(parse_options("TER", "case:mixed, norm:yes").unwrap().len() == 2);
    }

    #[test]
    fn nrefs_observe() {
        let a = NRefs::observe(None, 2);
        assert_eq!(a, Some(NRefs::Fixed(2)));
        assert_eq!(NRefs::observe(a, 1), Some(NRefs::Var));
    }
}
