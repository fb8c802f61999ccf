//! sacrebleu's beam-banded word edit distance (`BeamEditDistance` in
//! `sacrebleu/metrics/lib_ter.py`), over interned word ids.
//!
//! Rows are hypothesis positions, columns reference positions. Only a band of
//! `±beam` columns around the pseudo-diagonal `floor(i * n_r / n_h)` is
//! computed (the whole remainder on the last row); cells outside it are
//! infinite. The band changes results on long or very unequal sentences, so it
//! is reproduced exactly, including the f64 arithmetic of the diagonal.
//!
//! sacrebleu caches rows in a prefix trie. Every hypothesis scored in one TER
//! call has the same length, so row `i` depends only on the first `i` words:
//! here the current hypothesis keeps its full matrix and each shift candidate
//! restarts from the first row where it differs, which is the same saving.
//!
//! A shift candidate also keeps the current hypothesis's words after the
//! moved block, so this goes further than sacrebleu's trie: the current
//! hypothesis also keeps a backward matrix (the cost from each band cell to
//! the end), and a candidate's rows are computed only as far as it differs.
//! Its distance is then the cheapest band cell of a row where it joins the
//! current hypothesis again, counting the forward cost into the cell and the
//! backward cost out of it: every path through the band crosses that row, so
//! the result is the same banded distance, to the unit.
//!
//! Candidates that move the same block the same way also share rows: the
//! words a block jumps over sit at the same rows in each of them, so one walk
//! over those rows serves them all, and each candidate adds only the block's
//! own rows and the join ([`BeamEditDistance::distances_right`],
//! [`BeamEditDistance::distances_left`]).

/// Infinite cost; real costs never exceed `n_h + n_r`.
pub const INF: u32 = u32::MAX / 4;

/// sacrebleu `_BEAM_WIDTH`.
const BEAM_WIDTH: i64 = 25;

/// Edit operation of a DP cell, as sacrebleu names them before flipping.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum Op {
    /// Diagonal, words equal (`' '`).
    Nop,
    /// Diagonal, words differ (`'s'`).
    Sub,
    /// Consume a reference word only (`'i'`).
    Ins,
    /// Consume a hypothesis word only (`'d'`).
    Del,
    /// Unreached cell (`'x'`).
    Undef,
}

/// Band limits and DP buffers for one (hypothesis length, reference) pair.
#[derive(Debug)]
pub struct BeamEditDistance<'r> {
    reference: &'r [u32],
    n_h: usize,
    /// `[min_j, max_j)` for rows `0..=n_h` (row 0 spans every column).
    bands: Vec<(usize, usize)>,
    /// Full cost matrix of the last hypothesis passed to [`Self::full`]
    /// (its ops are derived along the trace only).
    costs: Vec<u32>,
    /// That hypothesis (empty before the first [`Self::full`]).
    last: Vec<u32>,
    /// Backward matrix of the last hypothesis passed to [`Self::backward`]:
    /// the cost from each band cell to the end (INF outside the band).
    back: Vec<u32>,
    /// That hypothesis.
    back_for: Vec<u32>,
    /// Rows of the walk a group of candidates shares ([`Self::distances_right`],
    /// [`Self::distances_left`]).
    walk: Rows,
    /// Rows of one candidate's block.
    branch: Rows,
}

/// Two DP row buffers used in turn, each INF outside the band it holds.
#[derive(Debug)]
struct Rows {
    v: [Vec<u32>; 2],
    band: [(usize, usize); 2],
    /// The buffer holding the latest row.
    at: usize,
}

impl Rows {
    fn new(w: usize) -> Self {
        Self { v: [vec![INF; w], vec![INF; w]], band: [(0, 0); 2], at: 0 }
    }

    /// The latest row.
    fn row(&self) -> &[u32] {
        &self.v[self.at]
    }

    /// Sets the cells of `row` that band `old` holds and `new` will not
    /// write back to INF (bands move little from row to row, so this is
    /// usually a cell or two, not a whole band).
    fn clear_outside(row: &mut [u32], old: (usize, usize), new: (usize, usize)) {
        row[old.0..old.1.min(new.0).max(old.0)].fill(INF);
        row[new.1.max(old.0).min(old.1)..old.1].fill(INF);
    }

