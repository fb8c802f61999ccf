//! N-gram extraction and clipped matching for one hypothesis/reference pair.
//!
//! Strings become symbol sequences (code points for character n-grams,
//! per-segment word ids for word n-grams). A window of up to six symbols is
//! packed exactly into a `u128` (21 bits per symbol: every code point fits),
//! so counting never relies on a hash being collision-free. Longer orders, or
//! word ids beyond 21 bits, take a slice-keyed map.
//!
//! Clipped matches `Σ_g min(count_h[g], count_r[g])` are counted by loading
//! one side's windows into an open-addressing table and consuming counts with
//! the other side's windows (the shorter side is loaded).

use crate::hash::FastMap;
use std::cell::RefCell;
use std::hash::BuildHasherDefault;

use super::{ChrfConfig, ChrfSegment, Whitespace, f_score};

/// Bits per packed symbol.
pub(crate) const SYMBOL_BITS: u32 = 21;
/// Longest window packed into a `u128`.
pub(crate) const MAX_PACKED: usize = 6;

/// ASCII punctuation (Python's `string.punctuation`).
#[inline]
fn is_ascii_punct(c: char) -> bool {
    c.is_ascii_punctuation()
}

/// chrF++ word tokens: whitespace-split words with one ASCII punctuation
/// character split off the end (checked first) or else the start.
pub fn punctuation_words<'a>(s: &'a str, ws: Whitespace, mut emit: impl FnMut(&'a str)) {
    for w in s.split(|c| ws.is_space(c)).filter(|w| !w.is_empty()) {
        let mut chars = w.chars();
        let first = chars.next();
        let last = chars.next_back();
        match (first, last) {
            (Some(_), None) => emit(w),
            (Some(f), Some(l)) => {
                if is_ascii_punct(l) {
                    let cut = w.len() - l.len_utf8();
                    emit(&w[..cut]);
                    emit(&w[cut..]);
                } else if is_ascii_punct(f) {
                    let cut = f.len_utf8();
                    emit(&w[..cut]);
                    emit(&w[cut..]);
                } else {
                    emit(w);
                }
            }
            (None, _) => {}
        }
    }
}

/// Packs `w` (at most [`MAX_PACKED`] symbols below 2^21) into a `u128`.
#[inline]
pub(crate) fn pack(w: &[u32]) -> u128 {
    let mut k = 0u128;
    for &s in w {
        k = (k << SYMBOL_BITS) | u128::from(s);
    }
    k
}

