//! sacrebleu's greedy shift search (`translation_edit_rate`, `_shift`,
//! `_find_shifted_pairs`, `_perform_shift` in `sacrebleu/metrics/lib_ter.py`).
//!
//! Limits and ordering are tercom-inspired but sacrebleu's own: blocks of at
//! most 10 words, at most 50 positions apart, and a budget of 1000 evaluated
//! candidates per sentence, cumulative over rounds. When a round exhausts the
//! budget its best shift is discarded even if it would help (a sacrebleu quirk
//! kept for parity).

use super::beam::{BeamEditDistance, Op};

/// sacrebleu `_MAX_SHIFT_SIZE`.
const MAX_SHIFT_SIZE: usize = 10;
/// sacrebleu `_MAX_SHIFT_DIST`.
const MAX_SHIFT_DIST: usize = 50;
/// sacrebleu `_MAX_SHIFT_CANDIDATES`.
const MAX_SHIFT_CANDIDATES: usize = 1000;

/// Result of TER on one (hypothesis, reference) pair of word ids.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PairResult {
    /// Shifts plus word edits after shifting.
    pub edits: u32,
    /// Number of accepted shifts.
    pub shifts: u32,
    /// The hypothesis after all shifts, as original word positions.
    pub order: Vec<u32>,
    /// For each original hypothesis position: was it part of a shifted block.
    pub shifted: Vec<bool>,
}

/// `_perform_shift`: move `w[start..start+len]` so that it is inserted before
/// index `target` (an index into the list with the block removed).
pub fn perform_shift<T: Copy>(w: &[T], start: usize, len: usize, target: usize, out: &mut Vec<T>) {
    out.clear();
    // Python slices clamp to the list length; so do we.
    let n = w.len();
    let target = target.min(n);
    let block = &w[start..start + len];
    if target < start {
        out.extend_from_slice(&w[..target]);
        out.extend_from_slice(block);
        out.extend_from_slice(&w[target..start]);
        out.extend_from_slice(&w[start + len..]);
    } else if target > start + len {
        out.extend_from_slice(&w[..start]);
        out.extend_from_slice(&w[start + len..target]);
        out.extend_from_slice(block);
        out.extend_from_slice(&w[target..]);
    } else {
        out.extend_from_slice(&w[..start]);
        let e = (len + target).min(n);
        out.extend_from_slice(&w[start + len..e]);
        out.extend_from_slice(block);
        out.extend_from_slice(&w[e..]);
    }
}

/// Alignment of the current hypothesis (after flipping the trace).
#[derive(Default)]
struct Alignment {
    /// `align[r]` = hypothesis position aligned to reference word `r` (may be -1).
    align: Vec<i64>,
    /// Prefix sums of reference errors.
    rerr: Vec<u32>,
    /// Prefix sums of hypothesis errors.
    herr: Vec<u32>,
}

impl Alignment {
    /// The alignment of `trace` (`n_h` hypothesis and `n_r` reference
    /// words), in place of this one's (its memory is reused).
    fn fill(&mut self, trace: &[Op], n_h: usize, n_r: usize) {
        let Self { align, rerr, herr } = self;
        align.clear();
        align.resize(n_r, -1);
        rerr.clear();
        herr.clear();
        rerr.reserve(n_r + 1);
        herr.reserve(n_h + 1);
        rerr.push(0u32);
        herr.push(0u32);
        let (mut ph, mut pr) = (-1i64, -1i64);
        for &op in trace {
            // The DP's Ins ("consume a reference word") is a deletion once the
            // trace is flipped to rewrite the reference into the hypothesis.
            match op {
                Op::Nop | Op::Sub => {
                    let e = u32::from(op == Op::Sub);
                    ph += 1;
                    pr += 1;
                    align[position(pr)] = ph;
                    herr.push(herr.last().copied().unwrap_or(0) + e);
                    rerr.push(rerr.last().copied().unwrap_or(0) + e);
                }
                Op::Del => {
                    ph += 1;
                    herr.push(herr.last().copied().unwrap_or(0) + 1);
                }
                Op::Ins => {
                    pr += 1;
                    align[position(pr)] = ph;
                    rerr.push(rerr.last().copied().unwrap_or(0) + 1);
                }
                Op::Undef => {}
            }
        }
    }
}

