//! Reliability: no panic, no hang, no silently ignored flag. Unwritable
//! standard output in every subcommand, extreme numeric options, failing
//! `COPY` targets, flags that do not apply, `COPY`/`CREATE EXTERNAL TABLE`
//! format options, and errors that name the real cause.

use std::path::Path;
use std::process::{Command, Output, Stdio};

use crate::cli::{fails, mteval, mteval_stdin, piped, stderr, stdout, wait_within};

fn demo() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("data/demo.parquet").display().to_string()
}

fn text(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("data/text").join(name).display().to_string()
}

/// Every subcommand with arguments that print to standard output, and what
/// it reads from standard input.
fn printing_runs() -> Vec<(Vec<String>, &'static [u8])> {
    let s = |v: &[&str]| v.iter().map(|x| (*x).to_owned()).collect::<Vec<_>>();
    let (demo, hyp, r) = (demo(), text("hyp.sys-good.txt"), text("ref.txt"));
    vec![
        (s(&["sql", "-c", &format!("SELECT system, ter(hyp, ref) AS t FROM '{demo}'")]), b"" as &[u8]),
        (s(&["sql", "--format", "csv"]), b"SELECT 1 AS a;\nSELECT 2 AS b;\n"),
        (s(&["score", &demo, "-m", "ter", "chrf", "--group-by", "system"]), b""),
        (s(&["score", "--hyp", &hyp, "--ref", &r, "--sentence"]), b""),
        (s(&["mbr", &demo, "--group-by", "seg_id"]), b""),
        (s(&["calculate-cer", &hyp, &r]), b""),
        (s(&["--help"]), b""),
        (s(&["score", "--help"]), b""),
        (s(&["--version"]), b""),
    ]
}

fn run_with_stdout(args: &[String], input: &[u8], out: Stdio) -> Output {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_mteval"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(out)
        .stderr(Stdio::piped())
        .spawn()
        .expect("run mteval");
    let _ = child.stdin.take().unwrap().write_all(input);
    child.wait_with_output().unwrap()
}

#[test]
fn a_closed_pipe_ends_quietly_in_every_subcommand() {
    for (args, input) in printing_runs() {
        // A pipe whose reader is gone before the run starts: every write fails.
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        let o = run_with_stdout(&args, input, Stdio::from(writer));
        let e = stderr(&o);
        assert_eq!(o.status.code(), Some(141), "{args:?}: {e}");
        // Quietly: no error (an informational line about the device may be there).
        assert!(!e.contains("error") && !e.contains("panicked"), "{args:?} should end quietly: {e}");
    }
}

#[test]
fn a_full_disk_on_stdout_is_a_clear_error_in_every_subcommand() {
    if !Path::new("/dev/full").exists() {
        return; // Linux only
    }
    for (args, input) in printing_runs() {
        let full = std::fs::OpenOptions::new().write(true).open("/dev/full").unwrap();
        let o = run_with_stdout(&args, input, Stdio::from(full));
        fails(&o, &format!("{args:?} > /dev/full"), &["cannot write to standard output", "No space left on device"]);
    }
}

