//! The order of system, segment and item keys where the input gives no
//! order (SQL groups; `mteval meta`'s segment ids): numerically when every
//! key of the set is a number, else as text. A column of integer ids read
//! as floats (pandas writes `1.0` for an integer column with a missing
//! value) keeps the order of its integers: `2.0` before `10.0`.

use std::cmp::Ordering;

/// A key in that order. Keys of one set are all of one kind.
#[derive(Debug, Clone)]
pub enum Key {
    /// Every key of the set is an integer (exact, any width up to i128).
    Int(i128),
    /// Every key of the set is a finite number, some not integers.
    Num(f64),
    /// Some key of the set is not a number.
    Text(String),
}

impl Key {
    /// The key as messages and outputs name it: the number for a numeric
    /// key (`007` is `7`), the text otherwise.
    #[must_use]
    pub fn name(&self) -> String {
        match self {
            Self::Int(n) => n.to_string(),
            Self::Num(x) => x.to_string(),
            Self::Text(t) => t.clone(),
        }
    }

    fn rank(&self) -> u8 {
        match self {
            Self::Int(_) => 0,
            Self::Num(_) => 1,
            Self::Text(_) => 2,
        }
    }
}

impl PartialEq for Key {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Key {}

impl PartialOrd for Key {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Key {
    fn cmp(&self, other: &Self) -> Ordering {
        match (self, other) {
            (Self::Int(a), Self::Int(b)) => a.cmp(b),
            (Self::Num(a), Self::Num(b)) => a.total_cmp(b),
            (Self::Text(a), Self::Text(b)) => a.cmp(b),
            _ => self.rank().cmp(&other.rank()),
        }
    }
}

/// A finite number, `-0` read as `0` (one key).
fn number(s: &str) -> Option<f64> {
    s.trim().parse::<f64>().ok().filter(|x| x.is_finite()).map(|x| x + 0.0)
}

/// The keys of `values`, in the order above: all integers, else all
/// numbers, else all text.
#[must_use]
pub fn keys<S: AsRef<str>>(values: &[S]) -> Vec<Key> {
    if let Some(ints) = values.iter().map(|v| v.as_ref().trim().parse::<i128>().ok()).collect::<Option<Vec<_>>>() {
        return ints.into_iter().map(Key::Int).collect();
    }
    if let Some(nums) = values.iter().map(|v| number(v.as_ref())).collect::<Option<Vec<_>>>() {
        return nums.into_iter().map(Key::Num).collect();
    }
    values.iter().map(|v| Key::Text(v.as_ref().to_owned())).collect()
}

/// `values` sorted in key order (equal keys, such as `1` and `1.0`, in text
/// order).
#[must_use]
pub fn sorted(values: Vec<String>) -> Vec<String> {
    let mut pairs: Vec<(Key, String)> = keys(&values).into_iter().zip(values).collect();
    pairs.sort_by(|a, b| a.0.cmp(&b.0).then_with(|| a.1.cmp(&b.1)));
    pairs.into_iter().map(|(_, v)| v).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn order(v: &[&str]) -> Vec<String> {
        sorted(v.iter().map(|s| (*s).to_owned()).collect())
    }

    #[test]
    fn integers_then_numbers_numerically_else_text() {
        assert_eq!(order(&["10", "9", " 2", "-1"]), ["-1", " 2", "9", "10"]);
        // Integer ids read as floats keep their integers' order.
        assert_eq!(order(&["10.0", "2.0", "1.5", "-0.0", "1e1"]), ["-0.0", "1.5", "2.0", "10.0", "1e1"]);
        assert_eq!(order(&["10", "9", "x"]), ["10", "9", "x"]);
        // Not finite: text.
        assert_eq!(order(&["2", "inf"]), ["2", "inf"]);
        assert_eq!(order(&["2", "NaN", "10"]), ["10", "2", "NaN"]);
        // Beyond f64's integers: exact.
        let big = ["170141183460469231731687303715884105727", "170141183460469231731687303715884105726"];
        assert_eq!(order(&big), [big[1], big[0]]);
    }

    #[test]
    fn equal_numbers_are_one_key_named_by_the_number() {
        let k = keys(&["1", "01", "1.0", "-0", "0.0"]);
        assert_eq!(k[0], k[1]);
        assert_eq!(k[0], k[2]);
        assert_eq!(k[3], k[4]);
        assert_eq!(k[1].name(), "1");
        assert_eq!(k[3].name(), "0");
        assert_eq!(keys(&["007", "x"])[0].name(), "007");
    }
}
