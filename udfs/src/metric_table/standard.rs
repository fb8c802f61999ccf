//! The standard SQL functions of every text metric, derived from its row of
//! the metric table ([`SqlFunctions`]) over the [`Metric`] interface:
//! `NAME(hyp, ref [, options]) -> float64`, `NAME_stats(...)` and the
//! aggregate `corpus_NAME(...)`. One implementation serves every metric, so
//! a metric's module in the kernels crate is all it needs.
//!
//! The rules are the same for all three: the options are a constant string
//! parsed when the query is planned; NULL in gives NULL out (a NULL
//! hypothesis, no non-NULL reference); a row's error names the row; the
//! functions of a metric with a batched path (`on_device`) run on the
//! session's device, the others on the CPU's cores. The aggregate adds the
//! segments to the metric's corpus state in row order (sacrebleu's float
//! sums), moves the state between partitions as the numbers
//! [`CorpusState::to_state`] gives, and refuses `DISTINCT`.

use std::hash::{Hash, Hasher};
use std::sync::Arc;

use datafusion::arrow::array::{
    Array, ArrayRef, AsArray, Float64Array, Int64Array, Int64Builder, ListBuilder, StructArray,
};
use datafusion::arrow::buffer::NullBuffer;
use datafusion::arrow::datatypes::{DataType, Field, FieldRef, Fields, Float64Type, UInt64Type};
use datafusion::common::{Result, ScalarValue, exec_datafusion_err};
use datafusion::logical_expr::expr::AggregateFunction;
use datafusion::logical_expr::function::{AccumulatorArgs, AggregateFunctionSimplification, StateFieldsArgs};
use datafusion::logical_expr::utils::format_state_name;
use datafusion::logical_expr::{
    Accumulator, AggregateUDF, AggregateUDFImpl, ColumnarValue, Documentation, Expr, ReturnFieldArgs,
    ScalarFunctionArgs, ScalarUDF, ScalarUDFImpl, Signature, Volatility,
};
use mteval_kernels::MetricError;
use mteval_kernels::backend::{Backend, DeviceRequest};
use mteval_kernels::metric::sql::{self, CorpusField, Num, Segment, SqlDoc, SqlFunctions, StatField, StatValue};
use mteval_kernels::metric::{Configure, CorpusState, Detail, Metric, MetricInfo};
use mteval_kernels::metrics::METRICS;

use crate::common::{
    RefsCol, StrCol, bind_device, constant_options, eval_columns_on, eval_rows, eval_rows_on, exec_parse,
    float64_value, list_of, metric_err, plan_parse, session_backend, struct_value,
};
use crate::udf::{FunctionDoc, METRIC_ARGS, coerce_args, distinct_error};

/// The standard scalar functions of every row of the metric table.
#[must_use]
pub fn scalar_functions() -> Vec<ScalarUDF> {
    let mut out = Vec::new();
    for (info, sql) in rows() {
        if let Some(doc) = &sql.sentence {
            out.push(ScalarUDF::from(MetricScalar::new(info, sql, info.name.to_owned(), doc, None)));
        }
        if let Some((doc, fields)) = &sql.stats {
            out.push(ScalarUDF::from(MetricScalar::new(info, sql, sql::stats_name(info.name), doc, Some(fields))));
        }
    }
    out
}

/// The standard aggregate functions of every row, those with a batched path
/// bound to `device` (`None`: `auto`).
#[must_use]
pub fn aggregate_functions_on(device: Option<DeviceRequest>) -> Vec<AggregateUDF> {
    rows()
        .filter_map(|(info, sql)| {
            Some(AggregateUDF::from(MetricAggregate::of(info, sql, sql.corpus.as_ref()?, device)))
        })
        .collect()
}

/// The rows with standard SQL functions.
fn rows() -> impl Iterator<Item = (&'static MetricInfo, &'static SqlFunctions)> {
    METRICS.iter().filter_map(|m| Some((*m, m.sql?)))
}

/// What a standard function shows the engine: its name, its signature
/// (user-defined: `(hyp, ref [, options])`, checked by
/// `udf::coerce_args` over `udf::METRIC_ARGS`) and its documentation.
#[derive(Debug)]
struct Face {
    name: String,
    signature: Signature,
    doc: Documentation,
}

