//! `mteval._native`: the extension module behind the `mteval` Python package.
//!
//! Everything here is computed by the kernels (`mteval-kernels`), with the
//! interpreter released (`Python::detach`) and the rows spread over all cores
//! (rayon); the Python layer (`python/mteval/__init__.py`) gives it the
//! shapes sacrebleu, fastchrf and cer users call. Tables travel through the
//! Arrow C stream interface (`__arrow_c_stream__` capsules), so string
//! columns are read where pyarrow, pandas or polars keep them, not copied.
//! [`sql`] runs a query in the session the CLI uses; the function objects of
//! [`scalar_functions`], [`aggregate_functions`] and [`window_functions`]
//! export mteval's SQL functions to datafusion-python through datafusion-ffi.

// pyo3 converts every argument into an owned value; taking them by value is
// the binding's shape, not a needless copy.
#![allow(clippy::needless_pass_by_value)]

mod arrow_io;
mod compare;
mod jiwer;
mod meta;
mod metrics;
mod whisper;
mod words;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::RecvTimeoutError;
use std::time::Duration;

use datafusion::logical_expr::{AggregateUDF, ScalarUDF, WindowUDF};
use datafusion_ffi::udaf::FFI_AggregateUDF;
use datafusion_ffi::udf::FFI_ScalarUDF;
use datafusion_ffi::udwf::FFI_WindowUDF;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyCapsule;

/// A Python `ValueError` with the message mteval's CLI prints for the same
/// mistake (the whole chain of causes, as `anyhow` shows it with `{:#}`).
pub(crate) fn value_error(e: &anyhow::Error) -> PyErr {
    PyValueError::new_err(format!("{e:#}"))
}

