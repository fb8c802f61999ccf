//! Paired bootstrap resampling, paired approximate randomization and
//! bootstrap confidence intervals against sacrebleu 2.6.0 on the shared WMT
//! systems (`tests/golden/significance.json`, made by
//! `scripts/make_significance_golden.py`): the same scores, means, intervals
//! and p-values, exactly, for BLEU, chrF, chrF++, TER, the WER family and
//! segment scores computed elsewhere (seeded score columns).

mod common;

use mteval_kernels::NRefs;
use mteval_kernels::metrics;
use std::sync::Arc;

use mteval_kernels::metric::FromStats;
use mteval_kernels::metric::Metric;
use mteval_kernels::metric::segment_score::{self, SegmentScore};
use mteval_kernels::significance::{self, PairedTest, SegmentStats};
use serde_json::Value;

/// The metric of a golden case: `kind` (bleu, chrf, ter, the WER family, or
/// `score`, a seeded score column) with mteval options.
fn metric(kind: &str, opts: &str) -> Arc<dyn Metric> {
    if kind == "score" {
        return Arc::new(SegmentScore::parse(opts).unwrap());
    }
    metrics::lookup(kind).unwrap().configure(opts).unwrap()
}

/// Per-segment statistics of `hyps` (the `s`-th system sorted by name)
/// against `refs`; a score column's are its seeded scores.
fn stats(m: &dyn Metric, s: usize, hyps: &[String], refs: &[Vec<String>]) -> SegmentStats {
    let mut out = SegmentStats::new(m.stats().unwrap().width());
    if let Some(column) = m.score_column() {
        for i in 0..hyps.len() {
            out.push(&segment_score::stats(common::seeded_score(column, s, i)));
        }
        return out;
    }
    for (h, r) in hyps.iter().zip(refs) {
        let r: Vec<&str> = r.iter().map(String::as_str).collect();
        out.push(&m.segment(h, &r).unwrap().unwrap());
    }
    out
}

fn opt(v: &Value) -> Option<f64> {
    v.as_f64()
}

#[test]
fn significance_matches_sacrebleu_on_the_shared_systems() {
    let golden = common::repo_golden("significance.json");
    let mut checked = 0usize;
    for case in golden["cases"].as_array().unwrap() {
        let pair = case["pair"].as_str().unwrap();
        let test_kind = case["test"].as_str().unwrap();
        let n = usize::try_from(case["n"].as_u64().unwrap()).unwrap();
        let seed = Some(u128::from(case["seed"].as_u64().unwrap()));
        let refs_cols: Vec<&str> = case["refs"].as_array().unwrap().iter().map(|v| v.as_str().unwrap()).collect();
        let data = common::load_pair(pair, refs_cols.len() > 1);
        let names: Vec<&str> = case["systems"].as_array().unwrap().iter().map(|v| v.as_str().unwrap()).collect();
        let systems: Vec<&Vec<String>> =
            names.iter().map(|n| &data.systems.iter().find(|(s, _)| s == n).unwrap().1).collect();
        let nondeterministic = case["nondeterministic_systems"].as_bool().unwrap_or(false);
        let metrics: Vec<(Arc<dyn Metric>, &Value)> = case["metrics"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| (metric(m["kind"].as_str().unwrap(), m["mteval_options"].as_str().unwrap()), m))
            .collect();
        let views: Vec<&dyn FromStats> = metrics.iter().map(|(m, _)| m.stats().unwrap()).collect();
        let nrefs = NRefs::Fixed(refs_cols.len());
        let ctx = format!("{pair} {test_kind} n={n} seed={seed:?}");
        if test_kind == "ci" {
            for (m, g) in &metrics {
                let s = stats(m.as_ref(), 0, systems[0], &data.refs);
                let r = significance::confidence(m.stats().unwrap(), &s, n, seed).unwrap();
                let want = &g["results"][0];
                assert_eq!(r.score, want["score"].as_f64().unwrap(), "{ctx} {}", g["name"]);
                let e = r.estimate.unwrap();
                assert_eq!(
                    (e.mean, e.ci),
                    (want["mean"].as_f64().unwrap(), want["ci"].as_f64().unwrap()),
                    "{ctx} {}",
                    g["name"]
                );
                let keys = PairedTest::Bootstrap(n).signature_keys(seed);
                let sig = significance::with_test_keys(&m.signature(nrefs).to_string(), &keys);
                assert_eq!(sig.split("|impl:").next().unwrap(), g["signature"].as_str().unwrap(), "{ctx}");
                checked += 1;
            }
            continue;
        }
        let test = if test_kind == "bs" {
            PairedTest::Bootstrap(n)
        } else {
            let c = case["n_ar_confidence"].as_i64().unwrap();
            PairedTest::Randomization(n, usize::try_from(c).ok().filter(|&c| c > 0))
        };
        let stats: Vec<Vec<SegmentStats>> = systems
            .iter()
            .enumerate()
            .map(|(s, hyps)| metrics.iter().map(|(m, _)| stats(m.as_ref(), s, hyps, &data.refs)).collect())
            .collect();
        let results = significance::compare(&views, &stats, test, seed).unwrap();
        for (k, (m, g)) in metrics.iter().enumerate() {
            let sig = significance::with_test_keys(&m.signature(nrefs).to_string(), &test.signature_keys(seed));
            assert_eq!(sig.split("|impl:").next().unwrap(), g["signature"].as_str().unwrap(), "{ctx}");
            for (s, want) in g["results"].as_array().unwrap().iter().enumerate() {
                if s > 0 && nondeterministic {
                    continue;
                }
                let r = &results[s][k];
                let what = format!("{ctx} {} {}", g["name"], names[s]);
                assert_eq!(r.score, want["score"].as_f64().unwrap(), "{what}: score");
                assert_eq!(r.p_value, opt(&want["p_value"]), "{what}: p-value");
                assert_eq!(r.estimate.map(|e| e.mean), opt(&want["mean"]), "{what}: mean");
                assert_eq!(r.estimate.map(|e| e.ci), opt(&want["ci"]), "{what}: ci");
                checked += 1;
            }
        }
    }
    assert!(checked >= 200, "only {checked} results checked");
}
