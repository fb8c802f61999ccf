//! `compute_bleu(correct, total, sys_len, ref_len [, options]) -> Float64`:
//! sacrebleu's `BLEU.compute_bleu`, BLEU from given statistics (the n-gram
//! matches and totals, one per order, and the two lengths), as sacrebleu's
//! own tests use it (`test_scoring`, `test_degenerate_statistics`).

use datafusion::arrow::array::{Array, AsArray};
use datafusion::arrow::datatypes::Int64Type;
use datafusion::common::{Result, exec_err};
use datafusion::logical_expr::{ColumnarValue, ReturnFieldArgs, ScalarFunctionArgs};
use mteval_kernels::{BleuConfig, MetricError};

use crate::common::{exec_parse, float64_value, plan_parse};
use crate::udf::{ARG_OPTIONS, Arg, FunctionDoc, Kind, ScalarSpec};

/// sacrebleu's `compute_bleu` defaults (`smooth_method='none'`,
/// `effective_order=False`), with `smooth`, `smooth_value` and `eff` on top.
fn parse(opts: &str) -> std::result::Result<BleuConfig, MetricError> {
    BleuConfig::parse_with(BleuConfig { smooth: mteval_kernels::Smoothing::None, ..BleuConfig::default() }, opts)
}

crate::udf::spec!("compute_bleu": ComputeBleuFn, ComputeBleuUdf = Scalar);

impl ScalarSpec for ComputeBleuFn {
    const NAME: &'static str = "compute_bleu";
    const DOC: FunctionDoc = FunctionDoc {
        description: "BLEU from its statistics, exactly as sacrebleu 2.6.0's `BLEU.compute_bleu`: `correct` and \
                      `total` hold the n-gram matches and counts, one per order (the order is their length), \
                      `sys_len` and `ref_len` the lengths. Options `smooth` (default `none`, as compute_bleu's), \
                      `smooth_value`, `eff` (default `no`). Summing `bleu_stats(...).stats` over a corpus and \
                      passing it here gives `corpus_bleu`. NULL in gives NULL out.",
        arguments: &[
            Arg::new("correct", Kind::Integers, "The matching n-grams per order (sacrebleu's `correct`)."),
            Arg::new(
                "total",
                Kind::Integers,
                "The hypothesis n-grams per order (sacrebleu's `total`), as many as `correct`.",
            ),
            Arg::new("sys_len", Kind::Integer, "The hypothesis length in tokens."),
            Arg::new("ref_len", Kind::Integer, "The (closest) reference length in tokens."),
            ARG_OPTIONS,
        ],
        example: "SELECT compute_bleu([3, 1, 0, 0], [4, 3, 2, 1], 4, 5, 'smooth:exp');",
        related: &["bleu_stats", "corpus_bleu"],
    };

    fn check(args: &ReturnFieldArgs<'_>) -> Result<()> {
        plan_parse(Self::NAME, args, 4, parse).map(drop)
    }

    fn invoke(args: &ScalarFunctionArgs) -> Result<ColumnarValue> {
        let name = Self::NAME;
        let cfg = exec_parse(name, &args.args, 4, parse)?;
        let single = args.args.iter().all(|a| matches!(a, ColumnarValue::Scalar(_)));
        let cols = ColumnarValue::values_to_arrays(&args.args[..4])?;
        let (correct, total) = (cols[0].as_list::<i32>(), cols[1].as_list::<i32>());
        let (sys_len, ref_len) = (cols[2].as_primitive::<Int64Type>(), cols[3].as_primitive::<Int64Type>());
        let counts = |list: &dyn Array, what: &str, row: usize| -> Result<Vec<u64>> {
            let v = list.as_primitive::<Int64Type>();
            if v.null_count() > 0 {
                return exec_err!("{name}: row {row}: {what} holds a NULL");
            }
            v.values()
                .iter()
                .map(|&x| u64::try_from(x).or_else(|_| exec_err!("{name}: row {row}: {what} holds {x}")))
                .collect()
        };
        let mut out = Vec::with_capacity(cols[0].len());
        for row in 0..cols[0].len() {
            if (0..4).any(|c| cols[c].is_null(row)) {
                out.push(None);
                continue;
            }
            let c = counts(correct.value(row).as_ref(), "correct", row)?;
            let t = counts(total.value(row).as_ref(), "total", row)?;
            if c.is_empty() || c.len() != t.len() {
                return exec_err!(
                    "{name}: row {row}: correct and total need one count per n-gram order, as many of each (got {} and {})",
                    c.len(),
                    t.len()
                );
            }
            let len = |a: i64, what: &str| u64::try_from(a).or_else(|_| exec_err!("{name}: row {row}: {what} is {a}"));
            let (s, r) = (len(sys_len.value(row), "sys_len")?, len(ref_len.value(row), "ref_len")?);
            out.push(Some(mteval_kernels::bleu::compute_bleu(&c, &t, s, r, cfg.smooth, cfg.effective_order).score));
        }
        Ok(float64_value(out, single))
    }
}
