//! The WER family through the binary: `mteval jiwer` as jiwer 4.0.0's
//! command line, `score -m wer mer wil wip char_error_rate` against the
//! golden file (`tests/golden/wer.json`), and `compare` against sacrebleu's
//! `PairedTest` over jiwer's arithmetic (`tests/golden/significance.json`).

use serde_json::Value;

use crate::cli::{hyp_ref_files, mbr_picks, mteval, mteval_ok, ndjson, stderr, write_file};
use crate::common::{repo_golden, shared_dir};

fn parquet(pair: &str) -> String {
    shared_dir().join(format!("data/wmt/{pair}.parquet")).display().to_string()
}

/// `jiwer -r r.txt -h h.txt FLAGS`, each output copied from jiwer 4.0.0.
#[test]
fn mteval_jiwer_prints_what_jiwers_command_line_prints() {
    let (dir, h, r) = hyp_ref_files("hello word\n\nb\n x  y z\n", "a\nhello world\n\n  x y  \n");
    let (r, h) = (r.as_str(), h.as_str());
    let run = |flags: &[&str]| {
        let mut args = vec!["jiwer", "-r", r, "-h", h];
        args.extend(flags);
        mteval_ok(&args)
    };
    assert_eq!(run(&[]), "0.5\n");
    assert_eq!(run(&["-c"]), "0.2857142857142857\n");
    assert_eq!(run(&["-g"]), "0.5\n");
    assert_eq!(run(&["-g", "-c"]), "0.26666666666666666\n");
    assert_eq!(
        run(&["-a"]),
        "=== SENTENCE 1 ===\n\nREF: hello world\nHYP: hello  word\n               S\n\n=== SENTENCE 2 ===\n\n\
         REF: x y *\nHYP: x y z\n         I\n\n=== SUMMARY ===\nnumber of sentences: 2\n\
         substitutions=1 deletions=0 insertions=1 hits=3\n\nmer=40.00%\nwil=55.00%\nwip=45.00%\nwer=50.00%\n"
    );
    assert_eq!(
        run(&["--cer", "--align"]),
        "=== SENTENCE 1 ===\n\nREF: hello world\nHYP: hello wor*d\n              D \n\n=== SENTENCE 2 ===\n\n\
         REF: x *y**\nHYP: x  y z\n       I II\n\n=== SUMMARY ===\nnumber of sentences: 2\n\
         substitutions=0 deletions=1 insertions=3 hits=13\n\ncer=28.57%\n"
    );
    assert_eq!(
        run(&["--global", "-a"]),
        "=== SENTENCE 1 ===\n\nREF: hello world x y *\nHYP: hello  word x y z\n               S     I\n\n\
         === SUMMARY ===\nnumber of sentences: 1\nsubstitutions=1 deletions=0 insertions=1 hits=3\n\n\
         mer=40.00%\nwil=55.00%\nwip=45.00%\nwer=50.00%\n"
    );
    // One-character lines are dropped; with no line left jiwer prints the int 0.
    let e = write_file(dir.path(), "e.txt", "a\n");
    assert_eq!(mteval_ok(&["jiwer", "-r", e.to_str().unwrap(), "-h", e.to_str().unwrap()]), "0\n");
    // ... and its reductions make one empty sentence of no sentence at all (jiwer 4.0.0's command line).
    let none = |flags: &[&str]| {
        let mut args = vec!["jiwer", "-r", e.to_str().unwrap(), "-h", e.to_str().unwrap(), "-a"];
        args.extend(flags);
        mteval_ok(&args)
    };
    let summary = "=== SUMMARY ===\nnumber of sentences: 1\nsubstitutions=0 deletions=0 insertions=0 hits=0\n\n";
    assert_eq!(none(&[]), format!("{summary}mer=0.00%\nwil=0.00%\nwip=100.00%\nwer=0.00%\n"));
    assert_eq!(none(&["-c"]), format!("{summary}cer=0.00%\n"));
    // With -g a side without lines is one empty sentence: every word inserted (jiwer prints the int 2).
    let h2 = write_file(dir.path(), "h2.txt", "hello there\n");
    let global = |flags: &[&str]| {
        let mut args = vec!["jiwer", "-r", e.to_str().unwrap(), "-h", h2.to_str().unwrap(), "-g"];
        args.extend(flags);
        mteval_ok(&args)
    };
    assert_eq!(global(&[]), "2\n");
    assert_eq!(global(&["-c"]), "11\n");
    assert!(
        global(&["-a"]).starts_with("=== SENTENCE 1 ===\n\nREF: ***** *****\nHYP: hello there\n         I     I\n")
    );
    // Line counts that differ: jiwer's error, with the files and counts.
    let o = mteval(&["jiwer", "-r", r, "-h", e.to_str().unwrap()]);
    assert!(!o.status.success());
    let msg = stderr(&o);
    assert!(msg.contains("Number of reference sentences (2 in") && msg.contains("--global"), "{msg}");
}

