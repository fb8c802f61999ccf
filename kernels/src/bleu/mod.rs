//! BLEU, exactly as sacrebleu 2.6.0 computes it (bit-identical `f64` scores).
//!
//! * Definition: Papineni et al. (2002), "BLEU: a Method for Automatic
//!   Evaluation of Machine Translation": the geometric mean of clipped n-gram
//!   precisions (orders 1–4) times a brevity penalty; smoothing methods from
//!   Chen and Cherry (2014), "A Systematic Comparison of Smoothing Techniques
//!   for Sentence-Level BLEU".
//! * Reference implementation matched: sacrebleu 2.6.0 `BLEU`
//!   (`sacrebleu/metrics/bleu.py`, `metrics/helpers.py`, `utils.py`, the
//!   tokenizers in [`tokenize`]). Preprocessing: Python's `str.lower()` when
//!   `case:lc` ([`crate::py::text::py_lower`]), then the tokenizer on
//!   `str.rstrip()` of the segment, then words by `str.split()`.
//! * Statistics of a segment (`_compute_segment_statistics`):
//!   `[hyp_len, ref_len, correct × N, total × N]` with `N` = `ngram`
//!   (`max_ngram_order`, default 4). `ref_len` is the length of the reference
//!   closest to the hypothesis length, the shorter one on ties; an n-gram's
//!   reference count is its highest count in any one reference, and matches
//!   are clipped to it. A sentence score is the score of its statistics,
//!   a corpus score the score of their element-wise sum (not a mean).
//! * Score (`compute_bleu`), in the same `f64` operations and order: brevity
//!   penalty `exp(1 - ref_len / sys_len)` when `sys_len < ref_len` (0 when
//!   `sys_len` is 0); 0 when no n-gram of any order matches; per order
//!   `100 * correct / total`, where `add-k` adds `k` to both for orders 2 and
//!   up, a zero `total` ends the orders (with `eff:yes` the mean then covers
//!   only the orders before it), and a zero `correct` gives `exp`:
//!   `100 / (2^i * total)` (`i` counting the zero orders so far), `floor`:
//!   `100 * v / total`, otherwise 0; then `bp * exp(sum(log p) / orders)`
//!   with `log 0` = -9999999999 (`my_log`) and the logs summed left to right
//!   (Python 3.11's `sum`, no compensation). `exp` and `log` are the C
//!   library's, as `math.exp`/`math.log` are.
//! * Sentence BLEU: sacrebleu's defaults are corpus-level (`eff:no`, which
//!   warns at sentence level); its recommended sentence BLEU is
//!   `BLEU(effective_order=True).sentence_score`, i.e. the options `eff:yes`
//!   ([`BleuConfig::sentence`]).
//! * Multiple references: per-n-gram maximum counts and the closest length,
//!   as above; no reference at all has no score (`None`).
//! * Scale: 0–100.
//! * Signature: `nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0|impl:mteval-X`
//!   (sacrebleu's `BLEU(...).get_signature().format()`, then `impl`);
//!   `smooth:floor[0.10]` and `smooth:add-k[1.00]` carry the value with two
//!   decimals as sacrebleu prints it (so a value with more decimals does not
//!   survive the signature, in sacrebleu either). sacrebleu's signature has no
//!   key for `max_ngram_order`: mteval adds `ngram:N` before `version` when N
//!   is not 4, so that the signature pastes back as the same options.
//! * `trg_lang` only chooses the default tokenizer, as in sacrebleu, and is
//!   not in the signature (the tokenizer is).

pub mod metric;
pub mod tokenize;
mod unicode;

pub use tokenize::BleuTokenizer;

use std::hash::BuildHasherDefault;

use crate::MetricError;
use crate::hash::FastMap;
use crate::options::OptionKey;
use crate::py::text::{py_lower, py_rstrip, py_split};
use crate::signature::{NRefs, Signature, parse_bool, parse_options};

/// The sacrebleu version whose BLEU this module reproduces.
pub const SACREBLEU_VERSION: &str = "2.6.0";

const METRIC: &str = "BLEU";

/// sacrebleu's default `max_ngram_order`.
pub const DEFAULT_NGRAM_ORDER: usize = 4;
/// Orders above this are rejected (sacrebleu accepts any; nobody uses more).
pub const MAX_NGRAM_ORDER: usize = 32;