    /// Makes `src` (INF outside `band`) the latest row.
    fn load(&mut self, src: &[u32], band: (usize, usize)) {
        let (old, row) = (self.band[self.at], &mut self.v[self.at]);
        Self::clear_outside(row, old, band);
        row[band.0..band.1].copy_from_slice(&src[band.0..band.1]);
        self.band[self.at] = band;
    }

    /// The other buffer, INF outside `band` (which the caller then writes
    /// in full), with the latest row.
    fn next_and_latest(&mut self, band: (usize, usize)) -> (&mut [u32], &[u32]) {
        let next = 1 - self.at;
        let old = self.band[next];
        let [a, b] = &mut self.v;
        let (n, l) = if next == 1 { (b, &*a) } else { (a, &*b) };
        Self::clear_outside(n, old, band);
        (n, l)
    }

    /// The forward row after the latest one (after `prev` instead, when
    /// given), for word `h` and band `band`.
    fn forward(&mut self, prev: Option<&[u32]>, reference: &[u32], h: u32, band: (usize, usize)) {
        let (next, latest) = self.next_and_latest(band);
        cost_row(prev.unwrap_or(latest), next, reference, h, band.0, band.1);
        self.at = 1 - self.at;
        self.band[self.at] = band;
    }

    /// The backward row before the latest one, for word `h` (between the
    /// two rows) and band `band`.
    fn backward(&mut self, reference: &[u32], h: u32, band: (usize, usize)) {
        let (next, latest) = self.next_and_latest(band);
        back_row(latest, next, reference, h, band.0, band.1);
        self.at = 1 - self.at;
        self.band[self.at] = band;
    }
}

impl<'r> BeamEditDistance<'r> {
    /// Prepares the band for hypotheses of `n_h` words against `reference`.
    #[must_use]
    pub fn new(reference: &'r [u32], n_h: usize) -> Self {
        let bands = bands(n_h, reference.len());
        let w = reference.len() + 1;
        Self {
            reference,
            n_h,
            bands,
            costs: Vec::new(),
            last: Vec::new(),
            back: Vec::new(),
            back_for: Vec::new(),
            walk: Rows::new(w),
            branch: Rows::new(w),
        }
    }

