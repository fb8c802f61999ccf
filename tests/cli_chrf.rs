//! `mteval score -m chrf chrf++` and `mteval mbr` end to end, with golden parity.

use std::collections::HashMap;

use mteval_kernels::py::numpy_mean;

use crate::cli::{
    group_scores, mbr_picks, mteval, mteval_ok, parquet_metadata, score_by_system, score_text, scored_rows, sql_rows,
    stderr, stdout, stdout_ok, system_scores, temp_file, write_jsonl, write_lines,
};
use crate::common::*;

fn chrf_corpus(pair: &str, system: &str, refs: &str, variant: &str) -> f64 {
    golden_corpus("data/golden/chrf_corpus.jsonl", pair, system, refs, variant)
}

#[test]
fn score_parquet_chrf_and_chrfpp_multi_reference() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("scored.parquet");
    let input = shared_dir().join("data/wmt/de-en.parquet").display().to_string();
    let so = score_by_system(&input, &["-m", "chrf", "chrf++", "--ref-col", "ref", "--ref-col", "ref2"], "12", &out);
    for (system, sig, score) in &system_scores(&so, 6) {
        let variant = if sig.starts_with("chrF2++|") { "chrfpp" } else { "chrf" };
        let nw = if variant == "chrfpp" { 2 } else { 0 };
        let want = format!("|nrefs:2|case:mixed|eff:yes|nc:6|nw:{nw}|space:no|version:2.6.0|impl:mteval-");
        assert!(sig.contains(&want), "{sig}");
        assert!((score - chrf_corpus("de-en", system, "ref+ref2", variant)).abs() < 1e-9, "{system} {variant}");
    }
    let golden: HashMap<(String, i64), serde_json::Value> = read_jsonl("data/golden/chrf_sentence.jsonl")
        .into_iter()
        .filter(|r| r["pair"] == "de-en")
        .map(|r| ((r["system"].as_str().unwrap().to_owned(), r["seg_id"].as_i64().unwrap()), r))
        .collect();
    let sig = parquet_metadata(&out);
    assert!(sig["mteval.signature.chrf"].starts_with("nrefs:2|case:mixed|eff:yes|nc:6|nw:0|"));
    assert!(sig["mteval.signature.chrfpp"].starts_with("nrefs:2|case:mixed|eff:yes|nc:6|nw:2|"));
    let rows = scored_rows(&out, &["chrf", "chrfpp"]);
    for (key, s) in &rows {
        let g = &golden[key];
        assert!(close(s[0], g["chrf_multi"]["chrf"].as_f64().unwrap()));
        assert!(close(s[1], g["chrf_multi"]["chrfpp"].as_f64().unwrap()));
    }
    assert_eq!(rows.len(), 1500);
}

