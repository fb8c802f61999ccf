//! A metric's score from its statistics, written once ([`FromStats`]): the
//! corpus score of summed segment rows ([`Summed`], the corpus state), the
//! sentence score of one row, and the scores sacrebleu's significance tests
//! compute on resampled sums, in each numeric setting they meet.

use std::fmt;

use super::{CorpusState, Detail, same_state};
use crate::MetricError;
use crate::py::Py;

/// A metric whose scores are a function of its segment statistics summed
/// element-wise: its formula, once. [`super::Metric::stats`] returns it;
/// from it come the metric's width, sentence score (the formula on one
/// row), corpus state ([`Summed`]) and the significance tests' resampling.
pub trait FromStats: fmt::Debug + Send + Sync + Summable {
    /// Statistics per segment.
    fn width(&self) -> usize;

    /// The score of summed statistics held as Python numbers (sacrebleu's
    /// `_compute_score_from_stats` on `sum_of_lists`; the corpus score).
    fn score(&self, sums: &[f64]) -> f64;

    /// The score of sums held in a numpy `int64`/`float64` row (approximate
    /// randomization); the same as [`Self::score`] except where writing a
    /// float back into an `int64` array truncates (BLEU's add-k).
    fn score_ar(&self, sums: &[f64]) -> f64 {
        self.score(sums)
    }

    /// The score of `float32` sums (bootstrap resamples), with the type
    /// sacrebleu's code gives it. By default [`Self::score`] of the sums
    /// widened to doubles, as a formula that converts its sums with
    /// `float()` first computes it; a formula on numpy `float32` scalars
    /// overrides it (every metric sacrebleu resamples does).
    fn score_f32(&self, sums: &[f32]) -> Py {
        Py::Float(self.score(&sums.iter().map(|&x| f64::from(x)).collect::<Vec<_>>()))
    }

    /// The reference tool's score fields besides the score, of summed
    /// statistics (sacrebleu's `BLEUScore.counts`, `TERScore.num_edits`...).
    fn details(&self, sums: &[f64]) -> Vec<(&'static str, Detail)> {
        let _ = sums;
        Vec::new()
    }
}

/// An empty [`Summed`] corpus state of a [`FromStats`] metric: every one
/// that is `Clone` has it.
pub trait Summable {
    /// No segment yet.
    fn summed(&self) -> Box<dyn CorpusState>;
}

impl<T: FromStats + Clone + 'static> Summable for T {
    fn summed(&self) -> Box<dyn CorpusState> {
        Box::new(Summed { cfg: self.clone(), sums: Vec::new(), segments: 0 })
    }
}

/// The corpus state of a [`FromStats`] metric: its configuration and its
/// statistics rows summed element-wise in `f64` (exact for counts below
/// 2^53, and in input order for a float column such as TER's reference
/// lengths), with the number of rows.
#[derive(Debug, Clone)]
pub struct Summed<C> {
    cfg: C,
    sums: Vec<f64>,
    segments: u64,
}

impl<C: FromStats> Summed<C> {
    /// Adds `row` as `segments` rows' sums.
    fn add_rows(&mut self, row: &[f64], segments: u64) {
        if self.sums.len() < row.len() {
            self.sums.resize(row.len(), 0.0);
        }
        for (a, b) in self.sums.iter_mut().zip(row) {
            *a += b;
        }
        self.segments += segments;
    }

    /// The sums as wide as a row (zeros for what no row added).
    fn padded(&self) -> Vec<f64> {
        let mut s = self.sums.clone();
        s.resize(s.len().max(self.cfg.width()), 0.0);
        s
    }
}

impl<C: FromStats + Clone + 'static> CorpusState for Summed<C> {
    fn add(&mut self, stats: &[f64]) {
        self.add_rows(stats, 1);
    }

    fn merge(&mut self, other: &dyn CorpusState) -> Result<(), MetricError> {
        let o = same_state::<Self>(other)?;
        self.add_rows(&o.sums, o.segments);
        Ok(())
    }

    fn segments(&self) -> u64 {
        self.segments
    }

    fn score(&self) -> Option<f64> {
        (self.segments > 0).then(|| self.cfg.score(&self.padded()))
    }

    fn details(&self) -> Vec<(&'static str, Detail)> {
        if self.segments == 0 { Vec::new() } else { self.cfg.details(&self.padded()) }
    }

    fn to_state(&self) -> (Vec<f64>, u64) {
        (self.sums.clone(), self.segments)
    }

    fn add_state(&mut self, values: &[f64], segments: u64) {
        self.add_rows(values, segments);
    }
}

/// The mean of per-segment scores kept as the rows `[score, 1]`, as
/// sacrebleu's significance code computes a metric that is a mean: Python
/// floats summed in segment order, then `sums[0] / sums[1]`; on the
/// bootstrap's `float32` sums the quotient of two `float32` scalars is a
/// `float32`. The statistics of the segment scores read from a column and
/// of EED.
#[derive(Debug, Clone, Copy, Default)]
pub struct Mean;

impl FromStats for Mean {
    fn width(&self) -> usize {
        2
    }

    fn score(&self, sums: &[f64]) -> f64 {
        sums[0] / sums[1]
    }

    fn score_f32(&self, sums: &[f32]) -> Py {
        Py::F32(sums[0]) / Py::F32(sums[1])
    }
}
