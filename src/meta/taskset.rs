//! Task sets over several language pairs, as mt-metrics-eval's `tasks.WMT23`,
//! `tasks.WMT24` and `tasks.WMT25` build and run them (`tasks.py` at
//! 68a481a), and the final table of a WMT metrics task: per task the
//! correlation and rank, then the weighted average correlation with its
//! significance clusters (`TaskSetResults.AverageCorrMatrix`, `AssignRanks`)
//! and the weighted average rank (`AverageRanks`).
//!
//! The tasks run in order from one `np.random.seed(seed)`, as
//! `np.random.seed(seed); tasks.Run()` does: each task's draws continue the
//! stream where the task before left it.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use anyhow::{Result, bail};
use mteval_kernels::meta::permutation::{Comparison, Extra, Measure, Params, Test, assign_ranks, compare_metrics};
use mteval_kernels::meta::{AverageBy, Statistic, Variant};
use mteval_kernels::py::legacy::RandomState;

use super::{Level, LevelScores, MetaData};

/// A named task set.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TaskSetName {
    /// `tasks.WMT23`: global system-level pairwise accuracy over the
    /// language pairs (weight: their number), then per pair system- and
    /// segment-level Pearson and segment-level tie-calibrated acc-23.
    Wmt23,
    /// `tasks.WMT24`: per pair system-level soft pairwise accuracy and
    /// segment-level tie-calibrated acc-23, equal weights.
    Wmt24,
    /// `tasks.WMT25`: as WMT24.
    Wmt25,
}

impl TaskSetName {
    /// From `wmt23`, `wmt24`, `wmt25`.
    #[must_use]
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "wmt23" => Some(Self::Wmt23),
            "wmt24" => Some(Self::Wmt24),
            "wmt25" => Some(Self::Wmt25),
            _ => None,
        }
    }

    /// The test set its tasks read (`wmt23`, ...).
    #[must_use]
    pub fn test_set(self) -> &'static str {
        match self {
            Self::Wmt23 => "wmt23",
            Self::Wmt24 => "wmt24",
            Self::Wmt25 => "wmt25",
        }
    }

    /// The language pairs whose tasks keep human translations as systems
    /// (`lps_with_multiple_refs`).
    fn multiple_refs(self) -> &'static [&'static str] {
        match self {
            Self::Wmt23 => &["en-he", "he-en"],
            Self::Wmt24 => &["en-de"],
            Self::Wmt25 => &[],
        }
    }
}

/// One task of a set.
#[derive(Debug, Clone, PartialEq)]
pub struct SetTask {
    /// Its language pairs: one, or all of them for the global accuracy.
    pub lps: Vec<String>,
    /// The level.
    pub level: Level,
    /// The correlation.
    pub measure: Measure,
    /// Averaging, test and resampling.
    pub params: Params,
    /// Human translations other than the reference kept as systems.
    pub human: bool,
}

impl SetTask {
    /// `Task.lang`: the pairs joined by commas.
    #[must_use]
    pub fn lang(&self) -> String {
        self.lps.join(",")
    }

    /// `Task.corr_fcn`.
    #[must_use]
    pub fn corr_fcn(&self) -> &'static str {
        match self.measure {
            Measure::Accuracy => "accuracy",
            Measure::Spa { .. } => "pce",
            Measure::TiesOpt { .. } => "KendallWithTiesOpt",
            Measure::Corr(Statistic::Spearman) => "spearman",
            Measure::Corr(Statistic::Kendall { .. }) => "KendallVariants",
            Measure::Corr(_) => "pearson",
        }
    }

    /// `TaskResults.range`: accuracies in [0, 1], correlations in [-1, 1]
    /// (tau-23 is a correlation, acc-23 an accuracy).
    #[must_use]
    pub fn range(&self) -> (f64, f64) {
        match self.measure {
            Measure::Accuracy | Measure::Spa { .. } => (0.0, 1.0),
            Measure::TiesOpt { variant, .. } if variant != Variant::T23 => (0.0, 1.0),
            _ => (-1.0, 1.0),
        }
    }

    /// A one-line description.
    #[must_use]
    pub fn name(&self) -> String {
        let level = if self.level == Level::Sys { "sys" } else { "seg" };
        let avg = match self.params.average_by {
            AverageBy::None => "none",
            AverageBy::Sys => "sys",
            AverageBy::Item => "item",
        };
        let test = if self.params.test == Test::Pairs { "pairs" } else { "scores" };
        format!(
            "lang={} level={level} corr_fcn={} avg_by={avg} perm_test={test} human={} k={}",
            self.lang(),
            self.corr_fcn(),
            if self.human { "True" } else { "False" },
            self.params.k
        )
    }
}

