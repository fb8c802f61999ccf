//! `wer_stats(hyp, ref [, options]) -> Struct{hits, substitutions, deletions,
//! insertions}`: the counts of jiwer 4.0.0's alignment of one sentence.

use std::sync::Arc;

use datafusion::arrow::array::{ArrayRef, Int64Array, StructArray};
use datafusion::arrow::buffer::NullBuffer;
use datafusion::arrow::datatypes::{DataType, Field, Fields};
use datafusion::common::Result;
use datafusion::logical_expr::{ColumnarValue, ReturnFieldArgs, ScalarFunctionArgs};

use super::eval::{RELATED, eval_wer, plan_wer};
use crate::common::struct_value;
use crate::udf::{ARG_HYP, ARG_OPTIONS, ARG_REF, FunctionDoc, Output, Scalar, ScalarSpec};

/// The counts, in jiwer's names, as `int64`.
pub(super) const COUNTS: [&str; 4] = ["hits", "substitutions", "deletions", "insertions"];

/// The struct fields of `wer_stats`.
#[must_use]
pub fn wer_stats_fields() -> Fields {
    COUNTS.iter().map(|n| Field::new(*n, DataType::Int64, true)).collect()
}

/// A count as `int64` (counts of one row stay far below its range).
pub(super) fn int(x: u64) -> i64 {
    i64::try_from(x).unwrap_or(i64::MAX)
}

/// The `wer_stats` scalar function.
#[derive(Debug)]
pub struct WerStatsFn;

/// The `wer_stats` scalar UDF.
pub type WerStatsUdf = Scalar<WerStatsFn>;

impl ScalarSpec for WerStatsFn {
    const NAME: &'static str = "wer_stats";
    const DOC: FunctionDoc = FunctionDoc {
        description: "The hits, substitutions, deletions and insertions of one sentence, exactly as jiwer 4.0.0's \
                      `process_words` (or `process_characters` with `unit:char`) counts them from rapidfuzz's \
                      alignment; what `corpus_wer` sums. With a list of references, the counts against the one \
                      with the fewest errors (the first on ties).",
        syntax: "wer_stats(hyp, ref, options?) -> struct{hits: int64, substitutions: int64, deletions: int64, \
                 insertions: int64}",
        arguments: &[ARG_HYP, ARG_REF, ARG_OPTIONS],
        example: "SELECT wer_stats(hyp, ref).substitutions FROM t;",
        related: RELATED,
    };

    const OUTPUT: Output = || DataType::Struct(wer_stats_fields());

    fn check(args: &ReturnFieldArgs<'_>) -> Result<()> {
        plan_wer(Self::NAME, args).map(drop)
    }

    fn invoke(args: &ScalarFunctionArgs) -> Result<ColumnarValue> {
        let (vals, single) = eval_wer(Self::NAME, args, |cfg, h, r| {
            Ok(cfg.best(h, r).map(|(_, c)| [c.hits, c.substitutions, c.deletions, c.insertions]))
        })?;
        let nulls = NullBuffer::from(vals.iter().map(Option::is_some).collect::<Vec<bool>>());
        let cols: Vec<ArrayRef> = (0..COUNTS.len())
            .map(|k| {
                Arc::new(Int64Array::from(vals.iter().map(|v| v.map(|c| int(c[k]))).collect::<Vec<_>>())) as ArrayRef
            })
            .collect();
        Ok(struct_value(StructArray::try_new(wer_stats_fields(), cols, Some(nulls))?, single))
    }
}
