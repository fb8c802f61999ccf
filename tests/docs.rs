//! Every example of the README and the guide (docs/*.md) runs, so the docs
//! cannot rot: each ```sql block through `mteval sql`, each command of a
//! ```sh block through the binary (`cargo run --release --` is the binary
//! too), in a folder holding the files the examples read (made here from
//! `data/` and the golden WMT25 layout). Python blocks run in
//! `python/tests/test_docs.py`, Rust blocks as doctests (`src/lib.rs`).
//!
//! Commands that are not mteval's are named, not run: the peers' own
//! commands shown beside mteval's (`sacrebleu`, `comet-score`), and the
//! README's test command and the wheel's install, which are what runs this
//! test (`cargo test ... && bash scripts/test-python.sh`, whose venv
//! installs the wheel built from python/ as `pip install ./python` does).

use std::fmt::Write as _;
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::cli::{mteval_ok, stderr};
use crate::common::repo_golden;

/// The README and the guide's pages, in reading order.
const PAGES: &[&str] = &[
    "README.md",
    "docs/sql.md",
    "docs/cli.md",
    "docs/python.md",
    "docs/speech.md",
    "docs/meta-evaluation.md",
    "docs/cluster.md",
    "docs/gpu.md",
    "docs/parity.md",
];

/// Commands shown but not run, by their first words (see the module's doc).
const NOT_RUN: &[&str] = &[
    "sacrebleu ",
    "comet-score ",
    "cargo test --release --workspace && bash scripts/test-python.sh",
    "python3 -m pip install ./python",
];

/// The mt-metrics-eval folder of the examples, replaced by the fixture's.
const MTME_HOME: &str = "~/.mt-metrics-eval/mt-metrics-eval-v2";

struct Block {
    page: &'static str,
    line: usize,
    lang: String,
    text: String,
}

/// The fenced code blocks of `page` (indented ones included, their indent removed).
fn blocks(page: &'static str) -> Vec<Block> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(page);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{page}: {e}"));
    let mut out = Vec::new();
    let mut open: Option<(usize, usize, String, String)> = None;
    for (i, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        let indent = line.len() - trimmed.len();
        if let Some(rest) = trimmed.strip_prefix("```") {
            match open.take() {
                Some((start, _, lang, body)) => out.push(Block { page, line: start + 1, lang, text: body }),
                None => open = Some((i, indent, rest.trim().to_owned(), String::new())),
            }
            continue;
        }
        if let Some((_, ind, _, body)) = open.as_mut() {
            let _ = writeln!(body, "{}", line.get(*ind..).unwrap_or(line.trim_start()));
        }
    }
    assert!(open.is_none(), "{page}: a code block is not closed");
    out
}

