//! The metric interface and the metric table.
//!
//! A metric is one module: its configuration implements [`Metric`] (name,
//! options, per-segment statistics, the corpus score from their sums in the
//! reference tool's arithmetic, the resampling score of sacrebleu's
//! significance code, the sentence score, the direction, the signature) and
//! its [`MetricInfo`] row names it. The list of those rows is
//! [`crate::metrics::METRICS`], above every metric: the CLI (`-m`,
//! `--options METRIC=...`), `compare`, `report`, the significance tests, the
//! SQL functions, `mteval_signature('...')`, Python and the SQL guide's
//! metric table read it, so a metric works everywhere or nowhere, and
//! nothing outside its module matches on it.
//!
//! The shape is sacrebleu's `Metric` (`metrics/base.py`): per-segment
//! statistics (`_extract_corpus_statistics`) whose column sums give the
//! corpus score (`_compute_score_from_stats`), which is all its significance
//! code calls. Here a segment's statistics are a flat row of `f64`s
//! ([`Metric::segment`]); a metric whose corpus value is not a function of
//! summed statistics (`CharacTER`'s mean of sentence scores) keeps what it
//! needs in its [`CorpusState`].
//!
//! Adding a metric: see CONTRIBUTING.md ("Adding a metric").

pub mod mbr;
pub mod segment_score;
pub mod sql;
pub mod stats;

use std::any::Any;
use std::fmt;
use std::sync::Arc;

use rayon::prelude::*;

use crate::backend::Backend;
use crate::metric::sql::{Segment, SqlFunctions};
pub use crate::metric::stats::{FromStats, Mean, Summable, Summed};
use crate::options::OptionKey;
use crate::{MetricError, NRefs, Signature};

/// Whether a higher or a lower score is better.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    /// Higher is better (BLEU, chrF, accuracies).
    Higher,
    /// Lower is better (error rates: TER, `CharacTER`).
    Lower,
}

/// What a metric reads per row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Inputs {
    /// A hypothesis and one or more references.
    Text,
    /// A hypothesis and its term list (`lemmatized`: also a lemma string).
    Terms {
        /// Whether a lemma column is read too.
        lemmatized: bool,
    },
    /// A number per segment computed elsewhere ([`segment_score`]).
    Score,
}

/// A metric as sacrebleu's command line knows it: its `-m` name and its
/// flags (`mteval compare` takes the same flags).
#[derive(Debug)]
pub struct Sacrebleu {
    /// sacrebleu's `-m` name (metrics sharing it share its flags: chrF and
    /// chrF++ are both `chrf`).
    pub name: &'static str,
    /// The flags, as data: `compare` builds its arguments from them.
    pub flags: &'static [SacrebleuFlag],
}

/// One of sacrebleu's command-line flags and the mteval option it sets.
#[derive(Debug)]
pub struct SacrebleuFlag {
    /// The long flag without its dashes (`tokenize`, `chrf-word-order`).
    pub long: &'static str,
    /// sacrebleu's multi-letter short form with its dash (`-tok`), if any.
    pub short: Option<&'static str>,
    /// What it sets.
    pub sets: FlagSets,
    /// Its help line.
    pub help: &'static str,
}

/// What a sacrebleu flag sets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FlagSets {
    /// The option `key` with the flag's value (`--tokenize intl` → `tok:intl`).
    Value(&'static str),
    /// This `key:value` when the flag is given (`--lowercase` → `case:lc`).
    Switch(&'static str),
}

impl SacrebleuFlag {
    /// The option the flag sets given `value` (ignored by a switch).
    #[must_use]
    pub fn option(&self, value: &str) -> String {
        match self.sets {
            FlagSets::Value(key) => format!("{key}:{value}"),
            FlagSets::Switch(kv) => kv.to_owned(),
        }
    }
}

/// Parses a metric's options (signature syntax, `key:value|...`).
pub type Configure = fn(&str) -> Result<Arc<dyn Metric>, MetricError>;

/// One row of the metric table: what names a metric and how to configure it.
pub struct MetricInfo {
    /// The canonical name (lower case), accepted everywhere.
    pub name: &'static str,
    /// The display name of its default configuration, as the reference tool
    /// prints it (`BLEU`, `chrF2`); options can change it ([`Metric::display`]).
    pub display: &'static str,
    /// Other accepted spellings (matched ignoring case).
    pub aliases: &'static [&'static str],
    /// The score column `mteval score` writes; `None`: a column of its own
    /// (a segment score read from its number column).
    pub column: Option<&'static str>,
    /// SQL functions computing it (sentence level first).
    pub functions: &'static [&'static str],
    /// The reference implementation it reproduces.
    pub reference: &'static str,
    /// Its option keys, in groups (the SQL guide's option tables).
    pub options: &'static [&'static [OptionKey]],
    /// Higher or lower is better.
    pub direction: Direction,
    /// What it reads per row.
    pub inputs: Inputs,
    /// The metric as sacrebleu's command line names it (its `-m` name) and
    /// the flags that configure it; `None` for metrics sacrebleu lacks.
    pub sacrebleu: Option<&'static Sacrebleu>,
    /// Parses options (signature syntax, `key:value|...`).
    pub configure: Configure,
    /// The SQL functions derived from the row ([`sql`]); `None`: none
    /// (a preset of another row's functions, or functions of its own).
    pub sql: Option<&'static SqlFunctions>,
}

