//! The metric objects and functions: sacrebleu's BLEU, chrF and TER
//! ([`Metric`]), fastchrf's `pairwise_chrf` / `aggregate_chrf` and cer's
//! `calculate_cer` / `calculate_cer_corpus`.

use std::sync::Arc;

use mteval_kernels::metric::{self, Detail};
use mteval_kernels::metrics;
use mteval_kernels::{CharacTerConfig, CorpusSummary, FastChrfOptions, NRefs};
use pyo3::exceptions::{PyValueError, PyZeroDivisionError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};

fn metric_error(e: &mteval_kernels::MetricError) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// A metric configured by mteval's options (`key:value|...`, the signature's
/// syntax): one the significance tests take (BLEU, chrF, chrF++, TER). The
/// Python classes `BLEU`, `CHRF` and `TER` build one from sacrebleu's
/// keyword arguments.
#[pyclass(frozen, module = "mteval._native")]
pub struct Metric {
    cfg: Arc<dyn metric::Metric>,
}

#[pymethods]
impl Metric {
    /// `name`: `bleu`, `chrf`, `chrf++` or `ter`; `options`: mteval's
    /// options for it. Unknown keys and bad values raise `ValueError`
    /// naming them.
    #[new]
    #[pyo3(signature = (name, options = ""))]
    fn new(name: &str, options: &str) -> PyResult<Self> {
        let cfg = metrics::lookup(name).and_then(|m| m.configure(options)).map_err(|e| metric_error(&e))?;
        if cfg.stats().is_none() {
            let names: Vec<&str> = metrics::resampled().map(|m| m.name).collect();
            return Err(PyValueError::new_err(format!(
                "{name}: the metric objects are {} (see mteval.score for the others)",
                metrics::in_words(&names)
            )));
        }
        Ok(Self { cfg })
    }

    /// The name sacrebleu prints (`BLEU`, `chrF2`, `chrF2++`, `TER`).
    #[getter]
    fn name(&self) -> String {
        self.cfg.display()
    }

    /// The signature for `nrefs` references (`-1`: a variable number).
    fn signature(&self, nrefs: i64) -> String {
        let n = usize::try_from(nrefs).map_or(NRefs::Var, NRefs::Fixed);
        self.cfg.signature(n).to_string()
    }

    /// TER's tokenization of `text` (sacrebleu's `TercomTokenizer` with
    /// this metric's options): the words joined by single spaces.
    fn tokenize(&self, text: &str) -> PyResult<String> {
        match self.cfg.align() {
            Some(a) => Ok(a.tokenized(text)),
            None => Err(PyValueError::new_err("tokenize: only TER's tokenizer is exported")),
        }
    }

    /// The corpus score of `hyps` against the reference streams `refs`
    /// (each as long as `hyps`; `None` marks a missing reference, as in
    /// sacrebleu), with its statistics, as a dict; a segment with no
    /// reference is skipped.
    fn corpus<'py>(
        &self,
        py: Python<'py>,
        hyps: Vec<String>,
        refs: Vec<Vec<Option<String>>>,
    ) -> PyResult<Bound<'py, PyDict>> {
        if let Some(s) = refs.iter().find(|s| s.len() != hyps.len()) {
            return Err(PyValueError::new_err(format!(
                "a reference stream has {} segments but there are {} hypotheses",
                s.len(),
                hyps.len()
            )));
        }
        let cfg = Arc::clone(&self.cfg);
        let segs = crate::interruptible(py, move |cancel| segments(cfg.as_ref(), &hyps, &refs, cancel))?
            .map_err(|e| metric_error(&e))?
            .ok_or_else(|| pyo3::exceptions::PyRuntimeError::new_err(crate::CANCELLED))?;
        self.details(py, &segs)
    }
}

/// Rows scored between two looks at the cancel flag.
pub(crate) const CHUNK: usize = 8192;

/// One segment's statistics ([`metric::Metric::segment`]).
type Segment = Vec<f64>;

