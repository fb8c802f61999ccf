//! The options argument: its type, and its constant value however
//! `DataFusion` delivers it (a literal, a constant expression evaluated at
//! execution, or a one-value array).

use std::sync::Arc;

use datafusion::arrow::array::Array;
use datafusion::arrow::array::{RecordBatch, RecordBatchOptions};
use datafusion::arrow::datatypes::{DataType, Schema};
use datafusion::common::{Result, ScalarValue, exec_err, plan_err};
use datafusion::logical_expr::{ColumnarValue, ReturnFieldArgs};
use datafusion::physical_expr::PhysicalExpr;
use datafusion::physical_expr::expressions::Literal;

use mteval_kernels::MetricError;

use super::strings::{StrCol, is_string, metric_err};

/// What a constant string argument is called in errors, with an example.
#[derive(Debug, Clone, Copy)]
pub struct ConstantArg {
    /// Its name (`options`, `the metric`).
    pub what: &'static str,
    /// A value it takes, quoted as in SQL.
    pub example: &'static str,
}

/// The options argument.
pub const OPTIONS: ConstantArg = ConstantArg { what: "options", example: "'case:mixed|norm:yes'" };

/// Maps a constant string argument such as [`OPTIONS`].
///
/// # Errors
/// A type that is not a string.
pub fn coerce_constant(name: &str, arg: ConstantArg, t: &DataType) -> Result<DataType> {
    match t {
        DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View | DataType::Null => Ok(DataType::Utf8),
        DataType::Dictionary(_, v) if is_string(v) => Ok(DataType::Utf8),
        _ => plan_err!("{name}: {} must be a string literal such as {}, got {t}", arg.what, arg.example),
    }
}

/// Reads the options literal at `pos` when planning, to reject bad options
/// before any row is read. `None` when absent, and when the argument is not
/// a plain literal yet: a constant expression (`'nw:' || '2'`,
/// `arrow_cast('nw:2', 'LargeUtf8')`) is folded into one only after
/// planning, so it is checked when executing ([`exec_options`]), as is a
/// column, which is an error there.
///
/// # Errors
/// A NULL or a non-string literal.
pub fn plan_options<'a>(name: &str, args: &ReturnFieldArgs<'a>, pos: usize) -> Result<Option<&'a str>> {
    if args.arg_fields.len() <= pos {
        return Ok(None);
    }
    match args.scalar_arguments.get(pos).copied().flatten() {
        Some(v) => options_str(v).map(Some).or_else(|e| plan_err!("{name}: {e}")),
        None => Ok(None),
    }
}

/// Reads the options argument at `pos` when executing: a scalar (a literal
/// or a constant expression), or an array holding one value on every row
/// (what a function called through datafusion-ffi receives).
///
/// # Errors
/// A NULL or a non-string, or an array that is not one string on every row.
pub fn exec_options<'a>(name: &str, args: &'a [ColumnarValue], pos: usize) -> Result<Option<&'a str>> {
    match args.get(pos) {
        None => Ok(None),
        Some(ColumnarValue::Scalar(v)) => options_str(v).map(Some).or_else(|e| exec_err!("{name}: {e}")),
        Some(ColumnarValue::Array(a)) => constant_str(name, a.as_ref()),
    }
}

/// The options literal parsed by `parse` when a query is planned (the
/// defaults, `parse("")`, when the argument is absent or not yet folded
/// into a literal: it is then checked when the query runs).
///
/// # Errors
/// Options that are not a string, or that `parse` refuses (naming the function).
pub fn plan_parse<T>(
    name: &str,
    args: &ReturnFieldArgs<'_>,
    pos: usize,
    parse: impl FnOnce(&str) -> std::result::Result<T, MetricError>,
) -> Result<T> {
    parse(plan_options(name, args, pos)?.unwrap_or("")).map_err(|e| metric_err(name, &e))
}

/// The options argument parsed by `parse` when a batch runs (the defaults
/// when it is absent).
///
/// # Errors
/// Options that are not one constant string, or that `parse` refuses.
pub fn exec_parse<T>(
    name: &str,
    args: &[ColumnarValue],
    pos: usize,
    parse: impl FnOnce(&str) -> std::result::Result<T, MetricError>,
) -> Result<T> {
    parse(exec_options(name, args, pos)?.unwrap_or("")).map_err(|e| metric_err(name, &e))
}

