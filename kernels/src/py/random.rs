//! numpy's random streams, bit for bit: `SeedSequence`, the `PCG64` bit
//! generator and the `Generator` methods sacrebleu's significance tests call.
//!
//! sacrebleu 2.6.0 (`sacrebleu/significance.py`) draws every random number
//! through `rng = np.random.default_rng(seed)`, where `seed` is
//! `int(os.environ.get('SACREBLEU_SEED', '12345'))`, or `None` (OS entropy)
//! when that variable reads `none` in any case:
//!
//! * bootstrap confidence intervals: `rng.choice(len(stats), size=(n_samples,
//!   len(stats)), replace=True)` → [`Generator::choice`];
//! * paired bootstrap resampling: `rng.choice(len(hypotheses),
//!   size=(n_samples, len(hypotheses)), replace=True)` → [`Generator::choice`];
//! * paired approximate randomization: `rng.integers(2, size=(n_samples,
//!   len(hypotheses)), dtype=bool)` → [`Generator::integers_bool`], then, when
//!   confidence intervals are asked for, the same `choice` call on the same
//!   generator (whose buffered 32-bit half carries over, as here).
//!
//! A numpy `size=(rows, cols)` array is C-ordered: element `(i, j)` is draw
//! `i * cols + j` of the flat vectors these methods return.
//!
//! Matched against numpy 2.4.6 (the `numpy/random` sources `bit_generator.pyx`,
//! `_pcg64.pyx`, `pcg64.h`, `_generator.pyx`, `_bounded_integers.pyx` and
//! `distributions.c`); the unit tests hold literals printed by that numpy.

use crate::error::MetricError;

/// `SeedSequence`'s `INIT_A`: the first hash constant of `mix_entropy`.
const INIT_A: u32 = 0x43b0_d7e5;
/// `SeedSequence`'s `MULT_A`.
const MULT_A: u32 = 0x931e_8875;
/// `SeedSequence`'s `INIT_B`: the first hash constant of `generate_state`.
const INIT_B: u32 = 0x8b51_f9dd;
/// `SeedSequence`'s `MULT_B`.
const MULT_B: u32 = 0x58f3_8ded;
/// `SeedSequence`'s `MIX_MULT_L`.
const MIX_MULT_L: u32 = 0xca01_f9dd;
/// `SeedSequence`'s `MIX_MULT_R`.
const MIX_MULT_R: u32 = 0x4973_f715;
/// `SeedSequence`'s `XSHIFT`.
const XSHIFT: u32 = 16;
/// `SeedSequence`'s `DEFAULT_POOL_SIZE` (32-bit words).
const POOL_SIZE: usize = 4;

/// `PCG_DEFAULT_MULTIPLIER_128` of `pcg64.h`.
const PCG_MULTIPLIER: u128 = 0x2360_ed05_1fc6_5da4_4385_df64_9fcc_f645;

/// `hashmix` of `bit_generator.pyx`; `hash_const` is the running constant.
#[inline]
const fn hashmix(value: u32, hash_const: &mut u32) -> u32 {
    let mut value = value ^ *hash_const;
    *hash_const = hash_const.wrapping_mul(MULT_A);
    value = value.wrapping_mul(*hash_const);
    value ^ (value >> XSHIFT)
}

/// `mix` of `bit_generator.pyx`.
#[inline]
const fn mix(x: u32, y: u32) -> u32 {
    let result = MIX_MULT_L.wrapping_mul(x).wrapping_sub(MIX_MULT_R.wrapping_mul(y));
    result ^ (result >> XSHIFT)
}

/// numpy's `SeedSequence` with an empty `spawn_key` (what `default_rng(int)`
/// builds): the entropy mixed into a pool of four 32-bit words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SeedSequence {
    pool: [u32; POOL_SIZE],
}

impl SeedSequence {
    /// `SeedSequence(seed)` for a non-negative integer seed (numpy accepts
    /// any size; seeds beyond 128 bits go through
    /// [`SeedSequence::from_entropy_words`]). numpy rejects negative seeds
    /// (`ValueError: expected non-negative integer`).
    #[must_use]
    pub fn new(seed: u128) -> Self {
        // `_coerce_to_uint32_array`: little-endian 32-bit words, as few as
        // hold the value, and `[0]` for zero.
        let mut words = Vec::with_capacity(4);
        let mut rest = seed;
        loop {
            words.push(u32::try_from(rest & 0xffff_ffff).unwrap_or_default());
            rest >>= 32;
            if rest == 0 {
                break;
            }
        }
        Self::from_entropy_words(&words)
    }

