//! `chrf(hyp, ref [, options]) -> Float64`: sentence chrF / chrF++ on
//! sacrebleu's scale (0–100). `ref` is a string or a list of strings (best
//! reference per sentence); options use the signature's keys, e.g. `'nw:2'`
//! for chrF++ or `'nw:2|eff:no|case:lc'`.

use std::sync::Arc;

use datafusion::arrow::array::Float64Array;
use datafusion::arrow::datatypes::{DataType, Field, FieldRef};
use datafusion::common::{Result, ScalarValue};
use datafusion::logical_expr::{ColumnarValue, ReturnFieldArgs, ScalarFunctionArgs, ScalarUDFImpl, Signature};
use mteval_kernels::{ChrfConfig, ChrfSegment};

use crate::common::{
    RefsCol, StrCol, coerce_metric_args, eval_rows_on, exec_options, metric_err, plan_options, session_backend,
};

/// Validates the options literal at plan time.
pub(crate) fn plan_chrf(name: &str, args: &ReturnFieldArgs<'_>) -> Result<ChrfConfig> {
    ChrfConfig::parse(plan_options(name, args, 2)?.unwrap_or("")).map_err(|e| metric_err(name, &e))
}

/// Evaluates `f(cfg, segment)` for every row, with the segment statistics
/// counted on the session's backend.
pub(crate) fn eval_chrf_segments<T, F>(name: &str, args: &ScalarFunctionArgs, f: F) -> Result<(Vec<Option<T>>, bool)>
where
    T: Send,
    F: Fn(&ChrfConfig, ChrfSegment) -> T + Sync,
{
    let backend = session_backend(name, Some(&args.config_options), None)?;
    let cfg = ChrfConfig::parse(exec_options(name, &args.args, 2)?.unwrap_or("")).map_err(|e| metric_err(name, &e))?;
    let hyp = StrCol::new(name, &args.args[0])?;
    let refs = RefsCol::new(name, &args.args[1])?;
    eval_rows_on(
        name,
        backend.as_ref(),
        &hyp,
        &refs,
        args.number_rows,
        |h, r| Ok(cfg.segment(h, r).map(|s| f(&cfg, s))),
        |on, rows| cfg.segments_on(on, rows).into_iter().map(|s| Ok(s.map(|s| f(&cfg, s)))).collect(),
    )
}

crate::udf_struct!(
    /// The `chrf` scalar UDF.
    ChrfUdf
);

impl ScalarUDFImpl for ChrfUdf {
    fn name(&self) -> &'static str {
        "chrf"
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
        plan_chrf(self.name(), &args)?;
        Ok(Arc::new(Field::new(self.name(), DataType::Float64, true)))
    }

    fn invoke_with_args(&self, args: ScalarFunctionArgs) -> Result<ColumnarValue> {
        let (vals, single) = eval_chrf_segments(self.name(), &args, |c, s| c.score(&s.stats))?;
        if single {
            return Ok(ColumnarValue::Scalar(ScalarValue::Float64(vals[0])));
        }
        Ok(ColumnarValue::Array(Arc::new(Float64Array::from(vals))))
    }
}
