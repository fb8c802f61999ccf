//! SQL behaviour of the UDFs, including golden parity through SQL.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use datafusion::arrow::array::{
    Array, ArrayRef, AsArray, Float64Array, LargeStringArray, ListBuilder, RecordBatch, StringArray, StringBuilder,
    StringViewArray,
};
use datafusion::arrow::datatypes::{DataType, Field, Float64Type, Int64Type, Schema};
use datafusion::datasource::MemTable;
use datafusion::prelude::SessionContext;
use mteval::session::{SessionOptions, new_context};

use crate::common::*;

pub(crate) fn ctx() -> SessionContext {
    new_context(&SessionOptions::default()).unwrap()
}

/// A session of `target_partitions` partitions and batches of `batch_size`
/// rows: an aggregate's state is split and must merge.
pub(crate) fn split_ctx(batch_size: usize, target_partitions: usize) -> SessionContext {
    new_context(&SessionOptions {
        batch_size: Some(batch_size),
        target_partitions: Some(target_partitions),
        ..Default::default()
    })
    .unwrap()
}

/// The shared WMT rows of `pair` (`data/wmt/{pair}.parquet`).
pub(crate) fn wmt_parquet(pair: &str) -> PathBuf {
    shared_dir().join(format!("data/wmt/{pair}.parquet"))
}

pub(crate) async fn query(ctx: &SessionContext, sql: &str) -> Vec<RecordBatch> {
    ctx.sql(sql).await.unwrap_or_else(|e| panic!("{sql}: {e}")).collect().await.unwrap_or_else(|e| panic!("{sql}: {e}"))
}

async fn query_err(ctx: &SessionContext, sql: &str) -> String {
    match ctx.sql(sql).await {
        Err(e) => e.to_string(),
        Ok(df) => match df.collect().await {
            Err(e) => e.to_string(),
            Ok(_) => panic!("expected an error from {sql}"),
        },
    }
}

/// Asserts that `sql` fails (planning or running) with an error containing every needle.
pub(crate) async fn query_fails_with(ctx: &SessionContext, sql: &str, needles: &[&str]) {
    let e = query_err(ctx, sql).await;
    for n in needles {
        assert!(e.contains(n), "{sql}: error lacks {n:?}: {e}");
    }
}

pub(crate) fn f64s(batches: &[RecordBatch], col: usize) -> Vec<Option<f64>> {
    batches.iter().flat_map(|b| b.column(col).as_primitive::<Float64Type>().iter().collect::<Vec<_>>()).collect()
}

/// `s` as a SQL string literal.
pub(crate) fn sql_str(s: &str) -> String {
    format!("'{}'", s.replace('\'', "''"))
}

/// A JSON list of strings as SQL string literals.
pub(crate) fn sql_strs(texts: &serde_json::Value) -> Vec<String> {
    texts.as_array().unwrap().iter().map(|t| sql_str(t.as_str().unwrap())).collect()
}

/// Checks `corpus_<metric>(hyp, ref, '{o}')` and `corpus_<metric>(hyp, [ref,
/// ref2], '{o}')` of every system in `path` against the golden `corpus`
/// records of `pair` and `variant`, where there is one; returns how many it checked.
pub(crate) async fn check_corpus_by_system(
    ctx: &SessionContext,
    metric: &str,
    path: &Path,
    o: &str,
    corpus: &[serde_json::Value],
    pair: &str,
    variant: &str,
) -> usize {
    let sql = format!(
        "SELECT system, corpus_{metric}(hyp, ref, '{o}'), corpus_{metric}(hyp, [ref, ref2], '{o}') FROM '{}' GROUP BY system",
        path.display()
    );
    let mut checked = 0;
    for b in query(ctx, &sql).await {
        let sys = b.column(0).as_string::<i32>();
        for i in 0..b.num_rows() {
            for (refs, col) in [("ref", 1), ("ref+ref2", 2)] {
                let got = b.column(col).as_primitive::<Float64Type>().value(i);
                if let Some(g) = find_corpus(corpus, pair, sys.value(i), refs, variant) {
                    assert!(
                        close(got, g["score"].as_f64().unwrap()),
                        "{pair} {variant} {refs} {} corpus",
                        sys.value(i)
                    );
                    checked += 1;
                }
            }
        }
    }
    checked
}

