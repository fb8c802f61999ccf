//! `CharacTER` (Wang et al., 2016): translation edit rate on the character
//! level, with word-level shifts.
//!
//! Two references:
//! * the original rwth-i6/CharacTER at commit c4b25cb, whose word-level edit
//!   distances are float32 ratios, so every decision equals a comparison of
//!   integer distances (the default here, `compat:original`);
//! * the `cer` package 1.2.0, which keeps the normalised distance as an f64
//!   and updates it by subtraction, so it can drift by one ulp and accept a
//!   spurious shift (`compat:cer` reproduces that arithmetic exactly).
//!
//! Both agree except on those drift cases. Inputs are whitespace-tokenised
//! with Python's `str.split()`; an empty hypothesis or reference scores 1.0 as
//! in the original (`cer` raises `ZeroDivisionError` on an empty reference).
//!
//! Beyond both implementations: the paper's fuzzy word matching (`fuzzy:T`),
//! off by default. With it, a hypothesis word matches a reference word when
//! their character edit distance is at most `T × max(len_h, len_r)`; this
//! equality is used for phrase discovery and for the word-level distance that
//! judges the shifts. The shift cost and the final character distance are
//! unchanged.

pub mod corpus;
pub mod metric;

use std::cell::RefCell;
use std::cmp::Ordering;

pub use corpus::CorpusSummary;

use crate::MetricError;
use crate::hash::FastMap;
use crate::levenshtein::{CharScratch, Myers, char_distance_with, join_columns};
use crate::options::OptionKey;
use crate::py::text::py_split;
use crate::signature::{Signature, parse_options};

const METRIC: &str = "CharacTER";

/// `CharacTER`'s option keys (the SQL guide's `CharacTER` table is generated from these).
pub const OPTIONS: &[OptionKey] = &[
    OptionKey::new(
        "compat",
        "`original` \\| `cer`",
        "whose arithmetic decides the shifts: the original rwth-i6 CharacTER (c4b25cb; float32 ratios, equal to \
         comparing integer distances) or cer 1.2.0 (f64 ratio updated by subtraction, which can drift by one ulp \
         and accept a spurious shift). They differ only on such drift cases (1 of the 13,500 golden WMT pairs; \
         5–15 in 8,000 random ones), e.g. `ccc dddd of bb the dddd` / `the dddd ccc ccc ccc bb`: \
         0.42391304347826086 (original) vs 0.6086956521739131 (cer)",
    ),
    OptionKey::new(
        "max_words",
        "`1000` \\| N \\| `none`",
        "mteval's guard, not in the signature: longer inputs are an error naming the row (the shift search costs \
         rounds × candidates × words, cubic in the length: a 3,000-word row runs for minutes, a 1 MB row for \
         days, in cer as in mteval)",
    ),
    OptionKey {
        key: "scores",
        values: "`no` \\| `yes`",
        what: "`corpus_charac_ter` only, not in the signature: fill `cer_scores` with the sentence scores, as \
               `calculate_cer_corpus` returns them",
        corpus_only: true,
    },
    OptionKey::new(
        "fuzzy",
        "`no` \\| threshold in [0, 1]",
        "the paper's fuzzy word matching, which no implementation has: a hypothesis word matches a reference word \
         when their character edit distance ≤ T × the longer length; used for phrase discovery and the word-level \
         distance that judges shifts (`fuzzy:0` = exact)",
    ),
];

/// Which reference's arithmetic decides the shifts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Compat {
    /// rwth-i6/CharacTER c4b25cb: integer comparisons, no drift.
    #[default]
    Original,
    /// `cer` 1.2.0: f64 normalised distances updated by subtraction.
    Cer,
}

/// `CharacTER` options.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct CharacTerConfig {
    /// Shift-decision arithmetic.
    pub compat: Compat,
    /// Fuzzy word matching threshold (relative edit distance); `None` = exact.
    pub fuzzy: Option<f64>,
    /// Longest input accepted, in words per side (`None` =
    /// [`CHARACTER_MAX_WORDS`]); longer inputs are an error. The shift search
    /// costs rounds × candidates × words, cubic in the length, so without a
    /// bound one document-sized row could run for hours (cer has no bound and
    /// takes minutes at 1,000 words). Not part of the signature: it never
    /// changes a score.
    pub max_words: Option<usize>,
}

