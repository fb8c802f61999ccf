//! Command-line interface: the subcommands `sql`, `score`, `mbr`,
//! `compare`, `report`, `calculate-cer`, `jiwer`, `scheduler`, `executor` and `cluster`, each in
//! its own module (arguments, run). This is the only code that parses a
//! command line: what the subcommands do lives in the `mteval` library
//! (`session`, `output`, `corpus`, `metrics`, `compare`, `meta`, `report`,
//! `cluster`), which the Python module shares.

mod args;
mod calculate_cer;
mod cluster;
mod compare;
mod jiwer;
mod mbr;
mod meta;
mod report;
mod score;
mod score_lines;
mod sql;
mod text;

pub use args::{MbrArgs, ScoreArgs, SqlArgs};
pub use compare::sacrebleu_short_flags;

use mteval_kernels::backend::DeviceRequest;

use anyhow::Result;
use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use clap::{Parser, Subcommand};
use mteval::flags::Named;

/// Machine-translation evaluation at corpus scale, as SQL.
#[derive(Debug, Parser)]
#[command(name = "mteval", version, about, long_about = None)]
pub struct Cli {
    /// Device of the metric kernels: `auto` (the GPU when a CUDA driver, NVRTC and a device are
    /// present, else all CPU cores), `cpu`, or `cuda` (an error without a usable GPU). Same scores on
    /// every device. Also `MTEVAL_DEVICE`; in SQL, `SET mteval.device = 'cpu'`.
    #[arg(long, global = true, value_parser = mteval::session::device::parse)]
    pub device: Option<DeviceRequest>,
    /// Also print informational lines on standard error (which device the metric kernels run
    /// on, e.g. "no usable GPU ...; using the CPU backend"). Warnings are always printed.
    #[arg(long, global = true)]
    pub verbose: bool,
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run SQL with every mteval function registered (a REPL when no -c/-f is given).
    Sql(SqlArgs),
    /// Score a table (Parquet/CSV/JSONL) or line-aligned text files.
    Score(ScoreArgs),
    /// Minimum Bayes Risk: pick per group the hypothesis with the best expected utility.
    Mbr(MbrArgs),
    /// Compare systems as sacrebleu does: corpus scores, paired significance tests
    /// (--paired-bs, --paired-ar) and confidence intervals (--confidence).
    Compare(compare::CompareArgs),
    /// One self-contained HTML page comparing systems: scores with intervals, significance,
    /// charts, a breakdown by column and a segment browser with TER's alignment.
    Report(report::ReportArgs),
    /// `CharacTER` of two line-aligned text files, printed as the `cer` package's `calculate-cer` does.
    CalculateCer(calculate_cer::CalculateCerArgs),
    /// WER (or CER with -c) of two line-aligned text files, as jiwer 4.0.0's command line computes
    /// and prints it: `mteval jiwer -r REF -h HYP [-c] [-a] [-g]`.
    Jiwer(jiwer::JiwerArgs),
    /// Meta-evaluation: rank metrics by their agreement with human scores, with significance
    /// clusters, as mt-metrics-eval does (WMT23's tasks by default).
    Meta(meta::MetaArgs),
    /// Run a Ballista scheduler with every mteval function (clients connect with `--cluster df://HOST:PORT`).
    Scheduler(cluster::SchedulerArgs),
    /// Run a Ballista executor with every mteval function, registered with a scheduler.
    Executor(cluster::ExecutorArgs),
    /// A cluster's state: `mteval cluster status df://HOST:PORT` lists its executors and jobs.
    Cluster(cluster::ClusterArgs),
}