/// BLEU's option keys (the SQL guide's BLEU table is generated from these).
pub const OPTIONS: &[OptionKey] = &[
    OptionKey::new("case", "`mixed` \\| `lc`", "sacrebleu's `lowercase`"),
    OptionKey::new(
        "eff",
        "`no` \\| `yes`",
        "sacrebleu's `effective_order`; `yes` is sacrebleu's recommended sentence BLEU \
         (`BLEU(effective_order=True).sentence_score`)",
    ),
    OptionKey::new(
        "tok",
        "`13a` \\| `none` \\| `char` \\| `zh` \\| `intl`",
        "sacrebleu's `tokenize`; `ja-mecab`, `ko-mecab` (they need MeCab), `spm`, `flores101`, `flores200` and \
         `spBLEU-1K` (they need a SentencePiece model) are errors: mteval neither includes nor downloads them",
    ),
    OptionKey::new(
        "smooth",
        "`exp` \\| `none` \\| `floor` \\| `add-k` \\| `floor[0.10]` \\| `add-k[1.00]`",
        "sacrebleu's `smooth_method`, with `smooth_value` in brackets as its signature prints it (defaults: 0.1 \
         for `floor`, 1 for `add-k`)",
    ),
    OptionKey::new(
        "smooth_value",
        "`0.1` for floor, `1` for add-k (a number ≥ 0)",
        "sacrebleu's `smooth_value`, the same as the bracketed value of `smooth` (ignored by `exp` and `none`, as \
         in sacrebleu)",
    ),
    OptionKey::new(
        "ngram",
        "`4` (0–32; 0 scores 0, as sacrebleu)",
        "sacrebleu's `max_ngram_order` (not in sacrebleu's signature; mteval's adds `ngram:N` when N is not 4)",
    ),
    OptionKey::new(
        "trg_lang",
        "none \\| `zh` \\| `en` (any language code)",
        "sacrebleu's `trg_lang`: without `tok`, `zh` selects `tok:zh` (`ja` and `ko` select the MeCab tokenizers, \
         an error); not in the signature",
    ),
];

/// A smoothing method with its value (sacrebleu's `smooth_method` and `smooth_value`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Smoothing {
    /// `exp`: NIST's geometric smoothing of zero precisions (sacrebleu's default).
    Exp,
    /// `none`: zero precisions stay 0 (their log is -9999999999).
    None,
    /// `floor`: a zero precision becomes `100 * v / total`.
    Floor(f64),
    /// `add-k`: `k` added to the matches and totals of orders 2 and up.
    AddK(f64),
}

impl Smoothing {
    /// sacrebleu's default `floor` value.
    pub const DEFAULT_FLOOR: f64 = 0.1;
    /// sacrebleu's default `add-k` value.
    pub const DEFAULT_ADD_K: f64 = 1.0;

    /// The method's name.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::Exp => "exp",
            Self::None => "none",
            Self::Floor(_) => "floor",
            Self::AddK(_) => "add-k",
        }
    }

    /// The signature's value: the name, and the value with two decimals in
    /// brackets (`floor[0.10]`), as sacrebleu's `f'[{smooth_val:.2f}]'`
    /// (both round the exact binary value half to even).
    #[must_use]
    pub fn signature_value(self) -> String {
        match self {
            Self::Exp | Self::None => self.name().to_owned(),
            Self::Floor(v) | Self::AddK(v) => format!("{}[{v:.2}]", self.name()),
        }
    }

    /// The method `name` with `value` (its default when `None`).
    fn with_value(name: &str, value: Option<f64>) -> Option<Self> {
        Some(match name {
            "exp" => Self::Exp,
            "none" => Self::None,
            "floor" => Self::Floor(value.unwrap_or(Self::DEFAULT_FLOOR)),
            "add-k" => Self::AddK(value.unwrap_or(Self::DEFAULT_ADD_K)),
            _ => return None,
        })
    }
}

/// BLEU options (sacrebleu's `BLEU(...)` arguments).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BleuConfig {
    /// Lower-case both sides first (`case:lc`).
    pub lowercase: bool,
    /// The tokenizer (`tok`).
    pub tokenizer: BleuTokenizer,
    /// Smoothing (`smooth`).
    pub smooth: Smoothing,
    /// Highest n-gram order (`ngram`; sacrebleu's `max_ngram_order`).
    pub max_ngram_order: usize,
    /// Average only the orders the hypothesis has (`eff:yes`).
    pub effective_order: bool,
}

impl Default for BleuConfig {
    /// sacrebleu's `BLEU()`: `case:mixed|eff:no|tok:13a|smooth:exp`, orders 1–4.
    fn default() -> Self {
        Self {
            lowercase: false,
            tokenizer: BleuTokenizer::V13a,
            smooth: Smoothing::Exp,
            max_ngram_order: DEFAULT_NGRAM_ORDER,
            effective_order: false,
        }
    }
}

impl BleuConfig {
    /// sacrebleu's recommended sentence BLEU, `BLEU(effective_order=True)` (`eff:yes`).
    #[must_use]
    pub fn sentence() -> Self {
        Self { effective_order: true, ..Self::default() }
    }

