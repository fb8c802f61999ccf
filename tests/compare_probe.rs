//! Issue 56's findings on `compare` with segment scores (score columns and
//! `--score-file`): numbers against sacrebleu 2.6.0, and the errors that
//! name the right flag.

use std::path::Path;

use serde_json::{Value, json};

use crate::cli::{fails, fails_with, mteval_ok, sql_rows, write_file, write_jsonl};

/// A table of segment scores: `system`, `seg_id`, `comet`, a row per
/// system (in order) and segment.
fn score_table(dir: &Path, name: &str, systems: &[(&str, &[f64])]) -> String {
    let rows: Vec<Value> = systems
        .iter()
        .flat_map(|(s, v)| v.iter().enumerate().map(move |(i, x)| json!({"system": s, "seg_id": i, "comet": x})))
        .collect();
    let p = dir.join(name);
    write_jsonl(&p, &rows);
    p.to_str().unwrap().to_owned()
}

/// Writes text files `(name, text)` into `dir`: their paths, in order.
fn text_files(dir: &Path, files: &[(&str, &str)]) -> Vec<String> {
    files.iter().map(|(name, text)| write_file(dir, name, text).to_str().unwrap().to_owned()).collect()
}

/// Item 6: a trial that swaps both segments scores exactly the real
/// systems, so it never counts, as in sacrebleu.
#[test]
fn approximate_randomization_on_two_float_scores_is_sacrebleus() {
    // sacrebleu 2.6.0 (numpy 2.4.6), SACREBLEU_SEED=12345, the README's
    // [score, 1] metric (ScoreColumn of scripts/make_significance_golden.py):
    //   hb, hs = ["b0", "b1"], ["s0", "s1"]
    //   m = ScoreColumn("comet", {id(hb): BASE, id(hs): SYS})
    //   _, r = PairedTest([("base", hb), ("sys", hs)], {"comet": m}, references=None,
    //                     test_type="ar", n_samples=10000)()
    //   r["comet"][1].p_value  -> 9.999000099990002e-05 (mteval gave 0.24717528247175283)
    //   r["comet"][0].score, r["comet"][1].score -> 0.7778604823409647, 0.6339428967007192
    const BASE: [f64; 2] = [0.9198501605372782, 0.6358708041446514];
    const SYS: [f64; 2] = [0.7527320970790866, 0.5151536963223518];
    let dir = tempfile::tempdir().unwrap();
    let t = score_table(dir.path(), "two.jsonl", &[("a", &BASE), ("b", &SYS)]);
    let flags = "--segment-col seg_id --score-col comet --baseline a --paired-ar -f json";
    let out = mteval_ok(&[&["compare", t.as_str()][..], &flags.split(' ').collect::<Vec<_>>()].concat());
    let rows: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(rows[0]["comet"]["score"].as_f64(), Some(0.7778604823409647), "{out}");
    assert_eq!(rows[1]["comet"]["score"].as_f64(), Some(0.6339428967007192), "{out}");
    assert_eq!(rows[1]["comet"]["p_value"].as_f64(), Some(9.999000099990002e-05), "{out}");
    // SQL's paired_test: the same test over a self-join.
    let q = format!(
        "SELECT paired_test(s.comet, b.comet, 'score', 'score:comet|ar:10000' ORDER BY s.seg_id) AS t \
         FROM '{t}' s JOIN '{t}' b ON s.seg_id = b.seg_id AND b.system = 'a' WHERE s.system = 'b'"
    );
    let row = &sql_rows(&q)[0];
    assert_eq!(row["t"]["p_value"].as_f64(), Some(9.999000099990002e-05), "{row}");
    assert_eq!(row["t"]["baseline_score"].as_f64(), Some(0.7778604823409647), "{row}");
}

