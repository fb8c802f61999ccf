//! Arrow plumbing written once: string layouts (Utf8, `LargeUtf8`, `Utf8View`),
//! scalar-or-array arguments, reference lists, NULL policy, and the
//! row-parallel evaluation every metric UDF uses. The session settings and
//! device binding ([`device`]) and the reading of constant options
//! ([`options`]) and the string layouts ([`strings`]) have modules of their
//! own, re-exported here.

mod device;
mod options;
mod strings;
mod sums;

pub(crate) use device::bind_device;
pub use device::{MtevalConfig, configured_device, session_backend};
pub use options::{
    ConstantArg, OPTIONS, coerce_constant, constant_options, constant_string, constant_value, exec_options, exec_parse,
    options_str, plan_options, plan_parse,
};
pub use strings::{StrCol, coerce_string, is_string, is_string_like, metric_err};
pub use sums::{merge_u64_states, u64_state};

use std::sync::Arc;

use datafusion::arrow::array::{Array, ArrayRef, AsArray, GenericListArray, StringArray};
use datafusion::arrow::array::{Float64Array, StructArray};
use datafusion::arrow::datatypes::{DataType, Field, FieldRef, Fields};
use datafusion::common::{Result, ScalarValue, exec_datafusion_err, plan_err};
use datafusion::logical_expr::utils::format_state_name;
use datafusion::logical_expr::{ColumnarValue, ScalarFunctionArgs};
use mteval_kernels::MetricError;
use mteval_kernels::backend::{Backend, DeviceRequest};
use rayon::prelude::*;

/// A metric of one row, `(hyp, refs) -> value` (`None`: no value), run on
/// the CPU's threads.
pub trait RowFn<T>: Fn(&str, &[&str]) -> Result<Option<T>, MetricError> + Sync {}

impl<T, F: Fn(&str, &[&str]) -> Result<Option<T>, MetricError> + Sync> RowFn<T> for F {}

/// A metric of every row of a batch at once on a device, one result per row.
pub trait BatchFn<'a, T>:
    FnOnce(&dyn Backend, &[(&'a str, Vec<&'a str>)]) -> Vec<Result<Option<T>, MetricError>>
{
}

impl<'a, T, B> BatchFn<'a, T> for B where
    B: FnOnce(&dyn Backend, &[(&'a str, Vec<&'a str>)]) -> Vec<Result<Option<T>, MetricError>>
{
}

/// Evaluates a metric over the rows with non-NULL inputs on `backend`, the
/// one place that chooses the path: on a GPU, `batch` gets every such row at
/// once (a launch per round for the whole batch); on the CPU, `row` runs per
/// row on all cores. Both give the same results. NULL in gives NULL out, and
/// a row's error names the row.
///
/// # Errors
/// A row's error, naming the row.
pub fn eval_rows_on<'a, T: Send, F: RowFn<T>, B: BatchFn<'a, T>>(
    name: &str,
    backend: &dyn Backend,
    hyp: &StrCol<'a>,
    refs: &RefsCol<'a>,
    number_rows: usize,
    row: F,
    batch: B,
) -> Result<(Vec<Option<T>>, bool)> {
    if !backend.is_gpu() {
        return eval_rows(name, hyp, refs, number_rows, row);
    }
    // Every row with non-NULL inputs in one batch.
    let single = hyp.is_scalar() && refs.is_scalar();
    let n = if single { 1 } else { number_rows };
    let mut idx = Vec::with_capacity(n);
    let mut rows = Vec::with_capacity(n);
    for i in 0..n {
        let mut buf = Vec::new();
        if let Some(h) = hyp.get(i)
            && refs.get(i, &mut buf)
        {
            idx.push(i);
            rows.push((h, buf));
        }
    }
    let mut out: Vec<Option<T>> = (0..n).map(|_| None).collect();
    for ((i, r), (h, _)) in idx.into_iter().zip(batch(backend, &rows)).zip(&rows) {
        out[i] = r.map_err(|e| row_error(name, i, Some(h), &e))?;
    }
    Ok((out, single))
}