    /// Parses options in signature syntax on top of `base`, e.g.
    /// `"tok:intl|smooth:floor[0.10]|eff:yes"`.
    ///
    /// Keys: `case` (`mixed`|`lc`), `eff` (`no`|`yes`), `tok` (`13a`,
    /// `none`, `char`, `zh`, `intl`), `smooth` (`exp`, `none`, `floor`,
    /// `add-k`, the last two with an optional `[value]`), `smooth_value`,
    /// `ngram` (0–32), `trg_lang` (without `tok`: `zh` selects `tok:zh`);
    /// `nrefs`, `version`, `impl` are accepted and ignored so a printed
    /// signature can be pasted back.
    ///
    /// # Errors
    /// Unknown keys or values, naming them; sacrebleu's tokenizers that need
    /// `MeCab` or a `SentencePiece` model (also through `trg_lang:ja`/`ko`),
    /// naming what they need; a bracketed value that disagrees with
    /// `smooth_value`.
    pub fn parse_with(base: Self, options: &str) -> Result<Self, MetricError> {
        let mut c = base;
        let mut tok = None;
        let mut trg_lang = None;
        let mut method: Option<(String, Option<f64>)> = None;
        let mut value = None;
        for (k, v) in parse_options(METRIC, options)? {
            match k.as_str() {
                "case" => c.lowercase = crate::signature::parse_lowercase(METRIC, &k, &v, "mixed or lc")?,
                "eff" => c.effective_order = parse_bool(METRIC, &k, &v)?,
                "tok" => tok = Some(BleuTokenizer::from_name(&v)?),
                "smooth" => method = Some(parse_smooth(&k, &v)?),
                "smooth_value" => value = Some(parse_smooth_value(&k, &v)?),
                "ngram" => c.max_ngram_order = parse_order(&k, &v)?,
                "trg_lang" => trg_lang = Some(parse_lang(&k, v)?),
                _ => crate::options::other_key(METRIC, &k, &[OPTIONS])?,
            }
        }
        if let Some(t) = tok {
            c.tokenizer = t;
        } else if let Some(lang) = trg_lang {
            // sacrebleu's `_TOKENIZER_MAP`, applied only when `tokenize` is not given.
            match lang.as_str() {
                "zh" => c.tokenizer = BleuTokenizer::Zh,
                "ja" => return Err(lang_needs("ja", "ja-mecab")),
                "ko" => return Err(lang_needs("ko", "ko-mecab")),
                _ => {}
            }
        }
        c.smooth = match (method, value) {
            (Some((name, Some(b))), Some(v)) if b.to_bits() != v.to_bits() => {
                return Err(MetricError::InvalidOption {
                    metric: METRIC,
                    reason: format!("smooth:{name}[{b}] and smooth_value:{v} disagree"),
                });
            }
            (Some((name, b)), v) => Smoothing::with_value(&name, b.or(v)).unwrap_or(Smoothing::Exp),
            (None, Some(v)) => match c.smooth {
                Smoothing::Floor(_) => Smoothing::Floor(v),
                Smoothing::AddK(_) => Smoothing::AddK(v),
                s => s,
            },
            (None, None) => c.smooth,
        };
        Ok(c)
    }

    /// Parses options on top of sacrebleu's `BLEU()` defaults ([`Self::default`]).
    ///
    /// # Errors
    /// See [`Self::parse_with`].
    pub fn parse(options: &str) -> Result<Self, MetricError> {
        Self::parse_with(Self::default(), options)
    }

    /// Length of a statistics vector (`2 + 2 × max_ngram_order`).
    #[must_use]
    pub const fn stats_len(&self) -> usize {
        2 + 2 * self.max_ngram_order
    }

    /// The reproducibility signature for `nrefs` references: sacrebleu's,
    /// plus `ngram:N` when N is not 4, then `impl`.
    #[must_use]
    pub fn signature(&self, nrefs: NRefs) -> Signature {
        let mut s = Signature::of_refs(nrefs);
        s.push("case", if self.lowercase { "lc" } else { "mixed" });
        s.push("eff", if self.effective_order { "yes" } else { "no" });
        s.push("tok", self.tokenizer.name());
        s.push("smooth", self.smooth.signature_value());
        if self.max_ngram_order != DEFAULT_NGRAM_ORDER {
            s.push("ngram", self.max_ngram_order);
        }
        s.stamped(SACREBLEU_VERSION)
    }

    /// sacrebleu's `_preprocess_segment`: lower-cased (`case:lc`), then
    /// tokenized after `str.rstrip()`.
    #[must_use]
    pub fn preprocess(&self, sent: &str) -> String {
        if self.lowercase {
            self.tokenizer.tokenize(py_rstrip(&py_lower(sent)))
        } else {
            self.tokenizer.tokenize(py_rstrip(sent))
        }
    }

