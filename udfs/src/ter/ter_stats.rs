//! `ter_stats(hyp, ref [, options]) -> Struct{score, num_edits, num_shifts, ref_len}`.

use std::sync::Arc;

use datafusion::arrow::array::{ArrayRef, Float64Array, Int64Array, StructArray};
use datafusion::arrow::buffer::NullBuffer;
use datafusion::arrow::datatypes::{DataType, Fields};
use datafusion::common::Result;
use datafusion::logical_expr::{ColumnarValue, ReturnFieldArgs, ScalarFunctionArgs};

use crate::common::{struct_fields, struct_value};
use crate::ter::{eval_ter_segments, plan_ter};
use crate::udf::{ARG_HYP, ARG_OPTIONS, ARG_REF, FunctionDoc, Output, Scalar, ScalarSpec};

/// The struct fields of `ter_stats`.
#[must_use]
pub fn ter_stats_fields() -> Fields {
    use DataType::{Float64 as F, Int64 as I};
    struct_fields(true, &[("score", F), ("num_edits", I), ("num_shifts", I), ("ref_len", F)])
}

/// The `ter_stats` scalar function.
#[derive(Debug)]
pub struct TerStatsFn;

/// The `ter_stats` scalar UDF.
pub type TerStatsUdf = Scalar<TerStatsFn>;

impl ScalarSpec for TerStatsFn {
    const NAME: &'static str = "ter_stats";
    const DOC: FunctionDoc = FunctionDoc {
        description: "Sentence TER with its statistics: the score, the edits, the shifts among them and the \
                      average reference length (`ref_len`), what `corpus_ter` sums.",
        syntax: "ter_stats(hyp, ref, options?) -> struct{score: float64, num_edits: int64, num_shifts: int64, \
                 ref_len: float64}",
        arguments: &[ARG_HYP, ARG_REF, ARG_OPTIONS],
        example: "SELECT ter_stats(hyp, ref).num_edits FROM t;",
        related: &["ter", "corpus_ter", "ter_alignment"],
    };

    const OUTPUT: Output = || DataType::Struct(ter_stats_fields());

    fn check(args: &ReturnFieldArgs<'_>) -> Result<()> {
        plan_ter(Self::NAME, args).map(drop)
    }

    fn invoke(args: &ScalarFunctionArgs) -> Result<ColumnarValue> {
        let (vals, single) = eval_ter_segments(Self::NAME, args, |ter, s| {
            (ter.sentence_score(s), i64::from(s.num_edits), i64::from(s.num_shifts), s.ref_len)
        })?;
        let nulls = NullBuffer::from(vals.iter().map(Option::is_some).collect::<Vec<bool>>());
        let cols: Vec<ArrayRef> = vec![
            Arc::new(Float64Array::from(vals.iter().map(|v| v.map(|x| x.0)).collect::<Vec<_>>())),
            Arc::new(Int64Array::from(vals.iter().map(|v| v.map(|x| x.1)).collect::<Vec<_>>())),
            Arc::new(Int64Array::from(vals.iter().map(|v| v.map(|x| x.2)).collect::<Vec<_>>())),
            Arc::new(Float64Array::from(vals.iter().map(|v| v.map(|x| x.3)).collect::<Vec<_>>())),
        ];
        Ok(struct_value(StructArray::try_new(ter_stats_fields(), cols, Some(nulls))?, single))
    }
}
