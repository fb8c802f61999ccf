//! `ter(hyp, ref [, options]) -> Float64`: sentence TER on sacrebleu's scale.

pub mod corpus_ter;
pub mod ter_alignment;
pub mod ter_stats;
pub mod ter_tokenize;

use datafusion::common::Result;
use datafusion::logical_expr::{ColumnarValue, ReturnFieldArgs, ScalarFunctionArgs};
use mteval_kernels::{MetricError, Ter, TerSegment};

use crate::common::{RefsCol, StrCol, eval_args_on, eval_rows, exec_parse, float64_value, plan_parse};
use crate::udf::{ARG_HYP, ARG_OPTIONS, ARG_REF, FunctionDoc, Scalar, ScalarSpec};

/// Validates the options literal at plan time.
pub(crate) fn plan_ter(name: &str, args: &ReturnFieldArgs<'_>) -> Result<Ter> {
    plan_parse(name, args, 2, Ter::from_options)
}

/// Parses the options when executing.
pub(crate) fn exec_ter(name: &str, args: &[ColumnarValue]) -> Result<Ter> {
    exec_parse(name, args, 2, Ter::from_options)
}

/// Evaluates `f(ter, hyp, refs)` over the rows of a TER-shaped call
/// `(hyp, ref [, options])`; see [`eval_rows`].
pub(crate) fn eval_ter<T, F>(name: &str, args: &ScalarFunctionArgs, f: F) -> Result<(Vec<Option<T>>, bool)>
where
    T: Send,
    F: Fn(&Ter, &str, &[&str]) -> Result<Option<T>, MetricError> + Sync,
{
    let ter = exec_ter(name, &args.args)?;
    let hyp = StrCol::new(name, &args.args[0])?;
    let refs = RefsCol::new(name, &args.args[1])?;
    eval_rows(name, &hyp, &refs, args.number_rows, |h, r| f(&ter, h, r))
}

/// Evaluates `f(ter, segment)` for every row, with the segments computed on
/// the session's backend (all rows of the batch in one GPU batch per shift
/// round, or the CPU's row-parallel path).
pub(crate) fn eval_ter_segments<T, F>(name: &str, args: &ScalarFunctionArgs, f: F) -> Result<(Vec<Option<T>>, bool)>
where
    T: Send,
    F: Fn(&Ter, &TerSegment) -> T + Sync,
{
    let ter = exec_ter(name, &args.args)?;
    eval_args_on(
        name,
        args,
        |h, r| Ok(ter.segment(h, r)?.map(|s| f(&ter, &s))),
        |on, rows| ter.segments_on(on, rows).into_iter().map(|r| r.map(|o| o.map(|s| f(&ter, &s)))).collect(),
    )
}

/// The `ter` scalar function.
#[derive(Debug)]
pub struct TerFn;

/// The `ter` scalar UDF.
pub type TerUdf = Scalar<TerFn>;

impl ScalarSpec for TerFn {
    const NAME: &'static str = "ter";
    const DOC: FunctionDoc = FunctionDoc {
        description: "Sentence TER exactly as sacrebleu 2.6.0's `TER().sentence_score`: 100 × edits (with shifts) / \
                      average reference length, so it can exceed 100. With a list of references, the edits against \
                      the best one. NULL in gives NULL out.",
        syntax: "ter(hyp: str, ref: str | list<str>, options?: str) -> float64",
        arguments: &[ARG_HYP, ARG_REF, ARG_OPTIONS],
        example: "SELECT ter('the cat sat', 'the cat sat down', 'norm:yes');",
        related: &["ter_stats", "ter_alignment", "ter_tokenize", "corpus_ter", "mteval_signature"],
    };

    fn check(args: &ReturnFieldArgs<'_>) -> Result<()> {
        plan_ter(Self::NAME, args).map(drop)
    }

    fn invoke(args: &ScalarFunctionArgs) -> Result<ColumnarValue> {
        let (vals, single) = eval_ter_segments(Self::NAME, args, mteval_kernels::Ter::sentence_score)?;
        Ok(float64_value(vals, single))
    }
}
