//! The shared WMT rows the timing examples run on. Included by each example
//! with `#[path = "common/mod.rs"] mod common;` (Cargo does not take a file
//! in a subdirectory of `examples/` for an example of its own).
#![allow(dead_code, reason = "each example uses a different part of this module")]

/// The language pairs of the shared WMT rows, in the order the files are read.
pub const PAIRS: [&str; 5] = ["en-de", "de-en", "zh-en", "en-zh", "en-ja"];

/// `$MTEVAL_SHARED_DIR/data/wmt`, or `../shared/data/wmt`.
pub fn shared_wmt_dir() -> String {
    let shared = std::env::var("MTEVAL_SHARED_DIR").unwrap_or_else(|_| "../shared".into());
    format!("{shared}/data/wmt")
}

/// The first command-line argument (the metric's options), or `""`.
pub fn options_arg() -> String {
    std::env::args().nth(1).unwrap_or_default()
}

/// Every `(hyp, ref, pair)` of `{dir}/{pair}.jsonl`, pairs in [`PAIRS`] order,
/// a missing text read as `""`.
pub fn wmt_rows_by_pair(dir: &str) -> Vec<(String, String, &'static str)> {
    let mut rows = Vec::new();
    for pair in PAIRS {
        let text = std::fs::read_to_string(format!("{dir}/{pair}.jsonl")).expect("wmt rows");
        for l in text.lines() {
            let v: serde_json::Value = serde_json::from_str(l).expect("json");
            rows.push((v["hyp"].as_str().unwrap_or("").to_owned(), v["ref"].as_str().unwrap_or("").to_owned(), pair));
        }
    }
    rows
}

/// Every `(hyp, ref)` of `{dir}/{pair}.jsonl`, as [`wmt_rows_by_pair`].
pub fn wmt_rows(dir: &str) -> Vec<(String, String)> {
    wmt_rows_by_pair(dir).into_iter().map(|(h, r, _)| (h, r)).collect()
}

/// The shared WMT rows as `(hyp, ref)` and the seconds one pass of `f`
/// over them takes on this thread.
pub fn timed_rows(mut f: impl FnMut(&str, &str)) -> (Vec<(String, String)>, f64) {
    let rows = wmt_rows(&shared_wmt_dir());
    let t = std::time::Instant::now();
    for (h, r) in &rows {
        f(h, r);
    }
    let e = t.elapsed().as_secs_f64();
    (rows, e)
}

/// Answers each non-empty JSON line of standard input with `answer`'s JSON
/// line on standard output (the differential scripts' protocol).
pub fn answer_json_lines(mut answer: impl FnMut(&serde_json::Value) -> serde_json::Value) {
    use std::io::{BufRead, Write};
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    for line in std::io::stdin().lock().lines() {
        let line = line.expect("stdin");
        if line.trim().is_empty() {
            continue;
        }
        let r: serde_json::Value = serde_json::from_str(&line).expect("json");
        writeln!(out, "{}", answer(&r)).expect("stdout");
    }
}
