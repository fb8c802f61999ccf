//! Segment scores computed elsewhere (COMET, `MetricX`, human judgements) in
//! `compare`, `report` and the SQL resampling aggregates, against sacrebleu's
//! `PairedTest` over a `Metric` whose statistics are `[value, 1.0]`
//! (`tests/golden/significance.json`, the cases with `kind: score`, whose
//! columns are `seeded_score`'s).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use crate::cli::{fails_with, mteval_ok, sql_rows, write_jsonl};
use crate::common::{load_pair, repo_golden, seeded_score};

/// A command line's words (the temporary paths here hold no spaces).
fn words(cmd: &str) -> Vec<&str> {
    cmd.split(' ').collect()
}

/// The golden segment-score case of `pair` and `test` whose score columns
/// are `formulas` (in order; other metrics may follow).
fn case(pair: &str, test: &str, formulas: &[&str]) -> Value {
    repo_golden("significance.json")["cases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| {
            let kinds: Vec<&str> = c["metrics"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|m| m["kind"] == "score")
                .map(|m| m["name"].as_str().unwrap())
                .collect();
            c["pair"] == pair && c["test"] == test && kinds == formulas
        })
        .cloned()
        .unwrap_or_else(|| panic!("no golden score case {pair} {test} {formulas:?}"))
}

/// The pair's systems as a JSON-lines table: `system`, `seg_id` (from 0),
/// the seeded score columns `frac` and `neg`, and with `text` the
/// hypothesis and the first reference.
fn scored_table(dir: &Path, pair: &str, text: bool) -> PathBuf {
    let p = load_pair(pair, false);
    let mut rows = Vec::new();
    for (s, (name, hyps)) in p.systems.iter().enumerate() {
        for (i, h) in hyps.iter().enumerate() {
            let mut r = json!({
                "system": name, "seg_id": i, "frac": seeded_score("frac", s, i), "neg": seeded_score("neg", s, i),
            });
            if text {
                r["hyp"] = json!(h);
                r["ref"] = json!(p.refs[i][0]);
            }
            rows.push(r);
        }
    }
    let path = dir.join(format!("{pair}-{text}.jsonl"));
    write_jsonl(&path, &rows);
    path
}

/// Asserts `compare -f json`'s rows equal the golden results of every
/// metric of `c` (keyed by its name); `names`: the systems are the case's.
fn assert_rows(out: &str, c: &Value, names: bool) {
    let rows: Value = serde_json::from_str(out).unwrap();
    let rows = rows.as_array().unwrap();
    assert_eq!(rows.len(), c["systems"].as_array().unwrap().len());
    for m in c["metrics"].as_array().unwrap() {
        let name = m["name"].as_str().unwrap();
        for (s, want) in m["results"].as_array().unwrap().iter().enumerate() {
            let row = &rows[s];
            if names {
                assert_eq!(row["system"], c["systems"][s]);
            }
            for k in ["score", "p_value", "mean", "ci"] {
                assert_eq!(row[name][k].as_f64(), want[k].as_f64(), "{} {name} {k}", row["system"]);
            }
            let sig = row[name]["signature"].as_str().unwrap();
            assert_eq!(sig.split("|impl:").next().unwrap(), m["signature"].as_str().unwrap());
        }
    }
}

#[test]
fn compare_takes_score_columns_beside_text_metrics_with_sacrebleus_numbers() {
    let dir = tempfile::tempdir().unwrap();
    // Paired bootstrap: two score columns (one lower-is-better) beside BLEU.
    let c = case("en-de", "bs", &["frac", "neg"]);
    let table = scored_table(dir.path(), "en-de", true);
    let t = table.to_str().unwrap();
    let base = c["systems"][0].as_str().unwrap();
    let args = ["compare", t, "--segment-col", "seg_id", "--baseline", base, "--paired-bs", "-f", "json"];
    let out = mteval_ok(&[&args[..], &["-m", "bleu", "--score-col", "frac", "--score-col", "neg:lower"]].concat());
    assert_rows(&out, &c, true);
    // Text: the score columns are columns of sacrebleu's table, 4 decimals.
    let text = mteval_ok(&["compare", t, "--segment-col", "seg_id", "--score-col", "frac", "-m", "bleu"]);
    let first = &c["metrics"][0]["results"][0]["score"].as_f64().unwrap();
    assert!(text.contains(&format!("{first:.4}")) && text.contains("frac"), "{text}");
    assert!(text.contains("score:frac|agg:mean|dir:higher|impl:mteval-"), "{text}");

    // Approximate randomization on a table with no text columns at all.
    let c = case("de-en", "ar", &["frac", "neg"]);
    let scores_only = scored_table(dir.path(), "de-en", false);
    let cmd = format!("compare {} --segment-col seg_id --paired-ar -f json", scores_only.display());
    let out = mteval_ok(&words(&format!("{cmd} --score-col frac --score-col neg:lower")));
    assert_rows(&out, &c, true);
    // With intervals from the same generator (sacrebleu's n_ar_confidence).
    let c = case("en-de", "ar", &["frac"]);
    let out = mteval_ok(
        &[
            &args[..6],
            &["--paired-ar", "--paired-ar-n", "2000", "--paired-ar-confidence-n", "1000", "-f", "json"],
            &["-m", "chrf", "--score-col", "frac"],
        ]
        .concat(),
    );
    assert_rows(&out, &c, true);
}

