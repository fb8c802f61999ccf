//! `mteval meta` through the binary: rankings of golden cases
//! (`tests/golden/meta_compare.json`, mt-metrics-eval's `CompareMetrics`
//! under `np.random.seed`) read from a table, the same data in
//! mt-metrics-eval's file layout, WMT23's four tasks, the text output, and
//! bad input. scripts/meta-diff.sh runs fresh random tables against the
//! reference itself.

use std::fmt::Write as _;
use std::path::Path;

use serde_json::Value;

use crate::cli::{mteval, mteval_ok, stderr, write_file};
use crate::common::repo_golden;

/// A golden case as a CSV table: systems `s00..` in the case's order,
/// segments `0..`, gold empty when missing, one column per metric.
fn case_table(dir: &Path, case: &Value) -> std::path::PathBuf {
    let num_sys = case["num_sys"].as_u64().unwrap() as usize;
    let gold = case["gold"].as_array().unwrap();
    let items = gold.len() / num_sys;
    let metrics = case["metrics"].as_object().unwrap();
    let mut csv = String::from("system,seg,gold");
    for m in metrics.keys() {
        let _ = write!(csv, ",{m}");
    }
    csv.push('\n');
    for s in 0..num_sys {
        for i in 0..items {
            let g = gold[s * items + i].as_f64().map_or(String::new(), |g| format!("{g:?}"));
            let _ = write!(csv, "s{s:02},{i},{g}");
            for v in metrics.values() {
                let _ = write!(csv, ",{:?}", v[s * items + i].as_f64().unwrap());
            }
            csv.push('\n');
        }
    }
    write_file(dir, "meta.csv", csv)
}

/// Golden ranking `i` of `tests/golden/meta_compare.json`, written as a
/// table in a new folder.
fn golden_case(i: usize) -> (Value, tempfile::TempDir, std::path::PathBuf) {
    let case = repo_golden("meta_compare.json")["compare"][i].clone();
    let dir = tempfile::tempdir().unwrap();
    let table = case_table(dir.path(), &case);
    (case, dir, table)
}

/// `mteval meta TABLE` with the case's resampling runs, block size and seed,
/// then `flags`, as JSON.
fn meta_json(table: &Path, case: &Value, flags: &str) -> Value {
    let common = format!("-k {} --block-size {} --seed {} --json", case["k"], case["block_size"], case["seed"]);
    let mut args = vec!["meta", table.to_str().unwrap(), "--segment-col", "seg"];
    args.extend(common.split_whitespace());
    args.extend(flags.split_whitespace());
    json_of(&args)
}

fn json_of(args: &[&str]) -> Value {
    serde_json::from_str(&mteval_ok(args)).unwrap()
}

/// The task's ranking equals the golden case's: order, ranks,
/// correlations (to 1e-14 for Pearson and Spearman, else bit for bit),
/// p-values and draws.
fn assert_equal_ranking(task: &Value, case: &Value, what: &str) {
    let exact = !matches!(case["measure"].as_str(), Some("pearson" | "spearman"));
    let want = case["ranking"].as_array().unwrap();
    let got = task["metrics"].as_array().unwrap();
    assert_eq!(got.len(), want.len(), "{what}");
    for (g, w) in got.iter().zip(want) {
        assert_eq!(g["name"], w[0], "{what}: order");
        assert_eq!(g["rank"], w[2], "{what}: rank of {}", w[0]);
        let (gc, wc) = (g["corr"].as_f64().unwrap(), w[1].as_f64().unwrap());
        if exact {
            assert_eq!(gc.to_bits(), wc.to_bits(), "{what}: {gc} vs {wc}");
        } else {
            assert!((gc - wc).abs() <= 1e-14, "{what}: {gc} vs {wc}");
        }
    }
    assert_eq!(task["sig"], case["sig"], "{what}: p-values");
    assert_eq!(task["draws"], case["draws"], "{what}: draws");
}