    /// `SeedSequence(entropy)` from the entropy's 32-bit words, least
    /// significant first, exactly as `_coerce_to_uint32_array` lays out a
    /// Python integer (no trailing zero words, `[0]` for zero) or a `uint32`
    /// array; an empty slice mixes like a zero-length entropy array.
    #[must_use]
    pub fn from_entropy_words(entropy: &[u32]) -> Self {
        // `mix_entropy`.
        let mut pool = [0u32; POOL_SIZE];
        let mut hash_const = INIT_A;
        for (i, slot) in pool.iter_mut().enumerate() {
            *slot = hashmix(entropy.get(i).copied().unwrap_or(0), &mut hash_const);
        }
        for i_src in 0..POOL_SIZE {
            for i_dst in 0..POOL_SIZE {
                if i_src != i_dst {
                    pool[i_dst] = mix(pool[i_dst], hashmix(pool[i_src], &mut hash_const));
                }
            }
        }
        for &word in entropy.iter().skip(POOL_SIZE) {
            for slot in &mut pool {
                *slot = mix(*slot, hashmix(word, &mut hash_const));
            }
        }
        Self { pool }
    }

    /// `SeedSequence(None)`: 128 bits of fresh entropy, as numpy's
    /// `randbits(128)` gives, so the streams are not reproducible (sacrebleu's
    /// `SACREBLEU_SEED=None`). The bits come from std's per-process
    /// randomly keyed hasher, which the OS seeds.
    #[must_use]
    pub fn from_os_entropy() -> Self {
        use std::hash::{BuildHasher, RandomState};
        let state = RandomState::new();
        let hi = u128::from(state.hash_one(0x5eed_u64));
        let lo = u128::from(state.hash_one(0xcafe_u64));
        Self::new((hi << 64) | lo)
    }

    /// The mixed entropy pool (`SeedSequence.pool`).
    #[must_use]
    pub const fn pool(&self) -> [u32; POOL_SIZE] {
        self.pool
    }

    /// `generate_state(n_words, dtype=np.uint32)`.
    #[must_use]
    pub fn generate_state_u32(&self, n_words: usize) -> Vec<u32> {
        let mut hash_const = INIT_B;
        self.pool
            .iter()
            .cycle()
            .take(n_words)
            .map(|&word| {
                let mut value = word ^ hash_const;
                hash_const = hash_const.wrapping_mul(MULT_B);
                value = value.wrapping_mul(hash_const);
                value ^ (value >> XSHIFT)
            })
            .collect()
    }

    /// `generate_state(n_words, dtype=np.uint64)`: twice as many 32-bit
    /// words, paired little-endian (the first of each pair is the low half).
    #[must_use]
    pub fn generate_state_u64(&self, n_words: usize) -> Vec<u64> {
        self.generate_state_u32(2 * n_words)
            .chunks_exact(2)
            .map(|pair| u64::from(pair[0]) | (u64::from(pair[1]) << 32))
            .collect()
    }
}

/// numpy's `PCG64` bit generator: a 128-bit LCG with the default multiplier
/// and the XSL-RR output, plus numpy's one-word buffer for 32-bit draws.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pcg64 {
    state: u128,
    inc: u128,
    /// `has_uint32`: the upper half of the last 64-bit draw is pending.
    has_uint32: bool,
    /// `uinteger`: that pending upper half.
    uinteger: u32,
}

impl Pcg64 {
    /// `PCG64(seed)` for a non-negative integer seed.
    #[must_use]
    pub fn new(seed: u128) -> Self {
        Self::from_seed_sequence(&SeedSequence::new(seed))
    }

    /// `PCG64(seed_seq)`: four 64-bit words of `generate_state` give the
    /// seed (words 0, 1 as high, low) and the increment (words 2, 3), set
    /// with `pcg64_set_seed`.
    #[must_use]
    pub fn from_seed_sequence(seed_seq: &SeedSequence) -> Self {
        let words = seed_seq.generate_state_u64(4);
        let seed = (u128::from(words[0]) << 64) | u128::from(words[1]);
        let initseq = (u128::from(words[2]) << 64) | u128::from(words[3]);
        // `pcg_setseq_128_srandom_r`.
        let mut rng = Self { state: 0, inc: (initseq << 1) | 1, has_uint32: false, uinteger: 0 };
        rng.step();
        rng.state = rng.state.wrapping_add(seed);
        rng.step();
        rng
    }

    /// A generator in the given state, as assigning numpy's
    /// `bit_generator.state = {'state': {'state': state, 'inc': inc},
    /// 'has_uint32': 0, 'uinteger': 0}` makes it (`inc` is used as given,
    /// numpy's stored increments are odd).
    #[must_use]
    pub const fn from_state(state: u128, inc: u128) -> Self {
        Self { state, inc, has_uint32: false, uinteger: 0 }
    }

    /// The LCG state (`bit_generator.state['state']['state']`).
    #[must_use]
    pub const fn state(&self) -> u128 {
        self.state
    }