#[inline]
fn hash(k: u128) -> u64 {
    #[allow(clippy::cast_possible_truncation, reason = "the hash takes the key's two 64-bit halves")]
    let (lo, hi) = (k as u64, (k >> 64) as u64);
    let x = (lo ^ hi.wrapping_mul(0x9E37_79B9_7F4A_7C15)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x ^ (x >> 29)
}

/// Open-addressing multiset of packed windows, cleared in O(1) by a stamp.
#[derive(Default)]
struct CountTable {
    keys: Vec<u128>,
    counts: Vec<u32>,
    stamps: Vec<u32>,
    cur: u32,
    mask: usize,
}

impl CountTable {
    fn reset(&mut self, items: usize) {
        let cap = (items * 2).next_power_of_two().max(16);
        if cap > self.keys.len() {
            self.keys = vec![0; cap];
            self.counts = vec![0; cap];
            self.stamps = vec![0; cap];
            self.cur = 0;
        }
        if self.cur == u32::MAX {
            self.stamps.fill(0);
            self.cur = 0;
        }
        self.cur += 1;
        self.mask = cap - 1;
    }

    #[inline]
    #[allow(clippy::cast_possible_truncation, reason = "the hash is masked to the table size")]
    fn add(&mut self, k: u128) {
        let mut i = hash(k) as usize & self.mask;
        loop {
            if self.stamps[i] != self.cur {
                self.stamps[i] = self.cur;
                self.keys[i] = k;
                self.counts[i] = 1;
                return;
            }
            if self.keys[i] == k {
                self.counts[i] += 1;
                return;
            }
            i = (i + 1) & self.mask;
        }
    }

    /// Consumes one occurrence of `k`; `true` when one was left.
    #[inline]
    #[allow(clippy::cast_possible_truncation, reason = "the hash is masked to the table size")]
    fn take(&mut self, k: u128) -> bool {
        let mut i = hash(k) as usize & self.mask;
        loop {
            if self.stamps[i] != self.cur {
                return false;
            }
            if self.keys[i] == k {
                if self.counts[i] > 0 {
                    self.counts[i] -= 1;
                    return true;
                }
                return false;
            }
            i = (i + 1) & self.mask;
        }
    }
}

/// Clipped matches of the order-`n` windows of `a` and `b` (both long enough).
fn clipped_matches(table: &mut CountTable, a: &[u32], b: &[u32], n: usize, packable: bool) -> u64 {
    let (small, large) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    if packable && n <= MAX_PACKED {
        let mask: u128 = (1u128 << (SYMBOL_BITS as usize * n)) - 1;
        table.reset(small.len() - n + 1);
        let mut k = pack(&small[..n - 1]);
        for &s in &small[n - 1..] {
            k = ((k << SYMBOL_BITS) | u128::from(s)) & mask;
            table.add(k);
        }
        let mut m = 0u64;
        let mut k = pack(&large[..n - 1]);
        for &s in &large[n - 1..] {
            k = ((k << SYMBOL_BITS) | u128::from(s)) & mask;
            m += u64::from(table.take(k));
        }
        m
    } else {
        let mut counts: FastMap<&[u32], u32> =
            FastMap::with_capacity_and_hasher(small.len(), BuildHasherDefault::default());
        for w in small.windows(n) {
            *counts.entry(w).or_insert(0) += 1;
        }
        let mut m = 0u64;
        for w in large.windows(n) {
            if let Some(c) = counts.get_mut(w)
                && *c > 0
            {
                *c -= 1;
                m += 1;
            }
        }
        m
    }
}

/// `[hyp, ref, match]` of order `n` (sacrebleu `_get_match_statistics`).
#[inline]
fn order_stats(table: &mut CountTable, h: &[u32], r: &[u32], n: usize, packable: bool) -> [u64; 3] {
    if n == 0 || r.len() < n {
        return [0, 0, 0];
    }
    let rt = (r.len() - n + 1) as u64;
    if h.len() < n {
        return [0, rt, 0];
    }
    let ht = (h.len() - n + 1) as u64;
    [ht, rt, clipped_matches(table, h, r, n, packable)]
}

/// Symbols of one side of a pair.
#[derive(Default)]
struct Side {
    chars: Vec<u32>,
    words: Vec<u32>,
}

/// Per-thread buffers for sentence scoring.
#[derive(Default)]
pub struct Scratch {
    table: CountTable,
    hyp: Side,
    refs: Vec<Side>,
    stats: Vec<u64>,
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
}

/// Runs `f` with this thread's scratch buffers.
pub fn with_scratch<T>(f: impl FnOnce(&mut Scratch) -> T) -> T {
    SCRATCH.with(|s| f(&mut s.borrow_mut()))
}

/// Appends the character symbols of `s` (whitespace removed unless kept).
pub(crate) fn char_symbols(cfg: &ChrfConfig, s: &str, out: &mut Vec<u32>) {
    out.clear();
    if cfg.whitespace {
        out.extend(s.chars().map(u32::from));
    } else if s.is_ascii() && cfg.ws_rule == Whitespace::Python {
        // ASCII fast path: Python's ASCII whitespace is \t..\r, \x1c..\x1f and space.
        out.extend(s.bytes().filter(|&b| !matches!(b, 9..=13 | 28..=32)).map(u32::from));
    } else {
        let ws = cfg.ws_rule;
        out.extend(s.chars().filter(|&c| !ws.is_space(c)).map(u32::from));
    }
}

impl Scratch {
    fn prepare<'s>(cfg: &ChrfConfig, lowered: &'s str, side: &mut Side, vocab: &mut FastMap<&'s str, u32>) {
        char_symbols(cfg, lowered, &mut side.chars);
        side.words.clear();
        if cfg.word_order > 0 {
            punctuation_words(lowered, cfg.ws_rule, |w| {
                let next = u32::try_from(vocab.len()).unwrap_or(u32::MAX);
                side.words.push(*vocab.entry(w).or_insert(next));
            });
        }
    }

    /// Best-reference statistics of `hyp` against `refs` (non-empty).
    pub(crate) fn segment(&mut self, cfg: &ChrfConfig, hyp: &str, refs: &[&str]) -> ChrfSegment {
        let lowered: Vec<std::borrow::Cow<'_, str>> = std::iter::once(hyp)
            .chain(refs.iter().copied())
            .map(|s| if cfg.lowercase { crate::py::text::py_lower(s).into() } else { s.into() })
            .collect();
        let mut vocab: FastMap<&str, u32> = FastMap::default();
        Self::prepare(cfg, &lowered[0], &mut self.hyp, &mut vocab);
        if self.refs.len() < refs.len() {
            self.refs.resize_with(refs.len(), Side::default);
        }
        for i in 0..refs.len() {
            Self::prepare(cfg, &lowered[i + 1], &mut self.refs[i], &mut vocab);
        }
        let word_packable = vocab.len() < (1 << SYMBOL_BITS);
        let len = cfg.stats_len();
        let mut best = Vec::new();
        let mut best_f = -1.0f64;
        let mut best_ref = 0;
        for i in 0..refs.len() {
            self.stats.clear();
            let (h, r) = (&self.hyp, &self.refs[i]);
            for n in 1..=cfg.char_order {
                self.stats.extend(order_stats(&mut self.table, &h.chars, &r.chars, n, true));
            }
            for n in 1..=cfg.word_order {
                self.stats.extend(order_stats(&mut self.table, &h.words, &r.words, n, word_packable));
            }
            debug_assert_eq!(self.stats.len(), len);
            let st = &self.stats;
            let f = f_score(cfg.beta, cfg.eps_smoothing, cfg.orders(), |o| (st[3 * o], st[3 * o + 1], st[3 * o + 2]));
            // The first reference is taken whatever its F (so the result
            // always has statistics), a later one only when strictly better.
            if i == 0 || f > best_f {
                best_f = f;
                best.clone_from(&self.stats);
                best_ref = i;
            }
        }
        ChrfSegment { stats: best, best_ref }
    }
}