/// Item 3: comet-score's output listing a segment twice.
#[test]
fn a_score_file_listing_a_segment_twice_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let paths = text_files(dir.path(), &[("ref.txt", "x\ny\n"), ("a.txt", "x\ny\n"), ("b.txt", "x\nz\n")]);
    let [r, a, b] = [0, 1, 2].map(|i| paths[i].as_str());
    let comet = format!(
        "{a}\tSegment 0\tscore: 0.6000\n{b}\tSegment 0\tscore: 0.5000\n{a}\tSegment 1\tscore: 0.6000\n\
         {b}\tSegment 1\tscore: 0.5000\n{a}\tSegment 1\tscore: 0.8000\n"
    );
    let c = write_file(dir.path(), "comet.out", &comet);
    let flag = format!("comet={}", c.display());
    fails_with(
        &["compare", r, "-i", a, b, "--score-file", &flag],
        &[&format!("{}: line 5: segment 1 of {a} is listed twice (first on line 3)", c.display())],
    );
    // Listed once each, the mean is the file's: (0.6 + 0.6) / 2.
    let once = write_file(dir.path(), "once.out", comet.split_inclusive('\n').take(4).collect::<String>());
    let flag = format!("comet={}", once.display());
    let out: Value =
        serde_json::from_str(&mteval_ok(&["compare", r, "-i", a, b, "--score-file", &flag, "-f", "json"])).unwrap();
    assert_eq!(out[0]["comet"]["score"].as_f64(), Some(0.6));
}

/// Item 12: one system's JSON with --confidence keeps the score a number,
/// and no key twice.
#[test]
fn single_system_json_of_a_score_column_has_no_key_twice() {
    // sacrebleu 2.6.0, SACREBLEU_SEED=12345, ScoreColumn("comet", ...) of
    // scripts/make_significance_golden.py over [0.5, 0.25, 0.75, 0.5]:
    //   s = m.corpus_score(h, None, n_bootstrap=1000)
    //   s.score, s._mean, s._ci -> 0.5, 0.4987500011920929, 0.1875
    // (its Score.format(is_json=True) writes "score": "comet", the
    // signature's key over the number: mteval keeps the number).
    let dir = tempfile::tempdir().unwrap();
    let t = score_table(dir.path(), "one.jsonl", &[("a", &[0.5, 0.25, 0.75, 0.5])]);
    let out = mteval_ok(&["compare", &t, "--score-col", "comet", "--confidence", "-f", "json"]);
    let keys: Vec<&str> = out.lines().filter_map(|l| l.trim().split_once("\": ").map(|(k, _)| k)).collect();
    for (i, k) in keys.iter().enumerate() {
        assert!(!keys[..i].contains(k), "key {k}\" twice: {out}");
    }
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["score"].as_f64(), Some(0.5), "{out}");
    assert_eq!(v["mean"].as_f64(), Some(0.4987500011920929), "{out}");
    assert_eq!(v["ci"].as_f64(), Some(0.1875), "{out}");
    assert_eq!(v["confidence_mean"].as_f64(), Some(0.4988), "{out}");
    assert_eq!(v["name"], "comet");
    assert_eq!(v["agg"], "mean");
    assert!(v["signature"].as_str().unwrap().starts_with("score:comet|bs:1000|seed:12345|agg:mean"), "{out}");
    // A score named `system` would be a second key of compare's rows.
    let rows = [json!({"sys": "a", "system": 0.5}), json!({"sys": "b", "system": 0.25})];
    let p = dir.path().join("system.jsonl");
    write_jsonl(&p, &rows);
    fails_with(
        &["compare", p.to_str().unwrap(), "--system-col", "sys", "--score-col", "system", "-f", "json"],
        &["a score named 'system'", "rename it"],
    );
}

