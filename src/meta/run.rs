//! `mteval meta`'s request and run: how well metrics agree with human
//! judgements, ranked with significance clusters as mt-metrics-eval ranks
//! them. The settings are one table of flags ([`FLAGS`]), which the command
//! line turns into its arguments and the Python module (`mteval.meta`) fills
//! from its keyword arguments, both through [`MetaRequest::set`].

use std::fmt::Write as _;

use anyhow::{Context as _, Result, bail};
use mteval_kernels::meta::permutation::{Measure, Params, Test};
use mteval_kernels::meta::{AverageBy, MAX_PAIRS, Statistic, Variant, rate_within_limit};

use crate::flags::{Flag, FlagKind, Named, names_of, parse_number};
use crate::meta::{Level, MetaData, MtmeSpec, OverLimit, TableSpec, Task};
use crate::session::{SessionOptions, new_context};

/// The correlation of a single task (`--corr`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Corr {
    /// scipy's pearsonr.
    Pearson,
    /// scipy's spearmanr.
    Spearman,
    /// mt-metrics-eval's `KendallVariants`.
    Kendall,
    /// `KendallWithTiesOpt`.
    TiesOpt,
    /// System-level pairwise accuracy.
    Accuracy,
    /// System-level soft pairwise accuracy.
    Spa,
}

impl Named for Corr {
    const NAMES: &'static [(Self, &'static str, &'static str)] = &[
        (Corr::Pearson, "pearson", "scipy's pearsonr"),
        (Corr::Spearman, "spearman", "scipy's spearmanr"),
        (Corr::Kendall, "kendall", "mt-metrics-eval's `KendallVariants` (--variant, --epsilon)"),
        (Corr::TiesOpt, "ties-opt", "`KendallWithTiesOpt`: tie-calibrated acc-23 or tau-23 (--variant, --sample-rate)"),
        (Corr::Accuracy, "accuracy", "System-level pairwise accuracy"),
        (
            Corr::Spa,
            "spa",
            "System-level soft pairwise accuracy (WMT24/25's SPA, `PairwiseConfidenceError`), from the segment \
             scores",
        ),
    ];
}

/// `--average-by`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Average {
    /// One correlation over all scores.
    None,
    /// The mean of the correlations per system.
    Sys,
    /// The mean of the correlations per item (segment).
    Item,
}

impl Named for Average {
    const NAMES: &'static [(Self, &'static str, &'static str)] = &[
        (Average::None, "none", "One correlation over all scores"),
        (Average::Sys, "sys", "The mean of the correlations per system"),
        (Average::Item, "item", "The mean of the correlations per item (segment)"),
    ];
}

/// `--perm-test`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PermTest {
    /// `PermutationSigDiff`.
    Scores,
    /// `PairwisePermutationSigDiff`.
    Pairs,
}

impl Named for PermTest {
    const NAMES: &'static [(Self, &'static str, &'static str)] = &[
        (PermTest::Scores, "scores", "`PermutationSigDiff`: swap the two metrics' scores"),
        (
            PermTest::Pairs,
            "pairs",
            "`PairwisePermutationSigDiff`: swap their pairwise comparisons (with --corr ties-opt)",
        ),
    ];
}

const CORR_CHOICES: &[(&str, &str)] = &names_of::<6>(Corr::NAMES);
const AVERAGE_CHOICES: &[(&str, &str)] = &names_of::<3>(Average::NAMES);
const PERM_CHOICES: &[(&str, &str)] = &names_of::<2>(PermTest::NAMES);
const LEVEL_CHOICES: &[(&str, &str)] = &names_of::<2>(Level::NAMES);

