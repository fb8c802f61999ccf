//! A fast, non-cryptographic hasher for the kernels' interning maps.
//!
//! The maps hold the words, n-grams and code points of one row or one MBR
//! group; `SipHash`'s per-process keys buy nothing there and cost a visible
//! share of the run time. Map iteration order is never relied on, so the
//! hasher cannot change any score.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// Multiply-rotate hashing (the Fx scheme), with a final mix for 128-bit keys.
#[derive(Debug, Default, Clone, Copy)]
pub struct FastHasher(u64);

const K: u64 = 0x517c_c1b7_2722_0a95;

impl FastHasher {
    #[inline]
    const fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(K);
    }
}

impl Hasher for FastHasher {
    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }

    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let mut w = [0u8; 8];
            w.copy_from_slice(c);
            self.add(u64::from_le_bytes(w));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut w = [0u8; 8];
            w[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(w));
        }
    }

    #[inline]
    fn write_u8(&mut self, i: u8) {
        self.add(u64::from(i));
    }

    #[inline]
    fn write_u32(&mut self, i: u32) {
        self.add(u64::from(i));
    }

    #[inline]
    fn write_u64(&mut self, i: u64) {
        self.add(i);
    }

    #[inline]
    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }

    #[inline]
    #[allow(clippy::cast_possible_truncation, reason = "the hash takes the key's two 64-bit halves")]
    fn write_u128(&mut self, k: u128) {
        let x =
            ((k as u64) ^ ((k >> 64) as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        self.0 = x ^ (x >> 31);
    }
}

/// A `HashMap` with [`FastHasher`].
pub type FastMap<K, V> = HashMap<K, V, BuildHasherDefault<FastHasher>>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interning_with_fast_map() {
        let mut m: FastMap<&str, u32> = FastMap::default();
        for (i, w) in ["a", "bb", "a", "ccccccccc", "bb", "ccccccccd", ""].iter().enumerate() {
            let next = u32::try_from(m.len()).unwrap();
            let id = *m.entry(w).or_insert(next);
            assert_eq!(id, [0, 1, 0, 2, 1, 3, 4][i]);
        }
        let h = |s: &str| {
            let mut x = FastHasher::default();
            x.write(s.as_bytes());
            x.finish()
        };
        assert_ne!(h("ccccccccc"), h("ccccccccd"));
    }
}