/// The tasks of `set` over `lps` (sorted, as the reference sorts them) and
/// their weights, with `params`' k, block size, early stopping and p-value.
#[must_use]
pub fn build(set: TaskSetName, lps: &[String], params: &Params) -> (Vec<SetTask>, Vec<f64>) {
    let mut lps = lps.to_vec();
    lps.sort();
    let none = Params { average_by: AverageBy::None, test: Test::Scores, ..*params };
    let tie = Params { average_by: AverageBy::Item, test: Test::Pairs, ..*params };
    let acc23 = Measure::TiesOpt { variant: Variant::Acc23, sample_rate: 1.0 };
    let human = |lp: &str| set.multiple_refs().contains(&lp);
    let mut tasks = Vec::new();
    let mut weights: Vec<usize> = Vec::new();
    match set {
        TaskSetName::Wmt23 => {
            tasks.push(SetTask {
                lps: lps.clone(),
                level: Level::Sys,
                measure: Measure::Accuracy,
                params: none,
                human: lps.iter().any(|l| human(l)),
            });
            weights.push(lps.len());
            for lp in &lps {
                let one = vec![lp.clone()];
                let h = human(lp);
                for (level, measure, params) in [
                    (Level::Sys, Measure::Corr(Statistic::Pearson), none),
                    (Level::Seg, Measure::Corr(Statistic::Pearson), none),
                    (Level::Seg, acc23, tie),
                ] {
                    tasks.push(SetTask { lps: one.clone(), level, measure, params, human: h });
                    weights.push(1);
                }
            }
        }
        TaskSetName::Wmt24 | TaskSetName::Wmt25 => {
            for lp in &lps {
                let one = vec![lp.clone()];
                let spa = Measure::Spa {
                    perms: mteval_kernels::meta::spa::DEFAULT_PERMS,
                    seed: mteval_kernels::meta::spa::DEFAULT_SEED,
                };
                tasks.push(SetTask {
                    lps: one.clone(),
                    level: Level::Sys,
                    measure: spa,
                    params: none,
                    human: human(lp),
                });
                tasks.push(SetTask { lps: one, level: Level::Seg, measure: acc23, params: tie, human: human(lp) });
                weights.extend([1, 1]);
            }
        }
    }
    let total: usize = weights.iter().sum();
    #[allow(clippy::cast_precision_loss, reason = "task counts are small")]
    let weights = weights.iter().map(|&w| w as f64 / total as f64).collect();
    (tasks, weights)
}

/// A task's ranking.
#[derive(Debug, Clone)]
pub struct SetResult {
    /// The task.
    pub task: SetTask,
    /// Its ranking, every resampling run kept.
    pub comparison: Comparison,
}

impl SetResult {
    /// The metric's (correlation, rank), by name.
    fn get(&self, name: &str) -> Option<(f64, usize)> {
        self.comparison.metrics.iter().find(|m| m.name == name).map(|m| (m.corr, m.rank))
    }

    /// `TaskResults.Draws(m1, m2)`: the runs' `(m1, m2)` correlations,
    /// whichever order the task ranks them in.
    fn draws(&self, m1: &str, m2: &str) -> Vec<(f64, f64)> {
        let pos = |n: &str| self.comparison.metrics.iter().position(|m| m.name == n);
        let (Some(a), Some(b)) = (pos(m1), pos(m2)) else { return Vec::new() };
        if a < b {
            self.comparison.resampled.get(&(a, b)).cloned().unwrap_or_default()
        } else {
            self.comparison.resampled.get(&(b, a)).map(|v| v.iter().map(|&(x, y)| (y, x)).collect()).unwrap_or_default()
        }
    }
}

