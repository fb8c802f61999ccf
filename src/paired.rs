//! The settings of sacrebleu's paired tests and intervals shared by
//! `compare`, `report` and `score --report`: the seed and the resample counts.

use anyhow::{Context, Result, bail};
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

/// `n`, which `flag` must give as at least 1.
pub(crate) fn positive(n: usize, flag: &str) -> Result<usize> {
    if n == 0 {
        bail!("{flag} must be at least 1");
    }
    Ok(n)
}
