//! The report (`mteval report`, `mteval score --report`): one self-contained HTML page comparing systems — corpus
//! scores with 95% bootstrap intervals and significance against a baseline,
//! interval charts, the pairwise significance matrix, sentence-score
//! distributions, a breakdown by any column and a segment browser with TER's
//! alignment coloured. Numbers come from the same kernels and tests as
//! `mteval compare` (sacrebleu's); the page is a `minijinja` template that
//! escapes every value, with `plotters` SVG charts inline.

mod charts;
mod meta;

use std::collections::HashMap;
use std::io::Write as _;
use std::path::Path;

use anyhow::{Context, Result};
use mteval_kernels::metric::FromStats;
use mteval_kernels::metric::{Align, Direction, Metric};
use mteval_kernels::significance::{self, PairedTest, SegmentStats, TestResult};
use rayon::prelude::*;
use serde::Serialize;

use crate::corpus::{Corpus, TableSpec, read_table};
use crate::metrics::MetricChoice;
use crate::output::note;

/// The page template (autoescaped: its name ends in `.html`).
const TEMPLATE: &str = include_str!("page.html");
/// Groups listed per breakdown column.
const MAX_GROUPS: usize = 50;
/// The computed `--by` column: buckets of the first reference's length.
pub const REF_LENGTH: &str = "ref-length";
/// Significance level of the marks.
const ALPHA: f64 = 0.05;
/// Systems the pairwise matrix (N² paired tests) and the segment browser
/// hold; with more, the systems are tested against the baseline only (the
/// systems table), and the browser shows the first ones.
pub const DETAIL_MAX_SYSTEMS: usize = 100;
/// Breakdown groups with fewer segments are greyed out on the page.
const TINY_GROUP: usize = 10;

/// What a report is made of, whoever asks for it (`mteval report`,
/// `mteval score --report`).
pub struct Setup {
    pub metrics: Vec<MetricChoice>,
    /// The paired test, with the bootstrap resamples of the intervals.
    pub test: PairedTest,
    pub seed: Option<u128>,
    pub segments: usize,
    pub title: String,
    pub input: String,
    /// The column the segment keys come from, if any.
    pub segment_col: Option<String>,
    /// The gold (human) score column: the metrics' meta-evaluation section.
    pub gold_col: Option<String>,
    /// comet-compare's pairwise tests (`--comet-compare`), with its settings.
    pub comet: Option<mteval_kernels::significance::comet::Options>,
}

/// Reads `table` (a row per segment and system; its `extra_cols` are
/// replaced by the source column `src_col` (else `src` when present) and the
/// `--by` columns), scores it and writes the page to `out`.
///
/// # Errors
/// The table cannot be read or scored (naming the column or row), or the page
/// cannot be written.
pub async fn write_from_table(
    setup: &Setup,
    table: TableSpec<'_>,
    src_col: Option<&str>,
    by: &[String],
    out: &Path,
) -> Result<()> {
    crate::metrics::check_resampled(&setup.metrics, "mteval report")?;
    // src (optional unless named), then the --by columns that are columns.
    let mut extra: Vec<(String, bool)> = vec![match src_col {
        Some(c) => (c.to_owned(), true),
        None => ("src".to_owned(), false),
    }];
    extra.extend(by.iter().filter(|b| *b != REF_LENGTH).map(|b| (b.clone(), true)));
    let corpus = read_table(&TableSpec { extra_cols: &extra, gold_col: setup.gold_col.as_deref(), ..table }).await?;
    let mut extra_values = corpus.extra.iter();
    let src = extra_values.next().filter(|v| v.iter().any(Option::is_some)).cloned();
    let mut by_values = Vec::new();
    for b in by {
        let values = if b == REF_LENGTH {
            corpus.refs.iter().map(|r| Some(length_bucket(r.first().map_or("", String::as_str)))).collect()
        } else {
            extra_values.next().cloned().unwrap_or_default()
        };
        by_values.push((b.clone(), values));
    }
    write_page(&corpus, src.as_deref(), &by_values, setup, out)
}

