//! `mteval compare --comet-compare` against comet-compare's own functions
//! (`tests/golden/comet_compare.json`, made by
//! `scripts/make_comet_golden.py` from unbabel-comet 2.2.7's compare.py on
//! seeded random score columns): every number and the printed text, in
//! table mode (a score column) and text mode (score files), and its
//! refusals.

use std::fmt::Write as _;
use std::path::Path;

use serde_json::Value;

use crate::cli::{mteval, stdout};
use crate::common::repo_golden;

/// A case's table: `system,seg_id,comet`, the scores at full precision.
/// Runs `check` on every golden case with its name and its table (a CSV in a
/// temporary folder that lives as long as the call).
fn each_case(check: impl Fn(&str, &Value, String)) {
    let golden = repo_golden("comet_compare.json");
    for c in golden["cases"].as_array().unwrap() {
        let dir = tempfile::tempdir().unwrap();
        check(c["name"].as_str().unwrap(), c, write_table(dir.path(), c));
    }
}

fn write_table(dir: &Path, c: &Value) -> String {
    let mut csv = String::from("system,seg_id,comet\n");
    for (name, scores) in c["systems"].as_array().unwrap().iter().zip(c["scores"].as_array().unwrap()) {
        for (i, v) in scores.as_array().unwrap().iter().enumerate() {
            let _ = writeln!(csv, "{},{i},{}", name.as_str().unwrap(), v.as_f64().unwrap());
        }
    }
    let p = dir.join("scores.csv");
    std::fs::write(&p, csv).unwrap();
    p.display().to_string()
}

/// One line per item.
fn lines<T: std::fmt::Display>(items: impl Iterator<Item = T>) -> String {
    items.fold(String::new(), |mut s, x| {
        let _ = writeln!(s, "{x}");
        s
    })
}

/// The flags of a case's options.
fn option_flags(c: &Value) -> Vec<String> {
    let o = &c["options"];
    vec![
        "--seed".into(),
        o["seed"].to_string(),
        "--num-splits".into(),
        o["num_splits"].to_string(),
        "--sample-ratio".into(),
        o["sample_ratio"].to_string(),
        "--t-test-alternative".into(),
        o["alternative"].as_str().unwrap().into(),
    ]
}

fn run(args: &[String]) -> String {
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let o = mteval(&args);
    assert!(o.status.success(), "mteval {args:?}: {}", String::from_utf8_lossy(&o.stderr));
    stdout(&o)
}

/// Every number of `got` (mteval's `statistical_results`) equals the
/// reference's, bit for bit (`null` for NaN on both sides).
fn assert_results(name: &str, got: &Value, want: &Value) {
    let (got, want) = (got.as_array().unwrap(), want.as_array().unwrap());
    assert_eq!(got.len(), want.len(), "{name}: pairs");
    for (g, w) in got.iter().zip(want) {
        assert_eq!(g["x_name"], w["x_name"], "{name}");
        assert_eq!(g["y_name"], w["y_name"], "{name}");
        for part in ["bootstrap_resampling", "paired_t-test"] {
            let (gp, wp) = (g[part].as_object().unwrap(), w[part].as_object().unwrap());
            assert_eq!(gp.keys().collect::<Vec<_>>(), wp.keys().collect::<Vec<_>>(), "{name}: {part} keys");
            for (k, wv) in wp {
                let gv = &gp[k];
                match (gv.as_f64(), wv.as_f64()) {
                    (Some(a), Some(b)) => {
                        assert_eq!(a.to_bits(), b.to_bits(), "{name}: {} vs {}: {part}.{k}", w["x_name"], w["y_name"]);
                    }
                    _ => assert_eq!(gv, wv, "{name}: {part}.{k}"),
                }
            }
        }
    }
}

#[test]
fn comet_compare_table_mode_matches_comet_compare() {
    each_case(|name, c, table| {
        let mut args =
            vec!["compare".to_owned(), table, "--score-col".into(), "comet".into(), "--comet-compare".into()];
        args.extend(option_flags(c));
        assert_eq!(run(&args), c["printed"].as_str().unwrap(), "{name}: printed text");
        args.extend(["-f".into(), "json".into()]);
        let out: Value = serde_json::from_str(&run(&args)).unwrap();
        let m = &out[0];
        assert_eq!(m["metric"], "comet");
        assert_eq!(m["systems"], c["systems"], "{name}");
        assert_eq!(m["seed"], c["options"]["seed"], "{name}");
        assert_results(name, &m["statistical_results"], &c["results"]);
        // The summary grid: where p < 0.05 the higher mean wins.
        let n = c["systems"].as_array().unwrap().len();
        for (p, r) in c["results"].as_array().unwrap().iter().enumerate() {
            let (x, y) = pair_index(n, p);
            let pv = r["paired_t-test"]["p_value"].as_f64().unwrap_or(f64::NAN) as f32;
            let (xm, ym) = (
                r["bootstrap_resampling"]["x-mean"].as_f64().unwrap(),
                r["bootstrap_resampling"]["y-mean"].as_f64().unwrap(),
            );
            let x_wins = pv < 0.05 && xm > ym;
            let y_wins = pv < 0.05 && xm <= ym;
            assert_eq!(m["summary"][x][y], Value::Bool(x_wins), "{name}: summary[{x}][{y}]");
            assert_eq!(m["summary"][y][x], Value::Bool(y_wins), "{name}: summary[{y}][{x}]");
        }
    });
}

