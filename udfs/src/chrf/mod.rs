//! chrF's special SQL functions: MBR with chrF as the utility,
//! `mbr_chrf` (a window function) and `mbr_chrf_aggregate`. (`chrf`,
//! `chrf_stats` and `corpus_chrf` are the metric table's standard
//! functions, `metric_table::standard`.)

pub mod mbr_chrf;
pub mod mbr_chrf_aggregate;
