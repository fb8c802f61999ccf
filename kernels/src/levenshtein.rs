//! Unit-cost Levenshtein distance, bit-parallel (Myers 1999, in Hyyrö's
//! formulation), for sequences of any length: the pattern is cut into 64-bit
//! blocks and the horizontal carry runs through them (Myers' block-based
//! algorithm). Cost: `text_len × ceil(pattern_len / 64)` word operations.
//!
//! The pattern side is described by match masks (`peq`): for every symbol
//! the text can contain, the set of pattern positions it is equal to. Exact
//! equality builds them from symbol ids; `CharacTER`'s fuzzy word matching
//! builds them from a word-similarity predicate and reuses the same DP.
//!
//! Used by `CharacTER` (word level and character level) and by the SQL
//! functions `edit_distance` / `word_edit_distance`.

use crate::hash::FastMap;

/// Bit-parallel Levenshtein against one fixed pattern.
///
/// Text symbols are indices into the match-mask table given at construction;
/// a symbol that matches no pattern position must still have an (all-zero) row.
#[derive(Debug, Clone, Default)]
pub struct Myers {
    /// Pattern length in symbols.
    m: usize,
    /// 64-bit blocks per symbol row.
    blocks: usize,
    /// `symbols × blocks` match masks, row-major.
    peq: Vec<u64>,
    /// DP state of [`Myers::distance`] for multi-block patterns (scratch).
    scratch_state: Vec<u64>,
}

impl Myers {
    /// An empty engine; fill it with [`Myers::reset_exact`] or [`Myers::reset_masks`].
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// Number of 64-bit blocks a pattern of `m` symbols needs.
    #[must_use]
    pub const fn blocks_for(m: usize) -> usize {
        m.div_ceil(64)
    }

    /// Pattern of symbol ids `< alphabet`; text symbols must be `< alphabet` too.
    pub fn reset_exact(&mut self, pattern: &[u32], alphabet: usize) {
        self.m = pattern.len();
        self.blocks = Self::blocks_for(self.m).max(1);
        self.peq.clear();
        self.peq.resize(alphabet * self.blocks, 0);
        for (i, &s) in pattern.iter().enumerate() {
            self.peq[s as usize * self.blocks + i / 64] |= 1u64 << (i % 64);
        }
    }

    /// Pattern of `m` symbols whose match masks are filled by the caller
    /// through [`Myers::row_mut`] (`symbols` rows, all zero at first).
    pub fn reset_masks(&mut self, m: usize, symbols: usize) {
        self.m = m;
        self.blocks = Self::blocks_for(m).max(1);
        self.peq.clear();
        self.peq.resize(symbols * self.blocks, 0);
    }

    /// The match-mask row of one text symbol (bit `i` of block `i / 64` set
    /// when the symbol matches pattern position `i`).
    pub fn row_mut(&mut self, symbol: usize) -> &mut [u64] {
        let b = self.blocks;
        &mut self.peq[symbol * b..(symbol + 1) * b]
    }

    /// The match-mask row of one text symbol.
    #[must_use]
    pub fn row(&self, symbol: usize) -> &[u64] {
        &self.peq[symbol * self.blocks..(symbol + 1) * self.blocks]
    }

    /// Whether text `symbol` matches pattern position `i`.
    #[must_use]
    pub fn matches(&self, symbol: usize, i: usize) -> bool {
        self.peq[symbol * self.blocks + i / 64] >> (i % 64) & 1 == 1
    }

    /// Pattern length.
    #[must_use]
    pub const fn pattern_len(&self) -> usize {
        self.m
    }

    /// Levenshtein distance between the pattern and `text`.
    pub fn distance(&mut self, text: &[u32]) -> usize {
        let m = self.m;
        if m == 0 {
            return text.len();
        }
        if text.is_empty() {
            return m;
        }
        self.distance_blocks(text)
    }

