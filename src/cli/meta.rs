//! `mteval meta`: how well metrics agree with human judgements, ranked with
//! significance clusters as mt-metrics-eval ranks them (`crate::meta`).

use std::fmt::Write as _;

use anyhow::{Context as _, Result, bail};
use clap::ValueEnum as _;
use mteval_kernels::meta::permutation::{Measure, Params, Test};
use mteval_kernels::meta::{AverageBy, MAX_PAIRS, Statistic, Variant, rate_within_limit};

use crate::meta::{Level, MetaData, MtmeSpec, OverLimit, TableSpec, Task};
use crate::session::{SessionOptions, new_context};

/// The correlation of a single task (`--corr`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum CorrArg {
    /// scipy's pearsonr.
    Pearson,
    /// scipy's spearmanr.
    Spearman,
    /// mt-metrics-eval's `KendallVariants` (--variant, --epsilon).
    Kendall,
    /// `KendallWithTiesOpt`: tie-calibrated acc-23 or tau-23 (--variant, --sample-rate).
    TiesOpt,
    /// System-level pairwise accuracy.
    Accuracy,
    /// System-level soft pairwise accuracy (WMT24/25's SPA, `PairwiseConfidenceError`), from
    /// the segment scores.
    Spa,
}

/// `--average-by`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum AverageArg {
    /// One correlation over all scores.
    None,
    /// The mean of the correlations per system.
    Sys,
    /// The mean of the correlations per item (segment).
    Item,
}

/// `--perm-test`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum TestArg {
    /// `PermutationSigDiff`: swap the two metrics' scores.
    Scores,
    /// `PairwisePermutationSigDiff`: swap their pairwise comparisons (with --corr ties-opt).
    Pairs,
}