/// Every segment's statistics, in order, on all cores; `None` when `cancel`
/// was set (checked every [`CHUNK`] rows).
fn segments(
    cfg: &dyn metric::Metric,
    hyps: &[String],
    refs: &[Vec<Option<String>>],
    cancel: &AtomicBool,
) -> Result<Option<Vec<Option<Segment>>>, mteval_kernels::MetricError> {
    let mut out = Vec::with_capacity(hyps.len());
    for start in (0..hyps.len()).step_by(CHUNK) {
        if cancel.load(Ordering::Relaxed) {
            return Ok(None);
        }
        let end = (start + CHUNK).min(hyps.len());
        let part: Vec<Option<Segment>> = (start..end)
            .into_par_iter()
            .with_min_len(16)
            .map(|i| {
                let r: Vec<&str> = refs.iter().filter_map(|s| s[i].as_deref()).collect();
                cfg.segment(&hyps[i], &r)
            })
            .collect::<Result<_, _>>()?;
        out.extend(part);
    }
    Ok(Some(out))
}

impl Metric {
    /// The corpus score of `segs` (summed in order, as sacrebleu does) and
    /// the fields of sacrebleu's score object.
    fn details<'py>(&self, py: Python<'py>, segs: &[Option<Segment>]) -> PyResult<Bound<'py, PyDict>> {
        let mut st = self.cfg.corpus().ok_or_else(|| PyValueError::new_err("this metric has no corpus score"))?;
        for s in segs.iter().flatten() {
            st.add(s);
        }
        let score =
            st.score().ok_or_else(|| PyValueError::new_err("no segment to score: every segment lacks a reference"))?;
        let d = PyDict::new(py);
        d.set_item("score", score)?;
        for (key, value) in st.details() {
            match value {
                Detail::Float(x) => d.set_item(key, x)?,
                Detail::Int(x) => d.set_item(key, x)?,
                Detail::Floats(x) => d.set_item(key, x)?,
                Detail::Ints(x) => d.set_item(key, x)?,
            }
        }
        Ok(d)
    }
}

/// sacrebleu's `BLEU.compute_bleu`: BLEU from its statistics (`correct`
/// and `total` n-gram counts, one per order up to `max_ngram_order`, and
/// the lengths), with the smoothing given; a dict with `score`,
/// `precisions`, `bp`, and the counts and totals as sacrebleu reports them
/// (after `add-k` added its value).
#[pyfunction]
#[pyo3(signature = (correct, total, sys_len, ref_len, smooth_method = "none", smooth_value = None, effective_order = false, max_ngram_order = 4))]
#[allow(clippy::too_many_arguments, reason = "sacrebleu's arguments")]
pub fn compute_bleu<'py>(
    py: Python<'py>,
    correct: Vec<u64>,
    total: Vec<u64>,
    sys_len: u64,
    ref_len: u64,
    smooth_method: &str,
    smooth_value: Option<f64>,
    effective_order: bool,
    max_ngram_order: usize,
) -> PyResult<Bound<'py, PyDict>> {
    if correct.len() != max_ngram_order || total.len() != max_ngram_order {
        return Err(PyValueError::new_err(format!(
            "correct and total need one count per n-gram order, max_ngram_order={max_ngram_order} (got {} and {})",
            correct.len(),
            total.len()
        )));
    }
    let value = match smooth_value {
        Some(v) => format!("|smooth_value:{v:?}"),
        None => String::new(),
    };
    let cfg =
        mteval_kernels::BleuConfig::parse(&format!("smooth:{smooth_method}{value}")).map_err(|e| metric_error(&e))?;
    let b = mteval_kernels::bleu::compute_bleu(&correct, &total, sys_len, ref_len, cfg.smooth, effective_order);
    let d = PyDict::new(py);
    d.set_item("score", b.score)?;
    d.set_item("precisions", b.precisions)?;
    d.set_item("bp", b.bp)?;
    d.set_item("sys_len", b.sys_len)?;
    d.set_item("ref_len", b.ref_len)?;
    Ok(d)
}

/// fastchrf's options from its keyword arguments.
fn fast_options(char_order: usize, beta: f64, remove_whitespace: bool, eps_smoothing: bool) -> FastChrfOptions {
    FastChrfOptions { char_order, beta, remove_whitespace, eps_smoothing, ..FastChrfOptions::default() }
}