#[test]
fn meta_rankings_of_a_table_equal_mt_metrics_eval() {
    // (case, --corr and its flags): system-level Pearson and accuracy (one
    // segment per system), segment-level Pearson with early stopping,
    // Spearman by system, acc-23 with an epsilon by item, Kendall's tau-b,
    // and tie calibration with both permutation tests.
    for (c, flags) in [
        (0, "--corr pearson --level sys"),
        (1, "--corr accuracy --level sys"),
        (2, "--corr pearson"),
        (4, "--corr spearman --average-by sys"),
        (5, "--corr kendall --variant acc23 --epsilon 0.5 --average-by item"),
        (6, "--corr kendall"),
        (7, "--corr ties-opt --average-by item --perm-test pairs"),
        (8, "--corr ties-opt --variant 23 --perm-test pairs"),
        (9, "--corr ties-opt --average-by item"),
        (10, "--corr ties-opt --average-by sys --perm-test pairs --sample-rate 0.5"),
    ] {
        let (case, _dir, table) = golden_case(c);
        let out = meta_json(&table, &case, flags);
        let tasks = out["tasks"].as_array().unwrap();
        assert_eq!(tasks.len(), 1);
        assert_equal_ranking(&tasks[0], &case, &format!("case {c} {flags}"));
    }
}

/// One golden case written in mt-metrics-eval's layout (human scores with
/// `None`, a metric per file, a reference file and a second reference as a
/// human system) gives the table's WMT23 rankings.
#[test]
fn meta_reads_mt_metrics_evals_layout_as_the_table() {
    let (case, dir, table) = golden_case(3);
    let case = &case;
    let num_sys = case["num_sys"].as_u64().unwrap() as usize;
    let gold = case["gold"].as_array().unwrap();
    let items = gold.len() / num_sys;
    let base = dir.path().join("data/wmt23");
    for sub in ["human-scores", "metric-scores/en-de", "references"] {
        std::fs::create_dir_all(base.join(sub)).unwrap();
    }
    write_file(&base.join("references"), "en-de.refA.txt", "a\n".repeat(items));
    write_file(&base.join("references"), "en-de.refB.txt", "b\n".repeat(items));
    let score_file = |scores: &dyn Fn(usize, usize) -> String, extra: &str| {
        let mut s = String::new();
        for sys in 0..num_sys {
            for i in 0..items {
                let _ = writeln!(s, "s{sys:02}\t{}", scores(sys, i));
            }
        }
        s + extra
    };
    let gold_at = |s: usize, i: usize| gold[s * items + i].as_f64().map_or("None".to_owned(), |g| format!("{g:?}"));
    // refB is a human translation: scored by the humans, left out.
    let refb: String = (0..items).map(|_| "refB\t0.5\n".to_owned()).collect();
    write_file(&base.join("human-scores"), "en-de.mqm.seg.score", score_file(&gold_at, &refb));
    // System-level gold: each system's mean (what the table's reading gives).
    let out_table = json_of(&["meta", table.to_str().unwrap(), "--segment-col", "seg", "-k", "50", "--json"]);
    let mut sys_lines = String::new();
    for (name, vals) in case["metrics"].as_object().unwrap() {
        let v = |s: usize, i: usize| format!("{:?}", vals[s * items + i].as_f64().unwrap());
        write_file(
            &base.join("metric-scores/en-de"),
            &format!("{name}-refA.seg.score"),
            score_file(&v, &"refB\t1.0\n".repeat(items)),
        );
        // A metric using the other reference is not evaluated.
        write_file(&base.join("metric-scores/en-de"), &format!("{name}x-refB.seg.score"), score_file(&v, ""));
    }
    for s in 0..num_sys {
        let present: Vec<f64> = (0..items).filter_map(|i| gold[s * items + i].as_f64()).collect();
        let _ = writeln!(sys_lines, "s{s:02}\t{:?}", mteval_kernels::py::numpy_mean(&present).unwrap());
    }
    write_file(&base.join("human-scores"), "en-de.mqm.sys.score", sys_lines + "refB\t0.5\n");
    for (name, vals) in case["metrics"].as_object().unwrap() {
        let mut s = String::new();
        for sys in 0..num_sys {
            let row: Vec<f64> = (0..items).map(|i| vals[sys * items + i].as_f64().unwrap()).collect();
            let _ = writeln!(s, "s{sys:02}\t{:?}", mteval_kernels::py::numpy_mean(&row).unwrap());
        }
        write_file(&base.join("metric-scores/en-de"), &format!("{name}-refA.sys.score"), s + "refB\t1.0\n");
    }
    let root = dir.path().join("data");
    let out_mtme = json_of(&[
        "meta",
        "--mtme",
        root.to_str().unwrap(),
        "--mtme-lp",
        "en-de",
        "--mtme-ref",
        "refA",
        "-k",
        "50",
        "--json",
    ]);
    let strip_names = |v: &Value| {
        let mut v = v.clone();
        for t in v["tasks"].as_array_mut().unwrap() {
            for m in t["metrics"].as_array_mut().unwrap() {
                let n = m["name"].as_str().unwrap().trim_end_matches("-refA").to_owned();
                m["name"] = Value::String(n);
            }
        }
        v
    };
    assert_eq!(out_table["tasks"].as_array().unwrap().len(), 4, "WMT23's four tasks");
    assert_eq!(strip_names(&out_mtme), out_table);
    // Two references and no --mtme-ref: the choice is asked for.
    let o = mteval(&["meta", "--mtme", root.to_str().unwrap(), "--mtme-lp", "en-de"]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("several references (refA, refB): choose one with --mtme-ref"), "{}", stderr(&o));
}

