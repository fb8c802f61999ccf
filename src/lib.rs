//! mteval: machine-translation evaluation at corpus scale, as SQL.
//!
//! The application as a library, which the `mteval` command line
//! (`src/main.rs` and `src/cli/`, the only code that parses arguments) and
//! the Python module share. Its parts:
//!
//! * [`session`]: `DataFusion` contexts with every UDF, inputs and object
//!   stores, files queried by path, the device, SQL statements as `mteval sql`
//!   runs them ([`session::statements`]).
//! * [`output`]: atomic writers, printed tables, messages; a `COPY`'s options
//!   baked into its plan ([`output::copy_plan`]).
//! * [`corpus`] and [`metrics`]: corpus scoring — tables and text files read
//!   into aligned systems, the metrics a run scores.
//! * [`compare`]: sacrebleu's paired tests ([`compare::paired`]) and
//!   comet-compare's ([`compare::comet`]).
//! * [`meta`]: metrics ranked against human scores (mt-metrics-eval), its
//!   request a table of flags ([`flags`]) every front end fills.
//! * [`report`]: the HTML page.
//! * [`cluster`] (feature `cluster`): the Ballista roles, the cluster client,
//!   its status page and plan encoding.
//!
//! The metrics live in [`kernels`] (pure Rust) and their `DataFusion`
//! adapters in [`udfs`].

#[cfg(feature = "cluster")]
pub mod cluster;
pub mod compare;
pub mod corpus;
pub mod flags;
pub mod meta;
pub mod metrics;
pub mod output;
pub mod report;
pub mod session;

pub use mteval_kernels as kernels;
pub use mteval_udfs as udfs;

/// The SQL guide's Rust examples (embedding the UDFs), run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../docs/sql.md")]
pub struct SqlGuideDoctests;
