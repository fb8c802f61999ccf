//! `ter(hyp, ref [, options]) -> Float64`: sentence TER on sacrebleu's scale.

use std::sync::Arc;

use datafusion::arrow::array::Float64Array;
use datafusion::arrow::datatypes::{DataType, Field, FieldRef};
use datafusion::common::{Result, ScalarValue};
use datafusion::logical_expr::{ColumnarValue, ReturnFieldArgs, ScalarFunctionArgs, ScalarUDFImpl, Signature};
use mteval_kernels::{MetricError, Ter, TerSegment};

use crate::common::{
    RefsCol, StrCol, coerce_metric_args, eval_rows, eval_rows_on, exec_options, metric_err, plan_options,
    session_backend,
};

/// Validates the options literal at plan time.
pub(crate) fn plan_ter(name: &str, args: &ReturnFieldArgs<'_>) -> Result<Ter> {
    Ter::from_options(plan_options(name, args, 2)?.unwrap_or("")).map_err(|e| metric_err(name, &e))
}

/// Parses the options when executing.
pub(crate) fn exec_ter(name: &str, args: &[ColumnarValue]) -> Result<Ter> {
    Ter::from_options(exec_options(name, args, 2)?.unwrap_or("")).map_err(|e| metric_err(name, &e))
}

/// Evaluates `f(ter, hyp, refs)` over the rows of a TER-shaped call
/// `(hyp, ref [, options])`; see [`eval_rows`].
pub(crate) fn eval_ter<T, F>(name: &str, args: &ScalarFunctionArgs, f: F) -> Result<(Vec<Option<T>>, bool)>
where
    T: Send,
    F: Fn(&Ter, &str, &[&str]) -> Result<Option<T>, MetricError> + Sync,
{
    let ter = exec_ter(name, &args.args)?;
    let hyp = StrCol::new(name, &args.args[0])?;
    let refs = RefsCol::new(name, &args.args[1])?;
    eval_rows(name, &hyp, &refs, args.number_rows, |h, r| f(&ter, h, r))
}

/// Evaluates `f(ter, segment)` for every row, with the segments computed on
/// the session's backend (all rows of the batch in one GPU batch per shift
/// round, or the CPU's row-parallel path).
pub(crate) fn eval_ter_segments<T, F>(name: &str, args: &ScalarFunctionArgs, f: F) -> Result<(Vec<Option<T>>, bool)>
where
    T: Send,
    F: Fn(&Ter, &TerSegment) -> T + Sync,
{
    let backend = session_backend(name, Some(&args.config_options), None)?;
    let ter = exec_ter(name, &args.args)?;
    let hyp = StrCol::new(name, &args.args[0])?;
    let refs = RefsCol::new(name, &args.args[1])?;
    eval_rows_on(
        name,
        backend.as_ref(),
        &hyp,
        &refs,
        args.number_rows,
        |h, r| Ok(ter.segment(h, r)?.map(|s| f(&ter, &s))),
        |on, rows| ter.segments_on(on, rows).into_iter().map(|r| r.map(|o| o.map(|s| f(&ter, &s)))).collect(),
    )
}

crate::udf_struct!(
    /// The `ter` scalar UDF.
    TerUdf
);

impl ScalarUDFImpl for TerUdf {
    fn name(&self) -> &'static str {
        "ter"
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
        plan_ter(self.name(), &args)?;
        Ok(Arc::new(Field::new(self.name(), DataType::Float64, true)))
    }

    fn invoke_with_args(&self, args: ScalarFunctionArgs) -> Result<ColumnarValue> {
        let (vals, single) = eval_ter_segments(self.name(), &args, |ter, s| ter.sentence_score(s))?;
        if single {
            return Ok(ColumnarValue::Scalar(ScalarValue::Float64(vals[0])));
        }
        Ok(ColumnarValue::Array(Arc::new(Float64Array::from(vals))))
    }
}