/// Default length limit of `CharacTER`, in words per side (about a second per
/// row at the limit).
pub const CHARACTER_MAX_WORDS: usize = 1_000;

impl CharacTerConfig {
    /// Parses options in signature syntax: `compat:original|cer`,
    /// `fuzzy:no|T` (T in [0, 1]). `nrefs`, `tok`, `version` and `impl` are
    /// accepted and ignored, so a printed signature pastes back.
    ///
    /// # Errors
    /// Unknown keys and bad values.
    pub fn parse(options: &str) -> Result<Self, MetricError> {
        Self::parse_pairs(parse_options(METRIC, options)?)
    }

    /// Options of the corpus summary (`corpus_charac_ter`): those of
    /// [`CharacTerConfig::parse`] plus `scores:yes|no` (default `no`): whether
    /// the summary also lists the sentence scores, as `cer`'s
    /// `calculate_cer_corpus` does in `cer_scores`. Not part of the signature.
    ///
    /// # Errors
    /// As [`CharacTerConfig::parse`].
    pub fn parse_corpus(options: &str) -> Result<(Self, bool), MetricError> {
        let mut pairs = parse_options(METRIC, options)?;
        let scores = match pairs.iter().position(|(k, _)| k == "scores") {
            Some(i) => crate::signature::parse_bool(METRIC, "scores", &pairs.remove(i).1)?,
            None => false,
        };
        Ok((Self::parse_pairs(pairs)?, scores))
    }

    fn parse_pairs(pairs: Vec<(String, String)>) -> Result<Self, MetricError> {
        let mut cfg = Self::default();
        for (k, v) in pairs {
            match k.as_str() {
                "compat" => {
                    cfg.compat = match v.to_ascii_lowercase().as_str() {
                        "original" => Compat::Original,
                        "cer" => Compat::Cer,
                        _ => return Err(bad(format!("compat:{v}: expected original or cer"))),
                    }
                }
                "fuzzy" => {
                    cfg.fuzzy = match v.to_ascii_lowercase().as_str() {
                        "no" | "off" | "false" => None,
                        _ => {
                            let t: f64 = v
                                .parse()
                                .map_err(|_| bad(format!("fuzzy:{v}: expected no or a threshold in [0, 1]")))?;
                            if !(0.0..=1.0).contains(&t) {
                                return Err(bad(format!("fuzzy:{v}: the threshold must lie in [0, 1]")));
                            }
                            Some(t)
                        }
                    }
                }
                "max_words" => cfg.max_words = Some(crate::signature::parse_limit(METRIC, &k, &v)?),
                "tok" => {}
                _ => crate::options::other_key(METRIC, &k, &[OPTIONS])?,
            }
        }
        Ok(cfg)
    }

    /// The reproducibility signature, e.g.
    /// `nrefs:1|tok:split|compat:original|fuzzy:no|version:c4b25cb|impl:mteval-0.1.0`.
    #[must_use]
    pub fn signature(&self, nrefs: crate::NRefs) -> Signature {
        let mut s = Signature::of_refs(nrefs);
        s.push("tok", "split");
        match self.compat {
            Compat::Original => s.push("compat", "original"),
            Compat::Cer => s.push("compat", "cer"),
        }
        match self.fuzzy {
            None => s.push("fuzzy", "no"),
            Some(t) => s.push("fuzzy", t),
        }
        s.stamped(match self.compat {
            Compat::Original => "c4b25cb",
            Compat::Cer => "1.2.0",
        })
    }

