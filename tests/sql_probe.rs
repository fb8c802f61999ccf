//! What a bad-input probe found in SQL: `DISTINCT` in every aggregate and
//! window function, `ter_alignment`'s length limit, the metric argument of
//! the resampling aggregates named as such, BLEU's smoothing value bound.

use crate::sql::{ctx, f64s, query, query_fails_with};

/// A table with a repeated row, a baseline column, terms and lemmas.
async fn probe_table() -> datafusion::prelude::SessionContext {
    let ctx = ctx();
    query(
        &ctx,
        "CREATE TABLE t AS SELECT column1 AS h, column2 AS r, column3 AS b, \
         make_array(make_array('a')) AS terms, \
         make_array(named_struct('lemma', substr(column1, 1, 1), 'start', 0, 'end', 1), \
                    named_struct('lemma', substr(column1, 3, 1), 'start', 2, 'end', 3)) AS lemmas \
         FROM (VALUES ('a b', 'a b', 'a c'), ('a b', 'a b', 'a c'), ('x y', 'x z', 'x y'))",
    )
    .await;
    ctx
}

/// Every aggregate (and window) call of mteval with `DISTINCT` in it, and
/// the same call without: each metric's standard `corpus_NAME` (from the
/// metric table), then the others.
fn calls() -> Vec<(String, String)> {
    let standard =
        mteval_kernels::metrics::METRICS.iter().filter(|m| m.sql.is_some_and(|s| s.corpus.is_some())).map(|m| {
            let name = mteval_kernels::metric::sql::corpus_name(m.name);
            (format!("{name}(DISTINCT h, r)"), format!("{name}(h, r)"))
        });
    let others = [
        ("corpus_chrf(DISTINCT h, r, 'nw:2')", "corpus_chrf(h, r, 'nw:2')"),
        ("corpus_charac_ter(DISTINCT h, r)", "corpus_charac_ter(h, r)"),
        ("corpus_bootstrap(DISTINCT h, r, 'bleu')", "corpus_bootstrap(h, r, 'bleu')"),
        ("paired_test(DISTINCT h, b, r, 'ter')", "paired_test(h, b, r, 'ter')"),
        ("corpus_term_accuracy(DISTINCT h, terms)", "corpus_term_accuracy(h, terms)"),
        (
            "corpus_term_accuracy_lemmatized(DISTINCT h, lemmas, terms)",
            "corpus_term_accuracy_lemmatized(h, lemmas, terms)",
        ),
        ("meta_corr(DISTINCT length(h), length(r))", "meta_corr(length(h), length(r))"),
        ("meta_tie_opt(DISTINCT length(h), length(r))", "meta_tie_opt(length(h), length(r))"),
        // Each row its own system (the rows repeat), one segment.
        ("meta_spa(DISTINCT length(h), length(r), random(), 1)", "meta_spa(length(h), length(r), random(), 1)"),
        // Each row its own system, one segment.
        ("comet_compare(DISTINCT length(h), random(), 1)", "comet_compare(length(h), random(), 1)"),
    ];
    standard.chain(others.into_iter().map(|(d, p)| (d.to_owned(), p.to_owned()))).collect()
}

#[tokio::test]
async fn distinct_is_refused_by_every_aggregate_and_window_function() {
    let ctx = probe_table().await;
    // The issue's case: DISTINCT was ignored (16.67 twice; 25 is the DISTINCT corpus).
    let b = query(&ctx, "SELECT corpus_ter(h, r) FROM t").await;
    assert_eq!(f64s(&b, 0), vec![Some(100.0 * (1.0 / 6.0))]);
    let b = query(&ctx, "SELECT corpus_ter(h, r) FROM (SELECT DISTINCT h, r FROM t)").await;
    assert_eq!(f64s(&b, 0), vec![Some(25.0)]);
    let mut names = Vec::new();
    for (distinct, plain) in calls() {
        let name = plain.split('(').next().unwrap().to_owned();
        names.push(name.clone());
        // Without DISTINCT it runs.
        query(&ctx, &format!("SELECT {plain} FROM t")).await;
        let hint = format!("SELECT {name}(h, r) FROM (SELECT DISTINCT h, r FROM t)");
        query_fails_with(
            &ctx,
            &format!("SELECT {distinct} FROM t"),
            &[&format!("{name} does not take DISTINCT"), &hint],
        )
        .await;
        // In a GROUP BY, beside another aggregate, and as a window.
        query_fails_with(
            &ctx,
            &format!("SELECT b, {distinct}, count(*) FROM t GROUP BY b"),
            &["does not take DISTINCT"],
        )
        .await;
        query_fails_with(&ctx, &format!("SELECT {distinct} OVER (PARTITION BY b) FROM t"), &["does not take DISTINCT"])
            .await;
    }
    let mut registered: Vec<String> = mteval_udfs::aggregate_functions().iter().map(|f| f.name().to_owned()).collect();
    registered.sort();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names, registered, "every aggregate function is tested");
    for w in ["mbr_chrf(DISTINCT h)", "mbr_chrf_aggregate(DISTINCT h, 'nw:2')"] {
        query(&ctx, &format!("SELECT {} OVER (PARTITION BY b) FROM t", w.replace("DISTINCT ", ""))).await;
        query_fails_with(&ctx, &format!("SELECT {w} OVER (PARTITION BY b) FROM t"), &["does not take DISTINCT"]).await;
    }
}