    /// Statistics of one segment, `[hyp_len, ref_len, correct × N, total × N]`;
    /// `None` when `refs` is empty.
    #[must_use]
    pub fn segment(&self, hyp: &str, refs: &[&str]) -> Option<Vec<u64>> {
        if refs.is_empty() {
            return None;
        }
        let refs: Vec<String> = refs.iter().map(|r| self.preprocess(r)).collect();
        Some(self.count(&self.preprocess(hyp), &refs, self.tokenizer.joins_words()))
    }

    /// [`Self::segment`] of a hypothesis and references already through
    /// [`Self::preprocess`] (words are split with Python's `str.split()`).
    /// With no reference, `ref_len` is 0 and nothing matches.
    #[must_use]
    pub fn segment_preprocessed<R: AsRef<str>>(&self, hyp: &str, refs: &[R]) -> Vec<u64> {
        self.count(hyp, refs, false)
    }

    /// [`Self::segment_preprocessed`]; `joined`: the texts are words joined
    /// by single spaces (a tokenizer's output), so splitting at `' '` is
    /// Python's `str.split()`.
    fn count<R: AsRef<str>>(&self, hyp: &str, refs: &[R], joined: bool) -> Vec<u64> {
        let n_max = self.max_ngram_order;
        WORDS.with_borrow_mut(|sc| {
            // Word ids of the hypothesis's words; reference words it lacks
            // get `u32::MAX`, so their n-grams never meet the hypothesis's.
            let WordScratch { table, hyp_ids, ref_ids, ref_ends } = sc;
            table.reset(hyp.len() / 2 + 1);
            hyp_ids.clear();
            hyp_ids.extend(words(hyp, joined).map(|w| table.intern(hyp, w)));
            ref_ids.clear();
            ref_ends.clear();
            for t in refs {
                ref_ids.extend(words(t.as_ref(), joined).map(|w| table.get(hyp, w)));
                ref_ends.push(ref_ids.len());
            }
            let ref_lens: Vec<usize> = std::iter::once(0)
                .chain(ref_ends.iter().copied())
                .zip(ref_ends.iter())
                .map(|(start, &end)| end - start)
                .collect();
            let refs_ids: Vec<&[u32]> = std::iter::once(0)
                .chain(ref_ends.iter().copied())
                .zip(ref_ends.iter())
                .map(|(start, &end)| &ref_ids[start..end])
                .collect();
            let mut stats = vec![0u64; self.stats_len()];
            stats[0] = hyp_ids.len() as u64;
            stats[1] = closest_ref_len(hyp_ids.len(), &ref_lens) as u64;
            if n_max <= 4 && table.len() < 0xFFFF {
                tally_packed(n_max, hyp_ids, &refs_ids, &mut stats);
            } else {
                tally_slices(n_max, hyp_ids, &refs_ids, &mut stats);
            }
            stats
        })
    }

    /// The score of (summed) statistics, sacrebleu's `compute_bleu`.
    ///
    /// # Panics
    /// When `stats` is shorter than [`Self::stats_len`].
    #[must_use]
    pub fn score(&self, stats: &[u64]) -> f64 {
        self.score_details(stats).score
    }

    /// [`Self::score`] with sacrebleu's `BLEUScore` details.
    ///
    /// # Panics
    /// When `stats` is shorter than [`Self::stats_len`].
    #[must_use]
    pub fn score_details(&self, stats: &[u64]) -> BleuScore {
        let n = self.max_ngram_order;
        compute_bleu(&stats[2..2 + n], &stats[2 + n..2 + 2 * n], stats[0], stats[1], self.smooth, self.effective_order)
    }

    /// Sentence BLEU of `hyp` against `refs` (`None` when `refs` is empty).
    #[must_use]
    pub fn sentence_score(&self, hyp: &str, refs: &[&str]) -> Option<f64> {
        self.segment(hyp, refs).map(|s| self.score(&s))
    }
}