    /// `CharacTER` of one hypothesis against one reference, in [0, 1].
    ///
    /// # Errors
    /// A side longer than the `max_words` limit.
    pub fn sentence(&self, hyp: &str, reference: &str) -> Result<f64, MetricError> {
        let (h, r): (Vec<&str>, Vec<&str>) = (py_split(hyp).collect(), py_split(reference).collect());
        self.sentence_words(&h, &r)
    }

    /// `CharacTER` of a hypothesis against a reference given as words (cer's
    /// `calculate_cer(hyp_words, ref_words)`): any strings, empty ones and
    /// ones holding spaces included, joined by one space for the character
    /// distance as cer joins them.
    ///
    /// # Errors
    /// A side longer than the `max_words` limit.
    pub fn sentence_words(&self, hyp: &[&str], reference: &[&str]) -> Result<f64, MetricError> {
        let limit = self.max_words.unwrap_or(CHARACTER_MAX_WORDS);
        for (side, words) in [("hypothesis", hyp), ("reference", reference)] {
            if words.len() > limit {
                let total = words.len();
                return Err(MetricError::InvalidInput {
                    metric: METRIC,
                    reason: format!(
                        "the {side} has {total} words, over the limit of {limit} (the shift search grows with the \
                         cube of the length; option max_words:N raises the limit)"
                    ),
                });
            }
        }
        Ok(SCRATCH.with(|s| s.borrow_mut().score(self, hyp, reference)))
    }

    /// Best (lowest) `CharacTER` over several references; `None` without references.
    ///
    /// # Errors
    /// As [`Self::sentence`].
    pub fn sentence_multi<'a>(
        &self,
        hyp: &str,
        refs: impl IntoIterator<Item = &'a str>,
    ) -> Result<Option<f64>, MetricError> {
        let mut best: Option<f64> = None;
        for r in refs {
            let s = self.sentence(hyp, r)?;
            best = Some(best.map_or(s, |b| b.min(s)));
        }
        Ok(best)
    }
}

fn bad(reason: String) -> MetricError {
    MetricError::InvalidOption { metric: METRIC, reason }
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
}

/// Per-thread buffers; one row at a time.
#[derive(Debug, Default)]
struct Scratch {
    hyp: Vec<u32>,
    reference: Vec<u32>,
    orig: Vec<u32>,
    cand: Vec<u32>,
    best: Vec<u32>,
    /// Word-level distances against the reference.
    myers: Myers,
    /// The same against the reversed reference (suffix columns).
    myers_rev: Myers,
    /// Per round: DP states after every prefix of the hypothesis, and after
    /// every suffix (reversed problem), so a candidate only recomputes the
    /// stretch its shift changed.
    fwd: Vec<u64>,
    fwd_scores: Vec<usize>,
    bwd: Vec<u64>,
    bwd_scores: Vec<usize>,
    rev_hyp: Vec<u32>,
    state: Vec<u64>,
    /// The shift candidates of one hypothesis position, their word
    /// distances, and the order `grouped_distances` visits them in.
    couples: Vec<Couple>,
    dists: Vec<usize>,
    order: Vec<usize>,
    /// DP state walking over the words a phrase jumps.
    walk: Vec<u64>,
    chars: CharScratch,
    s_hyp: String,
    s_ref: String,
}

/// One shift candidate: move `len` words at `from` to `to` (cer's couple).
#[derive(Debug, Clone, Copy)]
struct Couple {
    from: usize,
    to: usize,
    len: usize,
}

impl Scratch {
    fn score(&mut self, cfg: &CharacTerConfig, hyp: &[&str], reference: &[&str]) -> f64 {
        self.score_with(cfg, hyp, reference, INCREMENTAL_MIN_WORDS)
    }