/// The `ref-length` bucket of a reference.
#[must_use]
pub fn length_bucket(r: &str) -> String {
    let n = r.split_whitespace().count();
    match n {
        0..=9 => "0-9 words",
        10..=19 => "10-19 words",
        20..=29 => "20-29 words",
        30..=49 => "30-49 words",
        _ => "50+ words",
    }
    .to_owned()
}

/// The bootstrap resamples of the intervals under `test`.
fn interval_resamples(test: PairedTest) -> usize {
    match test {
        PairedTest::Bootstrap(n) | PairedTest::Randomization(_, Some(n)) => n,
        PairedTest::Randomization(_, None) => significance::DEFAULT_BOOTSTRAP,
    }
}

/// Sums of the statistics rows `rows` of `st`.
fn sums_of(st: &SegmentStats, width: usize, rows: &[usize]) -> Vec<f64> {
    let mut s = vec![0.0; width];
    for &i in rows {
        for (a, x) in s.iter_mut().zip(st.row(i)) {
            *a += x;
        }
    }
    s
}

/// A score as the page shows it: two decimals, or the metric's own when it
/// asks for more (the WER family's fractions).
fn fmt(x: f64, decimals: usize) -> String {
    let w = decimals.max(2);
    format!("{x:.w$}")
}

/// Everything the template shows.
#[derive(Serialize)]
struct Page {
    title: String,
    input: String,
    version: &'static str,
    n_segments: usize,
    n_systems: usize,
    baseline: String,
    test: String,
    confidence: String,
    alpha: f64,
    metrics: Vec<MetricView>,
    systems: Vec<SystemRow>,
    breakdowns: Vec<Breakdown>,
    views: Vec<BrowserView>,
    segments_per_view: usize,
    has_src: bool,
    segment_col: Option<String>,
    /// Why the pairwise matrix is left out (too many systems).
    matrix_note: Option<String>,
    /// Breakdown groups under this many segments are greyed out.
    tiny_group: usize,
    /// The metrics against the gold scores (`--gold`).
    meta: Option<meta::MetaSection>,
    /// comet-compare's tests per metric (`--comet-compare`).
    comet: Vec<CometView>,
    /// comet-compare's settings, as the page states them.
    comet_settings: String,
}

#[derive(Serialize)]
struct CometView {
    name: String,
    pairs: Vec<CometRow>,
}

/// One pair as comet-compare prints it (4 decimals), and its verdict.
#[derive(Serialize)]
struct CometRow {
    x: String,
    y: String,
    x_mean: String,
    y_mean: String,
    ties: String,
    x_wins: String,
    y_wins: String,
    statistic: String,
    p: String,
    p_value: Option<f64>,
    /// The significantly better system (`p < 0.05`), if any.
    winner: Option<String>,
}

#[derive(Serialize)]
struct MetricView {
    name: String,
    signature: String,
    lower_is_better: bool,
    interval_svg: String,
    box_svg: String,
    matrix: Vec<MatrixRow>,
}

#[derive(Serialize)]
struct MatrixRow {
    name: String,
    cells: Vec<MatrixCell>,
}

#[derive(Serialize)]
struct MatrixCell {
    /// Row system minus column system, with the metric's decimals (at
    /// least 2; "" on the diagonal).
    delta: String,
    p: String,
    p_value: Option<f64>,
    class: &'static str,
}

#[derive(Serialize)]
struct SystemRow {
    name: String,
    is_baseline: bool,
    cells: Vec<ScoreCell>,
}

#[derive(Serialize)]
struct ScoreCell {
    score: String,
    text: String,
    mean: String,
    ci: String,
    interval: String,
    p: String,
    p_value: Option<f64>,
    significant: bool,
    /// `better` or `worse` than the baseline, as the metric's direction says.
    direction: &'static str,
}

#[derive(Serialize)]
struct Breakdown {
    column: String,
    shown: usize,
    total: usize,
    /// Whether a group shown has fewer than [`TINY_GROUP`] segments.
    tiny: bool,
    groups: Vec<Group>,
}

#[derive(Serialize)]
struct Group {
    value: String,
    n: usize,
    /// Per system, per metric: the corpus score of the group's segments.
    scores: Vec<Vec<GroupScore>>,
}

