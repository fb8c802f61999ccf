//! Python and numpy number semantics for the bootstrap's score formulas.
//!
//! sacrebleu's bootstrap sums each resample's statistics as numpy `float32`
//! and hands the sums to the metric's ordinary Python scoring code. Under
//! numpy 2's promotion rules (NEP 50) a Python `int` or `float` meeting a
//! `float32` is converted to `float32` and the operation runs in `float32`;
//! Python numbers among themselves stay `float` (`f64`). [`Py`] carries the
//! type with the value so that the metric formulas can be written as
//! sacrebleu writes them and round as numpy rounds.

use std::ops::{Add, AddAssign, Div, DivAssign, Mul, Sub};

/// A number as Python holds it in sacrebleu's scoring code.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Py {
    /// A Python `float` (or an `int` that is exact as a float).
    Float(f64),
    /// A numpy `float32` scalar.
    F32(f32),
}

impl Py {
    /// The value as `f64` (exact for both kinds).
    #[must_use]
    pub fn value(self) -> f64 {
        match self {
            Self::Float(x) => x,
            Self::F32(x) => f64::from(x),
        }
    }

    /// Whether the value is a numpy `float32`.
    #[must_use]
    pub const fn is_f32(self) -> bool {
        matches!(self, Self::F32(_))
    }
}

/// A Python number converted to `float32` (round to nearest, as numpy's cast).
#[allow(clippy::cast_possible_truncation, reason = "the conversion numpy applies to a weak Python scalar")]
const fn to_f32(x: f64) -> f32 {
    x as f32
}

macro_rules! py_op {
    ($trait:ident, $method:ident, $op:tt) => {
        impl $trait for Py {
            type Output = Self;
            fn $method(self, rhs: Self) -> Self {
                match (self, rhs) {
                    (Self::Float(a), Self::Float(b)) => Self::Float(a $op b),
                    (Self::F32(a), Self::F32(b)) => Self::F32(a $op b),
                    (Self::Float(a), Self::F32(b)) => Self::F32(to_f32(a) $op b),
                    (Self::F32(a), Self::Float(b)) => Self::F32(a $op to_f32(b)),
                }
            }
        }
    };
}

py_op!(Add, add, +);
py_op!(Sub, sub, -);
py_op!(Mul, mul, *);
py_op!(Div, div, /);

impl AddAssign for Py {
    fn add_assign(&mut self, rhs: Self) {
        *self = *self + rhs;
    }
}

impl DivAssign for Py {
    fn div_assign(&mut self, rhs: Self) {
        *self = *self / rhs;
    }
}

/// Python's `int(np.float32(x))`: truncation toward zero.
#[allow(clippy::cast_possible_truncation, reason = "float32 sums of lengths are far below 2^63")]
#[must_use]
pub fn py_int(x: f32) -> i64 {
    x as i64
}

/// numpy's pairwise summation of a contiguous array (`pairwise_sum` in
/// `loops_utils.h`): blocks of up to 128 elements summed with 8
/// accumulators, larger ones split in two at a multiple of 8.
#[must_use]
pub fn numpy_sum<T: Copy + Default + std::ops::Add<Output = T>>(a: &[T]) -> T {
    let n = a.len();
    if n < 8 {
        let mut r = T::default();
        for &x in a {
            r = r + x;
        }
        r
    } else if n <= 128 {
        let mut r = [a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7]];
        let mut i = 8;
        while i < n - n % 8 {
            for (j, acc) in r.iter_mut().enumerate() {
                *acc = *acc + a[i + j];
            }
            i += 8;
        }
        let mut res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
        for &x in &a[i..] {
            res = res + x;
        }
        res
    } else {
        let mut n2 = n / 2;
        n2 -= n2 % 8;
        numpy_sum(&a[..n2]) + numpy_sum(&a[n2..])
    }
}

/// `numpy.mean` of a contiguous float64 row, bit for bit: [`numpy_sum`]
/// divided by the length. `None` for an empty row (numpy gives NaN).
#[must_use]
#[allow(clippy::cast_precision_loss, reason = "a row's length is far below 2^53, exact in f64")]
pub fn numpy_mean(row: &[f64]) -> Option<f64> {
    (!row.is_empty()).then(|| numpy_sum(row) / row.len() as f64)
}

#[cfg(test)]
mod tests {
    use super::{Py, numpy_mean, numpy_sum};

    #[test]
    #[allow(clippy::cast_possible_truncation, reason = "float32 test data")]
    fn numpy_pairwise_sum_matches_numpy() {
        // x = np.sqrt(np.arange(1, 1001)).astype(np.float32): numpy 2.4.6's
        // float(x.sum()) is 21097.45703125; a running float32 sum gives 21097.4609375.
        let x: Vec<f32> = (1..=1000).map(|i| f64::from(i).sqrt() as f32).collect();
        assert_eq!(numpy_sum(&x), 21097.457_f32);
        assert_ne!(x.iter().fold(0.0f32, |a, &b| a + b), numpy_sum(&x));
        let y: Vec<f64> = (0..10).map(f64::from).collect();
        assert_eq!(numpy_sum(&y), 45.0);
        assert_eq!(numpy_sum::<f64>(&[]), 0.0);
    }

    #[test]
    fn numpy_mean_blocks() {
        let row: Vec<f64> = (0..300).map(|i| f64::from(i) * 0.1).collect();
        let m = numpy_mean(&row).unwrap();
        assert!((m - 14.95).abs() < 1e-9);
        assert_eq!(numpy_mean(&[]), None);
    }

    #[test]
    fn promotion_follows_nep50() {
        // 100. * np.float32(1/3) stays float32.
        let third = Py::F32(1.0 / 3.0);
        assert_eq!(Py::Float(100.0) * third, Py::F32(100.0f32 * (1.0f32 / 3.0)));
        // Python floats among themselves stay doubles.
        assert_eq!(Py::Float(1.0) / Py::Float(3.0), Py::Float(1.0 / 3.0));
        // 0.1 meets float32 as float32(0.1).
        assert_eq!(Py::F32(0.0) + Py::Float(0.1), Py::F32(0.1f32));
        assert!(Py::F32(1.0).is_f32() && !Py::Float(1.0).is_f32());
    }
}