/// Runs the tasks in order from one `np.random.seed(seed)` (with `reseed`,
/// each task from its own, as `mteval meta` runs one language pair's
/// tasks); `data(lp, human)` gives a language pair's scores. Every level
/// and limit is checked first (no work is done when one would fail).
///
/// # Errors
/// A level the data lacks, a tie calibration over the limit, no metric
/// common to every pair of the global accuracy, or a failing comparison.
pub fn run(
    tasks: &[SetTask],
    data: &dyn Fn(&str, bool) -> Result<MetaData>,
    seed: u32,
    reseed: bool,
) -> Result<Vec<SetResult>> {
    // The inputs of each task, built (and checked) before any draw.
    let mut inputs = Vec::with_capacity(tasks.len());
    for (t, task) in tasks.iter().enumerate() {
        let head = || format!("task {} ({})", t + 1, task.name());
        if task.measure == Measure::Accuracy {
            let (level, blocks) = merged_accuracy(task, data).map_err(|e| anyhow::anyhow!("{}: {e:#}", head()))?;
            inputs.push((level, blocks.iter().sum(), Some(blocks)));
        } else {
            let d = data(&task.lps[0], task.human)?;
            let one = super::Task { level: task.level, measure: task.measure, params: task.params };
            let level = one.level(&d).map_err(|e| anyhow::anyhow!("{}: {e:#}", head()))?.clone();
            if let Some(o) = super::over_limit(&d, std::slice::from_ref(&one)) {
                bail!("{}: {}", head(), o.describe());
            }
            inputs.push((level, d.systems.len(), None));
        }
    }
    let mut rng = RandomState::seed(seed);
    let mut out = Vec::with_capacity(tasks.len());
    for (task, (level, num_sys, blocks)) in tasks.iter().zip(&inputs) {
        if reseed {
            rng = RandomState::seed(seed);
        }
        let _progress =
            crate::compare::paired::ResamplingProgress::start(&format!("meta {} {}", task.lang(), task.corr_fcn()));
        let extra = Extra { blocks: blocks.as_deref(), keep_draws: task.params.k > 0 };
        let comparison =
            compare_metrics(&level.gold, &level.metrics, *num_sys, task.measure, &task.params, &mut rng, extra)
                .map_err(|e| anyhow::anyhow!("{}: {e}", task.name()))?;
        out.push(SetResult { task: task.clone(), comparison });
    }
    Ok(out)
}

/// `CompareMetricsWithGlobalAccuracy`'s data: each pair's system-level
/// scores one after another, for the metrics every pair has; the systems
/// per pair.
fn merged_accuracy(task: &SetTask, data: &dyn Fn(&str, bool) -> Result<MetaData>) -> Result<(LevelScores, Vec<usize>)> {
    let mut parts = Vec::with_capacity(task.lps.len());
    for lp in &task.lps {
        let d = data(lp, task.human)?;
        let Some(sys) = d.sys else { bail!("{lp}: no system-level scores") };
        parts.push((lp, sys, d.systems.len()));
    }
    let mut common: Vec<String> = parts[0].1.metrics.iter().map(|m| m.0.clone()).collect();
    for (_, sys, _) in &parts[1..] {
        common.retain(|n| sys.metrics.iter().any(|m| &m.0 == n));
    }
    if common.is_empty() {
        bail!("no metric is scored in every language pair ({})", task.lang());
    }
    let mut merged = LevelScores {
        items: 1,
        metrics: common.iter().map(|n| (n.clone(), Vec::new())).collect(),
        ..LevelScores::default()
    };
    let mut blocks = Vec::with_capacity(parts.len());
    for (_, sys, n) in &parts {
        merged.gold.extend(&sys.gold);
        for (name, v) in &mut merged.metrics {
            let src = sys.metrics.iter().find(|m| &m.0 == name).map(|m| &m.1);
            v.extend(src.into_iter().flatten());
        }
        blocks.push(*n);
    }
    Ok((merged, blocks))
}

