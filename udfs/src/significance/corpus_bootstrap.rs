//! `corpus_bootstrap(hyp, ref, metric [, options]) -> Struct{score, mean,
//! ci, signature}`: a corpus score with its bootstrap 95% confidence
//! interval, exactly as sacrebleu 2.6.0's `--confidence`
//! (`corpus_score(..., n_bootstrap=N)`) for every metric of the metric
//! table with a score from summed statistics, `Metric::stats` (sacrebleu's, and the WER family). The options are the metric's plus `bs:N` (resamples, default 1000)
//! and `seed:S` (default 12345; `none` for a fresh seed), so a printed
//! signature pastes back. Resamples index the rows in the order the
//! aggregate receives them: the input order with one partition (mteval's
//! default), or `ORDER BY` inside the call, which the accumulator applies
//! itself (any partitioning).
//!
//! With a number column first, `corpus_bootstrap(score, 'score' [,
//! options])` resamples segment scores computed elsewhere
//! ([`mteval_kernels::metric::segment_score`]).
//!
//! [`ResampleFn`] also makes `paired_test` ([`crate::significance::paired_test`]): the
//! same accumulator with a baseline hypothesis beside each row's.

use std::sync::Arc;

use datafusion::arrow::array::{
    Array, ArrayRef, AsArray, BinaryArray, Float64Array, ListArray, StringArray, StructArray,
};
use datafusion::arrow::buffer::NullBuffer;
use datafusion::arrow::datatypes::{DataType, Field, FieldRef, Fields, Float64Type, Int64Type};
use datafusion::arrow::row::{OwnedRow, RowConverter, SortField};
use datafusion::common::{Result, ScalarValue, exec_datafusion_err, exec_err};
use datafusion::logical_expr::Accumulator;
use datafusion::logical_expr::function::{AccumulatorArgs, StateFieldsArgs};
use datafusion::logical_expr::utils::format_state_name;
use mteval_kernels::backend::DeviceRequest;
use mteval_kernels::metric::FromStats;
use mteval_kernels::metric::{Metric, segment_score};
use mteval_kernels::metrics;
use mteval_kernels::significance::{self, PairedTest, SegmentStats};
use mteval_kernels::{MetricError, NRefs};

use crate::common::{
    ConstantArg, RefsCol, StrCol, constant_options, constant_string, eval_rows, metric_err, struct_fields,
};
use crate::udf::{
    ARG_HYP, ARG_OPTIONS, ARG_REF, Aggregate, AggregateSpec, Arg, Documented, FunctionDoc, Kind, Output, coerce_args,
};

/// The struct fields of `corpus_bootstrap`.
#[must_use]
pub fn corpus_bootstrap_fields() -> Fields {
    use DataType::{Float64 as F, Utf8};
    struct_fields(true, &[("score", F), ("mean", F), ("ci", F), ("signature", Utf8)])
}

/// The argument `metric` of the resampling functions.
pub const ARG_METRIC: Arg = Arg::new(
    "metric",
    Kind::Constant(METRIC_ARG),
    "A constant metric name of the metric table with significance tests, e.g. chrf, ter, wer; 'score' after \
     number columns (segment scores).",
);

/// The arguments of the form over segment scores computed elsewhere:
/// `(score, 'score' [, options])`, and paired, `(score, baseline_score,
/// 'score' [, options])`.
const SCORE_FORMS: [&[Arg]; 2] = {
    const SCORE: Arg = Arg::new("score", Kind::Number, "A segment score computed elsewhere.");
    const BASELINE: Arg = Arg::new("baseline_score", Kind::Number, "The baseline's score of the same segment.");
    const NAME: Arg = Arg::new("'score'", Kind::Constant(METRIC_ARG), "The metric `score`.");
    [&[SCORE, NAME, ARG_OPTIONS], &[SCORE, BASELINE, NAME, ARG_OPTIONS]]
};

