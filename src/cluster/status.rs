//! What a cluster holds, as its scheduler sees it: the registered executors
//! (address, task slots, last heartbeat) and the jobs.
//!
//! `mteval scheduler` serves it as JSON at `GET /mteval/status` on its own
//! port, beside its gRPC service ([`serve`]); `mteval cluster status
//! df://HOST:PORT` prints it ([`fetch`], [`print`]), and a client asks it
//! before a job ([`wait_for_executors`]) so that a cluster with no executor
//! is an error after a bounded wait, not a job queued for ever.

use std::fmt::Write as _;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use anyhow::{Result, bail};
use ballista_core::serde::protobuf::job_status::Status as JobPhase;
use ballista_core::serde::protobuf::scheduler_grpc_server::SchedulerGrpcServer;
use ballista_scheduler::scheduler_server::SchedulerServer;
use datafusion_proto::protobuf::{LogicalPlanNode, PhysicalPlanNode};
use serde::{Deserialize, Serialize};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// Where the status document is, on the scheduler's port.
pub const STATUS_PATH: &str = "/mteval/status";

/// How long one status request may take (a frozen scheduler answers
/// nothing).
const REQUEST_TIMEOUT: Duration = Duration::from_secs(10);

/// The scheduler as mteval builds it.
pub type Scheduler = SchedulerServer<LogicalPlanNode, PhysicalPlanNode>;

/// A cluster's state.
#[derive(Debug, Serialize, Deserialize)]
pub struct ClusterStatus {
    /// The mteval version of the scheduler.
    pub version: String,
    /// The registered executors (a lost one stays listed, its last
    /// heartbeat growing old, until the scheduler's executor timeout).
    pub executors: Vec<Executor>,
    /// The jobs the scheduler knows: queued, running, and finished ones it
    /// has not yet forgotten.
    pub jobs: Vec<Job>,
}

/// One registered executor.
#[derive(Debug, Serialize, Deserialize)]
pub struct Executor {
    /// Ballista's executor id.
    pub id: String,
    /// Host the executor serves results from.
    pub host: String,
    /// Its Arrow Flight port (results, shuffle data).
    pub flight_port: u16,
    /// Its gRPC port (tasks are pushed there).
    pub grpc_port: u16,
    /// Partitions it runs at once (`--concurrent-tasks`).
    pub task_slots: u32,
    /// Seconds since its last heartbeat; `None` before the first.
    pub last_seen_s: Option<u64>,
}

/// One job.
#[derive(Debug, Serialize, Deserialize)]
pub struct Job {
    /// Ballista's job id.
    pub id: String,
    /// `queued`, `running`, `successful`, `failed` or `unknown`.
    pub status: String,
    /// Stages done.
    pub completed_stages: usize,
    /// Stages in all.
    pub stages: usize,
}

impl Job {
    /// Queued or running.
    #[must_use]
    pub fn is_active(&self) -> bool {
        matches!(self.status.as_str(), "queued" | "running")
    }
}

/// Serves `scheduler` on `listener`: its gRPC service (executors and clients)
/// and [`STATUS_PATH`], until the server fails.
///
/// # Errors
/// When serving fails.
pub async fn serve(listener: tokio::net::TcpListener, scheduler: Scheduler) -> Result<()> {
    let config = Arc::clone(&scheduler.state.config);
    let grpc = SchedulerGrpcServer::new(scheduler.clone())
        .max_encoding_message_size(config.grpc_server_max_encoding_message_size as usize)
        .max_decoding_message_size(config.grpc_server_max_decoding_message_size as usize);
    let mut routes = tonic::service::RoutesBuilder::default();
    routes.add_service(grpc);
    let status =
        axum::Router::new().route(STATUS_PATH, axum::routing::get(status_response)).with_state(Arc::new(scheduler));
    let app = routes.routes().into_axum_router().merge(status);
    axum::serve(listener, app.into_make_service_with_connect_info::<SocketAddr>()).await?;
    Ok(())
}