/// A row of a static table (`MetricInfo`, `UtilityInfo`): shown by its
/// name, equal only to itself (rows are `static`s, compared by address).
macro_rules! table_row {
    ($row:ty) => {
        impl std::fmt::Debug for $row {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.debug_struct(stringify!($row)).field("name", &self.name).finish_non_exhaustive()
            }
        }

        impl PartialEq for $row {
            fn eq(&self, other: &Self) -> bool {
                std::ptr::eq(self, other)
            }
        }

        impl Eq for $row {}
    };
}
pub(crate) use table_row;

table_row!(MetricInfo);

impl MetricInfo {
    /// What most rows share, for struct update syntax (`..MetricInfo::TEXT`):
    /// no aliases, a text metric, higher is better, no sacrebleu flags. A
    /// row gives its own name, display name, column, functions, reference, options and
    /// `configure` (this one's refuses: every row of [`METRICS`] is
    /// configured by the tests).
    pub const TEXT: Self = Self {
        name: "",
        display: "",
        aliases: &[],
        column: None,
        functions: &[],
        reference: "",
        options: &[],
        direction: Direction::Higher,
        inputs: Inputs::Text,
        sacrebleu: None,
        configure: |_| Err(MetricError::InvalidOption { metric: "metric", reason: "a row without `configure`".into() }),
        sql: None,
    };

    /// Parses `options` (signature syntax, `key:value|...`) for this metric.
    ///
    /// # Errors
    /// Unknown keys and bad values, naming them.
    pub fn configure(&self, options: &str) -> Result<Arc<dyn Metric>, MetricError> {
        (self.configure)(options)
    }

    /// The score column `mteval score` writes, else the name.
    #[must_use]
    pub fn column_or_name(&self) -> &'static str {
        self.column.unwrap_or(self.name)
    }
}

/// A named value of a corpus score's details, as the reference tool's score
/// object holds it (sacrebleu's `BLEUScore.counts`, `TERScore.num_edits`...).
#[derive(Debug, Clone, PartialEq)]
pub enum Detail {
    /// A float.
    Float(f64),
    /// A count.
    Int(u64),
    /// Floats, one per order.
    Floats(Vec<f64>),
    /// Counts, one per order.
    Ints(Vec<u64>),
}

/// Per-hypothesis-word and per-reference-word alignment labels of the final
/// (shifted) hypothesis, tercom style: `=` kept, `S` substituted, `I`
/// inserted (hypothesis word with no reference word), `D` deleted (reference
/// word missing from the hypothesis); `>` marks a hypothesis word that was
/// moved by a shift.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Alignment {
    /// Space-separated labels in the order of the shifted hypothesis aligned to the reference.
    pub ops: String,
    /// The shifted hypothesis words, space-separated.
    pub shifted_hyp: String,
    /// The words of the reference aligned to (the one with the fewest
    /// edits, the first of equals), space-separated.
    pub reference: String,
}

/// A metric's word alignment, an optional face ([`Metric::align`]): the
/// words it scores a text on and its edit alignment of a hypothesis against
/// references (TER's; the report's segment browser, Python's `tokenize`).
pub trait Align {
    /// The words `text` is scored on.
    fn words(&self, text: &str) -> Vec<String>;

    /// `text` as the metric's tokenizer alone prints it (sacrebleu's
    /// `TercomTokenizer(text)`, without the segment's preprocessing).
    fn tokenized(&self, text: &str) -> String;

    /// The alignment of `hyp` against the reference it scores best with;
    /// `None` without a reference.
    ///
    /// # Errors
    /// Input over the metric's limits.
    fn alignment(&self, hyp: &str, refs: &[&str]) -> Result<Option<Alignment>, MetricError>;
}