/// Arguments of `mteval meta`.
#[derive(Debug, clap::Args)]
#[allow(clippy::struct_excessive_bools, reason = "independent command-line flags")]
pub struct MetaArgs {
    /// A table with a row per system and segment (or per system): the system, the segment id,
    /// the gold (human) score and one column per metric. Not with --mtme.
    pub input: Option<String>,
    /// Table: the gold score column (NULL: missing) [default: gold].
    #[arg(long)]
    pub gold: Option<String>,
    /// Table: a metric score column (repeat; default: every other number column). With --mtme:
    /// a metric's file name without level (`BLEU-refA`; default: every metric).
    #[arg(long = "metric", short = 'm')]
    pub metrics: Vec<String>,
    /// Table: the system column [default: system].
    #[arg(long)]
    pub system_col: Option<String>,
    /// Table: the segment id column aligning the systems' rows (default: each system's rows in
    /// input order; one row per system is system-level data).
    #[arg(long)]
    pub segment_col: Option<String>,
    /// mt-metrics-eval's data root (its `mt-metrics-eval-v2` folder), read for one test set and
    /// language pair (--mtme-test-set, --mtme-lp).
    #[arg(long, value_name = "DIR")]
    pub mtme: Option<std::path::PathBuf>,
    /// With --mtme: the test set.
    #[arg(long, default_value = "wmt23")]
    pub mtme_test_set: String,
    /// With --mtme: the language pair (`en-de`), several separated by commas (a task set over
    /// them: --tasks), or `all` (every pair of the test set with gold scores).
    #[arg(long)]
    pub mtme_lp: Option<String>,
    /// Table: the language pair column; each pair's rows are a test set of their own, run as a
    /// task set (--tasks).
    #[arg(long)]
    pub lp_col: Option<String>,
    /// Run mt-metrics-eval's task set over every language pair (tasks.WMT23, WMT24, WMT25: the
    /// same tasks, weights, block size and early stopping, -k for every task), from one
    /// np.random.seed(--seed), and print its final table: each task's correlation and rank,
    /// the weighted average correlation with its significance clusters and the average rank
    /// [default with several language pairs: the --mtme test set's, else wmt23].
    #[arg(long, value_parser = ["wmt23", "wmt24", "wmt25"])]
    pub tasks: Option<String>,
    /// With --tasks and --mtme: only the test set's primary metrics (`meta_info`; the task sets'
    /// primary=True). Default: every metric, contrastive ones shown as `*NAME`.
    #[arg(long)]
    pub primary: bool,
    /// With --tasks and --mtme: keep the test set's outlier systems (`meta_info`).
    #[arg(long)]
    pub use_outliers: bool,
    /// With --tasks: the table's format (mt-metrics-eval's `MetricsTable` `fmt`).
    #[arg(long, value_parser = ["text", "tsv", "latex"], default_value = "text")]
    pub table_format: String,
    /// With --mtme: the human scores' name (`mqm`; default: the only one).
    #[arg(long)]
    pub mtme_gold: Option<String>,
    /// With --mtme: the reference metrics may use (`refA`; default: the only one).
    #[arg(long)]
    pub mtme_ref: Option<String>,
    /// With --mtme: keep human translations (the other references) as systems.
    #[arg(long)]
    pub include_human: bool,
    /// A system to leave out (repeat), such as mt-metrics-eval's outliers.
    #[arg(long)]
    pub exclude: Vec<String>,
    /// One task instead of WMT23's four (sys accuracy, sys Pearson, seg Pearson, seg
    /// tie-calibrated acc-23 by item with the pairs test): its correlation.
    #[arg(long, value_enum)]
    pub corr: Option<CorrArg>,
    /// With --corr: the level [default: seg, sys for accuracy].
    #[arg(long, value_enum)]
    pub level: Option<Level>,
    /// With --corr: averaging [default: none].
    #[arg(long, value_enum, default_value = "none")]
    pub average_by: AverageArg,
    /// With --corr kendall or ties-opt: the variant (b, c, 23, acc23) [default: b; acc23 for
    /// ties-opt].
    #[arg(long)]
    pub variant: Option<String>,
    /// With --corr kendall: metric differences up to it are ties [default: 0].
    #[arg(long)]
    pub epsilon: Option<f64>,
    /// With --corr ties-opt: the share of pairs the calibration samples [default: 1].
    #[arg(long)]
    pub sample_rate: Option<f64>,
    /// With --corr pearson: Pairwise Difference Pearson (mt-metrics-eval's `pdp=True`): the
    /// correlation of the score differences of every pair of systems within each averaged
    /// vector, pooled into one Pearson; ranked by correlation alone (-k 0), since
    /// mt-metrics-eval's permutation test does not take it.
    #[arg(long)]
    pub pdp: bool,
    /// With --corr: the permutation test [default: scores].
    #[arg(long, value_enum, default_value = "scores")]
    pub perm_test: TestArg,
    /// Resampling runs per pair of metrics (0: rank by correlation only).
    #[arg(short = 'k', long, default_value_t = 1000)]
    pub k: usize,
    /// Each task's draws start from numpy's `np.random.seed(SEED)`.
    #[arg(long, default_value_t = 12345)]
    pub seed: u32,
    /// Early-stopping block size (mt-metrics-eval's tasks.Task default).
    #[arg(long, default_value_t = crate::meta::TASK_BLOCK_SIZE)]
    pub block_size: usize,
    /// Stop early when the p-value is under this at a block's end.
    #[arg(long, default_value_t = 0.02)]
    pub early_min: f64,
    /// Stop early when the p-value is over this at a block's end.
    #[arg(long, default_value_t = 0.5)]
    pub early_max: f64,
    /// The p-value under which a metric beats another (rank clusters).
    #[arg(long, default_value_t = 0.05)]
    pub pval: f64,
    /// Count NaN correlations (constant vectors) as 0 when averaging.
    #[arg(long)]
    pub replace_nans_with_zeros: bool,
    /// Print the p-values instead of `>`/`=` in the significance columns.
    #[arg(long)]
    pub probs: bool,
    /// One JSON object instead of text.
    #[arg(long)]
    pub json: bool,
    /// The table as Arrow data in memory (Python's `mteval.meta`), read in place of the input
    /// path (which then only names it in messages).
    #[arg(skip)]
    pub memory: Option<std::sync::Arc<datafusion::datasource::MemTable>>,
}