impl Face {
    fn new(name: String, doc: &SqlDoc, output: &DataType) -> Self {
        let doc = FunctionDoc {
            description: doc.description,
            arguments: METRIC_ARGS,
            example: doc.example,
            related: doc.related,
        }
        .build(&name, output, false);
        Self { name, signature: Signature::user_defined(Volatility::Immutable), doc }
    }
}

/// The methods `ScalarUDFImpl` and `AggregateUDFImpl` share, from `self.face`.
macro_rules! face_methods {
    () => {
        fn name(&self) -> &str {
            &self.face.name
        }

        fn signature(&self) -> &Signature {
            &self.face.signature
        }

        fn coerce_types(&self, arg_types: &[DataType]) -> Result<Vec<DataType>> {
            coerce_args(&self.face.name, METRIC_ARGS, arg_types)
        }

        fn documentation(&self) -> Option<&Documentation> {
            Some(&self.face.doc)
        }
    };
}

/// The SQL type of a number.
const fn num_type(num: Num) -> DataType {
    match num {
        Num::Int => DataType::Int64,
        Num::Float => DataType::Float64,
    }
}

/// The result of a sentence function: a score, or with `fields`, the
/// `NAME_stats` struct.
fn stats_output(fields: Option<&[StatField]>) -> DataType {
    fields.map_or(DataType::Float64, |f| DataType::Struct(stats_fields(f)))
}

/// The result of a corpus function: a score, or with `fields`, a struct.
fn corpus_output(fields: &[CorpusField]) -> DataType {
    if fields.is_empty() { DataType::Float64 } else { DataType::Struct(corpus_fields(fields)) }
}

/// The struct fields of a `NAME_stats` result.
fn stats_fields(fields: &[StatField]) -> Fields {
    fields
        .iter()
        .map(|f| {
            let t = match f.value {
                StatValue::Score => DataType::Float64,
                StatValue::Stat(_, n) | StatValue::Fact(_, n) => num_type(n),
                StatValue::Stats => list_of(DataType::Int64, true),
                StatValue::Reference(_) => DataType::Int64,
            };
            Field::new(f.name, t, true)
        })
        .collect()
}

/// The struct fields of a `corpus_NAME` result.
fn corpus_fields(fields: &[CorpusField]) -> Fields {
    fields.iter().map(|f| Field::new(f.name, num_type(f.num), false)).collect()
}

/// `NAME` (`fields` `None`) or `NAME_stats` of a metric.
#[derive(Debug)]
pub struct MetricScalar {
    info: &'static MetricInfo,
    on_device: bool,
    /// The row's configuration, or the sentence-level one where it differs.
    configure: Configure,
    fields: Option<&'static [StatField]>,
    face: Face,
}

impl MetricScalar {
    fn new(
        info: &'static MetricInfo,
        sql: &'static SqlFunctions,
        name: String,
        doc: &SqlDoc,
        fields: Option<&'static [StatField]>,
    ) -> Self {
        Self {
            info,
            on_device: sql.on_device,
            configure: sql.sentence_configure.unwrap_or(info.configure),
            fields,
            face: Face::new(name, doc, &stats_output(fields)),
        }
    }

