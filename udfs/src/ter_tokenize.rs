//! `ter_tokenize(text [, options]) -> Utf8`: the words TER scores a
//! hypothesis on (sacrebleu's tercom tokenizer after `rstrip`), joined by
//! single spaces. Useful to see what `norm:yes`, `punct:no` or `asian:yes` do.

use std::sync::Arc;

use datafusion::arrow::array::StringArray;
use datafusion::arrow::datatypes::{DataType, Field, FieldRef};
use datafusion::common::{Result, ScalarValue, plan_err};
use datafusion::logical_expr::{ColumnarValue, ReturnFieldArgs, ScalarFunctionArgs, ScalarUDFImpl, Signature};
use mteval_kernels::Ter;

use crate::common::{StrCol, coerce_options, coerce_string, exec_options, metric_err, plan_options};

crate::udf_struct!(
    /// The `ter_tokenize` scalar UDF.
    TerTokenizeUdf
);

impl ScalarUDFImpl for TerTokenizeUdf {
    fn name(&self) -> &'static str {
        "ter_tokenize"
    }

    fn signature(&self) -> &Signature {
        &self.signature
    }

    fn coerce_types(&self, t: &[DataType]) -> Result<Vec<DataType>> {
        let name = self.name();
        match t {
            [s] => Ok(vec![coerce_string(name, "the text", s)?]),
            [s, o] => Ok(vec![coerce_string(name, "the text", s)?, coerce_options(name, o)?]),
            _ => plan_err!("{name} takes (text [, options])"),
        }
    }

    fn return_type(&self, _arg_types: &[DataType]) -> Result<DataType> {
        Ok(DataType::Utf8)
    }

    fn return_field_from_args(&self, args: ReturnFieldArgs) -> Result<FieldRef> {
        Ter::from_options(plan_options(self.name(), &args, 1)?.unwrap_or(""))
            .map_err(|e| metric_err(self.name(), &e))?;
        Ok(Arc::new(Field::new(self.name(), DataType::Utf8, true)))
    }

    fn invoke_with_args(&self, args: ScalarFunctionArgs) -> Result<ColumnarValue> {
        let name = self.name();
        let ter =
            Ter::from_options(exec_options(name, &args.args, 1)?.unwrap_or("")).map_err(|e| metric_err(name, &e))?;
        let text = StrCol::new(name, &args.args[0])?;
        if text.is_scalar() {
            return Ok(ColumnarValue::Scalar(ScalarValue::Utf8(text.get(0).map(|s| ter.tokenize(s).join(" ")))));
        }
        let out: StringArray = (0..args.number_rows).map(|i| text.get(i).map(|s| ter.tokenize(s).join(" "))).collect();
        Ok(ColumnarValue::Array(Arc::new(out)))
    }
}
