//! Issue 56's findings on datasets, `COPY`, the SQL prompt, output paths and
//! cluster addresses: rows read into the wrong columns, dropped or merged
//! into NULLs; a failed `COPY` replacing its target; a history file
//! overwriting data; messages that named the wrong thing.

use crate::cli::{Terminal, fails_with, mteval, mteval_ok, stderr};
use std::fmt::Write as _;
use std::path::Path;

/// `mteval sql -c SQL --format csv`, which must succeed: its rows, header
/// first.
fn sql_rows(sql: &str) -> Vec<String> {
    mteval_ok(&["sql", "--format", "csv", "-c", sql]).lines().map(str::to_owned).collect()
}

/// Writes `text` to `dir/name`, creating the folders on the way.
fn put(dir: &Path, name: &str, text: &str) {
    let p = dir.join(name);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

/// Ten JSON lines `{"system": SYS, "hyp": ..., "ref": ...}`, hypothesis
/// equal to reference in the even rows.
fn jsonl(system: &str) -> String {
    let mut text = String::new();
    for i in 0..10 {
        let hyp = if i % 2 == 0 { "the cat sat" } else { "a dog ran" };
        let _ = writeln!(text, "{{\"system\": \"{system}\", \"hyp\": \"{hyp}\", \"ref\": \"the cat sat\"}}");
    }
    text
}

/// [`jsonl`] without the system, which a partition folder gives.
fn jsonl_pairs() -> String {
    jsonl("-").replace("\"system\": \"-\", ", "")
}

/// A temporary folder `d` holding `files` (name, text), and its path with
/// a trailing `/`, as a dataset is named.
fn folder(files: &[(&str, &str)]) -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().join("d");
    for (name, text) in files {
        put(&d, name, text);
    }
    let path = format!("{}/", d.display());
    (dir, path)
}

/// `SELECT count(*) FROM 'PATH'`.
fn count(path: &str) -> String {
    sql_rows(&format!("SELECT count(*) AS n FROM '{path}'"))[1].clone()
}

#[test]
fn csv_files_listing_columns_in_another_order_are_refused_not_read_by_position() {
    let (dir, path) =
        folder(&[("a.csv", "hyp,ref\nthe cat,the cat sat\n"), ("b.csv", "ref,hyp\nthe cat sat,the cat\n")]);
    // Read by position, b.csv's hypothesis was the reference: TER 100 where
    // both files hold the same pair (TER 33.3).
    let e = fails_with(&["score", &path, "-m", "ter"], &["b.csv", "(ref, hyp)", "(hyp, ref)", "same order"]);
    assert!(e.contains("a.csv"), "{e}");
    let o = mteval(&["sql", "-c", &format!("SELECT * FROM '{path}'")]);
    assert!(!o.status.success() && stderr(&o).contains("same order"), "{}", stderr(&o));
    // The same columns in the same order are read.
    put(&dir.path().join("d"), "b.csv", "hyp,ref\nthe cat,the cat sat\n");
    assert_eq!(count(&path), "2");
}

#[test]
fn a_folder_of_two_formats_is_refused_naming_files_of_each() {
    let (_dir, path) = folder(&[("a.jsonl", &jsonl("A")), ("b.csv", "system,hyp,ref\nB,x,y\n")]);
    fails_with(&["score", &path, "-m", "ter"], &["2 formats", ".csv: ", "b.csv", ".jsonl: ", "a.jsonl"]);
    let o = mteval(&["sql", "-c", &format!("SELECT count(*) FROM '{path}'")]);
    assert!(stderr(&o).contains("2 formats"), "{}", stderr(&o));
    // A glob picks one format.
    assert_eq!(count(&format!("{path}*.jsonl")), "10");
}

#[test]
fn files_in_subfolders_are_read_at_any_depth() {
    let (dir, path) =
        folder(&[("top.jsonl", &jsonl("A")), ("sub/x.jsonl", &jsonl("B")), ("sub/deeper/y.jsonl", &jsonl("C"))]);
    assert_eq!(count(&path), "30");
    // A glob with ** reaches them too, and a folder whose only files are in
    // a subfolder is read (it was "No files for table ... a bug in DataFusion").
    assert_eq!(count(&format!("{path}**/*.jsonl")), "30");
    let only = dir.path().join("only");
    put(&only, "sub/x.jsonl", &jsonl("B"));
    assert_eq!(count(&format!("{}/", only.display())), "10");
    assert_eq!(count(&format!("{}/**/*.jsonl", only.display())), "10");
    // score reads every row.
    let out = dir.path().join("scored.parquet");
    mteval_ok(&["score", &path, "-m", "ter", "-o", out.to_str().unwrap()]);
    assert_eq!(crate::cli::parquet_f64s(&out, "ter").len(), 30);
}

