//! mteval: machine-translation evaluation at corpus scale, as SQL.
//!
//! This crate is the application: the `mteval` CLI (`sql`, `score`), the
//! session set-up shared by both, and the batch pipeline that writes scored
//! Parquet. The metrics live in [`kernels`] (pure Rust) and their `DataFusion`
//! adapters in [`udfs`].

pub mod cli;
pub mod cluster;
pub mod codec;
pub mod metrics;
pub mod output;
mod path_tables;
pub mod session;

pub use mteval_kernels as kernels;
pub use mteval_udfs as udfs;

/// The README's Rust examples, run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