/// The weighted averages over the tasks of the metrics every task ranks.
#[derive(Debug, Clone, PartialEq)]
pub struct Averages {
    /// `AverageCorrs` (correlations rescaled to [0, 1] by each task's range)
    /// by decreasing value, each with its cluster (`AverageCorrMatrix` and
    /// `AssignRanks` when the tasks resampled; otherwise its place).
    pub corrs: Vec<(String, f64, usize)>,
    /// `AverageCorrMatrix`'s p-values (upper triangle), in `corrs`' order;
    /// empty without resampling.
    pub sig: Vec<Vec<f64>>,
    /// `AverageRanks` by increasing value.
    pub ranks: Vec<(String, f64)>,
}

/// Python's `sum` of the per-task terms of the metrics in every task, in
/// order of first appearance over the tasks.
fn weighted(results: &[SetResult], term: &dyn Fn(&SetResult, &str, f64) -> f64, weights: &[f64]) -> Vec<(String, f64)> {
    let mut order: Vec<String> = Vec::new();
    let mut terms: BTreeMap<String, Vec<f64>> = BTreeMap::new();
    for (r, &w) in results.iter().zip(weights) {
        for m in &r.comparison.metrics {
            if !terms.contains_key(&m.name) {
                order.push(m.name.clone());
            }
            terms.entry(m.name.clone()).or_default().push(term(r, &m.name, w));
        }
    }
    order
        .into_iter()
        .filter(|m| terms[m].len() == results.len())
        .map(|m| {
            let s = terms[&m].iter().fold(0.0, |a, &x| a + x);
            (m, s)
        })
        .collect()
}

/// `AverageCorrs`, `AverageRanks` and (when the tasks resampled)
/// `AverageCorrMatrix` with `weights` (normalised) and `pval`.
#[must_use]
pub fn averages(results: &[SetResult], weights: &[f64], pval: f64) -> Averages {
    let mut corrs = weighted(
        results,
        &|r, m, w| {
            let (b, e) = r.task.range();
            ((r.get(m).map_or(f64::NAN, |c| c.0) - b) / (e - b)) * w
        },
        weights,
    );
    // Python's stable sort by decreasing value.
    corrs.sort_by(|a, b| b.1.partial_cmp(&a.1).unwrap_or(std::cmp::Ordering::Equal));
    #[allow(clippy::cast_precision_loss, reason = "ranks are small")]
    let mut ranks = weighted(results, &|r, m, w| r.get(m).map_or(f64::NAN, |c| c.1 as f64) * w, weights);
    ranks.sort_by(|a, b| a.1.partial_cmp(&b.1).unwrap_or(std::cmp::Ordering::Equal));
    let resampled = !results.is_empty() && results.iter().all(|r| r.task.params.k > 0);
    let n = corrs.len();
    if !resampled {
        // Table()'s initial column without ranks: places by (-corr, name).
        let mut by: Vec<usize> = (0..n).collect();
        by.sort_by(|&a, &b| {
            (-corrs[a].1)
                .partial_cmp(&-corrs[b].1)
                .unwrap_or(std::cmp::Ordering::Equal)
                .then_with(|| corrs[a].0.cmp(&corrs[b].0))
        });
        let mut place = vec![0; n];
        for (r, &i) in by.iter().enumerate() {
            place[i] = r + 1;
        }
        let corrs = corrs.into_iter().zip(place).map(|((m, c), r)| (m, c, r)).collect();
        return Averages { corrs, sig: Vec::new(), ranks };
    }
    let mut sig = vec![vec![0.0; n]; n];
    for i in 0..n {
        for j in i + 1..n {
            let (m1, m2) = (&corrs[i].0, &corrs[j].0);
            let corr_diff = corrs[i].1 - corrs[j].1;
            let per_task: Vec<Vec<f64>> = results
                .iter()
                .zip(weights)
                .map(|(r, &w)| {
                    let (b, e) = r.task.range();
                    let scale = |x: f64| (w * (x - b)) / (e - b);
                    r.draws(m1, m2).iter().map(|&(x, y)| scale(x) - scale(y)).collect()
                })
                .collect();
            let max_draws = per_task.iter().map(Vec::len).max().unwrap_or(0);
            if max_draws == 0 {
                continue;
            }
            let mut large = 0usize;
            for d in 0..max_draws {
                // np.sum over the tasks of each task's draws, repeated to fill up.
                let null = per_task.iter().fold(0.0, |a, t| if t.is_empty() { a } else { a + t[d % t.len()] });
                if null >= corr_diff {
                    large += 1;
                }
            }
            #[allow(clippy::cast_precision_loss, reason = "draw counts are far below 2^53")]
            let p = large as f64 / max_draws as f64;
            sig[i][j] = p;
        }
    }
    let r = assign_ranks(&sig, pval);
    let corrs = corrs.into_iter().zip(r).map(|((m, c), r)| (m, c, r)).collect();
    Averages { corrs, sig, ranks }
}

