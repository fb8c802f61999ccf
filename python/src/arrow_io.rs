//! Tables in and out through the Arrow C stream interface, and
//! [`score`]: per-row score columns appended to any Arrow-compatible table.

use std::ffi::CStr;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};

use arrow::array::{Array, ArrayRef, Float64Array, RecordBatch, RecordBatchIterator, RecordBatchReader};
use arrow::datatypes::{DataType, Field, Schema, SchemaRef};
use arrow::ffi_stream::{ArrowArrayStreamReader, FFI_ArrowArrayStream};
use mteval::metrics::MetricChoice;
use mteval_udfs::common::StrCol;
use mteval_udfs::terms::term_cols::{LemmasCol, TermsCol};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyCapsule, PyCapsuleMethods};
use rayon::prelude::*;

const STREAM: &CStr = c"arrow_array_stream";

/// Record batches that Python reads once through `__arrow_c_stream__`
/// (`pyarrow.table(stream)`, `polars.from_arrow`, ...).
#[pyclass(module = "mteval._native")]
pub struct ArrowStream {
    schema: SchemaRef,
    batches: Mutex<Option<Vec<RecordBatch>>>,
}

impl ArrowStream {
    pub(crate) fn new(schema: SchemaRef, batches: Vec<RecordBatch>) -> Self {
        Self { schema, batches: Mutex::new(Some(batches)) }
    }
}

#[pymethods]
impl ArrowStream {
    /// The Arrow `PyCapsule` interface: the batches as an `ArrowArrayStream`
    /// capsule (the schema as it is; a requested schema is not applied).
    #[pyo3(signature = (requested_schema = None))]
    fn __arrow_c_stream__<'py>(
        &self,
        py: Python<'py>,
        requested_schema: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyCapsule>> {
        let _ = requested_schema;
        let batches = self
            .batches
            .lock()
            .map_err(|_| PyValueError::new_err("the stream's lock is poisoned"))?
            .take()
            .ok_or_else(|| PyValueError::new_err("this Arrow stream was already read"))?;
        let reader: Box<dyn RecordBatchReader + Send> =
            Box::new(RecordBatchIterator::new(batches.into_iter().map(Ok), Arc::clone(&self.schema)));
        PyCapsule::new_with_value(py, FFI_ArrowArrayStream::new(reader), STREAM)
    }
}

/// Reads every batch of `data`, an object with `__arrow_c_stream__`
/// (pyarrow `Table` or `RecordBatchReader`, polars `DataFrame`, pandas ≥ 2.2
/// `DataFrame`, ...). The buffers are the producer's: nothing is copied.
pub(crate) fn import(data: &Bound<'_, PyAny>) -> PyResult<(SchemaRef, Vec<RecordBatch>)> {
    if !data.hasattr("__arrow_c_stream__")? {
        return Err(PyTypeError::new_err(format!(
            "expected a table with the Arrow PyCapsule interface (__arrow_c_stream__: pyarrow, polars, pandas >= 2.2), \
             got {}",
            data.get_type().name()?
        )));
    }
    let capsule = data.call_method0("__arrow_c_stream__")?;
    let capsule =
        capsule.cast::<PyCapsule>().map_err(|_| PyTypeError::new_err("__arrow_c_stream__ did not return a capsule"))?;
    let ptr = capsule.pointer_checked(Some(STREAM))?;
    // SAFETY: a capsule named "arrow_array_stream" holds an
    // `ArrowArrayStream` (the Arrow PyCapsule interface); `from_raw` moves
    // it out and leaves a released stream behind, which the capsule's own
    // destructor then ignores, as the interface prescribes.
    #[allow(unsafe_code)]
    let reader = unsafe { ArrowArrayStreamReader::from_raw(ptr.as_ptr().cast::<FFI_ArrowArrayStream>()) }
        .map_err(|e| PyValueError::new_err(format!("cannot read the Arrow stream: {e}")))?;
    let schema = reader.schema();
    let batches = reader
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| PyValueError::new_err(format!("cannot read the Arrow stream: {e}")))?;
    Ok((schema, batches))
}

/// The input columns of [`score`].
pub struct Columns {
    hyp: String,
    refs: Vec<String>,
    terms: String,
    lemmas: String,
}

