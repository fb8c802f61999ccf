//! EED, the extended edit distance (Stanchev, Wang and Ney, WMT 2019): a
//! character-level edit distance (CDER's alignment grid: deletions cost 0.2,
//! insertions and substitutions 1) with a long jump at every blank of the
//! reference (cost `alpha` = 2 from the row's cheapest cell), plus a coverage
//! penalty `rho` = 0.3 × the visits to the hypothesis positions (each
//! unvisited one counts once), normalised by the reference length and capped
//! at 1. Lower is better; the corpus score is the mean of the sentence scores.
//!
//! The reference is rwth-i6/ExtendedEditDistance at f944adc, `EED.py`:
//! both sides preprocessed by `util.preprocess(line, "en")`, split into
//! characters and padded with a blank at each end; the score comes from its
//! C++ library (`EED.cpp`, `libEED.so`), the default here (`compat:eed`), or
//! from `EED.py`'s own Python function `eed_python` (`compat:python`, the
//! function torchmetrics' `ExtendedEditDistance` ports). They differ in three
//! facts that this module reproduces:
//!
//! - the C++ code computes in `float32`, the Python one in doubles;
//! - the C++ code finds the row's cheapest cell with its running minimum
//!   held in an `int`: a cell becomes the minimum when it is below the
//!   truncated minimum so far, so the first cell under 1 wins over a later,
//!   smaller one (Python: the first cell of the smallest value);
//! - the C++ coverage sums the visits from position 1, the Python one from
//!   position 0.
//!
//! `util.preprocess_en` is Python's string code exactly: `rstrip()`, a blank
//! before `.`, `!`, `?` and `,`, runs of `str.isspace()` characters to one
//! blank, `(\d) ([.,]) (\d)` → `\1\2\3` (`\d`: Unicode decimals), the titles
//! `(Dr|Jr|Prof|Rev|Gen|Mr|Mt|Mrs|Ms) .` → `\1.` (the unescaped `.` takes
//! any character: `Mr Smith` becomes `Mr.mith`, as in EED.py), then
//! `e . g .` and `i . e .` → `e.g.` and `U . S .` → `U.S.`. `prep:ja` is
//! `preprocess_ja` (`rstrip()` and NFKC), `prep:none` scores the strings as
//! given. With several references the sentence score is the lowest, as in
//! torchmetrics (EED.py takes one reference).

pub mod metric;

use std::ops::{Add, Div, Mul};

use crate::MetricError;
use crate::options::OptionKey;
use crate::py::normalize::{Form, normalize};
use crate::py::text::{collapse_py_space, is_py_decimal, py_rstrip};
use crate::signature::{Signature, bad_value, parse_choice, parse_options};

const METRIC: &str = "EED";

/// EED's option keys (the SQL guide's EED table is generated from these).
pub const OPTIONS: &[OptionKey] = &[
    OptionKey::new(
        "compat",
        "`eed` \\| `python`",
        "whose arithmetic: EED.py's scores, from its C++ library (float32, the row minimum found through an \
         `int`, coverage from position 1), or EED.py's `eed_python`, which torchmetrics ports (doubles, the \
         first smallest cell, coverage from position 0)",
    ),
    OptionKey::new(
        "prep",
        "`en` \\| `ja` \\| `none`",
        "EED.py's preprocessing of both sides, `util.preprocess(line, \"en\")` (blanks before `.!?,`, whitespace \
         collapsed, numbers and titles rejoined), `ja` (`rstrip()` and NFKC), or none",
    ),
    OptionKey::new(
        "max_chars",
        "`20000` \\| N \\| `none`",
        "mteval's guard, not in the signature: a longer side is an error naming the row (the distance costs \
         hypothesis × reference characters: 20,000 × 20,000 takes about a second)",
    ),
];

/// Default length limit, in characters per side.
pub const EED_MAX_CHARS: usize = 20_000;

/// Whose arithmetic scores.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Compat {
    /// `EED.py`'s scores: its C++ library.
    #[default]
    Eed,
    /// `EED.py`'s `eed_python` (torchmetrics' port).
    Python,
}

/// The preprocessing of both sides.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Prep {
    /// `util.preprocess_en`.
    #[default]
    En,
    /// `util.preprocess_ja`.
    Ja,
    /// None.
    None,
}

