//! A Ballista cluster on 127.0.0.1, started from this binary (one scheduler,
//! two executors), against the same queries run locally: the results must be
//! equal, mteval's functions (scalar, aggregate, window) must be there, and
//! an error raised on an executor must reach the client naming the function.

use std::net::{SocketAddr, TcpListener, TcpStream};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use crate::cli::{piped, stderr, wait_within};

/// The processes of a cluster, killed when dropped.
pub(crate) struct Cluster {
    pub(crate) url: String,
    children: Vec<Child>,
}

impl Cluster {
    /// Sends `signal` (`STOP`, `CONT`, `KILL`) to the scheduler.
    fn signal_scheduler(&self, signal: &str) {
        let pid = self.children[0].id().to_string();
        assert!(Command::new("kill").args([&format!("-{signal}"), &pid]).status().unwrap().success());
    }

    /// Kills every executor and waits for them to end.
    fn kill_executors(&mut self) {
        for c in &mut self.children[1..] {
            let _ = c.kill();
            let _ = c.wait();
        }
    }

    /// SIGKILLs executor `i` (from 0).
    fn kill_executor(&mut self, i: usize) {
        let c = &mut self.children[1 + i];
        c.kill().unwrap();
        c.wait().unwrap();
    }

    /// The exit codes of the executors, which must all end within `secs`.
    fn executors_end_within(&mut self, secs: u64) -> Vec<Option<i32>> {
        let start = Instant::now();
        self.children[1..]
            .iter_mut()
            .map(|c| {
                loop {
                    if let Some(status) = c.try_wait().unwrap() {
                        break status.code();
                    }
                    assert!(start.elapsed() < Duration::from_secs(secs), "an executor still runs after {secs} s");
                    std::thread::sleep(Duration::from_millis(100));
                }
            })
            .collect()
    }

    /// `mteval cluster status URL --json`, parsed.
    fn status(&self) -> serde_json::Value {
        let o = crate::cli_reliability::within(30, &["cluster", "status", &self.url, "--json"]);
        serde_json::from_str(&rows(&o, "cluster status")).unwrap()
    }

