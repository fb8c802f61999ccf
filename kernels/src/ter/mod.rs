//! Translation Edit Rate, exactly as sacrebleu 2.6.0 computes it.
//!
//! * Definition: Snover et al. (2006), "A Study of Translation Edit Rate with
//!   Targeted Human Annotation"; shifts of word blocks cost one edit.
//! * Reference implementation matched: sacrebleu 2.6.0 `TER` (`lib_ter.py`,
//!   `tokenizer_ter.py`), option for option, including its band, its
//!   1000-candidate budget and its empty-input rules (`sacrebleu/metrics/lib_ter.py`).
//! * Multiple references: the fewest edits over the references, normalised by
//!   the *average* reference length. Corpus score: Σ edits / Σ average lengths.
//! * Scale: 100 × edits / length (can exceed 100). 100 for an empty reference
//!   with a non-empty hypothesis, 0 when both are empty.
//! * sacrebleu preprocesses references twice (hypotheses once); so do we, see
//!   [`crate::tokenize::TercomTokenizer::reference_words`].
//! * Signature: `nrefs:1|case:lc|tok:tercom|norm:no|punct:yes|asian:no|version:2.6.0|impl:mteval-X`.
//! * Option `algo:seed` switches to the seed's greedy TER (§2.1): fraction
//!   scale, no band, no budget, and an empty reference is an error.

pub(crate) mod beam;
pub mod mbr;
pub mod metric;
mod seed;
pub(crate) mod shift;

use crate::hash::FastMap;
use std::hash::BuildHasherDefault;

pub use beam::Op;
pub use shift::perform_shift;

use crate::MetricError;
use crate::options::OptionKey;
use crate::py::text::py_split;
use crate::signature::{NRefs, Signature, parse_bool, parse_options};
use crate::tokenize::TercomTokenizer;

/// Fewest rows in one part of a pipelined GPU run (see [`Ter::segments_on`]).
pub const PIPELINE_MIN_ROWS: usize = 256;

/// The sacrebleu version whose TER this module reproduces.
pub const SACREBLEU_VERSION: &str = "2.6.0";

/// Which TER algorithm to run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum TerAlgo {
    /// sacrebleu 2.6.0 (default).
    #[default]
    Sacrebleu,
    /// The seed's greedy TER (fraction scale).
    Seed,
}

/// TER options (sacrebleu's `TER(...)` arguments plus the algorithm).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct TerConfig {
    /// Tokenizer options.
    pub tokenizer: TercomTokenizer,
    /// Algorithm.
    pub algo: TerAlgo,
    /// Longest segment accepted, in tokenized words per side (`None` =
    /// [`TER_MAX_WORDS`], or [`SEED_MAX_WORDS`] with `algo:seed`). TER's shift search and its alignment matrix grow
    /// with the square of the length, so longer segments are refused with an
    /// error instead of exhausting memory. Not part of the signature: it
    /// never changes a score.
    pub max_words: Option<usize>,
}

/// Default segment length limit of TER, in words per side: about 130 MB and
/// half a second for a segment at the limit.
pub const TER_MAX_WORDS: usize = 5_000;

/// Default segment length limit of `algo:seed`, in words per side. The
/// seed's greedy search scores every block of up to 10 words at every
/// destination with a full edit distance, each round: its time grows with
/// the fourth power of the length and more (about 0.6 s for a shuffled
/// segment at the limit; 1,000 words would take about half an hour).
pub const SEED_MAX_WORDS: usize = 200;

const METRIC: &str = "TER";