/// A metric with its options parsed.
pub trait Metric: fmt::Debug + Send + Sync {
    /// Its row of the metric table.
    fn info(&self) -> &'static MetricInfo;

    /// Display name, as the reference tool prints it (`TER`, `chrF2`,
    /// `chrF2++`); by default the row's [`MetricInfo::display`].
    fn display(&self) -> String {
        self.info().display.to_owned()
    }

    /// The reproducibility signature for `nrefs` references.
    fn signature(&self, nrefs: NRefs) -> Signature;

    /// Which way is better; by default the row's [`MetricInfo::direction`].
    fn direction(&self) -> Direction {
        self.info().direction
    }

    /// The length limit the options set, which the signature leaves out (it
    /// can refuse a row, never change a score); `None` without one.
    fn max_words(&self) -> Option<usize> {
        None
    }

    /// Decimal places `compare` prints by default: sacrebleu's 1, or more
    /// for scores that are fractions (the WER family).
    fn decimals(&self) -> usize {
        1
    }

    /// The options that configure the metric's SQL functions exactly as
    /// this: the signature (which pastes back as options), plus `max_words`.
    fn sql_options(&self) -> String {
        let sig = self.signature(NRefs::Var).to_string();
        match self.max_words() {
            Some(usize::MAX) => format!("{sig}|max_words:none"),
            Some(n) => format!("{sig}|max_words:{n}"),
            None => sig,
        }
    }

    /// Statistics per segment (the width of [`Self::segment`]'s rows); by
    /// default its score from statistics' ([`Self::stats`]), which a metric
    /// without one gives itself.
    fn width(&self) -> usize {
        self.stats().map_or(0, FromStats::width)
    }

    /// One segment's statistics, the values the corpus score sums; `None`
    /// with no reference. Every text metric gives it; the rows that read
    /// something else ([`Inputs`]: term lists, a number column) refuse by
    /// default.
    ///
    /// # Errors
    /// A segment the metric refuses (over a length limit), or a metric that
    /// does not read text ([`not_text`]).
    fn segment(&self, hyp: &str, refs: &[&str]) -> Result<Option<Vec<f64>>, MetricError> {
        let _ = (hyp, refs);
        Err(not_text(self.info()))
    }

    /// [`Self::segment`] of every row, on `backend` where the metric has a
    /// batched path (a GPU), else on all cores; the same results either way.
    fn segments_on(
        &self,
        backend: &dyn Backend,
        rows: &[(&str, Vec<&str>)],
    ) -> Vec<Result<Option<Vec<f64>>, MetricError>> {
        let _ = backend;
        rows.par_iter().map(|(h, r)| self.segment(h, r)).collect()
    }

    /// [`Self::segment`] with the facts the metric reports beside its
    /// statistics ([`Segment`]: TER's shifts, chrF's chosen reference);
    /// by default none.
    ///
    /// # Errors
    /// As [`Self::segment`].
    fn segment_facts(&self, hyp: &str, refs: &[&str]) -> Result<Option<Segment>, MetricError> {
        Ok(self.segment(hyp, refs)?.map(Segment::from))
    }

    /// [`Self::segment_facts`] of every row on `backend`, as
    /// [`Self::segments_on`].
    fn segment_facts_on(
        &self,
        backend: &dyn Backend,
        rows: &[(&str, Vec<&str>)],
    ) -> Vec<Result<Option<Segment>, MetricError>> {
        self.segments_on(backend, rows).into_iter().map(|r| r.map(|s| s.map(Segment::from))).collect()
    }

    /// The sentence score of one segment's statistics, as the reference
    /// tool's sentence-level function gives it; `None` where it has none (a
    /// term list without terms). By default its score from statistics
    /// ([`FromStats::score`]) on the one row: a metric scored from summed
    /// statistics writes that formula once. Overridden where the sentence
    /// function differs (BLEU's effective order) or the metric has no score
    /// from summed statistics.
    fn sentence_score(&self, stats: &[f64]) -> Option<f64> {
        self.stats().map(|s| s.score(stats))
    }

    /// An empty corpus state: by default its statistics summed
    /// ([`Summed`], through [`Self::stats`]). Overridden where the corpus value is not a function
    /// of summed rows (`CharacTER`'s mean of sentence scores, terminology's
    /// kept predictions).
    fn corpus(&self) -> Option<Box<dyn CorpusState>> {
        self.stats().map(Summable::summed)
    }

    /// Its score from summed statistics, written once ([`FromStats`]): the
    /// width, sentence score and corpus state come from it by default, and
    /// sacrebleu's significance tests resample through it (the metrics
    /// without one are not resampled).
    fn stats(&self) -> Option<&dyn FromStats> {
        None
    }

