//! chrF, chrF++ and the MBR window functions through SQL, with golden parity.

use std::collections::HashMap;
use std::sync::Arc;

use datafusion::arrow::array::{Array, AsArray, Int64Array, RecordBatch, StringArray};
use datafusion::arrow::datatypes::{DataType, Field, Float64Type, Int64Type, Schema};
use datafusion::datasource::MemTable;
use datafusion::prelude::SessionContext;
use mteval_kernels::py::numpy_mean;

use crate::common::*;
use crate::sql::{
    check_corpus_by_system, ctx, f64s, query, query_fails_with, split_ctx, sql_str, sql_strs, wmt_parquet,
};

const VARIANTS: [(&str, &str); 4] =
    [("chrf", ""), ("chrf_eps", "eff:no"), ("chrfpp", "nw:2"), ("chrfpp_eps", "nw:2|eff:no")];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn golden_chrf_through_sql() {
    let ctx = ctx();
    let golden = golden_by_segment("data/golden/chrf_sentence.jsonl");
    let corpus = read_jsonl("data/golden/chrf_corpus.jsonl");
    let mut checked = 0;
    let mut corpus_checked = 0;
    for pair in PAIRS {
        let path = wmt_parquet(pair);
        for (variant, o) in VARIANTS {
            let sql = format!(
                "SELECT system, seg_id, chrf(hyp, ref, '{o}'), chrf(hyp, [ref, ref2], '{o}'), chrf_stats(hyp, ref, 'nw:2') FROM '{}'",
                path.display()
            );
            for b in query(&ctx, &sql).await {
                let sys = b.column(0).as_string::<i32>();
                let seg = b.column(1).as_primitive::<Int64Type>();
                let s = b.column(2).as_primitive::<Float64Type>();
                let m = b.column(3).as_primitive::<Float64Type>();
                let st = b.column(4).as_struct();
                for i in 0..b.num_rows() {
                    let g = &golden[&(pair.to_owned(), sys.value(i).to_owned(), seg.value(i))];
                    let exp = g["chrf"][variant].as_f64().unwrap();
                    assert!(close(s.value(i), exp), "{pair} {variant} {}: {} vs {exp}", sys.value(i), s.value(i));
                    let expm = if g["chrf_multi"].is_null() { exp } else { g["chrf_multi"][variant].as_f64().unwrap() };
                    assert!(close(m.value(i), expm), "{pair} {variant} multi");
                    let stats = st.column(2).as_list::<i32>().value(i);
                    let got: Vec<i64> = stats.as_primitive::<Int64Type>().values().to_vec();
                    let want: Vec<i64> =
                        g["chrfpp_stats"].as_array().unwrap().iter().map(|x| x.as_i64().unwrap()).collect();
                    assert_eq!(got, want);
                    checked += 1;
                }
            }
            corpus_checked += check_corpus_by_system(&ctx, "chrf", &path, o, &corpus, pair, variant).await;
        }
    }
    assert_eq!(checked, 7500 * 4);
    assert_eq!(corpus_checked, 108);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn corpus_chrf_is_partition_independent() {
    let ctx = split_ctx(7, 4);
    let path = shared_dir().join("data/wmt/en-de.parquet");
    let sql = format!(
        "SELECT system, corpus_chrf(hyp, [ref, ref2], 'nw:2') FROM '{}' GROUP BY system ORDER BY system",
        path.display()
    );
    let b = query(&ctx, &sql).await;
    let sys = b[0].column(0).as_string::<i32>();
    for (i, got) in f64s(&b, 1).iter().enumerate() {
        let g = golden_corpus("data/golden/chrf_corpus.jsonl", "en-de", sys.value(i), "ref+ref2", "chrfpp");
        assert!(close(got.unwrap(), g));
    }
}

#[tokio::test]
async fn chrf_edge_cases_nulls_and_options() {
    let ctx = ctx();
    for g in read_jsonl("data/golden/edge_cases.jsonl") {
        let refs = sql_strs(&g["refs"]);
        let sql = format!(
            "SELECT chrf({h}, {r0}), chrf({h}, [{all}], 'nw:2|eff:no')",
            h = sql_str(g["hyp"].as_str().unwrap()),
            r0 = refs[0],
            all = refs.join(", ")
        );
        let b = query(&ctx, &sql).await;
        let id = g["id"].as_str().unwrap();
        assert!(close(f64s(&b, 0)[0].unwrap(), g["chrf"]["chrf"]["score"].as_f64().unwrap()), "{id}");
        let key = if g["chrf_multi"].is_null() { "chrf" } else { "chrf_multi" };
        assert!(close(f64s(&b, 1)[0].unwrap(), g[key]["chrfpp_eps"]["score"].as_f64().unwrap()), "{id}");
    }
    let b =
        query(&ctx, "SELECT chrf(NULL, 'a'), chrf('a', NULL), chrf('a', [NULL, 'a']), chrf_stats('ab', 'abc')").await;
    assert_eq!(f64s(&b, 0), vec![None]);
    assert_eq!(f64s(&b, 1), vec![None]);
    assert_eq!(f64s(&b, 2), vec![Some(100.0)]);
    let s = b[0].column(3).as_struct();
    assert_eq!(s.column(0).as_primitive::<Float64Type>().value(0), 63.636363636363626);
    assert_eq!(s.column(1).as_primitive::<Int64Type>().value(0), 0);
    query_fails_with(&ctx, "SELECT chrf('a', 'b', 'nw:x')", &["chrf", "nw:x"]).await;
    query_fails_with(&ctx, "SELECT corpus_chrf('a', 'b', 'bogus:1')", &["bogus"]).await;
    query_fails_with(&ctx, "SELECT mbr_chrf('a', 'self:maybe') OVER ()", &["mbr_chrf", "self"]).await;
    let b = query(&ctx, "SELECT mteval_signature('chrf++'), mteval_signature('chrf', 'eff:no', 2)").await;
    let sig = b[0].column(0).as_string::<i32>().value(0).to_owned();
    assert!(sig.starts_with("nrefs:1|case:mixed|eff:yes|nc:6|nw:2|space:no|version:2.6.0|impl:mteval-"), "{sig}");
    let sig = b[0].column(1).as_string::<i32>().value(0).to_owned();
    assert!(sig.starts_with("nrefs:2|case:mixed|eff:no|nc:6|nw:0|"), "{sig}");
}

/// One `MemTable` of every golden MBR group: rows (group, hyp, `pseudo_ref`),
/// the shorter list padded with NULLs.
fn mbr_table(ctx: &SessionContext, groups: &[serde_json::Value]) {
    let (mut gid, mut hyp, mut rf) = (Vec::new(), Vec::new(), Vec::new());
    for (n, g) in groups.iter().enumerate() {
        let hs = g["hyps"].as_array().unwrap();
        let rs = g["refs"].as_array().unwrap();
        for i in 0..hs.len().max(rs.len()) {
            gid.push(n as i64);
            hyp.push(hs.get(i).map(|v| v.as_str().unwrap().to_owned()));
            rf.push(rs.get(i).map(|v| v.as_str().unwrap().to_owned()));
        }
    }
    let schema = Arc::new(Schema::new(vec![
        Field::new("g", DataType::Int64, false),
        Field::new("hyp", DataType::Utf8, true),
        Field::new("pref", DataType::Utf8, true),
    ]));
    let b = RecordBatch::try_new(
        Arc::clone(&schema),
        vec![Arc::new(Int64Array::from(gid)), Arc::new(StringArray::from(hyp)), Arc::new(StringArray::from(rf))],
    )
    .unwrap();
    let _ = ctx.deregister_table("m");
    ctx.register_table("m", Arc::new(MemTable::try_new(schema, vec![vec![b]]).unwrap())).unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn golden_mbr_window_functions() {
    let ctx = ctx();
    let mut all = read_jsonl("data/golden/fastchrf_mbr.jsonl");
    all.extend(read_jsonl("data/golden/fastchrf_synthetic64.jsonl"));
    let mut checked = 0;
    for (variant, o) in [("default", ""), ("eps_smoothing", "eff:no"), ("keep_whitespace", "space:yes")] {
        let groups: Vec<serde_json::Value> = all.iter().filter(|g| g["variant"] == variant).cloned().collect();
        mbr_table(&ctx, &groups);
        // Self groups use the hypotheses as pseudo-references; human groups the second column.
        let sql = format!(
            "SELECT g, hyp, mbr_chrf(hyp, '{o}') OVER (PARTITION BY g), mbr_chrf_aggregate(hyp, '{o}') OVER (PARTITION BY g), \
             mbr_chrf(hyp, pref, '{o}') OVER (PARTITION BY g), mbr_chrf_aggregate(hyp, pref, '{o}') OVER (PARTITION BY g) \
             FROM m ORDER BY g"
        );
        let mut seen: HashMap<i64, usize> = HashMap::new();
        for b in query(&ctx, &sql).await {
            let g = b.column(0).as_primitive::<Int64Type>();
            for i in 0..b.num_rows() {
                let grp = &groups[g.value(i) as usize];
                if b.column(1).is_null(i) {
                    for c in 2..6 {
                        assert!(b.column(c).is_null(i), "NULL hypothesis gives NULL");
                    }
                    continue;
                }
                let hyp = b.column(1).as_string::<i32>().value(i);
                let hyps: Vec<&str> = grp["hyps"].as_array().unwrap().iter().map(|v| v.as_str().unwrap()).collect();
                // Duplicate hypotheses have identical rows, so the first position is fine.
                let j = hyps.iter().position(|h| *h == hyp).unwrap();
                *seen.entry(g.value(i)).or_default() += 1;
                let row: Vec<f64> =
                    grp["pairwise"][j].as_array().unwrap().iter().map(|v| v.as_f64().unwrap()).collect();
                let mean = numpy_mean(&row).unwrap();
                let agg = grp["aggregate"][j].as_f64().unwrap();
                let col = |c: usize| b.column(c).as_primitive::<Float64Type>().value(i);
                let (pc, ac) = if grp["refs_kind"] == "self" { (2, 3) } else { (4, 5) };
                assert!(close(col(pc), mean), "{variant} group {} row {j}: {} vs {mean}", g.value(i), col(pc));
                assert!(close(col(ac), agg), "{variant} group {} aggregate", g.value(i));
                checked += 1;
            }
        }
        assert_eq!(seen.len(), groups.len());
    }
    assert!(checked > 2000, "{checked}");
}

#[tokio::test]
async fn mbr_self_exclusion_and_nulls() {
    let ctx = ctx();
    let schema =
        Arc::new(Schema::new(vec![Field::new("g", DataType::Int64, false), Field::new("hyp", DataType::Utf8, true)]));
    let hyps = vec![Some("the cat sat"), Some("the cat sat down"), None, Some("a dog"), Some("x")];
    let b = RecordBatch::try_new(
        Arc::clone(&schema),
        vec![Arc::new(Int64Array::from(vec![1, 1, 1, 1, 2])), Arc::new(StringArray::from(hyps))],
    )
    .unwrap();
    ctx.register_table("t", Arc::new(MemTable::try_new(schema, vec![vec![b]]).unwrap())).unwrap();
    let out = query(
        &ctx,
        "SELECT hyp, mbr_chrf(hyp) OVER w, mbr_chrf(hyp, 'self:no') OVER w, mbr_chrf_aggregate(hyp, 'self:no') OVER w \
         FROM t WINDOW w AS (PARTITION BY g) ORDER BY g, hyp NULLS FIRST",
    )
    .await;
    let cfg = mteval_kernels::FastChrfOptions::default().config();
    let chrf = |h: &str, r: &str| cfg.sentence_score(h, &[r]).unwrap();
    let group = ["the cat sat", "the cat sat down", "a dog"];
    let b = &out[0];
    assert!(b.column(1).is_null(0) && b.column(2).is_null(0), "NULL hypothesis gives NULL");
    for i in 1..b.num_rows() {
        let h = b.column(0).as_string::<i32>().value(i);
        let all = b.column(1).as_primitive::<Float64Type>();
        let loo = b.column(2).as_primitive::<Float64Type>();
        if h == "x" {
            assert_eq!(all.value(i), 100.0);
            assert!(loo.is_null(i), "nothing left once the row itself is excluded");
            assert!(b.column(3).is_null(i));
            continue;
        }
        let row: Vec<f64> = group.iter().map(|r| chrf(h, r)).collect();
        assert_eq!(all.value(i), numpy_mean(&row).unwrap());
        let rest: Vec<f64> = group.iter().filter(|r| **r != h).map(|r| chrf(h, r)).collect();
        assert_eq!(loo.value(i), numpy_mean(&rest).unwrap());
        let others: Vec<&str> = group.iter().copied().filter(|r| *r != h).collect();
        let agg =
            mteval_kernels::chrf::aggregate_chrf(&[vec![h]], &[others], &mteval_kernels::FastChrfOptions::default())
                .unwrap()[0][0];
        assert_eq!(b.column(3).as_primitive::<Float64Type>().value(i), agg);
    }
}
