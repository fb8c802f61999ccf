//! `mteval report` and `mteval score --report`: the numbers on the page
//! against sacrebleu's (tests/golden/significance.json) and `mteval compare`,
//! escaping, atomic output, and the page rendered in headless Chromium (the
//! distribution's `chromium`, or `MTEVAL_CHROMIUM`). `.ci/run` installs it and
//! sets `MTEVAL_REQUIRE_BROWSER=1`, which turns a missing browser into a
//! failure instead of a skip.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{Value, json};

use crate::cli::{mteval, mteval_ok, stderr, write_file, write_jsonl};
use crate::common::{load_pair, repo_golden, shared_dir};

fn parquet(pair: &str) -> String {
    shared_dir().join(format!("data/wmt/{pair}.parquet")).display().to_string()
}

/// The attributes of every `<tag ...>` in `html`, in order.
fn tags(html: &str, tag: &str) -> Vec<HashMap<String, String>> {
    let open = format!("<{tag}");
    let mut out = Vec::new();
    let mut rest = html;
    while let Some(i) = rest.find(&open) {
        rest = &rest[i + open.len()..];
        if !rest.starts_with([' ', '>']) {
            continue;
        }
        let end = rest.find('>').unwrap();
        let mut attrs = HashMap::new();
        let mut a = &rest[..end];
        while let Some(eq) = a.find("=\"") {
            let key = a[..eq].trim().rsplit(' ').next().unwrap().to_owned();
            let close = a[eq + 2..].find('"').unwrap();
            attrs.insert(key, a[eq + 2..eq + 2 + close].to_owned());
            a = &a[eq + 3 + close..];
        }
        out.push(attrs);
    }
    out
}

/// The part of `html` from `start` to the next `end`.
/// en-de's first `segments` segments with a made-up `comet` column (`expr`
/// of the row), as `DIR/c.parquet`.
fn with_comet(dir: &Path, expr: &str, segments: u32) -> PathBuf {
    let table = dir.join("c.parquet");
    let q = format!(
        "COPY (SELECT system, seg_id, hyp, ref, {expr} AS comet FROM '{}' WHERE seg_id <= {segments} \
         ORDER BY system, seg_id) TO '{}'",
        parquet("en-de"),
        table.display()
    );
    mteval_ok(&["sql", "-c", &q]);
    table
}

fn section<'a>(html: &'a str, start: &str, end: &str) -> &'a str {
    let i = html.find(start).unwrap_or_else(|| panic!("no {start}"));
    let j = html[i..].find(end).unwrap();
    &html[i..i + j]
}

/// Per system (data-system): its metric cells' attributes.
fn systems_table(html: &str) -> Vec<(String, Vec<HashMap<String, String>>)> {
    let table = section(html, "id=\"systems-table\"", "</table>");
    table
        .split("<tr")
        .skip(2) // before the header, the header
        .map(|row| {
            let row = format!("<tr{row}");
            let name = tags(&row, "tr")[0]["data-system"].clone();
            (name, tags(&row, "td").into_iter().skip(1).collect())
        })
        .collect()
}

fn f(s: &str) -> f64 {
    s.parse().unwrap_or_else(|_| panic!("not a number: {s}"))
}

/// The golden sacrebleu case: en-de, paired bootstrap, bleu chrF chrF++ TER.
fn golden_bs() -> Value {
    repo_golden("significance.json")["cases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| {
            c["pair"] == "en-de" && c["test"] == "bs" && c["n"] == 1000 && c["refs"].as_array().unwrap().len() == 1
        })
        .unwrap()
        .clone()
}

fn report(dir: &Path, name: &str, args: &[&str]) -> (PathBuf, String) {
    let out = dir.join(name);
    let mut all = vec!["report"];
    all.extend(args);
    all.extend(["-o", out.to_str().unwrap()]);
    let o = mteval(&all);
    assert!(o.status.success(), "{}", stderr(&o));
    let html = std::fs::read_to_string(&out).unwrap();
    (out, html)
}

