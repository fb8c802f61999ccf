//! What a bad-input probe found in the meta-evaluation (issue 56): NaN and
//! infinite scores refused with their row by `meta_corr`, `meta_tie_opt`
//! and `mteval meta` alike (mt-metrics-eval has no rule for them), Kendall's
//! tau on a NaN no longer spinning, Pearson the same under any partitioning,
//! and `mteval meta`'s rows, `--exclude` names, Kendall-only flags and pair
//! limits checked before any work.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use datafusion::arrow::array::{Float64Array, RecordBatch, StringArray};
use datafusion::arrow::datatypes::{DataType, Field, Schema};

use crate::cli::{fails, fails_with, mteval_ok, piped, wait_within, write_file};
use crate::sql::{ctx, f64s, query, query_fails_with, split_ctx};

/// Three rows `(m, g)` with `value` as the second row's metric score (or
/// gold score, `gold`), as SQL.
fn rows_with(value: &str, gold: bool) -> String {
    let v = format!("CAST('{value}' AS DOUBLE)");
    let (m, g) = if gold { ("0.2".to_owned(), v) } else { (v, "2.0".to_owned()) };
    format!("(VALUES (0.1, 1.0), ({m}, {g}), (0.3, 3.0), (0.5, 2.5)) AS t(m, g)")
}

#[tokio::test]
async fn meta_corr_refuses_a_nan_or_infinite_score_with_every_statistic() {
    // The issue: Spearman with a NaN metric gave 0.6 (scipy: nan), a NaN
    // gold 0.8; tau-b 0.548 (KendallVariants: 0.667); Pearson NULL.
    let ctx = ctx();
    for opts in ["stat:pearson", "stat:spearman", "stat:kendall", "stat:kendall|variant:acc23|epsilon:0.1"] {
        for (value, shown) in [("NaN", "NaN"), ("inf", "inf"), ("-inf", "-inf")] {
            let sql = format!("SELECT meta_corr(m, g, '{opts}') FROM {}", rows_with(value, true));
            let want = format!("row 1 of the batch: the gold score (second argument) is {shown} (metric score 0.2)");
            query_fails_with(&ctx, &sql, &["meta_corr", &want, "a missing score is NULL"]).await;
            let sql = format!("SELECT meta_corr(m, g, '{opts}') FROM {}", rows_with(value, false));
            let want = format!("row 1 of the batch: the metric score (first argument) is {shown} (gold score 2)");
            query_fails_with(&ctx, &sql, &[&want]).await;
        }
        // NULL is the missing score: skipped. scipy.stats.pearsonr([0.1, 0.3, 0.5],
        // [1, 3, 2.5]).statistic = 0.7205766921228921; spearmanr = 0.5;
        // mt-metrics-eval's KendallVariants([1, 3, 2.5], [0.1, 0.3, 0.5]): tau-b
        // 0.33333333333333337, acc23 with epsilon 0.1 0.6666666666666666.
        let want = match opts {
            "stat:pearson" => 0.720_576_692_122_892_1,
            "stat:spearman" => 0.5,
            "stat:kendall" => 0.333_333_333_333_333_37,
            _ => 0.666_666_666_666_666_6,
        };
        let sql = format!(
            "SELECT meta_corr(m, g, '{opts}') FROM {}",
            rows_with("x", true).replace("CAST('x' AS DOUBLE)", "NULL")
        );
        let got = f64s(&query(&ctx, &sql).await, 0)[0].unwrap();
        assert!((got - want).abs() <= 1e-15, "{sql}: {got} vs {want}");
    }
}

#[test]
fn kendall_with_a_nan_gold_score_ends() {
    // The issue: the tie-run loop never advanced on a NaN; the query spun.
    let sql = format!("SELECT meta_corr(m, g, 'stat:kendall') FROM {}", rows_with("NaN", true));
    let o = wait_within(piped(&["sql", "-c", &sql]).spawn().unwrap(), 60, "meta_corr stat:kendall on a NaN");
    fails(&o, "meta_corr stat:kendall on a NaN", &["the gold score (second argument) is NaN"]);
}

