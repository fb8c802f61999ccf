//! The WER family's SQL functions, jiwer 4.0.0's numbers: the sentence
//! measures `wer`, `mer`, `wil`, `wip`, the counts `wer_stats`, the corpus
//! aggregate `corpus_wer` and `wer_alignment`. Every one takes
//! `(hyp, ref [, options])`, hypothesis first (jiwer takes the reference
//! first), with the options `unit:word|char` and
//! `transform:default|standardize`; `unit:char` is jiwer's character level
//! (`wer(h, r, 'unit:char')` is jiwer's `cer`).

pub mod corpus_wer;
mod eval;
pub mod measures;
pub mod wer_alignment;
pub mod wer_stats;
pub mod whisper_normalize;
