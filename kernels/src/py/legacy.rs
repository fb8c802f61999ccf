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

/// A public method whose body, `$portable` (inlined), also has a copy
/// compiled for AVX2, `$avx2`: the dispatcher calls the copy where the CPU
/// has AVX2. The copy vectorises the generation and the tempering over 8
/// words instead of 4; the arithmetic, and so the draws, are the same.
macro_rules! with_avx2_copy {
    ($(#[$doc:meta])* pub fn $name:ident / $avx2:ident => $portable:ident ($($arg:ident : $ty:ty),*)) => {
        $(#[$doc])*
        pub fn $name(&mut self, $($arg: $ty),*) {
            #[cfg(target_arch = "x86_64")]
            if std::arch::is_x86_feature_detected!("avx2") {
                #[allow(unsafe_code, reason = "a target-feature function, called where the CPU has the feature")]
                // SAFETY: the CPU supports AVX2 (checked just above).
                unsafe {
                    self.$avx2($($arg),*);
                }
                return;
            }
            self.$portable($($arg),*);
        }

        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = "avx2")]
        fn $avx2(&mut self, $($arg: $ty),*) {
            self.$portable($($arg),*);
        }
    };
}

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

    /// `mt19937_gen`: the next 624 words of state (branch-free, so that
    /// the loops vectorise).
    #[inline(always)]
    #[allow(clippy::inline_always, reason = "inlined into its AVX2 copy, which then vectorises it over 8 lanes")]
    fn generate(&mut self) {
        #[inline]
        fn twist(upper: u32, lower: u32, far: u32) -> u32 {
            let y = (upper & UPPER_MASK) | (lower & LOWER_MASK);
            far ^ (y >> 1) ^ ((y & 1).wrapping_neg() & MATRIX_A)
        }
        let k = &mut self.key;
        // key[i] from the old key[i], key[i + 1] and key[i + M]: in the first
        // N - M words all three are old; then key[i + M - N] is new.
        let (head, tail) = k.split_at_mut(N - M);
        let lower_last = tail[0];
        let far = &tail[M - (N - M)..];
        for i in 0..N - M - 1 {
            head[i] = twist(head[i], head[i + 1], far[i]);
        }
        head[N - M - 1] = twist(head[N - M - 1], lower_last, far[N - M - 1]);
        for i in N - M..N - 1 {
            k[i] = twist(k[i], k[i + 1], k[i + M - N]);
        }
        k[N - 1] = twist(k[N - 1], k[0], k[M - 1]);
        self.pos = 0;
    }

    /// `mt19937_next32`: one tempered word.
    #[inline]
    pub fn next_u32(&mut self) -> u32 {
        if self.pos == N {
            self.generate();
        }
        let y = self.key[self.pos];
        self.pos += 1;
        temper(y)
    }

    /// `np.random.choice(n, size=len(out))` with replacement, in order:
    /// numpy's legacy `randint(0, n)`, masked rejection sampling on 32-bit
    /// words (a word masked to the bits of `n - 1`, redrawn while above
    /// it). `n = 1` draws nothing (every index is 0). `n` must be at most
    /// 2^32 (above, numpy draws 64-bit words).
    pub fn choice_fill(&mut self, n: u64, out: &mut [u32]) {
        debug_assert!((1..=1 << 32).contains(&n));
        let Ok(rng) = u32::try_from(n.saturating_sub(1)) else { return };
        if rng == 0 {
            out.fill(0);
            return;
        }
        let mask = u32::MAX >> rng.leading_zeros();
        for o in out {
            *o = loop {
                let v = self.next_u32() & mask;
                if v <= rng {
                    break v;
                }
            };
        }
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

    with_avx2_copy! {
        /// `np.random.binomial(1, 0.5, n)` as booleans, in order. The draws of
        /// each generated block are taken in one pass: a draw's uniform is over
        /// 0.5 exactly when its first word's top 27 bits exceed 2^26, or equal
        /// it with a non-zero second word (53 bits: `a >> 5` high, `b >> 6` low).
        pub fn coins / coins_avx2 => coins_portable(out: &mut [bool])
    }

    #[inline(always)]
    #[allow(clippy::inline_always, reason = "inlined into its AVX2 copy, which then vectorises it over 8 lanes")]
    fn coins_portable(&mut self, out: &mut [bool]) {
        let mut done = 0;
        while done < out.len() {
            if self.pos == N {
                self.generate();
            }
            if self.pos % 2 == 1 || self.pos + 2 > N {
                // A draw straddling two blocks.
                out[done] = self.coin();
                done += 1;
                continue;
            }
            let pairs = ((N - self.pos) / 2).min(out.len() - done);
            let words = &self.key[self.pos..self.pos + 2 * pairs];
            let out = &mut out[done..done + pairs];
            // Mostly the first word decides: over 0.5 when its tempered
            // value is at least 2^31 + 32; from 2^31 to 2^31 + 31 (a chance
            // of 2^-27) the second word does.
            let mut undecided = 0u32;
            for (cs, ws) in out.chunks_mut(64).zip(words.chunks(128)) {
                let mut first = [0u32; 64];
                for (f, w) in first.iter_mut().zip(ws.chunks_exact(2)) {
                    *f = w[0];
                }
                for (c, &f) in cs.iter_mut().zip(&first) {
                    let y = temper(f);
                    *c = y >= 0x8000_0020;
                    undecided |= u32::from(y >> 5 == 1 << 26);
                }
            }
            if undecided != 0 {
                for (c, w) in out.iter_mut().zip(words.chunks_exact(2)) {
                    let (a, b) = (temper(w[0]) >> 5, temper(w[1]) >> 6);
                    *c = a > 1 << 26 || (a == 1 << 26 && b != 0);
                }
            }
            self.pos += 2 * pairs;
            done += pairs;
        }
    }
}

