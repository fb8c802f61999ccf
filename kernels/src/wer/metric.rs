//! The WER family as [`Metric`]s: one row of the metric table per measure
//! (`wer`, `mer`, `wil`, `wip`, and `char_error_rate`, which is `wer` with
//! `unit:char`: jiwer's `cer`), one corpus state (the counts summed, as jiwer
//! sums them over a list of sentences), and the measures of `float32` sums for
//! the paired bootstrap.

use std::sync::Arc;

use super::{Unit, WerConfig, WerCounts, WerScores};
use crate::metric::sql::{CorpusField, Num, SqlDoc, SqlFunctions, StatField, StatValue};
use crate::metric::{Detail, Direction, FromStats, Metric, MetricInfo};
use crate::py::Py;
use crate::{MetricError, NRefs, Signature};

/// Which of jiwer's measures a row scores with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Measure {
    /// Word (or character) error rate: `(S+D+I)/N`.
    Wer,
    /// Match error rate: `(S+D+I)/(N+I)`.
    Mer,
    /// Word information lost: `1 − wip`.
    Wil,
    /// Word information preserved: `(H/N)·(H/P)`.
    Wip,
}

impl Measure {
    /// This measure among the four.
    #[must_use]
    pub const fn of(self, s: &WerScores) -> f64 {
        match self {
            Self::Wer => s.wer,
            Self::Mer => s.mer,
            Self::Wil => s.wil,
            Self::Wip => s.wip,
        }
    }
}

macro_rules! row {
    ($static:ident, $name:literal, $display:literal, $aliases:expr, $column:literal, $functions:expr, $reference:literal, $dir:expr, $measure:expr, $base:expr, $sql:expr) => {
        #[doc = concat!("The `", $name, "` row of the metric table (", $reference, ").")]
        pub static $static: MetricInfo = MetricInfo {
            name: $name,
            display: $display,
            aliases: $aliases,
            column: Some($column),
            functions: $functions,
            reference: $reference,
            options: &[super::OPTIONS],
            direction: $dir,
            configure: |o| {
                Ok(Arc::new(Wer { cfg: WerConfig::parse_with($base, o)?, measure: $measure, info: &$static }))
            },
            sql: $sql,
            ..MetricInfo::TEXT
        };
    };
}

/// Related functions named in each function's documentation.
const RELATED: &[&str] = &["wer", "mer", "wil", "wip", "wer_stats", "corpus_wer", "wer_alignment"];

/// A sentence measure's SQL documentation.
macro_rules! measure_doc {
    ($name:literal, $what:literal, $example:literal) => {
        SqlDoc {
            description: concat!(
                $what,
                " of one sentence, exactly as jiwer 4.0.0's `",
                $name,
                "(reference, hypothesis)` (note the argument order: hypothesis first, as every mteval function). \
                 Options `unit:word|char`, `transform:default|standardize`. With a list of references, the \
                 reference with the fewest errors (the first on ties). NULL in gives NULL out."
            ),
            example: $example,
            related: RELATED,
        }
    };
}

/// The counts, in jiwer's names, as `int64`: `wer_stats` and `corpus_wer`.
const COUNTS: [StatField; 4] = [
    StatField { name: "hits", value: StatValue::Stat(0, Num::Int) },
    StatField { name: "substitutions", value: StatValue::Stat(1, Num::Int) },
    StatField { name: "deletions", value: StatValue::Stat(2, Num::Int) },
    StatField { name: "insertions", value: StatValue::Stat(3, Num::Int) },
];