    /// The reference.
    #[must_use]
    pub fn reference(&self) -> &'r [u32] {
        self.reference
    }

    fn width(&self) -> usize {
        self.reference.len() + 1
    }

    /// Computes the whole cost matrix for `hyp`; returns the distance.
    /// The matrix stays available for [`Self::trace`] and the candidates'
    /// distances ([`Self::distances_right`], [`Self::distances_left`]).
    ///
    /// Row `i` depends on the first `i` words only, so the rows that `hyp`
    /// shares with the previous call's hypothesis (a shift search's next
    /// word order keeps the words before the shift) are kept, not recomputed.
    pub fn full(&mut self, hyp: &[u32]) -> u32 {
        debug_assert_eq!(hyp.len(), self.n_h);
        let w = self.width();
        let rows = self.n_h + 1;
        let start = if self.costs.len() == rows * w {
            let same = self.last.iter().zip(hyp).take_while(|(a, b)| a == b).count();
            if same == self.n_h {
                return self.costs[rows * w - 1];
            }
            same + 1
        } else {
            // First call: cells outside the band stay INF.
            self.costs.resize(rows * w, INF);
            for (j, c) in self.costs[..w].iter_mut().enumerate() {
                #[allow(
                    clippy::cast_possible_truncation,
                    reason = "costs are at most the reference length, far below 2^32"
                )]
                {
                    *c = j as u32;
                }
            }
            1
        };
        self.last.clear();
        self.last.extend_from_slice(hyp);
        for i in start..rows {
            let (lo, hi) = self.bands[i];
            let h = hyp[i - 1];
            let (prev_rows, cur_rows) = self.costs.split_at_mut(i * w);
            let prev = &prev_rows[(i - 1) * w..];
            let cur = &mut cur_rows[..w];
            cost_row(prev, cur, self.reference, h, lo, hi);
        }
        self.costs[rows * w - 1]
    }

    /// Computes the backward matrix for `hyp`: the cost from each band cell
    /// of row `i` (after `i` words) to the end, through band cells only, as
    /// used for the candidates' distances. Like [`Self::full`], it keeps the
    /// rows that depend only on words `hyp` shares with the previous call's
    /// hypothesis (here its last words).
    pub fn backward(&mut self, hyp: &[u32]) {
        debug_assert_eq!(hyp.len(), self.n_h);
        let w = self.width();
        let n_h = self.n_h;
        let n_r = self.reference.len();
        // Row i depends on words i.. only: rows n_h - same ..= n_h are kept.
        let first_stale = if self.back.len() == (n_h + 1) * w {
            let same = self.back_for.iter().rev().zip(hyp.iter().rev()).take_while(|(a, b)| a == b).count();
            if same == n_h {
                return;
            }
            n_h - same - 1
        } else {
            // Cells outside the band stay INF for good.
            self.back.clear();
            self.back.resize((n_h + 1) * w, INF);
            let (lo, hi) = self.bands[n_h];
            for j in lo..hi {
                #[allow(
                    clippy::cast_possible_truncation,
                    reason = "costs are at most the reference length, far below 2^32"
                )]
                {
                    self.back[n_h * w + j] = (n_r - j) as u32;
                }
            }
            n_h.saturating_sub(1)
        };
        self.back_for.clear();
        self.back_for.extend_from_slice(hyp);
        if n_h == 0 {
            return;
        }
        for i in (0..=first_stale).rev() {
            // Row i + 1 consumes word i.
            let h = hyp[i];
            let (lo, hi) = self.bands[i];
            let (cur_rows, next_rows) = self.back.split_at_mut((i + 1) * w);
            let cur = &mut cur_rows[i * w..];
            let next = &next_rows[..w];
            back_row(next, &mut cur[..w], self.reference, h, lo, hi);
        }
    }

    /// Distance of an order that equals the last [`Self::full`] and
    /// [`Self::backward`] hypothesis from word `e` on, given its forward
    /// row `e` (INF outside the band): every path crosses row `e`.
    fn join(&self, row: &[u32], e: usize) -> u32 {
        let w = self.width();
        if e == self.n_h {
            return row[w - 1];
        }
        let (lo, hi) = self.bands[e];
        cheapest_crossing(&row[lo..hi], &self.back[e * w + lo..e * w + hi])
    }

    /// Distances of the orders that move the block `cur[s..s + len]` right
    /// so that it ends at each of `ends` (ascending, each in
    /// `s + len + 1 ..= n_h`), that is `cur[..s] + cur[s + len..e] + block +
    /// cur[e..]`, pushed to `out` in that order. Needs [`Self::full`] and
    /// [`Self::backward`] of `cur` first.
    ///
    /// The rows of the words the block jumps depend only on `cur` without
    /// the block, so one walk over them serves every end; each end adds only
    /// the block's `len` rows and the join with the backward matrix.
    pub fn distances_right(&mut self, cur: &[u32], s: usize, len: usize, ends: &[usize], out: &mut Vec<u32>) {
        debug_assert!(len > 0);
        let w = self.width();
        let mut walk = std::mem::replace(&mut self.walk, Rows::new(0));
        let mut branch = std::mem::replace(&mut self.branch, Rows::new(0));
        walk.load(&self.costs[s * w..(s + 1) * w], self.bands[s]);
        let mut at = s;
        for &e in ends {
            debug_assert!(e > s + len && e <= self.n_h);
            // Row i (after i words) of the order without the block.
            while at < e - len {
                at += 1;
                walk.forward(None, self.reference, cur[at - 1 + len], self.bands[at]);
            }
            for k in 0..len {
                let prev = (k == 0).then(|| walk.row());
                branch.forward(prev, self.reference, cur[s + k], self.bands[at + 1 + k]);
            }
            out.push(self.join(branch.row(), e));
        }
        self.walk = walk;
        self.branch = branch;
    }

    /// Distances of the orders that move the block `cur[s..s + len]` left
    /// so that it starts at each of `starts` (descending, each below `s`),
    /// that is `cur[..t] + block + cur[t..s] + cur[s + len..]`, pushed to
    /// `out` in that order. Needs [`Self::full`] and [`Self::backward`] of
    /// `cur` first.
    ///
    /// The mirror of [`Self::distances_right`]: the backward rows of the
    /// words the block jumps (row `i` followed by `cur[i - len]`) serve every
    /// start; each start adds the block's rows from `cur`'s forward row `t`
    /// and the join.
    pub fn distances_left(&mut self, cur: &[u32], s: usize, len: usize, starts: &[usize], out: &mut Vec<u32>) {
        debug_assert!(len > 0);
        let w = self.width();
        let mut walk = std::mem::replace(&mut self.walk, Rows::new(0));
        let mut branch = std::mem::replace(&mut self.branch, Rows::new(0));
        let mut at = s + len;
        walk.load(&self.back[at * w..(at + 1) * w], self.bands[at]);
        for &t in starts {
            debug_assert!(t < s);
            while at > t + len {
                at -= 1;
                walk.backward(self.reference, cur[at - len], self.bands[at]);
            }
            for k in 0..len {
                let prev = (k == 0).then(|| &self.costs[t * w..(t + 1) * w]);
                branch.forward(prev, self.reference, cur[s + k], self.bands[t + 1 + k]);
            }
            let (lo, hi) = self.bands[at];
            out.push(cheapest_crossing(&branch.row()[lo..hi], &walk.row()[lo..hi]));
        }
        self.walk = walk;
        self.branch = branch;
    }

    /// The op trace of the last [`Self::full`] matrix, start to end.
    #[must_use]
    pub fn trace(&self) -> Vec<Op> {
        let mut out = Vec::new();
        self.trace_into(&mut out);
        out
    }

    /// [`Self::trace`] into `out` (cleared first; its memory is reused).
    pub fn trace_into(&self, out: &mut Vec<Op>) {
        let w = self.width();
        let (mut i, mut j) = (self.n_h, self.reference.len());
        out.clear();
        out.reserve(i + j);
        while i > 0 || j > 0 {
            let op = self.op_at(i, j, w);
            out.push(op);
            match op {
                Op::Nop | Op::Sub => {
                    i -= 1;
                    j -= 1;
                }
                Op::Ins => j -= 1,
                Op::Del => i -= 1,
                // sacrebleu raises here; a banded matrix always has a path
                // (the last row spans every column), so this is unreachable.
                Op::Undef => break,
            }
        }
        out.reverse();
    }

    /// The op sacrebleu's DP records in cell `(i, j)` of the last
    /// [`Self::full`] matrix, derived from the costs around it: ties go to
    /// the diagonal, then to the cell above, then to the cell on the left.
    fn op_at(&self, i: usize, j: usize, w: usize) -> Op {
        let c = &self.costs;
        if i == 0 {
            return Op::Ins;
        }
        if c[i * w + j] >= INF {
            return Op::Undef;
        }
        if j == 0 {
            return Op::Del;
        }
        let same = self.last[i - 1] == self.reference[j - 1];
        let d = c[(i - 1) * w + j - 1] + u32::from(!same);
        let u = c[(i - 1) * w + j] + 1;
        let l = c[i * w + j - 1] + 1;
        if d <= u && d <= l {
            if same { Op::Nop } else { Op::Sub }
        } else if u <= l {
            Op::Del
        } else {
            Op::Ins
        }
    }
}

