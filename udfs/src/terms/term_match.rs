//! `term_match(hyp, terms) -> Struct{matched, total, dropped}`: terminology
//! match counts of one prediction, exact variant (CBS `match_accuracy`,
//! `maximally_match`). `terms` is `List<List<Utf8>>`: one inner list per term,
//! holding its alternatives. `dropped` marks an empty or whitespace-only
//! prediction, which matches nothing and which the corpus accuracy leaves out
//! of its denominator. A NULL hypothesis, a NULL term list or a NULL term
//! gives NULL; NULL alternatives are skipped.
//!
//! [`TermMatchFn`] also makes `term_match_lemmatized`
//! ([`crate::terms::term_match_lemmatized`]): the same function over
//! `(hyp, lemmas, terms)`, with the lemmatized count and the exact one.

use std::sync::Arc;

use datafusion::arrow::array::{ArrayRef, BooleanArray, Int64Array, StructArray};
use datafusion::arrow::datatypes::{DataType, Fields};
use datafusion::common::Result;
use datafusion::logical_expr::{ColumnarValue, ScalarFunctionArgs};
use mteval_kernels::terms::TermCounts;

use crate::common::{struct_fields, struct_value};
use crate::terms::term_cols::{TermArgs, coerce_terms};
use crate::udf::{ARG_HYP, Arg, Documented, FunctionDoc, Kind, Output, Scalar, ScalarSpec};

/// The argument `terms` of the terminology functions.
pub const ARG_TERMS: Arg = Arg::new(
    "terms",
    Kind::Other { ty: "list<list<str>>", coerce: coerce_terms },
    "The terms the hypothesis should contain: `list<list<str>>`, one inner list per term holding its alternatives.",
);

/// Fields of the `term_match` result, or with `lemmatized`, of
/// `term_match_lemmatized`'s (which adds the surface-only count `exact`).
#[must_use]
pub fn term_match_fields(lemmatized: bool) -> Fields {
    use DataType::{Boolean, Int64 as I};
    let exact = lemmatized.then_some(("exact", I));
    let fields: Vec<(&str, DataType)> =
        [Some(("matched", I)), exact, Some(("total", I)), Some(("dropped", Boolean))].into_iter().flatten().collect();
    struct_fields(false, &fields)
}

/// Builds the result column (or scalar) from per-row counts: `matched` is
/// the lemmatized count with `lemmatized`, else the exact one.
fn counts_to_value(vals: &[Option<TermCounts>], lemmatized: bool, single: bool) -> Result<ColumnarValue> {
    let nulls = datafusion::arrow::buffer::NullBuffer::from(vals.iter().map(Option::is_some).collect::<Vec<bool>>());
    let ints = |f: &dyn Fn(&TermCounts) -> u32| -> ArrayRef {
        Arc::new(Int64Array::from(vals.iter().map(|v| v.as_ref().map_or(0, |c| i64::from(f(c)))).collect::<Vec<_>>()))
    };
    let mut cols: Vec<ArrayRef> = vec![ints(&|c| if lemmatized { c.lemmatized } else { c.exact })];
    if lemmatized {
        cols.push(ints(&|c| c.exact));
    }
    cols.push(ints(&|c| c.total));
    cols.push(Arc::new(BooleanArray::from(
        vals.iter().map(|v| v.as_ref().is_some_and(|c| c.dropped)).collect::<Vec<_>>(),
    )));
    Ok(struct_value(StructArray::try_new(term_match_fields(lemmatized), cols, Some(nulls))?, single))
}

/// A per-row terminology match: `term_match`, or with `LEMMATIZED`,
/// `term_match_lemmatized`.
#[derive(Debug)]
pub struct TermMatchFn<const LEMMATIZED: bool, D>(std::marker::PhantomData<D>);

impl<const LEMMATIZED: bool, D: Documented + std::fmt::Debug> ScalarSpec for TermMatchFn<LEMMATIZED, D> {
    const NAME: &'static str = D::NAME;
    const DOC: FunctionDoc = D::DOC;
    const OUTPUT: Output = || DataType::Struct(term_match_fields(LEMMATIZED));

    fn invoke(args: &ScalarFunctionArgs) -> Result<ColumnarValue> {
        let name = Self::NAME;
        let cols = TermArgs::new(name, LEMMATIZED, &args.args)?;
        let single = cols.is_scalar();
        let vals = cols.rows(name, if single { 1 } else { args.number_rows })?;
        counts_to_value(&vals, LEMMATIZED, single)
    }
}

/// The `term_match` scalar UDF.
pub type TermMatchUdf = Scalar<TermMatchFn<false, TermMatchDoc>>;

crate::udf::documented!(TermMatchDoc, "term_match");

/// The documentation of `term_match`.
pub const DOC: FunctionDoc = FunctionDoc {
    description: "Terminology match counts of one prediction, exact variant (CBS `match_accuracy`, \
                  `maximally_match`). `dropped` marks an empty or whitespace-only prediction, which matches \
                  nothing and which the corpus accuracy leaves out of its denominator. A NULL hypothesis, \
                  term list or term gives NULL; NULL alternatives are skipped.",
    arguments: &[ARG_HYP, ARG_TERMS],
    example: "SELECT term_match('the red cat', [['red', 'crimson'], ['dog']]);",
    related: &["corpus_term_accuracy", "term_match_lemmatized"],
};
