//! What a cluster's errors mean, in words: a lost or refused connection to
//! the scheduler, a query that cannot be sent, and a job's error unwrapped
//! from Ballista's debug text.
//! Used by the cluster client, the CLI's messages and `score --cluster`.

/// A failure to talk to a cluster's scheduler, in words, for a message of
/// Ballista's gRPC client (tonic's Debug text, an h2 error, a gRPC status);
/// `None` for other messages.
#[must_use]
pub fn transport_error(msg: &str) -> Option<String> {
    let grpc =
        ["tonic", "h2 protocol", "Status {", "status: ", "Stream closed without job completing", "transport error"];
    if !grpc.iter().any(|g| msg.contains(g)) {
        return None;
    }
    let lower = msg.to_ascii_lowercase();
    let has = |needles: &[&str]| needles.iter().any(|n| lower.contains(n));
    let why = if has(&["connection refused"]) {
        "nothing listens at its address (connection refused); is `mteval scheduler` running there?"
    } else if has(&["dns error", "failed to lookup", "name or service not known"]) {
        "its host name cannot be resolved"
    } else if has(&["keep-alive timed out", "keepalive", "timeout expired", "timed out", "deadline"]) {
        "it stopped answering (no reply within the client's time limit); the job is abandoned"
    } else if has(&[
        "h2 protocol",
        "broken pipe",
        "connection reset",
        "stream closed without job completing",
        "error reading a body",
        "connection closed",
        "unexpected end of file",
    ]) {
        "the connection to it was lost (the scheduler stopped or restarted); a job running there is lost, run it again"
    } else {
        "the connection failed"
    };
    Some(format!("the scheduler cannot be reached: {why}"))
}

/// A query the client cannot send to a cluster, in words: `DataFusion`'s plan
/// encoding has no form for a table that is neither a file nor an object
/// store's (a table function's rows, an in-memory table), and says so as an
/// "Internal error" asking for a bug report; `None` for other messages.
#[must_use]
pub fn unsendable_plan(msg: &str) -> Option<String> {
    msg.contains("Error serializing custom table").then(|| {
        "the query reads a table that cannot be sent to the cluster's executors (a table function such as \
         generate_series or range, or an in-memory table): write those rows to a file and read the file, or \
         run the query without --cluster"
            .to_owned()
    })
}

/// The error inside a failed Ballista job's message, which wraps it in
/// Debug renderings ("Job X failed: ... Task failed due to runtime execution
/// error: DataFusionError(Shared(External(DataFusionError(Execution(\"...\")))))"),
/// as "on the cluster (job X): <the message>"; `None` for other messages.
#[must_use]
pub fn job_error(msg: &str) -> Option<String> {
    let job = msg.split("Job ").nth(1)?.split(' ').next()?;
    let start = msg.rfind("Execution(\"")? + "Execution(\"".len();
    let mut out = String::new();
    let mut chars = msg[start..].chars();
    while let Some(c) = chars.next() {
        match c {
            '"' => return Some(format!("on the cluster (job {job}): {out}")),
            '\\' => match chars.next()? {
                'n' => out.push('\n'),
                't' => out.push('\t'),
                'r' => out.push('\r'),
                '0' => out.push('\0'),
                'u' => {
                    let hex: String = chars.by_ref().skip(1).take_while(|&c| c != '}').collect();
                    out.push(char::from_u32(u32::from_str_radix(&hex, 16).ok()?)?);
                }
                other => out.push(other),
            },
            c => out.push(c),
        }
    }
    None
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_job_error_is_unwrapped() {
        let msg = r#"Execution error: Job 038GH failed: Job failed due to stage 0 failed: Task failed due to runtime execution error: DataFusionError(Shared(External(DataFusionError(Execution("ter: row 0 (hypothesis \"a\tb\"\u{2026}): over the limit of 3")))))"#;
        assert_eq!(
            super::job_error(msg).as_deref(),
            Some("on the cluster (job 038GH): ter: row 0 (hypothesis \"a\tb\"\u{2026}): over the limit of 3")
        );
        assert_eq!(super::job_error("Execution error: ter: bad option"), None);
    }

    #[test]
    fn an_unsendable_table_is_said_in_words() {
        let msg = r#"Internal error: failed to serialize logical plan: Context("Error serializing custom table at x.rs:1534", NotImplemented("LogicalExtensionCodec is not provided"))"#;
        assert!(super::unsendable_plan(msg).is_some_and(|m| m.contains("generate_series")));
        assert_eq!(super::unsendable_plan("Internal error: something else"), None);
    }
}