/// Items 18, 19 and 20: errors in the words of the flags given.
#[test]
fn score_flag_errors_name_the_flag_given() {
    let dir = tempfile::tempdir().unwrap();
    // 18: a table with one system names the table's flags, not -i.
    let t = score_table(dir.path(), "one.jsonl", &[("a", &[0.5, 0.25])]);
    let e = fails_with(
        &["compare", &t, "--score-col", "comet", "--paired-bs"],
        &["paired tests need two or more systems", "has one, 'a', in its system column 'system'", "--system-col"],
    );
    assert!(!e.contains("-i BASELINE"), "{e}");
    // 19: one name given twice to --score-file.
    let r = write_file(dir.path(), "ref.txt", "x\n").display().to_string();
    let a = write_file(dir.path(), "a.txt", "x\n").display().to_string();
    let e = fails_with(
        &["compare", &r, "-i", &a, "--score-file", "comet=x.scores", "--score-file", "comet:lower=y.scores"],
        &["--score-file comet:lower: the name 'comet' is given twice to --score-file (also as comet)"],
    );
    assert!(!e.contains("--score-col"), "{e}");
    fails_with(
        &["compare", &r, "-i", &a, "-m", "bleu", "--score-file", "BLEU=x.scores"],
        &["--score-file BLEU: 'BLEU' is already the name of the metric BLEU"],
    );
    fails_with(
        &["compare", &t, "--score-col", "comet", "--score-file", "c=x.scores"],
        &["--score-col comet names a column of a table and --score-file c gives scores of text files"],
    );
    // 20: an unknown option after the name.
    let want = "--score-col comet:upper: unknown option 'upper' (known: lower, higher)";
    let e = fails_with(&["compare", &t, "--score-col", "comet:upper"], &[want]);
    assert!(!e.contains("invalid segment score option"), "{e}");
    let html = dir.path().join("r.html").display().to_string();
    fails_with(&["report", &t, "--score-col", "comet:upper", "-o", &html], &[want]);
    fails_with(
        &["compare", &r, "-i", &a, "--score-file", "comet:upper=x.scores"],
        &["--score-file comet:upper: unknown option 'upper' (known: lower, higher)"],
    );
}

/// sacrebleu's text output with mteval's `impl:` key after the version.
fn with_impl(sacrebleu: &str) -> String {
    sacrebleu.replace("version:2.6.0", &format!("version:2.6.0|impl:mteval-{}", env!("CARGO_PKG_VERSION")))
}

/// A third probe: systems on standard input are sacrebleu's (tab-separated,
/// universal newlines), metrics print in sacrebleu's order and once, and the
/// seed is read only where something is resampled.
#[test]
fn standard_input_metric_order_and_seed_are_sacrebleus() {
    use crate::cli::mteval_stdin;
    let dir = tempfile::tempdir().unwrap();
    let r = write_file(dir.path(), "ref.txt", "the cat sat on the mat\nhello world .\n");
    let r = r.to_str().unwrap();
    // printf 'the cat sat\thello\nhello world .\tfoo bar\n' | sacrebleu ref.txt -f text -m bleu chrf
    let two = "╒══════════╤════════╤═════════╕\n│   System │  BLEU  │  chrF2  │\n╞══════════╪════════╪═════════╡\n\
               │ System 1 │  0.0   │  69.4   │\n├──────────┼────────┼─────────┤\n│ System 2 │  0.0   │   4.8   │\n\
               ╘══════════╧════════╧═════════╛\n\n-----------------\nMetric signatures\n-----------------\n\
               \x20- BLEU       nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0\n\
               \x20- chrF2      nrefs:1|case:mixed|eff:yes|nc:6|nw:0|space:no|version:2.6.0\n";
    for metrics in [&["bleu", "chrf"][..], &["chrf", "bleu"], &["chrf", "bleu", "chrf"]] {
        let args = [&["compare", r, "-f", "text", "-m"][..], metrics].concat();
        let o = mteval_stdin(&args, b"the cat sat\thello\nhello world .\tfoo bar\n");
        assert!(o.status.success(), "{metrics:?}: {}", String::from_utf8_lossy(&o.stderr));
        assert_eq!(String::from_utf8_lossy(&o.stdout), with_impl(two), "{metrics:?}");
    }
    // printf 'the cat sat\rhello world .\n' | sacrebleu ref.txt -f text -m ter bleu
    let one = "        BLEU|nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0 = 0.0 100.0/100.0/100.0/0.0 \
               (BP = 0.607 ratio = 0.667 hyp_len = 6 ref_len = 9)\n\
               TER|nrefs:1|case:lc|tok:tercom|norm:no|punct:yes|asian:no|version:2.6.0 = 33.3\n";
    let o = mteval_stdin(&["compare", r, "-f", "text", "-m", "ter", "bleu"], b"the cat sat\rhello world .\n");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(String::from_utf8_lossy(&o.stdout), with_impl(one));
    // sacrebleu: "FATAL: the number of tab-delimited fields in the input stream differ across lines."
    let o = mteval_stdin(&["compare", r, "-f", "text"], b"a\tb\nc\n");
    fails(&o, "fields", &["standard input: line 2: 1 tab-separated systems where line 1 has 2"]);
    // No resampling: sacrebleu never reads SACREBLEU_SEED.
    let h = write_file(dir.path(), "h.txt", "the cat sat\nhello world .\n");
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_mteval"))
        .args(["compare", r, "-i", h.to_str().unwrap(), "-m", "bleu", "bleu", "-b"])
        .env("SACREBLEU_SEED", "abc")
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&o.stdout), "0.0\n", "{}", String::from_utf8_lossy(&o.stderr));
}

