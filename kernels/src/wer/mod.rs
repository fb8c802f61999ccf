//! Word error rate and its family (MER, WIL, WIP, and CER as `unit:char`),
//! exactly as jiwer 4.0.0 computes them.
//!
//! * Reference implementation matched: jiwer 4.0.0 (`process.py`,
//!   `measures.py`, `transforms.py`, `alignment.py`) over rapidfuzz 3.x's C++
//!   `Levenshtein.opcodes` (rapidfuzz-cpp 3.0.5–3.3.3, the same algorithm in
//!   every rapidfuzz jiwer 4.0.0 accepts).
//! * Tokens: `transform:default` is `wer_default` (collapse runs of two or
//!   more Python whitespace characters to a space, strip, split on the ASCII
//!   space only); `transform:standardize` is `wer_standardize` (first
//!   `str.lower()`, the English contractions, Kaldi non-words `[...]`/`<...>`
//!   removed, ASCII whitespace to spaces). `unit:char` is `cer_default`
//!   (strip, then code points; inner whitespace is kept and counts), and
//!   `unit:char|transform:standardize` is `wer_standardize` with
//!   `ReduceToListOfListOfChars` in place of `ReduceToListOfListOfWords`
//!   (jiwer has no such preset; it is that `Compose`). See [`transform`].
//! * Alignment: rapidfuzz's edit operations of reference → hypothesis,
//!   including its tie-breaking (deletion, then insertion, then the
//!   diagonal), its affix stripping and its Hirschberg split of long inputs
//!   (see [`editops`]), merged into jiwer's chunks (`equal`, `substitute`,
//!   `delete`, `insert`). WER and CER depend only on the distance; the hits,
//!   substitutions, deletions and insertions, and so MER, WIL and WIP, depend
//!   on which optimal alignment is chosen, and are rapidfuzz's.
//! * Counts (`H`, `S`, `D`, `I`, `N` = reference length = `H+S+D`, `P` =
//!   hypothesis length) are summed over a corpus before any ratio, as jiwer
//!   does for a list of sentences: `wer = (S+D+I)/N`, `mer = (S+D+I)/(N+I)`,
//!   `wip = (H/N)·(H/P)` (0 when `P = 0`), `wil = 1 − wip`. With `N = 0`
//!   (every reference empty) jiwer returns `wer = I`, `mer = 0` and `wip = 1`
//!   if `P = 0`, else `mer = 1` and `wip = 0`; jiwer's values there are
//!   Python ints, here the same numbers as `f64`.
//! * Several references (jiwer has exactly one per hypothesis): the
//!   reference with the fewest errors `S+D+I` (the Levenshtein distance) is
//!   used, the first one on ties; its counts are the row's.
//! * Signature: `nrefs:1|unit:word|transform:default|version:jiwer-4.0.0|impl:mteval-X`.

pub mod compose;
pub mod editops;
pub mod metric;
#[cfg(test)]
mod tests;
pub mod transform;

use std::borrow::Cow;
use std::cell::RefCell;
use std::fmt::Write as _;

use editops::{Aligner, EditKind, EditOp};

use crate::MetricError;
use crate::hash::FastMap;
use crate::levenshtein::CharIds;
use crate::options::OptionKey;
use crate::py::text::py_strip;
use crate::signature::{Signature, parse_choice, parse_options};
use crate::whisper::basic::{BasicOptions, basic};

const METRIC: &str = "WER";

/// The jiwer version this module reproduces.
pub const JIWER_VERSION: &str = "4.0.0";

/// WER's option keys (the SQL guide's WER table is generated from these).
pub const OPTIONS: &[OptionKey] = &[
    OptionKey::new(
        "unit",
        "`word` \\| `char`",
        "what is aligned: words (jiwer's `wer`, `mer`, `wil`, `wip`, `process_words`) or characters (jiwer's \
         `cer`, `process_characters`: code points, inner spaces included)",
    ),
    OptionKey::new(
        "transform",
        "`default` \\| `standardize` \\| `whisper_english` \\| `whisper_basic`",
        "jiwer's preset: `wer_default` / `cer_default` (collapse whitespace runs, strip, split on spaces), or \
         `wer_standardize` (also lower-case, expand English contractions, drop Kaldi non-words `[...]` `<...>`); \
         or Whisper's `EnglishTextNormalizer` / `BasicTextNormalizer` (as `whisper_normalize`) before the default",
    ),
];

