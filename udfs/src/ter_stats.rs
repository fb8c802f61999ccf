//! `ter_stats(hyp, ref [, options]) -> Struct{score, num_edits, num_shifts, ref_len}`.

use std::sync::Arc;

use datafusion::arrow::array::{ArrayRef, Float64Array, Int64Array, StructArray};
use datafusion::arrow::buffer::NullBuffer;
use datafusion::arrow::datatypes::{DataType, Field, FieldRef, Fields};
use datafusion::common::{Result, ScalarValue};
use datafusion::logical_expr::{ColumnarValue, ReturnFieldArgs, ScalarFunctionArgs, ScalarUDFImpl, Signature};

use crate::common::coerce_metric_args;
use crate::ter::{eval_ter_segments, plan_ter};

/// The struct fields of `ter_stats`.
pub fn ter_stats_fields() -> Fields {
    Fields::from(vec![
        Field::new("score", DataType::Float64, true),
        Field::new("num_edits", DataType::Int64, true),
        Field::new("num_shifts", DataType::Int64, true),
        Field::new("ref_len", DataType::Float64, true),
    ])
}

crate::udf_struct!(
    /// The `ter_stats` scalar UDF.
    TerStatsUdf
);

impl ScalarUDFImpl for TerStatsUdf {
    fn name(&self) -> &'static str {
        "ter_stats"
    }

    fn signature(&self) -> &Signature {
        &self.signature
    }

    fn coerce_types(&self, arg_types: &[DataType]) -> Result<Vec<DataType>> {
        coerce_metric_args(self.name(), arg_types)
    }

    fn return_type(&self, _arg_types: &[DataType]) -> Result<DataType> {
        Ok(DataType::Struct(ter_stats_fields()))
    }

    fn return_field_from_args(&self, args: ReturnFieldArgs) -> Result<FieldRef> {
        plan_ter(self.name(), &args)?;
        Ok(Arc::new(Field::new(self.name(), DataType::Struct(ter_stats_fields()), true)))
    }

    fn invoke_with_args(&self, args: ScalarFunctionArgs) -> Result<ColumnarValue> {
        let (vals, single) = eval_ter_segments(self.name(), &args, |ter, s| {
            (ter.sentence_score(s), i64::from(s.num_edits), i64::from(s.num_shifts), s.ref_len)
        })?;
        let nulls = NullBuffer::from(vals.iter().map(Option::is_some).collect::<Vec<bool>>());
        let cols: Vec<ArrayRef> = vec![
            Arc::new(Float64Array::from(vals.iter().map(|v| v.map(|x| x.0)).collect::<Vec<_>>())),
            Arc::new(Int64Array::from(vals.iter().map(|v| v.map(|x| x.1)).collect::<Vec<_>>())),
            Arc::new(Int64Array::from(vals.iter().map(|v| v.map(|x| x.2)).collect::<Vec<_>>())),
            Arc::new(Float64Array::from(vals.iter().map(|v| v.map(|x| x.3)).collect::<Vec<_>>())),
        ];
        let arr = StructArray::try_new(ter_stats_fields(), cols, Some(nulls))?;
        if single {
            return Ok(ColumnarValue::Scalar(ScalarValue::Struct(Arc::new(arr))));
        }
        Ok(ColumnarValue::Array(Arc::new(arr)))
    }
}
