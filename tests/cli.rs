//! The `mteval` binary end to end: scoring, SQL, text mode, bad input.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use datafusion::arrow::array::{Array, AsArray, RecordBatch};
use datafusion::arrow::compute::cast;
use datafusion::arrow::datatypes::{DataType, Float64Type, Int64Type, SchemaRef};
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;

use crate::common::*;

pub(crate) fn mteval(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mteval")).args(args).output().expect("run mteval")
}

pub(crate) fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// The binary with `args`, its standard output and error piped.
pub(crate) fn piped(args: &[&str]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_mteval"));
    c.args(args).stdout(Stdio::piped()).stderr(Stdio::piped());
    c
}

/// The output of `child`, which must end within `secs` seconds (it is
/// killed past that, and `what` named in the panic).
pub(crate) fn wait_within(mut child: Child, secs: u64, what: &str) -> Output {
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > Duration::from_secs(secs) {
            child.kill().unwrap();
            panic!("{what}: still running after {secs} s");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    child.wait_with_output().unwrap()
}

/// `mteval ARGS` in a pseudo-terminal (util-linux's `script`), with `envs`
/// set and in `dir`: what a person at a terminal sees and types.
pub(crate) struct Terminal {
    child: Child,
    stdin: std::process::ChildStdin,
    seen: std::sync::Arc<std::sync::Mutex<String>>,
    reader: std::thread::JoinHandle<()>,
}

impl Terminal {
    pub(crate) fn start(args: &str, dir: &Path, envs: &[(&str, &std::ffi::OsStr)]) -> Self {
        use std::io::Read;
        let cmd = format!("{} {args}", env!("CARGO_BIN_EXE_mteval"));
        let mut child = Command::new("script")
            .args(["-qefc", &cmd, "/dev/null"])
            .current_dir(dir)
            .env("TERM", "xterm")
            .envs(envs.iter().copied())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("util-linux's script runs the binary in a pseudo-terminal");
        let seen = std::sync::Arc::new(std::sync::Mutex::new(String::new()));
        let mut out = child.stdout.take().unwrap();
        let reader = {
            let seen = std::sync::Arc::clone(&seen);
            std::thread::spawn(move || {
                let mut b = [0u8; 4096];
                while let Ok(n) = out.read(&mut b) {
                    if n == 0 {
                        break;
                    }
                    seen.lock().unwrap().push_str(&String::from_utf8_lossy(&b[..n]));
                }
            })
        };
        let stdin = child.stdin.take().unwrap();
        Self { child, stdin, seen, reader }
    }

    /// Everything the terminal has shown so far.
    pub(crate) fn text(&self) -> String {
        self.seen.lock().unwrap().clone()
    }

    /// Waits until what the terminal shows satisfies `done` (30 s at most;
    /// `what` is named in the panic).
    pub(crate) fn wait(&self, what: &str, done: &dyn Fn(&str) -> bool) {
        let start = Instant::now();
        while !done(&self.seen.lock().unwrap()) {
            assert!(start.elapsed().as_secs() < 30, "waiting for {what}: {}", self.text());
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Types `keys`.
    pub(crate) fn send(&mut self, keys: &str) {
        use std::io::Write;
        self.stdin.write_all(keys.as_bytes()).unwrap();
        self.stdin.flush().unwrap();
    }

    /// Waits for the process to end (30 s at most): its exit status and
    /// everything the terminal showed.
    pub(crate) fn finish(self, what: &str) -> (std::process::ExitStatus, String) {
        let status = wait_within(self.child, 30, what).status;
        self.reader.join().unwrap();
        let text = self.seen.lock().unwrap().clone();
        (status, text)
    }
}

/// Runs the binary with `input` piped to its standard input.
pub(crate) fn mteval_stdin(args: &[&str], input: &[u8]) -> Output {
    use std::io::Write;
    let mut child = piped(args).stdin(Stdio::piped()).spawn().expect("run mteval");
    child.stdin.take().unwrap().write_all(input).unwrap();
    child.wait_with_output().unwrap()
}

pub(crate) fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The standard output of a run that must have succeeded (its standard
/// error in the failure message).
pub(crate) fn stdout_ok(o: &Output) -> String {
    assert!(o.status.success(), "{}", stderr(o));
    stdout(o)
}

/// Runs the binary, which must succeed; returns its standard output.
pub(crate) fn mteval_ok(args: &[&str]) -> String {
    stdout_ok(&mteval(args))
}

/// Asserts a clean failure of `o`, the run of `what`: status 1, no panic,
/// and every needle in its standard error, which it returns.
pub(crate) fn fails(o: &Output, what: &str, needles: &[&str]) -> String {
    let e = stderr(o);
    assert_eq!(o.status.code(), Some(1), "{what} should fail with status 1: {e}");
    assert!(!e.contains("panicked"), "{what} panicked: {e}");
    for n in needles {
        assert!(e.contains(n), "{what}: stderr lacks {n:?}: {e}");
    }
    e
}

/// Runs the binary with `args`, which must fail cleanly (see [`fails`]);
/// returns its standard error.
pub(crate) fn fails_with(args: &[&str], needles: &[&str]) -> String {
    fails(&mteval(args), &format!("{args:?}"), needles)
}

/// `mteval score INPUT ARGS --group-by system -w WIDTH -o OUT`, which must
/// succeed; returns its standard output.
pub(crate) fn score_by_system(input: &str, args: &[&str], width: &str, out: &Path) -> String {
    let mut all = vec!["score", input];
    all.extend(args);
    all.extend(["--group-by", "system", "-w", width, "-o", out.to_str().unwrap()]);
    mteval_ok(&all)
}

/// `mteval score` in text mode: `--hyp HYP`, a `--ref` per reference file, then `extra`.
pub(crate) fn score_text(hyp: &Path, refs: &[&Path], extra: &[&str]) -> Output {
    let mut args = vec!["score", "--hyp", hyp.to_str().unwrap()];
    for r in refs {
        args.extend(["--ref", r.to_str().unwrap()]);
    }
    args.extend(extra);
    mteval(&args)
}

/// Writes `contents` to `dir/name`; returns the path.
pub(crate) fn write_file(dir: &Path, name: &str, contents: impl AsRef<[u8]>) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, contents).unwrap();
    p
}

/// A new temporary directory holding a hypothesis file `h.txt` and a
/// reference file `r.txt`: the directory (removed when dropped) and the
/// paths of the two files.
pub(crate) fn hyp_ref_files(hyp: &str, reference: &str) -> (tempfile::TempDir, String, String) {
    let dir = tempfile::tempdir().unwrap();
    let h = write_file(dir.path(), "h.txt", hyp).display().to_string();
    let r = write_file(dir.path(), "r.txt", reference).display().to_string();
    (dir, h, r)
}

/// A new temporary directory holding one file, `name`, of `contents`: the
/// directory (removed when dropped) and the file's path.
pub(crate) fn temp_file(name: &str, contents: impl AsRef<[u8]>) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let p = write_file(dir.path(), name, contents);
    (dir, p)
}

/// `items`, one a line, each ended by a newline.
fn lines_text(items: impl IntoIterator<Item = impl std::fmt::Display>) -> String {
    items.into_iter().fold(String::new(), |mut s, l| {
        let _ = writeln!(s, "{l}");
        s
    })
}

/// Writes `lines` (text-mode input), one a line, to `dir/name`; returns the path.
pub(crate) fn write_lines(dir: &Path, name: &str, lines: impl IntoIterator<Item = impl std::fmt::Display>) -> PathBuf {
    write_file(dir, name, lines_text(lines))
}

/// The de-en Online-B rows, and the text-mode files of them in `dir`:
/// `hyp.txt`, `ref.txt` and `ref2.txt`, one row a line.
pub(crate) fn online_b_text_files(dir: &Path) -> (Vec<WmtRow>, [PathBuf; 3]) {
    let (_, rows) = wmt_rows();
    let rows: Vec<_> = rows.into_iter().filter(|r| r.pair == "de-en" && r.system == "Online-B").collect();
    let files = [
        write_lines(dir, "hyp.txt", rows.iter().map(|r| &r.hyp)),
        write_lines(dir, "ref.txt", rows.iter().map(|r| &r.r#ref)),
        write_lines(dir, "ref2.txt", rows.iter().map(|r| r.ref2.as_ref().unwrap())),
    ];
    (rows, files)
}

/// Writes `rows` as JSON lines to `path`.
pub(crate) fn write_jsonl(path: &Path, rows: &[serde_json::Value]) {
    std::fs::write(path, lines_text(rows)).unwrap();
}

/// The key-value metadata of a Parquet file (the signatures the binary wrote).
pub(crate) fn parquet_metadata(path: &Path) -> HashMap<String, String> {
    let builder = ParquetRecordBatchReaderBuilder::try_new(std::fs::File::open(path).unwrap()).unwrap();
    let kv = builder.metadata().file_metadata().key_value_metadata().cloned().unwrap_or_default();
    kv.into_iter().filter_map(|k| Some((k.key, k.value?))).collect()
}

/// The Arrow schema of a Parquet file.
pub(crate) fn parquet_schema(path: &Path) -> SchemaRef {
    ParquetRecordBatchReaderBuilder::try_new(std::fs::File::open(path).unwrap()).unwrap().schema().clone()
}

/// Every record batch of a Parquet file.
pub(crate) fn parquet_batches(path: &Path) -> Vec<RecordBatch> {
    let builder = ParquetRecordBatchReaderBuilder::try_new(std::fs::File::open(path).unwrap()).unwrap();
    builder.build().unwrap().map(Result::unwrap).collect()
}

/// Column `name` of a Parquet file, as optional floats.
pub(crate) fn parquet_f64s(path: &Path, name: &str) -> Vec<Option<f64>> {
    let mut out = Vec::new();
    for b in parquet_batches(path) {
        let c = b.column_by_name(name).unwrap().as_primitive::<Float64Type>().clone();
        out.extend((0..c.len()).map(|i| c.is_valid(i).then(|| c.value(i))));
    }
    out
}

/// The rows of a scored Parquet file, in file order: `(system, seg_id)` and
/// the value of each float column of `cols`.
pub(crate) fn scored_rows(path: &Path, cols: &[&str]) -> Vec<((String, i64), Vec<f64>)> {
    let mut out = Vec::new();
    for b in parquet_batches(path) {
        let sys = cast(b.column_by_name("system").unwrap(), &DataType::Utf8).unwrap();
        let sys = sys.as_string::<i32>();
        let seg = b.column_by_name("seg_id").unwrap().as_primitive::<Int64Type>();
        let vals: Vec<_> = cols.iter().map(|c| b.column_by_name(c).unwrap().as_primitive::<Float64Type>()).collect();
        for i in 0..b.num_rows() {
            out.push(((sys.value(i).to_owned(), seg.value(i)), vals.iter().map(|v| v.value(i)).collect()));
        }
    }
    out
}

/// The rows of an `mteval mbr` Parquet output whose group column is
/// `group`, in file order: `(group, cand, utility, n_candidates)`.
pub(crate) fn mbr_picks(path: &Path, group: &str) -> Vec<(i64, i64, f64, i64)> {
    let mut out = Vec::new();
    for b in parquet_batches(path) {
        let int = |name: &str| b.column_by_name(name).unwrap().as_primitive::<Int64Type>().clone();
        let (g, cand, n) = (int(group), int("cand"), int("n_candidates"));
        let util = b.column_by_name("utility").unwrap().as_primitive::<Float64Type>();
        out.extend((0..b.num_rows()).map(|i| (g.value(i), cand.value(i), util.value(i), n.value(i))));
    }
    out
}

fn wmt(pair: &str, ext: &str) -> String {
    shared_dir().join(format!("data/wmt/{pair}.{ext}")).display().to_string()
}

/// `(group, signature, score)` of `group=X\tNAME|sig = score` lines.
pub(crate) fn group_scores(out: &str) -> Vec<(String, String, f64)> {
    out.lines()
        .filter_map(|l| {
            let (head, score) = l.rsplit_once(" = ")?;
            let (group, sig) = head.split_once('\t').unwrap_or(("", head));
            Some((group.to_owned(), sig.to_owned(), score.trim().parse().ok()?))
        })
        .collect()
}

/// The `system=NAME` group lines of `out` as `(NAME, signature, score)`;
/// there must be `n`.
pub(crate) fn system_scores(out: &str, n: usize) -> Vec<(String, String, f64)> {
    let lines = group_scores(out);
    assert_eq!(lines.len(), n, "{out}");
    lines.into_iter().map(|(g, sig, score)| (g.strip_prefix("system=").unwrap().to_owned(), sig, score)).collect()
}

fn golden_corpus(pair: &str, system: &str, refs: &str, variant: &str) -> f64 {
    crate::common::golden_corpus("data/golden/ter_corpus.jsonl", pair, system, refs, variant)
}

#[test]
fn score_parquet_writes_scores_signature_and_group_totals() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("scored.parquet");
    let so = score_by_system(&wmt("en-de", "parquet"), &["-m", "ter"], "10", &out);
    for (system, sig, score) in &system_scores(&so, 3) {
        assert!(
            sig.starts_with("TER|nrefs:1|case:lc|tok:tercom|norm:no|punct:yes|asian:no|version:2.6.0|impl:mteval-"),
            "{sig}"
        );
        assert!((score - golden_corpus("en-de", system, "ref", "default")).abs() < 1e-8, "{system}");
    }
    // The file: input columns + ter, per-row scores equal to the golden ones, signature in metadata.
    let sig = &parquet_metadata(&out)["mteval.signature.ter"];
    assert!(sig.starts_with("nrefs:1|case:lc|tok:tercom"), "{sig}");
    let golden: std::collections::HashMap<(String, i64), f64> = read_jsonl("data/golden/ter_sentence.jsonl")
        .into_iter()
        .filter(|r| r["pair"] == "en-de")
        .map(|r| {
            (
                (r["system"].as_str().unwrap().to_owned(), r["seg_id"].as_i64().unwrap()),
                r["ter"]["default"][0].as_f64().unwrap(),
            )
        })
        .collect();
    let rows = scored_rows(&out, &["ter"]);
    for (key, ter) in &rows {
        assert!(close(ter[0], golden[key]));
    }
    assert_eq!(rows.len(), 1500);
}

#[test]
fn score_jsonl_multi_reference_with_options() {
    let o = mteval(&[
        "score",
        &wmt("zh-en", "jsonl"),
        "--ref-col",
        "ref",
        "--ref-col",
        "ref2",
        "--group-by",
        "system",
        "--options",
        "ter=norm:yes|asian:yes",
        "-w",
        "10",
    ]);
    for (system, sig, score) in system_scores(&stdout_ok(&o), 3) {
        assert!(sig.contains("nrefs:2|case:lc|tok:tercom|norm:yes|punct:yes|asian:yes"), "{sig}");
        assert!((score - golden_corpus("zh-en", &system, "ref+ref2", "normalized_asian")).abs() < 1e-8);
    }
}

#[test]
fn text_mode_matches_sacrebleu_corpus_and_sentence() {
    let dir = tempfile::tempdir().unwrap();
    let (rows, [hyp, r1, r2]) = online_b_text_files(dir.path());
    let l = group_scores(&stdout_ok(&score_text(&hyp, &[&r1], &["-w", "10"])));
    assert!((l[0].2 - golden_corpus("de-en", "Online-B", "ref", "default")).abs() < 1e-8);
    let out = stdout_ok(&score_text(&hyp, &[&r1, &r2], &["-w", "10", "--sentence"]));
    let l = group_scores(&out);
    assert!(l[0].1.starts_with("TER|nrefs:2|"));
    assert!((l[0].2 - golden_corpus("de-en", "Online-B", "ref+ref2", "default")).abs() < 1e-8);
    assert_eq!(out.lines().count(), rows.len() + 1);
}

#[test]
fn sql_command_formats_and_output_file() {
    let path = wmt("en-ja", "parquet");
    let q =
        format!("SELECT system, round(corpus_ter(hyp, ref), 6) AS ter FROM '{path}' GROUP BY system ORDER BY system");
    let lines = sql_rows(&q);
    assert_eq!(lines.len(), 3);
    for v in &lines {
        let e = golden_corpus("en-ja", v["system"].as_str().unwrap(), "ref", "default");
        assert!((v["ter"].as_f64().unwrap() - (e * 1e6).round() / 1e6).abs() < 1e-9);
    }
    let o = mteval(&["sql", "-c", &q, "--format", "csv"]);
    assert!(stdout(&o).starts_with("system,ter\n"), "{}", stdout(&o));
    let o = mteval(&["sql", "-c", "SELECT ter('a b c', 'a c b') AS t", "--format", "table"]);
    assert!(stdout(&o).contains("33.33333"), "{}", stdout(&o));
    // JSON keeps every column of every row: a NULL is `null`, also inside
    // lists and structs, on standard output and in files.
    let nulls = "SELECT 1 AS a, NULL AS x, [1, NULL] AS l, named_struct('p', NULL) AS s, ter(NULL, 'a') AS t";
    let o = mteval(&["sql", "-c", nulls, "--format", "ndjson"]);
    assert_eq!(stdout(&o), "{\"a\":1,\"x\":null,\"l\":[1,null],\"s\":{\"p\":null},\"t\":null}\n", "{}", stderr(&o));
    let o = mteval(&["sql", "-c", nulls, "--format", "json"]);
    assert_eq!(stdout(&o), "[{\"a\":1,\"x\":null,\"l\":[1,null],\"s\":{\"p\":null},\"t\":null}]", "{}", stderr(&o));
    let nulls_dir = tempfile::tempdir().unwrap();
    for ext in ["json", "jsonl"] {
        let f = nulls_dir.path().join(format!("nulls.{ext}"));
        let o = mteval(&["sql", "-c", nulls, "-o", f.to_str().unwrap()]);
        assert!(o.status.success(), "{}", stderr(&o));
        assert!(std::fs::read_to_string(&f).unwrap().contains("\"x\":null,"), "{ext}");
    }
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("r.json");
    let o = mteval(&["sql", "-c", &q, "-o", out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(v.as_array().unwrap().len(), 3);
    // -f runs every statement of a file; the last result is printed.
    let sql_file = write_file(
        dir.path(),
        "q.sql",
        "-- a comment\nCREATE VIEW v AS SELECT 'a b' AS h, 'b a' AS r;\nSELECT ter(h, r) AS t FROM v;\n",
    );
    let o = mteval(&["sql", "-f", sql_file.to_str().unwrap(), "--format", "csv"]);
    assert_eq!(stdout(&o), "t\n50.0\n", "{}", stderr(&o));
    // JSON-lines files are queryable by path too.
    let o =
        mteval(&["sql", "-c", &format!("SELECT count(*) AS n FROM '{}'", wmt("en-ja", "jsonl")), "--format", "csv"]);
    assert_eq!(stdout(&o), "n\n1500\n", "{}", stderr(&o));
}

#[test]
fn bad_input_fails_cleanly_without_output() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("o.parquet");
    let outs = out.to_str().unwrap();
    let cases: Vec<(Vec<String>, &str)> = vec![
        (vec!["score".into(), "/nonexistent/x.parquet".into(), "-o".into(), outs.into()], "/nonexistent/x.parquet"),
        (
            vec![
                "score".into(),
                wmt("en-de", "parquet"),
                "--hyp-col".into(),
                "hypothesis".into(),
                "-o".into(),
                outs.into(),
            ],
            "column 'hypothesis' not found",
        ),
        (
            vec![
                "score".into(),
                wmt("en-de", "parquet"),
                "--ref-col".into(),
                "seg_id".into(),
                "-o".into(),
                outs.into(),
            ],
            "'seg_id' has type Int64",
        ),
        (
            vec![
                "score".into(),
                wmt("en-de", "parquet"),
                "--options".into(),
                "norm:perhaps".into(),
                "-o".into(),
                outs.into(),
            ],
            "norm:perhaps",
        ),
        (
            vec!["score".into(), wmt("en-de", "parquet"), "-m".into(), "bleurt".into(), "-o".into(), outs.into()],
            "unknown metric 'bleurt'",
        ),
        (
            vec!["score".into(), wmt("en-de", "parquet"), "-o".into(), "/nonexistent-dir/o.parquet".into()],
            "does not exist",
        ),
        (vec!["sql".into(), "-c".into(), "SELECT ter(hyp, ref, 'case:upper') FROM 'x.parquet'".into()], "x.parquet"),
    ];
    for (args, needle) in cases {
        let a: Vec<&str> = args.iter().map(String::as_str).collect();
        let o = mteval(&a);
        assert!(!o.status.success(), "{args:?} should fail");
        let e = stderr(&o);
        assert!(e.contains(needle), "{args:?}: stderr lacks {needle:?}: {e}");
        assert!(!e.contains("panicked"), "{e}");
        assert!(!out.exists(), "{args:?} left an output file");
    }
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0, "temporary files left behind");
    // A failing run keeps an earlier output intact.
    std::fs::write(&out, b"earlier").unwrap();
    let o = mteval(&["score", &wmt("en-de", "parquet"), "--hyp-col", "nope", "-o", outs]);
    assert!(!o.status.success());
    assert_eq!(std::fs::read(&out).unwrap(), b"earlier");
    // Text mode: line-count mismatch names both files.
    let h = write_lines(dir.path(), "h.txt", ["a", "b"]);
    let r = write_lines(dir.path(), "r.txt", ["a"]);
    let o = score_text(&h, &[&r], &[]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("r.txt has 1 lines but"), "{}", stderr(&o));
}

#[test]
fn every_ter_variant_through_the_cli() {
    let input = wmt("en-zh", "parquet");
    for variant in TER_VARIANTS {
        let opts = ter_variant_options(variant);
        let mut args = vec!["score", input.as_str(), "--group-by", "system", "-w", "10"];
        let o = format!("ter={opts}");
        if !opts.is_empty() {
            args.extend(["--options", o.as_str()]);
        }
        let out = mteval(&args);
        assert!(out.status.success(), "{variant}: {}", stderr(&out));
        for (system, _, score) in system_scores(&stdout(&out), 3) {
            assert!((score - golden_corpus("en-zh", &system, "ref", variant)).abs() < 1e-8, "{variant} {system}");
        }
    }
}

#[test]
fn sql_repl_reads_statements_from_stdin() {
    let o = mteval_stdin(
        &["sql", "--format", "csv"],
        b"SELECT ter('a b c', 'a c b') AS t;\nSELECT nonsense(;\nSELECT\n  ter('x', 'y') AS u;\n",
    );
    // The later statements still run; the failure shows in the exit status.
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    assert!(out.contains("t\n33.33333333333333"), "{out}");
    assert!(out.contains("u\n100.0"), "{out}");
    assert!(stderr(&o).contains("error"), "bad statement reported: {}", stderr(&o));
}

/// The JSON lines of a run that must have succeeded.
pub(crate) fn ndjson(o: &Output) -> Vec<serde_json::Value> {
    stdout_ok(o).lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

/// The rows of `mteval sql -c query`, one JSON object each.
pub(crate) fn sql_rows(query: &str) -> Vec<serde_json::Value> {
    ndjson(&mteval(&["sql", "-c", query, "--format", "ndjson"]))
}

#[test]
fn golden_edge_cases_tokenizer_and_metric_vectors_through_the_binary() {
    let dir = tempfile::tempdir().unwrap();
    // Edge cases: sentence scores (first reference and all references) and tokens, every variant.
    let edge = read_jsonl("data/golden/edge_cases.jsonl");
    let rows: Vec<serde_json::Value> = edge
        .iter()
        .enumerate()
        .map(|(i, r)| serde_json::json!({"i": i, "hyp": r["hyp"], "ref": r["refs"][0], "refs": r["refs"]}))
        .collect();
    let path = dir.path().join("edge.jsonl");
    write_jsonl(&path, &rows);
    for variant in TER_VARIANTS {
        let o = ter_variant_options(variant);
        let q = format!(
            "SELECT i, ter(hyp, ref, '{o}') AS s, ter(hyp, refs, '{o}') AS m, ter_tokenize(hyp, '{o}') AS t FROM '{}' ORDER BY i",
            path.display()
        );
        let out = sql_rows(&q);
        assert_eq!(out.len(), edge.len());
        for (g, r) in out.iter().zip(&edge) {
            let id = &r["id"];
            assert!(close(g["s"].as_f64().unwrap(), r["ter"][variant]["score"].as_f64().unwrap()), "{id} {variant}");
            if let Some(m) = r["ter_multi"].get(variant) {
                assert!(close(g["m"].as_f64().unwrap(), m["score"].as_f64().unwrap()), "{id} {variant} multi");
            }
            let toks: Vec<&str> = r["ter_tokens"][variant]["hyp"].as_str().unwrap().split_whitespace().collect();
            assert_eq!(g["t"].as_str().unwrap(), toks.join(" "), "{id} {variant} tokens");
        }
    }
    // Metric vectors: corpus scores over reference streams, through corpus_ter.
    let m = read_json("data/golden/metric_vectors.json");
    for (k, v) in m["ter_sacrebleu_2.6.0"].as_array().unwrap().iter().enumerate() {
        let hyps = v["hyps"].as_array().unwrap();
        let streams = v["refs"].as_array().unwrap();
        let rows: Vec<serde_json::Value> = hyps
            .iter()
            .enumerate()
            .map(|(i, h)| serde_json::json!({"hyp": h, "refs": streams.iter().map(|s| s[i].clone()).collect::<Vec<_>>()}))
            .collect();
        let path = dir.path().join(format!("mv{k}.jsonl"));
        write_jsonl(&path, &rows);
        let o = ter_options_from_json(&v["options"]);
        let q = format!("SELECT corpus_ter(hyp, refs, '{o}') AS c FROM '{}'", path.display());
        let out = sql_rows(&q);
        assert!(close(out[0]["c"].as_f64().unwrap(), v["score"].as_f64().unwrap()), "{}", v["note"]);
    }
}

#[test]
fn score_json_output_is_exact() {
    let o = mteval(&["score", &wmt("de-en", "parquet"), "--group-by", "system", "--json"]);
    let lines = ndjson(&o);
    assert_eq!(lines.len(), 3);
    for v in lines {
        assert_eq!(v["name"], "TER");
        assert_eq!(v["group_by"], "system");
        assert_eq!(v["segments"], 500);
        assert!(v["signature"].as_str().unwrap().starts_with("nrefs:1|case:lc|tok:tercom"));
        let e = golden_corpus("de-en", v["group"].as_str().unwrap(), "ref", "default");
        assert!(close(v["score"].as_f64().unwrap(), e), "{v}");
    }
}

#[cfg(unix)]
#[test]
fn interrupted_run_leaves_no_partial_output() {
    let dir = tempfile::tempdir().unwrap();
    let input = crate::cli_bad_input::slow_input(dir.path());
    let out = dir.path().join("out.parquet");
    std::fs::write(&out, b"earlier").unwrap();
    let o = crate::cli_bad_input::start_and_signal(&input, &out, "-INT");
    assert_eq!(o.status.code(), Some(130), "{}", stderr(&o));
    assert_eq!(std::fs::read(&out).unwrap(), b"earlier");
    let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(left.len(), 2, "temporary file left behind: {left:?}");
}

/// `mteval sql` runs one partition unless told otherwise, so rows reach
/// aggregates and windows in input order and the order-dependent float sums
/// are the reference tools': corpus TER over three references (fractional
/// average lengths, which sacrebleu adds up row by row) and the MBR mean
/// (numpy sums each pairwise row in pseudo-reference order). Both inputs are
/// large enough for `DataFusion` to split the file between partitions when it
/// runs more than one.
#[test]
fn sql_sums_in_input_order() {
    use mteval_kernels::Ter;
    use mteval_kernels::chrf::group::{FastChrfOptions, pairwise_chrf};
    use mteval_kernels::py::numpy_mean;

    let dir = tempfile::tempdir().unwrap();
    let mut rows = Vec::new();
    for pair in ["en-de", "de-en", "zh-en", "en-zh", "en-ja"] {
        rows.extend(read_jsonl(&format!("data/wmt/{pair}.jsonl")));
    }
    let text = |v: &serde_json::Value, k: &str| v[k].as_str().unwrap_or("").to_owned();

    // Corpus TER, three references: the reference, the second reference,
    // and the reference's first half.
    let mut hyps = Vec::new();
    let mut refs = Vec::new();
    let mut lines = Vec::new();
    for r in &rows {
        let words: Vec<&str> = r["ref"].as_str().unwrap_or("").split(' ').collect();
        let three = vec![text(r, "ref"), text(r, "ref2"), words[..words.len().div_ceil(2)].join(" ")];
        lines.push(serde_json::json!({"hyp": text(r, "hyp"), "refs": three}).to_string());
        hyps.push(text(r, "hyp"));
        refs.push(three);
    }
    let ter_in = write_lines(dir.path(), "ter.jsonl", &lines);
    let ter = Ter::default();
    let hyp_strs: Vec<&str> = hyps.iter().map(String::as_str).collect();
    let ref_strs: Vec<Vec<&str>> = refs.iter().map(|r| r.iter().map(String::as_str).collect()).collect();
    let want = ter.score(&ter.corpus(&hyp_strs, &ref_strs).unwrap());
    let q = format!("SELECT corpus_ter(hyp, refs) AS t FROM '{}'", ter_in.display());
    let got = sql_rows(&q);
    assert_eq!(got[0]["t"].as_f64(), Some(want), "corpus TER summed out of order");

    // MBR: 600 groups of 12 samples, each row's mean pairwise chrF.
    let mut lines = Vec::new();
    let mut want = Vec::new();
    for g in 0..600 {
        let group: Vec<String> = (0..12).map(|i| text(&rows[(g * 7 + i * 13 + i * i) % rows.len()], "hyp")).collect();
        let one = std::slice::from_ref(&group);
        let m = pairwise_chrf(one, one, &FastChrfOptions::default()).unwrap();
        for (i, h) in group.iter().enumerate() {
            lines.push(serde_json::json!({"g": g, "i": i, "hyp": h}).to_string());
            want.push(numpy_mean(&m[0][i]));
        }
    }
    let mbr_in = write_lines(dir.path(), "mbr.jsonl", &lines);
    let q = format!("SELECT g, i, mbr_chrf(hyp) OVER (PARTITION BY g) AS u FROM '{}' ORDER BY g, i", mbr_in.display());
    let got = sql_rows(&q);
    assert_eq!(got.len(), want.len());
    for (k, (v, w)) in got.iter().zip(&want).enumerate() {
        assert_eq!(v["u"].as_f64(), *w, "row {k}: pseudo-references out of order");
    }
}
