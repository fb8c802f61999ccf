//! `mteval cluster status df://HOST:PORT`: what a cluster holds, as its
//! scheduler sees it (the registered executors, their task slots and last
//! heartbeats, the jobs), in text or JSON.

use anyhow::Result;

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
            let url = crate::cluster::cluster_url(url)?;
            let status = crate::cluster_status::fetch(&url).await?;
            if *json {
                println!("{}", serde_json::to_string(&status)?);
            } else {
                print!("{}", crate::cluster_status::print(&url, &status));
            }
            Ok(())
        }
    }
}