/// A fastchrf function: its keyword arguments with fastchrf's defaults,
/// run off the interpreter's lock and interruptible.
macro_rules! fastchrf_function {
    ($(#[$doc:meta])* $name:ident -> $out:ty) => {
        $(#[$doc])*
        #[pyfunction]
        #[pyo3(signature = (hypotheses, references, char_order = 6, beta = 2.0, remove_whitespace = true, eps_smoothing = false))]
        pub fn $name(
            py: Python<'_>,
            hypotheses: Vec<Vec<String>>,
            references: Vec<Vec<String>>,
            char_order: usize,
            beta: f64,
            remove_whitespace: bool,
            eps_smoothing: bool,
        ) -> PyResult<$out> {
            let opts = fast_options(char_order, beta, remove_whitespace, eps_smoothing);
            crate::interruptible(py, move |_| mteval_kernels::chrf::group::$name(&hypotheses, &references, &opts))?
                .map_err(|e| metric_error(&e))
        }
    };
}

fastchrf_function! {
    /// fastchrf's `pairwise_chrf`: `out[b][j][k]`, the chrF of hypothesis `j`
    /// against reference `k` of batch row `b`.
    pairwise_chrf -> Vec<Vec<Vec<f64>>>
}

fastchrf_function! {
    /// fastchrf's `aggregate_chrf`: `out[b][j]`, the chrF of hypothesis `j`
    /// against the aggregated references of batch row `b`.
    aggregate_chrf -> Vec<Vec<f64>>
}

/// cer 1.2.0's arithmetic (`compat:cer`).
fn cer_config() -> CharacTerConfig {
    CharacTerConfig { compat: mteval_kernels::charac_ter::Compat::Cer, ..CharacTerConfig::default() }
}

/// A side's words as the kernel takes them.
fn word_refs(words: &[String]) -> Vec<&str> {
    words.iter().map(String::as_str).collect()
}

/// cer's `calculate_cer(hyp_words, ref_words)`: the sentence `CharacTER`.
#[pyfunction]
pub fn calculate_cer(py: Python<'_>, hyp_words: Vec<String>, ref_words: Vec<String>) -> PyResult<f64> {
    if ref_words.is_empty() {
        // cer divides by the reference length.
        return Err(PyZeroDivisionError::new_err("division by zero"));
    }
    py.detach(|| cer_config().sentence_words(&word_refs(&hyp_words), &word_refs(&ref_words)))
        .map_err(|e| metric_error(&e))
}

/// cer's `calculate_cer_corpus(hyps, refs)`: `count`, `mean`, `median`,
/// `std` (`None` for one sentence), `min`, `max` and `cer_scores`.
#[pyfunction]
pub fn calculate_cer_corpus(
    py: Python<'_>,
    hyps: Vec<Vec<String>>,
    refs: Vec<Vec<String>>,
) -> PyResult<Bound<'_, PyDict>> {
    if hyps.len() != refs.len() {
        return Err(PyValueError::new_err("Number of references and hypotheses need to be equal"));
    }
    if let Some(i) = refs.iter().position(Vec::is_empty) {
        return Err(PyZeroDivisionError::new_err(format!("division by zero (reference {i} is empty)")));
    }
    let pairs: Vec<(Vec<String>, Vec<String>)> = hyps.into_iter().zip(refs).collect();
    let cfg = cer_config();
    let scores: Vec<f64> = crate::interruptible(py, move |cancel| {
        let mut out = Vec::with_capacity(pairs.len());
        for part in pairs.chunks(CHUNK) {
            if cancel.load(Ordering::Relaxed) {
                break;
            }
            let s: Vec<f64> = part
                .par_iter()
                .with_min_len(16)
                .map(|(h, r)| cfg.sentence_words(&word_refs(h), &word_refs(r)))
                .collect::<Result<_, _>>()?;
            out.extend(s);
        }
        Ok(out)
    })?
    .map_err(|e| metric_error(&e))?;
    let st = CorpusSummary::from_scores(&scores)
        .ok_or_else(|| PyValueError::new_err("mean requires at least one data point"))?;
    let d = PyDict::new(py);
    d.set_item("count", st.count)?;
    d.set_item("mean", st.mean)?;
    d.set_item("median", st.median)?;
    d.set_item("std", st.std)?;
    d.set_item("min", st.min)?;
    d.set_item("max", st.max)?;
    d.set_item("cer_scores", scores)?;
    Ok(d)
}

/// Adds this module's metric objects and the reference tools' functions
/// (sacrebleu's, fastchrf's, cer's) to the Python module.
///
/// # Errors
/// When Python refuses one.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Metric>()?;
    m.add_function(wrap_pyfunction!(compute_bleu, m)?)?;
    m.add_function(wrap_pyfunction!(pairwise_chrf, m)?)?;
    m.add_function(wrap_pyfunction!(aggregate_chrf, m)?)?;
    m.add_function(wrap_pyfunction!(calculate_cer, m)?)?;
    m.add_function(wrap_pyfunction!(calculate_cer_corpus, m)?)?;
    Ok(())
}