#[test]
fn extreme_numeric_options_are_refused_when_parsed_in_every_function() {
    let demo = demo();
    for f in ["chrf", "chrf_stats", "corpus_chrf"] {
        let o = mteval(&["sql", "-c", &format!("SELECT {f}('the cat sat', 'the cat sat on', 'beta:1e200')")]);
        fails(&o, f, &["beta:1e200", "expected a number from -1e154 to 1e154"]);
    }
    for f in ["mbr_chrf", "mbr_chrf_aggregate"] {
        let sql = format!("SELECT {f}(hyp, 'beta:1e200') OVER (PARTITION BY seg_id) FROM '{demo}'");
        fails(&mteval(&["sql", "-c", &sql]), f, &["beta:1e200"]);
    }
    fails(&mteval(&["score", &demo, "-m", "chrf", "--options", "beta:1e200"]), "score", &["beta:1e200"]);
    fails(&mteval(&["mbr", &demo, "--group-by", "seg_id", "--options", "beta:inf"]), "mbr", &["beta:inf"]);
    let (hyp, r) = (text("hyp.sys-good.txt"), text("ref.txt"));
    fails(
        &mteval(&["score", "--hyp", &hyp, "--ref", &r, "-m", "chrf", "--options", "beta:nan"]),
        "text",
        &["beta:nan"],
    );
    // The other numeric options of every metric, at and past their bounds.
    for (m, opt, needle) in [
        ("chrf", "nc:33", "nc:33"),
        ("chrf", "nw:18446744073709551616", "nw:18446744073709551616"),
        ("ter", "max_words:0", "max_words:0"),
        ("ter", "max_words:-5", "max_words:-5"),
        ("characTER", "fuzzy:1.5", "fuzzy:1.5"),
        ("characTER", "fuzzy:nan", "fuzzy:nan"),
        ("characTER", "max_words:1e3", "max_words:1e3"),
    ] {
        fails(&mteval(&["score", &demo, "-m", m, "--options", opt]), &format!("{m} {opt}"), &[needle]);
    }
    // At the bound itself, a score.
    let o =
        mteval(&["sql", "--format", "csv", "-c", "SELECT chrf('the cat sat', 'the cat sat on', 'beta:1e154') AS c"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: f64 = stdout(&o).lines().nth(1).unwrap().parse().unwrap();
    assert!(v.is_finite() && (0.0..=100.0).contains(&v), "{v}");
}

#[test]
fn seed_ter_refuses_rows_over_its_own_limit() {
    let long = vec!["w"; 201].join(" ");
    let o = mteval(&["sql", "-c", &format!("SELECT ter('{long}', 'w w', 'algo:seed')")]);
    fails(&o, "seed TER", &["201 words", "over the limit of 200", "algo:seed"]);
    let o = mteval(&["sql", "-c", &format!("SELECT ter('{long}', 'w w', 'algo:seed|max_words:201') AS t")]);
    assert!(o.status.success(), "{}", stderr(&o));
}

/// Runs the binary with `args`, waiting at most `secs` for it (it is killed past that).
pub(crate) fn within(secs: u64, args: &[&str]) -> Output {
    wait_within(piped(args).spawn().unwrap(), secs, &format!("{args:?}"))
}

#[test]
fn failing_copy_targets_end_with_an_error_naming_the_path() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("ok.jsonl");
    std::fs::write(&file, "{}\n").unwrap();
    let under_file = file.join("x.csv");
    let under = under_file.to_str().unwrap();
    let mut targets = vec![under.to_owned()];
    if Path::new("/proc/self").exists() {
        // A directory that refuses new files with "not found": object_store's
        // writer looped on it for ever.
        targets.push("/proc/nope.csv".to_owned());
        targets.push("/proc/nope/dir/".to_owned());
    }
    for t in &targets {
        for fmt in ["csv", "parquet", "json"] {
            let o = within(30, &["sql", "-c", &format!("COPY (SELECT 1 AS a) TO '{t}' STORED AS {fmt}")]);
            let e = fails(&o, &format!("COPY to {t}"), &["COPY cannot write", t]);
            assert!(!e.contains("bug in DataFusion") && !e.contains("Internal error"), "{e}");
        }
    }
    let e = fails(&within(30, &["sql", "-c", &format!("COPY (SELECT 1 AS a) TO '{under}'")]), "under a file", &[]);
    assert!(e.contains("is a file, not a directory"), "{e}");
    // `-o` names the file in the way too.
    let o = mteval(&["sql", "-c", "SELECT 1 AS a", "-o", under]);
    fails(&o, "-o under a file", &[&format!("{} is a file, not a directory", file.display())]);
}

fn settings_value(o: &Output, name: &str) -> String {
    let out = stdout(o);
    let line = out.lines().find(|l| l.starts_with(name)).unwrap_or_else(|| panic!("{name} not in {out}"));
    line.rsplit(',').next().unwrap().to_owned()
}

#[test]
fn flags_that_cannot_apply_are_refused_and_outputs_never_replaced_by_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("r.parquet");
    let outs = out.to_str().unwrap();
    // -o with statements on standard input writes the last result.
    let o = mteval_stdin(&["sql", "-o", outs], b"SELECT 1 AS a;\nSELECT 2 AS b UNION ALL SELECT 3;\n");
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("wrote 2 rows"), "{}", stderr(&o));
    let before = std::fs::read(&out).unwrap();
    // A last statement that returns no rows is refused before anything runs,
    // and the earlier output stays as it was.
    for last in [
        "SET datafusion.execution.batch_size = 100",
        "CREATE TABLE t AS SELECT 1 AS a",
        "CREATE EXTERNAL TABLE e STORED AS PARQUET LOCATION 'x.parquet'",
        "COPY (SELECT 1 AS a) TO 'never.csv'",
        "RESET datafusion.execution.batch_size",
        "CREATE VIEW v AS SELECT 1 AS a",
        "DROP TABLE IF EXISTS t",
    ] {
        let o = mteval(&["sql", "-c", &format!("SELECT 1 AS a; {last}"), "-o", outs]);
        fails(&o, last, &["returns no rows to write"]);
        let piped = mteval_stdin(&["sql", "-o", outs], format!("SELECT 1 AS a;\n{last};\n").as_bytes());
        fails(&piped, last, &["returns no rows to write"]);
        assert_eq!(std::fs::read(&out).unwrap(), before, "{last} replaced the output");
    }
    assert!(!Path::new("never.csv").exists());
    // Flags of table inputs in text mode.
    let (hyp, r) = (text("hyp.sys-good.txt"), text("ref.txt"));
    for flag in [
        vec!["--group-by", "system"],
        vec!["--ref-col", "ref2"],
        vec!["--hyp-col", "h"],
        vec!["-o", outs],
        vec!["--batch-size", "10"],
        vec!["--memory-limit", "1G"],
        vec!["--terms-col", "t"],
    ] {
        let mut args = vec!["score", "--hyp", &hyp, "--ref", &r];
        args.extend(&flag);
        // A usage error: status 2, as every command-line error of clap.
        let o = mteval(&args);
        let e = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{flag:?}: {e}");
        assert!(e.contains(flag[0]) && e.contains("cannot be used with"), "{flag:?}: {e}");
    }
    // target_partitions = 0 (one per core) is refused; RESET returns to the
    // session's partitions, not to one per core.
    let o = mteval(&["sql", "-c", "SET datafusion.execution.target_partitions = 0"]);
    fails(&o, "partitions 0", &["target_partitions = 0", "explicitly"]);
    let show =
        "SELECT name, value FROM information_schema.df_settings WHERE name = 'datafusion.execution.target_partitions'";
    for (args, want) in [
        (vec!["sql", "--format", "csv", "-c", "SET datafusion.execution.target_partitions = 3", "-c", show], "3"),
        (
            vec![
                "sql",
                "--format",
                "csv",
                "-c",
                "SET datafusion.execution.target_partitions = 3; RESET datafusion.execution.target_partitions",
                "-c",
                show,
            ],
            "1",
        ),
        (
            vec![
                "sql",
                "--partitions",
                "2",
                "--format",
                "csv",
                "-c",
                "SET datafusion.execution.target_partitions TO 5; RESET datafusion.execution.target_partitions",
                "-c",
                show,
            ],
            "2",
        ),
    ] {
        let o = mteval(&args);
        assert!(o.status.success(), "{}", stderr(&o));
        assert_eq!(settings_value(&o, "datafusion.execution.target_partitions"), want, "{args:?}");
    }
}