#[tokio::test]
async fn distinct_is_refused_where_the_plan_check_is_skipped() {
    // With failed optimizer rules skipped, the plan-time check cannot stop
    // the query; the accumulator refuses it when it runs (as for a function
    // called through datafusion-ffi, which forwards no plan-time hook).
    let ctx = probe_table().await;
    query(&ctx, "SET datafusion.optimizer.skip_failed_rules = true").await;
    for (distinct, _) in calls() {
        let name = distinct.split('(').next().unwrap();
        query_fails_with(&ctx, &format!("SELECT {distinct} FROM t"), &[&format!("{name} does not take DISTINCT")])
            .await;
    }
}

#[tokio::test]
async fn ter_alignment_applies_the_length_limit() {
    let ctx = ctx();
    let long = vec!["w"; 5_001].join(" ");
    query(&ctx, &format!("CREATE TABLE l AS SELECT '{long}' AS h, 'w w' AS r")).await;
    query_fails_with(
        &ctx,
        "SELECT ter_alignment(h, r) FROM l",
        &["ter_alignment", "hypothesis has 5001 words", "over the limit of 5000", "max_words"],
    )
    .await;
    query_fails_with(&ctx, "SELECT ter_alignment('a b c d', 'a b', 'max_words:3')", &["over the limit of 3"]).await;
    let b = query(&ctx, "SELECT ter_alignment(h, r, 'max_words:6000') AS a FROM l").await;
    let a = datafusion::arrow::array::AsArray::as_string::<i32>(b[0].column(0)).value(0).to_owned();
    let ops: Vec<&str> = a.split(' ').collect();
    assert_eq!(ops.len(), 5_001);
    assert_eq!(ops.iter().filter(|o| **o == "=").count(), 2);
    assert_eq!(ops.iter().filter(|o| **o == "I").count(), 4_999);
}

#[tokio::test]
async fn the_metric_argument_is_named_in_errors() {
    let ctx = crate::sql::ctx();
    query(&ctx, "CREATE TABLE t AS SELECT 'a b' AS h, 'a c' AS b, 'a b' AS r, 'bleu' AS m").await;
    for sql in ["SELECT corpus_bootstrap(h, r, m) FROM t", "SELECT paired_test(h, b, r, m) FROM t"] {
        query_fails_with(&ctx, sql, &["the metric must be a constant string such as 'chrf'", "not a column"]).await;
    }
    query_fails_with(&ctx, "SELECT corpus_bootstrap(h, r, 7) FROM t", &["the metric must be a string literal"]).await;
    query_fails_with(&ctx, "SELECT corpus_bootstrap(h, r, 'bleu', r) FROM t", &["options must be a constant string"])
        .await;
}

#[tokio::test]
async fn bleu_smoothing_values_that_overflow_are_refused() {
    let ctx = ctx();
    for o in ["smooth:floor|smooth_value:1e308", "smooth:add-k|smooth_value:1e301", "smooth:floor[1e308]"] {
        query_fails_with(&ctx, &format!("SELECT bleu('a b c', 'a b d e', '{o}')"), &["a number from 0 to 1e300"]).await;
        query_fails_with(
            &ctx,
            &format!("SELECT corpus_bleu(h, r, '{o}') FROM (VALUES ('a', 'b')) v(h, r)"),
            &["a number from 0 to 1e300"],
        )
        .await;
    }
    // The bound itself gives a finite score, as large as sacrebleu's.
    let b = query(&ctx, "SELECT corpus_bleu(h, r, 'smooth:floor|smooth_value:1e300') FROM (VALUES ('a b c d e', 'a b x d e f')) v(h, r)").await;
    let s = f64s(&b, 0)[0].unwrap();
    assert!(s.is_finite() && s > 1e100, "{s}");
}

/// WER through the metric interface alone (its row in the metric table):
/// `segment_stats` gives jiwer 4.0.0's numbers.
#[tokio::test]
async fn wer_works_through_the_metric_table_alone() {
    let ctx = ctx();
    // Statistics: [hits, substitutions, deletions, insertions, ref_len, hyp_len].
    let q = "SELECT s['score'] AS w, s['stats'][1] AS hits, s['stats'][3] AS del, s['stats'][4] AS ins \
             FROM (SELECT i, segment_stats(h, r, 'wer') AS s FROM (VALUES (1, 'the cat sit on mat', \
             'the cat sat on the mat'), (2, 'a x b c d', 'a b c')) t(i, h, r)) ORDER BY i";
    let b = query(&ctx, q).await;
    // jiwer.process_words(ref, hyp) per sentence: wer, hits, deletions, insertions.
    assert_eq!(f64s(&b, 0), vec![Some(1.0 / 3.0), Some(2.0 / 3.0)]);
    assert_eq!(f64s(&b, 1), vec![Some(4.0), Some(3.0)]);
    assert_eq!(f64s(&b, 2), vec![Some(1.0), Some(0.0)]);
    assert_eq!(f64s(&b, 3), vec![Some(0.0), Some(2.0)]);
    let c = query(&ctx, "SELECT segment_stats('abd  d', 'abc d', 'wer', 'unit:char')['score']").await;
    assert_eq!(f64s(&c, 0), vec![Some(0.4)]); // jiwer.cer
}