/// The n-gram counting of [`BleuConfig::segment`] for any order: an n-gram
/// is its slice of word ids.
fn tally_slices(n_max: usize, hyp_ids: &[u32], refs_ids: &[&[u32]], stats: &mut [u64]) {
    // Hypothesis n-gram -> its count, its highest count in one reference,
    // and the count in the reference being read (valid when `seen` is it).
    let mut grams: FastMap<&[u32], Gram> = FastMap::with_capacity_and_hasher(
        hyp_ids.len() * n_max.min(hyp_ids.len().max(1)),
        BuildHasherDefault::default(),
    );
    for n in 1..=n_max.min(hyp_ids.len()) {
        for g in hyp_ids.windows(n) {
            grams.entry(g).or_default().hyp += 1;
        }
    }
    for (r, r_ids) in refs_ids.iter().enumerate() {
        for n in 1..=n_max.min(r_ids.len()) {
            for g in r_ids.windows(n) {
                if let Some(e) = grams.get_mut(g) {
                    if e.seen != r + 1 {
                        e.seen = r + 1;
                        e.cur = 0;
                    }
                    e.cur += 1;
                    e.ref_max = e.ref_max.max(e.cur);
                }
            }
        }
    }
    for (g, e) in &grams {
        let o = g.len() - 1;
        stats[2 + o] += e.hyp.min(e.ref_max);
        stats[2 + n_max + o] += e.hyp;
    }
}

/// The n-gram counting of [`BleuConfig::segment`] for orders up to 4 and
/// fewer than 65,535 distinct hypothesis words: an n-gram is one `u64`
/// (16 bits per word id + 1, so n-grams of different orders differ and none
/// is 0), counted in this thread's [`GramTable`]; reference n-grams with a
/// word the hypothesis lacks are skipped.
fn tally_packed(n_max: usize, hyp_ids: &[u32], refs_ids: &[&[u32]], stats: &mut [u64]) {
    GRAMS.with_borrow_mut(|t| {
        t.reset(hyp_ids.len() * n_max);
        // The n-grams starting at each word, each key the one before it
        // shifted by a word.
        for i in 0..hyp_ids.len() {
            let mut key = 0u64;
            for &id in &hyp_ids[i..(i + n_max).min(hyp_ids.len())] {
                key = (key << 16) | u64::from(id + 1);
                t.entry(key).hyp += 1;
            }
        }
        for (r, r_ids) in refs_ids.iter().enumerate() {
            let r = u32::try_from(r + 1).unwrap_or(u32::MAX);
            for i in 0..r_ids.len() {
                let mut key = 0u64;
                for &id in &r_ids[i..(i + n_max).min(r_ids.len())] {
                    // An n-gram whose first n - 1 words are no hypothesis
                    // n-gram is none either (nor is one with a word the
                    // hypothesis lacks).
                    if id == u32::MAX {
                        break;
                    }
                    key = (key << 16) | u64::from(id + 1);
                    let Some(e) = t.get_mut(key) else { break };
                    if e.seen != r {
                        e.seen = r;
                        e.cur = 0;
                    }
                    e.cur += 1;
                    e.ref_max = e.ref_max.max(e.cur);
                }
            }
        }
        for &slot in &t.used {
            let (key, e) = (t.keys[slot as usize], t.vals[slot as usize]);
            // The n-gram's order: its number of non-zero 16-bit groups.
            let o = (63 - key.leading_zeros() as usize) / 16;
            stats[2 + o] += u64::from(e.hyp.min(e.ref_max));
            stats[2 + n_max + o] += u64::from(e.hyp);
        }
    });
}

thread_local! {
    /// [`tally_packed`]'s table, kept between segments.
    static GRAMS: std::cell::RefCell<GramTable> = std::cell::RefCell::new(GramTable::default());
}

/// Counts of one packed hypothesis n-gram.
#[derive(Default, Clone, Copy)]
struct PackedGram {
    hyp: u32,
    ref_max: u32,
    /// The count in the reference `seen` (1-based; 0: none yet).
    cur: u32,
    seen: u32,
}

/// An open-addressing table from packed n-grams (never 0: 0 marks a free
/// slot) to their counts, sized for one segment at a time within a buffer
/// that only grows; `used` lists the filled slots, which are all a reset
/// clears.
#[derive(Default)]
struct GramTable {
    keys: Vec<u64>,
    vals: Vec<PackedGram>,
    used: Vec<u32>,
    /// This segment's slot count is `1 << bits`.
    bits: u32,
}

impl GramTable {
    /// Empties the table for a segment of at most `n` distinct n-grams.
    fn reset(&mut self, n: usize) {
        for &slot in &self.used {
            self.keys[slot as usize] = 0;
        }
        self.used.clear();
        let slots = (2 * n).next_power_of_two().max(16);
        if self.keys.len() < slots {
            self.keys.resize(slots, 0);
            self.vals.resize(slots, PackedGram::default());
        }
        self.bits = slots.trailing_zeros();
    }

