//! `corpus_charac_ter(hyp, ref [, options]) -> Struct{count, mean, median,
//! std, min, max, cer_scores}`: the summary of sentence `CharacTER` scores that
//! `cer.calculate_cer_corpus` returns (Python `statistics`: exact mean,
//! correctly rounded sample standard deviation, NULL `std` for one row).
//! `cer_scores`, the sentence scores themselves, is filled with the option
//! `scores:yes` (NULL otherwise: a long corpus makes a long list), in the
//! order the rows arrive (the input order on one partition).
//! Rows with a NULL hypothesis or no reference are skipped; a group with no
//! scored row gives NULL. State: the list of sentence scores (the median
//! needs them all).

use std::sync::Arc;

use datafusion::arrow::array::{Array, ArrayRef, AsArray, Float64Array, Int64Array, ListArray, StructArray};
use datafusion::arrow::buffer::{NullBuffer, OffsetBuffer};
use datafusion::arrow::datatypes::{DataType, Field, FieldRef, Fields, Float64Type};
use datafusion::common::{Result, ScalarValue};
use datafusion::logical_expr::Accumulator;
use datafusion::logical_expr::function::{AccumulatorArgs, StateFieldsArgs};
use datafusion::logical_expr::utils::format_state_name;
use mteval_kernels::backend::DeviceRequest;
use mteval_kernels::{CharacTerConfig, CorpusSummary};

use crate::common::{RefsCol, StrCol, constant_options, eval_rows, list_of, metric_err, struct_fields};
use crate::udf::{ARG_HYP, ARG_OPTIONS, ARG_REF, AggregateSpec, FunctionDoc, Output};

/// Fields of the result struct.
#[must_use]
pub fn summary_fields() -> Fields {
    use DataType::{Float64 as F, Int64};
    let stats =
        struct_fields(false, &[("count", Int64), ("mean", F), ("median", F), ("std", F), ("min", F), ("max", F)]);
    let scores = Field::new("cer_scores", list_of(F, false), true);
    stats.iter().map(|f| f.as_ref().clone().with_nullable(f.name() == "std")).chain([scores]).collect()
}

/// A summary as a one-row struct scalar (NULL for `None`), with `scores`
/// as its `cer_scores` when given.
///
/// # Errors
/// Only if Arrow rejects the struct, which the fixed fields rule out.
pub fn summary_scalar(s: Option<CorpusSummary>, scores: Option<&[f64]>) -> Result<ScalarValue> {
    let Some(s) = s else {
        return ScalarValue::try_from(&DataType::Struct(summary_fields()));
    };
    let count = i64::try_from(s.count).unwrap_or(i64::MAX);
    let cols: Vec<ArrayRef> = vec![
        Arc::new(Int64Array::from(vec![count])),
        Arc::new(Float64Array::from(vec![s.mean])),
        Arc::new(Float64Array::from(vec![s.median])),
        Arc::new(Float64Array::from(vec![s.std])),
        Arc::new(Float64Array::from(vec![s.min])),
        Arc::new(Float64Array::from(vec![s.max])),
        Arc::new(ListArray::new(
            Arc::new(Field::new_list_field(DataType::Float64, false)),
            OffsetBuffer::from_lengths([scores.map_or(0, <[f64]>::len)]),
            Arc::new(Float64Array::from(scores.map(<[f64]>::to_vec).unwrap_or_default())),
            scores.is_none().then(|| NullBuffer::new_null(1)),
        )),
    ];
    Ok(ScalarValue::Struct(Arc::new(StructArray::try_new(summary_fields(), cols, None)?)))
}

crate::udf::spec!("corpus_charac_ter": CorpusCharacTerFn, CorpusCharacTerUdaf = Aggregate);

impl AggregateSpec for CorpusCharacTerFn {
    const NAME: &'static str = "corpus_charac_ter";
    const DOC: FunctionDoc = FunctionDoc {
        description: "The summary of sentence CharacTER scores that cer's `calculate_cer_corpus` returns, Python \
                      `statistics` exactly: exact mean rounded once, correctly rounded sample standard deviation \
                      (NULL for one row), median; `cer_scores` lists the sentence scores with the option \
                      `scores:yes` (in row order on one partition), else NULL. Rows with a NULL hypothesis or no \
                      reference are skipped; a group with no scored row gives NULL.",
        arguments: &[ARG_HYP, ARG_REF, ARG_OPTIONS],
        example: "SELECT system, corpus_charac_ter(hyp, ref).mean FROM t GROUP BY system;",
        related: &["charac_ter"],
    };

    const OUTPUT: Output = || DataType::Struct(summary_fields());

    fn accumulator(args: &AccumulatorArgs, _device: Option<DeviceRequest>) -> Result<Box<dyn Accumulator>> {
        let opts = constant_options(Self::NAME, args.exprs, 2)?;
        let (cfg, list) = CharacTerConfig::parse_corpus(&opts).map_err(|e| metric_err(Self::NAME, &e))?;
        Ok(Box::new(CorpusCharacTerAccumulator { cfg, list, scores: Vec::new() }))
    }

    fn state_fields(args: &StateFieldsArgs) -> Vec<FieldRef> {
        vec![Arc::new(Field::new(
            format_state_name(args.name, "scores"),
            DataType::List(Arc::new(Field::new_list_field(DataType::Float64, true))),
            true,
        ))]
    }
}

/// The sentence scores of one group.
#[derive(Debug)]
pub struct CorpusCharacTerAccumulator {
    cfg: CharacTerConfig,
    /// Whether the result lists the sentence scores (`scores:yes`).
    list: bool,
    scores: Vec<f64>,
}

impl Accumulator for CorpusCharacTerAccumulator {
    fn update_batch(&mut self, values: &[ArrayRef]) -> Result<()> {
        let name = "corpus_charac_ter";
        let hyp = StrCol::from_array(name, values[0].as_ref())?;
        let refs = RefsCol::from_array(name, &values[1])?;
        let cfg = self.cfg;
        let (vals, _) = eval_rows(name, &hyp, &refs, values[0].len(), |h, r| cfg.sentence_multi(h, r.iter().copied()))?;
        self.scores.extend(vals.into_iter().flatten());
        Ok(())
    }

    fn evaluate(&mut self) -> Result<ScalarValue> {
        summary_scalar(CorpusSummary::from_scores(&self.scores), self.list.then_some(self.scores.as_slice()))
    }

    fn size(&self) -> usize {
        std::mem::size_of_val(self) + self.scores.capacity() * 8
    }

    fn state(&mut self) -> Result<Vec<ScalarValue>> {
        let list = ScalarValue::new_list_nullable(
            &self.scores.iter().map(|&x| ScalarValue::Float64(Some(x))).collect::<Vec<_>>(),
            &DataType::Float64,
        );
        Ok(vec![ScalarValue::List(list)])
    }

    fn merge_batch(&mut self, states: &[ArrayRef]) -> Result<()> {
        let lists = states[0].as_list::<i32>();
        for i in 0..lists.len() {
            if lists.is_null(i) {
                continue;
            }
            let v = lists.value(i);
            self.scores.extend(v.as_primitive::<Float64Type>().iter().flatten());
        }
        Ok(())
    }
}
