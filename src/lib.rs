//! mteval: machine-translation evaluation at corpus scale, as SQL.
//!
//! This crate is the application: the `mteval` CLI ([`cli`], one module per
//! subcommand) over library modules any front end can use (the Python
//! module does): [`session`] (contexts, inputs, object stores), [`metrics`]
//! (metric choice), [`corpus`] (tables and text files read into aligned
//! systems), [`compare`] (paired tests over them, sacrebleu's JSON table), [`meta`] (metrics ranked against human scores), [`statements`] (SQL as `mteval sql` runs it), [`report`] (the
//! HTML page), [`paired`], [`textfiles`], [`device`], [`output`] (atomic
//! writers, messages), [`copy_plan`] (a `COPY`'s options baked into its
//! plan), [`cluster`], [`cluster_status`] and [`codec`] (Ballista roles, the cluster's status and plan encoding). The metrics live in [`kernels`] (pure Rust) and their `DataFusion`
//! adapters in [`udfs`].

pub mod cli;
pub mod cluster;
pub mod cluster_status;
pub mod codec;
pub mod comet_compare;
pub mod compare;
pub mod copy_plan;
pub mod corpus;
pub mod device;
pub mod meta;
pub mod metrics;
pub mod output;
pub mod paired;
mod path_tables;
pub mod report;
mod score_files;
pub mod session;
pub mod statements;
pub mod textfiles;
pub mod wire_errors;

pub use mteval_kernels as kernels;
pub use mteval_udfs as udfs;

/// The SQL guide's Rust examples (embedding the UDFs), run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../docs/sql.md")]
pub struct SqlGuideDoctests;
