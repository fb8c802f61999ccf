//! Python's and numpy's semantics, where the reference tools' numbers depend
//! on them: one room for every helper whose job is to behave as `CPython`
//! 3.11 or numpy 2 does, bit for bit.
//!
//! * [`text`]: `str` methods (`isspace`, `split`, `strip`, `lower`,
//!   `upper`, `isalnum`), `unicodedata` categories and `repr` of a float
//!   (tables: `unicode14`, generated from `CPython` 3.11);
//! * [`normalize`]: `unicodedata.normalize` (NFC, NFD, NFKC, NFKD) over
//!   `CPython` 3.11's Unicode 14.0 data (`normalization14`, generated);
//! * [`re`]: the `re` module's case tables and the one pattern shape the
//!   terminology reference matches;
//! * [`number`]: numpy 2's `float32` promotions ([`Py`]), its pairwise sum
//!   and `numpy.mean`;
//! * [`random`]: numpy's random streams (`SeedSequence`, `PCG64`,
//!   `Generator.choice`/`integers`), as sacrebleu's significance tests draw
//!   them;
//! * [`legacy`]: numpy's legacy global state (`np.random.seed`, `MT19937`),
//!   as mt-metrics-eval's permutation tests draw from it;
//! * [`set`]: the iteration order of a `set` of `int`s.

pub mod legacy;
pub(crate) mod normalization14;
pub mod normalize;
pub mod number;
pub mod random;
pub mod re;
pub mod set;
pub mod student_t;
pub mod text;
pub(crate) mod unicode14;

pub use number::{Py, numpy_mean, numpy_sum};