#[test]
fn the_systems_table_and_matrix_hold_sacrebleus_paired_bootstrap_numbers() {
    let dir = tempfile::tempdir().unwrap();
    let input = parquet("en-de");
    let (_, html) =
        report(dir.path(), "r.html", &[&input, "--segment-col", "seg_id", "-m", "bleu", "chrf", "chrf++", "ter"]);
    let c = golden_bs();
    let systems: Vec<String> =
        c["systems"].as_array().unwrap().iter().map(|s| s.as_str().unwrap().to_owned()).collect();
    let table = systems_table(&html);
    assert_eq!(table.iter().map(|t| t.0.clone()).collect::<Vec<_>>(), systems);
    for (k, m) in c["metrics"].as_array().unwrap().iter().enumerate() {
        for (s, want) in m["results"].as_array().unwrap().iter().enumerate() {
            let cell = &table[s].1[k];
            assert_eq!(f(&cell["data-v"]), want["score"].as_f64().unwrap(), "{} {}", systems[s], m["name"]);
            assert_eq!(f(&cell["data-mean"]), want["mean"].as_f64().unwrap(), "{} {}", systems[s], m["name"]);
            assert_eq!(f(&cell["data-ci"]), want["ci"].as_f64().unwrap(), "{} {}", systems[s], m["name"]);
            assert_eq!(cell.get("data-p").map(|p| f(p)), want["p_value"].as_f64(), "{} {}", systems[s], m["name"]);
        }
        // the signature line, with the test's keys
        let sig = format!("{}|{}", m["name"].as_str().unwrap(), m["signature"].as_str().unwrap());
        assert!(html.contains(&sig), "{sig}");
    }
    // Matrix: row i, column j is j tested against i as the baseline, which
    // `mteval compare --baseline i` reports.
    let cmp = mteval_ok(&[
        "compare",
        &input,
        "--segment-col",
        "seg_id",
        "-m",
        "bleu",
        "chrf",
        "chrf++",
        "ter",
        "--paired-bs",
        "-f",
        "json",
        "--baseline",
        "Online-B",
    ]);
    let cmp: Value = serde_json::from_str(&cmp).unwrap();
    for m in c["metrics"].as_array().unwrap() {
        let name = m["name"].as_str().unwrap();
        let matrix = section(&html, &format!("<table class=\"matrix\" data-metric=\"{name}\""), "</table>");
        let rows: Vec<Vec<HashMap<String, String>>> =
            matrix.split("<tr>").skip(2).map(|r| tags(&format!("<tr>{r}"), "td")).collect();
        assert_eq!(rows.len(), 3);
        let b = systems.iter().position(|s| s == "Online-B").unwrap();
        for (j, sys) in systems.iter().enumerate() {
            let want =
                cmp.as_array().unwrap().iter().find(|r| r["system"] == sys.as_str()).unwrap()[name]["p_value"].as_f64();
            assert_eq!(rows[b][j].get("data-p").map(|p| f(p)), want, "{name} Online-B vs {sys}");
            // symmetric, and the baseline row equals the table's p-values
            assert_eq!(rows[j][b].get("data-p"), rows[b][j].get("data-p"));
        }
        for (j, row) in table.iter().enumerate().skip(1) {
            let k = c["metrics"].as_array().unwrap().iter().position(|x| x["name"] == name).unwrap();
            assert_eq!(rows[0][j].get("data-p"), row.1[k].get("data-p"));
        }
    }
    // Text mode (sacrebleu's REF -i SYS...): the same numbers, systems named by their files.
    let pair = load_pair("en-de", false);
    let lines = |v: Vec<&str>| v.iter().fold(String::new(), |acc, l| acc + l + "\n");
    let refs = write_file(dir.path(), "ref.txt", lines(pair.refs.iter().map(|r| r[0].as_str()).collect()));
    let files: Vec<String> = systems
        .iter()
        .map(|name| {
            let hyps = &pair.systems.iter().find(|(n, _)| n == name).unwrap().1;
            write_file(dir.path(), &format!("{name}.txt"), lines(hyps.iter().map(String::as_str).collect()))
                .display()
                .to_string()
        })
        .collect();
    let mut args = vec![refs.to_str().unwrap(), "-m", "bleu", "chrf", "chrf++", "ter", "-i"];
    args.extend(files.iter().map(String::as_str));
    let (_, text_html) = report(dir.path(), "t.html", &args);
    let text_table = systems_table(&text_html);
    assert_eq!(text_table.iter().map(|t| t.0.replace("&#x2f;", "/")).collect::<Vec<_>>(), files);
    for (a, b) in text_table.iter().zip(&table) {
        assert_eq!(a.1, b.1);
    }

    // page size stays bounded: 10 segments per view by default
    let views = tags(&html, "details");
    assert_eq!(views.len(), 4 * 3 + 4 * 2, "worst per metric and system, differs per metric and non-baseline system");
    for v in section(&html, "id=\"segments\"", "</section>").split("<details").skip(1) {
        assert_eq!(v.matches("<div class=\"seg\"").count(), 10);
    }
}

