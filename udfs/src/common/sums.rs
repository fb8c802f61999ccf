//! The aggregate state of summed count vectors (`corpus_chrf` and the other
//! n-gram metrics): the sums as a list and the segment count.

use std::sync::Arc;

use datafusion::arrow::array::{Array, ArrayRef, AsArray};
use datafusion::arrow::datatypes::{DataType, Field, FieldRef, UInt64Type};
use datafusion::common::{Result, ScalarValue};
use datafusion::logical_expr::function::StateFieldsArgs;
use datafusion::logical_expr::utils::format_state_name;
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
#[must_use]
pub fn count_sums_state<M>(sums: &CountSums<M>) -> Vec<ScalarValue> {
    let list = ScalarValue::new_list_nullable(
        &sums.stats.iter().map(|&x| ScalarValue::UInt64(Some(x))).collect::<Vec<_>>(),
        &DataType::UInt64,
    );
    vec![ScalarValue::List(list), ScalarValue::UInt64(Some(sums.segments))]
}

/// Merges partial states into `sums`.
///
/// # Errors
/// Never in practice; the signature is the accumulator's.
pub fn merge_count_sums<M>(sums: &mut CountSums<M>, states: &[ArrayRef]) -> Result<()> {
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
    Ok(())
}

/// Memory held by `sums`.
#[must_use]
pub fn count_sums_size<M>(sums: &CountSums<M>) -> usize {
    std::mem::size_of_val(sums) + sums.stats.capacity() * 8
}