/// Runs a parsed command line.
///
/// # Errors
/// Any failure, with context naming the file, column or row.
pub fn run(cli: Cli) -> Result<()> {
    let device = mteval::session::device::requested(cli.device)?;
    mteval::session::device::set(device)?;
    // Deeply nested SQL expressions recurse once per level (see `SQL_STACK`).
    let rt = tokio::runtime::Builder::new_multi_thread()
        .thread_stack_size(mteval::session::statements::SQL_STACK)
        .enable_all()
        .build()?;
    match cli.command {
        Command::Sql(a) => {
            if !a.commands.is_empty() || !a.files.is_empty() {
                on_interrupt_remove_temp_files();
            }
            let cluster = a.cluster.clone();
            mteval::session::statements::on_sql_stack(|| rt.block_on(sql::run(a)))?
                .map_err(|e| on_cluster(e, cluster.as_deref()))
        }
        Command::Score(a) => {
            on_interrupt_remove_temp_files();
            let cluster = a.cluster.clone();
            if a.hyp.is_some() {
                text::run(&a)
            } else {
                rt.block_on(score::run(a)).map_err(|e| on_cluster(e, cluster.as_deref()))
            }
        }
        Command::Mbr(a) => {
            on_interrupt_remove_temp_files();
            rt.block_on(mbr::run(a))
        }
        Command::Compare(a) => rt.block_on(compare::run(&a)),
        Command::Report(a) => {
            on_interrupt_remove_temp_files();
            rt.block_on(report::run(&a))
        }
        Command::Meta(a) => rt.block_on(meta::run(&a)),
        Command::CalculateCer(a) => calculate_cer::run(&a),
        Command::Jiwer(a) => jiwer::run(&a),
        Command::Scheduler(a) => rt.block_on(mteval::cluster::run_scheduler(&a.config())),
        Command::Executor(a) => rt.block_on(mteval::cluster::run_executor(&a.config(), device)),
        Command::Cluster(a) => rt.block_on(cluster::run(&a)),
    }
}

/// The value parser of a flag taking one of a [`Named`] type's values,
/// listed with their help in `--help`.
fn named<T: Named + Clone + Send + Sync>() -> impl TypedValueParser<Value = T> {
    PossibleValuesParser::new(T::NAMES.iter().map(|(_, name, help)| PossibleValue::new(*name).help(*help)))
        .try_map(|s| T::from_name(&s).ok_or("not a known value"))
}

/// `e`, naming the cluster's address when it could not be reached.
fn on_cluster(e: anyhow::Error, cluster: Option<&str>) -> anyhow::Error {
    match cluster {
        Some(url) => mteval::cluster::with_address(e, url),
        None => e,
    }
}

/// On Ctrl-C (SIGINT), SIGTERM or SIGHUP, removes the temporary files of
/// unfinished outputs and exits with 128 + the signal number (130, 143, 129).
/// Outputs are renamed into place only when complete, so an interrupted run
/// leaves no partial file and keeps an earlier output; after a SIGKILL, which
/// cannot be caught, the next run writing the same output removes the dead
/// run's temporary file. A thread of its own, so the handler runs even while
/// every worker is busy.
fn on_interrupt_remove_temp_files() {
    std::thread::spawn(|| {
        let Ok(rt) = tokio::runtime::Builder::new_current_thread().enable_all().build() else { return };
        let code = rt.block_on(wait_for_signal());
        mteval::output::remove_temp_files();
        mteval::output::note!("interrupted; no output was written");
        std::process::exit(code);
    });
}

/// Waits for a terminating signal; returns the exit status to use.
#[cfg(unix)]
async fn wait_for_signal() -> i32 {
    use tokio::signal::unix::{SignalKind, signal};
    let (Ok(mut term), Ok(mut hup)) = (signal(SignalKind::terminate()), signal(SignalKind::hangup())) else {
        let _ = tokio::signal::ctrl_c().await;
        return 130;
    };
    tokio::select! {
        _ = tokio::signal::ctrl_c() => 130,
        _ = term.recv() => 143,
        _ = hup.recv() => 129,
    }
}

#[cfg(not(unix))]
async fn wait_for_signal() -> i32 {
    let _ = tokio::signal::ctrl_c().await;
    130
}
