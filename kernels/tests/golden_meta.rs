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

fn compare_golden() -> Value {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/golden/meta_compare.json");
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn as_usize(v: &Value) -> usize {
    usize::try_from(v.as_u64().unwrap()).unwrap()
}

fn options(v: &Value) -> Vec<Option<f64>> {
    v.as_array().unwrap().iter().map(Value::as_f64).collect()
}

fn floats(v: &Value) -> Vec<f64> {
    v.as_array().unwrap().iter().map(|x| x.as_f64().unwrap()).collect()
}

/// `KendallWithTiesOpt`, exact and sampled under `np.random.seed`, and
/// `Agreement`: bit-equal.
#[test]
fn tie_calibration_and_accuracy_equal_mt_metrics_eval() {
    use mteval_kernels::meta::{pairwise_accuracy, tie_optimization};
    use mteval_kernels::py::legacy::RandomState;
    let g = compare_golden();
    let mut checked = 0;
    for (c, case) in g["tie_opt"].as_array().unwrap().iter().enumerate() {
        let num_sys = as_usize(&case["num_sys"]);
        let (gold, metric) = (options(&case["gold"]), floats(&case["metric"]));
        let acc = pairwise_accuracy(&gold, &metric);
        assert_eq!(acc.to_bits(), case["accuracy"].as_f64().unwrap().to_bits(), "case {c}: accuracy");
        for r in case["results"].as_array().unwrap() {
            let by = AverageBy::from_name(r["average_by"].as_str().unwrap()).unwrap();
            let variant = Variant::from_name(r["variant"].as_str().unwrap()).unwrap();
            let what = format!("case {c} {by:?} {variant:?}");
            let exact = tie_optimization(&gold, &metric, num_sys, by, variant, None).unwrap().unwrap();
            assert_eq!(exact.tau.to_bits(), r["tau"].as_f64().unwrap().to_bits(), "{what}: tau {}", exact.tau);
            assert_eq!(exact.epsilon.to_bits(), r["epsilon"].as_f64().unwrap().to_bits(), "{what}: epsilon");
            let mut rng = RandomState::seed(u32::try_from(r["sampled_seed"].as_u64().unwrap()).unwrap());
            let rate = r["sampled_rate"].as_f64().unwrap();
            let sampled =
                tie_optimization(&gold, &metric, num_sys, by, variant, Some((rate, &mut rng))).unwrap().unwrap();
            assert_eq!(sampled.tau.to_bits(), r["sampled_tau"].as_f64().unwrap().to_bits(), "{what}: sampled tau");
            assert_eq!(
                sampled.epsilon.to_bits(),
                r["sampled_epsilon"].as_f64().unwrap().to_bits(),
                "{what}: sampled eps"
            );
            checked += 1;
        }
    }
    assert_eq!(checked, 5 * 6);
}

/// Whole rankings (`CompareMetrics` and the accuracy ranking) under the
/// reference's seeds: the order, the correlations (Kendall-based and
/// accuracy bit-equal, Pearson and Spearman within 1e-14), every p-value of
/// the significance matrix, the draws done after early stopping, and the
/// rank clusters.
#[test]
fn rankings_equal_mt_metrics_eval() {
    use mteval_kernels::meta::permutation::{Measure, Params, Test, compare_metrics};
    use mteval_kernels::py::legacy::RandomState;
    let g = compare_golden();
    let cases = g["compare"].as_array().unwrap();
    assert_eq!(cases.len(), 11);
    for (c, case) in cases.iter().enumerate() {
        let num_sys = as_usize(&case["num_sys"]);
        let gold = options(&case["gold"]);
        let metrics: Vec<(String, Vec<f64>)> =
            case["metrics"].as_object().unwrap().iter().map(|(k, v)| (k.clone(), floats(v))).collect();
        let name = case["measure"].as_str().unwrap();
        let measure = match name {
            "pearson" => Measure::Corr(Statistic::Pearson),
            "spearman" => Measure::Corr(Statistic::Spearman),
            "accuracy" => Measure::Accuracy,
            "kendall_b" => Measure::Corr(Statistic::Kendall { variant: Variant::B, epsilon: 0.0 }),
            "kendall_acc23_eps0.5" => Measure::Corr(Statistic::Kendall { variant: Variant::Acc23, epsilon: 0.5 }),
            t => Measure::TiesOpt {
                variant: Variant::from_name(t.split('_').nth(1).unwrap()).unwrap(),
                sample_rate: if t.ends_with("sampled") { 0.5 } else { 1.0 },
            },
        };
        let params = Params {
            average_by: AverageBy::from_name(case["average_by"].as_str().unwrap()).unwrap(),
            k: as_usize(&case["k"]),
            block_size: as_usize(&case["block_size"]),
            test: if case["perm_test"] == "pairs" { Test::Pairs } else { Test::Scores },
            ..Params::default()
        };
        let mut rng = RandomState::seed(u32::try_from(case["seed"].as_u64().unwrap()).unwrap());
        let got = compare_metrics(&gold, &metrics, num_sys, measure, &params, &mut rng).unwrap();
        let what = format!("case {c} ({name})");
        let want = case["ranking"].as_array().unwrap();
        assert_eq!(got.metrics.len(), want.len(), "{what}");
        for (r, w) in got.metrics.iter().zip(want) {
            assert_eq!(r.name, w[0].as_str().unwrap(), "{what}: order");
            let wc = w[1].as_f64().unwrap();
            if matches!(measure, Measure::Corr(Statistic::Pearson | Statistic::Spearman)) {
                assert!((r.corr - wc).abs() <= 1e-14, "{what}: {} {} vs {wc}", r.name, r.corr);
            } else {
                assert_eq!(r.corr.to_bits(), wc.to_bits(), "{what}: {} {} vs {wc}", r.name, r.corr);
            }
            assert_eq!(r.rank as u64, w[2].as_u64().unwrap(), "{what}: rank of {}", r.name);
        }
        for (i, row) in case["sig"].as_array().unwrap().iter().enumerate() {
            for (j, p) in row.as_array().unwrap().iter().enumerate() {
                assert_eq!(got.sig[i][j], p.as_f64().unwrap(), "{what}: p-value [{i}][{j}]");
                assert_eq!(got.draws[i][j] as u64, case["draws"][i][j].as_u64().unwrap(), "{what}: draws [{i}][{j}]");
            }
        }
    }
}
