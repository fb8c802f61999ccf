//! Element-wise sums of per-segment count vectors: the corpus state of the
//! metrics sacrebleu scores from summed n-gram counts (chrF, ...). `M` is
//! the metric's configuration type; it only keeps the kinds of sums apart
//! (each metric scores its own, e.g. `ChrfStats`).

use std::fmt;
use std::marker::PhantomData;

/// Summed segment statistics of one metric.
pub struct CountSums<M> {
    /// Element-wise sums of segment statistics (empty until the first segment).
    pub stats: Vec<u64>,
    /// Segments added.
    pub segments: u64,
    metric: PhantomData<fn() -> M>,
}

impl<M> CountSums<M> {
    /// Sums given as their parts (e.g. a partial state received from another
    /// partition).
    #[must_use]
    pub fn from_parts(stats: Vec<u64>, segments: u64) -> Self {
        Self { stats, segments, metric: PhantomData }
    }

    /// Adds one segment's statistics.
    pub fn add(&mut self, seg: &[u64]) {
        self.add_counts(seg, 1);
    }

    /// Merges another partial sum.
    pub fn merge(&mut self, other: &Self) {
        self.add_counts(&other.stats, other.segments);
    }

    /// The sums padded with zeros to `len` entries (a corpus where some order
    /// never occurred); `None` when no segment was added.
    #[must_use]
    pub fn padded(&self, len: usize) -> Option<Vec<u64>> {
        if self.segments == 0 {
            return None;
        }
        let mut s = self.stats.clone();
        s.resize(len, 0);
        Some(s)
    }

    fn add_counts(&mut self, counts: &[u64], segments: u64) {
        if self.stats.len() < counts.len() {
            self.stats.resize(counts.len(), 0);
        }
        for (a, b) in self.stats.iter_mut().zip(counts) {
            *a += b;
        }
        self.segments += segments;
    }
}

impl<M> Default for CountSums<M> {
    fn default() -> Self {
        Self::from_parts(Vec::new(), 0)
    }
}

impl<M> Clone for CountSums<M> {
    fn clone(&self) -> Self {
        Self::from_parts(self.stats.clone(), self.segments)
    }
}

impl<M> PartialEq for CountSums<M> {
    fn eq(&self, other: &Self) -> bool {
        self.stats == other.stats && self.segments == other.segments
    }
}

impl<M> Eq for CountSums<M> {}

impl<M> fmt::Debug for CountSums<M> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CountSums").field("stats", &self.stats).field("segments", &self.segments).finish()
    }
}