/// The table's formats (`MetricsTable`'s `fmt`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TableFormat {
    /// Aligned text.
    Text,
    /// Tab-separated values.
    Tsv,
    /// A LaTeX `tabular` (booktabs rules).
    Latex,
}

/// How a metric's name is shown: `_` before a baseline (with the test set's
/// baselines), `*` before a contrastive one, `[noref]` after a
/// reference-free one (LaTeX: underlined, italic, `*`).
fn metric_info(name: &str, baselines: Option<&[&str]>) -> (String, &'static str, bool) {
    let (name, noref) = name.strip_suffix("[noref]").map_or((name, false), |n| (n, true));
    let (name, status) = match name.strip_prefix('*') {
        Some(n) => (n, "contrastive"),
        None if baselines.is_some_and(|b| b.contains(&name)) => (name, "baseline"),
        None => (name, "primary"),
    };
    (name.to_owned(), status, noref)
}

/// `TaskSetResults.Table(metrics=list(avg), initial_column=avg,
/// initial_column_header='avg-corr', attr_list=['lang', 'level',
/// 'corr_fcn'], nicknames={'KendallWithTiesOpt': 'acc-t'},
/// which_metrics='union', baselines_metainfo=...)`: a row per metric (the
/// averages' order, then any metric missing from some task, by name), the
/// average correlation and each task's as "rank corr".
#[must_use]
pub fn table(results: &[SetResult], avg: &Averages, fmt: TableFormat, baselines: Option<&[&str]>) -> String {
    let mut metrics: Vec<String> = avg.corrs.iter().map(|c| c.0.clone()).collect();
    let mut extra: Vec<String> = results
        .iter()
        .flat_map(|r| r.comparison.metrics.iter().map(|m| m.name.clone()))
        .filter(|m| !metrics.contains(m))
        .collect();
    extra.sort();
    extra.dedup();
    metrics.extend(extra);
    let avg_col: BTreeMap<&str, (f64, usize)> = avg.corrs.iter().map(|(m, c, r)| (m.as_str(), (*c, *r))).collect();
    let rows: Vec<Vec<Option<(f64, usize)>>> = metrics
        .iter()
        .map(|m| std::iter::once(avg_col.get(m.as_str()).copied()).chain(results.iter().map(|r| r.get(m))).collect())
        .collect();
    let nick = |v: &str| if v == "KendallWithTiesOpt" { "acc-t".to_owned() } else { v.to_owned() };
    let mut headers: Vec<Vec<String>> = Vec::new();
    for (attr, val) in [
        ("lang", &(|r: &SetResult| r.task.lang()) as &dyn Fn(&SetResult) -> String),
        ("level", &|r: &SetResult| if r.task.level == Level::Sys { "sys".to_owned() } else { "seg".to_owned() }),
        ("corr_fcn", &|r: &SetResult| r.task.corr_fcn().to_owned()),
    ] {
        let mut row = vec![format!("{attr}:"), String::new()];
        row.extend(results.iter().map(|r| nick(&val(r))));
        headers.push(row);
    }
    let mut last = vec!["metric".to_owned(), "avg-corr".to_owned()];
    last.extend((1..=results.len()).map(|i| format!("task{i}")));
    headers.push(last);
    let infos: Vec<(String, &str, bool)> = metrics.iter().map(|m| metric_info(m, baselines)).collect();
    match fmt {
        TableFormat::Tsv => tsv_table(&infos, &rows, &headers),
        TableFormat::Text => text_table(&infos, &rows, &headers),
        TableFormat::Latex => latex_table(&infos, &rows, &headers),
    }
}

