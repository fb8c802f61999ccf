//! `mteval compare`, `-m bleu` and the BLEU/bootstrap SQL functions against
//! sacrebleu 2.6.0's numbers (`tests/golden/*.json`, made by
//! `scripts/make_*_golden.py` from the shared WMT systems).

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::cli::{mteval, mteval_ok, sql_rows, stderr, write_file};
use crate::common::{load_pair, repo_golden, shared_dir};

fn parquet(pair: &str) -> String {
    shared_dir().join(format!("data/wmt/{pair}.parquet")).display().to_string()
}

/// The golden BLEU case (`bleu.json`) of `pair` with tokenizer `tokenize`
/// and smoothing `smooth`.
fn bleu_case(pair: &str, tokenize: &str, smooth: &str) -> Value {
    golden_case("bleu.json", |c| {
        c["pair"] == pair && c["options"]["tokenize"] == tokenize && c["options"]["smooth_method"] == smooth
    })
    .unwrap()
}

/// The first case of the golden file `name` (`tests/golden/`) that `pred` accepts.
fn golden_case(name: &str, pred: impl Fn(&Value) -> bool) -> Option<Value> {
    repo_golden(name)["cases"].as_array().unwrap().iter().find(|c| pred(c)).cloned()
}

/// The golden case of `pair` and `test` whose metrics are `kinds` with default options.
fn case(pair: &str, test: &str, n: u64) -> Value {
    golden_case("significance.json", |c| {
        c["pair"] == pair
            && c["test"] == test
            && c["n"] == n
            && c["refs"].as_array().unwrap().len() == 1
            && c["metrics"]
                .as_array()
                .unwrap()
                .iter()
                .all(|m| m["mteval_options"] == "" || m["mteval_options"] == "nw:2")
    })
    .unwrap_or_else(|| panic!("no golden {pair} {test} {n}"))
}

/// The -m names of a golden case's metrics.
fn metric_names(c: &Value) -> Vec<&'static str> {
    c["metrics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| match (m["kind"].as_str().unwrap(), m["mteval_options"].as_str().unwrap()) {
            ("bleu", _) => "bleu",
            ("chrf", "nw:2") => "chrf++",
            ("chrf", _) => "chrf",
            _ => "ter",
        })
        .collect()
}

/// Asserts that the JSON rows (`[{system, NAME: {score, p_value, mean, ci, signature}}]`)
/// equal the golden results, system `names[s]` being `systems[s]` of the case.
fn assert_rows(out: &Value, c: &Value, names: &[String]) {
    let rows = out.as_array().unwrap();
    assert_eq!(rows.len(), names.len());
    for m in c["metrics"].as_array().unwrap() {
        let name = m["name"].as_str().unwrap();
        for (s, want) in m["results"].as_array().unwrap().iter().enumerate() {
            let row = rows.iter().find(|r| r["system"] == names[s].as_str()).unwrap_or_else(|| panic!("{}", names[s]));
            let got = &row[name];
            for k in ["score", "p_value", "mean", "ci"] {
                assert_eq!(got[k].as_f64(), want[k].as_f64(), "{} {name} {k}", names[s]);
            }
            let sig = got["signature"].as_str().unwrap();
            assert_eq!(sig.split("|impl:").next().unwrap(), m["signature"].as_str().unwrap());
        }
    }
}

/// The pair's references and systems as text files in `dir`.
fn text_files(dir: &Path, pair: &str) -> (PathBuf, Vec<PathBuf>) {
    let p = load_pair(pair, false);
    let lines = |v: Vec<&str>| v.iter().fold(String::new(), |acc, l| acc + l + "\n");
    let refs = write_file(dir, "ref.txt", lines(p.refs.iter().map(|r| r[0].as_str()).collect()));
    let systems = p
        .systems
        .iter()
        .map(|(name, hyps)| write_file(dir, &format!("{name}.txt"), lines(hyps.iter().map(String::as_str).collect())))
        .collect();
    (refs, systems)
}