#[test]
fn meta_prints_mt_metrics_evals_comparison_and_refuses_bad_input() {
    let (case, dir, table) = golden_case(2);
    let case = &case;
    let t = table.to_str().unwrap();
    let out = mteval_ok(&[
        "meta",
        t,
        "--segment-col",
        "seg",
        "--corr",
        "pearson",
        "-k",
        "200",
        "--block-size",
        "50",
        "--seed",
        "13",
    ]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "level=seg corr_fcn=pearson avg_by=none perm_test=scores k=200 seed=13 pval=0.05");
    // PrintMetricComparison: name, rank, correlation, then '>' where the
    // metric beats a later one (p < 0.05) and '=' where it does not.
    let want = case["ranking"].as_array().unwrap();
    for (i, w) in want.iter().enumerate() {
        let fields: Vec<&str> = lines[1 + i].split_whitespace().collect();
        assert_eq!(fields[0], w[0].as_str().unwrap(), "{out}");
        assert_eq!(fields[1], w[2].to_string(), "{out}");
        assert_eq!(fields[2], format!("{:.7}", w[1].as_f64().unwrap()), "{out}");
        let sig = &case["sig"][i].as_array().unwrap()[i + 1..];
        let marks: Vec<&str> = sig.iter().map(|p| if p.as_f64().unwrap() < 0.05 { ">" } else { "=" }).collect();
        assert_eq!(fields[3 + i + 1..].join(" "), marks.join(" "), "{out}");
    }
    for (args, needle) in [
        (vec!["meta", t, "--segment-col", "seg", "--gold", "human"], "gold column 'human' not found"),
        (
            vec!["meta", t, "--segment-col", "seg", "--perm-test", "pairs", "--corr", "pearson"],
            "--perm-test pairs goes with --corr ties-opt",
        ),
        (vec!["meta", t, "--segment-col", "seg", "--variant", "b"], "--variant goes with --corr"),
        (
            vec!["meta", t, "--segment-col", "seg", "--corr", "ties-opt", "--variant", "b"],
            "calibrates the 23 and acc23 variants",
        ),
        (vec!["meta", t, "--segment-col", "seg", "-k", "2000000"], "over the limit of 1000000"),
        (vec!["meta", t, "--mtme", "/nonexistent"], "not both"),
        (vec!["meta"], "give a table"),
    ] {
        let o = mteval(&args);
        assert!(!o.status.success(), "{args:?}");
        assert!(stderr(&o).contains(needle), "{args:?}: {}", stderr(&o));
    }
    // A NULL metric score and a missing segment are named by row and system.
    let bad = write_file(dir.path(), "bad.csv", "system,seg,gold,m\na,0,1.0,0.5\na,1,2.0,\nb,0,1.5,0.2\nb,1,0.5,0.1\n");
    let o = mteval(&["meta", bad.to_str().unwrap(), "--segment-col", "seg"]);
    assert!(stderr(&o).contains("row 1 (counting from 0): metric 'm' is NULL (system a)"), "{}", stderr(&o));
    let gap = write_file(dir.path(), "gap.csv", "system,seg,gold,m\na,0,1.0,0.5\na,1,2.0,0.4\nb,0,1.5,0.2\n");
    let o = mteval(&["meta", gap.to_str().unwrap(), "--segment-col", "seg"]);
    assert!(stderr(&o).contains("system b has no row for segment 1"), "{}", stderr(&o));
}