#[test]
fn a_partition_folder_with_a_deeper_folder_keeps_its_rows_and_stray_files_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().join("hive");
    put(&d, "system=A/part.jsonl", &jsonl_pairs());
    put(&d, "system=D/2025/part.jsonl", &jsonl_pairs());
    let rows =
        sql_rows(&format!("SELECT system, count(*) AS n FROM '{}/' GROUP BY system ORDER BY system", d.display()));
    assert_eq!(rows, ["system,n", "A,10", "D,10"]);
    // A file beside the partition folders has no system: refused, named.
    put(&d, "stray.jsonl", &jsonl_pairs());
    let e = fails_with(
        &["score", &format!("{}/", d.display()), "-m", "ter", "--group-by", "system"],
        &["stray.jsonl", "system=..."],
    );
    assert!(!e.contains("system=A/part.jsonl do not"), "{e}");
    // A file column named as a partition key: refused, named.
    std::fs::remove_file(d.join("stray.jsonl")).unwrap();
    put(&d, "system=A/part.jsonl", &jsonl("A"));
    fails_with(&["score", &format!("{}/", d.display()), "-m", "ter"], &["system=A/part.jsonl", "column 'system'"]);
}

#[test]
fn files_with_other_columns_are_refused_naming_files_and_columns() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().join("d");
    std::fs::create_dir_all(&d).unwrap();
    let src = dir.path().join("src.jsonl");
    std::fs::write(&src, jsonl("A")).unwrap();
    let s = src.display();
    let a = d.join("a.parquet");
    let b = d.join("b.parquet");
    mteval_ok(&["sql", "-c", &format!("COPY (SELECT system, hyp, ref FROM '{s}') TO '{}'", a.display())]);
    mteval_ok(&["sql", "-c", &format!("COPY (SELECT system, hyp AS hypothesis, ref FROM '{s}') TO '{}'", b.display())]);
    let path = format!("{}/", d.display());
    fails_with(&["score", &path, "-m", "ter"], &["a.parquet", "b.parquet", "lacks 'hyp'", "'hypothesis' in addition"]);
    // Parquet files with the same columns in another order are read by name.
    mteval_ok(&["sql", "-c", &format!("COPY (SELECT ref, hyp, system FROM '{s}') TO '{}'", b.display())]);
    let rows =
        sql_rows(&format!("SELECT count(*) AS n, sum(CASE WHEN hyp = ref THEN 1 ELSE 0 END) AS same FROM '{path}'"));
    assert_eq!(rows[1], "20,10");
    // CSV files of 3 and 4 columns: both named (it was "incorrect number of
    // fields for line 1", naming no file).
    let c = dir.path().join("c");
    put(&c, "a.csv", "system,hyp,ref\nA,x,y\n");
    put(&c, "b.csv", "system,hyp,ref,extra\nA,x,y,z\n");
    fails_with(&["score", &format!("{}/", c.display()), "-m", "ter"], &["a.csv", "b.csv", "'extra' in addition"]);
    // A column of numbers in one file and of text in another: both named.
    let t = dir.path().join("t");
    put(&t, "a.jsonl", "{\"hyp\": \"a\", \"ref\": \"b\", \"n\": 1}\n");
    put(&t, "b.jsonl", "{\"hyp\": \"a\", \"ref\": \"b\", \"n\": \"x\"}\n");
    fails_with(
        &["score", &format!("{}/", t.display()), "-m", "ter"],
        &["column 'n' different types", "a.jsonl has Int64", "b.jsonl has Utf8"],
    );
}

