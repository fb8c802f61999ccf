//! Meta-evaluation of metrics against human judgements, as mt-metrics-eval
//! runs it for one test set (`mteval meta`): gold and metric scores at the
//! system and segment level, read from a table or from mt-metrics-eval's own
//! data layout, ranked by each task's correlation with significance clusters
//! from the permutation tests (kernels' `meta::permutation`).
//!
//! Systems are ordered by name, segments by their id (numerically when all
//! ids are numbers) or input order. mt-metrics-eval orders systems as a
//! Python `set` of strings iterates, which varies from run to run with
//! `PYTHONHASHSEED`; correlations do not depend on the order, but the random
//! swaps of the permutation tests do, so p-values equal the reference's
//! when it is given the same order (as the golden tests give it).

pub mod info;
pub mod run;
pub mod taskset;

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use datafusion::arrow::array::AsArray;
use datafusion::arrow::compute::cast;
use datafusion::arrow::datatypes::{DataType, Float64Type};
use mteval_kernels::meta::permutation::{Comparison, Extra, Measure, Params, Test, compare_metrics};
use mteval_kernels::meta::{AverageBy, MAX_PAIRS, Statistic, Variant, pair_count};
use mteval_kernels::py::legacy::RandomState;
use mteval_kernels::py::numpy_mean;

/// Gold and metric scores of one level, packed as mt-metrics-eval's
/// `Correlation` holds them: `systems` rows of `items` scores.
#[derive(Debug, Clone, Default)]
pub struct LevelScores {
    /// Gold scores (`None`: missing).
    pub gold: Vec<Option<f64>>,
    /// Each metric's scores, in the given order.
    pub metrics: Vec<(String, Vec<f64>)>,
    /// Items per system (1 at the system level).
    pub items: usize,
}

/// What a test set holds for meta-evaluation.
#[derive(Debug, Clone, Default)]
pub struct MetaData {
    /// The systems, in row order.
    pub systems: Vec<String>,
    /// Segment-level scores, when there are any.
    pub seg: Option<LevelScores>,
    /// System-level scores.
    pub sys: Option<LevelScores>,
    /// Systems of the input left out as outliers or excluded.
    pub left_out: BTreeSet<String>,
}

/// The level a task works at.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    /// One score per system.
    Sys,
    /// One score per system and segment.
    Seg,
}

impl crate::flags::Named for Level {
    const NAMES: &'static [(Self, &'static str, &'static str)] =
        &[(Level::Sys, "sys", "One score per system"), (Level::Seg, "seg", "One score per system and segment")];
}

/// One ranking to compute: mt-metrics-eval's `Task` for one test set.
#[derive(Debug, Clone, PartialEq)]
pub struct Task {
    /// The level.
    pub level: Level,
    /// The correlation.
    pub measure: Measure,
    /// Averaging, test, resampling and cluster parameters.
    pub params: Params,
}

impl Task {
    /// mt-metrics-eval's name of the correlation (`corr_fcn`).
    #[must_use]
    pub fn corr_name(&self) -> String {
        match self.measure {
            Measure::Accuracy => "accuracy".to_owned(),
            Measure::Spa { .. } => "pce".to_owned(),
            Measure::Corr(Statistic::Pearson) => "pearson".to_owned(),
            Measure::Corr(Statistic::PearsonPdp) => "pearson(pdp=True)".to_owned(),
            Measure::Corr(Statistic::Spearman) => "spearman".to_owned(),
            Measure::Corr(Statistic::Kendall { variant, epsilon }) => {
                let v = variant_name(variant);
                if epsilon > 0.0 { format!("kendall({v}, epsilon={epsilon})") } else { format!("kendall({v})") }
            }
            Measure::TiesOpt { variant, sample_rate } if sample_rate < 1.0 => {
                format!("KendallWithTiesOpt({}, sample_rate={sample_rate})", variant_name(variant))
            }
            Measure::TiesOpt { variant, .. } => format!("KendallWithTiesOpt({})", variant_name(variant)),
        }
    }

    /// A one-line description: level, correlation, averaging, test.
    #[must_use]
    pub fn name(&self) -> String {
        let level = match self.level {
            Level::Sys => "sys",
            Level::Seg => "seg",
        };
        let p = &self.params;
        let test = match p.test {
            Test::Scores => "scores",
            Test::Pairs => "pairs",
        };
        format!(
            "level={level} corr_fcn={} avg_by={} perm_test={test} k={}",
            self.corr_name(),
            avg_name(p.average_by),
            p.k
        )
    }
}

/// mt-metrics-eval's (and `--variant`'s) name of a tau variant.
#[must_use]
pub fn variant_name(v: Variant) -> &'static str {
    match v {
        Variant::B => "b",
        Variant::C => "c",
        Variant::T23 => "23",
        Variant::Acc23 => "acc23",
    }
}

fn avg_name(a: AverageBy) -> &'static str {
    match a {
        AverageBy::None => "none",
        AverageBy::Sys => "sys",
        AverageBy::Item => "item",
    }
}