/// The systems of pair `p` in `itertools.combinations(range(n), 2)` order.
fn pair_index(n: usize, p: usize) -> (usize, usize) {
    (0..n).flat_map(|x| (x + 1..n).map(move |y| (x, y))).nth(p).unwrap()
}

#[test]
fn comet_compare_text_mode_takes_score_files_in_the_given_order() {
    let golden = repo_golden("comet_compare.json");
    let c = &golden["cases"][2];
    let dir = tempfile::tempdir().unwrap();
    let systems: Vec<&str> = c["systems"].as_array().unwrap().iter().map(|s| s.as_str().unwrap()).collect();
    let n_seg = c["scores"][0].as_array().unwrap().len();
    let refs = dir.path().join("ref.txt");
    std::fs::write(&refs, lines((0..n_seg).map(|i| format!("reference {i}")))).unwrap();
    let mut score_files = Vec::new();
    for (name, scores) in systems.iter().zip(c["scores"].as_array().unwrap()) {
        std::fs::write(dir.path().join(name), lines((0..n_seg).map(|i| format!("hypothesis {i}")))).unwrap();
        let f = dir.path().join(format!("{name}.comet"));
        std::fs::write(&f, lines(scores.as_array().unwrap().iter().map(|v| v.as_f64().unwrap()))).unwrap();
        score_files.push(f.display().to_string());
    }
    // comet-compare's text names the systems by their paths, as given.
    let mut args = vec!["compare".to_owned(), refs.display().to_string(), "-i".into()];
    args.extend(systems.iter().map(|s| (*s).to_owned()));
    args.extend(["--score-file".into(), format!("comet={}", score_files.join(",")), "--comet-compare".into()]);
    let o =
        std::process::Command::new(env!("CARGO_BIN_EXE_mteval")).args(&args).current_dir(dir.path()).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(stdout(&o), c["printed"].as_str().unwrap());
    // Given in another order, the pairs follow it: the last file is system x of the first pair.
    let mut rev = vec!["compare".to_owned(), refs.display().to_string(), "-i".into()];
    rev.extend(systems.iter().rev().map(|s| (*s).to_owned()));
    let rev_scores: Vec<String> = score_files.iter().rev().cloned().collect();
    rev.extend(["--score-file".into(), format!("comet={}", rev_scores.join(",")), "--comet-compare".into()]);
    rev.extend(["-f".into(), "json".into()]);
    let o =
        std::process::Command::new(env!("CARGO_BIN_EXE_mteval")).args(&rev).current_dir(dir.path()).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out: Value = serde_json::from_slice(&o.stdout).unwrap();
    let first = &out[0]["statistical_results"][0];
    assert_eq!(first["x_name"], *systems.last().unwrap());
    assert_eq!(first["y_name"], systems[systems.len() - 2]);
    // The same pair as the reference's last one, seen from the other side: the t statistic flips sign.
    let want = c["results"].as_array().unwrap().last().unwrap();
    let (g, w) =
        (first["paired_t-test"]["statistic"].as_f64().unwrap(), want["paired_t-test"]["statistic"].as_f64().unwrap());
    assert_eq!(g.to_bits(), (-w).to_bits());
    assert_eq!(first["paired_t-test"]["p_value"], want["paired_t-test"]["p_value"]);
}

