//! The metrics a run scores: names and options resolved through the metric
//! table (`mteval_kernels::metric`) into configured metrics, shared by the
//! subcommands and the Python module.

use std::fmt::Write as _;
use std::sync::Arc;

use anyhow::{Context, Result, bail};
use mteval_kernels::metric::segment_score::SegmentScore;
use mteval_kernels::metric::{CorpusState, Inputs, Metric, MetricInfo, SacrebleuFlag};
use mteval_kernels::metrics;
use mteval_kernels::options::OptionKey;

/// A metric chosen by name with its options (never an MBR utility: every
/// choice has a corpus score).
#[derive(Debug, Clone)]
pub struct MetricChoice(Arc<dyn Metric>, Box<dyn CorpusState>);

impl MetricChoice {
    /// The configured metric.
    #[must_use]
    pub fn metric(&self) -> &dyn Metric {
        self.0.as_ref()
    }

    /// An empty corpus state.
    #[must_use]
    pub fn corpus(&self) -> Box<dyn CorpusState> {
        self.1.clone()
    }

    /// Its row of the metric table.
    #[must_use]
    pub fn info(&self) -> &'static MetricInfo {
        self.0.info()
    }

    /// Column name of the score.
    #[must_use]
    pub fn column(&self) -> &'static str {
        self.info().column_or_name()
    }

    /// Display name (as the reference tool prints it: `TER`, `chrF2`, `chrF2++`).
    #[must_use]
    pub fn display(&self) -> String {
        self.0.display()
    }

    /// The reproducibility signature for `nrefs` references.
    #[must_use]
    pub fn signature(&self, nrefs: mteval_kernels::NRefs) -> String {
        self.0.signature(nrefs).to_string()
    }

    /// The options that configure the metric's SQL functions exactly as this
    /// choice (see [`Metric::sql_options`]).
    #[must_use]
    pub fn udf_options(&self) -> String {
        self.0.sql_options()
    }

    /// Whether the metric reads the reference columns.
    #[must_use]
    pub fn uses_refs(&self) -> bool {
        self.info().inputs == Inputs::Text
    }

    /// For a segment score computed elsewhere: the column it is read from.
    #[must_use]
    pub fn score_column(&self) -> Option<&str> {
        self.0.score_column()
    }

    /// A segment score read from a number column (`--score-col`).
    #[must_use]
    pub fn segment_score(score: SegmentScore) -> Self {
        let metric: Arc<dyn Metric> = Arc::new(score);
        let empty = metric.corpus().unwrap_or_else(|| unreachable!("a segment score has a corpus state"));
        Self(metric, empty)
    }

    /// For a terminology metric: whether it is the lemmatized one.
    #[must_use]
    pub fn terms(&self) -> Option<bool> {
        match self.info().inputs {
            Inputs::Terms { lemmatized } => Some(lemmatized),
            _ => None,
        }
    }

    /// The choice for a metric of the table with its options.
    fn from_table(info: &'static MetricInfo, options: &str) -> Result<Self> {
        let metric = info.configure(options)?;
        let empty = metric.corpus().with_context(|| format!("{} has no corpus score", info.name))?;
        Ok(Self(metric, empty))
    }
}

