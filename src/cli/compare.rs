//! `mteval compare`: sacrebleu's multi-system evaluation — corpus scores,
//! paired significance tests (`--paired-bs`, `--paired-ar`) and bootstrap
//! confidence intervals (`--confidence`) — over line-aligned text files
//! (`mteval compare REF -i SYS1 SYS2`) or a table with one row per segment
//! and system (`mteval compare wmt.parquet --system-col system`). The
//! statistics come from the kernels on all cores; the tests are
//! `mteval_kernels::significance`, with sacrebleu's numbers.

use std::fmt::Write as _;
use std::path::PathBuf;

use anyhow::{Result, bail};
use mteval_kernels::metric::FromStats;
use mteval_kernels::metric::{FlagSets, Metric};
use mteval_kernels::metrics;
use mteval_kernels::significance::comet;
use mteval_kernels::significance::{self, PairedTest, SegmentStats, TestResult};

use super::args::{PairedFlags, TableColumns};
use mteval::compare::paired::{ResamplingProgress, resamples};
use mteval::compare::{self, Json};
use mteval::corpus::score_files::ScoreFile;
use mteval::corpus::{
    BASELINE_PREFIX, Corpus, TableSpec, is_table, put_baseline_first, read_table, read_text, table_mode_only,
};
use mteval::metrics::MetricChoice;

/// Output formats of `mteval compare`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum CompareFormat {
    /// sacrebleu's text: a score line per metric (one system) or a table.
    Text,
    /// sacrebleu's JSON fields, scores at full precision, with signatures.
    Json,
}

/// Arguments of `mteval compare`.
#[derive(Debug, clap::Args)]
#[allow(clippy::struct_excessive_bools, reason = "independent command-line switches, as sacrebleu's")]
pub struct CompareArgs {
    /// Text mode (with -i): reference files, as sacrebleu's positional REFS. Table mode (no -i):
    /// one table (.parquet, .csv, .tsv, .json, .jsonl) with a row per segment and system.
    pub inputs: Vec<String>,
    /// Text mode: more reference files (the same as positional ones).
    #[arg(short = 'r', long = "ref")]
    pub refs: Vec<PathBuf>,
    /// Text mode: one line-aligned file per system; the first is the baseline of a paired test.
    #[arg(short = 'i', long = "input", num_args = 1..)]
    pub systems: Vec<PathBuf>,
    /// Metrics: names of the metric table with significance tests [default: bleu, as
    /// sacrebleu, unless --score-col or --score-file is given].
    #[arg(short = 'm', long = "metrics", num_args = 1..)]
    pub metrics: Vec<String>,
    /// Table mode: a number column of segment scores computed elsewhere (COMET, xCOMET, human
    /// judgements), compared as a metric whose corpus score is the mean; `NAME:lower` where
    /// lower is better. Repeatable. With score columns alone the table needs no text columns.
    #[arg(long = "score-col", value_name = "COL[:lower]")]
    pub score_cols: Vec<String>,
    /// Text mode: segment scores computed elsewhere, as `comet-score` prints them (`PATH<TAB>Segment
    /// I<TAB>score: X`, matched to the -i files by path), or one plain file per -i system in order
    /// with a number per line (`NAME=SYS1.scores,SYS2.scores`); `NAME:lower=...` where lower is
    /// better. Repeatable.
    #[arg(long = "score-file", value_name = "NAME[:lower]=FILE[,FILE...]")]
    pub score_files: Vec<String>,
    /// Metric options in signature syntax, `METRIC=OPTIONS` (e.g. `chrf=nw:2`); repeatable.
    #[arg(long = "options")]
    pub options: Vec<String>,
    /// sacrebleu's paired tests and their seed.
    #[command(flatten)]
    pub paired: PairedFlags,
    /// With --paired-ar, also bootstrap intervals with this many resamples (sacrebleu's API
    /// `n_ar_confidence`; its command line has none).
    #[arg(long = "paired-ar-confidence-n")]
    pub paired_ar_confidence_n: Option<usize>,
    /// One system: bootstrap confidence interval of each score (sacrebleu's --confidence).
    #[arg(long = "confidence")]
    pub confidence: bool,
    /// Resamples of --confidence.
    #[arg(long = "confidence-n", default_value_t = significance::DEFAULT_BOOTSTRAP)]
    pub confidence_n: usize,
    /// comet-compare's test (Unbabel COMET's `comet-compare`) on every pair of systems instead of
    /// sacrebleu's: a paired t-test on the segment scores and bootstrap resampling with win/tie
    /// shares, then the summary grid, with comet-compare's numbers. For any score column or metric
    /// (its sentence scores). Systems in name order in table mode, as given in text mode; numpy's
    /// global seed is --seed (default 12).
    #[arg(long = "comet-compare")]
    pub comet_compare: bool,
    /// --comet-compare: bootstrap splits (comet-compare's `--num_splits`).
    #[arg(long = "num-splits", default_value_t = comet::DEFAULT_SPLITS)]
    pub num_splits: usize,
    /// --comet-compare: share of the segments in each split (comet-compare's `--sample_ratio`).
    #[arg(long = "sample-ratio", default_value_t = comet::DEFAULT_SAMPLE_RATIO)]
    pub sample_ratio: f64,
    /// --comet-compare: the t-test's alternative hypothesis, two-sided, less or greater
    /// (comet-compare's `--t_test_alternative`).
    #[arg(long = "t-test-alternative", default_value = "two-sided")]
    pub t_test_alternative: String,
    /// Text mode: each reference line holds N tab-separated references (sacrebleu's --num-refs)
    /// [default: 1].
    #[arg(long = "num-refs")]
    pub num_refs: Option<usize>,
    /// Print only the scores (one system).
    #[arg(short = 'b', long = "score-only")]
    pub score_only: bool,
    /// Decimal places of printed scores [default: sacrebleu's 1; 4 for the WER
    /// family, whose scores are fractions].
    #[arg(short = 'w', long = "width")]
    pub width: Option<usize>,
    /// Output format.
    #[arg(short = 'f', long = "format", value_enum, default_value = "text")]
    pub format: CompareFormat,
    /// Table mode: the columns, and the baseline.
    #[command(flatten)]
    pub table: TableColumns,
    /// sacrebleu's metric flags, for the metrics they belong to (the same as `--options`).
    #[command(flatten)]
    pub sacrebleu: SacrebleuFlags,
}

