//! `mteval meta`: how well metrics agree with human judgements, ranked with
//! significance clusters as mt-metrics-eval ranks them (`crate::meta`).

use std::fmt::Write as _;

use anyhow::{Result, bail};
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
    /// With --mtme: the language pair (`en-de`).
    #[arg(long)]
    pub mtme_lp: Option<String>,
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

    fn tasks(&self) -> Result<Vec<Task>> {
        let params = self.params()?;
        let Some(corr) = self.corr else {
            for (flag, given) in [
                ("--level", self.level.is_some()),
                ("--average-by", self.average_by != AverageArg::None),
                ("--variant", self.variant.is_some()),
                ("--epsilon", self.epsilon.is_some()),
                ("--sample-rate", self.sample_rate.is_some()),
                ("--perm-test", self.perm_test != TestArg::Scores),
                ("--pdp", self.pdp),
            ] {
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
            let ctx = new_context(&SessionOptions { target_partitions: Some(1), ..SessionOptions::default() })?;
            let spec = TableSpec {
                input,
                system_col: a.system_col.as_deref().unwrap_or("system"),
                segment_col: a.segment_col.as_deref(),
                gold_col: a.gold.as_deref().unwrap_or("gold"),
                metric_cols: &a.metrics,
                exclude: &a.exclude,
            };
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
    let results = crate::meta::run_tasks(&data, &tasks, a.seed)?;
    if a.json {
        crate::output::write_stdout(format!("{}\n", crate::meta::json(&results)).as_bytes())
    } else {
        crate::output::write_stdout(crate::meta::text(&results, a.probs).as_bytes())
    }
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