    fn distance_blocks(&mut self, text: &[u32]) -> usize {
        let mut state = std::mem::take(&mut self.scratch_state);
        state.resize(self.state_len(), 0);
        self.init_state(&mut state);
        let mut score = self.m;
        self.advance(&mut state, &mut score, text);
        self.scratch_state = state;
        score
    }
}

/// A resumable DP column: per 64-bit block the vertical deltas (`vp`, `vn`,
/// interleaved `[vp0, vn0, vp1, vn1, ...]`), and the value of the last row.
/// Row `i + 1` of the column equals row `i` plus bit `i` of `vp` minus bit
/// `i` of `vn`; row 0 is the number of text symbols consumed.
impl Myers {
    /// Words per stored state.
    #[must_use]
    pub const fn state_len(&self) -> usize {
        2 * self.blocks
    }

    /// The state before any text symbol (column 0: row i = i).
    pub fn init_state(&self, state: &mut [u64]) {
        for b in 0..self.blocks {
            state[2 * b] = u64::MAX;
            state[2 * b + 1] = 0;
        }
    }

    /// Advances `state` (with its last-row value `score`) over `text`.
    pub fn advance(&self, state: &mut [u64], score: &mut usize, text: &[u32]) {
        let nb = self.blocks;
        if nb == 1 {
            // One block: no carries between blocks.
            let last = 1u64 << ((self.m.max(1) - 1) % 64);
            let (mut vp, mut vn) = (state[0], state[1]);
            for &c in text {
                let eq = self.peq[c as usize];
                let xv = eq | vn;
                let xh = ((eq & vp).wrapping_add(vp) ^ vp) | eq;
                let mut ph = vn | !(xh | vp);
                let mut mh = vp & xh;
                if ph & last != 0 {
                    *score += 1;
                } else if mh & last != 0 {
                    *score -= 1;
                }
                ph = (ph << 1) | 1;
                mh <<= 1;
                vp = mh | !(xv | ph);
                vn = ph & xv;
            }
            state[0] = vp;
            state[1] = vn;
            return;
        }
        let last_bit = (self.m.max(1) - 1) % 64;
        for &c in text {
            let row = &self.peq[c as usize * nb..(c as usize + 1) * nb];
            // Horizontal carry into the block as bits: +1 at the top row.
            let (mut hp, mut hn) = (1u64, 0u64);
            let (mut ph, mut mh) = (0u64, 0u64);
            for (st, &eq_b) in state.chunks_exact_mut(2).zip(row) {
                let (vp, vn) = (st[0], st[1]);
                let xv = eq_b | vn;
                let eq = eq_b | hn;
                let xh = ((eq & vp).wrapping_add(vp) ^ vp) | eq;
                ph = vn | !(xh | vp);
                mh = vp & xh;
                let (ph_in, mh_in) = ((ph << 1) | hp, (mh << 1) | hn);
                (hp, hn) = (ph >> 63, mh >> 63);
                st[0] = mh_in | !(xv | ph_in);
                st[1] = ph_in & xv;
            }
            // The last block's carry out of the pattern's last row.
            *score = (*score + (ph >> last_bit & 1) as usize) - (mh >> last_bit & 1) as usize;
        }
    }

    /// The states after every prefix of `text` (`text.len() + 1` states of
    /// [`Myers::state_len`] words, then the scores), for resuming later.
    pub fn prefix_states(&self, text: &[u32], states: &mut Vec<u64>, scores: &mut Vec<usize>) {
        let w = self.state_len();
        states.clear();
        states.resize((text.len() + 1) * w, 0);
        scores.clear();
        let (first, _) = states.split_at_mut(w);
        self.init_state(first);
        let mut score = self.m;
        scores.push(score);
        for (t, c) in text.iter().enumerate() {
            let (done, rest) = states.split_at_mut((t + 1) * w);
            let next = &mut rest[..w];
            next.copy_from_slice(&done[t * w..]);
            self.advance(next, &mut score, std::slice::from_ref(c));
            scores.push(score);
        }
    }
}

