//! Terminology match accuracy golden parity (`FredericOdermatt/match_accuracy`
//! `match_accuracy.py` @ 29547205): every row of `terms_cases.jsonl` and
//! `terms_corpus.jsonl` (shared/data/README.md, "golden/terms_*.jsonl").

mod common;

use std::collections::HashMap;

use common::{read_jsonl, shared_dir};
use mteval_kernels::MetricError;
use mteval_kernels::terms::{
    Lemma, TermAccuracy, TermSentence, corpus_counts, count_matches, count_matches_exact, exact_matches,
    lemmatized_matches,
};
use serde_json::Value;

struct Case {
    id: String,
    hyp: String,
    terms: Vec<Vec<String>>,
    lemmas: Vec<(Option<String>, usize, usize)>,
    row: Value,
}

impl Case {
    fn from(row: Value) -> Self {
        let terms = row["terms"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t.as_array().unwrap().iter().map(|a| a.as_str().unwrap().to_owned()).collect())
            .collect();
        let lemmas = row["lemmas"]
            .as_array()
            .unwrap()
            .iter()
            .map(|l| {
                let idx = |k: &str| usize::try_from(l[k].as_u64().unwrap()).unwrap();
                (l["lemma"].as_str().map(str::to_owned), idx("start"), idx("end"))
            })
            .collect();
        Self {
            id: row["id"].as_str().unwrap().to_owned(),
            hyp: row["hyp"].as_str().unwrap().to_owned(),
            terms,
            lemmas,
            row,
        }
    }

    fn lemmas(&self) -> Vec<Lemma<'_>> {
        self.lemmas.iter().map(|(l, s, e)| Lemma::new(l.as_deref(), *s, *e)).collect()
    }
}

fn cases() -> Vec<Case> {
    let rows = read_jsonl("data/golden/terms_cases.jsonl");
    assert_eq!(rows.len(), 663, "terms_cases.jsonl rows");
    rows.into_iter().map(Case::from).collect()
}

fn reason(e: &MetricError) -> &str {
    match e {
        MetricError::InvalidInput { reason, .. } | MetricError::InvalidOption { reason, .. } => reason,
        MetricError::UnknownMetric { name, .. } | MetricError::AmbiguousMetric { name, .. } => name,
        MetricError::Utility { name, .. } => name,
    }
}

/// `{"error": "..."}` of a golden value, if it is one.
fn golden_error(v: &Value) -> Option<&str> {
    v.get("error").map(|e| e.as_str().unwrap())
}

fn check_int_or_error(got: Result<u32, &MetricError>, exp: &Value, ctx: &str) {
    match (got, golden_error(exp)) {
        (Ok(g), None) => assert_eq!(u64::from(g), exp.as_u64().unwrap(), "{ctx}"),
        (Err(e), Some(msg)) => assert_eq!(reason(e), msg, "{ctx}"),
        (g, _) => panic!("{ctx}: got {g:?}, expected {exp}"),
    }
}

#[test]
fn cases_exact_direct() {
    for c in cases() {
        let got = exact_matches(&c.hyp, &c.terms);
        check_int_or_error(Ok(got), &c.row["exact_direct"], &format!("{} exact_direct", c.id));
    }
}

#[test]
fn cases_lemmatized_raw() {
    let mut errors = 0;
    for c in cases() {
        let got = lemmatized_matches(&c.hyp, &c.lemmas(), &c.terms);
        errors += usize::from(got.is_err());
        check_int_or_error(got.as_ref().copied(), &c.row["lemmatized_raw"], &format!("{} lemmatized_raw", c.id));
    }
    assert_eq!(errors, 8);
}

#[test]
fn cases_count_matches() {
    let mut n_dropped = 0;
    for c in cases() {
        let ctx = &c.id;
        let r = &c.row;
        let dropped = r["dropped_empty"].as_bool().unwrap();
        assert_eq!(r["n_terms"].as_u64().unwrap(), c.terms.len() as u64, "{ctx}");
        match (count_matches(&c.hyp, &c.lemmas(), &c.terms), golden_error(&r["exact_matched"])) {
            (Ok(got), None) => {
                assert_eq!(u64::from(got.exact), r["exact_matched"].as_u64().unwrap(), "{ctx} exact");
                assert_eq!(u64::from(got.lemmatized), r["lemmatized_matched"].as_u64().unwrap(), "{ctx} lemm");
                assert_eq!(u64::from(got.wrong()), r["wrong"].as_u64().unwrap(), "{ctx} wrong");
                assert_eq!(got.dropped, dropped, "{ctx} dropped");
                assert_eq!(
                    got.lemmatized_below_exact,
                    r["warning_lemmatized_below_exact"].as_bool().unwrap(),
                    "{ctx} warning"
                );
                assert_eq!(u64::from(got.total), c.terms.len() as u64, "{ctx}");
                n_dropped += usize::from(dropped);
            }
            (Err(e), Some(msg)) => {
                assert_eq!(reason(&e), msg, "{ctx}");
                assert_eq!(golden_error(&r["lemmatized_matched"]), Some(msg), "{ctx}");
                assert_eq!(golden_error(&r["wrong"]), Some(msg), "{ctx}");
            }
            (got, _) => panic!("{ctx}: got {got:?}, expected {}", r["exact_matched"]),
        }

        // The exact-only treatment agrees with the exact column.
        let ex = count_matches_exact(&c.hyp, &c.terms);
        assert_eq!(ex.dropped, dropped, "{ctx}");
        if let Some(e) = r["exact_matched"].as_u64() {
            assert_eq!(u64::from(ex.exact), e, "{ctx} exact-only");
        } else {
            assert_eq!(ex.exact, exact_matches(&c.hyp, &c.terms), "{ctx} exact-only");
        }
    }
    assert_eq!(n_dropped, 5);
}