    /// The reference tool's verbose corpus line (`--verbose`/`-v`) from
    /// summed statistics, where it prints one (BLEU's precisions and
    /// brevity penalty).
    fn verbose(&self, sums: &[f64]) -> Option<String> {
        let _ = sums;
        None
    }

    /// Its word alignment, when it has one (TER).
    fn align(&self) -> Option<&dyn Align> {
        None
    }

    /// For a segment score computed elsewhere: the number column it is read
    /// from.
    fn score_column(&self) -> Option<&str> {
        None
    }
}

/// A state as [`Any`] (for [`CorpusState::merge`], which needs its own
/// type back) and a boxed copy: every [`CorpusState`] that is `Clone` has
/// both.
pub trait StateBase: Any {
    /// The state as [`Any`].
    fn as_any(&self) -> &dyn Any;
    /// A copy.
    fn boxed_clone(&self) -> Box<dyn CorpusState>;
}

impl<T: CorpusState + Clone> StateBase for T {
    fn as_any(&self) -> &dyn Any {
        self
    }

    fn boxed_clone(&self) -> Box<dyn CorpusState> {
        Box::new(self.clone())
    }
}

/// The corpus state of a metric: sentence statistics summed (or, for a
/// metric whose corpus value is not a sum, what it needs), so states merge
/// in any grouping.
pub trait CorpusState: fmt::Debug + Send + Sync + StateBase {
    /// Adds one segment's statistics ([`Metric::segment`]'s row).
    fn add(&mut self, stats: &[f64]);

    /// Adds `other`'s statistics (of the same metric).
    ///
    /// # Errors
    /// Statistics of another metric.
    fn merge(&mut self, other: &dyn CorpusState) -> Result<(), MetricError>;

    /// Segments counted (for terminology: the predictions kept).
    fn segments(&self) -> u64;

    /// The corpus score; `None` when no segment was scored.
    fn score(&self) -> Option<f64>;

    /// A corpus-level check of the reference tool (the lemmatized term
    /// accuracy's sentence count).
    ///
    /// # Errors
    /// What the reference tool refuses.
    fn check(&self) -> Result<(), MetricError> {
        Ok(())
    }

    /// The fields of the reference tool's score object besides the score
    /// (sacrebleu's `BLEUScore.counts`, `TERScore.num_edits`...).
    fn details(&self) -> Vec<(&'static str, Detail)> {
        Vec::new()
    }

    /// The state as numbers, in a layout of the state's own (the sums; a
    /// list of sentence scores), and the rows added: what an engine moves
    /// between partitions; [`Self::add_state`] merges it back.
    fn to_state(&self) -> (Vec<f64>, u64);

    /// Merges a state that [`Self::to_state`] of the same metric gave.
    fn add_state(&mut self, values: &[f64], segments: u64);
}

impl Clone for Box<dyn CorpusState> {
    fn clone(&self) -> Self {
        self.boxed_clone()
    }
}

/// `other` as the state type `T` of the metric merging it.
///
/// # Errors
/// A state of another metric.
pub fn same_state<T: 'static>(other: &dyn CorpusState) -> Result<&T, MetricError> {
    other.as_any().downcast_ref::<T>().ok_or_else(|| MetricError::InvalidInput {
        metric: "corpus statistics",
        reason: "statistics of different metrics cannot be merged".into(),
    })
}

/// The error of a metric asked for what it does not read.
#[must_use]
pub fn not_text(info: &MetricInfo) -> MetricError {
    let what = match info.inputs {
        Inputs::Text => "text",
        Inputs::Terms { .. } => "a hypothesis with its term list",
        Inputs::Score => "a number column",
    };
    MetricError::InvalidInput { metric: "metric", reason: format!("{} scores {what}, not references", info.name) }
}

/// Exact conversion of a count held in an `f64`.
#[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss, reason = "statistics are counts below 2^53")]
#[must_use]
pub fn count(x: f64) -> u64 {
    x as u64
}

/// Summed counts held in `f64`s, as integers.
#[must_use]
pub fn counts(sums: &[f64]) -> Vec<u64> {
    sums.iter().map(|&x| count(x)).collect()
}

/// Counts as the `f64` statistics of [`Metric::segment`].
#[allow(clippy::cast_precision_loss, reason = "statistics are counts far below 2^53")]
#[must_use]
pub fn as_f64(counts: &[u64]) -> Vec<f64> {
    counts.iter().map(|&x| x as f64).collect()
}