/// Runs `mteval sql -c Q --format ndjson` and returns the rows.
fn rows(dir: &Path, q: &str) -> Vec<Value> {
    let o = Command::new(env!("CARGO_BIN_EXE_mteval"))
        .args(["sql", "--format", "ndjson", "-c", q])
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(o.status.success(), "{q}: {}", stderr(&o));
    String::from_utf8(o.stdout).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

fn sql(dir: &Path, q: &str) {
    let o = Command::new(env!("CARGO_BIN_EXE_mteval")).args(["sql", "-c", q]).current_dir(dir).output().unwrap();
    assert!(o.status.success(), "{q}: {}", stderr(&o));
}

/// The files the examples read.
fn fixture() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    std::fs::create_dir_all(d.join("data")).unwrap();
    std::fs::create_dir_all(d.join("target")).unwrap();
    std::fs::create_dir_all(d.join("wmt")).unwrap();
    for f in ["demo.parquet", "meta-demo.csv"] {
        std::fs::copy(repo.join("data").join(f), d.join("data").join(f)).unwrap();
    }
    let wmt = "SELECT seg_id, CASE system WHEN 'sys-good' THEN 'Online-B' ELSE system END AS system, hyp, ref, ref2, \
               0.5 + (length(hyp) % 7) * 0.05 AS comet, (length(ref) % 5) * 0.3 AS metricx FROM 'data/demo.parquet'";
    sql(d, &format!("COPY ({wmt} ORDER BY system, seg_id) TO 'wmt.parquet'"));
    sql(d, &format!("COPY ({wmt} WHERE seg_id < 50 ORDER BY system, seg_id) TO 'wmt/part-0.parquet'"));
    sql(d, &format!("COPY ({wmt} WHERE seg_id >= 50 ORDER BY system, seg_id) TO 'wmt/part-1.parquet'"));
    sql(
        d,
        "COPY (SELECT seg_id % 20 AS src_id, hyp, ref AS pseudo_ref FROM 'data/demo.parquet' ORDER BY seg_id, system) \
         TO 'samples.parquet'",
    );
    sql(
        d,
        "COPY (SELECT system, seg_id, 'en-de' AS lp, gold AS mqm, m0 AS comet, m1, m2, m3 FROM \
         'data/meta-demo.csv' ORDER BY system, seg_id) TO 'scores.parquet'",
    );
    let mut terms = String::new();
    for (hyp, terms_json) in [("a b c", r#"[["a", "b"]]"#), ("the cat sat", r#"[["dog"], ["cat"]]"#)] {
        let mut lemmas = Vec::new();
        let mut start = 0;
        for w in hyp.split(' ') {
            lemmas.push(format!(r#"{{"lemma": "{w}", "start": {start}, "end": {}}}"#, start + w.chars().count()));
            start += w.chars().count() + 1;
        }
        let _ = writeln!(terms, r#"{{"hyp": "{hyp}", "terms": {terms_json}, "lemmas": [{}]}}"#, lemmas.join(", "));
    }
    std::fs::write(d.join("terms.jsonl"), terms).unwrap();
    // Text files as sacrebleu takes them: the reference, the baseline and two systems.
    let text = |system: &str, col: &str| -> String {
        rows(d, &format!("SELECT {col} AS x FROM 'data/demo.parquet' WHERE system = '{system}' ORDER BY seg_id"))
            .iter()
            .fold(String::new(), |mut s, r| {
                let _ = writeln!(s, "{}", r["x"].as_str().unwrap());
                s
            })
    };
    std::fs::write(d.join("ref.txt"), text("sys-good", "ref")).unwrap();
    std::fs::write(d.join("src.txt"), text("sys-good", "ref2")).unwrap();
    for (file, system) in [("base.txt", "sys-good"), ("sys1.txt", "sys-fair"), ("sys2.txt", "sys-poor")] {
        std::fs::write(d.join(file), text(system, "hyp")).unwrap();
    }
    let n = text("sys-good", "ref").lines().count();
    let (mut comet, mut base_mqm, mut sys1_mqm) = (String::new(), String::new(), String::new());
    for (file, shift) in [("base.txt", 0.1), ("sys1.txt", 0.0)] {
        for i in 0..n {
            let _ = writeln!(comet, "{file}\tSegment {i}\tscore: {:.4}", 0.5 + shift + (i % 7) as f64 * 0.03);
        }
    }
    for i in 0..n {
        let _ = writeln!(base_mqm, "{}", (i % 4) as f64);
        let _ = writeln!(sys1_mqm, "{}", (i % 3) as f64 * 2.0);
    }
    std::fs::write(d.join("comet.out"), comet).unwrap();
    std::fs::write(d.join("base.mqm"), base_mqm).unwrap();
    std::fs::write(d.join("sys1.mqm"), sys1_mqm).unwrap();
    // An mt-metrics-eval folder with the golden WMT25 layout.
    let golden = repo_golden("meta_tasksets.json");
    let set = golden["sets"].as_array().unwrap().iter().find(|s| s["test_set"] == "wmt25").unwrap();
    crate::meta_tasksets::write_layout(&d.join("mtme"), set);
    dir
}

/// A command line split as a POSIX shell splits it (quotes, no expansion).
fn words(line: &str) -> Vec<String> {
    let (mut out, mut cur, mut quote, mut any) = (Vec::new(), String::new(), None, false);
    for c in line.chars() {
        match (quote, c) {
            (None, '\'' | '"') => {
                quote = Some(c);
                any = true;
            }
            (Some(q), c) if c == q => quote = None,
            (None, c) if c.is_whitespace() => {
                if any {
                    out.push(std::mem::take(&mut cur));
                    any = false;
                }
            }
            (_, c) => {
                cur.push(c);
                any = true;
            }
        }
    }
    if any {
        out.push(cur);
    }
    out
}

/// The commands of a sh block: continuation lines joined, comment lines
/// and trailing comments (two spaces, then `#`) dropped.
fn commands(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    for line in text.lines() {
        let line = line.trim_end();
        if cur.is_empty() && (line.trim().is_empty() || line.trim_start().starts_with('#')) {
            continue;
        }
        let line = match line.find("  #") {
            Some(i) => line[..i].trim_end(),
            None => line,
        };
        if let Some(l) = line.strip_suffix('\\') {
            cur.push_str(l);
            cur.push(' ');
        } else {
            cur.push_str(line);
            out.push(std::mem::take(&mut cur).trim().to_owned());
        }
    }
    out
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

fn wait_for(addr: &str) {
    let addr: SocketAddr = addr.parse().unwrap();
    let start = Instant::now();
    while TcpStream::connect_timeout(&addr, Duration::from_millis(200)).is_err() {
        assert!(start.elapsed() < Duration::from_secs(30), "nothing listens on {addr} after 30 s");
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// Servers a block started, stopped when it ends.
struct Servers(Vec<Child>);

impl Drop for Servers {
    fn drop(&mut self) {
        for c in &mut self.0 {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

/// Runs one block's commands in `dir`; returns how many ran.
fn run_sh(b: &Block, dir: &Path, mtme: &Path) -> usize {
    let ports: Vec<(String, String)> =
        ["50050", "50051", "50052"].iter().map(|p| ((*p).to_owned(), free_port().to_string())).collect();
    let mut servers = Servers(Vec::new());
    let mut ran = 0;
    for cmd in commands(&b.text) {
        let at = format!("{}:{}: {cmd}", b.page, b.line);
        if NOT_RUN.iter().any(|n| cmd.starts_with(n)) {
            continue;
        }
        let mut line = cmd.replace(MTME_HOME, &mtme.display().to_string());
        for (from, to) in &ports {
            line = line.replace(&format!("127.0.0.1:{from}"), &format!("127.0.0.1:{to}"));
        }
        let w = words(&line);
        let args: Vec<String> = if line.starts_with("cargo run --release -- ") {
            w[4..].to_vec()
        } else if w.first().is_some_and(|p| p == "mteval") {
            w[1..].to_vec()
        } else {
            panic!("{at}: not an mteval command; run it here or name it in NOT_RUN");
        };
        let mut c = Command::new(env!("CARGO_BIN_EXE_mteval"));
        c.args(&args).current_dir(dir);
        if matches!(args.first().map(String::as_str), Some("scheduler" | "executor")) {
            let bind = args.iter().position(|a| a == "--bind").map(|i| args[i + 1].clone()).unwrap();
            servers.0.push(c.stdout(Stdio::null()).stderr(Stdio::null()).spawn().unwrap());
            wait_for(&bind);
            if args[0] == "executor" {
                // Registered with the scheduler before the next command.
                let sched = args.iter().position(|a| a == "--scheduler").map(|i| args[i + 1].clone()).unwrap();
                let url = format!("df://{sched}");
                let start = Instant::now();
                loop {
                    let status: Value =
                        serde_json::from_str(&mteval_ok(&["cluster", "status", &url, "--json"])).unwrap();
                    if !status["executors"].as_array().unwrap().is_empty() {
                        break;
                    }
                    assert!(start.elapsed() < Duration::from_secs(30), "{at}: no executor registered");
                    std::thread::sleep(Duration::from_millis(100));
                }
            }
        } else {
            let o = crate::cli::wait_within(c.stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap(), 300, &at);
            assert!(o.status.success(), "{at}: {}", stderr(&o));
        }
        ran += 1;
    }
    ran
}

#[test]
fn every_example_of_the_readme_and_the_guide_runs() {
    let dir = fixture();
    let d = dir.path();
    let mtme = d.join("mtme");
    let prelude =
        "CREATE VIEW t AS SELECT * FROM 'wmt.parquet'; CREATE VIEW samples AS SELECT * FROM 'samples.parquet';";
    let (mut sql_blocks, mut sh_commands) = (0, 0);
    for page in PAGES {
        for b in blocks(page) {
            match b.lang.as_str() {
                "sql" => {
                    let o = Command::new(env!("CARGO_BIN_EXE_mteval"))
                        .args(["sql", "-c", &format!("{prelude}\n{}", b.text)])
                        .current_dir(d)
                        .output()
                        .unwrap();
                    assert!(o.status.success(), "{}:{}: {}\n{}", b.page, b.line, b.text, stderr(&o));
                    sql_blocks += 1;
                }
                "sh" => sh_commands += run_sh(&b, d, &mtme),
                "python" | "rust" | "text" | "" => {}
                other => panic!("{}:{}: a ```{other} block: run it in this test", b.page, b.line),
            }
        }
    }
    // The examples are there: every page's blocks were found.
    assert!(sql_blocks >= 6 && sh_commands >= 15, "{sql_blocks} sql blocks, {sh_commands} commands");
}

/// The guide's pages are linked from the README, and every link between
/// pages points at a file that exists.
#[test]
fn the_guide_is_linked_and_its_links_resolve() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(repo.join("README.md")).unwrap();
    for page in &PAGES[1..] {
        assert!(readme.contains(&format!("]({page})")), "the README does not link {page}");
    }
    for page in PAGES {
        let text = std::fs::read_to_string(repo.join(page)).unwrap();
        let base: PathBuf = repo.join(page).parent().unwrap().to_path_buf();
        for part in text.split("](").skip(1) {
            let target = part.split(')').next().unwrap().split('#').next().unwrap();
            if target.is_empty() || target.starts_with("http") {
                continue;
            }
            assert!(base.join(target).exists(), "{page}: a link to {target}, which does not exist");
        }
    }
}