/// `min_k  F(k) + B(m − k)` for a forward column `F` (`f_state`, row 0 =
/// `f0`) and a column `B` of the reversed problem (`b_state`, row 0 = `b0`):
/// the distance of the concatenation of the two texts against the pattern
/// (the split point `k` of the pattern is free).
#[must_use]
#[allow(
    clippy::cast_possible_wrap,
    clippy::cast_possible_truncation,
    reason = "distances and bit counts are bounded by the text lengths, far below isize::MAX; the table index has 16 bits"
)]
pub fn join_columns(m: usize, f_state: &[u64], f0: usize, b_state: &[u64], b0: usize) -> usize {
    let nb = m.div_ceil(64);
    // B's deltas reversed so that bit k is the step of B between rows m-k-1
    // and m-k: full bit reversal of the block vector, then a right shift.
    let shift = nb * 64 - m;
    let rev = |parity: usize, j: usize| -> u64 {
        let word = |x: usize| if x < nb { b_state[2 * (nb - 1 - x) + parity].reverse_bits() } else { 0 };
        let (q, r) = (j + shift / 64, shift % 64);
        if r == 0 { word(q) } else { (word(q) >> r) | (word(q + 1) << (64 - r)) }
    };
    // B(m) = b0 + Σ deltas; total(0) = F(0) + B(m).
    let mut b_m = b0 as isize;
    for w in 0..nb {
        let mask = if (w + 1) * 64 <= m { u64::MAX } else { (1u64 << (m % 64)) - 1 };
        b_m += (b_state[2 * w] & mask).count_ones() as isize - (b_state[2 * w + 1] & mask).count_ones() as isize;
    }
    let mut total = f0 as isize + b_m;
    let mut best = total;
    let table = join_table();
    for w in 0..nb {
        let (mut fp, mut fnn, mut bp, mut bn) = (f_state[2 * w], f_state[2 * w + 1], rev(0, w), rev(1, w));
        let bits = (m - w * 64).min(64);
        if bits < 64 {
            // Steps past the pattern end are zero (the minimum is unchanged).
            let mask = (1u64 << bits) - 1;
            (fp, fnn, bp, bn) = (fp & mask, fnn & mask, bp & mask, bn & mask);
        }
        // Four steps per table lookup: F rises by its delta, B(m-k) falls by its delta.
        for _ in 0..bits.div_ceil(4) {
            let idx = (fp & 15) | (fnn & 15) << 4 | (bp & 15) << 8 | (bn & 15) << 12;
            let [sum, low] = table[idx as usize];
            best = best.min(total + isize::from(low));
            total += isize::from(sum);
            (fp, fnn, bp, bn) = (fp >> 4, fnn >> 4, bp >> 4, bn >> 4);
        }
    }
    best.unsigned_abs()
}

/// For every nibble of the four delta streams of [`join_columns`] (F's +1
/// and −1 bits, B's +1 and −1 bits, 4 bits each): the sum of the four
/// steps and the lowest running total after 1 to 4 of them.
fn join_table() -> &'static [[i8; 2]] {
    static TABLE: std::sync::OnceLock<Vec<[i8; 2]>> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        (0..1usize << 16)
            .map(|idx| {
                let bit = |stream: usize, o: usize| i8::from(idx >> (4 * stream + o) & 1 == 1);
                let (mut total, mut low) = (0i8, i8::MAX);
                for o in 0..4 {
                    total += bit(0, o) - bit(1, o) - bit(2, o) + bit(3, o);
                    low = low.min(total);
                }
                [total, low]
            })
            .collect()
    })
}

/// Maps code points to dense ids (ASCII through a table, the rest through a map).
#[derive(Debug, Default)]
pub struct CharIds {
    ascii: Vec<u32>,
    other: FastMap<char, u32>,
    next: u32,
}

impl CharIds {
    const NONE: u32 = u32::MAX;

