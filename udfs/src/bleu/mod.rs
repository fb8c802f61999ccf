//! BLEU's special SQL function: `compute_bleu`, sacrebleu's score of given
//! statistics. (`bleu`, `bleu_stats` and `corpus_bleu` are the metric
//! table's standard functions, `metric_table::standard`.)

pub mod compute_bleu;
