//! `term_match(hyp, terms) -> Struct{matched, total, dropped}`: terminology
//! match counts of one prediction, exact variant (CBS `match_accuracy`,
//! `maximally_match`). `terms` is `List<List<Utf8>>`: one inner list per term,
//! holding its alternatives. `dropped` marks an empty or whitespace-only
//! prediction, which matches nothing and which the corpus accuracy leaves out
//! of its denominator. A NULL hypothesis, a NULL term list or a NULL term
//! gives NULL; NULL alternatives are skipped.

use std::sync::Arc;

use datafusion::arrow::array::{ArrayRef, BooleanArray, Int64Array, StructArray};
use datafusion::arrow::datatypes::{DataType, Fields};
use datafusion::common::Result;
use datafusion::logical_expr::{ColumnarValue, ScalarFunctionArgs};
use mteval_kernels::terms::{TermCounts, count_matches_exact};

use crate::common::{StrCol, check_arity, coerce_string, map_rows, struct_fields, struct_value};
use crate::terms::term_cols::{TermsCol, coerce_terms};
use crate::udf::{ARG_HYP, Coerce, FunctionDoc, Output, Scalar, ScalarSpec};

/// The argument `terms` of the terminology functions.
pub const ARG_TERMS: (&str, &str) = (
    "terms",
    "The terms the hypothesis should contain: `list<list<str>>`, one inner list per term holding its alternatives.",
);

/// Fields of the `term_match` result.
#[must_use]
pub fn term_match_fields() -> Fields {
    use DataType::{Boolean, Int64 as I};
    struct_fields(false, &[("matched", I), ("total", I), ("dropped", Boolean)])
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
    Ok(struct_value(StructArray::try_new(fields, cols, Some(nulls))?, single))
}

/// Coercion of `(hyp, terms)`.
pub(crate) fn coerce_terms_args(name: &str, t: &[DataType]) -> Result<Vec<DataType>> {
    check_arity(name, t, 2..=2, "(hyp, terms)")?;
    Ok(vec![coerce_string(name, "the hypothesis", &t[0])?, coerce_terms(name, &t[1])?])
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

/// The `term_match` scalar function.
#[derive(Debug)]
pub struct TermMatchFn;

/// The `term_match` scalar UDF.
pub type TermMatchUdf = Scalar<TermMatchFn>;

impl ScalarSpec for TermMatchFn {
    const NAME: &'static str = "term_match";
    const DOC: FunctionDoc = FunctionDoc {
        description: "Terminology match counts of one prediction, exact variant (CBS `match_accuracy`, \
                      `maximally_match`). `dropped` marks an empty or whitespace-only prediction, which matches \
                      nothing and which the corpus accuracy leaves out of its denominator. A NULL hypothesis, \
                      term list or term gives NULL; NULL alternatives are skipped.",
        syntax: "term_match(hyp: str, terms: list<list<str>>) -> struct{matched: int64, total: int64, dropped: bool}",
        arguments: &[ARG_HYP, ARG_TERMS],
        example: "SELECT term_match('the red cat', [['red', 'crimson'], ['dog']]);",
        related: &["corpus_term_accuracy", "term_match_lemmatized"],
    };

    const COERCE: Coerce = coerce_terms_args;

    const OUTPUT: Output = || DataType::Struct(term_match_fields());

    fn invoke(args: &ScalarFunctionArgs) -> Result<ColumnarValue> {
        let name = Self::NAME;
        let hyp = StrCol::new(name, &args.args[0])?;
        let terms = TermsCol::new(name, &args.args[1])?;
        let single = hyp.is_scalar() && terms.is_scalar();
        let n = if single { 1 } else { args.number_rows };
        let vals = exact_rows(name, &hyp, &terms, n)?;
        counts_to_value(term_match_fields(), &vals, |c| c.exact, false, single)
    }
}
