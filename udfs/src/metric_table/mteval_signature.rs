//! `mteval_signature(metric [, options [, nrefs]]) -> Utf8`: the
//! reproducibility signature of a metric with the given options, so SQL users
//! can store it next to their scores. `nrefs` defaults to 1.

use datafusion::arrow::datatypes::DataType;
use datafusion::common::{Result, ScalarValue, exec_err};
use datafusion::logical_expr::{ColumnarValue, ScalarFunctionArgs};
use mteval_kernels::NRefs;

use crate::common::{StrCol, metric_err, utf8_value};
use crate::udf::{Arg, FunctionDoc, Kind, Output, ScalarSpec};

/// Signature of `metric` (any name of the metric table,
/// `mteval_kernels::metric`) with `options`.
///
/// # Errors
/// Unknown metric or invalid options.
pub fn signature_for(metric: &str, options: &str, nrefs: NRefs) -> Result<String> {
    let name = "mteval_signature";
    let sig = mteval_kernels::metrics::signature(metric, options, nrefs).map_err(|e| metric_err(name, &e))?;
    Ok(sig.to_string())
}

crate::udf::spec!("mteval_signature": MtevalSignatureFn, MtevalSignatureUdf = Scalar);

impl ScalarSpec for MtevalSignatureFn {
    const NAME: &'static str = "mteval_signature";
    const DOC: FunctionDoc = FunctionDoc {
        description: "The reproducibility signature of a metric with the given options, as sacrebleu prints it \
                      (plus mteval's `impl:`), to store next to the scores. `metric` is any name of the README's \
                      metric table (`ter`, `chrf`, `chrf++`, `charac_ter`, `term_accuracy`, `mbr_chrf`, ... and \
                      their aliases); `nrefs` defaults to 1, a negative value writes `var`.",
        arguments: &[
            Arg::new("metric", Kind::Text, "A metric name or alias."),
            Arg::new("options", Kind::Text, "The metric's options, as for its functions.").optional(),
            Arg::new("nrefs", Kind::Integer, "The number of references (default 1; negative: `var`).").optional(),
        ],
        example: "SELECT mteval_signature('ter', 'norm:yes', 2);",
        related: &["ter", "chrf", "charac_ter", "corpus_term_accuracy", "mbr_chrf"],
    };

    const OUTPUT: Output = || DataType::Utf8;

    fn invoke(args: &ScalarFunctionArgs) -> Result<ColumnarValue> {
        let name = Self::NAME;
        let metric = StrCol::new(name, &args.args[0])?;
        let opts = match args.args.get(1) {
            Some(v) => Some(StrCol::new(name, v)?),
            None => None,
        };
        let nrefs_at = |i: usize| -> Result<Option<i64>> {
            match args.args.get(2) {
                None => Ok(Some(1)),
                Some(ColumnarValue::Scalar(ScalarValue::Int64(v))) => Ok(*v),
                Some(ColumnarValue::Array(a)) => {
                    let a = a.as_any().downcast_ref::<datafusion::arrow::array::Int64Array>();
                    Ok(a.and_then(|a| datafusion::arrow::array::Array::is_valid(a, i).then(|| a.value(i))))
                }
                Some(other) => exec_err!("{name}: nrefs must be an integer, got {other:?}"),
            }
        };
        let all_scalar = args.args.iter().all(|a| matches!(a, ColumnarValue::Scalar(_)));
        let n = if all_scalar { 1 } else { args.number_rows };
        let mut out = Vec::with_capacity(n);
        for i in 0..n {
            // NULL in (metric, options or nrefs) gives NULL out.
            let o = opts.as_ref().map_or(Some(""), |o| o.get(i));
            let (Some(m), Some(o), Some(k)) = (metric.get(i), o, nrefs_at(i)?) else {
                out.push(None);
                continue;
            };
            #[allow(
                clippy::cast_sign_loss,
                clippy::cast_possible_truncation,
                reason = "k is not negative here, and a reference count fits in usize"
            )]
            let nrefs = if k < 0 { NRefs::Var } else { NRefs::Fixed(k as usize) };
            out.push(Some(signature_for(m, o, nrefs)?));
        }
        Ok(utf8_value(out, all_scalar))
    }
}
