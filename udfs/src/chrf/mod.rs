//! `chrf(hyp, ref [, options]) -> Float64`: sentence chrF / chrF++ on
//! sacrebleu's scale (0–100). `ref` is a string or a list of strings (best
//! reference per sentence); options use the signature's keys, e.g. `'nw:2'`
//! for chrF++ or `'nw:2|eff:no|case:lc'`.

pub mod chrf_stats;
pub mod corpus_chrf;
pub mod mbr_chrf;
pub mod mbr_chrf_aggregate;

use datafusion::common::Result;
use datafusion::logical_expr::{ColumnarValue, ReturnFieldArgs, ScalarFunctionArgs};
use mteval_kernels::{ChrfConfig, ChrfSegment};

use crate::common::{eval_args_on, exec_parse, float64_value, plan_parse};
use crate::udf::{ARG_HYP, ARG_OPTIONS, ARG_REF, FunctionDoc, Scalar, ScalarSpec};

/// Validates the options literal at plan time.
pub(crate) fn plan_chrf(name: &str, args: &ReturnFieldArgs<'_>) -> Result<ChrfConfig> {
    plan_parse(name, args, 2, ChrfConfig::parse)
}

/// Evaluates `f(cfg, segment)` for every row, with the segment statistics
/// counted on the session's backend.
pub(crate) fn eval_chrf_segments<T, F>(name: &str, args: &ScalarFunctionArgs, f: F) -> Result<(Vec<Option<T>>, bool)>
where
    T: Send,
    F: Fn(&ChrfConfig, ChrfSegment) -> T + Sync,
{
    let cfg = exec_parse(name, &args.args, 2, ChrfConfig::parse)?;
    eval_args_on(
        name,
        args,
        |h, r| Ok(cfg.segment(h, r).map(|s| f(&cfg, s))),
        |on, rows| cfg.segments_on(on, rows).into_iter().map(|s| Ok(s.map(|s| f(&cfg, s)))).collect(),
    )
}

/// The `chrf` scalar function.
#[derive(Debug)]
pub struct ChrfFn;

/// The `chrf` scalar UDF.
pub type ChrfUdf = Scalar<ChrfFn>;

impl ScalarSpec for ChrfFn {
    const NAME: &'static str = "chrf";
    const DOC: FunctionDoc = FunctionDoc {
        description: "Sentence chrF on a 0–100 scale, exactly as sacrebleu 2.6.0's `CHRF().sentence_score`; \
                      `'nw:2'` gives chrF++. With a list of references, the best one per sentence. NULL in gives \
                      NULL out.",
        syntax: "chrf(hyp: str, ref: str | list<str>, options?: str) -> float64",
        arguments: &[ARG_HYP, ARG_REF, ARG_OPTIONS],
        example: "SELECT chrf(hyp, ref, 'nw:2') AS chrfpp FROM t;",
        related: &["chrf_stats", "corpus_chrf", "mbr_chrf", "mteval_signature"],
    };

    fn check(args: &ReturnFieldArgs<'_>) -> Result<()> {
        plan_chrf(Self::NAME, args).map(drop)
    }

    fn invoke(args: &ScalarFunctionArgs) -> Result<ColumnarValue> {
        let (vals, single) = eval_chrf_segments(Self::NAME, args, |c, s| c.score(&s.stats))?;
        Ok(float64_value(vals, single))
    }
}
