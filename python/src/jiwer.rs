//! The native half of `mteval.jiwer` (jiwer 4.0.0's API): the alignment of
//! each sentence pair (its tokens and jiwer's chunks), the summed counts,
//! and `visualize_alignment`'s text. The Python half builds jiwer's output
//! objects and applies its arithmetic.

use std::sync::atomic::Ordering;

use mteval_kernels::wer::compose::{self, Step, Text};
use mteval_kernels::wer::{AlignmentChunk, ChunkKind, VisualizeOptions, WerAlignment, WerConfig, WerCounts};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use rayon::prelude::*;

use crate::metrics::CHUNK;

/// A chunk as Python receives it: `(type, ref_start, ref_end, hyp_start, hyp_end)`.
type Chunk = (String, usize, usize, usize, usize);

/// One sentence pair: the reference's tokens, the hypothesis' and the chunks.
type Sentence = (Vec<String>, Vec<String>, Vec<Chunk>);

/// A step list as the Python half gives it: `(name, argument)` tuples.
fn steps(spec: &Bound<'_, PyAny>) -> PyResult<Vec<Step>> {
    let mut out = Vec::new();
    for item in spec.try_iter()? {
        let (name, arg): (String, Bound<'_, PyAny>) = item?.extract()?;
        out.push(match name.as_str() {
            "lower" => Step::Lower,
            "upper" => Step::Upper,
            "punctuation" => Step::RemovePunctuation,
            "spaces" => Step::RemoveMultipleSpaces,
            "whitespace" => Step::RemoveWhiteSpace { by_space: arg.extract()? },
            "strip" => Step::Strip,
            "empty" => Step::RemoveEmptyStrings,
            "kaldi" => Step::RemoveKaldiNonWords,
            "contractions" => Step::ExpandContractions,
            "words_sub" => Step::SubstituteWords(arg.extract()?),
            "single" => Step::Single(arg.extract()?),
            "words" => Step::Words(arg.extract()?),
            "chars" => Step::Chars,
            "whisper" => Step::Whisper(
                mteval_kernels::whisper::Normalizer::parse(&arg.extract::<String>()?)
                    .map_err(|e| PyValueError::new_err(e.to_string()))?,
            ),
            other => return Err(PyValueError::new_err(format!("unknown transform step {other:?}"))),
        });
    }
    compose::check(&out).map_err(|e| PyValueError::new_err(e.to_string()))?;
    Ok(out)
}

/// A `str` or a `list` of `str`.
#[derive(FromPyObject)]
pub enum TextIn {
    One(String),
    List(Vec<String>),
}

impl From<TextIn> for Text {
    fn from(t: TextIn) -> Self {
        match t {
            TextIn::One(s) => Self::One(s),
            TextIn::List(v) => Self::List(v),
        }
    }
}

/// A step list (checked by the Python half) applied to a string or a list
/// of strings: a `str`, a `list` of `str` or a `list` of lists of `str`.
#[pyfunction]
pub fn jiwer_apply(py: Python<'_>, spec: &Bound<'_, PyAny>, text: TextIn) -> PyResult<Py<PyAny>> {
    let program = steps(spec)?;
    let out = crate::interruptible(py, move |_| compose::apply(&program, text.into()))?
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    Ok(match out {
        Text::One(s) => s.into_pyobject(py)?.into_any().unbind(),
        Text::List(v) => v.into_pyobject(py)?.into_any().unbind(),
        Text::Tokens(v) => v.into_pyobject(py)?.into_any().unbind(),
    })
}

/// jiwer's `_apply_transform`: the tokens of each sentence, or jiwer's
/// error when the transform does not end in lists of tokens.
fn transformed(program: &[Step], sentences: Vec<String>, is_reference: bool) -> PyResult<Vec<Vec<String>>> {
    match compose::apply(program, Text::List(sentences)).map_err(|e| PyValueError::new_err(e.to_string()))? {
        Text::Tokens(v) => Ok(v),
        // An empty list passes jiwer's check (it has no element to fail it).
        Text::List(v) if v.is_empty() => Ok(Vec::new()),
        _ => Err(not_tokens(is_reference)),
    }
}

fn not_tokens(is_reference: bool) -> PyErr {
    PyValueError::new_err(format!(
        "After applying the transformation, each {} should be a list of strings, with each string being a single \
         word or character.Please ensure the given transformation reduces the input to a list of list strings.",
        if is_reference { "reference" } else { "hypothesis" }
    ))
}

fn same_length<A, B>(references: &[A], hypotheses: &[B]) -> PyResult<()> {
    if references.len() != hypotheses.len() {
        return Err(PyValueError::new_err(format!(
            "After applying the transforms on the reference and hypothesis sentences, their lengths must match. \
             Instead got {} reference and {} hypothesis sentences.",
            references.len(),
            hypotheses.len()
        )));
    }
    Ok(())
}

/// Both sides through their programs, then `f` of each pair of token lists
/// on all cores, in order, interruptibly.
fn over_transformed<T: Send + 'static>(
    py: Python<'_>,
    sides: [(&Bound<'_, PyAny>, Vec<String>); 2],
    f: impl Fn(&[String], &[String]) -> T + Send + Sync + 'static,
) -> PyResult<Vec<T>> {
    let [(ref_spec, references), (hyp_spec, hypotheses)] = sides;
    let (ref_program, hyp_program) = (steps(ref_spec)?, steps(hyp_spec)?);
    crate::interruptible(py, move |cancel| {
        let r = transformed(&ref_program, references, true)?;
        let h = transformed(&hyp_program, hypotheses, false)?;
        same_length(&r, &h)?;
        Ok(over_token_pairs(cancel, &r, &h, &f))
    })?
}

fn over_token_pairs<T: Send>(
    cancel: &std::sync::atomic::AtomicBool,
    r: &[Vec<String>],
    h: &[Vec<String>],
    f: &(impl Fn(&[String], &[String]) -> T + Sync),
) -> Vec<T> {
    let mut out = Vec::with_capacity(r.len());
    for (rs, hs) in r.chunks(CHUNK).zip(h.chunks(CHUNK)) {
        if cancel.load(Ordering::Relaxed) {
            break;
        }
        out.par_extend(rs.par_iter().zip(hs.par_iter()).with_min_len(16).map(|(a, b)| f(a, b)));
    }
    out
}

fn chunk_tuple(c: &AlignmentChunk) -> Chunk {
    (c.kind.name().to_owned(), c.ref_start, c.ref_end, c.hyp_start, c.hyp_end)
}

fn summed(all: &[WerCounts]) -> (u64, u64, u64, u64, u64, u64) {
    let mut c = WerCounts::default();
    for x in all {
        c.add(x);
    }
    (c.hits, c.substitutions, c.deletions, c.insertions, c.ref_len, c.hyp_len)
}

/// jiwer's `process_words` with transforms that run here (step lists):
/// each pair's tokens and chunks (`alignments`), or only the counts
/// `(hits, substitutions, deletions, insertions, ref_len, hyp_len)` summed
/// over the pairs.
#[pyfunction]
pub fn jiwer_process(
    py: Python<'_>,
    reference_steps: &Bound<'_, PyAny>,
    hypothesis_steps: &Bound<'_, PyAny>,
    references: Vec<String>,
    hypotheses: Vec<String>,
    alignments: bool,
) -> PyResult<Py<PyAny>> {
    let sides = [(reference_steps, references), (hypothesis_steps, hypotheses)];
    if alignments {
        let sentences: Vec<Sentence> = over_transformed(py, sides, |r, h| {
            let (_, chunks) = WerConfig::align_tokens(r, h);
            (r.to_vec(), h.to_vec(), chunks.iter().map(chunk_tuple).collect())
        })?;
        Ok(sentences.into_pyobject(py)?.into_any().unbind())
    } else {
        let all = over_transformed(py, sides, |r, h| WerConfig::align_tokens(r, h).0)?;
        Ok(summed(&all).into_pyobject(py)?.into_any().unbind())
    }
}

/// [`jiwer_process`] of sentences already reduced to tokens (transforms
/// applied in Python): each pair's chunks, or the summed counts.
#[pyfunction]
pub fn tokens_process(
    py: Python<'_>,
    references: Vec<Vec<String>>,
    hypotheses: Vec<Vec<String>>,
    alignments: bool,
) -> PyResult<Py<PyAny>> {
    same_length(&references, &hypotheses)?;
    if alignments {
        let chunks: Vec<Vec<Chunk>> = crate::interruptible(py, move |cancel| {
            over_token_pairs(cancel, &references, &hypotheses, &|r, h| {
                WerConfig::align_tokens(r, h).1.iter().map(chunk_tuple).collect()
            })
        })?;
        Ok(chunks.into_pyobject(py)?.into_any().unbind())
    } else {
        let all = crate::interruptible(py, move |cancel| {
            over_token_pairs(cancel, &references, &hypotheses, &|r, h| WerConfig::align_tokens(r, h).0)
        })?;
        Ok(summed(&all).into_pyobject(py)?.into_any().unbind())
    }
}

/// jiwer's `visualize_alignment` of sentences given as [`jiwer_process`] returns
/// them (`char`: the character level's summary and no separators).
#[pyfunction]
#[pyo3(signature = (sentences, char, show_measures = true, skip_correct = true, line_width = None))]
pub fn wer_visualize(
    sentences: Vec<Sentence>,
    char: bool,
    show_measures: bool,
    skip_correct: bool,
    line_width: Option<usize>,
) -> PyResult<String> {
    let mut alignments = Vec::with_capacity(sentences.len());
    for (reference, hypothesis, chunks) in sentences {
        let mut counts =
            WerCounts { ref_len: reference.len() as u64, hyp_len: hypothesis.len() as u64, ..WerCounts::default() };
        let mut out = Vec::with_capacity(chunks.len());
        for (kind, ref_start, ref_end, hyp_start, hyp_end) in chunks {
            let kind = match kind.as_str() {
                "equal" => ChunkKind::Equal,
                "substitute" | "replace" => ChunkKind::Substitute,
                "delete" => ChunkKind::Delete,
                "insert" => ChunkKind::Insert,
                other => return Err(PyValueError::new_err(format!("unknown alignment chunk type {other:?}"))),
            };
            let (r, h) = (ref_end.saturating_sub(ref_start) as u64, hyp_end.saturating_sub(hyp_start) as u64);
            match kind {
                ChunkKind::Equal => counts.hits += r,
                ChunkKind::Substitute => counts.substitutions += r,
                ChunkKind::Delete => counts.deletions += r,
                ChunkKind::Insert => counts.insertions += h,
            }
            out.push(AlignmentChunk { kind, ref_start, ref_end, hyp_start, hyp_end });
        }
        alignments.push(WerAlignment { ref_index: 0, reference, hypothesis, chunks: out, counts });
    }
    let cfg =
        WerConfig::parse(if char { "unit:char" } else { "" }).map_err(|e| PyValueError::new_err(e.to_string()))?;
    Ok(cfg.visualize(&alignments, VisualizeOptions { show_measures, skip_correct, line_width }))
}
