//! chrF and chrF++, exactly as sacrebleu 2.6.0 computes them, and fastChrF's
//! pairwise and aggregate chrF (fastchrf 0.2.1) for MBR decoding.
//!
//! * Definition: Popović (2015) "chrF: character n-gram F-score for automatic
//!   MT evaluation"; chrF++ adds word unigrams and bigrams (Popović 2017).
//! * Reference implementation matched: sacrebleu 2.6.0 `CHRF`
//!   (`sacrebleu/metrics/chrf.py`): whitespace removed with Python's `str.split()` unless `space:yes`,
//!   code-point windows, chrF++ word tokens with one ASCII punctuation character
//!   split off the end (checked first) or the start of each word, per-order
//!   `[hyp, ref, match]` with the hypothesis count zeroed when the reference
//!   has no n-gram of that order, and sacrebleu's F-score in the same f64
//!   operation order (effective-order averaging by default, `eff:no` = mean of
//!   per-order F with eps 1e-16).
//! * Multiple references: the statistics of the reference with the strictly
//!   highest sentence F (first one on ties). Corpus score: F of the summed
//!   statistics (not a mean of sentence scores).
//! * Scale: 0–100.
//! * Signature: `nrefs:1|case:mixed|eff:yes|nc:6|nw:0|space:no|version:2.6.0|impl:mteval-X`
//!   (`beta:B` is added when beta is not 2, as sacrebleu puts it in the name `chrF{B}`).
//! * fastChrF: see [`group`]; the same statistics and F-score, with Rust's
//!   Unicode whitespace (fastchrf uses `split_whitespace`, which keeps
//!   U+001C–U+001F, unlike Python).

pub mod group;
pub mod metric;
mod ngrams;

use crate::MetricError;
use crate::options::OptionKey;
use crate::signature::{NRefs, Signature, parse_bool, parse_options};

pub use group::{FastChrfOptions, aggregate_chrf, pairwise_chrf};
pub use ngrams::{punctuation_words, with_scratch};

/// The sacrebleu version whose chrF this module reproduces.
pub const SACREBLEU_VERSION: &str = "2.6.0";
/// The fastchrf version whose pairwise/aggregate chrF [`group`] reproduces.
pub const FASTCHRF_VERSION: &str = "0.2.1";

const METRIC: &str = "chrF";

/// chrF's option keys (the SQL guide's chrF table is generated from these).
pub const OPTIONS: &[OptionKey] = &[
    OptionKey::new("nc", "`6` (0–32)", "sacrebleu's `char_order`"),
    OptionKey::new("nw", "`0` (`2` = chrF++; 0–32)", "sacrebleu's `word_order`"),
    OptionKey::new(
        "beta",
        "`2` (-1e154 to 1e154; squared, so -B weighs as B, named chrF-B)",
        "sacrebleu's `beta` (sacrebleu squares it, which overflows above about 1.34e154: Python raises \
         `OverflowError`)",
    ),
    OptionKey::new("case", "`mixed` \\| `lc`", "sacrebleu's `lowercase`"),
    OptionKey::new(
        "eff",
        "`yes` \\| `no`",
        "`no` = sacrebleu's `eps_smoothing` (mean of per-order F with eps 1e-16, as chrF++.py)",
    ),
    OptionKey::new("space", "`no` \\| `yes`", "sacrebleu's `whitespace` (keep whitespace in character n-grams)"),
    OptionKey::new(
        "ws",
        "`python` \\| `unicode`",
        "which characters are whitespace: Python's `str.isspace` (sacrebleu) or Unicode White_Space (fastchrf, \
         Rust's `split_whitespace`; differs on U+001C–U+001F)",
    ),
];
const EPS: f64 = 1e-16;

/// Which characters count as whitespace when it is removed or words are split.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Whitespace {
    /// Python's `str.isspace()` (sacrebleu).
    #[default]
    Python,
    /// Unicode `White_Space`, Rust's `char::is_whitespace` (fastchrf).
    Unicode,
}

