//! String arguments in any of Arrow's layouts (Utf8, `LargeUtf8`,
//! `Utf8View`, a broadcast scalar), their type coercion, and the error of a
//! kernel named after its function.

use datafusion::arrow::array::{Array, AsArray, LargeStringArray, StringArray, StringViewArray};
use datafusion::arrow::datatypes::DataType;
use datafusion::common::{Result, exec_datafusion_err, exec_err, plan_err};
use datafusion::logical_expr::ColumnarValue;
use mteval_kernels::MetricError;

/// Maps a string-like type to the string type the UDF accepts.
///
/// # Errors
/// A type that is neither a string nor a dictionary of strings.
pub fn coerce_string(name: &str, pos: &str, t: &DataType) -> Result<DataType> {
    match t {
        DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View => Ok(t.clone()),
        DataType::Null => Ok(DataType::Utf8),
        DataType::Dictionary(_, v) if is_string(v) => Ok(v.as_ref().clone()),
        _ => plan_err!("{name}: {pos} must be a string (Utf8, LargeUtf8 or Utf8View), got {t}"),
    }
}

/// Whether `t` is one of Arrow's string types (Utf8, `LargeUtf8`, `Utf8View`).
#[must_use]
pub fn is_string(t: &DataType) -> bool {
    matches!(t, DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View)
}

/// A string type, or a dictionary of strings (what pandas categoricals and
/// pyarrow's `dictionary_encode` write).
#[must_use]
pub fn is_string_like(t: &DataType) -> bool {
    is_string(t) || matches!(t, DataType::Dictionary(_, v) if is_string(v))
}

/// Turns a kernel error into a `DataFusion` error naming the function.
#[must_use]
pub fn metric_err(name: &str, e: &MetricError) -> datafusion::error::DataFusionError {
    exec_datafusion_err!("{name}: {e}")
}

/// A string argument: one of the three layouts, or a broadcast scalar.
pub enum StrCol<'a> {
    /// Utf8.
    Utf8(&'a StringArray),
    /// `LargeUtf8`.
    Large(&'a LargeStringArray),
    /// `Utf8View`.
    View(&'a StringViewArray),
    /// A constant.
    Scalar(Option<&'a str>),
}

impl<'a> StrCol<'a> {
    /// Wraps an array of any string layout.
    ///
    /// # Errors
    /// An array of another type.
    pub fn from_array(name: &str, a: &'a dyn Array) -> Result<Self> {
        Ok(match a.data_type() {
            DataType::Utf8 => Self::Utf8(a.as_string::<i32>()),
            DataType::LargeUtf8 => Self::Large(a.as_string::<i64>()),
            DataType::Utf8View => Self::View(a.as_string_view()),
            DataType::Null => Self::Scalar(None),
            t => return exec_err!("{name}: expected a string column, got {t}"),
        })
    }

    /// Wraps a string argument.
    ///
    /// # Errors
    /// An array or a scalar of another type.
    pub fn new(name: &str, v: &'a ColumnarValue) -> Result<Self> {
        match v {
            ColumnarValue::Array(a) => Self::from_array(name, a.as_ref()),
            ColumnarValue::Scalar(s) => match s.try_as_str() {
                Some(x) => Ok(Self::Scalar(x)),
                None if s.is_null() => Ok(Self::Scalar(None)),
                None => exec_err!("{name}: expected a string, got {s}"),
            },
        }
    }

    /// Value at row `i` (`None` = NULL).
    #[inline]
    #[must_use]
    pub fn get(&self, i: usize) -> Option<&'a str> {
        match self {
            Self::Utf8(a) => a.is_valid(i).then(|| a.value(i)),
            Self::Large(a) => a.is_valid(i).then(|| a.value(i)),
            Self::View(a) => a.is_valid(i).then(|| a.value(i)),
            Self::Scalar(s) => *s,
        }
    }

    /// Whether this is a constant.
    #[must_use]
    pub fn is_scalar(&self) -> bool {
        matches!(self, Self::Scalar(_))
    }
}