/// sacrebleu's band: `[min_j, max_j)` for rows `0..=n_h` of a hypothesis of
/// `n_h` words against a reference of `n_r` (row 0 spans every column, the
/// last row reaches the last column), with its f64 arithmetic.
#[must_use]
pub fn bands(n_h: usize, n_r: usize) -> Vec<(usize, usize)> {
    band_rows(n_h, n_r).collect()
}

/// [`bands`] row by row, without a vector.
pub fn band_rows(n_h: usize, n_r: usize) -> impl Iterator<Item = (usize, usize)> {
    #[allow(clippy::cast_precision_loss, reason = "sentence lengths are far below 2^53")]
    let length_ratio = if n_h == 0 { 1.0 } else { n_r as f64 / n_h as f64 };
    #[allow(clippy::cast_possible_truncation, reason = "the beam is at most half a sentence length plus a constant")]
    let beam = if (BEAM_WIDTH as f64) < length_ratio / 2.0 {
        (length_ratio / 2.0 + BEAM_WIDTH as f64).ceil() as i64
    } else {
        BEAM_WIDTH
    };
    #[allow(clippy::cast_possible_wrap, reason = "a reference length is far below i64::MAX")]
    let end = n_r as i64 + 1;
    std::iter::once((0, n_r + 1)).chain((1..=n_h).map(move |i| {
        #[allow(
            clippy::cast_precision_loss,
            clippy::cast_possible_truncation,
            reason = "row positions are far below 2^53"
        )]
        let pd = (i as f64 * length_ratio).floor() as i64;
        let min_j = (pd - beam).max(0);
        let mut max_j = (pd + beam).min(end);
        if i == n_h {
            max_j = end;
        }
        #[allow(
            clippy::cast_sign_loss,
            clippy::cast_possible_truncation,
            reason = "both bounds are clamped to 0 ..= n_r + 1"
        )]
        (min_j as usize, max_j.max(min_j) as usize)
    }))
}