#[tokio::test]
async fn meta_tie_opt_refuses_a_nan_gold_score_as_it_refuses_a_nan_metric_score() {
    let ctx = ctx();
    for gold in [true, false] {
        let sql = format!("SELECT meta_tie_opt(m, g) FROM {}", rows_with("NaN", gold));
        let what =
            if gold { "the gold score (second argument) is NaN" } else { "the metric score (first argument) is NaN" };
        query_fails_with(&ctx, &sql, &["meta_tie_opt: row 1 of the batch", what]).await;
    }
}

/// 53 bits as a number in [0, 1).
#[allow(clippy::cast_precision_loss, reason = "53 bits, exact")]
fn unit(bits: u64) -> f64 {
    bits as f64 / 9_007_199_254_740_992.0
}

/// The `(metric, gold)` group of kernels' `meta::linear` tests: a 64-bit
/// LCG's numbers, gold scores in quarter steps, the metric `0.3 * gold +
/// noise`, rounded to one decimal when `rounded`.
fn lcg_group(seed: u64, n: usize, rounded: bool) -> Vec<(f64, f64)> {
    let mut s = seed;
    let mut next = || {
        s = s.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        unit(s >> 11)
    };
    (0..n)
        .map(|_| {
            let g = (next() * 20.0).floor() / 4.0;
            let m = g * 0.3 + next();
            (if rounded { (m * 10.0 + 0.5).floor() / 10.0 } else { m }, g)
        })
        .collect()
}

#[tokio::test]
async fn meta_corr_pearson_is_the_same_whatever_the_partitions_and_row_order() {
    // (seed, n, rounded, scipy 1.17.1's pearsonr(metric, gold).statistic,
    // pearsonr's formula with every sum exact): the Python that made them is
    // in kernels/src/meta/linear.rs (pearson_is_the_same_in_any_order_...).
    for (seed, n, rounded, scipy, exact) in [
        (35u64, 150, true, 0.829_188_611_534_358_3, 0.829_188_611_534_358_7),
        (9, 40, false, 0.811_653_495_829_546_4, 0.811_653_495_829_546_7),
        (22, 5, false, 0.062_357_953_678_685_88, 0.062_357_953_678_685_86),
    ] {
        let rows: Vec<String> = lcg_group(seed, n, rounded)
            .iter()
            .enumerate()
            .map(|(i, (m, g))| format!("({i}, CAST('{m:?}' AS DOUBLE), CAST('{g:?}' AS DOUBLE))"))
            .collect();
        let values = format!("(VALUES {}) AS t(i, m, g)", rows.join(", "));
        for p in 1..=8 {
            let ctx = split_ctx(3, p);
            for order in ["", "ORDER BY i DESC", "ORDER BY m, g", "ORDER BY g DESC, i"] {
                let sql = format!("SELECT meta_corr(m, g) FROM (SELECT * FROM {values} {order})");
                let r = f64s(&query(&ctx, &sql).await, 0)[0].unwrap();
                assert_eq!(r.to_bits(), f64::to_bits(exact), "seed {seed}, {p} partitions, {order:?}: {r} vs {exact}");
                assert!(r.to_bits().abs_diff(f64::to_bits(scipy)) <= 4, "seed {seed}: {r} vs scipy's {scipy}");
            }
        }
    }
}

/// A Parquet table `system, seg, gold, m` of `rows`.
fn parquet_table(dir: &Path, rows: &[(&str, &str, Option<f64>, f64)]) -> PathBuf {
    let schema = Arc::new(Schema::new(vec![
        Field::new("system", DataType::Utf8, false),
        Field::new("seg", DataType::Utf8, false),
        Field::new("gold", DataType::Float64, true),
        Field::new("m", DataType::Float64, false),
    ]));
    let batch = RecordBatch::try_new(
        schema.clone(),
        vec![
            Arc::new(StringArray::from_iter_values(rows.iter().map(|r| r.0))),
            Arc::new(StringArray::from_iter_values(rows.iter().map(|r| r.1))),
            Arc::new(Float64Array::from(rows.iter().map(|r| r.2).collect::<Vec<_>>())),
            Arc::new(Float64Array::from(rows.iter().map(|r| r.3).collect::<Vec<_>>())),
        ],
    )
    .unwrap();
    let path = dir.join("meta.parquet");
    let mut w = parquet::arrow::ArrowWriter::try_new(std::fs::File::create(&path).unwrap(), schema, None).unwrap();
    w.write(&batch).unwrap();
    w.close().unwrap();
    path
}

