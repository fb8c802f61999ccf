//! Scale-out on an Apache `DataFusion` Ballista cluster: the scheduler and
//! executor roles run from this binary (`mteval scheduler`, `mteval
//! executor`), each with every mteval function, the `mteval.*` settings, the
//! file formats and the object stores of the CLI; `--cluster df://HOST:PORT`
//! gives a client session whose queries run there.
//!
//! Ballista's defaults are adjusted where they would lose mteval's pieces:
//! its client session replaces the function lists with its own (so they are
//! registered again), and its scheduler and executors rebuild each session
//! from their own configuration, dropping settings of extensions they do not
//! know (so both add mteval's).

pub mod codec;
pub mod status;
pub mod wire_errors;

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, Result};
use ballista::prelude::{SessionConfigExt, SessionContextExt};
use ballista_core::extension::{ballista_aggregate_functions, ballista_scalar_functions, ballista_window_functions};
use datafusion::common::TableReference;
use datafusion::execution::{SessionState, SessionStateBuilder};
use datafusion::logical_expr::LogicalPlan;
use datafusion::prelude::{SessionConfig, SessionContext};
use datafusion_proto::protobuf::{LogicalPlanNode, PhysicalPlanNode};
use mteval_kernels::backend::DeviceRequest;

use crate::session::{SessionOptions, client_state, runtime_env, session_config, with_mteval};

/// How `mteval scheduler` runs.
#[derive(Debug, Clone)]
pub struct SchedulerConfig {
    /// Address the scheduler listens on (gRPC; executors and clients connect here).
    pub bind: SocketAddr,
    /// Seconds without a heartbeat after which an executor counts as lost.
    pub executor_timeout: u64,
}

/// How `mteval executor` runs.
#[derive(Debug, Clone)]
pub struct ExecutorConfig {
    /// The scheduler to register with, `HOST:PORT`.
    pub scheduler: String,
    /// Address of the executor's Arrow Flight service.
    pub bind: SocketAddr,
    /// Address of the executor's gRPC service.
    pub grpc_bind: SocketAddr,
    /// Tasks run at once (default: the number of cores).
    pub concurrent_tasks: Option<usize>,
    /// Directory for shuffle and result files (default: a temporary directory removed at exit).
    pub work_dir: Option<PathBuf>,
    /// Seconds without an answer from the scheduler after which this executor stops.
    pub scheduler_timeout: u64,
}

/// Ballista's configuration with mteval's plan codecs, and a client that
/// notices a scheduler that stopped answering (frozen, or its host gone)
/// within [`CLIENT_KEEPALIVE_S`] + 20 seconds (Ballista's keep-alive
/// timeout) rather than Ballista's 300 + 20.
fn ballista_config() -> SessionConfig {
    let (logical, physical) = crate::cluster::codec::codecs();
    let mut cfg = SessionConfig::new_with_ballista()
        .with_ballista_logical_extension_codec(logical)
        .with_ballista_physical_extension_codec(physical);
    let keepalive = CLIENT_KEEPALIVE_S.to_string();
    // The key is Ballista's own; it cannot be refused.
    let _ = cfg.options_mut().set("ballista.client.grpc_http2_keepalive_interval_seconds", &keepalive);
    cfg
}

/// Seconds between the client's keep-alive pings to the scheduler.
pub const CLIENT_KEEPALIVE_S: u64 = 5;

/// Seconds between an executor's heartbeats (Ballista's default: 60).
pub const HEARTBEAT_S: u64 = 3;

/// Seconds without a heartbeat after which the scheduler takes an executor
/// for dead and runs its tasks elsewhere (Ballista's default: 180), and
/// after which a job fails when no executor is left.
pub const EXECUTOR_TIMEOUT_S: u64 = 15;

/// The configuration every node starts from: Ballista's, with mteval's
/// codecs, settings extension and defaults, `mteval.device` set to `device`
/// (the node's default: a client's setting, when it has one, replaces it).
fn node_config(device: Option<DeviceRequest>) -> SessionConfig {
    session_config(ballista_config(), &SessionOptions { device, ..SessionOptions::default() })
}

/// Whether `state` is a client session of a cluster.
#[must_use]
pub fn is_cluster_session(state: &SessionState) -> bool {
    state.config().options().extensions.get::<ballista_core::config::BallistaConfig>().is_some()
}