/// sacrebleu's per-metric command-line flags, turned into mteval options.
/// The flags are data of the metric table (each metric's `Sacrebleu` row:
/// long flag, sacrebleu's short form, the option it sets, its help), so
/// this type names no metric; sacrebleu's multi-letter short forms (`-tok`,
/// `-cw`, ...) are accepted too ([`sacrebleu_short_flags`]).
#[derive(Debug, Default)]
pub struct SacrebleuFlags {
    /// `(sacrebleu -m name, option)` of each flag given, in the table's order.
    given: Vec<(&'static str, String)>,
}

impl clap::FromArgMatches for SacrebleuFlags {
    fn from_arg_matches(m: &clap::ArgMatches) -> Result<Self, clap::Error> {
        let mut given = Vec::new();
        for (family, f) in mteval::metrics::sacrebleu_flags() {
            let value = match f.sets {
                FlagSets::Value(_) => m.get_one::<String>(f.long).cloned(),
                FlagSets::Switch(_) => m.get_flag(f.long).then(String::new),
            };
            if let Some(v) = value {
                given.push((family, f.option(&v)));
            }
        }
        Ok(Self { given })
    }

    fn update_from_arg_matches(&mut self, m: &clap::ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(m)?;
        Ok(())
    }
}

impl clap::Args for SacrebleuFlags {
    fn augment_args(cmd: clap::Command) -> clap::Command {
        mteval::metrics::sacrebleu_flags().into_iter().fold(cmd, |cmd, (_, f)| {
            let arg = clap::Arg::new(f.long).long(f.long).help(f.help);
            cmd.arg(match f.sets {
                // `--chrf-beta -1`: argparse takes a negative number as a value.
                FlagSets::Value(_) => arg.action(clap::ArgAction::Set).value_name("VALUE").allow_negative_numbers(true),
                FlagSets::Switch(_) => arg.action(clap::ArgAction::SetTrue),
            })
        })
    }

