//! WER as a [`Metric`]: its row of the metric table and its corpus state
//! (the counts summed, as jiwer sums them over a list of sentences).

use std::any::Any;
use std::sync::Arc;

use super::{WerConfig, WerCounts};
use crate::metric::{CorpusState, Detail, Direction, Inputs, Metric, MetricInfo, same_state};
use crate::{MetricError, NRefs, Signature};

/// WER's row of the metric table.
pub static WER: MetricInfo = MetricInfo {
    name: "wer",
    aliases: &["word_error_rate"],
    column: Some("wer"),
    functions: &["segment_stats"],
    reference: "jiwer 4.0.0 wer",
    options: &[super::OPTIONS],
    direction: Direction::Lower,
    inputs: Inputs::Text,
    sacrebleu: None,
    configure: |o| Ok(Arc::new(WerConfig::parse(o)?)),
};

impl Metric for WerConfig {
    fn info(&self) -> &'static MetricInfo {
        &WER
    }

    fn display(&self) -> String {
        self.name().to_owned()
    }

    fn signature(&self, nrefs: NRefs) -> Signature {
        WerConfig::signature(self, nrefs)
    }

    /// `[hits, substitutions, deletions, insertions, ref_len, hyp_len]` of
    /// the best reference.
    fn width(&self) -> usize {
        6
    }

    fn segment(&self, hyp: &str, refs: &[&str]) -> Result<Option<Vec<f64>>, MetricError> {
        Ok(self.best(hyp, refs).map(|(_, c)| c.to_stats().to_vec()))
    }

    fn sentence_score(&self, stats: &[f64]) -> Option<f64> {
        Some(WerCounts::from_stats(stats).wer())
    }

    fn corpus(&self) -> Option<Box<dyn CorpusState>> {
        Some(Box::new(WerCorpus::default()))
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// WER's corpus state: the summed counts.
#[derive(Debug, Clone, Default)]
struct WerCorpus {
    counts: WerCounts,
    segments: u64,
}

impl CorpusState for WerCorpus {
    fn add(&mut self, stats: &[f64]) {
        self.counts.add(&WerCounts::from_stats(stats));
        self.segments += 1;
    }

    fn merge(&mut self, other: &dyn CorpusState) -> Result<(), MetricError> {
        let o = same_state::<Self>(other)?;
        self.counts.add(&o.counts);
        self.segments += o.segments;
        Ok(())
    }

    fn segments(&self) -> u64 {
        self.segments
    }

    fn score(&self) -> Option<f64> {
        (self.segments > 0).then(|| self.counts.wer())
    }

    /// jiwer's `WordOutput` fields besides `wer`.
    fn details(&self) -> Vec<(&'static str, Detail)> {
        let s = self.counts.scores();
        vec![
            ("mer", Detail::Float(s.mer)),
            ("wil", Detail::Float(s.wil)),
            ("wip", Detail::Float(s.wip)),
            ("hits", Detail::Int(self.counts.hits)),
            ("substitutions", Detail::Int(self.counts.substitutions)),
            ("deletions", Detail::Int(self.counts.deletions)),
            ("insertions", Detail::Int(self.counts.insertions)),
        ]
    }
}