fn format_metric((name, status, noref): &(String, &str, bool)) -> String {
    let pre = match *status {
        "contrastive" => "*",
        "baseline" => "_",
        _ => "",
    };
    format!("{pre}{name}{}", if *noref { "[noref]" } else { "" })
}

fn tsv_table(infos: &[(String, &str, bool)], rows: &[Vec<Option<(f64, usize)>>], headers: &[Vec<String>]) -> String {
    let mut out = String::new();
    for h in headers {
        let mut cells = vec![h[0].clone()];
        cells.extend(h[1..h.len() - 1].iter().map(|x| format!("{x}\t")));
        cells.push(h[h.len() - 1].clone());
        out += &cells.join("\t");
        out.push('\n');
    }
    for (info, row) in infos.iter().zip(rows) {
        let mut cells = vec![format_metric(info)];
        cells.extend(row.iter().map(|c| c.map_or_else(|| "--\t--".to_owned(), |(c, r)| format!("{r}\t{c:.6}"))));
        out += &cells.join("\t");
        out.push('\n');
    }
    out
}

fn text_table(infos: &[(String, &str, bool)], rows: &[Vec<Option<(f64, usize)>>], headers: &[Vec<String>]) -> String {
    let strs: Vec<Vec<String>> = infos
        .iter()
        .zip(rows)
        .map(|(info, row)| {
            std::iter::once(format_metric(info))
                .chain(
                    row.iter().map(|c| c.map_or_else(|| "--".to_owned(), |(c, r)| format!("{r}{}", py_fixed(c, 6, 3)))),
                )
                .collect()
        })
        .collect();
    let cols = headers[0].len();
    let widths: Vec<usize> =
        (0..cols).map(|i| headers.iter().chain(&strs).map(|s| s[i].chars().count()).max().unwrap_or(0)).collect();
    let just = |s: &str, i: usize| {
        if i == 0 { format!("{s:<w$}", w = widths[i]) } else { format!("{s:>w$}", w = widths[i]) }
    };
    let line = |cells: &[String]| cells.iter().enumerate().map(|(i, s)| just(s, i)).collect::<Vec<_>>().join("  ");
    let mut out = String::new();
    for h in headers {
        out += &line(h);
        out.push('\n');
    }
    out += &widths.iter().map(|&w| "-".repeat(w)).collect::<Vec<_>>().join("  ");
    out.push('\n');
    for s in &strs {
        out += &line(s);
        out.push('\n');
    }
    out
}

/// Python's `f'{x:{width}.{decimals}f}'` (`nan`, `inf`).
fn py_fixed(x: f64, width: usize, decimals: usize) -> String {
    let s = if x.is_nan() {
        "nan".to_owned()
    } else if x.is_infinite() {
        if x > 0.0 { "inf".to_owned() } else { "-inf".to_owned() }
    } else {
        format!("{x:.decimals$}")
    };
    format!("{s:>width$}")
}

fn latex_table(infos: &[(String, &str, bool)], rows: &[Vec<Option<(f64, usize)>>], headers: &[Vec<String>]) -> String {
    let esc = |s: &str| s.replace('_', "\\_");
    let mut out = String::new();
    let _ = write!(out, "\\begin{{tabular}}{{l{}}}\n\\toprule\n", "|rr".repeat(rows.first().map_or(0, Vec::len)));
    for h in headers {
        let h: Vec<String> = h.iter().map(|x| esc(x)).collect();
        let rest: Vec<String> = h[1..].iter().map(|x| format!("\\multicolumn{{2}}{{|l}}{{{x}}}")).collect();
        let _ = writeln!(out, "{} & {} \\\\", h[0], rest.join(" & "));
    }
    out += "\\midrule\n";
    for ((name, status, noref), row) in infos.iter().zip(rows) {
        let star = if *noref { "*" } else { "" };
        let name = esc(name);
        let name = match *status {
            "baseline" => format!("\\underline{{{name}}}{star}"),
            "contrastive" => format!("\\textit{{{name}}}{star}"),
            _ => format!("{name}{star}"),
        };
        let cells: Vec<String> = row
            .iter()
            .map(|c| match c {
                None => "-- & --".to_owned(),
                Some((c, r)) => {
                    let (c, r) = (py_fixed(*c, 0, 3), r.to_string());
                    if r == "1" { format!("\\textbf{{{r}}} & \\textbf{{{c}}}") } else { format!("{r} & {c}") }
                }
            })
            .collect();
        let _ = writeln!(out, "{name} & {} \\\\", cells.join(" & "));
    }
    out += "\\bottomrule\n\\end{tabular}\n";
    out
}