/// The early-stopping block size of mt-metrics-eval's `tasks.Task` (100),
/// which its task sets run with; `PermutationSigDiffParams` alone defaults to
/// 1000. `mteval meta` and the report's meta-evaluation use it, so that a
/// default run gives `tasks.WMT23`'s numbers.
pub const TASK_BLOCK_SIZE: usize = 100;

/// The tasks mt-metrics-eval's `tasks.WMT23` runs for one language pair:
/// system-level pairwise accuracy, system- and segment-level Pearson, and
/// segment-level acc-23 with tie calibration averaged by item under the
/// pairs test (`sample_rate` 1).
#[must_use]
pub fn wmt23_tasks(params: &Params) -> Vec<Task> {
    let none = Params { average_by: AverageBy::None, test: Test::Scores, ..*params };
    vec![
        Task { level: Level::Sys, measure: Measure::Accuracy, params: none },
        Task { level: Level::Sys, measure: Measure::Corr(Statistic::Pearson), params: none },
        Task { level: Level::Seg, measure: Measure::Corr(Statistic::Pearson), params: none },
        Task {
            level: Level::Seg,
            measure: Measure::TiesOpt { variant: Variant::Acc23, sample_rate: 1.0 },
            params: Params { average_by: AverageBy::Item, test: Test::Pairs, ..*params },
        },
    ]
}

/// A task's ranking.
#[derive(Debug, Clone)]
pub struct TaskResult {
    /// The task.
    pub task: Task,
    /// The seed its draws started from (`np.random.seed`).
    pub seed: u32,
    /// The ranking.
    pub comparison: Comparison,
}

/// A task's tie calibration over the limit of pairs ([`MAX_PAIRS`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct OverLimit {
    /// The task's index.
    pub task: usize,
    /// The pairs its exact calibration compares.
    pub pairs: usize,
    /// The pairs a sampled one is expected to draw (`pairs` for the exact
    /// search).
    pub expected: f64,
}

impl Task {
    /// The level's scores of `data`, or an error naming what is missing.
    fn level<'a>(&self, data: &'a MetaData) -> Result<&'a LevelScores> {
        if matches!(self.measure, Measure::Spa { .. }) {
            // System-level, from the segment scores (as tasks.py passes 'seg' for 'pce').
            return data.seg.as_ref().with_context(|| {
                format!(
                    "{}: soft pairwise accuracy needs segment-level scores (it tests systems over their segments)",
                    self.name()
                )
            });
        }
        let (level, what) = match self.level {
            Level::Sys => (data.sys.as_ref(), "system"),
            Level::Seg => (data.seg.as_ref(), "segment"),
        };
        level.with_context(|| format!("{}: no {what}-level scores to evaluate", self.name()))
    }

    /// The pairs this task's tie calibration compares on `data` with
    /// averaging `by` (0 for a task without one).
    #[must_use]
    pub fn calibration_pairs(&self, data: &MetaData, by: AverageBy) -> usize {
        let (Measure::TiesOpt { .. }, Ok(level)) = (self.measure, self.level(data)) else { return 0 };
        pair_count(&level.gold, &by.groups(data.systems.len(), level.items))
    }
}

/// The first task whose tie calibration is over the limit of pairs: the
/// exact search over [`MAX_PAIRS`], or a sampled one expected within 1% of
/// it (the kernel stops a sample when it passes the limit).
#[must_use]
pub fn over_limit(data: &MetaData, tasks: &[Task]) -> Option<OverLimit> {
    tasks.iter().enumerate().find_map(|(i, t)| {
        let Measure::TiesOpt { sample_rate, .. } = t.measure else { return None };
        let pairs = t.calibration_pairs(data, t.params.average_by);
        #[allow(clippy::cast_precision_loss, reason = "pair counts are far below 2^53")]
        let expected = pairs as f64 * sample_rate;
        #[allow(clippy::cast_precision_loss, reason = "pair counts are far below 2^53")]
        let over = if sample_rate < 1.0 { expected > 0.99 * MAX_PAIRS as f64 } else { pairs > MAX_PAIRS };
        over.then_some(OverLimit { task: i, pairs, expected })
    })
}

impl OverLimit {
    /// What is over the limit, in words.
    #[must_use]
    #[allow(clippy::cast_precision_loss, reason = "pair counts are far below 2^53")]
    pub fn describe(&self) -> String {
        if self.expected < self.pairs as f64 {
            format!(
                "the tie calibration samples about {:.0} of {} pairs, too near the limit of {MAX_PAIRS}",
                self.expected, self.pairs
            )
        } else {
            format!("the tie calibration compares {} pairs, over the limit of {MAX_PAIRS}", self.pairs)
        }
    }
}