#[test]
fn hidden_files_are_skipped_and_never_decide_the_format() {
    let (dir, path) = folder(&[
        ("a.jsonl", &jsonl("A")),
        (".b.jsonl", &jsonl("B")),
        ("_c.jsonl", &jsonl("C")),
        ("_temporary/x.jsonl", &jsonl("T")),
        (".cache/y.jsonl", &jsonl("Y")),
        // What a killed `-o` leaves, sorting before every data file.
        (".a.parquet.mteval-99999.tmp", "PAR1 partial"),
        ("_SUCCESS", ""),
    ]);
    assert_eq!(count(&path), "10");
    let rows = sql_rows(&format!("SELECT DISTINCT system FROM '{path}'"));
    assert_eq!(rows, ["system", "A"]);
    // A `_key=value` folder is a partition, not hidden.
    let h = dir.path().join("h");
    put(&h, "_part=1/a.jsonl", &jsonl_pairs());
    assert_eq!(count(&format!("{}/", h.display())), "10");
    // Only hidden files: the folder holds nothing to read, and says why.
    let e = dir.path().join("e");
    put(&e, ".x.jsonl", &jsonl("A"));
    let o = mteval(&["sql", "-c", &format!("SELECT * FROM '{}/'", e.display())]);
    assert!(stderr(&o).contains("skipped"), "{}", stderr(&o));
}

#[test]
fn a_failed_copy_leaves_the_existing_target_as_it_was() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.csv");
    // The cast fails at the last row, after the first batch was written.
    let mut text = String::from("n\n");
    for i in 0..20_000 {
        let _ = writeln!(text, "{i}");
    }
    text.push_str("oops\n");
    std::fs::write(&input, text).unwrap();
    let target = dir.path().join("target.parquet");
    std::fs::write(&target, b"the old contents").unwrap();
    let q = format!("COPY (SELECT arrow_cast(n, 'Int64') AS n FROM '{}') TO '{}'", input.display(), target.display());
    let o = mteval(&["sql", "--batch-size", "1024", "-c", &q]);
    assert!(!o.status.success(), "the COPY must fail");
    assert!(stderr(&o).contains("COPY cannot write"), "{}", stderr(&o));
    assert_eq!(std::fs::read(&target).unwrap(), b"the old contents");
    let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(left.len(), 2, "no temporary file left: {left:?}");
    // A COPY that succeeds replaces it.
    let q = format!("COPY (SELECT 1 AS n) TO '{}'", target.display());
    mteval_ok(&["sql", "-c", &q]);
    assert_eq!(sql_rows(&format!("SELECT n FROM '{}'", target.display())), ["n", "1"]);
    let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(left.len(), 2, "no temporary file left: {left:?}");
}

/// The SQL prompt in a pseudo-terminal (util-linux's `script`) with
/// `MTEVAL_HISTORY` set to `history`, in `dir`: `keys` are typed once the
/// prompt shows, then, once the terminal shows `until`, Ctrl-D; returns
/// everything the terminal showed.
fn prompt_session(dir: &Path, history: &std::ffi::OsStr, keys: &str, until: &str) -> String {
    let mut t = Terminal::start("sql", dir, &[("MTEVAL_HISTORY", history)]);
    t.wait("the prompt", &|t: &str| t.contains("mteval> "));
    t.send(keys);
    t.wait(until, &|t: &str| t.contains(until));
    t.send("\x04");
    let (status, text) = t.finish("the prompt after Ctrl-D");
    assert!(status.success(), "{text}");
    text
}

#[test]
fn the_prompt_never_overwrites_a_data_file_named_as_its_history() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data.parquet");
    mteval_ok(&["sql", "-c", &format!("COPY (SELECT 1 AS a) TO '{}'", data.display())]);
    let before = std::fs::read(&data).unwrap();
    let text = prompt_session(dir.path(), data.as_os_str(), "SELECT 40 + 2 AS answer;\r", "| 42 ");
    assert!(text.contains("| 42 "), "{text}");
    assert!(text.contains("not a history file"), "{text}");
    assert_eq!(std::fs::read(&data).unwrap(), before, "the data file is unchanged");
    // An empty MTEVAL_HISTORY keeps no history, without a complaint.
    let text = prompt_session(dir.path(), std::ffi::OsStr::new(""), "SELECT 7 AS seven;\r", "| 7 ");
    assert!(text.contains("| 7 "), "{text}");
    assert!(!text.contains("not saved"), "{text}");
}

