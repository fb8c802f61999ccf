//! The settings of sacrebleu's paired tests and intervals shared by
//! `compare`, `report` and `score --report`: the seed and the resample counts.

use anyhow::{Context, Result};
use mteval_kernels::significance;

/// The seed of the resamples: `arg` (an integer or `none`), else
/// `SACREBLEU_SEED`, else sacrebleu's 12345.
///
/// # Errors
/// A seed that is not an integer or `none`.
pub(crate) fn seed_of(arg: Option<&str>) -> Result<Option<u128>> {
    Ok(match arg {
        Some(s) => significance::parse_seed(s)?,
        None => match std::env::var("SACREBLEU_SEED") {
            Ok(s) => significance::parse_seed(&s).context("SACREBLEU_SEED")?,
            Err(_) => Some(significance::DEFAULT_SEED),
        },
    })
}

/// `n` resamples or trials, which `flag` must give from 1 to
/// [`significance::MAX_RESAMPLES`].
///
/// # Errors
/// 0, or over the limit.
pub(crate) fn resamples(n: usize, flag: &str) -> Result<usize> {
    significance::check_resamples(n, flag).map_err(|e| match e {
        mteval_kernels::MetricError::InvalidOption { reason, .. } => anyhow::anyhow!(reason),
        other => other.into(),
    })
}