/// `mteval meta`'s settings: the positional table and every flag, with
/// their help (the command line's `mteval meta --help`).
pub const FLAGS: &[Flag] = &[
    Flag::value(
        "input",
        "A table with a row per system and segment (or per system): the system, the segment id, the gold \
         (human) score and one column per metric. Not with --mtme.",
    )
    .kind(FlagKind::Positional),
    Flag::value("gold", "Table: the gold score column (NULL: missing) [default: gold]."),
    Flag::value(
        "metric",
        "Table: a metric score column (repeat; default: every other number column). With --mtme: a metric's \
         file name without level (`BLEU-refA`; default: every metric).",
    )
    .short('m')
    .kind(FlagKind::Repeat),
    Flag::value("system-col", "Table: the system column [default: system]."),
    Flag::value(
        "segment-col",
        "Table: the segment id column aligning the systems' rows (default: each system's rows in input order; \
         one row per system is system-level data).",
    ),
    Flag::value(
        "mtme",
        "mt-metrics-eval's data root (its `mt-metrics-eval-v2` folder), read for one test set and language pair \
         (--mtme-test-set, --mtme-lp).",
    )
    .value_name("DIR"),
    Flag::value("mtme-test-set", "With --mtme: the test set.").default("wmt23"),
    Flag::value(
        "mtme-lp",
        "With --mtme: the language pair (`en-de`), several separated by commas (a task set over them: --tasks), \
         or `all` (every pair of the test set with gold scores).",
    ),
    Flag::value(
        "lp-col",
        "Table: the language pair column; each pair's rows are a test set of their own, run as a task set \
         (--tasks).",
    ),
    Flag::value(
        "tasks",
        "Run mt-metrics-eval's task set over every language pair (tasks.WMT23, WMT24, WMT25: the same tasks, \
         weights, block size and early stopping, -k for every task), from one np.random.seed(--seed), and print \
         its final table: each task's correlation and rank, the weighted average correlation with its \
         significance clusters and the average rank [default with several language pairs: the --mtme test \
         set's, else wmt23].",
    )
    .choices(&[("wmt23", ""), ("wmt24", ""), ("wmt25", "")]),
    Flag::value(
        "primary",
        "With --tasks and --mtme: only the test set's primary metrics (`meta_info`; the task sets' \
         primary=True). Default: every metric, contrastive ones shown as `*NAME`.",
    )
    .kind(FlagKind::Switch),
    Flag::value("use-outliers", "With --tasks and --mtme: keep the test set's outlier systems (`meta_info`).")
        .kind(FlagKind::Switch),
    Flag::value("table-format", "With --tasks: the table's format (mt-metrics-eval's `MetricsTable` `fmt`).")
        .choices(&[("text", ""), ("tsv", ""), ("latex", "")])
        .default("text"),
    Flag::value("mtme-gold", "With --mtme: the human scores' name (`mqm`; default: the only one)."),
    Flag::value("mtme-ref", "With --mtme: the reference metrics may use (`refA`; default: the only one)."),
    Flag::value("include-human", "With --mtme: keep human translations (the other references) as systems.")
        .kind(FlagKind::Switch),
    Flag::value("exclude", "A system to leave out (repeat), such as mt-metrics-eval's outliers.")
        .kind(FlagKind::Repeat),
    Flag::value(
        "corr",
        "One task instead of WMT23's four (sys accuracy, sys Pearson, seg Pearson, seg tie-calibrated acc-23 by \
         item with the pairs test): its correlation.",
    )
    .choices(CORR_CHOICES),
    Flag::value("level", "With --corr: the level [default: seg, sys for accuracy].").choices(LEVEL_CHOICES),
    Flag::value("average-by", "With --corr: averaging.").choices(AVERAGE_CHOICES).default("none"),
    Flag::value(
        "variant",
        "With --corr kendall or ties-opt: the variant (b, c, 23, acc23) [default: b; acc23 for ties-opt].",
    ),
    Flag::value("epsilon", "With --corr kendall: metric differences up to it are ties [default: 0]."),
    Flag::value("sample-rate", "With --corr ties-opt: the share of pairs the calibration samples [default: 1]."),
    Flag::value(
        "pdp",
        "With --corr pearson: Pairwise Difference Pearson (mt-metrics-eval's `pdp=True`): the correlation of the \
         score differences of every pair of systems within each averaged vector, pooled into one Pearson; ranked \
         by correlation alone (-k 0), since mt-metrics-eval's permutation test does not take it.",
    )
    .kind(FlagKind::Switch),
    Flag::value("perm-test", "With --corr: the permutation test.").choices(PERM_CHOICES).default("scores"),
    Flag::value("k", "Resampling runs per pair of metrics (0: rank by correlation only).").short('k').default("1000"),
    Flag::value("seed", "The tasks draw in order from one numpy `np.random.seed(SEED)`, as `tasks.Run()` does.")
        .default("12345"),
    Flag::value("block-size", "Early-stopping block size (mt-metrics-eval's tasks.Task default).").default("100"),
    Flag::value("early-min", "Stop early when the p-value is under this at a block's end.").default("0.02"),
    Flag::value("early-max", "Stop early when the p-value is over this at a block's end.").default("0.5"),
    Flag::value("pval", "The p-value under which a metric beats another (rank clusters).").default("0.05"),
    Flag::value("replace-nans-with-zeros", "Count NaN correlations (constant vectors) as 0 when averaging.")
        .kind(FlagKind::Switch),
    Flag::value("probs", "Print the p-values instead of `>`/`=` in the significance columns.").kind(FlagKind::Switch),
    Flag::value("json", "One JSON object instead of text.").kind(FlagKind::Switch),
];