async fn status_response(
    axum::extract::State(scheduler): axum::extract::State<Arc<Scheduler>>,
) -> (axum::http::StatusCode, [(axum::http::HeaderName, &'static str); 1], String) {
    let json = axum::http::header::CONTENT_TYPE;
    match status_of(&scheduler).await.and_then(|s| Ok(serde_json::to_string(&s)?)) {
        Ok(body) => (axum::http::StatusCode::OK, [(json, "application/json")], body),
        Err(e) => (axum::http::StatusCode::INTERNAL_SERVER_ERROR, [(json, "text/plain")], format!("{e:#}")),
    }
}

async fn status_of(scheduler: &Scheduler) -> Result<ClusterStatus> {
    let now = SystemTime::now().duration_since(UNIX_EPOCH).unwrap_or_default();
    let state = &scheduler.state;
    let executors = state
        .executor_manager
        .get_executors_state()
        .await?
        .into_iter()
        .map(|(m, seen, _)| Executor {
            id: m.id,
            host: m.host,
            flight_port: m.port,
            grpc_port: m.grpc_port,
            task_slots: m.specification.vcores,
            last_seen_s: seen.map(|t| now.saturating_sub(t).as_secs()),
        })
        .collect();
    let jobs = state
        .task_manager
        .get_all_jobs()
        .await?
        .into_iter()
        .map(|j| Job {
            id: j.job_id.to_string(),
            status: match j.status.status {
                Some(JobPhase::Queued(_)) => "queued",
                Some(JobPhase::Running(_)) => "running",
                Some(JobPhase::Successful(_)) => "successful",
                Some(JobPhase::Failed(_)) => "failed",
                None => "unknown",
            }
            .to_owned(),
            completed_stages: j.completed_stages,
            stages: j.num_stages,
        })
        .collect();
    Ok(ClusterStatus { version: env!("CARGO_PKG_VERSION").to_owned(), executors, jobs })
}

/// The status of the scheduler at `url` (`df://HOST:PORT`).
///
/// # Errors
/// A scheduler that cannot be reached or does not answer within 10 s (said
/// as the cluster client says it), or a server that is not `mteval
/// scheduler` (one that serves no mteval status, or does not speak HTTP).
pub async fn fetch(url: &str) -> Result<ClusterStatus> {
    let addr = url.trim_start_matches("df://").trim_end_matches('/');
    let not_ours = |what: &str| {
        anyhow::anyhow!(
            "the server at {url} is not an mteval scheduler ({what}); give the address of an `mteval scheduler`"
        )
    };
    let response = tokio::time::timeout(REQUEST_TIMEOUT, get(addr, STATUS_PATH))
        .await
        .map_err(|_| {
            anyhow::anyhow!(
                "the cluster at {url}: the scheduler cannot be reached: it stopped answering (no reply within {} s; \
                 frozen or overloaded?)",
                REQUEST_TIMEOUT.as_secs()
            )
        })?
        .map_err(|e| match e.kind() {
            std::io::ErrorKind::InvalidData => not_ours("it does not answer HTTP requests as mteval's scheduler does"),
            _ => anyhow::anyhow!("the cluster at {url}: the scheduler cannot be reached: {}", io_cause(&e)),
        })?;
    let (code, body) = response;
    match code {
        200 => serde_json::from_str(&body)
            .map_err(|_| not_ours(&format!("what it serves at {STATUS_PATH} is not mteval's status"))),
        404 => Err(not_ours(&format!("it serves no {STATUS_PATH}"))),
        _ => bail!("the scheduler at {url} could not give its status (HTTP {code}): {}", body.trim()),
    }
}

/// A connection error in words.
fn io_cause(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::ConnectionRefused => {
            "nothing listens at its address (connection refused); is `mteval scheduler` running there?".to_owned()
        }
        _ => e.to_string(),
    }
}

/// `GET path` on `addr` over HTTP/1.1: the status code and the body.
async fn get(addr: &str, path: &str) -> std::io::Result<(u16, String)> {
    let mut stream = tokio::net::TcpStream::connect(addr).await?;
    let request =
        format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nAccept: application/json\r\nConnection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).await?;
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).await?;
    let bad = || std::io::Error::new(std::io::ErrorKind::InvalidData, "not an HTTP response");
    let text = String::from_utf8_lossy(&raw);
    let (head, body) = text.split_once("\r\n\r\n").ok_or_else(bad)?;
    let code = head.split(' ').nth(1).and_then(|c| c.parse().ok()).ok_or_else(bad)?;
    let chunked = head.lines().any(|l| {
        let l = l.to_ascii_lowercase();
        l.starts_with("transfer-encoding:") && l.contains("chunked")
    });
    Ok((code, if chunked { dechunk(body).ok_or_else(bad)? } else { body.to_owned() }))
}