/// Registers `t(hyp, ref)` with the given string layout.
fn register_pairs(ctx: &SessionContext, dt: &DataType, hyps: &[Option<&str>], refs: &[Option<&str>]) {
    let mk = |v: &[Option<&str>]| -> ArrayRef {
        match dt {
            DataType::Utf8 => Arc::new(StringArray::from(v.to_vec())),
            DataType::LargeUtf8 => Arc::new(LargeStringArray::from(v.to_vec())),
            _ => Arc::new(StringViewArray::from(v.to_vec())),
        }
    };
    let schema = Arc::new(Schema::new(vec![Field::new("hyp", dt.clone(), true), Field::new("ref", dt.clone(), true)]));
    let b = RecordBatch::try_new(Arc::clone(&schema), vec![mk(hyps), mk(refs)]).unwrap();
    let _ = ctx.deregister_table("t");
    ctx.register_table("t", Arc::new(MemTable::try_new(schema, vec![vec![b]]).unwrap())).unwrap();
}

#[tokio::test]
async fn ter_over_every_string_layout_and_nulls() {
    let ctx = ctx();
    let hyps = [Some("c d e a b"), Some(""), None, Some("the cat"), Some("a b")];
    let refs = [Some("a b c d e"), Some("x y"), Some("a"), None, Some("")];
    for dt in [DataType::Utf8, DataType::LargeUtf8, DataType::Utf8View] {
        register_pairs(&ctx, &dt, &hyps, &refs);
        let b = query(&ctx, "SELECT ter(hyp, ref), ter(hyp, ref, 'case:mixed|norm:yes') FROM t").await;
        assert_eq!(f64s(&b, 0), vec![Some(20.0), Some(100.0), None, None, Some(100.0)], "{dt}");
        assert_eq!(f64s(&b, 1), vec![Some(20.0), Some(100.0), None, None, Some(100.0)], "{dt}");
        let b = query(&ctx, "SELECT corpus_ter(hyp, ref) FROM t").await;
        // Σ edits (1 + 2 + 2) / Σ len (5 + 2 + 0)
        assert_eq!(f64s(&b, 0), vec![Some(100.0 * (5.0 / 7.0))], "{dt}");
    }
}

#[tokio::test]
async fn ter_stats_struct_and_scalar_arguments() {
    let ctx = ctx();
    let b = query(&ctx, "SELECT ter_stats('c d e a b x', 'a b c d e') AS s").await;
    let s = b[0].column(0).as_struct();
    assert_eq!(s.column(0).as_primitive::<Float64Type>().value(0), 40.0);
    assert_eq!(s.column(1).as_primitive::<Int64Type>().value(0), 2);
    assert_eq!(s.column(2).as_primitive::<Int64Type>().value(0), 1);
    assert_eq!(s.column(3).as_primitive::<Float64Type>().value(0), 5.0);
    let b = query(&ctx, "SELECT ter_stats('a', NULL) AS s, ter(NULL, 'a') AS t").await;
    assert!(b[0].column(0).is_null(0));
    assert!(b[0].column(1).is_null(0));
    let b = query(&ctx, "SELECT ter_stats('c d e a b x', 'a b c d e')['num_shifts'] AS n").await;
    assert_eq!(b[0].column(0).as_primitive::<Int64Type>().value(0), 1);
    let b = query(&ctx, "SELECT ter_alignment('c d e a b x', 'a b c d e') AS a").await;
    assert_eq!(b[0].column(0).as_string::<i32>().value(0), ">= >= = = = I");
}

