//! The aggregate state of a fixed set of unsigned counters (the terminology
//! aggregates): the counters as state values and their merge.

use datafusion::arrow::array::{Array, ArrayRef, AsArray};
use datafusion::arrow::datatypes::UInt64Type;
use datafusion::common::ScalarValue;

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
