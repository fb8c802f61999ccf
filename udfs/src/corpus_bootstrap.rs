//! `corpus_bootstrap(hyp, ref, metric [, options]) -> Struct{score, mean,
//! ci, signature}`: a corpus score with its bootstrap 95% confidence
//! interval, exactly as sacrebleu 2.6.0's `--confidence`
//! (`corpus_score(..., n_bootstrap=N)`) for `bleu`, `chrf`, `chrf++` and
//! `ter`. The options are the metric's plus `bs:N` (resamples, default 1000)
//! and `seed:S` (default 12345; `none` for a fresh seed), so a printed
//! signature pastes back. Resamples index the rows in the order the
//! aggregate receives them: the input order with one partition (mteval's
//! default), or `ORDER BY` inside the call.

use std::sync::Arc;

use datafusion::arrow::array::{Array, ArrayRef, AsArray, BinaryArray, Float64Array, StringArray, StructArray};
use datafusion::arrow::datatypes::{DataType, Field, FieldRef, Fields, Float64Type};
use datafusion::arrow::row::{OwnedRow, RowConverter, SortField};
use datafusion::common::{Result, ScalarValue, exec_err, plan_err};
use datafusion::logical_expr::Accumulator;
use datafusion::logical_expr::function::{AccumulatorArgs, StateFieldsArgs};
use datafusion::logical_expr::utils::format_state_name;
use mteval_kernels::backend::DeviceRequest;
use mteval_kernels::metric::{self, Configured};
use mteval_kernels::significance::{self, PairedTest, Resample, SegmentStats};
use mteval_kernels::{MetricError, NRefs};

use crate::common::{RefsCol, StrCol, coerce_metric_args, coerce_options, constant_options, eval_rows, metric_err};
use crate::udf::{ARG_HYP, ARG_REF, Aggregate, AggregateSpec, FunctionDoc, Output};

/// The struct fields of `corpus_bootstrap`.
#[must_use]
pub fn corpus_bootstrap_fields() -> Fields {
    Fields::from(vec![
        Field::new("score", DataType::Float64, true),
        Field::new("mean", DataType::Float64, true),
        Field::new("ci", DataType::Float64, true),
        Field::new("signature", DataType::Utf8, true),
    ])
}

/// `(hyp, ref, metric [, options])`.
fn coerce(name: &str, t: &[DataType]) -> Result<Vec<DataType>> {
    if !(3..=4).contains(&t.len()) {
        return plan_err!("{name} takes (hyp, ref, metric [, options]), got {} arguments", t.len());
    }
    let mut out = coerce_metric_args(name, &t[..2])?;
    for x in &t[2..] {
        out.push(coerce_options(name, x)?);
    }
    Ok(out)
}

/// The metric, the resamples and the seed of a call.
struct Settings {
    metric: Configured,
    samples: usize,
    seed: Option<u128>,
}

/// Splits `bs:` and `seed:` off the options and configures the metric.
fn settings(metric_name: &str, options: &str) -> std::result::Result<Settings, MetricError> {
    let info = metric::lookup(metric_name)?;
    let mut rest = Vec::new();
    let (mut samples, mut seed) = (significance::DEFAULT_BOOTSTRAP, Some(significance::DEFAULT_SEED));
    for part in options.split('|').filter(|p| !p.trim().is_empty()) {
        match part.split_once(':').map(|(k, v)| (k.trim(), v.trim())) {
            Some(("bs", v)) => {
                samples = v.parse().ok().filter(|&n| n > 0).ok_or_else(|| MetricError::InvalidOption {
                    metric: "corpus_bootstrap",
                    reason: format!("bs:{v}: expected a number of resamples ≥ 1"),
                })?;
            }
            Some(("seed", v)) => seed = significance::parse_seed(v)?,
            _ => rest.push(part),
        }
    }
    let metric = info.configure(&rest.join("|"))?;
    if !matches!(metric, Configured::Bleu(_) | Configured::Chrf(_) | Configured::Ter(_)) {
        return Err(MetricError::InvalidOption {
            metric: "corpus_bootstrap",
            reason: format!("{}: bootstrap intervals are for bleu, chrf, chrf++ and ter", info.name),
        });
    }
    Ok(Settings { metric, samples, seed })
}

fn resample(m: &Configured) -> &dyn Resample {
    match m {
        Configured::Bleu(c) => c,
        Configured::Chrf(c) => c,
        Configured::Ter(t) => t,
        _ => unreachable!("settings() admits only bleu, chrf and ter"),
    }
}

/// The `corpus_bootstrap` aggregate function.
#[derive(Debug)]
pub struct CorpusBootstrapFn;

/// The `corpus_bootstrap` aggregate UDF.
pub type CorpusBootstrapUdaf = Aggregate<CorpusBootstrapFn>;

