//! Errors in Python's words. The functions the Python module shares with
//! the CLI (`mteval::metrics::resolve_metrics`, `mteval::compare::resolve`,
//! the corpus reader) name the CLI's flags (`-m`, `--options`,
//! `--score-col`, `--baseline`, `--segment-col`) in their errors; the
//! Python functions check what they can first, with their own keyword
//! arguments named ([`check_metrics`], [`check_scores`]), and reword the
//! errors that only the shared code can find ([`reword`]).

use mteval_kernels::metric::MetricInfo;
use mteval_kernels::metric::segment_score::SegmentScore;
use mteval_kernels::{MetricError, metrics};
use pyo3::PyErr;
use pyo3::exceptions::PyValueError;

fn err(msg: String) -> PyErr {
    PyValueError::new_err(msg)
}

/// The metrics of `metrics=` (their names and aliases, any case) for
/// `function` (`mteval.score`), and the metric each entry of `options`
/// (`METRIC=OPTIONS`, as the Python layer builds them from the `options=`
/// dict) is for, which must be one of them. MBR utilities rank candidates:
/// they are no per-row score.
///
/// # Errors
/// No metric, an unknown one, an MBR utility, options for a metric not given.
pub(crate) fn check_metrics(metrics: &[String], options: &[String], function: &str) -> Result<(), PyErr> {
    if metrics.is_empty() {
        return Err(err(format!("metrics: give at least one metric, as in {function}(table, metrics=['ter'])")));
    }
    let mut infos: Vec<&'static MetricInfo> = Vec::with_capacity(metrics.len());
    for m in metrics {
        match metrics::lookup(m) {
            Ok(info) => infos.push(info),
            Err(MetricError::Utility { name, functions }) => {
                let how = match functions {
                    [] => String::new(),
                    fs => format!("; its SQL window function ({}) does, through mteval.sql", fs.join(", ")),
                };
                return Err(err(format!(
                    "metrics: {name} is an MBR utility (it ranks candidates), not a per-row score: {function} does \
                     not take it{how}"
                )));
            }
            Err(e) => return Err(err(format!("metrics: {e}"))),
        }
    }
    check_options(&infos, options)
}

/// The metric of each `options` entry (`METRIC=OPTIONS`) is among `infos`.
///
/// # Errors
/// The first entry for another metric.
pub(crate) fn check_options(infos: &[&'static MetricInfo], options: &[String]) -> Result<(), PyErr> {
    for o in options {
        let (m, _) = o.split_once('=').unwrap_or((o, ""));
        if !metrics::lookup(m).is_ok_and(|i| infos.contains(&i)) {
            let given: Vec<&str> = infos.iter().map(|i| i.name).collect();
            return Err(err(format!(
                "options: '{}' is not among the metrics given (metrics=[{}]); options apply to those",
                m.trim(),
                given.iter().map(|n| format!("'{n}'")).collect::<Vec<_>>().join(", ")
            )));
        }
    }
    Ok(())
}

/// The text metrics `mteval.compare` compares (BLEU when neither `metrics`
/// nor `scores` is given, as sacrebleu), checked as `compare` checks them:
/// metrics with a paired test, options for them only, and each of
/// `scores` a column name with an optional `:lower` / `:higher`.
///
/// # Errors
/// The first bad metric, options entry or score column.
pub(crate) fn check_compared(metrics: &[String], scores: &[String], options: &[String]) -> Result<Vec<String>, PyErr> {
    let text: Vec<String> = if metrics.is_empty() && scores.is_empty() {
        mteval::metrics::COMPARE_DEFAULT.iter().map(|&m| m.to_owned()).collect()
    } else {
        metrics.to_vec()
    };
    let takes = || format!("mteval.compare takes {}", mteval::metrics::comparable_names());
    let mut infos = Vec::with_capacity(text.len());
    for m in &text {
        match metrics::lookup(m) {
            Ok(info) if info.configure("").is_ok_and(|c| c.stats().is_some()) => infos.push(info),
            Ok(_) => return Err(err(format!("metrics: {m}: {}", takes()))),
            Err(_) => return Err(err(format!("metrics: unknown metric '{m}': {}", takes()))),
        }
    }
    if text.is_empty()
        && let Some(o) = options.first()
    {
        let (m, _) = o.split_once('=').unwrap_or((o, ""));
        return Err(err(format!(
            "options: '{}' has options but metrics= names no text metric (the columns of scores= are compared as \
             they are)",
            m.trim()
        )));
    }
    check_options(&infos, options)?;
    check_scores(scores)?;
    Ok(text)
}

/// Each of `scores` is `NAME`, `NAME:lower` or `NAME:higher`.
///
/// # Errors
/// The first that is not.
fn check_scores(scores: &[String]) -> Result<(), PyErr> {
    for c in scores {
        if SegmentScore::from_flag(c).is_err() {
            let (name, _) = c.rsplit_once(':').unwrap_or((c, ""));
            return Err(err(if name.trim().is_empty() {
                format!("scores: '{c}': give a column name, as in 'comet' or 'metricx:lower'")
            } else {
                format!("scores: '{c}': the direction after ':' is 'lower' or 'higher', as in 'metricx:lower'")
            }));
        }
    }
    Ok(())
}

/// The CLI's words in the errors of the code the Python functions share
/// with it, and Python's: `(CLI, Python)` pairs, each CLI phrase replaced
/// where it occurs.
pub(crate) const COMPARE_WORDS: &[(&str, &str)] = &[
    ("--score-col ", "scores: "),
    ("--baseline '", "baseline '"),
    ("give --segment-col to align them by segment", "give segment='COLUMN' to align them by segment"),
];

/// `mteval.meta`'s: its keyword arguments name the CLI's flags.
pub(crate) const META_WORDS: &[(&str, &str)] = &[
    ("--segment-col", "segment="),
    ("--system-col", "system="),
    ("--lp-col", "lp="),
    ("--mtme-lp", "lps="),
    ("--mtme-test-set", "test_set="),
    ("--mtme-gold", "mtme_gold="),
    ("--mtme-ref", "mtme_ref="),
    ("--mtme", "mtme="),
    ("--tasks", "tasks="),
    ("--corr", "corr="),
    ("--exclude", "exclude="),
];

/// `mteval.sql`'s: `SET mteval.device`, not the CLI's `--device`, picks a
/// session's device; a result is returned, not printed or written by `-o`.
pub(crate) const SQL_WORDS: &[(&str, &str)] = &[
    ("use --device cpu or auto", "SET mteval.device = 'cpu' (or 'auto') instead"),
    (" (or leave out -o where the result can be printed)", ""),
];

/// `msg` with each CLI phrase of `words` replaced by Python's.
pub(crate) fn reword(msg: &str, words: &[(&str, &str)]) -> String {
    let mut out = msg.to_owned();
    for (cli, python) in words {
        out = out.replace(cli, python);
    }
    out
}

/// A `ValueError` with `e`'s message (as [`crate::value_error`]) in
/// Python's words.
pub(crate) fn value_error(e: &anyhow::Error, words: &[(&str, &str)]) -> PyErr {
    err(reword(&format!("{e:#}"), words))
}