const NOT_A_COLUMN: &str = "options must be a constant string such as 'case:mixed', not a column";

/// The one string of an array that holds the same value on every row;
/// `None` for an empty array (no row to apply options to).
fn constant_str<'a>(name: &str, a: &'a dyn Array) -> Result<Option<&'a str>> {
    let Ok(col) = StrCol::from_array(name, a) else {
        return exec_err!("{name}: options must be a string literal, got a column of {}", a.data_type());
    };
    if a.is_empty() {
        return Ok(None);
    }
    let first = col.get(0);
    if (1..a.len()).any(|i| col.get(i) != first) {
        return exec_err!("{name}: {NOT_A_COLUMN}");
    }
    match first {
        Some(s) => Ok(Some(s)),
        None => options_str(&ScalarValue::Utf8(None)).map(Some).or_else(|e| exec_err!("{name}: {e}")),
    }
}

/// The value of a constant physical expression: a literal, or any
/// expression that evaluates without input columns (a constant expression
/// left unfolded, or a foreign expression received through datafusion-ffi);
/// `None` for an expression that needs a column.
pub fn constant_value(e: &Arc<dyn PhysicalExpr>) -> Option<ScalarValue> {
    if let Some(l) = e.downcast_ref::<Literal>() {
        return Some(l.value().clone());
    }
    let one_row = RecordBatch::try_new_with_options(
        Arc::new(Schema::empty()),
        vec![],
        &RecordBatchOptions::new().with_row_count(Some(1)),
    )
    .ok()?;
    match e.evaluate(&one_row).ok()? {
        ColumnarValue::Scalar(v) => Some(v),
        ColumnarValue::Array(a) if a.len() == 1 => ScalarValue::try_from_array(&a, 0).ok(),
        ColumnarValue::Array(_) => None,
    }
}

/// The options argument at `pos` of an aggregate or window call: a
/// constant however `DataFusion` delivers it (see [`constant_value`]); `''`
/// when there is none.
///
/// # Errors
/// A column, a NULL or a non-string.
pub fn constant_options(name: &str, exprs: &[Arc<dyn PhysicalExpr>], pos: usize) -> Result<String> {
    constant_string(name, exprs, pos, OPTIONS)
}

/// The constant string argument `arg` at `pos` of an aggregate or window
/// call (see [`constant_options`]); `''` when there is none.
///
/// # Errors
/// A column, a NULL or a non-string, naming the argument.
pub fn constant_string(name: &str, exprs: &[Arc<dyn PhysicalExpr>], pos: usize, arg: ConstantArg) -> Result<String> {
    let Some(e) = exprs.get(pos) else { return Ok(String::new()) };
    let Some(v) = constant_value(e) else {
        return exec_err!("{name}: {} must be a constant string such as {}, not a column", arg.what, arg.example);
    };
    match v.try_as_str() {
        Some(Some(s)) => Ok(s.to_owned()),
        _ if arg.what == OPTIONS.what => match options_str(&v) {
            Ok(s) => Ok(s.to_owned()),
            Err(e) => exec_err!("{name}: {e}"),
        },
        _ if v.is_null() => exec_err!("{name}: {} must be a string such as {}, not NULL", arg.what, arg.example),
        _ => exec_err!("{name}: {} must be a string literal such as {}, got {v}", arg.what, arg.example),
    }
}

/// The options string of a literal, for every function that takes one
/// (scalar, aggregate, window). A NULL is refused, typed or not: options are
/// settings, not data, and a NULL there would otherwise quietly mean the
/// defaults, which `''` already says.
///
/// # Errors
/// The message (without the function's name) for a NULL or a non-string.
pub fn options_str(v: &ScalarValue) -> std::result::Result<&str, String> {
    match v.try_as_str() {
        Some(Some(s)) => Ok(s),
        _ if v.is_null() => {
            Err("options must be a string such as 'case:mixed', not NULL ('' gives the defaults)".into())
        }
        _ => Err(format!("options must be a string literal, got {v}")),
    }
}