#[test]
fn score_text_mode_chrf_with_options_and_sentences() {
    let (_, rows) = wmt_rows();
    let dir = tempfile::tempdir().unwrap();
    let sel: Vec<&WmtRow> =
        rows.iter().filter(|r| r.pair == "en-zh" && r.system == rows_system(&rows, "en-zh")).collect();
    let hyp = write_lines(dir.path(), "hyp.txt", sel.iter().map(|r| &r.hyp));
    let rf = write_lines(dir.path(), "ref.txt", sel.iter().map(|r| &r.r#ref));
    let so = stdout_ok(&score_text(&hyp, &[&rf], &["-m", "chrf++", "--options", "eff:no", "-w", "12", "--sentence"]));
    let lines = group_scores(&so);
    let (_, sig, score) = lines.last().unwrap();
    assert!(sig.starts_with("chrF2++|nrefs:1|case:mixed|eff:no|nc:6|nw:2|"), "{sig}");
    let system = &sel[0].system;
    assert!((score - chrf_corpus("en-zh", system, "ref", "chrfpp_eps")).abs() < 1e-9);
    // --sentence: one `line\tscore` per row, equal to the golden sentence scores.
    let golden: HashMap<i64, f64> = read_jsonl("data/golden/chrf_sentence.jsonl")
        .into_iter()
        .filter(|r| r["pair"] == "en-zh" && r["system"] == system.as_str())
        .map(|r| (r["seg_id"].as_i64().unwrap(), r["chrf"]["chrfpp_eps"].as_f64().unwrap()))
        .collect();
    let per_line: Vec<f64> =
        so.lines().filter(|l| !l.contains(" = ")).map(|l| l.split('\t').nth(1).unwrap().parse().unwrap()).collect();
    assert_eq!(per_line.len(), sel.len());
    for (r, got) in sel.iter().zip(per_line) {
        assert!((got - golden[&r.seg_id]).abs() < 1e-11);
    }
}

fn rows_system(rows: &[WmtRow], pair: &str) -> String {
    rows.iter().find(|r| r.pair == pair).unwrap().system.clone()
}

/// The golden self-MBR groups of `variant` as one flat JSONL candidate table.
fn mbr_input(dir: &std::path::Path, variant: &str) -> (String, Vec<serde_json::Value>) {
    let groups: Vec<serde_json::Value> = read_jsonl("data/golden/fastchrf_mbr.jsonl")
        .into_iter()
        .filter(|g| g["variant"] == variant && g["refs_kind"] == "self")
        .collect();
    let mut rows = Vec::new();
    for (gi, g) in groups.iter().enumerate() {
        for (j, h) in g["hyps"].as_array().unwrap().iter().enumerate() {
            rows.push(serde_json::json!({"src_id": gi, "cand": j, "hyp": h}));
        }
    }
    let p = dir.join("cands.jsonl");
    write_jsonl(&p, &rows);
    (p.display().to_string(), groups)
}

#[test]
fn mbr_selects_the_golden_argmax() {
    let dir = tempfile::tempdir().unwrap();
    let (input, groups) = mbr_input(dir.path(), "default");
    for utility in ["chrf", "chrf-aggregate"] {
        let out = dir.path().join(format!("{utility}.parquet"));
        let so = mteval_ok(&["mbr", &input, "--group-by", "src_id", "--utility", utility, "-o", out.to_str().unwrap()]);
        assert!(so.contains("MBR|utility:"), "{so}");
        assert!(parquet_metadata(&out).contains_key("mteval.signature.mbr"));
        let picks = mbr_picks(&out, "src_id");
        for (seen, &(gid, cand, util, ncand)) in picks.iter().enumerate() {
            let g = &groups[gid as usize];
            assert_eq!(gid, seen as i64, "groups in order of first appearance");
            let scores: Vec<f64> = if utility == "chrf" {
                g["pairwise"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|r| {
                        numpy_mean(&r.as_array().unwrap().iter().map(|x| x.as_f64().unwrap()).collect::<Vec<_>>())
                            .unwrap()
                    })
                    .collect()
            } else {
                g["aggregate"].as_array().unwrap().iter().map(|x| x.as_f64().unwrap()).collect()
            };
            let best = scores.iter().copied().fold(f64::MIN, f64::max);
            // First index within 1e-9 of the best (golden floats may be read one ulp off).
            let first = scores.iter().position(|&s| (s - best).abs() < 1e-9).unwrap();
            assert_eq!(cand as usize, first, "{utility} group {gid}");
            assert!(close(util, best));
            assert_eq!(ncand as usize, scores.len());
        }
        assert_eq!(picks.len(), groups.len());
    }
}

#[test]
fn mbr_ter_utility_self_exclusion_and_errors() {
    let (dir, p) = temp_file(
        "c.jsonl",
        "{\"s\":1,\"hyp\":\"a b c d\"}\n{\"s\":1,\"hyp\":\"a b c\"}\n{\"s\":1,\"hyp\":null}\n{\"s\":1,\"hyp\":\"x y\"}\n{\"s\":2,\"hyp\":\"q\"}\n",
    );
    let input = p.display().to_string();
    let out = dir.path().join("sel.csv");
    mteval_ok(&[
        "mbr",
        &input,
        "--group-by",
        "s",
        "--utility",
        "mbr_ter",
        "--options",
        "self:no",
        "-o",
        out.to_str().unwrap(),
    ]);
    let csv = std::fs::read_to_string(&out).unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    // Group 1, each candidate against the two others: "a b c d" (1/3, 4/2) → 116.67; "a b c" (1/4, 3/2) → 87.5;
    // "x y" (4/4, 3/3) → 100. Lowest mean TER wins: "a b c". Group 2 has no other candidate: nothing selected.
    assert_eq!(lines.len(), 2, "{csv}");
    assert_eq!(lines[1], "a b c,1,87.5,3", "{csv}");
    for (args, needle) in [
        (vec!["mbr", input.as_str(), "--group-by", "nope"], "group-by column 'nope' not found"),
        (vec!["mbr", input.as_str(), "--group-by", "s", "--hyp-col", "zz"], "hypothesis column 'zz' not found"),
        (vec!["mbr", input.as_str(), "--group-by", "s", "--options", "self:maybe"], "self:maybe"),
        (
            vec!["mbr", input.as_str(), "--group-by", "s", "--utility", "nope"],
            "unknown utility 'nope' (known: chrf, chrf_aggregate, ter, or the mean sentence score of a text metric: bleu",
        ),
        (
            vec!["mbr", input.as_str(), "--group-by", "s", "--utility", "term_acc"],
            "term_accuracy cannot be an MBR utility",
        ),
        (vec!["mbr", input.as_str(), "--group-by", "s", "--utility", "ter", "--options", "nc:6"], "unknown key 'nc'"),
        (vec!["mbr", "/nonexistent/x.parquet", "--group-by", "s"], "/nonexistent/x.parquet"),
    ] {
        let o = mteval(&args);
        let se = stderr(&o);
        assert!(!o.status.success() && se.contains(needle), "{args:?}: {se}");
    }
    let o = mteval(&["score", &input, "-m", "chrf", "chrf"]);
    assert!(!o.status.success() && stderr(&o).contains("twice"));
}

/// Each case (`hyp`, `refs`) as a row `(i, hyp, refs)` of the JSON-lines file `dir/name`.
fn write_cases<'a>(
    dir: &std::path::Path,
    name: &str,
    cases: impl IntoIterator<Item = &'a serde_json::Value>,
) -> std::path::PathBuf {
    let rows: Vec<serde_json::Value> = cases
        .into_iter()
        .enumerate()
        .map(|(i, c)| serde_json::json!({"i": i, "hyp": c["hyp"], "refs": c["refs"]}))
        .collect();
    let p = dir.join(name);
    write_jsonl(&p, &rows);
    p
}

/// Edge cases and metric vectors through the binary (`mteval sql` over a JSONL file).
#[test]
fn edge_cases_and_metric_vectors_through_the_binary() {
    let dir = tempfile::tempdir().unwrap();
    let edge = read_jsonl("data/golden/edge_cases.jsonl");
    let p = write_cases(dir.path(), "edge.jsonl", &edge);
    let vectors = read_json("data/golden/metric_vectors.json");
    let cases: Vec<&serde_json::Value> =
        vectors["chrf_sacrebleu_2.6.0"].as_array().unwrap().iter().filter(|c| c["kind"] == "sentence").collect();
    let vp = write_cases(dir.path(), "vectors.jsonl", cases.iter().copied());
    for (variant, o) in [("chrf", ""), ("chrf_eps", "eff:no"), ("chrfpp", "nw:2"), ("chrfpp_eps", "nw:2|eff:no")] {
        let q = format!(
            "SELECT i, chrf_stats(hyp, [refs[1]], '{o}') AS s, chrf(hyp, refs, '{o}') AS m FROM '{}' ORDER BY i",
            p.display()
        );
        let rows = sql_rows(&q);
        assert_eq!(rows.len(), edge.len());
        for (r, g) in rows.iter().zip(&edge) {
            let id = g["id"].as_str().unwrap();
            assert_eq!(r["s"]["stats"], g["chrf"][variant]["stats"], "{id} {variant}");
            assert!(close(r["s"]["score"].as_f64().unwrap(), g["chrf"][variant]["score"].as_f64().unwrap()), "{id}");
            let multi = if g["chrf_multi"].is_null() { &g["chrf"] } else { &g["chrf_multi"] };
            assert!(close(r["m"].as_f64().unwrap(), multi[variant]["score"].as_f64().unwrap()), "{id} multi");
        }
    }
    let q = format!("SELECT i, hyp, refs FROM '{}' ORDER BY i", vp.display());
    assert!(mteval(&["sql", "-c", &q]).status.success());
    for (i, c) in cases.iter().enumerate() {
        let opts = c["options"].as_object().unwrap();
        let mut o = Vec::new();
        for (k, v) in opts {
            o.push(match k.as_str() {
                "word_order" => format!("nw:{v}"),
                "char_order" => format!("nc:{v}"),
                "beta" => format!("beta:{v}"),
                "eps_smoothing" => "eff:no".to_owned(),
                "lowercase" => "case:lc".to_owned(),
                "whitespace" => "space:yes".to_owned(),
                other => panic!("unknown option {other}"),
            });
        }
        let q = format!("SELECT chrf(hyp, refs, '{}') AS s FROM '{}' WHERE i = {i}", o.join("|"), vp.display());
        let out = mteval(&["sql", "-c", &q, "--format", "ndjson"]);
        let v: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
        assert!(close(v["s"].as_f64().unwrap(), c["score"].as_f64().unwrap()), "{c}");
    }
}