/// Resolves `-m` and `--options` into configured metrics. Names are those of
/// the metric table (`mteval_kernels::metric`): canonical or alias, any case.
///
/// # Errors
/// Unknown metrics, options for a metric not chosen, invalid options.
pub fn resolve_metrics(metrics: &[String], options: &[String]) -> Result<Vec<MetricChoice>> {
    let mut infos: Vec<&'static MetricInfo> = Vec::new();
    for m in metrics {
        match metrics::lookup(m) {
            Ok(info) => infos.push(info),
            Err(e) if m.contains(['.', '/']) => {
                bail!("{e}; it looks like a file: put INPUT before -m, as in `mteval score {m} -m ter`")
            }
            Err(e) => return Err(e.into()),
        }
    }
    let mut per: Vec<(&'static MetricInfo, String)> = Vec::new();
    for o in options {
        match o.split_once('=') {
            Some((m, opts)) => {
                let info = metrics::lookup(m).ok().filter(|i| infos.contains(i));
                let Some(info) = info else {
                    let chosen: Vec<&str> = infos.iter().map(|i| i.name).collect();
                    bail!(
                        "--options '{o}': metric '{}' is not among the chosen metrics ({})",
                        m.trim(),
                        chosen.join(", ")
                    );
                };
                per.push((info, opts.to_owned()));
            }
            None if infos.len() == 1 => per.push((infos[0], o.clone())),
            None => bail!("--options '{o}': with several metrics write METRIC=OPTIONS"),
        }
    }
    let mut out: Vec<MetricChoice> = Vec::new();
    for info in &infos {
        let opts: Vec<&str> = per.iter().filter(|(i, _)| i == info).map(|(_, v)| v.as_str()).collect();
        out.push(MetricChoice::from_table(info, &opts.join("|"))?);
    }
    if out.is_empty() {
        bail!("no metric given (-m ter)");
    }
    for (i, m) in out.iter().enumerate() {
        if out[..i].iter().any(|p| p.column() == m.column()) {
            bail!("metric '{}' is given twice", m.column());
        }
    }
    Ok(out)
}

/// The metrics of `compare` and `report`: the text metrics `-m` names with
/// their options (none at all when `metrics` is empty), then the segment
/// scores of `--score-col` (`NAME` or `NAME:lower`).
///
/// # Errors
/// As [`resolve_metrics`]; a bad `--score-col`; two metrics of one name.
pub fn resolve_compared(metrics: &[String], options: &[String], score_cols: &[String]) -> Result<Vec<MetricChoice>> {
    let mut out = if metrics.is_empty() {
        if let Some(o) = options.first() {
            bail!("--options '{o}': no text metric is chosen (-m)");
        }
        Vec::new()
    } else {
        resolve_metrics(metrics, options)?
    };
    for c in score_cols {
        let s = crate::corpus::score_files::segment_score_flag("--score-col", c)?;
        let taken = |m: &&MetricChoice| m.display() == s.name || (m.score_column().is_none() && m.column() == s.name);
        if let Some(m) = out.iter().find(taken) {
            bail!("--score-col {c}: '{}' is already the name of {}", s.name, m.display());
        }
        out.push(MetricChoice::segment_score(s));
    }
    Ok(out)
}

/// The names of the metrics the paired tests take (those with a resampling
/// view), for the errors of `compare` and `report`.
#[must_use]
pub fn comparable_names() -> String {
    metrics::resampled().map(|m| m.name).collect::<Vec<_>>().join(", ")
}

/// Refuses a metric name `command` cannot use, listing those it can
/// (rather than every metric the library knows).
///
/// # Errors
/// The first such name.
pub fn check_comparable(metrics: &[String], command: &str) -> Result<()> {
    for m in metrics {
        let usable = metrics::lookup(m).ok().map(|i| i.configure("").is_ok_and(|c| c.stats().is_some()));
        match usable {
            Some(true) => {}
            Some(false) => bail!("{m}: mteval {command} takes {}", comparable_names()),
            None => bail!("unknown metric '{m}': mteval {command} takes {}", comparable_names()),
        }
    }
    Ok(())
}

/// When a name given as a metric (`-m comet`) is no metric but a number
/// column of the table `input`, the error that says so: "did you mean
/// --score-col NAME?". `None` when the table cannot be read or has no such
/// column (the caller's own error stands).
pub async fn score_col_hint(input: &str, metrics: &[String]) -> Option<String> {
    let unknown: Vec<&String> = metrics.iter().filter(|m| metrics::lookup(m).is_err()).collect();
    if unknown.is_empty() {
        return None;
    }
    let ctx = crate::session::new_context(&crate::session::SessionOptions::default()).ok()?;
    crate::session::register_input(&ctx, "score_col_hint", input, &[]).await.ok()?;
    let schema = ctx.table("score_col_hint").await.ok()?.schema().as_arrow().clone();
    unknown.iter().find_map(|m| {
        let f = schema.fields().iter().find(|f| f.name().eq_ignore_ascii_case(m) && f.data_type().is_numeric())?;
        Some(format!(
            "unknown metric '{m}': {input} has a number column '{c}': did you mean --score-col {c}? (segment scores \
             computed elsewhere, such as COMET's, compared as a metric; --score-col {c}:lower where lower is better)",
            c = f.name()
        ))
    })
}

/// `r`, or where it failed and a metric name is a number column of the
/// table `table`, [`score_col_hint`]'s error.
///
/// # Errors
/// `r`'s error, or the hint.
pub async fn or_score_col_hint<T>(r: Result<T>, table: Option<&str>, metrics: &[String]) -> Result<T> {
    match r {
        Ok(v) => Ok(v),
        Err(e) => {
            if let Some(t) = table
                && let Some(hint) = score_col_hint(t, metrics).await
            {
                bail!(hint);
            }
            Err(e)
        }
    }
}

/// Refuses a resolved metric the report cannot show (one without a
/// score from summed statistics, `Metric::stats`; `what`: where the report was asked for, as `--report`).
///
/// # Errors
/// The first such metric.
pub fn check_resampled(metrics: &[MetricChoice], what: &str) -> Result<()> {
    if let Some(m) = metrics.iter().find(|m| m.metric().stats().is_none()) {
        bail!("{what}: {} is not in the report; it compares {}", m.column(), comparable_names());
    }
    Ok(())
}

// The metric table as the CLI and the SQL guide present it.

/// Every sacrebleu flag of the metric table once, in table order, with the
/// sacrebleu `-m` name it belongs to.
#[must_use]
pub fn sacrebleu_flags() -> Vec<(&'static str, &'static SacrebleuFlag)> {
    let mut out: Vec<(&'static str, &'static SacrebleuFlag)> = Vec::new();
    for s in metrics::METRICS.iter().filter_map(|m| m.sacrebleu) {
        for f in s.flags {
            if !out.iter().any(|(_, g)| g.long == f.long) {
                out.push((s.name, f));
            }
        }
    }
    out
}

/// The metrics `mteval compare` scores without `-m` (sacrebleu's default).
pub const COMPARE_DEFAULT: &[&str] = &["bleu"];

/// The metrics `mteval report` shows without `-m`.
pub const REPORT_DEFAULT: &[&str] = &["bleu", "chrf", "ter"];

/// The SQL guide's table of metric names (docs/sql.md), generated from the
/// metric table (a test keeps docs/sql.md equal to it).
#[must_use]
pub fn markdown_table() -> String {
    let mut s = String::from(
        "| metric | also accepted | `mteval score` column | SQL functions | reproduces |\n|---|---|---|---|---|\n",
    );
    let ticked = |names: &[&str]| names.iter().map(|f| format!("`{f}`")).collect::<Vec<_>>().join(", ");
    for m in metrics::METRICS {
        let column = m.column.map_or_else(String::new, |c| format!("`{c}`"));
        let _ = writeln!(
            s,
            "| `{}` | {} | {column} | {} | {} |",
            m.name,
            ticked(m.aliases),
            ticked(m.functions),
            m.reference
        );
    }
    for u in metrics::UTILITIES {
        let _ = writeln!(s, "| `{}` |  | (`mteval mbr`) | {} | {} |", u.name, ticked(u.functions), u.reference);
    }
    s
}

/// The SQL guide's table of the option keys of the metric named `name`.
///
/// # Errors
/// An unknown metric name.
pub fn options_table(name: &str) -> Result<String, mteval_kernels::MetricError> {
    match metrics::utility_row(name) {
        Some(u) => Ok(option_keys_table(u.options)),
        None => Ok(option_keys_table(metrics::lookup(name)?.options)),
    }
}

/// The SQL guide's table of `groups`' keys.
#[must_use]
fn option_keys_table(groups: &[&[OptionKey]]) -> String {
    let mut s = String::from("| key | values (default first) | what |\n|---|---|---|\n");
    for k in groups.iter().flat_map(|g| g.iter()) {
        let _ = writeln!(s, "| `{}` | {} | {} |", k.key, k.values, k.what);
    }
    s
}