    /// [`Scratch::score`], scoring candidates incrementally from hypotheses
    /// of `incremental_min` words on (tests compare both ways).
    #[allow(
        clippy::too_many_lines,
        reason = "one greedy shift search over the shared scratch buffers, from interning to the final score"
    )]
    fn score_with<'a>(
        &mut self,
        cfg: &CharacTerConfig,
        hyp: &[&'a str],
        reference: &[&'a str],
        incremental_min: usize,
    ) -> f64 {
        // Word ids of this row; `words[id]` is the word.
        let mut words: Vec<&str> = Vec::new();
        let mut ids: FastMap<&str, u32> = FastMap::default();
        let mut intern = |w| {
            let next = u32::try_from(words.len()).unwrap_or(u32::MAX);
            *ids.entry(w).or_insert_with(|| {
                words.push(w);
                next
            })
        };
        self.hyp.clear();
        self.reference.clear();
        for &w in hyp {
            self.hyp.push(intern(w));
        }
        for &w in reference {
            self.reference.push(intern(w));
        }
        if self.hyp.is_empty() || self.reference.is_empty() {
            // Original: 1.0 for an empty hypothesis (normalised by its empty
            // character length) and for an empty reference (ED/0 = inf, no
            // shift, then min(1, len/len)).
            return 1.0;
        }
        if self.hyp == self.reference {
            return 0.0;
        }
        self.orig.clone_from(&self.hyp);
        let alphabet = words.len();
        let lens: Vec<usize> = words.iter().map(|w| w.chars().count()).collect();
        let n_ref = self.reference.len();
        // Match masks of every word against the reference positions.
        self.myers.reset_masks(n_ref, alphabet);
        match cfg.fuzzy {
            None => {
                for (i, &r) in self.reference.iter().enumerate() {
                    self.myers.row_mut(r as usize)[i / 64] |= 1u64 << (i % 64);
                }
            }
            Some(t) => {
                let mut hyp_words: Vec<u32> = self.hyp.clone();
                hyp_words.sort_unstable();
                hyp_words.dedup();
                for &h in &hyp_words {
                    for (i, &r) in self.reference.iter().enumerate() {
                        let ok = h == r || {
                            let limit = t * lens[h as usize].max(lens[r as usize]) as f64;
                            (char_distance_with(&mut self.chars, words[h as usize], words[r as usize]) as f64) <= limit
                        };
                        if ok {
                            self.myers.row_mut(h as usize)[i / 64] |= 1u64 << (i % 64);
                        }
                    }
                }
            }
        }

        let n = n_ref as f64;
        let mut cur_dist = self.myers.distance(&self.hyp);
        // cer's running normalised score (only used with compat:cer).
        let mut pre = cur_dist as f64 / n;
        // Long hypotheses: resume candidates from cached prefix/suffix columns.
        let incremental = self.hyp.len() >= incremental_min;
        if incremental {
            self.myers_rev.reset_masks(n_ref, alphabet);
            for sym in 0..alphabet {
                for i in 0..n_ref {
                    if self.myers.matches(sym, i) {
                        let r = n_ref - 1 - i;
                        self.myers_rev.row_mut(sym)[r / 64] |= 1u64 << (r % 64);
                    }
                }
            }
        }
        loop {
            let mut best: Option<(usize, f64)> = None;
            let h_len = self.hyp.len();
            if incremental {
                self.myers.prefix_states(&self.hyp, &mut self.fwd, &mut self.fwd_scores);
                self.rev_hyp.clear();
                self.rev_hyp.extend(self.hyp.iter().rev());
                self.myers_rev.prefix_states(&self.rev_hyp, &mut self.bwd, &mut self.bwd_scores);
            }
            for i in 0..h_len {
                self.collect_couples(i);
                if incremental {
                    self.grouped_distances(i, cur_dist);
                }
                for k in 0..self.couples.len() {
                    let couple = self.couples[k];
                    let d = if incremental {
                        self.dists[k]
                    } else {
                        apply_shift(&self.hyp, couple, &mut self.cand);
                        self.myers.distance(&self.cand)
                    };
                    let diff = pre - d as f64 / n;
                    // Ordering: lower distance (original) / larger f64
                    // difference (cer); ties need the word lists.
                    let ord = match (cfg.compat, best) {
                        (_, None) => Ordering::Greater,
                        (Compat::Original, Some((bd, _))) => bd.cmp(&d),
                        (Compat::Cer, Some((_, bdiff))) => diff.partial_cmp(&bdiff).unwrap_or(Ordering::Less),
                    };
                    if ord == Ordering::Less {
                        continue;
                    }
                    if incremental {
                        apply_shift(&self.hyp, couple, &mut self.cand);
                    }
                    if ord == Ordering::Greater || cmp_words(&words, &self.cand, &self.best) == Ordering::Greater {
                        best = Some((d, diff));
                        std::mem::swap(&mut self.best, &mut self.cand);
                    }
                }
            }
            let Some((d, diff)) = best else { break };
            let improves = match cfg.compat {
                Compat::Original => d < cur_dist,
                Compat::Cer => diff > 0.0,
            };
            if !improves {
                break;
            }
            std::mem::swap(&mut self.hyp, &mut self.best);
            cur_dist = d;
            pre -= diff;
        }

        let cost = shift_cost(&self.hyp, &self.orig, &lens);
        join_words(&mut self.s_hyp, &words, &self.hyp);
        join_words(&mut self.s_ref, &words, &self.reference);
        let hyp_chars = self.hyp.iter().map(|&w| lens[w as usize]).sum::<usize>() + self.hyp.len() - 1;
        let ed = char_distance_with(&mut self.chars, &self.s_hyp, &self.s_ref);
        ((ed as f64 + cost) / hyp_chars as f64).min(1.0)
    }
}