#[test]
fn sql_resampling_aggregates_take_a_number_column() {
    let dir = tempfile::tempdir().unwrap();
    let table = scored_table(dir.path(), "en-de", true);
    let t = table.to_str().unwrap();
    // corpus_bootstrap over the baseline's scores: sacrebleu's --confidence.
    let c = case("en-de", "ci", &["frac", "neg"]);
    let base = c["systems"][0].as_str().unwrap();
    let q = format!(
        "SELECT corpus_bootstrap(frac, 'score', 'score:frac' ORDER BY seg_id) AS f, \
         corpus_bootstrap(neg, 'score', 'score:neg|dir:lower' ORDER BY seg_id) AS n \
         FROM (SELECT * FROM '{t}' WHERE system = '{base}' ORDER BY hyp)"
    );
    let row = &sql_rows(&q)[0];
    for (k, col) in [(0, "f"), (1, "n")] {
        let m = &c["metrics"][k];
        let want = &m["results"][0];
        for f in ["score", "mean", "ci"] {
            assert_eq!(row[col][f].as_f64(), want[f].as_f64(), "{col} {f}");
        }
        let sig = row[col]["signature"].as_str().unwrap();
        assert_eq!(sig.split("|impl:").next().unwrap(), m["signature"].as_str().unwrap());
    }
    // paired_test over a self-join: the paired bootstrap of compare.
    let c = case("en-de", "bs", &["frac", "neg"]);
    let q = format!(
        "SELECT s.system, paired_test(s.neg, b.neg, 'score', 'score:neg|dir:lower|bs:1000' ORDER BY s.seg_id) AS t \
         FROM '{t}' s JOIN '{t}' b ON s.seg_id = b.seg_id AND b.system = '{base}' \
         WHERE s.system <> '{base}' GROUP BY s.system ORDER BY s.system"
    );
    let rows = sql_rows(&q);
    let m = &c["metrics"][1];
    assert_eq!(rows.len(), 2);
    for (k, row) in rows.iter().enumerate() {
        assert_eq!(row["system"], c["systems"][k + 1]);
        for f in ["score", "p_value", "mean", "ci"] {
            assert_eq!(row["t"][f].as_f64(), m["results"][k + 1][f].as_f64(), "{} {f}", row["system"]);
        }
        assert_eq!(row["t"]["baseline_score"].as_f64(), m["results"][0]["score"].as_f64());
    }
    // A text metric on numbers, and 'score' on text, are refused by name.
    let q = format!("SELECT corpus_bootstrap(frac, 'ter') FROM '{t}'");
    fails_with(&["sql", "-c", &q], &["a number column is a segment score: give 'score' as the metric, not 'ter'"]);
    let q = format!("SELECT corpus_bootstrap(hyp, ref, 'score') FROM '{t}'");
    fails_with(&["sql", "-c", &q], &["'score' resamples a number column"]);
}

#[test]
fn score_columns_refuse_nulls_text_and_text_files_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let rows = [
        json!({"system": "a", "seg": "s1", "comet": 0.5, "label": "x"}),
        json!({"system": "a", "seg": "s2", "comet": 0.25, "label": "y"}),
        json!({"system": "b", "seg": "s1", "comet": 0.75, "label": "x"}),
        json!({"system": "b", "seg": "s2", "comet": null, "label": "y"}),
    ];
    let p = dir.path().join("nulls.jsonl");
    write_jsonl(&p, &rows);
    let t = p.to_str().unwrap();
    fails_with(
        &["compare", t, "--segment-col", "seg", "--score-col", "comet"],
        &["row 3 (system 'b', segment 's2') has no 'comet' score (NULL)"],
    );
    fails_with(
        &["compare", t, "--segment-col", "seg", "--score-col", "label"],
        &["score column 'label' has type Utf8, expected numbers"],
    );
    fails_with(&["compare", t, "--score-col", "nope"], &["score column 'nope' not found (columns: "]);
    fails_with(
        &["compare", t, "--score-col", "comet:best"],
        &["--score-col comet:best: unknown option 'best' (known: lower, higher)"],
    );
    fails_with(
        &["compare", "ref.txt", "-i", "a.txt", "b.txt", "--score-col", "comet"],
        &["--score-col comet names a column of a table"],
    );
    // Scored, the mean is the reference tool's: (0.5 + 0.25) / 2.
    let mut scored = rows.to_vec();
    scored[3]["comet"] = json!(0.0);
    write_jsonl(&p, &scored);
    let out = mteval_ok(&["compare", t, "--score-col", "comet", "--baseline", "a", "-f", "json"]);
    let v: Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}"));
    assert_eq!(v[0]["comet"]["score"].as_f64(), Some(0.375), "{out}");
}

