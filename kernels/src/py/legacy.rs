//! numpy's legacy global random state (`np.random.seed`, `np.random.random`,
//! `np.random.binomial`), bit for bit: the `MT19937` Mersenne Twister that
//! `RandomState` wraps.
//!
//! mt-metrics-eval draws every random number of its meta-evaluation from
//! this global state: the permutation tests' `np.random.binomial(1, 0.5, n)`
//! swap masks and the sampled tie calibration's `np.random.random()` per
//! pair. A user makes those runs repeatable with `np.random.seed(s)` before
//! them; [`RandomState::seed`] is that call.
//!
//! Matched against numpy 2.4.6 (`_mt19937.pyx` `_legacy_seeding`,
//! `mt19937.c`, `legacy-distributions.c`, `distributions.c`
//! `random_binomial_inversion`); the unit tests hold literals printed by it.

const N: usize = 624;
const M: usize = 397;
const MATRIX_A: u32 = 0x9908_b0df;
const UPPER_MASK: u32 = 0x8000_0000;
const LOWER_MASK: u32 = 0x7fff_ffff;

/// `np.random.RandomState` over `MT19937`.
#[derive(Clone)]
pub struct RandomState {
    key: [u32; N],
    pos: usize,
}

impl std::fmt::Debug for RandomState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RandomState").field("pos", &self.pos).finish_non_exhaustive()
    }
}

impl RandomState {
    /// The state after `np.random.seed(seed)` (an integer seed takes
    /// `mt19937_seed`, Knuth's initialisation of the original code).
    #[must_use]
    pub fn seed(seed: u32) -> Self {
        let mut key = [0u32; N];
        let mut s = seed;
        for (pos, k) in key.iter_mut().enumerate() {
            *k = s;
            #[expect(clippy::cast_possible_truncation, reason = "pos < 624")]
            let next = 1_812_433_253u32.wrapping_mul(s ^ (s >> 30)).wrapping_add(pos as u32 + 1);
            s = next;
        }
        Self { key, pos: N }
    }

    /// `mt19937_gen`: the next 624 words of state.
    fn generate(&mut self) {
        let mag = |y: u32| if y & 1 == 0 { 0 } else { MATRIX_A };
        for i in 0..N - M {
            let y = (self.key[i] & UPPER_MASK) | (self.key[i + 1] & LOWER_MASK);
            self.key[i] = self.key[i + M] ^ (y >> 1) ^ mag(y);
        }
        for i in N - M..N - 1 {
            let y = (self.key[i] & UPPER_MASK) | (self.key[i + 1] & LOWER_MASK);
            self.key[i] = self.key[i + M - N] ^ (y >> 1) ^ mag(y);
        }
        let y = (self.key[N - 1] & UPPER_MASK) | (self.key[0] & LOWER_MASK);
        self.key[N - 1] = self.key[M - 1] ^ (y >> 1) ^ mag(y);
        self.pos = 0;
    }

    /// `mt19937_next32`: one tempered word.
    #[inline]
    pub fn next_u32(&mut self) -> u32 {
        if self.pos == N {
            self.generate();
        }
        let mut y = self.key[self.pos];
        self.pos += 1;
        y ^= y >> 11;
        y ^= (y << 7) & 0x9d2c_5680;
        y ^= (y << 15) & 0xefc6_0000;
        y ^ (y >> 18)
    }

    /// `np.random.random()` (`random_sample`): 53 bits from two words over
    /// 2^53.
    #[inline]
    pub fn random(&mut self) -> f64 {
        let a = self.next_u32() >> 5;
        let b = self.next_u32() >> 6;
        (f64::from(a) * 67_108_864.0 + f64::from(b)) / 9_007_199_254_740_992.0
    }

    /// One draw of `np.random.binomial(1, 0.5)`: numpy's inversion method
    /// takes one uniform `U` and gives 1 when `U > 0.5` (`q^n` is exactly
    /// 0.5, and `U - 0.5` never exceeds it again).
    #[inline]
    pub fn coin(&mut self) -> bool {
        self.random() > 0.5
    }

    /// `np.random.binomial(1, 0.5, n)` as booleans, in order.
    pub fn coins(&mut self, out: &mut [bool]) {
        for c in out {
            *c = self.coin();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::RandomState;

    #[test]
    fn streams_equal_numpy() {
        // np.random.seed(0); np.random.randint(0, 2**32, 3, dtype=np.uint64)
        // gives [2357136044, 2546248239, 3071714933] (one word each).
        let mut r = RandomState::seed(0);
        assert_eq!([r.next_u32(), r.next_u32(), r.next_u32()], [2_357_136_044, 2_546_248_239, 3_071_714_933]);
        // np.random.seed(0); np.random.random(2)
        let mut r = RandomState::seed(0);
        assert_eq!([r.random(), r.random()], [0.548_813_503_927_324_8, 0.715_189_366_372_419_5]);
        // np.random.seed(12345); np.random.random(1000)[-1] (crosses a regeneration)
        let mut r = RandomState::seed(12345);
        let last = (0..1000).map(|_| r.random()).last();
        assert_eq!(last, Some(0.308_605_199_945_71));
        // np.random.seed(5); np.random.binomial(1, 0.5, 12)
        let mut r = RandomState::seed(5);
        let mut c = [false; 12];
        r.coins(&mut c);
        let want = [0, 1, 0, 1, 0, 1, 1, 1, 0, 0, 0, 1];
        assert_eq!(c.map(u8::from), want);
        // np.random.seed(2**32 - 1); np.random.random(2)
        let mut r = RandomState::seed(u32::MAX);
        assert_eq!([r.random(), r.random()], [0.097_632_028_994_013_8, 0.912_382_845_302_621_8]);
    }
}