/// What is aligned.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Unit {
    /// Words (`process_words`).
    #[default]
    Word,
    /// Characters (`process_characters`, CER).
    Char,
}

/// jiwer's transform preset.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Transform {
    /// `wer_default` (words) or `cer_default` (characters).
    #[default]
    Default,
    /// `wer_standardize` (with characters: its string steps, then characters).
    Standardize,
    /// Whisper's `EnglishTextNormalizer`, then the default.
    WhisperEnglish,
    /// Whisper's `BasicTextNormalizer`, then the default.
    WhisperBasic,
}

impl Transform {
    /// The option value.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::Default => "default",
            Self::Standardize => "standardize",
            Self::WhisperEnglish => "whisper_english",
            Self::WhisperBasic => "whisper_basic",
        }
    }
}

/// WER options.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct WerConfig {
    /// Words or characters.
    pub unit: Unit,
    /// Transform preset.
    pub transform: Transform,
}

/// The counts of one sentence pair, or their sums over a corpus.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct WerCounts {
    /// Reference tokens aligned to an equal hypothesis token.
    pub hits: u64,
    /// Reference tokens aligned to a different hypothesis token.
    pub substitutions: u64,
    /// Reference tokens aligned to nothing.
    pub deletions: u64,
    /// Hypothesis tokens aligned to nothing.
    pub insertions: u64,
    /// Reference tokens (`hits + substitutions + deletions`).
    pub ref_len: u64,
    /// Hypothesis tokens (`hits + substitutions + insertions`).
    pub hyp_len: u64,
}

/// The four measures of some counts.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct WerScores {
    /// Word (or character) error rate.
    pub wer: f64,
    /// Match error rate.
    pub mer: f64,
    /// Word information lost.
    pub wil: f64,
    /// Word information preserved.
    pub wip: f64,
}

#[allow(clippy::cast_precision_loss, reason = "counts stay far below 2^53")]
const fn f(x: u64) -> f64 {
    x as f64
}

impl WerCounts {
    /// `S + D + I`: the Levenshtein distance.
    #[must_use]
    pub const fn errors(&self) -> u64 {
        self.substitutions + self.deletions + self.insertions
    }

    /// Adds `other`'s counts (jiwer sums them over the sentences).
    pub fn add(&mut self, other: &Self) {
        let (a, b) = (self.to_array(), other.to_array());
        *self = Self::from_array(std::array::from_fn(|i| a[i] + b[i]));
    }

    /// The statistics row of [`crate::metric::Metric::segment`]:
    /// `[hits, substitutions, deletions, insertions, ref_len, hyp_len]`.
    #[must_use]
    pub const fn to_stats(&self) -> [f64; 6] {
        [f(self.hits), f(self.substitutions), f(self.deletions), f(self.insertions), f(self.ref_len), f(self.hyp_len)]
    }

    /// `[H, S, D, I, N, P]`.
    #[must_use]
    pub const fn to_array(&self) -> [u64; 6] {
        [self.hits, self.substitutions, self.deletions, self.insertions, self.ref_len, self.hyp_len]
    }

    /// The counts of `[H, S, D, I, N, P]` ([`Self::to_array`]).
    #[must_use]
    pub const fn from_array(c: [u64; 6]) -> Self {
        Self { hits: c[0], substitutions: c[1], deletions: c[2], insertions: c[3], ref_len: c[4], hyp_len: c[5] }
    }

    /// The counts of a statistics row ([`Self::to_stats`]); missing entries are 0.
    #[must_use]
    pub fn from_stats(stats: &[f64]) -> Self {
        let at = |i: usize| stats.get(i).map_or(0, |&x| crate::metric::count(x));
        Self { hits: at(0), substitutions: at(1), deletions: at(2), insertions: at(3), ref_len: at(4), hyp_len: at(5) }
    }