/// `mteval meta`'s arguments from a command line's words after `meta`
/// (Python's `mteval.meta` builds them), checked as the CLI checks them.
///
/// # Errors
/// What clap reports, as its message.
pub fn parse_args(words: &[String]) -> Result<MetaArgs> {
    use clap::{Args as _, FromArgMatches as _};
    let cmd = MetaArgs::augment_args(clap::Command::new("meta").no_binary_name(true).disable_help_flag(true));
    let m = cmd.try_get_matches_from(words).map_err(|e| anyhow::anyhow!("{}", e.render().to_string().trim()))?;
    Ok(MetaArgs::from_arg_matches(&m)?)
}

/// A session reading the table from memory when there is one.
fn session(a: &MetaArgs) -> Result<datafusion::prelude::SessionContext> {
    let ctx = new_context(&SessionOptions { target_partitions: Some(1), ..SessionOptions::default() })?;
    if let Some(t) = &a.memory {
        ctx.register_table("meta_input", t.clone())?;
    }
    Ok(ctx)
}

/// The most resampling runs per pair of metrics.
const MAX_K: usize = 1_000_000;

impl MetaArgs {
    fn params(&self) -> Result<Params> {
        if self.k > MAX_K {
            bail!(
                "-k {} is over the limit of {MAX_K} resampling runs per pair of metrics (mt-metrics-eval's default is 1000)",
                self.k
            );
        }
        if self.block_size == 0 {
            bail!("--block-size must be at least 1");
        }
        if !(0.0..=1.0).contains(&self.pval) {
            bail!("--pval {} must be between 0 and 1", self.pval);
        }
        Ok(Params {
            average_by: match self.average_by {
                AverageArg::None => AverageBy::None,
                AverageArg::Sys => AverageBy::Sys,
                AverageArg::Item => AverageBy::Item,
            },
            k: self.k,
            block_size: self.block_size,
            early_min: self.early_min,
            early_max: self.early_max,
            pval: self.pval,
            replace_nans_with_zeros: self.replace_nans_with_zeros,
            test: match self.perm_test {
                TestArg::Scores => Test::Scores,
                TestArg::Pairs => Test::Pairs,
            },
        })
    }

