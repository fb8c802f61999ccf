//! `CharacTER` as a [`Metric`]: its row of the metric table and its corpus
//! state (the sentence scores: the corpus value is their mean, as the
//! original CLI prints it, and `cer`'s summary needs the median).

use std::sync::Arc;

use super::{CharacTerConfig, CorpusSummary};
use crate::metric::sql::{SqlDoc, SqlFunctions};
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
    sql: Some(&SQL),
    ..MetricInfo::TEXT
};

/// `CharacTER`'s standard SQL function, `charac_ter` (its corpus function,
/// `corpus_charac_ter`, is cer's summary of the sentence scores: the udfs
/// crate's `charac_ter` folder).
static SQL: SqlFunctions = SqlFunctions {
    sentence: Some(SqlDoc {
        description: "Sentence CharacTER in [0, 1] (cer 1.2.0's scale): character edit distance after word \
                      shifts, over the hypothesis length. With a list of references, the lowest score. \
                      (`character` is an SQL keyword, hence the underscore.) NULL in gives NULL out. Not \
                      jiwer's character error rate (CER): did you mean char_error_rate?",
        example: "SELECT charac_ter('the cat sat', 'the cat sat down');",
        related: &["corpus_charac_ter", "edit_distance", "word_edit_distance", "mteval_signature"],
    }),
    ..SqlFunctions::NONE
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

    fn to_state(&self) -> (Vec<f64>, u64) {
        (self.0.clone(), self.0.len() as u64)
    }

    fn add_state(&mut self, values: &[f64], _segments: u64) {
        self.0.extend_from_slice(values);
    }
}