/// [`eval_rows_on`] over a scalar call's `(hyp, ref, ...)` arguments, on
/// the session's backend.
///
/// # Errors
/// A bad argument, an unusable device, or a row's error naming the row.
pub fn eval_args_on<'a, T: Send, F: RowFn<T>, B: BatchFn<'a, T>>(
    name: &str,
    args: &'a ScalarFunctionArgs,
    row: F,
    batch: B,
) -> Result<(Vec<Option<T>>, bool)> {
    let backend = session_backend(name, Some(&args.config_options), None)?;
    let hyp = StrCol::new(name, &args.args[0])?;
    let refs = RefsCol::new(name, &args.args[1])?;
    eval_rows_on(name, backend.as_ref(), &hyp, &refs, args.number_rows, row, batch)
}

/// [`eval_rows_on`] over an aggregate's input columns `(hyp, ref, ...)`, on
/// the device the function was bound to; one result per row.
///
/// # Errors
/// A bad column, an unusable device, or a row's error naming the row.
pub fn eval_columns_on<'a, T: Send, F: RowFn<T>, B: BatchFn<'a, T>>(
    name: &str,
    values: &'a [ArrayRef],
    device: Option<DeviceRequest>,
    row: F,
    batch: B,
) -> Result<Vec<Option<T>>> {
    let backend = session_backend(name, None, device)?;
    let hyp = StrCol::from_array(name, values[0].as_ref())?;
    let refs = RefsCol::from_array(name, &values[1])?;
    Ok(eval_rows_on(name, backend.as_ref(), &hyp, &refs, values[0].len(), row, batch)?.0)
}

/// Rows per rayon task inside one batch. Sentence metrics vary a lot in cost
/// per row, so batches are split finely and balanced by work stealing.
const ROWS_PER_TASK: usize = 64;

/// Batches smaller than this are scored on the calling thread.
const MIN_PARALLEL_ROWS: usize = 256;

/// The canonical type of a list of references: `List<Utf8View>`.
#[must_use]
pub fn refs_list_type() -> DataType {
    DataType::List(Arc::new(Field::new_list_field(DataType::Utf8View, true)))
}

/// Maps the reference argument: a string, or any list of strings (to `List<Utf8View>`).
///
/// # Errors
/// A list of non-strings, or a type that is neither a string nor a list.
pub fn coerce_refs(name: &str, t: &DataType) -> Result<DataType> {
    match t {
        DataType::List(f)
        | DataType::LargeList(f)
        | DataType::FixedSizeList(f, _)
        | DataType::ListView(f)
        | DataType::LargeListView(f)
            if is_string_like(f.data_type()) || f.data_type().is_null() =>
        {
            Ok(refs_list_type())
        }
        DataType::List(_) | DataType::LargeList(_) | DataType::FixedSizeList(..) => {
            plan_err!("{name}: the reference list must hold strings, got {t}")
        }
        _ => coerce_string(name, "the reference", t),
    }
}

/// The reference argument: a string per row, or a list of strings per row.
pub enum RefsCol<'a> {
    /// One reference per row.
    Single(StrCol<'a>),
    /// A list per row (`broadcast` = a constant list used for every row).
    List { list: &'a GenericListArray<i32>, values: StrCol<'a>, broadcast: bool },
}

impl<'a> RefsCol<'a> {
    /// Wraps the reference argument.
    ///
    /// # Errors
    /// A value that is neither a string nor a list of strings.
    pub fn new(name: &str, v: &'a ColumnarValue) -> Result<Self> {
        match v {
            ColumnarValue::Array(a) => Self::from_array(name, a),
            ColumnarValue::Scalar(ScalarValue::List(l)) => Self::from_list(name, l.as_ref(), true),
            ColumnarValue::Scalar(_) => Ok(Self::Single(StrCol::new(name, v)?)),
        }
    }

    /// Wraps an array argument (aggregates always receive arrays).
    ///
    /// # Errors
    /// An array that is neither strings nor a list of strings.
    pub fn from_array(name: &str, arr: &'a ArrayRef) -> Result<Self> {
        match arr.data_type() {
            DataType::List(_) => Self::from_list(name, arr.as_list::<i32>(), false),
            _ => Ok(Self::Single(StrCol::from_array(name, arr.as_ref())?)),
        }
    }

    fn from_list(name: &str, list: &'a GenericListArray<i32>, broadcast: bool) -> Result<Self> {
        Ok(Self::List { list, values: StrCol::from_array(name, list.values().as_ref())?, broadcast })
    }

    /// Whether this is a constant.
    #[must_use]
    pub fn is_scalar(&self) -> bool {
        match self {
            Self::Single(s) => s.is_scalar(),
            Self::List { broadcast, .. } => *broadcast,
        }
    }

