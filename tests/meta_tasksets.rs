//! `mteval meta --tasks wmt23|wmt24|wmt25` against mt-metrics-eval's own
//! task sets (`tests/golden/meta_tasksets.json`, made by
//! `scripts/make_taskset_golden.py` from `tasks.WMT23`/`WMT24`/`WMT25` at 68a481a
//! on synthetic test sets of three language pairs each): every task's
//! correlations, ranks and order, the weighted average correlations with
//! their significance clusters and p-values, the average ranks, and the
//! final table as text, TSV and LaTeX byte for byte; the same from a table
//! with a language pair column; and bad input.

use std::fmt::Write as _;
use std::path::Path;

use serde_json::Value;

use crate::cli::{fails_with, mteval_ok, write_file};
use crate::common::repo_golden;

fn py_num(v: &Value) -> String {
    v.as_f64().map_or_else(|| "None".to_owned(), |x| format!("{x:?}"))
}

/// Writes a golden set's pairs in mt-metrics-eval's layout under `root`.
pub(crate) fn write_layout(root: &Path, set: &Value) {
    let ts = set["test_set"].as_str().unwrap();
    let base = root.join(ts);
    for (lp, x) in set["lps"].as_object().unwrap() {
        for sub in ["references", "human-scores", &format!("metric-scores/{lp}")] {
            std::fs::create_dir_all(base.join(sub)).unwrap();
        }
        let systems: Vec<&str> = x["systems"].as_array().unwrap().iter().map(|s| s.as_str().unwrap()).collect();
        let n_seg = x["n_seg"].as_u64().unwrap() as usize;
        for r in x["refs"].as_array().unwrap() {
            write_file(&base.join("references"), &format!("{lp}.{}.txt", r.as_str().unwrap()), "x\n".repeat(n_seg));
        }
        let gold = x["gold_name"].as_str().unwrap();
        let (mut seg, mut sys) = (String::new(), String::new());
        for s in &systems {
            for v in x["gold"][s].as_array().unwrap() {
                let _ = writeln!(seg, "{s}\t{}", py_num(v));
            }
            let _ = writeln!(sys, "{s}\t{}", py_num(&x["sys_gold"][s]));
        }
        write_file(&base.join("human-scores"), &format!("{lp}.{gold}.seg.score"), seg);
        write_file(&base.join("human-scores"), &format!("{lp}.{gold}.sys.score"), sys);
        for (name, scores) in x["metrics"].as_object().unwrap() {
            let (mut seg, mut sys) = (String::new(), String::new());
            for s in &systems {
                for v in scores[s].as_array().unwrap() {
                    let _ = writeln!(seg, "{s}\t{}", py_num(v));
                }
                let _ = writeln!(sys, "{s}\t{}", py_num(&x["sys_metrics"][name][s]));
            }
            let dir = base.join("metric-scores").join(lp);
            write_file(&dir, &format!("{name}.seg.score"), seg);
            write_file(&dir, &format!("{name}.sys.score"), sys);
        }
    }
}

fn close(a: &Value, b: &Value, what: &str) {
    let (x, y) = (a.as_f64(), b.as_f64());
    match (x, y) {
        (Some(x), Some(y)) => assert!((x - y).abs() <= 1e-12, "{what}: {x} vs {y}"),
        _ => assert_eq!(a, b, "{what}"),
    }
}

/// The JSON of a task set run equals the golden set's results.
fn assert_equal_set(got: &Value, want: &Value) {
    let ts = want["test_set"].as_str().unwrap();
    let tasks = got["tasks"].as_array().unwrap();
    let wtasks = want["tasks"].as_array().unwrap();
    assert_eq!(tasks.len(), wtasks.len(), "{ts}: tasks");
    for (t, (g, w)) in tasks.iter().zip(wtasks).enumerate() {
        let what = format!("{ts} task{}", t + 1);
        assert_eq!(g["level"], w["level"], "{what}");
        assert_eq!(g["corr_fcn"], w["corr_fcn"], "{what}");
        assert_eq!(g["lp"], w["lp"], "{what}");
        assert_eq!(g["order"], w["order"], "{what}: order");
        for (m, v) in w["metrics"].as_object().unwrap() {
            let gm = &g["metrics"][m];
            close(&gm["corr"], &v["corr"], &format!("{what} {m}"));
            assert_eq!(gm["rank"], v["rank"], "{what} {m}: rank");
        }
    }
    assert_eq!(got["average_order"], want["average_order"], "{ts}: average order");
    for (m, v) in want["average"].as_object().unwrap() {
        close(&got["average"][m]["corr"], &v["corr"], &format!("{ts} average {m}"));
        assert_eq!(got["average"][m]["rank"], v["rank"], "{ts} average {m}: rank");
        close(&got["average"][m]["avg_rank"], &want["average_ranks"][m], &format!("{ts} average rank {m}"));
    }
    assert_eq!(got["average_rank_order"], want["average_rank_order"], "{ts}: average rank order");
    let (gs, ws) = (got["average_sig"].as_array().unwrap(), want["average_sig"].as_array().unwrap());
    assert_eq!(gs.len(), ws.len());
    for (i, (gr, wr)) in gs.iter().zip(ws).enumerate() {
        for (j, (a, b)) in gr.as_array().unwrap().iter().zip(wr.as_array().unwrap()).enumerate() {
            close(a, b, &format!("{ts}: average p-value [{i}][{j}]"));
        }
    }
}