/// Whisper's English normaliser before WER: `mteval jiwer --normalize
/// whisper-english` and `score --options wer=transform:whisper_english`.
/// The references below normalise to the hypotheses (whisper-normalizer
/// 0.1.15), so WER is 0 with the normaliser and not without.
#[test]
fn whisper_english_normalisation_before_wer_on_the_cli() {
    let refs = "Mr. Smith paid twenty five dollars, um, for the colour TV\nIt's two thousand and twenty [noise]\n";
    let hyps = "mister smith paid $25 for the color tv\nit is 2020\n";
    let (dir, h, r) = hyp_ref_files(hyps, refs);
    assert_eq!(mteval_ok(&["jiwer", "-r", &r, "-h", &h, "--normalize", "whisper-english"]), "0.0\n");
    assert_eq!(mteval_ok(&["jiwer", "-r", &r, "-h", &h, "--normalize", "whisper-english", "-g", "-c"]), "0.0\n");
    assert_ne!(mteval_ok(&["jiwer", "-r", &r, "-h", &h]), "0.0\n");
    let mut rows = String::new();
    for (r, h) in refs.lines().zip(hyps.lines()) {
        rows += &serde_json::json!({"system": "a", "hyp": h, "ref": r}).to_string();
        rows.push('\n');
    }
    let input = write_file(dir.path(), "in.jsonl", rows);
    let input = input.to_str().unwrap();
    let lines = ndjson(&mteval(&["score", input, "-m", "wer", "--options", "wer=transform:whisper_english", "--json"]));
    assert_eq!(lines[0]["score"].as_f64(), Some(0.0), "{lines:?}");
    assert!(lines[0]["signature"].as_str().unwrap().contains("transform:whisper_english"));
    let plain = ndjson(&mteval(&["score", input, "-m", "wer", "--json"]));
    assert!(plain[0]["score"].as_f64().unwrap() > 0.0, "{plain:?}");
}

/// `score -m wer mer wil wip char_error_rate --group-by system`: jiwer's
/// corpus values per system, with the signature.
#[test]
fn score_gives_jiwers_corpus_measures_per_system() {
    let golden = repo_golden("wer.json");
    let cases = golden["cases"].as_array().unwrap();
    let word = cases.iter().find(|c| c["pair"] == "de-en" && c["options"] == "").unwrap();
    let chars = cases.iter().find(|c| c["pair"] == "de-en" && c["options"] == "unit:char").unwrap();
    let o = mteval(&[
        "score",
        &parquet("de-en"),
        "-m",
        "wer",
        "mer",
        "wil",
        "wip",
        "char_error_rate",
        "--group-by",
        "system",
        "--json",
    ]);
    let lines = ndjson(&o);
    let systems: Vec<&str> = word["systems"].as_array().unwrap().iter().map(|s| s.as_str().unwrap()).collect();
    assert_eq!(lines.len(), 5 * systems.len());
    for l in &lines {
        let k = systems.iter().position(|s| l["group"] == *s).unwrap();
        let name = l["name"].as_str().unwrap();
        let (g, key) = if name == "CER" {
            (&chars["corpus"][k], "wer".to_owned())
        } else {
            (&word["corpus"][k], name.to_ascii_lowercase())
        };
        assert_eq!(l["score"].as_f64(), g[key.as_str()].as_f64(), "{l}");
        let sig = l["signature"].as_str().unwrap();
        let unit = if l["name"] == "CER" { "char" } else { "word" };
        assert!(sig.starts_with(&format!("nrefs:1|unit:{unit}|transform:default|version:jiwer-4.0.0|impl:")), "{sig}");
        assert_eq!(l["segments"], 500);
    }
}