#[derive(Serialize)]
struct GroupScore {
    value: String,
    text: String,
}

#[derive(Serialize)]
struct BrowserView {
    id: String,
    metric: String,
    system: String,
    kind: &'static str,
    title: String,
    segments: Vec<SegmentView>,
}

#[derive(Serialize)]
struct SegmentView {
    number: usize,
    /// The `--segment-col` value.
    key: Option<String>,
    src: Option<String>,
    refs: Vec<String>,
    hyps: Vec<HypView>,
}

#[derive(Serialize)]
struct HypView {
    system: String,
    text: String,
    scores: String,
    tokens: Vec<Token>,
}

#[derive(Serialize)]
struct Token {
    w: String,
    c: &'static str,
    t: String,
}

/// TER's alignment of `hyp` against `refs` as coloured tokens: kept (`k`),
/// substituted (`s`, with the reference word), inserted (`i`), deleted
/// (`d`, a reference word the hypothesis lacks); `m` marks a shifted word.
fn tokens(align: &dyn Align, hyp: &str, refs: &[String]) -> Vec<Token> {
    let refs: Vec<&str> = refs.iter().map(String::as_str).collect();
    let a = match align.alignment(hyp, &refs) {
        Ok(Some(a)) => a,
        Ok(None) => return Vec::new(),
        // Over TER's length limit: the words without an alignment, saying why.
        Err(e) => {
            let why = e.to_string();
            return align
                .words(hyp)
                .into_iter()
                .map(|w| Token { w, c: "k", t: format!("not aligned: {why}") })
                .collect();
        }
    };
    let mut hw = a.shifted_hyp.split(' ').filter(|w| !w.is_empty());
    let mut rw = a.reference.split(' ').filter(|w| !w.is_empty());
    let mut out = Vec::new();
    for op in a.ops.split(' ').filter(|o| !o.is_empty()) {
        let (shifted, op) = op.strip_prefix('>').map_or((false, op), |o| (true, o));
        let (w, c, t) = match op {
            "=" => (hw.next(), if shifted { "k m" } else { "k" }, rw.next().map(|_| String::new())),
            "S" => (hw.next(), if shifted { "s m" } else { "s" }, rw.next().map(|r| format!("reference: {r}"))),
            "I" => (hw.next(), if shifted { "i m" } else { "i" }, Some("not in the reference".to_owned())),
            "D" => (rw.next(), "d", Some("missing from the hypothesis".to_owned())),
            _ => (hw.next(), "k", None),
        };
        let t = if shifted {
            format!("{} (shifted)", t.unwrap_or_default()).trim().to_owned()
        } else {
            t.unwrap_or_default()
        };
        if let Some(w) = w {
            out.push(Token { w: w.to_owned(), c, t });
        }
    }
    out
}