    /// jiwer's measures of these counts (`process_words`' tail).
    #[must_use]
    pub fn scores(&self) -> WerScores {
        let (h, s, d, i) = (self.hits, self.substitutions, self.deletions, self.insertions);
        let (n, p) = (self.ref_len, self.hyp_len);
        if n == 0 {
            let (mer, wip) = if p == 0 { (0.0, 1.0) } else { (1.0, 0.0) };
            return WerScores { wer: f(i), mer, wil: 1.0 - wip, wip };
        }
        let errors = f(s + d + i);
        let wer = errors / f(h + s + d);
        let mer = errors / f(h + s + d + i);
        let wip = if p >= 1 { (f(h) / f(n)) * (f(h) / f(p)) } else { 0.0 };
        WerScores { wer, mer, wil: 1.0 - wip, wip }
    }

    /// WER (or CER): `(S+D+I) / N`, `I` when `N = 0`.
    #[must_use]
    pub fn wer(&self) -> f64 {
        self.scores().wer
    }
}

/// The kind of an alignment chunk (jiwer's `AlignmentChunk.type`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ChunkKind {
    /// Equal tokens.
    Equal,
    /// Reference tokens replaced one for one.
    Substitute,
    /// Reference tokens missing from the hypothesis.
    Delete,
    /// Hypothesis tokens missing from the reference.
    Insert,
}

impl ChunkKind {
    /// jiwer's name: `equal`, `substitute`, `delete`, `insert`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::Equal => "equal",
            Self::Substitute => "substitute",
            Self::Delete => "delete",
            Self::Insert => "insert",
        }
    }
}

/// One chunk of an alignment: `reference[ref_start..ref_end]` against
/// `hypothesis[hyp_start..hyp_end]` (token indices, end exclusive).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct AlignmentChunk {
    /// What the chunk is.
    pub kind: ChunkKind,
    /// First reference token.
    pub ref_start: usize,
    /// One past the last reference token.
    pub ref_end: usize,
    /// First hypothesis token.
    pub hyp_start: usize,
    /// One past the last hypothesis token.
    pub hyp_end: usize,
}

/// rapidfuzz's `Opcodes(editops)`: runs of same-kind contiguous operations
/// merged, the gaps between them `equal` (renamed as jiwer does).
#[must_use]
pub fn chunks(ops: &[EditOp], ref_len: usize, hyp_len: usize) -> Vec<AlignmentChunk> {
    let mut out = Vec::new();
    let (mut s, mut d, mut i) = (0, 0, 0);
    let chunk =
        |kind, ref_start, ref_end, hyp_start, hyp_end| AlignmentChunk { kind, ref_start, ref_end, hyp_start, hyp_end };
    while let Some(&op) = ops.get(i) {
        if s < op.src || d < op.dest {
            out.push(chunk(ChunkKind::Equal, s, op.src, d, op.dest));
            s = op.src;
            d = op.dest;
        }
        let (sb, db) = (s, d);
        loop {
            match op.kind {
                EditKind::Replace => {
                    s += 1;
                    d += 1;
                }
                EditKind::Insert => d += 1,
                EditKind::Delete => s += 1,
            }
            i += 1;
            match ops.get(i) {
                Some(n) if n.kind == op.kind && n.src == s && n.dest == d => {}
                _ => break,
            }
        }
        let kind = match op.kind {
            EditKind::Replace => ChunkKind::Substitute,
            EditKind::Insert => ChunkKind::Insert,
            EditKind::Delete => ChunkKind::Delete,
        };
        out.push(chunk(kind, sb, s, db, d));
    }
    if s < ref_len || d < hyp_len {
        out.push(chunk(ChunkKind::Equal, s, ref_len, d, hyp_len));
    }
    out
}

