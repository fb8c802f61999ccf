//! sacrebleu's beam-banded word edit distance (`BeamEditDistance`,
//! metrics_spec.md §1.4), over interned word ids.
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
//! the end), and a candidate's rows are computed only down to the last row
//! where it differs. Its distance is then the cheapest band cell of that row
//! counting both halves: every path through the band crosses the row, so the
//! result is the same banded distance, to the unit.

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
    row_a: Vec<u32>,
    row_b: Vec<u32>,
}

impl<'r> BeamEditDistance<'r> {
    /// Prepares the band for hypotheses of `n_h` words against `reference`.
    #[must_use]
    pub fn new(reference: &'r [u32], n_h: usize) -> Self {
        let n_r = reference.len();
        #[allow(clippy::cast_precision_loss)]
        let length_ratio = if n_h == 0 { 1.0 } else { n_r as f64 / n_h as f64 };
        #[allow(clippy::cast_possible_truncation)]
        let beam = if (BEAM_WIDTH as f64) < length_ratio / 2.0 {
            (length_ratio / 2.0 + BEAM_WIDTH as f64).ceil() as i64
        } else {
            BEAM_WIDTH
        };
        let mut bands = Vec::with_capacity(n_h + 1);
        bands.push((0, n_r + 1));
        for i in 1..=n_h {
            #[allow(clippy::cast_precision_loss, clippy::cast_possible_truncation)]
            let pd = (i as f64 * length_ratio).floor() as i64;
            let min_j = (pd - beam).max(0);
            let mut max_j = (pd + beam).min(n_r as i64 + 1);
            if i == n_h {
                max_j = n_r as i64 + 1;
            }
            #[allow(clippy::cast_sign_loss, clippy::cast_possible_truncation)]
            bands.push((min_j as usize, max_j.max(min_j) as usize));
        }
        let w = n_r + 1;
        Self {
            reference,
            n_h,
            bands,
            costs: Vec::new(),
            last: Vec::new(),
            back: Vec::new(),
            back_for: Vec::new(),
            row_a: vec![INF; w],
            row_b: vec![INF; w],
        }
    }