/// WER's SQL functions: `wer`, `wer_stats` and `corpus_wer` (with the four
/// measures); the other measures have their sentence function.
static WER_SQL: SqlFunctions = SqlFunctions {
    sentence: Some(measure_doc!(
        "wer",
        "Word error rate (S+D+I)/N, or the character error rate with `unit:char`,",
        "SELECT wer('the cat sat', 'the cat sat down'), wer(hyp, ref, 'unit:char') AS cer FROM t;"
    )),
    stats: Some((
        SqlDoc {
            description: "The hits, substitutions, deletions and insertions of one sentence, exactly as jiwer \
                          4.0.0's `process_words` (or `process_characters` with `unit:char`) counts them from \
                          rapidfuzz's alignment; what `corpus_wer` sums. With a list of references, the counts \
                          against the one with the fewest errors (the first on ties).",
            example: "SELECT wer_stats(hyp, ref).substitutions FROM t;",
            related: RELATED,
        },
        &COUNTS,
    )),
    corpus: Some((
        SqlDoc {
            description: "jiwer 4.0.0's `process_words` over the rows of a group (`process_characters` with \
                          `unit:char`): the hits, substitutions, deletions and insertions summed, and WER, MER, WIL \
                          and WIP of the sums, as jiwer computes them for a list of sentences. A mergeable aggregate \
                          (GROUP BY, any partitioning). Rows with a NULL hypothesis or no reference are skipped; a \
                          group with no scored row gives NULL.",
            example: "SELECT system, corpus_wer(hyp, ref).wer, corpus_wer(hyp, ref, 'unit:char').wer AS cer FROM t \
                      GROUP BY system;",
            related: RELATED,
        },
        &[
            CorpusField { name: "wer", num: Num::Float },
            CorpusField { name: "mer", num: Num::Float },
            CorpusField { name: "wil", num: Num::Float },
            CorpusField { name: "wip", num: Num::Float },
            CorpusField { name: "hits", num: Num::Int },
            CorpusField { name: "substitutions", num: Num::Int },
            CorpusField { name: "deletions", num: Num::Int },
            CorpusField { name: "insertions", num: Num::Int },
        ],
    )),
    ..SqlFunctions::NONE
};

/// MER's SQL function.
static MER_SQL: SqlFunctions = SqlFunctions {
    sentence: Some(measure_doc!("mer", "Match error rate (S+D+I)/(N+I)", "SELECT mer(hyp, ref) FROM t;")),
    ..SqlFunctions::NONE
};

/// WIL's SQL function.
static WIL_SQL: SqlFunctions = SqlFunctions {
    sentence: Some(measure_doc!(
        "wil",
        "Word information lost 1 − (H/N)·(H/P)",
        "SELECT wil(hyp, ref, 'transform:standardize') FROM t;"
    )),
    ..SqlFunctions::NONE
};

/// WIP's SQL function.
static WIP_SQL: SqlFunctions = SqlFunctions {
    sentence: Some(measure_doc!("wip", "Word information preserved (H/N)·(H/P)", "SELECT wip(hyp, ref) FROM t;")),
    ..SqlFunctions::NONE
};

const WORDS: WerConfig = WerConfig { unit: Unit::Word, transform: super::Transform::Default };
const CHARS: WerConfig = WerConfig { unit: Unit::Char, transform: super::Transform::Default };

row!(
    WER,
    "wer",
    "WER",
    &["word_error_rate"],
    "wer",
    &["wer", "wer_stats", "corpus_wer", "wer_alignment"],
    "jiwer 4.0.0 wer",
    Direction::Lower,
    Measure::Wer,
    WORDS,
    Some(&WER_SQL)
);
row!(
    MER,
    "mer",
    "MER",
    &["match_error_rate"],
    "mer",
    &["mer", "wer_stats", "corpus_wer"],
    "jiwer 4.0.0 mer",
    Direction::Lower,
    Measure::Mer,
    WORDS,
    Some(&MER_SQL)
);
row!(
    WIL,
    "wil",
    "WIL",
    &["word_information_lost"],
    "wil",
    &["wil", "wer_stats", "corpus_wer"],
    "jiwer 4.0.0 wil",
    Direction::Lower,
    Measure::Wil,
    WORDS,
    Some(&WIL_SQL)
);
row!(
    WIP,
    "wip",
    "WIP",
    &["word_information_preserved"],
    "wip",
    &["wip", "wer_stats", "corpus_wer"],
    "jiwer 4.0.0 wip",
    Direction::Higher,
    Measure::Wip,
    WORDS,
    Some(&WIP_SQL)
);
row!(
    CHAR_ERROR_RATE,
    "char_error_rate",
    "CER",
    &["jiwer_cer"],
    "char_error_rate",
    &["wer", "wer_stats", "corpus_wer", "wer_alignment"],
    "jiwer 4.0.0 cer (`wer` with `unit:char`)",
    Direction::Lower,
    Measure::Wer,
    CHARS,
    None
);