    /// The LCG increment (`bit_generator.state['state']['inc']`).
    #[must_use]
    pub const fn inc(&self) -> u128 {
        self.inc
    }

    /// The pending upper half of a 64-bit draw (`has_uint32`, `uinteger`).
    #[must_use]
    pub const fn buffered_u32(&self) -> Option<u32> {
        if self.has_uint32 { Some(self.uinteger) } else { None }
    }

    #[inline]
    const fn step(&mut self) {
        self.state = self.state.wrapping_mul(PCG_MULTIPLIER).wrapping_add(self.inc);
    }

    /// `next_uint64` (`random_raw`): step, then XSL-RR of the new state. It
    /// leaves the 32-bit buffer alone, as numpy does.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.step();
        let hi = u64::try_from(self.state >> 64).unwrap_or_default();
        #[expect(clippy::cast_possible_truncation, reason = "XSL-RR folds the low 64 bits of the state")]
        let lo = self.state as u64;
        let rot = u32::try_from(self.state >> 122).unwrap_or_default();
        (hi ^ lo).rotate_right(rot)
    }

    /// `next_uint32`: the pending upper half when there is one, else the
    /// lower half of a fresh 64-bit draw, keeping its upper half pending.
    #[inline]
    pub fn next_u32(&mut self) -> u32 {
        if self.has_uint32 {
            self.has_uint32 = false;
            return self.uinteger;
        }
        let next = self.next_u64();
        self.has_uint32 = true;
        self.uinteger = u32::try_from(next >> 32).unwrap_or_default();
        u32::try_from(next & 0xffff_ffff).unwrap_or_default()
    }

    /// `next_double`: 53 random bits over 2^53.
    #[inline]
    pub fn next_f64(&mut self) -> f64 {
        #[expect(clippy::cast_precision_loss, reason = "a 53-bit value converts exactly")]
        let top = (self.next_u64() >> 11) as f64;
        top * (1.0 / 9_007_199_254_740_992.0)
    }

    /// `buffered_bounded_lemire_uint32`: a draw in `0..=rng` for
    /// `rng < u32::MAX`, Lemire's method on 32-bit draws.
    #[inline]
    fn bounded_lemire_u32(&mut self, rng: u32) -> u32 {
        let rng_excl = rng + 1;
        let mut m = u64::from(self.next_u32()) * u64::from(rng_excl);
        let mut leftover = u32::try_from(m & 0xffff_ffff).unwrap_or_default();
        if leftover < rng_excl {
            let threshold = (u32::MAX - rng) % rng_excl;
            while leftover < threshold {
                m = u64::from(self.next_u32()) * u64::from(rng_excl);
                leftover = u32::try_from(m & 0xffff_ffff).unwrap_or_default();
            }
        }
        u32::try_from(m >> 32).unwrap_or_default()
    }

    /// `bounded_lemire_uint64`: a draw in `0..=rng` for `rng < u64::MAX`,
    /// Lemire's method on 64-bit draws.
    #[inline]
    fn bounded_lemire_u64(&mut self, rng: u64) -> u64 {
        let rng_excl = rng + 1;
        let mut m = u128::from(self.next_u64()) * u128::from(rng_excl);
        let mut leftover = u64::try_from(m & u128::from(u64::MAX)).unwrap_or_default();
        if leftover < rng_excl {
            let threshold = (u64::MAX - rng) % rng_excl;
            while leftover < threshold {
                m = u128::from(self.next_u64()) * u128::from(rng_excl);
                leftover = u64::try_from(m & u128::from(u64::MAX)).unwrap_or_default();
            }
        }
        u64::try_from(m >> 64).unwrap_or_default()
    }

    /// `random_bounded_uint64_fill(off, rng, cnt, use_masked=False, out)`:
    /// `off + x` with `x` uniform in `0..=rng` (wrapping), through the
    /// 32-bit path when `rng` fits 32 bits. A scalar draw
    /// (`random_bounded_uint64`) is the same as a one-element fill.
    pub fn bounded_u64_fill(&mut self, off: u64, rng: u64, out: &mut [u64]) {
        if rng == 0 {
            out.fill(off);
        } else if let Ok(rng32) = u32::try_from(rng) {
            if rng32 == u32::MAX {
                for x in out {
                    *x = off.wrapping_add(u64::from(self.next_u32()));
                }
            } else {
                for x in out {
                    *x = off.wrapping_add(u64::from(self.bounded_lemire_u32(rng32)));
                }
            }
        } else if rng == u64::MAX {
            for x in out {
                *x = off.wrapping_add(self.next_u64());
            }
        } else {
            for x in out {
                *x = off.wrapping_add(self.bounded_lemire_u64(rng));
            }
        }
    }

    /// `random_bounded_bool_fill(off, rng, cnt, use_masked, out)`: one
    /// 32-bit draw feeds 32 booleans, lowest bit first; the bit buffer is
    /// local to the call (numpy's `bcnt`, `buf`), the 32-bit half buffer
    /// of the generator is not.
    pub fn bounded_bool_fill(&mut self, off: bool, rng: bool, out: &mut [bool]) {
        if !rng {
            out.fill(off);
            return;
        }
        let mut buf = 0u32;
        let mut bcnt = 0u32;
        for x in out {
            if bcnt == 0 {
                buf = self.next_u32();
                bcnt = 31;
            } else {
                buf >>= 1;
                bcnt -= 1;
            }
            *x = buf & 1 != 0;
        }
    }
}