/// Computes every number of the page and writes it to `out`, atomically.
///
/// # Errors
/// A metric that fails on a segment, or the page cannot be written.
#[allow(clippy::too_many_lines, reason = "the page's sections in order, each a few lines")]
pub fn write_page(
    corpus: &Corpus,
    src: Option<&[Option<String>]>,
    by: &[(String, Vec<Option<String>>)],
    setup: &Setup,
    out: &Path,
) -> Result<()> {
    let n_sys = corpus.systems.len();
    let n_seg = corpus.refs.len();
    let metrics = &setup.metrics;
    let configured: Vec<&dyn Metric> = metrics.iter().map(MetricChoice::metric).collect();
    let views: Vec<&dyn FromStats> = configured.iter().filter_map(|m| m.stats()).collect();
    let names: Vec<String> = metrics.iter().map(MetricChoice::display).collect();
    note!("report: {n_sys} systems x {n_seg} segments, {} metrics: sentence statistics", metrics.len());
    let backend = crate::session::device::backend()?;
    // stats[s][k]: system s, metric k.
    let stats: Vec<Vec<SegmentStats>> = corpus.all_stats(metrics, backend.as_ref())?;
    // sentence[s][k][i]
    let sentence: Vec<Vec<Vec<f64>>> = stats
        .iter()
        .map(|per| {
            per.iter()
                .zip(&configured)
                .map(|(st, m)| {
                    (0..st.len()).into_par_iter().map(|i| m.sentence_score(st.row(i)).unwrap_or(f64::NAN)).collect()
                })
                .collect()
        })
        .collect();
    note!("report: paired tests and bootstrap intervals");
    let seed = setup.seed;
    // Scores, intervals and p-values against the baseline: `mteval compare`
    // with the same test (sacrebleu's numbers); p[(i, j)]: j against i as
    // the baseline. With one system, its interval.
    let mut p: HashMap<(usize, usize), Vec<Option<f64>>> = HashMap::new();
    let all_pairs = n_sys <= DETAIL_MAX_SYSTEMS;
    let matrix_note = (!all_pairs).then(|| {
        format!(
            "{n_sys} systems: the pairwise matrix holds up to {DETAIL_MAX_SYSTEMS} ({} paired tests would be needed), so \
             each system is tested against the baseline only (the systems table); the segment browser shows the \
             first {DETAIL_MAX_SYSTEMS} systems.",
            n_sys * (n_sys - 1) / 2
        )
    });
    if let Some(n) = &matrix_note {
        note!("report: {n}");
    }
    let progress = crate::compare::paired::ResamplingProgress::start(match setup.test {
        _ if n_sys == 1 => "bootstrap intervals",
        PairedTest::Bootstrap(_) => "paired bootstrap",
        PairedTest::Randomization(..) => "paired approximate randomization",
    });
    let intervals: Vec<Vec<TestResult>> = match setup.test {
        _ if n_sys == 1 => {
            let n = interval_resamples(setup.test);
            vec![
                views.iter().zip(&stats[0]).map(|(v, st)| significance::confidence(*v, st, n, seed)).collect::<Result<
                    Vec<_>,
                    _,
                >>(
                )?,
            ]
        }
        // Every bootstrap test draws the same resamples: one pass for all pairs.
        PairedTest::Bootstrap(n) if seed != Some(0) && all_pairs => {
            let (results, all) = significance::bootstrap_all(&views, &stats, n, seed)?;
            for (i, row) in all.into_iter().enumerate() {
                for (j, ps) in row.into_iter().enumerate() {
                    if i != j {
                        p.insert((i, j), ps);
                    }
                }
            }
            results
        }
        _ => {
            let results = significance::compare(&views, &stats, setup.test, seed)?;
            for (j, r) in results.iter().enumerate().skip(1) {
                let ps: Vec<Option<f64>> = r.iter().map(|t| t.p_value).collect();
                p.insert((0, j), ps.clone());
                p.insert((j, 0), ps);
            }
            // The other pairs (i, j), 0 < i < j: j against i as the baseline.
            let sys_seed = seed.filter(|&s| s != 0);
            let last = if all_pairs { n_sys } else { 0 };
            let pairs: Vec<(usize, usize)> = (1..last).flat_map(|i| ((i + 1)..last).map(move |j| (i, j))).collect();
            let tested: Vec<Vec<TestResult>> = pairs
                .par_iter()
                .map(|&(i, j)| significance::paired(&views, &stats[i], &stats[j], setup.test, sys_seed))
                .collect::<Result<_, _>>()?;
            for (&(i, j), r) in pairs.iter().zip(&tested) {
                let ps: Vec<Option<f64>> = r.iter().map(|t| t.p_value).collect();
                p.insert((i, j), ps.clone());
                p.insert((j, i), ps);
            }
            results
        }
    };
    drop(progress);
    note!("report: charts, breakdowns and the segment browser");
    let lower: Vec<bool> = configured.iter().map(|m| m.direction() == Direction::Lower).collect();
    let decimals: Vec<usize> = metrics.iter().map(|m| m.metric().decimals()).collect();
    let test_keys = setup.test.signature_keys(seed);

    // The systems table.
    let systems: Vec<SystemRow> = (0..n_sys)
        .map(|s| SystemRow {
            name: corpus.systems[s].0.clone(),
            is_baseline: s == 0,
            cells: (0..metrics.len())
                .map(|k| {
                    let r = &intervals[s][k];
                    let pv = if s == 0 { None } else { p.get(&(0, s)).and_then(|v| v[k]) };
                    let (mean, ci) = r.estimate.map_or((f64::NAN, f64::NAN), |e| (e.mean, e.ci));
                    ScoreCell {
                        score: format!("{}", r.score),
                        text: fmt(r.score, decimals[k]),
                        mean: format!("{mean}"),
                        ci: format!("{ci}"),
                        interval: format!("μ = {} ± {}", fmt(mean, decimals[k]), fmt(ci, decimals[k])),
                        p: pv.map_or_else(String::new, |v| format!("{v:.4}")),
                        p_value: pv,
                        significant: pv.is_some_and(|v| v < ALPHA),
                        direction: if (r.score < intervals[0][k].score) == lower[k] { "better" } else { "worse" },
                    }
                })
                .collect(),
        })
        .collect();

    // Per metric: the charts and the matrix.
    let mut metric_views = Vec::with_capacity(metrics.len());
    for (k, m) in metrics.iter().enumerate() {
        let rows: Vec<charts::Interval<'_>> = (0..n_sys)
            .map(|s| {
                let r = &intervals[s][k];
                let (lo, hi) = r.estimate.map_or((r.score, r.score), |e| (e.mean - e.ci, e.mean + e.ci));
                charts::Interval { name: &corpus.systems[s].0, score: r.score, lo, hi }
            })
            .collect();
        let dist: Vec<(&str, &[f64])> =
            (0..n_sys).map(|s| (corpus.systems[s].0.as_str(), sentence[s][k].as_slice())).collect();
        let matrix = (0..if all_pairs { n_sys } else { 0 })
            .map(|i| MatrixRow {
                name: corpus.systems[i].0.clone(),
                cells: (0..n_sys)
                    .map(|j| {
                        if i == j {
                            return MatrixCell { delta: String::new(), p: String::new(), p_value: None, class: "diag" };
                        }
                        let delta = intervals[i][k].score - intervals[j][k].score;
                        let pv = p.get(&(i, j)).and_then(|v| v[k]);
                        let better = if lower[k] { delta < 0.0 } else { delta > 0.0 };
                        let class = match pv {
                            Some(v) if v < 0.01 && better => "win2",
                            Some(v) if v < ALPHA && better => "win1",
                            Some(v) if v < 0.01 => "loss2",
                            Some(v) if v < ALPHA => "loss1",
                            _ => "tie",
                        };
                        MatrixCell {
                            // The metric's own precision: a significant COMET difference of +0.004 shows.
                            delta: format!("{delta:+.w$}", w = decimals[k].max(2)),
                            p: pv.map_or_else(String::new, |v| format!("{v:.4}")),
                            p_value: pv,
                            class,
                        }
                    })
                    .collect(),
            })
            .collect();
        metric_views.push(MetricView {
            name: names[k].clone(),
            signature: significance::with_test_keys(&m.signature(corpus.nrefs), &test_keys),
            lower_is_better: lower[k],
            interval_svg: charts::intervals(&names[k], &rows)?,
            box_svg: charts::boxes(&names[k], &dist)?,
            matrix,
        });
    }

    // Breakdowns.
    let mut breakdowns = Vec::new();
    for (column, values) in by {
        let mut order: Vec<String> = Vec::new();
        let mut members: HashMap<String, Vec<usize>> = HashMap::new();
        for (i, v) in values.iter().enumerate() {
            let key = v.clone().unwrap_or_else(|| "NULL".to_owned());
            members
                .entry(key.clone())
                .or_insert_with(|| {
                    order.push(key);
                    Vec::new()
                })
                .push(i);
        }
        if column == REF_LENGTH {
            order.sort_by_key(|b| b.split(['-', '+']).next().and_then(|n| n.parse::<usize>().ok()));
        } else {
            order.sort_by(|a, b| members[b].len().cmp(&members[a].len()).then_with(|| a.cmp(b)));
        }
        let total = order.len();
        let groups: Vec<Group> = order
            .iter()
            .take(MAX_GROUPS)
            .map(|g| {
                let rows = &members[g];
                Group {
                    value: g.clone(),
                    n: rows.len(),
                    scores: (0..n_sys)
                        .map(|s| {
                            views
                                .iter()
                                .enumerate()
                                .map(|(k, v)| {
                                    let x = v.score(&sums_of(&stats[s][k], v.width(), rows));
                                    GroupScore { value: format!("{x}"), text: fmt(x, decimals[k]) }
                                })
                                .collect()
                        })
                        .collect(),
                }
            })
            .collect();
        let tiny = groups.iter().any(|g: &Group| g.n < TINY_GROUP);
        breakdowns.push(Breakdown { column: column.clone(), shown: total.min(MAX_GROUPS), total, tiny, groups });
    }

    // The segment browser.
    // The alignment of the first metric that has one; TER's otherwise.
    let default_ter = mteval_kernels::Ter::default();
    let align: &dyn Align = configured.iter().find_map(|c| c.align()).unwrap_or(&default_ter);
    let hyp_view = |s: usize, i: usize| {
        let hyp = &corpus.systems[s].1[i];
        let scores = (0..metrics.len())
            .map(|k| format!("{} {}", names[k], fmt(sentence[s][k][i], decimals[k])))
            .collect::<Vec<_>>();
        HypView {
            system: corpus.systems[s].0.clone(),
            text: hyp.clone(),
            scores: scores.join(" · "),
            tokens: tokens(align, hyp, &corpus.refs[i]),
        }
    };
    let segment_view = |i: usize, systems: &[usize]| SegmentView {
        number: i + 1,
        key: corpus.keys.as_ref().map(|k| k[i].clone()),
        src: src.and_then(|s| s[i].clone()),
        refs: corpus.refs[i].clone(),
        hyps: systems.iter().map(|&s| hyp_view(s, i)).collect(),
    };
    // One view: the first `--segments` segments in `order` (a total order),
    // each with the hypotheses of `shown`.
    let view = |id: String,
                k: usize,
                s: usize,
                kind: &'static str,
                title: String,
                order: &dyn Fn(&usize, &usize) -> std::cmp::Ordering,
                shown: &[usize]| {
        let take = setup.segments.min(n_seg);
        let mut idx: Vec<usize> = (0..n_seg).collect();
        if take > 0 && take < n_seg {
            idx.select_nth_unstable_by(take - 1, order);
        }
        idx.truncate(take);
        idx.sort_by(order);
        BrowserView {
            id,
            metric: names[k].clone(),
            system: corpus.systems[s].0.clone(),
            kind,
            title,
            segments: idx.iter().map(|&i| segment_view(i, shown)).collect(),
        }
    };
    let shown = setup.segments.min(n_seg);
    let mut browser = Vec::new();
    for k in 0..metrics.len() {
        for s in 0..n_sys.min(DETAIL_MAX_SYSTEMS) {
            let sc = &sentence[s][k];
            let name = &corpus.systems[s].0;
            // worst first; ties by segment order
            let worst = |a: &usize, b: &usize| {
                let o = sc[*a].total_cmp(&sc[*b]);
                (if lower[k] { o.reverse() } else { o }).then(a.cmp(b))
            };
            let title = format!("{name}: the {shown} worst segments by sentence {}", names[k]);
            browser.push(view(format!("w-{k}-{s}"), k, s, "worst", title, &worst, &[s]));
            if s == 0 {
                continue;
            }
            let base = &sentence[0][k];
            let differs =
                |a: &usize, b: &usize| (sc[*b] - base[*b]).abs().total_cmp(&(sc[*a] - base[*a]).abs()).then(a.cmp(b));
            let title = format!(
                "{name} vs {}: the {shown} segments whose sentence {} differs most",
                corpus.systems[0].0, names[k]
            );
            browser.push(view(format!("d-{k}-{s}"), k, s, "differs", title, &differs, &[0, s]));
        }
    }

    let meta = match &setup.gold_col {
        Some(gold_col) => {
            note!("report: the metrics against the gold scores (WMT23's tasks)");
            let corpus_scores: Vec<Vec<f64>> = intervals.iter().map(|r| r.iter().map(|t| t.score).collect()).collect();
            let inputs = meta::Inputs {
                gold_col,
                names: &names,
                lower: &lower,
                sentence: &sentence,
                corpus_scores: &corpus_scores,
            };
            meta::section(corpus, &inputs)?
        }
        None => None,
    };
    let comet = match &setup.comet {
        Some(opts) => {
            note!("report: comet-compare's t-tests and bootstrap resampling for every pair");
            comet_views(corpus, metrics, opts, backend.as_ref())?
        }
        None => Vec::new(),
    };
    let comet_settings = setup.comet.map_or_else(String::new, |o| {
        format!(
            "{} splits of {}% of the segments, numpy seed {}, {} t-test",
            o.num_splits,
            o.sample_ratio * 100.0,
            o.seed,
            o.alternative.name()
        )
    });
    let page = Page {
        title: setup.title.clone(),
        input: setup.input.clone(),
        version: env!("CARGO_PKG_VERSION"),
        n_segments: n_seg,
        n_systems: n_sys,
        baseline: corpus.systems[0].0.clone(),
        test: match setup.test {
            PairedTest::Bootstrap(n) => format!("paired bootstrap resampling, {n} resamples"),
            PairedTest::Randomization(n, _) => format!("paired approximate randomization, {n} trials"),
        },
        confidence: format!(
            "bootstrap, {} resamples, seed {}",
            interval_resamples(setup.test),
            seed.map_or_else(|| "none".to_owned(), |s| s.to_string())
        ),
        alpha: ALPHA,
        metrics: metric_views,
        systems,
        breakdowns,
        views: browser,
        segments_per_view: setup.segments,
        matrix_note,
        tiny_group: TINY_GROUP,
        has_src: src.is_some(),
        segment_col: setup.segment_col.clone(),
        meta,
        comet,
        comet_settings,
    };
    let mut env = minijinja::Environment::new();
    env.add_template("page.html", TEMPLATE).context("the report template")?;
    let html = env
        .get_template("page.html")
        .and_then(|t| t.render(minijinja::context! { page => minijinja::Value::from_serialize(&page) }))
        .context("cannot render the report")?;
    let (file, mut f) = crate::output::AtomicFile::create(out)?;
    f.write_all(html.as_bytes())
        .and_then(|()| f.sync_all())
        .with_context(|| format!("cannot write {}", out.display()))?;
    drop(f);
    file.commit()?;
    note!("report: wrote {} ({} KB)", out.display(), html.len() / 1024);
    Ok(())
}

