//! The bad-input catalogue, end to end through the binary: every case exits
//! non-zero with an error naming the file, column or row, never panics, and
//! never leaves a partial output; NULL in gives NULL out.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use mteval_kernels::{CharacTerConfig, ChrfConfig, Ter};

use crate::cli::{fails_with, mteval, mteval_ok, parquet_f64s, stderr, write_file, write_jsonl};
use crate::common::shared_dir;

fn wmt_parquet() -> PathBuf {
    shared_dir().join("data/wmt/en-de.parquet")
}

#[test]
fn missing_corrupt_and_truncated_inputs_name_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("o.parquet");
    let outs = out.to_str().unwrap();
    fails_with(&["score", "/nonexistent/in.parquet", "-o", outs], &["/nonexistent/in.parquet"]);
    fails_with(&["sql", "-c", "SELECT ter(hyp, ref) FROM '/nonexistent/in.parquet'"], &["/nonexistent/in.parquet"]);
    // Not Parquet at all.
    let garbage = write_file(dir.path(), "garbage.parquet", b"this is not a parquet file, just some bytes");
    fails_with(&["score", garbage.to_str().unwrap(), "-o", outs], &["garbage.parquet"]);
    // A real file cut in half: the footer is gone.
    let bytes = std::fs::read(wmt_parquet()).unwrap();
    let cut = write_file(dir.path(), "cut.parquet", &bytes[..bytes.len() / 2]);
    fails_with(&["score", cut.to_str().unwrap(), "-o", outs], &["cut.parquet"]);
    // The footer intact but a data page overwritten: fails while reading rows.
    let mut damaged = bytes.clone();
    for b in &mut damaged[64..bytes.len() / 3] {
        *b = 0xA5;
    }
    let bad = write_file(dir.path(), "damaged.parquet", &damaged);
    fails_with(&["score", bad.to_str().unwrap(), "-o", outs], &["damaged.parquet"]);
    // Invalid UTF-8 in a CSV and in a text-mode file.
    let csv = write_file(dir.path(), "bad.csv", b"hyp,ref\nok,ok\n\xff\xfe,x\n");
    fails_with(&["score", csv.to_str().unwrap(), "-o", outs], &["bad.csv"]);
    let txt = write_file(dir.path(), "bad.txt", b"fine\n\xff\n");
    fails_with(&["score", "--hyp", txt.to_str().unwrap(), "--ref", txt.to_str().unwrap()], &["bad.txt", "line 2"]);
    // An unknown extension.
    let odd = write_file(dir.path(), "in.xlsx", b"x");
    fails_with(&["score", odd.to_str().unwrap()], &["in.xlsx", "unknown input format"]);
    assert!(!out.exists());
    let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(left.len(), 6, "temporary files left behind: {left:?}");
}

#[test]
fn missing_and_non_string_columns_and_bad_options_are_named() {
    let input = wmt_parquet();
    let input = input.to_str().unwrap();
    fails_with(&["score", input, "--hyp-col", "hypothesis"], &["hypothesis column 'hypothesis' not found", "en-de"]);
    fails_with(&["score", input, "--ref-col", "seg_id"], &["reference column 'seg_id' has type Int64"]);
    fails_with(&["score", input, "--hyp-col", "seg_id"], &["hypothesis column 'seg_id' has type Int64"]);
    fails_with(&["score", input, "-m", "term-acc"], &["terms column 'terms' not found"]);
    fails_with(&["score", input, "--group-by", "nope"], &["group-by column 'nope' not found"]);
    // Invalid option strings, one per metric, and through SQL.
    fails_with(&["score", input, "-m", "ter", "--options", "norm:perhaps"], &["norm:perhaps"]);
    fails_with(&["score", input, "-m", "chrf", "--options", "nc:x"], &["nc:x"]);
    fails_with(&["score", input, "-m", "characTER", "--options", "compat:foo"], &["compat:foo"]);
    fails_with(&["score", input, "-m", "characTER", "--options", "max_words:0"], &["max_words:0"]);
    fails_with(&["sql", "-c", &format!("SELECT chrf(hyp, ref, 'beta:-1e200') FROM '{input}'")], &["beta:-1e200"]);
    fails_with(&["sql", "-c", &format!("SELECT ter(hyp, seg_id) FROM '{input}'")], &["ter"]);
}