    /// Forgets every id.
    pub fn clear(&mut self) {
        self.ascii.clear();
        self.ascii.resize(128, Self::NONE);
        self.other.clear();
        self.next = 0;
    }

    /// The id of `c`, assigning the next one when new.
    pub fn intern(&mut self, c: char) -> u32 {
        if self.ascii.is_empty() {
            self.clear();
        }
        let slot = if c.is_ascii() { &mut self.ascii[c as usize] } else { self.other.entry(c).or_insert(Self::NONE) };
        if *slot == Self::NONE {
            *slot = self.next;
            self.next += 1;
        }
        *slot
    }

    /// Number of ids assigned.
    #[must_use]
    pub const fn len(&self) -> usize {
        self.next as usize
    }

    /// Whether no id was assigned.
    #[must_use]
    pub const fn is_empty(&self) -> bool {
        self.next == 0
    }
}

/// Reusable buffers for [`char_distance_with`].
#[derive(Debug, Default)]
pub struct CharScratch {
    ids: CharIds,
    a: Vec<u32>,
    b: Vec<u32>,
    myers: Myers,
}

/// Levenshtein distance between two strings, in code points (insertions,
/// deletions and substitutions of one code point each cost 1), as
/// python-Levenshtein's `distance` on `str`.
#[must_use]
pub fn char_distance(a: &str, b: &str) -> usize {
    char_distance_with(&mut CharScratch::default(), a, b)
}

/// [`char_distance`] with caller-owned buffers.
pub fn char_distance_with(s: &mut CharScratch, a: &str, b: &str) -> usize {
    // A common prefix and suffix never change the distance.
    let pre: usize = a.bytes().zip(b.bytes()).take_while(|(x, y)| x == y).count();
    // Back off to a char boundary of both (they share the bytes, so one test suffices).
    let mut pre = pre;
    while !a.is_char_boundary(pre) {
        pre -= 1;
    }
    let (a, b) = (&a[pre..], &b[pre..]);
    let mut suf = a.bytes().rev().zip(b.bytes().rev()).take_while(|(x, y)| x == y).count();
    while !a.is_char_boundary(a.len() - suf) || !b.is_char_boundary(b.len() - suf) {
        suf -= 1;
    }
    let (a, b) = (&a[..a.len() - suf], &b[..b.len() - suf]);
    if a.is_empty() {
        return b.chars().count();
    }
    if b.is_empty() {
        return a.chars().count();
    }
    s.ids.clear();
    s.a.clear();
    s.b.clear();
    for c in a.chars() {
        let id = s.ids.intern(c);
        s.a.push(id);
    }
    for c in b.chars() {
        let id = s.ids.intern(c);
        s.b.push(id);
    }
    let (pat, text) = if s.a.len() <= s.b.len() { (&s.a, &s.b) } else { (&s.b, &s.a) };
    s.myers.reset_exact(pat, s.ids.len());
    s.myers.distance(text)
}

/// Distance between two sequences of dense ids `< alphabet` (the shorter is the pattern).
fn dense_distance(a: &[u32], b: &[u32], alphabet: usize) -> usize {
    let mut my = Myers::new();
    let (pat, text) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    my.reset_exact(pat, alphabet);
    my.distance(text)
}

/// Numbers the symbols of `a` then `b` densely (first appearance order).
fn dense_ids<T: Eq + std::hash::Hash + Copy>(a: &[T], b: &[T]) -> (Vec<u32>, Vec<u32>, usize) {
    let mut ids: FastMap<T, u32> = FastMap::default();
    let mut map = |v: &[T]| -> Vec<u32> {
        v.iter()
            .map(|x| {
                let n = u32::try_from(ids.len()).unwrap_or(u32::MAX);
                *ids.entry(*x).or_insert(n)
            })
            .collect()
    };
    let (da, db) = (map(a), map(b));
    (da, db, ids.len())
}

