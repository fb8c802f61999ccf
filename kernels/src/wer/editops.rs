//! Levenshtein edit operations exactly as rapidfuzz-cpp 3.x
//! `levenshtein_editops` chooses them (rapidfuzz 3.9.7 to 3.14.x, which
//! jiwer 4.0.0 calls through `Levenshtein.opcodes`), on integer symbols.
//!
//! The algorithm (`Levenshtein_impl.hpp`):
//! * `align_hirschberg`: strip the common prefix, then the common suffix of
//!   what remains; if the rest is small (`2 * min(len1, 2*max+1) * len2 / 8
//!   < 1 MiB`, or `len1 < 65`, or `len2 < 10`) align it with one matrix,
//!   else split `s2` at `len2 / 2`, split `s1` at the smallest `k` minimising
//!   `lev(s1[..k], s2[..mid]) + lev(s1[k..], s2[mid..])`, and recurse on both
//!   halves with their exact distances as `max`.
//! * `levenshtein_align` + `recover_alignment`: Hyyrö's bit-parallel matrix
//!   with `s1` as the pattern (one bit per `s1` position, one row per `s2`
//!   symbol), keeping every row's vertical deltas (`VP`/`VN`), and a backtrace
//!   from the end that prefers a deletion (`VP` set), then an insertion (`VN`
//!   of the previous row set), then the diagonal.
//!
//! rapidfuzz computes the matrix inside a band of `max`; the backtrace only
//! reads cells within one of the diagonal band `|i - j| <= max` (the traced
//! path is optimal, so every cell on it has `|i - j| <= D[i][j] <= max`), where
//! the band's values are exact. Here rows are computed in full (exact
//! everywhere) and only the band's words are stored, so memory is
//! `len2 * (2*max/64 + 2)` words per matrix, as in rapidfuzz.

/// The kind of one edit operation (rapidfuzz's `EditType`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EditKind {
    /// `s1[src]` replaced by `s2[dest]`.
    Replace,
    /// `s2[dest]` inserted before `s1[src]`.
    Insert,
    /// `s1[src]` deleted (before `s2[dest]`).
    Delete,
}

/// One edit operation, positions in the whole sequences (rapidfuzz's `EditOp`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct EditOp {
    /// What is done.
    pub kind: EditKind,
    /// Position in the source (`s1`, the reference).
    pub src: usize,
    /// Position in the destination (`s2`, the hypothesis).
    pub dest: usize,
}

const NONE: usize = usize::MAX;

/// Above this many words (`(symbols + 1) × blocks`) the pattern's match
/// masks are kept sparse.
const DENSE_LIMIT: usize = 1 << 20;

/// Match masks of a pattern: for each symbol, the set of pattern positions
/// holding it, 64 positions a word. Symbols are mapped to local ids (those
/// of the pattern; every other symbol shares the all-zero row `nlocal`).
#[derive(Debug, Default)]
struct Peq {
    /// Symbol → local id (`NONE` when absent); reset after each use.
    local: Vec<usize>,
    touched: Vec<usize>,
    nlocal: usize,
    blocks: usize,
    dense: bool,
    /// Dense masks: `(nlocal + 1) × blocks`.
    table: Vec<u64>,
    /// Sparse masks: the `(block, mask)` entries of local id `l` are
    /// `sparse[start[l]..start[l + 1]]`, blocks ascending.
    start: Vec<usize>,
    sparse: Vec<(usize, u64)>,
    /// The row handed out in sparse mode, and its non-zero blocks.
    eq: Vec<u64>,
    eq_set: Vec<usize>,
    last_block: Vec<usize>,
}