/// The settings of one `mteval meta` run. [`Default`] is every flag's
/// default; [`MetaRequest::set`] sets one flag as the command line or
/// Python gives it.
#[derive(Debug)]
#[allow(clippy::struct_excessive_bools, reason = "independent flags")]
pub struct MetaRequest {
    /// The table (see [`FLAGS`] for every field's meaning).
    pub input: Option<String>,
    /// `--gold`.
    pub gold: Option<String>,
    /// `--metric`.
    pub metrics: Vec<String>,
    /// `--system-col`.
    pub system_col: Option<String>,
    /// `--segment-col`.
    pub segment_col: Option<String>,
    /// `--mtme`.
    pub mtme: Option<std::path::PathBuf>,
    /// `--mtme-test-set`.
    pub mtme_test_set: String,
    /// `--mtme-lp`.
    pub mtme_lp: Option<String>,
    /// `--lp-col`.
    pub lp_col: Option<String>,
    /// `--tasks`.
    pub tasks: Option<String>,
    /// `--primary`.
    pub primary: bool,
    /// `--use-outliers`.
    pub use_outliers: bool,
    /// `--table-format`.
    pub table_format: String,
    /// `--mtme-gold`.
    pub mtme_gold: Option<String>,
    /// `--mtme-ref`.
    pub mtme_ref: Option<String>,
    /// `--include-human`.
    pub include_human: bool,
    /// `--exclude`.
    pub exclude: Vec<String>,
    /// `--corr`.
    pub corr: Option<Corr>,
    /// `--level`.
    pub level: Option<Level>,
    /// `--average-by`.
    pub average_by: Average,
    /// `--variant`.
    pub variant: Option<String>,
    /// `--epsilon`.
    pub epsilon: Option<f64>,
    /// `--sample-rate`.
    pub sample_rate: Option<f64>,
    /// `--pdp`.
    pub pdp: bool,
    /// `--perm-test`.
    pub perm_test: PermTest,
    /// `-k`.
    pub k: usize,
    /// `--seed`.
    pub seed: u32,
    /// `--block-size`.
    pub block_size: usize,
    /// `--early-min`.
    pub early_min: f64,
    /// `--early-max`.
    pub early_max: f64,
    /// `--pval`.
    pub pval: f64,
    /// `--replace-nans-with-zeros`.
    pub replace_nans_with_zeros: bool,
    /// `--probs`.
    pub probs: bool,
    /// `--json`.
    pub json: bool,
    /// The table as Arrow data in memory (Python's `mteval.meta`), read in
    /// place of the input path (which then only names it in messages).
    pub memory: Option<std::sync::Arc<datafusion::datasource::MemTable>>,
}

