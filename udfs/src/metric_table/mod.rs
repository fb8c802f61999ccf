//! Functions over the whole metric table, not one metric: the standard
//! functions every text metric gets from its row (`NAME`, `NAME_stats`,
//! `corpus_NAME`: [`standard`]), `segment_stats` (any text metric's
//! sentence score and statistics) and `mteval_signature`.

pub mod mteval_signature;
pub mod segment_stats;
pub mod standard;