/// Buffers [`enumerate_round`] reuses from round to round.
#[derive(Default)]
struct RoundScratch {
    trace: Vec<Op>,
    al: Alignment,
}

/// The reference's word positions grouped by word: `(word, position)`,
/// sorted. The shift search asks, for each hypothesis word, where the same
/// word occurs in a window of the reference; this answers with two binary
/// searches instead of a scan of the whole window.
pub(crate) struct RefIndex(Vec<(u32, u32)>);

impl RefIndex {
    #[allow(clippy::cast_possible_truncation, reason = "a reference has far fewer than 2^32 words")]
    pub(crate) fn new(reference: &[u32]) -> Self {
        let mut v: Vec<(u32, u32)> = reference.iter().enumerate().map(|(p, &w)| (w, p as u32)).collect();
        v.sort_unstable();
        Self(v)
    }

    /// Positions of `word` in `lo..=hi`, ascending.
    #[allow(clippy::cast_possible_truncation, reason = "lo is clamped to u32::MAX first")]
    fn positions(&self, word: u32, lo: usize, hi: usize) -> impl Iterator<Item = usize> + '_ {
        let lo = lo.min(u32::MAX as usize) as u32;
        let start = self.0.partition_point(|&e| e < (word, lo));
        self.0[start..].iter().take_while(move |&&(w, p)| w == word && p as usize <= hi).map(|&(_, p)| p as usize)
    }
}

/// A candidate's ranking key: `(delta, len, -start, -target)`, larger is
/// better; the first one wins ties.
fn better(c: (i64, usize, usize, usize), best: Option<(i64, usize, usize, usize)>) -> bool {
    best.is_none_or(|(bd, bl, bs, bt)| {
        (c.0, c.1, std::cmp::Reverse(c.2), std::cmp::Reverse(c.3))
            > (bd, bl, std::cmp::Reverse(bs), std::cmp::Reverse(bt))
    })
}

/// The candidates of one round of `_shift`, in sacrebleu's order, as
/// `visit(start, len, target)`; counts them into `checked` and stops where
/// sacrebleu's budget stops the round. Needs `ed.full(cur)` done first;
/// `index` is the reference's [`RefIndex`].
fn enumerate_round(
    cur: &[u32],
    reference: &[u32],
    index: &RefIndex,
    ed: &BeamEditDistance<'_>,
    checked: &mut usize,
    scratch: &mut RoundScratch,
    mut visit: impl FnMut(usize, usize, usize),
) {
    let n_h = cur.len();
    let n_r = reference.len();
    if n_r == 0 {
        return;
    }
    ed.trace_into(&mut scratch.trace);
    scratch.al.fill(&scratch.trace, n_h, n_r);
    let al = &scratch.al;
    for sh in 0..n_h {
        let sr_lo = sh.saturating_sub(MAX_SHIFT_DIST);
        let sr_hi = (sh + MAX_SHIFT_DIST).min(n_r - 1);
        // Only reference positions holding the same word start a match (in
        // ascending order, as sacrebleu scans them).
        for sr in index.positions(cur[sh], sr_lo, sr_hi) {
            let mut len = 0;
            while cur[sh + len] == reference[sr + len] && len < MAX_SHIFT_SIZE {
                len += 1;
                // Candidate (sh, sr, len).
                let skip = al.herr[sh + len] - al.herr[sh] == 0 || al.rerr[sr + len] - al.rerr[sr] == 0 || {
                    let a = al.align[sr];
                    #[allow(clippy::cast_possible_wrap, reason = "word positions are far below i64::MAX")]
                    let (s, e) = (sh as i64, (sh + len) as i64);
                    s <= a && a < e
                };
                if !skip {
                    let mut prev_idx: i64 = -1;
                    #[allow(clippy::cast_possible_wrap, reason = "len is at most MAX_SHIFT_SIZE")]
                    let end = len as i64;
                    for off in -1i64..end {
                        #[allow(clippy::cast_possible_wrap, reason = "word positions are far below i64::MAX")]
                        let pos = sr as i64 + off;
                        let idx = if pos == -1 {
                            0
                        } else {
                            #[allow(
                                clippy::cast_sign_loss,
                                clippy::cast_possible_truncation,
                                reason = "pos is not -1 here, so it is a position"
                            )]
                            {
                                al.align[pos as usize] + 1
                            }
                        };
                        if idx == prev_idx {
                            continue;
                        }
                        prev_idx = idx;
                        *checked += 1;
                        #[allow(
                            clippy::cast_sign_loss,
                            clippy::cast_possible_truncation,
                            reason = "idx is 0 or an alignment (at least -1) plus one"
                        )]
                        visit(sh, len, idx as usize);
                    }
                    if *checked >= MAX_SHIFT_CANDIDATES {
                        return;
                    }
                }
                if sh + len == n_h || sr + len == n_r {
                    break;
                }
            }
        }
    }
}