    /// Where the `k`-th non-NULL reference of row `i` (as [`Self::get`]
    /// gives them) sits in the row's list, NULLs counted.
    #[must_use]
    pub fn list_position(&self, i: usize, k: usize) -> usize {
        match self {
            Self::Single(_) => k,
            Self::List { list, values, broadcast } => {
                let i = if *broadcast { 0 } else { i };
                #[allow(clippy::cast_sign_loss, reason = "Arrow list offsets are never negative")]
                let start = list.value_offsets()[i] as usize;
                #[allow(clippy::cast_sign_loss, reason = "Arrow list offsets are never negative")]
                let end = list.value_offsets()[i + 1] as usize;
                (start..end).filter(|&j| values.get(j).is_some()).nth(k).map_or(k, |j| j - start)
            }
        }
    }

    /// The non-NULL references of row `i` into `out`; `false` when the row is
    /// NULL or has no non-NULL reference (sacrebleu drops `None` references).
    #[inline]
    pub fn get(&self, i: usize, out: &mut Vec<&'a str>) -> bool {
        out.clear();
        match self {
            Self::Single(s) => {
                if let Some(r) = s.get(i) {
                    out.push(r);
                }
            }
            Self::List { list, values, broadcast } => {
                let i = if *broadcast { 0 } else { i };
                if list.is_valid(i) {
                    let offs = list.value_offsets();
                    #[allow(clippy::cast_sign_loss, reason = "Arrow list offsets are never negative")]
                    for j in offs[i] as usize..offs[i + 1] as usize {
                        if let Some(r) = values.get(j) {
                            out.push(r);
                        }
                    }
                }
            }
        }
        !out.is_empty()
    }
}

/// Evaluates `f(hyp, refs)` for every row with non-NULL inputs, in parallel,
/// returning one `Option<T>` per row (NULL in gives NULL out). When every
/// input is constant, `f` runs once and `single` is true.
///
/// # Errors
/// A row's error, naming the row.
pub fn eval_rows<'a, T, F>(
    name: &str,
    hyp: &StrCol<'a>,
    refs: &RefsCol<'a>,
    number_rows: usize,
    f: F,
) -> Result<(Vec<Option<T>>, bool)>
where
    T: Send,
    F: RowFn<T>,
{
    let row = |i: usize, buf: &mut Vec<&'a str>| -> Result<Option<T>> {
        let Some(h) = hyp.get(i) else { return Ok(None) };
        if !refs.get(i, buf) {
            return Ok(None);
        }
        f(h, buf).map_err(|e| row_error(name, i, Some(h), &e))
    };
    if hyp.is_scalar() && refs.is_scalar() {
        let mut buf = Vec::new();
        return Ok((vec![row(0, &mut buf)?], true));
    }
    if number_rows < MIN_PARALLEL_ROWS {
        let mut buf = Vec::new();
        return Ok(((0..number_rows).map(|i| row(i, &mut buf)).collect::<Result<Vec<_>>>()?, false));
    }
    let chunks: Vec<Result<Vec<Option<T>>>> = (0..number_rows.div_ceil(ROWS_PER_TASK))
        .into_par_iter()
        .map(|c| {
            let mut buf = Vec::new();
            let lo = c * ROWS_PER_TASK;
            let hi = (lo + ROWS_PER_TASK).min(number_rows);
            (lo..hi).map(|i| row(i, &mut buf)).collect()
        })
        .collect();
    let mut out = Vec::with_capacity(number_rows);
    for c in chunks {
        out.extend(c?);
    }
    Ok((out, false))
}

/// What follows the row index in a per-row error ("row 3 of the batch"):
/// applications that know where the batch starts (the `mteval score` CLI)
/// rewrite it into the row of their input.
pub const ROW_IN_BATCH: &str = " of the batch";

/// A per-row error of function `name`, naming the row within its batch
/// and, when known, the start of its hypothesis (SQL has no row number of
/// its input to give; the text lets the row be found).
fn row_error(name: &str, i: usize, hyp: Option<&str>, e: &MetricError) -> datafusion::error::DataFusionError {
    if let Some(h) = hyp {
        exec_datafusion_err!("{name}: row {i}{ROW_IN_BATCH} (hypothesis {}): {e}", snippet(h))
    } else {
        exec_datafusion_err!("{name}: row {i}{ROW_IN_BATCH}: {e}")
    }
}