/// TER's option keys (the SQL guide's TER table is generated from these).
pub const OPTIONS: &[OptionKey] = &[
    OptionKey::new("case", "`lc` \\| `mixed`", "sacrebleu's `case_sensitive`"),
    OptionKey::new("norm", "`no` \\| `yes`", "sacrebleu's `normalized`"),
    OptionKey::new("punct", "`yes` (keep) \\| `no` (remove)", "sacrebleu's `no_punct`"),
    OptionKey::new(
        "asian",
        "`no` \\| `yes`",
        "sacrebleu's `asian_support` (only acts with `norm:yes` or `punct:no`, as in sacrebleu)",
    ),
    OptionKey::new("tok", "`tercom`", "the tokenizer (sacrebleu's only one for TER)"),
    OptionKey::new(
        "algo",
        "`sacrebleu` \\| `seed`",
        "`seed` = the seed project's simpler greedy TER: full DP, no band or budget, fraction scale, empty \
         reference is an error",
    ),
    OptionKey::new(
        "max_words",
        "`5000` (`200` with `algo:seed`) \\| N \\| `none`",
        "mteval's guard, not in the signature: a segment with more tokenized words on either side is an error \
         naming the row (TER's alignment matrix and shift search grow with the square of the length: a 1 MB row \
         would need tens of GB; at 5,000 words a row takes about 0.5 s and 130 MB). `algo:seed` scores every block \
         at every destination with a full edit distance, each round, so its time grows with the fourth power of \
         the length and more: its limit is 200 words (0.25–0.6 s for a shuffled 200-word row, with a bit-parallel \
         distance per candidate, see docs/PERFORMANCE.md; 1,000 words would take about half an hour)",
    ),
];

impl TerConfig {
    /// Parses options in signature syntax, e.g. `"case:mixed|norm:yes|punct:no|asian:yes"`.
    ///
    /// Keys: `case` (`lc`|`mixed`), `norm` (`yes`|`no`), `punct` (`yes` keeps
    /// punctuation, `no` removes it), `asian` (`yes`|`no`), `algo`
    /// (`sacrebleu`|`seed`); `tok` must be `tercom`; `nrefs`, `version`, `impl`
    /// are accepted and ignored so a printed signature can be pasted back.
    ///
    /// # Errors
    /// Unknown keys or values, naming them.
    pub fn parse(options: &str) -> Result<Self, MetricError> {
        let mut cfg = Self::default();
        for (k, v) in parse_options(METRIC, options)? {
            let t = &mut cfg.tokenizer;
            match k.as_str() {
                "case" => t.case_sensitive = !crate::signature::parse_lowercase(METRIC, &k, &v, "lc or mixed")?,
                "norm" => t.normalized = parse_bool(METRIC, &k, &v)?,
                "punct" => t.no_punct = !parse_bool(METRIC, &k, &v)?,
                "asian" => t.asian_support = parse_bool(METRIC, &k, &v)?,
                "tok" if v == "tercom" => {}
                "tok" => return Err(bad(&k, &v, "tercom")),
                "algo" => {
                    cfg.algo = match v.as_str() {
                        "sacrebleu" => TerAlgo::Sacrebleu,
                        "seed" => TerAlgo::Seed,
                        _ => return Err(bad(&k, &v, "sacrebleu or seed")),
                    }
                }
                "max_words" => cfg.max_words = Some(crate::signature::parse_limit(METRIC, &k, &v)?),
                _ => crate::options::other_key(METRIC, &k, &[OPTIONS])?,
            }
        }
        Ok(cfg)
    }

    /// The reproducibility signature for `nrefs` references.
    #[must_use]
    pub fn signature(&self, nrefs: NRefs) -> Signature {
        let yn = |b: bool| if b { "yes" } else { "no" };
        let t = &self.tokenizer;
        let mut s = Signature::of_refs(nrefs);
        s.push("case", if t.case_sensitive { "mixed" } else { "lc" });
        s.push("tok", "tercom");
        s.push("norm", yn(t.normalized));
        s.push("punct", yn(!t.no_punct));
        s.push("asian", yn(t.asian_support));
        if self.algo == TerAlgo::Seed {
            s.push("algo", "seed");
        }
        s.stamped(SACREBLEU_VERSION)
    }
}

fn bad(k: &str, v: &str, expected: &str) -> MetricError {
    crate::signature::bad_value(METRIC, k, v, expected)
}

/// Statistics of one segment against its best reference.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TerSegment {
    /// Edits (shifts included) against the best reference.
    pub num_edits: u32,
    /// Shifts against the best reference.
    pub num_shifts: u32,
    /// Average reference length in words.
    pub ref_len: f64,
    /// Index of the best reference (first one on ties).
    pub best_ref: usize,
}

