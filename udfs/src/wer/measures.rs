//! `wer`, `mer`, `wil`, `wip (hyp, ref [, options]) -> Float64`: one
//! sentence's measure, as jiwer 4.0.0's function of the same name on that
//! sentence (with `unit:char`, `wer` is jiwer's `cer`).

use datafusion::common::Result;
use datafusion::logical_expr::{ColumnarValue, ReturnFieldArgs, ScalarFunctionArgs};
use mteval_kernels::wer::metric::Measure;

use super::eval::{RELATED, eval_wer, plan_wer};
use crate::common::float64_value;
use crate::udf::{ARG_HYP, ARG_OPTIONS, ARG_REF, FunctionDoc, Scalar, ScalarSpec};

fn measure(name: &str, args: &ScalarFunctionArgs, m: Measure) -> Result<ColumnarValue> {
    let (vals, single) = eval_wer(name, args, |cfg, h, r| Ok(cfg.best(h, r).map(|(_, c)| m.of(&c.scores()))))?;
    Ok(float64_value(vals, single))
}

macro_rules! measure_fn {
    ($spec:ident, $udf:ident, $name:literal, $measure:expr, $what:literal, $example:literal) => {
        #[doc = concat!("The `", $name, "` scalar function.")]
        #[derive(Debug)]
        pub struct $spec;

        #[doc = concat!("The `", $name, "` scalar UDF.")]
        pub type $udf = Scalar<$spec>;

        impl ScalarSpec for $spec {
            const NAME: &'static str = $name;
            const DOC: FunctionDoc = FunctionDoc {
                description: concat!(
                    $what,
                    " of one sentence, exactly as jiwer 4.0.0's `",
                    $name,
                    "(reference, hypothesis)` (note the argument order: hypothesis first, as every mteval \
                     function). Options `unit:word|char`, `transform:default|standardize`. With a list of \
                     references, the reference with the fewest errors (the first on ties). NULL in gives NULL out."
                ),
                syntax: concat!($name, "(hyp: str, ref: str | list<str>, options?: str) -> float64"),
                arguments: &[ARG_HYP, ARG_REF, ARG_OPTIONS],
                example: $example,
                related: RELATED,
            };


            fn check(args: &ReturnFieldArgs<'_>) -> Result<()> {
                plan_wer(Self::NAME, args).map(drop)
            }

            fn invoke(args: &ScalarFunctionArgs) -> Result<ColumnarValue> {
                measure(Self::NAME, args, $measure)
            }
        }
    };
}

measure_fn!(
    WerFn,
    WerUdf,
    "wer",
    Measure::Wer,
    "Word error rate (S+D+I)/N, or the character error rate with `unit:char`,",
    "SELECT wer('the cat sat', 'the cat sat down'), wer(hyp, ref, 'unit:char') AS cer FROM t;"
);
measure_fn!(MerFn, MerUdf, "mer", Measure::Mer, "Match error rate (S+D+I)/(N+I)", "SELECT mer(hyp, ref) FROM t;");
measure_fn!(
    WilFn,
    WilUdf,
    "wil",
    Measure::Wil,
    "Word information lost 1 − (H/N)·(H/P)",
    "SELECT wil(hyp, ref, 'transform:standardize') FROM t;"
);
measure_fn!(
    WipFn,
    WipUdf,
    "wip",
    Measure::Wip,
    "Word information preserved (H/N)·(H/P)",
    "SELECT wip(hyp, ref) FROM t;"
);