/// One round of `_shift`. Returns `(distance of cur, delta, best (start,
/// len, target))`.
fn shift_round(
    cur: &[u32],
    index: &RefIndex,
    ed: &mut BeamEditDistance<'_>,
    checked: &mut usize,
    round: &mut RoundScratch,
    scratch: &mut BlockScratch,
    found: &mut Vec<(usize, usize, usize)>,
) -> (u32, i64, Option<(usize, usize, usize)>) {
    let dist = ed.full(cur);
    let pre = i64::from(dist);
    found.clear();
    let reference = ed.reference();
    enumerate_round(cur, reference, index, ed, checked, round, |sh, len, target| found.push((sh, len, target)));
    if *checked >= MAX_SHIFT_CANDIDATES {
        // sacrebleu scores this round's candidates, then ends the search
        // whatever they score: the distance of `cur` is the answer.
        return (dist, 0, None);
    }
    if !found.is_empty() {
        ed.backward(cur);
    }
    // The best candidate is the largest key whatever the order they are
    // scored in (equal keys are the same candidate), so they are taken
    // block by block.
    found.sort_unstable();
    let mut best: Option<(i64, usize, usize, usize)> = None;
    score_by_block(ed, cur, dist, found, scratch, |(sh, len, target), d| {
        let delta = pre - i64::from(d);
        if better((delta, len, sh, target), best) {
            best = Some((delta, len, sh, target));
        }
    });
    let (delta, best) = finish(best);
    (dist, delta, best)
}

/// Scores `cands` (`(start, len, target)`, sorted so that each block's
/// candidates are together) block by block, calling `f(candidate,
/// distance)` for each. Needs `ed.full(cur)` (whose distance is `pre`) and
/// `ed.backward(cur)` first.
fn score_by_block(
    ed: &mut BeamEditDistance<'_>,
    cur: &[u32],
    pre: u32,
    cands: &[(usize, usize, usize)],
    scratch: &mut BlockScratch,
    mut f: impl FnMut((usize, usize, usize), u32),
) {
    for group in cands.chunk_by(|a, b| (a.0, a.1) == (b.0, b.1)) {
        let (sh, len, _) = group[0];
        block_distances(ed, cur, sh, len, group.iter().map(|c| c.2), pre, scratch);
        for (&c, &d) in group.iter().zip(&scratch.dist) {
            f(c, d);
        }
    }
}

/// Buffers of [`block_distances`].
#[derive(Default)]
struct BlockScratch {
    /// `(end or start, candidate)` of the right and left moves.
    right: Vec<(usize, usize)>,
    left: Vec<(usize, usize)>,
    places: Vec<usize>,
    found: Vec<u32>,
    /// The distances, per candidate.
    dist: Vec<u32>,
}