/// The cheapest path through one row's band cells: min over the cells of
/// the forward cost into the cell plus the backward cost out of it.
fn cheapest_crossing(forward: &[u32], backward: &[u32]) -> u32 {
    forward.iter().zip(backward).map(|(&f, &b)| f + b).min().unwrap_or(INF).min(INF)
}

/// One row of the backward matrix: `cur[lo..hi]` (the cost from each cell
/// of row `i` to the end) from row `i + 1`'s `next` (INF outside its band),
/// where `h` is the word between the two rows. Cells of `cur` outside
/// `lo..hi` are not written.
#[inline]
fn back_row(next: &[u32], cur: &mut [u32], reference: &[u32], h: u32, lo: usize, hi: usize) {
    if hi <= lo {
        return;
    }
    let n_r = reference.len();
    // Right of the band is INF; the last column has no diagonal.
    // `right` is unclamped, as `left` in `cost_row`.
    let (mut right, top) = if hi == n_r + 1 {
        cur[n_r] = (next[n_r] + 1).min(INF);
        (next[n_r] + 1, n_r)
    } else {
        (INF, hi)
    };
    let cells = cur[lo..top].iter_mut().zip(&next[lo..top]).zip(&next[lo + 1..=top]).zip(&reference[lo..top]);
    for (((c, &down), &diag), &word) in cells.rev() {
        let best = (diag + u32::from(word != h)).min(down + 1).min(right + 1);
        *c = best.min(INF);
        right = best;
    }
}

/// One row of the banded DP, costs only: `cur[lo..hi]` from the previous
/// row `prev` (INF outside its band) for hypothesis word `h`; `cur` must be
/// INF left of `lo`. Same values as [`BeamEditDistance::full`]'s cells.
#[inline]
fn cost_row(prev: &[u32], cur: &mut [u32], reference: &[u32], h: u32, lo: usize, hi: usize) {
    if hi <= lo {
        return;
    }
    // `left` is the cell to the left before clamping to INF: a cell it
    // reaches is at least INF + 1 either way, so the clamped store is the same.
    let (mut left, from) = if lo == 0 {
        cur[0] = prev[0] + 1;
        (cur[0], 1)
    } else {
        (INF, lo)
    };
    if from >= hi {
        return;
    }
    let cells =
        cur[from..hi].iter_mut().zip(&prev[from - 1..hi - 1]).zip(&prev[from..hi]).zip(&reference[from - 1..hi - 1]);
    for (((c, &diag), &up), &word) in cells {
        let best = (diag + u32::from(word != h)).min(up + 1).min(left + 1);
        *c = best.min(INF);
        left = best;
    }
}

#[cfg(test)]
#[allow(
    clippy::cast_possible_truncation,
    reason = "random words and positions are drawn below small bounds; test lengths are small"
)]
mod tests {
    use super::*;

    use crate::testutil::lcg;

    /// Rewrites a random prefix or a random suffix of `a` (the rest is kept,
    /// as a shift search's next order keeps the rows around its change);
    /// returns where the kept part starts or ends.
    fn rewrite_prefix_or_suffix(a: &mut [u32], next: &mut impl FnMut(u64) -> u64) -> usize {
        let keep = next(a.len() as u64 + 1) as usize;
        if next(2) == 0 {
            a[keep..].iter_mut().for_each(|w| *w = next(4) as u32);
        } else {
            a[..keep].iter_mut().for_each(|w| *w = next(4) as u32);
        }
        keep
    }