/// A scheduler's or executor's session for `cfg`: Ballista's optimizer rules
/// and functions, then mteval's formats and functions, and object stores
/// from the environment (spill files under `temp_dir`).
fn node_state(cfg: SessionConfig, temp_dir: Option<&Path>) -> datafusion::common::Result<SessionState> {
    let state = SessionStateBuilder::new()
        .with_default_features()
        .with_config(cfg)
        .with_runtime_env(runtime_env(None, temp_dir)?)
        .with_optimizer_rules(ballista_core::optimizer::ballista_default_optimizer_rules())
        .with_scalar_functions(ballista_scalar_functions())
        .with_aggregate_functions(ballista_aggregate_functions())
        .with_window_functions(ballista_window_functions())
        .build();
    with_mteval(state)
}

/// Runs a scheduler on `a.bind` until interrupted.
///
/// # Errors
/// When the address cannot be bound or the scheduler fails.
pub async fn run_scheduler(a: &SchedulerConfig) -> Result<()> {
    use ballista_scheduler::cluster::BallistaCluster;
    use ballista_scheduler::config::SchedulerConfig;
    let (logical, physical) = crate::cluster::codec::codecs();
    let mut config = SchedulerConfig::default()
        .with_override_config_producer(Arc::new(|| node_config(None)))
        .with_override_session_builder(Arc::new(|cfg| node_state(cfg, None)));
    config.override_logical_codec = Some(logical);
    config.override_physical_codec = Some(physical);
    // A lost executor is noticed within seconds, not minutes: its tasks run
    // elsewhere, and with none left the job fails instead of waiting.
    config.executor_timeout_seconds = a.executor_timeout;
    config.expire_dead_executor_interval_seconds = (a.executor_timeout / 3).max(1);
    config.no_executors_grace_period_seconds = a.executor_timeout;
    // Partitions go to the executors in turn (Ballista's default, "bias",
    // gives each executor as many as it has free slots, one executor after
    // the other).
    config.task_distribution = ballista_scheduler::config::TaskDistributionPolicy::RoundRobin;
    config.bind_host = a.bind.ip().to_string();
    config.external_host = a.bind.ip().to_string();
    config.bind_port = a.bind.port();
    config.validate().context("the scheduler's settings")?;
    let cluster = BallistaCluster::new_from_config(&config).await.context("cannot set up the scheduler")?;
    let scheduler = ballista_scheduler::scheduler_process::create_scheduler::<LogicalPlanNode, PhysicalPlanNode>(
        cluster,
        Arc::new(config),
    )
    .await
    .context("cannot set up the scheduler")?;
    let listener =
        tokio::net::TcpListener::bind(a.bind).await.with_context(|| format!("cannot listen on {}", a.bind))?;
    crate::output::note!("mteval scheduler listening on {}", a.bind);
    tokio::select! {
        res = crate::cluster::status::serve(listener, scheduler) => res.with_context(|| format!("scheduler on {}", a.bind)),
        _ = tokio::signal::ctrl_c() => Ok(()),
    }
}

/// Runs an executor registered with `a.scheduler` until interrupted.
///
/// # Errors
/// Bad addresses, an unreachable scheduler, a work directory that cannot be created.
pub async fn run_executor(a: &ExecutorConfig, device: Option<DeviceRequest>) -> Result<()> {
    use ballista_executor::executor_process::{ExecutorProcessConfig, start_executor_process};
    let (host, port) = a
        .scheduler
        .rsplit_once(':')
        .and_then(|(h, p)| Some((h.to_owned(), p.parse::<u16>().ok()?)))
        .with_context(|| format!("--scheduler {}: expected HOST:PORT", a.scheduler))?;
    // Ballista's own default removes its temporary directory at once; this
    // one lives as long as the executor.
    let temp = match &a.work_dir {
        Some(_) => None,
        None => Some(
            tempfile::Builder::new().prefix("mteval-executor-").tempdir().context("cannot create a work directory")?,
        ),
    };
    let work_dir = match (&a.work_dir, &temp) {
        (Some(d), _) => {
            std::fs::create_dir_all(d).with_context(|| format!("cannot create --work-dir {}", d.display()))?;
            d.clone()
        }
        (None, Some(t)) => t.path().to_owned(),
        (None, None) => unreachable!("a temporary directory is made when no --work-dir is given"),
    };
    let functions = node_state(node_config(device), None)?;
    let (logical, physical) = crate::cluster::codec::codecs();
    let spill = work_dir.clone();
    let config = ExecutorProcessConfig {
        bind_host: a.bind.ip().to_string(),
        external_host: Some(a.bind.ip().to_string()),
        port: a.bind.port(),
        grpc_port: a.grpc_bind.port(),
        scheduler_host: host,
        scheduler_port: port,
        executor_heartbeat_interval_seconds: HEARTBEAT_S,
        vcores: a.concurrent_tasks.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, usize::from)),
        work_dir: Some(work_dir.display().to_string()),
        override_function_registry: Some(Arc::new((&functions).into())),
        override_config_producer: Some(Arc::new(move || node_config(device))),
        override_logical_codec: Some(logical),
        override_physical_codec: Some(physical),
        override_runtime_producer: Some(Arc::new(move |_cfg: &SessionConfig| runtime_env(None, Some(&spill)))),
        ..ExecutorProcessConfig::default()
    };
    crate::output::note!("mteval executor on {} registering with {}", a.bind, a.scheduler);
    let url = format!("df://{}", a.scheduler);
    let lost = Duration::from_secs(a.scheduler_timeout);
    tokio::select! {
        res = start_executor_process(Arc::new(config)) => res.with_context(|| format!("executor on {}", a.bind))?,
        () = crate::cluster::status::until_gone(&url, lost) => {
            drop(temp);
            anyhow::bail!(
                "the scheduler at {url} has not answered for {} s: this executor stops, and its running tasks \
                 with it (a job's client has lost the scheduler too)",
                lost.as_secs()
            );
        }
    }
    drop(temp);
    Ok(())
}