/// Hypotheses of at least this many words use the incremental candidate
/// distance (below it, recomputing the whole DP is as fast).
const INCREMENTAL_MIN_WORDS: usize = 24;

impl Scratch {
    /// The shift candidates starting at hypothesis word `i`: every reference
    /// position `j != i` holding the same word, with the longest phrase
    /// matching there (cer's couples).
    fn collect_couples(&mut self, i: usize) {
        self.couples.clear();
        let (h_len, n_ref) = (self.hyp.len(), self.reference.len());
        let row = self.myers.row(self.hyp[i] as usize);
        for (blk, &word) in row.iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                let j = blk * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                if i == j {
                    continue;
                }
                let mut len = 1;
                while i + len < h_len && j + len < n_ref && self.myers.matches(self.hyp[i + len] as usize, j + len) {
                    len += 1;
                }
                self.couples.push(Couple { from: i, to: j, len });
            }
        }
    }

    /// Word distances (into `dists`) of the current hypothesis with each of
    /// `couples` applied, all moving the phrase at `i`; `cur` is the current
    /// distance. A candidate shares a prefix and a suffix with the current
    /// hypothesis, so its DP starts from a stored column, runs over the
    /// changed stretch and is joined with the stored column of the other
    /// side. Candidates moving the same phrase the same way share the walk
    /// over the words the phrase jumps: a rightward move resumes the forward
    /// DP after `hyp[..i]` and walks `hyp[i+len..]` once for all targets; a
    /// leftward move does the same on the reversed problem.
    fn grouped_distances(&mut self, i: usize, cur: usize) {
        let n = self.hyp.len();
        let w = self.myers.state_len();
        let m = self.myers.pattern_len();
        self.dists.clear();
        self.dists.resize(self.couples.len(), cur);
        self.order.clear();
        self.order.extend(0..self.couples.len());
        let at_of = |c: &Couple| c.to.min(n - c.len);
        let couples = &self.couples;
        // Rightward moves by ascending target, leftward by descending.
        self.order.sort_unstable_by_key(|&k| {
            let (c, at) = (couples[k], at_of(&couples[k]));
            (at > i, c.len, if at > i { at } else { n - at })
        });
        let mut group = None;
        let mut pos = 0;
        let mut walk_score = 0;
        for &k in &self.order {
            let c = self.couples[k];
            let at = at_of(&c);
            if at == i {
                continue; // the candidate is the hypothesis itself
            }
            let right = at > i;
            if group != Some((right, c.len)) {
                group = Some((right, c.len));
                self.walk.clear();
                if right {
                    self.walk.extend_from_slice(&self.fwd[i * w..(i + 1) * w]);
                    walk_score = self.fwd_scores[i];
                    pos = i + c.len;
                } else {
                    let t = n - i - c.len;
                    self.walk.extend_from_slice(&self.bwd[t * w..(t + 1) * w]);
                    walk_score = self.bwd_scores[t];
                    pos = i;
                }
            }
            let mut score;
            self.state.clear();
            self.dists[k] = if right {
                // cand = hyp[..i] + hyp[i+len..at+len] + phrase + hyp[at+len..]
                let q = at + c.len;
                self.myers.advance(&mut self.walk, &mut walk_score, &self.hyp[pos..q]);
                pos = q;
                self.state.extend_from_slice(&self.walk);
                score = walk_score;
                self.myers.advance(&mut self.state, &mut score, &self.hyp[i..i + c.len]);
                let tail = n - q;
                if tail * w <= m {
                    self.myers.advance(&mut self.state, &mut score, &self.hyp[q..]);
                    score
                } else {
                    join_columns(m, &self.state, q, &self.bwd[tail * w..(tail + 1) * w], tail)
                }
            } else {
                // cand = hyp[..at] + phrase + hyp[at..i] + hyp[i+len..], built
                // backwards: rev_hyp[n-1-k] = hyp[k].
                self.myers_rev.advance(&mut self.walk, &mut walk_score, &self.rev_hyp[n - pos..n - at]);
                pos = at;
                self.state.extend_from_slice(&self.walk);
                score = walk_score;
                self.myers_rev.advance(&mut self.state, &mut score, &self.rev_hyp[n - i - c.len..n - i]);
                if at * w <= m {
                    self.myers_rev.advance(&mut self.state, &mut score, &self.rev_hyp[n - at..]);
                    score
                } else {
                    join_columns(m, &self.fwd[at * w..(at + 1) * w], at, &self.state, n - at)
                }
            };
        }
    }
}