#[test]
fn comet_compare_runs_on_text_metrics_and_refuses_what_it_cannot_do() {
    let dir = tempfile::tempdir().unwrap();
    let mut csv = String::from("system,seg_id,hyp,ref\n");
    let hyps = [
        ["a cat sat", "the dog ran home", "birds fly"],
        ["a cat sat down", "the dog ran", "a bird flies"],
        ["cat", "dog", "bird"],
    ];
    let refs = ["a cat sat down", "the dog ran home", "birds fly south"];
    for (s, hs) in hyps.iter().enumerate() {
        for (i, h) in hs.iter().enumerate() {
            let _ = writeln!(csv, "s{s},{i},{h},{}", refs[i]);
        }
    }
    let t = dir.path().join("t.csv");
    std::fs::write(&t, csv).unwrap();
    let t = t.display().to_string();
    let out: Value = serde_json::from_str(&run(&[
        "compare".into(),
        t.clone(),
        "-m".into(),
        "chrf".into(),
        "ter".into(),
        "--comet-compare".into(),
        "-f".into(),
        "json".into(),
    ]))
    .unwrap();
    assert_eq!(out.as_array().unwrap().len(), 2);
    assert_eq!(out[0]["metric"], "chrF2");
    assert_eq!(out[0]["statistical_results"].as_array().unwrap().len(), 3);
    // TER: lower is better, so the summary credits the lower mean.
    assert_eq!(out[1]["lower_is_better"], true);
    assert_eq!(out[0]["sample_size"], 1);
    for (args, want) in [
        (vec!["--comet-compare", "--paired-bs"], "--paired-bs is sacrebleu's"),
        (vec!["--comet-compare", "--seed", "none"], "--seed none"),
        (vec!["--comet-compare", "--t-test-alternative", "two_sided"], "one of two-sided, less, greater"),
        (vec!["--comet-compare", "--num-splits", "0"], "--num-splits must be at least 1"),
        (vec!["--comet-compare", "--sample-ratio", "0"], "--sample-ratio must be a positive number"),
    ] {
        let mut a = vec!["compare", t.as_str(), "-m", "chrf"];
        a.extend(args);
        let o = mteval(&a);
        assert!(!o.status.success(), "{a:?}");
        let e = String::from_utf8_lossy(&o.stderr);
        assert!(e.contains(want), "{a:?}: {e}");
    }
    let one = dir.path().join("one.csv");
    std::fs::write(&one, "system,seg_id,hyp,ref\ns0,0,a,a\ns0,1,b,b\n").unwrap();
    let o = mteval(&["compare", one.to_str().unwrap(), "-m", "chrf", "--comet-compare"]);
    assert!(!o.status.success());
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("two or more systems"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

#[test]
fn comet_compare_in_sql_matches_comet_compare() {
    each_case(|name, c, table| {
        let o = &c["options"];
        let opts = format!(
            "splits:{}|ratio:{}|seed:{}|alt:{}",
            o["num_splits"],
            o["sample_ratio"],
            o["seed"],
            o["alternative"].as_str().unwrap()
        );
        // Rows shuffled by the query: the aggregate orders systems and segments itself.
        let q = format!(
            "SELECT unnest(comet_compare(comet, system, seg_id, '{opts}')) AS p FROM (SELECT * FROM '{table}' ORDER BY \
             random())"
        );
        let out = run(&["sql".into(), "-c".into(), q, "--format".into(), "json".into()]);
        let rows: Vec<Value> = serde_json::from_str(&out).unwrap();
        let want = c["results"].as_array().unwrap();
        assert_eq!(rows.len(), want.len(), "{name}");
        for (r, w) in rows.iter().zip(want) {
            let p = &r["p"];
            assert_eq!(p["x_name"], w["x_name"], "{name}");
            assert_eq!(p["y_name"], w["y_name"], "{name}");
            let b = &w["bootstrap_resampling"];
            let t = &w["paired_t-test"];
            for (k, wv) in [
                ("x_mean", &b["x-mean"]),
                ("y_mean", &b["y-mean"]),
                ("ties", &b["ties (%)"]),
                ("x_wins", &b["x_wins (%)"]),
                ("y_wins", &b["y_wins (%)"]),
                ("statistic", &t["statistic"]),
                ("p_value", &t["p_value"]),
            ] {
                match (p[k].as_f64(), wv.as_f64()) {
                    (Some(a), Some(e)) => assert_eq!(a.to_bits(), e.to_bits(), "{name}: {k}"),
                    // NaN: null in the reference's JSON; the SQL JSON writer's null or NaN.
                    (a, None) => assert!(a.is_none_or(f64::is_nan), "{name}: {k} = {}", p[k]),
                    (None, Some(e)) => panic!("{name}: {k} missing, want {e}"),
                }
            }
        }
    });
    let dir = tempfile::tempdir().unwrap();
    let t = dir.path().join("bad.csv");
    std::fs::write(&t, "system,seg_id,comet\na,1,0.5\na,2,0.6\nb,1,0.4\n").unwrap();
    let o = mteval(&["sql", "-c", &format!("SELECT comet_compare(comet, system, seg_id) FROM '{}'", t.display())]);
    assert!(!o.status.success());
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(e.contains("system 'b' has no row for segment '2'"), "{e}");
    let o = mteval(&[
        "sql",
        "-c",
        &format!("SELECT comet_compare(comet, system, seg_id, 'splits:0') FROM '{}'", t.display()),
    ]);
    assert!(String::from_utf8_lossy(&o.stderr).contains("splits:0"), "{}", String::from_utf8_lossy(&o.stderr));
}
