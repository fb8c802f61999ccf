//! The settings of sacrebleu's paired tests and intervals shared by
//! `compare`, `report` and `score --report` (and their Python faces): the
//! seed, the resample counts, the progress of a long test.

use anyhow::{Context, Result};
use mteval_kernels::significance;

/// The seed of the resamples: `arg` (an integer or `none`), else
/// `SACREBLEU_SEED`, else sacrebleu's 12345.
///
/// # Errors
/// A seed that is not an integer or `none`.
pub fn seed_of(arg: Option<&str>) -> Result<Option<u128>> {
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
pub fn resamples(n: usize, flag: &str) -> Result<usize> {
    significance::check_resamples(n, flag).map_err(|e| match e {
        mteval_kernels::MetricError::InvalidOption { reason, .. } => anyhow::anyhow!(reason),
        other => other.into(),
    })
}

/// A spinner on standard error while tests resample (a terminal only;
/// nothing otherwise), fed by the kernels' progress hook: the segment draws
/// done and their rate, so that a long test (a million resamples, a large
/// corpus) shows it is working. The hook is cleared and the line erased when
/// this is dropped. Ctrl-C stops the process at any point (the CLI's signal
/// handler).
pub struct ResamplingProgress(Option<indicatif::ProgressBar>);

impl ResamplingProgress {
    /// Starts the spinner, labelled `what` (e.g. "paired bootstrap").
    #[must_use]
    pub fn start(what: &str) -> Self {
        use std::io::IsTerminal;
        if !std::io::stderr().is_terminal() {
            return Self(None);
        }
        let pb = indicatif::ProgressBar::new_spinner();
        if let Ok(style) = indicatif::ProgressStyle::with_template(&format!(
            "{{spinner}} [{{elapsed_precise}}] {what}: {{human_pos}} segment draws ({{rate}})"
        )) {
            pb.set_style(style.with_key("rate", |s: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                let _ = write!(w, "{:.1} M/s", s.per_sec() / 1e6);
            }));
        }
        pb.enable_steady_tick(std::time::Duration::from_millis(120));
        let feed = pb.clone();
        significance::set_progress(Some(std::sync::Arc::new(move |draws| feed.inc(draws))));
        Self(Some(pb))
    }
}

impl Drop for ResamplingProgress {
    fn drop(&mut self) {
        if let Some(pb) = self.0.take() {
            significance::set_progress(None);
            pb.finish_and_clear();
        }
    }
}
