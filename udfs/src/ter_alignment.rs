//! `ter_alignment(hyp, ref [, options]) -> Utf8`: the final tercom-style
//! alignment against the best reference: one label per alignment position,
//! `=` kept, `S` substituted, `I` inserted (extra hypothesis word), `D`
//! deleted (missing reference word), prefixed by `>` when the hypothesis word
//! was moved by a shift.

use std::sync::Arc;

use datafusion::arrow::array::StringArray;
use datafusion::arrow::datatypes::{DataType, Field, FieldRef};
use datafusion::common::{Result, ScalarValue};
use datafusion::logical_expr::{ColumnarValue, ReturnFieldArgs, ScalarFunctionArgs, ScalarUDFImpl, Signature};

use crate::common::coerce_metric_args;
use crate::ter::{eval_ter, plan_ter};

crate::udf_struct!(
    /// The `ter_alignment` scalar UDF.
    TerAlignmentUdf
);

impl ScalarUDFImpl for TerAlignmentUdf {
    fn name(&self) -> &'static str {
        "ter_alignment"
    }

    fn signature(&self) -> &Signature {
        &self.signature
    }

    fn coerce_types(&self, arg_types: &[DataType]) -> Result<Vec<DataType>> {
        coerce_metric_args(self.name(), arg_types)
    }

    fn return_type(&self, _arg_types: &[DataType]) -> Result<DataType> {
        Ok(DataType::Utf8)
    }

    fn return_field_from_args(&self, args: ReturnFieldArgs) -> Result<FieldRef> {
        plan_ter(self.name(), &args)?;
        Ok(Arc::new(Field::new(self.name(), DataType::Utf8, true)))
    }

    fn invoke_with_args(&self, args: ScalarFunctionArgs) -> Result<ColumnarValue> {
        let (vals, single) = eval_ter(self.name(), &args, |ter, h, r| Ok(ter.alignment(h, r).map(|a| a.ops)))?;
        if single {
            return Ok(ColumnarValue::Scalar(ScalarValue::Utf8(vals.into_iter().next().flatten())));
        }
        Ok(ColumnarValue::Array(Arc::new(StringArray::from(vals))))
    }
}