/// Runs the tasks over the levels they need from `np.random.seed(seed)`:
/// with `stream`, one seeding for all of them in order (as
/// `np.random.seed(seed); tasks.WMT23([lp]).Run()`), otherwise each task
/// from its own; after checking every task's level and limits (no work is
/// done when one would fail).
///
/// # Errors
/// A level the data lacks, a tie calibration over the limit of pairs, or a
/// failing comparison (named by the task).
pub fn run_tasks(data: &MetaData, tasks: &[Task], seed: u32, stream: bool) -> Result<Vec<TaskResult>> {
    for task in tasks {
        task.level(data)?;
    }
    if let Some(o) = over_limit(data, tasks) {
        bail!("{}: {}", tasks[o.task].name(), o.describe());
    }
    let mut out = Vec::with_capacity(tasks.len());
    let mut rng = RandomState::seed(seed);
    for task in tasks {
        let level = task.level(data)?;
        if !stream {
            rng = RandomState::seed(seed);
        }
        let _progress = crate::compare::paired::ResamplingProgress::start(&format!("meta {}", task.corr_name()));
        let comparison = compare_metrics(
            &level.gold,
            &level.metrics,
            data.systems.len(),
            task.measure,
            &task.params,
            &mut rng,
            Extra::default(),
        )
        .map_err(|e| anyhow::anyhow!("{}: {e}", task.name()))?;
        out.push(TaskResult { task: task.clone(), seed, comparison });
    }
    Ok(out)
}

/// Python's `f'{x:10.7f}'` (NaN as `nan`).
fn fixed(x: f64, width: usize, decimals: usize) -> String {
    if x.is_nan() { format!("{:>width$}", "nan") } else { format!("{x:width$.decimals$}") }
}

/// mt-metrics-eval's `PrintMetricComparison` of each task, after a header
/// line naming it; with several tasks, a summary of every metric's
/// correlation and rank per task.
#[must_use]
pub fn text(results: &[TaskResult], probs: bool) -> String {
    let mut out = String::new();
    for r in results {
        let _ = writeln!(out, "{} seed={} pval={}", r.task.name(), r.seed, r.task.params.pval);
        let ranked = &r.comparison.metrics;
        let width = ranked.iter().map(|m| m.name.chars().count()).max().unwrap_or(0);
        for (i, m) in ranked.iter().enumerate() {
            let row = &r.comparison.sig[i][i + 1..];
            let sig = if probs {
                let mut s = vec!["  .  "; i + 1].join(" ") + " ";
                s += &row.iter().map(|p| format!("{p:5.3}")).collect::<Vec<_>>().join(" ");
                s
            } else {
                let mut s = vec!["."; i + 1].join(" ") + " ";
                s += &row.iter().map(|&p| if p < r.task.params.pval { ">" } else { "=" }).collect::<Vec<_>>().join(" ");
                s
            };
            let _ = writeln!(out, "{:<width$} {:>2} {}  {sig}", m.name, m.rank, fixed(m.corr, 10, 7));
        }
        // The thresholds of the tie calibration, after mt-metrics-eval's table.
        if ranked.iter().any(|m| m.epsilon.is_some()) {
            let eps: Vec<String> = ranked
                .iter()
                .map(|m| format!("{}={}", m.name, m.epsilon.map_or_else(|| "-".to_owned(), |e| format!("{e}"))))
                .collect();
            let _ = writeln!(out, "tie-calibrated epsilon: {}", eps.join(" "));
        }
        out.push('\n');
    }
    if results.len() > 1 {
        out += &summary(results);
    }
    out
}

/// Every metric (ordered by its average rank over the tasks, then name),
/// with its correlation and rank per task.
/// One metric's line of a summary over tasks: its name, its mean rank over
/// the tasks that rank it, and its (correlation, rank) per task.
pub type SummaryRow = (String, f64, Vec<Option<(f64, usize)>>);

/// Every metric of `results`, ordered by its mean rank, then name, with its
/// correlation and rank per task.
#[must_use]
pub fn summary_rows(results: &[TaskResult]) -> Vec<SummaryRow> {
    let mut names: BTreeSet<&str> = BTreeSet::new();
    for r in results {
        names.extend(r.comparison.metrics.iter().map(|m| m.name.as_str()));
    }
    let mut rows: Vec<SummaryRow> = names
        .into_iter()
        .map(|name| {
            let cells: Vec<Option<(f64, usize)>> = results
                .iter()
                .map(|r| r.comparison.metrics.iter().find(|m| m.name == name).map(|m| (m.corr, m.rank)))
                .collect();
            let ranks: Vec<usize> = cells.iter().flatten().map(|c| c.1).collect();
            #[allow(clippy::cast_precision_loss, reason = "ranks and task counts are small")]
            let avg = ranks.iter().sum::<usize>() as f64 / ranks.len().max(1) as f64;
            (name.to_owned(), avg, cells)
        })
        .collect();
    rows.sort_by(|a, b| a.1.total_cmp(&b.1).then_with(|| a.0.cmp(&b.0)));
    rows
}

/// The summary table of [`summary_rows`], with the tasks' names below.
fn summary(results: &[TaskResult]) -> String {
    let order = summary_rows(results);
    let width = order.iter().map(|(n, ..)| n.chars().count()).max().unwrap_or(6).max(6);
    let mut out = format!("{:<width$}  avg rank", "metric");
    for (t, _) in results.iter().enumerate() {
        let _ = write!(out, "  {:>16}", format!("task {}", t + 1));
    }
    out.push('\n');
    for (name, avg, cells) in &order {
        let _ = write!(out, "{name:<width$}  {avg:8.2}");
        for c in cells {
            let c = c.map_or_else(|| "-".to_owned(), |(c, k)| format!("{} ({k})", fixed(c, 0, 4)));
            let _ = write!(out, "  {c:>16}");
        }
        out.push('\n');
    }
    for (t, r) in results.iter().enumerate() {
        let _ = writeln!(out, "task {}: {}", t + 1, r.task.name());
    }
    out
}

