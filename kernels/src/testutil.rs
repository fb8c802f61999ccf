//! Helpers shared by the crate's unit tests.

/// A small deterministic generator (a 64-bit LCG): `next(m)` is in `0..m`.
pub(crate) fn lcg(mut x: u64) -> impl FnMut(u64) -> u64 {
    move |m| {
        x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        (x >> 33) % m
    }
}

/// A deterministic pseudo-random stream (xorshift64, Marsaglia's 13/7/17).
pub(crate) fn xorshift(mut x: u64) -> impl FnMut() -> u64 {
    move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    }
}
