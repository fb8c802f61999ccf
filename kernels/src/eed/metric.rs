//! EED as a [`Metric`]: its row of the metric table, its SQL functions and
//! its corpus score, the mean of the sentence scores (`EED.py`'s
//! `sum(scores) / len(scores)`), kept as the sums `[Σ score, Σ 1]` ([`Mean`]).

use std::sync::Arc;

use super::EedConfig;
use crate::metric::sql::{SqlDoc, SqlFunctions};
use crate::metric::{Direction, FromStats, Mean, Metric, MetricInfo};
use crate::{MetricError, NRefs, Signature};

/// EED's row of the metric table.
pub static INFO: MetricInfo = MetricInfo {
    name: "eed",
    display: "EED",
    aliases: &["extended_edit_distance"],
    column: Some("eed"),
    functions: &["eed", "corpus_eed"],
    reference: "rwth-i6 ExtendedEditDistance (EED.py, f944adc)",
    options: &[super::OPTIONS],
    direction: Direction::Lower,
    configure: |o| Ok(Arc::new(EedConfig::parse(o)?)),
    sql: Some(&SQL),
    ..MetricInfo::TEXT
};

/// EED's SQL functions: `eed` and `corpus_eed`.
static SQL: SqlFunctions = SqlFunctions {
    sentence: Some(SqlDoc {
        description: "Sentence EED (extended edit distance, Stanchev et al. 2019) in [0, 1], exactly as \
                      rwth-i6's EED.py scores a line: both sides preprocessed (`prep:en`), a character edit \
                      distance with long jumps at the reference's blanks and a coverage penalty, from its C++ \
                      library (`compat:python`: its `eed_python`, which torchmetrics ports). Lower is better. \
                      With a list of references, the lowest score. NULL in gives NULL out.",
        example: "SELECT eed('the cat sat', 'the cat sat down');",
        related: &["corpus_eed", "charac_ter", "mteval_signature"],
    }),
    corpus: Some((
        SqlDoc {
            description: "Corpus EED as EED.py's system score: the mean of the sentence scores, summed in row \
                          order, as a mergeable aggregate. Rows with a NULL hypothesis or no reference are \
                          skipped; a group with no scored row gives NULL.",
            example: "SELECT system, corpus_eed(hyp, ref) FROM t GROUP BY system;",
            related: &["eed", "corpus_chrf"],
        },
        &[],
    )),
    ..SqlFunctions::NONE
};

impl Metric for EedConfig {
    fn info(&self) -> &'static MetricInfo {
        &INFO
    }

    fn signature(&self, nrefs: NRefs) -> Signature {
        EedConfig::signature(self, nrefs)
    }

    /// EED's scores are fractions.
    fn decimals(&self) -> usize {
        4
    }

    /// The signature, plus the length limit where one was set.
    fn sql_options(&self) -> String {
        let sig = self.signature(NRefs::Var).to_string();
        match self.max_chars {
            Some(usize::MAX) => format!("{sig}|max_chars:none"),
            Some(n) => format!("{sig}|max_chars:{n}"),
            None => sig,
        }
    }

    fn segment(&self, hyp: &str, refs: &[&str]) -> Result<Option<Vec<f64>>, MetricError> {
        Ok(self.sentence_multi(hyp, refs)?.map(|s| vec![s, 1.0]))
    }

    fn stats(&self) -> Option<&dyn FromStats> {
        Some(&Mean)
    }
}