    /// The rows of a batch: `row(hyp, refs)` per row, or on the session's
    /// device `batch(backend, rows)` for all at once.
    fn eval<'a, T: Send>(
        &self,
        args: &'a ScalarFunctionArgs,
        row: impl Fn(&str, &[&str]) -> Result<Option<T>, MetricError> + Sync,
        batch: impl FnOnce(&dyn Backend, &[(&'a str, Vec<&'a str>)]) -> Vec<Result<Option<T>, MetricError>>,
    ) -> Result<(Vec<Option<T>>, bool)> {
        let name = self.face.name.as_str();
        let hyp = StrCol::new(name, &args.args[0])?;
        let refs = RefsCol::new(name, &args.args[1])?;
        if self.on_device {
            let backend = session_backend(name, Some(&args.config_options), None)?;
            return eval_rows_on(name, backend.as_ref(), &hyp, &refs, args.number_rows, row, batch);
        }
        eval_rows(name, &hyp, &refs, args.number_rows, row)
    }

    /// `NAME`: the sentence scores.
    fn sentence(&self, args: &ScalarFunctionArgs, m: &dyn Metric) -> Result<ColumnarValue> {
        let score = |s: Option<Vec<f64>>| s.and_then(|s| m.sentence_score(&s));
        let (vals, single) = self.eval(
            args,
            |h, r| Ok(score(m.segment(h, r)?)),
            |on, rows| m.segments_on(on, rows).into_iter().map(|r| r.map(score)).collect(),
        )?;
        Ok(float64_value(vals, single))
    }

    /// `NAME_stats`: the sentence scores with their statistics.
    fn stats(&self, args: &ScalarFunctionArgs, m: &dyn Metric, fields: &[StatField]) -> Result<ColumnarValue> {
        let (vals, single) = self.eval(args, |h, r| m.segment_facts(h, r), |on, rows| m.segment_facts_on(on, rows))?;
        let refs = RefsCol::new(&self.face.name, &args.args[1])?;
        let cols = fields
            .iter()
            .map(|f| stats_column(f.value, m, &vals, &refs).ok_or_else(|| self.missing(f.name)))
            .collect::<Result<Vec<ArrayRef>>>()?;
        let nulls = NullBuffer::from(vals.iter().map(Option::is_some).collect::<Vec<bool>>());
        Ok(struct_value(StructArray::try_new(stats_fields(fields), cols, Some(nulls))?, single))
    }

    /// The error of a field the metric's segments lack (a row of the
    /// metric table that names a statistic its metric does not give).
    fn missing(&self, field: &str) -> datafusion::error::DataFusionError {
        exec_datafusion_err!("{}: the metric {} gives no value for the field {field}", self.face.name, self.info.name)
    }
}

/// One field of `NAME_stats` over the rows; `None` when a segment lacks
/// the statistic or fact it names.
#[allow(
    clippy::cast_possible_truncation,
    clippy::cast_possible_wrap,
    clippy::cast_sign_loss,
    reason = "statistics are counts and positions far below 2^63"
)]
fn stats_column(value: StatValue, m: &dyn Metric, vals: &[Option<Segment>], refs: &RefsCol<'_>) -> Option<ArrayRef> {
    let at = |v: &[f64], k: usize| v.get(k).copied();
    let column = |f: &dyn Fn(&Segment) -> Option<f64>, num: Num| -> Option<ArrayRef> {
        let xs = vals
            .iter()
            .map(|v| v.as_ref().map(f).map_or(Ok(None), |x| x.map(Some).ok_or(())))
            .collect::<Result<Vec<_>, ()>>()
            .ok()?;
        Some(match num {
            Num::Int => Arc::new(Int64Array::from(xs.into_iter().map(|x| x.map(|x| x as i64)).collect::<Vec<_>>())),
            Num::Float => Arc::new(Float64Array::from(xs)),
        })
    };
    match value {
        StatValue::Score => Some(Arc::new(Float64Array::from(
            vals.iter().map(|v| v.as_ref().and_then(|s| m.sentence_score(&s.stats))).collect::<Vec<_>>(),
        ))),
        StatValue::Stat(k, num) => column(&|s| at(&s.stats, k), num),
        StatValue::Fact(k, num) => column(&|s| at(&s.facts, k), num),
        StatValue::Stats => {
            let mut list = ListBuilder::new(Int64Builder::new());
            for v in vals {
                match v {
                    Some(s) => {
                        list.values().append_slice(&s.stats.iter().map(|&x| x as i64).collect::<Vec<_>>());
                        list.append(true);
                    }
                    None => list.append(false),
                }
            }
            Some(Arc::new(list.finish()))
        }
        StatValue::Reference(k) => {
            // The position in the list as given, NULLs included (the
            // metric sees the non-NULL references only).
            let xs = vals
                .iter()
                .enumerate()
                .map(|(i, v)| match v {
                    Some(s) => at(&s.facts, k).map(|x| Some(refs.list_position(i, x as usize) as i64)).ok_or(()),
                    None => Ok(None),
                })
                .collect::<Result<Vec<_>, ()>>()
                .ok()?;
            Some(Arc::new(Int64Array::from(xs)))
        }
    }
}