impl AggregateSpec for CorpusBootstrapFn {
    const NAME: &'static str = "corpus_bootstrap";
    const DOC: FunctionDoc = FunctionDoc {
        description: "A corpus score with its bootstrap 95% confidence interval, exactly as sacrebleu 2.6.0's \
                      `--confidence` (same resamples for the same seed): `score`, the resamples' `mean`, `ci` (half \
                      the 2.5–97.5% range) and the signature with `bs:` and `seed:`. Metrics: bleu, chrf, chrf++, \
                      ter. The options are the metric's plus `bs:N` (default 1000) and `seed:S` (default 12345, \
                      `none` for a fresh seed). Resamples index rows in the order the aggregate receives them: \
                      input order with one partition, or `ORDER BY` inside the call.",
        syntax: "corpus_bootstrap(hyp, ref, metric: str, options?: str) -> struct{score, mean, ci: float64, \
                 signature: str}",
        arguments: &[
            ARG_HYP,
            ARG_REF,
            ("metric", "A constant metric name: bleu, chrf, chrf++ or ter."),
            ("options", "Optional constant options: the metric's, plus `bs:N` and `seed:S`."),
        ],
        example: "SELECT system, corpus_bootstrap(hyp, ref, 'bleu', 'bs:1000|seed:12345' ORDER BY seg_id).ci FROM t \
                  GROUP BY system;",
        related: &["corpus_bleu", "corpus_chrf", "corpus_ter", "bleu_stats"],
    };
    const COERCE: crate::udf::Coerce = coerce;

    const OUTPUT: Output = || DataType::Struct(corpus_bootstrap_fields());

    fn accumulator(args: &AccumulatorArgs, _device: Option<DeviceRequest>) -> Result<Box<dyn Accumulator>> {
        let name = Self::NAME;
        let metric = constant_options(name, args.exprs, 2)?;
        let opts = constant_options(name, args.exprs, 3)?;
        let s = settings(&metric, &opts).map_err(|e| metric_err(name, &e))?;
        let stats = SegmentStats::new(resample(&s.metric).width());
        // `ORDER BY` inside the call: the sort keys arrive as extra columns
        // after the arguments, and the accumulator orders the segments itself.
        let order = if args.order_bys.is_empty() {
            None
        } else {
            let fields = args
                .order_bys
                .iter()
                .map(|o| Ok(SortField::new_with_options(o.expr.data_type(args.schema)?, o.options)))
                .collect::<Result<Vec<_>>>()?;
            Some(RowConverter::new(fields)?)
        };
        Ok(Box::new(CorpusBootstrapAccumulator {
            s,
            stats,
            nrefs: None,
            n_args: args.exprs.len(),
            order,
            keys: Vec::new(),
        }))
    }

    fn state_fields(args: &StateFieldsArgs) -> Vec<FieldRef> {
        vec![
            Arc::new(Field::new(
                format_state_name(args.name, "stats"),
                DataType::List(Arc::new(Field::new_list_field(DataType::Float64, true))),
                true,
            )),
            Arc::new(Field::new(format_state_name(args.name, "nrefs"), DataType::Int64, true)),
            Arc::new(Field::new(
                format_state_name(args.name, "order"),
                DataType::List(Arc::new(Field::new_list_field(DataType::Binary, true))),
                true,
            )),
        ]
    }
}

/// Every segment's statistics of one group, in arrival order, with their
/// `ORDER BY` keys when the call has one.
struct CorpusBootstrapAccumulator {
    s: Settings,
    stats: SegmentStats,
    nrefs: Option<NRefs>,
    /// Arguments before the `ORDER BY` columns.
    n_args: usize,
    order: Option<RowConverter>,
    keys: Vec<OwnedRow>,
}

impl CorpusBootstrapAccumulator {
    /// The segments in `ORDER BY` order (stable: ties keep their arrival order).
    fn ordered(&self) -> SegmentStats {
        if self.order.is_none() || self.keys.len() != self.stats.len() {
            return self.stats.clone();
        }
        let mut idx: Vec<usize> = (0..self.keys.len()).collect();
        idx.sort_by(|&a, &b| self.keys[a].cmp(&self.keys[b]));
        let mut out = SegmentStats::new(self.stats.width());
        for i in idx {
            out.push(self.stats.row(i));
        }
        out
    }
}

impl std::fmt::Debug for CorpusBootstrapAccumulator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CorpusBootstrapAccumulator")
            .field("segments", &self.stats.len())
            .field("samples", &self.s.samples)
            .field("seed", &self.s.seed)
            .field("nrefs", &self.nrefs)
            .field("ordered", &self.order.is_some())
            .finish_non_exhaustive()
    }
}

/// `NRefs` as a state value: -1 for a variable count.
fn nrefs_code(n: Option<NRefs>) -> Option<i64> {
    n.map(|n| match n {
        NRefs::Fixed(k) => i64::try_from(k).unwrap_or(i64::MAX),
        NRefs::Var => -1,
    })
}

fn merge_nrefs(a: Option<NRefs>, b: Option<NRefs>) -> Option<NRefs> {
    match (a, b) {
        (None, x) | (x, None) => x,
        (Some(x), Some(y)) if x == y => Some(x),
        _ => Some(NRefs::Var),
    }
}

