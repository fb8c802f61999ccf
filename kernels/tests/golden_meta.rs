//! The meta-evaluation statistics against mt-metrics-eval's `stats.py`
//! (commit 68a481a, numpy 2.4.6, scipy 1.17.1): `AverageCorrelation` of
//! Pearson, Spearman and every Kendall variant, with and without an epsilon,
//! over random packed matrices with ties, missing gold scores and constant
//! rows, averaged by none, sys and item (`tests/golden/meta.json`, made by
//! `scripts/make_meta_golden.py`). Kendall's values are bit-equal; Pearson
//! and Spearman, whose dot products numpy takes from BLAS, within 1e-14.

use mteval_kernels::meta::{AverageBy, Statistic, Variant, average_correlation};
use serde_json::Value;

fn golden() -> Value {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/golden/meta.json");
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn average_correlations_equal_mt_metrics_eval() {
    let g = golden();
    let cases = g["cases"].as_array().unwrap();
    assert_eq!(cases.len(), 10);
    let mut checked = 0;
    for (c, case) in cases.iter().enumerate() {
        let num_sys = usize::try_from(case["num_sys"].as_u64().unwrap()).unwrap();
        let gold: Vec<Option<f64>> = case["gold"].as_array().unwrap().iter().map(Value::as_f64).collect();
        let metric: Vec<f64> = case["metric"].as_array().unwrap().iter().map(|v| v.as_f64().unwrap()).collect();
        for r in case["results"].as_array().unwrap() {
            let by = AverageBy::from_name(r["average_by"].as_str().unwrap()).unwrap();
            let zeros = r["replace_nans_with_zeros"].as_bool().unwrap();
            for (key, want) in r.as_object().unwrap() {
                let stat = match key.as_str() {
                    "pearson" => Statistic::Pearson,
                    "spearman" => Statistic::Spearman,
                    k if k.starts_with("kendall_") => {
                        let rest = &k["kendall_".len()..];
                        let (v, eps) = rest.split_once("_eps").map_or((rest, 0.0), |(v, e)| (v, e.parse().unwrap()));
                        Statistic::Kendall { variant: Variant::from_name(v).unwrap(), epsilon: eps }
                    }
                    _ => continue,
                };
                let (corr, n) = average_correlation(stat, &gold, &metric, num_sys, by, zeros).unwrap();
                let what = format!("case {c} {key} by {by:?} zeros {zeros}");
                assert_eq!(n as u64, want[1].as_u64().unwrap(), "{what}: count");
                match want[0].as_f64() {
                    None => assert!(corr.is_nan(), "{what}: {corr} where the reference gives NaN"),
                    Some(w) if matches!(stat, Statistic::Kendall { .. }) => {
                        assert_eq!(corr.to_bits(), w.to_bits(), "{what}: {corr} vs {w}");
                    }
                    Some(w) => assert!((corr - w).abs() <= 1e-14, "{what}: {corr} vs {w}"),
                }
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 10 * 6 * 12);
}
