//! `segment_stats(hyp, ref, metric [, options]) -> Struct{score: float64,
//! stats: list<float64>}`: any text metric of the metric table through its
//! [`Metric`] interface: the sentence score and the per-segment statistics
//! its corpus score sums (what sacrebleu's significance tests resample).
//! `mteval score` scores every text metric with it.

use std::sync::Arc;

use datafusion::arrow::array::{ArrayRef, Float64Array, Float64Builder, ListBuilder, StructArray};
use datafusion::arrow::buffer::NullBuffer;
use datafusion::arrow::datatypes::{DataType, Fields};
use datafusion::common::{Result, exec_err, plan_err};
use datafusion::logical_expr::{ColumnarValue, ReturnFieldArgs, ScalarFunctionArgs};
use mteval_kernels::metric::{Inputs, Metric};
use mteval_kernels::{MetricError, metrics};

use crate::common::{
    ConstantArg, eval_args_on, exec_options, list_of, metric_err, plan_options, struct_fields, struct_value,
};
use crate::udf::{ARG_HYP, ARG_OPTIONS, ARG_REF, Arg, FunctionDoc, Kind, Output, ScalarSpec};

/// The result's fields.
#[must_use]
pub fn segment_stats_fields() -> Fields {
    use DataType::Float64 as F;
    struct_fields(true, &[("score", F), ("stats", list_of(F, true))])
}

/// The metric argument.
const METRIC_ARG: ConstantArg = ConstantArg { what: "the metric", example: "'ter' or 'chrf++'" };

crate::udf::spec!("segment_stats": SegmentStatsFn, SegmentStatsUdf = Scalar);

/// The metric named `metric` with `options`, if it reads text.
fn configure(name: &str, metric: &str, options: &str) -> Result<Arc<dyn Metric>> {
    let not_text = match metrics::lookup(metric) {
        Ok(info) if info.inputs == Inputs::Text => return info.configure(options).map_err(|e| metric_err(name, &e)),
        Ok(info) => info.name,
        Err(MetricError::Utility { name: utility, .. }) => utility,
        Err(e) => return Err(metric_err(name, &e)),
    };
    let text: Vec<&str> = metrics::METRICS.iter().filter(|m| m.inputs == Inputs::Text).map(|m| m.name).collect();
    plan_err!(
        "{name}: {not_text} does not score a hypothesis against references; the metrics that do: {}",
        metrics::in_words(&text)
    )
}

impl ScalarSpec for SegmentStatsFn {
    const NAME: &'static str = "segment_stats";
    const DOC: FunctionDoc = FunctionDoc {
        description: "Any text metric of the metric table (its names and aliases, as `-m` takes them) per segment: \
                      its sentence score and the statistics its corpus score sums, as the metric's own functions \
                      give them (`stats`: e.g. chrF's `[hyp, ref, match]` per order, TER's `[edits, average \
                      reference length]`, CharacTER's `[score]`, WER's `[hits, substitutions, deletions, \
                      insertions, ref_len, hyp_len]`). NULL in gives NULL out.",
        arguments: &[
            ARG_HYP,
            ARG_REF,
            Arg::new("metric", Kind::Constant(METRIC_ARG), "A constant metric name, as `-m` takes it."),
            ARG_OPTIONS,
        ],
        example: "SELECT segment_stats(hyp, ref, 'chrf++').stats FROM t;",
        related: &["mteval_signature", "corpus_bootstrap"],
    };

    const OUTPUT: Output = || DataType::Struct(segment_stats_fields());

    fn check(args: &ReturnFieldArgs<'_>) -> Result<()> {
        if let Some(m) = plan_options(Self::NAME, args, 2)? {
            configure(Self::NAME, m, plan_options(Self::NAME, args, 3)?.unwrap_or(""))?;
        }
        Ok(())
    }

    fn invoke(args: &ScalarFunctionArgs) -> Result<ColumnarValue> {
        let name = Self::NAME;
        let Some(m) = exec_options(name, &args.args, 2)? else {
            return exec_err!("{name}: the metric must be a constant string such as 'ter'");
        };
        let m = configure(name, m, exec_options(name, &args.args, 3)?.unwrap_or(""))?;
        let (vals, single) = eval_args_on(name, args, |h, r| m.segment(h, r), |on, rows| m.segments_on(on, rows))?;
        let mut scores = Vec::with_capacity(vals.len());
        let mut lists = ListBuilder::new(Float64Builder::new());
        for v in &vals {
            scores.push(v.as_ref().and_then(|s| m.sentence_score(s)));
            match v {
                Some(s) => lists.append_value(s.iter().copied().map(Some)),
                None => lists.append_null(),
            }
        }
        let nulls = NullBuffer::from(vals.iter().map(Option::is_some).collect::<Vec<bool>>());
        let cols: Vec<ArrayRef> = vec![Arc::new(Float64Array::from(scores)), Arc::new(lists.finish())];
        Ok(struct_value(StructArray::try_new(segment_stats_fields(), cols, Some(nulls))?, single))
    }
}
