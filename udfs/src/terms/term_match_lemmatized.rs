//! `term_match_lemmatized(hyp, lemmas, terms) -> Struct{matched, exact,
//! total, dropped}`: terminology match counts with the lemmatized variant
//! (CBS `match_accuracy`, `count_matches`): `matched` counts terms found in
//! the prediction or in its lemmas (raised to `exact` when lower, as the
//! reference does), `exact` the surface-only count.
//!
//! `lemmas` is `List<Struct{lemma: Utf8, start: Int64, end: Int64}>`: the
//! prediction's words in order (one per whitespace token, as stanza's
//! pretokenized mode or spaCy give them), each with its lemma (NULL = the
//! surface word) and its `[start, end)` offsets in code points. Any integer
//! type works for the offsets; field order does not matter. Inputs the
//! reference rejects (its lemma-mapping assertions, e.g. a trailing run of
//! spaces or a space before a tab) are errors naming the row.

use datafusion::arrow::datatypes::{DataType, Fields};
use datafusion::common::Result;
use datafusion::logical_expr::{ColumnarValue, ScalarFunctionArgs};
use mteval_kernels::terms::{TermCounts, count_matches};

use crate::common::{StrCol, check_arity, coerce_string, map_rows, struct_fields};
use crate::terms::term_cols::{LemmasCol, TermsCol, coerce_lemmas, coerce_terms};
use crate::terms::term_match::{ARG_TERMS, counts_to_value};
use crate::udf::{ARG_HYP, Coerce, FunctionDoc, Output, Scalar, ScalarSpec};

/// The argument `lemmas` of the lemmatized terminology functions.
pub const ARG_LEMMAS: (&str, &str) = (
    "lemmas",
    "The prediction's words in order: `list<struct{lemma: str, start: int, end: int}>`, one per whitespace token, \
     each with its lemma (NULL: the surface word) and its `[start, end)` offsets in code points.",
);

/// Fields of the `term_match_lemmatized` result.
#[must_use]
pub fn term_match_lemmatized_fields() -> Fields {
    use DataType::{Boolean, Int64 as I};
    struct_fields(false, &[("matched", I), ("exact", I), ("total", I), ("dropped", Boolean)])
}

/// Coercion of `(hyp, lemmas, terms)`.
pub(crate) fn coerce_lemmatized_args(name: &str, t: &[DataType]) -> Result<Vec<DataType>> {
    check_arity(name, t, 3..=3, "(hyp, lemmas, terms)")?;
    Ok(vec![coerce_string(name, "the hypothesis", &t[0])?, coerce_lemmas(name, &t[1])?, coerce_terms(name, &t[2])?])
}

/// Exact and lemmatized term counts of rows `0..n` (NULL inputs → `None`).
///
/// # Errors
/// The reference's lemma-mapping assertions and bad lemma structs, naming the row.
pub fn lemmatized_rows(
    name: &str,
    hyp: &StrCol<'_>,
    lemmas: &LemmasCol<'_>,
    terms: &TermsCol<'_>,
    n: usize,
) -> Result<Vec<Option<TermCounts>>> {
    map_rows(name, n, |i| {
        let (mut t, mut l) = (Vec::new(), Vec::new());
        let Some(h) = hyp.get(i) else { return Ok(None) };
        if !terms.get(i, &mut t) || !lemmas.get(i, &mut l)? {
            return Ok(None);
        }
        count_matches(h, &l, &t).map(Some)
    })
}

/// The `term_match_lemmatized` scalar function.
#[derive(Debug)]
pub struct TermMatchLemmatizedFn;

/// The `term_match_lemmatized` scalar UDF.
pub type TermMatchLemmatizedUdf = Scalar<TermMatchLemmatizedFn>;

impl ScalarSpec for TermMatchLemmatizedFn {
    const NAME: &'static str = "term_match_lemmatized";
    const DOC: FunctionDoc = FunctionDoc {
        description: "Terminology match counts with the lemmatized variant (CBS `count_matches`): `matched` counts \
                      terms found in the prediction or in its lemmas (raised to `exact` when lower, as the \
                      reference does), `exact` the surface-only count. Inputs the reference rejects (its \
                      lemma-mapping assertions) are errors naming the row.",
        syntax: "term_match_lemmatized(hyp, lemmas, terms) -> struct{matched, exact, total: int64, dropped: bool}",
        arguments: &[ARG_HYP, ARG_LEMMAS, ARG_TERMS],
        example: "SELECT term_match_lemmatized(hyp, lemmas, terms) FROM t;",
        related: &["corpus_term_accuracy_lemmatized", "term_match"],
    };

    const COERCE: Coerce = coerce_lemmatized_args;

    const OUTPUT: Output = || DataType::Struct(term_match_lemmatized_fields());

    fn invoke(args: &ScalarFunctionArgs) -> Result<ColumnarValue> {
        let name = Self::NAME;
        let hyp = StrCol::new(name, &args.args[0])?;
        let lemmas = LemmasCol::new(name, &args.args[1])?;
        let terms = TermsCol::new(name, &args.args[2])?;
        let single = hyp.is_scalar() && lemmas.is_scalar() && terms.is_scalar();
        let n = if single { 1 } else { args.number_rows };
        let vals = lemmatized_rows(name, &hyp, &lemmas, &terms, n)?;
        counts_to_value(term_match_lemmatized_fields(), &vals, |c| c.lemmatized, true, single)
    }
}