#[test]
fn compare_table_mode_paired_bootstrap_matches_sacrebleu() {
    for pair in ["en-de", "zh-en"] {
        let c = case(pair, "bs", 1000);
        let base = c["systems"][0].as_str().unwrap();
        let mut args = vec!["compare", &*Box::leak(parquet(pair).into_boxed_str()), "--segment-col", "seg_id"];
        args.extend(["--baseline", base, "--paired-bs", "--format", "json", "-m"]);
        args.extend(metric_names(&c));
        let out: Value = serde_json::from_str(&mteval_ok(&args)).unwrap();
        let names: Vec<String> =
            c["systems"].as_array().unwrap().iter().map(|s| s.as_str().unwrap().to_owned()).collect();
        assert_rows(&out, &c, &names);
    }
}

#[test]
fn compare_text_mode_approximate_randomization_and_table_match_sacrebleu() {
    let dir = tempfile::tempdir().unwrap();
    let (refs, systems) = text_files(dir.path(), "de-en");
    let c = case("de-en", "ar", 10000);
    let mut args = vec!["compare".to_owned(), refs.display().to_string(), "-i".to_owned()];
    args.extend(systems.iter().map(|p| p.display().to_string()));
    args.extend(["--paired-ar", "--format", "json", "-m"].map(str::to_owned));
    args.extend(metric_names(&c).iter().map(|s| (*s).to_owned()));
    let argv: Vec<&str> = args.iter().map(String::as_str).collect();
    let out: Value = serde_json::from_str(&mteval_ok(&argv)).unwrap();
    let mut names: Vec<String> = systems.iter().map(|p| p.display().to_string()).collect();
    names[0] = format!("Baseline: {}", names[0]);
    assert_rows(&out, &c, &names);

    // The text table: sacrebleu's layout, p-values with four decimals, `*` below 0.05.
    let text_args: Vec<&str> = argv.iter().copied().filter(|a| *a != "--format" && *a != "json").collect();
    let table = mteval_ok(&text_args);
    assert!(table.starts_with("╒═") && table.contains("│ Baseline: "), "{table}");
    assert!(table.contains("Paired approximate randomization test with 10000 trials"), "{table}");
    for m in c["metrics"].as_array().unwrap() {
        let p = m["results"][1]["p_value"].as_f64().unwrap();
        let cell = format!("(p = {p:.4}){}", if p > 0.05 { "" } else { "*" });
        assert!(table.contains(&cell), "{cell} in {table}");
        assert!(table.contains(&format!(" - {:<10} nrefs:1|ar:10000|seed:12345|", m["name"].as_str().unwrap())));
    }
}

#[test]
fn compare_confidence_matches_sacrebleu_and_score_only_prints_scores() {
    let dir = tempfile::tempdir().unwrap();
    let (refs, systems) = text_files(dir.path(), "en-de");
    let c = case("en-de", "ci", 1000);
    let (r, s) = (refs.to_str().unwrap(), systems[0].to_str().unwrap());
    let mut args = vec!["compare", r, "-i", s, "--confidence", "--format", "json", "-m"];
    args.extend(metric_names(&c));
    let out: Value = serde_json::from_str(&mteval_ok(&args)).unwrap();
    for (m, got) in c["metrics"].as_array().unwrap().iter().zip(out.as_array().unwrap()) {
        let want = &m["results"][0];
        assert_eq!(got["name"], m["name"]);
        for (k, g) in [("score", "score"), ("mean", "mean"), ("ci", "ci")] {
            assert_eq!(got[g].as_f64(), want[k].as_f64(), "{} {k}", m["name"]);
        }
        assert_eq!(got["bs"], "1000");
        assert_eq!(got["seed"], "12345");
    }
    // -b: the scores only, sacrebleu's `score (μ = mean ± ci)`.
    let b = mteval_ok(&["compare", r, "-i", s, "--confidence", "-b", "-m", "bleu", "-w", "2"]);
    let bleu = &c["metrics"][0]["results"][0];
    let want = format!(
        "{:.2} (μ = {:.2} ± {:.2})\n",
        bleu["score"].as_f64().unwrap(),
        bleu["mean"].as_f64().unwrap(),
        bleu["ci"].as_f64().unwrap()
    );
    assert_eq!(b, want);
}