/// Distances of the word orders that move the block `cur[sh..sh + len]` to
/// each of `targets` (sacrebleu's `_perform_shift` targets), into
/// `scratch.dist` in the same order; `pre` is the distance of `cur`. Needs
/// `ed.full(cur)` and `ed.backward(cur)` first.
fn block_distances(
    ed: &mut BeamEditDistance<'_>,
    cur: &[u32],
    sh: usize,
    len: usize,
    targets: impl Iterator<Item = usize>,
    pre: u32,
    scratch: &mut BlockScratch,
) {
    let n = cur.len();
    let BlockScratch { right, left, places, found, dist } = scratch;
    right.clear();
    left.clear();
    dist.clear();
    for (k, t) in targets.enumerate() {
        dist.push(pre);
        if t < sh {
            left.push((t, k));
        } else {
            // Where the block ends after the move (`_perform_shift`'s two
            // rightward cases); where it stays, the order is `cur` itself.
            let e = if t > sh + len { t.min(n) } else { (len + t).min(n) };
            if e != sh + len {
                right.push((e, k));
            }
        }
    }
    right.sort_unstable();
    left.sort_unstable_by(|a, b| b.cmp(a));
    for (moves, is_right) in [(&*right, true), (&*left, false)] {
        if moves.is_empty() {
            continue;
        }
        places.clear();
        places.extend(moves.iter().map(|m| m.0));
        places.dedup();
        found.clear();
        if is_right {
            ed.distances_right(cur, sh, len, places, found);
        } else {
            ed.distances_left(cur, sh, len, places, found);
        }
        let mut u = 0;
        for &(place, k) in moves {
            while places[u] != place {
                u += 1;
            }
            dist[k] = found[u];
        }
    }
}

fn finish(best: Option<(i64, usize, usize, usize)>) -> (i64, Option<(usize, usize, usize)>) {
    match best {
        None => (0, None),
        Some((d, l, s, t)) => (d, Some((s, l, t))),
    }
}

/// The greedy shift search on the CPU from word order `cur`, with `checked`
/// candidates already counted against the budget: shifts `cur` in place,
/// calls `on_shift(start, len, target)` for each shift made, and returns
/// the distance of the final order (the last round's, which shifted
/// nothing).
fn search(
    cur: &mut Vec<u32>,
    ed: &mut BeamEditDistance<'_>,
    index: &RefIndex,
    checked: &mut usize,
    mut on_shift: impl FnMut(usize, usize, usize),
) -> u32 {
    let mut cand = Vec::with_capacity(cur.len());
    let mut round = RoundScratch::default();
    let mut scratch = BlockScratch::default();
    let mut found = Vec::new();
    loop {
        let (dist, delta, best) = shift_round(cur, index, ed, checked, &mut round, &mut scratch, &mut found);
        if *checked >= MAX_SHIFT_CANDIDATES || delta <= 0 {
            return dist;
        }
        let Some((s, l, t)) = best else { return dist };
        on_shift(s, l, t);
        perform_shift(cur, s, l, t, &mut cand);
        std::mem::swap(cur, &mut cand);
    }
}

/// `translation_edit_rate(hyp, ref)` on interned word ids (non-empty reference).
#[must_use]
pub fn ter_pair(hyp: &[u32], reference: &[u32]) -> PairResult {
    let n_h = hyp.len();
    #[allow(clippy::cast_possible_truncation, reason = "a hypothesis has far fewer than 2^32 words")]
    let mut order: Vec<u32> = (0..n_h as u32).collect();
    let mut shifted = vec![false; n_h];
    if reference.is_empty() {
        #[allow(clippy::cast_possible_truncation, reason = "a hypothesis has far fewer than 2^32 words")]
        return PairResult { edits: n_h as u32, shifts: 0, order, shifted };
    }
    let mut ed = BeamEditDistance::new(reference, n_h);
    let index = RefIndex::new(reference);
    let mut cur = hyp.to_vec();
    let mut tmp_order = Vec::with_capacity(n_h);
    let mut checked = 0usize;
    let mut shifts = 0u32;
    let d = search(&mut cur, &mut ed, &index, &mut checked, |s, l, t| {
        shifts += 1;
        for &o in &order[s..s + l] {
            shifted[o as usize] = true;
        }
        perform_shift(&order, s, l, t, &mut tmp_order);
        std::mem::swap(&mut order, &mut tmp_order);
    });
    PairResult { edits: shifts + d, shifts, order, shifted }
}

/// Final alignment of the shifted hypothesis against the reference: the DP
/// trace of [`ter_pair`]'s final word order.
#[must_use]
pub fn final_trace(hyp: &[u32], reference: &[u32], order: &[u32]) -> Vec<Op> {
    let cur: Vec<u32> = order.iter().map(|&o| hyp[o as usize]).collect();
    if reference.is_empty() {
        return vec![Op::Del; cur.len()];
    }
    let mut ed = BeamEditDistance::new(reference, cur.len());
    ed.full(&cur);
    ed.trace()
}