    /// The slot of `key`, or the free slot where it goes. The table is never
    /// more than half full, so the probe ends.
    #[inline]
    fn slot(&self, key: u64) -> usize {
        let mask = (1usize << self.bits) - 1;
        // Fibonacci hashing: the top bits of the product mix every key bit.
        #[allow(clippy::cast_possible_truncation, reason = "a slot index of at most `bits` bits")]
        let mut i = (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - self.bits)) as usize;
        loop {
            let k = self.keys[i];
            if k == key || k == 0 {
                return i;
            }
            i = (i + 1) & mask;
        }
    }

    fn entry(&mut self, key: u64) -> &mut PackedGram {
        let i = self.slot(key);
        if self.keys[i] == 0 {
            self.keys[i] = key;
            self.vals[i] = PackedGram::default();
            #[allow(clippy::cast_possible_truncation, reason = "slots are fewer than 2^32: a segment's n-grams")]
            self.used.push(i as u32);
        }
        &mut self.vals[i]
    }

    fn get_mut(&mut self, key: u64) -> Option<&mut PackedGram> {
        let i = self.slot(key);
        (self.keys[i] != 0).then(|| &mut self.vals[i])
    }
}

thread_local! {
    /// [`BleuConfig::count`]'s buffers, kept between segments.
    static WORDS: std::cell::RefCell<WordScratch> = std::cell::RefCell::new(WordScratch::default());
}

/// Word ids of one segment: the hypothesis's, then every reference's, one
/// after another (`ref_ends[r]`: where reference `r`'s end).
#[derive(Default)]
struct WordScratch {
    table: WordTable,
    hyp_ids: Vec<u32>,
    ref_ids: Vec<u32>,
    ref_ends: Vec<usize>,
}

/// The distinct words of a hypothesis, numbered in order of appearance: an
/// open-addressing table of (hash, position in the hypothesis, length, id),
/// sized for one segment at a time within a buffer that only grows.
#[derive(Default)]
struct WordTable {
    /// `(hash | 1, start, len, id)`; a hash of 0 marks a free slot.
    slots: Vec<(u64, usize, usize, u32)>,
    used: Vec<usize>,
    bits: u32,
}

impl WordTable {
    /// Empties the table for a hypothesis of at most `n` distinct words.
    fn reset(&mut self, n: usize) {
        for &slot in &self.used {
            self.slots[slot].0 = 0;
        }
        self.used.clear();
        let slots = (2 * n).next_power_of_two().max(16);
        if self.slots.len() < slots {
            self.slots.resize(slots, (0, 0, 0, 0));
        }
        self.bits = slots.trailing_zeros();
    }

    /// Distinct words so far.
    fn len(&self) -> usize {
        self.used.len()
    }

    /// The slot of `w` (a word; `hyp` holds the words in the table), or the
    /// free slot where it goes, and the word's hash.
    #[inline]
    fn find(&self, hyp: &str, w: &str) -> (usize, u64) {
        let mut h = crate::hash::FastHasher::default();
        std::hash::Hasher::write(&mut h, w.as_bytes());
        // Never 0; the top bits pick the slot.
        let hash = std::hash::Hasher::finish(&h).wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        let mask = (1usize << self.bits) - 1;
        #[allow(clippy::cast_possible_truncation, reason = "a slot index of at most `bits` bits")]
        let mut i = (hash >> (64 - self.bits)) as usize;
        loop {
            let (k, start, len, _) = self.slots[i];
            if k == 0 || (k == hash && hyp.as_bytes().get(start..start + len) == Some(w.as_bytes())) {
                return (i, hash);
            }
            i = (i + 1) & mask;
        }
    }

    /// The id of `w`, a word of `hyp` (a slice of it), numbered if new
    /// (ids past `u32::MAX - 1` stay there, as [`BleuConfig::count`]
    /// counts such a hypothesis with the slices of ids).
    fn intern(&mut self, hyp: &str, w: &str) -> u32 {
        let (i, hash) = self.find(hyp, w);
        if self.slots[i].0 == 0 {
            let start = w.as_ptr() as usize - hyp.as_ptr() as usize;
            let id = u32::try_from(self.used.len()).unwrap_or(u32::MAX - 1);
            self.slots[i] = (hash, start, w.len(), id);
            self.used.push(i);
        }
        self.slots[i].3
    }

    /// The id of `w`, or `u32::MAX` for a word the hypothesis lacks.
    fn get(&self, hyp: &str, w: &str) -> u32 {
        let (i, _) = self.find(hyp, w);
        if self.slots[i].0 == 0 { u32::MAX } else { self.slots[i].3 }
    }
}

/// The words of `s`: Python's `str.split()`, or for a tokenizer's output
/// (`joined`: words joined by single spaces) a split at `' '`.
fn words(s: &str, joined: bool) -> Words<'_> {
    if joined { Words::Joined(JoinedWords { s, at: 0 }) } else { Words::Py(py_split(s)) }
}

