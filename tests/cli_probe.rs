//! What a bad-input probe found in the commands: the text mode's
//! `--baseline` and the flags that do not apply, numbers where text is
//! expected, outputs that would destroy an input or a special file, and
//! messages that misled.

use std::path::{Path, PathBuf};

use crate::cli::{fails_with, hyp_ref_files, mteval, mteval_ok, stderr, write_file, write_jsonl};

fn demo(ext: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("data/demo.{ext}")).display().to_string()
}

/// Three systems of the demo data as text files, and its references.
fn demo_text(dir: &Path) -> (PathBuf, Vec<PathBuf>) {
    let text = std::fs::read_to_string(demo("jsonl")).unwrap();
    let rows: Vec<serde_json::Value> = text.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let mut systems: Vec<(String, String)> = Vec::new();
    let mut refs = String::new();
    for r in &rows {
        let sys = r["system"].as_str().unwrap().to_owned();
        if !systems.iter().any(|(s, _)| *s == sys) {
            systems.push((sys.clone(), String::new()));
        }
        let entry = systems.iter_mut().find(|(s, _)| *s == sys).unwrap();
        entry.1 += r["hyp"].as_str().unwrap();
        entry.1.push('\n');
        if sys == systems[0].0 {
            refs += r["ref"].as_str().unwrap();
            refs.push('\n');
        }
    }
    let refs = write_file(dir, "ref.txt", refs);
    let files = systems.iter().map(|(s, t)| write_file(dir, &format!("{s}.txt"), t)).collect();
    (refs, files)
}

#[test]
fn compare_text_mode_takes_its_baseline_and_refuses_table_flags() {
    let dir = tempfile::tempdir().unwrap();
    let (refs, sys) = demo_text(dir.path());
    let (r, a, b, c) =
        (refs.to_str().unwrap(), sys[0].to_str().unwrap(), sys[1].to_str().unwrap(), sys[2].to_str().unwrap());
    for test in ["--paired-bs", "--paired-ar"] {
        let given = mteval_ok(&["compare", r, "-i", a, b, c, "--baseline", b, test, "-m", "bleu", "ter"]);
        let first = mteval_ok(&["compare", r, "-i", b, a, c, test, "-m", "bleu", "ter"]);
        assert_eq!(given, first, "{test}");
        assert!(given.contains(&format!("Baseline: {b}")), "{given}");
        let json = mteval_ok(&["compare", r, "-i", a, b, c, "--baseline", b, test, "-f", "json"]);
        assert_eq!(json, mteval_ok(&["compare", r, "-i", b, a, c, test, "-f", "json"]), "{test} json");
    }
    // The baseline given as the first system changes nothing.
    assert_eq!(
        mteval_ok(&["compare", r, "-i", a, b, "--baseline", a, "--paired-bs"]),
        mteval_ok(&["compare", r, "-i", a, b, "--paired-bs"])
    );
    fails_with(
        &["compare", r, "-i", a, b, "--baseline", "nope.txt", "--paired-bs"],
        &["--baseline 'nope.txt' is not one of the -i files", a],
    );
    for flag in [["--segment-col", "seg_id"], ["--system-col", "system"], ["--hyp-col", "hyp"], ["--ref-col", "ref"]] {
        let e = fails_with(&["compare", r, "-i", a, b, flag[0], flag[1]], &[flag[0], "table inputs"]);
        assert!(e.contains("text files"), "{e}");
        fails_with(&["report", r, "-i", a, b, "-o", "x.html", flag[0], flag[1]], &[flag[0], "table inputs"]);
    }
    // The report puts the baseline first too (its own test checks the page).
    let table = demo("parquet");
    fails_with(&["compare", &table, "--num-refs", "2"], &["--num-refs", "--ref-col"]);
    fails_with(&["compare", &table, "-r", r], &["-r/--ref", "--ref-col"]);
    fails_with(&["report", &table, "--num-refs", "2", "-o", "x.html"], &["--num-refs", "--ref-col"]);
    // A file given twice, as baseline and system: one system, said so.
    fails_with(&["compare", r, "-i", a, a, "--paired-bs"], &["every -i file is", "counts once"]);
}

