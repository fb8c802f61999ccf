//! A group's rows as systems × segments, as mt-metrics-eval packs them for
//! its system-level tests (`meta_spa`, `comet_compare`): systems in key
//! order, segments in key order, each numerically when all its keys are
//! numbers (`mteval_kernels::meta::keys`), every system with a row for every
//! segment.

use std::collections::BTreeMap;

use datafusion::arrow::array::Array;
use datafusion::common::{Result, exec_err};
use mteval_kernels::meta::keys::{Key, keys};

use crate::common::ROW_IN_BATCH;

/// Refuses row `i` when one of `args` (what it is, its column) is NULL, naming
/// the function, the row and the argument, and saying what every row needs
/// (`needs`): these functions take no row without its system, its segment
/// and its score.
///
/// # Errors
/// The first NULL argument of row `i`.
pub(crate) fn refuse_null(name: &str, i: usize, args: &[(&str, &dyn Array)], needs: &str) -> Result<()> {
    match args.iter().find(|(_, col)| col.is_null(i)) {
        Some((what, _)) => exec_err!("{name}: row {i}{ROW_IN_BATCH}: the {what} is NULL: {needs}"),
        None => Ok(()),
    }
}

/// Row `i` of the group is system `systems[i]`'s row for segment
/// `segments[i]`, scored `score(i)`. Gives the systems' names in order and,
/// for each system, its rows' indices in segment order.
///
/// # Errors
/// A system with a segment twice (naming both scores); a system without a
/// row for a segment another system has (`why` says why the function needs
/// it). Both name the function `name`.
pub(crate) fn by_system(
    name: &str,
    systems: &[&str],
    segments: &[&str],
    score: impl Fn(usize) -> f64,
    why: &str,
) -> Result<(Vec<String>, Vec<Vec<usize>>)> {
    let (system_keys, segment_keys) = (keys(systems), keys(segments));
    let mut table: BTreeMap<&Key, BTreeMap<&Key, usize>> = BTreeMap::new();
    for (i, (s, k)) in system_keys.iter().zip(&segment_keys).enumerate() {
        if let Some(prev) = table.entry(s).or_default().insert(k, i) {
            return exec_err!(
                "{name}: system '{}' has segment '{}' twice (scores {} and {}): one row per system and segment",
                systems[i],
                segments[i],
                score(prev),
                score(i)
            );
        }
    }
    let mut all: Vec<&Key> = segment_keys.iter().collect();
    all.sort();
    all.dedup();
    let mut names = Vec::with_capacity(table.len());
    let mut rows = Vec::with_capacity(table.len());
    for (system, segs) in &table {
        let mut idx = Vec::with_capacity(all.len());
        for s in &all {
            let Some(&i) = segs.get(s) else {
                return exec_err!(
                    "{name}: system '{}' has no row for segment '{}', which other systems have: {why}",
                    system.name(),
                    s.name()
                );
            };
            idx.push(i);
        }
        names.push(system.name());
        rows.push(idx);
    }
    Ok((names, rows))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn systems_and_segments_in_key_order() {
        // Integer keys in numeric order (10 after 9), text keys as text.
        let (names, rows) = by_system("f", &["b", "a", "b", "a"], &["10", "9", "9", "10"], |_| 0.0, "why").unwrap();
        assert_eq!(names, ["a", "b"]);
        assert_eq!(rows, [vec![1, 3], vec![2, 0]]);
        let (_, rows) = by_system("f", &["s", "s"], &["x10", "x9"], |_| 0.0, "why").unwrap();
        assert_eq!(rows, [vec![0, 1]]);
        // Integer ids read as floats: in their numbers' order too.
        let (_, rows) = by_system("f", &["s", "s", "s"], &["10.0", "2.0", "1.5"], |_| 0.0, "why").unwrap();
        assert_eq!(rows, [vec![2, 1, 0]]);
    }

    #[test]
    fn a_repeated_or_missing_segment_is_refused_in_words() {
        let e = by_system("f", &["a", "a"], &["1", " 1"], |i| [0.5, 0.25][i], "why").unwrap_err().to_string();
        assert!(e.contains("f: system 'a' has segment ' 1' twice (scores 0.5 and 0.25)"), "{e}");
        let e = by_system("f", &["a", "a", "b"], &["1", "2", "1"], |_| 0.0, "because").unwrap_err().to_string();
        assert!(e.contains("f: system 'b' has no row for segment '2', which other systems have: because"), "{e}");
    }
}