/// The results as one JSON object: `tasks`, each with `level`, `corr_fcn`,
/// `average_by`, `perm_test`, `k`, `seed`, `pval`, `metrics` (`name`,
/// `corr`, `rank`, by decreasing correlation, and `epsilon`, the threshold,
/// with tie calibration), `sig` (the p-value matrix,
/// upper triangle) and `draws` (resampling runs done per pair).
#[must_use]
pub fn json(results: &[TaskResult]) -> serde_json::Value {
    let num = |x: f64| if x.is_finite() { serde_json::json!(x) } else { serde_json::Value::Null };
    let tasks: Vec<serde_json::Value> = results
        .iter()
        .map(|r| {
            let p = &r.task.params;
            serde_json::json!({
                "name": r.task.name(),
                "level": r.task.level,
                "corr_fcn": r.task.corr_name(),
                "average_by": avg_name(p.average_by),
                "perm_test": match p.test { Test::Scores => "scores", Test::Pairs => "pairs" },
                "k": p.k,
                "block_size": p.block_size,
                "seed": r.seed,
                "pval": p.pval,
                "metrics": r.comparison.metrics.iter().map(|m| {
                    let mut v = serde_json::json!({ "name": m.name, "corr": num(m.corr), "rank": m.rank });
                    if let Some(e) = m.epsilon {
                        v["epsilon"] = num(e);
                    }
                    v
                }).collect::<Vec<_>>(),
                "sig": r.comparison.sig.iter().map(|row| row.iter().map(|&x| num(x)).collect::<Vec<_>>()).collect::<Vec<_>>(),
                "draws": r.comparison.draws,
            })
        })
        .collect();
    serde_json::json!({ "tasks": tasks })
}

/// The columns of a meta-evaluation table.
#[derive(Debug, Clone)]
pub struct TableSpec<'a> {
    /// The table (a file, folder, glob or URL).
    pub input: &'a str,
    /// The system column.
    pub system_col: &'a str,
    /// The segment id column; `None`: each system's rows in input order
    /// (one row per system: system-level scores).
    pub segment_col: Option<&'a str>,
    /// The gold score column.
    pub gold_col: &'a str,
    /// The metric score columns (all other number columns when empty).
    pub metric_cols: &'a [String],
    /// Systems left out.
    pub exclude: &'a [String],
    /// The language pair column: each pair's rows are a test set of their
    /// own ([`read_table_lps`]).
    pub lp_col: Option<&'a str>,
    /// The table is registered as `meta_input` already (Arrow data in
    /// memory); `input` only names it.
    pub in_memory: bool,
}

/// Reads a table with a row per system and segment (or per system): gold
/// and metric scores as numbers, a NULL gold score missing. Segment-level
/// tables also give system-level scores: each system's mean segment scores
/// (numpy's mean, over the present gold scores).
///
/// # Errors
/// Missing columns, non-number scores, a NULL metric score, a system
/// without a row for some segment (or with two), no system.
pub async fn read_table(ctx: &datafusion::prelude::SessionContext, spec: &TableSpec<'_>) -> Result<MetaData> {
    let mut all = read_table_lps(ctx, spec).await?;
    if all.len() > 1 {
        bail!("{}: {} language pairs: run them as a task set (--tasks)", spec.input, all.len());
    }
    all.pop_first().map(|(_, d)| d).context("no rows")
}

