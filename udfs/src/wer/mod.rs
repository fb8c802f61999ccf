//! The WER family's special SQL functions: `wer_alignment` (jiwer's
//! `visualize_alignment`) and `whisper_normalize`. The sentence measures
//! `wer`, `mer`, `wil`, `wip`, the counts `wer_stats` and the aggregate
//! `corpus_wer` are the metric table's standard functions
//! (`metric_table::standard`). Every one takes `(hyp, ref [, options])`,
//! hypothesis first (jiwer takes the reference first), with the options
//! `unit:word|char` and `transform:default|standardize`; `unit:char` is
//! jiwer's character level (`wer(h, r, 'unit:char')` is jiwer's `cer`).

mod eval;
pub mod wer_alignment;
pub mod whisper_normalize;