/// EED's options.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct EedConfig {
    /// Whose arithmetic.
    pub compat: Compat,
    /// The preprocessing.
    pub prep: Prep,
    /// Longest side accepted, in characters (`None`: [`EED_MAX_CHARS`]);
    /// not in the signature.
    pub max_chars: Option<usize>,
}

impl EedConfig {
    /// Parses options in signature syntax (`compat:eed|python`,
    /// `prep:en|ja|none`, `max_chars:N|none`); `nrefs`, `version` and `impl`
    /// are accepted and ignored, so a printed signature pastes back.
    ///
    /// # Errors
    /// Unknown keys and bad values, naming them.
    pub fn parse(options: &str) -> Result<Self, MetricError> {
        let mut cfg = Self::default();
        for (k, v) in parse_options(METRIC, options)? {
            match k.as_str() {
                "compat" => {
                    cfg.compat = parse_choice(METRIC, &k, &v, &[("eed", Compat::Eed), ("python", Compat::Python)])?;
                }
                "prep" => {
                    cfg.prep =
                        parse_choice(METRIC, &k, &v, &[("en", Prep::En), ("ja", Prep::Ja), ("none", Prep::None)])?;
                }
                "max_chars" => {
                    cfg.max_chars = Some(if v.eq_ignore_ascii_case("none") {
                        usize::MAX
                    } else {
                        v.parse::<usize>()
                            .ok()
                            .filter(|&n| n > 0)
                            .ok_or_else(|| bad_value(METRIC, &k, &v, "a positive number of characters or none"))?
                    });
                }
                _ => crate::options::other_key(METRIC, &k, &[OPTIONS])?,
            }
        }
        Ok(cfg)
    }

    /// The reproducibility signature, e.g.
    /// `nrefs:1|prep:en|compat:eed|version:f944adc|impl:mteval-0.1.0`.
    #[must_use]
    pub fn signature(&self, nrefs: crate::NRefs) -> Signature {
        let mut s = Signature::of_refs(nrefs);
        s.push(
            "prep",
            match self.prep {
                Prep::En => "en",
                Prep::Ja => "ja",
                Prep::None => "none",
            },
        );
        s.push("compat", if self.compat == Compat::Eed { "eed" } else { "python" });
        s.stamped("f944adc")
    }

    /// One side as the distance reads it: preprocessed, as characters,
    /// with a blank at each end.
    fn side(&self, text: &str, what: &str) -> Result<Vec<char>, MetricError> {
        let text = match self.prep {
            Prep::En => preprocess_en(text),
            Prep::Ja => normalize(Form::Nfkc, py_rstrip(text)),
            Prep::None => text.to_owned(),
        };
        let limit = self.max_chars.unwrap_or(EED_MAX_CHARS);
        let n = text.chars().count();
        if n > limit {
            return Err(MetricError::InvalidInput {
                metric: METRIC,
                reason: format!(
                    "the {what} has {n} characters, over the limit of {limit} (the distance costs hypothesis × \
                     reference characters); raise it with the option max_chars:N or max_chars:none"
                ),
            });
        }
        Ok(std::iter::once(' ').chain(text.chars()).chain(std::iter::once(' ')).collect())
    }

    /// EED of one hypothesis against one reference, in [0, 1].
    ///
    /// # Errors
    /// A side over the length limit.
    pub fn sentence(&self, hyp: &str, reference: &str) -> Result<f64, MetricError> {
        let (h, r) = (self.side(hyp, "hypothesis")?, self.side(reference, "reference")?);
        Ok(match self.compat {
            Compat::Eed => eed::<f32>(&h, &r, 1).min(1.0),
            Compat::Python => eed::<f64>(&h, &r, 0).min(1.0),
        })
    }

    /// The lowest EED over `refs`; `None` without a reference.
    ///
    /// # Errors
    /// A side over the length limit.
    pub fn sentence_multi(&self, hyp: &str, refs: &[&str]) -> Result<Option<f64>, MetricError> {
        let mut best: Option<f64> = None;
        for r in refs {
            let s = self.sentence(hyp, r)?;
            if best.is_none_or(|b| s < b) {
                best = Some(s);
            }
        }
        Ok(best)
    }
}

/// The edit costs and the jump and coverage weights of EED.py.
const ALPHA: f64 = 2.0;
const DELETION: f64 = 0.2;
const INSERTION: f64 = 1.0;
const SUBSTITUTION: f64 = 1.0;
const RHO: f64 = 0.3;

