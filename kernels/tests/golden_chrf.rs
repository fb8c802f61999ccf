//! chrF / chrF++ / fastChrF golden parity through the kernel API: every shared
//! golden file that carries chrF values (sacrebleu 2.6.0, fastchrf 0.2.1).

mod common;

use std::collections::HashMap;

use common::{read_json, read_jsonl, segment_key, wmt_rows};
use mteval_kernels::chrf::group::Group;
use mteval_kernels::chrf::{FastChrfOptions, aggregate_chrf, pairwise_chrf};
use mteval_kernels::py::numpy_mean;
use mteval_kernels::{ChrfConfig, ChrfStats};
use serde_json::Value;

/// The golden files' chrF option sets.
fn variant(name: &str) -> ChrfConfig {
    let o = match name {
        "chrf" => "",
        "chrf_eps" => "eff:no",
        "chrfpp" => "nw:2",
        "chrfpp_eps" => "nw:2|eff:no",
        _ => panic!("unknown variant {name}"),
    };
    ChrfConfig::parse(o).unwrap()
}

const VARIANTS: [&str; 4] = ["chrf", "chrf_eps", "chrfpp", "chrfpp_eps"];

fn fast_variant(name: &str) -> FastChrfOptions {
    let d = FastChrfOptions::default();
    match name {
        "default" => d,
        "eps_smoothing" => FastChrfOptions { eps_smoothing: true, ..d },
        "keep_whitespace" => FastChrfOptions { remove_whitespace: false, ..d },
        _ => panic!("unknown fastchrf variant {name}"),
    }
}

fn ints(v: &Value) -> Vec<u64> {
    v.as_array().unwrap().iter().map(|x| x.as_u64().unwrap()).collect()
}

fn floats(v: &Value) -> Vec<f64> {
    v.as_array().unwrap().iter().map(|x| x.as_f64().unwrap()).collect()
}

fn strs(v: &Value) -> Vec<&str> {
    v.as_array().unwrap().iter().map(|x| x.as_str().unwrap()).collect()
}

/// Scores within 1e-9. (`serde_json` without `float_roundtrip` may read a
/// golden float one ulp off, so bit equality is checked by the differential
/// script, which compares Python `repr`s.)
fn assert_close(got: f64, exp: f64, ctx: &str) {
    assert!((got - exp).abs() <= 1e-9, "{ctx}: got {got:?}, expected {exp:?}");
}

fn assert_rows_close(got: &[Vec<f64>], exp: &[Vec<f64>], ctx: &str) {
    assert_eq!(got.len(), exp.len(), "{ctx}");
    for (g, e) in got.iter().zip(exp) {
        assert_eq!(g.len(), e.len(), "{ctx}");
        for (a, b) in g.iter().zip(e) {
            assert_close(*a, *b, ctx);
        }
    }
}

