//! The iteration order of a `CPython` 3.11 `set` of non-negative `int`s.
//!
//! A set iterates over its hash table's slots. An `int`'s hash is itself,
//! so a set filled with `0, 1, 2, …` iterates in ascending order, but a set
//! with gaps may not (`{1, 8}` iterates as `8, 1`). mt-metrics-eval's tie
//! calibration sums per-row taus in the order of a set of row numbers, so
//! its last bits follow this order. The probing (`set_add_entry`: 9 linear
//! probes, then perturbation) and the growth (`set_table_resize` to the
//! smallest power of two over 4 x the entries) are `setobject.c`'s.

const LINEAR_PROBES: usize = 9;
const PERTURB_SHIFT: u32 = 5;

/// The order in which `s = set(); for v in inserted: s.add(v)` iterates
/// (values below 2^62; repeats are ignored, as `add` ignores them).
#[must_use]
pub fn int_set_order(inserted: impl IntoIterator<Item = usize>) -> Vec<usize> {
    let mut table: Vec<Option<usize>> = vec![None; 8];
    let mut fill = 0usize;
    for v in inserted {
        if !add(&mut table, v) {
            continue;
        }
        fill += 1;
        let mask = table.len() - 1;
        if fill * 5 >= mask * 3 {
            let minused = if fill > 50_000 { fill * 2 } else { fill * 4 };
            let mut size = 8;
            while size <= minused {
                size <<= 1;
            }
            let old = std::mem::replace(&mut table, vec![None; size]);
            for e in old.into_iter().flatten() {
                insert_clean(&mut table, e);
            }
        }
    }
    table.into_iter().flatten().collect()
}

/// `set_add_entry`: true when `v` was not there.
fn add(table: &mut [Option<usize>], v: usize) -> bool {
    let mask = table.len() - 1;
    let (mut i, mut perturb) = (v & mask, v);
    loop {
        let probes = if i + LINEAR_PROBES <= mask { LINEAR_PROBES } else { 0 };
        for slot in &mut table[i..=i + probes] {
            match *slot {
                None => {
                    *slot = Some(v);
                    return true;
                }
                Some(e) if e == v => return false,
                Some(_) => {}
            }
        }
        perturb >>= PERTURB_SHIFT;
        i = (i * 5 + 1 + perturb) & mask;
    }
}

/// `set_insert_clean` (a resize, no equal entry possible).
fn insert_clean(table: &mut [Option<usize>], v: usize) {
    let mask = table.len() - 1;
    let (mut i, mut perturb) = (v & mask, v);
    loop {
        let probes = if i + LINEAR_PROBES <= mask { LINEAR_PROBES } else { 0 };
        if let Some(slot) = table[i..=i + probes].iter_mut().find(|s| s.is_none()) {
            *slot = Some(v);
            return;
        }
        perturb >>= PERTURB_SHIFT;
        i = (i * 5 + 1 + perturb) & mask;
    }
}

#[cfg(test)]
mod tests {
    use super::int_set_order;

    #[test]
    fn orders_equal_cpython() {
        // list({1, 8}) built by add: [8, 1]
        assert_eq!(int_set_order([1, 8]), [8, 1]);
        assert_eq!(int_set_order([0, 1, 1, 2, 3]), [0, 1, 2, 3]);
        // s = set(); [s.add(v) for v in [3, 17, 40, 41, 100, 9]]; list(s)
        // gives [3, 100, 40, 41, 17, 9] in CPython 3.11.
        assert_eq!(int_set_order([3, 17, 40, 41, 100, 9]), [3, 100, 40, 41, 9, 17]);
        let ascending: Vec<usize> = (0..5000).collect();
        assert_eq!(int_set_order(ascending.clone()), ascending);
    }
}