/// The documentation of `corpus_bootstrap`.
pub const DOC: FunctionDoc = FunctionDoc {
    description: "A corpus score with its bootstrap 95% confidence interval, exactly as sacrebleu 2.6.0's \
                  `--confidence` (same resamples for the same seed): `score`, the resamples' `mean`, `ci` (half \
                  the 2.5–97.5% range) and the signature with `bs:` and `seed:`. Metrics: those of the metric \
                  table with significance tests. The options are the metric's plus `bs:N` (default 1000) and `seed:S` (default 12345, \
                  `none` for a fresh seed). Resamples index rows in the order the aggregate receives them: \
                  input order with one partition, or `ORDER BY` inside the call. A segment score computed elsewhere \
                  (COMET, MetricX, human): `corpus_bootstrap(score, 'score' [, options])` over a number column, the \
                  corpus score its mean (sacrebleu's arithmetic over statistics [score, 1]), options `dir:lower` and \
                  `score:NAME` (the name in the signature) besides `bs:`/`seed:`; NULL scores are skipped.",
    arguments: &[
        ARG_HYP,
        ARG_REF,
        ARG_METRIC,
        Arg::new("options", ARG_OPTIONS.kind, "Optional constant options: the metric's, plus `bs:N` and `seed:S`.")
            .optional(),
    ],
    example: "SELECT system, corpus_bootstrap(hyp, ref, 'chrf', 'bs:1000|seed:12345' ORDER BY seg_id).ci FROM t \
              GROUP BY system;",
    related: &["paired_test", "corpus_chrf", "corpus_ter", "corpus_wer", "segment_stats"],
};

/// A resampling aggregate: `corpus_bootstrap`, or with `PAIRED`, `paired_test`.
#[derive(Debug)]
pub struct ResampleFn<const PAIRED: bool, D>(std::marker::PhantomData<D>);

/// The `corpus_bootstrap` aggregate function.
pub type CorpusBootstrapFn = ResampleFn<false, CorpusBootstrapDoc>;

crate::udf::documented!(CorpusBootstrapDoc, "corpus_bootstrap");

/// The struct fields of `paired_test`.
#[must_use]
pub fn paired_test_fields() -> Fields {
    use DataType::{Float64 as F, Utf8};
    struct_fields(
        true,
        &[("score", F), ("baseline_score", F), ("p_value", F), ("mean", F), ("ci", F), ("signature", Utf8)],
    )
}

/// The `corpus_bootstrap` aggregate UDF.
pub type CorpusBootstrapUdaf = Aggregate<CorpusBootstrapFn>;

/// The arguments before `metric`: hypothesis (and the baseline's) and
/// reference, or with a number first, the segment score (and the
/// baseline's).
const fn data_args(paired: bool, numeric: bool) -> usize {
    (if paired { 2 } else { 1 }) + if numeric { 0 } else { 1 }
}

/// The documented arguments `D` (`(hyp, ref, metric [, options])`, or
/// `(hyp, baseline_hyp, ref, metric [, options])` when paired), or with a
/// number first, a segment score's ([`SCORE_FORMS`]).
fn coerce<const PAIRED: bool, D: Documented>(name: &str, t: &[DataType]) -> Result<Vec<DataType>> {
    let numeric = t.first().is_some_and(DataType::is_numeric);
    coerce_args(name, if numeric { SCORE_FORMS[usize::from(PAIRED)] } else { D::DOC.arguments }, t)
}

/// The metric argument.
const METRIC_ARG: ConstantArg = ConstantArg { what: "the metric", example: "'chrf', 'ter' or 'wer'" };

/// The metric, the test and the seed of a call.
#[derive(Debug)]
struct Settings {
    metric: Arc<dyn Metric>,
    /// `bs:N` alone: bootstrap resampling; `ar:N` (paired only):
    /// approximate randomization, with bootstrap intervals when `bs:N` is there too.
    test: PairedTest,
    seed: Option<u128>,
}

fn count_option(name: &'static str, k: &str, v: &str) -> std::result::Result<usize, MetricError> {
    let n =
        v.parse().ok().filter(|&n| n > 0).ok_or_else(|| MetricError::InvalidOption {
            metric: name,
            reason: format!("{k}:{v}: expected a count ≥ 1"),
        })?;
    significance::check_resamples(n, &format!("{k}:{v}")).map_err(|e| match e {
        MetricError::InvalidOption { reason, .. } => MetricError::InvalidOption { metric: name, reason },
        other => other,
    })
}

