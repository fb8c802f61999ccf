//! The WER family through SQL (`wer`, `mer`, `wil`, `wip`, `wer_stats`,
//! `corpus_wer`, `wer_alignment`) against jiwer 4.0.0: the golden file of the
//! shared WMT systems (`tests/golden/wer.json`, `scripts/make_wer_golden.py`)
//! and jiwer's edge cases.

use datafusion::arrow::array::{Array, AsArray, RecordBatch, StructArray};
use datafusion::arrow::datatypes::{Float64Type, Int64Type};

use crate::common::*;
use crate::sql::{ctx, f64s, query, query_fails_with, split_ctx, wmt_parquet};

fn field<'a>(s: &'a StructArray, name: &str) -> &'a dyn Array {
    s.column_by_name(name).unwrap_or_else(|| panic!("no field {name}")).as_ref()
}

fn counts(s: &StructArray, i: usize) -> [u64; 4] {
    ["hits", "substitutions", "deletions", "insertions"]
        .map(|n| u64::try_from(field(s, n).as_primitive::<Int64Type>().value(i)).unwrap())
}

/// `corpus_wer` by system, one reference and the better of two, under many
/// partitions and small batches (the state must merge), equals jiwer's
/// `process_words` over each system's sentences, bit for bit.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn corpus_wer_matches_jiwer_on_the_shared_systems() {
    let golden = repo_golden("wer.json");
    let ctx = split_ctx(97, 4);
    let mut checked = 0;
    for case in golden["cases"].as_array().unwrap() {
        let pair = case["pair"].as_str().unwrap();
        let o = case["options"].as_str().unwrap();
        let path = wmt_parquet(pair);
        let sql = format!(
            "SELECT system, corpus_wer(hyp, ref, '{o}'), corpus_wer(hyp, [ref, ref2], '{o}') FROM '{}' GROUP BY system",
            path.display()
        );
        let systems: Vec<&str> = case["systems"].as_array().unwrap().iter().map(|s| s.as_str().unwrap()).collect();
        for b in query(&ctx, &sql).await {
            let sys = b.column(0).as_string::<i32>();
            for i in 0..b.num_rows() {
                let k = systems.iter().position(|s| *s == sys.value(i)).unwrap();
                for (col, key) in [(1, "corpus"), (2, "corpus_2refs")] {
                    let g = &case[key][k];
                    let s = b.column(col).as_struct();
                    let want = ["hits", "substitutions", "deletions", "insertions"].map(|n| g[n].as_u64().unwrap());
                    assert_eq!(counts(s, i), want, "{pair} {o} {} {key}", sys.value(i));
                    for m in ["wer", "mer", "wil", "wip"] {
                        let got = field(s, m).as_primitive::<Float64Type>().value(i);
                        assert_eq!(got.to_bits(), g[m].as_f64().unwrap().to_bits(), "{pair} {o} {key} {m}");
                    }
                    checked += 1;
                }
            }
        }
    }
    let systems: usize =
        golden["cases"].as_array().unwrap().iter().map(|c| c["systems"].as_array().unwrap().len()).sum();
    assert_eq!(checked, 2 * systems, "every system of every pair and option set");
}

/// `wer_stats` of every sentence (jiwer's `process_words(ref, hyp)` on that
/// sentence), and the four measures consistent with the counts.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sentence_counts_match_jiwer_on_the_shared_systems() {
    let golden = repo_golden("wer.json");
    let ctx = ctx();
    for case in golden["cases"].as_array().unwrap() {
        let pair = case["pair"].as_str().unwrap();
        let o = case["options"].as_str().unwrap();
        let path = wmt_parquet(pair);
        let sql = format!(
            "SELECT wer_stats(hyp, ref, '{o}'), wer(hyp, ref, '{o}'), mer(hyp, ref, '{o}'), wip(hyp, ref, '{o}'), \
             wil(hyp, ref, '{o}') FROM '{}' ORDER BY system, seg_id",
            path.display()
        );
        let batches: Vec<RecordBatch> = query(&ctx, &sql).await;
        let (mut digest, mut count) = (0u64, 0u64);
        for b in &batches {
            let s = b.column(0).as_struct();
            let m: Vec<_> = (1..5).map(|c| b.column(c).as_primitive::<Float64Type>()).collect();
            for i in 0..b.num_rows() {
                let [h, sb, d, ins] = counts(s, i);
                count += 1;
                digest = digest.wrapping_add(count.wrapping_mul(h + (sb << 16) + (d << 32) + (ins << 48)));
                let (n, p) = (h + sb + d, h + sb + ins);
                if n > 0 {
                    #[allow(clippy::cast_precision_loss, reason = "sentence counts are small")]
                    let (hf, nf, pf, e) = (h as f64, n as f64, p as f64, (sb + d + ins) as f64);
                    assert_eq!(m[0].value(i), e / nf, "{pair} {o} row {count}");
                    assert_eq!(m[1].value(i), e / (nf + ins as f64), "{pair} {o} row {count}");
                    let wip = if p > 0 { (hf / nf) * (hf / pf) } else { 0.0 };
                    assert_eq!((m[2].value(i), m[3].value(i)), (wip, 1.0 - wip), "{pair} {o} row {count}");
                }
            }
        }
        assert_eq!(count, case["sentence_count"].as_u64().unwrap());
        assert_eq!(digest.to_string(), case["sentence_digest"].as_str().unwrap(), "{pair} {o}");
    }
}