/// `--corr spa` (WMT24/25's soft pairwise accuracy, from the segment
/// scores) ranks a table as mt-metrics-eval's
/// `CompareMetricsWithPairwiseConfidenceError` does under `np.random.seed`
/// (`tests/golden/meta_spa.json`): SPA values, clusters, every p-value of
/// the permutation test and the draws.
#[test]
fn meta_spa_ranking_of_a_table_equals_mt_metrics_eval() {
    for c in 0..2 {
        let case = repo_golden("meta_spa.json")["compare"][c].clone();
        let dir = tempfile::tempdir().unwrap();
        let table = case_table(dir.path(), &case);
        let out = meta_json(&table, &case, "--corr spa");
        let tasks = out["tasks"].as_array().unwrap();
        assert_eq!(tasks.len(), 1);
        assert_equal_ranking(&tasks[0], &case, &format!("SPA case {c}"));
    }
    // SPA is system-level: no averaging, no segment level.
    let case = repo_golden("meta_spa.json")["compare"][0].clone();
    let dir = tempfile::tempdir().unwrap();
    let table = case_table(dir.path(), &case);
    let o = mteval(&["meta", table.to_str().unwrap(), "--segment-col", "seg", "--corr", "spa", "--level", "seg"]);
    assert!(!o.status.success() && stderr(&o).contains("system-level soft pairwise accuracy"), "{}", stderr(&o));
}