/// numpy's `Generator` over [`Pcg64`] (`np.random.default_rng(seed)`), with
/// the methods sacrebleu's significance tests call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Generator {
    bit_generator: Pcg64,
}

/// The error numpy raises for `integers` with an empty range.
fn empty_range() -> MetricError {
    MetricError::InvalidInput { metric: "numpy.random", reason: "low >= high".to_owned() }
}

impl Generator {
    /// `np.random.default_rng(seed)` for a non-negative integer seed.
    #[must_use]
    pub fn new(seed: u128) -> Self {
        Self::from_bit_generator(Pcg64::new(seed))
    }

    /// `np.random.default_rng(seed)` with sacrebleu's seed handling: `None`
    /// (`SACREBLEU_SEED=None`) pulls fresh OS entropy and is not
    /// reproducible.
    #[must_use]
    pub fn default_rng(seed: Option<u128>) -> Self {
        match seed {
            Some(seed) => Self::new(seed),
            None => Self::from_bit_generator(Pcg64::from_seed_sequence(&SeedSequence::from_os_entropy())),
        }
    }

    /// `Generator(bit_generator)`.
    #[must_use]
    pub const fn from_bit_generator(bit_generator: Pcg64) -> Self {
        Self { bit_generator }
    }

    /// `Generator.bit_generator`.
    #[must_use]
    pub const fn bit_generator(&self) -> &Pcg64 {
        &self.bit_generator
    }

    /// The bit generator, to draw from it directly (`random_raw` is
    /// [`Pcg64::next_u64`]).
    pub const fn bit_generator_mut(&mut self) -> &mut Pcg64 {
        &mut self.bit_generator
    }

    /// `integers(low, high, size)` with the default `dtype=np.int64` and
    /// `endpoint=False`: `size` draws in `low..high`, as a flat C-ordered
    /// array. `integers(high, size)` is `integers(0, high, size)`.
    ///
    /// # Errors
    /// `low >= high` when `size > 0`, as numpy raises.
    pub fn integers(&mut self, low: i64, high: i64, size: usize) -> Result<Vec<i64>, MetricError> {
        let mut out = vec![0; size];
        self.integers_fill(low, high, &mut out)?;
        Ok(out)
    }

    /// [`Generator::integers`] into a caller's buffer (its length is the size).
    ///
    /// # Errors
    /// `low >= high` when `out` is not empty.
    pub fn integers_fill(&mut self, low: i64, high: i64, out: &mut [i64]) -> Result<(), MetricError> {
        if out.is_empty() {
            return Ok(());
        }
        if low >= high {
            return Err(empty_range());
        }
        self.integers_closed_fill(low, high - 1, out);
        Ok(())
    }

    /// `integers(low, high, size, endpoint=True)`, `dtype=np.int64`: draws in
    /// `low..=high`; `low > high` is numpy's `low > high` error.
    ///
    /// # Errors
    /// `low > high` when `size > 0`.
    pub fn integers_closed(&mut self, low: i64, high: i64, size: usize) -> Result<Vec<i64>, MetricError> {
        let mut out = vec![0; size];
        if size > 0 {
            if low > high {
                return Err(MetricError::InvalidInput { metric: "numpy.random", reason: "low > high".to_owned() });
            }
            self.integers_closed_fill(low, high, &mut out);
        }
        Ok(out)
    }

    fn integers_closed_fill(&mut self, low: i64, high: i64, out: &mut [i64]) {
        #[expect(clippy::cast_sign_loss, reason = "numpy's `_rand_int64` works on the two's-complement bits")]
        let (off, rng) = (low as u64, high.wrapping_sub(low) as u64);
        // Draw straight into the i64 buffer's storage through a u64 buffer of
        // the same length, chunked to bound the scratch memory.
        let mut scratch = [0u64; 1024];
        for chunk in out.chunks_mut(scratch.len()) {
            let buf = &mut scratch[..chunk.len()];
            self.bit_generator.bounded_u64_fill(off, rng, buf);
            for (x, &u) in chunk.iter_mut().zip(buf.iter()) {
                *x = i64::from_ne_bytes(u.to_ne_bytes());
            }
        }
    }

