//! Printing corpus scores: sacrebleu's text style (`TER|<signature> = 12.3456`,
//! prefixed by `group=value<TAB>` when grouped, `group IS NULL<TAB>` for the
//! rows without a group value) or one JSON object per line.

/// One corpus score to print.
#[derive(Debug, Clone)]
pub(crate) struct ScoreLine {
    /// `(column, value)` of the group, when grouped (`None`: the rows where
    /// the column is NULL).
    pub group: Option<(String, Option<String>)>,
    /// Metric display name (`TER`, `chrF2++`).
    pub name: String,
    /// The signature.
    pub signature: String,
    /// The score (`None` when nothing was scored).
    pub score: Option<f64>,
    /// Segments scored.
    pub segments: u64,
}

/// Prints `lines` to stdout (`score_only`: the scores without names and
/// signatures, sacrebleu's `-b`).
///
/// # Errors
/// When standard output cannot be written (see [`mteval::output::write_stdout`]).
pub(crate) fn print(lines: &[ScoreLine], json: bool, width: usize, score_only: bool) -> anyhow::Result<()> {
    use std::fmt::Write;
    let mut out = String::new();
    for l in lines {
        if json {
            let mut v = serde_json::json!({
                "name": l.name.as_str(),
                "score": l.score,
                "signature": l.signature,
                "segments": l.segments,
            });
            if let Some((k, g)) = &l.group {
                v["group_by"] = serde_json::Value::from(k.as_str());
                v["group"] = serde_json::Value::from(g.as_deref());
            }
            let _ = writeln!(out, "{v}");
        } else {
            let score = l.score.map_or_else(|| "NULL".to_owned(), |s| format!("{s:.width$}"));
            let _ = match &l.group {
                Some((k, Some(g))) if score_only => writeln!(out, "{k}={g}\t{score}"),
                Some((k, None)) if score_only => writeln!(out, "{k} IS NULL\t{score}"),
                None if score_only => writeln!(out, "{score}"),
                Some((k, Some(g))) => writeln!(out, "{k}={g}\t{}|{} = {score}", l.name, l.signature),
                Some((k, None)) => writeln!(out, "{k} IS NULL\t{}|{} = {score}", l.name, l.signature),
                None => writeln!(out, "{}|{} = {score}", l.name, l.signature),
            };
        }
    }
    mteval::output::write_stdout(out.as_bytes())
}
