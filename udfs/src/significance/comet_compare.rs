//! `comet_compare(score, system, segment [, options]) -> List<Struct{x_name,
//! y_name, x_mean, y_mean, ties, x_wins, y_wins, statistic, p_value,
//! better}>`: comet-compare's tests (Unbabel COMET's `comet-compare`) for
//! every pair of a group's systems, with its numbers: bootstrap resampling
//! (win/tie shares over the splits) and a paired t-test on the segment
//! scores. The bootstrap indexes segments by position, so the aggregate
//! orders them itself: systems in name order, segments in key order (each
//! numerically when all its keys are numbers), as `mteval compare
//! --comet-compare` takes a table. A NULL or non-finite score, system or
//! segment, a segment scored twice for a system, or a system without a
//! segment another has, is refused naming the row or the system.

use std::sync::Arc;

use datafusion::arrow::array::{Array, ArrayRef, AsArray, Float64Array, ListArray, StringArray, StructArray};
use datafusion::arrow::buffer::OffsetBuffer;
use datafusion::arrow::datatypes::{DataType, Field, FieldRef, Fields, Float64Type};
use datafusion::common::{Result, ScalarValue, exec_datafusion_err, exec_err};
use datafusion::logical_expr::Accumulator;
use datafusion::logical_expr::function::{AccumulatorArgs, StateFieldsArgs};
use mteval_kernels::backend::DeviceRequest;
use mteval_kernels::significance::comet::{self, Options};

use crate::common::{ROW_IN_BATCH, constant_options, list_state_fields, metric_err};
use crate::meta::systems::{by_system, refuse_null};
use crate::udf::{ARG_OPTIONS, AggregateSpec, Arg, FunctionDoc, Kind, Output};

crate::udf::spec!("comet_compare": CometCompareFn, CometCompareUdaf = Aggregate);

/// The fields of one pair.
fn pair_fields() -> Fields {
    let f = |n: &str, t: DataType| Field::new(n, t, true);
    Fields::from(vec![
        f("x_name", DataType::Utf8),
        f("y_name", DataType::Utf8),
        f("x_mean", DataType::Float64),
        f("y_mean", DataType::Float64),
        f("ties", DataType::Float64),
        f("x_wins", DataType::Float64),
        f("y_wins", DataType::Float64),
        f("statistic", DataType::Float64),
        f("p_value", DataType::Float64),
        f("better", DataType::Utf8),
    ])
}

fn output() -> DataType {
    DataType::List(Arc::new(Field::new_list_field(DataType::Struct(pair_fields()), true)))
}

impl AggregateSpec for CometCompareFn {
    const NAME: &'static str = "comet_compare";
    const DOC: FunctionDoc = FunctionDoc {
        description: "comet-compare's tests (Unbabel COMET's `comet-compare`) for every pair of systems, with its \
                      numbers: bootstrap resampling (numpy's global state seeded with `seed:S`, 12; `splits:N`, \
                      300, splits of `ratio:R`, 0.4, of the segments; the shares of splits each system wins and of \
                      ties within 0.001) and a paired t-test on the float32 segment scores (`alt:` two-sided, less \
                      or greater). Systems in name order, segments in key order (each numerically when all are \
                      numbers); pairs in comet-compare's order. `better` names the significantly better system \
                      (p < 0.05 and the better bootstrap mean; `dir:lower` for error-like scores), else NULL.",
        arguments: &[
            Arg::new("score", Kind::Number, "A system's score of a segment (COMET, MetricX, a sentence metric)."),
            Arg::new("system", Kind::Key, "The system that translated it."),
            Arg::new("segment", Kind::Key, "The segment's id (the same ids for every system)."),
            ARG_OPTIONS,
        ],
        example: "SELECT lp, unnest(comet_compare(comet, system, seg_id)) FROM seg_scores GROUP BY lp;",
        related: &["paired_test", "meta_spa"],
    };
    const OUTPUT: Output = output;

    fn accumulator(args: &AccumulatorArgs, _device: Option<DeviceRequest>) -> Result<Box<dyn Accumulator>> {
        let opts = constant_options(Self::NAME, args.exprs, 3)?;
        let (options, lower) = Options::parse(&opts).map_err(|e| metric_err(Self::NAME, &e))?;
        Ok(Box::new(CometAccumulator { options, lower, rows: Vec::new() }))
    }

    fn state_fields(args: &StateFieldsArgs) -> Vec<FieldRef> {
        list_state_fields(
            args.name,
            &[("score", DataType::Float64), ("system", DataType::Utf8), ("segment", DataType::Utf8)],
        )
    }
}

/// One scored row: score, system, segment.
type Row = (f64, String, String);

#[derive(Debug)]
struct CometAccumulator {
    options: Options,
    lower: bool,
    rows: Vec<Row>,
}

impl CometAccumulator {
    /// The score matrix: systems in name order, segments in key order.
    fn matrix(&self) -> Result<(Vec<String>, Vec<Vec<f32>>)> {
        let systems: Vec<&str> = self.rows.iter().map(|r| r.1.as_str()).collect();
        let segments: Vec<&str> = self.rows.iter().map(|r| r.2.as_str()).collect();
        let why = "the tests compare systems on the same segments";
        let (names, rows) = by_system(CometCompareFn::NAME, &systems, &segments, |i| self.rows[i].0, why)?;
        let scores =
            rows.iter().map(|idx| comet::to_f32(&idx.iter().map(|&i| self.rows[i].0).collect::<Vec<_>>())).collect();
        Ok((names, scores))
    }
}