impl PartialEq for MetricScalar {
    fn eq(&self, other: &Self) -> bool {
        self.face.name == other.face.name
    }
}

impl Eq for MetricScalar {}

impl Hash for MetricScalar {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.face.name.hash(state);
    }
}

impl ScalarUDFImpl for MetricScalar {
    face_methods!();

    fn return_type(&self, _arg_types: &[DataType]) -> Result<DataType> {
        Ok(stats_output(self.fields))
    }

    fn return_field_from_args(&self, args: ReturnFieldArgs) -> Result<FieldRef> {
        plan_parse(&self.face.name, &args, 2, self.configure)?;
        Ok(Arc::new(Field::new(&self.face.name, self.return_type(&[])?, true)))
    }

    fn invoke_with_args(&self, args: ScalarFunctionArgs) -> Result<ColumnarValue> {
        let m = exec_parse(&self.face.name, &args.args, 2, self.configure)?;
        match self.fields {
            None => self.sentence(&args, m.as_ref()),
            Some(fields) => self.stats(&args, m.as_ref(), fields),
        }
    }
}

/// `corpus_NAME` of a metric, bound to a device when the metric has a
/// batched path.
#[derive(Debug)]
pub struct MetricAggregate {
    info: &'static MetricInfo,
    sql: &'static SqlFunctions,
    corpus: &'static (SqlDoc, &'static [CorpusField]),
    face: Face,
    device: Option<DeviceRequest>,
}

impl MetricAggregate {
    /// `info`'s corpus function (`corpus`, of its `sql`), bound to `device`
    /// when it runs on one.
    fn of(
        info: &'static MetricInfo,
        sql: &'static SqlFunctions,
        corpus: &'static (SqlDoc, &'static [CorpusField]),
        device: Option<DeviceRequest>,
    ) -> Self {
        let face = Face::new(sql::corpus_name(info.name), &corpus.0, &corpus_output(corpus.1));
        Self { info, sql, corpus, face, device: device.filter(|_| sql.on_device) }
    }

    /// The device bound into this function (`None`: `auto`, or a metric
    /// without a batched path).
    #[must_use]
    pub fn device(&self) -> Option<DeviceRequest> {
        self.device
    }

    fn fields(&self) -> &'static [CorpusField] {
        self.corpus.1
    }
}

impl PartialEq for MetricAggregate {
    fn eq(&self, other: &Self) -> bool {
        self.face.name == other.face.name && self.device == other.device
    }
}

impl Eq for MetricAggregate {}

impl Hash for MetricAggregate {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.face.name.hash(state);
        self.device.hash(state);
    }
}

impl AggregateUDFImpl for MetricAggregate {
    face_methods!();

    fn return_type(&self, _arg_types: &[DataType]) -> Result<DataType> {
        Ok(corpus_output(self.fields()))
    }

    fn accumulator(&self, args: AccumulatorArgs) -> Result<Box<dyn Accumulator>> {
        // Where no plan-time check ran (a plan built without the optimizer,
        // a foreign engine through datafusion-ffi), the refusal comes here.
        if args.is_distinct {
            return Err(distinct_error(&self.face.name));
        }
        let opts = constant_options(&self.face.name, args.exprs, 2)?;
        let metric = self.info.configure(&opts).map_err(|e| metric_err(&self.face.name, &e))?;
        let state = metric.corpus().ok_or_else(|| exec_datafusion_err!("{}: no corpus score", self.face.name))?;
        Ok(Box::new(CorpusAccumulator {
            name: self.face.name.clone(),
            metric,
            state,
            fields: self.fields(),
            device: self.device,
            on_device: self.sql.on_device,
        }))
    }

    fn state_fields(&self, args: StateFieldsArgs) -> Result<Vec<FieldRef>> {
        Ok(vec![
            Arc::new(Field::new(format_state_name(args.name, "state"), list_of(DataType::Float64, true), true)),
            Arc::new(Field::new(format_state_name(args.name, "segments"), DataType::UInt64, true)),
        ])
    }