/// [`words`]' iterator.
enum Words<'a> {
    Joined(JoinedWords<'a>),
    Py(crate::py::text::PySplit<'a>),
}

impl<'a> Iterator for Words<'a> {
    type Item = &'a str;

    #[inline]
    fn next(&mut self) -> Option<&'a str> {
        match self {
            Self::Joined(w) => w.next(),
            Self::Py(w) => w.next(),
        }
    }
}

/// The words of a text of words joined by single spaces (no space at either
/// end: a tokenizer's output; an empty text has none).
struct JoinedWords<'a> {
    s: &'a str,
    at: usize,
}

impl<'a> Iterator for JoinedWords<'a> {
    type Item = &'a str;

    #[inline]
    fn next(&mut self) -> Option<&'a str> {
        let b = self.s.as_bytes();
        // Tolerate extra spaces all the same.
        while self.at < b.len() && b[self.at] == b' ' {
            self.at += 1;
        }
        if self.at == b.len() {
            return None;
        }
        let start = self.at;
        while self.at < b.len() && b[self.at] != b' ' {
            self.at += 1;
        }
        // Both ends are at a space or the text's ends: character boundaries.
        self.s.get(start..self.at)
    }
}

/// Counts of one hypothesis n-gram while a segment is scored.
#[derive(Default, Clone, Copy)]
struct Gram {
    hyp: u64,
    ref_max: u64,
    cur: u64,
    /// 1 + the index of the reference `cur` counts in (0: none yet).
    seen: usize,
}

/// sacrebleu's `_get_closest_ref_len`: the reference length closest to
/// `hyp_len`, the shorter one on ties (0 with no reference; sacrebleu
/// would give -1).
fn closest_ref_len(hyp_len: usize, ref_lens: &[usize]) -> usize {
    let mut best: Option<(usize, usize)> = None;
    for &len in ref_lens {
        let diff = hyp_len.abs_diff(len);
        best = match best {
            Some((d, l)) if diff > d || (diff == d && len >= l) => Some((d, l)),
            _ => Some((diff, len)),
        };
    }
    best.map_or(0, |(_, l)| l)
}

/// A BLEU score with the quantities sacrebleu's `BLEUScore` reports.
#[derive(Debug, Clone, PartialEq)]
pub struct BleuScore {
    /// BLEU, 0–100.
    pub score: f64,
    /// Per-order precisions (0–100) as `compute_bleu` leaves them: smoothed,
    /// 0 for the orders after a zero total, all 0 when nothing matched.
    pub precisions: Vec<f64>,
    /// Brevity penalty.
    pub bp: f64,
    /// Hypothesis length (summed).
    pub sys_len: u64,
    /// Closest reference length (summed).
    pub ref_len: u64,
}

impl BleuScore {
    /// `sys_len / ref_len`, 0 when `ref_len` is 0 (sacrebleu's `ratio`).
    #[must_use]
    pub fn ratio(&self) -> f64 {
        if self.ref_len == 0 { 0.0 } else { self.sys_len as f64 / self.ref_len as f64 }
    }
}

/// sacrebleu's `compute_bleu(correct, total, sys_len, ref_len, smooth_method,
/// smooth_value, effective_order, max_ngram_order)` with `max_ngram_order` =
/// `correct.len()`, in the same `f64` operations and order. Counts are
/// converted to `f64` exactly (below 2^53), as Python converts its integers.
///
/// # Panics
/// When `total` is shorter than `correct`.
#[must_use]
pub fn compute_bleu(
    correct: &[u64],
    total: &[u64],
    sys_len: u64,
    ref_len: u64,
    smooth: Smoothing,
    effective_order: bool,
) -> BleuScore {
    let max_order = correct.len();
    let mut bp = 1.0;
    if sys_len < ref_len {
        bp = if sys_len > 0 { (1.0 - ref_len as f64 / sys_len as f64).exp() } else { 0.0 };
    }
    let mut precisions = vec![0.0f64; max_order];
    let done = |score, precisions| BleuScore { score, precisions, bp, sys_len, ref_len };
    if correct.iter().all(|&c| c == 0) {
        return done(0.0, precisions);
    }
    let mut smooth_mteval = 1.0f64;
    let mut eff_order = max_order;
    for n in 1..=max_order {
        let (mut c, mut t) = (correct[n - 1] as f64, total[n - 1] as f64);
        if let Smoothing::AddK(k) = smooth
            && n > 1
        {
            c += k;
            t += k;
        }
        if t == 0.0 {
            break;
        }
        if effective_order {
            eff_order = n;
        }
        if c == 0.0 {
            match smooth {
                Smoothing::Exp => {
                    smooth_mteval *= 2.0;
                    precisions[n - 1] = 100.0 / (smooth_mteval * t);
                }
                Smoothing::Floor(v) => precisions[n - 1] = 100.0 * v / t,
                Smoothing::None | Smoothing::AddK(_) => {}
            }
        } else {
            precisions[n - 1] = 100.0 * c / t;
        }
    }
    let log_sum = precisions[..eff_order].iter().fold(0.0f64, |acc, &p| acc + my_log(p));
    let score = bp * (log_sum / eff_order as f64).exp();
    done(score, precisions)
}

