//! `mteval.compare`: `mteval compare`'s table mode over an Arrow table,
//! text metrics and segment-score columns side by side, with sacrebleu's
//! paired tests; the result is `compare -f json`'s text.

use std::sync::atomic::Ordering;

use mteval::corpus::{TableSpec, corpus_of_batches};
use mteval_kernels::significance::{self, PairedTest};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::arrow_io::import;

/// The paired test `test` names (`"bs"`, `"ar"` or `None`) with `n`
/// resamples or trials (sacrebleu's defaults when `None`) and, for `"ar"`,
/// bootstrap intervals of `ar_confidence_n` resamples.
fn paired_test(
    test: Option<&str>,
    n: Option<usize>,
    ar_confidence_n: Option<usize>,
) -> anyhow::Result<Option<PairedTest>> {
    let check = |n: usize, what: &str| mteval::compare::paired::resamples(n, what);
    Ok(match test {
        None => None,
        Some("bs") => Some(PairedTest::Bootstrap(check(n.unwrap_or(significance::DEFAULT_BOOTSTRAP), "n")?)),
        Some("ar") => Some(PairedTest::Randomization(
            check(n.unwrap_or(significance::DEFAULT_TRIALS), "n")?,
            ar_confidence_n.map(|c| check(c, "ar_confidence_n")).transpose()?,
        )),
        Some(t) => anyhow::bail!("test '{t}': 'bs' (paired bootstrap), 'ar' (approximate randomization) or None"),
    })
}

/// `mteval.compare`'s native part: the JSON text of `mteval compare -f json`
/// for the systems of `data` (a row per system and segment).
#[pyfunction]
#[pyo3(signature = (data, metrics, scores, system, hyp, refs, segment, baseline, test, n, ar_confidence_n, seed, options))]
#[allow(clippy::too_many_arguments, reason = "the keyword arguments of the Python function")]
pub fn compare(
    py: Python<'_>,
    data: &Bound<'_, PyAny>,
    metrics: Vec<String>,
    scores: Vec<String>,
    system: Option<String>,
    hyp: String,
    refs: Vec<String>,
    segment: Option<String>,
    baseline: Option<String>,
    test: Option<String>,
    n: Option<usize>,
    ar_confidence_n: Option<usize>,
    seed: Option<String>,
    options: Vec<String>,
) -> PyResult<String> {
    let err = |e: anyhow::Error| crate::words::value_error(&e, crate::words::COMPARE_WORDS);
    let text_metrics = crate::words::check_compared(&metrics, &scores, &options)?;
    let chosen = mteval::compare::resolve(&text_metrics, &options, &scores).map_err(err)?;
    let test = paired_test(test.as_deref(), n, ar_confidence_n).map_err(err)?;
    let seed = mteval::compare::paired::seed_of(seed.as_deref()).map_err(err)?;
    let (schema, batches) = import(data)?;
    let score_cols: Vec<String> = chosen.iter().filter_map(|m| m.score_column().map(str::to_owned)).collect();
    let text = chosen.iter().any(|m| m.score_column().is_none());
    if text && refs.is_empty() {
        return Err(PyValueError::new_err("refs: give at least one reference column"));
    }
    let work = move |cancel: &std::sync::atomic::AtomicBool| -> anyhow::Result<String> {
        let spec = TableSpec {
            input: "the table",
            system_col: system.as_deref(),
            hyp_col: &hyp,
            ref_cols: &refs,
            segment_col: segment.as_deref(),
            baseline: baseline.as_deref(),
            extra_cols: &[],
            score_cols: &score_cols,
            text,
            gold_col: None,
        };
        let corpus = corpus_of_batches(&spec, &schema, &batches)?;
        if cancel.load(Ordering::Relaxed) {
            anyhow::bail!(crate::CANCELLED);
        }
        let backend = mteval::session::device::backend()?;
        let c = mteval::compare::compare(&corpus, &chosen, test, seed, backend.as_ref())?;
        Ok(c.json())
    };
    crate::interruptible(py, work)?.map_err(err)
}

/// One pair of `comet_compare`: x, y, x-mean, y-mean, ties, x wins, y wins,
/// t statistic, p-value.
type CometPair = (usize, usize, f32, f32, f64, f64, f64, f32, f32);

/// `comet_compare`'s result: the split size, the pairs, the summary grid.
type CometResult = (usize, Vec<CometPair>, Vec<Vec<Option<bool>>>);

/// `mteval.comet_compare`'s native part: comet-compare's statistics over
/// `scores[system][segment]` (Python floats, made `float32` as
/// comet-compare makes them): the split size, the pairs in
/// `itertools.combinations` order, and the summary grid.
///
/// # Errors
/// `ValueError` for fewer than two systems, lengths that differ, a
/// non-finite score, bad settings.
#[pyfunction]
#[pyo3(signature = (scores, seed, num_splits, sample_ratio, alternative, lower_is_better))]
pub fn comet_compare(
    py: Python<'_>,
    scores: Vec<Vec<f64>>,
    seed: u32,
    num_splits: usize,
    sample_ratio: f64,
    alternative: &str,
    lower_is_better: bool,
) -> PyResult<CometResult> {
    use mteval_kernels::significance::comet;
    let value_error = |e: mteval_kernels::MetricError| PyValueError::new_err(e.to_string());
    let alternative = comet::Alternative::parse(alternative).map_err(value_error)?;
    let opts = comet::Options { num_splits, sample_ratio, seed, alternative };
    let scores: Vec<Vec<f32>> = scores.iter().map(|s| comet::to_f32(s)).collect();
    let c = py.detach(|| comet::compare(&scores, &opts)).map_err(value_error)?;
    let pairs = c
        .pairs
        .iter()
        .map(|p| {
            let b = &p.bootstrap;
            (p.x, p.y, b.x_mean, b.y_mean, b.ties, b.x_wins, b.y_wins, p.t_test.statistic, p.t_test.p_value)
        })
        .collect();
    Ok((c.sample_size, pairs, c.grid(comet::SUMMARY_THRESHOLD, lower_is_better)))
}