/// comet-compare's numbers per metric for the page (the systems in name
/// order).
fn comet_views(
    corpus: &Corpus,
    metrics: &[MetricChoice],
    opts: &mteval_kernels::significance::comet::Options,
    backend: &dyn mteval_kernels::backend::Backend,
) -> Result<Vec<CometView>> {
    let four = |x: f64| if x.is_nan() { "nan".to_owned() } else { format!("{x:.4}") };
    // In name order, as `mteval compare --comet-compare` takes a table's systems.
    let order = crate::compare::comet::name_order(corpus);
    let results = crate::compare::comet::compare(corpus, &order, metrics, opts, backend)?;
    Ok(results
        .iter()
        .map(|m| CometView {
            name: m.name.clone(),
            pairs: m
                .comparison
                .pairs
                .iter()
                .map(|p| {
                    let (x, y) = (&corpus.systems[order[p.x]].0, &corpus.systems[order[p.y]].0);
                    let b = &p.bootstrap;
                    let pv = f64::from(p.t_test.p_value);
                    let significant = p.t_test.p_value < mteval_kernels::significance::comet::SUMMARY_THRESHOLD;
                    CometRow {
                        x: x.clone(),
                        y: y.clone(),
                        x_mean: four(f64::from(b.x_mean)),
                        y_mean: four(f64::from(b.y_mean)),
                        ties: four(b.ties),
                        x_wins: four(b.x_wins),
                        y_wins: four(b.y_wins),
                        statistic: four(f64::from(p.t_test.statistic)),
                        p: four(pv),
                        p_value: pv.is_finite().then_some(pv),
                        winner: significant.then(|| if b.x_better(m.lower_is_better) { x.clone() } else { y.clone() }),
                    }
                })
                .collect(),
        })
        .collect())
}