/// Levenshtein distance between two sequences of symbol ids.
#[must_use]
pub fn id_distance(a: &[u32], b: &[u32]) -> usize {
    let (da, db, alphabet) = dense_ids(a, b);
    dense_distance(&da, &db, alphabet)
}

/// Levenshtein distance between two word sequences (a word is one symbol;
/// words are equal when their strings are equal).
#[must_use]
pub fn word_distance(a: &[&str], b: &[&str]) -> usize {
    let (da, db, alphabet) = dense_ids(a, b);
    dense_distance(&da, &db, alphabet)
}

/// [`char_distance`] of every pair, on `backend` (one launch per batch on a
/// GPU, recomputed on the CPU if the GPU fails; rayon otherwise).
#[must_use]
pub fn char_distances_on(backend: &dyn crate::backend::Backend, pairs: &[(&str, &str)]) -> Vec<usize> {
    use rayon::prelude::*;
    let cpu = || -> Vec<usize> {
        pairs.par_iter().map_init(CharScratch::default, |s, (a, b)| char_distance_with(s, a, b)).collect()
    };
    if !backend.is_gpu() {
        return cpu();
    }
    // Code points are at most bytes: a batch whose byte count is short of
    // the `auto` rule is short in code points too, without counting them.
    let edit_work = |symbols: usize| crate::backend::Work::EditDistance { pairs: pairs.len(), symbols: symbols as u64 };
    let bytes: usize = pairs.iter().map(|(a, b)| a.len() + b.len()).sum();
    if !backend.offload(&edit_work(bytes)) {
        return cpu();
    }
    // The code points of each side, counted once: for the rule, then for
    // laying the batch out.
    let la: Vec<usize> = pairs.par_iter().map(|(a, _)| a.chars().count()).collect();
    let lb: Vec<usize> = pairs.par_iter().map(|(_, b)| b.chars().count()).collect();
    if !backend.offload(&edit_work(la.iter().chain(&lb).sum())) {
        return cpu();
    }
    // The strings go as UTF-8 (a quarter of the code points' size); the
    // device decodes them.
    let gpu = || {
        let a = crate::backend::Texts::from_fn_par(pairs.len(), &la, |i| pairs[i].0)?;
        let b = crate::backend::Texts::from_fn_par(pairs.len(), &lb, |i| pairs[i].1)?;
        backend.edit_distances_text(&a, &b).map(|d| d.into_iter().map(|d| d as usize).collect())
    };
    crate::backend::or_cpu("edit_distance", gpu, cpu)
}

/// [`word_distance`] of every pair, on `backend` (as [`char_distances_on`]).
#[must_use]
pub fn word_distances_on<'a, S: AsRef<[&'a str]> + Sync>(
    backend: &dyn crate::backend::Backend,
    pairs: &[(S, S)],
) -> Vec<usize> {
    use rayon::prelude::*;
    let cpu = || -> Vec<usize> { pairs.par_iter().map(|(a, b)| word_distance(a.as_ref(), b.as_ref())).collect() };
    let words: usize = pairs.iter().map(|(a, b)| a.as_ref().len() + b.as_ref().len()).sum();
    if !backend.offload(&crate::backend::Work::EditDistance { pairs: pairs.len(), symbols: words as u64 }) {
        return cpu();
    }
    let gpu = || {
        let mut ids: FastMap<&str, u32> = FastMap::default();
        let (mut a, mut b) = (crate::backend::Seqs::new(), crate::backend::Seqs::new());
        for (x, y) in pairs {
            for (side, words) in [(&mut a, x.as_ref()), (&mut b, y.as_ref())] {
                side.push_iter(words.iter().map(|w| {
                    let n = u32::try_from(ids.len()).unwrap_or(u32::MAX);
                    *ids.entry(w).or_insert(n)
                }));
            }
        }
        backend.edit_distances(&a, &b).map(|d| d.into_iter().map(|d| d as usize).collect())
    };
    crate::backend::or_cpu("word_edit_distance", gpu, cpu)
}