impl Accumulator for CometAccumulator {
    fn update_batch(&mut self, values: &[ArrayRef]) -> Result<()> {
        let score = values[0].as_primitive::<Float64Type>();
        let (sys, seg) = (values[1].as_string::<i32>(), values[2].as_string::<i32>());
        let args: [(&str, &dyn Array); 3] =
            [("score (first argument)", score), ("system (second argument)", sys), ("segment (third argument)", seg)];
        for i in 0..score.len() {
            refuse_null(CometCompareFn::NAME, i, &args, "every system needs a score for every segment")?;
            let v = score.value(i);
            #[allow(clippy::cast_possible_truncation, reason = "comet-compare's float32 scores")]
            if !(v as f32).is_finite() {
                return exec_err!(
                    "comet_compare: row {i}{ROW_IN_BATCH}: the score {v} is not a finite float32 (system '{}', segment \
                     '{}')",
                    sys.value(i),
                    seg.value(i)
                );
            }
            self.rows.push((v, sys.value(i).to_owned(), seg.value(i).to_owned()));
        }
        Ok(())
    }

    fn evaluate(&mut self) -> Result<ScalarValue> {
        if self.rows.is_empty() {
            return Ok(ScalarValue::List(Arc::new(ListArray::new_null(
                Arc::new(Field::new_list_field(DataType::Struct(pair_fields()), true)),
                1,
            ))));
        }
        let (names, scores) = self.matrix()?;
        if names.len() < 2 {
            return exec_err!(
                "comet_compare: the group has one system ('{}'); the tests compare two or more",
                names.first().map_or("", String::as_str)
            );
        }
        let c = comet::compare(&scores, &self.options).map_err(|e| exec_datafusion_err!("comet_compare: {e}"))?;
        let n = c.pairs.len();
        let name = |f: &dyn Fn(&comet::Pair) -> usize| -> ArrayRef {
            Arc::new(StringArray::from_iter_values(c.pairs.iter().map(|p| names[f(p)].clone())))
        };
        let num = |f: &dyn Fn(&comet::Pair) -> f64| -> ArrayRef {
            Arc::new(Float64Array::from_iter_values(c.pairs.iter().map(f)))
        };
        let better: StringArray = c
            .pairs
            .iter()
            .map(|p| {
                (p.t_test.p_value < comet::SUMMARY_THRESHOLD)
                    .then(|| if p.bootstrap.x_better(self.lower) { names[p.x].clone() } else { names[p.y].clone() })
            })
            .collect();
        let better: ArrayRef = Arc::new(better);
        let columns = vec![
            name(&|p| p.x),
            name(&|p| p.y),
            num(&|p| f64::from(p.bootstrap.x_mean)),
            num(&|p| f64::from(p.bootstrap.y_mean)),
            num(&|p| p.bootstrap.ties),
            num(&|p| p.bootstrap.x_wins),
            num(&|p| p.bootstrap.y_wins),
            num(&|p| f64::from(p.t_test.statistic)),
            num(&|p| f64::from(p.t_test.p_value)),
            better,
        ];
        let values = StructArray::try_new(pair_fields(), columns, None)?;
        let list = ListArray::try_new(
            Arc::new(Field::new_list_field(DataType::Struct(pair_fields()), true)),
            OffsetBuffer::from_lengths([n]),
            Arc::new(values),
            None,
        )?;
        Ok(ScalarValue::List(Arc::new(list)))
    }

    fn size(&self) -> usize {
        std::mem::size_of_val(self)
            + self.rows.iter().map(|r| std::mem::size_of::<Row>() + r.1.capacity() + r.2.capacity()).sum::<usize>()
    }

    fn state(&mut self) -> Result<Vec<ScalarValue>> {
        let floats: Vec<ScalarValue> = self.rows.iter().map(|r| ScalarValue::Float64(Some(r.0))).collect();
        let texts = |f: &dyn Fn(&Row) -> &String| {
            let items: Vec<ScalarValue> = self.rows.iter().map(|r| ScalarValue::Utf8(Some(f(r).clone()))).collect();
            ScalarValue::List(ScalarValue::new_list_nullable(&items, &DataType::Utf8))
        };
        Ok(vec![
            ScalarValue::List(ScalarValue::new_list_nullable(&floats, &DataType::Float64)),
            texts(&|r| &r.1),
            texts(&|r| &r.2),
        ])
    }

    fn merge_batch(&mut self, states: &[ArrayRef]) -> Result<()> {
        let lists: Vec<_> = states.iter().map(AsArray::as_list::<i32>).collect();
        for i in 0..lists[0].len() {
            if lists.iter().any(|l| l.is_null(i)) {
                continue;
            }
            let (s, sys, seg) = (lists[0].value(i), lists[1].value(i), lists[2].value(i));
            let s = s.as_primitive::<Float64Type>();
            let (sys, seg): (&StringArray, &StringArray) = (sys.as_string::<i32>(), seg.as_string::<i32>());
            for j in 0..s.len() {
                self.rows.push((s.value(j), sys.value(j).to_owned(), seg.value(j).to_owned()));
            }
        }
        Ok(())
    }
}