#[test]
fn chrf_sentence_and_corpus_golden() {
    let (index, _) = wmt_rows();
    let cfgs: HashMap<&str, ChrfConfig> = VARIANTS.iter().map(|v| (*v, variant(v))).collect();
    // (pair, system, refs kind, variant) -> corpus stats
    let mut corpus: HashMap<(String, String, &str, &str), ChrfStats> = HashMap::new();
    let mut checked = 0;
    for g in read_jsonl("data/golden/chrf_sentence.jsonl") {
        let key = segment_key(&g);
        let row = &index[&key];
        let pp = cfgs["chrfpp"].segment(&row.hyp, &[&row.r#ref]).unwrap();
        assert_eq!(pp.stats, ints(&g["chrfpp_stats"]), "chrfpp stats {key:?}");
        for v in VARIANTS {
            let c = &cfgs[v];
            let seg = c.segment(&row.hyp, &[&row.r#ref]).unwrap();
            assert_close(c.score(&seg.stats), g["chrf"][v].as_f64().unwrap(), &format!("{v} {key:?}"));
            corpus.entry((key.0.clone(), key.1.clone(), "ref", v)).or_default().add(&seg.stats);
            if let Some(r2) = &row.ref2 {
                let seg = c.segment(&row.hyp, &[&row.r#ref, r2]).unwrap();
                let exp = g["chrf_multi"][v].as_f64().unwrap();
                assert_close(c.score(&seg.stats), exp, &format!("{v} multi {key:?}"));
                corpus.entry((key.0.clone(), key.1.clone(), "ref+ref2", v)).or_default().add(&seg.stats);
            } else {
                assert!(g["chrf_multi"].is_null());
            }
            checked += 1;
        }
    }
    assert_eq!(checked, 7500 * 4);
    let golden = read_jsonl("data/golden/chrf_corpus.jsonl");
    assert_eq!(golden.len(), 108);
    for g in golden {
        let refs = if g["refs"] == "ref" { "ref" } else { "ref+ref2" };
        let v = VARIANTS.iter().find(|v| **v == g["variant"].as_str().unwrap()).unwrap();
        let key = (g["pair"].as_str().unwrap().to_owned(), g["system"].as_str().unwrap().to_owned(), refs, *v);
        let st = &corpus[&key];
        assert_eq!(st.segments, g["n_segments"].as_u64().unwrap());
        assert_eq!(st.stats, ints(&g["stats"]), "corpus stats {key:?}");
        assert_close(st.score(&cfgs[v]).unwrap(), g["score"].as_f64().unwrap(), &format!("corpus {key:?}"));
    }
}

#[test]
fn chrf_edge_cases_golden() {
    for g in read_jsonl("data/golden/edge_cases.jsonl") {
        let id = g["id"].as_str().unwrap();
        let hyp = g["hyp"].as_str().unwrap();
        let refs = strs(&g["refs"]);
        for v in VARIANTS {
            let c = variant(v);
            let seg = c.segment(hyp, &refs[..1]).unwrap();
            assert_eq!(seg.stats, ints(&g["chrf"][v]["stats"]), "{id} {v}");
            assert_close(c.score(&seg.stats), g["chrf"][v]["score"].as_f64().unwrap(), &format!("{id} {v}"));
            if !g["chrf_multi"].is_null() {
                let seg = c.segment(hyp, &refs).unwrap();
                assert_eq!(seg.stats, ints(&g["chrf_multi"][v]["stats"]), "{id} {v} multi");
                let exp = g["chrf_multi"][v]["score"].as_f64().unwrap();
                assert_close(c.score(&seg.stats), exp, &format!("{id} {v} multi"));
            }
        }
        for (name, exp) in g["fastchrf"].as_object().unwrap() {
            let o = fast_variant(name);
            let p = pairwise_chrf(&[vec![hyp]], std::slice::from_ref(&refs), &o).unwrap();
            let want: Vec<f64> = floats(&exp["pairwise"][0]);
            assert_eq!(p[0][0].len(), want.len());
            for (a, b) in p[0][0].iter().zip(&want) {
                assert_close(*a, *b, &format!("{id} fastchrf {name} pairwise"));
            }
            let a = aggregate_chrf(&[vec![hyp]], std::slice::from_ref(&refs), &o).unwrap();
            assert_close(a[0][0], exp["aggregate"][0].as_f64().unwrap(), &format!("{id} fastchrf {name} aggregate"));
        }
    }
}

#[test]
fn chrf_edge_corpus_golden() {
    for g in read_jsonl("data/golden/edge_cases_corpus.jsonl") {
        let id = g["id"].as_str().unwrap();
        let hyps = strs(&g["hyps"]);
        let refs = strs(&g["refs"]);
        for (key, cfg) in [("chrf", variant("chrf")), ("chrfpp", variant("chrfpp"))] {
            let mut st = ChrfStats::default();
            for (h, r) in hyps.iter().zip(&refs) {
                st.add(&cfg.segment(h, &[r]).unwrap().stats);
            }
            if g[key].get("error").is_some() {
                // sacrebleu raises on an empty corpus; we return no score.
                assert_eq!(st.score(&cfg), None, "{id}");
                continue;
            }
            assert_eq!(st.stats, ints(&g[key]["stats"]), "{id} {key}");
            assert_close(st.score(&cfg).unwrap(), g[key]["score"].as_f64().unwrap(), &format!("{id} {key}"));
        }
    }
}

#[test]
fn chrf_metric_vectors() {
    let v = read_json("data/golden/metric_vectors.json");
    let mut n = 0;
    for case in v["chrf_sacrebleu_2.6.0"].as_array().unwrap() {
        let o = &case["options"];
        let mut cfg = ChrfConfig::default();
        if let Some(x) = o.get("char_order") {
            cfg.char_order = usize::try_from(x.as_u64().unwrap()).unwrap();
        }
        if let Some(x) = o.get("word_order") {
            cfg.word_order = usize::try_from(x.as_u64().unwrap()).unwrap();
        }
        if let Some(x) = o.get("beta") {
            cfg.beta = x.as_f64().unwrap();
        }
        cfg.eps_smoothing = o.get("eps_smoothing").is_some_and(|x| x.as_bool().unwrap());
        cfg.lowercase = o.get("lowercase").is_some_and(|x| x.as_bool().unwrap());
        cfg.whitespace = o.get("whitespace").is_some_and(|x| x.as_bool().unwrap());
        let exp = case["score"].as_f64().unwrap();
        let got = if case["kind"] == "sentence" {
            cfg.sentence_score(case["hyp"].as_str().unwrap(), &strs(&case["refs"])).unwrap()
        } else {
            let hyps = strs(&case["hyps"]);
            let streams: Vec<Vec<&str>> = case["refs"].as_array().unwrap().iter().map(strs).collect();
            let mut st = ChrfStats::default();
            for (i, h) in hyps.iter().enumerate() {
                let refs: Vec<&str> = streams.iter().map(|s| s[i]).collect();
                st.add(&cfg.segment(h, &refs).unwrap().stats);
            }
            st.score(&cfg).unwrap()
        };
        assert_close(got, exp, &format!("{case}"));
        n += 1;
    }
    assert_eq!(n, 80);
    for case in v["fastchrf_0.2.1_formula_emulation"].as_array().unwrap() {
        let o = &case["options"];
        let mut opts = FastChrfOptions::default();
        if let Some(x) = o.get("beta") {
            opts.beta = x.as_f64().unwrap();
        }
        opts.eps_smoothing = o.get("eps_smoothing").is_some_and(|x| x.as_bool().unwrap());
        let hyps = vec![strs(&case["hyps"])];
        let refs = vec![strs(&case["refs"])];
        if case["fn"] == "pairwise_chrf" {
            let got = pairwise_chrf(&hyps, &refs, &opts).unwrap();
            let exp: Vec<Vec<f64>> = case["scores"].as_array().unwrap().iter().map(floats).collect();
            assert_rows_close(&got[0], &exp, "metric vector pairwise");
        } else {
            let got = aggregate_chrf(&hyps, &refs, &opts).unwrap();
            assert_rows_close(&[got[0].clone()], &[floats(&case["scores"])], "metric vector aggregate");
        }
    }
}

/// `fastchrf_mbr.jsonl` (300 groups × kinds × variants) and the 64-hypothesis
/// synthetic group: pairwise matrices and aggregate scores, through the
/// batch API and through a reused `Group`; the row means equal numpy's.
#[test]
fn fastchrf_mbr_golden() {
    let mut rows = read_jsonl("data/golden/fastchrf_mbr.jsonl");
    rows.extend(read_jsonl("data/golden/fastchrf_synthetic64.jsonl"));
    assert_eq!(rows.len(), 302);
    for g in rows {
        let ctx = format!("group {} {} {}", g["group_id"], g["refs_kind"], g["variant"]);
        let o = fast_variant(g["variant"].as_str().unwrap());
        let hyps = strs(&g["hyps"]);
        let refs = strs(&g["refs"]);
        let exp_p: Vec<Vec<f64>> = g["pairwise"].as_array().unwrap().iter().map(floats).collect();
        let exp_a = floats(&g["aggregate"]);
        let got = pairwise_chrf(std::slice::from_ref(&hyps), std::slice::from_ref(&refs), &o).unwrap();
        assert_rows_close(&got[0], &exp_p, &format!("{ctx} pairwise"));
        let agg = aggregate_chrf(std::slice::from_ref(&hyps), std::slice::from_ref(&refs), &o).unwrap();
        assert_rows_close(std::slice::from_ref(&agg[0]), std::slice::from_ref(&exp_a), &format!("{ctx} aggregate"));
        // Self-MBR through one profile set (hypotheses reused as references).
        if g["refs_kind"] == "self" {
            assert_eq!(hyps, refs);
            let grp = Group::new(&o.config(), &hyps, None).unwrap();
            // Bit-identical to the batch API, which shares nothing but the kernel.
            assert_eq!(grp.pairwise(), got[0], "{ctx} self pairwise");
            assert_eq!(grp.aggregate(), agg[0], "{ctx} self aggregate");
            let means = grp.expected_utility(false);
            for (m, row) in means.iter().zip(&got[0]) {
                assert_eq!(*m, numpy_mean(row));
            }
            let loo = grp.expected_utility(true);
            for (j, (m, row)) in loo.iter().zip(&got[0]).enumerate() {
                let rest: Vec<f64> = row.iter().enumerate().filter(|&(k, _)| k != j).map(|(_, &x)| x).collect();
                assert_eq!(*m, numpy_mean(&rest));
            }
            // Leave-one-out aggregate = aggregate against the other rows.
            let skip: Vec<Option<usize>> = (0..hyps.len()).map(Some).collect();
            let loo = grp.aggregate_skipping(&skip);
            for j in [0, hyps.len() / 2, hyps.len() - 1] {
                let others: Vec<&str> = refs.iter().enumerate().filter(|&(k, _)| k != j).map(|(_, r)| *r).collect();
                let want = aggregate_chrf(&[vec![hyps[j]]], &[others], &o).unwrap()[0][0];
                assert_eq!(loo[j], Some(want), "{ctx} leave-one-out aggregate {j}");
            }
            // Every pairwise value is sacrebleu-style sentence chrF of the pair.
            let cfg = o.config();
            for (j, h) in hyps.iter().enumerate() {
                for (k, r) in refs.iter().enumerate() {
                    assert_eq!(cfg.sentence_score(h, &[r]), Some(got[0][j][k]), "{ctx} [{j}][{k}]");
                }
            }
        }
        // sacrebleu sentence chrF of each pair agrees with the pairwise matrix.
        let sb: Vec<Vec<f64>> = g["sacrebleu_sentence_chrf"].as_array().unwrap().iter().map(floats).collect();
        if g["max_abs_diff_vs_sacrebleu"].as_f64().unwrap() == 0.0 {
            assert_rows_close(&sb, &exp_p, &ctx);
        }
    }
}