/// The raw text of a float value `"key": 0.123` in a JSON line (Python's
/// shortest repr), parsed exactly by Rust's correctly rounded `parse`.
fn raw_float(line: &str, key: &str) -> f64 {
    let pat = format!("\"{key}\": ");
    let at = line.find(&pat).unwrap_or_else(|| panic!("{key} not in line")) + pat.len();
    let tail = &line[at..];
    let end = tail.find([',', '}']).unwrap();
    tail[..end].trim().parse().unwrap()
}

#[test]
fn corpus() {
    let cases = cases();
    let by_id: HashMap<&str, &Case> = cases.iter().map(|c| (c.id.as_str(), c)).collect();
    let path = shared_dir().join("data/golden/terms_corpus.jsonl");
    let text = std::fs::read_to_string(&path).unwrap();
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    assert_eq!(lines.len(), 20);
    for line in lines {
        let row: Value = serde_json::from_str(line).unwrap();
        let id = row["id"].as_str().unwrap();
        let ids: Vec<&str> = row["case_ids"].as_array().unwrap().iter().map(|v| v.as_str().unwrap()).collect();
        assert_eq!(ids.len() as u64, row["n_cases"].as_u64().unwrap(), "{id}");
        let subset: Vec<&Case> = ids.iter().map(|i| by_id[i]).collect();
        let lemmas: Vec<Vec<Lemma<'_>>> = subset.iter().map(|c| c.lemmas()).collect();
        let sentences: Vec<TermSentence<'_, Vec<String>>> = subset
            .iter()
            .zip(&lemmas)
            .map(|(c, l)| TermSentence { prediction: &c.hyp, lemmas: l, terms: &c.terms })
            .collect();
        let got = corpus_counts(&sentences);
        let res = &row["result"];
        match golden_error(res) {
            Some("ZeroDivisionError: division by zero") => {
                let acc = got.unwrap_or_else(|e| panic!("{id}: {e}"));
                assert_eq!(acc.n_terms_denominator, 0, "{id}");
                assert_eq!(acc.exact_accuracy(), None, "{id}");
                assert_eq!(acc.lemmatized_accuracy(), None, "{id}");
            }
            Some(msg) => {
                let e = got.expect_err(id);
                assert_eq!(reason(&e), msg, "{id}");
            }
            None => {
                let acc = got.unwrap_or_else(|e| panic!("{id}: {e}"));
                let int = |k: &str| res[k].as_u64().unwrap();
                assert_eq!(acc.exact_correct, int("exact match correct"), "{id}");
                assert_eq!(acc.lemmatized_correct, int("lemmatized match correct"), "{id}");
                assert_eq!(acc.wrong, int("wrong exact and lemmatized"), "{id}");
                assert_eq!(acc.n_terms_denominator, row["n_terms_denominator"].as_u64().unwrap(), "{id}");
                assert_eq!(acc.exact_accuracy(), Some(raw_float(line, "exact match accuracy")), "{id} EMA");
                assert_eq!(acc.lemmatized_accuracy(), Some(raw_float(line, "lemmatized match accuracy")), "{id} LMA");
                let approx = |k: &str| res[k].as_f64().unwrap();
                assert!((acc.exact_accuracy().unwrap() - approx("exact match accuracy")).abs() < 1e-12);

                // The same totals from per-sentence counts, summed in two halves and merged.
                let (mut a, mut b) = (TermAccuracy::default(), TermAccuracy::default());
                for (i, s) in sentences.iter().enumerate() {
                    let c = count_matches(s.prediction, s.lemmas, s.terms).unwrap();
                    if i % 2 == 0 { a.add(&c) } else { b.add(&c) }
                }
                a.merge(&b);
                a.check().unwrap();
                assert_eq!(a, acc, "{id}");
            }
        }
    }
}

#[test]
fn thousand_terms_are_fast() {
    let mut terms: Vec<Vec<String>> = (0..1000).map(|i| vec![format!("absentterm{i}")]).collect();
    let pred = "the cat sat on the mat";
    assert_eq!(exact_matches(pred, &terms), 0);
    // 1000 present terms that all overlap: the reference's product would be huge.
    terms = (0..1000).map(|i| vec!["cat".to_owned(), "the cat".to_owned(), format!("x{i}")]).collect();
    assert_eq!(exact_matches(pred, &terms), 1);
    terms.push(vec!["mat".to_owned()]);
    assert_eq!(exact_matches(pred, &terms), 1001);
}
