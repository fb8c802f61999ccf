//! `meta_corr` in SQL against mt-metrics-eval's `stats.py`
//! (`tests/golden/meta.json`, made by `scripts/make_meta_golden.py`): over all
//! pairs (`average_by='none'`) the value itself; per system and per item, the
//! `GROUP BY` correlations averaged with `AVG` (NULLs, the reference's NaNs
//! and short vectors, left out as it leaves them out). Missing gold scores
//! are NULL rows.

use std::sync::Arc;

use datafusion::arrow::array::{Array, AsArray, Float64Array, Int64Array, RecordBatch};
use datafusion::arrow::datatypes::{DataType, Field, Float64Type, Schema};
use datafusion::prelude::{SessionConfig, SessionContext};
use mteval_udfs::{MtevalConfig, register_all};
use serde_json::Value;

/// `tests/golden/NAME` of the repository.
fn golden(name: &str) -> Value {
    let path = format!("{}/../tests/golden/{name}", env!("CARGO_MANIFEST_DIR"));
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// A session of one partition (rows in input order) with every function.
fn session() -> SessionContext {
    let cfg = SessionConfig::new().with_option_extension(MtevalConfig::default()).with_target_partitions(1);
    let mut ctx = SessionContext::new_with_config(cfg);
    register_all(&mut ctx).unwrap();
    ctx
}

/// A case's gold scores (None: missing) and metric scores.
fn scores(case: &Value) -> (Vec<Option<f64>>, Vec<f64>) {
    let gold = case["gold"].as_array().unwrap().iter().map(Value::as_f64).collect();
    let metric = case["metric"].as_array().unwrap().iter().map(|v| v.as_f64().unwrap()).collect();
    (gold, metric)
}

/// Registers `name`: the packed scores of `items` per system as rows
/// (`sys`, `item`, `gold`, `metric`), taken in the order of `idx`.
fn register(ctx: &SessionContext, name: &str, gold: &[Option<f64>], metric: &[f64], items: u64, idx: &[u64]) {
    let schema = Arc::new(Schema::new(vec![
        Field::new("sys", DataType::Int64, false),
        Field::new("item", DataType::Int64, false),
        Field::new("gold", DataType::Float64, true),
        Field::new("metric", DataType::Float64, false),
    ]));
    let at = |i: u64| usize::try_from(i).unwrap();
    let batch = RecordBatch::try_new(
        schema,
        vec![
            Arc::new(Int64Array::from_iter_values(idx.iter().map(|i| (i / items).cast_signed()))),
            Arc::new(Int64Array::from_iter_values(idx.iter().map(|i| (i % items).cast_signed()))),
            Arc::new(Float64Array::from(idx.iter().map(|&i| gold[at(i)]).collect::<Vec<_>>())),
            Arc::new(Float64Array::from(idx.iter().map(|&i| metric[at(i)]).collect::<Vec<_>>())),
        ],
    )
    .unwrap();
    ctx.register_batch(name, batch).unwrap();
}

async fn value(ctx: &SessionContext, sql: &str) -> Option<f64> {
    let batches = ctx.sql(sql).await.unwrap().collect().await.unwrap_or_else(|e| panic!("{sql}: {e}"));
    let col = batches[0].column(0).as_primitive::<Float64Type>();
    (!col.is_null(0)).then(|| col.value(0))
}

#[tokio::test]
async fn meta_corr_equals_mt_metrics_eval() {
    let ctx = session();
    let g = golden("meta.json");
    let mut checked = 0;
    for (c, case) in g["cases"].as_array().unwrap().iter().enumerate() {
        let num_sys = case["num_sys"].as_u64().unwrap();
        let (gold, metric) = scores(case);
        let items = gold.len() as u64 / num_sys;
        let table = format!("t{c}");
        register(&ctx, &table, &gold, &metric, items, &(0..gold.len() as u64).collect::<Vec<_>>());
        for r in case["results"].as_array().unwrap() {
            if r["replace_nans_with_zeros"].as_bool().unwrap() {
                continue; // NULL stands for both a NaN and a short vector in SQL
            }
            let by = r["average_by"].as_str().unwrap();
            for (key, want) in r.as_object().unwrap() {
                let opts = match key.as_str() {
                    "pearson" => "stat:pearson".to_owned(),
                    "spearman" => "stat:spearman".to_owned(),
                    k if k.starts_with("kendall_") => {
                        let rest = &k["kendall_".len()..];
                        match rest.split_once("_eps") {
                            Some((v, e)) => format!("stat:kendall|variant:{v}|epsilon:{e}"),
                            None => format!("stat:kendall|variant:{rest}"),
                        }
                    }
                    _ => continue,
                };
                let sql = match by {
                    "none" => format!("SELECT meta_corr(metric, gold, '{opts}') FROM {table}"),
                    _ => format!(
                        "SELECT avg(c) FROM (SELECT meta_corr(metric, gold, '{opts}') AS c FROM {table} GROUP BY {by})"
                    ),
                };
                let got = value(&ctx, &sql).await;
                let what = format!("case {c} by {by}: {sql}");
                match (want[0].as_f64(), want[1].as_u64().unwrap(), got) {
                    // The reference's (0, n=0): nothing averaged.
                    (Some(w), 0, None) => assert_eq!(w, 0.0, "{what}"),
                    (None, _, None) => {}
                    (Some(w), _, Some(v)) if by == "none" && key.starts_with("kendall") => {
                        assert_eq!(v.to_bits(), w.to_bits(), "{what}: {v} vs {w}");
                    }
                    // AVG's sum order is the engine's; Pearson's dot products BLAS's.
                    (Some(w), _, Some(v)) => assert!((v - w).abs() <= 1e-14, "{what}: {v} vs {w}"),
                    (w, _, v) => panic!("{what}: {v:?} vs {w:?}"),
                }
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 10 * 3 * 12);
}

#[tokio::test]
async fn meta_corr_refuses_bad_options_and_arguments() {
    let mut ctx = SessionContext::new();
    register_all(&mut ctx).unwrap();
    let rows = "(VALUES (1.0, 2.0), (2.0, 1.0), (3.0, 3.0)) AS t(m, g)";
    for (call, needle) in [
        ("meta_corr(m, g, 'stat:tau')", "stat:tau"),
        ("meta_corr(m, g, 'stat:kendall|variant:c|epsilon:0.5')", "variant:c"),
        ("meta_corr(m, 'x')", "meta_corr: gold must be a number column"),
        ("meta_corr(m)", "takes (metric, gold [, options])"),
    ] {
        let err = match ctx.sql(&format!("SELECT {call} FROM {rows}")).await {
            Ok(df) => df.collect().await.unwrap_err().to_string(),
            Err(e) => e.to_string(),
        };
        assert!(err.contains(needle), "{call}: {err}");
    }
    // Fewer than two pairs: NULL; a constant vector: NULL (NaN in the reference).
    for (call, want) in [
        ("meta_corr(m, g) FROM (VALUES (1.0, 2.0)) AS t(m, g)", None),
        ("meta_corr(m, g) FROM (VALUES (1.0, 2.0), (1.0, 3.0)) AS t(m, g)", None),
        ("meta_corr(m, g, 'stat:kendall|variant:acc23') FROM (VALUES (1.0, 2.0), (1.0, 3.0)) AS t(m, g)", Some(0.0)),
        ("meta_corr(m, g) FROM (VALUES (1.0, 2.0), (2.0, NULL), (3.0, 4.0)) AS t(m, g)", Some(1.0)),
    ] {
        assert_eq!(value(&ctx, &format!("SELECT {call}")).await, want, "{call}");
    }
}

/// `meta_tie_opt` against `KendallWithTiesOpt` (`tests/golden/meta_compare.json`):
/// over all pairs, per system and per item (the fourth argument), exact and
/// sampled after `np.random.seed`; tau and epsilon bit-equal.
#[tokio::test]
async fn meta_tie_opt_equals_mt_metrics_eval() {
    let g = golden("meta_compare.json");
    let (ctx, mut checked) = (session(), 0);
    for (c, case) in g["tie_opt"].as_array().unwrap().iter().enumerate() {
        let num_sys = case["num_sys"].as_u64().unwrap();
        let (gold, metric) = scores(case);
        let items = gold.len() as u64 / num_sys;
        // Rows in mt-metrics-eval's order for each averaging: by item, the
        // systems of an item in order; otherwise system-major.
        let table = format!("tie{c}");
        let order: Vec<u64> = (0..items).flat_map(|i| (0..num_sys).map(move |s| s * items + i)).collect();
        register(&ctx, &format!("{table}_s"), &gold, &metric, items, &(0..gold.len() as u64).collect::<Vec<_>>());
        register(&ctx, &format!("{table}_i"), &gold, &metric, items, &order);
        for r in case["results"].as_array().unwrap() {
            let (by, variant) = (r["average_by"].as_str().unwrap(), r["variant"].as_str().unwrap());
            let (t, row) = match by {
                "none" => (format!("{table}_s"), String::new()),
                "sys" => (format!("{table}_s"), ", sys".to_owned()),
                _ => (format!("{table}_i"), ", item".to_owned()),
            };
            let seed = r["sampled_seed"].as_u64().unwrap();
            for (opts, tau, eps) in [
                (format!("variant:{variant}"), &r["tau"], &r["epsilon"]),
                (format!("variant:{variant}|sample:0.3|seed:{seed}"), &r["sampled_tau"], &r["sampled_epsilon"]),
            ] {
                let sql = format!(
                    "SELECT o['tau'], o['epsilon'] FROM (SELECT meta_tie_opt(metric, gold, '{opts}'{row}) AS o FROM {t})"
                );
                let batches = ctx.sql(&sql).await.unwrap().collect().await.unwrap_or_else(|e| panic!("{sql}: {e}"));
                let got_tau = batches[0].column(0).as_primitive::<Float64Type>().value(0);
                let got_eps = batches[0].column(1).as_primitive::<Float64Type>().value(0);
                assert_eq!(
                    got_tau.to_bits(),
                    tau.as_f64().unwrap().to_bits(),
                    "case {c}: {sql}: tau {got_tau} vs {tau}"
                );
                assert_eq!(got_eps.to_bits(), eps.as_f64().unwrap().to_bits(), "case {c}: {sql}: epsilon");
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 5 * 6 * 2);
    // No pair: NULL; bad options: named.
    let one = "(VALUES (1.0, 2.0)) AS t(m, g)";
    let sql = format!("SELECT meta_tie_opt(m, g) IS NULL FROM {one}");
    let b = ctx.sql(&sql).await.unwrap().collect().await.unwrap();
    assert!(b[0].column(0).as_boolean().value(0), "{sql}");
    for (opts, needle) in [
        ("variant:b", "variant:b"),
        ("sample:0.5", "needs seed:S"),
        ("sample:2|seed:1", "sample:2"),
        ("seed:3", "seed goes with"),
    ] {
        let sql = format!("SELECT meta_tie_opt(m, g, '{opts}') FROM {one}");
        let err = match ctx.sql(&sql).await {
            Ok(df) => df.collect().await.unwrap_err().to_string(),
            Err(e) => e.to_string(),
        };
        assert!(err.contains(needle), "{sql}: {err}");
    }
}

/// `meta_spa` against `PairwiseConfidenceError` (`tests/golden/meta_spa.json`):
/// rows in a shuffled order, on one and on four partitions, equal the
/// kernel's value bit for bit and the reference's within one permutation
/// (see `kernels/tests/golden_meta.rs` for how often they are bit-equal).
#[tokio::test]
async fn meta_spa_equals_pairwise_confidence_error() {
    use mteval_kernels::meta::spa::spa;
    let g = golden("meta_spa.json");
    let cfg = SessionConfig::new().with_option_extension(MtevalConfig::default()).with_target_partitions(4);
    let mut four = SessionContext::new_with_config(cfg);
    register_all(&mut four).unwrap();
    for (c, case) in g["spa"].as_array().unwrap().iter().enumerate() {
        let (gold, metric) = scores(case);
        let num_sys = case["num_sys"].as_u64().unwrap();
        let items = gold.len() as u64 / num_sys;
        let (perms, seed) = (case["perms"].as_u64().unwrap(), case["seed"].as_u64().unwrap());
        // A fixed shuffle: every 7th row first, then the rest backwards.
        let n = gold.len() as u64;
        let mut idx: Vec<u64> = (0..n).filter(|i| i % 7 == 0).collect();
        idx.extend((0..n).rev().filter(|i| i % 7 != 0));
        let sql = format!("SELECT meta_spa(metric, gold, sys, item, 'perms:{perms}|seed:{seed}') FROM t{c}");
        let want =
            spa(&gold, &metric, usize::try_from(num_sys).unwrap(), usize::try_from(perms).unwrap(), seed).unwrap();
        for ctx in [&session(), &four] {
            register(ctx, &format!("t{c}"), &gold, &metric, items, &idx);
            let got = value(ctx, &sql).await.unwrap();
            assert_eq!(got.to_bits(), want.to_bits(), "case {c}: {got} vs the kernel's {want}");
        }
        let reference = case["spa"].as_f64().unwrap();
        #[allow(clippy::cast_precision_loss)]
        let step = 1.0 / perms as f64;
        assert!((want - reference).abs() <= step + 1e-12, "case {c}: {want} vs {reference}");
    }
    // Refusals: a system without a segment, a segment twice, NULL metric, bad options, a gold score missing on
    // one system only.
    let ctx = session();
    for (sql, needle) in [
        (
            "SELECT meta_spa(m, g, s, i) FROM (VALUES (1.0, 1.0, 'a', 1), (2.0, 2.0, 'a', 2), (1.0, 1.0, 'b', 1)) AS v(m, g, s, i)",
            "has no row for segment '2'",
        ),
        (
            "SELECT meta_spa(m, g, s, i) FROM (VALUES (1.0, 1.0, 'a', 1), (2.0, 2.0, 'a', 1), (1.0, 1.0, 'b', 1)) AS v(m, g, s, i)",
            "has segment '1' twice",
        ),
        (
            "SELECT meta_spa(m, g, s, i) FROM (VALUES (CAST(NULL AS DOUBLE), 1.0, 'a', 1), (1.0, 1.0, 'b', 1)) AS v(m, g, s, i)",
            "metric score (first argument) is NULL",
        ),
        (
            "SELECT meta_spa(m, g, s, i, 'perms:0') FROM (VALUES (1.0, 1.0, 'a', 1), (1.0, 1.0, 'b', 1)) AS v(m, g, s, i)",
            "perms:0",
        ),
        (
            "SELECT meta_spa(m, g, s, i) FROM (VALUES (1.0, CAST(NULL AS DOUBLE), 'a', 1), (1.0, 1.0, 'b', 1), (1.0, 1.0, 'a', 2), (1.0, 1.0, 'b', 2)) AS v(m, g, s, i)",
            "not 2 equal rows",
        ),
    ] {
        let err = match ctx.sql(sql).await {
            Ok(df) => df.collect().await.unwrap_err().to_string(),
            Err(e) => e.to_string(),
        };
        assert!(err.contains(needle), "{sql}: {err}");
    }
}