/// `--corr pearson --pdp` (Pairwise Difference Pearson) of golden tables
/// (`tests/golden/meta_pdp.json`, mt-metrics-eval's `Pearson(pdp=True)`)
/// read as tables, every averaging, within 1e-14; `-k` above 0 and the
/// other correlations refused; SQL's `meta_corr(..., 'pdp:yes')` over a
/// group equals the CLI's unaveraged value.
#[test]
fn meta_pairwise_difference_pearson_of_a_table_equals_mt_metrics_eval() {
    let golden = repo_golden("meta_pdp.json");
    let mut checked = 0;
    for case in golden["cases"].as_array().unwrap().iter().take(5) {
        let mut with_metrics = case.clone();
        with_metrics["metrics"] = serde_json::json!({ "m": case["metric"] });
        let dir = tempfile::tempdir().unwrap();
        let table = case_table(dir.path(), &with_metrics);
        let t = table.to_str().unwrap();
        for r in case["results"].as_array().unwrap() {
            let (Some(want), false) = (r["pdp"].as_array(), r["replace_nans_with_zeros"].as_bool().unwrap()) else {
                continue;
            };
            let avg = r["average_by"].as_str().unwrap();
            let args = [
                "meta",
                t,
                "--segment-col",
                "seg",
                "--corr",
                "pearson",
                "--pdp",
                "-k",
                "0",
                "--average-by",
                avg,
                "--json",
            ];
            let out = json_of(&args);
            let task = &out["tasks"][0];
            assert_eq!(task["corr_fcn"], "pearson(pdp=True)");
            let corr = task["metrics"][0]["corr"].as_f64().unwrap();
            let want = want[0].as_f64().unwrap();
            assert!((corr - want).abs() <= 1e-14, "{avg}: {corr} vs {want}");
            checked += 1;
        }
        let all = json_of(&["meta", t, "--segment-col", "seg", "--corr", "pearson", "--pdp", "-k", "0", "--json"]);
        let cli = all["tasks"][0]["metrics"][0]["corr"].as_f64().unwrap();
        let sql = mteval_ok(&[
            "sql",
            "--format",
            "csv",
            "-c",
            &format!("SELECT meta_corr(m, gold, 'pdp:yes') AS r FROM '{t}'"),
        ]);
        // NULL in SQL where the reference's average is empty (0 on the CLI).
        match sql.lines().nth(1).unwrap().trim_matches('"') {
            "" => assert!(cli == 0.0, "meta_corr pdp:yes NULL vs --pdp {cli}"),
            v => {
                let sql: f64 = v.parse().unwrap();
                assert!((sql - cli).abs() <= 1e-14, "meta_corr pdp:yes {sql} vs --pdp {cli}");
            }
        }
        for (args, needle) in [
            (vec!["meta", t, "--segment-col", "seg", "--corr", "pearson", "--pdp"], "give -k 0"),
            (
                vec!["meta", t, "--segment-col", "seg", "--corr", "spearman", "--pdp", "-k", "0"],
                "goes with --corr pearson",
            ),
            (vec!["meta", t, "--segment-col", "seg", "--pdp"], "--pdp goes with --corr"),
            (
                vec!["sql", "-c", &format!("SELECT meta_corr(m, gold, 'stat:kendall|pdp:yes') FROM '{t}'")],
                "goes with stat:pearson",
            ),
        ] {
            let o = mteval(&args);
            assert!(!o.status.success(), "{args:?}");
            assert!(stderr(&o).contains(needle), "{args:?}: {}", stderr(&o));
        }
    }
    assert!(checked >= 12, "{checked}");
}

/// The tie calibration's threshold of every metric is in the JSON and the
/// text, and equals SQL's `meta_tie_opt(...)['epsilon']` of the same
/// metric (one rule on both surfaces).
#[test]
fn meta_prints_each_metrics_tie_calibrated_epsilon() {
    let (case, _dir, table) = golden_case(5);
    let t = table.to_str().unwrap();
    let flags = ["--corr", "ties-opt", "--average-by", "item", "--perm-test", "pairs", "-k", "0"];
    let mut args = vec!["meta", t, "--segment-col", "seg"];
    args.extend(flags);
    let text = mteval_ok(&args);
    args.push("--json");
    let out = json_of(&args);
    let metrics = out["tasks"][0]["metrics"].as_array().unwrap();
    assert_eq!(metrics.len(), case["metrics"].as_object().unwrap().len());
    let line = text.lines().find(|l| l.starts_with("tie-calibrated epsilon: ")).unwrap_or_else(|| panic!("{text}"));
    for m in metrics {
        let name = m["name"].as_str().unwrap();
        let eps = m["epsilon"].as_f64().unwrap_or_else(|| panic!("{m}"));
        let sql = mteval_ok(&[
            "sql",
            "--format",
            "csv",
            "-c",
            &format!("SELECT meta_tie_opt({name}, gold, 'variant:acc23', seg)['epsilon'] AS e FROM '{t}'"),
        ]);
        let sql: f64 = sql.lines().nth(1).unwrap().parse().unwrap();
        assert_eq!(eps.to_bits(), sql.to_bits(), "{name}: --json {eps} vs meta_tie_opt {sql}");
        assert!(line.contains(&format!("{name}={eps}")), "{line}");
    }
    // Tasks without tie calibration print none.
    let plain = mteval_ok(&["meta", t, "--segment-col", "seg", "--corr", "pearson", "-k", "0"]);
    assert!(!plain.contains("tie-calibrated epsilon"), "{plain}");
}