#[test]
fn numbers_are_not_scored_as_text_in_compare_and_report() {
    let dir = tempfile::tempdir().unwrap();
    let t = dir.path().join("ints.jsonl");
    let rows: Vec<serde_json::Value> = (0..6)
        .map(|i| serde_json::json!({"system": if i < 3 { "a" } else { "b" }, "hyp": i, "ref": "x y", "n": i}))
        .collect();
    write_jsonl(&t, &rows);
    let t = t.to_str().unwrap();
    let out = dir.path().join("r.html");
    let o = out.to_str().unwrap();
    fails_with(&["compare", t], &["hypothesis column 'hyp' has type Int64, expected a string"]);
    fails_with(&["compare", t, "--hyp-col", "ref", "--ref-col", "n"], &["reference column 'n' has type Int64"]);
    fails_with(&["report", t, "-o", o], &["hypothesis column 'hyp' has type Int64"]);
    assert!(!out.exists());
    // BLEU's smoothing value that would make the score infinite.
    fails_with(&["compare", &demo("parquet"), "-s", "floor", "-sv", "1e308"], &["a number from 0 to 1e300"]);
}

#[test]
fn outputs_never_destroy_inputs_or_special_files() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let input = d.join("in.parquet");
    std::fs::copy(demo("parquet"), &input).unwrap();
    let before = std::fs::read(&input).unwrap();
    let i = input.to_str().unwrap();
    let jsonl = d.join("in.jsonl");
    std::fs::copy(demo("jsonl"), &jsonl).unwrap();
    let j = jsonl.to_str().unwrap();
    // An output that is the input (as given, or by another path to it).
    let dotted = format!("{}/./in.parquet", d.display());
    for out in [i, dotted.as_str()] {
        fails_with(&["score", i, "-o", out], &["-o", "this is the input", "would destroy the input"]);
        fails_with(&["score", i, "--group-by", "system", "--report", out], &["--report", "this is the input"]);
        fails_with(&["report", i, "-o", out], &["this is the input"]);
        fails_with(&["sql", "-c", &format!("SELECT * FROM '{i}'"), "-o", out], &["this is the input"]);
    }
    fails_with(&["mbr", j, "--group-by", "seg_id", "-o", j], &["this is the input"]);
    fails_with(&["sql", "-c", &format!("COPY (SELECT * FROM '{j}') TO '{j}'")], &["COPY ... TO", "this is the input"]);
    assert_eq!(std::fs::read(&input).unwrap(), before, "the input is unchanged");
    // Two outputs of one run on one file.
    let both = d.join("both.parquet");
    let b = both.to_str().unwrap();
    fails_with(&["score", i, "--group-by", "system", "-o", b, "--report", b], &["--report", "-o", "are the same file"]);
    assert!(!both.exists());
    // An output inside an input directory.
    let parts = d.join("parts");
    std::fs::create_dir(&parts).unwrap();
    std::fs::copy(demo("parquet"), parts.join("a.parquet")).unwrap();
    let inside = parts.join("out.parquet");
    fails_with(
        &["sql", "-c", &format!("SELECT count(*) FROM '{}/'", parts.display()), "-o", inside.to_str().unwrap()],
        &["inside the input directory"],
    );
    // A directory, a FIFO: refused, and left as they were.
    fails_with(&["report", i, "-o", d.to_str().unwrap()], &["is a directory"]);
    let fifo = d.join("pipe.html");
    assert!(std::process::Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    let f = fifo.to_str().unwrap();
    fails_with(&["report", i, "-o", f], &["FIFO (named pipe)", "not a regular file"]);
    let fifo_pq = d.join("pipe.parquet");
    assert!(std::process::Command::new("mkfifo").arg(&fifo_pq).status().unwrap().success());
    fails_with(&["score", i, "-o", fifo_pq.to_str().unwrap()], &["FIFO (named pipe)"]);
    fails_with(&["sql", "-c", "SELECT 1 AS x", "-o", fifo_pq.to_str().unwrap()], &["FIFO (named pipe)"]);
    assert!(std::os::unix::fs::FileTypeExt::is_fifo(&std::fs::symlink_metadata(&fifo).unwrap().file_type()));
    assert!(std::os::unix::fs::FileTypeExt::is_fifo(&std::fs::symlink_metadata(&fifo_pq).unwrap().file_type()));
    // A symbolic link is written through: the file it points to is replaced, the link stays.
    let real = d.join("real.parquet");
    std::fs::write(&real, b"old").unwrap();
    let link = d.join("link.parquet");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    mteval_ok(&["score", i, "-m", "ter", "-o", link.to_str().unwrap()]);
    assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
    assert_eq!(crate::cli::parquet_f64s(&real, "ter").len(), 300);
    // A link to a FIFO is refused; a link to nothing too.
    let to_fifo = d.join("to-fifo.parquet");
    std::os::unix::fs::symlink(&fifo_pq, &to_fifo).unwrap();
    fails_with(&["score", i, "-o", to_fifo.to_str().unwrap()], &["a link to", "FIFO"]);
    let dangling = d.join("dangling.parquet");
    std::os::unix::fs::symlink(d.join("missing/x.parquet"), &dangling).unwrap();
    fails_with(&["score", i, "-o", dangling.to_str().unwrap()], &["symbolic link", "does not exist"]);
}