/// The symbols of `texts` for a backend: character symbols and word ids in
/// one id space, as [`Scratch::segment`] derives them.
pub(crate) fn ngram_input(cfg: &ChrfConfig, texts: &[&str]) -> crate::backend::NgramInput {
    use rayon::prelude::*;
    let lowered: Vec<std::borrow::Cow<'_, str>> = texts
        .par_iter()
        .map(|s| if cfg.lowercase { crate::py::text::py_lower(s).into() } else { (*s).into() })
        .collect();
    let mut input = crate::backend::NgramInput {
        char_order: u32::try_from(cfg.char_order).unwrap_or(u32::MAX),
        word_order: u32::try_from(cfg.word_order).unwrap_or(u32::MAX),
        ..Default::default()
    };
    let mut buf = Vec::new();
    let mut vocab: FastMap<&str, u32> = FastMap::default();
    for s in &lowered {
        char_symbols(cfg, s, &mut buf);
        input.chars.push(&buf);
        buf.clear();
        if cfg.word_order > 0 {
            punctuation_words(s, cfg.ws_rule, |w| {
                let next = u32::try_from(vocab.len()).unwrap_or(u32::MAX);
                buf.push(*vocab.entry(w).or_insert(next));
            });
        }
        input.words.push(&buf);
    }
    input
}