/// The text output: the table, then the weighted average ranks, each
/// tie-calibrated metric's epsilon, and the tasks with their weights.
#[must_use]
pub fn text(results: &[SetResult], weights: &[f64], avg: &Averages, baselines: Option<&[&str]>) -> String {
    let mut out = table(results, avg, TableFormat::Text, baselines);
    out += "\naverage rank (weighted):";
    for (m, r) in &avg.ranks {
        let _ = write!(out, " {m}={r:.3}");
    }
    out.push('\n');
    for (t, r) in results.iter().enumerate() {
        let eps: Vec<String> =
            r.comparison.metrics.iter().filter_map(|m| m.epsilon.map(|e| format!("{}={e}", m.name))).collect();
        if !eps.is_empty() {
            let _ = writeln!(out, "task{} tie-calibrated epsilon: {}", t + 1, eps.join(" "));
        }
    }
    out.push('\n');
    for (t, (r, w)) in results.iter().zip(weights).enumerate() {
        let _ = writeln!(out, "task{}: {} weight={w:.6}", t + 1, r.task.name());
    }
    out
}

/// The results as one JSON object: `tasks` (each: `lp`, `level`,
/// `corr_fcn`, `name`, `weight`, `metrics` {NAME: {corr, rank[, epsilon]}},
/// `sig`, `draws`), `average` {NAME: {corr, rank, `avg_rank`}} and
/// `average_sig`.
#[must_use]
pub fn json(results: &[SetResult], weights: &[f64], avg: &Averages) -> serde_json::Value {
    let num = |x: f64| if x.is_finite() { serde_json::json!(x) } else { serde_json::Value::Null };
    let tasks: Vec<serde_json::Value> = results
        .iter()
        .zip(weights)
        .map(|(r, w)| {
            let mut metrics = serde_json::Map::new();
            for m in &r.comparison.metrics {
                let mut v = serde_json::json!({ "corr": num(m.corr), "rank": m.rank });
                if let Some(e) = m.epsilon {
                    v["epsilon"] = num(e);
                }
                metrics.insert(m.name.clone(), v);
            }
            serde_json::json!({
                "lp": r.task.lang(),
                "level": r.task.level,
                "corr_fcn": r.task.corr_fcn(),
                "name": r.task.name(),
                "weight": w,
                "order": r.comparison.metrics.iter().map(|m| m.name.clone()).collect::<Vec<_>>(),
                "metrics": metrics,
                "sig": r.comparison.sig.iter().map(|row| row.iter().map(|&x| num(x)).collect::<Vec<_>>()).collect::<Vec<_>>(),
                "draws": r.comparison.draws,
            })
        })
        .collect();
    let mut average = serde_json::Map::new();
    for (m, c, r) in &avg.corrs {
        let avg_rank = avg.ranks.iter().find(|x| &x.0 == m).map_or(f64::NAN, |x| x.1);
        average.insert(m.clone(), serde_json::json!({ "corr": num(*c), "rank": r, "avg_rank": num(avg_rank) }));
    }
    serde_json::json!({
        "tasks": tasks,
        "average": average,
        "average_order": avg.corrs.iter().map(|c| c.0.clone()).collect::<Vec<_>>(),
        "average_sig": avg.sig,
        "average_rank_order": avg.ranks.iter().map(|c| c.0.clone()).collect::<Vec<_>>(),
    })
}
