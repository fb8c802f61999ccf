//! The native half of `mteval.normalizers`: Whisper's text normalisers and
//! `unicodedata.normalize` (`CPython` 3.11's), over a list on all cores.

use mteval_kernels::py::normalize::{Form, normalize};
use mteval_kernels::whisper::basic::{BasicOptions, basic};
use mteval_kernels::whisper::english::{american_spellings, english};
use mteval_kernels::whisper::numbers::normalize_numbers;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::pybacked::PyBackedStr;
use rayon::prelude::*;

/// `f` of each text on all cores. The texts are borrowed from Python
/// (`PyBackedStr`: an ASCII string's bytes, or the UTF-8 copy Python keeps
/// of any other), not copied, and handed back to be released with the GIL.
fn over(
    py: Python<'_>,
    texts: Vec<PyBackedStr>,
    f: impl Fn(&str) -> String + Send + Sync + 'static,
) -> PyResult<Vec<String>> {
    let (texts, out) = crate::interruptible(py, move |_| {
        let out: Vec<String> = texts.par_iter().with_min_len(64).map(|s| f(s)).collect();
        (texts, out)
    })?;
    drop(texts);
    Ok(out)
}

/// `BasicTextNormalizer(remove_diacritics, split_letters, preserve_marks)` of each text.
#[pyfunction]
pub fn whisper_basic(
    py: Python<'_>,
    texts: Vec<PyBackedStr>,
    remove_diacritics: bool,
    preserve_marks: bool,
    split_letters: bool,
) -> PyResult<Vec<String>> {
    let o = BasicOptions { remove_diacritics, preserve_marks, split_letters };
    over(py, texts, move |s| basic(s, o))
}

/// `EnglishTextNormalizer()` of each text.
#[pyfunction]
pub fn whisper_english(py: Python<'_>, texts: Vec<PyBackedStr>) -> PyResult<Vec<String>> {
    over(py, texts, english)
}

/// `EnglishNumberNormalizer()` of each text.
#[pyfunction]
pub fn whisper_english_numbers(py: Python<'_>, texts: Vec<PyBackedStr>) -> PyResult<Vec<String>> {
    over(py, texts, normalize_numbers)
}

/// `EnglishSpellingNormalizer()` of each text.
#[pyfunction]
pub fn whisper_english_spellings(py: Python<'_>, texts: Vec<PyBackedStr>) -> PyResult<Vec<String>> {
    over(py, texts, american_spellings)
}

/// `" ".join(regex.findall(r"\X", text))` of each text: the grapheme
/// clusters of `split_letters`.
#[pyfunction]
pub fn join_graphemes(py: Python<'_>, texts: Vec<PyBackedStr>) -> PyResult<Vec<String>> {
    over(py, texts, mteval_kernels::whisper::graphemes::join_graphemes)
}

/// `unicodedata.normalize(form, text)` of each text, with `CPython` 3.11's
/// Unicode 14.0 data.
#[pyfunction]
pub fn unicode_normalize(py: Python<'_>, form: &str, texts: Vec<PyBackedStr>) -> PyResult<Vec<String>> {
    let form = match form {
        "NFC" => Form::Nfc,
        "NFD" => Form::Nfd,
        "NFKC" => Form::Nfkc,
        "NFKD" => Form::Nfkd,
        _ => return Err(PyValueError::new_err("invalid normalization form")),
    };
    over(py, texts, move |s| normalize(form, s))
}
