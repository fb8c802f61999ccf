//! The CLI with `CharacTER` (`score -m characTER`, `calculate-cer`) and term
//! match accuracy (`score -m term-acc`), with golden parity.

use datafusion::arrow::array::AsArray;
use datafusion::arrow::datatypes::{DataType, Float64Type, Int64Type};

use crate::cli::{
    mteval, mteval_ok, ndjson, online_b_text_files, parquet_batches, parquet_metadata, parquet_schema, score_text,
    stderr, stdout_ok, write_file, write_lines,
};
use crate::common::*;

/// `name: value` pairs of the printed Python dict (floats and ints; `None` → NaN).
fn dict_values(line: &str) -> Vec<(String, f64)> {
    let inner = line.trim().trim_start_matches('{').trim_end_matches('}');
    let inner = inner.split(", 'cer_scores'").next().unwrap();
    inner
        .split(", '")
        .map(|kv| {
            let (k, v) = kv.split_once("': ").unwrap();
            (k.trim_start_matches('\'').to_owned(), if v == "None" { f64::NAN } else { v.parse().unwrap() })
        })
        .collect()
}

#[test]
fn score_characterr_parquet_per_row_and_per_system() {
    let dir = tempfile::tempdir().unwrap();
    let out_path = dir.path().join("scored.parquet");
    let input = shared_dir().join("data/wmt/en-de.parquet");
    let text = mteval_ok(&[
        "score",
        input.to_str().unwrap(),
        "-m",
        "characTER",
        "--options",
        "compat:cer",
        "--group-by",
        "system",
        "-w",
        "12",
        "-o",
        out_path.to_str().unwrap(),
    ]);
    let corpus = read_jsonl("data/golden/cer_corpus.jsonl");
    let mut groups = 0;
    for line in text.lines() {
        let (g, rest) = line.split_once('\t').unwrap();
        let system = g.strip_prefix("system=").unwrap();
        assert!(rest.starts_with("CharacTER|nrefs:1|tok:split|compat:cer|"), "{rest}");
        let score: f64 = rest.rsplit(" = ").next().unwrap().parse().unwrap();
        let g = corpus.iter().find(|c| c["pair"] == "en-de" && c["system"] == system && c["refs"] == "ref").unwrap();
        assert!((score - g["mean"].as_f64().unwrap()).abs() < 1e-11, "{system}");
        groups += 1;
    }
    assert_eq!(groups, 3);
    // Per-row scores in the output file equal cer's.
    let golden = read_jsonl("data/golden/cer_sentence.jsonl");
    assert!(parquet_metadata(&out_path)["mteval.signature.charac_ter"].contains("compat:cer"));
    // Input columns keep their types (Parquet strings are not turned into
    // Utf8View, which readers before pyarrow 16 cannot open).
    let schema = parquet_schema(&out_path);
    for (name, t) in [("system", DataType::Utf8), ("hyp", DataType::Utf8), ("seg_id", DataType::Int64)] {
        assert_eq!(schema.field_with_name(name).unwrap().data_type(), &t, "{name}");
    }
    let mut n = 0;
    for b in parquet_batches(&out_path) {
        let sys = b.column_by_name("system").unwrap().as_string::<i32>();
        let seg = b.column_by_name("seg_id").unwrap().as_primitive::<Int64Type>();
        let s = b.column_by_name("charac_ter").unwrap().as_primitive::<Float64Type>();
        for i in 0..b.num_rows() {
            let g = golden
                .iter()
                .find(|g| g["pair"] == "en-de" && g["system"] == sys.value(i) && g["seg_id"] == seg.value(i))
                .unwrap();
            assert!(close(s.value(i), g["cer"].as_f64().unwrap()));
            n += 1;
        }
    }
    assert_eq!(n, 1500);
}