/// A number of EED's grid: `float32` (EED.cpp) or a double (`eed_python`).
trait Cell: Copy + PartialOrd + Add<Output = Self> + Mul<Output = Self> + Div<Output = Self> {
    /// The constant `x` (exact in both types for EED's constants).
    fn of(x: f64) -> Self;
    /// A count.
    fn count(n: i64) -> Self;
    /// Whether this cell is below the row's minimum so far, `min`, as the
    /// implementation compares them.
    fn below(self, min: Self) -> bool;
    /// The value as a double.
    fn widen(self) -> f64;
}

/// EED.cpp: the running minimum is an `int`, so a cell wins when it is
/// below the truncated minimum so far.
impl Cell for f32 {
    #[allow(clippy::cast_possible_truncation, reason = "EED.cpp's float32")]
    fn of(x: f64) -> Self {
        x as f32
    }
    #[allow(clippy::cast_possible_truncation, reason = "visit counts are small")]
    fn count(n: i64) -> Self {
        n as f32
    }
    #[allow(clippy::cast_possible_truncation, reason = "EED.cpp's `int minimum`")]
    fn below(self, min: Self) -> bool {
        self < (min as i32) as f32
    }
    fn widen(self) -> f64 {
        f64::from(self)
    }
}

/// `eed_python`: `nextRow.index(min(nextRow))`, the first smallest cell.
impl Cell for f64 {
    fn of(x: f64) -> Self {
        x
    }
    fn count(n: i64) -> Self {
        n as f64
    }
    fn below(self, min: Self) -> bool {
        self < min
    }
    fn widen(self) -> f64 {
        self
    }
}

/// EED of padded sides in `C`'s arithmetic, the coverage counting the
/// visits from position `from` (EED.cpp: 1, `eed_python`: 0).
fn eed<C: Cell>(hyp: &[char], reference: &[char], from: usize) -> f64 {
    let n = hyp.len() + 1;
    let mut visits = vec![-1i64; n];
    let mut row = vec![C::of(1.0); n];
    row[0] = C::of(0.0);
    let mut next = row.clone();
    for &rc in reference {
        next[0] = row[0] + C::of(1.0);
        for i in 1..n {
            let sub = if rc == hyp[i - 1] { C::of(0.0) } else { C::of(SUBSTITUTION) };
            // std::min of a list, Python's min: the first of the smallest.
            let mut m = next[i - 1] + C::of(DELETION);
            for c in [row[i - 1] + sub, row[i] + C::of(INSERTION)] {
                if c < m {
                    m = c;
                }
            }
            next[i] = m;
        }
        let (mut min_ind, mut minimum) = (0, next[0]);
        for (i, &x) in next.iter().enumerate().skip(1) {
            if x.below(minimum) {
                (min_ind, minimum) = (i, x);
            }
        }
        visits[min_ind] += 1;
        if rc == ' ' {
            let jump = C::of(ALPHA) + next[min_ind];
            for x in &mut next {
                if *x > jump {
                    *x = jump;
                }
            }
        }
        std::mem::swap(&mut row, &mut next);
    }
    let coverage = C::of(RHO) * C::count(visits[from..].iter().map(|&v| if v < 0 { 1 } else { v }).sum());
    #[allow(clippy::cast_possible_wrap, reason = "a side's length is far below 2^63")]
    let norm = C::count(reference.len() as i64);
    ((row[n - 1] + coverage) / (norm + coverage)).widen()
}

/// `util.preprocess_en` of EED.py (see the module).
#[must_use]
pub fn preprocess_en(s: &str) -> String {
    // rstrip, and a blank before . ! ? ,
    let mut spaced = String::with_capacity(s.len() + 8);
    for c in py_rstrip(s).chars() {
        if matches!(c, '.' | '!' | '?' | ',') {
            spaced.push(' ');
        }
        spaced.push(c);
    }
    let chars: Vec<char> = collapse_py_space(&spaced).chars().collect();
    let chars = rejoin_numbers(&chars);
    let chars = rejoin_titles(&chars);
    let s: String = chars.into_iter().collect();
    s.replace("e . g .", "e.g.").replace("i . e .", "e.g.").replace("U . S .", "U.S.")
}