    /// The reference.
    #[must_use]
    pub fn reference(&self) -> &'r [u32] {
        self.reference
    }

    /// The band as `(lo, hi)` for rows `0..=n_h`, flat (what the GPU kernel reads).
    pub fn band_pairs(&self) -> impl Iterator<Item = u32> + '_ {
        #[allow(clippy::cast_possible_truncation)]
        self.bands.iter().flat_map(|&(lo, hi)| [lo as u32, hi as u32])
    }

    fn width(&self) -> usize {
        self.reference.len() + 1
    }

    /// Computes the whole cost matrix for `hyp`; returns the distance.
    /// The matrix stays available for [`Self::distance_between`] and [`Self::trace`].
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
                #[allow(clippy::cast_possible_truncation)]
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
    /// used by [`Self::distance_between`]. Like [`Self::full`], it keeps the
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
                #[allow(clippy::cast_possible_truncation)]
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
            if hi <= lo {
                continue;
            }
            // Right of the band is INF; the last column has no diagonal.
            // `right` is unclamped, as `left` in `cost_row`.
            let (mut right, top) = if hi == w {
                cur[n_r] = (next[n_r] + 1).min(INF);
                (next[n_r] + 1, n_r)
            } else {
                (INF, hi)
            };
            let cells =
                cur[lo..top].iter_mut().zip(&next[lo..top]).zip(&next[lo + 1..=top]).zip(&self.reference[lo..top]);
            for (((c, &down), &diag), &word) in cells.rev() {
                let best = (diag + u32::from(word != h)).min(down + 1).min(right + 1);
                *c = best.min(INF);
                right = best;
            }
        }
    }

    /// Distance of `hyp`, which equals the hypothesis of the last
    /// [`Self::full`] call on its first `same_prefix` words and, when
    /// `same_from < n_h`, equals the hypothesis of the last
    /// [`Self::backward`] call on its words from `same_from` on. Only rows
    /// `same_prefix + 1 ..= same_from` are computed.
    pub fn distance_between(&mut self, hyp: &[u32], same_prefix: usize, same_from: usize) -> u32 {
        let w = self.width();
        let end = same_from.min(self.n_h);
        let start = same_prefix.min(end);
        if start == self.n_h && start > 0 {
            return self.costs[self.n_h * w + w - 1];
        }
        let mut prev = std::mem::take(&mut self.row_a);
        let mut cur = std::mem::take(&mut self.row_b);
        // `prev` starts as the shared row (INF outside its band); `cur` is reset
        // once here, then only the band it held two rows ago is cleared.
        if start == 0 {
            // Row 0 is the same for every hypothesis (and there may be no matrix yet).
            #[allow(clippy::cast_possible_truncation)]
            prev.iter_mut().enumerate().for_each(|(j, c)| *c = j as u32);
        } else {
            prev.copy_from_slice(&self.costs[start * w..(start + 1) * w]);
        }
        cur.fill(INF);
        // Band of the row that `cur` held before (to clear it lazily).
        let mut stale: (usize, usize) = (0, 0);
        let mut prev_band = self.bands[start];
        if start == 0 {
            prev_band = (0, w);
        }
        for i in start + 1..=end {
            let (lo, hi) = self.bands[i];
            cur[stale.0..stale.1].fill(INF);
            cost_row(&prev, &mut cur, self.reference, hyp[i - 1], lo, hi);
            stale = prev_band;
            prev_band = (lo, hi);
            std::mem::swap(&mut prev, &mut cur);
        }
        let d = if end == self.n_h {
            prev[w - 1]
        } else {
            // Every path crosses row `end` at some band cell, entering it
            // from the computed rows and leaving it along the shared words.
            let (lo, hi) = self.bands[end];
            let back = &self.back[end * w..(end + 1) * w];
            (lo..hi).map(|j| prev[j] + back[j]).min().unwrap_or(INF).min(INF)
        };
        self.row_a = prev;
        self.row_b = cur;
        d
    }

    /// The op trace of the last [`Self::full`] matrix, start to end.
    #[must_use]
    pub fn trace(&self) -> Vec<Op> {
        let w = self.width();
        let (mut i, mut j) = (self.n_h, self.reference.len());
        let mut out = Vec::with_capacity(i + j);
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
        out
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
mod tests {
    use super::*;

    /// A small deterministic generator: `next(m)` is in `0..m`.
    fn lcg(mut x: u64) -> impl FnMut(u64) -> u64 {
        move |m| {
            x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            (x >> 33) % m
        }
    }

    fn ids(s: &str) -> Vec<u32> {
        s.split(' ').filter(|w| !w.is_empty()).map(|w| w.parse().unwrap()).collect()
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
    fn distance_between_equals_fresh_full() {
        // Word orders that change a random middle span of the last one;
        // some pairs long or unequal enough that the band leaves cells out.
        let mut next = lcg(11);
        for (n_h, n_r) in [(0usize, 4usize), (1, 1), (1, 0), (7, 12), (12, 9), (40, 130), (130, 40), (90, 90)] {
            let r: Vec<u32> = (0..n_r).map(|_| next(4) as u32).collect();
            let mut a: Vec<u32> = (0..n_h).map(|_| next(4) as u32).collect();
            let mut ed = BeamEditDistance::new(&r, n_h);
            for _ in 0..80 {
                // A new current order (sharing a random prefix or suffix
                // with the last one), then candidates around it.
                let keep = next(n_h as u64 + 1) as usize;
                if next(2) == 0 {
                    a[keep..].iter_mut().for_each(|w| *w = next(4) as u32);
                } else {
                    a[..keep].iter_mut().for_each(|w| *w = next(4) as u32);
                }
                let da = ed.full(&a);
                ed.backward(&a);
                let mut fresh = BeamEditDistance::new(&r, n_h);
                fresh.backward(&a);
                assert_eq!(ed.back, fresh.back, "backward matrix, {n_h}x{n_r}, kept {keep}");
                if n_h > 0 {
                    assert_eq!(ed.back[0], da, "backward origin, {n_h}x{n_r}");
                }
                for _ in 0..6 {
                    let p = next(n_h as u64 + 1) as usize;
                    let q = p + next((n_h - p) as u64 + 1) as usize;
                    let mut b = a.clone();
                    b[p..q].iter_mut().for_each(|w| *w = next(4) as u32);
                    let want = BeamEditDistance::new(&r, n_h).full(&b);
                    assert_eq!(ed.distance_between(&b, p, q), want, "{n_h}x{n_r}, rows {p}..{q}");
                }
            }
        }
    }

    #[test]
    fn prefix_restart_equals_full() {
        let r = ids("1 2 3 4 5 6 7 8");
        let a = ids("1 2 9 4 5 3 7 8");
        let b = ids("1 2 9 3 4 5 7 8");
        let mut ed = BeamEditDistance::new(&r, a.len());
        let da = ed.full(&a);
        assert_eq!(da, 2);
        for p in 0..=3 {
            let db = ed.distance_between(&b, p, b.len());
            let mut fresh = BeamEditDistance::new(&r, b.len());
            assert_eq!(db, fresh.full(&b), "restart at {p}");
        }
        // Without a matrix: the distance alone, also of an empty hypothesis.
        assert_eq!(BeamEditDistance::new(&r, b.len()).distance_between(&b, 0, b.len()), 2);
        assert_eq!(BeamEditDistance::new(&r, 0).distance_between(&[], 0, 0), 8);
    }
}
