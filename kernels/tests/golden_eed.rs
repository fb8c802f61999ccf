//! EED against rwth-i6/ExtendedEditDistance's EED.py (f944adc): its C++
//! library's scores (`compat:eed`) and its `eed_python` (`compat:python`),
//! bit for bit, on random pairs built from the characters its preprocessing
//! touches and on the shared WMT systems (`tests/golden/eed.json`, made by
//! `scripts/make_eed_golden.py` from a checkout of the reference).

mod common;

use std::collections::HashMap;

use mteval_kernels::eed::EedConfig;
use mteval_kernels::metrics::lookup;
use serde_json::Value;

fn config(compat: &str, prep: &str) -> EedConfig {
    EedConfig::parse(&format!("compat:{compat}|prep:{prep}")).unwrap()
}

fn same(got: f64, want: &Value, what: &str) {
    let want = want.as_f64().unwrap();
    assert_eq!(got.to_bits(), want.to_bits(), "{what}: {got} vs EED.py's {want}");
}

#[test]
fn eed_matches_eed_py_on_random_pairs() {
    let golden = common::repo_golden("eed.json");
    let cases = golden["random"].as_array().unwrap();
    assert!(cases.len() >= 1000);
    for (k, c) in cases.iter().enumerate() {
        let (h, r, prep) = (c["hyp"].as_str().unwrap(), c["ref"].as_str().unwrap(), c["prep"].as_str().unwrap());
        for compat in ["eed", "python"] {
            let got = config(compat, prep).sentence(h, r).unwrap();
            same(got, &c[compat], &format!("case {k} {compat} prep:{prep} {h:?} / {r:?}"));
        }
    }
}

#[test]
fn eed_matches_eed_py_on_the_shared_systems() {
    let golden = common::repo_golden("eed.json");
    let mut rows: HashMap<(String, String, i64), (String, String)> = HashMap::new();
    for pair in ["en-de", "de-en", "zh-en", "en-zh", "en-ja"] {
        for r in common::read_jsonl(&format!("data/wmt/{pair}.jsonl")) {
            let key = (pair.to_owned(), r["system"].as_str().unwrap().to_owned(), r["seg_id"].as_i64().unwrap());
            rows.insert(key, (r["hyp"].as_str().unwrap().to_owned(), r["ref"].as_str().unwrap().to_owned()));
        }
    }
    let metric = lookup("eed").unwrap().configure("").unwrap();
    let mut n = 0;
    for sys in golden["wmt"].as_array().unwrap() {
        let (pair, system) = (sys["pair"].as_str().unwrap(), sys["system"].as_str().unwrap());
        let mut corpus = metric.corpus().unwrap();
        let mut sum = 0.0;
        for (i, seg) in sys["seg_ids"].as_array().unwrap().iter().enumerate() {
            let (h, r) = &rows[&(pair.to_owned(), system.to_owned(), seg.as_i64().unwrap())];
            for compat in ["eed", "python"] {
                same(config(compat, "en").sentence(h, r).unwrap(), &sys[compat][i], &format!("{pair} {system} {seg}"));
            }
            corpus.add(&metric.segment(h, &[r]).unwrap().unwrap());
            sum += sys["eed"][i].as_f64().unwrap();
            n += 1;
        }
        // EED.py's system score: sum(scores) / len(scores).
        let mean = sum / sys["seg_ids"].as_array().unwrap().len() as f64;
        assert_eq!(corpus.score().unwrap().to_bits(), mean.to_bits(), "{pair} {system}");
    }
    assert!(n >= 1000, "{n} rows");
}