    fn augment_args_for_update(cmd: clap::Command) -> clap::Command {
        Self::augment_args(cmd)
    }
}

impl SacrebleuFlags {
    /// `--options` entries for the chosen `metrics` (names of the metric table):
    /// the options of the flags given, for each chosen metric of their
    /// sacrebleu family.
    ///
    /// # Errors
    /// A flag of a metric that is not chosen.
    fn metric_options(&self, metrics: &[String]) -> Result<Vec<String>> {
        let mut families: Vec<(&'static str, Vec<&str>)> = Vec::new();
        for (family, opt) in &self.given {
            match families.iter_mut().find(|(f, _)| f == family) {
                Some((_, opts)) => opts.push(opt),
                None => families.push((family, vec![opt.as_str()])),
            }
        }
        let mut out = Vec::new();
        for (family, opts) in families {
            let opts = opts.join("|");
            let chosen: Vec<&String> = metrics
                .iter()
                .filter(|m| metrics::lookup(m).is_ok_and(|i| i.sacrebleu.is_some_and(|s| s.name == family)))
                .collect();
            if chosen.is_empty() {
                bail!("sacrebleu flags for {family} ({opts}) given, but -m does not choose {family}");
            }
            out.extend(chosen.into_iter().map(|m| format!("{m}={opts}")));
        }
        Ok(out)
    }
}

/// sacrebleu's multi-letter short flags in `mteval compare`'s arguments,
/// written as the long flags clap knows (`-tok` → `--tokenize`); other
/// arguments are left as they are.
#[must_use]
pub fn sacrebleu_short_flags(args: Vec<std::ffi::OsString>) -> Vec<std::ffi::OsString> {
    if args.get(1).and_then(|a| a.to_str()) != Some("compare") {
        return args;
    }
    args.into_iter()
        .map(|a| {
            let Some(text) = a.to_str() else { return a };
            if let Some((_, f)) = mteval::metrics::sacrebleu_flags().into_iter().find(|(_, f)| f.short == Some(text)) {
                return format!("--{}", f.long).into();
            }
            let long = match text {
                "-ci" => "--confidence",
                "-cin" => "--confidence-n",
                "-pbs" => "--paired-bs",
                "-par" => "--paired-ar",
                "-pbsn" => "--paired-bs-n",
                "-parn" => "--paired-ar-n",
                "-nr" => "--num-refs",
                _ => return a,
            };
            long.into()
        })
        .collect()
}

pub(super) async fn run(a: &CompareArgs) -> Result<()> {
    let score_files: Vec<ScoreFile> = a.score_files.iter().map(|f| ScoreFile::parse(f)).collect::<Result<_>>()?;
    if let (Some(c), Some(f)) = (a.score_cols.first(), score_files.first()) {
        bail!(
            "--score-col {c} names a column of a table and --score-file {} gives scores of text files (-i): use \
             --score-col with a table, --score-file with -i",
            f.name
        );
    }
    let mut score_cols = a.score_cols.clone();
    score_cols.extend(score_files.iter().map(|f| f.name.clone()));
    let checked = compare::text_metrics(&a.metrics, &score_cols);
    let mut text_metrics =
        mteval::metrics::or_score_col_hint(checked, a.inputs.first().map(String::as_str), &a.metrics).await?;
    once_each(&mut text_metrics);
    let mut options = a.options.clone();
    options.extend(a.sacrebleu.metric_options(&text_metrics)?);
    if !score_files.is_empty() {
        check_score_file_names(&score_files, &compare::resolve(&text_metrics, &options, &[])?)?;
    }
    let mut metrics = compare::resolve(&text_metrics, &options, &score_cols)?;
    if a.comet_compare {
        return run_comet(a, &metrics, &score_files).await;
    }
    let ar_intervals = match a.paired_ar_confidence_n.filter(|&n| n > 0) {
        Some(n) if a.paired.paired_ar => Some(resamples(n, "--paired-ar-confidence-n")?),
        _ => None,
    };
    let test = a.paired.test(ar_intervals)?;
    if a.confidence {
        resamples(a.confidence_n, "--confidence-n")?;
    }
    // The seed (`--seed`, `SACREBLEU_SEED`) is read only where something is
    // resampled, as sacrebleu reads it.
    let seed = if test.is_some() || a.confidence { a.paired.seed()? } else { None };
    let corpus = read_inputs(a, &metrics, &score_files, test.is_some()).await?;
    if test.is_none() {
        sacrebleu_order(&mut metrics);
    }
    let compared: Vec<&dyn Metric> = metrics.iter().map(MetricChoice::metric).collect();

    let n_sys = corpus.systems.len();
    two_systems_for_a_test(a, &corpus, test.is_some())?;
    if a.confidence && n_sys > 1 {
        bail!("--confidence is for one system; with several, use --paired-bs (it reports intervals too)");
    }
    let backend = mteval::session::device::backend()?;
    let widths: Vec<usize> = compared.iter().map(|m| a.width.unwrap_or_else(|| m.decimals())).collect();
    // A spinner only where something is resampled.
    let progress = match test {
        _ if n_sys == 1 => a.confidence.then(|| ResamplingProgress::start("bootstrap intervals")),
        Some(PairedTest::Randomization(..)) => Some(ResamplingProgress::start("paired approximate randomization")),
        Some(PairedTest::Bootstrap(_)) => Some(ResamplingProgress::start("paired bootstrap")),
        None => None,
    };
    let out = if n_sys == 1 {
        let stats = corpus.all_stats(&metrics, backend.as_ref())?.remove(0);
        let views: Vec<&dyn FromStats> = compared.iter().filter_map(|m| m.stats()).collect();
        let results: Vec<TestResult> = if a.confidence {
            views
                .iter()
                .zip(&stats)
                .map(|(m, s)| significance::confidence(*m, s, a.confidence_n, seed))
                .collect::<Result<_, _>>()?
        } else {
            views.iter().zip(&stats).map(|(m, s)| compare::plain(*m, s)).collect()
        };
        let sigs: Vec<String> = metrics.iter().map(|m| m.signature(corpus.nrefs)).collect();
        let sigs: Vec<String> = if a.confidence {
            let keys = PairedTest::Bootstrap(a.confidence_n).signature_keys(seed);
            sigs.iter().map(|s| significance::with_test_keys(s, &keys)).collect()
        } else {
            sigs
        };
        let names: Vec<String> = metrics.iter().map(MetricChoice::display).collect();
        single_report(a, &names, &sigs, &results, &compared, &stats, &widths)
    } else {
        let c = compare::compare(&corpus, &metrics, test, seed, backend.as_ref())?;
        match a.format {
            CompareFormat::Json => c.json(),
            CompareFormat::Text => {
                let sys_names: Vec<&str> = c.systems.iter().map(String::as_str).collect();
                text_table(&sys_names, &c.names, &c.signatures, &c.results, test, &widths)
            }
        }
    };
    drop(progress);
    mteval::output::write_stdout(out.as_bytes())
}

/// `--comet-compare`: comet-compare's settings from the flags (the seed an
/// integer, 12 unless given).
///
/// # Errors
/// sacrebleu's tests asked for too, a seed that is not a 32-bit integer, an
/// unknown alternative, no splits, a ratio that is not positive.
fn comet_options(a: &CompareArgs) -> Result<comet::Options> {
    for (given, flag) in
        [(a.paired.paired_bs, "--paired-bs"), (a.paired.paired_ar, "--paired-ar"), (a.confidence, "--confidence")]
    {
        if given {
            bail!("--comet-compare is comet-compare's test; {flag} is sacrebleu's: give one of them");
        }
    }
    let seed = match a.paired.seed.as_deref() {
        None => comet::DEFAULT_SEED,
        Some(s) => s.trim().parse::<u32>().map_err(|_| {
            anyhow::anyhow!("--seed {s}: --comet-compare seeds numpy's global state, an integer from 0 to 4294967295")
        })?,
    };
    if a.num_splits == 0 {
        bail!("--num-splits must be at least 1");
    }
    if !(a.sample_ratio.is_finite() && a.sample_ratio > 0.0) {
        bail!("--sample-ratio must be a positive number, got {}", a.sample_ratio);
    }
    let alternative = comet::Alternative::parse(&a.t_test_alternative).map_err(|_| {
        anyhow::anyhow!("--t-test-alternative {}: one of two-sided, less, greater", a.t_test_alternative)
    })?;
    Ok(comet::Options { num_splits: a.num_splits, sample_ratio: a.sample_ratio, seed, alternative })
}

/// `compare --comet-compare`: the systems (in name order from a table, as
/// given in text mode) compared pairwise on each metric.
async fn run_comet(a: &CompareArgs, metrics: &[MetricChoice], score_files: &[ScoreFile]) -> Result<()> {
    let opts = comet_options(a)?;
    let corpus = read_inputs(a, metrics, score_files, false).await?;
    let order =
        if table_mode(a) { mteval::compare::comet::name_order(&corpus) } else { (0..corpus.systems.len()).collect() };
    let backend = mteval::session::device::backend()?;
    let results = mteval::compare::comet::compare(&corpus, &order, metrics, &opts, backend.as_ref())?;
    let systems: Vec<String> = order.iter().map(|&i| corpus.systems[i].0.clone()).collect();
    let out = match a.format {
        CompareFormat::Json => mteval::compare::comet::json(&systems, &results, &opts),
        CompareFormat::Text => {
            let blocks: Vec<String> = results
                .iter()
                .map(|m| {
                    let body = mteval::compare::comet::text(&systems, m);
                    if results.len() > 1 { format!("# {}\n{body}", m.name) } else { body }
                })
                .collect();
            blocks.join("\n")
        }
    };
    mteval::output::write_stdout(out.as_bytes())
}

/// `--score-file`'s names: each given once, and none a text metric's.
///
/// # Errors
/// The second use of a name, naming the flag that gave it.
fn check_score_file_names(score_files: &[ScoreFile], text_metrics: &[MetricChoice]) -> Result<()> {
    for (i, f) in score_files.iter().enumerate() {
        let col = f.column();
        if let Some(first) = score_files[..i].iter().find(|g| g.column() == col) {
            bail!(
                "--score-file {}: the name '{col}' is given twice to --score-file (also as {}); give each score \
                 file its own name",
                f.name,
                first.name
            );
        }
        if let Some(m) = text_metrics.iter().find(|m| m.display() == col || m.column() == col) {
            bail!(
                "--score-file {}: '{col}' is already the name of the metric {}; name the score otherwise",
                f.name,
                m.display()
            );
        }
    }
    Ok(())
}

/// Table mode: no -i, and the input is a table (not a reference file with
/// the system on standard input).
fn table_mode(a: &CompareArgs) -> bool {
    a.systems.is_empty() && a.inputs.iter().any(|i| is_table(i))
}

/// A paired test's two systems, or why there is one.
fn two_systems_for_a_test(a: &CompareArgs, corpus: &Corpus, test: bool) -> Result<()> {
    if test && corpus.systems.len() < 2 {
        if a.systems.len() > 1 {
            bail!(
                "paired tests need two or more systems: every -i file is {} (a file given again as the baseline \
                 counts once, as in sacrebleu)",
                a.systems[0].display()
            );
        }
        if table_mode(a) {
            let column = a.table.system_col.as_deref().unwrap_or("system");
            let only = corpus.systems.first().map_or("", |(n, _)| n.strip_prefix(BASELINE_PREFIX).unwrap_or(n));
            bail!(
                "paired tests need two or more systems: {} has one, '{only}', in its system column '{column}'; \
                 give a table with a row per system and segment (--system-col names the column of system names, \
                 --baseline picks the baseline among them)",
                a.inputs[0]
            );
        }
        bail!("paired tests need two or more systems (-i BASELINE SYSTEM ...)");
    }
    Ok(())
}

/// sacrebleu keeps its metrics by name: one given twice is computed once.
fn once_each(text_metrics: &mut Vec<String>) {
    let mut seen = Vec::new();
    text_metrics.retain(|m| {
        let key = metrics::lookup(m).map_or_else(|_| m.to_lowercase(), |i| i.name.to_owned());
        let first = !seen.contains(&key);
        seen.push(key);
        first
    });
}

/// Without a paired test sacrebleu prints its metrics sorted by name
/// (`sorted(metrics)`); segment-score columns follow, as given.
fn sacrebleu_order(metrics: &mut [MetricChoice]) {
    metrics.sort_by_key(|m| match m.score_column() {
        Some(_) => (true, String::new()),
        None => (false, sacrebleu_key(m)),
    });
}

/// The name sacrebleu sorts a metric by (`bleu`, `chrf`, `ter`; chrF++ is
/// its `chrf`), else the metric table's name.
fn sacrebleu_key(m: &MetricChoice) -> String {
    let info = m.metric().info();
    info.sacrebleu.map_or(info.name, |s| s.name).to_owned()
}

/// The corpus of `compare`'s inputs: a table, or text files (the system on
/// standard input when no -i is given, sacrebleu's `sacrebleu REF < SYS`).
async fn read_inputs(
    a: &CompareArgs,
    metrics: &[MetricChoice],
    score_files: &[ScoreFile],
    paired: bool,
) -> Result<Corpus> {
    let stdin_system = a.systems.is_empty() && !a.inputs.is_empty() && !a.inputs.iter().any(|i| is_table(i));
    let systems: Vec<PathBuf> = if stdin_system {
        if std::io::IsTerminal::is_terminal(&std::io::stdin()) {
            bail!(
                "{}: a reference file, but no system: give the systems with -i SYS1 SYS2 ..., or one on standard \
                 input (mteval compare REF < SYS)",
                a.inputs[0]
            );
        }
        vec![PathBuf::from(mteval::corpus::textfiles::STDIN)]
    } else {
        a.systems.clone()
    };
    if systems.is_empty() {
        table_mode_only(&a.inputs, a.num_refs, !a.refs.is_empty())?;
        if let Some(f) = score_files.first() {
            bail!("--score-file {} is for text files (-i); a table names its score columns with --score-col", f.name);
        }
        let score_cols: Vec<String> = metrics.iter().filter_map(|m| m.score_column().map(str::to_owned)).collect();
        let text = metrics.iter().any(|m| m.score_column().is_none());
        return read_table(&TableSpec { score_cols: &score_cols, text, ..a.table.spec(&a.inputs[0], &[]) }).await;
    }
    a.table.refuse_in_text_mode()?;
    if let Some(c) = a.score_cols.first() {
        bail!(
            "--score-col {c} names a column of a table; with -i the inputs are text files: put the systems' \
             segments and their scores in a table (a row per system and segment)"
        );
    }
    let ref_files: Vec<PathBuf> = a.inputs.iter().map(PathBuf::from).chain(a.refs.iter().cloned()).collect();
    let mut corpus = read_text(&ref_files, &systems, a.num_refs.unwrap_or(1), paired)?;
    put_baseline_first(&mut corpus, a.table.baseline.as_deref(), paired)?;
    // The systems by path as given (sacrebleu's table prefixes the baseline).
    let paths: Vec<String> = corpus
        .systems
        .iter()
        .map(|(n, _)| n.strip_prefix(BASELINE_PREFIX).filter(|_| paired).unwrap_or(n).to_owned())
        .collect();
    let n = corpus.refs.len();
    corpus.scores = vec![Vec::new(); paths.len()];
    for f in score_files {
        for (s, v) in f.read(&paths, n)?.into_iter().enumerate() {
            corpus.scores[s].push(v);
        }
        corpus.score_cols.push(f.column().to_owned());
    }
    Ok(corpus)
}

/// sacrebleu's `Score.format`: `score (μ = mean ± ci)` with `width` decimals
/// (the interval only when its mean is positive).
fn score_text(r: &TestResult, w: usize) -> String {
    let mut s = format!("{:.w$}", r.score);
    if let Some(e) = r.estimate.filter(|e| e.mean > 0.0) {
        let _ = write!(s, " (μ = {:.w$} ± {:.w$})", e.mean, e.ci);
    }
    s
}

/// One system: sacrebleu's single-system lines (aligned at `=`), or JSON.
fn single_report(
    a: &CompareArgs,
    names: &[String],
    sigs: &[String],
    results: &[TestResult],
    compared: &[&dyn Metric],
    stats: &[SegmentStats],
    widths: &[usize],
) -> String {
    let verbose: Vec<Option<String>> = compared.iter().zip(stats).map(|(m, s)| m.verbose(&s.sums())).collect();
    if a.format == CompareFormat::Json && a.score_only {
        // sacrebleu's `-b -f json`: `Score.format` gives the bare score text
        // (with its interval), and `print_single_results` prints one alone
        // or several between brackets, unquoted, as sacrebleu does.
        let scores: Vec<String> = results.iter().zip(widths).map(|(r, &w)| score_text(r, w)).collect();
        return match scores.as_slice() {
            [one] => format!("{one}\n"),
            several => format!("[\n{}\n]\n", several.join(",\n")),
        };
    }
    if a.format == CompareFormat::Json {
        // sacrebleu's `Score.format(is_json=True)`: its keys in its order
        // (scores at full precision), an object for one metric, a list for several.
        let items: Vec<Json> = names
            .iter()
            .zip(sigs)
            .zip(results.iter().zip(&verbose).zip(widths))
            .map(|((name, sig), ((r, v), &w))| {
                let mut d = vec![
                    ("name", Json::from(name.as_str())),
                    ("score", Json::from(r.score)),
                    ("signature", Json::from(sig.as_str())),
                ];
                if let Some(e) = r.estimate.filter(|e| e.mean > 0.0) {
                    let (m, c) = (format!("{:.w$}", e.mean), format!("{:.w$}", e.ci));
                    d.push(("confidence_mean", Json::from(m.parse::<f64>().unwrap_or(e.mean))));
                    d.push(("confidence_var", Json::from(c.parse::<f64>().unwrap_or(e.ci))));
                    d.push(("confidence", Json::from(format!("μ = {m} ± {c}"))));
                    d.push(("mean", Json::from(e.mean)));
                    d.push(("ci", Json::from(e.ci)));
                }
                if let Some(v) = v {
                    d.push(("verbose_score", Json::from(v.as_str())));
                }
                let mut obj: Vec<(String, Json)> = d.into_iter().map(|(k, v)| (k.to_owned(), v)).collect();
                // sacrebleu spreads the signature's keys into the object. A
                // key the object already has (a score column's `score:NAME`)
                // would be a second key of that name: the signature keeps it.
                for kv in sig.split('|') {
                    if let Some((k, v)) = kv.split_once(':')
                        && !obj.iter().any(|(have, _)| have == k)
                    {
                        obj.push((k.to_owned(), Json::from(v)));
                    }
                }
                Json::Object(obj)
            })
            .collect();
        let out = match <[Json; 1]>::try_from(items) {
            Ok([one]) => one,
            Err(items) => Json::Array(items),
        };
        return format!("{}\n", out.pretty(1));
    }
    let lines: Vec<String> = names
        .iter()
        .zip(sigs)
        .zip(results.iter().zip(&verbose).zip(widths))
        .map(|((name, sig), ((r, v), &w))| {
            let sc = score_text(r, w);
            if a.score_only {
                return sc;
            }
            match v {
                Some(v) => format!("{name}|{sig} = {sc} {v}"),
                None => format!("{name}|{sig} = {sc}"),
            }
        })
        .collect();
    let mut out = String::new();
    if a.score_only || lines.len() == 1 {
        for l in lines {
            let _ = writeln!(out, "{l}");
        }
        return out;
    }
    // Right-align the `name|signature` parts at the '=' (sacrebleu's print_single_results).
    let lens: Vec<usize> = lines.iter().map(|l| l.find(" = ").map_or(0, |i| l[..i].chars().count())).collect();
    let wmax = lens.iter().copied().max().unwrap_or(0);
    for (l, len) in lines.iter().zip(lens) {
        let _ = writeln!(out, "{}{l}", " ".repeat(wmax - len));
    }
    out
}

/// sacrebleu's text table (tabulate's `fancy_grid`), the test's explanation
/// and the signatures.
fn text_table(
    systems: &[&str],
    names: &[String],
    sigs: &[String],
    results: &[Vec<TestResult>],
    test: Option<PairedTest>,
    widths: &[usize],
) -> String {
    let bootstrap = results.iter().flatten().any(|r| r.estimate.is_some());
    let mut header = vec!["System".to_owned()];
    header.extend(names.iter().map(|n| if bootstrap { format!("{n} (μ ± 95% CI)") } else { n.clone() }));
    let rows: Vec<Vec<String>> = systems
        .iter()
        .zip(results)
        .map(|(s, per)| {
            let mut row = vec![(*s).to_owned()];
            for (r, &w) in per.iter().zip(widths) {
                let mut c = format!("{:.w$}", r.score);
                if let Some(e) = r.estimate {
                    let _ = write!(c, " ({:.w$} ± {:.w$})", e.mean, e.ci);
                }
                if let Some(p) = r.p_value {
                    let _ = write!(c, "\n(p = {p:.4}){}", if p > 0.05 { "" } else { "*" });
                }
                row.push(c);
            }
            row
        })
        .collect();
    let mut out = fancy_grid(&header, &rows);
    out.push('\n');
    if let Some(t) = test {
        let baseline = systems.first().copied().unwrap_or_default();
        let msg = match t {
            PairedTest::Bootstrap(n) => format!("Paired bootstrap resampling test with {n} resampling trials"),
            PairedTest::Randomization(n, _) => format!("Paired approximate randomization test with {n} trials"),
        };
        let bar = "-".repeat(msg.chars().count());
        let _ = writeln!(out, "{bar}\n{msg}\n{bar}");
        let _ = writeln!(out, " - Each system is pairwise compared to {baseline}.");
        if matches!(t, PairedTest::Bootstrap(_)) {
            out.push_str(
                "   Actual system score / bootstrap estimated true mean / 95% CI are provided for each metric.\n",
            );
        } else {
            out.push_str("   Actual system score is provided for each metric.\n");
        }
        out.push_str(EXPLANATION);
    }
    out.push_str("-----------------\nMetric signatures\n-----------------\n");
    for (n, s) in names.iter().zip(sigs) {
        let _ = writeln!(out, " - {n:<10} {s}");
    }
    out
}

const EXPLANATION: &str = "
 - Null hypothesis: the system and the baseline translations are essentially
   generated by the same underlying process. For a given system and the baseline,
   the p-value is roughly the probability of the absolute score difference (delta)
   or higher occurring due to chance, under the assumption that the null hypothesis is correct.