/// Two systems x three segments, with `gold` as system b's segment 1.
/// mt-metrics-eval's layout under `DIR/data`: wmt23 en-de with two
/// systems' segment scores of metric `m` and the human scores `mqm` (file
/// text); the root.
fn mtme_en_de(dir: &Path, mqm: &str) -> PathBuf {
    let base = dir.join("data/wmt23");
    for sub in ["human-scores", "metric-scores/en-de", "references"] {
        std::fs::create_dir_all(base.join(sub)).unwrap();
    }
    write_file(&base.join("references"), "en-de.refA.txt", "x\nx\n");
    write_file(&base.join("human-scores"), "en-de.mqm.seg.score", mqm);
    write_file(&base.join("metric-scores/en-de"), "m-refA.seg.score", "a\t0.1\na\t0.2\nb\t0.3\nb\t0.4\n");
    dir.join("data")
}

fn two_systems(gold: Option<f64>) -> Vec<(&'static str, &'static str, Option<f64>, f64)> {
    vec![
        ("a", "0", Some(1.0), 0.1),
        ("a", "1", Some(2.0), 0.4),
        ("a", "2", Some(3.0), 0.3),
        ("b", "0", Some(1.5), 0.2),
        ("b", "1", gold, 0.6),
        ("b", "2", Some(0.5), 0.1),
    ]
}