#[test]
fn compare_refuses_misaligned_systems_and_missing_baselines() {
    let dir = tempfile::tempdir().unwrap();
    let t = write_file(
        dir.path(),
        "t.jsonl",
        "{\"system\":\"a\",\"seg\":1,\"hyp\":\"x\",\"ref\":\"x\"}\n{\"system\":\"a\",\"seg\":2,\"hyp\":\"y\",\"ref\":\"y\"}\n\
         {\"system\":\"b\",\"seg\":1,\"hyp\":\"x\",\"ref\":\"x\"}\n{\"system\":\"b\",\"seg\":3,\"hyp\":\"z\",\"ref\":\"y\"}\n",
    );
    let t = t.to_str().unwrap();
    let o = mteval(&["compare", t, "--segment-col", "seg", "--paired-bs"]);
    assert!(!o.status.success() && stderr(&o).contains("system 'b' has no row for segment '2'"), "{}", stderr(&o));
    let o = mteval(&["compare", t, "--baseline", "c"]);
    assert!(stderr(&o).contains("--baseline 'c' is not a system"), "{}", stderr(&o));
    let o = mteval(&["compare", t, "-m", "charac_ter"]);
    assert!(stderr(&o).contains("charac_ter: mteval compare takes bleu, ter, chrf, chrf++"), "{}", stderr(&o));
    // Same segments, two systems: runs; one system with a paired test: refused.
    let ok = mteval_ok(&["compare", t, "--paired-ar", "--paired-ar-n", "50", "-m", "bleu"]);
    assert!(ok.contains("(p = "), "{ok}");
    let one = write_file(dir.path(), "one.jsonl", "{\"system\":\"a\",\"hyp\":\"x\",\"ref\":\"x\"}\n");
    let o = mteval(&["compare", one.to_str().unwrap(), "--paired-bs"]);
    assert!(stderr(&o).contains("paired tests need two or more systems"), "{}", stderr(&o));
}

#[test]
fn bleu_and_corpus_bootstrap_in_sql_match_sacrebleu() {
    let c = bleu_case("en-de", "intl", "exp");
    let q = format!(
        "SELECT system, corpus_bleu(hyp, ref, 'tok:intl') AS b, corpus_bleu(hyp, [ref, ref2], 'tok:intl') AS b2 \
         FROM '{}' GROUP BY system ORDER BY system",
        parquet("en-de")
    );
    let rows = sql_rows(&q);
    for (k, r) in rows.iter().enumerate() {
        assert_eq!(r["system"], c["systems"][k]);
        assert_eq!(r["b"].as_f64(), c["corpus"][k].as_f64());
        assert_eq!(r["b2"].as_f64(), c["corpus_2refs"][k].as_f64());
    }
    // Sentence BLEU (effective order on) and its statistics.
    let q = "SELECT bleu('the cat sat on the mat', 'the cat sat on a mat') AS s, \
             bleu_stats('the cat sat on the mat', 'the cat sat on a mat')['stats'] AS st, \
             bleu('the cat', 'the cat', 'eff:no') AS short";
    let r = &sql_rows(q)[0];
    assert_eq!(r["st"], serde_json::json!([6, 6, 5, 3, 2, 1, 6, 5, 4, 3]));
    assert_eq!(r["short"].as_f64(), Some(0.0), "eff:no: no 3-grams, BLEU 0 with exp smoothing? {r}");
    let ci = case("en-de", "ci", 1000);
    let want = &ci["metrics"][0]["results"][0];
    // The rows arrive shuffled (ordered by hypothesis); ORDER BY inside the
    // call puts the segments back in seg_id order, the order of the golden run.
    let q = format!(
        "SELECT corpus_bootstrap(hyp, ref, 'bleu' ORDER BY seg_id) AS r, \
         corpus_bootstrap(hyp, ref, 'bleu' ORDER BY seg_id DESC) AS d \
         FROM (SELECT * FROM '{}' WHERE system = '{}' ORDER BY hyp)",
        parquet("en-de"),
        ci["systems"][0].as_str().unwrap()
    );
    let out = &sql_rows(&q)[0];
    assert_ne!(out["r"]["mean"], out["d"]["mean"], "another order, other resamples");
    assert_eq!(out["r"]["score"], out["d"]["score"]);
    let r = &out["r"];
    assert_eq!(r["score"].as_f64(), want["score"].as_f64());
    assert_eq!(r["mean"].as_f64(), want["mean"].as_f64());
    assert_eq!(r["ci"].as_f64(), want["ci"].as_f64());
    assert!(
        r["signature"].as_str().unwrap().starts_with("nrefs:1|bs:1000|seed:12345|case:mixed|eff:no|tok:13a"),
        "{r}"
    );
}