/// A client session whose queries run on the cluster at `url`
/// (`df://HOST:PORT`), with every mteval function and files queryable by path,
/// once the cluster has an executor (waiting for one up to `executor_wait`).
///
/// # Errors
/// A bad URL, an unreachable scheduler, no executor after `executor_wait`.
pub async fn remote_context(url: &str, opts: &SessionOptions, executor_wait: Duration) -> Result<SessionContext> {
    let url = &cluster_url(url)?;
    // First: an address that is no mteval scheduler, or one with no
    // executor, is said in words before Ballista's client tries it.
    crate::cluster::status::wait_for_executors(url, executor_wait).await?;
    let state = client_state(ballista_config(), opts)?;
    let mut ctx = SessionContext::remote_with_state(url, state)
        .await
        .with_context(|| format!("cannot connect to the cluster at {url}"))?;
    // Ballista's client state keeps only its own function lists.
    mteval_udfs::register_all_on(&mut ctx, opts.device)?;
    Ok(crate::session::path_tables::enable(ctx))
}

/// Makes the jobs of `ctx` return their partitions in partition order, not
/// in the order their tasks finish: Ballista's adaptive planner lists a
/// job's results by partition, its static planner by completion. The
/// adaptive planner is Ballista 55's default; `score --partitions N
/// --cluster` sets it all the same, since the input order (each partition a
/// contiguous run of the input) rests on it.
///
/// # Errors
/// When the setting is unknown (another Ballista).
pub fn results_in_partition_order(ctx: &SessionContext) -> Result<()> {
    ctx.state_ref()
        .write()
        .config_mut()
        .options_mut()
        .set(ballista_core::config::BALLISTA_ADAPTIVE_PLANNER_ENABLED, "true")
        .context("the cluster client's settings")?;
    Ok(())
}

/// `plan` as a client sends it to a cluster: its CSV and JSON tables
/// portable (see [`crate::cluster::codec::portable_tables`]) and its qualifiers safe
/// ([`wire_safe_qualifiers`]).
///
/// # Errors
/// When a rewritten node cannot be rebuilt.
pub fn for_the_wire(plan: LogicalPlan) -> datafusion::common::Result<LogicalPlan> {
    wire_safe_qualifiers(crate::cluster::codec::portable_tables(plan)?)
}