/// `-b -f json` with one system prints what sacrebleu prints: the score
/// texts (an interval's too), one alone or several in brackets, unquoted.
#[test]
fn score_only_json_of_one_system_is_sacrebleus() {
    let dir = tempfile::tempdir().unwrap();
    let paths = text_files(
        dir.path(),
        &[("ref.txt", "the cat sat on the mat\nhello world .\n"), ("hyp.txt", "the cat sat\nhello world .\n")],
    );
    let [r, h] = [0, 1].map(|i| paths[i].as_str());
    // SACREBLEU_SEED=12345 sacrebleu ref.txt -i hyp.txt -b -f json [FLAGS]
    for (flags, want) in [
        ("-m bleu chrf", "[\n0.0,\n69.4\n]\n"),
        ("-m bleu chrf -ci --confidence-n 20", "[\n0.0,\n69.4 (μ = 73.1 ± 25.2)\n]\n"),
        ("-m ter chrf bleu -w 2", "[\n0.00,\n69.36,\n33.33\n]\n"),
        ("-m ter -w 3", "33.333\n"),
    ] {
        let args = [&["compare", r, "-i", h, "-b", "-f", "json"][..], &flags.split(' ').collect::<Vec<_>>()].concat();
        assert_eq!(mteval_ok(&args), want, "{flags}");
    }
}

/// sacrebleu's `PairedTest` takes a resample or trial count of 0 or less as
/// its default (1,000 resamples, 10,000 trials): the same output, `bs:1000`
/// and `ar:10000` in the signatures.
#[test]
fn paired_counts_of_zero_or_less_are_the_defaults() {
    let dir = tempfile::tempdir().unwrap();
    let paths = text_files(
        dir.path(),
        &[
            ("ref.txt", "the cat sat on the mat\nhello world .\na b c\n"),
            ("base.txt", "the cat sat\nhello world .\na b\n"),
            ("sys.txt", "the cat sat on a mat\nhello world\na b c\n"),
        ],
    );
    let [r, b, s] = [0, 1, 2].map(|i| paths[i].as_str());
    for (test, flag, sig) in [("--paired-bs", "--paired-bs-n", "bs:1000"), ("--paired-ar", "--paired-ar-n", "ar:10000")]
    {
        let run = |n: Option<&str>| {
            let mut args = vec!["compare", r, "-i", b, s, test, "-m", "bleu", "chrf", "-f", "text"];
            if let Some(n) = n {
                args.extend([flag, n]);
            }
            mteval_ok(&args)
        };
        let default = run(None);
        assert!(default.contains(sig), "{default}");
        assert_eq!(run(Some("0")), default, "{flag} 0");
        assert_eq!(run(Some("-5")), default, "{flag} -5");
        assert_ne!(run(Some("7")), default, "{flag} 7");
    }
}