    fn simplify(&self) -> Option<AggregateFunctionSimplification> {
        let (info, sql, corpus) = (self.info, self.sql, self.corpus);
        let bind = self.sql.on_device.then(|| {
            bind_device(
                self.device,
                move |d| AggregateUDF::from(Self::of(info, sql, corpus, d)),
                Expr::AggregateFunction,
                |f, g| Expr::AggregateFunction(AggregateFunction { func: Arc::new(g), params: f.params }),
            )
        });
        let name = self.face.name.clone();
        Some(Box::new(move |f: AggregateFunction, ctx| {
            if f.params.distinct {
                return Err(distinct_error(&name));
            }
            match &bind {
                Some(bind) => bind(f, ctx),
                None => Ok(Expr::AggregateFunction(f)),
            }
        }))
    }
}

/// The corpus state of one group.
#[derive(Debug)]
struct CorpusAccumulator {
    name: String,
    metric: Arc<dyn Metric>,
    state: Box<dyn CorpusState>,
    fields: &'static [CorpusField],
    device: Option<DeviceRequest>,
    on_device: bool,
}

impl Accumulator for CorpusAccumulator {
    fn update_batch(&mut self, values: &[ArrayRef]) -> Result<()> {
        let (name, m) = (self.name.as_str(), self.metric.as_ref());
        let segs = if self.on_device {
            eval_columns_on(name, values, self.device, |h, r| m.segment(h, r), |on, rows| m.segments_on(on, rows))?
        } else {
            let hyp = StrCol::from_array(name, values[0].as_ref())?;
            let refs = RefsCol::from_array(name, &values[1])?;
            eval_rows(name, &hyp, &refs, values[0].len(), |h, r| m.segment(h, r))?.0
        };
        // Sequential, in row order, so float sums match the reference tool's.
        for s in segs.iter().flatten() {
            self.state.add(s);
        }
        Ok(())
    }

    fn evaluate(&mut self) -> Result<ScalarValue> {
        self.state.check().map_err(|e| metric_err(&self.name, &e))?;
        let score = self.state.score();
        if self.fields.is_empty() {
            return Ok(ScalarValue::Float64(score));
        }
        let fields = corpus_fields(self.fields);
        if score.is_none() {
            return ScalarValue::try_from(&DataType::Struct(fields));
        }
        let details = self.state.details();
        let cols = self
            .fields
            .iter()
            .map(|f| {
                let value = details.iter().find(|(n, _)| *n == f.name).map(|(_, d)| d);
                #[allow(clippy::cast_precision_loss, reason = "counts far below 2^53")]
                let col: ArrayRef = match (value, f.num) {
                    (Some(Detail::Float(x)), Num::Float) => Arc::new(Float64Array::from(vec![*x])),
                    (Some(Detail::Int(n)), Num::Float) => Arc::new(Float64Array::from(vec![*n as f64])),
                    (Some(Detail::Int(n)), Num::Int) => {
                        Arc::new(Int64Array::from(vec![i64::try_from(*n).unwrap_or(i64::MAX)]))
                    }
                    _ => return Err(exec_datafusion_err!("{}: the corpus state has no {}", self.name, f.name)),
                };
                Ok(col)
            })
            .collect::<Result<Vec<_>>>()?;
        Ok(ScalarValue::Struct(Arc::new(StructArray::try_new(fields, cols, None)?)))
    }

    fn size(&self) -> usize {
        // The sums of a summed state (a state of another layout grows with
        // its rows, which this leaves out).
        std::mem::size_of_val(self) + self.metric.width() * 8
    }

    fn state(&mut self) -> Result<Vec<ScalarValue>> {
        let (values, segments) = self.state.to_state();
        let values: Vec<ScalarValue> = values.into_iter().map(|x| ScalarValue::Float64(Some(x))).collect();
        Ok(vec![
            ScalarValue::List(ScalarValue::new_list_nullable(&values, &DataType::Float64)),
            ScalarValue::UInt64(Some(segments)),
        ])
    }

    fn merge_batch(&mut self, states: &[ArrayRef]) -> Result<()> {
        let lists = states[0].as_list::<i32>();
        let segments = states[1].as_primitive::<UInt64Type>();
        for i in 0..lists.len() {
            if lists.is_null(i) || segments.is_null(i) {
                continue;
            }
            let v = lists.value(i);
            self.state.add_state(v.as_primitive::<Float64Type>().values(), segments.value(i));
        }
        Ok(())
    }
}