/// jiwer 4.0.0's values on small cases (each computed with jiwer: the
/// reference first there, the hypothesis first here).
#[tokio::test]
async fn measures_follow_jiwer_on_small_and_edge_cases() {
    let ctx = ctx();
    let one = |sql: String| {
        let ctx = ctx.clone();
        async move { f64s(&query(&ctx, &sql).await, 0)[0] }
    };
    // process_words("a b c d", "a x c d e"): H 3, S 1, I 1.
    assert_eq!(one("SELECT wer('a x c d e', 'a b c d')".into()).await, Some(0.5));
    assert_eq!(one("SELECT mer('a x c d e', 'a b c d')".into()).await, Some(0.4));
    assert_eq!(one("SELECT wip('a x c d e', 'a b c d')".into()).await, Some(0.75 * 0.6));
    assert_eq!(one("SELECT wil('a x c d e', 'a b c d')".into()).await, Some(1.0 - 0.75 * 0.6));
    // jiwer.cer("abcd", "axcde") = 0.5; spaces count at the character level.
    assert_eq!(one("SELECT wer('axcde', 'abcd', 'unit:char')".into()).await, Some(0.5));
    assert_eq!(one("SELECT wer('ab d', 'abd', 'unit:char')".into()).await, Some(1.0 / 3.0));
    // test_empty_ref.py: an empty reference gives wer = insertions, mer 1, wip 0.
    assert_eq!(one("SELECT wer('a b', '')".into()).await, Some(2.0));
    assert_eq!(one("SELECT mer('a b', '')".into()).await, Some(1.0));
    assert_eq!(one("SELECT wip('a b', '')".into()).await, Some(0.0));
    assert_eq!(one("SELECT wip('', '')".into()).await, Some(1.0));
    assert_eq!(one("SELECT wer('', '')".into()).await, Some(0.0));
    // An empty hypothesis: every reference word deleted.
    assert_eq!(one("SELECT wer('', 'a b c')".into()).await, Some(1.0));
    // wer_standardize: case, contractions, Kaldi non-words.
    assert_eq!(one("SELECT wer('It is [noise] fine', 'it''s fine', 'transform:standardize')".into()).await, Some(0.0));
    // The best of several references (fewest errors), NULL references skipped.
    assert_eq!(one("SELECT wer('a b c', ['x y z', 'a b c', NULL])".into()).await, Some(0.0));
    // NULL in, NULL out.
    assert_eq!(one("SELECT wer(NULL, 'a')".into()).await, None);
    assert_eq!(one("SELECT wer('a', CAST(NULL AS VARCHAR))".into()).await, None);
    let b = query(&ctx, "SELECT wer_stats('a x c d e', 'a b c d'), wer_stats(NULL, 'a')").await;
    assert_eq!(counts(b[0].column(0).as_struct(), 0), [3, 1, 0, 1]);
    assert!(b[0].column(1).is_null(0));
}

#[tokio::test]
async fn wer_alignment_prints_visualize_alignments_block() {
    let ctx = ctx();
    let b =
        query(&ctx, "SELECT wer_alignment('a x c d e', 'a b c d'), wer_alignment('axcde', 'abcd', 'unit:char')").await;
    // jiwer.visualize_alignment(process_words("a b c d", "a x c d e"), show_measures=False, skip_correct=False).
    assert_eq!(b[0].column(0).as_string::<i32>().value(0), "REF: a b c d *\nHYP: a x c d e\n       S     I");
    assert_eq!(b[0].column(1).as_string::<i32>().value(0), "REF: abcd*\nHYP: axcde\n      S  I");
}

#[tokio::test]
async fn corpus_wer_groups_and_refuses_bad_options() {
    let ctx = ctx();
    // jiwer.process_words(["a b c d", "x y"], ["a x c d e", "x y"]): H 5, S 1, D 0, I 1.
    let b = query(
        &ctx,
        "SELECT g, corpus_wer(h, r) AS c FROM (VALUES (1, 'a x c d e', 'a b c d'), (1, 'x y', 'x y'), \
         (2, NULL, 'q'), (1, NULL, 'z')) t(g, h, r) GROUP BY g ORDER BY g",
    )
    .await;
    let s = b[0].column(1).as_struct();
    assert_eq!(counts(s, 0), [5, 1, 0, 1]);
    assert_eq!(field(s, "wer").as_primitive::<Float64Type>().value(0), 2.0 / 6.0);
    assert_eq!(field(s, "wip").as_primitive::<Float64Type>().value(0), (5.0 / 6.0) * (5.0 / 7.0));
    assert!(s.is_null(1), "a group without a scored row is NULL");
    query_fails_with(&ctx, "SELECT wer('a', 'b', 'unit:letter')", &["wer", "word or char"]).await;
    query_fails_with(
        &ctx,
        "SELECT corpus_wer(h, r, 'colour:red') FROM (VALUES ('a', 'b')) t(h, r)",
        &["corpus_wer", "'colour'", "unit"],
    )
    .await;
}