#[test]
fn score_bleu_in_table_and_text_modes() {
    let c = bleu_case("en-de", "13a", "exp");
    let out = mteval_ok(&["score", &parquet("en-de"), "-m", "bleu", "--group-by", "system", "-w", "17"]);
    for (k, sys) in c["systems"].as_array().unwrap().iter().enumerate() {
        let line = out.lines().find(|l| l.starts_with(&format!("system={}\t", sys.as_str().unwrap()))).unwrap();
        let score: f64 = line.rsplit_once(" = ").unwrap().1.parse().unwrap();
        assert!((score - c["corpus"][k].as_f64().unwrap()).abs() < 1e-12, "{line}");
        assert!(line.contains("BLEU|nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0|impl:mteval-"));
    }
    let dir = tempfile::tempdir().unwrap();
    let (refs, systems) = text_files(dir.path(), "en-de");
    // Two references in one file with --num-refs 2: the same reference twice changes nothing.
    let doubled =
        std::fs::read_to_string(&refs).unwrap().lines().fold(String::new(), |acc, l| acc + l + "\t" + l + "\n");
    let two = write_file(dir.path(), "two.tsv", doubled);
    let b = mteval_ok(&[
        "score",
        "--hyp",
        systems[0].to_str().unwrap(),
        "--ref",
        two.to_str().unwrap(),
        "--num-refs",
        "2",
        "-m",
        "bleu",
        "-b",
        "-w",
        "17",
    ]);
    let score: f64 = b.trim().parse().unwrap();
    assert!((score - c["corpus"][0].as_f64().unwrap()).abs() < 1e-12, "{b}");
}

#[test]
fn paired_test_in_sql_matches_sacrebleu() {
    for (test, n, opts) in [("bs", 1000, "bs:1000|seed:12345"), ("ar", 10000, "ar:10000")] {
        let c = case("en-de", test, n);
        let base = c["systems"][0].as_str().unwrap();
        let q = format!(
            "SELECT s.system, paired_test(s.hyp, b.hyp, s.ref, 'chrf', '{opts}' ORDER BY s.seg_id) AS t \
             FROM '{p}' s JOIN '{p}' b ON s.seg_id = b.seg_id AND b.system = '{base}' \
             WHERE s.system <> '{base}' GROUP BY s.system ORDER BY s.system",
            p = parquet("en-de")
        );
        let rows = sql_rows(&q);
        let m = c["metrics"].as_array().unwrap().iter().find(|m| m["name"] == "chrF2").unwrap();
        assert_eq!(rows.len(), 2);
        for (k, row) in rows.iter().enumerate() {
            let want = &m["results"][k + 1];
            assert_eq!(row["system"], c["systems"][k + 1]);
            let t = &row["t"];
            for f in ["score", "p_value", "mean", "ci"] {
                assert_eq!(t[f].as_f64(), want[f].as_f64(), "{test} {} {f}", row["system"]);
            }
            assert_eq!(t["baseline_score"].as_f64(), m["results"][0]["score"].as_f64());
            let sig = t["signature"].as_str().unwrap();
            assert_eq!(sig.split("|impl:").next().unwrap(), m["signature"].as_str().unwrap());
        }
    }
    let o = mteval(&["sql", "-c", "SELECT paired_test('a', 'b', 'c', 'charac_ter')"]);
    let e = stderr(&o);
    let resampled: Vec<&str> = mteval_kernels::metrics::resampled().map(|m| m.name).collect();
    let want = format!("charac_ter: resampling is for {}", mteval_kernels::metrics::in_words(&resampled));
    assert!(e.contains(&want) && want.contains("bleu, ter, chrf"), "{e}");
    let o = mteval(&["sql", "-c", "SELECT corpus_bootstrap('a', 'b', 'bleu', 'ar:10')"]);
    assert!(!o.status.success(), "corpus_bootstrap takes no ar:");
}

