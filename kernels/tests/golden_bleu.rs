//! BLEU against sacrebleu 2.6.0 on the shared WMT systems: corpus BLEU
//! (one and two references) and every sentence BLEU (`eff:yes`), for every
//! tokenizer and smoothing (`tests/golden/bleu.json`, made by
//! `scripts/make_bleu_golden.py`). Exact equality of the f64 scores.

mod common;

use mteval_kernels::{BleuConfig, NRefs};
use serde_json::Value;

/// sacrebleu `BLEU(**kwargs)` arguments as mteval options.
fn options(o: &Value) -> String {
    let mut parts = Vec::new();
    for (k, v) in o.as_object().unwrap() {
        let v = match v {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        };
        match k.as_str() {
            "tokenize" => parts.push(format!("tok:{v}")),
            "smooth_method" => parts.push(format!("smooth:{v}")),
            "smooth_value" => parts.push(format!("smooth_value:{v}")),
            "lowercase" => parts.push(format!("case:{}", if v == "true" { "lc" } else { "mixed" })),
            "max_ngram_order" => parts.push(format!("ngram:{v}")),
            "trg_lang" => parts.push(format!("trg_lang:{v}")),
            other => panic!("unknown sacrebleu BLEU argument {other}"),
        }
    }
    parts.join("|")
}

#[test]
fn bleu_matches_sacrebleu_on_the_shared_systems() {
    let cases = common::golden_pair_cases("bleu.json");
    assert!(cases.len() >= 100, "only {} cases", cases.len());
    for (case, data) in &cases {
        let (pair, (one, two)) = (case["pair"].as_str().unwrap(), &**data);
        let opts = options(&case["options"]);
        let corpus = BleuConfig::parse(&opts).unwrap();
        let sentence = BleuConfig::parse_with(BleuConfig::sentence(), &opts).unwrap();
        let sig = corpus.signature(NRefs::Fixed(1)).to_string();
        let sig = sig.split("|impl:").next().unwrap().replace("|ngram:2", "");
        assert_eq!(sig, case["signature"].as_str().unwrap(), "{pair} {opts}");
        let mut digest = 0u64;
        let mut count = 0usize;
        for (k, (name, hyps)) in one.systems.iter().enumerate() {
            for (data, key) in [(one, "corpus"), (two, "corpus_2refs")] {
                let mut st = mteval_kernels::BleuStats::default();
                for (h, r) in data.systems[k].1.iter().zip(&data.refs) {
                    let refs: Vec<&str> = r.iter().map(String::as_str).collect();
                    st.add(&corpus.segment(h, &refs).unwrap());
                }
                assert_eq!(st.score(&corpus).unwrap(), case[key][k].as_f64().unwrap(), "{pair} {name} {opts} {key}");
            }
            for (h, r) in hyps.iter().zip(&one.refs) {
                let s = sentence.sentence_score(h, &[r[0].as_str()]).unwrap();
                if count < 5 {
                    assert_eq!(s, case["sentence_first"][count].as_f64().unwrap(), "{pair} {opts} sentence {count}");
                }
                digest = digest.wrapping_add(s.to_bits());
                count += 1;
            }
        }
        assert_eq!(count as u64, case["sentence_count"].as_u64().unwrap());
        assert_eq!(
            digest.to_string(),
            case["sentence_digest"].as_str().unwrap(),
            "{pair} {opts}: sentence BLEU digest"
        );
    }
}