#[test]
fn nulls_give_nulls_and_empty_strings_score_as_the_references_do() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("edge.jsonl");
    let rows = [
        serde_json::json!({"hyp": "the cat sat", "ref": "the cat sat down"}),
        serde_json::json!({"hyp": null, "ref": "a b"}),
        serde_json::json!({"hyp": "a b", "ref": null}),
        serde_json::json!({"hyp": "", "ref": "a b c"}),
        serde_json::json!({"hyp": "a b c", "ref": ""}),
        serde_json::json!({"hyp": "", "ref": ""}),
        serde_json::json!({"hyp": "   ", "ref": " \t "}),
    ];
    write_jsonl(&input, &rows);
    let out = dir.path().join("scored.parquet");
    mteval_ok(&[
        "score",
        input.to_str().unwrap(),
        "-m",
        "ter",
        "-m",
        "chrf",
        "-m",
        "characTER",
        "-o",
        out.to_str().unwrap(),
    ]);
    let (ter, chrf, cer) = (parquet_f64s(&out, "ter"), parquet_f64s(&out, "chrf"), parquet_f64s(&out, "charac_ter"));
    let (t, c, k) = (Ter::default(), ChrfConfig::default(), CharacTerConfig::default());
    for (i, row) in rows.iter().enumerate() {
        let (h, r) = (row["hyp"].as_str(), row["ref"].as_str());
        let Some((h, r)) = h.zip(r) else {
            assert_eq!((ter[i], chrf[i], cer[i]), (None, None, None), "row {i}: NULL in, NULL out");
            continue;
        };
        let seg = t.segment(h, &[r]).unwrap().unwrap();
        assert_eq!(ter[i], Some(t.sentence_score(&seg)), "ter row {i}");
        assert_eq!(chrf[i], c.sentence_score(h, &[r]), "chrf row {i}");
        assert_eq!(cer[i], Some(k.sentence(h, r).unwrap()), "characTER row {i}");
    }
    // The empty cases take the reference tools' values: sacrebleu TER of an
    // empty hypothesis is 100 (all deletions) and CharacTER's 1.0.
    assert_eq!(ter[3], Some(100.0));
    assert_eq!(cer[3], Some(1.0));
    assert_eq!(cer[4], Some(1.0));
}

#[test]
fn a_megabyte_row_is_refused_by_ter_and_character_and_scored_by_chrf_and_term_match() {
    let dir = tempfile::tempdir().unwrap();
    // About 1 MB per side: 200,000 words from a small vocabulary.
    let vocab = ["alpha", "beta", "gamma", "delta", "eps", "zeta", "eta,", "theta."];
    let mut x = 1u64;
    let mut text = |n: usize| {
        (0..n)
            .map(|_| {
                x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
                vocab[usize::try_from(x >> 61).unwrap()]
            })
            .collect::<Vec<_>>()
            .join(" ")
    };
    let (h, r) = (text(200_000), text(200_000));
    assert!(h.len() > 1_000_000);
    let input = dir.path().join("big.jsonl");
    write_jsonl(
        &input,
        &[
            serde_json::json!({"hyp": "a b", "ref": "a b", "terms": [["a"]]}),
            serde_json::json!({"hyp": h, "ref": r, "terms": [["gamma"], ["delta", "x"], ["eps zeta"], ["missing"]]}),
        ],
    );
    let inp = input.to_str().unwrap();
    let out = dir.path().join("o.parquet");
    let outs = out.to_str().unwrap();
    fails_with(
        &["score", inp, "-m", "ter", "-o", outs],
        &["big.jsonl", "row 1 (counting from 0)", "limit of 5000", "max_words"],
    );
    fails_with(&["score", inp, "-m", "characTER", "-o", outs], &["big.jsonl", "row 1", "limit of 1000", "max_words"]);
    assert!(!out.exists());
    // chrF is linear in the length: scored, equal to the kernel.
    mteval_ok(&["score", inp, "-m", "chrf", "-o", outs]);
    let got = parquet_f64s(&out, "chrf");
    assert_eq!(got[1], ChrfConfig::default().sentence_score(&h, &[r.as_str()]));
    assert!(got[1].unwrap() > 0.0);
    // Term matching too (thousands of matches per term, sparse span masks).
    mteval_ok(&["score", inp, "-m", "term-acc", "-o", outs]);
    let terms: [&[&str]; 4] = [&["gamma"], &["delta", "x"], &["eps zeta"], &["missing"]];
    let c = mteval_kernels::terms::count_matches_exact(&h, &terms);
    assert_eq!((c.exact, c.total), (3, 4));
    assert_eq!(parquet_f64s(&out, "term_acc")[1], Some(0.75));
}