/// The alignment of one hypothesis with its best reference.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WerAlignment {
    /// Which reference was used (index into the references given).
    pub ref_index: usize,
    /// The reference's tokens after the transform (words, or characters).
    pub reference: Vec<String>,
    /// The hypothesis' tokens after the transform.
    pub hypothesis: Vec<String>,
    /// jiwer's chunks, in order; none when both sides are empty.
    pub chunks: Vec<AlignmentChunk>,
    /// The counts of this alignment.
    pub counts: WerCounts,
}

/// `visualize_alignment`'s options (jiwer's defaults: measures shown,
/// correct sentences skipped, no line width).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct VisualizeOptions {
    /// Append the `=== SUMMARY ===` block.
    pub show_measures: bool,
    /// Leave out sentences without errors.
    pub skip_correct: bool,
    /// Wrap the alignment lines before this many characters (best effort).
    pub line_width: Option<usize>,
}

impl Default for VisualizeOptions {
    fn default() -> Self {
        Self { show_measures: true, skip_correct: true, line_width: None }
    }
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
}

/// Per-thread buffers; one row at a time.
#[derive(Debug, Default)]
struct Scratch {
    aligner: Aligner,
    chars: CharIds,
    /// Symbols of the hypothesis, then of each reference.
    ids: Vec<u32>,
    /// `ids[bounds[k]..bounds[k + 1]]`: side k (0 = hypothesis).
    bounds: Vec<usize>,
    ops: Vec<EditOp>,
}

impl Scratch {
    fn side(&self, k: usize) -> &[u32] {
        &self.ids[self.bounds[k]..self.bounds[k + 1]]
    }
}

impl WerConfig {
    /// Parses options in signature syntax: `unit:word|char`,
    /// `transform:default|standardize|whisper_english|whisper_basic`. `nrefs`, `version` and `impl` are
    /// accepted and ignored, so a printed signature pastes back.
    ///
    /// # Errors
    /// Unknown keys and bad values.
    pub fn parse(options: &str) -> Result<Self, MetricError> {
        Self::parse_with(Self::default(), options)
    }

    /// Parses options over `base` (the character-level row starts from
    /// `unit:char`).
    ///
    /// # Errors
    /// Unknown keys and bad values.
    pub fn parse_with(base: Self, options: &str) -> Result<Self, MetricError> {
        let mut cfg = base;
        for (k, v) in parse_options(METRIC, options)? {
            match k.as_str() {
                "unit" => cfg.unit = parse_choice(METRIC, &k, &v, &[("word", Unit::Word), ("char", Unit::Char)])?,
                "transform" => {
                    cfg.transform = parse_choice(
                        METRIC,
                        &k,
                        &v,
                        &[
                            ("default", Transform::Default),
                            ("standardize", Transform::Standardize),
                            ("whisper_english", Transform::WhisperEnglish),
                            ("whisper_basic", Transform::WhisperBasic),
                        ],
                    )?;
                }
                _ => crate::options::other_key(METRIC, &k, &[OPTIONS])?,
            }
        }
        Ok(cfg)
    }

    /// The reproducibility signature, e.g.
    /// `nrefs:1|unit:word|transform:default|version:jiwer-4.0.0|impl:mteval-0.1.0`.
    #[must_use]
    pub fn signature(&self, nrefs: crate::NRefs) -> Signature {
        let mut s = Signature::of_refs(nrefs);
        s.push("unit", if self.unit == Unit::Char { "char" } else { "word" });
        s.push("transform", self.transform.name());
        s.stamped(format_args!("jiwer-{JIWER_VERSION}"))
    }

