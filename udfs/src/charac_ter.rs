//! `charac_ter(hyp, ref [, options]) -> Float64`: sentence CharacTER in
//! [0, 1] (cer's scale). `ref` is a string or a list of strings (the lowest
//! score over the references). Options: `compat:original|cer`, `fuzzy:T`.
//! (`character` is an SQL keyword, hence the underscore.)

use std::sync::Arc;

use datafusion::arrow::array::Float64Array;
use datafusion::arrow::datatypes::{DataType, Field, FieldRef};
use datafusion::common::{Result, ScalarValue};
use datafusion::logical_expr::{ColumnarValue, ReturnFieldArgs, ScalarFunctionArgs, ScalarUDFImpl, Signature};
use mteval_kernels::CharacTerConfig;

use crate::common::coerce_metric_args;
use crate::common::{RefsCol, StrCol, eval_rows, exec_options, metric_err, plan_options};

crate::udf_struct!(
    /// The `charac_ter` scalar UDF.
    CharacTerUdf
);

impl ScalarUDFImpl for CharacTerUdf {
    fn name(&self) -> &'static str {
        "charac_ter"
    }

    fn signature(&self) -> &Signature {
        &self.signature
    }

    fn coerce_types(&self, arg_types: &[DataType]) -> Result<Vec<DataType>> {
        coerce_metric_args(self.name(), arg_types)
    }

    fn return_type(&self, _arg_types: &[DataType]) -> Result<DataType> {
        Ok(DataType::Float64)
    }

    fn return_field_from_args(&self, args: ReturnFieldArgs) -> Result<FieldRef> {
        CharacTerConfig::parse(plan_options(self.name(), &args, 2)?.unwrap_or(""))
            .map_err(|e| metric_err(self.name(), &e))?;
        Ok(Arc::new(Field::new(self.name(), DataType::Float64, true)))
    }

    fn invoke_with_args(&self, args: ScalarFunctionArgs) -> Result<ColumnarValue> {
        let name = self.name();
        let cfg = CharacTerConfig::parse(exec_options(name, &args.args, 2)?.unwrap_or(""))
            .map_err(|e| metric_err(name, &e))?;
        let hyp = StrCol::new(name, &args.args[0])?;
        let refs = RefsCol::new(name, &args.args[1])?;
        let (vals, single) =
            eval_rows(name, &hyp, &refs, args.number_rows, |h, r| cfg.sentence_multi(h, r.iter().copied()))?;
        if single {
            return Ok(ColumnarValue::Scalar(ScalarValue::Float64(vals[0])));
        }
        Ok(ColumnarValue::Array(Arc::new(Float64Array::from(vals))))
    }
}