/// Splits `bs:`, `ar:` (paired only) and `seed:` off the options and
/// configures the metric with the rest; `numeric`: the rows are segment
/// scores (the metric must be `score`).
fn settings(
    name: &'static str,
    paired: bool,
    numeric: bool,
    metric_name: &str,
    options: &str,
) -> std::result::Result<Settings, MetricError> {
    let is_score = metric_name.trim().eq_ignore_ascii_case(segment_score::INFO.name);
    let refuse = |reason: String| Err(MetricError::InvalidOption { metric: name, reason });
    if numeric && !is_score {
        return refuse(format!(
            "a number column is a segment score: give 'score' as the metric, not '{metric_name}' (text metrics \
             read a hypothesis and a reference)"
        ));
    }
    if !numeric && is_score {
        return refuse(
            "'score' resamples a number column: give the segment scores first, as in corpus_bootstrap(comet, \
             'score')"
                .to_owned(),
        );
    }
    let info = if is_score { &segment_score::INFO } else { metrics::lookup(metric_name)? };
    let mut rest = Vec::new();
    let (mut bs, mut ar, mut seed) = (None, None, Some(significance::DEFAULT_SEED));
    for part in options.split(['|', ',']).filter(|p| !p.trim().is_empty()) {
        match part.split_once(':').map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim())) {
            Some((k, v)) if k == "bs" => bs = Some(count_option(name, "bs", v)?),
            Some((k, v)) if k == "ar" && paired => ar = Some(count_option(name, "ar", v)?),
            Some((k, v)) if k == "seed" => seed = significance::parse_seed(v)?,
            _ => rest.push(part),
        }
    }
    let metric = info.configure(&rest.join("|"))?;
    if metric.stats().is_none() {
        return Err(MetricError::InvalidOption {
            metric: name,
            reason: format!("{}: resampling is for {}", info.name, resampled_names()),
        });
    }
    let test = match ar {
        Some(n) => PairedTest::Randomization(n, bs),
        None => PairedTest::Bootstrap(bs.unwrap_or(significance::DEFAULT_BOOTSTRAP)),
    };
    Ok(Settings { metric, test, seed })
}

/// The score from summed statistics a metric is resampled through (`settings()` refuses every metric
/// without one, so the error is a guard, not a path users meet).
fn resample<'a>(name: &str, m: &'a dyn Metric) -> Result<&'a dyn FromStats> {
    m.stats().ok_or_else(|| exec_datafusion_err!("{name}: {} cannot be resampled", m.info().name))
}

/// The names of the metrics the resampling functions take, as a list in words.
fn resampled_names() -> String {
    metrics::in_words(&metrics::resampled().map(|m| m.name).collect::<Vec<_>>())
}

fn list_field(args: &StateFieldsArgs, name: &str, item: DataType) -> FieldRef {
    Arc::new(Field::new(
        format_state_name(args.name, name),
        DataType::List(Arc::new(Field::new_list_field(item, true))),
        true,
    ))
}

impl<const PAIRED: bool, D: Documented + std::fmt::Debug> AggregateSpec for ResampleFn<PAIRED, D> {
    const NAME: &'static str = D::NAME;
    const DOC: FunctionDoc = D::DOC;
    const COERCE: Option<crate::udf::Coerce> = Some(coerce::<PAIRED, D>);
    const OUTPUT: Output =
        if PAIRED { || DataType::Struct(paired_test_fields()) } else { || DataType::Struct(corpus_bootstrap_fields()) };

    fn accumulator(args: &AccumulatorArgs, _device: Option<DeviceRequest>) -> Result<Box<dyn Accumulator>> {
        let name = Self::NAME;
        let numeric = args.exprs[0].data_type(args.schema)?.is_numeric();
        let at = data_args(PAIRED, numeric);
        let metric = constant_string(name, args.exprs, at, METRIC_ARG)?;
        let opts = constant_options(name, args.exprs, at + 1)?;
        let s = settings(name, PAIRED, numeric, &metric, &opts).map_err(|e| metric_err(name, &e))?;
        if !PAIRED && !matches!(s.test, PairedTest::Bootstrap(_)) {
            return exec_err!("{name}: takes bs:N, not ar:N");
        }
        let stats = SegmentStats::new(resample(name, s.metric.as_ref())?.width());
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
        Ok(Box::new(ResampleAccumulator {
            name,
            numeric,
            base: PAIRED.then(|| stats.clone()),
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
            list_field(args, "stats", DataType::Float64),
            list_field(args, "baseline", DataType::Float64),
            Arc::new(Field::new(format_state_name(args.name, "nrefs"), DataType::Int64, true)),
            list_field(args, "order", DataType::Binary),
        ]
    }
}

/// Every segment's statistics of one group (and the baseline's, when
/// paired), in arrival order, with their `ORDER BY` keys when the call has one.
struct ResampleAccumulator {
    name: &'static str,
    /// The rows are segment scores, not texts.
    numeric: bool,
    s: Settings,
    stats: SegmentStats,
    base: Option<SegmentStats>,
    nrefs: Option<NRefs>,
    /// Arguments before the `ORDER BY` columns.
    n_args: usize,
    order: Option<RowConverter>,
    keys: Vec<OwnedRow>,
}

impl std::fmt::Debug for ResampleAccumulator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ResampleAccumulator")
            .field("name", &self.name)
            .field("numeric", &self.numeric)
            .field("settings", &self.s)
            .field("segments", &self.stats.len())
            .field("paired", &self.base.is_some())
            .field("nrefs", &self.nrefs)
            .field("n_args", &self.n_args)
            .field("ordered", &self.order.is_some())
            .field("keys", &self.keys.len())
            .finish()
    }
}