/// `plan` with every table qualifier in the form that survives the trip to
/// the scheduler. `DataFusion`'s plan encoding writes a column's qualifier
/// as text and parses it back as an SQL name, so a file queried by its bare
/// name (`FROM 'wmt.parquet'`) comes back as schema `wmt`, table `parquet`,
/// and the scheduler finds no such column ("No field named
/// wmt.parquet.system"). Each qualifier becomes here what the parse will
/// make of it (the same text, so every column and result name is
/// unchanged), in the table scans, the aliases and every column reference.
///
/// # Errors
/// When a rewritten node's schema cannot be rebuilt.
pub fn wire_safe_qualifiers(plan: LogicalPlan) -> datafusion::common::Result<LogicalPlan> {
    use datafusion::common::Column;
    use datafusion::common::tree_node::{Transformed, TreeNode};
    use datafusion::logical_expr::{Expr, SubqueryAlias, TableScan, TableScanBuilder};
    fn wire(r: &TableReference) -> Option<TableReference> {
        let back = TableReference::parse_str_normalized(&r.to_string(), true);
        (back != *r).then_some(back)
    }
    fn column(c: &Column) -> Option<Column> {
        let relation = wire(c.relation.as_ref()?)?;
        Some(Column::new(Some(relation), c.name.clone()))
    }
    let rewritten = plan.transform_up_with_subqueries(|node| {
        let node = node.map_expressions(|e| {
            e.transform(|e| {
                Ok(match &e {
                    Expr::Column(c) => match column(c) {
                        Some(c) => Transformed::yes(Expr::Column(c)),
                        None => Transformed::no(e),
                    },
                    Expr::OuterReferenceColumn(f, c) => match column(c) {
                        Some(c) => Transformed::yes(Expr::OuterReferenceColumn(Arc::clone(f), c)),
                        None => Transformed::no(e),
                    },
                    _ => Transformed::no(e),
                })
            })
        })?;
        let node = match node.data {
            LogicalPlan::TableScan(scan) if wire(&scan.table_name).is_some() => {
                let name = wire(&scan.table_name).unwrap_or_else(|| scan.table_name.clone());
                let TableScan { source, projection, filters, fetch, statistics_requests, .. } = scan;
                let scan = TableScanBuilder::new(name, source)
                    .with_projection(projection)
                    .with_filters(filters)
                    .with_fetch(fetch)
                    .with_statistics_requests(statistics_requests)
                    .build()?;
                return Ok(Transformed::yes(LogicalPlan::TableScan(scan)));
            }
            LogicalPlan::SubqueryAlias(a) if wire(&a.alias).is_some() => {
                let alias = wire(&a.alias).unwrap_or_else(|| a.alias.clone());
                return Ok(Transformed::yes(LogicalPlan::SubqueryAlias(SubqueryAlias::try_new(a.input, alias)?)));
            }
            other => other,
        };
        // A node whose inputs changed has a stale schema: rebuilt from them
        // (the same schema for a node whose inputs did not).
        Ok(Transformed::yes(node.recompute_schema()?))
    })?;
    Ok(rewritten.data)
}

/// The scheduler's URL, `df://HOST:PORT`; a bare `HOST:PORT` is taken as
/// that.
///
/// # Errors
/// Another scheme, or no port.
pub fn cluster_url(given: &str) -> Result<String> {
    if given.trim().is_empty() {
        anyhow::bail!("--cluster needs the scheduler's address, df://HOST:PORT (e.g. df://127.0.0.1:50050)");
    }
    let url = if given.contains("://") { given.to_owned() } else { format!("df://{given}") };
    let parsed = url::Url::parse(&url)
        .map_err(|e| anyhow::anyhow!("--cluster {given}: not a URL ({e}); write df://HOST:PORT"))?;
    if parsed.scheme() != "df" {
        anyhow::bail!("--cluster {given}: the scheduler's URL is df://HOST:PORT, not {}://", parsed.scheme());
    }
    if parsed.host_str().is_none_or(str::is_empty) || parsed.port().is_none() {
        anyhow::bail!(
            "--cluster {given}: give the scheduler's host and port, df://HOST:PORT (e.g. df://127.0.0.1:50050)"
        );
    }
    if !parsed.username().is_empty() || parsed.password().is_some() {
        anyhow::bail!("--cluster {given}: a scheduler's URL has no user name or password; write df://HOST:PORT");
    }
    let extra = [
        (!matches!(parsed.path(), "" | "/")).then(|| format!("the path {}", parsed.path())),
        parsed.query().map(|q| format!("the query ?{q}")),
        parsed.fragment().map(|f| format!("the fragment #{f}")),
    ];
    if let Some(what) = extra.into_iter().flatten().next() {
        anyhow::bail!("--cluster {given}: a scheduler's URL is only df://HOST:PORT, without {what}");
    }
    Ok(format!("df://{}:{}", parsed.host_str().unwrap_or_default(), parsed.port().unwrap_or_default()))
}

/// `e` with the cluster's address when the scheduler could not be reached
/// (the transport error itself names none); a query that cannot be sent
/// there, said in words.
#[must_use]
pub fn with_address(e: anyhow::Error, url: &str) -> anyhow::Error {
    if let Some(why) = e.chain().find_map(|c| crate::cluster::wire_errors::unsendable_plan(&c.to_string())) {
        let url = cluster_url(url).unwrap_or_else(|_| url.to_owned());
        return anyhow::anyhow!("the cluster at {url}: {why}");
    }
    if e.chain().any(|c| crate::cluster::wire_errors::transport_error(&c.to_string()).is_some()) {
        let url = cluster_url(url).unwrap_or_else(|_| url.to_owned());
        return e.context(format!("the cluster at {url}"));
    }
    e
}