    /// `integers(2, size=size, dtype=bool)` (sacrebleu's approximate
    /// randomization selectors): `size` fair booleans, 32 to a 32-bit draw.
    #[must_use]
    pub fn integers_bool(&mut self, size: usize) -> Vec<bool> {
        let mut out = vec![false; size];
        self.bit_generator.bounded_bool_fill(false, true, &mut out);
        out
    }

    /// `choice(a, size, replace=True)` for an integer `a` and no `p`: numpy
    /// draws `integers(0, a, size, dtype=np.int64)`; here as indices.
    ///
    /// # Errors
    /// `a == 0` with `size > 0` (numpy: "a must be a positive integer unless
    /// no samples are taken").
    pub fn choice(&mut self, a: usize, size: usize) -> Result<Vec<usize>, MetricError> {
        let mut out = vec![0; size];
        self.choice_fill(a, &mut out)?;
        Ok(out)
    }

    /// [`Generator::choice`] into a caller's buffer (its length is the size).
    ///
    /// # Errors
    /// `a == 0` when `out` is not empty.
    pub fn choice_fill(&mut self, a: usize, out: &mut [usize]) -> Result<(), MetricError> {
        if out.is_empty() {
            return Ok(());
        }
        if a == 0 {
            return Err(MetricError::InvalidInput {
                metric: "numpy.random",
                reason: "a must be a positive integer unless no samples are taken".to_owned(),
            });
        }
        let rng = u64::try_from(a - 1).map_err(|_| empty_range())?;
        let mut scratch = [0u64; 1024];
        for chunk in out.chunks_mut(scratch.len()) {
            let buf = &mut scratch[..chunk.len()];
            self.bit_generator.bounded_u64_fill(0, rng, buf);
            for (x, &u) in chunk.iter_mut().zip(buf.iter()) {
                // Every draw is below `a`, a usize.
                *x = usize::try_from(u).unwrap_or(usize::MAX);
            }
        }
        Ok(())
    }

