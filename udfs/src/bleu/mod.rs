//! `bleu(hyp, ref [, options]) -> Float64`: sentence BLEU on sacrebleu's
//! scale (0–100), as sacrebleu's recommended sentence BLEU,
//! `BLEU(effective_order=True).sentence_score`: effective order is on unless
//! the options say `eff:no`. `ref` is a string or a list of strings
//! (multi-reference BLEU: clipped counts against every reference).

pub mod bleu_stats;
pub mod compute_bleu;
pub mod corpus_bleu;

use datafusion::common::Result;
use datafusion::logical_expr::{ColumnarValue, ReturnFieldArgs, ScalarFunctionArgs};
use mteval_kernels::{BleuConfig, MetricError};

use crate::common::{RefsCol, StrCol, eval_rows, exec_parse, float64_value, plan_parse};
use crate::udf::{ARG_HYP, ARG_OPTIONS, ARG_REF, FunctionDoc, Scalar, ScalarSpec};

/// Sentence-level options: sacrebleu's `BLEU(effective_order=True)` with `opts` on top.
pub(crate) fn parse_sentence(opts: &str) -> std::result::Result<BleuConfig, MetricError> {
    BleuConfig::parse_with(BleuConfig::sentence(), opts)
}

/// Evaluates `f(cfg, stats)` for every row with the segment statistics.
pub(crate) fn eval_bleu_segments<T, F>(name: &str, args: &ScalarFunctionArgs, f: F) -> Result<(Vec<Option<T>>, bool)>
where
    T: Send,
    F: Fn(&BleuConfig, Vec<u64>) -> T + Sync,
{
    let cfg = exec_parse(name, &args.args, 2, parse_sentence)?;
    let hyp = StrCol::new(name, &args.args[0])?;
    let refs = RefsCol::new(name, &args.args[1])?;
    eval_rows(name, &hyp, &refs, args.number_rows, |h, r| Ok(cfg.segment(h, r).map(|s| f(&cfg, s))))
}

/// Validates the options literal at plan time.
pub(crate) fn plan_bleu(name: &str, args: &ReturnFieldArgs<'_>) -> Result<BleuConfig> {
    plan_parse(name, args, 2, parse_sentence)
}

/// The `bleu` scalar function.
#[derive(Debug)]
pub struct BleuFn;

/// The `bleu` scalar UDF.
pub type BleuUdf = Scalar<BleuFn>;

impl ScalarSpec for BleuFn {
    const NAME: &'static str = "bleu";
    const DOC: FunctionDoc = FunctionDoc {
        description: "Sentence BLEU on a 0–100 scale, exactly as sacrebleu 2.6.0's recommended sentence BLEU, \
                      `BLEU(effective_order=True).sentence_score` (`eff:no` turns effective order off). With a \
                      list of references, n-gram counts are clipped against each and the closest reference length \
                      is used. NULL in gives NULL out.",
        syntax: "bleu(hyp: str, ref: str | list<str>, options?: str) -> float64",
        arguments: &[ARG_HYP, ARG_REF, ARG_OPTIONS],
        example: "SELECT bleu(hyp, ref, 'tok:intl') AS bleu FROM t;",
        related: &["bleu_stats", "corpus_bleu", "mteval_signature"],
    };

    fn check(args: &ReturnFieldArgs<'_>) -> Result<()> {
        plan_bleu(Self::NAME, args).map(drop)
    }

    fn invoke(args: &ScalarFunctionArgs) -> Result<ColumnarValue> {
        let (vals, single) = eval_bleu_segments(Self::NAME, args, |c, s| c.score(&s))?;
        Ok(float64_value(vals, single))
    }
}