#[test]
fn report_shows_score_columns_with_their_direction_and_numbers() {
    let dir = tempfile::tempdir().unwrap();
    let c = case("en-de", "bs", &["frac", "neg"]);
    let table = scored_table(dir.path(), "en-de", true);
    let out = dir.path().join("r.html");
    let cmd = format!("report {} --segment-col seg_id -m bleu -o {}", table.display(), out.display());
    mteval_ok(&words(&format!("{cmd} --score-col frac --score-col neg:lower")));
    let page = std::fs::read_to_string(&out).unwrap();
    for (name, dir) in [("frac", "higher"), ("neg", "lower")] {
        let head = format!(r#"<th data-metric="{name}">{name}<span class="dir">{dir} is better</span></th>"#);
        assert!(page.contains(&head), "{head}");
        assert!(page.contains(&format!("score:{name}|bs:1000|seed:12345|agg:mean|dir:{dir}")));
        assert!(page.contains(&format!("{name} with its 95% bootstrap interval")), "the interval chart of {name}");
    }
    // The systems table prints the corpus scores with 4 decimals, as compare.
    for m in &c["metrics"].as_array().unwrap()[..2] {
        let score = m["results"][0]["score"].as_f64().unwrap();
        assert!(page.contains(&format!("{score:.4}")), "{} {score:.4}", m["name"]);
    }
    mteval_ok(&["report", table.to_str().unwrap(), "--score-col", "frac", "-o", out.to_str().unwrap()]);
    fails_with(
        &["report", "ref.txt", "-i", "a.txt", "--score-col", "frac", "-o", out.to_str().unwrap()],
        &["--score-col frac names a column of a table"],
    );
}

#[test]
fn compare_text_mode_reads_score_files_plain_or_as_comet_score_prints_them() {
    let dir = tempfile::tempdir().unwrap();
    let c = case("en-de", "bs", &["frac", "neg"]);
    let p = load_pair("en-de", false);
    let lines = |v: &mut dyn Iterator<Item = String>| v.fold(String::new(), |acc, l| acc + &l + "\n");
    let refs = dir.path().join("ref.txt");
    std::fs::write(&refs, lines(&mut p.refs.iter().map(|r| r[0].clone()))).unwrap();
    let (mut hyps, mut frac, mut neg) = (Vec::new(), Vec::new(), Vec::new());
    for (s, (name, h)) in p.systems.iter().enumerate() {
        let file = |ext: &str, text: String| {
            let f = dir.path().join(format!("{name}.{ext}"));
            std::fs::write(&f, text).unwrap();
            f.to_str().unwrap().to_owned()
        };
        hyps.push(file("txt", lines(&mut h.iter().cloned())));
        frac.push(file("frac", lines(&mut (0..h.len()).map(|i| seeded_score("frac", s, i).to_string()))));
        neg.push(file("neg", lines(&mut (0..h.len()).map(|i| seeded_score("neg", s, i).to_string()))));
    }
    let mut args = vec!["compare".to_owned(), refs.to_str().unwrap().to_owned(), "-i".to_owned()];
    args.extend(hyps.iter().cloned());
    args.extend(["-m", "bleu", "--paired-bs", "-f", "json"].map(str::to_owned));
    args.extend(["--score-file".to_owned(), format!("frac={}", frac.join(","))]);
    args.extend(["--score-file".to_owned(), format!("neg:lower={}", neg.join(","))]);
    let a: Vec<&str> = args.iter().map(String::as_str).collect();
    assert_rows(&mteval_ok(&a), &c, false);
    // comet-score's output (4 decimals), matched to the -i files by path.
    let mut comet = String::new();
    for i in 0..p.refs.len() {
        for (s, h) in hyps.iter().enumerate() {
            writeln!(comet, "{h}\tSegment {i}\tscore: {:.4}", seeded_score("frac", s, i)).unwrap();
        }
    }
    for h in &hyps {
        writeln!(comet, "{h}\tscore: 0.5000").unwrap();
    }
    let cf = dir.path().join("comet.out");
    std::fs::write(&cf, comet).unwrap();
    let mut args: Vec<&str> = vec!["compare", refs.to_str().unwrap(), "-i"];
    args.extend(hyps.iter().map(String::as_str));
    let flag = format!("comet={}", cf.display());
    args.extend(["--score-file", &flag, "-f", "json"]);
    let out: Value = serde_json::from_str(&mteval_ok(&args)).unwrap();
    let want: f64 =
        (0..p.refs.len()).map(|i| format!("{:.4}", seeded_score("frac", 0, i)).parse::<f64>().unwrap()).sum();
    let got = out[0]["comet"]["score"].as_f64().unwrap();
    assert!((got - want / p.refs.len() as f64).abs() < 1e-12, "{got}");
    args.truncate(args.len() - 4);
    let flag = format!("comet={}", frac[0]);
    args.extend(["--score-file", &flag]);
    fails_with(&args, &["1 plain score files for 3 systems"]);
}