    /// The table's columns as the flags name them (`lp_col`: its language
    /// pair column, for a task set).
    fn table_spec<'a>(&'a self, input: &'a str, lp_col: Option<&'a str>) -> TableSpec<'a> {
        TableSpec {
            input,
            system_col: self.system_col.as_deref().unwrap_or("system"),
            segment_col: self.segment_col.as_deref(),
            gold_col: self.gold.as_deref().unwrap_or("gold"),
            metric_cols: &self.metrics,
            exclude: &self.exclude,
            lp_col,
            in_memory: self.memory.is_some(),
        }
    }

    /// The flags that shape the one task of `--corr`, and whether each is given.
    fn one_task_flags(&self) -> [(&'static str, bool); 7] {
        [
            ("--level", self.level.is_some()),
            ("--average-by", self.average_by != AverageArg::None),
            ("--variant", self.variant.is_some()),
            ("--epsilon", self.epsilon.is_some()),
            ("--sample-rate", self.sample_rate.is_some()),
            ("--perm-test", self.perm_test != TestArg::Scores),
            ("--pdp", self.pdp),
        ]
    }

    fn tasks(&self) -> Result<Vec<Task>> {
        let params = self.params()?;
        let Some(corr) = self.corr else {
            for (flag, given) in self.one_task_flags() {
                if given {
                    bail!("{flag} goes with --corr (without it, mteval meta runs WMT23's four tasks)");
                }
            }
            return Ok(crate::meta::wmt23_tasks(&params));
        };
        // The rule of meta_corr's options: variant and epsilon go with
        // Kendall (the variant also with tie calibration, which samples).
        let name = corr.to_possible_value().map(|v| v.get_name().to_owned()).unwrap_or_default();
        let (variant_ok, epsilon_ok) = (matches!(corr, CorrArg::Kendall | CorrArg::TiesOpt), corr == CorrArg::Kendall);
        if (self.variant.is_some() && !variant_ok) || (self.epsilon.is_some() && !epsilon_ok) {
            bail!(
                "--variant and --epsilon go with --corr kendall (--variant also with --corr ties-opt), not --corr {name}"
            );
        }
        if self.sample_rate.is_some() && corr != CorrArg::TiesOpt {
            bail!("--sample-rate goes with --corr ties-opt, not --corr {name}");
        }
        if self.pdp && corr != CorrArg::Pearson {
            bail!("--pdp (Pairwise Difference Pearson) goes with --corr pearson, not --corr {name}");
        }
        let variant = |default: Variant| -> Result<Variant> {
            match &self.variant {
                None => Ok(default),
                Some(v) => {
                    Variant::from_name(v).ok_or_else(|| anyhow::anyhow!("--variant {v}: expected b, c, 23 or acc23"))
                }
            }
        };
        let measure = match corr {
            CorrArg::Pearson if self.pdp => {
                if params.k > 0 {
                    bail!(
                        "--pdp ranks by correlation alone: give -k 0 (mt-metrics-eval's permutation test hands pdp \
                         to scipy's pearsonr, which raises TypeError)"
                    );
                }
                Measure::Corr(Statistic::PearsonPdp)
            }
            CorrArg::Pearson => Measure::Corr(Statistic::Pearson),
            CorrArg::Spearman => Measure::Corr(Statistic::Spearman),
            CorrArg::Accuracy => Measure::Accuracy,
            CorrArg::Spa => Measure::Spa {
                perms: mteval_kernels::meta::spa::DEFAULT_PERMS,
                seed: mteval_kernels::meta::spa::DEFAULT_SEED,
            },
            CorrArg::Kendall => {
                let (variant, epsilon) = (variant(Variant::B)?, self.epsilon.unwrap_or(0.0));
                if !(epsilon >= 0.0 && epsilon.is_finite()) || (variant == Variant::C && epsilon > 0.0) {
                    bail!("--epsilon {epsilon}: a number >= 0, and 0 with tau-c");
                }
                Measure::Corr(Statistic::Kendall { variant, epsilon })
            }
            CorrArg::TiesOpt => {
                let variant = variant(Variant::Acc23)?;
                if !matches!(variant, Variant::T23 | Variant::Acc23) {
                    bail!(
                        "--corr ties-opt calibrates the 23 and acc23 variants, not {}",
                        self.variant.as_deref().unwrap_or("")
                    );
                }
                let sample_rate = self.sample_rate.unwrap_or(1.0);
                if !(sample_rate > 0.0 && sample_rate <= 1.0) {
                    bail!("--sample-rate {sample_rate} must be in (0, 1]");
                }
                Measure::TiesOpt { variant, sample_rate }
            }
        };
        let system_level = matches!(corr, CorrArg::Accuracy | CorrArg::Spa);
        let level = self.level.unwrap_or(if system_level { Level::Sys } else { Level::Seg });
        if corr == CorrArg::Accuracy && (level != Level::Sys || params.average_by != AverageBy::None) {
            bail!("--corr accuracy is system-level pairwise accuracy: no --level seg, no --average-by");
        }
        if corr == CorrArg::Spa && (level != Level::Sys || params.average_by != AverageBy::None) {
            bail!(
                "--corr spa is system-level soft pairwise accuracy (computed from the segment scores): no --level \
                 seg, no --average-by"
            );
        }
        if params.test == Test::Pairs && corr != CorrArg::TiesOpt {
            bail!("--perm-test pairs goes with --corr ties-opt");
        }
        Ok(vec![Task { level, measure, params }])
    }
}