/// `mteval.score`: `data` with one float64 column per metric appended
/// (named as `mteval score` names them: the metric table's score columns,
/// e.g. `ter`, `chrfpp`, `wer`, `term_acc`), the same per-row scores
/// as the CLI. `options`: CLI `--options` entries (`METRIC=key:value|...`).
/// NULL hypothesis, or no non-NULL reference: NULL score. The terminology
/// metrics read `terms` (and `lemmas`) instead of the references.
#[pyfunction]
#[pyo3(signature = (data, metrics, hyp, refs, options = Vec::new(), terms = "terms".to_owned(), lemmas = "lemmas".to_owned()))]
#[allow(clippy::too_many_arguments, reason = "the keyword arguments of the Python function")]
pub fn score(
    py: Python<'_>,
    data: &Bound<'_, PyAny>,
    metrics: Vec<String>,
    hyp: String,
    refs: Vec<String>,
    options: Vec<String>,
    terms: String,
    lemmas: String,
) -> PyResult<ArrowStream> {
    crate::words::check_metrics(&metrics, &options, "mteval.score")?;
    let choices = mteval::metrics::resolve_metrics(&metrics, &options).map_err(|e| crate::value_error(&e))?;
    let uses_refs = choices.iter().any(MetricChoice::uses_refs);
    if uses_refs && refs.is_empty() {
        return Err(PyValueError::new_err("refs: give at least one reference column"));
    }
    let (schema, batches) = import(data)?;
    let mut needed: Vec<(&String, &str, bool)> = vec![(&hyp, "hypothesis", true)];
    if uses_refs {
        needed.extend(refs.iter().map(|r| (r, "reference", true)));
    }
    for m in &choices {
        if let Some(lemmatized) = m.terms() {
            needed.push((&terms, "terms", false));
            if lemmatized {
                needed.push((&lemmas, "lemmas", false));
            }
        }
    }
    for (col, role, string) in needed {
        mteval::corpus::check_column(&schema, "the table", col, role, string).map_err(|e| crate::value_error(&e))?;
    }
    let cols = Columns { hyp, refs, terms, lemmas };
    let mut fields: Vec<Arc<Field>> = schema.fields().iter().cloned().collect();
    for m in &choices {
        if schema.field_with_name(m.column()).is_ok() {
            return Err(PyValueError::new_err(format!(
                "the table already has a column '{}': rename it before scoring",
                m.column()
            )));
        }
        fields.push(Arc::new(Field::new(m.column(), DataType::Float64, true)));
    }
    // Each column's signature, as the CLI writes it into a Parquet output.
    let nrefs = observed_refs(&batches, &cols).unwrap_or(mteval_kernels::NRefs::Fixed(cols.refs.len()));
    let mut metadata = schema.metadata().clone();
    for m in &choices {
        metadata.insert(format!("mteval.signature.{}", m.column()), m.signature(nrefs));
    }
    let out_schema = Arc::new(Schema::new_with_metadata(fields, metadata));
    let names = cols;
    let schema_out = Arc::clone(&out_schema);
    // Scored in slices of `CHUNK` rows, so that Ctrl-C stops the work soon.
    let out = crate::interruptible(py, move |cancel| {
        let mut row_base = 0;
        let mut out = Vec::with_capacity(batches.len());
        for b in &batches {
            for start in (0..b.num_rows().max(1)).step_by(crate::metrics::CHUNK) {
                if cancel.load(Ordering::Relaxed) {
                    return Err(crate::CANCELLED.to_owned());
                }
                let part = b.slice(start, crate::metrics::CHUNK.min(b.num_rows() - start));
                let mut cols = part.columns().to_vec();
                for m in &choices {
                    cols.push(score_column(&part, m, &names, row_base)?);
                }
                row_base += part.num_rows();
                out.push(RecordBatch::try_new(Arc::clone(&schema_out), cols).map_err(|e| e.to_string())?);
            }
        }
        Ok::<_, String>(out)
    })?;
    Ok(ArrowStream::new(out_schema, out.map_err(PyValueError::new_err)?))
}

/// Column `name` of `b` as plain strings: a dictionary-encoded column
/// (pandas' categoricals, pyarrow's `dictionary_encode()`) decoded to its
/// values, as SQL and the CLI read it; any other column as it is.
fn text_column(b: &RecordBatch, name: &str) -> Result<ArrayRef, String> {
    let a = b.column_by_name(name).ok_or_else(|| format!("column '{name}' not found"))?;
    match a.data_type() {
        DataType::Dictionary(_, values) => {
            arrow::compute::cast(a, values).map_err(|e| format!("column '{name}' cannot be decoded: {e}"))
        }
        _ => Ok(Arc::clone(a)),
    }
}

