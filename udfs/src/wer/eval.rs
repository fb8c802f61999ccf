//! What the WER family's functions share: their options, parsed at plan
//! time and when a batch runs, and the evaluation of a row.

use datafusion::common::Result;
use datafusion::logical_expr::{ReturnFieldArgs, ScalarFunctionArgs};
use mteval_kernels::{MetricError, WerConfig};

use crate::common::{RefsCol, StrCol, eval_rows, exec_parse, plan_parse};

/// Validates the options literal at plan time.
pub(super) fn plan_wer(name: &str, args: &ReturnFieldArgs<'_>) -> Result<WerConfig> {
    plan_parse(name, args, 2, WerConfig::parse)
}

/// Evaluates `f(config, hyp, refs)` over the rows of a call
/// `(hyp, ref [, options])`; see [`eval_rows`].
pub(super) fn eval_wer<T, F>(name: &str, args: &ScalarFunctionArgs, f: F) -> Result<(Vec<Option<T>>, bool)>
where
    T: Send,
    F: Fn(&WerConfig, &str, &[&str]) -> Result<Option<T>, MetricError> + Sync,
{
    let cfg = exec_parse(name, &args.args, 2, WerConfig::parse)?;
    let hyp = StrCol::new(name, &args.args[0])?;
    let refs = RefsCol::new(name, &args.args[1])?;
    eval_rows(name, &hyp, &refs, args.number_rows, |h, r| f(&cfg, h, r))
}

/// Related functions named in each function's documentation.
pub(super) const RELATED: &[&str] = &["wer", "mer", "wil", "wip", "wer_stats", "corpus_wer", "wer_alignment"];
