//! The SQL functions a text metric gets from its row of the metric table.
//!
//! A row's [`SqlFunctions`] says which of the three standard functions the
//! metric has and documents them; the udfs crate builds all three over the
//! [`Metric`](super::Metric) interface, so a metric needs no SQL code of its
//! own:
//!
//! - `NAME(hyp, ref [, options]) -> float64`: the sentence score
//!   ([`Metric::sentence_score`](super::Metric::sentence_score) of the
//!   segment's statistics);
//! - `NAME_stats(hyp, ref [, options]) -> struct{...}`: the sentence score
//!   with its statistics, the fields the row lists ([`StatField`]);
//! - `corpus_NAME(hyp, ref [, options])`: the corpus score of the rows as a
//!   mergeable aggregate (its [`CorpusState`](super::CorpusState)), a
//!   `float64` or a struct of the score's details ([`CorpusField`]).
//!
//! Every one takes the hypothesis, a reference or a list of references, and
//! the metric's options as a constant string checked when the query is
//! planned; NULL in gives NULL out, a row's error names the row, and a
//! corpus of no scored row gives NULL.

use super::Configure;

/// The standard SQL functions of a metric (see the module).
#[derive(Debug)]
pub struct SqlFunctions {
    /// `NAME(hyp, ref [, options]) -> float64`, the sentence score.
    pub sentence: Option<SqlDoc>,
    /// `NAME_stats(hyp, ref [, options])`: its documentation and fields.
    pub stats: Option<(SqlDoc, &'static [StatField])>,
    /// `corpus_NAME(hyp, ref [, options])`: its documentation and, for a
    /// struct result, its fields (none: the corpus score as `float64`).
    pub corpus: Option<(SqlDoc, &'static [CorpusField])>,
    /// Whether the functions run on the session's device (the metric has a
    /// batched path, [`Metric::segments_on`]); the others always run on
    /// the CPU's cores.
    pub on_device: bool,
    /// The configuration of the sentence-level functions (`NAME` and
    /// `NAME_stats`) where it differs from the row's `configure` (BLEU:
    /// sacrebleu's sentence BLEU turns effective order on).
    pub sentence_configure: Option<Configure>,
}

impl SqlFunctions {
    /// Nothing, for struct update syntax.
    pub const NONE: Self =
        Self { sentence: None, stats: None, corpus: None, on_device: false, sentence_configure: None };
}

/// One SQL function's documentation (the arguments are always `hyp`, `ref`
/// and `options`).
#[derive(Debug, Clone, Copy)]
pub struct SqlDoc {
    /// What it computes, in a few sentences (the first is the summary).
    pub description: &'static str,
    /// An SQL example.
    pub example: &'static str,
    /// Related functions.
    pub related: &'static [&'static str],
}

/// A field of a `NAME_stats` struct.
#[derive(Debug, Clone, Copy)]
pub struct StatField {
    /// The field's name.
    pub name: &'static str,
    /// What it holds.
    pub value: StatValue,
}

/// What a `NAME_stats` field holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StatValue {
    /// The sentence score, `float64`.
    Score,
    /// Statistic `k` of the segment's row ([`Metric::segment`]).
    Stat(usize, Num),
    /// Fact `k` of the segment ([`Segment::facts`]).
    Fact(usize, Num),
    /// The whole row, as `list<int64>` (counts).
    Stats,
    /// The position of the reference that fact `k` names in the list as
    /// given (NULL elements counted), `int64`.
    Reference(usize),
}

/// How a number is typed in SQL.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Num {
    /// `int64` (a count).
    Int,
    /// `float64`.
    Float,
}

/// A field of a `corpus_NAME` struct: the corpus state's detail of that
/// name ([`CorpusState::details`](super::CorpusState::details)).
#[derive(Debug, Clone, Copy)]
pub struct CorpusField {
    /// The field's (and the detail's) name.
    pub name: &'static str,
    /// Its type.
    pub num: Num,
}

/// One segment's statistics with the facts the metric reports beside them
/// (TER's shifts, chrF's chosen reference), which the corpus score does
/// not sum.
#[derive(Debug, Clone, PartialEq)]
pub struct Segment {
    /// The statistics row ([`Metric::segment`]).
    pub stats: Vec<f64>,
    /// The facts, as the metric's [`StatField`]s number them.
    pub facts: Vec<f64>,
}

impl From<Vec<f64>> for Segment {
    fn from(stats: Vec<f64>) -> Self {
        Self { stats, facts: Vec::new() }
    }
}

/// The SQL name of a row's statistics function.
#[must_use]
pub fn stats_name(name: &str) -> String {
    format!("{name}_stats")
}

/// The SQL name of a row's corpus function.
#[must_use]
pub fn corpus_name(name: &str) -> String {
    format!("corpus_{name}")
}