/// The number of references of the scored rows (a hypothesis and at least
/// one reference), as a signature's `nrefs`; `None` when no row is scored.
fn observed_refs(batches: &[RecordBatch], c: &Columns) -> Option<mteval_kernels::NRefs> {
    let mut acc = None;
    for b in batches {
        let Ok(h) = text_column(b, &c.hyp) else { continue };
        let refs: Vec<ArrayRef> = c.refs.iter().filter_map(|r| text_column(b, r).ok()).collect();
        for i in 0..b.num_rows() {
            let n = refs.iter().filter(|r| r.is_valid(i)).count();
            if h.is_valid(i) && n > 0 {
                acc = mteval_kernels::NRefs::observe(acc, n);
            }
        }
    }
    acc
}

/// The per-row scores of metric `m` over one batch, on all cores.
fn score_column(b: &RecordBatch, m: &MetricChoice, c: &Columns, row_base: usize) -> Result<ArrayRef, String> {
    fn col<'a>(name: &str, a: &'a ArrayRef) -> Result<StrCol<'a>, String> {
        StrCol::from_array(name, a.as_ref()).map_err(|e| e.to_string())
    }
    let h_array = text_column(b, &c.hyp)?;
    let h = col(&c.hyp, &h_array)?;
    if let Some(lemmatized) = m.terms() {
        return term_column(b, &h, lemmatized, c, row_base);
    }
    let r_arrays = c.refs.iter().map(|r| text_column(b, r)).collect::<Result<Vec<_>, _>>()?;
    let rs = c.refs.iter().zip(&r_arrays).map(|(r, a)| col(r, a)).collect::<Result<Vec<_>, _>>()?;
    let metric = m.metric();
    let scores: Vec<Option<f64>> = (0..b.num_rows())
        .into_par_iter()
        .with_min_len(16)
        .map(|i| {
            let Some(hyp) = h.get(i) else { return Ok(None) };
            let r: Vec<&str> = rs.iter().filter_map(|c| c.get(i)).collect();
            if r.is_empty() {
                return Ok(None);
            }
            let at = |e: mteval_kernels::MetricError| format!("row {}: {e}", row_base + i);
            Ok(metric.segment(hyp, &r).map_err(at)?.and_then(|s| metric.sentence_score(&s)))
        })
        .collect::<Result<_, String>>()?;
    Ok(Arc::new(Float64Array::from(scores)))
}

/// The per-row terminology accuracy of one batch, as the CLI's column:
/// matched terms / terms (NULL for a NULL row or a row without terms).
fn term_column(
    b: &RecordBatch,
    h: &StrCol<'_>,
    lemmatized: bool,
    c: &Columns,
    row_base: usize,
) -> Result<ArrayRef, String> {
    let cast_to = |name: &str, t: &DataType| {
        let a = b.column_by_name(name).ok_or_else(|| format!("column '{name}' not found"))?;
        arrow::compute::cast(a, t).map_err(|e| format!("{name} column '{name}' cannot be read as {t}: {e}"))
    };
    let name = if lemmatized { "term_acc_lemmatized" } else { "term_acc" };
    let terms_a = cast_to(&c.terms, &mteval_udfs::terms::term_cols::terms_type())?;
    let terms = TermsCol::from_array(name, &terms_a, false).map_err(|e| e.to_string())?;
    // map_rows numbers the rows within the batch.
    let at = |e: datafusion::error::DataFusionError| match row_base {
        0 => e.to_string(),
        _ => format!("{e} (rows counted from the batch that starts at row {row_base})"),
    };
    let counts = if lemmatized {
        let t = b.column_by_name(&c.lemmas).ok_or_else(|| format!("column '{}' not found", c.lemmas))?;
        let t = mteval_udfs::terms::term_cols::coerce_lemmas(name, t.data_type()).map_err(|e| e.to_string())?;
        let lemmas_a = cast_to(&c.lemmas, &t)?;
        let lemmas = LemmasCol::from_array(name, &lemmas_a, false).map_err(|e| e.to_string())?;
        mteval_udfs::terms::term_cols::lemmatized_rows(name, h, &lemmas, &terms, b.num_rows()).map_err(at)?
    } else {
        mteval_udfs::terms::term_cols::exact_rows(name, h, &terms, b.num_rows()).map_err(at)?
    };
    let scores = counts.iter().map(|v| {
        v.as_ref()
            .filter(|t| t.total > 0)
            .map(|t| f64::from(if lemmatized { t.lemmatized } else { t.exact }) / f64::from(t.total))
    });
    Ok(Arc::new(scores.collect::<Float64Array>()))
}