/// `compare --paired-bs -m wer mer wil wip` and `--paired-ar` equal sacrebleu's
/// `PairedTest` over a `Metric` with jiwer's statistics and arithmetic.
#[test]
fn compare_wer_family_matches_sacrebleus_paired_tests() {
    let golden = repo_golden("significance.json");
    let mut checked = 0;
    for c in golden["cases"].as_array().unwrap() {
        let metrics = c["metrics"].as_array().unwrap();
        let jiwer = |m: &Value| ["wer", "mer", "wil", "wip"].contains(&m["kind"].as_str().unwrap());
        if c["test"] == "ci" || c["refs"].as_array().unwrap().len() != 1 || !metrics.iter().all(jiwer) {
            continue;
        }
        let pair = c["pair"].as_str().unwrap();
        let n = c["n"].to_string();
        let (flag, nflag) =
            if c["test"] == "bs" { ("--paired-bs", "--paired-bs-n") } else { ("--paired-ar", "--paired-ar-n") };
        let seed = c["seed"].to_string();
        let p = parquet(pair);
        let mut args = vec!["compare", &p, "--segment-col", "seg_id", "--baseline", c["systems"][0].as_str().unwrap()];
        args.extend([flag, nflag, &n, "--seed", &seed, "--format", "json", "-m"]);
        let names: Vec<&str> = metrics.iter().map(|m| m["kind"].as_str().unwrap()).collect();
        args.extend(&names);
        let opts: Vec<String> = metrics
            .iter()
            .filter(|m| m["mteval_options"] != "")
            .map(|m| format!("{}={}", m["kind"].as_str().unwrap(), m["mteval_options"].as_str().unwrap()))
            .collect();
        for o in &opts {
            args.extend(["--options", o.as_str()]);
        }
        let out: Value = serde_json::from_str(&mteval_ok(&args)).unwrap();
        let rows = out.as_array().unwrap();
        for m in metrics {
            let name = m["name"].as_str().unwrap();
            for (s, want) in m["results"].as_array().unwrap().iter().enumerate() {
                let sys = c["systems"][s].as_str().unwrap();
                let row = rows.iter().find(|r| r["system"] == sys).unwrap_or_else(|| panic!("{sys}"));
                for k in ["score", "p_value", "mean", "ci"] {
                    assert_eq!(row[name][k].as_f64(), want[k].as_f64(), "{pair} {sys} {name} {k}");
                }
                let sig = row[name]["signature"].as_str().unwrap();
                assert_eq!(sig.split("|impl:").next().unwrap(), m["signature"].as_str().unwrap());
                checked += 1;
            }
        }
    }
    // 4 cases x 3 systems x 4 measures, 2 cases x 3 systems x 2 (CER, MER).
    assert_eq!(checked, 60, "results checked");
}

/// `mteval mbr --utility wer` (ASR N-best selection): every candidate's
/// utility is jiwer's mean `wer`/`cer` against the group's other outputs,
/// bit for bit, and the lowest is picked (golden: `make_wer_golden.py`'s
/// "mbr" over `data/wmt/mbr_groups.jsonl`).
#[test]
fn mbr_with_a_wer_utility_picks_jiwers_lowest_mean() {
    let dir = tempfile::tempdir().unwrap();
    let groups = crate::common::read_jsonl("data/wmt/mbr_groups.jsonl");
    let mut rows = Vec::new();
    for (gi, g) in groups.iter().enumerate() {
        for (j, h) in g["hyps"].as_array().unwrap().iter().enumerate() {
            rows.push(serde_json::json!({"g": gi, "cand": j, "hyp": h}));
        }
    }
    let input = dir.path().join("cands.jsonl");
    crate::cli::write_jsonl(&input, &rows);
    let golden = repo_golden("wer.json");
    let cases = golden["mbr"].as_array().unwrap();
    assert_eq!(cases.len(), 4);
    for case in cases {
        let unit = case["options"].as_str().unwrap();
        let with_self = case["self"].as_bool().unwrap();
        let options =
            format!("{unit}{}self:{}", if unit.is_empty() { "" } else { "|" }, if with_self { "yes" } else { "no" });
        let out = dir.path().join("sel.parquet");
        let args = ["mbr", input.to_str().unwrap(), "--group-by", "g", "--utility", "wer", "--options", &options];
        let so = mteval_ok(&[&args[..], &["-o", out.to_str().unwrap()]].concat());
        let unit_sig = if unit.is_empty() { "unit:word" } else { "unit:char" };
        assert!(so.starts_with(&format!("MBR|utility:wer-mean|nrefs:1|{unit_sig}|transform:default|")), "{so}");
        assert!(so.trim_end().ends_with(if with_self { "|self:yes" } else { "|self:no" }), "{so}");
        let want = case["groups"].as_array().unwrap();
        let picks = mbr_picks(&out, "g");
        for &(g, cand, util, n) in &picks {
            let w = &want[usize::try_from(g).unwrap()];
            let pick = w["pick"].as_i64().unwrap();
            let utilities = w["utilities"].as_array().unwrap();
            assert_eq!(cand, pick, "{options} group {g}");
            assert_eq!(util, utilities[usize::try_from(pick).unwrap()].as_f64().unwrap(), "{options}");
            assert_eq!(n, i64::try_from(utilities.len()).unwrap());
        }
        assert_eq!(picks.len(), want.len(), "{options}");
    }
    // A bad option of the metric names it, and `self` among the keys.
    let o = mteval(&["mbr", input.to_str().unwrap(), "--group-by", "g", "--utility", "wer", "--options", "nc:6"]);
    let e = stderr(&o);
    assert!(!o.status.success() && e.contains("unknown key 'nc'") && e.contains("self"), "{e}");
}

