//! TER's special SQL functions: `ter_alignment` (the edit operations of
//! sacrebleu's alignment) and `ter_tokenize`, with the option parsing they
//! share. (`ter`, `ter_stats` and `corpus_ter` are the metric table's
//! standard functions, `metric_table::standard`.)

pub mod ter_alignment;
pub mod ter_tokenize;

use datafusion::common::Result;
use datafusion::logical_expr::{ColumnarValue, ReturnFieldArgs, ScalarFunctionArgs};
use mteval_kernels::{MetricError, Ter};

use crate::common::{RefsCol, StrCol, eval_rows, exec_parse, plan_parse};

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
