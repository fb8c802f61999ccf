//! Functions over the whole metric table, not one metric: `segment_stats`
//! (any text metric's sentence score and statistics) and `mteval_signature`.

pub mod mteval_signature;
pub mod segment_stats;