    #[test]
    fn band_changes_result_as_sacrebleu() {
        // ref = w0..w99, hyp = 30 junk words then w0..w69: banded 100, full DP 60.
        let r: Vec<u32> = (0..100).collect();
        let mut h: Vec<u32> = (1000..1030).collect();
        h.extend(0..70);
        let mut ed = BeamEditDistance::new(&r, h.len());
        assert_eq!(ed.full(&h), 100);
    }

    /// sacrebleu's DP written out plainly: costs and ops of every band cell,
    /// ties to the diagonal, then up, then left; the trace walks the ops.
    fn plain_trace(r: &[u32], h: &[u32]) -> (u32, Vec<Op>) {
        let bands = BeamEditDistance::new(r, h.len()).bands;
        let w = r.len() + 1;
        let mut cost = vec![vec![INF; w]; h.len() + 1];
        let mut ops = vec![vec![Op::Undef; w]; h.len() + 1];
        for j in 0..w {
            cost[0][j] = j as u32;
            ops[0][j] = Op::Ins;
        }
        for i in 1..=h.len() {
            let (lo, hi) = bands[i];
            for j in lo..hi {
                if j == 0 {
                    cost[i][0] = cost[i - 1][0] + 1;
                    ops[i][0] = Op::Del;
                    continue;
                }
                let (mut best, mut op) = if h[i - 1] == r[j - 1] {
                    (cost[i - 1][j - 1], Op::Nop)
                } else {
                    (cost[i - 1][j - 1] + 1, Op::Sub)
                };
                if cost[i - 1][j] + 1 < best {
                    best = cost[i - 1][j] + 1;
                    op = Op::Del;
                }
                if cost[i][j - 1] + 1 < best {
                    best = cost[i][j - 1] + 1;
                    op = Op::Ins;
                }
                cost[i][j] = best.min(INF);
                ops[i][j] = if best < INF { op } else { Op::Undef };
            }
        }
        let (mut i, mut j) = (h.len(), r.len());
        let mut out = Vec::new();
        while i > 0 || j > 0 {
            let op = ops[i][j];
            out.push(op);
            match op {
                Op::Nop | Op::Sub => (i, j) = (i - 1, j - 1),
                Op::Ins => j -= 1,
                Op::Del => i -= 1,
                Op::Undef => break,
            }
        }
        out.reverse();
        (cost[h.len()][r.len()], out)
    }

    #[test]
    fn trace_equals_plain_dp() {
        // Small alphabets make many ties; some pairs are long or unequal
        // enough that the band leaves cells out.
        let mut next = lcg(5);
        for (n_h, n_r) in [(0usize, 3usize), (3, 0), (1, 1), (5, 8), (12, 9), (30, 30), (40, 130), (130, 40), (70, 71)]
        {
            for alphabet in [2u64, 3, 8] {
                for _ in 0..40 {
                    let r: Vec<u32> = (0..n_r).map(|_| next(alphabet) as u32).collect();
                    let h: Vec<u32> = (0..n_h).map(|_| next(alphabet) as u32).collect();
                    let mut ed = BeamEditDistance::new(&r, n_h);
                    let d = ed.full(&h);
                    assert_eq!((d, ed.trace()), plain_trace(&r, &h), "{n_h}x{n_r}, {alphabet} words");
                }
            }
        }
    }

    #[test]
    fn incremental_full_equals_fresh_full() {
        // Random word orders, each sharing a random prefix with the one
        // before; some pairs long enough that the band leaves cells out.
        let mut next = lcg(7);
        for (n_h, n_r) in [(0usize, 5usize), (1, 1), (12, 9), (40, 130), (130, 40), (90, 90)] {
            let r: Vec<u32> = (0..n_r).map(|_| next(5) as u32).collect();
            let mut h: Vec<u32> = (0..n_h).map(|_| next(5) as u32).collect();
            let mut ed = BeamEditDistance::new(&r, n_h);
            for _ in 0..60 {
                let keep = next(n_h as u64 + 1) as usize;
                for w in &mut h[keep..] {
                    *w = next(5) as u32;
                }
                let d = ed.full(&h);
                let mut fresh = BeamEditDistance::new(&r, n_h);
                assert_eq!(d, fresh.full(&h), "distance, {n_h}x{n_r}, kept {keep}");
                assert_eq!(ed.trace(), fresh.trace(), "trace, {n_h}x{n_r}, kept {keep}");
                assert_eq!(ed.costs, fresh.costs, "matrix, {n_h}x{n_r}, kept {keep}");
            }
        }
    }

