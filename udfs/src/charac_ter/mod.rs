//! `CharacTER`'s special SQL functions (its sentence function `charac_ter`
//! is the metric table's standard one, `metric_table::standard`):
//! `corpus_charac_ter`, cer's summary of the sentence scores, and the edit
//! distances `edit_distance` and `word_edit_distance`, one
//! [`DistanceFn`] in two units whose routines and documentation are in
//! their own files.

pub mod corpus_charac_ter;
pub mod edit_distance;
pub mod word_edit_distance;

use std::sync::Arc;

use datafusion::arrow::array::Int64Array;
use datafusion::arrow::datatypes::DataType;
use datafusion::common::{Result, ScalarValue};
use datafusion::logical_expr::{ColumnarValue, ScalarFunctionArgs};
use mteval_kernels::backend::Backend;

use crate::common::{RefsCol, StrCol, eval_rows_on, session_backend};
use crate::udf::{FunctionDoc, Output, Scalar, ScalarSpec};

/// `edit_distance` (`WORDS` false: in code points) and `word_edit_distance`
/// (`WORDS` true: over Python `str.split()` words): one Levenshtein
/// function in two units, each unit's routines in its own file.
#[derive(Debug)]
pub struct DistanceFn<const WORDS: bool>;

/// The `edit_distance` scalar function.
pub type EditDistanceFn = DistanceFn<false>;

/// The `edit_distance` scalar UDF.
pub type EditDistanceUdf = Scalar<EditDistanceFn>;

/// The `word_edit_distance` scalar function.
pub type WordEditDistanceFn = DistanceFn<true>;

/// The `word_edit_distance` scalar UDF.
pub type WordEditDistanceUdf = Scalar<WordEditDistanceFn>;

impl<const WORDS: bool> ScalarSpec for DistanceFn<WORDS> {
    const NAME: &'static str = if WORDS { word_edit_distance::NAME } else { edit_distance::NAME };
    const DOC: FunctionDoc = if WORDS { word_edit_distance::DOC } else { edit_distance::DOC };
    const OUTPUT: Output = || DataType::Int64;

    fn invoke(args: &ScalarFunctionArgs) -> Result<ColumnarValue> {
        if WORDS {
            eval_pairs(Self::NAME, args, word_edit_distance::one, word_edit_distance::many)
        } else {
            eval_pairs(Self::NAME, args, edit_distance::one, edit_distance::many)
        }
    }
}

/// Evaluates `f(a, b)` over the rows of a `(string, string)` call, or, on a
/// GPU backend, `batch(pairs)` over all non-NULL rows at once.
///
/// # Errors
/// A non-string argument or an unusable device.
fn eval_pairs<F, B>(name: &str, args: &ScalarFunctionArgs, f: F, batch: B) -> Result<ColumnarValue>
where
    F: Fn(&str, &str) -> usize + Sync,
    B: FnOnce(&dyn Backend, &[(&str, &str)]) -> Vec<usize>,
{
    let a = StrCol::new(name, &args.args[0])?;
    let b = RefsCol::Single(StrCol::new(name, &args.args[1])?);
    let backend = session_backend(name, Some(&args.config_options), None)?;
    let to_i64 = |d: usize| i64::try_from(d).unwrap_or(i64::MAX);
    let (vals, single) = eval_rows_on(
        name,
        backend.as_ref(),
        &a,
        &b,
        args.number_rows,
        |x, y| Ok(y.first().map(|y| to_i64(f(x, y)))),
        |on, rows| {
            let pairs: Vec<(&str, &str)> = rows.iter().map(|(x, y)| (*x, y[0])).collect();
            batch(on, &pairs).into_iter().map(|d| Ok(Some(to_i64(d)))).collect()
        },
    )?;
    if single {
        return Ok(ColumnarValue::Scalar(ScalarValue::Int64(vals[0])));
    }
    Ok(ColumnarValue::Array(Arc::new(Int64Array::from(vals))))
}
