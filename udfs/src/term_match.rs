//! `term_match(hyp, terms) -> Struct{matched, total, dropped}`: terminology
//! match counts of one prediction, exact variant (CBS `match_accuracy`,
//! `maximally_match`). `terms` is `List<List<Utf8>>`: one inner list per term,
//! holding its alternatives. `dropped` marks an empty or whitespace-only
//! prediction, which matches nothing and which the corpus accuracy leaves out
//! of its denominator. A NULL hypothesis, a NULL term list or a NULL term
//! gives NULL; NULL alternatives are skipped.

use std::sync::Arc;

use datafusion::arrow::array::{ArrayRef, BooleanArray, Int64Array, StructArray};
use datafusion::arrow::datatypes::{DataType, Field, FieldRef, Fields};
use datafusion::common::{Result, ScalarValue, plan_err};
use datafusion::logical_expr::{ColumnarValue, ScalarFunctionArgs, ScalarUDFImpl, Signature};
use mteval_kernels::terms::{TermCounts, count_matches_exact};

use crate::common::{StrCol, coerce_string, map_rows};
use crate::term_cols::{TermsCol, coerce_terms};

/// Fields of the `term_match` result.
#[must_use]
pub fn term_match_fields() -> Fields {
    Fields::from(vec![
        Field::new("matched", DataType::Int64, false),
        Field::new("total", DataType::Int64, false),
        Field::new("dropped", DataType::Boolean, false),
    ])
}

/// Builds the result column (or scalar) from per-row counts.
///
/// # Errors
/// Only if Arrow rejects the struct.
pub fn counts_to_value(
    fields: Fields,
    vals: &[Option<TermCounts>],
    matched: fn(&TermCounts) -> u32,
    with_exact: bool,
    single: bool,
) -> Result<ColumnarValue> {
    let nulls = datafusion::arrow::buffer::NullBuffer::from(vals.iter().map(Option::is_some).collect::<Vec<bool>>());
    let ints = |f: &dyn Fn(&TermCounts) -> u32| -> ArrayRef {
        Arc::new(Int64Array::from(vals.iter().map(|v| v.as_ref().map_or(0, |c| i64::from(f(c)))).collect::<Vec<_>>()))
    };
    let mut cols: Vec<ArrayRef> = vec![ints(&|c| matched(c))];
    if with_exact {
        cols.push(ints(&|c| c.exact));
    }
    cols.push(ints(&|c| c.total));
    cols.push(Arc::new(BooleanArray::from(
        vals.iter().map(|v| v.as_ref().is_some_and(|c| c.dropped)).collect::<Vec<_>>(),
    )));
    let arr = StructArray::try_new(fields, cols, Some(nulls))?;
    if single {
        return Ok(ColumnarValue::Scalar(ScalarValue::Struct(Arc::new(arr))));
    }
    Ok(ColumnarValue::Array(Arc::new(arr)))
}

/// Exact term counts of rows `0..n` (NULL hypothesis, term list or term → `None`).
///
/// # Errors
/// Only Arrow-level problems (the exact variant has no failing input).
pub fn exact_rows(name: &str, hyp: &StrCol<'_>, terms: &TermsCol<'_>, n: usize) -> Result<Vec<Option<TermCounts>>> {
    map_rows(name, n, |i| {
        let mut t = Vec::new();
        let Some(h) = hyp.get(i) else { return Ok(None) };
        Ok(terms.get(i, &mut t).then(|| count_matches_exact(h, &t)))
    })
}

crate::udf_struct!(
    /// The `term_match` scalar UDF.
    TermMatchUdf
);

impl ScalarUDFImpl for TermMatchUdf {
    fn name(&self) -> &'static str {
        "term_match"
    }

    fn signature(&self) -> &Signature {
        &self.signature
    }

    fn coerce_types(&self, t: &[DataType]) -> Result<Vec<DataType>> {
        if t.len() != 2 {
            return plan_err!("term_match takes (hyp, terms), got {} arguments", t.len());
        }
        Ok(vec![coerce_string(self.name(), "the hypothesis", &t[0])?, coerce_terms(self.name(), &t[1])?])
    }

    fn return_type(&self, _arg_types: &[DataType]) -> Result<DataType> {
        Ok(DataType::Struct(term_match_fields()))
    }

    fn return_field_from_args(&self, _args: datafusion::logical_expr::ReturnFieldArgs) -> Result<FieldRef> {
        Ok(Arc::new(Field::new(self.name(), DataType::Struct(term_match_fields()), true)))
    }

    fn invoke_with_args(&self, args: ScalarFunctionArgs) -> Result<ColumnarValue> {
        let name = self.name();
        let hyp = StrCol::new(name, &args.args[0])?;
        let terms = TermsCol::new(name, &args.args[1])?;
        let single = hyp.is_scalar() && terms.is_scalar();
        let n = if single { 1 } else { args.number_rows };
        let vals = exact_rows(name, &hyp, &terms, n)?;
        counts_to_value(term_match_fields(), &vals, |c| c.exact, false, single)
    }
}