/// sacrebleu's `my_log`: `log`, with -9999999999 for 0.
fn my_log(x: f64) -> f64 {
    if x == 0.0 { -9_999_999_999.0 } else { x.ln() }
}

/// Summable corpus statistics: the element-wise sums of segment statistics.
pub type BleuStats = crate::sums::CountSums<BleuConfig>;

impl BleuStats {
    /// Corpus score (`None` for an empty corpus).
    #[must_use]
    pub fn score(&self, cfg: &BleuConfig) -> Option<f64> {
        self.score_details(cfg).map(|s| s.score)
    }

    /// Corpus score with its details (`None` for an empty corpus).
    #[must_use]
    pub fn score_details(&self, cfg: &BleuConfig) -> Option<BleuScore> {
        self.padded(cfg.stats_len()).map(|s| cfg.score_details(&s))
    }
}

fn parse_order(k: &str, v: &str) -> Result<usize, MetricError> {
    match v.parse::<usize>() {
        Ok(n) if n <= MAX_NGRAM_ORDER => Ok(n),
        _ => Err(bad(k, v, &format!("an integer 0..={MAX_NGRAM_ORDER}"))),
    }
}

/// `exp`, `none`, `floor`, `add-k`, the last two optionally `[value]`.
fn parse_smooth(k: &str, v: &str) -> Result<(String, Option<f64>), MetricError> {
    let expected = "exp, none, floor, add-k, floor[V] or add-k[V]";
    let (name, value) = match v.split_once('[') {
        None => (v, None),
        Some((name, rest)) => {
            let Some(num) = rest.strip_suffix(']') else { return Err(bad(k, v, expected)) };
            if !matches!(name, "floor" | "add-k") {
                return Err(bad(k, v, "a [value] only after floor or add-k"));
            }
            (name, Some(parse_smooth_value(k, num)?))
        }
    };
    if Smoothing::with_value(name, None).is_none() {
        return Err(bad(k, v, expected));
    }
    Ok((name.to_owned(), value))
}

/// The largest smoothing value. A precision is `100 × value / total`, so a
/// value near `f64::MAX` overflows to an infinite precision and an infinite
/// BLEU (sacrebleu prints `inf`); every value up to this one gives a finite
/// score equal to sacrebleu's.
pub const MAX_SMOOTH_VALUE: f64 = 1e300;

/// A smoothing value: a number from 0 to [`MAX_SMOOTH_VALUE`] (`-0` is 0).
/// sacrebleu takes any number, but a negative one can make it take the log
/// of a negative precision, which raises, and a huge one gives `inf`.
fn parse_smooth_value(k: &str, v: &str) -> Result<f64, MetricError> {
    match v.trim().parse::<f64>() {
        Ok(x) if (0.0..=MAX_SMOOTH_VALUE).contains(&x) => Ok(x + 0.0),
        _ => Err(bad(k, v, "a number from 0 to 1e300 (a larger one makes the score infinite)")),
    }
}

/// A language code: 2–3 ASCII letters, optionally `-`/`_` and up to 8 letters or digits.
fn parse_lang(k: &str, v: String) -> Result<String, MetricError> {
    let (lang, region) = v.split_once(['-', '_']).unwrap_or((&v, ""));
    let ok = (2..=3).contains(&lang.len())
        && lang.bytes().all(|b| b.is_ascii_alphabetic())
        && region.len() <= 8
        && region.bytes().all(|b| b.is_ascii_alphanumeric())
        && (region.is_empty() == (lang.len() == v.len()));
    if ok { Ok(v) } else { Err(bad(k, &v, "a language code such as zh or en")) }
}

fn lang_needs(lang: &str, tok: &str) -> MetricError {
    match BleuTokenizer::from_name(tok) {
        Err(MetricError::InvalidOption { reason, .. }) => MetricError::InvalidOption {
            metric: METRIC,
            reason: format!("trg_lang:{lang} selects {reason} (give another tok to use with trg_lang:{lang})"),
        },
        _ => bad("trg_lang", lang, "a language with a supported tokenizer"),
    }
}

fn bad(k: &str, v: &str, expected: &str) -> MetricError {
    crate::signature::bad_value(METRIC, k, v, expected)
}

#[cfg(test)]
mod tests;