/// Summable corpus statistics (a sufficient statistic for the corpus score).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct TerStats {
    /// Σ edits.
    pub num_edits: u64,
    /// Σ average reference lengths.
    pub ref_len: f64,
    /// Σ shifts (informational).
    pub num_shifts: u64,
    /// Number of segments.
    pub segments: u64,
}

impl TerStats {
    /// Adds one segment.
    pub fn add(&mut self, s: &TerSegment) {
        self.num_edits += u64::from(s.num_edits);
        self.ref_len += s.ref_len;
        self.num_shifts += u64::from(s.num_shifts);
        self.segments += 1;
    }

    /// Merges another partial state.
    pub fn merge(&mut self, o: &Self) {
        self.num_edits += o.num_edits;
        self.ref_len += o.ref_len;
        self.num_shifts += o.num_shifts;
        self.segments += o.segments;
    }
}

impl From<&TerSegment> for TerStats {
    fn from(s: &TerSegment) -> Self {
        let mut t = Self::default();
        t.add(s);
        t
    }
}

/// A configured TER metric.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Ter {
    /// Options.
    pub config: TerConfig,
}

/// Interns words to dense ids for one segment.
struct Interner<'a> {
    map: FastMap<&'a str, u32>,
}

/// Word ids of a hypothesis and its references, in one id space; the map
/// starts with room for `capacity` distinct words.
fn intern<'a, W: IntoIterator<Item = &'a str>>(
    capacity: usize,
    hyp: W,
    refs: impl Iterator<Item = W>,
) -> (Vec<u32>, Vec<Vec<u32>>) {
    let mut interner = Interner { map: FastMap::with_capacity_and_hasher(capacity, BuildHasherDefault::default()) };
    let h = interner.ids(hyp);
    let rs = refs.map(|r| interner.ids(r)).collect();
    (h, rs)
}

/// A segment after preprocessing: the hypothesis and reference strings
/// whose Python `split()` gives the words scored.
struct SegmentText {
    hyp: String,
    refs: Vec<String>,
}

impl SegmentText {
    /// Word ids of the hypothesis and the references, in one id space.
    fn ids(&self) -> (Vec<u32>, Vec<Vec<u32>>) {
        // Room for about one distinct word per six bytes, so the map seldom grows.
        let bytes = self.hyp.len() + self.refs.iter().map(String::len).sum::<usize>();
        intern(bytes / 6, py_split(&self.hyp), self.refs.iter().map(|r| py_split(r)))
    }
}

/// The segment statistics from `(edits, shifts)` per reference: the first
/// reference with the fewest edits, and the average reference length.
fn best_reference(refs: &[Vec<u32>], per_ref: &[(u32, u32)]) -> TerSegment {
    let mut best: Option<(u32, u32, usize)> = None;
    for (k, &(edits, shifts)) in per_ref.iter().enumerate() {
        if best.is_none_or(|(b, _, _)| edits < b) {
            best = Some((edits, shifts, k));
        }
    }
    let (num_edits, num_shifts, best_ref) = best.unwrap_or((0, 0, 0));
    let sum_len: usize = refs.iter().map(Vec::len).sum();
    #[allow(clippy::cast_precision_loss, reason = "reference lengths are far below 2^53")]
    let ref_len = sum_len as f64 / refs.len() as f64;
    TerSegment { num_edits, num_shifts, ref_len, best_ref }
}

impl<'a> Interner<'a> {
    fn ids(&mut self, words: impl IntoIterator<Item = &'a str>) -> Vec<u32> {
        words
            .into_iter()
            .map(|w| {
                #[allow(clippy::cast_possible_truncation, reason = "a segment has far fewer than 2^32 distinct words")]
                let next = self.map.len() as u32;
                *self.map.entry(w).or_insert(next)
            })
            .collect()
    }
}

/// TER's alignment of a hypothesis (the interface's [`Alignment`]).
pub use crate::metric::Alignment as TerAlignment;

impl Ter {
    /// TER with options parsed from `options` (see [`TerConfig::parse`]).
    ///
    /// # Errors
    /// Invalid options.
    pub fn from_options(options: &str) -> Result<Self, MetricError> {
        Ok(Self { config: TerConfig::parse(options)? })
    }