impl Default for MetaRequest {
    fn default() -> Self {
        let mut r = MetaRequest {
            input: None,
            gold: None,
            metrics: Vec::new(),
            system_col: None,
            segment_col: None,
            mtme: None,
            mtme_test_set: String::new(),
            mtme_lp: None,
            lp_col: None,
            tasks: None,
            primary: false,
            use_outliers: false,
            table_format: String::new(),
            mtme_gold: None,
            mtme_ref: None,
            include_human: false,
            exclude: Vec::new(),
            corr: None,
            level: None,
            average_by: Average::None,
            variant: None,
            epsilon: None,
            sample_rate: None,
            pdp: false,
            perm_test: PermTest::Scores,
            k: 0,
            seed: 0,
            block_size: 0,
            early_min: 0.0,
            early_max: 0.0,
            pval: 0.0,
            replace_nans_with_zeros: false,
            probs: false,
            json: false,
            memory: None,
        };
        for f in FLAGS {
            if let Some(d) = f.default {
                // The table's defaults are valid values (tested below).
                let _ = r.set(f.name, d);
            }
        }
        r
    }
}

impl MetaRequest {
    /// Sets the flag called `name` (its long name, as in [`FLAGS`]) from its
    /// text; a switch is on with any value but `false`. A repeatable flag
    /// adds a value.
    ///
    /// # Errors
    /// An unknown flag, or a value it does not take (naming the flag).
    pub fn set(&mut self, name: &str, value: &str) -> Result<()> {
        let flag = FLAGS.iter().find(|f| f.name == name).with_context(|| format!("meta has no setting '{name}'"))?;
        let what = flag.spelled();
        if !flag.choices.is_empty() && !flag.choices.iter().any(|(c, _)| *c == value) {
            let names: Vec<&str> = flag.choices.iter().map(|(c, _)| *c).collect();
            bail!("{what}: '{value}' is not one of {}", names.join(", "));
        }
        let on = value != "false";
        let text = || Some(value.to_owned());
        match name {
            "input" => self.input = text(),
            "gold" => self.gold = text(),
            "metric" => self.metrics.push(value.to_owned()),
            "system-col" => self.system_col = text(),
            "segment-col" => self.segment_col = text(),
            "mtme" => self.mtme = Some(value.into()),
            "mtme-test-set" => value.clone_into(&mut self.mtme_test_set),
            "mtme-lp" => self.mtme_lp = text(),
            "lp-col" => self.lp_col = text(),
            "tasks" => self.tasks = text(),
            "primary" => self.primary = on,
            "use-outliers" => self.use_outliers = on,
            "table-format" => value.clone_into(&mut self.table_format),
            "mtme-gold" => self.mtme_gold = text(),
            "mtme-ref" => self.mtme_ref = text(),
            "include-human" => self.include_human = on,
            "exclude" => self.exclude.push(value.to_owned()),
            "corr" => self.corr = Some(Corr::parse_named(value, &what)?),
            "level" => self.level = Some(Level::parse_named(value, &what)?),
            "average-by" => self.average_by = Average::parse_named(value, &what)?,
            "variant" => self.variant = text(),
            "epsilon" => self.epsilon = Some(parse_number(value, &what)?),
            "sample-rate" => self.sample_rate = Some(parse_number(value, &what)?),
            "pdp" => self.pdp = on,
            "perm-test" => self.perm_test = PermTest::parse_named(value, &what)?,
            "k" => self.k = parse_number(value, &what)?,
            "seed" => self.seed = parse_number(value, &what)?,
            "block-size" => self.block_size = parse_number(value, &what)?,
            "early-min" => self.early_min = parse_number(value, &what)?,
            "early-max" => self.early_max = parse_number(value, &what)?,
            "pval" => self.pval = parse_number(value, &what)?,
            "replace-nans-with-zeros" => self.replace_nans_with_zeros = on,
            "probs" => self.probs = on,
            "json" => self.json = on,
            _ => bail!("meta has no setting '{name}'"),
        }
        Ok(())
    }
}

