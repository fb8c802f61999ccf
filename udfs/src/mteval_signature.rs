//! `mteval_signature(metric [, options [, nrefs]]) -> Utf8`: the
//! reproducibility signature of a metric with the given options, so SQL users
//! can store it next to their scores. `nrefs` defaults to 1.

use std::sync::Arc;

use datafusion::arrow::array::StringArray;
use datafusion::arrow::datatypes::DataType;
use datafusion::common::{Result, ScalarValue, exec_err, plan_err};
use datafusion::logical_expr::{ColumnarValue, ScalarFunctionArgs, ScalarUDFImpl, Signature};
use mteval_kernels::chrf::group::{mbr_signature, parse_mbr_options};
use mteval_kernels::{ChrfConfig, NRefs};

use crate::common::{StrCol, metric_err};

/// Signature of `metric` with `options`.
///
/// # Errors
/// Unknown metric or invalid options.
pub fn signature_for(metric: &str, options: &str, nrefs: NRefs) -> Result<String> {
    let name = "mteval_signature";
    match metric.to_ascii_lowercase().as_str() {
        "ter" => {
            let ter = mteval_kernels::Ter::from_options(options).map_err(|e| metric_err(name, &e))?;
            Ok(ter.config.signature(nrefs).to_string())
        }
        "chrf" | "chrf++" => {
            let base = if metric.ends_with("++") { ChrfConfig::chrf_plus_plus() } else { ChrfConfig::default() };
            let cfg = ChrfConfig::parse_with(base, options).map_err(|e| metric_err(name, &e))?;
            Ok(cfg.signature(nrefs).to_string())
        }
        "mbr_chrf" | "mbr_chrf_aggregate" => {
            let (cfg, include_self) = parse_mbr_options(options).map_err(|e| metric_err(name, &e))?;
            let utility = if metric.ends_with("aggregate") { "aggregate" } else { "pairwise" };
            Ok(mbr_signature(&cfg, include_self, utility).to_string())
        }
        "charac_ter" | "character" => {
            let cfg = mteval_kernels::CharacTerConfig::parse(options).map_err(|e| metric_err(name, &e))?;
            Ok(cfg.signature(nrefs).to_string())
        }
        "term_accuracy" | "term_accuracy_lemmatized" => {
            Ok(mteval_kernels::terms::signature(metric.ends_with("lemmatized")).to_string())
        }
        other => exec_err!(
            "{name}: unknown metric '{other}' (known: ter, chrf, chrf++, mbr_chrf, mbr_chrf_aggregate, charac_ter, \
             term_accuracy, term_accuracy_lemmatized)"
        ),
    }
}

crate::udf_struct!(
    /// The `mteval_signature` scalar UDF.
    MtevalSignatureUdf
);

impl ScalarUDFImpl for MtevalSignatureUdf {
    fn name(&self) -> &'static str {
        "mteval_signature"
    }

    fn signature(&self) -> &Signature {
        &self.signature
    }

    fn coerce_types(&self, t: &[DataType]) -> Result<Vec<DataType>> {
        if !(1..=3).contains(&t.len()) {
            return plan_err!("mteval_signature takes (metric [, options [, nrefs]])");
        }
        let mut out = vec![DataType::Utf8; t.len().min(2)];
        if t.len() == 3 {
            out.push(DataType::Int64);
        }
        Ok(out)
    }

    fn return_type(&self, _arg_types: &[DataType]) -> Result<DataType> {
        Ok(DataType::Utf8)
    }

    fn invoke_with_args(&self, args: ScalarFunctionArgs) -> Result<ColumnarValue> {
        let name = self.name();
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
            #[allow(clippy::cast_sign_loss, clippy::cast_possible_truncation)]
            let nrefs = if k < 0 { NRefs::Var } else { NRefs::Fixed(k as usize) };
            out.push(Some(signature_for(m, o, nrefs)?));
        }
        if all_scalar {
            return Ok(ColumnarValue::Scalar(ScalarValue::Utf8(out.pop().flatten())));
        }
        Ok(ColumnarValue::Array(Arc::new(StringArray::from(out))))
    }
}