#[tokio::test]
async fn ter_multi_reference_lists() {
    let ctx = ctx();
    // Second reference is better; NULL list elements are dropped; empty/NULL lists give NULL.
    let b =
        query(&ctx, "SELECT ter('the cat is on the mat', ['there is a cat on the mat', 'a cat is on the mat'])").await;
    assert_eq!(f64s(&b, 0), vec![Some(100.0 / 6.5)]);
    let b = query(&ctx, "SELECT ter('a b c', ['a b d', NULL])").await;
    assert!((f64s(&b, 0)[0].unwrap() - 100.0 / 3.0).abs() < 1e-12);
    let b = query(&ctx, "SELECT ter('a b c', make_array(NULL, NULL)), ter('a', CAST(NULL AS VARCHAR))").await;
    assert_eq!(f64s(&b, 0), vec![None]);
    // A list column, with a NULL element and a NULL row.
    let mut lb = ListBuilder::new(StringBuilder::new());
    lb.values().append_value("a b c d e f g h");
    lb.values().append_value("a b");
    lb.append(true);
    lb.values().append_null();
    lb.values().append_value("x");
    lb.append(true);
    lb.append(false);
    let refs = lb.finish();
    let schema = Arc::new(Schema::new(vec![
        Field::new("hyp", DataType::Utf8, true),
        Field::new("refs", refs.data_type().clone(), true),
    ]));
    let batch = RecordBatch::try_new(
        Arc::clone(&schema),
        vec![Arc::new(StringArray::from(vec!["a b c", "x", "y"])), Arc::new(refs)],
    )
    .unwrap();
    ctx.register_table("m", Arc::new(MemTable::try_new(schema, vec![vec![batch]]).unwrap())).unwrap();
    let b = query(&ctx, "SELECT ter(hyp, refs) FROM m").await;
    assert_eq!(f64s(&b, 0), vec![Some(20.0), Some(0.0), None]);
    let b = query(&ctx, "SELECT corpus_ter(hyp, refs) FROM m").await;
    assert_eq!(f64s(&b, 0), vec![Some(100.0 * (1.0 / 6.0))]);
}

