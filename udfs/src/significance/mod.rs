//! sacrebleu's significance tests as SQL aggregates over any metric of the
//! metric table with a score from summed statistics (`Metric::stats`): `corpus_bootstrap` (the confidence
//! interval) and `paired_test` (paired bootstrap or approximate
//! randomization against a baseline); `comet_compare`, Unbabel COMET's
//! pairwise tests.

pub mod comet_compare;
pub mod corpus_bootstrap;
pub mod paired_test;