impl Peq {
    fn load(&mut self, pat: &[u32]) {
        self.nlocal = 0;
        for &x in pat {
            let x = x as usize;
            if x >= self.local.len() {
                self.local.resize(x + 1, NONE);
            }
            if self.local[x] == NONE {
                self.local[x] = self.nlocal;
                self.touched.push(x);
                self.nlocal += 1;
            }
        }
        let blocks = pat.len().div_ceil(64);
        self.blocks = blocks;
        let rows = self.nlocal + 1;
        self.dense = rows.saturating_mul(blocks) <= DENSE_LIMIT;
        if self.dense {
            self.table.clear();
            self.table.resize(rows * blocks, 0);
            for (i, &x) in pat.iter().enumerate() {
                self.table[self.local[x as usize] * blocks + i / 64] |= 1 << (i % 64);
            }
        } else {
            // Count each symbol's distinct blocks, then fill in position order
            // (so each symbol's entries are in ascending block order).
            self.last_block.clear();
            self.last_block.resize(self.nlocal, NONE);
            self.start.clear();
            self.start.resize(rows + 1, 0);
            for (i, &x) in pat.iter().enumerate() {
                let l = self.local[x as usize];
                if self.last_block[l] != i / 64 {
                    self.last_block[l] = i / 64;
                    self.start[l + 1] += 1;
                }
            }
            for l in 0..rows {
                self.start[l + 1] += self.start[l];
            }
            self.sparse.clear();
            self.sparse.resize(self.start[rows], (0, 0));
            let mut next = self.start.clone();
            self.last_block.fill(NONE);
            for (i, &x) in pat.iter().enumerate() {
                let l = self.local[x as usize];
                if self.last_block[l] != i / 64 {
                    self.last_block[l] = i / 64;
                    self.sparse[next[l]] = (i / 64, 0);
                    next[l] += 1;
                }
                self.sparse[next[l] - 1].1 |= 1 << (i % 64);
            }
            self.eq.clear();
            self.eq.resize(blocks, 0);
            self.eq_set.clear();
        }
    }

    fn unload(&mut self) {
        for &x in &self.touched {
            self.local[x] = NONE;
        }
        self.touched.clear();
    }

    /// The masks of symbol `x` (`blocks` words).
    #[inline]
    fn row(&mut self, x: u32) -> &[u64] {
        let l = match self.local.get(x as usize) {
            Some(&l) if l != NONE => l,
            _ => self.nlocal,
        };
        let b = self.blocks;
        if self.dense {
            return &self.table[l * b..(l + 1) * b];
        }
        for &blk in &self.eq_set {
            self.eq[blk] = 0;
        }
        self.eq_set.clear();
        for &(blk, m) in &self.sparse[self.start[l]..self.start[l + 1]] {
            self.eq[blk] = m;
            self.eq_set.push(blk);
        }
        &self.eq
    }
}

/// One row of Hyyrö's block-based bit-parallel Levenshtein DP: `vp`/`vn`
/// hold the vertical deltas `D[c+1][r] - D[c][r]` (+1 / -1) of the previous
/// row and become those of this one; the top boundary `D[0][r] = r`.
#[inline]
fn step(eq: &[u64], vp: &mut [u64], vn: &mut [u64]) {
    let (mut hp_c, mut hn_c) = (1u64, 0u64);
    for ((&pm, p), n) in eq.iter().zip(vp.iter_mut()).zip(vn.iter_mut()) {
        let (v_p, v_n) = (*p, *n);
        let x = pm | hn_c;
        let d0 = ((x & v_p).wrapping_add(v_p) ^ v_p) | x | v_n;
        let hp = v_n | !(d0 | v_p);
        let hn = d0 & v_p;
        let hp_s = (hp << 1) | hp_c;
        let hn_s = (hn << 1) | hn_c;
        hp_c = hp >> 63;
        hn_c = hn >> 63;
        *p = hn_s | !(d0 | hp_s);
        *n = hp_s & d0;
    }
}

/// Reusable buffers of the alignment (one per thread).
#[derive(Debug, Default)]
pub struct Aligner {
    peq: Peq,
    vp: Vec<u64>,
    vn: Vec<u64>,
    mat_vp: Vec<u64>,
    mat_vn: Vec<u64>,
    rev: Vec<u32>,
    left: Vec<usize>,
    right: Vec<usize>,
    /// Hirschberg splits taken (tests check the path is exercised).
    #[cfg(test)]
    splits: usize,
}

/// `D[len][k]` for `k = 0..=n` from the last row's deltas, `D[len][0] = len`.
fn row_values(vp: &[u64], vn: &[u64], n: usize, first: usize, out: &mut Vec<usize>) {
    out.clear();
    out.reserve(n + 1);
    let mut v = first;
    out.push(v);
    for c in 0..n {
        let (w, b) = (c / 64, c % 64);
        if vp[w] >> b & 1 == 1 {
            v += 1;
        } else if vn[w] >> b & 1 == 1 {
            v -= 1;
        }
        out.push(v);
    }
}

impl Aligner {
    fn reset_rows(&mut self) {
        let b = self.peq.blocks;
        self.vp.clear();
        self.vp.resize(b, !0);
        self.vn.clear();
        self.vn.resize(b, 0);
    }