/// Reads a table as [`read_table`] does, one test set per value of the
/// language pair column (`""` without one), each aligned on its own.
///
/// # Errors
/// As [`read_table`], naming the language pair; a NULL language pair.
pub async fn read_table_lps(
    ctx: &datafusion::prelude::SessionContext,
    spec: &TableSpec<'_>,
) -> Result<BTreeMap<String, MetaData>> {
    if !spec.in_memory {
        crate::session::register_input(ctx, "meta_input", spec.input, &[]).await?;
    }
    let df = ctx.table("meta_input").await.with_context(|| format!("cannot read {}", spec.input))?;
    let schema = df.schema().as_arrow().clone();
    crate::corpus::check_column(&schema, spec.input, spec.system_col, "system", false)?;
    crate::corpus::check_column(&schema, spec.input, spec.gold_col, "gold", false)?;
    if let Some(s) = spec.segment_col {
        crate::corpus::check_column(&schema, spec.input, s, "segment", false)?;
    }
    if let Some(s) = spec.lp_col {
        crate::corpus::check_column(&schema, spec.input, s, "language pair", false)?;
    }
    let metric_cols: Vec<String> = if spec.metric_cols.is_empty() {
        let taken = [Some(spec.system_col), Some(spec.gold_col), spec.segment_col, spec.lp_col];
        schema
            .fields()
            .iter()
            .filter(|f| f.data_type().is_numeric() && !taken.contains(&Some(f.name().as_str())))
            .map(|f| f.name().clone())
            .collect()
    } else {
        spec.metric_cols.to_vec()
    };
    if metric_cols.is_empty() {
        bail!(
            "{}: no metric column: name them with --metric COL (every number column but the gold one is taken by default)",
            spec.input
        );
    }
    for c in &metric_cols {
        let f = crate::corpus::check_column(&schema, spec.input, c, "metric", false)?;
        if !f.data_type().is_numeric() {
            bail!("{}: metric column '{c}' has type {}, expected numbers", spec.input, f.data_type());
        }
    }
    let gold_type = schema.field_with_name(spec.gold_col)?.data_type();
    if !gold_type.is_numeric() && *gold_type != DataType::Null {
        bail!("{}: gold column '{}' has type {gold_type}, expected numbers", spec.input, spec.gold_col);
    }
    let batches = df.collect().await.with_context(|| format!("cannot read {}", spec.input))?;
    if spec.metric_cols.is_empty() {
        let taken = [Some(spec.system_col), Some(spec.gold_col), spec.segment_col, spec.lp_col];
        for f in schema.fields().iter().filter(|f| !taken.contains(&Some(f.name().as_str()))) {
            refuse_numbers_as_text(&batches, spec.input, f)?;
        }
    }
    let by_lp = collect_rows(&batches, spec, &metric_cols)?;
    by_lp
        .iter()
        .map(|(lp, rows)| {
            let data = align(spec, &metric_cols, rows)
                .map_err(|e| if lp.is_empty() { e } else { e.context(format!("language pair {lp}")) })?;
            Ok((lp.clone(), data))
        })
        .collect()
}

/// One row of a meta-evaluation table: the segment id, the gold score and
/// the metrics' scores.
type Row = (Option<String>, Option<f64>, Vec<f64>);

/// Refuses a text column that holds numbers in some rows but not in others
/// (a CSV metric column with one `x` or `NA` is read as text): every number
/// column is a metric by default and a text column is left out, so that one
/// cell would silently drop the whole metric. Names the column, the first
/// row that is not a number and one that is. (A text column of numbers only,
/// such as string ids, is left out as text.)
fn refuse_numbers_as_text(
    batches: &[datafusion::arrow::array::RecordBatch],
    input: &str,
    field: &datafusion::arrow::datatypes::Field,
) -> Result<()> {
    if !mteval_udfs::common::is_string(field.data_type()) {
        return Ok(());
    }
    let name = field.name();
    let (mut number, mut other, mut row) = (None, None, 0usize);
    for b in batches {
        let col = cast(b.column_by_name(name).context("column")?, &DataType::Utf8)?;
        for (i, v) in col.as_string::<i32>().iter().enumerate() {
            let Some(v) = v else { continue };
            let slot = if v.trim().parse::<f64>().is_ok() { &mut number } else { &mut other };
            slot.get_or_insert((row + i, v.to_owned()));
        }
        row += b.num_rows();
        if number.is_some() && other.is_some() {
            break;
        }
    }
    if let (Some((n, x)), Some((r, v))) = (number, other) {
        bail!(
            "{input}: column '{name}' holds numbers (row {n} counting from 0: {x}) and text (row {r}: '{v}'), so it \
             was read as text; a metric column holds numbers only (fix row {r}, or name the metrics with --metric)"
        );
    }
    Ok(())
}

/// Per language pair (`""` without the column), each system's rows in
/// input order (systems by name), less the excluded ones. Rows are named
/// counting from 0, as `mteval score` names them.
fn collect_rows(
    batches: &[datafusion::arrow::array::RecordBatch],
    spec: &TableSpec<'_>,
    metric_cols: &[String],
) -> Result<BTreeMap<String, BTreeMap<String, Vec<Row>>>> {
    let mut rows: BTreeMap<String, BTreeMap<String, Vec<Row>>> = BTreeMap::new();
    let mut excluded: BTreeSet<String> = BTreeSet::new();
    let mut row_no = 0usize;
    for b in batches {
        let text = |name: &str| -> Result<Vec<Option<String>>> {
            let col = cast(b.column_by_name(name).context("column")?, &DataType::Utf8)?;
            Ok(col.as_string::<i32>().iter().map(|v| v.map(str::to_owned)).collect())
        };
        let number = |name: &str| -> Result<Vec<Option<f64>>> {
            let col = cast(b.column_by_name(name).context("column")?, &DataType::Float64)?;
            Ok(col.as_primitive::<Float64Type>().iter().collect())
        };
        let systems = text(spec.system_col)?;
        let segs = spec.segment_col.map(text).transpose()?;
        let lps = spec.lp_col.map(text).transpose()?;
        let gold = number(spec.gold_col)?;
        let metrics: Vec<Vec<Option<f64>>> = metric_cols.iter().map(|c| number(c)).collect::<Result<_>>()?;
        for i in 0..b.num_rows() {
            let at = format!("{}: row {} (counting from 0)", spec.input, row_no + i);
            let Some(system) = systems[i].clone() else {
                bail!("{at}: the system ('{}') is NULL", spec.system_col);
            };
            if spec.exclude.contains(&system) {
                excluded.insert(system);
                continue;
            }
            let lp = match &lps {
                Some(l) => l[i].clone().with_context(|| {
                    format!("{at}: the language pair ('{}') is NULL", spec.lp_col.unwrap_or_default())
                })?,
                None => String::new(),
            };
            let seg = match &segs {
                Some(s) => Some(s[i].clone().with_context(|| {
                    format!("{at}: the segment id ('{}') is NULL", spec.segment_col.unwrap_or_default())
                })?),
                None => None,
            };
            let mut vals = Vec::with_capacity(metrics.len());
            for (c, m) in metric_cols.iter().zip(&metrics) {
                match m[i] {
                    Some(v) if v.is_finite() => vals.push(v),
                    Some(v) => bail!(
                        "{at}: metric '{c}' is {v} (system {system}); scores must be finite numbers (a NULL gold score is a missing one)"
                    ),
                    None => bail!(
                        "{at}: metric '{c}' is NULL (system {system}); every metric scores every segment (a gold score may be NULL)"
                    ),
                }
            }
            let g = match gold[i] {
                Some(v) if !v.is_finite() => bail!(
                    "{at}: the gold score ('{}') is {v} (system {system}); scores must be finite numbers: a missing one is NULL",
                    spec.gold_col
                ),
                g => g,
            };
            rows.entry(lp).or_default().entry(system).or_default().push((seg, g, vals));
        }
        row_no += b.num_rows();
    }
    let known = || rows.values().flat_map(BTreeMap::keys).chain(&excluded).cloned().collect::<BTreeSet<String>>();
    check_excluded(spec.exclude, &excluded, known, spec.input)?;
    if rows.is_empty() {
        bail!("{}: no rows", spec.input);
    }
    Ok(rows)
}