#[test]
fn mteval_meta_refuses_a_nan_gold_score_naming_its_row_from_0() {
    // The issue: a NaN gold score was skipped, as a NULL one is.
    let dir = tempfile::tempdir().unwrap();
    for (g, shown) in [(f64::NAN, "NaN"), (f64::INFINITY, "inf")] {
        let t = parquet_table(dir.path(), &two_systems(Some(g)));
        let t = t.to_str().unwrap();
        let want = format!("row 4 (counting from 0): the gold score ('gold') is {shown} (system b)");
        fails_with(&["meta", t, "--segment-col", "seg", "-k", "0"], &[&want, "a missing one is NULL"]);
    }
    // A NULL gold score is missing: the Pearson of the other five pairs.
    // scipy.stats.pearsonr([0.1, 0.4, 0.3, 0.2, 0.1], [1, 2, 3, 1.5, 0.5]).statistic
    // = 0.7775159172581775
    let t = parquet_table(dir.path(), &two_systems(None));
    let out =
        mteval_ok(&["meta", t.to_str().unwrap(), "--segment-col", "seg", "-k", "0", "--corr", "pearson", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let r = v["tasks"][0]["metrics"][0]["corr"].as_f64().unwrap();
    assert!((r - 0.777_515_917_258_177_5).abs() <= 1e-15, "{r}");
    // mt-metrics-eval's layout: a 'nan' in a score file.
    let root = mtme_en_de(dir.path(), "a\t1.0\na\tnan\nb\t2.0\nb\t0.5\n");
    fails_with(
        &["meta", "--mtme", root.to_str().unwrap(), "--mtme-lp", "en-de", "-k", "0"],
        &["en-de.mqm.seg.score:2: score \"nan\": scores must be finite numbers (a missing one is None)"],
    );
}

/// A CSV metric column with one cell that is not a number is read as text;
/// it was then silently left out of the ranking (every number column is a
/// metric by default). It is refused, naming the column and both rows; a text
/// column of words stays out, as before.
#[test]
fn mteval_meta_refuses_a_metric_column_read_as_text_for_one_cell() {
    let dir = tempfile::tempdir().unwrap();
    let mut csv = String::from("system,seg,domain,gold,m0,m1\n");
    for (i, (sys, seg)) in [("a", 0), ("a", 1), ("a", 2), ("b", 0), ("b", 1), ("b", 2)].into_iter().enumerate() {
        let m1 = if i == 4 { "x".to_owned() } else { format!("0.{i}") };
        let _ = writeln!(csv, "{sys},{seg},news,{}.5,0.{},{m1}", i % 3, (i * 7) % 10);
    }
    let t = write_file(dir.path(), "t.csv", &csv);
    let t = t.to_str().unwrap();
    fails_with(
        &["meta", t, "--segment-col", "seg", "-k", "0"],
        &["column 'm1' holds numbers (row 0 counting from 0: 0.0) and text (row 4: 'x')", "--metric"],
    );
    // Named metrics are checked by name, as before; the words column is no metric.
    let out = mteval_ok(&["meta", t, "--segment-col", "seg", "-k", "0", "--metric", "m0", "--json"]);
    assert!(out.contains("\"m0\"") && !out.contains("domain"), "{out}");
}

/// Segment ids read as floats (pandas writes an integer column with a
/// missing value as `1.0`) are ordered by their numbers, as integer ids are:
/// `mteval meta` gives the same numbers either way (it ordered `10.0` before
/// `2.0`, as text, which changed the permutation test's draws).
#[test]
fn mteval_meta_orders_float_segment_ids_as_numbers() {
    let dir = tempfile::tempdir().unwrap();
    let (mut ints, mut floats) = (String::from("system,seg,gold,m0,m1\n"), String::from("system,seg,gold,m0,m1\n"));
    let mut next = 7u64;
    for sys in ["a", "b", "c"] {
        for seg in 0..12 {
            let mut r = || {
                next = next.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
                (next >> 40) % 100
            };
            let (g, m0, m1) = (r(), r(), r());
            let _ = writeln!(ints, "{sys},{seg},{g},{m0},{m1}");
            let _ = writeln!(floats, "{sys},{seg}.0,{g},{m0},{m1}");
        }
    }
    let run = |name: &str, text: &str| {
        let t = write_file(dir.path(), name, text);
        mteval_ok(&["meta", t.to_str().unwrap(), "--segment-col", "seg", "-k", "50", "--json"])
    };
    assert_eq!(run("ints.csv", &ints), run("floats.csv", &floats));
}

#[test]
fn mteval_meta_refuses_an_unknown_exclude_name_listing_the_systems() {
    let dir = tempfile::tempdir().unwrap();
    let t = parquet_table(dir.path(), &two_systems(Some(2.0)));
    let t = t.to_str().unwrap();
    fails_with(
        &["meta", t, "--segment-col", "seg", "-k", "0", "--exclude", "outlierr"],
        &["--exclude outlierr:", "has no system of that name (2 systems: a, b)"],
    );
    // An existing name is left out: one system is left for the system level.
    let out = mteval_ok(&["meta", t, "--segment-col", "seg", "-k", "0", "--exclude", "a", "--corr", "pearson"]);
    assert!(out.starts_with("level=seg corr_fcn=pearson"), "{out}");
    // mt-metrics-eval's layout: the systems of the human scores.
    let root = mtme_en_de(dir.path(), "a\t1.0\na\t2.0\nb\t2.0\nb\t0.5\n");
    let mtme = ["meta", "--mtme", root.to_str().unwrap(), "--mtme-lp", "en-de", "-k", "0", "--exclude"];
    let mut args = mtme.to_vec();
    args.push("outlierr");
    fails_with(&args, &["--exclude outlierr:", "en-de.mqm.seg.score has no system of that name (2 systems: a, b)"]);
    let mut args = mtme.to_vec();
    args.extend(["b", "--corr", "pearson"]);
    mteval_ok(&args);
}

#[test]
fn mteval_meta_refuses_kendalls_flags_with_other_correlations() {
    // The issue: --variant and --epsilon were ignored with --corr pearson,
    // which meta_corr refuses ('variant and epsilon go with stat:kendall').
    let dir = tempfile::tempdir().unwrap();
    let t = parquet_table(dir.path(), &two_systems(Some(2.0)));
    let t = t.to_str().unwrap();
    let kendall_only = "--variant and --epsilon go with --corr kendall (--variant also with --corr ties-opt)";
    for (flags, needle) in [
        ("--corr pearson --variant b --epsilon 3", format!("{kendall_only}, not --corr pearson")),
        ("--corr pearson --epsilon 3", format!("{kendall_only}, not --corr pearson")),
        ("--corr spearman --variant b", format!("{kendall_only}, not --corr spearman")),
        ("--corr accuracy --variant b", format!("{kendall_only}, not --corr accuracy")),
        ("--corr ties-opt --epsilon 0.5", format!("{kendall_only}, not --corr ties-opt")),
        ("--corr kendall --sample-rate 0.5", "--sample-rate goes with --corr ties-opt, not --corr kendall".to_owned()),
        ("--epsilon 1", "--epsilon goes with --corr".to_owned()),
        ("--sample-rate 0.5", "--sample-rate goes with --corr".to_owned()),
    ] {
        let mut args = vec!["meta", t, "--segment-col", "seg", "-k", "0"];
        args.extend(flags.split_whitespace());
        fails_with(&args, &[&needle]);
    }
    // Where they belong, they run.
    for flags in ["--corr kendall --variant b --epsilon 0.05", "--corr ties-opt --variant 23 --sample-rate 0.5"] {
        let mut args = vec!["meta", t, "--segment-col", "seg", "-k", "0"];
        args.extend(flags.split_whitespace());
        mteval_ok(&args);
    }
}

#[test]
fn mteval_meta_checks_the_pair_limit_before_any_work_and_advises_flags_it_has() {
    // 10,000 systems x 3 segments: WMT23's fourth task calibrates ties over
    // 3 x 10,000 x 9,999 / 2 = 149,985,000 pairs, over the limit of 10^8.
    // The issue: with the default -k the first three tasks ran for over a
    // minute first; with -k 0 the advice was to average by item (which the
    // task does) or to sample the pairs (which no flag did for it).
    let dir = tempfile::tempdir().unwrap();
    let mut csv = String::from("system,seg,gold,m\n");
    for s in 0..10_000 {
        for i in 0..3 {
            let _ = writeln!(csv, "s{s:05},{i},{},{}", (s * 7 + i * 3) % 101, (s * 13 + i) % 97);
        }
    }
    let t = write_file(dir.path(), "big.csv", csv);
    let t = t.to_str().unwrap();
    let advised = "--corr ties-opt --variant acc23 --average-by item --perm-test pairs --sample-rate 0.66";
    for k in ["1000", "0"] {
        let args = ["meta", t, "--segment-col", "seg", "-k", k];
        let o = wait_within(piped(&args).spawn().unwrap(), 60, "mteval meta over the pair limit");
        let e = fails(
            &o,
            &format!("{args:?}"),
            &[
                "task 4 (level=seg corr_fcn=KendallWithTiesOpt(acc23) avg_by=item perm_test=pairs",
                "the tie calibration compares 149985000 pairs, over the limit of 100000000",
                advised,
                "--corr accuracy; --corr pearson --level sys; --corr pearson",
                "--exclude NAME",
            ],
        );
        assert!(!e.contains("average by item") && !e.contains("sample the pairs"), "{e}");
    }
    // The advised flags are mteval meta's (here on a small table).
    let small = parquet_table(dir.path(), &two_systems(Some(2.0)));
    let mut args = vec!["meta", small.to_str().unwrap(), "--segment-col", "seg", "-k", "0"];
    args.extend(advised.split_whitespace());
    mteval_ok(&args);
    // A single task: the averaging that fits is advised too.
    let e = fails_with(
        &["meta", t, "--segment-col", "seg", "-k", "0", "--corr", "ties-opt"],
        &["the tie calibration compares 449985000 pairs", "--sample-rate 0.22", "--average-by sys (30000 pairs)"],
    );
    assert!(!e.contains("--average-by item"), "{e}");
}

#[test]
fn mteval_report_refuses_a_nan_gold_score_as_mteval_meta_does() {
    // It was read as a missing score; NULL still is.
    let dir = tempfile::tempdir().unwrap();
    let table = dir.path().join("gold.parquet");
    let q = format!(
        "COPY (SELECT * FROM (VALUES ('a', 0, 'x y', 'x y', 1.0), ('a', 1, 'x z', 'x y', CAST('NaN' AS DOUBLE)), \
         ('b', 0, 'x', 'x y', 0.5), ('b', 1, 'y', 'x y', NULL)) AS t(system, seg_id, hyp, ref, gold)) TO '{}'",
        table.display()
    );
    mteval_ok(&["sql", "-c", &q]);
    let out = dir.path().join("r.html");
    let args = ["report", table.to_str().unwrap(), "-m", "bleu", "--segment-col", "seg_id", "--gold", "gold", "-o"];
    let mut args = args.to_vec();
    args.push(out.to_str().unwrap());
    fails_with(&args, &["row 1 (system 'a', segment '1'): the gold score is NaN", "a missing one is NULL"]);
}