/// `hyp` with `len` words at `from` moved to position `to` of the remainder
/// (Python slice insertion: at `min(to, remaining length)`).
fn apply_shift(hyp: &[u32], c: Couple, out: &mut Vec<u32>) {
    out.clear();
    let rest_len = hyp.len() - c.len;
    let at = c.to.min(rest_len);
    let phrase = &hyp[c.from..c.from + c.len];
    let mut k = 0;
    for (idx, &w) in hyp.iter().enumerate() {
        if idx >= c.from && idx < c.from + c.len {
            continue;
        }
        if k == at {
            out.extend_from_slice(phrase);
        }
        out.push(w);
        k += 1;
    }
    if k == at {
        out.extend_from_slice(phrase);
    }
}

/// Python list comparison of two word sequences (strings by code point,
/// which equals byte order in UTF-8).
fn cmp_words(words: &[&str], a: &[u32], b: &[u32]) -> Ordering {
    for (&x, &y) in a.iter().zip(b) {
        if x != y {
            return words[x as usize].cmp(words[y as usize]);
        }
    }
    a.len().cmp(&b.len())
}

fn join_words(out: &mut String, words: &[&str], seq: &[u32]) {
    out.clear();
    for (i, &w) in seq.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        out.push_str(words[w as usize]);
    }
}

/// The shift cost: the average character length of each phrase that ended
/// up elsewhere, found by comparing the final order with the original one
/// (cer's `_shift_cost`, step for step).
fn shift_cost(shifted: &[u32], orig: &[u32], lens: &[usize]) -> f64 {
    let n = shifted.len();
    let mut cost = 0.0f64;
    let mut i = 0;
    while i < n {
        let oi = i;
        if orig[i] == shifted[i] {
            i += 1;
            continue;
        }
        let mut avg = 0.0f64;
        for s in i + 1..n {
            if orig[i] == shifted[s] {
                let mut len = 1usize;
                for pos in 1..orig.len() - oi {
                    if s + pos < n && orig[oi + pos] == shifted[s + pos] {
                        len += 1;
                        if i + 1 < orig.len() {
                            i += 1;
                        }
                    } else {
                        break;
                    }
                }
                let chars: usize = orig[oi..oi + len].iter().map(|&w| lens[w as usize]).sum();
                avg = chars as f64 / len as f64;
                break;
            }
        }
        cost += avg;
        i += 1;
    }
    cost
}

