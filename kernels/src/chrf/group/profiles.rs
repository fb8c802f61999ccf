//! The n-gram profiles of a group: every string's n-grams, per order,
//! interned into one id space (in parallel shards), with their counts.

use std::hash::BuildHasherDefault;

use rayon::prelude::*;

use crate::MetricError;
use crate::backend::{NgramInput, Seqs};
use crate::chrf::ChrfConfig;
use crate::chrf::ngrams::{MAX_PACKED, SYMBOL_BITS, char_symbols, pack, punctuation_words};
use crate::hash::FastMap;

pub(super) type KeyMap<K> = FastMap<K, u32>;

/// The n-gram profiles of a group of strings in one id space: per string and
/// order, the distinct n-gram ids with their counts (the order's total comes
/// from [`Symbols::total`]).
pub(super) struct Profiles {
    pub(super) orders: usize,
    pub(super) ids: Vec<u32>,
    pub(super) counts: Vec<u32>,
    /// `offs[s * orders + o] .. offs[s * orders + o + 1]` indexes `ids`/`counts`.
    pub(super) offs: Vec<usize>,
    pub(super) n_ids: usize,
}

/// The symbol sequences of a group's strings, kept as built (no copy on
/// the CPU path) and laid out flat only when a GPU backend needs them.
pub(super) struct Symbols {
    pub(super) cfg: ChrfConfig,
    pub(super) chars: Vec<Vec<u32>>,
    /// Empty when the configuration has no word orders.
    pub(super) words: Vec<Vec<u32>>,
    /// Number of distinct words.
    pub(super) vocab: usize,
}

impl Symbols {
    /// The flat layout a GPU backend reads.
    pub(super) fn input(&self) -> NgramInput {
        NgramInput {
            chars: Seqs::from_slices(self.chars.iter().map(Vec::as_slice)),
            words: if self.words.is_empty() {
                Seqs::from_slices(self.chars.iter().map(|_| &[][..]))
            } else {
                Seqs::from_slices(self.words.iter().map(Vec::as_slice))
            },
            char_order: u32::try_from(self.cfg.char_order).unwrap_or(u32::MAX),
            word_order: u32::try_from(self.cfg.word_order).unwrap_or(u32::MAX),
        }
    }

    /// Lowercases (when configured) and splits `texts` into character
    /// symbols and word ids (one word id space for the group).
    pub(super) fn build(cfg: &ChrfConfig, texts: &[&str]) -> Result<Self, MetricError> {
        let lowered: Vec<std::borrow::Cow<'_, str>> = texts
            .par_iter()
            .map(|s| if cfg.lowercase { crate::py::text::py_lower(s).into() } else { (*s).into() })
            .collect();
        // Every id, count and string index below is a u32. A string has at most
        // as many windows per order as bytes, so this bound keeps the distinct
        // n-grams (over all orders) and the number of strings below 2^32.
        let bytes: u64 = lowered.iter().map(|s| s.len() as u64).sum();
        let bound = (texts.len() as u64).saturating_add(bytes.saturating_mul(cfg.orders() as u64));
        if bound >= u64::from(u32::MAX) {
            return Err(MetricError::InvalidInput {
                metric: "chrF",
                reason: format!("an MBR group of {} strings ({bytes} bytes) is too large; split it", texts.len()),
            });
        }
        let chars: Vec<Vec<u32>> = lowered
            .par_iter()
            .map(|s| {
                let mut v = Vec::new();
                char_symbols(cfg, s, &mut v);
                v
            })
            .collect();
        let mut words: Vec<Vec<u32>> = Vec::new();
        let mut vocab = 0usize;
        if cfg.word_order > 0 {
            let mut map: FastMap<&str, u32> = FastMap::default();
            for s in &lowered {
                let mut w = Vec::new();
                punctuation_words(s, cfg.ws_rule, |t| {
                    let next = u32::try_from(map.len()).unwrap_or(u32::MAX);
                    w.push(*map.entry(t).or_insert(next));
                });
                words.push(w);
            }
            vocab = map.len();
        }
        Ok(Self { cfg: *cfg, chars, words, vocab })
    }

    /// The symbols, the n and whether they are words, of order index `o` of string `s`.
    pub(super) fn seq(&self, s: usize, o: usize) -> (&[u32], usize, bool) {
        let co = self.cfg.char_order;
        if o < co { (&self.chars[s], o + 1, false) } else { (&self.words[s], o - co + 1, true) }
    }

    /// Number of order-`o` n-grams of string `s`.
    pub(super) fn total(&self, s: usize, o: usize) -> u64 {
        let (sym, n, _) = self.seq(s, o);
        sym.len().saturating_sub(n - 1) as u64
    }
}

