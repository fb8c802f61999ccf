//! `CharacTER`, edit distances and terminology match accuracy through SQL,
//! with golden parity (cer 1.2.0 / original `CharacTER`; CBS `match_accuracy`).

use std::collections::HashMap;
use std::path::Path;

use datafusion::arrow::array::{Array, AsArray};
use datafusion::arrow::datatypes::{Float64Type, Int64Type};
use mteval::session::{SessionOptions, new_context};
use mteval_kernels::levenshtein::reference_distance;

use crate::common::*;
use crate::sql::{ctx, f64s, query, query_fails_with, split_ctx, sql_str, sql_strs, wmt_parquet};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn golden_charac_ter_through_sql() {
    let ctx = ctx();
    let golden = golden_by_segment("data/golden/cer_sentence.jsonl");
    let (mut checked, mut differ) = (0, 0);
    for pair in PAIRS {
        let path = wmt_parquet(pair);
        let sql = format!(
            "SELECT system, seg_id, charac_ter(hyp, ref, 'compat:cer'), charac_ter(hyp, ref2, 'compat:cer'), \
             charac_ter(hyp, ref), charac_ter(hyp, [ref, ref2]) FROM '{}'",
            path.display()
        );
        for b in query(&ctx, &sql).await {
            let sys = b.column(0).as_string::<i32>();
            let seg = b.column(1).as_primitive::<Int64Type>();
            let cols: Vec<_> = (2..6).map(|c| b.column(c).as_primitive::<Float64Type>()).collect();
            for i in 0..b.num_rows() {
                let g = &golden[&(pair.to_owned(), sys.value(i).to_owned(), seg.value(i))];
                assert!(close(cols[0].value(i), g["cer"].as_f64().unwrap()), "{pair} {i}");
                if let Some(w) = g["cer_ref2"].as_f64() {
                    assert!(close(cols[1].value(i), w), "{pair} {i} ref2");
                    // Multi-reference = the lower of the two (original arithmetic).
                    assert!(cols[3].value(i) <= cols[2].value(i));
                } else {
                    assert!(cols[1].is_null(i));
                    assert_eq!(cols[3].value(i), cols[2].value(i));
                }
                differ += usize::from(!close(cols[2].value(i), g["cer"].as_f64().unwrap()));
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 7500);
    assert!(differ <= 3, "original vs cer differ on {differ} rows");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn corpus_charac_ter_matches_calculate_cer_corpus_across_partitions() {
    let golden = read_jsonl("data/golden/cer_corpus.jsonl");
    // Many partitions and tiny batches: the state (score lists) must merge.
    let ctx = split_ctx(37, 4);
    let mut checked = 0;
    for pair in PAIRS {
        let path = wmt_parquet(pair);
        let sql = format!(
            "SELECT system, corpus_charac_ter(hyp, ref, 'compat:cer') AS a, corpus_charac_ter(hyp, ref2, 'compat:cer') AS b \
             FROM '{}' GROUP BY system",
            path.display()
        );
        for b in query(&ctx, &sql).await {
            let sys = b.column(0).as_string::<i32>();
            for i in 0..b.num_rows() {
                for (col, refs) in [(1, "ref"), (2, "ref2")] {
                    let Some(g) =
                        golden.iter().find(|g| g["pair"] == pair && g["system"] == sys.value(i) && g["refs"] == refs)
                    else {
                        assert!(b.column(col).is_null(i), "{pair} {refs}: no golden, expected NULL");
                        continue;
                    };
                    let st = b.column(col).as_struct();
                    assert_eq!(st.column(0).as_primitive::<Int64Type>().value(i), g["count"].as_i64().unwrap());
                    for (k, f) in ["mean", "median", "std", "min", "max"].iter().enumerate() {
                        let got = st.column(k + 1).as_primitive::<Float64Type>().value(i);
                        assert!(
                            close(got, g[*f].as_f64().unwrap()),
                            "{pair} {} {refs} {f}: {got} vs {}",
                            sys.value(i),
                            g[*f]
                        );
                    }
                    checked += 1;
                }
            }
        }
    }
    assert_eq!(checked, 27);
    // One row: std is NULL; no row: NULL struct.
    let b = query(&ctx, "SELECT corpus_charac_ter('a b c', 'a b d') AS s").await;
    let st = b[0].column(0).as_struct();
    assert!(st.column(3).is_null(0));
    assert_eq!(st.column(1).as_primitive::<Float64Type>().value(0), 0.2);
    let b = query(&ctx, "SELECT corpus_charac_ter(h, r) FROM (VALUES (NULL, 'a')) AS t(h, r)").await;
    assert!(b[0].column(0).is_null(0));

    // `scores:yes` also lists the sentence scores (cer's `cer_scores`), in
    // row order on one partition; without it the list is NULL.
    let one = new_context(&SessionOptions::default()).unwrap();
    let rows = "(VALUES (1, 'the cat sat', 'a cat sat'), (2, NULL, 'x'), (3, 'hello world', 'hello there world'), \
                (4, 'a b c d', 'a b c d')) AS t(i, h, r)";
    let b = query(&one, &format!("SELECT corpus_charac_ter(h, r, 'scores:yes|compat:cer') AS s FROM {rows}")).await;
    let st = b[0].column(0).as_struct();
    let list = st.column_by_name("cer_scores").unwrap().as_list::<i32>();
    let got: Vec<f64> = list.value(0).as_primitive::<Float64Type>().values().to_vec();
    let b =
        query(&one, &format!("SELECT charac_ter(h, r, 'compat:cer') AS c FROM {rows} WHERE h IS NOT NULL ORDER BY i"))
            .await;
    let want: Vec<f64> = b.iter().flat_map(|b| b.column(0).as_primitive::<Float64Type>().values().to_vec()).collect();
    assert_eq!(got, want);
    assert_eq!(st.column_by_name("count").unwrap().as_primitive::<Int64Type>().value(0), 3);
    let b = query(&one, &format!("SELECT corpus_charac_ter(h, r) AS s FROM {rows}")).await;
    assert!(b[0].column(0).as_struct().column_by_name("cer_scores").unwrap().is_null(0));
    query_fails_with(
        &one,
        &format!("SELECT corpus_charac_ter(h, r, 'scores:maybe') AS s FROM {rows}"),
        &["scores:maybe: expected yes or no"],
    )
    .await;
}

#[tokio::test]
async fn charac_ter_edge_cases_nulls_and_options() {
    let ctx = ctx();
    for g in read_jsonl("data/golden/edge_cases.jsonl") {
        let sql = format!(
            "SELECT charac_ter({}, [{}])",
            sql_str(g["hyp"].as_str().unwrap()),
            sql_strs(&g["refs"]).join(", ")
        );
        let got = f64s(&query(&ctx, &sql).await, 0)[0].unwrap();
        // Expected: the lowest per-reference value; cer's ZeroDivisionError
        // (empty reference) is the original's 1.0.
        let want = g["cer"].as_array().unwrap().iter().map(|v| v.as_f64().unwrap_or(1.0)).fold(f64::INFINITY, f64::min);
        assert!(close(got, want), "{}: {got} vs {want}", g["id"]);
    }
    let b = query(
        &ctx,
        "SELECT charac_ter(NULL, 'a'), charac_ter('a', NULL), charac_ter('a', [NULL, 'a']), \
         charac_ter(arrow_cast('x y', 'LargeUtf8'), arrow_cast('y x', 'Utf8View'))",
    )
    .await;
    assert!(b[0].column(0).is_null(0) && b[0].column(1).is_null(0));
    assert_eq!(f64s(&b, 2)[0], Some(0.0));
    assert_eq!(f64s(&b, 3)[0], Some(1.0 / 3.0));
    query_fails_with(&ctx, "SELECT charac_ter('a', 'b', 'fuzzy:2')", &["charac_ter", "fuzzy"]).await;
    query_fails_with(&ctx, "SELECT charac_ter('a', 'b', 'beam:1')", &["unknown key 'beam'"]).await;
    // Drift example: the two compat modes differ as documented.
    let b = query(
        &ctx,
        "SELECT charac_ter('ccc dddd of bb the dddd', 'the dddd ccc ccc ccc bb'), \
         charac_ter('ccc dddd of bb the dddd', 'the dddd ccc ccc ccc bb', 'compat:cer')",
    )
    .await;
    assert_eq!(f64s(&b, 0)[0], Some(0.42391304347826086));
    assert_eq!(f64s(&b, 1)[0], Some(0.6086956521739131));
    let b = query(&ctx, "SELECT mteval_signature('charac_ter', 'compat:cer|fuzzy:0.2')").await;
    assert!(
        b[0].column(0).as_string::<i32>().value(0).starts_with("nrefs:1|tok:split|compat:cer|fuzzy:0.2|version:1.2.0|")
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn edit_distances_equal_the_textbook_dp() {
    let ctx = ctx();
    let path = shared_dir().join("data/wmt/zh-en.parquet");
    let sql = format!(
        "SELECT hyp, ref, edit_distance(hyp, ref), word_edit_distance(hyp, ref) FROM '{}' WHERE hyp IS NOT NULL",
        path.display()
    );
    let mut n = 0;
    for b in query(&ctx, &sql).await {
        let (h, r) = (b.column(0).as_string::<i32>(), b.column(1).as_string::<i32>());
        let (c, w) = (b.column(2).as_primitive::<Int64Type>(), b.column(3).as_primitive::<Int64Type>());
        for i in (0..b.num_rows()).step_by(5) {
            let (hc, rc): (Vec<char>, Vec<char>) = (h.value(i).chars().collect(), r.value(i).chars().collect());
            assert_eq!(c.value(i) as usize, reference_distance(&hc, &rc));
            let (hw, rw): (Vec<&str>, Vec<&str>) =
                (h.value(i).split_whitespace().collect(), r.value(i).split_whitespace().collect());
            assert_eq!(w.value(i) as usize, reference_distance(&hw, &rw));
            n += 1;
        }
    }
    assert!(n > 200);
    let b = query(
        &ctx,
        "SELECT edit_distance('kitten', NULL), edit_distance('', 'abc'), word_edit_distance(' a  b ', 'a b')",
    )
    .await;
    assert!(b[0].column(0).is_null(0));
    assert_eq!(b[0].column(1).as_primitive::<Int64Type>().value(0), 3);
    assert_eq!(b[0].column(2).as_primitive::<Int64Type>().value(0), 0);
}

/// The golden terminology cases as a JSONL table `(id, hyp, terms, lemmas)`.
pub(crate) fn write_terms_table(dir: &Path, filter: impl Fn(&serde_json::Value) -> bool) -> std::path::PathBuf {
    let p = dir.join("terms.jsonl");
    let mut text = String::new();
    for r in read_jsonl("data/golden/terms_cases.jsonl").into_iter().filter(|r| filter(r)) {
        let row = serde_json::json!({
            "id": r["id"], "pair": r["pair"], "system": r["system"], "hyp": r["hyp"], "terms": r["terms"], "lemmas": r["lemmas"],
        });
        text.push_str(&row.to_string());
        text.push('\n');
    }
    std::fs::write(&p, text).unwrap();
    p
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn golden_term_match_through_sql() {
    let dir = tempfile::tempdir().unwrap();
    let path = write_terms_table(dir.path(), |_| true);
    let ctx = ctx();
    let golden: HashMap<String, serde_json::Value> = read_jsonl("data/golden/terms_cases.jsonl")
        .into_iter()
        .map(|r| (r["id"].as_str().unwrap().to_owned(), r))
        .collect();
    let errors: Vec<&String> = golden.keys().filter(|k| golden[*k]["exact_matched"].is_object()).collect();
    assert!(!errors.is_empty());
    let ok_list = golden.keys().filter(|k| !errors.contains(k)).map(|k| format!("'{k}'")).collect::<Vec<_>>().join(",");
    let sql = format!(
        "SELECT id, term_match(hyp, terms) AS e, term_match_lemmatized(hyp, lemmas, terms) AS l FROM '{}' WHERE id IN ({ok_list})",
        path.display()
    );
    let mut n = 0;
    for b in query(&ctx, &sql).await {
        let ids = b.column(0).as_string::<i32>();
        let (e, l) = (b.column(1).as_struct(), b.column(2).as_struct());
        for i in 0..b.num_rows() {
            let g = &golden[ids.value(i)];
            let int = |s: &datafusion::arrow::array::StructArray, f: &str| {
                s.column_by_name(f).unwrap().as_primitive::<Int64Type>().value(i)
            };
            let dropped = g["dropped_empty"].as_bool().unwrap();
            assert_eq!(int(l, "matched"), g["lemmatized_matched"].as_i64().unwrap(), "{}", ids.value(i));
            assert_eq!(int(l, "exact"), g["exact_matched"].as_i64().unwrap(), "{}", ids.value(i));
            assert_eq!(int(l, "total") - int(l, "matched"), g["wrong"].as_i64().unwrap(), "{}", ids.value(i));
            assert_eq!(int(e, "matched"), g["exact_matched"].as_i64().unwrap(), "{}", ids.value(i));
            assert_eq!(int(e, "total"), g["n_terms"].as_i64().unwrap());
            assert_eq!(e.column_by_name("dropped").unwrap().as_boolean().value(i), dropped);
            if !dropped {
                assert_eq!(int(e, "matched"), g["exact_direct"].as_i64().unwrap(), "{}", ids.value(i));
            }
            n += 1;
        }
    }
    assert_eq!(n, golden.len() - errors.len());
    // The reference's assertion failures are errors naming the row and the reason.
    for id in errors {
        let reason = golden[id]["exact_matched"]["error"].as_str().unwrap();
        let sql =
            format!("SELECT term_match_lemmatized(hyp, lemmas, terms) FROM '{}' WHERE id = '{id}'", path.display());
        query_fails_with(&ctx, &sql, &["row 0", reason.split(':').next().unwrap()]).await;
        // The exact variant has no lemma mapping and works.
        let sql = format!("SELECT term_match(hyp, terms) FROM '{}' WHERE id = '{id}'", path.display());
        let b = query(&ctx, &sql).await;
        let st = b[0].column(0).as_struct();
        assert_eq!(st.column(0).as_primitive::<Int64Type>().value(0), golden[id]["exact_direct"].as_i64().unwrap());
    }
    // NULL in, NULL out.
    let b =
        query(&ctx, "SELECT term_match(NULL, [['a']]), term_match('a', NULL), term_match('a b', [['a', NULL], ['b']])")
            .await;
    assert!(b[0].column(0).is_null(0) && b[0].column(1).is_null(0));
    assert_eq!(b[0].column(2).as_struct().column(0).as_primitive::<Int64Type>().value(0), 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn golden_corpus_term_accuracy() {
    let dir = tempfile::tempdir().unwrap();
    let path = write_terms_table(dir.path(), |_| true);
    let ctx = split_ctx(50, 3);
    let mut checked = 0;
    for c in read_jsonl("data/golden/terms_corpus.jsonl") {
        let ids: Vec<String> =
            c["case_ids"].as_array().unwrap().iter().map(|v| format!("'{}'", v.as_str().unwrap())).collect();
        let sql = format!(
            "SELECT corpus_term_accuracy(hyp, terms), corpus_term_accuracy_lemmatized(hyp, lemmas, terms) FROM '{}' WHERE id IN ({})",
            path.display(),
            ids.join(",")
        );
        let r = &c["result"];
        match r.get("error").and_then(|e| e.as_str()) {
            Some(e) if e.starts_with("ZeroDivisionError") => {
                let b = query(&ctx, &sql).await;
                assert!(b[0].column(0).is_null(0) && b[0].column(1).is_null(0), "{}", c["id"]);
            }
            Some(e) => {
                query_fails_with(&ctx, &sql, &[e.split(':').next().unwrap()]).await;
            }
            None => {
                let b = query(&ctx, &sql).await;
                let (ema, lma) = (f64s(&b, 0)[0].unwrap(), f64s(&b, 1)[0].unwrap());
                assert!(close(ema, r["exact match accuracy"].as_f64().unwrap()), "{}", c["id"]);
                assert!(close(lma, r["lemmatized match accuracy"].as_f64().unwrap()), "{}", c["id"]);
            }
        }
        checked += 1;
    }
    assert_eq!(checked, 20);
}