/// `re.sub(r'(\d) ([.,]) (\d)', r'\1\2\3', s)`: matches left to right,
/// each search resuming after the previous match.
fn rejoin_numbers(c: &[char]) -> Vec<char> {
    let mut out = Vec::with_capacity(c.len());
    let mut i = 0;
    while i < c.len() {
        if i + 4 < c.len()
            && is_py_decimal(c[i])
            && c[i + 1] == ' '
            && matches!(c[i + 2], '.' | ',')
            && c[i + 3] == ' '
            && is_py_decimal(c[i + 4])
        {
            out.extend([c[i], c[i + 2], c[i + 4]]);
            i += 5;
        } else {
            out.push(c[i]);
            i += 1;
        }
    }
    out
}

/// The titles of `util.preprocess_en`, in its alternation's order.
const TITLES: [&str; 9] = ["Dr", "Jr", "Prof", "Rev", "Gen", "Mr", "Mt", "Mrs", "Ms"];

/// `re.sub(r'(Dr|Jr|Prof|Rev|Gen|Mr|Mt|Mrs|Ms) .', r'\1.', s)`: at each
/// position the first alternative followed by a blank and any character
/// but a newline.
fn rejoin_titles(c: &[char]) -> Vec<char> {
    let mut out = Vec::with_capacity(c.len());
    let mut i = 0;
    'scan: while i < c.len() {
        for t in TITLES {
            let k = t.chars().count();
            if i + k + 1 < c.len()
                && t.chars().zip(&c[i..]).all(|(a, &b)| a == b)
                && c[i + k] == ' '
                && c[i + k + 1] != '\n'
            {
                out.extend(t.chars());
                out.push('.');
                i += k + 2;
                continue 'scan;
            }
        }
        out.push(c[i]);
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::IMPL_VERSION;

    #[test]
    fn preprocessing_is_eed_pys() {
        // EED.py's util.preprocess(s, "en") on each.
        for (s, want) in [
            ("Hello, world!  \n", "Hello , world !"),
            ("It costs 3.5 or 1,000 .", "It costs 3 .5 or 1 ,000 ."),
            ("1.2.3", "1 .2 .3"),
            ("1 . 2 . 3", "1.2 . 3"),
            ("3 , 5 , 7", "3,5 , 7"),
            ("Mr Smith met Dr. Who", "Mr.mith met Dr. Who"),
            ("Mrs Smith", "Mrs.mith"),
            ("e.g. this, i.e. that, U.S.", "e .g . this , i .e . that , U .S ."),
            ("\u{1c}a\u{a0}\u{a0}b\t", " a b"),
            ("٣.٤", "٣ .٤"),
        ] {
            assert_eq!(preprocess_en(s), want, "{s:?}");
        }
    }

    #[test]
    fn scores_of_the_reference_implementation() {
        let cfg = EedConfig::default();
        // Identical sides: no edit; every hypothesis position visited once.
        assert_eq!(cfg.sentence("the cat", "the cat").unwrap(), 0.0);
        let py = EedConfig { compat: Compat::Python, ..cfg };
        for (h, r) in [("the cat sat", "the cat sat down"), ("a b c", "c b a"), ("", "x"), ("xyz", "")] {
            let (a, b) = (cfg.sentence(h, r).unwrap(), py.sentence(h, r).unwrap());
            assert!((0.0..=1.0).contains(&a) && (0.0..=1.0).contains(&b), "{h} / {r}: {a} {b}");
        }
        assert_eq!(cfg.sentence_multi("a", &[]).unwrap(), None);
        let best = cfg.sentence_multi("the cat", &["a dog", "the cat"]).unwrap();
        assert_eq!(best, Some(0.0));
    }

    #[test]
    fn options_parse_and_limits_refuse() {
        let c = EedConfig::parse("compat:python|prep:none|max_chars:5").unwrap();
        assert_eq!((c.compat, c.prep, c.max_chars), (Compat::Python, Prep::None, Some(5)));
        let e = c.sentence("abcdef", "a").unwrap_err().to_string();
        assert!(e.contains("hypothesis has 6 characters, over the limit of 5"), "{e}");
        assert!(EedConfig::parse("compat:cpp").unwrap_err().to_string().contains("eed or python"));
        let sig = EedConfig::default().signature(crate::NRefs::Fixed(1)).to_string();
        assert_eq!(sig, format!("nrefs:1|prep:en|compat:eed|version:f944adc|impl:mteval-{IMPL_VERSION}"));
        assert_eq!(EedConfig::parse(&sig).unwrap(), EedConfig::default());
    }
}
