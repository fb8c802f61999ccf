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

#[cfg(test)]
mod tests {
    use super::Py;

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