impl Whitespace {
    /// Whether `c` is whitespace under this rule.
    #[inline]
    #[must_use]
    pub fn is_space(self, c: char) -> bool {
        match self {
            Self::Python => crate::py::text::is_py_space(c),
            Self::Unicode => c.is_whitespace(),
        }
    }
}

/// chrF options (sacrebleu's `CHRF(...)` arguments).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ChrfConfig {
    /// Character n-gram orders `1..=char_order` (`nc`).
    pub char_order: usize,
    /// Word n-gram orders `1..=word_order` (`nw`; 2 = chrF++).
    pub word_order: usize,
    /// Recall weight.
    pub beta: f64,
    /// Lower-case both sides first (`case:lc`).
    pub lowercase: bool,
    /// Keep whitespace in character n-grams (`space:yes`).
    pub whitespace: bool,
    /// Mean of per-order F with eps (`eff:no`) instead of effective-order averaging.
    pub eps_smoothing: bool,
    /// What counts as whitespace (Python for sacrebleu, Unicode for fastchrf).
    pub ws_rule: Whitespace,
}

impl Default for ChrfConfig {
    fn default() -> Self {
        Self {
            char_order: 6,
            word_order: 0,
            beta: 2.0,
            lowercase: false,
            whitespace: false,
            eps_smoothing: false,
            ws_rule: Whitespace::Python,
        }
    }
}

/// Orders above this are rejected (sacrebleu accepts any; nobody uses more).
pub const MAX_ORDER: usize = 32;

impl ChrfConfig {
    /// chrF++ (`nw:2`).
    #[must_use]
    pub fn chrf_plus_plus() -> Self {
        Self { word_order: 2, ..Self::default() }
    }

    /// Parses options in signature syntax on top of `base`, e.g. `"nw:2|eff:no"`.
    ///
    /// Keys: `nc` (char order), `nw` (word order), `beta`, `case` (`mixed`|`lc`),
    /// `eff` (`yes` = effective order, `no` = eps smoothing), `space`
    /// (`no`|`yes`), `ws` (`python`|`unicode`: which characters are
    /// whitespace); `nrefs`, `version`, `impl`, `ref` are accepted and ignored
    /// so a printed signature can be pasted back.
    ///
    /// # Errors
    /// Unknown keys or values, naming them.
    pub fn parse_with(base: Self, options: &str) -> Result<Self, MetricError> {
        Self::parse_keys(base, options, "")
    }

    /// [`Self::parse_with`], where the caller has taken its own keys
    /// (`also_known`, e.g. `", self"`) out first: they are named with the
    /// others when a key is unknown.
    pub(crate) fn parse_keys(base: Self, options: &str, also_known: &str) -> Result<Self, MetricError> {
        let mut c = base;
        for (k, v) in parse_options(METRIC, options)? {
            match k.as_str() {
                "nc" | "char_order" => c.char_order = parse_order(&k, &v)?,
                "nw" | "word_order" => c.word_order = parse_order(&k, &v)?,
                "beta" => c.beta = parse_beta(&k, &v)?,
                "case" => c.lowercase = crate::signature::parse_lowercase(METRIC, &k, &v, "mixed or lc")?,
                "eff" => c.eps_smoothing = !parse_bool(METRIC, &k, &v)?,
                "space" => c.whitespace = parse_bool(METRIC, &k, &v)?,
                "ws" => {
                    c.ws_rule = match v.as_str() {
                        "python" | "py" => Whitespace::Python,
                        "unicode" | "rust" => Whitespace::Unicode,
                        _ => return Err(bad(&k, &v, "python or unicode")),
                    }
                }
                "nrefs" | "version" | "impl" | "ref" => {}
                _ => {
                    let extra = format!("{}{also_known}", crate::options::SIGNATURE_KEYS);
                    return Err(crate::options::unknown_key(METRIC, &k, &[OPTIONS], &extra));
                }
            }
        }
        if c.char_order + c.word_order == 0 && c.eps_smoothing {
            // With no order, sacrebleu scores 0 by effective order and
            // divides by zero with eps smoothing (ZeroDivisionError).
            return Err(MetricError::InvalidOption {
                metric: METRIC,
                reason: "nc and nw are both 0 with eff:no: the mean over no order divides by zero".into(),
            });
        }
        Ok(c)
    }