/// A position counted from -1 once it has been incremented.
#[allow(
    clippy::cast_sign_loss,
    clippy::cast_possible_truncation,
    reason = "incremented from -1 before use, so a position"
)]
const fn position(p: i64) -> usize {
    p as usize
}

#[cfg(test)]
#[allow(
    clippy::cast_possible_truncation,
    reason = "random words and positions are drawn below small bounds; test vocabularies are small"
)]
mod tests {
    use super::*;

    #[test]
    fn perform_shift_cases_match_spec_example() {
        let w: Vec<char> = "abcdefg".chars().collect();
        let expected = ["bcadefg", "abcdefg", "adbcefg", "adebcfg", "adbcefg", "adebcfg", "adefbcg", "adefgbc"];
        let mut out = Vec::new();
        for (t, e) in expected.iter().enumerate() {
            perform_shift(&w, 1, 2, t, &mut out);
            assert_eq!(out.iter().collect::<String>(), *e, "target {t}");
        }
    }

    #[test]
    fn block_distances_equal_perform_shift() {
        // Every target sacrebleu can name (0 ..= n), for random blocks,
        // against a fresh DP of `_perform_shift`'s order.
        let mut next = crate::testutil::lcg(21);
        for (n_h, n_r) in [(1usize, 2usize), (3, 3), (8, 5), (25, 30), (60, 45)] {
            let r: Vec<u32> = (0..n_r).map(|_| next(3) as u32).collect();
            let cur: Vec<u32> = (0..n_h).map(|_| next(3) as u32).collect();
            let mut ed = BeamEditDistance::new(&r, n_h);
            let pre = ed.full(&cur);
            ed.backward(&cur);
            let mut scratch = BlockScratch::default();
            let mut moved = Vec::new();
            for _ in 0..20 {
                let len = 1 + next(n_h.min(10) as u64) as usize;
                let sh = next((n_h - len) as u64 + 1) as usize;
                // Repeats and any order, as a round's candidates come.
                let targets: Vec<usize> = (0..2 * n_h).map(|_| next(n_h as u64 + 1) as usize).collect();
                block_distances(&mut ed, &cur, sh, len, targets.iter().copied(), pre, &mut scratch);
                for (&t, &d) in targets.iter().zip(&scratch.dist) {
                    perform_shift(&cur, sh, len, t, &mut moved);
                    let want = BeamEditDistance::new(&r, n_h).full(&moved);
                    assert_eq!(d, want, "{n_h}x{n_r}: block {sh}+{len} to {t}");
                }
            }
        }
    }

    fn ids(s: &str, vocab: &mut Vec<String>) -> Vec<u32> {
        s.split_whitespace()
            .map(|w| {
                if let Some(p) = vocab.iter().position(|v| v == w) {
                    p as u32
                } else {
                    vocab.push(w.to_owned());
                    (vocab.len() - 1) as u32
                }
            })
            .collect()
    }

    #[test]
    fn single_block_shift() {
        let mut v = Vec::new();
        let r = ids("a b c d e", &mut v);
        let h = ids("c d e a b", &mut v);
        let res = ter_pair(&h, &r);
        assert_eq!(res.edits, 1);
        assert_eq!(res.shifts, 1);
    }

    #[test]
    fn budget_discards_last_round_on_random_permutation() {
        // sacrebleu's 1000-candidate budget: with a permutation of 60 distinct words the budget
        // runs out while a helpful shift is held; result must be < plain distance
        // but the shift count stays below the rounds run.
        let r: Vec<u32> = (0..60).collect();
        let mut h: Vec<u32> = (0..60).collect();
        // deterministic shuffle
        let mut next = crate::testutil::lcg(12345);
        for i in (1..h.len()).rev() {
            let j = next(i as u64 + 1) as usize;
            h.swap(i, j);
        }
        let res = ter_pair(&h, &r);
        assert!(res.shifts <= 11);
        assert!(res.edits <= 60);
    }
}