    /// The words a hypothesis is scored on.
    #[must_use]
    pub fn tokenize(&self, s: &str) -> Vec<String> {
        self.config.tokenizer.words(s)
    }

    /// The words a reference is scored on (sacrebleu tokenizes references twice).
    #[must_use]
    pub fn tokenize_reference(&self, s: &str) -> Vec<String> {
        self.config.tokenizer.reference_words(s)
    }

    /// The preprocessed hypothesis and references (references are
    /// preprocessed twice, as in sacrebleu).
    fn preprocess_segment(&self, hyp: &str, refs: &[&str]) -> SegmentText {
        let tok = &self.config.tokenizer;
        SegmentText { hyp: tok.preprocess(hyp), refs: refs.iter().map(|r| tok.preprocess_reference(r)).collect() }
    }

    /// Word ids of a segment, in one id space.
    ///
    /// # Errors
    /// A side over the `max_words` limit.
    fn segment_ids(&self, hyp: &str, refs: &[&str]) -> Result<(Vec<u32>, Vec<Vec<u32>>), MetricError> {
        let (h, rs) = self.preprocess_segment(hyp, refs).ids();
        self.check_length(&h, &rs)?;
        Ok((h, rs))
    }

    /// Statistics of `hyp` against `refs`; `None` when `refs` is empty
    /// (sacrebleu divides by zero there; callers treat it as NULL).
    ///
    /// # Errors
    /// A side longer than the `max_words` limit; `algo:seed` with an empty
    /// (tokenized) reference, which the seed rejects.
    pub fn segment(&self, hyp: &str, refs: &[&str]) -> Result<Option<TerSegment>, MetricError> {
        if refs.is_empty() {
            return Ok(None);
        }
        let (h, rs) = self.segment_ids(hyp, refs)?;
        self.segment_of_ids(&h, &rs).map(Some)
    }

    /// [`Self::segment`] on already tokenized words (non-empty `refs`).
    ///
    /// # Errors
    /// As [`Self::segment`].
    pub fn segment_words(&self, hyp: &[String], refs: &[Vec<String>]) -> Result<TerSegment, MetricError> {
        let words = hyp.len() + refs.iter().map(Vec::len).sum::<usize>();
        let (h, rs) = intern(words, hyp.iter().map(String::as_str), refs.iter().map(|r| r.iter().map(String::as_str)));
        self.check_length(&h, &rs)?;
        self.segment_of_ids(&h, &rs)
    }

    /// [`Self::segment_words`] on interned words.
    fn segment_of_ids(&self, h: &[u32], rs: &[Vec<u32>]) -> Result<TerSegment, MetricError> {
        let mut per_ref = Vec::with_capacity(rs.len());
        for r in rs {
            per_ref.push(match self.config.algo {
                TerAlgo::Sacrebleu => {
                    let res = shift::ter_pair(h, r);
                    (res.edits, res.shifts)
                }
                TerAlgo::Seed => {
                    if r.is_empty() {
                        return Err(MetricError::InvalidInput {
                            metric: METRIC,
                            reason: "algo:seed rejects an empty reference".into(),
                        });
                    }
                    let (e, s) = seed::seed_ter_pair(h, r);
                    (e + s, s)
                }
            });
        }
        Ok(best_reference(rs, &per_ref))
    }

    /// The `max_words` limit.
    fn check_length(&self, hyp: &[u32], refs: &[Vec<u32>]) -> Result<(), MetricError> {
        let (default, growth) = match self.config.algo {
            TerAlgo::Sacrebleu => (TER_MAX_WORDS, "TER's time and memory grow with the square of the length"),
            TerAlgo::Seed => (SEED_MAX_WORDS, "algo:seed's time grows with the fourth power of the length or faster"),
        };
        let limit = self.config.max_words.unwrap_or(default);
        let longest = refs.iter().map(Vec::len).chain([hyp.len()]).max().unwrap_or(0);
        if longest > limit {
            let side = if hyp.len() == longest { "hypothesis" } else { "reference" };
            return Err(MetricError::InvalidInput {
                metric: METRIC,
                reason: format!(
                    "the {side} has {longest} words after tokenization, over the limit of {limit} \
                     ({growth}; option max_words:N raises the limit)"
                ),
            });
        }
        Ok(())
    }