    /// Waits (up to 60 s) until the scheduler has a queued or running job.
    fn until_a_job_runs(&self) {
        let start = Instant::now();
        loop {
            let jobs = self.status()["jobs"].as_array().unwrap().clone();
            if jobs.iter().any(|j| j["status"] == "running" || j["status"] == "queued") {
                return;
            }
            assert!(start.elapsed() < Duration::from_mins(1), "no job started within 60 s: {jobs:?}");
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        for c in &mut self.children {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

fn spawn(args: &[&str], env: &[(&str, String)]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_mteval"))
        .args(args)
        .envs(env.iter().map(|(k, v)| (*k, v.as_str())))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start a cluster role")
}

fn wait_for(addr: SocketAddr) {
    let start = Instant::now();
    while TcpStream::connect_timeout(&addr, Duration::from_millis(200)).is_err() {
        assert!(start.elapsed() < Duration::from_secs(30), "nothing listens on {addr} after 30 s");
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// A scheduler and `executors` executors on free loopback ports, each with
/// the environment `env` (object-store settings).
pub(crate) fn start_cluster(executors: usize, env: &[(&str, String)]) -> Cluster {
    start_cluster_with(executors, env, &[], &[])
}

/// [`start_cluster`] with more arguments for the scheduler and the
/// executors; returns once every executor is registered.
fn start_cluster_with(executors: usize, env: &[(&str, String)], scheduler: &[&str], executor: &[&str]) -> Cluster {
    let sched: SocketAddr = format!("127.0.0.1:{}", free_port()).parse().unwrap();
    let mut cluster = Cluster { url: format!("df://{sched}"), children: Vec::new() };
    let bind = sched.to_string();
    cluster.children.push(spawn(&[&["scheduler", "--bind", &bind], scheduler].concat(), env));
    wait_for(sched);
    for _ in 0..executors {
        let (flight, grpc) = (format!("127.0.0.1:{}", free_port()), format!("127.0.0.1:{}", free_port()));
        let args =
            ["executor", "--scheduler", &bind, "--bind", &flight, "--grpc-bind", &grpc, "--concurrent-tasks", "2"];
        cluster.children.push(spawn(&[&args[..], executor].concat(), env));
        wait_for(flight.parse().unwrap());
    }
    let start = Instant::now();
    while cluster.status()["executors"].as_array().unwrap().len() < executors {
        assert!(start.elapsed() < Duration::from_secs(30), "the executors did not register within 30 s");
        std::thread::sleep(Duration::from_millis(100));
    }
    cluster
}

fn sql(cluster: Option<&Cluster>, query: &str) -> Output {
    let mut args = vec!["sql", "--format", "ndjson", "-c", query];
    if let Some(c) = cluster {
        args.extend(["--cluster", c.url.as_str()]);
    }
    crate::cli_reliability::within(120, &args)
}

fn rows(o: &Output, what: &str) -> String {
    assert!(o.status.success(), "{what}: {}", stderr(o));
    String::from_utf8(o.stdout.clone()).unwrap()
}

#[test]
#[allow(clippy::too_many_lines, reason = "the checks share one cluster, started once, and run in order")]
fn queries_on_a_cluster_equal_the_local_run() {
    let wmt = crate::common::shared_dir().join("data/wmt/en-de.parquet").display().to_string();
    let demo = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data/demo.parquet").display().to_string();
    let cluster = start_cluster(2, &[]);
    let queries = [
        // Aggregates per group, over the real WMT rows.
        format!(
            "SELECT system, corpus_ter(hyp, ref) AS ter, corpus_chrf(hyp, ref) AS chrf, \
             corpus_chrf(hyp, ref, 'nw:2') AS chrfpp, corpus_charac_ter(hyp, ref) AS cer \
             FROM '{wmt}' GROUP BY system ORDER BY system"
        ),
        // Scalar functions per row, with options and a reference list.
        format!(
            "SELECT seg_id, system, ter(hyp, [ref, ref2], 'case:mixed') AS t, chrf(hyp, ref) AS c, \
             charac_ter(hyp, ref) AS k, chrf_stats(hyp, ref) AS s FROM '{demo}' ORDER BY system, seg_id"
        ),
        // Window functions, with and without PARTITION BY.
        format!(
            "SELECT seg_id, system, mbr_chrf(hyp) OVER (PARTITION BY seg_id ORDER BY system) AS u, \
             mbr_chrf_aggregate(hyp, 'nw:2') OVER (PARTITION BY seg_id ORDER BY system) AS a \
             FROM '{demo}' ORDER BY seg_id, system"
        ),
        format!(
            "SELECT seg_id, system, mbr_chrf(hyp) OVER (ORDER BY system, seg_id) AS u \
             FROM '{demo}' WHERE seg_id < 20 ORDER BY system, seg_id"
        ),
        // A JSON-lines file, read through mteval's .jsonl format.
        format!(
            "SELECT system, corpus_ter(hyp, ref) AS t FROM '{}' GROUP BY system ORDER BY system",
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data/demo.jsonl").display()
        ),
    ];
    for q in &queries {
        let local = rows(&sql(None, q), q);
        let remote = rows(&sql(Some(&cluster), q), q);
        assert!(local.lines().count() > 2, "{q}: {local}");
        assert_eq!(remote, local, "{q}");
    }
    // `mteval score` on the cluster: the same scored file and corpus scores.
    let dir = tempfile::tempdir().unwrap();
    let mut printed = Vec::new();
    for (name, on) in [("local", None), ("cluster", Some(cluster.url.as_str()))] {
        let out = dir.path().join(format!("{name}.jsonl")).display().to_string();
        let mut args = vec!["score", &wmt, "-m", "ter", "chrf++", "characTER", "--group-by", "system", "-o", &out];
        if let Some(url) = on {
            args.extend(["--cluster", url]);
        }
        let o = Command::new(env!("CARGO_BIN_EXE_mteval")).args(&args).output().unwrap();
        printed.push(rows(&o, name));
        printed.push(std::fs::read_to_string(&out).unwrap());
    }
    assert!(printed[0].lines().count() >= 3, "{}", printed[0]);
    assert_eq!(printed[2], printed[0], "corpus scores");
    assert_eq!(printed[3], printed[1], "scored rows");

    // COPY on the cluster writes every format a local run writes, with the
    // statement's options, and the same bytes.
    let target = dir.path().join("copied.parquet").display().to_string();
    let o = sql(Some(&cluster), &format!("COPY (SELECT system, hyp FROM '{demo}') TO '{target}'"));
    rows(&o, "COPY to Parquet");
    let back = rows(&sql(None, &format!("SELECT count(*) AS n FROM '{target}'")), "read back");
    assert_eq!(back.trim(), "{\"n\":300}");
    // Parquet's options too (DataFusion's plan encoding alone drops them).
    for (name, on) in [("local", None), ("cluster", Some(&cluster))] {
        let path = dir.path().join(format!("{name}-zstd.parquet"));
        let q =
            format!("COPY (SELECT system, hyp FROM '{demo}') TO '{}' OPTIONS (compression 'zstd(3)')", path.display());
        rows(&sql(on, &q), &q);
        let reader = parquet::file::reader::SerializedFileReader::new(std::fs::File::open(&path).unwrap()).unwrap();
        let meta = parquet::file::reader::FileReader::metadata(&reader);
        assert_eq!(meta.file_metadata().num_rows(), 300, "{name}");
        let codec = meta.row_group(0).column(0).compression();
        assert!(matches!(codec, parquet::basic::Compression::ZSTD(_)), "{name}: {codec:?}");
    }
    for (ext, options) in
        [("csv", ""), ("csv", " OPTIONS (format.delimiter '|')"), ("tsv", ""), ("jsonl", ""), ("json", "")]
    {
        let mut written = Vec::new();
        for (name, on) in [("local", None), ("cluster", Some(&cluster))] {
            let path = dir.path().join(format!("{name}-{}.{ext}", options.len())).display().to_string();
            let q = format!(
                "COPY (SELECT system, seg_id, hyp, ter(hyp, ref) AS t FROM '{demo}' ORDER BY system, seg_id) \
                 TO '{path}'{options}"
            );
            rows(&sql(on, &q), &q);
            written.push(std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}")));
        }
        assert_eq!(written[0].lines().count(), if ext.starts_with("json") { 300 } else { 301 }, "{ext}{options}");
        assert_eq!(written[1], written[0], "COPY to .{ext}{options}");
        if options.contains('|') {
            assert!(written[0].starts_with("system|seg_id|hyp|t\n"), "{}", &written[0][..40]);
        }
    }

    // The session's mteval.device reaches the executors, for scalar,
    // aggregate and window functions alike: `cpu` runs there, and `cuda`
    // fails there when the machine has no GPU (and gives the CPU's scores
    // when it has one).
    let gpu = mteval_kernels::backend::backend_for(mteval_kernels::backend::DeviceRequest::Cuda).is_ok();
    for q in [
        format!("SELECT seg_id, system, ter(hyp, ref) AS t FROM '{demo}' ORDER BY system, seg_id"),
        format!(
            "SELECT system, corpus_ter(hyp, ref) AS t, corpus_chrf(hyp, ref) AS c FROM '{demo}' GROUP BY system ORDER BY system"
        ),
        format!(
            "SELECT seg_id, system, mbr_chrf(hyp) OVER (PARTITION BY seg_id ORDER BY system) AS u FROM '{demo}' ORDER BY seg_id, system"
        ),
    ] {
        let local = rows(&sql(None, &q), &q);
        let on_cpu = rows(&sql(Some(&cluster), &format!("SET mteval.device = 'cpu'; {q}")), &q);
        assert_eq!(on_cpu, local, "{q}");
        let o = sql(Some(&cluster), &format!("SET mteval.device = 'cuda'; {q}"));
        if gpu {
            assert_eq!(rows(&o, &q), local, "{q}");
        } else {
            let e = stderr(&o);
            assert_eq!(o.status.code(), Some(1), "{q}: {e}");
            assert!(e.contains("on the cluster (job ") && e.contains("device 'cuda' was requested"), "{q}: {e}");
        }
    }

    // An error raised on an executor (a row over TER's length limit) names
    // the function and the problem.
    let q = format!("SELECT ter(hyp, ref, 'max_words:3') AS t FROM '{demo}'");
    let o = sql(Some(&cluster), &q);
    let e = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{e}");
    assert!(e.contains("on the cluster (job ") && e.contains("ter: row ") && e.contains("over the limit of 3"), "{e}");
    assert!(!e.contains("DataFusionError(") && !e.contains("\\\""), "the executor's message unwrapped: {e}");
}

/// `mteval sql --format ndjson -c QUERY` in `dir`, on `cluster` when given,
/// killed after 120 s.
fn sql_in(dir: &std::path::Path, cluster: Option<&Cluster>, query: &str) -> Output {
    let mut args = vec!["sql", "--format", "ndjson", "-c", query];
    if let Some(c) = cluster {
        args.extend(["--cluster", c.url.as_str()]);
    }
    wait_within(piped(&args).current_dir(dir).spawn().unwrap(), 120, query)
}

#[test]
fn compressed_tsv_and_bare_named_inputs_on_a_cluster_equal_the_local_run() {
    let demo = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data/demo.parquet").display().to_string();
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // Every text format with every compression, written by a local COPY
    // (which a local read reads back), with several columns and with one.
    let mut files = Vec::new();
    for (ext, stored, compression) in [
        ("csv", "CSV", ""),
        ("csv.gz", "CSV", "gzip"),
        ("csv.xz", "CSV", "xz"),
        ("csv.zst", "CSV", "zstd"),
        ("csv.bz2", "CSV", "bzip2"),
        ("tsv", "TSV", ""),
        ("tsv.gz", "TSV", "gzip"),
        ("ndjson.gz", "JSON", "gzip"),
        ("jsonl.zst", "JSON", "zstd"),
        ("jsonl.bz2", "JSON", "bzip2"),
    ] {
        for (cols, select) in [("many", "system, seg_id, hyp, ref"), ("one", "hyp")] {
            let path = d.join(format!("{cols}.{ext}")).display().to_string();
            let mut options = Vec::new();
            if !compression.is_empty() {
                options.push(format!("'format.compression' '{compression}'"));
            }
            let stored = format!(" STORED AS {stored}");
            let options = if options.is_empty() { String::new() } else { format!(" OPTIONS ({})", options.join(", ")) };
            let q =
                format!("COPY (SELECT {select} FROM '{demo}' ORDER BY system, seg_id) TO '{path}'{stored}{options}");
            rows(&sql(None, &q), &q);
            files.push((cols, path));
        }
    }
    let cluster = start_cluster(2, &[]);
    for (cols, path) in &files {
        let q = if *cols == "many" {
            format!("SELECT count(*) AS n, corpus_ter(hyp, ref) AS t, corpus_chrf(hyp, ref) AS c FROM '{path}'")
        } else {
            format!("SELECT count(*) AS n, min(hyp) AS lo, max(hyp) AS hi FROM '{path}'")
        };
        let local = rows(&sql(None, &q), &q);
        assert!(local.starts_with("{\"n\":300,"), "{q}: {local}");
        let remote = rows(&sql(Some(&cluster), &q), &q);
        assert_eq!(remote, local, "{q}");
    }
    // A file named bare, as the README writes it (`FROM 'wmt.parquet'`).
    std::fs::copy(&demo, d.join("demo.parquet")).unwrap();
    for q in [
        "SELECT system, corpus_ter(hyp, ref) AS ter FROM 'demo.parquet' GROUP BY system ORDER BY system",
        "SELECT d.system, count(*) AS n FROM 'demo.parquet' d GROUP BY d.system ORDER BY d.system",
        "SELECT system, corpus_ter(hyp, ref) FROM 'many.csv.gz' GROUP BY system ORDER BY system",
    ] {
        let local = rows(&sql_in(d, None, q), q);
        assert_eq!(local.lines().count(), 3, "{q}: {local}");
        let remote = rows(&sql_in(d, Some(&cluster), q), q);
        assert_eq!(remote, local, "{q}");
    }
    // A row over TER's length limit in ter_alignment fails cleanly on an
    // executor (it used to abort every executor), and the cluster goes on.
    let big = d.join("big.jsonl");
    let long = vec!["w"; 200_000].join(" ");
    std::fs::write(&big, format!("{}\n", serde_json::json!({"hyp": long, "ref": "w w"}))).unwrap();
    let q = format!("SELECT ter_alignment(hyp, ref) AS a FROM '{}'", big.display());
    let o = sql(Some(&cluster), &q);
    let e = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{e}");
    assert!(e.contains("ter_alignment") && e.contains("over the limit of 5000"), "{e}");
    let q = format!("SELECT count(*) AS n FROM '{demo}'");
    assert_eq!(rows(&sql(Some(&cluster), &q), &q).trim(), "{\"n\":300}");
    // `score --cluster`: a bad row is named within the executor's batch,
    // not passed off as the input's row (it is row 150 of the input).
    let rows_file = d.join("rows.jsonl");
    let lines: Vec<String> = (0..250)
        .map(|i| {
            let hyp = if i == 150 { vec!["w"; 30].join(" ") } else { "a b".to_owned() };
            serde_json::json!({"hyp": hyp, "ref": "a b"}).to_string()
        })
        .collect();
    std::fs::write(&rows_file, lines.join("\n") + "\n").unwrap();
    let rows_path = rows_file.display().to_string();
    let o = crate::cli_reliability::within(
        120,
        &[
            "score",
            &rows_path,
            "-m",
            "ter",
            "--options",
            "max_words:25",
            "--batch-size",
            "100",
            "--cluster",
            &cluster.url,
        ],
    );
    let e = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{e}");
    assert!(e.contains("row 50 of a batch scored on the cluster") && e.contains("score without --cluster"), "{e}");
    assert!(!e.contains("(counting from 0)") && !e.contains("scoring rows from"), "{e}");
    let local = crate::cli_reliability::within(
        120,
        &["score", &rows_path, "-m", "ter", "--options", "max_words:25", "--batch-size", "100"],
    );
    assert!(stderr(&local).contains("row 150 (counting from 0)"), "{}", stderr(&local));
}

#[test]
fn a_frozen_scheduler_or_no_executor_ends_the_query_with_a_clear_error() {
    let demo = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data/demo.parquet").display().to_string();
    let q = format!("SELECT system, corpus_ter(hyp, ref) AS t FROM '{demo}' GROUP BY system");
    // No executor ever registered: a job would queue for ever; the client
    // fails after --executor-wait.
    let cluster = start_cluster(0, &[]);
    for cmd in [vec!["sql", "-c", q.as_str()], vec!["score", demo.as_str(), "-m", "ter"]] {
        let start = Instant::now();
        let o = crate::cli_reliability::within(
            60,
            &[&cmd[..], &["--cluster", &cluster.url, "--executor-wait", "2"]].concat(),
        );
        let e = stderr(&o);
        assert_eq!(o.status.code(), Some(1), "{e}");
        assert!(start.elapsed() < Duration::from_secs(20), "{:?}: {e}", start.elapsed());
        let url = &cluster.url;
        assert!(e.contains(&format!("no executor is registered with the scheduler at {url} (waited 2 s)")), "{e}");
        assert!(e.contains(&format!("mteval executor --scheduler {}", &url["df://".len()..])), "{e}");
    }
    drop(cluster);
    // Every executor gone: the job fails within the executor timeout (15 s
    // by default), not minutes later.
    let mut cluster = start_cluster(1, &[]);
    rows(&sql(Some(&cluster), &q), &q);
    cluster.kill_executors();
    let start = Instant::now();
    let o = sql(Some(&cluster), &q);
    let e = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{e}");
    assert!(start.elapsed() < Duration::from_mins(1), "{:?}: {e}", start.elapsed());
    assert!(!e.contains("tonic::") && !e.contains("Status {"), "{e}");
    // A frozen scheduler (SIGSTOP): the client gives up with a message
    // instead of waiting for ever.
    let cluster = start_cluster(1, &[]);
    rows(&sql(Some(&cluster), &q), &q);
    cluster.signal_scheduler("STOP");
    let start = Instant::now();
    let o = sql(Some(&cluster), &q);
    cluster.signal_scheduler("CONT");
    let e = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{e}");
    assert!(start.elapsed() < Duration::from_secs(90), "{:?}", start.elapsed());
    assert!(
        e.contains(&format!("the cluster at {}: the scheduler cannot be reached: it stopped answering", cluster.url)),
        "{e}"
    );
    assert!(!e.contains("tonic::") && !e.contains("h2 protocol error"), "{e}");
}

#[test]
fn a_wrong_cluster_address_is_named_with_its_likely_cause() {
    let demo = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data/demo.parquet").display().to_string();
    let q = format!("SELECT count(*) FROM '{demo}'");
    let port = free_port();
    for cmd in [vec!["sql", "-c", q.as_str()], vec!["score", demo.as_str(), "-m", "ter"]] {
        let url = format!("df://127.0.0.1:{port}");
        let mut args = cmd.clone();
        args.extend(["--cluster", &url]);
        let o = crate::cli_reliability::within(60, &args);
        let e = stderr(&o);
        assert_eq!(o.status.code(), Some(1), "{e}");
        assert!(e.contains(&format!("the cluster at {url}: the scheduler cannot be reached: nothing listens")), "{e}");
        assert!(e.contains("connection refused") && !e.contains("tonic") && !e.contains("scoring rows"), "{e}");
        // Without df://, the same address.
        let bare = format!("127.0.0.1:{port}");
        let mut args = cmd.clone();
        args.extend(["--cluster", &bare]);
        let e = stderr(&crate::cli_reliability::within(60, &args));
        assert!(e.contains(&format!("the cluster at {url}")), "{e}");
        let mut args = cmd.clone();
        args.extend(["--cluster", "http://127.0.0.1:50050"]);
        let e = stderr(&crate::cli_reliability::within(60, &args));
        assert!(e.contains("df://HOST:PORT, not http://"), "{e}");
    }
}

#[test]
fn the_status_lists_the_executors_and_a_lost_scheduler_stops_client_and_executors() {
    let wmt = crate::common::shared_dir().join("data/wmt/en-de.parquet").display().to_string();
    let mut cluster = start_cluster_with(2, &[], &[], &["--scheduler-timeout", "6"]);
    let text = rows(&crate::cli_reliability::within(30, &["cluster", "status", &cluster.url]), "status");
    let first = text.lines().next().unwrap();
    assert!(first.ends_with(": 2 executors, 4 task slots, 0 jobs queued or running"), "{text}");
    let status = cluster.status();
    let executors = status["executors"].as_array().unwrap();
    assert_eq!(executors.len(), 2, "{status}");
    for e in executors {
        assert_eq!((e["host"].as_str(), e["task_slots"].as_u64()), (Some("127.0.0.1"), Some(2)), "{status}");
        assert!(e["last_seen_s"].as_u64().is_some_and(|s| s < 10), "{status}");
        assert!(text.contains(e["id"].as_str().unwrap()), "{text}");
    }
    // Nothing at an address: one line naming it.
    let nowhere = format!("df://127.0.0.1:{}", free_port());
    let o = crate::cli_reliability::within(30, &["cluster", "status", &nowhere]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains(&format!("the cluster at {nowhere}: the scheduler cannot be reached: nothing listens")),
        "{}",
        stderr(&o)
    );

    // A table function cannot be sent to the executors: said in words, not
    // as DataFusion's "Internal error ... file a bug report".
    let o = crate::cli_reliability::within(
        60,
        &["sql", "-c", "SELECT count(*) FROM generate_series(1, 10)", "--cluster", &cluster.url],
    );
    let e = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{e}");
    assert!(e.contains(&format!("the cluster at {}: the query reads a table that cannot be sent", cluster.url)), "{e}");
    assert!(!e.contains("Internal error") && !e.contains("bug report"), "{e}");

    // A long job (TER of long rows, repeated), then the scheduler killed
    // under it: the client says so and exits 1, and the executors stop
    // (with the tasks they run) within their --scheduler-timeout.
    let q = format!(
        "SELECT sum(ter(repeat(concat(hyp, ' ', CAST(value AS VARCHAR)) || ' ', 8), repeat(ref || ' ', 8))) \
         FROM '{wmt}' CROSS JOIN (SELECT unnest(range(1, 41)) AS value)"
    );
    let client = piped(&["sql", "-c", &q, "--cluster", &cluster.url]).spawn().unwrap();
    cluster.until_a_job_runs();
    cluster.signal_scheduler("KILL");
    let o = wait_within(client, 90, "the client of a killed scheduler");
    let e = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{e}");
    assert!(e.contains(&format!("the cluster at {}: the scheduler cannot be reached", cluster.url)), "{e}");
    assert!(!e.contains("tonic") && !e.contains("Status {"), "{e}");
    assert_eq!(cluster.executors_end_within(45), [Some(1), Some(1)]);
}

/// `mteval score DIR ...` locally: its printed corpus scores and its
/// scored rows (as CSV, in file order).
fn score_of(dir: &std::path::Path, extra: &[&str]) -> (String, String) {
    let out = dir.join(format!("scored-{}.parquet", extra.len()));
    let data = dir.join("data").display().to_string();
    let o = out.display().to_string();
    let args = [&["score", data.as_str(), "-m", "ter", "-m", "chrf", "--group-by", "part", "--json", "-o", &o], extra]
        .concat();
    let printed = rows(&crate::cli_reliability::within(180, &args), "score");
    let scored = crate::cli::mteval_ok(&["sql", "--format", "csv", "-c", &format!("SELECT * FROM '{o}'")]);
    std::fs::remove_file(&out).unwrap();
    (printed, scored)
}

#[test]
fn score_partitions_on_a_cluster_keep_the_input_order_and_survive_a_killed_executor() {
    let wmt = crate::common::shared_dir().join("data/wmt/en-de.parquet").display().to_string();
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    std::fs::create_dir(&data).unwrap();
    // Eight files of long rows (TER's time grows with the length), the
    // first the longest, so that partitions end out of order.
    for k in 0..8 {
        let reps = if k == 0 { 12 } else { 6 };
        let q = format!(
            "SELECT {k} AS part, seg_id, repeat(concat(hyp, ' {k}') || ' ', {reps}) AS hyp, repeat(ref || ' ', {reps}) AS ref \
             FROM '{wmt}'"
        );
        let file = data.join(format!("part-{k}.parquet")).display().to_string();
        crate::cli::mteval_ok(&["sql", "-c", &q, "-o", &file]);
    }
    let local = score_of(dir.path(), &[]);
    assert_eq!(local.1.lines().count(), 8 * 1500 + 1);
    let mut cluster = start_cluster_with(2, &[], &["--executor-timeout", "6"], &[]);
    let on_cluster = ["--partitions", "8", "--cluster", cluster.url.as_str()];
    assert!(score_of(dir.path(), &on_cluster) == local, "the cluster's scores differ from the local run's");
    // One executor SIGKILLed while the job runs: its partitions run on the
    // other, the output is the same, and the job ends within seconds of
    // the executor timeout.
    let url = cluster.url.clone();
    let job = std::thread::spawn(move || {
        let start = Instant::now();
        let scores = score_of(dir.path(), &["--partitions", "8", "--cluster", url.as_str()]);
        (scores, start.elapsed())
    });
    cluster.until_a_job_runs();
    cluster.kill_executor(1);
    let (scores, took) = job.join().unwrap();
    assert!(scores == local, "the scores after a lost executor differ from the local run's");
    assert!(took < Duration::from_mins(1), "{took:?}");
}