#[test]
fn csv_and_json_format_options_work_in_copy_and_create_external_table() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let p = |n: &str| d.join(n).display().to_string();
    // COPY with CSV options, prefixed and bare.
    let sql = format!(
        "COPY (SELECT 1 AS a, 'x y' AS b) TO '{}' STORED AS CSV OPTIONS ('format.delimiter' '|', 'format.has_header' 'false'); \
         COPY (SELECT 2 AS a) TO '{}' OPTIONS (delimiter ';', quote '''');",
        p("o.csv"),
        p("o2.csv")
    );
    let o = mteval(&["sql", "-c", &sql]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(std::fs::read_to_string(p("o.csv")).unwrap(), "1|x y\n");
    assert_eq!(std::fs::read_to_string(p("o2.csv")).unwrap(), "a\n2\n");
    // CREATE EXTERNAL TABLE with CSV and JSON options.
    std::fs::write(p("semi.csv"), "hyp;ref\nthe cat;the cat sat\n").unwrap();
    std::fs::write(p("rows.json"), "{\"hyp\": \"a b\", \"ref\": \"a c\"}\n").unwrap();
    let sql = format!(
        "CREATE EXTERNAL TABLE s STORED AS CSV LOCATION '{}' OPTIONS ('format.delimiter' ';', 'format.has_header' 'true'); \
         CREATE EXTERNAL TABLE j STORED AS JSON LOCATION '{}' OPTIONS ('format.schema_infer_max_rec' '10'); \
         SELECT ter(hyp, ref) AS t FROM s UNION ALL SELECT ter(hyp, ref) FROM j ORDER BY t",
        p("semi.csv"),
        p("rows.json")
    );
    let o = mteval(&["sql", "--format", "csv", "-c", &sql]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o), "t\n33.33333333333333\n50.0\n");
    // A TSV file keeps its tab and no-quote reading under extra options.
    std::fs::write(p("t.tsv"), "hyp\tref\n\"a b\tc\n").unwrap();
    let sql =
        format!("COPY (SELECT hyp FROM '{}') TO '{}' OPTIONS ('format.has_header' 'true')", p("t.tsv"), p("back.csv"));
    let o = mteval(&["sql", "-c", &sql]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(std::fs::read_to_string(p("back.csv")).unwrap(), "hyp\n\"\"\"a b\"\n");
    // COPY writes .tsv as it reads it: every field as it is, quotes included.
    let sql = format!("COPY (SELECT hyp, ref FROM '{}') TO '{}'", p("t.tsv"), p("again.tsv"));
    let o = mteval(&["sql", "-c", &sql]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(std::fs::read_to_string(p("again.tsv")).unwrap(), "hyp\tref\n\"a b\tc\n");
    // A key that no format knows is an error naming it.
    let sql = format!("COPY (SELECT 1 AS a) TO '{}' OPTIONS ('format.nonsense' 'x')", p("bad.csv"));
    fails(&mteval(&["sql", "-c", &sql]), "unknown key", &["nonsense"]);
}

#[test]
fn sql_errors_name_the_file_and_the_real_cause() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let p = |n: &str| d.join(n).display().to_string();
    let q = |path: &str| mteval(&["sql", "-c", &format!("SELECT * FROM '{path}'")]);
    // A JSON-lines syntax error: its file and line.
    std::fs::write(p("bad.jsonl"), "{\"hyp\": \"a\"}\n{\"hyp\": \"b\"}\n{\"hyp\": oops}\n").unwrap();
    fails(&q(&p("bad.jsonl")), "json syntax", &[&p("bad.jsonl"), "line 3"]);
    std::fs::write(p("types.jsonl"), "{\"n\": \"a\"}\n{\"n\": 1}\n").unwrap();
    fails(&q(&p("types.jsonl")), "json types", &[&p("types.jsonl"), "line 2"]);
    // The same through CREATE EXTERNAL TABLE: inferred when created, and
    // with a declared schema, read (and failing) when queried.
    let bad = p("bad.jsonl");
    let o = mteval(&["sql", "-c", &format!("CREATE EXTERNAL TABLE t STORED AS JSON LOCATION '{bad}'")]);
    fails(&o, "external inferred", &[&bad, "line 3"]);
    let sql = format!("CREATE EXTERNAL TABLE t (hyp VARCHAR) STORED AS JSON LOCATION '{bad}'; SELECT * FROM t");
    fails(&mteval(&["sql", "-c", &sql]), "external declared", &[&bad, "line 3"]);
    // Paths that cannot be read say why, not "table not found".
    std::fs::create_dir(p("empty")).unwrap();
    std::fs::write(p("notes.txt"), "hello\n").unwrap();
    std::fs::write(p("noext"), "hello\n").unwrap();
    std::fs::write(p("x.csv.gz"), [0x1f, 0x8b, 0x08, 0x00]).unwrap();
    for (path, needle) in [
        (p("empty/"), "holds no files"),
        (p("notes.txt"), "cannot tell the file format"),
        (p("noext"), "cannot tell the file format"),
        (p("x.csv.gz"), "cannot read"),
        (p("missing.parquet"), "no file"),
        // Port 9 (discard) on loopback: nothing listens, the connection is refused.
        ("http://127.0.0.1:9/x.parquet".to_owned(), "cannot read http://127.0.0.1:9/x.parquet"),
    ] {
        let e = fails(&q(&path), &path, &[&path, needle]);
        assert!(!e.contains("not found: no table has") || needle == "no file", "{path}: {e}");
    }
    // A compressed CSV file that is whole is read (DataFusion's compression support).
    let gz = p("ok.csv.gz");
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    std::io::Write::write_all(&mut enc, b"hyp,ref\na b,a c\n").unwrap();
    std::fs::write(&gz, enc.finish().unwrap()).unwrap();
    let o = mteval(&["sql", "--format", "csv", "-c", &format!("SELECT ter(hyp, ref) AS t FROM '{gz}'")]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o), "t\n50.0\n");
    // A plain name that is no table keeps DataFusion's message.
    fails(&mteval(&["sql", "-c", "SELECT * FROM nosuchtable"]), "plain name", &["nosuchtable", "not found"]);
    // The MBR option example is an MBR option.
    let e = fails(&mteval(&["sql", "-c", "SELECT mbr_chrf('a', 'nw2') OVER ()"]), "mbr example", &["nw:2"]);
    assert!(!e.contains("norm:yes"), "{e}");
    // A result that cannot be printed as CSV prints nothing, not a header.
    let o = mteval(&["sql", "--format", "csv", "-c", "SELECT 1 AS a, named_struct('x', 1) AS s"]);
    fails(&o, "struct as csv", &[]);
    assert_eq!(stdout(&o), "", "nothing printed before the error");
}