    /// The display name: `WER`, or `CER` with `unit:char`.
    #[must_use]
    pub const fn name(&self) -> &'static str {
        match self.unit {
            Unit::Word => "WER",
            Unit::Char => "CER",
        }
    }

    /// The text the unit splits, after the transform's string steps (words:
    /// before collapsing and stripping, which [`transform::words`] does).
    fn prepare(self, s: &str) -> Cow<'_, str> {
        match (self.unit, self.transform) {
            (Unit::Word, Transform::Default) => Cow::Borrowed(s),
            (Unit::Word, Transform::Standardize) => Cow::Owned(transform::standardize(s)),
            (Unit::Char, Transform::Default) => Cow::Borrowed(py_strip(s)),
            (Unit::Char, Transform::Standardize) => {
                let t = transform::standardize(s);
                Cow::Owned(py_strip(&transform::remove_multiple_spaces(&t)).to_owned())
            }
            (Unit::Word, Transform::WhisperEnglish) => Cow::Owned(crate::whisper::english::english(s)),
            (Unit::Word, Transform::WhisperBasic) => Cow::Owned(basic(s, BasicOptions::default())),
            (Unit::Char, Transform::WhisperEnglish) => {
                Cow::Owned(py_strip(&crate::whisper::english::english(s)).to_owned())
            }
            (Unit::Char, Transform::WhisperBasic) => {
                Cow::Owned(py_strip(&basic(s, BasicOptions::default())).to_owned())
            }
        }
    }

    /// The tokens of a prepared text.
    fn tokens<'a>(self, prepared: &'a str, out: &mut Vec<&'a str>) {
        match self.unit {
            Unit::Word => transform::words(prepared, out),
            Unit::Char => out.extend(prepared.char_indices().map(|(i, c)| &prepared[i..i + c.len_utf8()])),
        }
    }

    /// Fills `sc.ids`/`sc.bounds` with the symbols of the hypothesis and each
    /// reference (equal tokens, equal ids).
    fn encode(self, sc: &mut Scratch, hyp: &str, refs: &[&str]) {
        sc.ids.clear();
        sc.bounds.clear();
        sc.bounds.push(0);
        let texts: Vec<Cow<'_, str>> =
            std::iter::once(hyp).chain(refs.iter().copied()).map(|t| self.prepare(t)).collect();
        match self.unit {
            Unit::Word => {
                let mut map: FastMap<&str, u32> = FastMap::default();
                let mut words = Vec::new();
                for t in &texts {
                    words.clear();
                    transform::words(t, &mut words);
                    for w in &words {
                        let next = u32::try_from(map.len()).unwrap_or(u32::MAX);
                        sc.ids.push(*map.entry(w).or_insert(next));
                    }
                    sc.bounds.push(sc.ids.len());
                }
            }
            Unit::Char => {
                sc.chars.clear();
                for t in &texts {
                    for c in t.chars() {
                        sc.ids.push(sc.chars.intern(c));
                    }
                    sc.bounds.push(sc.ids.len());
                }
            }
        }
    }

    /// Aligns the hypothesis (side 0) with its best reference: the index of
    /// that reference (side `index + 1`), with `sc.ops` its edit operations.
    fn align_best(sc: &mut Scratch, nrefs: usize) -> usize {
        let best = if nrefs > 1 {
            let Scratch { aligner, ids, bounds, .. } = sc;
            let side = |k: usize| &ids[bounds[k]..bounds[k + 1]];
            let d = aligner.distances(side(0), (1..=nrefs).map(side));
            // The first reference with the fewest errors.
            d.iter().enumerate().min_by_key(|&(_, &e)| e).map_or(0, |(k, _)| k)
        } else {
            0
        };
        let Scratch { aligner, ids, bounds, ops, .. } = sc;
        let side = |k: usize| &ids[bounds[k]..bounds[k + 1]];
        aligner.editops(side(best + 1), side(0), ops);
        best
    }

    /// The counts of edit operations between sequences of these lengths.
    fn counts_of(ops: &[EditOp], ref_len: usize, hyp_len: usize) -> WerCounts {
        let (mut s, mut d, mut i) = (0u64, 0u64, 0u64);
        for op in ops {
            match op.kind {
                EditKind::Replace => s += 1,
                EditKind::Delete => d += 1,
                EditKind::Insert => i += 1,
            }
        }
        let (n, p) = (ref_len as u64, hyp_len as u64);
        WerCounts {
            hits: n.saturating_sub(s + d),
            substitutions: s,
            deletions: d,
            insertions: i,
            ref_len: n,
            hyp_len: p,
        }
    }

    /// The counts of `hyp` against `reference` (jiwer's
    /// `process_words(reference, hypothesis)` or `process_characters`).
    #[must_use]
    pub fn counts(&self, hyp: &str, reference: &str) -> WerCounts {
        self.best(hyp, &[reference]).map_or_else(WerCounts::default, |(_, c)| c)
    }

    /// The counts of `hyp` against its best reference (fewest errors, the
    /// first on ties) and that reference's index; `None` without references.
    #[must_use]
    pub fn best(&self, hyp: &str, refs: &[&str]) -> Option<(usize, WerCounts)> {
        self.on_best(hyp, refs, |sc, k| (k, Self::counts_of(&sc.ops, sc.side(k + 1).len(), sc.side(0).len())))
    }

    /// `f` of this thread's scratch holding `hyp` aligned with its best
    /// reference, and that reference's index; `None` without references.
    fn on_best<T>(self, hyp: &str, refs: &[&str], f: impl FnOnce(&Scratch, usize) -> T) -> Option<T> {
        if refs.is_empty() {
            return None;
        }
        SCRATCH.with(|s| {
            let mut sc = s.borrow_mut();
            self.encode(&mut sc, hyp, refs);
            let k = Self::align_best(&mut sc, refs.len());
            Some(f(&sc, k))
        })
    }

    /// The alignment of `hyp` with its best reference (as [`Self::best`]);
    /// `None` without references.
    #[must_use]
    pub fn alignment(&self, hyp: &str, refs: &[&str]) -> Option<WerAlignment> {
        self.on_best(hyp, refs, |sc, k| {
            let (n, m) = (sc.side(k + 1).len(), sc.side(0).len());
            let counts = Self::counts_of(&sc.ops, n, m);
            let chunks = chunks(&sc.ops, n, m);
            let owned = |text: &str| {
                let prepared = self.prepare(text);
                let mut t = Vec::new();
                self.tokens(&prepared, &mut t);
                t.into_iter().map(str::to_owned).collect::<Vec<_>>()
            };
            WerAlignment { ref_index: k, reference: owned(refs[k]), hypothesis: owned(hyp), chunks, counts }
        })
    }

    /// The counts and chunks of already tokenised sentences (jiwer's
    /// `process_words` after its transforms: equal strings are equal tokens).
    #[must_use]
    pub fn align_tokens<S: AsRef<str>>(reference: &[S], hypothesis: &[S]) -> (WerCounts, Vec<AlignmentChunk>) {
        SCRATCH.with(|s| {
            let mut sc = s.borrow_mut();
            let sc = &mut *sc;
            sc.ids.clear();
            let mut map: FastMap<&str, u32> = FastMap::default();
            for w in hypothesis.iter().chain(reference) {
                let next = u32::try_from(map.len()).unwrap_or(u32::MAX);
                sc.ids.push(*map.entry(w.as_ref()).or_insert(next));
            }
            let (hyp, refs) = sc.ids.split_at(hypothesis.len());
            sc.aligner.editops(refs, hyp, &mut sc.ops);
            let (n, m) = (reference.len(), hypothesis.len());
            (Self::counts_of(&sc.ops, n, m), chunks(&sc.ops, n, m))
        })
    }

    /// The `REF:`, `HYP:` and operation lines of one alignment, as jiwer's
    /// `visualize_alignment` prints a sentence (without its `=== SENTENCE`
    /// header and without the last newline).
    #[must_use]
    pub fn alignment_lines(&self, a: &WerAlignment) -> String {
        let mut out = String::new();
        comparison(&mut out, a, self.unit != Unit::Char, None);
        out.pop();
        out
    }

    /// jiwer's `visualize_alignment` of the alignments of a corpus (one per
    /// sentence, in order; as [`Self::alignment`] gives them): the `CER`
    /// summary with `unit:char`, else the `mer`/`wil`/`wip`/`wer` one.
    #[must_use]
    pub fn visualize(&self, alignments: &[WerAlignment], opts: VisualizeOptions) -> String {
        let is_cer = self.unit == Unit::Char;
        let mut out = String::new();
        let mut total = WerCounts::default();
        for (idx, a) in alignments.iter().enumerate() {
            total.add(&a.counts);
            let correct = a.chunks.is_empty() || (a.chunks.len() == 1 && a.chunks[0].kind == ChunkKind::Equal);
            if opts.skip_correct && correct {
                continue;
            }
            let _ = write!(out, "=== SENTENCE {} ===\n\n", idx + 1);
            comparison(&mut out, a, !is_cer, opts.line_width);
            out.push('\n');
        }
        if opts.show_measures {
            let sc = total.scores();
            let _ = write!(
                out,
                "=== SUMMARY ===\nnumber of sentences: {}\nsubstitutions={} deletions={} insertions={} hits={}\n",
                alignments.len(),
                total.substitutions,
                total.deletions,
                total.insertions,
                total.hits
            );
            if is_cer {
                let _ = writeln!(out, "\ncer={:.2}%", sc.wer * 100.0);
            } else {
                let _ = writeln!(
                    out,
                    "\nmer={:.2}%\nwil={:.2}%\nwip={:.2}%\nwer={:.2}%",
                    sc.mer * 100.0,
                    sc.wil * 100.0,
                    sc.wip * 100.0,
                    sc.wer * 100.0
                );
            }
        } else {
            out.pop();
        }
        out
    }
}