    #[test]
    fn incremental_backward_equals_fresh() {
        // Word orders that keep a random prefix or suffix of the last one;
        // some pairs long or unequal enough that the band leaves cells out.
        let mut next = lcg(11);
        for (n_h, n_r) in [(0usize, 4usize), (1, 1), (1, 0), (7, 12), (12, 9), (40, 130), (130, 40), (90, 90)] {
            let r: Vec<u32> = (0..n_r).map(|_| next(4) as u32).collect();
            let mut a: Vec<u32> = (0..n_h).map(|_| next(4) as u32).collect();
            let mut ed = BeamEditDistance::new(&r, n_h);
            for _ in 0..80 {
                // A new current order, sharing a random prefix or suffix
                // with the last one (whose rows are kept).
                let keep = rewrite_prefix_or_suffix(&mut a, &mut next);
                let da = ed.full(&a);
                ed.backward(&a);
                let mut fresh = BeamEditDistance::new(&r, n_h);
                fresh.backward(&a);
                assert_eq!(ed.back, fresh.back, "backward matrix, {n_h}x{n_r}, kept {keep}");
                if n_h > 0 {
                    assert_eq!(ed.back[0], da, "backward origin, {n_h}x{n_r}");
                }
            }
        }
    }

    #[test]
    fn shared_walks_equal_fresh_full() {
        // Random blocks (1 to 10 words) moved to random places, left and
        // right, against a fresh DP of the moved order; some pairs long or unequal
        // enough that the band leaves cells out.
        let mut next = lcg(13);
        for (n_h, n_r) in [(2usize, 1usize), (2, 3), (6, 4), (9, 13), (30, 25), (40, 130), (130, 40), (70, 70)] {
            let r: Vec<u32> = (0..n_r).map(|_| next(4) as u32).collect();
            let mut ed = BeamEditDistance::new(&r, n_h);
            let mut cur: Vec<u32> = (0..n_h).map(|_| next(4) as u32).collect();
            for _ in 0..6 {
                // Each order keeps a prefix or a suffix of the last one, as
                // the shift search's do (their matrices are updated, not rebuilt).
                rewrite_prefix_or_suffix(&mut cur, &mut next);
                ed.full(&cur);
                ed.backward(&cur);
                for _ in 0..12 {
                    let len = 1 + next(n_h.min(10) as u64) as usize;
                    let s = next((n_h - len) as u64 + 1) as usize;
                    let moved = |cut: usize, right: bool| -> Vec<u32> {
                        let block = &cur[s..s + len];
                        let rest: Vec<u32> = cur[..s].iter().chain(&cur[s + len..]).copied().collect();
                        let at = if right { cut - len } else { cut };
                        rest[..at].iter().chain(block).chain(&rest[at..]).copied().collect()
                    };
                    let ends: Vec<usize> = (s + len + 1..=n_h).filter(|_| next(3) > 0).collect();
                    let mut got = Vec::new();
                    ed.distances_right(&cur, s, len, &ends, &mut got);
                    assert_eq!(got.len(), ends.len());
                    for (&e, &d) in ends.iter().zip(&got) {
                        let want = BeamEditDistance::new(&r, n_h).full(&moved(e, true));
                        assert_eq!(d, want, "{n_h}x{n_r}: block {s}+{len} to end at {e}");
                    }
                    let starts: Vec<usize> = (0..s).rev().filter(|_| next(3) > 0).collect();
                    got.clear();
                    ed.distances_left(&cur, s, len, &starts, &mut got);
                    assert_eq!(got.len(), starts.len());
                    for (&t, &d) in starts.iter().zip(&got) {
                        let want = BeamEditDistance::new(&r, n_h).full(&moved(t, false));
                        assert_eq!(d, want, "{n_h}x{n_r}: block {s}+{len} to start at {t}");
                    }
                }
            }
        }
    }
}