impl ResampleAccumulator {
    /// `stats` in `ORDER BY` order (stable: ties keep their arrival order).
    fn ordered(&self, stats: &SegmentStats) -> SegmentStats {
        if self.order.is_none() || self.keys.len() != stats.len() {
            return stats.clone();
        }
        let mut idx: Vec<usize> = (0..self.keys.len()).collect();
        idx.sort_by(|&a, &b| self.keys[a].cmp(&self.keys[b]));
        let mut out = SegmentStats::new(stats.width());
        for i in idx {
            out.push(stats.row(i));
        }
        out
    }

    /// The statistics of every row with a score (`[score, 1]`; no
    /// references); `None` for NULL.
    fn score_rows(&self, scores: &ArrayRef) -> Result<Vec<Option<Row>>> {
        let v = scores.as_primitive_opt::<Float64Type>().ok_or_else(|| {
            exec_datafusion_err!("{}: the segment scores arrive as {}, not float64", self.name, scores.data_type())
        })?;
        Ok(v.iter().map(|x| x.map(|x| (segment_score::stats(x).to_vec(), 0))).collect())
    }

    /// The statistics (and reference count) of every row with a hypothesis
    /// and a reference; `None` for the others.
    fn rows(&self, hyp: &ArrayRef, refs: &ArrayRef) -> Result<Vec<Option<Row>>> {
        let n = hyp.len();
        let hyp = StrCol::from_array(self.name, hyp.as_ref())?;
        let refs = RefsCol::from_array(self.name, refs)?;
        let m = &self.s.metric;
        let (rows, _) = eval_rows(self.name, &hyp, &refs, n, |h, r| Ok(m.segment(h, r)?.map(|v| (v, r.len()))))?;
        Ok(rows)
    }

    /// The signature with the test's keys (`None` with no segment).
    fn signature(&self) -> Option<String> {
        (!self.stats.is_empty()).then(|| {
            let sig = self.s.metric.signature(self.nrefs.unwrap_or(NRefs::Fixed(1))).to_string();
            significance::with_test_keys(&sig, &self.s.test.signature_keys(self.s.seed))
        })
    }
}

/// One segment's statistics and its number of references.
type Row = (Vec<f64>, usize);

/// A one-row struct value, NULL when its first column is.
fn struct_scalar(fields: Fields, cols: Vec<ArrayRef>) -> Result<ScalarValue> {
    let nulls = NullBuffer::from(vec![cols[0].is_valid(0)]);
    Ok(ScalarValue::Struct(Arc::new(StructArray::try_new(fields, cols, Some(nulls))?)))
}