/// Refuses an `--exclude` name that is no system of the input, listing
/// the systems there are (the first 20).
fn check_excluded(
    exclude: &[String],
    found: &BTreeSet<String>,
    known: impl FnOnce() -> BTreeSet<String>,
    input: &str,
) -> Result<()> {
    let Some(name) = exclude.iter().find(|e| !found.contains(*e)) else { return Ok(()) };
    let known = known();
    let mut list: Vec<&str> = known.iter().take(20).map(String::as_str).collect();
    if known.len() > 20 {
        list.push("...");
    }
    bail!("--exclude {name}: {input} has no system of that name ({} systems: {})", known.len(), list.join(", "))
}

/// The systems' rows aligned by segment into packed scores.
/// A system without any gold score is left out, as mt-metrics-eval's
/// `GetCorrelations` leaves it out.
fn align(spec: &TableSpec<'_>, metric_cols: &[String], all_rows: &BTreeMap<String, Vec<Row>>) -> Result<MetaData> {
    let rows: BTreeMap<String, Vec<Row>> = all_rows
        .iter()
        .filter(|(_, rs)| rs.iter().any(|r| r.1.is_some()))
        .map(|(s, r)| (s.clone(), r.clone()))
        .collect();
    if rows.is_empty() {
        bail!("{}: no system has a gold score ('{}' is NULL in every row)", spec.input, spec.gold_col);
    }
    let rows = &rows;
    let systems: Vec<String> = rows.keys().cloned().collect();
    // The segment order: ids sorted (as numbers when all are), or input order.
    let items: Vec<Option<String>> = match spec.segment_col {
        Some(_) => {
            let ids: BTreeSet<String> = all_rows.values().flatten().filter_map(|r| r.0.clone()).collect();
            mteval_kernels::meta::keys::sorted(ids.into_iter().collect()).into_iter().map(Some).collect()
        }
        None => vec![None; rows.values().next().map_or(0, Vec::len)],
    };
    let n_items = items.len();
    let mut seg = LevelScores {
        items: n_items,
        metrics: metric_cols.iter().map(|c| (c.clone(), Vec::new())).collect(),
        ..LevelScores::default()
    };
    for (system, rs) in rows {
        let ordered: Vec<&Row> = if spec.segment_col.is_some() {
            let mut by: BTreeMap<&str, &Row> = BTreeMap::new();
            for r in rs {
                let id = r.0.as_deref().unwrap_or_default();
                if by.insert(id, r).is_some() {
                    bail!("{}: system {system} has two rows for segment {id}", spec.input);
                }
            }
            items
                .iter()
                .map(|id| {
                    let id = id.as_deref().unwrap_or_default();
                    by.get(id)
                        .copied()
                        .with_context(|| format!("{}: system {system} has no row for segment {id}", spec.input))
                })
                .collect::<Result<_>>()?
        } else {
            if rs.len() != n_items {
                bail!(
                    "{}: system {system} has {} rows, system {} has {n_items}: every system scores the same segments (align them with --segment-col)",
                    spec.input,
                    rs.len(),
                    systems[0]
                );
            }
            rs.iter().collect()
        };
        for r in ordered {
            seg.gold.push(r.1);
            for (m, v) in seg.metrics.iter_mut().zip(&r.2) {
                m.1.push(*v);
            }
        }
    }
    Ok(from_segments(systems, seg))
}