/// The SQL prompt at a terminal (run under util-linux's `script`, which
/// gives it a pseudo-terminal): Up recalls the last statement, Ctrl-C drops
/// the statement being typed instead of quitting, Ctrl-D leaves, and the
/// statements are kept in the history file. Keys are sent only once the
/// prompt has been printed, so that the terminal is in the prompt's raw
/// mode (in the line discipline's mode, Ctrl-C would be a SIGINT).
#[test]
fn the_sql_prompt_edits_lines_keeps_history_and_ctrl_c_clears_the_statement() {
    let dir = tempfile::tempdir().unwrap();
    let history = dir.path().join("history");
    let mut t = crate::cli::Terminal::start("sql", dir.path(), &[("MTEVAL_HISTORY", history.as_os_str())]);
    // A prompt printed after the last `needle` (which appears `n` times).
    let prompt_after = |t: &crate::cli::Terminal, needle: &str, n: usize| {
        t.wait(needle, &|s: &str| {
            s.matches(needle).count() >= n && s.rsplit(needle).next().unwrap().contains("mteval> ")
        });
    };
    t.wait("the prompt", &|s: &str| s.contains("mteval> "));
    t.send("SELECT 40 + 2 AS answer;\r");
    prompt_after(&t, "| 42 ", 1);
    t.send("\x1b[A"); // Up: the last statement again
    t.wait("the recalled statement", &|s: &str| s.contains("mteval> SELECT 40 + 2 AS answer;"));
    t.send("\r");
    prompt_after(&t, "| 42 ", 2);
    t.send("SELECT 'never run' AS dropped");
    t.wait("the typed statement", &|s: &str| s.contains("AS dropped"));
    t.send("\x03"); // Ctrl-C: the statement is dropped, the prompt stays
    prompt_after(&t, "AS dropped", 1);
    t.send("SELECT 7 AS seven;\r");
    prompt_after(&t, "| 7 ", 1);
    t.send("\x04"); // Ctrl-D: leave
    let (status, text) = t.finish("the prompt after Ctrl-D");
    assert!(status.success(), "{text}");
    // The answer printed twice (typed, then recalled with Up), the dropped
    // statement never run, the next one run.
    assert_eq!(text.matches("| 42 ").count(), 2, "{text}");
    assert!(text.contains("| 7 "), "{text}");
    assert!(!text.contains("| never run"), "{text}");
    let kept = std::fs::read_to_string(&history).unwrap();
    assert!(kept.contains("SELECT 40 + 2 AS answer;") && kept.contains("SELECT 7 AS seven;"), "{kept}");
    assert!(!kept.contains("never run"), "{kept}");
}
