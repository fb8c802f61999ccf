//! The native half of `mteval.jiwer` (jiwer 4.0.0's API): the alignment of
//! each sentence pair (its tokens and jiwer's chunks), the summed counts,
//! and `visualize_alignment`'s text. The Python half builds jiwer's output
//! objects and applies its arithmetic.

use std::sync::atomic::Ordering;

use mteval_kernels::wer::{AlignmentChunk, ChunkKind, VisualizeOptions, WerAlignment, WerConfig, WerCounts};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use rayon::prelude::*;

use crate::metrics::CHUNK;

/// A chunk as Python receives it: `(type, ref_start, ref_end, hyp_start, hyp_end)`.
type Chunk = (String, usize, usize, usize, usize);

/// One sentence pair: the reference's tokens, the hypothesis' and the chunks.
type Sentence = (Vec<String>, Vec<String>, Vec<Chunk>);

fn config(options: &str) -> PyResult<WerConfig> {
    WerConfig::parse(options).map_err(|e| PyValueError::new_err(e.to_string()))
}

fn pairs(references: Vec<String>, hypotheses: Vec<String>) -> PyResult<Vec<(String, String)>> {
    if references.len() != hypotheses.len() {
        return Err(PyValueError::new_err(format!(
            "After applying the transforms on the reference and hypothesis sentences, their lengths must match. \
             Instead got {} reference and {} hypothesis sentences.",
            references.len(),
            hypotheses.len()
        )));
    }
    Ok(references.into_iter().zip(hypotheses).collect())
}

/// Runs `f` over the pairs on all cores, in order, interruptibly.
fn over_pairs<T: Send + 'static>(
    py: Python<'_>,
    pairs: Vec<(String, String)>,
    f: impl Fn(&str, &str) -> T + Send + Sync + 'static,
) -> PyResult<Vec<T>> {
    crate::interruptible(py, move |cancel| {
        let mut out = Vec::with_capacity(pairs.len());
        for part in pairs.chunks(CHUNK) {
            if cancel.load(Ordering::Relaxed) {
                break;
            }
            out.par_extend(part.par_iter().with_min_len(16).map(|(r, h)| f(r, h)));
        }
        out
    })
}

/// jiwer's `process_words` alignment of each `(reference, hypothesis)` pair
/// under `options` (`unit:char`, `transform:standardize`): the tokens after
/// the transform and the chunks, as `_word2int` and rapidfuzz's opcodes give
/// them.
#[pyfunction]
pub fn wer_align(
    py: Python<'_>,
    references: Vec<String>,
    hypotheses: Vec<String>,
    options: &str,
) -> PyResult<Vec<Sentence>> {
    let cfg = config(options)?;
    over_pairs(py, pairs(references, hypotheses)?, move |r, h| {
        // `alignment` is `None` only without references; one is always given.
        let Some(a) = cfg.alignment(h, &[r]) else { return (Vec::new(), Vec::new(), Vec::new()) };
        let chunks = a
            .chunks
            .iter()
            .map(|c| (c.kind.name().to_owned(), c.ref_start, c.ref_end, c.hyp_start, c.hyp_end))
            .collect();
        (a.reference, a.hypothesis, chunks)
    })
}

/// The counts `(hits, substitutions, deletions, insertions, ref_len,
/// hyp_len)` summed over the pairs (what `wer`, `mer`, `wil`, `wip` and `cer`
/// need, without building the alignment objects).
#[pyfunction]
pub fn wer_counts(
    py: Python<'_>,
    references: Vec<String>,
    hypotheses: Vec<String>,
    options: &str,
) -> PyResult<(u64, u64, u64, u64, u64, u64)> {
    let cfg = config(options)?;
    let all = over_pairs(py, pairs(references, hypotheses)?, move |r, h| cfg.counts(h, r))?;
    let mut c = WerCounts::default();
    for x in &all {
        c.add(x);
    }
    Ok((c.hits, c.substitutions, c.deletions, c.insertions, c.ref_len, c.hyp_len))
}

/// jiwer's `visualize_alignment` of sentences given as [`wer_align`] returns
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