pub(super) async fn run(a: &MetaArgs) -> Result<()> {
    crate::output::write_stdout(output(a).await?.as_bytes())
}

/// What `mteval meta` prints.
///
/// # Errors
/// Bad arguments or input, a failing task.
pub async fn output(a: &MetaArgs) -> Result<String> {
    let lps: Vec<String> =
        a.mtme_lp.as_deref().map(|l| l.split(',').map(|s| s.trim().to_owned()).collect()).unwrap_or_default();
    if a.tasks.is_some() || lps.len() > 1 || lps.iter().any(|l| l == "all") || a.lp_col.is_some() {
        return run_set(a, &lps).await;
    }
    for (flag, given) in
        [("--primary", a.primary), ("--use-outliers", a.use_outliers), ("--table-format", a.table_format != "text")]
    {
        if given {
            bail!("{flag} goes with a task set (--tasks)");
        }
    }
    let tasks = a.tasks()?;
    let data = match (&a.input, &a.mtme) {
        (Some(_), Some(_)) => bail!("give a table or --mtme DIR, not both"),
        (None, None) => bail!("give a table (system, segment, gold and metric columns) or --mtme DIR --mtme-lp LP"),
        (Some(input), None) => {
            for (flag, given) in [
                ("--mtme-lp", a.mtme_lp.is_some()),
                ("--mtme-gold", a.mtme_gold.is_some()),
                ("--mtme-ref", a.mtme_ref.is_some()),
            ] {
                if given {
                    bail!("{flag} goes with --mtme DIR, not with a table");
                }
            }
            let ctx = session(a)?;
            let spec = a.table_spec(input, None);
            crate::meta::read_table(&ctx, &spec).await?
        }
        (None, Some(root)) => {
            if a.gold.is_some() || a.system_col.is_some() || a.segment_col.is_some() {
                bail!("--gold, --system-col and --segment-col name a table's columns; with --mtme use --mtme-gold");
            }
            let Some(lp) = a.mtme_lp.as_deref() else {
                bail!("--mtme needs --mtme-lp LP (a language pair such as en-de)")
            };
            crate::meta::read_mtme(&MtmeSpec {
                root,
                test_set: &a.mtme_test_set,
                lp,
                gold: a.mtme_gold.as_deref(),
                reference: a.mtme_ref.as_deref(),
                include_human: a.include_human,
                exclude: &a.exclude,
                metrics: &a.metrics,
                outliers: &[],
                display: None,
                primary_only: false,
            })?
        }
    };
    let tasks: Vec<Task> = if a.corr.is_none() {
        // WMT23's tasks at the levels the data has.
        let (kept, skipped): (Vec<Task>, Vec<Task>) = tasks.into_iter().partition(|t| match t.level {
            Level::Sys => data.sys.is_some(),
            Level::Seg => data.seg.is_some(),
        });
        if !skipped.is_empty() && !kept.is_empty() {
            crate::output::note!("mteval meta: no segment-level scores; the system-level tasks only");
        }
        if kept.is_empty() { skipped } else { kept }
    } else {
        tasks
    };
    // Limits before any work.
    if let Some(o) = crate::meta::over_limit(&data, &tasks) {
        bail!("{}", limit_advice(a, &data, &tasks, o));
    }
    // WMT23's tasks for one pair draw from one stream, as tasks.WMT23([lp]).Run() does.
    let results = crate::meta::run_tasks(&data, &tasks, a.seed, a.corr.is_none())?;
    if a.json { Ok(format!("{}\n", crate::meta::json(&results))) } else { Ok(crate::meta::text(&results, a.probs)) }
}