    /// Parses options on top of the sacrebleu defaults.
    ///
    /// # Errors
    /// See [`Self::parse_with`].
    pub fn parse(options: &str) -> Result<Self, MetricError> {
        Self::parse_with(Self::default(), options)
    }

    /// Number of orders (`char_order + word_order`).
    #[must_use]
    pub const fn orders(&self) -> usize {
        self.char_order + self.word_order
    }

    /// Length of a statistics vector (`3 × orders`).
    #[must_use]
    pub const fn stats_len(&self) -> usize {
        3 * self.orders()
    }

    /// The score's name as sacrebleu prints it: `chrF2`, `chrF2++`.
    #[must_use]
    pub fn name(&self) -> String {
        format!("chrF{}{}", fmt_beta(self.beta), "+".repeat(self.word_order))
    }

    /// The reproducibility signature for `nrefs` references (sacrebleu's keys).
    #[must_use]
    pub fn signature(&self, nrefs: NRefs) -> Signature {
        let mut s = Signature::of_refs(nrefs);
        s.entries.extend(self.signature_core().entries);
        s.stamped(SACREBLEU_VERSION)
    }

    /// Signature entries describing the options only.
    pub(crate) fn signature_core(&self) -> Signature {
        let yn = |b: bool| if b { "yes" } else { "no" };
        let mut s = Signature::default();
        s.push("case", if self.lowercase { "lc" } else { "mixed" });
        s.push("eff", yn(!self.eps_smoothing));
        s.push("nc", self.char_order);
        s.push("nw", self.word_order);
        s.push("space", yn(self.whitespace));
        if self.beta.to_bits() != 2.0f64.to_bits() {
            s.push("beta", fmt_beta(self.beta));
        }
        if self.ws_rule == Whitespace::Unicode {
            s.push("ws", "unicode");
        }
        s
    }

    /// F-score from (summed) statistics, sacrebleu's `_compute_f_score`.
    ///
    /// # Panics
    /// When `stats` is shorter than [`Self::stats_len`].
    #[must_use]
    pub fn score(&self, stats: &[u64]) -> f64 {
        f_score(self.beta, self.eps_smoothing, self.orders(), |o| (stats[3 * o], stats[3 * o + 1], stats[3 * o + 2]))
    }

    /// Statistics of one segment against its best reference (strictly highest
    /// sentence F, first on ties); `None` when `refs` is empty.
    #[must_use]
    pub fn segment(&self, hyp: &str, refs: &[&str]) -> Option<ChrfSegment> {
        if refs.is_empty() {
            return None;
        }
        Some(with_scratch(|s| s.segment(self, hyp, refs)))
    }

    /// Sentence chrF of `hyp` against `refs` (`None` when `refs` is empty).
    #[must_use]
    pub fn sentence_score(&self, hyp: &str, refs: &[&str]) -> Option<f64> {
        self.segment(hyp, refs).map(|s| self.score(&s.stats))
    }
}

