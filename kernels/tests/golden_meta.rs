//! The meta-evaluation statistics against mt-metrics-eval's `stats.py`
//! (commit 68a481a, numpy 2.4.6, scipy 1.17.1): `AverageCorrelation` of
//! Pearson, Spearman and every Kendall variant, with and without an epsilon,
//! over random packed matrices with ties, missing gold scores and constant
//! rows, averaged by none, sys and item (`tests/golden/meta.json`, made by
//! `scripts/make_meta_golden.py`). Kendall's values are bit-equal; Pearson
//! and Spearman, whose dot products numpy takes from BLAS, within 1e-14.

use mteval_kernels::meta::{AverageBy, Statistic, Variant, average_correlation};
use serde_json::Value;

/// The list `key` of the repository's `tests/golden/NAME`, which holds `n` cases.
fn golden_cases(name: &str, key: &str, n: usize) -> Vec<Value> {
    let cases = golden(name)[key].as_array().unwrap().clone();
    assert_eq!(cases.len(), n, "{name}: {key}");
    cases
}

/// The repository's `tests/golden/NAME`.
fn golden(name: &str) -> Value {
    let path = format!("{}/../tests/golden/{name}", env!("CARGO_MANIFEST_DIR"));
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn average_correlations_equal_mt_metrics_eval() {
    let cases = golden_cases("meta.json", "cases", 10);
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
    let g = golden("meta_compare.json");
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
    use mteval_kernels::meta::permutation::{Measure, Params, Test};
    let cases = golden_cases("meta_compare.json", "compare", 11);
    for (c, case) in cases.iter().enumerate() {
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
            test: if case["perm_test"] == "pairs" { Test::Pairs } else { Test::Scores },
            ..Params::default()
        };
        // numpy takes Pearson's and Spearman's dot products from BLAS.
        let tolerance =
            if matches!(measure, Measure::Corr(Statistic::Pearson | Statistic::Spearman)) { 1e-14 } else { 0.0 };
        compare_case(case, measure, params, tolerance, &format!("case {c} ({name})"));
    }
}

/// One golden `compare` case (`CompareMetrics*` under the case's seed, `k`
/// and `block_size`) under `measure` and `params`: the ranking's order,
/// correlations (bit-equal, or within `tolerance` when it is not 0) and
/// clusters, every p-value of the significance matrix and the draws done
/// after early stopping.
fn compare_case(
    case: &Value,
    measure: mteval_kernels::meta::permutation::Measure,
    params: mteval_kernels::meta::permutation::Params,
    tolerance: f64,
    what: &str,
) {
    use mteval_kernels::meta::permutation::{Extra, Params, compare_metrics};
    use mteval_kernels::py::legacy::RandomState;
    let metrics: Vec<(String, Vec<f64>)> =
        case["metrics"].as_object().unwrap().iter().map(|(k, v)| (k.clone(), floats(v))).collect();
    let params = Params { k: as_usize(&case["k"]), block_size: as_usize(&case["block_size"]), ..params };
    let mut rng = RandomState::seed(u32::try_from(case["seed"].as_u64().unwrap()).unwrap());
    let (gold, num_sys) = (options(&case["gold"]), as_usize(&case["num_sys"]));
    let got = compare_metrics(&gold, &metrics, num_sys, measure, &params, &mut rng, Extra::default()).unwrap();
    for (i, row) in case["sig"].as_array().unwrap().iter().enumerate() {
        for (j, p) in row.as_array().unwrap().iter().enumerate() {
            assert_eq!(got.sig[i][j], p.as_f64().unwrap(), "{what}: p-value [{i}][{j}]");
            assert_eq!(got.draws[i][j] as u64, case["draws"][i][j].as_u64().unwrap(), "{what}: draws [{i}][{j}]");
        }
    }
    let want = case["ranking"].as_array().unwrap();
    assert_eq!(got.metrics.len(), want.len(), "{what}");
    for (r, w) in got.metrics.iter().zip(want) {
        assert_eq!(r.name, w[0].as_str().unwrap(), "{what}: order");
        let wc = w[1].as_f64().unwrap();
        if tolerance == 0.0 {
            assert_eq!(r.corr.to_bits(), wc.to_bits(), "{what}: {} {} vs {wc}", r.name, r.corr);
        } else {
            assert!((r.corr - wc).abs() <= tolerance, "{what}: {} {} vs {wc}", r.name, r.corr);
        }
        assert_eq!(r.rank as u64, w[2].as_u64().unwrap(), "{what}: rank of {}", r.name);
    }
}