    /// The final value `D[n][m]` after the rows ran: `m + Σ` deltas.
    fn last_value(&self, n: usize, m: usize) -> usize {
        let mut up = 0usize;
        let mut down = 0usize;
        for w in 0..self.peq.blocks {
            let bits = (n - w * 64).min(64);
            let mask = if bits == 64 { !0 } else { (1u64 << bits) - 1 };
            up += (self.vp[w] & mask).count_ones() as usize;
            down += (self.vn[w] & mask).count_ones() as usize;
        }
        (m + up).saturating_sub(down)
    }

    /// Levenshtein distance of `pattern` to each of `texts`.
    pub fn distances<'t>(&mut self, pattern: &[u32], texts: impl IntoIterator<Item = &'t [u32]>) -> Vec<usize> {
        self.peq.load(pattern);
        let out = texts
            .into_iter()
            .map(|t| {
                self.reset_rows();
                for &x in t {
                    let row = self.peq.row(x);
                    step(row, &mut self.vp, &mut self.vn);
                }
                self.last_value(pattern.len(), t.len())
            })
            .collect();
        self.peq.unload();
        out
    }

    /// rapidfuzz's `levenshtein_editops(s1, s2)` (no score hint), into `out`
    /// (cleared first), in forward order.
    pub fn editops(&mut self, s1: &[u32], s2: &[u32], out: &mut Vec<EditOp>) {
        out.clear();
        self.hirschberg(s1, s2, 0, 0, s1.len().max(s2.len()), out);
    }

    fn hirschberg(&mut self, s1: &[u32], s2: &[u32], src: usize, dest: usize, max: usize, out: &mut Vec<EditOp>) {
        let prefix = s1.iter().zip(s2).take_while(|(a, b)| a == b).count();
        let (s1, s2) = (&s1[prefix..], &s2[prefix..]);
        let suffix = s1.iter().rev().zip(s2.iter().rev()).take_while(|(a, b)| a == b).count();
        let (s1, s2) = (&s1[..s1.len() - suffix], &s2[..s2.len() - suffix]);
        let (src, dest) = (src + prefix, dest + prefix);
        let (n, m) = (s1.len(), s2.len());
        let max = max.min(n.max(m));
        let full_band = n.min(2 * max + 1);
        let matrix_size = (2 * full_band).saturating_mul(m) / 8;
        if matrix_size < 1024 * 1024 || n < 65 || m < 10 {
            self.align(s1, s2, max, src, dest, out);
            return;
        }
        #[cfg(test)]
        {
            self.splits += 1;
        }
        let mid = m / 2;
        // Left: D(s1[..k], s2[..mid]) for every k.
        self.peq.load(s1);
        self.reset_rows();
        for &x in &s2[..mid] {
            let row = self.peq.row(x);
            step(row, &mut self.vp, &mut self.vn);
        }
        self.peq.unload();
        row_values(&self.vp, &self.vn, n, mid, &mut self.left);
        // Right: D(rev s1[..t], rev s2[mid..]) for every t.
        self.rev.clear();
        self.rev.extend(s1.iter().rev());
        self.peq.load(&self.rev);
        self.reset_rows();
        for &x in s2[mid..].iter().rev() {
            let row = self.peq.row(x);
            step(row, &mut self.vp, &mut self.vn);
        }
        self.peq.unload();
        row_values(&self.vp, &self.vn, n, m - mid, &mut self.right);
        let mut best = (usize::MAX, 0, 0, 0);
        for k in 0..=n {
            let (l, r) = (self.left[k], self.right[n - k]);
            if l + r < best.0 {
                best = (l + r, k, l, r);
            }
        }
        let (_, k, left, right) = best;
        self.hirschberg(&s1[..k], &s2[..mid], src, dest, left, out);
        self.hirschberg(&s1[k..], &s2[mid..], src + k, dest + mid, right, out);
    }

    /// `levenshtein_align` + `recover_alignment` on affix-free sequences whose
    /// distance is at most `max`.
    fn align(&mut self, s1: &[u32], s2: &[u32], max: usize, src: usize, dest: usize, out: &mut Vec<EditOp>) {
        let (n, m) = (s1.len(), s2.len());
        let start = out.len();
        let (mut row, mut col) = (m, n);
        if n > 0 && m > 0 {
            self.peq.load(s1);
            self.reset_rows();
            let blocks = self.peq.blocks;
            let width = blocks.min((2 * max + 2) / 64 + 2);
            // The stored words of row r: the band's bits c in [r-max-1, r+max+1].
            let lo = |r: usize| (r.saturating_sub(max + 1) / 64).min(blocks - width);
            self.mat_vp.clear();
            self.mat_vn.clear();
            self.mat_vp.reserve(m * width);
            self.mat_vn.reserve(m * width);
            for (r, &x) in s2.iter().enumerate() {
                let eq = self.peq.row(x);
                step(eq, &mut self.vp, &mut self.vn);
                let l = lo(r);
                self.mat_vp.extend_from_slice(&self.vp[l..l + width]);
                self.mat_vn.extend_from_slice(&self.vn[l..l + width]);
            }
            self.peq.unload();
            let bit = |mat: &[u64], r: usize, c: usize| {
                let (l, b) = (lo(r), c / 64);
                b >= l && b < l + width && mat.get(r * width + b - l).is_some_and(|w| w >> (c % 64) & 1 == 1)
            };
            while row > 0 && col > 0 {
                if bit(&self.mat_vp, row - 1, col - 1) {
                    col -= 1;
                    out.push(EditOp { kind: EditKind::Delete, src: col + src, dest: row + dest });
                } else {
                    row -= 1;
                    if row > 0 && bit(&self.mat_vn, row - 1, col - 1) {
                        out.push(EditOp { kind: EditKind::Insert, src: col + src, dest: row + dest });
                    } else {
                        col -= 1;
                        if s1[col] != s2[row] {
                            out.push(EditOp { kind: EditKind::Replace, src: col + src, dest: row + dest });
                        }
                    }
                }
            }
        }
        while col > 0 {
            col -= 1;
            out.push(EditOp { kind: EditKind::Delete, src: col + src, dest: row + dest });
        }
        while row > 0 {
            row -= 1;
            out.push(EditOp { kind: EditKind::Insert, src: col + src, dest: row + dest });
        }
        out[start..].reverse();
    }
}