fn set_args<'a>(root: &'a str, set: &'a Value, lps: &'a str, k: &'a str, seed: &'a str) -> Vec<&'a str> {
    let ts = set["test_set"].as_str().unwrap();
    vec!["meta", "--mtme", root, "--mtme-test-set", ts, "--tasks", ts, "--mtme-lp", lps, "-k", k, "--seed", seed]
}

#[test]
fn meta_task_sets_equal_mt_metrics_evals_final_tables() {
    let golden = repo_golden("meta_tasksets.json");
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().to_str().unwrap();
    for set in golden["sets"].as_array().unwrap() {
        write_layout(dir.path(), set);
        let lps: Vec<&str> = set["lps"].as_object().unwrap().keys().map(String::as_str).collect();
        let lps = lps.join(",");
        let (k, seed) = (set["k"].to_string(), set["seed"].to_string());
        let args = set_args(root, set, &lps, &k, &seed);
        let mut json = args.clone();
        json.push("--json");
        let got: Value = serde_json::from_str(&mteval_ok(&json)).unwrap();
        assert_equal_set(&got, set);
        // The weights: tasks.WMT23's (the global accuracy weighs as many as the pairs) or uniform.
        for (g, w) in got["tasks"].as_array().unwrap().iter().zip(set["weights"].as_array().unwrap()) {
            close(&g["weight"], w, "weight");
        }
        let text = mteval_ok(&args);
        let table = text.split("\n\n").next().unwrap().to_owned() + "\n";
        assert_eq!(table, set["tables"]["text"].as_str().unwrap(), "{}: text table", set["test_set"]);
        assert!(text.contains("average rank (weighted): "), "{text}");
        for fmt in ["tsv", "latex"] {
            let mut a = args.clone();
            a.extend(["--table-format", fmt]);
            assert_eq!(mteval_ok(&a), set["tables"][fmt].as_str().unwrap(), "{}: {fmt} table", set["test_set"]);
        }
    }
}

/// The systems and metrics the reference's run of a golden set used, as a
/// table with a row per pair, system and segment (columns named as the
/// reference displays the metrics); `only`: one pair's rows.
fn reference_table(set: &Value, only: Option<&str>) -> String {
    let ts = set["test_set"].as_str().unwrap();
    // Metric columns: the display names of every pair's kept metrics.
    let mut cols: Vec<String> =
        set["tasks"][0]["order"].as_array().unwrap().iter().map(|m| m.as_str().unwrap().to_owned()).collect();
    cols.sort();
    let mut csv = format!("lp,system,seg,gold,{}\n", cols.join(","));
    // Which file each column reads, per pair, and the systems each pair keeps.
    for (lp, x) in set["lps"].as_object().unwrap() {
        if only.is_some_and(|o| o != lp) {
            continue;
        }
        let human = match ts {
            "wmt23" => ["he-en", "en-he"].contains(&lp.as_str()),
            "wmt24" => lp == "en-de",
            _ => false,
        };
        let std_ref =
            if (ts == "wmt23" && lp == "he-en") || (ts == "wmt24" && lp == "en-de") { "refB" } else { "refA" };
        let refs: Vec<&str> = x["refs"].as_array().unwrap().iter().map(|r| r.as_str().unwrap()).collect();
        let outliers = ["synthetic_ref", "MSLC"];
        let files: Vec<String> = cols
            .iter()
            .map(|c| {
                let base = c.trim_end_matches("[noref]").trim_start_matches('*');
                if c.ends_with("[noref]") { format!("{base}-src") } else { format!("{base}-{std_ref}") }
            })
            .collect();
        for s in x["systems"].as_array().unwrap() {
            let s = s.as_str().unwrap();
            let is_ref = refs.contains(&s);
            let gold = x["gold"][s].as_array().unwrap();
            if s == std_ref || (is_ref && !human) || outliers.contains(&s) || gold.iter().all(Value::is_null) {
                continue;
            }
            for (i, g) in gold.iter().enumerate() {
                let g = g.as_f64().map_or(String::new(), |g| format!("{g:?}"));
                let _ = write!(csv, "{lp},{s},{i},{g}");
                for f in &files {
                    let _ = write!(csv, ",{:?}", x["metrics"][f][s][i].as_f64().unwrap());
                }
                csv.push('\n');
            }
        }
    }
    csv
}

