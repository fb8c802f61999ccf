//! `mteval.meta`: `mteval meta` (mt-metrics-eval's meta-evaluation, one
//! task or a task set over every language pair) over a table file, an
//! Arrow table in memory or mt-metrics-eval's data layout; the result is
//! `mteval meta --json`'s text. The Python function builds the command
//! line's words, so every argument is checked by the CLI's own rules.

use std::sync::Arc;

use datafusion::datasource::MemTable;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use mteval::meta::run::{MetaRequest, output};

use crate::arrow_io::import;

/// The native part: `settings` are `mteval meta`'s flags as (name, value)
/// pairs (`("corr", "pearson")`, `("input", path)`; `--json` is implied);
/// `data`, when given, is the table (any Arrow-compatible object) read in
/// place of the input path.
#[pyfunction]
#[pyo3(signature = (settings, data=None))]
pub fn meta(py: Python<'_>, settings: Vec<(String, String)>, data: Option<&Bound<'_, PyAny>>) -> PyResult<String> {
    let err = |e: &anyhow::Error| crate::words::value_error(e, crate::words::META_WORDS);
    let mut args = MetaRequest { json: true, ..MetaRequest::default() };
    for (name, value) in &settings {
        args.set(name, value).map_err(|e| err(&e))?;
    }
    if let Some(d) = data {
        let (schema, batches) = import(d)?;
        let table = MemTable::try_new(schema, vec![batches])
            .map_err(|e| PyValueError::new_err(format!("the table cannot be read: {e}")))?;
        args.memory = Some(Arc::new(table));
    }
    let rt = crate::runtime()?;
    let res = crate::interruptible(py, move |_cancel| rt.block_on(output(&args)))?;
    res.map_err(|e| err(&e))
}
