//! The cluster's subcommands: `mteval scheduler` and `mteval executor` (the
//! Ballista roles, run by the library's `cluster` module), and `mteval
//! cluster status df://HOST:PORT`: what a cluster holds, as its scheduler
//! sees it (the registered executors, their task slots and last heartbeats,
//! the jobs), in text or JSON.

use std::net::SocketAddr;
use std::path::PathBuf;

use anyhow::Result;

/// Arguments of `mteval scheduler`.
#[derive(Debug, clap::Args)]
pub struct SchedulerArgs {
    /// Address the scheduler listens on (gRPC; executors and clients connect here).
    #[arg(long, default_value = "127.0.0.1:50050")]
    pub bind: SocketAddr,
    /// Seconds without a heartbeat after which an executor counts as lost (its tasks run
    /// elsewhere; with no executor left, the running jobs fail). Executors beat every 3 s.
    #[arg(long, default_value_t = mteval::cluster::EXECUTOR_TIMEOUT_S, value_parser = clap::value_parser!(u64).range(mteval::cluster::HEARTBEAT_S * 2..=86_400))]
    pub executor_timeout: u64,
}

/// Arguments of `mteval executor`.
#[derive(Debug, clap::Args)]
pub struct ExecutorArgs {
    /// The scheduler to register with, `HOST:PORT`.
    #[arg(long, default_value = "127.0.0.1:50050")]
    pub scheduler: String,
    /// Address of the executor's Arrow Flight service (the results and shuffle data it serves).
    #[arg(long, default_value = "127.0.0.1:50051")]
    pub bind: SocketAddr,
    /// Address of the executor's gRPC service (the scheduler pushes tasks here).
    #[arg(long, default_value = "127.0.0.1:50052")]
    pub grpc_bind: SocketAddr,
    /// Tasks run at once (default: the number of cores).
    #[arg(long, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=4096))]
    pub concurrent_tasks: Option<usize>,
    /// Directory for shuffle and result files (default: a temporary directory removed at exit).
    #[arg(long)]
    pub work_dir: Option<PathBuf>,
    /// Seconds without an answer from the scheduler after which this executor stops, cancelling
    /// the tasks it runs (their job is lost with the scheduler).
    #[arg(long, default_value_t = mteval::cluster::EXECUTOR_TIMEOUT_S, value_parser = clap::value_parser!(u64).range(mteval::cluster::HEARTBEAT_S * 2..=86_400))]
    pub scheduler_timeout: u64,
}

impl SchedulerArgs {
    /// The scheduler these flags ask for.
    pub fn config(&self) -> mteval::cluster::SchedulerConfig {
        mteval::cluster::SchedulerConfig { bind: self.bind, executor_timeout: self.executor_timeout }
    }
}

impl ExecutorArgs {
    /// The executor these flags ask for.
    pub fn config(&self) -> mteval::cluster::ExecutorConfig {
        mteval::cluster::ExecutorConfig {
            scheduler: self.scheduler.clone(),
            bind: self.bind,
            grpc_bind: self.grpc_bind,
            concurrent_tasks: self.concurrent_tasks,
            work_dir: self.work_dir.clone(),
            scheduler_timeout: self.scheduler_timeout,
        }
    }
}

/// Arguments of `mteval cluster`.
#[derive(Debug, clap::Args)]
pub struct ClusterArgs {
    /// What to do.
    #[command(subcommand)]
    pub action: ClusterAction,
}

/// What `mteval cluster` does.
#[derive(Debug, clap::Subcommand)]
pub enum ClusterAction {
    /// The registered executors (address, task slots, last heartbeat) and the jobs of the
    /// cluster whose scheduler is at URL (`df://HOST:PORT`, an `mteval scheduler`).
    Status {
        /// The scheduler, `df://HOST:PORT` (or `HOST:PORT`).
        url: String,
        /// One JSON object: `version`, `executors` (`id`, `host`, `flight_port`, `grpc_port`,
        /// `task_slots`, `last_seen_s`) and `jobs` (`id`, `status`, `completed_stages`, `stages`).
        #[arg(long)]
        json: bool,
    },
}

pub(super) async fn run(a: &ClusterArgs) -> Result<()> {
    match &a.action {
        ClusterAction::Status { url, json } => {
            let url = mteval::cluster::cluster_url(url)?;
            let status = mteval::cluster::status::fetch(&url).await?;
            if *json {
                println!("{}", serde_json::to_string(&status)?);
            } else {
                print!("{}", mteval::cluster::status::print(&url, &status));
            }
            Ok(())
        }
    }
}
