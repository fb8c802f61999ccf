//! TER as a [`Metric`]: its row of the metric table, its corpus state and
//! its scores in the arithmetic of sacrebleu's significance code.

use std::sync::Arc;

use super::{Ter, TerAlgo, TerSegment, TerStats};
use crate::metric::sql::{Num, Segment, SqlDoc, SqlFunctions, StatField, StatValue};
use crate::metric::{Align, Alignment, Detail, Direction, FlagSets, Metric, MetricInfo, Sacrebleu, SacrebleuFlag};
use crate::metric::{FromStats, count};
use crate::py::Py;
use crate::{MetricError, NRefs, Signature};

/// TER on sacrebleu's command line: `-m ter` and its flags.
pub static SACREBLEU: Sacrebleu = Sacrebleu {
    name: "ter",
    flags: &[
        SacrebleuFlag {
            long: "ter-case-sensitive",
            short: None,
            sets: FlagSets::Switch("case:mixed"),
            help: "TER: case-sensitive (ter's `case:mixed`)",
        },
        SacrebleuFlag {
            long: "ter-asian-support",
            short: None,
            sets: FlagSets::Switch("asian:yes"),
            help: "TER: Asian support (ter's `asian:yes`)",
        },
        SacrebleuFlag {
            long: "ter-no-punct",
            short: None,
            sets: FlagSets::Switch("punct:no"),
            help: "TER: remove punctuation (ter's `punct:no`)",
        },
        SacrebleuFlag {
            long: "ter-normalized",
            short: None,
            sets: FlagSets::Switch("norm:yes"),
            help: "TER: normalize (ter's `norm:yes`)",
        },
    ],
};

/// TER's row of the metric table.
pub static INFO: MetricInfo = MetricInfo {
    name: "ter",
    display: "TER",
    column: Some("ter"),
    functions: &["ter", "ter_stats", "ter_alignment", "corpus_ter"],
    reference: "sacrebleu 2.6.0 TER",
    options: &[super::OPTIONS],
    direction: Direction::Lower,
    sacrebleu: Some(&SACREBLEU),
    configure: |o| Ok(Arc::new(Ter::from_options(o)?)),
    sql: Some(&SQL),
    ..MetricInfo::TEXT
};

/// TER's SQL functions: `ter`, `ter_stats` and `corpus_ter`, on the
/// session's device.
static SQL: SqlFunctions = SqlFunctions {
    sentence: Some(SqlDoc {
        description: "Sentence TER exactly as sacrebleu 2.6.0's `TER().sentence_score`: 100 × edits (with shifts) / \
                      average reference length, so it can exceed 100. With a list of references, the edits against \
                      the best one. NULL in gives NULL out.",
        example: "SELECT ter('the cat sat', 'the cat sat down', 'norm:yes');",
        related: &["ter_stats", "ter_alignment", "ter_tokenize", "corpus_ter", "mteval_signature"],
    }),
    stats: Some((
        SqlDoc {
            description: "Sentence TER with its statistics: the score, the edits, the shifts among them and the \
                          average reference length (`ref_len`), what `corpus_ter` sums.",
            example: "SELECT ter_stats(hyp, ref).num_edits FROM t;",
            related: &["ter", "corpus_ter", "ter_alignment"],
        },
        &[
            StatField { name: "score", value: StatValue::Score },
            StatField { name: "num_edits", value: StatValue::Stat(0, Num::Int) },
            StatField { name: "num_shifts", value: StatValue::Fact(0, Num::Int) },
            StatField { name: "ref_len", value: StatValue::Stat(1, Num::Float) },
        ],
    )),
    corpus: Some((
        SqlDoc {
            description: "Corpus TER exactly as sacrebleu 2.6.0's `TER().corpus_score`: Σ edits / Σ average \
                          reference length, as a mergeable aggregate (GROUP BY, any partitioning). Rows with a NULL \
                          hypothesis or no reference are skipped; a group with no scored row gives NULL.",
            example: "SELECT system, corpus_ter(hyp, ref) FROM t GROUP BY system;",
            related: &["ter", "ter_stats", "corpus_chrf"],
        },
        &[],
    )),
    on_device: true,
    sentence_configure: None,
};

/// A segment's statistics `[edits, average reference length]` and its
/// facts `[shifts]`.
fn ter_segment(s: &TerSegment) -> Segment {
    Segment { stats: vec![f64::from(s.num_edits), s.ref_len], facts: vec![f64::from(s.num_shifts)] }
}

impl Align for Ter {
    fn words(&self, text: &str) -> Vec<String> {
        self.tokenize(text)
    }

    fn tokenized(&self, text: &str) -> String {
        self.config.tokenizer.call(text)
    }

    fn alignment(&self, hyp: &str, refs: &[&str]) -> Result<Option<Alignment>, MetricError> {
        Ter::alignment(self, hyp, refs)
    }
}

impl Metric for Ter {
    fn info(&self) -> &'static MetricInfo {
        &INFO
    }

    fn align(&self) -> Option<&dyn Align> {
        Some(self)
    }

    fn signature(&self, nrefs: NRefs) -> Signature {
        self.config.signature(nrefs)
    }

    fn max_words(&self) -> Option<usize> {
        self.config.max_words
    }

    fn segment(&self, hyp: &str, refs: &[&str]) -> Result<Option<Vec<f64>>, MetricError> {
        Ok(Ter::segment(self, hyp, refs)?.map(|s| ter_segment(&s).stats))
    }

    fn segments_on(
        &self,
        backend: &dyn crate::backend::Backend,
        rows: &[(&str, Vec<&str>)],
    ) -> Vec<Result<Option<Vec<f64>>, MetricError>> {
        Ter::segments_on(self, backend, rows).into_iter().map(|s| Ok(s?.map(|s| ter_segment(&s).stats))).collect()
    }

    fn segment_facts(&self, hyp: &str, refs: &[&str]) -> Result<Option<Segment>, MetricError> {
        Ok(Ter::segment(self, hyp, refs)?.map(|s| ter_segment(&s)))
    }

    fn segment_facts_on(
        &self,
        backend: &dyn crate::backend::Backend,
        rows: &[(&str, Vec<&str>)],
    ) -> Vec<Result<Option<Segment>, MetricError>> {
        Ter::segments_on(self, backend, rows).into_iter().map(|s| Ok(s?.map(|s| ter_segment(&s)))).collect()
    }

    fn stats(&self) -> Option<&dyn FromStats> {
        Some(self)
    }
}

/// TER from its summed statistics: `[Σ edits, Σ average reference lengths]`.
impl FromStats for Ter {
    fn width(&self) -> usize {
        2
    }

    fn score(&self, sums: &[f64]) -> f64 {
        Ter::score(self, &TerStats { num_edits: count(sums[0]), ref_len: sums[1], ..TerStats::default() })
    }

    /// sacrebleu's `TERScore` fields.
    fn details(&self, sums: &[f64]) -> Vec<(&'static str, Detail)> {
        vec![("num_edits", Detail::Int(count(sums[0]))), ("ref_length", Detail::Float(sums[1]))]
    }

    fn score_f32(&self, sums: &[f32]) -> Py {
        let (edits, ref_len) = (Py::F32(sums[0]), Py::F32(sums[1]));
        let frac = if ref_len.value() > 0.0 {
            edits / ref_len
        } else if edits.value() > 0.0 {
            Py::Float(1.0)
        } else {
            Py::Float(0.0)
        };
        match self.config.algo {
            TerAlgo::Sacrebleu => Py::Float(100.0) * frac,
            TerAlgo::Seed => frac,
        }
    }
}