/// The textbook O(n·m) dynamic programme, for tests.
#[must_use]
pub fn reference_distance<T: PartialEq>(a: &[T], b: &[T]) -> usize {
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0; b.len() + 1];
    for (i, x) in a.iter().enumerate() {
        cur[0] = i + 1;
        for (j, y) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(x != y);
            cur[j + 1] = sub.min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

#[cfg(test)]
#[allow(clippy::cast_possible_truncation, reason = "random symbols and lengths are reduced modulo small bounds")]
mod tests {
    use super::*;
    use crate::testutil::xorshift;

    #[test]
    fn small_cases() {
        assert_eq!(char_distance("", ""), 0);
        assert_eq!(char_distance("abc", ""), 3);
        assert_eq!(char_distance("", "héllo"), 5);
        assert_eq!(char_distance("kitten", "sitting"), 3);
        assert_eq!(char_distance("flaw", "lawn"), 2);
        assert_eq!(char_distance("日本語", "日本"), 1);
        assert_eq!(char_distance("é", "e"), 1);
        assert_eq!(word_distance(&["a", "b", "c"], &["a", "c"]), 1);
        assert_eq!(word_distance(&[], &["a"]), 1);
    }

    #[test]
    fn resumed_and_joined_columns_equal_the_full_dp() {
        let mut next = xorshift(0x2545_F491_4F6C_DD1D);
        for _ in 0..300 {
            let (m, n) = (1 + (next() % 150) as usize, (next() % 120) as usize);
            let pat: Vec<u32> = (0..m).map(|_| (next() % 4) as u32).collect();
            let text: Vec<u32> = (0..n).map(|_| (next() % 4) as u32).collect();
            let cut = if n == 0 { 0 } else { (next() % (n as u64 + 1)) as usize };
            let mut fwd = Myers::new();
            fwd.reset_exact(&pat, 5);
            let rev_pat: Vec<u32> = pat.iter().rev().copied().collect();
            let rev_text: Vec<u32> = text.iter().rev().copied().collect();
            let mut bwd = Myers::new();
            bwd.reset_exact(&rev_pat, 5);
            let (mut fs, mut fsc, mut bs, mut bsc) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
            fwd.prefix_states(&text, &mut fs, &mut fsc);
            bwd.prefix_states(&rev_text, &mut bs, &mut bsc);
            let w = fwd.state_len();
            let want = reference_distance(&pat, &text);
            assert_eq!(fsc[n], want);
            let tail = n - cut;
            let got = join_columns(m, &fs[cut * w..(cut + 1) * w], cut, &bs[tail * w..(tail + 1) * w], tail);
            assert_eq!(got, want, "m={m} n={n} cut={cut}");
        }
    }

    #[test]
    fn matches_the_dp_across_block_boundaries() {
        // Deterministic pseudo-random strings over a small alphabet, lengths
        // around the 64-symbol block boundaries.
        let mut next = xorshift(0x9E37_79B9_7F4A_7C15);
        for round in 0..400 {
            let la = (next() % 200) as usize;
            let lb = if round % 3 == 0 { la } else { (next() % 200) as usize };
            let alpha = 2 + (next() % 5) as u32;
            let a: Vec<u32> = (0..la).map(|_| (next() % u64::from(alpha)) as u32).collect();
            let mut b: Vec<u32> = (0..lb).map(|_| (next() % u64::from(alpha)) as u32).collect();
            if round % 5 == 0 {
                b.clone_from(&a);
                if !b.is_empty() {
                    let k = (next() % b.len() as u64) as usize;
                    b[k] = alpha;
                }
            }
            assert_eq!(id_distance(&a, &b), reference_distance(&a, &b), "{a:?} {b:?}");
            let sa: String = a.iter().map(|&c| char::from(b'a' + c as u8)).collect();
            let sb: String = b.iter().map(|&c| char::from(b'a' + c as u8)).collect();
            assert_eq!(char_distance(&sa, &sb), reference_distance(&a, &b));
        }
    }
}
