//! `bleu_stats(hyp, ref [, options]) -> Struct{score, stats}`: sentence BLEU
//! (as `bleu`) with its statistics `[hyp_len, ref_len, correct × N,
//! total × N]`, exactly the vector sacrebleu sums for its corpus score (and
//! resamples in its significance tests).

use std::sync::Arc;

use datafusion::arrow::array::{ArrayRef, Float64Array, Int64Builder, ListBuilder, StructArray};
use datafusion::arrow::buffer::NullBuffer;
use datafusion::arrow::datatypes::{DataType, Fields};
use datafusion::common::Result;
use datafusion::logical_expr::{ColumnarValue, ReturnFieldArgs, ScalarFunctionArgs};

use crate::bleu::{eval_bleu_segments, plan_bleu};
use crate::common::{list_of, struct_fields, struct_value};
use crate::udf::{ARG_HYP, ARG_OPTIONS, ARG_REF, FunctionDoc, Output, Scalar, ScalarSpec};

/// The struct fields of `bleu_stats`.
#[must_use]
pub fn bleu_stats_fields() -> Fields {
    use DataType::{Float64 as F, Int64 as I};
    struct_fields(true, &[("score", F), ("stats", list_of(I, true))])
}

/// The `bleu_stats` scalar function.
#[derive(Debug)]
pub struct BleuStatsFn;

/// The `bleu_stats` scalar UDF.
pub type BleuStatsUdf = Scalar<BleuStatsFn>;

impl ScalarSpec for BleuStatsFn {
    const NAME: &'static str = "bleu_stats";
    const DOC: FunctionDoc = FunctionDoc {
        description: "Sentence BLEU with its statistics: the score (as `bleu`) and `stats`, `[hyp_len, ref_len, \
                      correct × N, total × N]` (N = `ngram`, 4 by default; `ref_len` the closest reference \
                      length): what sacrebleu sums for its corpus score and resamples in its significance tests.",
        syntax: "bleu_stats(hyp, ref, options?) -> struct{score: float64, stats: list<int64>}",
        arguments: &[ARG_HYP, ARG_REF, ARG_OPTIONS],
        example: "SELECT bleu_stats(hyp, ref).stats FROM t;",
        related: &["bleu", "corpus_bleu", "corpus_bootstrap"],
    };

    const OUTPUT: Output = || DataType::Struct(bleu_stats_fields());

    fn check(args: &ReturnFieldArgs<'_>) -> Result<()> {
        plan_bleu(Self::NAME, args).map(drop)
    }

    #[allow(clippy::cast_possible_wrap, reason = "n-gram counts are far below 2^63")]
    fn invoke(args: &ScalarFunctionArgs) -> Result<ColumnarValue> {
        let (vals, single) = eval_bleu_segments(Self::NAME, args, |c, s| (c.score(&s), s))?;
        let nulls = NullBuffer::from(vals.iter().map(Option::is_some).collect::<Vec<bool>>());
        let mut stats = ListBuilder::new(Int64Builder::new());
        for v in &vals {
            match v {
                Some((_, s)) => {
                    stats.values().append_slice(&s.iter().map(|&x| x as i64).collect::<Vec<_>>());
                    stats.append(true);
                }
                None => stats.append(false),
            }
        }
        let cols: Vec<ArrayRef> = vec![
            Arc::new(Float64Array::from(vals.iter().map(|v| v.as_ref().map(|x| x.0)).collect::<Vec<_>>())),
            Arc::new(stats.finish()),
        ];
        Ok(struct_value(StructArray::try_new(bleu_stats_fields(), cols, Some(nulls))?, single))
    }
}