impl RandomState {
    with_avx2_copy! {
        /// Skips `draws` uniforms (two words each) without tempering them.
        pub fn skip / skip_avx2 => skip_portable(draws: usize)
    }

    #[inline(always)]
    #[allow(clippy::inline_always, reason = "inlined into its AVX2 copy, which then vectorises it over 8 lanes")]
    fn skip_portable(&mut self, draws: usize) {
        let mut words = 2 * draws;
        if words <= N - self.pos {
            self.pos += words;
            return;
        }
        loop {
            let avail = N - self.pos;
            if words <= avail {
                self.pos += words;
                return;
            }
            words -= avail;
            self.generate();
        }
    }

    with_avx2_copy! {
        /// `np.random.binomial(1, 0.5, (n, n))` for each `n` of `sizes`, in
        /// turn, of which only the upper triangles (`j > i`, row by row) are
        /// kept: `n (n - 1) / 2` coins each, one after the other in `out`;
        /// `n^2` draws consumed each.
        pub fn triu_coins / triu_coins_avx2 => triu_coins_portable(sizes: &[usize], out: &mut [bool])
    }

    #[inline(always)]
    #[allow(clippy::inline_always, reason = "inlined into its AVX2 copy, which then vectorises it over 8 lanes")]
    fn triu_coins_portable(&mut self, sizes: &[usize], out: &mut [bool]) {
        let mut off = 0;
        for &n in sizes {
            for i in 0..n {
                self.skip_portable(i + 1);
                let len = n - i - 1;
                self.coins_portable(&mut out[off..off + len]);
                off += len;
            }
        }
    }
}

/// MT19937's tempering of a state word.
#[inline]
const fn temper(mut y: u32) -> u32 {
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c_5680;
    y ^= (y << 15) & 0xefc6_0000;
    y ^ (y >> 18)
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
        // The upper triangle of np.random.seed(5); np.random.binomial(1, 0.5, (4, 4)),
        // then the next draw: skipping leaves the stream where numpy leaves it.
        let mut r = RandomState::seed(5);
        let mut t = [false; 6];
        r.triu_coins(&[4], &mut t);
        assert_eq!(t.map(u8::from), [1, 0, 1, 1, 1, 1]);
        assert_eq!(u8::from(r.coin()), 0);
        // np.random.seed(2**32 - 1); np.random.random(2)
        let mut r = RandomState::seed(u32::MAX);
        assert_eq!([r.random(), r.random()], [0.097_632_028_994_013_8, 0.912_382_845_302_621_8]);
    }
}
