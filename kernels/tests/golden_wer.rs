//! The WER family against jiwer 4.0.0 on the shared WMT systems: corpus
//! counts and measures (one reference, and the better of two), and the counts
//! of every sentence, for words and characters, default and standardized
//! (`tests/golden/wer.json`, made by `scripts/make_wer_golden.py`). Counts
//! equal, measures bit-equal.

mod common;

use mteval_kernels::metric::Detail;
use mteval_kernels::metrics::lookup;
use mteval_kernels::{WerConfig, WerCounts};
use serde_json::Value;

fn check(g: &Value, c: &WerCounts, what: &str) {
    let s = c.scores();
    for (k, v) in
        [("hits", c.hits), ("substitutions", c.substitutions), ("deletions", c.deletions), ("insertions", c.insertions)]
    {
        assert_eq!(v, g[k].as_u64().unwrap(), "{what}: {k}");
    }
    for (k, v) in [("wer", s.wer), ("mer", s.mer), ("wil", s.wil), ("wip", s.wip)] {
        assert_eq!(v.to_bits(), g[k].as_f64().unwrap().to_bits(), "{what}: {k} {v} vs {}", g[k]);
    }
}

#[test]
fn wer_family_matches_jiwer_on_the_shared_systems() {
    let cases = common::golden_pair_cases("wer.json");
    assert_eq!(cases.len(), 20, "5 pairs x 4 option sets");
    for (case, data) in &cases {
        let (pair, (one, two)) = (case["pair"].as_str().unwrap(), &**data);
        let opts = case["options"].as_str().unwrap();
        let cfg = WerConfig::parse(opts).unwrap();
        let (mut digest, mut count) = (0u64, 0u64);
        let first = case["sentence_first"].as_array().unwrap();
        for (k, (name, hyps)) in one.systems.iter().enumerate() {
            for (data, key) in [(one, "corpus"), (two, "corpus_2refs")] {
                let mut total = WerCounts::default();
                for (h, r) in data.systems[k].1.iter().zip(&data.refs) {
                    let refs: Vec<&str> = r.iter().map(String::as_str).collect();
                    total.add(&cfg.best(h, &refs).unwrap().1);
                }
                check(&case[key][k], &total, &format!("{pair} {name} {opts} {key}"));
            }
            for (h, r) in hyps.iter().zip(&one.refs) {
                let c = cfg.counts(h, &r[0]);
                count += 1;
                if count <= 5 {
                    let want: Vec<u64> = first[usize::try_from(count - 1).unwrap()]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|v| v.as_u64().unwrap())
                        .collect();
                    assert_eq!(
                        vec![c.hits, c.substitutions, c.deletions, c.insertions],
                        want,
                        "{pair} {opts} sentence {count}"
                    );
                }
                let packed = c.hits + (c.substitutions << 16) + (c.deletions << 32) + (c.insertions << 48);
                digest = digest.wrapping_add(count.wrapping_mul(packed));
            }
        }
        assert_eq!(count, case["sentence_count"].as_u64().unwrap());
        assert_eq!(
            digest.to_string(),
            case["sentence_digest"].as_str().unwrap(),
            "{pair} {opts}: sentence counts digest"
        );
    }
}

#[test]
fn the_metric_interface_gives_the_same_corpus_as_the_kernel() {
    // `score -m wer`, corpus_bootstrap and Python go through the metric
    // table: its corpus state must give jiwer's numbers too.
    let golden = common::repo_golden("wer.json");
    let case = &golden["cases"][1];
    assert_eq!(case["options"], "unit:char");
    let pair = common::load_pair(case["pair"].as_str().unwrap(), false);
    let metric = lookup("char_error_rate").unwrap().configure("").unwrap();
    for (k, (name, hyps)) in pair.systems.iter().enumerate() {
        let mut state = metric.corpus().unwrap();
        for (h, r) in hyps.iter().zip(&pair.refs) {
            state.add(&metric.segment(h, &[r[0].as_str()]).unwrap().unwrap());
        }
        let g = &case["corpus"][k];
        assert_eq!(state.score().unwrap().to_bits(), g["wer"].as_f64().unwrap().to_bits(), "{name}");
        let details = state.details();
        let int = |key: &str| match details.iter().find(|(n, _)| *n == key) {
            Some((_, Detail::Int(v))) => *v,
            other => panic!("{key}: {other:?}"),
        };
        assert_eq!(int("substitutions"), g["substitutions"].as_u64().unwrap(), "{name}");
        assert_eq!(int("insertions"), g["insertions"].as_u64().unwrap(), "{name}");
    }
}