#[cfg(test)]
#[allow(clippy::cast_possible_truncation, reason = "random word indices are drawn below the vocabulary size")]
mod tests {
    use super::*;
    use crate::IMPL_VERSION;

    fn cer(h: &str, r: &str) -> f64 {
        CharacTerConfig::default().sentence(h, r).unwrap()
    }

    fn cer_compat(h: &str, r: &str) -> f64 {
        CharacTerConfig { compat: Compat::Cer, ..Default::default() }.sentence(h, r).unwrap()
    }

    #[test]
    fn spec_values() {
        // Values from cer's own tests and README, and values computed with cer 1.2.0.
        let close = |a: f64, b: f64| (a - b).abs() < 1e-12;
        assert!(close(
            cer(
                "this week the saudis denied information published in the new york times",
                "saudi arabia denied this week information published in the american new york times"
            ),
            0.36619718309859156
        ));
        assert!(close(cer("this is in fact an estimate", "this is actually an estimate"), 0.25925925925925924));
        assert!(close(cer("i like your bag", "i like their bags"), 0.3333333333333333));
        assert_eq!(cer("a b", "b a"), 1.0 / 3.0);
        assert_eq!(cer("xyz a b", "a b xyz"), 0.42857142857142855);
        assert_eq!(cer("b a", "a b c"), 1.0);
        assert_eq!(cer("hello", "world hello"), 1.0);
        assert_eq!(cer("a b c d", "d c b a"), 0.42857142857142855);
        assert_eq!(cer("", "a"), 1.0);
        assert_eq!(cer("a", ""), 1.0);
        assert_eq!(cer("", ""), 1.0);
        assert_eq!(cer("  ", " \t"), 1.0);
        assert_eq!(cer("same words", "same  words "), 0.0);
    }

    #[test]
    fn drift_cases_original_vs_cer() {
        let cases = [
            ("ccc dddd of bb the dddd", "the dddd ccc ccc ccc bb", 0.6086956521739131, 0.42391304347826086),
            ("of a a ff the ccc a", "the ccc of ff ff a", 0.3157894736842105, 0.23684210526315788),
            ("the e of bb a dddd", "the bb a a of of", 0.4444444444444444, 0.3611111111111111),
        ];
        for (h, r, with_cer, original) in cases {
            assert_eq!(cer(h, r), original, "{h} / {r}");
            assert_eq!(cer_compat(h, r), with_cer, "{h} / {r}");
        }
    }

    #[test]
    fn shift_application_is_python_slice_insertion() {
        let mut out = Vec::new();
        apply_shift(&[0, 1, 2, 3], Couple { from: 0, to: 2, len: 1 }, &mut out);
        assert_eq!(out, [1, 2, 0, 3]);
        apply_shift(&[0, 1, 2, 3], Couple { from: 2, to: 0, len: 2 }, &mut out);
        assert_eq!(out, [2, 3, 0, 1]);
        // Insertion point past the end of the remainder clamps to its end.
        apply_shift(&[0, 1, 2], Couple { from: 0, to: 5, len: 2 }, &mut out);
        assert_eq!(out, [2, 0, 1]);
    }