#[cfg(test)]
#[allow(clippy::cast_possible_truncation, reason = "random lengths and symbols stay far below the target types' range")]
mod tests {
    use super::*;
    use crate::testutil::lcg;

    /// The spec's plain-DP form of rapidfuzz's backtrace, with affix
    /// stripping and Hirschberg at the same thresholds (`ref.py`).
    fn reference(a: &[u32], b: &[u32]) -> Vec<EditOp> {
        fn full(a: &[u32], b: &[u32]) -> Vec<Vec<usize>> {
            let mut d = vec![(0..=b.len()).collect::<Vec<_>>()];
            for i in 1..=a.len() {
                let prev = &d[i - 1];
                let mut row = vec![i; b.len() + 1];
                for j in 1..=b.len() {
                    row[j] = (prev[j - 1] + usize::from(a[i - 1] != b[j - 1])).min(prev[j] + 1).min(row[j - 1] + 1);
                }
                d.push(row);
            }
            d
        }
        fn last_row(a: &[u32], b: &[u32]) -> Vec<usize> {
            let d = full(a, b);
            (0..=a.len()).map(|k| d[k][b.len()]).collect()
        }
        fn align(a: &[u32], b: &[u32], src: usize, dst: usize, out: &mut Vec<EditOp>) {
            let d = full(a, b);
            let (mut i, mut j) = (a.len(), b.len());
            let mut ops = Vec::new();
            let op = |kind, s, t| EditOp { kind, src: s, dest: t };
            while i > 0 && j > 0 {
                if d[i][j] == d[i - 1][j] + 1 {
                    i -= 1;
                    ops.push(op(EditKind::Delete, i + src, j + dst));
                } else {
                    j -= 1;
                    if j > 0 && d[i][j] + 1 == d[i - 1][j] {
                        ops.push(op(EditKind::Insert, i + src, j + dst));
                    } else {
                        i -= 1;
                        if a[i] != b[j] {
                            ops.push(op(EditKind::Replace, i + src, j + dst));
                        }
                    }
                }
            }
            while i > 0 {
                i -= 1;
                ops.push(op(EditKind::Delete, i + src, j + dst));
            }
            while j > 0 {
                j -= 1;
                ops.push(op(EditKind::Insert, i + src, j + dst));
            }
            ops.reverse();
            out.extend(ops);
        }
        fn hb(a: &[u32], b: &[u32], src: usize, dst: usize, mx: usize, out: &mut Vec<EditOp>) {
            let p = a.iter().zip(b).take_while(|(x, y)| x == y).count();
            let (a, b) = (&a[p..], &b[p..]);
            let s = a.iter().rev().zip(b.iter().rev()).take_while(|(x, y)| x == y).count();
            let (a, b) = (&a[..a.len() - s], &b[..b.len() - s]);
            let (src, dst) = (src + p, dst + p);
            let mx = mx.min(a.len().max(b.len()));
            let band = a.len().min(2 * mx + 1);
            if 2 * band * b.len() / 8 < 1024 * 1024 || a.len() < 65 || b.len() < 10 {
                align(a, b, src, dst, out);
                return;
            }
            let mid = b.len() / 2;
            let l = last_row(a, &b[..mid]);
            let ra: Vec<u32> = a.iter().rev().copied().collect();
            let rb: Vec<u32> = b[mid..].iter().rev().copied().collect();
            let r = last_row(&ra, &rb);
            let n = a.len();
            let k = (0..=n).min_by_key(|&k| l[k] + r[n - k]).unwrap_or(0);
            hb(&a[..k], &b[..mid], src, dst, l[k], out);
            hb(&a[k..], &b[mid..], src + k, dst + mid, r[n - k], out);
        }
        let mut out = Vec::new();
        hb(a, b, 0, 0, a.len().max(b.len()), &mut out);
        out
    }