/// The flags of `mteval meta --corr ...` that run `task` alone (its
/// averaging, test and sample rate; -k and the other shared flags aside).
fn task_flags(task: &Task, sample_rate: Option<f64>) -> String {
    let mut f = match task.measure {
        Measure::Accuracy => "--corr accuracy".to_owned(),
        Measure::Spa { .. } => "--corr spa".to_owned(),
        Measure::Corr(Statistic::Pearson) => "--corr pearson".to_owned(),
        Measure::Corr(Statistic::PearsonPdp) => "--corr pearson --pdp".to_owned(),
        Measure::Corr(Statistic::Spearman) => "--corr spearman".to_owned(),
        Measure::Corr(Statistic::Kendall { variant, epsilon }) => {
            let mut k = format!("--corr kendall --variant {}", crate::meta::variant_name(variant));
            if epsilon > 0.0 {
                let _ = write!(k, " --epsilon {epsilon}");
            }
            k
        }
        Measure::TiesOpt { variant, .. } => {
            format!("--corr ties-opt --variant {}", crate::meta::variant_name(variant))
        }
    };
    let default_level =
        if matches!(task.measure, Measure::Accuracy | Measure::Spa { .. }) { Level::Sys } else { Level::Seg };
    if task.level != default_level {
        f += if task.level == Level::Sys { " --level sys" } else { " --level seg" };
    }
    match task.params.average_by {
        AverageBy::None => {}
        AverageBy::Sys => f += " --average-by sys",
        AverageBy::Item => f += " --average-by item",
    }
    if task.params.test == Test::Pairs {
        f += " --perm-test pairs";
    }
    if let Some(r) = sample_rate {
        let _ = write!(f, " --sample-rate {r}");
    }
    f
}

/// The error of a task over the limit of pairs, with what the command
/// line can do about it: sample the pairs (`--sample-rate`, which the
/// default tasks can only take run one at a time with `--corr`), average
/// them by item or system where that is under the limit, or leave systems
/// out.
fn limit_advice(a: &MetaArgs, data: &MetaData, tasks: &[Task], o: OverLimit) -> String {
    let task = &tasks[o.task];
    let rate = rate_within_limit(o.pairs);
    let mut ways = Vec::new();
    if a.corr.is_none() {
        let others: Vec<String> =
            tasks.iter().enumerate().filter(|&(i, _)| i != o.task).map(|(_, t)| task_flags(t, None)).collect();
        ways.push(format!(
            "run that task alone on a sample of the pairs ({}) and the others one at a time ({}; each task's draws start from --seed, so their numbers do not change)",
            task_flags(task, rate.parse().ok()),
            others.join("; ")
        ));
    } else {
        ways.push(format!("sample the pairs with --sample-rate {rate}"));
        for (by, flag) in [(AverageBy::Item, "item"), (AverageBy::Sys, "sys")] {
            let pairs = task.calibration_pairs(data, by);
            if by != task.params.average_by && pairs <= MAX_PAIRS {
                ways.push(format!("compare the pairs within each {flag} with --average-by {flag} ({pairs} pairs)"));
            }
        }
    }
    ways.push("leave systems out with --exclude NAME".to_owned());
    let head = if tasks.len() > 1 { format!("task {} ({})", o.task + 1, task.name()) } else { task.name() };
    format!("{head}: {}: {}", o.describe(), ways.join("; or "))
}