/// Soft pairwise accuracy against `pce.compute_pairwise_p_values` and
/// `stats.PairwiseConfidenceError` (`tests/golden/meta_spa.json`): 16 tables
/// of 2 to 15 systems and 10 to 1,500 segments, MQM-like and continuous
/// gold scores, segments without gold, tied, equal and constant metrics.
/// The p-values are counts of permutations; numpy's float32 `matmul` sums
/// in its BLAS library's order (in segment order below 32 segments, as
/// mteval does) and from 32 segments mteval rounds the exact sum once, so a
/// permutation whose difference lands within float32 rounding of the
/// observed one may count on one side only. Measured: all 1,092 p-values
/// and all 16 SPA values equal.
#[test]
fn soft_pairwise_accuracy_equals_pairwise_confidence_error() {
    use mteval_kernels::meta::spa::{filtered, one_minus_pce, pairwise_p_values, permutation_signs};
    let cases = golden_cases("meta_spa.json", "spa", 16);
    let (mut p_total, mut p_equal, mut spa_equal, mut worst) = (0, 0, 0, 0.0f64);
    for (c, case) in cases.iter().enumerate() {
        let num_sys = usize::try_from(case["num_sys"].as_u64().unwrap()).unwrap();
        let gold: Vec<Option<f64>> = case["gold"].as_array().unwrap().iter().map(Value::as_f64).collect();
        let metric: Vec<f64> = case["metric"].as_array().unwrap().iter().map(|v| v.as_f64().unwrap()).collect();
        let perms = usize::try_from(case["perms"].as_u64().unwrap()).unwrap();
        let seed = case["seed"].as_u64().unwrap();
        let (gf, mf) = filtered(&gold, &metric, num_sys).unwrap();
        let signs = permutation_signs(perms, gf.len() / num_sys, seed);
        let (gp, mp) = (pairwise_p_values(&gf, num_sys, &signs), pairwise_p_values(&mf, num_sys, &signs));
        for (ours, want) in [(&gp, &case["gold_p"]), (&mp, &case["metric_p"])] {
            let want: Vec<f64> = want.as_array().unwrap().iter().map(|v| v.as_f64().unwrap()).collect();
            assert_eq!(ours.len(), want.len());
            for (o, w) in ours.iter().zip(&want) {
                p_total += 1;
                if o == w {
                    p_equal += 1;
                } else {
                    #[allow(clippy::cast_precision_loss)]
                    let step = 1.0 / perms as f64;
                    assert!((o - w).abs() <= step + 1e-12, "case {c}: p-value {o} vs {w}");
                    eprintln!("case {c} ({num_sys} systems, {perms} permutations): p-value {o}, reference {w}");
                }
            }
        }
        let spa = one_minus_pce(&gp, &mp);
        let want = case["spa"].as_f64().unwrap();
        if spa.to_bits() == want.to_bits() {
            spa_equal += 1;
        }
        worst = worst.max((spa - want).abs());
    }
    eprintln!(
        "p-values equal: {p_equal} of {p_total}; SPA bit-equal in {spa_equal} of 16; largest SPA difference {worst:e}"
    );
    // Measured: see the README's "Soft pairwise accuracy".
    assert!(p_equal * 1000 >= p_total * 998, "{p_equal} of {p_total}");
    assert!(spa_equal >= 15, "{spa_equal}");
    assert!(worst <= 1e-3 + 1e-12, "{worst}");
}

/// `CompareMetricsWithPairwiseConfidenceError` under `np.random.seed`: the
/// SPA ranking, every p-value of its permutation test, the draws done and
/// the clusters.
#[test]
fn spa_rankings_equal_mt_metrics_eval() {
    use mteval_kernels::meta::permutation::{Measure, Params};
    let cases = golden_cases("meta_spa.json", "compare", 2);
    for (c, case) in cases.iter().enumerate() {
        compare_case(case, Measure::Spa { perms: 1000, seed: 4 }, Params::default(), 0.0, &format!("SPA case {c}"));
    }
}