/// A session reading the table from memory when there is one.
fn session(a: &MetaRequest) -> Result<datafusion::prelude::SessionContext> {
    let ctx = new_context(&SessionOptions { target_partitions: Some(1), ..SessionOptions::default() })?;
    if let Some(t) = &a.memory {
        ctx.register_table("meta_input", t.clone())?;
    }
    Ok(ctx)
}

/// The most resampling runs per pair of metrics.
const MAX_K: usize = 1_000_000;

impl MetaRequest {
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
                Average::None => AverageBy::None,
                Average::Sys => AverageBy::Sys,
                Average::Item => AverageBy::Item,
            },
            k: self.k,
            block_size: self.block_size,
            early_min: self.early_min,
            early_max: self.early_max,
            pval: self.pval,
            replace_nans_with_zeros: self.replace_nans_with_zeros,
            test: match self.perm_test {
                PermTest::Scores => Test::Scores,
                PermTest::Pairs => Test::Pairs,
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
            ("--average-by", self.average_by != Average::None),
            ("--variant", self.variant.is_some()),
            ("--epsilon", self.epsilon.is_some()),
            ("--sample-rate", self.sample_rate.is_some()),
            ("--perm-test", self.perm_test != PermTest::Scores),
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
        let name = corr.name();
        let (variant_ok, epsilon_ok) = (matches!(corr, Corr::Kendall | Corr::TiesOpt), corr == Corr::Kendall);
        if (self.variant.is_some() && !variant_ok) || (self.epsilon.is_some() && !epsilon_ok) {
            bail!(
                "--variant and --epsilon go with --corr kendall (--variant also with --corr ties-opt), not --corr {name}"
            );
        }
        if self.sample_rate.is_some() && corr != Corr::TiesOpt {
            bail!("--sample-rate goes with --corr ties-opt, not --corr {name}");
        }
        if self.pdp && corr != Corr::Pearson {
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
            Corr::Pearson if self.pdp => {
                if params.k > 0 {
                    bail!(
                        "--pdp ranks by correlation alone: give -k 0 (mt-metrics-eval's permutation test hands pdp \
                         to scipy's pearsonr, which raises TypeError)"
                    );
                }
                Measure::Corr(Statistic::PearsonPdp)
            }
            Corr::Pearson => Measure::Corr(Statistic::Pearson),
            Corr::Spearman => Measure::Corr(Statistic::Spearman),
            Corr::Accuracy => Measure::Accuracy,
            Corr::Spa => Measure::Spa {
                perms: mteval_kernels::meta::spa::DEFAULT_PERMS,
                seed: mteval_kernels::meta::spa::DEFAULT_SEED,
            },
            Corr::Kendall => {
                let (variant, epsilon) = (variant(Variant::B)?, self.epsilon.unwrap_or(0.0));
                if !(epsilon >= 0.0 && epsilon.is_finite()) || (variant == Variant::C && epsilon > 0.0) {
                    bail!("--epsilon {epsilon}: a number >= 0, and 0 with tau-c");
                }
                Measure::Corr(Statistic::Kendall { variant, epsilon })
            }
            Corr::TiesOpt => {
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
        let system_level = matches!(corr, Corr::Accuracy | Corr::Spa);
        let level = self.level.unwrap_or(if system_level { Level::Sys } else { Level::Seg });
        if corr == Corr::Accuracy && (level != Level::Sys || params.average_by != AverageBy::None) {
            bail!("--corr accuracy is system-level pairwise accuracy: no --level seg, no --average-by");
        }
        if corr == Corr::Spa && (level != Level::Sys || params.average_by != AverageBy::None) {
            bail!(
                "--corr spa is system-level soft pairwise accuracy (computed from the segment scores): no --level \
                 seg, no --average-by"
            );
        }
        if params.test == Test::Pairs && corr != Corr::TiesOpt {
            bail!("--perm-test pairs goes with --corr ties-opt");
        }
        Ok(vec![Task { level, measure, params }])
    }
}

/// What `mteval meta` prints.
///
/// # Errors
/// Bad arguments or input, a failing task.
pub async fn output(a: &MetaRequest) -> Result<String> {
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
    let (corr, variant) = match task.measure {
        Measure::Accuracy => ("accuracy", None),
        Measure::Spa { .. } => ("spa", None),
        Measure::Corr(Statistic::Pearson | Statistic::PearsonPdp) => ("pearson", None),
        Measure::Corr(Statistic::Spearman) => ("spearman", None),
        Measure::Corr(Statistic::Kendall { variant, .. }) => ("kendall", Some(variant)),
        Measure::TiesOpt { variant, .. } => ("ties-opt", Some(variant)),
    };
    let mut f = format!("--corr {corr}");
    if matches!(task.measure, Measure::Corr(Statistic::PearsonPdp)) {
        f += " --pdp";
    }
    if let Some(v) = variant {
        let _ = write!(f, " --variant {}", crate::meta::variant_name(v));
    }
    if let Measure::Corr(Statistic::Kendall { epsilon, .. }) = task.measure
        && epsilon > 0.0
    {
        let _ = write!(f, " --epsilon {epsilon}");
    }
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
fn limit_advice(a: &MetaRequest, data: &MetaData, tasks: &[Task], o: OverLimit) -> String {
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
async fn run_set(a: &MetaRequest, lps: &[String]) -> Result<String> {
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
        taskset::text(&results, &weights, &avg, baselines.as_deref())
    } else {
        taskset::table(&results, &avg, fmt, baselines.as_deref())
    };
    Ok(out)
}

/// A language pair's scores, by pair and whether human translations are systems.
type Loader = Box<dyn Fn(&str, bool) -> Result<MetaData>>;

/// Where a task set's data comes from: its set, pairs, loader and the test
/// set's baselines.
type Source = (crate::meta::taskset::TaskSetName, Vec<String>, Loader, Option<Vec<&'static str>>);

/// A table, one test set per value of `--lp-col` (`all` without it).
async fn table_source(a: &MetaRequest, input: &str) -> Result<Source> {
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
fn mtme_source(a: &MetaRequest, root: &std::path::Path, lps: &[String]) -> Result<Source> {
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
    let baselines = lps.first().and_then(|lp| info::lp_info(&test_set, lp)).map(|i| i.baselines.to_vec());
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
        let primaries = lp_info.map(|i| i.primaries.to_vec());
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
            display: Some(primaries.as_deref()),
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

#[cfg(test)]
mod tests {
    use super::{FLAGS, FlagKind, MetaRequest};

    #[test]
    fn every_flag_default_is_valid_and_every_flag_is_settable() {
        let r = MetaRequest::default();
        assert_eq!((r.k, r.seed, r.block_size), (1000, 12345, crate::meta::TASK_BLOCK_SIZE));
        assert_eq!((r.mtme_test_set.as_str(), r.table_format.as_str(), r.pval), ("wmt23", "text", 0.05));
        for f in FLAGS {
            let mut r = MetaRequest::default();
            if let Some(d) = f.default {
                r.set(f.name, d).unwrap();
            }
            let value = match (f.kind, f.choices.first()) {
                (_, Some((c, _))) => *c,
                (FlagKind::Switch, None) => "true",
                _ => "1",
            };
            r.set(f.name, value).unwrap_or_else(|e| panic!("{}: {e}", f.name));
        }
        let mut r = MetaRequest::default();
        let e = r.set("tasks", "wmt26").unwrap_err().to_string();
        assert_eq!(e, "--tasks: 'wmt26' is not one of wmt23, wmt24, wmt25");
        assert!(r.set("k", "-3").unwrap_err().to_string().starts_with("-k: '-3' is not a valid whole number"));
        assert!(r.set("nosuch", "1").is_err());
    }
}