/// One measure of the WER family with its options.
#[derive(Debug, Clone, Copy)]
pub struct Wer {
    /// The options.
    pub cfg: WerConfig,
    /// What the score is.
    pub measure: Measure,
    info: &'static MetricInfo,
}

impl Metric for Wer {
    fn info(&self) -> &'static MetricInfo {
        self.info
    }

    /// `WER` or `CER` (the unit), `MER`, `WIL`, `WIP`.
    fn display(&self) -> String {
        match self.measure {
            Measure::Wer => self.cfg.name(),
            Measure::Mer => "MER",
            Measure::Wil => "WIL",
            Measure::Wip => "WIP",
        }
        .to_owned()
    }

    fn signature(&self, nrefs: NRefs) -> Signature {
        self.cfg.signature(nrefs)
    }

    /// jiwer's measures are fractions (0.1234), not percentages.
    fn decimals(&self) -> usize {
        4
    }

    fn segment(&self, hyp: &str, refs: &[&str]) -> Result<Option<Vec<f64>>, MetricError> {
        Ok(self.cfg.best(hyp, refs).map(|(_, c)| c.to_stats().to_vec()))
    }

    fn stats(&self) -> Option<&dyn FromStats> {
        Some(self)
    }
}

/// For the significance tests the family is a sacrebleu `Metric` whose
/// `_extract_corpus_statistics` gives `[H, S, D, I, N, P]` per segment and
/// whose `_compute_score_from_stats` is jiwer 4.0.0's arithmetic
/// (`process_words`' tail) on the summed row: exact on Python and `int64`
/// sums; on the bootstrap's `float32` sums, `S + D + I` and `H + S + D` are
/// added in `float32` and converted by `float()` before dividing, and
/// `float(H) / N` is a `float32` (numpy 2's rules for a Python float with a
/// `float32`).
impl FromStats for Wer {
    fn width(&self) -> usize {
        6
    }

    fn score(&self, sums: &[f64]) -> f64 {
        self.measure.of(&WerCounts::from_stats(sums).scores())
    }

    /// jiwer's `WordOutput` fields: the four measures and the four counts.
    fn details(&self, sums: &[f64]) -> Vec<(&'static str, Detail)> {
        let c = WerCounts::from_stats(sums);
        let s = c.scores();
        vec![
            ("wer", Detail::Float(s.wer)),
            ("mer", Detail::Float(s.mer)),
            ("wil", Detail::Float(s.wil)),
            ("wip", Detail::Float(s.wip)),
            ("hits", Detail::Int(c.hits)),
            ("substitutions", Detail::Int(c.substitutions)),
            ("deletions", Detail::Int(c.deletions)),
            ("insertions", Detail::Int(c.insertions)),
        ]
    }

    fn score_f32(&self, sums: &[f32]) -> Py {
        let [h, s, d, i, n, p] = [0, 1, 2, 3, 4, 5].map(|k| Py::F32(sums[k]));
        let float = |x: Py| Py::Float(x.value());
        let wip = || {
            if n.value() == 0.0 {
                Py::Float(if p.value() == 0.0 { 1.0 } else { 0.0 })
            } else if p.value() >= 1.0 {
                (float(h) / n) * (float(h) / p)
            } else {
                Py::Float(0.0)
            }
        };
        match self.measure {
            Measure::Wer if n.value() == 0.0 => i,
            Measure::Mer if n.value() == 0.0 => Py::Float(if p.value() == 0.0 { 0.0 } else { 1.0 }),
            Measure::Wer => float(s + d + i) / float(h + s + d),
            Measure::Mer => float(s + d + i) / float(h + s + d + i),
            Measure::Wip => wip(),
            Measure::Wil => Py::Float(1.0) - wip(),
        }
    }
}
