//! Property tests of the TER kernel.
#![allow(clippy::cast_possible_truncation, reason = "generated sentences have fewer than 14 words")]

use mteval_kernels::ter::{Ter, TerStats};
use proptest::prelude::*;

/// Sentences over a tiny vocabulary, so matches and shifts are frequent.
fn sentence() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(vec!["a", "b", "c", "d", "e", "f", "A", "x,", "y.", "z"]), 0..14)
        .prop_map(|w| w.join(" "))
}

fn variants() -> impl Strategy<Value = Ter> {
    prop::sample::select(vec!["", "case:mixed", "norm:yes", "punct:no", "norm:yes|punct:no|asian:yes|case:mixed"])
        .prop_map(|o| Ter::from_options(o).unwrap())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn score_non_negative_and_identical_is_zero(t in variants(), h in sentence(), r in sentence()) {
        let s = t.segment(&h, &[&r]).unwrap().unwrap();
        prop_assert!(t.sentence_score(&s) >= 0.0);
        let same = t.segment(&h, &[&h]).unwrap().unwrap();
        prop_assert_eq!(same.num_edits, 0);
        prop_assert_eq!(t.sentence_score(&same), 0.0);
    }

    #[test]
    fn multi_reference_edits_at_most_each_single(t in variants(), h in sentence(), r1 in sentence(), r2 in sentence()) {
        let m = t.segment(&h, &[&r1, &r2]).unwrap().unwrap();
        let s1 = t.segment(&h, &[&r1]).unwrap().unwrap();
        let s2 = t.segment(&h, &[&r2]).unwrap().unwrap();
        prop_assert!(m.num_edits <= s1.num_edits && m.num_edits <= s2.num_edits);
        prop_assert_eq!(m.num_edits, s1.num_edits.min(s2.num_edits));
    }

    #[test]
    fn shifts_never_cost_more_than_plain_banded_distance(h in sentence(), r in sentence()) {
        // Edits with shifts <= edits of the same words with no shift allowed,
        // which is bounded by max(len) for a non-empty reference.
        let t = Ter::default();
        let s = t.segment(&h, &[&r]).unwrap().unwrap();
        let hw = t.tokenize(&h).len() as u32;
        let rw = t.tokenize(&r).len() as u32;
        prop_assert!(s.num_edits <= hw.max(rw));
    }

    #[test]
    fn corpus_state_merged_from_any_partition_equals_whole(
        pairs in prop::collection::vec((sentence(), sentence()), 1..20),
        cuts in prop::collection::vec(0usize..20, 0..4),
    ) {
        let t = Ter::default();
        let segs: Vec<_> = pairs.iter().map(|(h, r)| t.segment(h, &[r]).unwrap().unwrap()).collect();
        let mut whole = TerStats::default();
        for s in &segs { whole.add(s); }
        let mut bounds: Vec<usize> = cuts.into_iter().map(|c| c % (segs.len() + 1)).collect();
        bounds.push(0);
        bounds.push(segs.len());
        bounds.sort_unstable();
        let mut parts: Vec<TerStats> = bounds.windows(2).map(|w| {
            let mut p = TerStats::default();
            for s in &segs[w[0]..w[1]] { p.add(s); }
            p
        }).collect();
        parts.reverse();
        let mut merged = TerStats::default();
        for p in &parts { merged.merge(p); }
        prop_assert_eq!(merged.num_edits, whole.num_edits);
        prop_assert_eq!(merged.segments, whole.segments);
        prop_assert!((t.score(&merged) - t.score(&whole)).abs() < 1e-9);
    }
}