fn f64_col(v: Option<f64>) -> ArrayRef {
    Arc::new(Float64Array::from(vec![v]))
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

/// Appends the flat statistics of state row `i` to `to`.
fn append_state(name: &str, to: &mut SegmentStats, list: &ListArray, i: usize) -> Result<()> {
    let w = to.width();
    let v = list.value(i);
    let v = v.as_primitive::<Float64Type>().values();
    if w == 0 || v.len() % w != 0 {
        return exec_err!("{name}: a partial state of {} values is not whole segments", v.len());
    }
    for row in v.chunks_exact(w) {
        to.push(row);
    }
    Ok(())
}

/// Flat statistics as a state value.
fn stats_state(s: &SegmentStats) -> ScalarValue {
    let v: Vec<ScalarValue> =
        (0..s.len()).flat_map(|i| s.row(i).to_vec()).map(|x| ScalarValue::Float64(Some(x))).collect();
    ScalarValue::List(ScalarValue::new_list_nullable(&v, &DataType::Float64))
}

impl Accumulator for ResampleAccumulator {
    fn update_batch(&mut self, values: &[ArrayRef]) -> Result<()> {
        let keys = match &self.order {
            Some(conv) => Some(conv.convert_columns(&values[self.n_args..])?),
            None => None,
        };
        let paired = self.base.is_some();
        let (rows, base_rows) = if self.numeric {
            (self.score_rows(&values[0])?, if paired { Some(self.score_rows(&values[1])?) } else { None })
        } else {
            let refs = &values[data_args(paired, false) - 1];
            (self.rows(&values[0], refs)?, if paired { Some(self.rows(&values[1], refs)?) } else { None })
        };
        for (i, row) in rows.into_iter().enumerate() {
            let Some((row, n)) = row else { continue };
            if let (Some(b), Some(base_rows)) = (self.base.as_mut(), &base_rows) {
                // A row counts when both hypotheses are there.
                let Some((brow, _)) = &base_rows[i] else { continue };
                b.push(brow);
            }
            self.stats.push(&row);
            self.nrefs = NRefs::observe(self.nrefs, n);
            if let Some(k) = &keys {
                self.keys.push(k.row(i).owned());
            }
        }
        Ok(())
    }

    fn evaluate(&mut self) -> Result<ScalarValue> {
        let m = resample(self.name, self.s.metric.as_ref())?;
        let sig: ArrayRef = Arc::new(StringArray::from(vec![self.signature()]));
        let stats = self.ordered(&self.stats);
        let err = |e: MetricError| metric_err(self.name, &e);
        let Some(base) = &self.base else {
            let PairedTest::Bootstrap(n) = self.s.test else { return exec_err!("{}: takes bs:N", self.name) };
            let r = if stats.is_empty() {
                None
            } else {
                Some(significance::confidence(m, &stats, n, self.s.seed).map_err(err)?)
            };
            let e = r.and_then(|r| r.estimate);
            return struct_scalar(
                corpus_bootstrap_fields(),
                vec![f64_col(r.map(|r| r.score)), f64_col(e.map(|e| e.mean)), f64_col(e.map(|e| e.ci)), sig],
            );
        };
        let r = if stats.is_empty() {
            None
        } else {
            // sacrebleu seeds each compared system with the seed, unless it is 0.
            let seed = self.s.seed.filter(|&s| s != 0);
            let base = self.ordered(base);
            let r = significance::paired(
                &[m],
                std::slice::from_ref(&base),
                std::slice::from_ref(&stats),
                self.s.test,
                seed,
            )
            .map_err(err)?;
            Some((r[0], m.score(&base.sums())))
        };
        let e = r.and_then(|r| r.0.estimate);
        struct_scalar(
            paired_test_fields(),
            vec![
                f64_col(r.map(|r| r.0.score)),
                f64_col(r.map(|r| r.1)),
                f64_col(r.and_then(|r| r.0.p_value)),
                f64_col(e.map(|e| e.mean)),
                f64_col(e.map(|e| e.ci)),
                sig,
            ],
        )
    }

    fn size(&self) -> usize {
        std::mem::size_of_val(self)
            + self.stats.len() * self.stats.width() * 16
            + self.keys.iter().map(|k| k.as_ref().len() + std::mem::size_of::<OwnedRow>()).sum::<usize>()
    }

    fn state(&mut self) -> Result<Vec<ScalarValue>> {
        let keys: Vec<ScalarValue> =
            self.keys.iter().map(|k| ScalarValue::Binary(Some(k.as_ref().as_ref().to_vec()))).collect();
        Ok(vec![
            stats_state(&self.stats),
            stats_state(self.base.as_ref().unwrap_or(&SegmentStats::new(self.stats.width()))),
            ScalarValue::Int64(nrefs_code(self.nrefs)),
            ScalarValue::List(ScalarValue::new_list_nullable(&keys, &DataType::Binary)),
        ])
    }

    fn merge_batch(&mut self, states: &[ArrayRef]) -> Result<()> {
        let (lists, base_lists) = (states[0].as_list::<i32>(), states[1].as_list::<i32>());
        let nrefs = states[2].as_primitive::<Int64Type>();
        let keys = states[3].as_list::<i32>();
        for i in 0..lists.len() {
            if lists.is_null(i) {
                continue;
            }
            append_state(self.name, &mut self.stats, lists, i)?;
            if let Some(b) = self.base.as_mut() {
                append_state(self.name, b, base_lists, i)?;
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
