//! Golden parity of the kernels against the reference implementations'
//! outputs in `../shared/data/golden` (sacrebleu 2.6.0 for TER).

mod common;

use std::collections::BTreeMap;

use common::*;
use mteval_kernels::ter::{Ter, TerStats};
use mteval_kernels::tokenize::TercomTokenizer;
use serde_json::Value;

fn ter(variant: &str) -> Ter {
    Ter::from_options(ter_variant_options(variant)).unwrap()
}

#[test]
fn ter_tokenize_golden() {
    let rows = read_jsonl("data/golden/ter_tokenize.jsonl");
    assert_eq!(rows.len(), 200);
    let mut n = 0;
    for r in rows {
        let text = r["text"].as_str().unwrap();
        for v in TER_VARIANTS {
            let expected: Vec<&str> = r["tokens"][v].as_str().unwrap().split_whitespace().collect();
            let got = ter(v).tokenize(text);
            assert_eq!(got, expected, "variant {v} text {text:?}");
            n += 1;
        }
    }
    assert_eq!(n, 1600);
}

fn check_sentence(t: &Ter, hyp: &str, refs: &[&str], exp: &Value, ctx: &str) {
    let (score, edits, len) = if exp.is_array() {
        (exp[0].as_f64().unwrap(), exp[1].as_u64().unwrap(), exp[2].as_f64().unwrap())
    } else {
        (exp["score"].as_f64().unwrap(), exp["num_edits"].as_u64().unwrap(), exp["ref_length"].as_f64().unwrap())
    };
    let seg = t.segment(hyp, refs).unwrap().unwrap();
    assert_eq!(u64::from(seg.num_edits), edits, "{ctx}: edits");
    assert!(close(seg.ref_len, len), "{ctx}: ref_len {} vs {len}", seg.ref_len);
    let got = t.sentence_score(&seg);
    assert!(close(got, score), "{ctx}: score {got} vs {score}");
}