    /// `random(size)`: doubles in `[0, 1)`, 53 bits each.
    #[must_use]
    pub fn random(&mut self, size: usize) -> Vec<f64> {
        (0..size).map(|_| self.bit_generator.next_f64()).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// First 8, last 4, wrapping sum and a running checksum
    /// (`w = w * 1000003 + x mod 2^64`) of a stream, as `summ` in the
    /// oracle script below computes them.
    fn digest(values: &[i64]) -> (Vec<i64>, Vec<i64>, i64, u64) {
        let first = values.iter().take(8).copied().collect();
        let last = values[values.len().saturating_sub(4)..].to_vec();
        let sum = values.iter().fold(0i64, |s, &x| s.wrapping_add(x));
        let chk = values
            .iter()
            .fold(0u64, |w, &x| w.wrapping_mul(1_000_003).wrapping_add(u64::from_ne_bytes(x.to_ne_bytes())));
        (first, last, sum, chk)
    }

    fn as_i64(values: &[usize]) -> Vec<i64> {
        values.iter().map(|&x| i64::try_from(x).unwrap()).collect()
    }

    // Oracle digests were printed by numpy 2.4.6 with
    //   def summ(a):
    //       a = np.asarray(a).ravel().astype(np.int64)
    //       s = int(a.sum()); w = 0
    //       for x in a.tolist(): w = (w * 1000003 + (x % 2**64)) % 2**64
    //       return s, w
    // and first = a[:8], last = a[-4:].

    #[test]
    fn seed_sequence_pool_and_state() {
        // np.random.SeedSequence(12345).pool
        assert_eq!(SeedSequence::new(12345).pool(), [4069775156, 4251353637, 4182767765, 2267058336]);
        let ss = SeedSequence::new(12345);
        // SeedSequence(12345).generate_state(n, np.uint64) for n = 1, 2, 4, 5
        let five =
            [13091511679009522556, 13538552136045918767, 7269824232120749972, 4520223790601600371, 339354067426532811];
        for n in [1, 2, 4, 5] {
            assert_eq!(ss.generate_state_u64(n), five[..n]);
        }
        // SeedSequence(12345).generate_state(7, np.uint32)
        assert_eq!(
            ss.generate_state_u32(7),
            [2688385916, 3048105090, 4196366895, 3152189807, 924159892, 1692637855, 2685664627]
        );
        // SeedSequence(0).generate_state(4, np.uint64)
        assert_eq!(
            SeedSequence::new(0).generate_state_u64(4),
            [15793235383387715774, 12390638538380655177, 2361836109651742017, 3188717715514472916]
        );
        // SeedSequence(2**100 + 3*2**64 + 17).generate_state(4, np.uint64)
        assert_eq!(
            SeedSequence::new((1u128 << 100) + 3 * (1u128 << 64) + 17).generate_state_u64(4),
            [14056849804539369580, 10410568598465205072, 18224797908311145376, 17593418985937079710]
        );
        // SeedSequence(2**150 + 2**130 + 99).generate_state(4, np.uint64):
        // five entropy words, the fifth mixed in after the pool.
        assert_eq!(
            SeedSequence::from_entropy_words(&[99, 0, 0, 0, 4 | (1 << 22)]).generate_state_u64(4),
            [13869529276530495442, 3004360736164021986, 11704459609220699016, 10904586196837227710]
        );
    }

    #[test]
    fn pcg64_seeding_and_raw_stream() {
        // bg = PCG64(s); bg.state['state'] (state, inc); bg.random_raw(5);
        // PCG64(s).random_raw(10000)[0], [-1]
        let cases: [(u128, u128, u128, [u64; 5], u64); 4] = [
            (
                0,
                0x1aa1b5345996452d09585eb7a69561e3,
                0x418ddadb3af71a82588133bc447873a9,
                [
                    11749869230777074271,
                    4976686463289251617,
                    755828109848996024,
                    304881062738325533,
                    15002187965291974971,
                ],
                404658018234091714,
            ),
            (
                1,
                0x9c5b484bfedb756c2a6e7d6f320fbc7e,
                0x922af2da2645f895a19857b95740937b,
                [
                    9441442522235856127,
                    17532960557476522086,
                    2659275481604167885,
                    17499493567006797778,
                    5752274989370667689,
                ],
                8881253095101515035,
            ),
            (
                12345,
                0x1905e0335aae96349199b0d09775add5,
                0xc9c7353e6e2b1f287d761f2d4027fae7,
                [
                    4193609425186963869,
                    5843160025838961886,
                    14708796524633321433,
                    12474696839993944336,
                    7214697784736971533,
                ],
                10158489226814327573,
            ),
            (
                (1 << 40) + 7,
                0xfa7e3f18087c4292231dc5e99d5a2373,
                0x3338387707b7520681124fb81b91462d,
                [
                    15307346044642009514,
                    4709548916763817589,
                    2836937976252648324,
                    12442412734173460875,
                    13629205658180759656,
                ],
                16467659669521842769,
            ),
        ];
        for (seed, state, inc, first5, last) in cases {
            let mut bg = Pcg64::new(seed);
            assert_eq!((bg.state(), bg.inc()), (state, inc), "seed {seed}");
            let raw: Vec<u64> = (0..5).map(|_| bg.next_u64()).collect();
            assert_eq!(raw, first5, "seed {seed}");
            let mut bg = Pcg64::from_state(state, inc);
            let mut x = 0;
            for _ in 0..10000 {
                x = bg.next_u64();
            }
            assert_eq!(x, last, "seed {seed}");
        }
    }

    #[test]
    fn choice_matches_numpy() {
        // r = np.random.default_rng(seed); a = r.choice(n, size=(1000, n), replace=True)
        // then r.bit_generator.random_raw()
        type Case = (u128, usize, [i64; 8], [i64; 4], i64, u64, u64);
        #[rustfmt::skip]
        let cases: [Case; 12] = [
            (12345, 1, [0; 8], [0; 4], 0, 0, 4193609425186963869),
            (12345, 7, [4, 1, 5, 2, 1, 5, 4, 4], [4, 3, 2, 4], 20865, 14490247347157834157, 14023467156815229038),
            (12345, 100, [69, 22, 78, 31, 20, 79, 64, 67], [11, 66, 66, 37], 4945558, 7167983561945329242, 11746689044928148543),
            (12345, 2000, [1398, 454, 1577, 633, 408, 1594, 1285, 1352], [554, 1996, 1445, 1222], 1997782535, 16492582125194836831, 12665907585211518907),
            (0, 1, [0; 8], [0; 4], 0, 0, 11749869230777074271),
            (0, 7, [5, 4, 3, 1, 2, 0, 0, 0], [2, 3, 5, 0], 20915, 15219638237818724261, 8002563412093266739),
            (0, 100, [85, 63, 51, 26, 30, 4, 7, 1], [63, 1, 2, 18], 4946068, 7572391295638383906, 10487998195364162128),
            (0, 2000, [1701, 1273, 1022, 539, 615, 81, 150, 33], [476, 1716, 973, 1121], 1999684638, 10918684052728251528, 17492807707471650955),
            (7, 1, [0; 8], [0; 4], 0, 0, 11530976094092348043),
            (7, 7, [6, 4, 4, 6, 4, 5, 5, 1], [4, 6, 6, 1], 21142, 9272576257745229768, 7601570632343450193),
            (7, 100, [94, 62, 68, 89, 57, 77, 83, 22], [65, 57, 78, 65], 4959381, 5012688842488655807, 7011295420709791558),
            (7, 2000, [1889, 1250, 1368, 1794, 1156, 1551, 1667, 450], [1242, 1061, 496, 916], 1999101495, 1529634520171867367, 1008061943382787908),
        ];
        for (seed, n, first, last, sum, chk, next_raw) in cases {
            let mut rng = Generator::new(seed);
            let idx = rng.choice(n, 1000 * n).unwrap();
            let (f, l, s, c) = digest(&as_i64(&idx));
            assert_eq!((f, l, s, c), (first.to_vec(), last.to_vec(), sum, chk), "seed {seed} n {n}");
            assert_eq!(rng.bit_generator_mut().next_u64(), next_raw, "seed {seed} n {n}");
            // choice is integers(0, n, dtype=int64) on the same stream.
            let mut again = Generator::new(seed);
            assert_eq!(again.integers(0, i64::try_from(n).unwrap(), 1000 * n).unwrap(), as_i64(&idx));
        }
    }

    #[test]
    fn approximate_randomization_selectors_then_choice() {
        // r = np.random.default_rng(12345); p = r.integers(2, size=(10000, n), dtype=bool)
        // (digest of p.astype(np.int64)); r.bit_generator.state['has_uint32'];
        // then r.choice(n, size=(1000, n), replace=True)
        type Case = (usize, [i64; 8], [i64; 4], i64, u64, [i64; 8], [i64; 4], i64, u64);
        #[rustfmt::skip]
        let cases: [Case; 2] = [
            (7, [1, 0, 1, 1, 1, 0, 0, 1], [1, 1, 1, 1], 35097, 24577785187233055, [3, 2, 0, 1, 0, 3, 3, 3], [4, 1, 4, 5], 20784, 4034869988711686288),
            (100, [1, 0, 1, 1, 1, 0, 0, 1], [1, 0, 0, 0], 499536, 15617464156317373618, [1, 16, 81, 43, 1, 86, 66, 45], [78, 99, 4, 16], 4960128, 3653142378304413572),
        ];
        for (n, bf, bl, bs, bc, cf, cl, cs, cc) in cases {
            let mut rng = Generator::new(12345);
            let sel: Vec<i64> = rng.integers_bool(10000 * n).into_iter().map(i64::from).collect();
            assert_eq!(digest(&sel), (bf.to_vec(), bl.to_vec(), bs, bc), "n {n}");
            assert_eq!(rng.bit_generator().buffered_u32(), None, "n {n}");
            let idx = rng.choice(n, 1000 * n).unwrap();
            assert_eq!(digest(&as_i64(&idx)), (cf.to_vec(), cl.to_vec(), cs, cc), "n {n}");
        }
    }

    #[test]
    fn half_word_buffer_carries_across_calls() {
        // r = np.random.default_rng(3); r.integers(2, size=33, dtype=bool)
        let mut rng = Generator::new(3);
        let sel: Vec<u8> = rng.integers_bool(33).into_iter().map(u8::from).collect();
        assert_eq!(
            sel,
            [0, 0, 0, 1, 1, 1, 1, 1, 0, 1, 0, 0, 0, 0, 1, 1, 0, 1, 1, 1, 1, 1, 0, 1, 1, 1, 1, 1, 0, 0, 1, 1, 1]
        );
        // then r.integers(0, 7, size=5): the first draw is the pending half
        assert_eq!(rng.integers(0, 7, 5).unwrap(), [1, 1, 1, 5, 6]);
        // then r.bit_generator.random_raw() (leaves the buffer), then
        // r.integers(0, 7, size=1)
        assert_eq!(rng.bit_generator_mut().next_u64(), 1736366973414412046);
        assert_eq!(rng.integers(0, 7, 1).unwrap(), [4]);

        // After default_rng(12345).integers(2, size=(1, 3), dtype=bool) the
        // state holds has_uint32=1, uinteger=976400781.
        let mut rng = Generator::new(12345);
        let _ = rng.integers_bool(3);
        assert_eq!(rng.bit_generator().buffered_u32(), Some(976400781));
    }

    #[test]
    fn integers_over_every_range_class() {
        // r = np.random.default_rng(12345); r.integers(lo, hi, size=2000)
        type Case = (i64, i64, [i64; 8], [i64; 4], i64, u64);
        let cases: [Case; 8] = [
            (
                0,
                1 << 32,
                [3003105693, 976400781, 3387213022, 1360466709, 876933081, 3424658562, 2760304912, 2904491694],
                [379059191, 2116889329, 3767374578, 1856814659],
                4282238525466,
                3879271656480924790,
            ),
            (
                0,
                (1 << 32) + 1,
                [976400781, 1360466710, 3424658563, 2904491695, 1679802729, 1429424936, 2569716530, 802017220],
                [2744601098, 2009360669, 1838754105, 1887646836],
                4276162465455,
                16389724987622710255,
            ),
            (
                0,
                1 << 40,
                [
                    249958600114,
                    348279477705,
                    876712591924,
                    743549873828,
                    430029498621,
                    365932783574,
                    657847431569,
                    205316408374,
                ],
                [702617880958, 514396331201, 470721050918, 483237590109],
                1094697591161179,
                14873268026944551091,
            ),
            (
                -5,
                i64::MAX,
                [
                    7354398262316660714,
                    6237348419996972165,
                    3069666675758614429,
                    5518424227241521867,
                    884502337550833952,
                    8176334099158704263,
                    6432873107818339120,
                    3011180685256163037,
                ],
                [7977053080377833100, 6768844237682563805, 775504649447212740, 3983214943671994078],
                -4475693379605976089,
                1287366653270473311,
            ),
            (
                i64::MIN,
                i64::MAX,
                [
                    -5029762611667811940,
                    -3380212011015813923,
                    5485424487778545624,
                    3251324803139168527,
                    -2008674252117804276,
                    -3084038685337546942,
                    1813476417628267932,
                    -5778734305210496418,
                ],
                [2564599917441082219, -593233678681937426, -1325983289856157242, -1115990608273618241],
                -6979155807080235156,
                11635924971114672318,
            ),
            (10, 11, [10; 8], [10; 4], 20000, 9607146938134824768),
            (-3, 4, [1, -2, 2, -1, -2, 2, 1, 1], [-3, 0, 3, 0], -12, 10415685759211311140),
            (0, 3, [2, 0, 2, 0, 0, 2, 1, 2], [0, 1, 2, 1], 1989, 5022156150493728895),
        ];
        for (lo, hi, first, last, sum, chk) in cases {
            let mut rng = Generator::new(12345);
            let a = rng.integers(lo, hi, 2000).unwrap();
            assert_eq!(digest(&a), (first.to_vec(), last.to_vec(), sum, chk), "[{lo}, {hi})");
        }
        // r.integers(-(2**63), 2**63 - 1, size=5, endpoint=True): the full
        // 64-bit range, raw draws.
        let mut rng = Generator::new(12345);
        assert_eq!(
            rng.integers_closed(i64::MIN, i64::MAX, 5).unwrap(),
            [
                -5029762611667811939,
                -3380212011015813922,
                5485424487778545625,
                3251324803139168528,
                -2008674252117804275
            ]
        );
    }

    #[test]
    fn random_doubles() {
        // [float.hex(float(x)) for x in np.random.default_rng(12345).random(5)]
        let expected = [
            "0x1.d1958c6d97fe0p-3",
            "0x1.445c4c5727930p-2",
            "0x1.984049046889dp-1",
            "0x1.5a3e0d5d490ddp-1",
            "0x1.907f05a3f42dep-2",
        ];
        let got = Generator::new(12345).random(5);
        for (x, hex) in got.iter().zip(expected) {
            // Parse numpy's hex float: 1.<13 hex digits> * 2^exp.
            let (mant, exp) = hex.trim_start_matches("0x1.").split_once('p').unwrap();
            let m = u64::from_str_radix(mant, 16).unwrap();
            let e: i32 = exp.parse().unwrap();
            let want = (1.0 + m as f64 / (1u64 << 52) as f64) * 2f64.powi(e);
            assert_eq!(*x, want, "{hex}");
        }
    }

    #[test]
    fn errors_and_empty_draws() {
        let mut rng = Generator::new(1);
        // default_rng(1).integers(5, 5, size=3) -> ValueError: low >= high
        assert!(rng.integers(5, 5, 3).is_err());
        assert!(rng.integers(5, 4, 1).is_err());
        // default_rng(1).choice(0, size=3) -> ValueError
        assert!(rng.choice(0, 3).is_err());
        // ... but empty requests are empty: integers(5, 5, size=0), choice(0, size=(0, 0))
        assert_eq!(rng.integers(5, 5, 0).unwrap(), Vec::<i64>::new());
        assert_eq!(rng.choice(0, 0).unwrap(), Vec::<usize>::new());
        // None of that drew anything.
        assert_eq!(rng, Generator::new(1));
        // OS-entropy seeding gives a working, unpredictable stream.
        let a = Generator::default_rng(None).bit_generator_mut().next_u64();
        let b = Generator::default_rng(None).bit_generator_mut().next_u64();
        assert_ne!(a, b);
    }
}