#[test]
fn cer_is_refused_as_ambiguous_naming_jiwers_cer_and_characters() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.jsonl");
    std::fs::write(&input, "{\"hyp\": \"a b\", \"ref\": \"a c\"}\n").unwrap();
    let input = input.to_str().unwrap();
    for args in [vec!["score", input, "-m", "cer"], vec!["score", input, "-m", "CER", "-m", "wer"]] {
        let e = crate::cli::fails_with(&args, &["is ambiguous", "did you mean char_error_rate (jiwer's CER"]);
        assert!(e.contains("charac_ter (or characTER)"), "{e}");
    }
    // Both metrics by their names.
    let out = mteval_ok(&["score", input, "-m", "char_error_rate", "-m", "charac_ter"]);
    assert!(out.contains("CER|") && out.contains("CharacTER|"), "{out}");
}

#[test]
fn whisper_normalize_in_sql_gives_whisper_normalizers_basic_text() {
    // Expected values: whisper-normalizer 0.1.15's BasicTextNormalizer (random
    // texts are compared with it in python/tests/test_whisper.py).
    let q = "SELECT whisper_normalize(t, 'basic') AS n, whisper_normalize(t, 'basic|remove_diacritics:yes') AS d \
             FROM (VALUES ('Hello, World! [noise] (laughs) <unk>'), ('Ça coûte 5€ — Æsir straße'), \
             ('ﬁ ½ Ｈｅｌｌｏ'), (NULL)) AS v(t)";
    let out = mteval_ok(&["sql", "--format", "ndjson", "-c", q]);
    let rows: Vec<Value> = out.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let got: Vec<(Value, Value)> = rows.iter().map(|r| (r["n"].clone(), r["d"].clone())).collect();
    let s = |x: &str| Value::String(x.into());
    assert_eq!(
        got,
        [
            (s("hello world "), s("hello world ")),
            (s("ça coûte 5 æsir straße"), s("ca coute 5 aesir strasse")),
            (s("fi 1 2 hello"), s("fi 1 2 hello")),
            (Value::Null, Value::Null),
        ]
    );
    // The English normaliser (whisper-normalizer 0.1.15's EnglishTextNormalizer; random WMT sentences with
    // injected numbers are compared with it in python/tests/test_whisper.py), in SQL and as a WER transform.
    let q = "SELECT whisper_normalize(t, 'english') AS n, wer(h, t, 'transform:whisper_english') AS w FROM \
             (VALUES ('Mr. Smith paid twenty five dollars, um, for the colour TV [noise]', \
             'mister smith paid $25 for the color tv'), (NULL, 'a')) AS v(t, h)";
    let out = mteval_ok(&["sql", "--format", "ndjson", "-c", q]);
    let rows: Vec<Value> = out.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(rows[0]["n"], s("mister smith paid $25 for the color tv"));
    assert_eq!(rows[0]["w"], Value::from(0.0));
    assert_eq!(rows[1]["n"], Value::Null);
    // split_letters: grapheme clusters as the `regex` module's \X (whisper-normalizer 0.1.15's output).
    let q = "SELECT whisper_normalize('नमस्ते, दुनिया!', 'basic|preserve_marks:yes|split_letters:yes') AS a, \
             whisper_normalize('Hello, 한국어!', 'basic|split_letters:yes') AS b";
    let out = mteval_ok(&["sql", "--format", "ndjson", "-c", q]);
    let row: Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(row["a"], s("न म स्ते दु नि या "));
    assert_eq!(row["b"], s("h e l l o 한 국 어 "));
    for (spec, needle) in [
        ("english|x:yes", "takes no options"),
        ("basic|preserve_marks:yes|remove_diacritics:yes", "cannot be used with"),
        ("basic|lower:no", "unknown option 'lower'"),
        ("whisper", "unknown normaliser 'whisper'"),
    ] {
        let q = format!("SELECT whisper_normalize('a', '{spec}')");
        crate::cli::fails_with(&["sql", "-c", &q], &["whisper_normalize", needle]);
    }
}
