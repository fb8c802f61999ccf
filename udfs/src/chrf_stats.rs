//! `chrf_stats(hyp, ref [, options]) -> Struct{score, best_ref, stats}`:
//! the sentence score, the index of the chosen reference (0-based, first on
//! ties) and the flat per-order statistics `[hyp, ref, match]` for character
//! orders 1..nc then word orders 1..nw, exactly the vector sacrebleu sums for
//! its corpus score.

use std::sync::Arc;

use datafusion::arrow::array::{ArrayRef, Float64Array, Int64Array, Int64Builder, ListBuilder, StructArray};
use datafusion::arrow::buffer::NullBuffer;
use datafusion::arrow::datatypes::{DataType, Field, FieldRef, Fields};
use datafusion::common::{Result, ScalarValue};
use datafusion::logical_expr::{ColumnarValue, ReturnFieldArgs, ScalarFunctionArgs, ScalarUDFImpl, Signature};

use crate::chrf::{eval_chrf_segments, plan_chrf};
use crate::common::RefsCol;
use crate::common::coerce_metric_args;

/// The struct fields of `chrf_stats`.
pub fn chrf_stats_fields() -> Fields {
    Fields::from(vec![
        Field::new("score", DataType::Float64, true),
        Field::new("best_ref", DataType::Int64, true),
        Field::new("stats", DataType::List(Arc::new(Field::new_list_field(DataType::Int64, true))), true),
    ])
}

crate::udf_struct!(
    /// The `chrf_stats` scalar UDF.
    ChrfStatsUdf
);

impl ScalarUDFImpl for ChrfStatsUdf {
    fn name(&self) -> &'static str {
        "chrf_stats"
    }

    fn signature(&self) -> &Signature {
        &self.signature
    }

    fn coerce_types(&self, arg_types: &[DataType]) -> Result<Vec<DataType>> {
        coerce_metric_args(self.name(), arg_types)
    }

    fn return_type(&self, _arg_types: &[DataType]) -> Result<DataType> {
        Ok(DataType::Struct(chrf_stats_fields()))
    }

    fn return_field_from_args(&self, args: ReturnFieldArgs) -> Result<FieldRef> {
        plan_chrf(self.name(), &args)?;
        Ok(Arc::new(Field::new(self.name(), DataType::Struct(chrf_stats_fields()), true)))
    }

    #[allow(clippy::cast_possible_wrap)]
    fn invoke_with_args(&self, args: ScalarFunctionArgs) -> Result<ColumnarValue> {
        let (vals, single) = eval_chrf_segments(self.name(), &args, |c, s| (c.score(&s.stats), s))?;
        // The chosen reference's position in the list as given, NULLs
        // included (the kernels see the non-NULL references only).
        let refs = RefsCol::new(self.name(), &args.args[1])?;
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
        let arr = StructArray::try_new(chrf_stats_fields(), cols, Some(nulls))?;
        if single {
            return Ok(ColumnarValue::Scalar(ScalarValue::Struct(Arc::new(arr))));
        }
        Ok(ColumnarValue::Array(Arc::new(arr)))
    }
}