#[test]
fn breakdowns_and_score_report_give_the_same_numbers_as_sql() {
    let dir = tempfile::tempdir().unwrap();
    // Two pairs in one table: systems are shared, segments differ.
    let rows: Vec<Value> = ["en-de", "de-en"]
        .iter()
        .flat_map(|p| {
            let q =
                format!("SELECT '{p}' AS pair, system, seg_id, hyp, ref FROM '{}' ORDER BY system, seg_id", parquet(p));
            let out = mteval_ok(&["sql", "-c", &q, "--format", "json"]);
            serde_json::from_str::<Vec<Value>>(&out).unwrap()
        })
        .collect();
    let input = dir.path().join("two.jsonl");
    write_jsonl(&input, &rows);
    let input = input.to_str().unwrap();
    let (_, html) = report(dir.path(), "r.html", &[input, "-m", "ter", "bleu", "--by", "pair", "--by", "ref-length"]);
    let by_pair = section(&html, "data-column=\"pair\"", "</table>");
    let sql = mteval_ok(&[
        "sql",
        "-c",
        &format!(
            "SELECT pair, system, corpus_ter(hyp, ref) AS ter, corpus_bleu(hyp, ref) AS bleu FROM '{input}' GROUP BY pair, system ORDER BY pair, system"
        ),
        "--format",
        "json",
    ]);
    let sql: Vec<Value> = serde_json::from_str(&sql).unwrap();
    let systems: Vec<String> = systems_table(&html).into_iter().map(|s| s.0).collect();
    for row in by_pair.split("<tr>").skip(2) {
        let cells = tags(&format!("<tr>{row}"), "td");
        let pair = &cells[0]["data-v"];
        assert_eq!(cells[1]["data-v"], "500");
        for (s, sys) in systems.iter().enumerate() {
            let want = sql.iter().find(|r| r["pair"] == pair.as_str() && r["system"] == sys.as_str()).unwrap();
            assert_eq!(f(&cells[2 + 2 * s]["data-v"]), want["ter"].as_f64().unwrap(), "{pair} {sys} TER");
            assert_eq!(f(&cells[3 + 2 * s]["data-v"]), want["bleu"].as_f64().unwrap(), "{pair} {sys} BLEU");
        }
    }
    let by_len = section(&html, "data-column=\"ref-length\"", "</table>");
    let rows: Vec<String> = by_len.split("<tr").skip(2).map(|r| format!("<tr{r}")).collect();
    let counts: Vec<usize> = rows.iter().map(|r| tags(r, "td")[1]["data-v"].parse().unwrap()).collect();
    assert!(counts.len() > 1, "{counts:?}");
    // Buckets under 10 segments are greyed out, the others not.
    for (r, n) in rows.iter().zip(&counts) {
        assert_eq!(r.starts_with("<tr class=\"tiny\">"), *n < 10, "{n}: {r}");
    }
    assert_eq!(counts.iter().sum::<usize>(), 1000, "every segment in one length bucket");

    // `score --report` writes the page `report` writes for the same metrics.
    let via_score = dir.path().join("s.html");
    let o =
        mteval(&["score", input, "-m", "ter", "bleu", "--group-by", "system", "--report", via_score.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let (_, plain) = report(dir.path(), "p.html", &[input, "-m", "ter", "bleu"]);
    assert_eq!(std::fs::read_to_string(&via_score).unwrap(), plain);
}

#[test]
fn bad_input_names_the_problem_and_leaves_no_file() {
    let dir = tempfile::tempdir().unwrap();
    let input = parquet("en-de");
    let out = dir.path().join("r.html");
    std::fs::write(&out, "earlier report").unwrap();
    for (args, msg) in [
        (vec!["--ref-col", "nope"], "'nope' not found"),
        (vec!["--by", "domain"], "'domain' not found"),
        (vec!["-m", "characTER"], "characTER: mteval report takes bleu, ter, chrf, chrf++"),
        (vec!["--baseline", "Online-Z"], "--baseline 'Online-Z' is not a system"),
        (vec!["--paired-bs-n", "1000001"], "--paired-bs-n"),
        (vec!["-i", "/nonexistent/sys.txt", "--by", "domain"], "--by domain: text files have no columns"),
    ] {
        let mut all = vec!["report", input.as_str(), "-o", out.to_str().unwrap()];
        all.extend(args);
        let o = mteval(&all);
        assert!(!o.status.success());
        assert!(stderr(&o).contains(msg), "{msg}: {}", stderr(&o));
        assert_eq!(std::fs::read_to_string(&out).unwrap(), "earlier report");
    }
    let o = mteval(&["score", &input, "-m", "characTER", "--report", out.to_str().unwrap()]);
    assert!(stderr(&o).contains("--report: charac_ter is not in the report"), "{}", stderr(&o));
    let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(left.len(), 1, "no temporary file left: {left:?}");
}

// --- in a real browser ----------------------------------------------------------------------

fn chromium() -> Option<PathBuf> {
    if let Ok(p) = std::env::var("MTEVAL_CHROMIUM") {
        return Some(PathBuf::from(p));
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .flat_map(|d| ["chromium", "chromium-browser", "google-chrome"].map(|b| d.join(b)))
        .find(|p| p.is_file())
}

/// The DOM after the page's scripts ran, and the browser's console lines.
fn render(browser: &Path, page: &Path, profile: &Path) -> (String, Vec<String>) {
    let o = Command::new("timeout")
        .arg("120")
        .arg(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--enable-logging=stderr",
            "--v=0",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg("--dump-dom")
        .arg(format!("file://{}", page.display()))
        .output()
        .expect("run chromium");
    assert!(o.status.success(), "chromium failed: {}", stderr(&o));
    let console = stderr(&o).lines().filter(|l| l.contains(":CONSOLE")).map(str::to_owned).collect();
    (String::from_utf8(o.stdout).unwrap(), console)
}

#[test]
fn the_page_renders_in_headless_chromium_with_the_numbers_and_escaped_text() {
    let Some(browser) = chromium() else {
        assert!(
            std::env::var("MTEVAL_REQUIRE_BROWSER").is_err(),
            "MTEVAL_REQUIRE_BROWSER is set but no Chromium was found (MTEVAL_CHROMIUM or chromium on PATH)"
        );
        eprintln!("skipping the browser test: no chromium (apt-get install chromium, or set MTEVAL_CHROMIUM)");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let profile = dir.path().join("profile");
    // A hostile system name, hypothesis and source among real rows.
    let hostile = "<script>document.title='pwned'</script><img src=x onerror=\"document.title='pwned'\">";
    let mut rows = Vec::new();
    for i in 0..30 {
        let r = format!("the committee met on day {i} to discuss the budget");
        rows.push(
            json!({"system": "plain", "src": format!("source {i}"), "hyp": r.replace("budget", "plan"), "ref": r}),
        );
        rows.push(json!({"system": "<b>bold</b>", "src": hostile, "hyp": format!("{hostile} {i}"), "ref": r}));
    }
    let hostile_in = dir.path().join("hostile.jsonl");
    write_jsonl(&hostile_in, &rows);
    let demo = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/demo.parquet");
    let cases: [(&str, Vec<String>, usize); 3] = [
        (
            "wmt.html",
            vec![parquet("en-de"), "--segment-col".into(), "seg_id".into(), "--by".into(), "ref-length".into()],
            3,
        ),
        (
            "demo.html",
            vec![demo.display().to_string(), "--ref-col".into(), "ref".into(), "--ref-col".into(), "ref2".into()],
            3,
        ),
        ("hostile.html", vec![hostile_in.display().to_string(), "-m".into(), "ter".into()], 1),
    ];
    for (name, args, n_metrics) in cases {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let (page, html) = report(dir.path(), name, &args);
        let (dom, console) = render(&browser, &page, &profile);
        assert!(console.is_empty(), "{name}: console messages: {console:?}");
        let root = &tags(&dom, "html")[0];
        assert_eq!(root.get("data-ready").map(String::as_str), Some("1"), "{name}: the page script did not finish");
        assert!(root.get("data-errors").is_none(), "{name}: {root:?}");
        // the tables and charts are in the rendered page, with the page's numbers
        assert_eq!(dom.matches("<svg").count(), 2 * n_metrics, "{name}: interval and box charts per metric");
        let numbers = |h: &str| -> Vec<Vec<String>> {
            systems_table(h).into_iter().map(|s| s.1.iter().map(|c| c["data-v"].clone()).collect()).collect()
        };
        assert_eq!(numbers(&dom), numbers(&html), "{name}");
        if name == "wmt.html" {
            let c = golden_bs();
            let want: Vec<f64> =
                c["metrics"][0]["results"].as_array().unwrap().iter().map(|r| r["score"].as_f64().unwrap()).collect();
            let got: Vec<f64> = systems_table(&dom).iter().map(|s| f(&s.1[0]["data-v"])).collect();
            assert_eq!(got, want, "BLEU per system");
            assert!(dom.contains("by ref-length"));
            // Sorting: click the TER header (descending), then again (ascending),
            // from a script added to a copy of the page.
            let ter: Vec<f64> =
                c["metrics"][3]["results"].as_array().unwrap().iter().map(|r| r["score"].as_f64().unwrap()).collect();
            let names: Vec<&str> = c["systems"].as_array().unwrap().iter().map(|s| s.as_str().unwrap()).collect();
            let mut order: Vec<usize> = (0..names.len()).collect();
            order.sort_by(|&a, &b| ter[b].total_cmp(&ter[a]));
            let desc: Vec<&str> = order.iter().map(|&i| names[i]).collect();
            let asc: Vec<&str> = desc.iter().rev().copied().collect();
            let probe = "<script>\
                var th = document.querySelector('#systems-table th[data-metric=\"TER\"]');\
                var order = function () { return Array.from(document.querySelectorAll('#systems-table tbody tr')).map(function (r) { return r.dataset.system; }).join('|'); };\
                th.click(); document.documentElement.setAttribute('data-desc', order());\
                th.click(); document.documentElement.setAttribute('data-asc', order());\
                </script></body>";
            let sorted = dir.path().join("sorted.html");
            std::fs::write(&sorted, html.replace("</body>", probe)).unwrap();
            let (dom, console) = render(&browser, &sorted, &profile);
            assert!(console.is_empty(), "{console:?}");
            let root = &tags(&dom, "html")[0];
            assert_eq!(root["data-desc"], desc.join("|"));
            assert_eq!(root["data-asc"], asc.join("|"));
        }
        if name == "hostile.html" {
            let title = section(&dom, "<title>", "</title>");
            assert!(!title.contains("pwned"), "{title}");
            assert!(tags(&dom, "img").is_empty(), "the hostile <img> became an element");
            assert_eq!(tags(&dom, "script").len(), 2, "only the page's own two scripts");
            assert!(dom.contains("&lt;script&gt;document.title='pwned'&lt;/script&gt;&lt;img src=x"), "shown as text");
            assert!(dom.contains("&lt;b&gt;bold&lt;/b&gt;"), "system name shown as text");
            assert!(!dom.contains("<b>bold</b>"), "the system name became markup");
        }
    }
}

/// The WER family in the report: the systems table holds the numbers of
/// sacrebleu's `PairedTest` over jiwer's arithmetic (the golden WER case),
/// shown with 4 decimals (the scores are fractions).
#[test]
fn the_wer_family_gets_the_same_systems_table() {
    let dir = tempfile::tempdir().unwrap();
    let input = parquet("en-de");
    let c = repo_golden("significance.json")["cases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["pair"] == "en-de" && c["test"] == "bs" && c["metrics"][0]["kind"] == "wer")
        .unwrap()
        .clone();
    let (_, html) =
        report(dir.path(), "wer.html", &[&input, "--segment-col", "seg_id", "-m", "wer", "mer", "wil", "wip"]);
    let table = systems_table(&html);
    for (k, m) in c["metrics"].as_array().unwrap().iter().enumerate() {
        for (s, want) in m["results"].as_array().unwrap().iter().enumerate() {
            let cell = &table[s].1[k];
            let what = format!("{} {}", table[s].0, m["name"]);
            assert_eq!(f(&cell["data-v"]), want["score"].as_f64().unwrap(), "{what}");
            assert_eq!(f(&cell["data-mean"]), want["mean"].as_f64().unwrap(), "{what}");
            assert_eq!(cell.get("data-p").map(|p| f(p)), want["p_value"].as_f64(), "{what}");
        }
        let sig = format!("{}|{}", m["name"].as_str().unwrap(), m["signature"].as_str().unwrap());
        assert!(html.contains(&sig), "{sig}");
        let score = m["results"][0]["score"].as_f64().unwrap();
        assert!(html.contains(&format!(">{score:.4}<")), "{} shown with 4 decimals", m["name"]);
    }
}

/// Over `DETAIL_MAX_SYSTEMS` (100) systems the pairwise matrix (N² paired
/// tests) is left out with a note on the page and on standard error; every
/// system keeps its row, interval and p-value against the baseline. At 100
/// the matrix is there.
#[test]
fn many_systems_get_the_systems_table_without_the_pairwise_matrix() {
    let dir = tempfile::tempdir().unwrap();
    let words = ["the", "cat", "sat", "on", "a", "mat", "dog", "ran"];
    for (n_sys, matrix) in [(101usize, false), (100, true)] {
        let mut rows = Vec::new();
        for s in 0..n_sys {
            for i in 0..6usize {
                let hyp: Vec<&str> = (0..5).map(|w| words[(s * 7 + i * 3 + w * (s % 5 + 1)) % words.len()]).collect();
                rows.push(json!({"system": format!("s{s:03}"), "seg_id": i, "hyp": hyp.join(" "),
                    "ref": "the cat sat on the mat", "ref2": "a dog ran on the mat"}));
            }
        }
        let input = dir.path().join(format!("many{n_sys}.jsonl"));
        write_jsonl(&input, &rows);
        let out = dir.path().join(format!("many{n_sys}.html"));
        let args = [
            "report",
            input.to_str().unwrap(),
            "-m",
            "ter",
            "--ref-col",
            "ref",
            "--ref-col",
            "ref2",
            "--by",
            "ref-length",
            "--paired-bs-n",
            "100",
            "-o",
            out.to_str().unwrap(),
        ];
        let o = mteval(&args);
        assert!(o.status.success(), "{}", stderr(&o));
        let html = std::fs::read_to_string(&out).unwrap();
        let table = systems_table(&html);
        assert_eq!(table.len(), n_sys);
        for (name, cells) in &table[1..] {
            let p = f(&cells[0]["data-p"]);
            assert!((0.0..=1.0).contains(&p), "{name}: {p}");
        }
        // The mark's colour follows the direction: TER is lower-is-better.
        let base = f(&table[0].1[0]["data-v"]);
        let rows: Vec<&str> = section(&html, "id=\"systems-table\"", "</table>").split("<tr").skip(2).collect();
        let mut marked = 0;
        for (row, (name, cells)) in rows.iter().zip(&table).skip(1) {
            let (score, p) = (f(&cells[0]["data-v"]), f(&cells[0]["data-p"]));
            let want = if p >= 0.05 {
                None
            } else if score < base {
                Some("<span class=\"sig better\">*</span>")
            } else {
                Some("<span class=\"sig worse\">*</span>")
            };
            assert_eq!(row.contains("class=\"sig"), want.is_some(), "{name}: p = {p}");
            if let Some(w) = want {
                assert!(row.contains(w), "{name}: {score} vs {base}, p = {p}: {row}");
                marked += 1;
            }
        }
        assert!(marked > 0, "no system differs significantly");
        assert!(html.contains("lower is better") && !html.contains(" ↓"));
        // Both references labelled apart; a breakdown group of 6 segments greyed.
        assert!(html.contains("reference 1</span>") && html.contains("reference 2</span>"));
        assert!(html.contains("class=\"tiny\"") && html.contains("Greyed: groups of fewer than 10 segments"));
        assert_eq!(html.contains("<table class=\"matrix\""), matrix, "{n_sys} systems");
        assert_eq!(html.contains("id=\"matrix-note\""), !matrix, "{n_sys} systems");
        assert_eq!(
            stderr(&o).contains("the pairwise matrix holds up to 100 (5050 paired tests"),
            !matrix,
            "{}",
            stderr(&o)
        );
    }
}

/// Cell 0 of each row: the weighted average of the four tasks (WMT23's
/// weights for one language pair, 1/4 each; Pearson rescaled from [-1, 1]
/// to [0, 1] as `AverageCorrs` rescales it), with its cluster.
#[allow(clippy::manual_midpoint, reason = "AverageCorrs' own arithmetic: (corr - (-1)) / 2")]
fn check_average(rows: &HashMap<String, Vec<HashMap<String, String>>>) {
    for cells in rows.values() {
        let c = |t: usize| f(&cells[t + 1]["data-v"]);
        let want = ((c(0) * 0.25 + ((c(1) + 1.0) / 2.0) * 0.25) + ((c(2) + 1.0) / 2.0) * 0.25) + c(3) * 0.25;
        assert!((f(&cells[0]["data-v"]) - want).abs() <= 1e-15, "average {} vs {want}", cells[0]["data-v"]);
        assert!(cells[0].contains_key("data-rank"), "the average's cluster");
    }
}

/// `--gold`: the metrics-against-gold section holds `mteval meta`'s
/// numbers: at the segment level over the page's sentence scores (SQL's
/// `bleu`, `chrf`, `ter`, TER negated), at the system level over its corpus
/// scores against each system's mean gold score. Missing gold scores
/// (NULL) are left out.
#[test]
fn the_gold_section_ranks_the_metrics_as_mteval_meta() {
    let dir = tempfile::tempdir().unwrap();
    let src = parquet("en-de");
    let gold =
        "CASE WHEN seg_id % 13 = 0 THEN NULL ELSE (length(hyp) % 7) * 0.5 - abs(length(hyp) - length(ref)) * 0.1 END";
    let table = dir.path().join("gold.parquet");
    let q = format!(
        "COPY (SELECT system, seg_id, hyp, ref, {gold} AS gold, bleu(hyp, ref) AS bleu, chrf(hyp, ref) AS chrf, \
         -ter(hyp, ref) AS ter FROM '{src}' WHERE seg_id <= 120 ORDER BY system, seg_id) TO '{}'",
        table.display()
    );
    mteval_ok(&["sql", "-c", &q]);
    let t = table.to_str().unwrap();
    let (_, html) =
        report(dir.path(), "g.html", &[t, "-m", "bleu", "chrf", "ter", "--segment-col", "seg_id", "--gold", "gold"]);
    let sec = section(&html, "<section id=\"meta\">", "</section>");
    assert!(sec.contains("Metrics against gold"), "{sec}");
    let head: Vec<&str> = sec.split("<th>").skip(3).map(|h| h.split('<').next().unwrap()).collect();
    assert_eq!(head.len(), 4, "WMT23's four tasks: {head:?}");
    // metric name -> the page's cells (data-v, data-rank) per task.
    let rows: HashMap<String, Vec<HashMap<String, String>>> = sec
        .split("<tr data-metric=")
        .skip(1)
        .map(|r| {
            let r = format!("<tr data-metric={r}");
            let name = tags(&r, "tr")[0]["data-metric"].clone();
            (name, tags(&r, "td").into_iter().skip(2).collect())
        })
        .collect();
    let page_name = |col: &str| match col {
        "bleu" => "BLEU",
        "chrf" => "chrF2",
        _ => "TER (negated)",
    };
    check_average(&rows);
    let check = |task: usize, out: &Value| {
        let task = task + 1;
        for m in out["tasks"][0]["metrics"].as_array().unwrap() {
            let cells = &rows[page_name(m["name"].as_str().unwrap())];
            let got = f(&cells[task]["data-v"]);
            let want = m["corr"].as_f64().unwrap();
            assert!((got - want).abs() <= 1e-12, "task {task} {}: {got} vs {want}", m["name"]);
            assert_eq!(cells[task]["data-rank"], m["rank"].to_string(), "task {task} {}", m["name"]);
        }
    };
    // Segment level: tasks 3 (Pearson) and 4 (tie-calibrated acc23 by item).
    let seg = |flags: &[&str]| -> Value {
        let mut args = vec!["meta", t, "--segment-col", "seg_id", "-m", "bleu", "-m", "chrf", "-m", "ter", "--json"];
        args.extend(flags);
        serde_json::from_str(&mteval_ok(&args)).unwrap()
    };
    check(2, &seg(&["--corr", "pearson"]));
    check(3, &seg(&["--corr", "ties-opt", "--average-by", "item", "--perm-test", "pairs"]));
    // System level: the systems table's corpus scores, the mean gold score.
    let systems = systems_table(&html);
    let g: Value = serde_json::from_str(&mteval_ok(&[
        "sql",
        "-c",
        &format!("SELECT system, gold FROM '{t}' ORDER BY system, seg_id"),
        "--format",
        "json",
    ]))
    .unwrap();
    let mut csv = String::from("system,gold,bleu,chrf,ter\n");
    for (name, cells) in &systems {
        let present: Vec<f64> = g
            .as_array()
            .unwrap()
            .iter()
            .filter(|r| r["system"] == name.as_str())
            .filter_map(|r| r["gold"].as_f64())
            .collect();
        let mean = mteval_kernels::py::numpy_mean(&present).unwrap();
        let v = |k: usize| f(&cells[k]["data-v"]);
        let _ = writeln!(csv, "{name},{mean:?},{:?},{:?},{:?}", v(0), v(1), -v(2));
    }
    let sys_table = write_file(dir.path(), "sys.csv", csv);
    let sys = |corr: &str| -> Value {
        serde_json::from_str(&mteval_ok(&[
            "meta",
            sys_table.to_str().unwrap(),
            "--corr",
            corr,
            "--level",
            "sys",
            "--json",
        ]))
        .unwrap()
    };
    check(0, &sys("accuracy"));
    check(1, &sys("pearson"));
    // Text mode has no columns.
    let o = mteval(&[
        "report",
        "r.txt",
        "-i",
        "h.txt",
        "--gold",
        "gold",
        "-o",
        dir.path().join("x.html").to_str().unwrap(),
    ]);
    assert!(stderr(&o).contains("--gold gold names a column of a table"), "{}", stderr(&o));
}

/// The pairwise matrix prints each metric's difference with its own
/// precision (a score column's 4 decimals: a COMET-like difference of a few
/// thousandths shows), and the segment browser's label says what its
/// numbers are.
#[test]
fn the_matrix_keeps_each_metrics_precision_and_the_browser_names_its_numbers() {
    let dir = tempfile::tempdir().unwrap();
    let table = with_comet(dir.path(), "0.8 + (length(hyp) % 10) * 0.001", 200);
    let t = table.to_str().unwrap();
    let (_, html) = report(dir.path(), "c.html", &[t, "-m", "bleu", "--score-col", "comet", "--segment-col", "seg_id"]);
    let matrix = section(&html, "<table class=\"matrix\" data-metric=\"comet\"", "</table>");
    // The text before each `<br>`: a cell's difference.
    let pieces: Vec<&str> = matrix.split("<br>").collect();
    let deltas: Vec<&str> = pieces[..pieces.len() - 1].iter().filter_map(|c| c.rsplit('>').next()).collect();
    assert!(!deltas.is_empty(), "{matrix}");
    for d in &deltas {
        let decimals = d.split('.').nth(1).map_or(0, str::len);
        assert_eq!(decimals, 4, "comet difference {d:?} in {matrix}");
    }
    let bleu = section(&html, "<table class=\"matrix\" data-metric=\"BLEU\"", "</table>");
    let d = bleu.split("<br>").next().unwrap().rsplit('>').next().unwrap();
    assert_eq!(d.split('.').nth(1).map_or(0, str::len), 2, "BLEU keeps 2 decimals: {d:?}");
    assert!(html.contains("seg_id = ") && html.contains("among the aligned segments (counting from 1)"), "label");
}

#[test]
fn the_comet_compare_section_holds_compares_numbers() {
    let dir = tempfile::tempdir().unwrap();
    let table = with_comet(dir.path(), "0.7 + (length(hyp) % 13) * 0.01", 300);
    let t = table.to_str().unwrap();
    let (_, html) = report(
        dir.path(),
        "c.html",
        &[t, "-m", "chrf", "--score-col", "comet", "--segment-col", "seg_id", "--comet-compare"],
    );
    assert!(html.contains("<section id=\"comet-compare\">"), "no comet-compare section");
    let json = mteval_ok(&[
        "compare",
        t,
        "-m",
        "chrf",
        "--score-col",
        "comet",
        "--segment-col",
        "seg_id",
        "--comet-compare",
        "-f",
        "json",
    ]);
    let want: Value = serde_json::from_str(&json).unwrap();
    for m in want.as_array().unwrap() {
        let name = m["metric"].as_str().unwrap();
        let body = section(&html, &format!("<table class=\"sortable comet\" data-metric=\"{name}\""), "</table>");
        let rows = tags(body, "tr");
        let pairs = m["statistical_results"].as_array().unwrap();
        let data_rows: Vec<_> = rows.iter().filter(|r| r.contains_key("data-x")).collect();
        assert_eq!(data_rows.len(), pairs.len(), "{name}");
        for (r, p) in data_rows.iter().zip(pairs) {
            assert_eq!(r["data-x"], p["x_name"].as_str().unwrap());
            assert_eq!(r["data-y"], p["y_name"].as_str().unwrap());
        }
        // The cells in order: the means, shares, t and p at 4 decimals, as comet-compare prints them.
        let cells = tags(body, "td");
        let values: Vec<&str> = cells.iter().filter_map(|c| c.get("data-v").map(String::as_str)).collect();
        for (k, p) in pairs.iter().enumerate() {
            let b = &p["bootstrap_resampling"];
            let tt = &p["paired_t-test"];
            let want: Vec<String> = [
                &b["x-mean"],
                &b["y-mean"],
                &b["ties (%)"],
                &b["x_wins (%)"],
                &b["y_wins (%)"],
                &tt["statistic"],
                &tt["p_value"],
            ]
            .iter()
            .map(|v| format!("{:.4}", v.as_f64().unwrap()))
            .collect();
            assert_eq!(
                values[k * 7..k * 7 + 7],
                want.iter().map(String::as_str).collect::<Vec<_>>()[..],
                "{name} pair {k}"
            );
        }
    }
}