/// A Python class around one of mteval's SQL functions of one kind,
/// exportable to datafusion-python through datafusion-ffi: its `name`, the
/// capsule method datafusion-python looks for, and a `repr`.
macro_rules! ffi_function {
    ($(#[$doc:meta])* $class:ident($udf:ty), $ffi:ty, $method:ident, $capsule:literal, $kind:literal) => {
        $(#[$doc])*
        #[pyclass(frozen, module = "mteval._native")]
        struct $class(Arc<$udf>);

        #[pymethods]
        impl $class {
            /// The function's SQL name.
            #[getter]
            fn name(&self) -> String {
                self.0.name().to_owned()
            }

            fn $method<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyCapsule>> {
                PyCapsule::new_with_value(py, <$ffi>::from(Arc::clone(&self.0)), $capsule)
            }

            fn __repr__(&self) -> String {
                format!(concat!("<mteval ", $kind, " function {}>"), self.0.name())
            }
        }
    };
}

ffi_function!(
    /// One of mteval's scalar SQL functions (`datafusion.udf(f)`).
    ScalarFunction(ScalarUDF), FFI_ScalarUDF, __datafusion_scalar_udf__, c"datafusion_scalar_udf", "scalar"
);
ffi_function!(
    /// One of mteval's aggregate SQL functions (`datafusion.udaf(f)`).
    AggregateFunction(AggregateUDF), FFI_AggregateUDF, __datafusion_aggregate_udf__, c"datafusion_aggregate_udf",
    "aggregate"
);
ffi_function!(
    /// One of mteval's window SQL functions (`datafusion.udwf(f)`).
    WindowFunction(WindowUDF), FFI_WindowUDF, __datafusion_window_udf__, c"datafusion_window_udf", "window"
);

/// Every mteval scalar function, for `datafusion.udf`.
#[pyfunction]
fn scalar_functions() -> Vec<ScalarFunction> {
    mteval_udfs::scalar_functions().into_iter().map(ScalarFunction).collect()
}

/// Every mteval aggregate function, for `datafusion.udaf`.
#[pyfunction]
fn aggregate_functions() -> Vec<AggregateFunction> {
    mteval_udfs::aggregate_functions().into_iter().map(AggregateFunction).collect()
}

/// Every mteval window function, for `datafusion.udwf`.
#[pyfunction]
fn window_functions() -> Vec<WindowFunction> {
    mteval_udfs::window_functions().into_iter().map(WindowFunction).collect()
}

/// The runtime the queries of [`sql`] run on (built once per process).
fn runtime() -> PyResult<&'static tokio::runtime::Runtime> {
    static RT: std::sync::OnceLock<tokio::runtime::Runtime> = std::sync::OnceLock::new();
    if let Some(rt) = RT.get() {
        return Ok(rt);
    }
    // Planning and running a deeply nested expression (thousands of OR-ed
    // conditions) recurses once per level, beyond what DataFusion's
    // `recursive_protection` covers; tokio's 2 MiB stacks would overflow
    // and take the interpreter down.
    let rt = tokio::runtime::Builder::new_multi_thread()
        .thread_stack_size(mteval::session::statements::SQL_STACK)
        .enable_all()
        .build()
        .map_err(|e| PyRuntimeError::new_err(format!("cannot start the query runtime: {e}")))?;
    Ok(RT.get_or_init(|| rt))
}

/// How often a waiting call lets Python handle its signals (Ctrl-C).
const SIGNAL_POLL: Duration = Duration::from_millis(50);

/// Runs `work` on a thread of its own while the calling thread waits with
/// the interpreter released, letting Python handle its signals every
/// [`SIGNAL_POLL`]: on Ctrl-C (or any signal handler that raises) the call
/// returns that exception at once and sets the flag `work` is given, which
/// it checks between chunks of rows to stop early.
pub(crate) fn interruptible<T, F>(py: Python<'_>, work: F) -> PyResult<T>
where
    T: Send + 'static,
    F: FnOnce(&AtomicBool) -> T + Send + 'static,
{
    let cancel = Arc::new(AtomicBool::new(false));
    let (tx, rx) = std::sync::mpsc::channel();
    let flag = Arc::clone(&cancel);
    std::thread::Builder::new()
        .name("mteval-work".into())
        .spawn(move || {
            let _ = tx.send(work(&flag));
        })
        .map_err(|e| PyRuntimeError::new_err(format!("cannot start a worker thread: {e}")))?;
    let mut rx = rx;
    loop {
        // The receiver travels into the released section and back (it is
        // `Send`, not `Sync`).
        let (got, back) = py.detach(move || (rx.recv_timeout(SIGNAL_POLL), rx));
        rx = back;
        match got {
            Ok(v) => return Ok(v),
            Err(RecvTimeoutError::Timeout) => {
                if let Err(e) = py.check_signals() {
                    cancel.store(true, Ordering::Relaxed);
                    return Err(e);
                }
            }
            Err(RecvTimeoutError::Disconnected) => {
                return Err(PyRuntimeError::new_err("mteval's worker thread failed (a bug: please report it)"));
            }
        }
    }
}

/// The error of work stopped by [`interruptible`]'s flag (never seen by
/// Python: the call has already returned the signal's exception).
pub(crate) const CANCELLED: &str = "cancelled";

/// Runs `query` in a session like `mteval sql`'s (every mteval function,
/// files queryable by path, object stores from the environment, the CLI's
/// checks of `COPY` targets, its default of one partition, so that
/// order-dependent results equal the CLI's on every call) and returns the
/// result as an Arrow stream object for `pyarrow.table`. `partitions`: the
/// CLI's `--partitions`. Several `;`-separated statements run in order;
/// the last one's rows are returned. Ctrl-C cancels the query.
#[pyfunction]
#[pyo3(signature = (query, partitions = 1))]
fn sql(py: Python<'_>, query: String, partitions: i64) -> PyResult<arrow_io::ArrowStream> {
    let max = u16::MAX;
    let partitions = usize::try_from(partitions)
        .ok()
        .filter(|p| (1..=usize::from(max)).contains(p))
        .ok_or_else(|| PyValueError::new_err(format!("partitions must be from 1 to {max}, got {partitions}")))?;
    let rt = runtime()?;
    let opts = mteval::session::SessionOptions { target_partitions: Some(partitions), ..Default::default() };
    let task = rt.spawn(async move {
        let ctx = mteval::session::new_context(&opts)?;
        mteval::session::statements::collect_sql(&ctx, &query).await
    });
    let res = interruptible(py, move |cancel| {
        loop {
            if task.is_finished() {
                return Some(rt.block_on(task));
            }
            if cancel.load(Ordering::Relaxed) {
                // Dropping the query's future cancels its streams.
                task.abort();
                return None;
            }
            std::thread::sleep(SIGNAL_POLL / 5);
        }
    })?;
    match res {
        Some(Ok(Ok((schema, batches)))) => Ok(arrow_io::ArrowStream::new(schema, batches)),
        Some(Ok(Err(e))) => Err(words::value_error(&e, words::SQL_WORDS)),
        Some(Err(e)) => Err(PyRuntimeError::new_err(format!("the query failed: {e}"))),
        None => Err(PyRuntimeError::new_err(CANCELLED)),
    }
}

/// The extension module.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_class::<ScalarFunction>()?;
    m.add_class::<AggregateFunction>()?;
    m.add_class::<WindowFunction>()?;
    m.add_class::<arrow_io::ArrowStream>()?;
    m.add_function(wrap_pyfunction!(scalar_functions, m)?)?;
    m.add_function(wrap_pyfunction!(aggregate_functions, m)?)?;
    m.add_function(wrap_pyfunction!(window_functions, m)?)?;
    m.add_function(wrap_pyfunction!(sql, m)?)?;
    metrics::register(m)?;
    m.add_function(wrap_pyfunction!(arrow_io::score, m)?)?;
    m.add_function(wrap_pyfunction!(compare::compare, m)?)?;
    m.add_function(wrap_pyfunction!(compare::comet_compare, m)?)?;
    m.add_function(wrap_pyfunction!(meta::meta, m)?)?;
    m.add_function(wrap_pyfunction!(whisper::whisper_basic, m)?)?;
    m.add_function(wrap_pyfunction!(whisper::whisper_english, m)?)?;
    m.add_function(wrap_pyfunction!(whisper::whisper_english_numbers, m)?)?;
    m.add_function(wrap_pyfunction!(whisper::whisper_english_spellings, m)?)?;
    m.add_function(wrap_pyfunction!(whisper::join_graphemes, m)?)?;
    m.add_function(wrap_pyfunction!(whisper::unicode_normalize, m)?)?;
    m.add_function(wrap_pyfunction!(jiwer::jiwer_apply, m)?)?;
    m.add_function(wrap_pyfunction!(jiwer::jiwer_process, m)?)?;
    m.add_function(wrap_pyfunction!(jiwer::tokens_process, m)?)?;
    m.add_function(wrap_pyfunction!(jiwer::wer_visualize, m)?)?;
    Ok(())
}