/// A task set over several language pairs (`--tasks`, `--mtme-lp A,B`,
/// `--lp-col`): mt-metrics-eval's final table.
async fn run_set(a: &MetaArgs, lps: &[String]) -> Result<String> {
    use crate::meta::taskset::{self, TableFormat};
    if a.corr.is_some() {
        bail!(
            "--corr runs one task on one language pair; a task set (--tasks, several language pairs) runs its own tasks"
        );
    }
    for (flag, given) in a.one_task_flags().into_iter().chain([("--probs", a.probs)]) {
        if given {
            bail!("{flag} goes with --corr, not with a task set (--tasks): the set names its tasks");
        }
    }
    let params = a.params()?;
    let fmt = match a.table_format.as_str() {
        "tsv" => TableFormat::Tsv,
        "latex" => TableFormat::Latex,
        _ => TableFormat::Text,
    };
    let (set, lps, load, baselines) = match (&a.input, &a.mtme) {
        (Some(_), Some(_)) => bail!("give a table or --mtme DIR, not both"),
        (None, None) => bail!("give a table (with --lp-col) or --mtme DIR --mtme-lp LP,LP,..."),
        (Some(input), None) => table_source(a, input).await?,
        (None, Some(root)) => mtme_source(a, root, lps)?,
    };
    if lps.is_empty() {
        bail!("no language pair to evaluate");
    }
    let (tasks, weights) = taskset::build(set, &lps, &params);
    // Every --exclude names a system of some pair.
    if !a.exclude.is_empty() {
        let mut seen = std::collections::BTreeSet::new();
        for lp in &lps {
            let d = load(lp, false)?;
            seen.extend(d.left_out.iter().cloned());
            seen.extend(d.systems.iter().cloned());
        }
        if let Some(e) = a.exclude.iter().find(|e| !seen.contains(*e)) {
            bail!("--exclude {e}: no language pair has a system of that name ({})", lps.join(", "));
        }
    }
    let results = taskset::run(&tasks, &*load, a.seed, false)?;
    let avg = taskset::averages(&results, &weights, params.pval);
    let out = if a.json {
        format!("{}\n", taskset::json(&results, &weights, &avg))
    } else if fmt == TableFormat::Text {
        taskset::text(&results, &weights, &avg, baselines)
    } else {
        taskset::table(&results, &avg, fmt, baselines)
    };
    Ok(out)
}

/// A language pair's scores, by pair and whether human translations are systems.
type Loader = Box<dyn Fn(&str, bool) -> Result<MetaData>>;

/// Where a task set's data comes from: its set, pairs, loader and the test
/// set's baselines.
type Source = (crate::meta::taskset::TaskSetName, Vec<String>, Loader, Option<&'static [&'static str]>);

/// A table, one test set per value of `--lp-col` (`all` without it).
async fn table_source(a: &MetaArgs, input: &str) -> Result<Source> {
    use crate::meta::taskset::TaskSetName;
    if a.mtme_lp.is_some() || a.mtme_gold.is_some() || a.mtme_ref.is_some() {
        bail!("--mtme-lp, --mtme-gold and --mtme-ref go with --mtme DIR; a table names its pairs with --lp-col");
    }
    if a.primary || a.use_outliers {
        bail!("--primary and --use-outliers read mt-metrics-eval's meta-information: they go with --mtme DIR");
    }
    let set = TaskSetName::parse(a.tasks.as_deref().unwrap_or("wmt23")).unwrap_or(TaskSetName::Wmt23);
    let ctx = session(a)?;
    let spec = a.table_spec(input, a.lp_col.as_deref());
    let mut all = crate::meta::read_table_lps(&ctx, &spec).await?;
    if a.lp_col.is_none() {
        // One test set: named after the file.
        if let Some(d) = all.remove("") {
            all.insert("all".to_owned(), d);
        }
    }
    let lps: Vec<String> = all.keys().cloned().collect();
    Ok((set, lps, Box::new(move |lp: &str, _human: bool| Ok(all[lp].clone())), None))
}