/// Segment-level scores and the system-level means they give; one item per
/// system is system-level data only.
fn from_segments(systems: Vec<String>, seg: LevelScores) -> MetaData {
    if seg.items == 1 {
        return MetaData { systems, seg: None, sys: Some(seg), ..MetaData::default() };
    }
    let n = seg.items;
    let sys_gold = seg.gold.chunks(n).map(|c| numpy_mean(&c.iter().flatten().copied().collect::<Vec<_>>())).collect();
    let sys_metrics = seg
        .metrics
        .iter()
        .map(|(name, v)| (name.clone(), v.chunks(n).map(|c| numpy_mean(c).unwrap_or(f64::NAN)).collect()))
        .collect();
    MetaData {
        systems,
        sys: Some(LevelScores { gold: sys_gold, metrics: sys_metrics, items: 1 }),
        seg: Some(seg),
        ..MetaData::default()
    }
}

/// Where mt-metrics-eval keeps a test set: `ROOT/TEST_SET/` with
/// `human-scores/LP.GOLD.LEVEL.score`, `metric-scores/LP/NAME-REFS.LEVEL.score`
/// and `references/LP.REF.txt`, score files of `system<TAB>score` lines (one
/// per segment, in order, for `seg`; `None` for a missing gold score).
#[derive(Debug, Clone)]
pub struct MtmeSpec<'a> {
    /// The data root (e.g. `~/.mt-metrics-eval/mt-metrics-eval-v2`).
    pub root: &'a Path,
    /// The test set (`wmt23`).
    pub test_set: &'a str,
    /// The language pair (`en-de`).
    pub lp: &'a str,
    /// The gold scores' name (`mqm`); the only one when `None`.
    pub gold: Option<&'a str>,
    /// The reference the metrics may use (`refA`); the only one when `None`.
    pub reference: Option<&'a str>,
    /// Keep human translations (references other than this one) as systems.
    pub include_human: bool,
    /// Systems left out (mt-metrics-eval's outliers are listed in its code,
    /// not in the data).
    pub exclude: &'a [String],
    /// Only these metrics (their file names without level and extension,
    /// `BLEU-refA`, or their display names), when given.
    pub metrics: &'a [String],
    /// Systems left out where they are present (the test set's outliers).
    pub outliers: &'a [String],
    /// Name the metrics as mt-metrics-eval's `DisplayName` does
    /// (`*Contrastive`, `NoRef[noref]`), with these primaries where known.
    pub display: Option<Option<&'a [&'a str]>>,
    /// Only the primary metrics (`primary=True`).
    pub primary_only: bool,
}

/// `ReadScoreFile`: per system, its scores in order.
fn read_score_file(path: &Path) -> Result<BTreeMap<String, Vec<Option<f64>>>> {
    let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let mut out: BTreeMap<String, Vec<Option<f64>>> = BTreeMap::new();
    for (i, line) in text.lines().enumerate() {
        let mut it = line.split_whitespace();
        let (Some(sys), Some(score), None) = (it.next(), it.next(), it.next()) else {
            bail!("{}:{}: expected 'system<TAB>score', got {line:?}", path.display(), i + 1);
        };
        let v = if score == "None" {
            None
        } else {
            let v = score
                .parse::<f64>()
                .with_context(|| format!("{}:{}: score {score:?} is not a number", path.display(), i + 1))?;
            if !v.is_finite() {
                bail!(
                    "{}:{}: score {score:?}: scores must be finite numbers (a missing one is None)",
                    path.display(),
                    i + 1
                );
            }
            Some(v)
        };
        out.entry(sys.to_owned()).or_default().push(v);
    }
    Ok(out)
}

/// The names in `dir` of files `PREFIX<name>SUFFIX`, sorted.
fn names_between(dir: &Path, prefix: &str, suffix: &str) -> Result<Vec<String>> {
    let entries = std::fs::read_dir(dir).with_context(|| format!("cannot read {}", dir.display()))?;
    let mut out = Vec::new();
    for e in entries {
        let name = e?.file_name().to_string_lossy().into_owned();
        if let Some(mid) = name.strip_prefix(prefix).and_then(|r| r.strip_suffix(suffix)) {
            out.push(mid.to_owned());
        }
    }
    out.sort();
    Ok(out)
}

/// The one name of `what`, or the given one (which must exist).
fn choose(given: Option<&str>, found: &[String], what: &str, flag: &str, dir: &Path) -> Result<String> {
    match given {
        Some(g) if found.iter().any(|f| f == g) => Ok(g.to_owned()),
        Some(g) => bail!("{}: no {what} '{g}' (found: {})", dir.display(), found.join(", ")),
        None if found.len() == 1 => Ok(found[0].clone()),
        None if found.is_empty() => bail!("{}: no {what} found", dir.display()),
        None => bail!("{}: several {what}s ({}): choose one with {flag}", dir.display(), found.join(", ")),
    }
}