/// Best-reference statistics of every row, with the matches from `backend`.
pub(crate) fn segments_gpu<'a, R: AsRef<[&'a str]>>(
    cfg: &ChrfConfig,
    backend: &dyn crate::backend::Backend,
    rows: &[(&'a str, R)],
) -> Result<Vec<Option<ChrfSegment>>, crate::backend::BackendError> {
    let mut texts: Vec<&str> = Vec::new();
    let mut pairs: Vec<u32> = Vec::new();
    let too_many = || crate::backend::BackendError::Unsupported("too many strings in one batch".into());
    for (h, refs) in rows {
        let hi = u32::try_from(texts.len()).map_err(|_| too_many())?;
        texts.push(h);
        for r in refs.as_ref() {
            pairs.extend([hi, u32::try_from(texts.len()).map_err(|_| too_many())?]);
            texts.push(r);
        }
    }
    let input = ngram_input(cfg, &texts);
    let m = backend.ngram_matches(&input, &pairs)?;
    let orders = cfg.orders();
    let mut next = 0usize;
    let mut out = Vec::with_capacity(rows.len());
    let mut stats = Vec::with_capacity(cfg.stats_len());
    for (_, refs) in rows {
        let n_refs = refs.as_ref().len();
        if n_refs == 0 {
            out.push(None);
            continue;
        }
        let (h, first_ref) = (pairs[2 * next] as usize, next);
        let mut best = Vec::new();
        let mut best_f = -1.0f64;
        let mut best_ref = 0;
        for i in 0..n_refs {
            let r = pairs[2 * (first_ref + i) + 1] as usize;
            stats.clear();
            for o in 0..orders {
                let (rt, ht) = (input.total(r, o), input.total(h, o));
                stats.extend(if rt == 0 {
                    [0, 0, 0]
                } else if ht == 0 {
                    [0, rt, 0]
                } else {
                    [ht, rt, u64::from(m[(first_ref + i) * orders + o])]
                });
            }
            let st = &stats;
            let f = f_score(cfg.beta, cfg.eps_smoothing, orders, |o| (st[3 * o], st[3 * o + 1], st[3 * o + 2]));
            // The first reference is taken whatever its F (so the result
            // always has statistics), a later one only when strictly better.
            if i == 0 || f > best_f {
                best_f = f;
                best.clone_from(&stats);
                best_ref = i;
            }
        }
        next += n_refs;
        out.push(Some(ChrfSegment { stats: best, best_ref }));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        let mut v = Vec::new();
        punctuation_words(s, Whitespace::Python, |w| v.push(w.to_owned()));
        v
    }

    #[test]
    fn punctuation_split_rules() {
        assert_eq!(words("(hi) there, friend!"), ["(hi", ")", "there", ",", "friend", "!"]);
        assert_eq!(words("\"quoted,\" ... 'tis «x» a ."), ["\"quoted,", "\"", "..", ".", "'", "tis", "«x»", "a", "."]);
    }

    #[test]
    fn slice_path_equals_packed_path() {
        let cfg = ChrfConfig::default();
        let mut a = Vec::new();
        let mut b = Vec::new();
        char_symbols(&cfg, "the the cat sat on the mat and the dog", &mut a);
        char_symbols(&cfg, "a cat sat on the mat, the dog the", &mut b);
        let mut t = CountTable::default();
        for n in 1..=6 {
            assert_eq!(order_stats(&mut t, &a, &b, n, true), order_stats(&mut t, &a, &b, n, false), "order {n}");
        }
    }

    #[test]
    fn ascii_fast_path_matches_general() {
        let cfg = ChrfConfig::default();
        let s = "a\tb\x1fc d\x0be";
        let mut fast = Vec::new();
        char_symbols(&cfg, s, &mut fast);
        let slow: Vec<u32> = s.chars().filter(|&c| !crate::py::text::is_py_space(c)).map(u32::from).collect();
        assert_eq!(fast, slow);
    }
}