/// mt-metrics-eval's layout: each pair read (and kept) as the tasks ask,
/// with the test set's standard gold, reference and outliers.
fn mtme_source(a: &MetaArgs, root: &std::path::Path, lps: &[String]) -> Result<Source> {
    use crate::meta::info;
    use crate::meta::taskset::TaskSetName;
    if a.gold.is_some() || a.system_col.is_some() || a.segment_col.is_some() || a.lp_col.is_some() {
        bail!("--gold, --system-col, --segment-col and --lp-col name a table's columns; with --mtme use --mtme-gold");
    }
    let test_set = a.mtme_test_set.clone();
    let set = match a.tasks.as_deref() {
        Some(t) => TaskSetName::parse(t).unwrap_or(TaskSetName::Wmt23),
        None => TaskSetName::parse(&test_set).unwrap_or(TaskSetName::Wmt23),
    };
    let known = info::known_test_set(&test_set);
    if a.primary && !known {
        bail!(
            "--primary: the primary metrics of test set {test_set} are not known (mt-metrics-eval's meta_info \
             as mteval has it covers wmt23, wmt24 and wmt25)"
        );
    }
    let lps: Vec<String> = if lps.is_empty() {
        if known { info::default_lps(&test_set) } else { bail!("--mtme needs --mtme-lp LP[,LP...] or all") }
    } else if lps.iter().any(|l| l == "all") {
        mtme_lps(root, &test_set, known)?
    } else {
        lps.to_vec()
    };
    let baselines = lps.first().and_then(|lp| info::lp_info(&test_set, lp)).map(|i| i.baselines);
    let (root, exclude, metrics) = (root.to_path_buf(), a.exclude.clone(), a.metrics.clone());
    let (gold, reference, use_outliers, primary) = (a.mtme_gold.clone(), a.mtme_ref.clone(), a.use_outliers, a.primary);
    let cache: std::cell::RefCell<std::collections::HashMap<(String, bool), MetaData>> = std::cell::RefCell::default();
    let load = move |lp: &str, human: bool| -> Result<MetaData> {
        if let Some(d) = cache.borrow().get(&(lp.to_owned(), human)) {
            return Ok(d.clone());
        }
        let lp_info = info::lp_info(&test_set, lp);
        if known && lp_info.is_none() {
            bail!("language pair {lp}: not a pair of test set {test_set} in mt-metrics-eval's meta_info");
        }
        let std_gold = match (&gold, lp_info) {
            (Some(g), _) => Some(g.clone()),
            (None, Some(i)) => Some(i.gold.map(str::to_owned).with_context(|| {
                format!("{test_set} {lp} has no standard gold scores in meta_info: name them with --mtme-gold")
            })?),
            (None, None) => None,
        };
        let std_ref = reference.clone().or_else(|| lp_info.map(|i| i.std_ref.to_owned()));
        let outliers: Vec<String> = match lp_info {
            Some(i) if !use_outliers => i.outliers.iter().map(|s| (*s).to_owned()).collect(),
            _ => Vec::new(),
        };
        let mut drop = outliers;
        drop.extend(exclude.iter().cloned());
        let d = crate::meta::read_mtme(&MtmeSpec {
            root: &root,
            test_set: &test_set,
            lp,
            gold: std_gold.as_deref(),
            reference: std_ref.as_deref(),
            include_human: human,
            exclude: &[],
            metrics: &metrics,
            outliers: &drop,
            display: Some(lp_info.map(|i| i.primaries)),
            primary_only: primary,
        })
        .with_context(|| format!("language pair {lp}"))?;
        cache.borrow_mut().insert((lp.to_owned(), human), d.clone());
        Ok(d)
    };
    Ok((set, lps, Box::new(load), baselines))
}

/// `--mtme-lp all`: the pairs of the test set with gold scores on disk
/// (those `meta_info` gives standard gold scores, for a known test set).
fn mtme_lps(root: &std::path::Path, test_set: &str, known: bool) -> Result<Vec<String>> {
    let human = root.join(test_set).join("human-scores");
    let entries = std::fs::read_dir(&human).with_context(|| format!("cannot read {}", human.display()))?;
    let mut lps = std::collections::BTreeSet::new();
    for e in entries {
        let name = e?.file_name().to_string_lossy().into_owned();
        if let Some(lp) = name.strip_suffix(".score").and_then(|n| n.split('.').next()) {
            lps.insert(lp.to_owned());
        }
    }
    let lps: Vec<String> = lps
        .into_iter()
        .filter(|lp| !known || crate::meta::info::lp_info(test_set, lp).is_some_and(|i| i.gold.is_some()))
        .collect();
    if lps.is_empty() {
        bail!("{}: no language pair with gold scores", human.display());
    }
    Ok(lps)
}
