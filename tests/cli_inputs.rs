//! Input shapes a user meets outside the shared data: raw TSV, CSV columns
//! that look numeric, dictionary-encoded strings, NULL group values,
//! constant-expression options, and the messages that locate a bad row.

use std::fmt::Write as _;
use std::sync::Arc;

use datafusion::arrow::array::{Array, AsArray, DictionaryArray, RecordBatch};
use datafusion::arrow::datatypes::{DataType, Field, Int32Type, Int64Type, Schema};
use mteval_kernels::{ChrfConfig, Ter};
use parquet::arrow::ArrowWriter;

use crate::cli::{
    mteval, mteval_ok, mteval_stdin, ndjson, parquet_f64s, parquet_schema, score_text, stderr, temp_file, write_file,
};
use crate::sql::{ctx, f64s, query, query_fails_with};

/// The rows of a JSON-lines file the binary wrote.
fn read_jsonl(path: &std::path::Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(path).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

fn ter(h: &str, r: &str) -> f64 {
    let t = Ter::from_options("").unwrap();
    t.sentence_score(&t.segment(h, &[r]).unwrap().unwrap())
}

/// Corpus TER of line-aligned pairs, as the kernels compute it.
fn corpus_ter(pairs: &[(&str, &str)]) -> f64 {
    let t = Ter::from_options("").unwrap();
    let mut st = mteval_kernels::ter::TerStats::default();
    for (h, r) in pairs {
        st.add(&t.segment(h, &[r]).unwrap().unwrap());
    }
    t.score(&st)
}

#[test]
fn tsv_fields_are_raw_text_quotes_included() {
    let (_dir, tsv) = temp_file("q.tsv", "hyp\tref\n\"Yes,\" he said\tYes, he said\nsay \"hi\tsay hi\n");
    let pairs = [("\"Yes,\" he said", "Yes, he said"), ("say \"hi", "say hi")];
    let expected = corpus_ter(&pairs);
    assert!(expected > 0.0);
    let o = mteval(&["score", tsv.to_str().unwrap(), "--json"]);
    let v = ndjson(&o);
    assert!((v[0]["score"].as_f64().unwrap() - expected).abs() < 1e-12, "{v:?}");
    // SQL reads .tsv by path, the same way.
    let o = mteval(&[
        "sql",
        "--format",
        "ndjson",
        "-c",
        &format!("SELECT hyp, ter(hyp, ref) AS t FROM '{}'", tsv.display()),
    ]);
    let v = ndjson(&o);
    assert_eq!(v.len(), 2);
    for (row, (h, r)) in v.iter().zip(pairs) {
        assert_eq!(row["hyp"], h);
        assert!((row["t"].as_f64().unwrap() - ter(h, r)).abs() < 1e-12, "{row}");
    }
}

#[test]
fn csv_text_columns_that_look_numeric_are_scored_as_text() {
    let (dir, csv) = temp_file("num.csv", "hyp,ref\n2022,2021\n015,15\n");
    let o = mteval(&["score", csv.to_str().unwrap(), "--json", "-m", "ter", "chrf"]);
    let v = ndjson(&o);
    assert!((v[0]["score"].as_f64().unwrap() - corpus_ter(&[("2022", "2021"), ("015", "15")])).abs() < 1e-12);
    let chrf = ChrfConfig::parse("").unwrap();
    let mut st = mteval_kernels::ChrfStats::default();
    for (h, r) in [("2022", "2021"), ("015", "15")] {
        st.add(&chrf.segment(h, &[r]).unwrap().stats);
    }
    assert!((v[1]["score"].as_f64().unwrap() - st.score(&chrf).unwrap()).abs() < 1e-12);
    // Numbers for longer than type inference reads, then text.
    let mut text = String::from("id,hyp,ref\n");
    for i in 0..1500 {
        let _ = writeln!(text, "{i},{i},{}", i + 1);
    }
    text.push_str("1500,the cat,a cat\n");
    let late = write_file(dir.path(), "late.csv", text);
    let out = dir.path().join("late.parquet");
    mteval_ok(&["score", late.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    // The id column keeps its inferred type; the text columns are strings.
    let schema = parquet_schema(&out);
    assert_eq!(schema.field_with_name("id").unwrap().data_type(), &DataType::Int64);
    assert_eq!(schema.field_with_name("hyp").unwrap().data_type(), &DataType::Utf8);
    let scores = parquet_f64s(&out, "ter");
    assert_eq!(scores.len(), 1501);
    assert!((scores[1500].unwrap() - ter("the cat", "a cat")).abs() < 1e-12);
    assert!((scores[7].unwrap() - ter("7", "8")).abs() < 1e-12);
}

#[test]
fn a_null_group_is_not_the_group_named_null() {
    let (_dir, input) = temp_file(
        "g.jsonl",
        "{\"hyp\":\"a b\",\"ref\":\"a b\",\"system\":\"NULL\"}\n{\"hyp\":\"a c\",\"ref\":\"a b\",\"system\":null}\n",
    );
    let v = ndjson(&mteval(&["score", input.to_str().unwrap(), "--group-by", "system", "--json"]));
    assert_eq!(v.len(), 2, "{v:?}");
    assert_eq!(v[0]["group"], "NULL");
    assert_eq!(v[0]["score"].as_f64(), Some(0.0));
    assert!(v[1]["group"].is_null());
    assert_eq!(v[1]["score"].as_f64(), Some(50.0));
    let o = mteval(&["score", input.to_str().unwrap(), "--group-by", "system"]);
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("system=NULL\t") && text.contains("system IS NULL\t"), "{text}");
}

#[test]
fn dictionary_encoded_references_work_as_a_list() {
    let dir = tempfile::tempdir().unwrap();
    let hyps = ["a b c", "c d"];
    let (r1, r2) = (["a b d", "c e"], [Some("a c"), None]);
    let dict =
        |v: Vec<Option<&str>>| -> Arc<dyn Array> { Arc::new(v.into_iter().collect::<DictionaryArray<Int32Type>>()) };
    let dt = DataType::Dictionary(Box::new(DataType::Int32), Box::new(DataType::Utf8));
    let schema = Arc::new(Schema::new(vec![
        Field::new("hyp", dt.clone(), true),
        Field::new("ref", dt.clone(), true),
        Field::new("ref2", dt, true),
    ]));
    let b = RecordBatch::try_new(
        Arc::clone(&schema),
        vec![
            dict(hyps.iter().map(|s| Some(*s)).collect()),
            dict(r1.iter().map(|s| Some(*s)).collect()),
            dict(r2.to_vec()),
        ],
    )
    .unwrap();
    let path = dir.path().join("dict.parquet");
    let mut w = ArrowWriter::try_new(std::fs::File::create(&path).unwrap(), schema, None).unwrap();
    w.write(&b).unwrap();
    w.close().unwrap();
    let t = Ter::from_options("").unwrap();
    let mut st = mteval_kernels::ter::TerStats::default();
    st.add(&t.segment(hyps[0], &[r1[0], "a c"]).unwrap().unwrap());
    st.add(&t.segment(hyps[1], &[r1[1]]).unwrap().unwrap());
    let v = ndjson(&mteval(&["score", path.to_str().unwrap(), "--ref-col", "ref", "--ref-col", "ref2", "--json"]));
    assert!((v[0]["score"].as_f64().unwrap() - t.score(&st)).abs() < 1e-12, "{v:?}");
}

#[test]
fn score_passes_the_length_limit_to_the_functions() {
    let dir = tempfile::tempdir().unwrap();
    let hyp = vec!["w"; 6000].join(" ");
    let input = write_file(dir.path(), "long.jsonl", format!("{}\n", serde_json::json!({"hyp": hyp, "ref": "w"})));
    let i = input.to_str().unwrap();
    for m in ["ter", "characTER"] {
        let o = mteval(&["score", i, "-m", m]);
        assert_eq!(o.status.code(), Some(1), "{m}");
        assert!(stderr(&o).contains("over the limit of"), "{m}: {}", stderr(&o));
        let v = ndjson(&mteval(&["score", i, "-m", m, "--options", "max_words:none", "--json"]));
        assert_eq!(v[0]["segments"], 1, "{m}");
    }
    let v = ndjson(&mteval(&["score", i, "-m", "ter", "chrf", "--options", "ter=max_words:6000", "--json"]));
    let unlimited = Ter::from_options("max_words:none").unwrap();
    let expected = unlimited.sentence_score(&unlimited.segment(&hyp, &["w"]).unwrap().unwrap());
    assert_eq!(v[0]["score"].as_f64(), Some(expected));
    let o = mteval(&["score", i, "-m", "ter", "--options", "max_words:5999"]);
    assert!(stderr(&o).contains("over the limit of 5999"), "{}", stderr(&o));
}

#[tokio::test]
async fn options_may_be_constant_expressions_of_any_string_type() {
    let ctx = ctx();
    let plain =
        query(&ctx, "SELECT ter('Hello, World', 'hello world', 'punct:no'), chrf('a b c', 'a b d', 'nw:2')").await;
    let folded = query(
        &ctx,
        "SELECT ter('Hello, World', 'hello world', arrow_cast('punct:no', 'LargeUtf8')), \
         chrf('a b c', 'a b d', 'nw:' || '2'), \
         ter('Hello, World', 'hello world', CASE WHEN 1 = 1 THEN 'punct:no' ELSE 'punct:yes' END), \
         ter('Hello, World', 'hello world', arrow_cast('punct:no', 'Dictionary(Int32, Utf8)'))",
    )
    .await;
    assert_eq!(f64s(&folded, 0), f64s(&plain, 0));
    assert_eq!(f64s(&folded, 1), f64s(&plain, 1));
    assert_eq!(f64s(&folded, 2), f64s(&plain, 0));
    assert_eq!(f64s(&folded, 3), f64s(&plain, 0));
    assert_ne!(f64s(&plain, 0), vec![Some(ter("Hello, World", "hello world"))]);
    // A folded expression is still checked, and a column is still refused.
    query_fails_with(&ctx, "SELECT ter('a', 'b', 'nw:' || '2')", &["unknown key 'nw'"]).await;
    // (A column holding one value on every row reads as that value: that is
    // how a constant arrives through datafusion-ffi.)
    query_fails_with(
        &ctx,
        "SELECT ter(column1, column1, column1) FROM (VALUES ('a'), ('b'))",
        &["options must be a constant string"],
    )
    .await;
    query_fails_with(
        &ctx,
        "SELECT corpus_ter(column1, column1, column1) FROM (VALUES ('a'))",
        &["options must be a constant string"],
    )
    .await;
    // chrf_stats names the chosen reference by its place in the list given.
    let b = query(&ctx, "SELECT chrf_stats('a b', [NULL, 'x', 'a b'])['best_ref']").await;
    assert_eq!(b[0].column(0).as_primitive::<Int64Type>().value(0), 2);
    // NULL options: a NULL signature.
    let b = query(&ctx, "SELECT mteval_signature('ter', NULL)").await;
    assert!(b[0].column(0).is_null(0));
}

#[tokio::test]
async fn null_and_repeated_options_are_errors_in_every_kind_of_function() {
    let ctx = ctx();
    for q in [
        "SELECT chrf('a b', 'a c', NULL)",
        "SELECT chrf('a b', 'a c', CAST(NULL AS VARCHAR))",
        "SELECT corpus_chrf(h, r, NULL) FROM (VALUES ('a b', 'a c')) t(h, r)",
        "SELECT corpus_ter(h, r, CAST(NULL AS VARCHAR)) FROM (VALUES ('a b', 'a c')) t(h, r)",
        "SELECT mbr_chrf(h, NULL) OVER () FROM (VALUES ('a b')) t(h)",
    ] {
        query_fails_with(&ctx, q, &["not NULL ('' gives the defaults)"]).await;
    }
    query_fails_with(&ctx, "SELECT ter('A B', 'a b', 'case:mixed|Case:lc')", &["'case' is given twice"]).await;
    query_fails_with(&ctx, "SELECT mbr_chrf(h, 'colour:red') OVER () FROM (VALUES ('a b')) t(h)", &["self, utility)"])
        .await;
    // '' is the defaults.
    let b = query(&ctx, "SELECT chrf('a b', 'a c', ''), chrf('a b', 'a c')").await;
    assert_eq!(f64s(&b, 0), f64s(&b, 1));
}

#[test]
fn errors_locate_the_bad_line_or_row() {
    let dir = tempfile::tempdir().unwrap();
    // A JSON syntax error after the rows type inference reads.
    let mut text = "{\"hyp\":\"a b\",\"ref\":\"a b\"}\n".repeat(3000);
    text.push_str("{\"hyp\":\"a b\", \"ref\":}\n");
    let bad = write_file(dir.path(), "bad.jsonl", text);
    let o = mteval(&["score", bad.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("line 3001 is not valid JSON, column 21"), "{}", stderr(&o));
    // In the first rows (read when the schema is inferred).
    let early = write_file(dir.path(), "early.jsonl", "{\"hyp\":\"a\",\"ref\":\"a\"}\n{\"hyp\":\"a\" \"ref\":\"a\"}\n");
    let o = mteval(&["score", early.to_str().unwrap()]);
    assert!(stderr(&o).contains("line 2 is not valid JSON"), "{}", stderr(&o));
    // SQL does not know the input row; the message quotes the hypothesis.
    let long = "w ".repeat(300);
    let rows = write_file(
        dir.path(),
        "rows.jsonl",
        format!("{{\"hyp\":\"ok\",\"ref\":\"ok\"}}\n{{\"hyp\":\"{long}\",\"ref\":\"w\"}}\n"),
    );
    let sql = format!("SELECT ter(hyp, ref, 'max_words:100') FROM '{}'", rows.display());
    let o = mteval(&["sql", "-c", &sql]);
    assert!(stderr(&o).contains("row 1 of the batch (hypothesis \"w w w w"), "{}", stderr(&o));
    // A window function called without OVER says how to call it.
    let o = mteval(&["sql", "-c", "SELECT mbr_chrf('a')"]);
    assert!(stderr(&o).contains("mbr_chrf is a window function: call it with OVER"), "{}", stderr(&o));
}

#[test]
fn bad_settings_and_outputs_fail_before_any_output() {
    let (dir, input) = temp_file("in.jsonl", "{\"hyp\":\"a\",\"ref\":\"a\"}\n");
    for args in [
        vec!["score", input.to_str().unwrap(), "--batch-size", "0"],
        vec!["sql", "--batch-size", "0", "-c", "SELECT 1"],
    ] {
        let o = mteval(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(stderr(&o).contains("invalid value '0' for '--batch-size"), "{}", stderr(&o));
    }
    let o = mteval(&["score", input.to_str().unwrap(), "-o", dir.path().to_str().unwrap()]);
    assert!(stderr(&o).contains("it is a directory"), "{}", stderr(&o));
    // Text mode checks every metric before it prints a score.
    let txt = write_file(dir.path(), "h.txt", "a b\n");
    let t = txt.to_str().unwrap();
    let o = mteval(&["score", "--hyp", t, "--ref", t, "-m", "characTER", "term-acc"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(o.stdout.is_empty(), "{}", String::from_utf8_lossy(&o.stdout));
    let long = write_file(dir.path(), "long.txt", format!("a\n{}\n", "w ".repeat(300)));
    let refs = write_file(dir.path(), "r.txt", "a\nw\n");
    let (l, r) = (long.to_str().unwrap(), refs.to_str().unwrap());
    let o = mteval(&["score", "--hyp", l, "--ref", r, "-m", "chrf", "ter", "--options", "ter=max_words:100"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(o.stdout.is_empty(), "{}", String::from_utf8_lossy(&o.stdout));
}

#[test]
fn empty_csv_and_tsv_fields_are_empty_outputs_not_nulls() {
    // An empty hypothesis is a system output: TER 100, in the corpus score,
    // as sacrebleu and the JSONL/Parquet paths score it. Arrow reads every
    // empty CSV field as NULL, which would drop the row from the corpus.
    let dir = tempfile::tempdir().unwrap();
    let pairs = [("", "a b c"), ("a b", "a b"), ("x y", ""), ("a b c d", "a b c d")];
    let expected = corpus_ter(&pairs);
    // 5 edits over 9 reference words; without either empty field, 33.33.
    assert!((expected - 500.0 / 9.0).abs() < 1e-12, "{expected}");
    let tsv = write_file(dir.path(), "e.tsv", "hyp\tref\tn\n\ta b c\t\na b\ta b\t3\nx y\t\t4\na b c d\ta b c d\t5\n");
    let csv = write_file(dir.path(), "e.csv", "hyp,ref,n\n\"\",a b c,\na b,a b,3\nx y,,4\na b c d,a b c d,5\n");
    for input in [&tsv, &csv] {
        let v = ndjson(&mteval(&["score", input.to_str().unwrap(), "--json", "-m", "ter"]));
        assert!((v[0]["score"].as_f64().unwrap() - expected).abs() < 1e-12, "{}: {v:?}", input.display());
        // The written rows keep the empty strings; an empty number stays NULL.
        let out = dir.path().join("scored.jsonl");
        mteval_ok(&["score", input.to_str().unwrap(), "-m", "ter", "-o", out.to_str().unwrap()]);
        let rows = read_jsonl(&out);
        assert_eq!(rows[0]["hyp"], "", "{rows:?}");
        assert_eq!(rows[0]["ter"].as_f64(), Some(100.0));
        assert!(rows[0].get("n").is_none_or(serde_json::Value::is_null), "{rows:?}");
        assert_eq!(rows[1]["n"].as_i64(), Some(3));
        assert_eq!(rows[2]["ref"], "");
    }
}

#[test]
fn text_mode_strips_trailing_whitespace_as_sacrebleu_reads_lines() {
    // sacrebleu's command line rstrip()s every line (Python whitespace);
    // chrF with space:yes is where that shows.
    let dir = tempfile::tempdir().unwrap();
    let h = write_file(dir.path(), "h.txt", "a b c  \u{3000}\t\r\nd e\u{1c}\n   ");
    let r = write_file(dir.path(), "r.txt", "a b c\nd e\n\n");
    let v = ndjson(&score_text(&h, &[&r], &["-m", "chrf", "--options", "chrf=space:yes", "--json"]));
    let chrf = ChrfConfig::parse("space:yes").unwrap();
    let mut st = mteval_kernels::ChrfStats::default();
    // Three lines each: the last hypothesis line is spaces, the last reference line empty.
    for (h, r) in [("a b c", "a b c"), ("d e", "d e"), ("", "")] {
        st.add(&chrf.segment(h, &[r]).unwrap().stats);
    }
    assert!((v[0]["score"].as_f64().unwrap() - st.score(&chrf).unwrap()).abs() < 1e-12, "{v:?}");
    // A gzipped file reads the same, as sacrebleu's smart_open reads it.
    let hz = dir.path().join("h.txt.gz");
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    std::io::Write::write_all(&mut gz, &std::fs::read(&h).unwrap()).unwrap();
    std::fs::write(&hz, gz.finish().unwrap()).unwrap();
    let o = score_text(&hz, &[&r], &["-m", "chrf", "--options", "chrf=space:yes", "--json"]);
    assert_eq!(ndjson(&o), v);
    std::fs::write(&hz, b"not gzip").unwrap();
    let e = stderr(&score_text(&hz, &[&r], &["-m", "chrf"]));
    assert!(e.contains("h.txt.gz: not a valid gzip file"), "{e}");
}

#[test]
fn json_lines_schema_comes_from_every_line() {
    // A key first seen after line 1,000, and a float after 2,000 integers,
    // are kept: DataFusion infers from the first 1,000 lines by default.
    let dir = tempfile::tempdir().unwrap();
    let mut text = String::new();
    for i in 0..3000 {
        if i < 2000 {
            text.push_str("{\"hyp\":\"a b\",\"ref\":\"a c\",\"w\":1}\n");
        } else {
            let _ = writeln!(text, "{{\"hyp\":\"a b\",\"ref\":\"a c\",\"w\":1.5,\"note\":\"n{i}\"}}");
        }
    }
    let input = write_file(dir.path(), "late.jsonl", text);
    let out = dir.path().join("o.jsonl");
    mteval_ok(&["score", input.to_str().unwrap(), "-m", "ter", "-o", out.to_str().unwrap()]);
    let rows = read_jsonl(&out);
    assert_eq!(rows.len(), 3000);
    assert_eq!(rows[2999]["w"].as_f64(), Some(1.5), "{}", rows[2999]);
    assert_eq!(rows[2999]["note"], "n2999");
    let q = format!("SELECT sum(w) AS s, count(note) AS n FROM '{}'", input.display());
    let v = ndjson(&mteval(&["sql", "--format", "ndjson", "-c", &q]));
    assert_eq!((v[0]["s"].as_f64(), v[0]["n"].as_i64()), (Some(3500.0), Some(1000)), "{v:?}");
}

#[test]
fn parquet_statistics_are_not_trusted_for_values() {
    // DataFusion 55 can turn partial string statistics into a file-level
    // constant and read a whole column as it (apache/datafusion#25226).
    let ctx = mteval::session::new_context(&mteval::session::SessionOptions::default()).unwrap();
    assert!(!ctx.copied_config().options().execution.collect_statistics);
}

#[test]
fn bad_device_variables_batch_sizes_and_piped_sql_errors_fail() {
    let bin = env!("CARGO_BIN_EXE_mteval");
    let o = std::process::Command::new(bin)
        .args(["score", "data/demo.parquet"])
        .env("MTEVAL_DEVICE", "gpu0")
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("MTEVAL_DEVICE: unknown device 'gpu0'"), "{}", stderr(&o));
    let o = mteval(&["score", "data/demo.parquet", "--batch-size", "99999999999"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let o = mteval_stdin(&["sql"], b"select 1 as x;\nselect nosuch;\nselect 2 as y;\n");
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("nosuch"));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("| 1 |") && out.contains("| y |"), "{out}");
    assert!(stderr(&o).contains("1 statement(s) read from standard input failed"), "{}", stderr(&o));
}

#[test]
fn duplicate_column_names_are_an_error_not_the_first_column() {
    // DataFusion keeps the first of two same-named Parquet columns; scoring
    // whichever came first would be silently wrong.
    let dir = tempfile::tempdir().unwrap();
    let schema = Arc::new(Schema::new(vec![
        Field::new("hyp", DataType::Utf8, true),
        Field::new("ref", DataType::Utf8, true),
        Field::new("hyp", DataType::Utf8, true),
    ]));
    let col = |v: &[&str]| Arc::new(datafusion::arrow::array::StringArray::from(v.to_vec())) as _;
    let b = RecordBatch::try_new(Arc::clone(&schema), vec![col(&["a b c"]), col(&["a b d"]), col(&["q"])]).unwrap();
    let path = dir.path().join("dup.parquet");
    let mut w = ArrowWriter::try_new(std::fs::File::create(&path).unwrap(), schema, None).unwrap();
    w.write(&b).unwrap();
    w.close().unwrap();
    let csv = write_file(dir.path(), "dup.csv", "hyp,ref,hyp\na b c,a b d,q\n");
    for p in [&path, &csv] {
        let o = mteval(&["score", p.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(1));
        assert!(stderr(&o).contains("column 'hyp' appears more than once (columns: hyp, ref, hyp)"), "{}", stderr(&o));
    }
    let o = mteval(&["mbr", path.to_str().unwrap(), "--group-by", "ref"]);
    assert!(stderr(&o).contains("column 'hyp' appears more than once"), "{}", stderr(&o));
    // Distinct names still read, and a file that is not Parquet says so.
    let ok = write_file(dir.path(), "ok.csv", "hyp,ref,Hyp\na b c,a b d,q\n");
    let v = ndjson(&mteval(&["score", ok.to_str().unwrap(), "--json"]));
    assert!((v[0]["score"].as_f64().unwrap() - ter("a b c", "a b d")).abs() < 1e-12, "{v:?}");
    let junk = write_file(dir.path(), "junk.parquet", "hyp,ref\n");
    assert!(stderr(&mteval(&["score", junk.to_str().unwrap()])).contains("not a Parquet file"));
}

#[test]
fn csv_types_come_from_every_record() {
    // A column of numbers with text after row 1,000 (DataFusion's default
    // inference window) is text, in score and in SQL, CSV and TSV alike.
    let dir = tempfile::tempdir().unwrap();
    for (ext, sep) in [("csv", ','), ("tsv", '\t')] {
        let mut text = format!("hyp{sep}ref{sep}n\n");
        for i in 0..1500 {
            let _ = writeln!(text, "a b{sep}a c{sep}{i}");
        }
        let _ = writeln!(text, "x y{sep}x y{sep}n/a");
        let input = write_file(dir.path(), &format!("late.{ext}"), text);
        let out = dir.path().join(format!("o-{ext}.jsonl"));
        mteval_ok(&["score", input.to_str().unwrap(), "-o", out.to_str().unwrap()]);
        let rows = read_jsonl(&out);
        assert_eq!((rows.len(), rows[1500]["n"].as_str(), rows[7]["n"].as_str()), (1501, Some("n/a"), Some("7")));
        assert_eq!(rows[1500]["ter"].as_f64(), Some(0.0));
        let q = format!("SELECT arrow_typeof(n) AS t, count(*) AS c FROM '{}' GROUP BY 1", input.display());
        let v = ndjson(&mteval(&["sql", "--format", "ndjson", "-c", &q]));
        assert_eq!((v.len(), v[0]["t"].as_str(), v[0]["c"].as_i64()), (1, Some("Utf8"), Some(1501)), "{v:?}");
    }
}

#[test]
fn json_type_conflicts_name_their_line() {
    let dir = tempfile::tempdir().unwrap();
    let row = "{\"hyp\":\"a b\",\"ref\":\"a c\",\"n\":1}\n";
    let cases = [
        // Inference accepts these (one column type), decoding then fails.
        ("{\"hyp\":\"a\",\"ref\":\"a\",\"n\":\"x\"}", "line 3001: field 'n' is a string, but a number on line 1"),
        ("{\"hyp\":\"a\",\"ref\":\"a\",\"n\":[1]}", "line 3001: field 'n' is a list, but a number on line 1"),
        ("{\"hyp\":\"a\",\"ref\":\"a\",\"n\":true}", "line 3001: field 'n' is a boolean, but a number on line 1"),
        // Inference itself fails on these.
        ("{\"hyp\":{\"x\":1},\"ref\":\"a\",\"n\":1}", "line 3001: field 'hyp' is an object, but a string on line 1"),
        ("[1, 2]", "line 3001 is a list; every line must be a JSON object"),
    ];
    for (k, (last, expected)) in cases.iter().enumerate() {
        let input = write_file(dir.path(), &format!("t{k}.jsonl"), format!("{}{last}\n", row.repeat(3000)));
        let o = mteval(&["score", input.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(1));
        assert!(stderr(&o).contains(expected), "{k}: {}", stderr(&o));
        let o = mteval(&["mbr", input.to_str().unwrap(), "--group-by", "ref"]);
        assert!(stderr(&o).contains(expected), "mbr {k}: {}", stderr(&o));
    }
    // Nested fields are named by path.
    let input = write_file(
        dir.path(),
        "nested.jsonl",
        "{\"hyp\":\"a\",\"ref\":\"a\",\"m\":{\"k\":[1]}}\n{\"hyp\":\"a\",\"ref\":\"a\",\"m\":{\"k\":[\"1\"]}}\n",
    );
    let e = stderr(&mteval(&["score", input.to_str().unwrap()]));
    assert!(e.contains("line 2: field 'm.k[]' is a string, but a number on line 1; a JSON field must have one type on every line (quote the numbers)"), "{e}");
}

#[test]
fn group_by_struct_names_the_column_and_mbr_counts_empty_groups() {
    let (dir, input) = temp_file(
        "s.jsonl",
        "{\"hyp\":\"a b\",\"ref\":\"a c\",\"sys\":{\"id\":1},\"src\":1}\n\
         {\"hyp\":\"a c\",\"ref\":\"a c\",\"sys\":{\"id\":2},\"src\":1}\n\
         {\"hyp\":null,\"ref\":\"a c\",\"sys\":{\"id\":2},\"src\":2}\n",
    );
    let e = stderr(&mteval(&["score", input.to_str().unwrap(), "--group-by", "sys"]));
    assert!(e.contains("group-by column 'sys' has type Struct"), "{e}");
    let out = dir.path().join("picked.jsonl");
    let o = mteval(&["mbr", input.to_str().unwrap(), "--group-by", "src", "-o", out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("1 of 2 groups have no candidate to select"), "{}", stderr(&o));
    let rows = read_jsonl(&out);
    assert_eq!((rows.len(), rows[0]["src"].as_i64(), rows[0]["n_candidates"].as_i64()), (1, Some(1), Some(2)));
    // No note when every group has a pick.
    let o = mteval(&["mbr", input.to_str().unwrap(), "--group-by", "sys", "-o", out.to_str().unwrap()]);
    assert!(o.status.success() && !stderr(&o).contains("no candidate"), "{}", stderr(&o));
}

#[test]
fn sql_set_beyond_the_command_line_limits_is_refused_and_undone() {
    let sql = b"SET datafusion.execution.batch_size = 10000000000;\nSHOW datafusion.execution.batch_size;\n\
SET datafusion.execution.target_partitions = 100000000;\nSHOW datafusion.execution.target_partitions;\n\
SET datafusion.execution.batch_size = 4194304;\nSHOW datafusion.execution.batch_size;\n";
    let o = mteval_stdin(&["sql", "--batch-size", "512", "--partitions", "3", "--format", "ndjson"], sql);
    assert_eq!(o.status.code(), Some(1));
    let e = stderr(&o);
    assert!(e.contains("datafusion.execution.batch_size = 10000000000 is above mteval's limit of 4194304 rows"), "{e}");
    assert!(e.contains("datafusion.execution.target_partitions = 100000000 is above mteval's limit of 65535"), "{e}");
    assert!(e.contains("2 statement(s) read from standard input failed"), "{e}");
    let values: Vec<String> = String::from_utf8_lossy(&o.stdout)
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["value"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(values, ["512", "3", "4194304"]);
}