impl ChrfConfig {
    /// [`Self::segment`] for every row, with the clipped n-gram matches
    /// counted on `backend`: batches of rows in one launch each on a GPU
    /// (recomputed on the CPU if the GPU fails), the CPU's per-row path
    /// otherwise. Same statistics and best references either way.
    pub fn segments_on<'a, R: AsRef<[&'a str]> + Sync>(
        &self,
        backend: &dyn crate::backend::Backend,
        rows: &[(&'a str, R)],
    ) -> Vec<Option<ChrfSegment>> {
        use rayon::prelude::*;
        let cpu = |rows: &[(&'a str, R)]| -> Vec<Option<ChrfSegment>> {
            rows.par_iter().map(|(h, r)| self.segment(h, r.as_ref())).collect()
        };
        if !backend.offload(&crate::backend::Work::ChrfSegments { rows: rows.len() }) {
            return cpu(rows);
        }
        rows.chunks(GPU_ROWS)
            .flat_map(|chunk| {
                crate::backend::or_cpu("chrF", || ngrams::segments_gpu(self, backend, chunk), || cpu(chunk))
            })
            .collect()
    }
}

/// Rows per GPU batch of sentence chrF (bounds the device memory of the n-gram keys).
const GPU_ROWS: usize = 4096;

fn fmt_beta(beta: f64) -> String {
    // An integer as sacrebleu's int `--chrf-beta` prints; else Python's repr.
    if beta.fract() == 0.0 && beta.abs() < 1e15 { format!("{beta:.0}") } else { crate::py::text::py_float_repr(beta) }
}

/// The largest `beta`: sacrebleu computes `beta ** 2`, which overflows
/// (Python raises `OverflowError`) above about 1.34e154; below it every
/// F-score is a finite number in [0, 100].
pub const MAX_BETA: f64 = 1e154;

/// Parses `beta`: a finite number in `[-MAX_BETA, MAX_BETA]` (`-0` is `0`).
/// sacrebleu squares it, so a negative beta weighs recall as its opposite
/// does; only the name (`chrF-1`) differs.
fn parse_beta(k: &str, v: &str) -> Result<f64, MetricError> {
    match v.parse::<f64>() {
        Ok(b) if b.abs() <= MAX_BETA => Ok(b + 0.0),
        _ => Err(bad(k, v, &format!("a number from -{MAX_BETA:e} to {MAX_BETA:e}"))),
    }
}

fn parse_order(k: &str, v: &str) -> Result<usize, MetricError> {
    match v.parse::<usize>() {
        Ok(n) if n <= MAX_ORDER => Ok(n),
        _ => Err(bad(k, v, &format!("an integer 0..={MAX_ORDER}"))),
    }
}

fn bad(k: &str, v: &str, expected: &str) -> MetricError {
    crate::signature::bad_value(METRIC, k, v, expected)
}

/// sacrebleu's `_compute_f_score` over `orders` orders whose `[hyp, ref, match]`
/// counts `stat(o)` returns; same operations in the same order, so the result
/// is bit-identical.
#[inline]
#[allow(clippy::cast_precision_loss, reason = "n-gram counts are far below 2^53, exact in f64")]
pub fn f_score(beta: f64, eps_smoothing: bool, orders: usize, mut stat: impl FnMut(usize) -> (u64, u64, u64)) -> f64 {
    let factor = beta * beta;
    let mut score = 0.0f64;
    let mut eff = 0usize;
    let mut avg_p = 0.0f64;
    let mut avg_r = 0.0f64;
    for o in 0..orders {
        let (h, r, m) = stat(o);
        let p = if h > 0 { m as f64 / h as f64 } else { EPS };
        let rc = if r > 0 { m as f64 / r as f64 } else { EPS };
        let denom = factor * p + rc;
        score += if denom > 0.0 { (1.0 + factor) * p * rc / denom } else { EPS };
        if h > 0 && r > 0 {
            avg_p += p;
            avg_r += rc;
            eff += 1;
        }
    }
    if eps_smoothing {
        return 100.0 * score / orders as f64;
    }
    if eff == 0 {
        avg_p = 0.0;
        avg_r = 0.0;
    } else {
        avg_p /= eff as f64;
        avg_r /= eff as f64;
    }
    if avg_p + avg_r == 0.0 {
        0.0
    } else {
        let mut s = (1.0 + factor) * avg_p * avg_r;
        s /= factor * avg_p + avg_r;
        100.0 * s
    }
}

/// Statistics of one segment against its best reference.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChrfSegment {
    /// `[hyp, ref, match]` per order: char orders 1..=nc, then word orders 1..=nw.
    pub stats: Vec<u64>,
    /// Index of the chosen reference.
    pub best_ref: usize,
}

/// Summable corpus statistics: the element-wise sums of segment statistics.
pub type ChrfStats = crate::sums::CountSums<ChrfConfig>;

impl ChrfStats {
    /// Corpus score (`None` for an empty corpus).
    #[must_use]
    pub fn score(&self, cfg: &ChrfConfig) -> Option<f64> {
        self.padded(cfg.stats_len()).map(|s| cfg.score(&s))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::IMPL_VERSION;

    fn s(cfg: &ChrfConfig, h: &str, r: &[&str]) -> f64 {
        cfg.sentence_score(h, r).unwrap()
    }

    #[test]
    fn spec_sentence_values() {
        let c = ChrfConfig::default();
        let pp = ChrfConfig::chrf_plus_plus();
        assert_eq!(s(&c, "The cat sat on the mat.", &["The fat cat sat on the mat."]), 74.63190448595968);
        assert_eq!(s(&pp, "The cat sat on the mat.", &["The fat cat sat on the mat."]), 76.3858651136673);
        assert_eq!(s(&c, "the cat", &["The Cat"]), 17.77777777777778);
        assert_eq!(s(&pp, "(hi) there, friend!", &["hi there friend"]), 47.11976295441019);
        assert_eq!(s(&pp, "ab", &["ab ab"]), 50.0);
        let eps = ChrfConfig { eps_smoothing: true, ..c };
        assert_eq!(s(&eps, "hello", &[""]), 1.0000000000000002e-14);
        let ws = ChrfConfig { whitespace: true, ..c };
        assert_eq!(s(&ws, "The cat sat on the mat.", &["The fat cat sat on the mat."]), 79.69303452203077);
        let multi = s(&c, "The cat sat on the mat.", &["A cat sat on a mat.", "The fat cat sat on the mat."]);
        assert_eq!(multi, 74.63190448595968);
        assert_eq!(c.segment("x", &["a", "x"]).unwrap().best_ref, 1);
        assert_eq!(c.segment("x", &["x", "x"]).unwrap().best_ref, 0);
    }

    #[test]
    fn options_and_signature() {
        let c = ChrfConfig::parse("nw:2|eff:no|case:lc").unwrap();
        assert_eq!((c.word_order, c.eps_smoothing, c.lowercase), (2, true, true));
        assert_eq!(c.name(), "chrF2++");
        let sig = ChrfConfig::default().signature(NRefs::Fixed(1)).to_string();
        assert_eq!(
            sig,
            format!("nrefs:1|case:mixed|eff:yes|nc:6|nw:0|space:no|version:2.6.0|impl:mteval-{IMPL_VERSION}")
        );
        assert_eq!(ChrfConfig::parse(&sig).unwrap(), ChrfConfig::default());
        let b3 = ChrfConfig::parse("beta:3").unwrap();
        assert_eq!(b3.name(), "chrF3");
        assert_eq!(ChrfConfig::parse(&b3.signature(NRefs::Var).to_string()).unwrap(), b3);
        for bad in ["nc:x", "nc:0|nw:0|eff:no", "bogus:1", "beta:-1e155", "beta:nan", "nc:33"] {
            assert!(ChrfConfig::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn no_order_scores_zero_as_sacrebleu() {
        // CHRF(char_order=0, word_order=0): chrF2 = 0.00 for sentences and
        // corpora; with eps_smoothing sacrebleu divides by zero.
        let c = ChrfConfig::parse("nc:0|nw:0").unwrap();
        assert_eq!((c.stats_len(), c.name()), (0, "chrF2".to_owned()));
        let seg = c.segment("a b c", &["a b c d"]).unwrap();
        assert!(seg.stats.is_empty());
        assert_eq!(c.sentence_score("a b c", &["a b c d"]).unwrap(), 0.0);
        let mut st = ChrfStats::default();
        st.add(&seg.stats);
        assert_eq!(st.score(&c), Some(0.0));
        let e = ChrfConfig::parse("nc:0|nw:0|eff:no").unwrap_err().to_string();
        assert!(e.contains("divides by zero"), "{e}");
        assert!(ChrfConfig::parse("eff:no|nw:0|nc:0").is_err());
    }

    #[test]
    fn corpus_is_f_of_sums() {
        let c = ChrfConfig { beta: 3.0, eps_smoothing: false, ..ChrfConfig::default() };
        let mut st = ChrfStats::default();
        for (h, r) in [("a", "a"), ("b", "c")] {
            st.add(&c.segment(h, &[r]).unwrap().stats);
        }
        assert!((st.score(&c).unwrap() - 50.0).abs() < 1e-12);
        assert_eq!(ChrfStats::default().score(&c), None);
    }
}
