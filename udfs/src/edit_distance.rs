//! `edit_distance(a, b) -> Int64`: Levenshtein distance in code points (unit
//! costs, as python-Levenshtein's `distance` on strings), bit-parallel for
//! any length. NULL in gives NULL out.

use std::cell::RefCell;
use std::sync::Arc;

use datafusion::arrow::array::Int64Array;
use datafusion::arrow::datatypes::DataType;
use datafusion::common::{Result, ScalarValue, plan_err};
use datafusion::logical_expr::{ColumnarValue, ScalarFunctionArgs, ScalarUDFImpl, Signature};
use mteval_kernels::backend::Backend;
use mteval_kernels::levenshtein::{CharScratch, char_distance_with, char_distances_on};

use crate::common::{RefsCol, StrCol, coerce_string, eval_rows, eval_rows_batched, session_backend};

/// Coercion of `(string, string)`.
pub(crate) fn coerce_two_strings(name: &str, t: &[DataType]) -> Result<Vec<DataType>> {
    if t.len() != 2 {
        return plan_err!("{name} takes (a, b), got {} arguments", t.len());
    }
    Ok(vec![coerce_string(name, "the first argument", &t[0])?, coerce_string(name, "the second argument", &t[1])?])
}

/// Evaluates `f(a, b)` over the rows of a `(string, string)` call, or, on a
/// GPU backend, `batch(pairs)` over all non-NULL rows at once.
pub(crate) fn eval_pairs<F, B>(name: &str, args: &ScalarFunctionArgs, f: F, batch: B) -> Result<ColumnarValue>
where
    F: Fn(&str, &str) -> usize + Sync,
    B: FnOnce(&dyn Backend, &[(&str, &str)]) -> Vec<usize>,
{
    let a = StrCol::new(name, &args.args[0])?;
    let b = RefsCol::Single(StrCol::new(name, &args.args[1])?);
    let backend = session_backend(name, Some(&args.config_options), None)?;
    let to_i64 = |d: usize| i64::try_from(d).unwrap_or(i64::MAX);
    let (vals, single) = if backend.is_gpu() {
        eval_rows_batched(name, &a, &b, args.number_rows, |rows| {
            let pairs: Vec<(&str, &str)> = rows.iter().map(|(x, y)| (*x, y[0])).collect();
            batch(backend.as_ref(), &pairs).into_iter().map(|d| Ok(Some(to_i64(d)))).collect()
        })?
    } else {
        eval_rows(name, &a, &b, args.number_rows, |x, y| Ok(y.first().map(|y| to_i64(f(x, y)))))?
    };
    if single {
        return Ok(ColumnarValue::Scalar(ScalarValue::Int64(vals[0])));
    }
    Ok(ColumnarValue::Array(Arc::new(Int64Array::from(vals))))
}

thread_local! {
    static SCRATCH: RefCell<CharScratch> = RefCell::new(CharScratch::default());
}

crate::udf_struct!(
    /// The `edit_distance` scalar UDF.
    EditDistanceUdf
);

impl ScalarUDFImpl for EditDistanceUdf {
    fn name(&self) -> &'static str {
        "edit_distance"
    }

    fn signature(&self) -> &Signature {
        &self.signature
    }

    fn coerce_types(&self, arg_types: &[DataType]) -> Result<Vec<DataType>> {
        coerce_two_strings(self.name(), arg_types)
    }

    fn return_type(&self, _arg_types: &[DataType]) -> Result<DataType> {
        Ok(DataType::Int64)
    }

    fn invoke_with_args(&self, args: ScalarFunctionArgs) -> Result<ColumnarValue> {
        eval_pairs(
            self.name(),
            &args,
            |a, b| SCRATCH.with(|s| char_distance_with(&mut s.borrow_mut(), a, b)),
            char_distances_on,
        )
    }
}
