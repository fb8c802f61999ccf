//! mteval-kernels: machine-translation metrics in pure Rust, with exact parity
//! with their reference implementations (see each module's header for the
//! implementation and version it matches). No Arrow, no `DataFusion`: the UDF
//! crate adapts these functions to SQL.
//!
//! Adding a metric: a module with a configuration whose `parse` reads the
//! signature-syntax options (its keys in an `OPTIONS` table), summable
//! statistics, a `score` from statistics, a `signature`, unit tests, and
//! the metric interface ([`metric::Metric`], its row in [`metrics::METRICS`]);
//! then its SQL functions in `mteval-udfs`. CONTRIBUTING.md says how.

pub mod backend;
pub mod bleu;
pub mod charac_ter;
pub mod chrf;
pub mod eed;
pub mod error;
pub mod hash;
pub mod levenshtein;
pub mod meta;
pub mod metric;
pub mod metrics;
pub mod options;
pub mod py;
pub mod signature;
pub mod significance;
pub mod sums;
pub mod ter;
pub mod terms;
pub mod tokenize;
mod ucd;
pub mod wer;
pub mod whisper;

#[cfg(test)]
mod testutil;

pub use bleu::{BleuConfig, BleuScore, BleuStats, BleuTokenizer, Smoothing};
pub use charac_ter::{CharacTerConfig, Compat, CorpusSummary};
pub use chrf::{ChrfConfig, ChrfSegment, ChrfStats, FastChrfOptions};
pub use error::MetricError;
pub use signature::{IMPL_VERSION, NRefs, Signature};
pub use ter::{Ter, TerConfig, TerSegment, TerStats};
pub use wer::{WerConfig, WerCounts};