    #[test]
    fn incremental_candidates_equal_full_recomputation() {
        // Small vocabularies give many shift candidates per word, phrases
        // of several words, and both move directions; lengths cross the
        // 64-word block boundary.
        let mut random = crate::testutil::xorshift(0x9e37_79b9_7f4a_7c15);
        let mut next = move |k: u64| random() % k;
        let vocab = ["a", "b", "c", "dd", "eee", "ff", "g", "hh"];
        let mut scratch = Scratch::default();
        for case in 0..150 {
            let words = |n: u64, v: u64, next: &mut dyn FnMut(u64) -> u64| {
                (0..n).map(|_| vocab[next(v) as usize]).collect::<Vec<_>>().join(" ")
            };
            let (nh, nr, v) = (1 + next(100), 1 + next(100), 2 + next(7));
            let h = words(nh, v, &mut next);
            let r = words(nr, v, &mut next);
            let (hw, rw): (Vec<&str>, Vec<&str>) = (h.split(' ').collect(), r.split(' ').collect());
            for compat in [Compat::Original, Compat::Cer] {
                let cfg = CharacTerConfig { compat, ..CharacTerConfig::default() };
                let full = scratch.score_with(&cfg, &hw, &rw, usize::MAX);
                let inc = scratch.score_with(&cfg, &hw, &rw, 1);
                assert_eq!(full.to_bits(), inc.to_bits(), "case {case} {compat:?}: {h:?} / {r:?}");
            }
        }
    }

    #[test]
    fn inputs_over_the_length_limit_are_errors() {
        let words = |n: usize| vec!["w"; n].join(" ");
        let cfg = CharacTerConfig::parse("max_words:3").unwrap();
        assert_eq!(cfg.sentence("a b c", "a b c").unwrap(), 0.0);
        let err = cfg.sentence("a b c d", "a").unwrap_err().to_string();
        assert!(err.contains("hypothesis has 4 words") && err.contains("limit of 3"), "{err}");
        let err = cfg.sentence("a", "a b c d e").unwrap_err().to_string();
        assert!(err.contains("reference has 5 words"), "{err}");
        assert!(cfg.sentence_multi("a", ["a", "a b c d"]).is_err());
        let default = CharacTerConfig::default();
        assert!(default.sentence(&words(CHARACTER_MAX_WORDS), "w").is_ok());
        assert!(default.sentence(&words(CHARACTER_MAX_WORDS + 1), "w").is_err());
        let unlimited = CharacTerConfig::parse("max_words:none").unwrap();
        assert!(unlimited.sentence(&words(CHARACTER_MAX_WORDS + 1), "w").is_ok());
        assert!(CharacTerConfig::parse("max_words:0").is_err());
        assert_eq!(
            cfg.signature(crate::NRefs::Fixed(1)).to_string(),
            default.signature(crate::NRefs::Fixed(1)).to_string()
        );
    }

    #[test]
    fn fuzzy_matching() {
        let exact = CharacTerConfig::default();
        let fuzzy = CharacTerConfig::parse("fuzzy:0.34").unwrap();
        // Threshold 0 is exact matching.
        let zero = CharacTerConfig::parse("fuzzy:0").unwrap();
        let (h, r) = ("houses the big", "the big house");
        assert_eq!(zero.sentence(h, r), exact.sentence(h, r));
        // "houses" ~ "house" (1 edit of 6 chars) lets the phrase move as one.
        assert!(fuzzy.sentence(h, r).unwrap() <= exact.sentence(h, r).unwrap());
        assert_eq!(fuzzy.sentence("a b", "a b").unwrap(), 0.0);
        assert!(fuzzy.sentence("cats", "cat").unwrap().abs() > 0.0);
        for bad in ["fuzzy:1.5", "fuzzy:x", "compat:foo", "beam:3"] {
            assert!(CharacTerConfig::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn signature_round_trips() {
        let c = CharacTerConfig::parse("compat:cer|fuzzy:0.25").unwrap();
        let sig = c.signature(crate::NRefs::Fixed(1)).to_string();
        assert_eq!(sig, format!("nrefs:1|tok:split|compat:cer|fuzzy:0.25|version:1.2.0|impl:mteval-{IMPL_VERSION}"));
        assert_eq!(CharacTerConfig::parse(&sig).unwrap(), c);
        assert_eq!(
            CharacTerConfig::default().signature(crate::NRefs::Fixed(1)).to_string(),
            format!("nrefs:1|tok:split|compat:original|fuzzy:no|version:c4b25cb|impl:mteval-{IMPL_VERSION}")
        );
    }
}