#[test]
fn messages_name_what_the_user_gave() {
    let dir = tempfile::tempdir().unwrap();
    // A segment without a reference is named by its --segment-col key.
    let t = dir.path().join("keys.jsonl");
    let rows: Vec<serde_json::Value> = ["k1", "k2", "k3"]
        .iter()
        .flat_map(|k| {
            ["a", "b"].map(|s| {
                let r = if *k == "k2" { serde_json::Value::Null } else { serde_json::json!("x y") };
                serde_json::json!({"system": s, "seg": k, "hyp": "x", "ref": r})
            })
        })
        .collect();
    write_jsonl(&t, &rows);
    let t = t.to_str().unwrap();
    fails_with(&["compare", t, "--segment-col", "seg"], &["segment 'k2' of the baseline 'a' has no reference"]);
    fails_with(&["compare", t], &["segment 2 of the baseline 'a' has no reference"]);
    // A seed over mteval's range says the range.
    fails_with(
        &["compare", &demo("parquet"), "--paired-bs", "--seed", "340282366920938463463374607431768211456"],
        &["over the largest seed mteval takes, 2^128 - 1"],
    );
}

#[test]
fn compare_json_keeps_sacrebleus_key_order_and_shapes() {
    let dir = tempfile::tempdir().unwrap();
    let (refs, sys) = demo_text(dir.path());
    let (r, a, b) = (refs.to_str().unwrap(), sys[0].to_str().unwrap(), sys[1].to_str().unwrap());
    let out = mteval_ok(&["compare", r, "-i", a, b, "--paired-bs", "-m", "ter", "bleu", "-f", "json"]);
    let keys: Vec<&str> = out.lines().filter_map(|l| l.trim().split('"').nth(1)).collect();
    assert_eq!(
        &keys[..12],
        ["system", "TER", "score", "p_value", "mean", "ci", "signature", "BLEU", "score", "p_value", "mean", "ci"],
        "{out}"
    );
    assert!(out.starts_with("[\n    {\n        \"system\": "), "indented by 4 as sacrebleu: {out}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v.as_array().unwrap().len(), 2);
    // One system: sacrebleu's object for one metric, a list for several.
    let one = mteval_ok(&["compare", r, "-i", a, "-m", "bleu", "-f", "json"]);
    let v: serde_json::Value = serde_json::from_str(&one).unwrap();
    assert_eq!(v["name"], "BLEU", "{one}");
    let keys: Vec<&str> = one.lines().filter_map(|l| l.trim().split('"').nth(1)).collect();
    assert_eq!(&keys[..5], ["name", "score", "signature", "verbose_score", "nrefs"], "{one}");
    assert!(one.starts_with("{\n \"name\": \"BLEU\""), "indented by 1 as sacrebleu: {one}");
    let two: serde_json::Value =
        serde_json::from_str(&mteval_ok(&["compare", r, "-i", a, "-m", "bleu", "ter", "-f", "json"])).unwrap();
    assert_eq!(two.as_array().map(Vec::len), Some(2));
    // Full precision: the score is the corpus score, not rounded to -w.
    let plain = mteval_ok(&["score", "--hyp", a, "--ref", r, "-m", "bleu", "--json"]);
    let s: serde_json::Value = serde_json::from_str(plain.lines().next().unwrap()).unwrap();
    assert_eq!(v["score"], s["score"]);
}

#[test]
fn sentence_scores_are_labelled_and_json_stays_json() {
    let (_dir, h, r) = hyp_ref_files("a b c\nx y\n", "a b d\nx y\n");
    let (h, r) = (h.as_str(), r.as_str());
    // One metric: sacrebleu's `N<TAB>score` lines, then the corpus line.
    let one = mteval_ok(&["score", "--hyp", h, "--ref", r, "-m", "ter", "--sentence"]);
    let lines: Vec<&str> = one.lines().collect();
    assert_eq!(&lines[..2], ["1\t33.3333", "2\t0.0000"], "{one}");
    assert!(lines[2].starts_with("TER|nrefs:1|"), "{one}");
    // Several: each sentence line names its metric.
    let two = mteval_ok(&["score", "--hyp", h, "--ref", r, "-m", "ter", "chrf", "--sentence"]);
    let lines: Vec<&str> = two.lines().collect();
    assert_eq!(&lines[..2], ["TER\t1\t33.3333", "TER\t2\t0.0000"], "{two}");
    assert!(lines[3].starts_with("chrF2\t1\t") && lines[5].starts_with("chrF2|nrefs:1|"), "{two}");
    // --json: every line is a JSON object.
    let json = mteval_ok(&["score", "--hyp", h, "--ref", r, "-m", "ter", "chrf", "--sentence", "--json"]);
    let objs: Vec<serde_json::Value> = json.lines().map(|l| serde_json::from_str(l).expect(l)).collect();
    assert_eq!(objs.len(), 6, "{json}");
    assert_eq!(objs[0], serde_json::json!({"name": "TER", "line": 1, "score": 100.0 * (1.0 / 3.0)}));
    assert!(objs[2]["signature"].as_str().unwrap().starts_with("nrefs:1|case:lc"), "{json}");
    assert_eq!(objs[3]["name"], "chrF2");
}

#[test]
fn compare_reads_the_system_from_standard_input_as_sacrebleu() {
    let dir = tempfile::tempdir().unwrap();
    let (refs, sys) = demo_text(dir.path());
    let (r, a) = (refs.to_str().unwrap(), sys[0].to_str().unwrap());
    let hyp = std::fs::read(&sys[0]).unwrap();
    for args in [vec!["-m", "bleu", "chrf", "ter"], vec!["-m", "bleu", "--confidence", "-f", "json"]] {
        let mut piped = vec!["compare", r];
        piped.extend(&args);
        let mut given = vec!["compare", r, "-i", a];
        given.extend(&args);
        let o = crate::cli::mteval_stdin(&piped, &hyp);
        assert_eq!(crate::cli::stdout_ok(&o), mteval_ok(&given), "{args:?}");
    }
    // A table is still a table.
    let o = crate::cli::mteval_stdin(&["compare", &demo("parquet"), "-m", "ter"], b"");
    assert!(crate::cli::stdout_ok(&o).contains("sys-good"), "{}", stderr(&o));
}

#[test]
fn compare_and_report_list_only_the_metrics_they_take() {
    let t = demo("parquet");
    for cmd in [vec!["compare", t.as_str()], vec!["report", t.as_str(), "-o", "unused.html"]] {
        let mut args = cmd.clone();
        args.extend(["-m", "meteor"]);
        let e = fails_with(&args, &["unknown metric 'meteor'", "takes bleu, ter, chrf, chrf++"]);
        assert!(!e.contains("characTER") && !e.contains("term-acc"), "{e}");
        let mut args = cmd.clone();
        args.extend(["-m", "characTER"]);
        fails_with(&args, &["characTER: mteval", "takes bleu, ter, chrf, chrf++"]);
    }
}

#[test]
fn informational_lines_only_with_verbose() {
    let q = ["sql", "-c", "SELECT ter('a b', 'a c') AS t"];
    let o = mteval(&q);
    assert!(o.status.success() && stderr(&o).is_empty(), "{}", stderr(&o));
    let mut v = vec!["--verbose"];
    v.extend(q);
    let o = mteval(&v);
    assert!(o.status.success());
    let gpu = mteval_kernels::backend::backend_for(mteval_kernels::backend::DeviceRequest::Cuda).is_ok();
    if !gpu {
        assert!(stderr(&o).contains("using the CPU backend"), "{}", stderr(&o));
    }
}

#[test]
fn statements_run_in_order_so_a_later_one_reads_what_an_earlier_one_wrote() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("one.parquet");
    let q = format!(
        "COPY (SELECT 'a b' AS h, 'a c' AS r) TO '{}'; SELECT ter(h, r) AS t FROM '{}'",
        f.display(),
        f.display()
    );
    let out = mteval_ok(&["sql", "--format", "csv", "-c", &q]);
    assert!(out.ends_with("t\n50.0\n"), "{out}");
    // -o writes the last one's result; its input may not be the output.
    let o = dir.path().join("o.csv");
    mteval_ok(&["sql", "-c", &q, "-o", o.to_str().unwrap()]);
    assert_eq!(std::fs::read_to_string(&o).unwrap(), "t\n50.0\n");
    fails_with(&["sql", "-c", &q, "-o", f.to_str().unwrap()], &["this is the input"]);
}

