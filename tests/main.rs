//! End-to-end tests of the application: SQL functions and the CLI binary,
//! with golden parity against `../shared/data/golden`. One binary, so the
//! `DataFusion` link happens once.
#![allow(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    clippy::cast_possible_wrap,
    reason = "ids, counts, group ids and indices in the test data are small and non-negative"
)]

#[path = "../kernels/tests/common/mod.rs"]
mod common;

mod cli;
mod cli_bad_input;
mod cli_cer;
mod cli_chrf;
mod cli_comet;
mod cli_compare;
mod cli_datasets;
mod cli_device;
mod cli_inputs;
mod cli_meta;
mod cli_object_store;
mod cli_probe;
mod cli_reliability;
mod cli_scores;
mod cli_wer;
mod cluster;
mod compare_probe;
mod docs;
mod meta_probe;
mod meta_tasksets;
mod probe_datasets;
mod readme;
mod report;
mod sql;
mod sql_cer;
mod sql_chrf;
mod sql_probe;
mod sql_wer;