#[test]
fn calculate_cer_prints_like_the_cer_package() {
    let dir = tempfile::tempdir().unwrap();
    let (_, [hyp, _, r2]) = online_b_text_files(dir.path());
    let g = read_jsonl("data/golden/cer_corpus.jsonl")
        .into_iter()
        .find(|c| c["pair"] == "de-en" && c["system"] == "Online-B" && c["refs"] == "ref2")
        .unwrap();
    for per_sentence in [false, true] {
        let mut args = vec!["calculate-cer", hyp.to_str().unwrap(), r2.to_str().unwrap(), "--options", "compat:cer"];
        if per_sentence {
            args.push("--per-sentence");
        }
        let text = mteval_ok(&args);
        let lines: Vec<&str> = text.lines().collect();
        let dict = lines.last().unwrap();
        assert_eq!(lines[lines.len() - 3], "Processing completed! Corpus statistics:");
        assert!(dict.starts_with("{'count': 500, 'mean': 0."), "{dict}");
        assert_eq!(dict.contains("'cer_scores': ["), !per_sentence);
        for (k, v) in dict_values(dict) {
            assert!((v - g[&k].as_f64().unwrap()).abs() <= 1e-12, "{k}: {v} vs {}", g[&k]);
        }
        if per_sentence {
            assert_eq!(lines.len(), 500 * 4 + 3);
            assert!(lines[0].starts_with("Hypothesis 1:\t"));
            assert!(lines[2].starts_with("CER score 1:\t"));
        }
    }
    // The default (original) arithmetic differs from cer on exactly the drift row of this system.
    let text = mteval_ok(&["calculate-cer", hyp.to_str().unwrap(), r2.to_str().unwrap()]);
    let mean = dict_values(text.lines().last().unwrap())[1].1;
    assert!(mean > g["mean"].as_f64().unwrap());
    // Mismatched line counts are an error naming both files.
    let short = write_file(dir.path(), "short.txt", "a\n");
    let o = mteval(&["calculate-cer", hyp.to_str().unwrap(), short.to_str().unwrap()]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("short.txt"));
}

#[test]
fn score_text_mode_characterr_sentence_lines() {
    let dir = tempfile::tempdir().unwrap();
    let hyp = write_lines(dir.path(), "h.txt", ["this is in fact an estimate", "i like your bag", ""]);
    let r = write_lines(dir.path(), "r.txt", ["this is actually an estimate", "i like their bags", "a"]);
    let text = stdout_ok(&score_text(&hyp, &[&r], &["-m", "characTER", "--sentence", "-w", "17"]));
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "1\t0.25925925925925924");
    assert_eq!(lines[1], "2\t0.33333333333333331");
    assert_eq!(lines[2], "3\t1.00000000000000000");
    assert!(lines[3].starts_with("CharacTER|nrefs:1|"));
}

#[test]
fn score_term_accuracy_matches_get_match_accuracies() {
    let dir = tempfile::tempdir().unwrap();
    let path = crate::sql_cer::write_terms_table(dir.path(), |r| r["source"] == "wmt");
    let lines = ndjson(&mteval(&[
        "score",
        path.to_str().unwrap(),
        "-m",
        "term-acc",
        "term-acc-lemmatized",
        "--group-by",
        "pair",
        "--json",
    ]));
    let corpus = read_jsonl("data/golden/terms_corpus.jsonl");
    let mut n = 0;
    for v in lines {
        let pair = v["group"].as_str().unwrap();
        let c = corpus.iter().find(|c| c["id"] == format!("wmt-{pair}")).unwrap();
        let key = if v["name"] == "TermAcc" { "exact match accuracy" } else { "lemmatized match accuracy" };
        assert!(close(v["score"].as_f64().unwrap(), c["result"][key].as_f64().unwrap()), "{pair} {key}");
        assert!(v["signature"].as_str().unwrap().starts_with("variant:"));
        n += 1;
    }
    assert_eq!(n, 6);
    // No reference column is needed; a missing terms column is named.
    let o = mteval(&["score", path.to_str().unwrap(), "-m", "term-acc", "--terms-col", "nope"]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("terms column 'nope' not found"));
}