 - Assuming a significance threshold of 0.05, the null hypothesis can be rejected
   for p-values < 0.05 (marked with \"*\"). This means that the delta is unlikely to be attributed
   to chance, hence the system is significantly \"different\" than the baseline.
   Otherwise, the p-values are highlighted in red.

 - NOTE: Significance does not tell whether a system is \"better\" than the baseline but rather
   emphasizes the \"difference\" of the systems in terms of the replicability of the delta.

";

/// tabulate's `fancy_grid` with headers: columns at least two wider than
/// their header, the first column right-aligned, the others
/// centred (`{:^}`: the odd space on the right), one space of padding,
/// multi-line cells.
fn fancy_grid(header: &[String], rows: &[Vec<String>]) -> String {
    let len = |s: &str| s.chars().count();
    // tabulate pads every column to its header's width plus 2 (MIN_PADDING).
    let mut width: Vec<usize> = header.iter().map(|h| h.lines().map(len).max().unwrap_or(0) + 2).collect();
    for r in std::iter::once(header).chain(rows.iter().map(Vec::as_slice)) {
        for (c, cell) in r.iter().enumerate() {
            width[c] = width[c].max(cell.lines().map(len).max().unwrap_or(0));
        }
    }
    let rule = |l: &str, m: &str, r: &str, f: &str| {
        let parts: Vec<String> = width.iter().map(|w| f.repeat(w + 2)).collect();
        format!("{l}{}{r}\n", parts.join(m))
    };
    let line = |cells: &[String]| {
        let height = cells.iter().map(|c| c.lines().count().max(1)).max().unwrap_or(1);
        let mut s = String::new();
        for k in 0..height {
            s.push('│');
            for (c, cell) in cells.iter().enumerate() {
                let text = cell.lines().nth(k).unwrap_or("");
                let pad = width[c] - len(text);
                let (l, r) = if c == 0 { (pad, 0) } else { (pad / 2, pad - pad / 2) };
                let _ = write!(s, " {}{text}{} │", " ".repeat(l), " ".repeat(r));
            }
            s.push('\n');
        }
        s
    };
    let mut out = rule("╒", "╤", "╕", "═");
    out.push_str(&line(header));
    out.push_str(&rule("╞", "╪", "╡", "═"));
    for (i, r) in rows.iter().enumerate() {
        if i > 0 {
            out.push_str(&rule("├", "┼", "┤", "─"));
        }
        out.push_str(&line(r));
    }
    out.push_str(&rule("╘", "╧", "╛", "═"));
    out
}