impl Accumulator for CorpusBootstrapAccumulator {
    #[allow(clippy::cast_precision_loss, reason = "statistics are counts far below 2^53")]
    fn update_batch(&mut self, values: &[ArrayRef]) -> Result<()> {
        let name = CorpusBootstrapFn::NAME;
        let hyp = StrCol::from_array(name, values[0].as_ref())?;
        let refs = RefsCol::from_array(name, &values[1])?;
        let m = &self.s.metric;
        let keys = match &self.order {
            Some(conv) => Some(conv.convert_columns(&values[self.n_args..])?),
            None => None,
        };
        let (rows, _) = eval_rows(name, &hyp, &refs, values[0].len(), |h, r| {
            let row: Option<Vec<f64>> = match m {
                Configured::Bleu(c) => c.segment(h, r).map(|s| s.iter().map(|&x| x as f64).collect()),
                Configured::Chrf(c) => c.segment(h, r).map(|s| s.stats.iter().map(|&x| x as f64).collect()),
                Configured::Ter(t) => t.segment(h, r)?.map(|s| vec![f64::from(s.num_edits), s.ref_len]),
                _ => None,
            };
            Ok(row.map(|v| (v, r.len())))
        })?;
        for (i, row) in rows.into_iter().enumerate() {
            let Some((row, n)) = row else { continue };
            self.stats.push(&row);
            self.nrefs = NRefs::observe(self.nrefs, n);
            if let Some(k) = &keys {
                self.keys.push(k.row(i).owned());
            }
        }
        Ok(())
    }

    fn evaluate(&mut self) -> Result<ScalarValue> {
        let name = CorpusBootstrapFn::NAME;
        let fields = corpus_bootstrap_fields();
        let (score, mean, ci, sig) = if self.stats.is_empty() {
            (None, None, None, None)
        } else {
            let m = resample(&self.s.metric);
            let r = significance::confidence(m, &self.ordered(), self.s.samples, self.s.seed)
                .map_err(|e| metric_err(name, &e))?;
            let sig = self.s.metric.signature(self.nrefs.unwrap_or(NRefs::Fixed(1))).to_string();
            let keys = PairedTest::Bootstrap(self.s.samples).signature_keys(self.s.seed);
            (
                Some(r.score),
                r.estimate.map(|e| e.mean),
                r.estimate.map(|e| e.ci),
                Some(significance::with_test_keys(&sig, &keys)),
            )
        };
        let cols: Vec<ArrayRef> = vec![
            Arc::new(Float64Array::from(vec![score])),
            Arc::new(Float64Array::from(vec![mean])),
            Arc::new(Float64Array::from(vec![ci])),
            Arc::new(StringArray::from(vec![sig])),
        ];
        let nulls = datafusion::arrow::buffer::NullBuffer::from(vec![score.is_some()]);
        Ok(ScalarValue::Struct(Arc::new(StructArray::try_new(fields, cols, Some(nulls))?)))
    }

    fn size(&self) -> usize {
        std::mem::size_of_val(self)
            + self.stats.len() * self.stats.width() * 8
            + self.keys.iter().map(|k| k.as_ref().len() + std::mem::size_of::<OwnedRow>()).sum::<usize>()
    }

    fn state(&mut self) -> Result<Vec<ScalarValue>> {
        let flat: Vec<ScalarValue> = (0..self.stats.len())
            .flat_map(|i| self.stats.row(i).to_vec())
            .map(|x| ScalarValue::Float64(Some(x)))
            .collect();
        let keys: Vec<ScalarValue> =
            self.keys.iter().map(|k| ScalarValue::Binary(Some(k.as_ref().as_ref().to_vec()))).collect();
        Ok(vec![
            ScalarValue::List(ScalarValue::new_list_nullable(&flat, &DataType::Float64)),
            ScalarValue::Int64(nrefs_code(self.nrefs)),
            ScalarValue::List(ScalarValue::new_list_nullable(&keys, &DataType::Binary)),
        ])
    }

    fn merge_batch(&mut self, states: &[ArrayRef]) -> Result<()> {
        let lists = states[0].as_list::<i32>();
        let nrefs = states[1].as_primitive::<datafusion::arrow::datatypes::Int64Type>();
        let keys = states[2].as_list::<i32>();
        let w = self.stats.width();
        for i in 0..lists.len() {
            if lists.is_null(i) {
                continue;
            }
            let v = lists.value(i);
            let v = v.as_primitive::<Float64Type>().values();
            if w == 0 || v.len() % w != 0 {
                return exec_err!(
                    "{}: a partial state of {} values is not whole segments",
                    CorpusBootstrapFn::NAME,
                    v.len()
                );
            }
            for row in v.chunks_exact(w) {
                self.stats.push(row);
            }
            if let Some(conv) = &self.order
                && keys.is_valid(i)
            {
                let k = keys.value(i);
                let k: &BinaryArray = k.as_binary::<i32>();
                let parser = conv.parser();
                self.keys.extend(k.iter().flatten().map(|b| parser.parse(b).owned()));
            }
            if nrefs.is_valid(i) {
                let n = nrefs.value(i);
                let theirs = if n < 0 { NRefs::Var } else { NRefs::Fixed(usize::try_from(n).unwrap_or(0)) };
                self.nrefs = merge_nrefs(self.nrefs, Some(theirs));
            }
        }
        Ok(())
    }
}
