//! `CharacTER` as a [`Metric`]: its row of the metric table and its corpus
//! state (the sentence scores: the corpus value is their mean, as the
//! original CLI prints it, and `cer`'s summary needs the median).

use std::sync::Arc;

use super::{CharacTerConfig, CorpusSummary};
use crate::metric::{CorpusState, Direction, Metric, MetricInfo, same_state};
use crate::{MetricError, NRefs, Signature};

/// `CharacTER`'s row of the metric table.
pub static INFO: MetricInfo = MetricInfo {
    name: "charac_ter",
    display: "CharacTER",
    // Not `cer`: to a speech user that is jiwer's character error rate
    // (`char_error_rate`); the name is refused as ambiguous.
    aliases: &["characTER"],
    column: Some("charac_ter"),
    functions: &["charac_ter", "corpus_charac_ter"],
    reference: "cer 1.2.0 / rwth-i6 CharacTER",
    options: &[super::OPTIONS],
    direction: Direction::Lower,
    configure: |o| Ok(Arc::new(CharacTerConfig::parse(o)?)),
    ..MetricInfo::TEXT
};

impl Metric for CharacTerConfig {
    fn info(&self) -> &'static MetricInfo {
        &INFO
    }

    fn signature(&self, nrefs: NRefs) -> Signature {
        CharacTerConfig::signature(self, nrefs)
    }

    fn max_words(&self) -> Option<usize> {
        self.max_words
    }

    /// `[sentence score]`: the lowest over the references.
    fn width(&self) -> usize {
        1
    }

    fn segment(&self, hyp: &str, refs: &[&str]) -> Result<Option<Vec<f64>>, MetricError> {
        if refs.is_empty() {
            return Ok(None);
        }
        Ok(self.sentence_multi(hyp, refs.iter().copied())?.map(|s| vec![s]))
    }

    fn sentence_score(&self, stats: &[f64]) -> Option<f64> {
        Some(stats[0])
    }

    fn corpus(&self) -> Option<Box<dyn CorpusState>> {
        Some(Box::new(CharacTerCorpus(Vec::new())))
    }
}

/// `CharacTER`'s corpus state: the sentence scores.
#[derive(Debug, Clone)]
struct CharacTerCorpus(Vec<f64>);

impl CorpusState for CharacTerCorpus {
    fn add(&mut self, stats: &[f64]) {
        self.0.push(stats[0]);
    }

    fn merge(&mut self, other: &dyn CorpusState) -> Result<(), MetricError> {
        self.0.extend_from_slice(&same_state::<Self>(other)?.0);
        Ok(())
    }

    fn segments(&self) -> u64 {
        self.0.len() as u64
    }

    fn score(&self) -> Option<f64> {
        CorpusSummary::from_scores(&self.0).map(|c| c.mean)
    }
}
