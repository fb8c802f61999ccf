//! Sentence and corpus chrF / chrF++, and fastChrF's pairwise and aggregate
//! chrF for MBR (the batch functions and `Group`).
//!
//! Input: byte 0 picks the options (bits 0-1 nw 0/1/2/2, bit 2 eff:no, bit 3
//! space:yes, bit 4 case:lc, bit 5 ws:unicode, bits 6-7 how many strings of
//! the group are references); byte 1 picks nc (low 3 bits) and beta (high 5
//! bits); the rest is lossy UTF-8 split on '\n' into at most 8 strings of at
//! most 300 bytes: the hypothesis, then its references; the same strings form
//! the MBR group.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mteval_fuzz::{fields, in_range, text};
use mteval_kernels::chrf::group::Group;
use mteval_kernels::py::numpy_mean;
use mteval_kernels::chrf::{ChrfStats, Whitespace, aggregate_chrf, pairwise_chrf};
use mteval_kernels::{ChrfConfig, FastChrfOptions, NRefs};

const BETAS: [f64; 8] = [2.0, 0.0, 0.5, 1.0, 3.0, 1e-3, 10.0, 1e6];

fn score_ok(x: f64) -> bool {
    in_range(x, 100.0, 1e-9)
}

fuzz_target!(|data: &[u8]| {
    if data.len() < 2 {
        return;
    }
    let (f, g) = (data[0], data[1]);
    let word_order = match f & 3 {
        0 => 0,
        1 => 1,
        _ => 2,
    };
    let mut char_order = usize::from(g & 7);
    if char_order + word_order == 0 {
        char_order = 6;
    }
    let cfg = ChrfConfig {
        char_order,
        word_order,
        beta: BETAS[usize::from(g >> 3) % BETAS.len()] * if g >> 6 == 3 { 1.5 } else { 1.0 },
        lowercase: f & 16 != 0,
        whitespace: f & 8 != 0,
        eps_smoothing: f & 4 != 0,
        ws_rule: if f & 32 != 0 { Whitespace::Unicode } else { Whitespace::Python },
    };
    assert_eq!(ChrfConfig::parse(&cfg.signature(NRefs::Var).to_string()), Ok(cfg));

    let s = text(&data[2..], 4000);
    let strs = fields(&s, '\n', 8, 300);
    let hyp = strs[0];
    let refs = &strs[1..];

    // Sentence chrF.
    assert_eq!(cfg.segment(hyp, &[]), None);
    if !refs.is_empty() {
        let seg = cfg.segment(hyp, refs).expect("no segment");
        assert!(seg.best_ref < refs.len());
        assert_eq!(seg.stats.len(), cfg.stats_len());
        for o in seg.stats.chunks_exact(3) {
            let (h, r, m) = (o[0], o[1], o[2]);
            assert!(m <= h && m <= r, "order stats {o:?}");
        }
        let sc = cfg.score(&seg.stats);
        assert!(score_ok(sc), "sentence chrF {sc}");
        assert_eq!(cfg.sentence_score(hyp, refs), Some(sc));
        // The best reference's own sentence score is the segment's score.
        assert_eq!(cfg.sentence_score(hyp, &[refs[seg.best_ref]]), Some(sc));
        if !cfg.eps_smoothing && refs.contains(&hyp) && seg.stats.chunks_exact(3).any(|o| o[0] > 0) {
            assert_eq!(sc, 100.0, "identical reference but chrF {sc}");
        }
        // Corpus: F of summed statistics.
        let mut st = ChrfStats::default();
        st.add(&seg.stats);
        let one = st.score(&cfg).expect("no corpus score");
        assert_eq!(one, sc);
        let mut st2 = st.clone();
        st2.merge(&st);
        assert!(score_ok(st2.score(&cfg).expect("no corpus score")));
    }

    // fastChrF / MBR on the whole group: the strings as hypotheses, the first
    // `n_refs` of them (at least one) as references.
    let fcfg = ChrfConfig { ws_rule: Whitespace::Unicode, ..cfg };
    let n_refs = (usize::from(f >> 6) + 1).min(strs.len());
    let group_refs = &strs[..n_refs];
    let grp = Group::new(&fcfg, &strs, Some(group_refs)).expect("group");
    assert_eq!((grp.n_hyps(), grp.n_refs()), (strs.len(), n_refs));
    let pw = grp.pairwise();
    assert_eq!(pw.len(), strs.len());
    for (j, row) in pw.iter().enumerate() {
        assert_eq!(row.len(), n_refs);
        for (k, &x) in row.iter().enumerate() {
            assert!(score_ok(x), "pairwise {x}");
            // Documented: bit-identical to sentence chrF of (hyp_j, [ref_k]).
            let want = fcfg.sentence_score(strs[j], &[group_refs[k]]).expect("sentence");
            assert_eq!(x.to_bits(), want.to_bits(), "pairwise[{j}][{k}] {x} != sentence chrF {want}");
        }
    }
    let agg = grp.aggregate();
    assert_eq!(agg.len(), strs.len());
    for (j, &x) in agg.iter().enumerate() {
        assert!(score_ok(x), "aggregate {x}");
        if n_refs == 1 {
            assert_eq!(x.to_bits(), pw[j][0].to_bits(), "aggregate over one reference != pairwise");
        }
    }
    let eu = grp.expected_utility(false);
    for (j, u) in eu.iter().enumerate() {
        assert_eq!(*u, numpy_mean(&pw[j]));
        assert!(score_ok(u.expect("no utility")));
    }
    let skip: Vec<Option<usize>> =
        (0..strs.len()).map(|j| data.get(2 + j).map(|&b| usize::from(b) % (n_refs + 1))).collect();
    for u in grp.expected_utility_skipping(&skip).into_iter().flatten() {
        assert!(score_ok(u));
    }
    for (j, a) in grp.aggregate_skipping(&skip).into_iter().enumerate() {
        let left_out = skip[j].is_some_and(|e| e < n_refs);
        assert_eq!(a.is_none(), left_out && n_refs == 1, "aggregate_skipping[{j}] = {a:?}");
        assert!(a.is_none_or(score_ok));
    }

    // The group as its own references (MBR), with and without the diagonal.
    let own = Group::new(&fcfg, &strs, None).expect("group");
    assert_eq!(own.n_refs(), strs.len());
    for (j, u) in own.expected_utility(true).into_iter().enumerate() {
        assert_eq!(u.is_none(), strs.len() == 1, "utility[{j}] = {u:?}");
        assert!(u.is_none_or(score_ok));
    }

    // The batch API (two copies of the group) agrees with `Group`.
    let opts = FastChrfOptions {
        char_order: cfg.char_order,
        word_order: cfg.word_order,
        beta: cfg.beta,
        remove_whitespace: !cfg.whitespace,
        eps_smoothing: cfg.eps_smoothing,
        lowercase: cfg.lowercase,
    };
    assert_eq!(opts.config(), fcfg);
    let hb = vec![strs.clone(), strs.clone()];
    let rb = vec![group_refs.to_vec(), group_refs.to_vec()];
    let p = pairwise_chrf(&hb, &rb, &opts).expect("pairwise_chrf");
    assert_eq!(p, vec![pw.clone(), pw]);
    let a = aggregate_chrf(&hb, &rb, &opts).expect("aggregate_chrf");
    assert_eq!(a, vec![agg.clone(), agg]);
    assert!(pairwise_chrf(&hb, &rb[..1], &opts).is_err());
    assert!(aggregate_chrf::<&str>(&[], &[], &opts).is_err());
});