/// The systems and metrics a task set's reference run used, as a table
/// with a language pair column (named as the reference displays them):
/// the same results.
#[test]
fn meta_task_set_of_a_table_with_a_language_pair_column_equals_the_layouts() {
    let golden = repo_golden("meta_tasksets.json");
    let dir = tempfile::tempdir().unwrap();
    for set in golden["sets"].as_array().unwrap() {
        let ts = set["test_set"].as_str().unwrap();
        let csv = reference_table(set, None);
        let table = write_file(dir.path(), &format!("{ts}.csv"), csv);
        let (k, seed) = (set["k"].to_string(), set["seed"].to_string());
        let out = mteval_ok(&[
            "meta",
            table.to_str().unwrap(),
            "--lp-col",
            "lp",
            "--segment-col",
            "seg",
            "--tasks",
            ts,
            "-k",
            &k,
            "--seed",
            &seed,
            "--json",
        ]);
        let got: Value = serde_json::from_str(&out).unwrap();
        assert_equal_set(&got, set);
    }
}

/// One language pair without `--tasks`: WMT23's four tasks from one seeding,
/// the numbers of `--tasks wmt23` over that pair.
#[test]
fn meta_default_run_of_one_pair_is_wmt23s_task_set() {
    let golden = repo_golden("meta_tasksets.json");
    let dir = tempfile::tempdir().unwrap();
    let table = write_file(dir.path(), "zh-en.csv", reference_table(&golden["sets"][0], Some("zh-en")));
    let common = ["meta", table.to_str().unwrap(), "--segment-col", "seg", "-k", "300", "--json"];
    let one: Value = serde_json::from_str(&mteval_ok(&common)).unwrap();
    let mut with = common.to_vec();
    with.extend(["--tasks", "wmt23"]);
    let set: Value = serde_json::from_str(&mteval_ok(&with)).unwrap();
    let (a, b) = (one["tasks"].as_array().unwrap(), set["tasks"].as_array().unwrap());
    assert_eq!(a.len(), 4);
    assert_eq!(b.len(), 4);
    for (x, y) in a.iter().zip(b) {
        assert_eq!(x["sig"], y["sig"], "p-values of {}", y["name"]);
        assert_eq!(x["draws"], y["draws"], "draws of {}", y["name"]);
        let ranks: Vec<&Value> = x["metrics"].as_array().unwrap().iter().map(|m| &m["rank"]).collect();
        let want: Vec<&Value> =
            y["order"].as_array().unwrap().iter().map(|m| &y["metrics"][m.as_str().unwrap()]["rank"]).collect();
        assert_eq!(ranks, want, "ranks of {}", y["name"]);
    }
}

#[test]
fn meta_task_sets_refuse_bad_input() {
    let golden = repo_golden("meta_tasksets.json");
    let set = &golden["sets"][0];
    let dir = tempfile::tempdir().unwrap();
    write_layout(dir.path(), set);
    let root = dir.path().to_str().unwrap();
    let base = ["meta", "--mtme", root, "--mtme-test-set", "wmt23", "-k", "0"];
    let with = |extra: &[&'static str]| -> Vec<&str> { base.iter().copied().chain(extra.iter().copied()).collect() };
    fails_with(
        &with(&["--tasks", "wmt23", "--mtme-lp", "en-de,zh-en", "--corr", "pearson"]),
        &["--corr runs one task"],
    );
    fails_with(&with(&["--mtme-lp", "en-de,xx-yy"]), &["xx-yy", "not a pair of test set wmt23"]);
    fails_with(&with(&["--mtme-lp", "en-de,zh-en", "--exclude", "nosuch"]), &["--exclude nosuch", "no language pair"]);
    fails_with(&with(&["--mtme-lp", "en-de,zh-en", "--average-by", "item"]), &["--average-by goes with --corr"]);
    fails_with(&with(&["--mtme-lp", "en-de", "--primary"]), &["--primary goes with a task set"]);
    // Several pairs without --tasks: the test set's task set; `all`: every pair with gold scores.
    let two = mteval_ok(&with(&["--mtme-lp", "zh-en,en-de", "--json"]));
    let two: Value = serde_json::from_str(&two).unwrap();
    assert_eq!(two["tasks"][0]["lp"], "en-de,zh-en");
    assert_eq!(two["tasks"].as_array().unwrap().len(), 7);
    let all: Value = serde_json::from_str(&mteval_ok(&with(&["--mtme-lp", "all", "--json"]))).unwrap();
    assert_eq!(all["tasks"][0]["lp"], "en-de,he-en,zh-en");
    // --primary keeps meta_info's primaries only: no contrastive `*lendiff`.
    let primary: Value = serde_json::from_str(&mteval_ok(&with(&["--mtme-lp", "all", "--primary", "--json"]))).unwrap();
    assert!(primary["average"].get("*lendiff").is_none() && primary["average"].get("BLEU").is_some(), "{primary}");
    assert!(all["average"].get("*lendiff").is_some(), "{all}");
    // A table: a NULL language pair is named by its row.
    let csv = write_file(dir.path(), "t.csv", "lp,system,seg,gold,m\nen-de,a,0,1,1\n,b,0,2,2\n");
    fails_with(
        &["meta", csv.to_str().unwrap(), "--lp-col", "lp", "--segment-col", "seg"],
        &["row 1", "language pair ('lp') is NULL"],
    );
    fails_with(&["meta", csv.to_str().unwrap(), "--lp-col", "lang"], &["lang"]);
}