/// Pairwise Difference Pearson against mt-metrics-eval's
/// `Correlation.AverageCorrelation(pearsonr, pdp=True)`
/// (`tests/golden/meta_pdp.json`): 16 tables of 1 to 15 systems and 1 to 30
/// items, missing gold scores, ties and constant metrics, every averaging,
/// with and without `replace_nans_with_zeros`; an error where the reference
/// raises `ValueError` (a vector of one score).
#[test]
fn pairwise_difference_pearson_equals_mt_metrics_eval() {
    use mteval_kernels::meta::{AverageBy, Statistic, average_correlation};
    let g = golden("meta_pdp.json");
    assert!(g["permutation_test_with_pdp"].as_str().unwrap().contains("pdp"), "the reference's test raises");
    let cases = g["cases"].as_array().unwrap();
    assert_eq!(cases.len(), 16);
    let (mut values, mut errors, mut bit_equal) = (0, 0, 0);
    for (c, case) in cases.iter().enumerate() {
        let num_sys = usize::try_from(case["num_sys"].as_u64().unwrap()).unwrap();
        let gold: Vec<Option<f64>> = case["gold"].as_array().unwrap().iter().map(Value::as_f64).collect();
        let metric: Vec<f64> = case["metric"].as_array().unwrap().iter().map(|v| v.as_f64().unwrap()).collect();
        for r in case["results"].as_array().unwrap() {
            let by = match r["average_by"].as_str().unwrap() {
                "none" => AverageBy::None,
                "sys" => AverageBy::Sys,
                _ => AverageBy::Item,
            };
            let zeros = r["replace_nans_with_zeros"].as_bool().unwrap();
            let ours = average_correlation(Statistic::PearsonPdp, &gold, &metric, num_sys, by, zeros);
            match r["pdp"].as_array() {
                None => {
                    let e = ours.expect_err("the reference raises ValueError");
                    assert!(e.contains("at least 2 scores"), "{e}");
                    errors += 1;
                }
                Some(want) => {
                    let (v, n) = ours.unwrap_or_else(|e| panic!("case {c} {by:?}: {e}"));
                    // Pearson's sums: exact here, BLAS's order in numpy (as
                    // for Pearson above, within 1e-14).
                    let want_v = want[0].as_f64().unwrap_or(f64::NAN);
                    assert!((v - want_v).abs() <= 1e-14, "case {c} {by:?} zeros {zeros}: {v} vs {want_v}");
                    bit_equal += usize::from(v.to_bits() == want_v.to_bits());
                    assert_eq!(n as u64, want[1].as_u64().unwrap(), "case {c} {by:?}: vectors averaged");
                    values += 1;
                }
            }
        }
        // The SQL face: one group's rows, all pairs (average_by none).
        if !gold.iter().any(Option::is_none) && gold.len() > 1 {
            let g: Vec<f64> = gold.iter().map(|x| x.unwrap()).collect();
            let sql = Statistic::PearsonPdp.of(&g, &metric).unwrap();
            let cli =
                average_correlation(Statistic::PearsonPdp, &gold, &metric, num_sys, AverageBy::None, false).unwrap().0;
            if !sql.is_nan() {
                assert_eq!(sql.to_bits(), cli.to_bits(), "case {c}: meta_corr's pdp:yes");
            }
        }
    }
    assert_eq!(values + errors, 96);
    assert!(errors >= 4, "the ValueError cases are in the file");
    eprintln!(
        "Pairwise Difference Pearson: {values} values, {bit_equal} bit-equal, {errors} refused as the reference raises"
    );
}

/// Two systems, Pearson: the z-scores of the metrics are `[-1, 1]` and
/// `[1, -1]` up to an ulp, so a draw that mixes them gives a nearly constant
/// vector, whose correlation scipy still computes (rounded to ±1, as for
/// every vector of two). The reference: `data.CompareMetrics(corrs,
/// scipy.stats.pearsonr, 'none', 100, PermutationSigDiffParams(block_size=100),
/// 0.05)` after `np.random.seed(7)` (mt-metrics-eval 68a481a, scipy 1.17.1):
/// p-value 0.44 (the mixtures were NaN here once, which gave 0.23).
#[test]
fn two_systems_mixtures_correlate_as_scipy() {
    use mteval_kernels::meta::permutation::{Extra, Measure, Params, compare_metrics};
    use mteval_kernels::py::legacy::RandomState;
    let gold = [Some(0.794_075_344_426_059_3), Some(1.589_363_239_339_349)];
    let metrics = vec![
        ("m0".to_owned(), vec![1.309_173_288_458_860_3, 2.051_556_527_657_462_4]),
        ("m1".to_owned(), vec![1.7, 1.0]),
    ];
    let params = Params { k: 100, block_size: 100, ..Params::default() };
    let mut rng = RandomState::seed(7);
    let got =
        compare_metrics(&gold, &metrics, 2, Measure::Corr(Statistic::Pearson), &params, &mut rng, Extra::default())
            .unwrap();
    assert_eq!(got.metrics.iter().map(|m| (m.name.as_str(), m.corr)).collect::<Vec<_>>(), [("m0", 1.0), ("m1", -1.0)]);
    assert_eq!(got.sig[0][1], 0.44);
    assert_eq!(got.draws[0][1], 100);
}