#[test]
fn ctrl_d_on_an_unfinished_statement_does_not_run_it() {
    let dir = tempfile::tempdir().unwrap();
    let history = dir.path().join("history");
    // Ctrl-D leaves on an empty line: here the statement's second line.
    let text = prompt_session(dir.path(), history.as_os_str(), "COPY (SELECT 1 AS a) TO 'written.csv'\r", "     -> ");
    assert!(text.contains("was not run"), "{text}");
    assert!(!dir.path().join("written.csv").exists(), "the COPY ran: {text}");
    let kept = std::fs::read_to_string(&history).unwrap();
    assert!(kept.contains("TO 'written.csv'"), "kept in the history: {kept}");
}

#[test]
fn an_output_on_a_device_is_refused_in_plain_words() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.jsonl");
    std::fs::write(&input, jsonl("A")).unwrap();
    let e = fails_with(&["score", input.to_str().unwrap(), "-m", "ter", "-o", "/dev/null"], &["a character device"]);
    assert!(e.contains("replace the character device itself"), "{e}");
    assert!(!e.contains("the a "), "{e}");
}

#[test]
fn a_cluster_address_that_is_no_mteval_scheduler_is_said_in_words() {
    fails_with(&["sql", "--cluster", "", "-c", "SELECT 1"], &["--cluster needs the scheduler's address"]);
    fails_with(&["sql", "--cluster", "df://127.0.0.1:50050/path", "-c", "SELECT 1"], &["without the path /path"]);
    fails_with(&["sql", "--cluster", "df://user@127.0.0.1:50050", "-c", "SELECT 1"], &["no user name"]);
    // An HTTP server of another kind answers 404 to everything.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    // It answers the first request, and gives up after 20 s without one.
    let server = std::thread::spawn(move || {
        use std::io::{Read, Write};
        listener.set_nonblocking(true).unwrap();
        let start = std::time::Instant::now();
        while start.elapsed().as_secs() < 20 {
            if let Ok((mut s, _)) = listener.accept() {
                s.set_nonblocking(false).unwrap();
                let mut b = [0u8; 1024];
                let _ = s.read(&mut b);
                let _ =
                    s.write_all(b"HTTP/1.1 404 Not Found\r\nContent-Length: 9\r\nConnection: close\r\n\r\nnot found");
                return;
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
    });
    let url = format!("df://127.0.0.1:{port}");
    fails_with(
        &["sql", "--cluster", &url, "-c", "SELECT 1"],
        &["is not an mteval scheduler", "serves no /mteval/status"],
    );
    server.join().unwrap();
}

#[test]
fn a_very_long_line_typed_at_the_prompt_is_cut_short_not_redrawn_at_every_wrap() {
    let dir = tempfile::tempdir().unwrap();
    let history = dir.path().join("history");
    // 60,000 characters typed one by one (a terminal without bracketed
    // paste): redrawn at each wrap, that is about 22 MB of terminal output;
    // cut at the prompt's limit, a small part of it.
    let long = format!("SELECT length('{}') AS n;\r", "x".repeat(60_000));
    let mut t = Terminal::start("sql", dir.path(), &[("MTEVAL_HISTORY", history.as_os_str())]);
    t.wait("the prompt", &|t: &str| t.contains("mteval> "));
    t.send(&long);
    t.wait("the refusal", &|t: &str| t.contains("was not run"));
    // An over-long line that does not end the statement: the statement is
    // refused where it ends, on a later line.
    t.send(&format!("SELECT length('{}')\r", "y".repeat(20_000)));
    t.wait("the warning", &|t: &str| t.contains("will not be run when it ends"));
    t.send("AS m;\r");
    t.wait("the refusal", &|t: &str| t.contains("the statement with the over-long line was not run"));
    // The prompt goes on, and the next statement runs.
    t.send("SELECT 6 * 7 AS answer;\r");
    t.wait("the next statement", &|t: &str| t.contains("| 42 "));
    t.send("\x04");
    let (status, text) = t.finish("the prompt after Ctrl-D");
    assert!(status.success(), "{text}");
    assert!(text.contains("holds at most 16384 bytes"), "{}", &text[text.len().saturating_sub(2000)..]);
    assert!(text.contains("mteval sql -f FILE"), "{}", &text[text.len().saturating_sub(2000)..]);
    assert!(!text.contains("| 60000") && !text.contains("| 20000"), "the long statements must not run");
    // Two lines cut at 16 KiB redraw about 1.8 MB each at 80 columns.
    assert!(text.len() < 8_000_000, "{} bytes of terminal output", text.len());
}

/// A file named `.parquet` whose footer claims more metadata than the file
/// holds made the Parquet reader panic (exit 101) in SQL and in a folder;
/// every surface now names the file. A single compressed `.csv.gz` /
/// `.jsonl.gz` file is read by `score` as SQL reads it (it was "unknown
/// input format '.gz'").
#[test]
fn a_corrupt_parquet_footer_is_named_and_a_compressed_file_is_scored() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().join("d");
    let src = dir.path().join("src.jsonl");
    std::fs::write(&src, jsonl("A")).unwrap();
    std::fs::create_dir_all(&d).unwrap();
    mteval_ok(&["sql", "-c", &format!("COPY (SELECT * FROM '{}') TO '{}/a.parquet'", src.display(), d.display())]);
    for (i, bad) in [&b"PAR1garbagePAR1"[..], b"xxxxxxxx\x10\x00\x00\x00PAR1", b"PAR1"].iter().enumerate() {
        let f = dir.path().join(format!("bad{i}.parquet"));
        std::fs::write(&f, bad).unwrap();
        let f = f.to_str().unwrap();
        fails_with(&["sql", "-c", &format!("SELECT count(*) FROM '{f}'")], &[f, "not a Parquet file"]);
        fails_with(&["score", f, "-m", "ter"], &[f, "not a Parquet file"]);
        std::fs::copy(f, d.join("b.parquet")).unwrap();
        let folder = format!("{}/", d.display());
        let named = d.join("b.parquet");
        let named = named.to_str().unwrap();
        fails_with(&["score", &folder, "-m", "ter"], &[named, "not a Parquet file"]);
        fails_with(&["sql", "-c", &format!("SELECT count(*) FROM '{folder}'")], &[named, "not a Parquet file"]);
    }
    // Compressed single files: the same rows and scores as the plain file.
    let plain = mteval_ok(&["score", src.to_str().unwrap(), "-m", "ter", "--group-by", "system"]);
    for (ext, format) in [("csv.gz", "CSV"), ("jsonl.gz", "JSON")] {
        let z = dir.path().join(format!("src.{ext}"));
        mteval_ok(&[
            "sql",
            "-c",
            &format!(
                "COPY (SELECT * FROM '{}') TO '{}' STORED AS {format} OPTIONS ('format.compression' 'gzip')",
                src.display(),
                z.display()
            ),
        ]);
        let got = mteval_ok(&["score", z.to_str().unwrap(), "-m", "ter", "--group-by", "system"]);
        assert_eq!(got, plain, "{ext}");
    }
    // An empty CSV file says so (it was "Requested range was invalid"); a
    // JSON Lines file with a byte-order mark says what to do about it.
    let empty = dir.path().join("empty.csv");
    std::fs::write(&empty, "").unwrap();
    let empty = empty.to_str().unwrap();
    fails_with(&["score", empty, "-m", "ter"], &[empty, "the file is empty"]);
    let bom = dir.path().join("bom.jsonl");
    std::fs::write(&bom, format!("\u{feff}{}", jsonl("A"))).unwrap();
    let bom = bom.to_str().unwrap();
    fails_with(&["score", bom, "-m", "ter"], &[bom, "line 1 is not valid JSON", "byte-order mark"]);
    // A CSV header naming a column twice: named in SQL as in score (SQL said
    // "incorrect number of fields for line 1", naming no file).
    let dup = dir.path().join("dup").join("dup.csv");
    put(dir.path(), "dup/dup.csv", "hyp,hyp,ref\na,b,c\n");
    let dup = dup.to_str().unwrap();
    let needles = [dup, "column 'hyp' appears more than once"];
    fails_with(&["sql", "-c", &format!("SELECT * FROM '{dup}'")], &needles);
    fails_with(&["score", dup, "-m", "ter"], &needles);
    let folder = format!("{}/dup/", dir.path().display());
    fails_with(&["sql", "-c", &format!("SELECT * FROM '{folder}'")], &needles);
}