#[test]
fn ter_sentence_and_corpus_golden() {
    let (wmt, _) = wmt_rows();
    let rows = read_jsonl("data/golden/ter_sentence.jsonl");
    assert_eq!(rows.len(), 7500);
    let ters: Vec<(&str, Ter)> = TER_VARIANTS.iter().map(|v| (*v, ter(v))).collect();
    // (pair, system, refs, variant) -> stats, in file order
    let mut corpus: BTreeMap<(String, String, String, String), TerStats> = BTreeMap::new();
    let mut checked = 0;
    for r in &rows {
        let key = segment_key(r);
        let w = &wmt[&key];
        for (v, t) in &ters {
            let ctx = format!("{key:?} {v}");
            check_sentence(t, &w.hyp, &[&w.r#ref], &r["ter"][*v], &ctx);
            let seg = t.segment(&w.hyp, &[&w.r#ref]).unwrap().unwrap();
            corpus.entry((key.0.clone(), key.1.clone(), "ref".into(), (*v).to_owned())).or_default().add(&seg);
            checked += 1;
            if let Some(ref2) = &w.ref2 {
                check_sentence(t, &w.hyp, &[&w.r#ref, ref2], &r["ter_multi"][*v], &format!("{ctx} multi"));
                let seg = t.segment(&w.hyp, &[&w.r#ref, ref2]).unwrap().unwrap();
                corpus.entry((key.0.clone(), key.1.clone(), "ref+ref2".into(), (*v).to_owned())).or_default().add(&seg);
                checked += 1;
            } else {
                assert!(r["ter_multi"].is_null());
            }
        }
    }
    assert!(checked > 100_000);
    let golden = read_jsonl("data/golden/ter_corpus.jsonl");
    assert_eq!(golden.len(), 216);
    for g in golden {
        let key = (
            g["pair"].as_str().unwrap().to_owned(),
            g["system"].as_str().unwrap().to_owned(),
            g["refs"].as_str().unwrap().to_owned(),
            g["variant"].as_str().unwrap().to_owned(),
        );
        let st = corpus[&key];
        assert_eq!(st.segments, g["n_segments"].as_u64().unwrap(), "{key:?}");
        assert_eq!(st.num_edits, g["num_edits"].as_u64().unwrap(), "{key:?}");
        assert!(close(st.ref_len, g["ref_length"].as_f64().unwrap()), "{key:?}");
        let s = ter(&key.3).score(&st);
        assert!(close(s, g["score"].as_f64().unwrap()), "{key:?}: {s} vs {}", g["score"]);
    }
}

#[test]
fn ter_edge_cases_golden() {
    let rows = read_jsonl("data/golden/edge_cases.jsonl");
    let mut n = 0;
    for r in rows {
        let id = r["id"].as_str().unwrap();
        let hyp = r["hyp"].as_str().unwrap();
        let refs: Vec<&str> = r["refs"].as_array().unwrap().iter().map(|x| x.as_str().unwrap()).collect();
        for v in TER_VARIANTS {
            let t = ter(v);
            let toks = &r["ter_tokens"][v];
            assert_eq!(
                t.tokenize(hyp).join(" "),
                toks["hyp"].as_str().unwrap().split_whitespace().collect::<Vec<_>>().join(" "),
                "{id} {v} hyp tokens"
            );
            check_sentence(&t, hyp, &refs[..1], &r["ter"][v], &format!("{id} {v}"));
            n += 1;
            if refs.len() > 1 {
                check_sentence(&t, hyp, &refs, &r["ter_multi"][v], &format!("{id} {v} multi"));
            }
        }
    }
    assert_eq!(n, 60 * 8);
}

#[test]
fn ter_edge_corpus_golden() {
    for r in read_jsonl("data/golden/edge_cases_corpus.jsonl") {
        let hyps: Vec<&str> = r["hyps"].as_array().unwrap().iter().map(|x| x.as_str().unwrap()).collect();
        let refs: Vec<Vec<&str>> = r["refs"].as_array().unwrap().iter().map(|x| vec![x.as_str().unwrap()]).collect();
        let t = Ter::default();
        let st = t.corpus(&hyps, &refs).unwrap();
        if r["ter"].get("error").is_some() {
            // sacrebleu raises on an empty corpus; we define it as 0 segments.
            assert_eq!(st.segments, 0);
            continue;
        }
        assert_eq!(st.num_edits, r["ter"]["num_edits"].as_u64().unwrap());
        assert!(close(t.score(&st), r["ter"]["score"].as_f64().unwrap()), "{}", r["id"]);
    }
}

#[test]
fn ter_metric_vectors() {
    let m = read_json("data/golden/metric_vectors.json");
    let vecs = m["ter_sacrebleu_2.6.0"].as_array().unwrap();
    for v in vecs {
        let t = Ter::from_options(&ter_options_from_json(&v["options"])).unwrap();
        let hyps: Vec<&str> = v["hyps"].as_array().unwrap().iter().map(|x| x.as_str().unwrap()).collect();
        let streams: Vec<Vec<&str>> = v["refs"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_array().unwrap().iter().map(|x| x.as_str().unwrap()).collect())
            .collect();
        let per_seg: Vec<Vec<&str>> = (0..hyps.len()).map(|i| streams.iter().map(|s| s[i]).collect()).collect();
        let st = t.corpus(&hyps, &per_seg).unwrap();
        assert_eq!(st.num_edits, v["num_edits"].as_u64().unwrap(), "{}", v["note"]);
        assert!(close(st.ref_len, v["ref_length"].as_f64().unwrap()), "{}", v["note"]);
        assert!(close(t.score(&st), v["score"].as_f64().unwrap()), "{}", v["note"]);
    }
    for v in m["tercom_tokenizer_sacrebleu_2.6.0"].as_array().unwrap() {
        let o = &v["options"];
        let b = |k: &str| o.get(k).and_then(Value::as_bool).unwrap_or(false);
        let tok = TercomTokenizer {
            case_sensitive: b("case_sensitive"),
            normalized: b("normalized"),
            no_punct: b("no_punct"),
            asian_support: b("asian_support"),
        };
        let input = v["input"].as_str().unwrap();
        let expected: Vec<&str> = v["output"].as_str().unwrap().split_whitespace().collect();
        assert_eq!(tok.words(input), expected, "input {input:?} options {o}");
    }
}