#[test]
fn compare_takes_sacrebleus_metric_flags() {
    // `-tok intl -lc` and `-cw 2` as sacrebleu spells them, against the same
    // options written as `--options`.
    let dir = tempfile::tempdir().unwrap();
    let (refs, systems) = text_files(dir.path(), "en-de");
    let (r, s0, s1) = (refs.to_str().unwrap(), systems[0].to_str().unwrap(), systems[1].to_str().unwrap());
    let flags = mteval_ok(&[
        "compare", r, "-i", s0, s1, "-m", "bleu", "chrf", "-tok", "intl", "-lc", "-cw", "2", "-pbs", "-pbsn", "100",
        "-f", "json",
    ]);
    let opts = mteval_ok(&[
        "compare",
        r,
        "-i",
        s0,
        s1,
        "-m",
        "bleu",
        "chrf",
        "--options",
        "bleu=tok:intl|case:lc",
        "--options",
        "chrf=nw:2",
        "--paired-bs",
        "--paired-bs-n",
        "100",
        "--format",
        "json",
    ]);
    assert_eq!(flags, opts);
    assert!(flags.contains("\"chrF2++\"") && flags.contains("tok:intl") && flags.contains("case:lc"), "{flags}");
    let o = mteval(&["compare", r, "-i", s0, "-m", "bleu", "--ter-normalized"]);
    assert!(stderr(&o).contains("-m does not choose ter"), "{}", stderr(&o));
}

#[test]
fn compare_text_table_is_sacrebleus() {
    // `sacrebleu ref.txt -i JDExploreAcademy.txt Online-B.txt Online-W.txt -m bleu chrf ter
    // --paired-bs -f text --no-color` (sacrebleu 2.6.0) printed this table, run in the files' folder.
    let want = "\
╒════════════════════════════════╤═════════════════════╤══════════════════════╤════════════════════╕
│                         System │  BLEU (μ ± 95% CI)  │  chrF2 (μ ± 95% CI)  │  TER (μ ± 95% CI)  │
╞════════════════════════════════╪═════════════════════╪══════════════════════╪════════════════════╡
│ Baseline: JDExploreAcademy.txt │  37.6 (37.6 ± 1.9)  │  64.0 (64.0 ± 1.2)   │ 50.9 (50.9 ± 1.9)  │
├────────────────────────────────┼─────────────────────┼──────────────────────┼────────────────────┤
│                   Online-B.txt │  37.8 (37.8 ± 1.9)  │  64.5 (64.4 ± 1.2)   │ 49.8 (49.8 ± 1.9)  │
│                                │    (p = 0.2747)     │     (p = 0.0919)     │   (p = 0.0300)*    │
├────────────────────────────────┼─────────────────────┼──────────────────────┼────────────────────┤
│                   Online-W.txt │  36.3 (36.3 ± 1.9)  │  63.7 (63.6 ± 1.3)   │ 51.2 (51.2 ± 1.9)  │
│                                │    (p = 0.0310)*    │     (p = 0.1379)     │    (p = 0.2218)    │
╘════════════════════════════════╧═════════════════════╧══════════════════════╧════════════════════╛
";
    let dir = tempfile::tempdir().unwrap();
    text_files(dir.path(), "en-de");
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_mteval"))
        .current_dir(dir.path())
        .args(["compare", "ref.txt", "-i", "JDExploreAcademy.txt", "Online-B.txt", "Online-W.txt"])
        .args(["-m", "bleu", "chrf", "ter", "--paired-bs", "-f", "text"])
        .env("SACREBLEU_SEED", "12345")
        .output()
        .unwrap();
    let out = String::from_utf8(o.stdout).unwrap();
    assert!(out.starts_with(want), "{out}");
}

/// A long resampling stops on Ctrl-C (SIGINT), with nothing on standard
/// output (the spinner itself is drawn on a terminal only).
#[cfg(unix)]
#[test]
fn compare_stops_on_ctrl_c_while_resampling() {
    use std::os::unix::process::ExitStatusExt;
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_mteval"))
        .args(["compare", &parquet("en-de"), "--segment-col", "seg_id", "-m", "bleu", "chrf", "ter"])
        .args(["--paired-ar", "--paired-ar-n", "1000000"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(1500));
    assert!(std::process::Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap().success());
    let o = child.wait_with_output().unwrap();
    // Ended by the signal itself (no output file to clean up: no handler is
    // installed) or by the handler, with 130.
    assert!(
        o.status.signal() == Some(2) || o.status.code() == Some(130),
        "{:?}: {}",
        o.status,
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(o.stdout.is_empty(), "{}", String::from_utf8_lossy(&o.stdout));
}