impl Profiles {
    /// The n-gram profiles of every string of `symbols`.
    pub(super) fn build(symbols: &Symbols) -> Self {
        let cfg = &symbols.cfg;
        let n_texts = symbols.chars.len();
        let packable =
            cfg.char_order <= MAX_PACKED && cfg.word_order <= MAX_PACKED && symbols.vocab < (1 << SYMBOL_BITS);
        let orders = cfg.orders();
        let mut p = Self { orders, ids: Vec::new(), counts: Vec::new(), offs: vec![0], n_ids: 0 };
        if packable {
            // Keys: the packed window below a sentinel bit at 21·n, bit 127 for word n-grams.
            let keyed: Vec<Vec<(u128, u32)>> = (0..n_texts)
                .into_par_iter()
                .map_init(Vec::new, |keys, s| {
                    let windows: u64 = (0..orders).map(|o| symbols.total(s, o)).sum();
                    #[allow(
                        clippy::cast_possible_truncation,
                        reason = "the n-gram windows of a string held in memory fit in usize"
                    )]
                    let mut out: Vec<(u128, u32)> = Vec::with_capacity(windows as usize + orders);
                    for o in 0..orders {
                        let (sym, n, word) = symbols.seq(s, o);
                        keys.clear();
                        if sym.len() >= n {
                            let tag = (1u128 << (SYMBOL_BITS as usize * n)) | (u128::from(word) << 127);
                            keys.extend(sym.windows(n).map(|w| pack(w) | tag));
                        }
                        keys.sort_unstable();
                        let start = out.len();
                        for &k in keys.iter() {
                            if out.len() > start && out[out.len() - 1].0 == k {
                                let last = out.len() - 1;
                                out[last].1 += 1;
                            } else {
                                out.push((k, 1));
                            }
                        }
                        out.push(SEPARATOR);
                    }
                    out
                })
                .collect();
            // Order bounds and counts, in string order.
            for list in &keyed {
                for &(k, c) in list {
                    if (k, c) == SEPARATOR {
                        p.offs.push(p.counts.len());
                    } else {
                        p.counts.push(c);
                    }
                }
            }
            let (ids, n_ids) = intern_sharded(&keyed, p.counts.len());
            p.ids = ids;
            p.n_ids = n_ids;
        } else {
            let mut map: KeyMap<(bool, Vec<u32>)> = KeyMap::default();
            let mut local: FastMap<u32, u32> = FastMap::default();
            for s in 0..n_texts {
                for o in 0..orders {
                    let (sym, n, word) = symbols.seq(s, o);
                    local.clear();
                    if sym.len() >= n {
                        for w in sym.windows(n) {
                            // Cannot fail: fewer distinct n-grams than the bound checked above.
                            let next = u32::try_from(map.len()).unwrap_or(u32::MAX);
                            let id = *map.entry((word, w.to_vec())).or_insert(next);
                            *local.entry(id).or_insert(0) += 1;
                        }
                    }
                    let mut e: Vec<(u32, u32)> = local.iter().map(|(&i, &c)| (i, c)).collect();
                    e.sort_unstable();
                    for (i, c) in e {
                        p.ids.push(i);
                        p.counts.push(c);
                    }
                    p.offs.push(p.ids.len());
                }
            }
            p.n_ids = map.len();
        }
        p
    }

    #[inline]
    pub(super) fn entries(&self, s: usize, o: usize) -> (&[u32], &[u32]) {
        let r = self.offs[s * self.orders + o]..self.offs[s * self.orders + o + 1];
        (&self.ids[r.clone()], &self.counts[r])
    }
}

/// Ends each order's entries in a string's `(key, count)` list while the
/// profiles are built (no n-gram has key 0 or that count).
pub(super) const SEPARATOR: (u128, u32) = (0, u32::MAX);

/// Numbers the distinct keys of `keyed` (each string's `(key, count)`
/// list, [`SEPARATOR`]s included) and returns the id of
/// every non-separator entry, in order, with the size of the id space.
///
/// The keys are split by a hash into one shard per thread; each shard
/// numbers its own keys in order of first appearance, in parallel with the
/// others, and key `local` of shard `s` gets id `local * shards + s`. Ids
/// only name n-grams (every statistic is a sum over them), so how they are
/// assigned cannot change a score.
pub(super) fn intern_sharded(keyed: &[Vec<(u128, u32)>], n_keys: usize) -> (Vec<u32>, usize) {
    use std::sync::atomic::{AtomicU32, Ordering};
    #[allow(
        clippy::cast_possible_truncation,
        reason = "the hash takes the key's two 64-bit halves; the shard index is below `shards`"
    )]
    let shard_of = |k: u128, shards: u64| -> usize {
        let h = ((k as u64) ^ ((k >> 64) as u64).rotate_left(29)).wrapping_mul(0x2545_F491_4F6C_DD1D);
        (((h >> 32) * shards) >> 32) as usize
    };
    // Ids stay below 2^32 even if every key fell in one shard.
    let shards = rayon::current_num_threads().clamp(1, 64);
    let shards = if (n_keys as u64).saturating_mul(shards as u64) < u64::from(u32::MAX) { shards } else { 1 };
    let ids: Vec<AtomicU32> = (0..n_keys).map(|_| AtomicU32::new(0)).collect();
    let sizes: Vec<usize> = (0..shards)
        .into_par_iter()
        .map(|s| {
            let mut map: KeyMap<u128> =
                KeyMap::with_capacity_and_hasher(n_keys / shards / 2, BuildHasherDefault::default());
            let mut pos = 0;
            for list in keyed {
                for &(k, c) in list {
                    if (k, c) == SEPARATOR {
                        continue;
                    }
                    if shard_of(k, shards as u64) == s {
                        // Cannot overflow: checked with `shards` above.
                        #[allow(
                            clippy::cast_possible_truncation,
                            reason = "ids stay below 2^32 / shards, checked with `shards` above"
                        )]
                        let next = map.len() as u32;
                        let local = *map.entry(k).or_insert(next);
                        #[allow(
                            clippy::cast_possible_truncation,
                            reason = "shards is at most 64 and ids stay below 2^32, checked above"
                        )]
                        ids[pos].store(local * shards as u32 + s as u32, Ordering::Relaxed);
                    }
                    pos += 1;
                }
            }
            map.len()
        })
        .collect();
    let n_ids = sizes.iter().max().copied().unwrap_or(0) * shards;
    (ids.into_iter().map(AtomicU32::into_inner).collect(), n_ids)
}
