//! Tokenizers used by the metrics.

pub mod tercom;

pub use tercom::TercomTokenizer;
