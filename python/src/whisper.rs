//! The native half of `mteval.normalizers`: Whisper's text normalisers and
//! `unicodedata.normalize` (`CPython` 3.11's), over a list on all cores.

use mteval_kernels::py::normalize::{Form, normalize};
use mteval_kernels::whisper::basic::{BasicOptions, basic};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use rayon::prelude::*;

fn over(
    py: Python<'_>,
    texts: Vec<String>,
    f: impl Fn(&str) -> String + Send + Sync + 'static,
) -> PyResult<Vec<String>> {
    crate::interruptible(py, move |_| texts.par_iter().with_min_len(64).map(|s| f(s)).collect())
}

/// `BasicTextNormalizer(remove_diacritics, preserve_marks=...)` of each text.
#[pyfunction]
pub fn whisper_basic(
    py: Python<'_>,
    texts: Vec<String>,
    remove_diacritics: bool,
    preserve_marks: bool,
) -> PyResult<Vec<String>> {
    let o = BasicOptions { remove_diacritics, preserve_marks };
    over(py, texts, move |s| basic(s, o))
}

/// `unicodedata.normalize(form, text)` of each text, with `CPython` 3.11's
/// Unicode 14.0 data.
#[pyfunction]
pub fn unicode_normalize(py: Python<'_>, form: &str, texts: Vec<String>) -> PyResult<Vec<String>> {
    let form = match form {
        "NFC" => Form::Nfc,
        "NFD" => Form::Nfd,
        "NFKC" => Form::Nfkc,
        "NFKD" => Form::Nfkd,
        _ => return Err(PyValueError::new_err("invalid normalization form")),
    };
    over(py, texts, move |s| normalize(form, s))
}