#[test]
fn unwritable_outputs_fail_before_scoring_and_keep_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let input = wmt_parquet();
    let input = input.to_str().unwrap();
    let sub = dir.path().join("sub.parquet");
    std::fs::create_dir(&sub).unwrap();
    fails_with(&["score", input, "-o", sub.to_str().unwrap()], &["is a directory"]);
    let file = write_file(dir.path(), "plain", b"x");
    // The file in the way is named, not a "missing" directory.
    let in_way = format!("{} is a file, not a directory", file.display());
    fails_with(&["score", input, "-o", &format!("{}/o.parquet", file.display())], &[&in_way]);
    fails_with(&["score", input, "-o", &format!("{}/deeper/o.parquet", file.display())], &[&in_way]);
    let missing = dir.path().join("nodir/o.parquet");
    fails_with(&["score", input, "-o", missing.to_str().unwrap()], &["does not exist"]);
    fails_with(&["score", input, "-o", &dir.path().join("o.xlsx").display().to_string()], &["unknown output format"]);
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 2);
}

/// Input slow enough to interrupt: shuffled 120-word rows exhaust TER's shift budget.
#[cfg(unix)]
pub(crate) fn slow_input(dir: &Path) -> PathBuf {
    let input = dir.join("slow.jsonl");
    let mut x = 7u64;
    let rows: Vec<serde_json::Value> = (0..6000)
        .map(|_| {
            let mut w: Vec<String> = (0..120).map(|i| format!("w{i}")).collect();
            let r = w.join(" ");
            for i in (1..w.len()).rev() {
                x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
                w.swap(i, usize::try_from(x >> 33).unwrap() % (i + 1));
            }
            serde_json::json!({"hyp": w.join(" "), "ref": r})
        })
        .collect();
    write_jsonl(&input, &rows);
    input
}

/// Starts scoring `input` into `out`, sends `signal` after 0.7 s, and waits.
#[cfg(unix)]
pub(crate) fn start_and_signal(input: &Path, out: &Path, signal: &str) -> Output {
    let child = Command::new(env!("CARGO_BIN_EXE_mteval"))
        .args(["score", input.to_str().unwrap(), "-o", out.to_str().unwrap()])
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(700));
    assert!(Command::new("kill").args([signal, &child.id().to_string()]).status().unwrap().success());
    child.wait_with_output().unwrap()
}

