//! The aggregate state of summed count vectors (`corpus_bleu`,
//! `corpus_chrf`): the sums as a list and the segment count, and the
//! accumulator over them.

use std::sync::Arc;

use datafusion::arrow::array::{Array, ArrayRef, AsArray};
use datafusion::arrow::datatypes::{DataType, Field, FieldRef, UInt64Type};
use datafusion::common::{Result, ScalarValue};
use datafusion::logical_expr::Accumulator;
use datafusion::logical_expr::function::StateFieldsArgs;
use datafusion::logical_expr::utils::format_state_name;
use mteval_kernels::backend::DeviceRequest;
use mteval_kernels::metric::CountScore;
use mteval_kernels::sums::CountSums;

/// The state fields: `stats` (list of u64) and `segments`.
#[must_use]
pub fn count_sums_fields(args: &StateFieldsArgs) -> Vec<FieldRef> {
    vec![
        Arc::new(Field::new(
            format_state_name(args.name, "stats"),
            DataType::List(Arc::new(Field::new_list_field(DataType::UInt64, true))),
            true,
        )),
        Arc::new(Field::new(format_state_name(args.name, "segments"), DataType::UInt64, true)),
    ]
}

/// `sums` as state values.
fn count_sums_state<M>(sums: &CountSums<M>) -> Vec<ScalarValue> {
    let list = ScalarValue::new_list_nullable(
        &sums.stats.iter().map(|&x| ScalarValue::UInt64(Some(x))).collect::<Vec<_>>(),
        &DataType::UInt64,
    );
    vec![ScalarValue::List(list), ScalarValue::UInt64(Some(sums.segments))]
}

/// Merges partial states into `sums`.
fn merge_count_sums<M>(sums: &mut CountSums<M>, states: &[ArrayRef]) {
    let lists = states[0].as_list::<i32>();
    let segs = states[1].as_primitive::<UInt64Type>();
    for i in 0..lists.len() {
        if lists.is_null(i) || segs.is_null(i) {
            continue;
        }
        let v = lists.value(i);
        let v = v.as_primitive::<UInt64Type>();
        sums.merge(&CountSums::from_parts(v.values().to_vec(), segs.value(i)));
    }
}

/// Memory held by `sums`.
fn count_sums_size<M>(sums: &CountSums<M>) -> usize {
    std::mem::size_of_val(sums) + sums.stats.capacity() * 8
}

/// A state of unsigned counters as state values.
#[must_use]
pub fn u64_state(values: &[u64]) -> Vec<ScalarValue> {
    values.iter().map(|&x| ScalarValue::UInt64(Some(x))).collect()
}

/// Calls `merge` with each row of partial states made by [`u64_state`]
/// (`v(k)`: the row's counter `k`), skipping rows with a NULL counter.
pub fn merge_u64_states(states: &[ArrayRef], mut merge: impl FnMut(&dyn Fn(usize) -> u64)) {
    let cols: Vec<_> = states.iter().map(AsArray::as_primitive::<UInt64Type>).collect();
    for i in 0..states.first().map_or(0, Array::len) {
        if cols.iter().all(|c| c.is_valid(i)) {
            merge(&|k| cols[k].value(i));
        }
    }
}

/// Adds a batch's rows (the aggregate's argument columns) to the sums.
pub type AddRows<C> = fn(&C, &[ArrayRef], Option<DeviceRequest>, &mut CountSums<C>) -> Result<()>;

/// The running sums of one group of a count-statistics aggregate, scored by
/// its configuration.
#[derive(Debug)]
pub struct CountSumsAccumulator<C> {
    cfg: C,
    sums: CountSums<C>,
    device: Option<DeviceRequest>,
    add: AddRows<C>,
}

impl<C: CountScore> CountSumsAccumulator<C> {
    /// No row yet.
    pub fn new(cfg: C, device: Option<DeviceRequest>, add: AddRows<C>) -> Self {
        Self { cfg, sums: CountSums::default(), device, add }
    }
}

impl<C: CountScore> Accumulator for CountSumsAccumulator<C> {
    fn update_batch(&mut self, values: &[ArrayRef]) -> Result<()> {
        (self.add)(&self.cfg, values, self.device, &mut self.sums)
    }

    fn evaluate(&mut self) -> Result<ScalarValue> {
        Ok(ScalarValue::Float64(self.cfg.score_sums(&self.sums)))
    }

    fn size(&self) -> usize {
        count_sums_size(&self.sums) + std::mem::size_of_val(&self.cfg)
    }

    fn state(&mut self) -> Result<Vec<ScalarValue>> {
        Ok(count_sums_state(&self.sums))
    }

    fn merge_batch(&mut self, states: &[ArrayRef]) -> Result<()> {
        merge_count_sums(&mut self.sums, states);
        Ok(())
    }
}
