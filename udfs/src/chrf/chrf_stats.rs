//! `chrf_stats(hyp, ref [, options]) -> Struct{score, best_ref, stats}`:
//! the sentence score, the index of the chosen reference (0-based, first on
//! ties) and the flat per-order statistics `[hyp, ref, match]` for character
//! orders 1..nc then word orders 1..nw, exactly the vector sacrebleu sums for
//! its corpus score.

use std::sync::Arc;

use datafusion::arrow::array::{ArrayRef, Float64Array, Int64Array, Int64Builder, ListBuilder, StructArray};
use datafusion::arrow::buffer::NullBuffer;
use datafusion::arrow::datatypes::{DataType, Fields};
use datafusion::common::Result;
use datafusion::logical_expr::{ColumnarValue, ReturnFieldArgs, ScalarFunctionArgs};

use crate::chrf::{eval_chrf_segments, plan_chrf};
use crate::common::{RefsCol, list_of, struct_fields, struct_value};
use crate::udf::{ARG_HYP, ARG_OPTIONS, ARG_REF, FunctionDoc, Output, Scalar, ScalarSpec};

/// The struct fields of `chrf_stats`.
#[must_use]
pub fn chrf_stats_fields() -> Fields {
    use DataType::{Float64 as F, Int64 as I};
    struct_fields(true, &[("score", F), ("best_ref", I), ("stats", list_of(I, true))])
}

/// The `chrf_stats` scalar function.
#[derive(Debug)]
pub struct ChrfStatsFn;

/// The `chrf_stats` scalar UDF.
pub type ChrfStatsUdf = Scalar<ChrfStatsFn>;

impl ScalarSpec for ChrfStatsFn {
    const NAME: &'static str = "chrf_stats";
    const DOC: FunctionDoc = FunctionDoc {
        description: "Sentence chrF with its statistics: the score, `best_ref` (the chosen reference's 0-based \
                      position in the list as given, NULL elements counted) and `stats`, `[hyp, ref, match]` per \
                      order, character orders 1..nc then word orders 1..nw: what sacrebleu sums for its corpus \
                      score.",
        syntax: "chrf_stats(hyp, ref, options?) -> struct{score: float64, best_ref: int64, stats: list<int64>}",
        arguments: &[ARG_HYP, ARG_REF, ARG_OPTIONS],
        example: "SELECT chrf_stats(hyp, [ref1, ref2]).best_ref FROM t;",
        related: &["chrf", "corpus_chrf"],
    };

    const OUTPUT: Output = || DataType::Struct(chrf_stats_fields());

    fn check(args: &ReturnFieldArgs<'_>) -> Result<()> {
        plan_chrf(Self::NAME, args).map(drop)
    }

    #[allow(clippy::cast_possible_wrap, reason = "n-gram counts and reference positions are far below 2^63")]
    fn invoke(args: &ScalarFunctionArgs) -> Result<ColumnarValue> {
        let (vals, single) = eval_chrf_segments(Self::NAME, args, |c, s| (c.score(&s.stats), s))?;
        // The chosen reference's position in the list as given, NULLs
        // included (the kernels see the non-NULL references only).
        let refs = RefsCol::new(Self::NAME, &args.args[1])?;
        let nulls = NullBuffer::from(vals.iter().map(Option::is_some).collect::<Vec<bool>>());
        let mut stats = ListBuilder::new(Int64Builder::new());
        for v in &vals {
            match v {
                Some((_, s)) => {
                    stats.values().append_slice(&s.stats.iter().map(|&x| x as i64).collect::<Vec<_>>());
                    stats.append(true);
                }
                None => stats.append(false),
            }
        }
        let cols: Vec<ArrayRef> = vec![
            Arc::new(Float64Array::from(vals.iter().map(|v| v.as_ref().map(|x| x.0)).collect::<Vec<_>>())),
            Arc::new(Int64Array::from(
                vals.iter()
                    .enumerate()
                    .map(|(i, v)| v.as_ref().map(|x| refs.list_position(i, x.1.best_ref) as i64))
                    .collect::<Vec<_>>(),
            )),
            Arc::new(stats.finish()),
        ];
        Ok(struct_value(StructArray::try_new(chrf_stats_fields(), cols, Some(nulls))?, single))
    }
}