#[test]
fn resample_counts_over_the_limit_are_refused_before_any_work() {
    let t = demo("parquet");
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("r.html");
    let out = out.to_str().unwrap();
    let limit = "over the limit of 1,000,000 resamples";
    for (args, flag) in [
        (vec!["compare", &t, "--confidence", "--confidence-n", "1000000000"], "--confidence-n = 1000000000"),
        (vec!["compare", &t, "--paired-bs", "--paired-bs-n", "1000000000"], "--paired-bs-n = 1000000000"),
        (vec!["compare", &t, "--paired-ar", "--paired-ar-n", "1000001"], "--paired-ar-n = 1000001"),
        (
            vec!["compare", &t, "--paired-ar", "--paired-ar-confidence-n", "1000000000"],
            "--paired-ar-confidence-n = 1000000000",
        ),
        (vec!["report", &t, "-o", out, "--paired-bs-n", "1000000000"], "--paired-bs-n = 1000000000"),
    ] {
        fails_with(&args, &[flag, limit]);
    }
    assert!(!dir.path().join("r.html").exists(), "no report written");
    // The SQL options, for both resampling aggregates; 1,000,000 itself is accepted (planned, not run).
    for q in [
        "SELECT corpus_bootstrap(hyp, ref, 'bleu', 'bs:1000000000') FROM (VALUES ('a b', 'a b')) t(hyp, ref)",
        "SELECT paired_test(hyp, hyp, ref, 'ter', 'ar:1000000000000') FROM (VALUES ('a b', 'a b')) t(hyp, ref)",
    ] {
        fails_with(&["sql", "-c", q], &[limit]);
    }
    let o = mteval(&[
        "sql",
        "--format",
        "csv",
        "-c",
        "SELECT corpus_bootstrap(hyp, ref, 'chrf', 'bs:2')['score'] AS s FROM (VALUES ('a b', 'a b')) t(hyp, ref)",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(String::from_utf8(o.stdout).unwrap().lines().nth(1), Some("100.0"));
}

/// A third probe: an output in a missing directory fails before any work
/// (`report` scored everything first), and `mbr` names the group a
/// too-long segment is in.
#[test]
fn outputs_are_checked_first_and_mbr_names_the_group() {
    let dir = tempfile::tempdir().unwrap();
    let (refs, systems) = demo_text(dir.path());
    let missing = dir.path().join("nodir/report.html");
    // A system shorter than the references: reading the inputs would fail,
    // but the output is checked before anything is read.
    let short = write_file(dir.path(), "short.txt", "a\n");
    let o = mteval(&[
        "report",
        refs.to_str().unwrap(),
        "-i",
        systems[0].to_str().unwrap(),
        short.to_str().unwrap(),
        "-o",
        missing.to_str().unwrap(),
    ]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("nodir does not exist"), "{}", stderr(&o));
    let long = vec!["w"; 5001].join(" ");
    let csv = write_file(dir.path(), "m.csv", format!("src_id,hyp\n1,a b\n2,a\n2,{long}\n2,b\n"));
    fails_with(
        &["mbr", csv.to_str().unwrap(), "--group-by", "src_id", "--utility", "ter"],
        &["m.csv: the group of row 1 (counting from 0; 3 rows)", "over the limit of 5000"],
    );
}
