//! `charac_ter(hyp, ref [, options]) -> Float64`: sentence `CharacTER` in
//! [0, 1] (cer's scale). `ref` is a string or a list of strings (the lowest
//! score over the references). Options: `compat:original|cer`, `fuzzy:T`.
//! (`character` is an SQL keyword, hence the underscore.)
//!
//! The family's other functions: `corpus_charac_ter`, and the edit
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
use datafusion::logical_expr::{ColumnarValue, ReturnFieldArgs, ScalarFunctionArgs};
use mteval_kernels::CharacTerConfig;
use mteval_kernels::backend::Backend;

use crate::common::{
    RefsCol, StrCol, coerce_two_strings, eval_rows, eval_rows_on, exec_parse, float64_value, plan_parse,
    session_backend,
};
use crate::udf::{ARG_HYP, ARG_OPTIONS, ARG_REF, Coerce, FunctionDoc, Output, Scalar, ScalarSpec};

/// The `charac_ter` scalar function.
#[derive(Debug)]
pub struct CharacTerFn;

/// The `charac_ter` scalar UDF.
pub type CharacTerUdf = Scalar<CharacTerFn>;

impl ScalarSpec for CharacTerFn {
    const NAME: &'static str = "charac_ter";
    const DOC: FunctionDoc = FunctionDoc {
        description: "Sentence CharacTER in [0, 1] (cer 1.2.0's scale): character edit distance after word \
                      shifts, over the hypothesis length. With a list of references, the lowest score. \
                      (`character` is an SQL keyword, hence the underscore.) NULL in gives NULL out. Not \
                      jiwer's character error rate (CER): did you mean char_error_rate?",
        syntax: "charac_ter(hyp: str, ref: str | list<str>, options?: str) -> float64",
        arguments: &[ARG_HYP, ARG_REF, ARG_OPTIONS],
        example: "SELECT charac_ter('the cat sat', 'the cat sat down');",
        related: &["corpus_charac_ter", "edit_distance", "word_edit_distance", "mteval_signature"],
    };

    fn check(args: &ReturnFieldArgs<'_>) -> Result<()> {
        plan_parse(Self::NAME, args, 2, CharacTerConfig::parse).map(drop)
    }

    fn invoke(args: &ScalarFunctionArgs) -> Result<ColumnarValue> {
        let name = Self::NAME;
        let cfg = exec_parse(name, &args.args, 2, CharacTerConfig::parse)?;
        let hyp = StrCol::new(name, &args.args[0])?;
        let refs = RefsCol::new(name, &args.args[1])?;
        let (vals, single) =
            eval_rows(name, &hyp, &refs, args.number_rows, |h, r| cfg.sentence_multi(h, r.iter().copied()))?;
        Ok(float64_value(vals, single))
    }
}

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
    const COERCE: Coerce = coerce_two_strings;
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