    /// [`Self::segment`] for every row, with the shift search's candidate
    /// search on `backend`: every row's whole search in one batch on a GPU
    /// (recomputed on the CPU if the GPU fails), the CPU's per-row path
    /// otherwise. Same statistics either way.
    ///
    /// On a GPU the rows are cut into [`crate::backend::ter_pipeline`]
    /// parts (of at least [`PIPELINE_MIN_ROWS`] rows) searched at once, so
    /// that one part's host work (tokenising, mapping words to ids) overlaps
    /// another part's kernel.
    pub fn segments_on<'a, R: AsRef<[&'a str]> + Sync>(
        &self,
        backend: &dyn crate::backend::Backend,
        rows: &[(&'a str, R)],
    ) -> Vec<Result<Option<TerSegment>, MetricError>> {
        use rayon::prelude::*;
        if !backend.offload(&crate::backend::Work::TerSegments { rows: rows.len() })
            || self.config.algo == TerAlgo::Seed
        {
            return rows.par_iter().map(|(h, r)| self.segment(h, r.as_ref())).collect();
        }
        let size = rows.len().div_ceil(crate::backend::ter_pipeline()).max(PIPELINE_MIN_ROWS);
        // Not from inside a rayon worker: the parts' threads would wait on
        // the pool that this thread, blocked on them, belongs to.
        if rows.len() <= size || rayon::current_thread_index().is_some() {
            return self.segments_batched(backend, rows);
        }
        std::thread::scope(|s| {
            let parts: Vec<_> =
                rows.chunks(size).map(|part| s.spawn(move || self.segments_batched(backend, part))).collect();
            parts.into_iter().flat_map(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p))).collect()
        })
    }

    /// [`Self::segments_on`] on a GPU for one part of the rows: every greedy
    /// round of all its rows in one batch.
    fn segments_batched<'a, R: AsRef<[&'a str]> + Sync>(
        &self,
        backend: &dyn crate::backend::Backend,
        rows: &[(&'a str, R)],
    ) -> Vec<Result<Option<TerSegment>, MetricError>> {
        use rayon::prelude::*;
        type Ids = (Vec<u32>, Vec<Vec<u32>>);
        let prepared: Vec<Result<Option<Ids>, MetricError>> = rows
            .par_iter()
            .map(|(h, r)| {
                let r = r.as_ref();
                if r.is_empty() {
                    return Ok(None);
                }
                self.segment_ids(h, r).map(Some)
            })
            .collect();
        let pairs: Vec<(&[u32], &[u32])> = prepared
            .iter()
            .filter_map(|p| p.as_ref().ok().and_then(Option::as_ref))
            .flat_map(|(h, rs)| rs.iter().map(move |r| (h.as_slice(), r.as_slice())))
            .collect();
        let per_pair = crate::backend::or_cpu(
            "TER",
            || {
                let hyps = crate::backend::Seqs::from_slices(pairs.iter().map(|p| p.0));
                let refs = crate::backend::Seqs::from_slices(pairs.iter().map(|p| p.1));
                backend.shift_search(&hyps, &refs)
            },
            || {
                pairs
                    .par_iter()
                    .map(|(h, r)| {
                        let p = shift::ter_pair(h, r);
                        (p.edits, p.shifts)
                    })
                    .collect()
            },
        );
        let mut next = 0;
        prepared
            .into_iter()
            .map(|p| {
                let Some((_, rs)) = p? else { return Ok(None) };
                let seg = best_reference(&rs, &per_pair[next..next + rs.len()]);
                next += rs.len();
                Ok(Some(seg))
            })
            .collect()
    }

    /// Score from (summed) statistics, on sacrebleu's scale (fraction for `algo:seed`).
    #[must_use]
    pub fn score(&self, stats: &TerStats) -> f64 {
        #[allow(clippy::cast_precision_loss, reason = "edit counts are far below 2^53")]
        let edits = stats.num_edits as f64;
        let frac = if stats.ref_len > 0.0 {
            edits / stats.ref_len
        } else if stats.num_edits > 0 {
            1.0
        } else {
            0.0
        };
        match self.config.algo {
            TerAlgo::Sacrebleu => 100.0 * frac,
            TerAlgo::Seed => frac,
        }
    }

    /// Sentence score of one segment.
    #[must_use]
    pub fn sentence_score(&self, seg: &TerSegment) -> f64 {
        self.score(&TerStats::from(seg))
    }

    /// The final alignment of `hyp` against its best reference (sacrebleu
    /// algorithm); `None` when `refs` is empty.
    ///
    /// # Errors
    /// A side longer than the `max_words` limit of the sacrebleu algorithm
    /// (the alignment's time and memory grow with the square of the length,
    /// as TER's).
    pub fn alignment(&self, hyp: &str, refs: &[&str]) -> Result<Option<TerAlignment>, MetricError> {
        if refs.is_empty() {
            return Ok(None);
        }
        let text = self.preprocess_segment(hyp, refs);
        let (h, rs) = text.ids();
        Self { config: TerConfig { algo: TerAlgo::Sacrebleu, ..self.config } }.check_length(&h, &rs)?;
        let mut best: Option<(usize, shift::PairResult)> = None;
        for (k, r) in rs.iter().enumerate() {
            let res = shift::ter_pair(&h, r);
            if best.as_ref().is_none_or(|(_, b)| res.edits < b.edits) {
                best = Some((k, res));
            }
        }
        let Some((best_ref, res)) = best else { return Ok(None) };
        let r = &rs[best_ref];
        let trace = shift::final_trace(&h, r, &res.order);
        let mut ops = Vec::with_capacity(trace.len());
        let mut hyp_words = res.order.iter();
        for op in trace {
            let label = match op {
                Op::Nop => "=",
                Op::Sub => "S",
                Op::Del => "I",
                Op::Ins => "D",
                Op::Undef => "?",
            };
            // Every op but a deletion consumes the next (shifted) hypothesis word.
            let moved =
                matches!(op, Op::Nop | Op::Sub | Op::Del) && hyp_words.next().is_some_and(|&o| res.shifted[o as usize]);
            ops.push(if moved { format!(">{label}") } else { label.to_owned() });
        }
        let hw: Vec<&str> = py_split(&text.hyp).collect();
        let shifted_hyp: Vec<&str> = res.order.iter().map(|&o| hw[o as usize]).collect();
        let reference = py_split(&text.refs[best_ref]).collect::<Vec<_>>().join(" ");
        Ok(Some(TerAlignment { ops: ops.join(" "), shifted_hyp: shifted_hyp.join(" "), reference }))
    }

    /// Corpus statistics of parallel `hyps` and per-segment `refs`.
    ///
    /// # Errors
    /// As [`Self::segment`].
    pub fn corpus(&self, hyps: &[&str], refs: &[Vec<&str>]) -> Result<TerStats, MetricError> {
        let mut st = TerStats::default();
        for (h, r) in hyps.iter().zip(refs) {
            if let Some(seg) = self.segment(h, r)? {
                st.add(&seg);
            }
        }
        Ok(st)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sent(t: &Ter, h: &str, r: &[&str]) -> (f64, u32, f64) {
        let s = t.segment(h, r).unwrap().unwrap();
        (t.sentence_score(&s), s.num_edits, s.ref_len)
    }

    #[test]
    fn empty_rules() {
        let t = Ter::default();
        assert_eq!(sent(&t, "", &[""]), (0.0, 0, 0.0));
        assert_eq!(sent(&t, "a b", &[""]), (100.0, 2, 0.0));
        assert_eq!(sent(&t, "", &["a b c"]), (100.0, 3, 3.0));
        assert!(t.segment("a", &[]).unwrap().is_none());
    }

    #[test]
    fn multi_reference_min_edits_avg_length() {
        let t = Ter::default();
        let (score, e, l) = sent(&t, "a b c", &["a b c d e f g h", "a b"]);
        assert_eq!(e, 1);
        assert!((l - 5.0).abs() < 1e-12);
        assert!((score - 20.0).abs() < 1e-12);
    }

    #[test]
    fn options_round_trip_through_signature() {
        let t = Ter::from_options("case:mixed|norm:yes|punct:no|asian:yes").unwrap();
        let sig = t.config.signature(NRefs::Fixed(1)).to_string();
        assert!(
            sig.starts_with("nrefs:1|case:mixed|tok:tercom|norm:yes|punct:no|asian:yes|version:2.6.0|impl:mteval-")
        );
        assert_eq!(Ter::from_options(&sig).unwrap(), t);
        assert!(Ter::from_options("case:upper").is_err());
        assert!(Ter::from_options("colour:red").is_err());
    }

    #[test]
    fn alignment_labels() {
        let t = Ter::default();
        let a = t.alignment("c d e a b x", &["a b c d e"]).unwrap().unwrap();
        assert_eq!(a.shifted_hyp, "a b c d e x");
        assert_eq!(a.ops, ">= >= = = = I");
        assert_eq!(a.reference, "a b c d e");
        // the reference with the fewest edits, lower-cased as scored
        let a = t.alignment("The cat sat", &["a dog ran off", "the cat sat down"]).unwrap().unwrap();
        assert_eq!((a.reference.as_str(), a.ops.as_str()), ("the cat sat down", "= = = D"));
        assert!(t.alignment("a", &[]).unwrap().is_none());
    }

    #[test]
    fn alignment_applies_the_length_limit() {
        let small = Ter::from_options("max_words:3").unwrap();
        assert_eq!(small.alignment("a b c", &["c b a"]).unwrap().unwrap().ops.split(' ').count(), 3);
        let err = small.alignment("a b c d", &["a"]).unwrap_err().to_string();
        assert!(err.contains("hypothesis has 4 words") && err.contains("limit of 3"), "{err}");
        // The default limit, as TER's, also for algo:seed (the alignment is sacrebleu's).
        let long = vec!["w"; TER_MAX_WORDS + 1].join(" ");
        for t in [Ter::default(), Ter::from_options("algo:seed").unwrap()] {
            let err = t.alignment(&long, &["w"]).unwrap_err().to_string();
            assert!(err.contains(&format!("limit of {TER_MAX_WORDS}")), "{err}");
        }
    }

    #[test]
    fn seed_variant_is_fraction_and_rejects_empty_ref() {
        let t = Ter::from_options("algo:seed").unwrap();
        let (s, e, _) = sent(&t, "b a c", &["a b c"]);
        assert_eq!(e, 1);
        assert!((s - 1.0 / 3.0).abs() < 1e-15);
        assert!(t.segment("a", &[""]).is_err());
    }

    #[test]
    fn segments_over_the_length_limit_are_errors() {
        let words = |n: usize| vec!["w"; n].join(" ");
        let small = Ter::from_options("max_words:3").unwrap();
        let seg = small.segment("a b c", &["a c b"]).unwrap().unwrap();
        assert_eq!((seg.num_edits, seg.num_shifts), (1, 1));
        let err = small.segment("a b c d", &["a"]).unwrap_err().to_string();
        assert!(err.contains("hypothesis has 4 words") && err.contains("limit of 3"), "{err}");
        let err = small.segment("a", &["a", "a b c d e"]).unwrap_err().to_string();
        assert!(err.contains("reference has 5 words"), "{err}");
        // Default limit, and none.
        let default = Ter::default();
        assert!(default.segment(&words(TER_MAX_WORDS), &["w"]).is_ok());
        assert!(default.segment(&words(TER_MAX_WORDS + 1), &["w"]).is_err());
        let unlimited = Ter::from_options("max_words:none").unwrap();
        assert!(unlimited.segment(&words(TER_MAX_WORDS + 1), &["w"]).is_ok());
        for bad in ["max_words:0", "max_words:-1", "max_words:many"] {
            assert!(TerConfig::parse(bad).is_err(), "{bad}");
        }
        // The limit is not part of the signature.
        assert_eq!(
            TerConfig::parse("max_words:7").unwrap().signature(NRefs::Fixed(1)).to_string(),
            TerConfig::default().signature(NRefs::Fixed(1)).to_string()
        );
    }
}