/// The first 40 characters of `s`, quoted and escaped, with `…` when cut.
fn snippet(s: &str) -> String {
    const MAX: usize = 40;
    match s.char_indices().nth(MAX) {
        Some((cut, _)) => format!("{:?}…", &s[..cut]),
        None => format!("{s:?}"),
    }
}

/// Evaluates `f(i)` for rows `0..number_rows` in parallel chunks (serially
/// for small batches), keeping the row order. `f` reports per-row errors
/// already naming the function; this adds the row index.
///
/// # Errors
/// A row's error from `f`, with the row index.
pub fn map_rows<T, F>(name: &str, number_rows: usize, f: F) -> Result<Vec<Option<T>>>
where
    T: Send,
    F: Fn(usize) -> Result<Option<T>, MetricError> + Sync,
{
    let row = |i: usize| f(i).map_err(|e| row_error(name, i, None, &e));
    if number_rows < MIN_PARALLEL_ROWS {
        return (0..number_rows).map(row).collect();
    }
    let chunks: Vec<Result<Vec<Option<T>>>> = (0..number_rows.div_ceil(ROWS_PER_TASK))
        .into_par_iter()
        .map(|c| {
            let lo = c * ROWS_PER_TASK;
            (lo..(lo + ROWS_PER_TASK).min(number_rows)).map(row).collect()
        })
        .collect();
    let mut out = Vec::with_capacity(number_rows);
    for c in chunks {
        out.extend(c?);
    }
    Ok(out)
}

/// A Float64 result: one scalar when every input was a scalar (`single`),
/// else an array.
#[must_use]
pub fn float64_value(vals: Vec<Option<f64>>, single: bool) -> ColumnarValue {
    if single {
        return ColumnarValue::Scalar(ScalarValue::Float64(vals.first().copied().flatten()));
    }
    ColumnarValue::Array(Arc::new(Float64Array::from(vals)))
}

/// A Utf8 result (see [`float64_value`]).
#[must_use]
pub fn utf8_value(vals: Vec<Option<String>>, single: bool) -> ColumnarValue {
    if single {
        return ColumnarValue::Scalar(ScalarValue::Utf8(vals.into_iter().next().flatten()));
    }
    ColumnarValue::Array(Arc::new(StringArray::from(vals)))
}

/// A text function's result: `f` of each row of the text `args[0]` (NULL
/// stays NULL), configured by the constant options `args[1]` as `parse`
/// reads them (its defaults when they are absent).
///
/// # Errors
/// Invalid options, or a text argument that is not a string.
pub fn map_text<C>(
    name: &str,
    args: &ScalarFunctionArgs,
    parse: impl FnOnce(&str) -> std::result::Result<C, MetricError>,
    f: impl Fn(&C, &str) -> String,
) -> Result<ColumnarValue> {
    let config = exec_parse(name, &args.args, 1, parse)?;
    let text = StrCol::new(name, &args.args[0])?;
    let single = text.is_scalar();
    let n = if single { 1 } else { args.number_rows };
    Ok(utf8_value((0..n).map(|i| text.get(i).map(|s| f(&config, s))).collect(), single))
}

/// The fields of a struct result, `(name, type)` in order, all `nullable`
/// or none.
#[must_use]
pub fn struct_fields(nullable: bool, fields: &[(&str, DataType)]) -> Fields {
    fields.iter().map(|(name, t)| Field::new(*name, t.clone(), nullable)).collect()
}

/// The type of a list of `item`s (nullable items when `nullable`).
#[must_use]
pub fn list_of(item: DataType, nullable: bool) -> DataType {
    DataType::List(Arc::new(Field::new_list_field(item, nullable)))
}

/// The intermediate state of an aggregate that keeps its rows: one list
/// column per `(name, item type)`, named after the aggregate (`args_name`).
#[must_use]
pub fn list_state_fields(args_name: &str, columns: &[(&str, DataType)]) -> Vec<FieldRef> {
    let field = |(name, t): &(&str, DataType)| {
        Arc::new(Field::new(format_state_name(args_name, name), list_of(t.clone(), true), true))
    };
    columns.iter().map(field).collect()
}

/// A struct result (see [`float64_value`]).
#[must_use]
pub fn struct_value(arr: StructArray, single: bool) -> ColumnarValue {
    if single {
        return ColumnarValue::Scalar(ScalarValue::Struct(Arc::new(arr)));
    }
    ColumnarValue::Array(Arc::new(arr))
}