/// The name a metric file `BASE-REFS` is shown under, when the spec keeps
/// it: it uses no reference but the chosen one (`-src`, `-REF`, or `-all`
/// when it is the only one), it is asked for (by file or shown name), and
/// it is primary when only primaries are kept.
fn selected(spec: &MtmeSpec<'_>, name: &str, refs: &[String], reference: &str) -> Option<String> {
    let (base, refs_used) = name.rsplit_once('-')?;
    let ok = match refs_used {
        "src" => true,
        "all" => refs.len() == 1,
        r => r.split('.').all(|x| x == reference),
    };
    let shown = match spec.display {
        Some(primaries) => info::display_name(name, primaries),
        None => name.to_owned(),
    };
    let asked = spec.metrics.is_empty() || spec.metrics.iter().any(|m| m == name || *m == shown);
    let primary = match (spec.primary_only, spec.display) {
        (true, Some(Some(p))) => p.is_empty() || p.contains(&base),
        _ => true,
    };
    (ok && asked && primary).then_some(shown)
}

/// Reads one language pair of an mt-metrics-eval test set, as
/// `GetCorrelations` selects it: the systems with any gold score, less the
/// references (the other references too, unless human translations are
/// kept) and the excluded systems; the metrics that use no reference but
/// the chosen one (`-src`, `-REF`, or `-all` when it is the only one).
///
/// # Errors
/// Missing folders or files, ambiguous gold or reference names, malformed
/// score files, a metric missing a system's scores.
pub fn read_mtme(spec: &MtmeSpec<'_>) -> Result<MetaData> {
    let base: PathBuf = spec.root.join(spec.test_set);
    let human = base.join("human-scores");
    let mut golds: Vec<String> = names_between(&human, &format!("{}.", spec.lp), ".seg.score")?;
    golds.extend(names_between(&human, &format!("{}.", spec.lp), ".sys.score")?);
    golds.sort();
    golds.dedup();
    let gold = choose(spec.gold, &golds, "human score", "--mtme-gold", &human)?;
    let refs_dir = base.join("references");
    let refs: Vec<String> = names_between(&refs_dir, &format!("{}.", spec.lp), ".txt")?;
    let reference = choose(spec.reference, &refs, "reference", "--mtme-ref", &refs_dir)?;
    let metric_dir = base.join("metric-scores").join(spec.lp);
    let mut data = MetaData::default();
    let mut systems: Option<Vec<String>> = None;
    for (level, ext) in [(Level::Seg, ".seg.score"), (Level::Sys, ".sys.score")] {
        let gold_path = human.join(format!("{}.{gold}{ext}", spec.lp));
        if !gold_path.exists() {
            continue;
        }
        let gold_scores = read_score_file(&gold_path)?;
        let found: BTreeSet<String> = spec.exclude.iter().filter(|e| gold_scores.contains_key(*e)).cloned().collect();
        check_excluded(
            spec.exclude,
            &found,
            || gold_scores.keys().cloned().collect(),
            &gold_path.display().to_string(),
        )?;
        let keep: Vec<String> = gold_scores
            .iter()
            .filter(|(s, v)| {
                v.iter().any(Option::is_some)
                    && **s != reference
                    && (spec.include_human || !refs.contains(s))
                    && !spec.exclude.contains(s)
                    && !spec.outliers.contains(s)
            })
            .map(|(s, _)| s.clone())
            .collect();
        data.left_out
            .extend(gold_scores.keys().filter(|s| spec.exclude.contains(s) || spec.outliers.contains(s)).cloned());
        let systems = systems.get_or_insert_with(|| keep.clone());
        if *systems != keep {
            bail!("{}: the systems differ from the segment-level gold scores'", gold_path.display());
        }
        let Some(first) = keep.first() else {
            bail!("{}: no system is left to evaluate (the references and --exclude left out)", gold_path.display());
        };
        let items = gold_scores[first].len();
        let mut level_scores = LevelScores { items, ..LevelScores::default() };
        for s in &keep {
            let v = &gold_scores[s];
            if v.len() != items {
                bail!("{}: system {s} has {} scores, system {} has {items}", gold_path.display(), v.len(), keep[0]);
            }
            level_scores.gold.extend(v);
        }
        for name in names_between(&metric_dir, "", ext)? {
            let Some(shown) = selected(spec, &name, &refs, &reference) else { continue };
            let path = metric_dir.join(format!("{name}{ext}"));
            let scores = read_score_file(&path)?;
            let mut vals = Vec::with_capacity(keep.len() * items);
            for s in &keep {
                let v = scores.get(s).with_context(|| format!("{}: no scores for system {s}", path.display()))?;
                if v.len() != items {
                    bail!("{}: system {s} has {} scores, the gold scores {items}", path.display(), v.len());
                }
                for (i, x) in v.iter().enumerate() {
                    vals.push(x.with_context(|| {
                        format!(
                            "{}: system {s}, item {i} (counting from 0): None (a metric scores every item)",
                            path.display()
                        )
                    })?);
                }
            }
            level_scores.metrics.push((shown, vals));
        }
        match level {
            Level::Seg => data.seg = Some(level_scores),
            Level::Sys => data.sys = Some(level_scores),
        }
    }
    data.systems =
        systems.with_context(|| format!("{}: no {}.{gold}.seg.score or .sys.score", human.display(), spec.lp))?;

    if data.systems.is_empty() {
        bail!("{}: no system has a gold score", human.display());
    }
    Ok(data)
}
