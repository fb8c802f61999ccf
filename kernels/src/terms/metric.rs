//! Terminology match accuracy (exact and lemmatized) as [`Metric`]s: their
//! rows of the metric table and the corpus state. They read a hypothesis
//! and its term list, not references: a row's statistics are its
//! [`TermCounts`] as [`TermCounts::to_stats`] lays them out.

use std::sync::Arc;

use super::{TermAccuracy, TermCounts, signature};
use crate::metric::{CorpusState, Inputs, Metric, MetricInfo, as_f64, count, same_state};
use crate::{MetricError, NRefs, Signature};

/// A term accuracy row: the lemmatized one's names are the exact one's
/// with a suffix (`_lemmatized`, `-lemmatized` in display names).
macro_rules! term_row {
    ($lemmatized:literal, $suffix:literal, $display_suffix:literal, $what:literal) => {
        MetricInfo {
            name: concat!("term_accuracy", $suffix),
            display: concat!("TermAcc", $display_suffix),
            aliases: &[concat!("term-acc", $display_suffix), concat!("term_acc", $suffix)],
            column: Some(concat!("term_acc", $suffix)),
            functions: &[concat!("term_match", $suffix), concat!("corpus_term_accuracy", $suffix)],
            reference: concat!("terminology match accuracy (", $what, ")"),
            inputs: Inputs::Terms { lemmatized: $lemmatized },
            configure: |o| configure(o, $lemmatized),
            ..MetricInfo::TEXT
        }
    };
}

/// Exact terminology accuracy's row of the metric table.
pub static EXACT: MetricInfo = term_row!(false, "", "", "exact");

/// Lemmatized terminology accuracy's row of the metric table.
pub static LEMMATIZED: MetricInfo = term_row!(true, "_lemmatized", "-lemmatized", "lemmatized");

fn configure(options: &str, lemmatized: bool) -> Result<Arc<dyn Metric>, MetricError> {
    if !options.trim().is_empty() {
        let name = if lemmatized { LEMMATIZED.name } else { EXACT.name };
        return Err(MetricError::InvalidOption {
            metric: "term accuracy",
            reason: format!("{name} takes no options (got '{options}')"),
        });
    }
    Ok(Arc::new(TermAccuracyMetric { lemmatized }))
}

/// Terminology accuracy, exact or lemmatized.
#[derive(Debug, Clone, Copy)]
pub struct TermAccuracyMetric {
    /// Lemmatized matching.
    pub lemmatized: bool,
}

impl TermCounts {
    /// The counts as a metric's statistics row: `[exact, lemmatized, total,
    /// dropped, lemma_sentences]`.
    #[must_use]
    pub fn to_stats(&self) -> Vec<f64> {
        vec![
            f64::from(self.exact),
            f64::from(self.lemmatized),
            f64::from(self.total),
            f64::from(u8::from(self.dropped)),
            f64::from(self.lemma_sentences),
        ]
    }

    /// The counts of a statistics row of [`Self::to_stats`].
    #[must_use]
    pub fn from_stats(s: &[f64]) -> Self {
        let n = |x: f64| u32::try_from(count(x)).unwrap_or(u32::MAX);
        Self {
            exact: n(s[0]),
            lemmatized: n(s[1]),
            total: n(s[2]),
            dropped: s[3] != 0.0,
            lemmatized_below_exact: false,
            lemma_sentences: n(s[4]),
        }
    }
}

impl Metric for TermAccuracyMetric {
    fn info(&self) -> &'static MetricInfo {
        if self.lemmatized { &LEMMATIZED } else { &EXACT }
    }

    fn signature(&self, _nrefs: NRefs) -> Signature {
        signature(self.lemmatized)
    }

    /// The functions take no options.
    fn sql_options(&self) -> String {
        String::new()
    }

    fn width(&self) -> usize {
        5
    }

    /// The row's matched terms over its terms.
    fn sentence_score(&self, stats: &[f64]) -> Option<f64> {
        let c = TermCounts::from_stats(stats);
        (c.total > 0).then(|| f64::from(c.lemmatized) / f64::from(c.total))
    }

    fn corpus(&self) -> Option<Box<dyn CorpusState>> {
        Some(Box::new(TermState { lemmatized: self.lemmatized, acc: TermAccuracy::default() }))
    }
}

/// Terminology's corpus state: the [`TermAccuracy`] sums of the rows (not
/// the rows summed: a dropped prediction leaves the denominator), which
/// engines move as [`TermAccuracy::to_array`]'s layout.
#[derive(Debug, Clone, Copy)]
struct TermState {
    lemmatized: bool,
    acc: TermAccuracy,
}

impl CorpusState for TermState {
    fn add(&mut self, stats: &[f64]) {
        self.acc.add(&TermCounts::from_stats(stats));
    }

    fn merge(&mut self, other: &dyn CorpusState) -> Result<(), MetricError> {
        self.acc.merge(&same_state::<Self>(other)?.acc);
        Ok(())
    }

    /// The predictions kept.
    fn segments(&self) -> u64 {
        self.acc.kept_predictions
    }

    fn score(&self) -> Option<f64> {
        if self.lemmatized { self.acc.lemmatized_accuracy() } else { self.acc.exact_accuracy() }
    }

    /// The lemmatized accuracy's check that every kept prediction has its
    /// lemma sentence.
    fn check(&self) -> Result<(), MetricError> {
        if self.lemmatized { self.acc.check() } else { Ok(()) }
    }

    fn to_state(&self) -> (Vec<f64>, u64) {
        (as_f64(&self.acc.to_array()), self.acc.kept_predictions)
    }

    fn add_state(&mut self, values: &[f64], _segments: u64) {
        let mut a = [0; 6];
        for (x, &v) in a.iter_mut().zip(values) {
            *x = count(v);
        }
        self.acc.merge(&TermAccuracy::from_array(a));
    }
}