#[tokio::test]
async fn invalid_options_are_plan_errors() {
    let ctx = ctx();
    query_fails_with(&ctx, "SELECT ter('a', 'b', 'case:upper')", &["case:upper", "lc or mixed"]).await;
    query_fails_with(&ctx, "SELECT ter('a', 'b', 'colour:red')", &["unknown key 'colour'"]).await;
    register_pairs(&ctx, &DataType::Utf8, &[Some("a")], &[Some("b")]);
    query_fails_with(
        &ctx,
        "SELECT ter(h, r, r) FROM (VALUES ('a', 'b'), ('c', 'd')) AS v(h, r)",
        &["options must be a constant string"],
    )
    .await;
    query_fails_with(&ctx, "SELECT corpus_ter(hyp, ref, 'norm:maybe') FROM t", &["norm:maybe"]).await;
    query_fails_with(&ctx, "SELECT ter(1, 'a')", &["must be a string"]).await;
    // Each argument is checked as its documentation types it: a fractional
    // reference count is refused, not truncated; the arity error lists them.
    query_fails_with(&ctx, "SELECT mteval_signature('ter', '', 2.5)", &["mteval_signature: nrefs must be an integer"])
        .await;
    query_fails_with(&ctx, "SELECT mteval_signature()", &["takes (metric [, options] [, nrefs]), got 0 arguments"])
        .await;
    query_fails_with(&ctx, "SELECT meta_spa(1.0, 2.0, 'a')", &["takes (metric, gold, system, segment [, options])"])
        .await;
    let b = query(&ctx, "SELECT mteval_signature('ter', 'norm:yes|case:mixed', 2)").await;
    let sig = b[0].column(0).as_string::<i32>().value(0).to_owned();
    assert!(
        sig.starts_with("nrefs:2|case:mixed|tok:tercom|norm:yes|punct:yes|asian:no|version:2.6.0|impl:mteval-"),
        "{sig}"
    );
    // A printed signature pastes back as options.
    let b = query(&ctx, &format!("SELECT ter('A b', 'a b', '{sig}')")).await;
    assert_eq!(f64s(&b, 0), vec![Some(50.0)]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn golden_ter_through_sql() {
    let ctx = ctx();
    let golden = golden_by_segment("data/golden/ter_sentence.jsonl");
    let corpus = read_jsonl("data/golden/ter_corpus.jsonl");
    let dir = shared_dir().join("data/wmt");
    let mut checked = 0;
    for pair in PAIRS {
        let path = dir.join(format!("{pair}.parquet"));
        for variant in TER_VARIANTS {
            let o = ter_variant_options(variant);
            let sql = format!(
                "SELECT system, seg_id, ter(hyp, ref, '{o}') AS s, ter(hyp, [ref, ref2], '{o}') AS m FROM '{}' ORDER BY system, seg_id",
                path.display()
            );
            let batches = query(&ctx, &sql).await;
            for b in &batches {
                let sys = b.column(0).as_string::<i32>();
                let seg = b.column(1).as_primitive::<Int64Type>();
                let s = b.column(2).as_primitive::<Float64Type>();
                let m = b.column(3).as_primitive::<Float64Type>();
                for i in 0..b.num_rows() {
                    let g = &golden[&(pair.to_owned(), sys.value(i).to_owned(), seg.value(i))];
                    let exp = g["ter"][variant][0].as_f64().unwrap();
                    assert!(
                        close(s.value(i), exp),
                        "{pair} {variant} {} {}: {} vs {exp}",
                        sys.value(i),
                        seg.value(i),
                        s.value(i)
                    );
                    if g["ter_multi"].is_null() {
                        // en-ja has no second reference: the NULL element is dropped.
                        assert!(close(m.value(i), exp));
                    } else {
                        let expm = g["ter_multi"][variant][0].as_f64().unwrap();
                        assert!(close(m.value(i), expm), "{pair} {variant} multi");
                    }
                    checked += 1;
                }
            }
            // Corpus scores per system through the aggregate, single and multi-reference.
            check_corpus_by_system(&ctx, "ter", &path, o, &corpus, pair, variant).await;
        }
    }
    assert_eq!(checked, 7500 * 8);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn corpus_ter_is_partition_independent() {
    // Many partitions and small batches force partial states to be merged.
    let ctx = split_ctx(7, 4);
    let path = shared_dir().join("data/wmt/de-en.parquet");
    let sql =
        format!("SELECT system, corpus_ter(hyp, ref) AS c FROM '{}' GROUP BY system ORDER BY system", path.display());
    let b = query(&ctx, &sql).await;
    let got = f64s(&b, 1);
    let sys = b[0].column(0).as_string::<i32>();
    for (i, g) in got.iter().enumerate() {
        let e = golden_corpus("data/golden/ter_corpus.jsonl", "de-en", sys.value(i), "ref", "default");
        assert!(close(g.unwrap(), e));
    }
    let _ = Float64Array::from(vec![0.0]);
}

#[tokio::test]
async fn golden_edge_cases_through_sql() {
    let ctx = ctx();
    let rows = read_jsonl("data/golden/edge_cases.jsonl");
    let mut hyps = StringBuilder::new();
    let mut refs = ListBuilder::new(StringBuilder::new());
    let mut first = StringBuilder::new();
    for r in &rows {
        hyps.append_value(r["hyp"].as_str().unwrap());
        let rs: Vec<&str> = r["refs"].as_array().unwrap().iter().map(|x| x.as_str().unwrap()).collect();
        first.append_value(rs[0]);
        for x in &rs {
            refs.values().append_value(x);
        }
        refs.append(true);
    }
    let refs = refs.finish();
    let schema = Arc::new(Schema::new(vec![
        Field::new("hyp", DataType::Utf8, true),
        Field::new("ref", DataType::Utf8, true),
        Field::new("refs", refs.data_type().clone(), true),
    ]));
    let batch = RecordBatch::try_new(
        Arc::clone(&schema),
        vec![Arc::new(hyps.finish()), Arc::new(first.finish()), Arc::new(refs)],
    )
    .unwrap();
    ctx.register_table("e", Arc::new(MemTable::try_new(schema, vec![vec![batch]]).unwrap())).unwrap();
    for variant in TER_VARIANTS {
        let o = ter_variant_options(variant);
        let b = query(&ctx, &format!("SELECT ter(hyp, ref, '{o}'), ter(hyp, refs, '{o}') FROM e")).await;
        let single = f64s(&b, 0);
        let multi = f64s(&b, 1);
        for (i, r) in rows.iter().enumerate() {
            let e = r["ter"][variant]["score"].as_f64().unwrap();
            assert!(close(single[i].unwrap(), e), "{} {variant}", r["id"]);
            if let Some(m) = r["ter_multi"].get(variant) {
                assert!(close(multi[i].unwrap(), m["score"].as_f64().unwrap()), "{} {variant} multi", r["id"]);
            }
        }
    }
}

#[tokio::test]
async fn golden_ter_tokenize_through_sql() {
    let ctx = ctx();
    let rows = read_jsonl("data/golden/ter_tokenize.jsonl");
    let texts: Vec<&str> = rows.iter().map(|r| r["text"].as_str().unwrap()).collect();
    let schema = Arc::new(Schema::new(vec![Field::new("text", DataType::Utf8View, true)]));
    let batch = RecordBatch::try_new(Arc::clone(&schema), vec![Arc::new(StringViewArray::from(texts))]).unwrap();
    ctx.register_table("tok", Arc::new(MemTable::try_new(schema, vec![vec![batch]]).unwrap())).unwrap();
    for variant in TER_VARIANTS {
        let o = ter_variant_options(variant);
        let b = query(&ctx, &format!("SELECT ter_tokenize(text, '{o}') FROM tok")).await;
        let got: Vec<String> = b
            .iter()
            .flat_map(|b| b.column(0).as_string::<i32>().iter().map(|x| x.unwrap().to_owned()).collect::<Vec<_>>())
            .collect();
        for (r, g) in rows.iter().zip(&got) {
            let e: Vec<&str> = r["tokens"][variant].as_str().unwrap().split_whitespace().collect();
            assert_eq!(g, &e.join(" "), "{variant}: {}", r["text"]);
        }
    }
}

/// `compute_bleu` is sacrebleu's `BLEU.compute_bleu`: the values sacrebleu
/// 2.6.0 prints for these statistics (`BLEU.compute_bleu(correct, total,
/// sys_len, ref_len, smooth_method=..., smooth_value=..., effective_order=...,
/// max_ngram_order=len(correct))`), and over a system's summed `bleu_stats`
/// it is that system's `corpus_bleu`.
#[tokio::test]
async fn compute_bleu_is_sacrebleus_bleu_from_statistics() {
    let ctx = ctx();
    for (args, want) in [
        ("[0, 0, 0, 0], [4, 4, 2, 1], 0, 1", 0.0),
        ("[3, 1, 0, 0], [4, 3, 2, 1], 4, 5, 'smooth:exp'", 27.534_765_745_159_184),
        ("[3, 1, 0, 0], [4, 3, 2, 1], 4, 5, 'smooth:floor|smooth_value:0.1'", 14.643_803_168_582_156),
        ("[3, 1, 0, 0], [4, 3, 2, 1], 4, 5, 'smooth:add-k|smooth_value:1'", 38.940_039_153_570_254),
        ("[3, 1, 0, 0], [4, 3, 2, 0], 4, 5, 'smooth:exp|eff:yes'", 30.906_729_558_030_133),
        ("[5, 3], [6, 5], 6, 4", 70.710_678_118_654_71),
        ("[0, 0, 0, 0], [0, 0, 0, 0], 0, 0, 'smooth:exp'", 0.0),
    ] {
        let b = query(&ctx, &format!("SELECT compute_bleu({args})")).await;
        assert_eq!(f64s(&b, 0), vec![Some(want)], "{args}");
    }
    let t = wmt_parquet("en-de").display().to_string();
    let sums: Vec<String> = (1..=10).map(|i| format!("SUM(st[{i}])")).collect();
    let from_stats = query(
        &ctx,
        &format!(
            "WITH s AS (SELECT system, get_field(bleu_stats(hyp, ref), 'stats') AS st FROM '{t}') SELECT system, \
             compute_bleu([{}], [{}], {}, {}, 'smooth:exp') FROM s GROUP BY system ORDER BY system",
            sums[2..6].join(", "),
            sums[6..].join(", "),
            sums[0],
            sums[1]
        ),
    )
    .await;
    let corpus =
        query(&ctx, &format!("SELECT system, corpus_bleu(hyp, ref) FROM '{t}' GROUP BY system ORDER BY system")).await;
    let (a, b) = (f64s(&from_stats, 1), f64s(&corpus, 1));
    assert!(a.len() > 1 && a.iter().all(Option::is_some));
    assert_eq!(a, b);
    // NULL in, NULL out; bad shapes and types named.
    let b = query(&ctx, "SELECT compute_bleu([1, 0], [2, 1], NULL, 3)").await;
    assert_eq!(f64s(&b, 0), vec![None]);
    query_fails_with(&ctx, "SELECT compute_bleu([1, 0], [2], 2, 3)", &["compute_bleu", "one count per n-gram order"])
        .await;
    query_fails_with(&ctx, "SELECT compute_bleu('a', [2], 2, 3)", &["correct must be a list of integers"]).await;
    query_fails_with(&ctx, "SELECT compute_bleu([1], [2], 2, -3)", &["ref_len is -3"]).await;
    query_fails_with(&ctx, "SELECT compute_bleu([1], [2], 2, 3, 'smooth:nope')", &["compute_bleu", "smooth"]).await;
}

/// Every row of the metric table with standard SQL functions has them, and
/// they give its kernel's numbers bit for bit: `NAME` the sentence scores
/// (NULL for a NULL hypothesis or reference), `NAME_stats` the same score
/// in its `score` field where it has one, `corpus_NAME` the corpus state's
/// score on one partition and, merged from many partitions, the same up to
/// the order of float sums; bad options are refused when planned, naming
/// the function. A metric added to the table is checked here with no code
/// of its own.
#[tokio::test]
async fn every_metrics_standard_functions_give_its_kernel_numbers() {
    use mteval_kernels::metric::sql;
    use mteval_kernels::metrics::METRICS;
    let data = read_jsonl("data/wmt/de-en.jsonl");
    let mut hyps: Vec<Option<&str>> = data.iter().take(48).map(|r| r["hyp"].as_str()).collect();
    let mut refs: Vec<Option<&str>> = data.iter().take(48).map(|r| r["ref"].as_str()).collect();
    hyps.extend([None, Some("a lone hypothesis")]);
    refs.extend([Some("a reference"), None]);
    let (one, many) = (ctx(), split_ctx(5, 4));
    for c in [&one, &many] {
        register_pairs(c, &DataType::Utf8, &hyps, &refs);
    }
    let mut checked = 0;
    for info in METRICS.iter().copied() {
        let Some(fns) = info.sql else { continue };
        let corpus_metric = info.configure("").unwrap();
        let metric = fns.sentence_configure.map_or_else(|| corpus_metric.clone(), |f| f("").unwrap());
        let want: Vec<Option<f64>> = hyps
            .iter()
            .zip(&refs)
            .map(|(h, r)| match (h, r) {
                (Some(h), Some(r)) => metric.segment(h, &[r]).unwrap().and_then(|s| metric.sentence_score(&s)),
                _ => None,
            })
            .collect();
        let bits = |v: &[Option<f64>]| v.iter().map(|x| x.map(f64::to_bits)).collect::<Vec<_>>();
        if fns.sentence.is_some() {
            let got = f64s(&query(&one, &format!("SELECT {n}(hyp, ref) FROM t", n = info.name)).await, 0);
            assert_eq!(bits(&got), bits(&want), "{}", info.name);
            query_fails_with(&one, &format!("SELECT {}(hyp, ref, 'colour:red') FROM t", info.name), &[info.name]).await;
        }
        if let Some((_, fields)) = fns.stats
            && fields.iter().any(|f| f.name == "score")
        {
            let q = format!("SELECT get_field({}(hyp, ref), 'score') FROM t", sql::stats_name(info.name));
            assert_eq!(bits(&f64s(&query(&one, &q).await, 0)), bits(&want), "{q}");
        }
        if let Some((_, fields)) = fns.corpus
            && fields.is_empty()
        {
            let mut state = corpus_metric.corpus().unwrap();
            for (h, r) in hyps.iter().zip(&refs) {
                if let (Some(h), Some(r)) = (h, r) {
                    state.add(&corpus_metric.segment(h, &[r]).unwrap().unwrap());
                }
            }
            let q = format!("SELECT {}(hyp, ref) FROM t", sql::corpus_name(info.name));
            let got = f64s(&query(&one, &q).await, 0)[0].unwrap();
            assert_eq!(got.to_bits(), state.score().unwrap().to_bits(), "{q}");
            let merged = f64s(&query(&many, &q).await, 0)[0].unwrap();
            assert!((merged - got).abs() <= 1e-12 * got.abs().max(1.0), "{q}: {merged} merged vs {got}");
            let none = format!("{q} WHERE hyp IS NULL");
            assert_eq!(f64s(&query(&one, &none).await, 0), [None], "{none}");
        }
        checked += 1;
    }
    assert!(checked >= 9, "{checked} rows with standard functions");
}