/// `_construct_comparison_string`: the REF/HYP/op lines of one sentence.
fn comparison(out: &mut String, a: &WerAlignment, sep: bool, line_width: Option<usize>) {
    // Each line with its length in code points.
    let mut lines = [(String::from("REF: "), 5usize), (String::from("HYP: "), 5), (String::from("     "), 5)];
    let flush = |out: &mut String, lines: &[(String, usize); 3]| {
        for (l, _) in lines {
            let l = if sep { l.strip_suffix(' ').unwrap_or(l) } else { l.as_str() };
            out.push_str(l);
            out.push('\n');
        }
    };
    let pad = |line: &mut (String, usize), s: &str, len: usize, width: usize| {
        line.0.extend(std::iter::repeat_n(' ', width.saturating_sub(len)));
        line.0.push_str(s);
        line.1 += width.max(len);
    };
    let star = "*";
    for c in &a.chunks {
        let refs = a.reference.get(c.ref_start..c.ref_end).unwrap_or(&[]);
        let hyps = a.hypothesis.get(c.hyp_start..c.hyp_end).unwrap_or(&[]);
        let (pairs, op): (Vec<(&str, &str)>, char) = match c.kind {
            ChunkKind::Equal => (refs.iter().zip(hyps).map(|(r, h)| (r.as_str(), h.as_str())).collect(), ' '),
            ChunkKind::Substitute => (refs.iter().zip(hyps).map(|(r, h)| (r.as_str(), h.as_str())).collect(), 'S'),
            ChunkKind::Delete => (refs.iter().map(|r| (r.as_str(), star)).collect(), 'D'),
            ChunkKind::Insert => (hyps.iter().map(|h| (star, h.as_str())).collect(), 'I'),
        };
        for (rf, hp) in pairs {
            let (rl, hl) = (rf.chars().count(), hp.chars().count());
            let w = rl.max(hl).max(1);
            if line_width.is_some_and(|lw| lines[0].1 + w > lw) {
                flush(out, &lines);
                out.push('\n');
                lines = [(String::from("REF: "), 5), (String::from("HYP: "), 5), (String::from("     "), 5)];
            }
            let stars = "*".repeat(w);
            let (rf, rl, hp, hl) = if rf == "*" {
                (stars.as_str(), w, hp, hl)
            } else if hp == "*" {
                (rf, rl, stars.as_str(), w)
            } else {
                (rf, rl, hp, hl)
            };
            pad(&mut lines[0], rf, rl, w);
            pad(&mut lines[1], hp, hl, w);
            pad(&mut lines[2], op.encode_utf8(&mut [0; 4]), 1, w);
            if sep {
                for l in &mut lines {
                    l.0.push(' ');
                    l.1 += 1;
                }
            }
        }
    }
    flush(out, &lines);
}