    fn random_pair(next: &mut impl FnMut(u64) -> u64, max_len: u64) -> (Vec<u32>, Vec<u32>) {
        let alphabet = [2, 3, 5, 26, 1000][next(5) as usize];
        let n = next(max_len + 1) as usize;
        let a: Vec<u32> = (0..n).map(|_| next(alphabet) as u32).collect();
        let b: Vec<u32> = if next(2) == 0 {
            (0..next(max_len + 1)).map(|_| next(alphabet) as u32).collect()
        } else {
            let mut b = a.clone();
            for _ in 0..next(8) {
                let i = next(b.len() as u64 + 1) as usize;
                match next(3) {
                    0 if i < b.len() => {
                        b.remove(i);
                    }
                    1 => b.insert(i, next(alphabet) as u32),
                    _ if i < b.len() => b[i] = next(alphabet) as u32,
                    _ => {}
                }
            }
            b
        };
        (a, b)
    }

    #[test]
    fn editops_equal_the_plain_dp_form_of_rapidfuzz() {
        let mut next = lcg(11);
        let mut al = Aligner::default();
        let mut ops = Vec::new();
        for case in 0..6000 {
            let (a, b) = random_pair(&mut next, if case % 10 == 0 { 300 } else { 90 });
            al.editops(&a, &b, &mut ops);
            assert_eq!(ops, reference(&a, &b), "{a:?} {b:?}");
            let d = al.distances(&a, [b.as_slice()]);
            assert_eq!(d[0], ops.len());
        }
    }

    #[test]
    fn hirschberg_splits_equal_the_plain_dp_form() {
        // Large enough to split: len1 * len2 >= 4M after affix stripping.
        let mut next = lcg(5);
        let mut al = Aligner::default();
        let mut ops = Vec::new();
        for (n, m, alphabet) in [(2100, 2100, 3), (2200, 2000, 1000), (70, 70_000, 4), (2500, 1800, 2)] {
            let a: Vec<u32> = (0..n).map(|_| next(alphabet) as u32).collect();
            let mut b: Vec<u32> = if n < m / 10 {
                (0..m).map(|_| next(alphabet) as u32).collect()
            } else {
                a.iter().copied().cycle().take(m).collect()
            };
            for _ in 0..(m / 20) {
                let i = next(m as u64) as usize;
                b[i] = next(alphabet) as u32;
            }
            let before = al.splits;
            al.editops(&a, &b, &mut ops);
            assert!(al.splits > before, "{n}x{m} did not split");
            assert_eq!(ops, reference(&a, &b), "{n}x{m}");
        }
    }

    #[test]
    fn sparse_masks_equal_dense_ones() {
        let mut next = lcg(7);
        let mut al = Aligner::default();
        // 2000 distinct symbols over 2000 positions: (2001 × 32) words, dense;
        // force the sparse path by a pattern of 40,000 distinct symbols.
        let a: Vec<u32> = (0..40_000u32).collect();
        let b: Vec<u32> = (0..300).map(|_| next(45_000) as u32).collect();
        let d = al.distances(&a, [b.as_slice()]);
        assert_eq!(d[0], crate::levenshtein::reference_distance(&a, &b));
        assert!(!al.peq.dense);
        // The alignment on sparse masks: 10,000 distinct symbols, repeated.
        let a: Vec<u32> = (0..12_000u32).map(|i| i % 10_000).collect();
        let mut b: Vec<u32> = a[..400].to_vec();
        for _ in 0..60 {
            let i = next(b.len() as u64) as usize;
            b[i] = next(12_000) as u32;
        }
        let mut ops = Vec::new();
        al.editops(&a, &b, &mut ops);
        assert!(!al.peq.dense);
        assert_eq!(ops, reference(&a, &b));
    }
}