/// The body of a chunked HTTP/1.1 message.
fn dechunk(mut rest: &str) -> Option<String> {
    let mut out = String::new();
    loop {
        let (size, after) = rest.split_once("\r\n")?;
        let n = usize::from_str_radix(size.split(';').next()?.trim(), 16).ok()?;
        if n == 0 {
            return Some(out);
        }
        out.push_str(after.get(..n)?);
        rest = after.get(n + 2..)?;
    }
}

/// Waits until the scheduler at `url` has an executor, for at most `wait`.
///
/// # Errors
/// No executor registered after `wait`; a scheduler that cannot be reached
/// or is not `mteval scheduler` (see [`fetch`]).
pub async fn wait_for_executors(url: &str, wait: Duration) -> Result<()> {
    let start = Instant::now();
    let mut told = false;
    loop {
        let status = fetch(url).await?;
        if !status.executors.is_empty() {
            return Ok(());
        }
        if start.elapsed() >= wait {
            bail!(
                "no executor is registered with the scheduler at {url} (waited {} s): start one with `mteval \
                 executor --scheduler {}`, or wait longer with --executor-wait",
                wait.as_secs(),
                url.trim_start_matches("df://")
            );
        }
        if !told {
            crate::output::note!(
                "waiting up to {} s for an executor to register with the scheduler at {url}",
                wait.as_secs()
            );
            told = true;
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
}

/// Returns once the scheduler at `url` has not answered for `lost` (an
/// executor's watch on its scheduler); never while it answers, whatever it
/// answers.
pub async fn until_gone(url: &str, lost: Duration) {
    let addr = url.trim_start_matches("df://").to_owned();
    let mut last_answer = Instant::now();
    loop {
        tokio::time::sleep(Duration::from_secs(1)).await;
        let answered = tokio::time::timeout(Duration::from_secs(3), get(&addr, STATUS_PATH)).await;
        if matches!(answered, Ok(Ok(_))) {
            last_answer = Instant::now();
        } else if last_answer.elapsed() >= lost {
            return;
        }
    }
}

/// The status as `mteval cluster status` prints it.
#[must_use]
pub fn print(url: &str, s: &ClusterStatus) -> String {
    let mut out = String::new();
    let slots: u32 = s.executors.iter().map(|e| e.task_slots).sum();
    let active: Vec<&Job> = s.jobs.iter().filter(|j| j.is_active()).collect();
    let _ = writeln!(
        out,
        "scheduler {url} (mteval {}): {} executor{}, {slots} task slot{}, {} job{} queued or running",
        s.version,
        s.executors.len(),
        plural(s.executors.len()),
        plural(slots as usize),
        active.len(),
        plural(active.len())
    );
    if !s.executors.is_empty() {
        let _ = writeln!(out, "\n{:<36}  {:<24} {:>5}  last heartbeat", "executor", "address (flight/grpc)", "slots");
        for e in &s.executors {
            let addr = format!("{}:{}/{}", e.host, e.flight_port, e.grpc_port);
            let seen = e.last_seen_s.map_or_else(|| "none yet".to_owned(), |t| format!("{t} s ago"));
            let _ = writeln!(out, "{:<36}  {addr:<24} {:>5}  {seen}", e.id, e.task_slots);
        }
    }
    if !s.jobs.is_empty() {
        let _ = writeln!(out, "\n{:<16}  {:<10}  stages done", "job", "status");
        for j in &s.jobs {
            let _ = writeln!(out, "{:<16}  {:<10}  {}/{}", j.id, j.status, j.completed_stages, j.stages);
        }
    }
    out
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_chunked_body_is_joined() {
        assert_eq!(super::dechunk("4\r\nabcd\r\n3;x=1\r\nefg\r\n0\r\n\r\n").as_deref(), Some("abcdefg"));
        assert_eq!(super::dechunk("4\r\nab"), None);
    }
}