#[cfg(unix)]
#[test]
fn terminated_and_killed_runs_keep_the_earlier_output() {
    let dir = tempfile::tempdir().unwrap();
    let input = slow_input(dir.path());
    let out = write_file(dir.path(), "out.parquet", b"earlier");
    let names = || -> Vec<String> {
        let mut v: Vec<String> =
            std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
        v.sort();
        v
    };
    // SIGTERM and SIGHUP: handled like Ctrl-C, status 128 + the signal
    // number, temporary file removed.
    for (signal, status) in [("-TERM", 143), ("-HUP", 129)] {
        let o = start_and_signal(&input, &out, signal);
        assert_eq!(o.status.code(), Some(status), "{signal}: {}", stderr(&o));
        assert_eq!(std::fs::read(&out).unwrap(), b"earlier");
        assert_eq!(names(), ["out.parquet", "slow.jsonl"]);
    }
    // SIGKILL cannot be handled: the earlier output survives, the dead
    // run's temporary file stays until the next run to the same output.
    let o = start_and_signal(&input, &out, "-KILL");
    assert_eq!(o.status.code(), None);
    assert_eq!(std::fs::read(&out).unwrap(), b"earlier");
    let left = names();
    assert_eq!(left.len(), 3, "{left:?}");
    assert!(
        left.iter()
            .any(|n| n.starts_with(".out.parquet.mteval-") && Path::new(n).extension().is_some_and(|e| e == "tmp")),
        "{left:?}"
    );
    // The next run replaces the output and removes the stale file.
    let small = dir.path().join("small.jsonl");
    write_jsonl(&small, &[serde_json::json!({"hyp": "a b", "ref": "a c"})]);
    mteval_ok(&["score", small.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    assert_eq!(parquet_f64s(&out, "ter"), [Some(50.0)]);
    assert_eq!(names(), ["out.parquet", "slow.jsonl", "small.jsonl"]);
}

#[test]
fn memory_limit_sizes_datafusion_pool() {
    let input = wmt_parquet();
    let q = format!("SELECT seg_id FROM '{}' ORDER BY hyp LIMIT 3", input.display());
    // Unbounded: fine. 64 KB: the sort cannot reserve its buffer.
    assert_eq!(mteval_ok(&["sql", "--format", "csv", "-c", &q]).lines().count(), 4);
    fails_with(&["sql", "--memory-limit", "64K", "-c", &q], &["Resources exhausted", "pool_size: 64.0 KB"]);
    // The same pool in `mteval score` (which streams and needs little).
    mteval_ok(&["score", input.to_str().unwrap(), "-m", "chrf", "--memory-limit", "16M"]);
    // Bad sizes are usage errors.
    let o = mteval(&["sql", "--memory-limit", "12Q", "-c", "SELECT 1"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("unknown unit 'Q'"), "{}", stderr(&o));
}

/// CSV holds flat values: a struct column (`corpus_wer`'s) is refused with
/// what to do instead, on standard output and for an output file (no file
/// is left).
#[test]
fn csv_of_a_struct_column_says_what_to_do() {
    let dir = tempfile::tempdir().unwrap();
    let q = "SELECT corpus_wer(hyp, ref) AS w FROM (VALUES ('a b c', 'a x c')) t(hyp, ref)";
    crate::cli::fails_with(
        &["sql", "-c", q, "--format", "csv"],
        &["column 'w' is a struct with fields", "EXPR['wer'] AS wer", "--format ndjson"],
    );
    let out = dir.path().join("w.csv");
    crate::cli::fails_with(&["sql", "-c", q, "-o", out.to_str().unwrap()], &["column 'w' is a struct", "Parquet"]);
    assert!(!out.exists());
    // Selecting a field is fine.
    let o = crate::cli::mteval_ok(&[
        "sql",
        "-c",
        "SELECT corpus_wer(hyp, ref)['wer'] AS wer FROM (VALUES ('a b c', 'a x c')) t(hyp, ref)",
        "--format",
        "csv",
    ]);
    assert!(o.starts_with("wer\n0.333"), "{o}");
}

/// `-m comet` where the table has a number column `comet`: the error asks
/// "did you mean --score-col comet?" in `compare` and `report`; a name that
/// is neither keeps the list of metrics.
#[test]
fn a_metric_named_like_a_score_column_points_to_score_col() {
    let dir = tempfile::tempdir().unwrap();
    let t = crate::cli::write_file(
        dir.path(),
        "c.csv",
        "system,seg_id,hyp,ref,COMET\nA,0,a b,a b,0.5\nB,0,a c,a b,0.4\nA,1,x y,x y,0.7\nB,1,x z,x y,0.6\n",
    );
    let t = t.to_str().unwrap();
    let html = dir.path().join("r.html");
    for args in
        [vec!["compare", t, "-m", "bleu", "comet"], vec!["report", t, "-m", "comet", "-o", html.to_str().unwrap()]]
    {
        crate::cli::fails_with(&args, &["unknown metric 'comet'", "did you mean --score-col COMET?"]);
    }
    assert!(!html.exists());
    crate::cli::fails_with(&["compare", t, "-m", "nosuch"], &["unknown metric 'nosuch'", "takes bleu"]);
}
