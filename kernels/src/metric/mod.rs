//! The metric interface and the metric table.
//!
//! A metric is one module: its configuration implements [`Metric`] (name,
//! options, per-segment statistics, the corpus score from their sums in the
//! reference tool's arithmetic, the resampling score of sacrebleu's
//! significance code, the sentence score, the direction, the signature) and
//! its [`MetricInfo`] row names it. [`METRICS`] is the list of those rows:
//! the CLI (`-m`, `--options METRIC=...`), `compare`, `report`, the
//! significance tests, the corpus aggregates, `mteval_signature('...')`,
//! Python and the SQL guide's metric table read it, so a metric works
//! everywhere or nowhere, and nothing outside its module matches on it.
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

use std::any::Any;
use std::borrow::Cow;
use std::fmt::{self, Write as _};
use std::sync::Arc;

use rayon::prelude::*;

use crate::backend::Backend;
use crate::metric::mbr::Utility;
use crate::options::OptionKey;
use crate::significance::Resample;
use crate::sums::CountSums;
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
    /// The candidates of one source (MBR utilities: `mteval mbr` and the
    /// window functions); no per-row score, no corpus score.
    Candidates,
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

/// Every sacrebleu flag of the metric table once, in table order, with the
/// sacrebleu `-m` name it belongs to.
#[must_use]
pub fn sacrebleu_flags() -> Vec<(&'static str, &'static SacrebleuFlag)> {
    let mut out: Vec<(&'static str, &'static SacrebleuFlag)> = Vec::new();
    for s in METRICS.iter().filter_map(|m| m.sacrebleu) {
        for f in s.flags {
            if !out.iter().any(|(_, g)| g.long == f.long) {
                out.push((s.name, f));
            }
        }
    }
    out
}

/// The metrics `mteval compare` scores without `-m` (sacrebleu's default).
pub const COMPARE_DEFAULT: &[&str] = &["bleu"];

/// The metrics `mteval report` shows without `-m`.
pub const REPORT_DEFAULT: &[&str] = &["bleu", "chrf", "ter"];

/// One row of the metric table: what names a metric and how to configure it.
pub struct MetricInfo {
    /// The canonical name (lower case), accepted everywhere.
    pub name: &'static str,
    /// The display name of its default configuration, as the reference tool
    /// prints it (`BLEU`, `chrF2`); options can change it ([`Metric::display`]).
    pub display: &'static str,
    /// Other accepted spellings (matched ignoring case).
    pub aliases: &'static [&'static str],
    /// The score column `mteval score` writes; `None`: not scored per row
    /// there (MBR utilities).
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
    pub configure: fn(&str) -> Result<Arc<dyn Metric>, MetricError>,
}

impl fmt::Debug for MetricInfo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("MetricInfo").field("name", &self.name).finish_non_exhaustive()
    }
}

impl PartialEq for MetricInfo {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self, other)
    }
}

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

/// A metric as [`Any`], for the callers that need one metric's own API
/// (TER's alignment); every [`Metric`] has it.
pub trait MetricAny: Any {
    /// The metric as [`Any`].
    fn as_any(&self) -> &dyn Any;
}

impl<T: Metric> MetricAny for T {
    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// A metric with its options parsed.
pub trait Metric: fmt::Debug + Send + Sync + MetricAny {
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

    /// Statistics per segment (the width of [`Self::segment`]'s rows).
    fn width(&self) -> usize;

    /// One segment's statistics, the values the corpus score sums; `None`
    /// with no reference.
    ///
    /// # Errors
    /// A segment the metric refuses (over a length limit), or a metric that
    /// does not read text ([`Inputs`]).
    fn segment(&self, hyp: &str, refs: &[&str]) -> Result<Option<Vec<f64>>, MetricError>;

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

    /// The sentence score of one segment's statistics, as the reference
    /// tool's sentence-level function gives it (BLEU: with effective order);
    /// `None` where it has none (a term list without terms).
    fn sentence_score(&self, stats: &[f64]) -> Option<f64>;

    /// An empty corpus state; `None` for metrics without a corpus score
    /// (MBR utilities).
    fn corpus(&self) -> Option<Box<dyn CorpusState>>;

    /// The metric as sacrebleu's significance tests resample it; `None` for
    /// metrics they do not take.
    fn resample(&self) -> Option<&dyn Resample> {
        None
    }

    /// The reference tool's verbose corpus line (`--verbose`/`-v`) from
    /// summed statistics, where it prints one (BLEU's precisions and
    /// brevity penalty).
    fn verbose(&self, sums: &[f64]) -> Option<String> {
        let _ = sums;
        None
    }

    /// The metric as an MBR utility, for the rows that are one
    /// ([`Inputs::Candidates`]); a text metric is one through
    /// [`mbr::MeanUtility`].
    fn utility(self: Arc<Self>) -> Option<Arc<dyn Utility>> {
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

/// A metric whose statistics are counts summed element-wise
/// ([`CountSums`]) and scored from the sums: BLEU and chrF. Its corpus
/// state is a [`Summed`] through the [`SumScore`] every such metric has.
pub trait CountScore: Copy + fmt::Debug + Send + Sync + 'static {
    /// The corpus score of the sums; `None` without a segment.
    fn score_sums(&self, sums: &CountSums<Self>) -> Option<f64>;
    /// The reference tool's score fields besides the score.
    fn sums_details(&self, sums: &CountSums<Self>) -> Vec<(&'static str, Detail)>;
}

impl<C: CountScore> SumScore for C {
    fn score_of(&self, sums: &RowSums) -> Option<f64> {
        self.score_sums(&CountSums::from_parts(counts(&sums.sums), sums.segments))
    }

    fn details_of(&self, sums: &RowSums) -> Vec<(&'static str, Detail)> {
        self.sums_details(&CountSums::from_parts(counts(&sums.sums), sums.segments))
    }
}

/// Statistics rows summed element-wise in `f64` (exact for counts below
/// 2^53, and in input order for a float column such as TER's reference
/// lengths), with the number of rows.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RowSums {
    /// The element-wise sums; as long as the longest row added.
    pub sums: Vec<f64>,
    /// Rows added.
    pub segments: u64,
}

impl RowSums {
    /// Adds `row` as `segments` rows' sums.
    fn add(&mut self, row: &[f64], segments: u64) {
        if self.sums.len() < row.len() {
            self.sums.resize(row.len(), 0.0);
        }
        for (a, b) in self.sums.iter_mut().zip(row) {
            *a += b;
        }
        self.segments += segments;
    }
}

/// A metric whose corpus value comes from its statistics rows summed
/// ([`RowSums`]); [`Summed`] is its corpus state.
pub trait SumScore: Clone + fmt::Debug + Send + Sync + 'static {
    /// What a segment's statistics row adds to the sums (the row itself
    /// unless the metric keeps other sums).
    fn summand<'a>(&self, stats: &'a [f64]) -> Cow<'a, [f64]> {
        Cow::Borrowed(stats)
    }

    /// The corpus score of sums of at least one row; `None` where the
    /// reference tool has none.
    fn score_of(&self, sums: &RowSums) -> Option<f64>;

    /// The reference tool's score fields besides the score.
    fn details_of(&self, _sums: &RowSums) -> Vec<(&'static str, Detail)> {
        Vec::new()
    }

    /// A corpus-level check of the reference tool ([`CorpusState::check`]).
    ///
    /// # Errors
    /// What the reference tool refuses.
    fn check_of(&self, _sums: &RowSums) -> Result<(), MetricError> {
        Ok(())
    }

    /// The segments the metric counts (terminology: the predictions kept).
    fn counted(&self, sums: &RowSums) -> u64 {
        sums.segments
    }
}

/// The corpus state of a [`SumScore`] metric: its configuration and the
/// rows summed.
#[derive(Debug, Clone)]
pub struct Summed<C> {
    cfg: C,
    sums: RowSums,
}

impl<C: SumScore> Summed<C> {
    /// No segment yet.
    #[must_use]
    pub fn boxed(cfg: C) -> Box<dyn CorpusState> {
        Box::new(Self { cfg, sums: RowSums::default() })
    }
}

impl<C: SumScore> CorpusState for Summed<C> {
    fn add(&mut self, stats: &[f64]) {
        self.sums.add(&self.cfg.summand(stats), 1);
    }

    fn merge(&mut self, other: &dyn CorpusState) -> Result<(), MetricError> {
        let o = &same_state::<Self>(other)?.sums;
        self.sums.add(&o.sums, o.segments);
        Ok(())
    }

    fn segments(&self) -> u64 {
        self.cfg.counted(&self.sums)
    }

    fn score(&self) -> Option<f64> {
        if self.sums.segments == 0 { None } else { self.cfg.score_of(&self.sums) }
    }

    fn check(&self) -> Result<(), MetricError> {
        self.cfg.check_of(&self.sums)
    }

    fn details(&self) -> Vec<(&'static str, Detail)> {
        self.cfg.details_of(&self.sums)
    }
}

/// The error of a metric asked for what it does not read.
#[must_use]
pub fn not_text(info: &MetricInfo) -> MetricError {
    let what = match info.inputs {
        Inputs::Text => "text",
        Inputs::Terms { .. } => "a hypothesis with its term list",
        Inputs::Candidates => "the candidates of one source (`mteval mbr`)",
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

/// Every metric, in the SQL guide's order.
pub static METRICS: [&MetricInfo; 15] = [
    &crate::bleu::metric::INFO,
    &crate::ter::metric::INFO,
    &crate::chrf::metric::CHRF,
    &crate::chrf::metric::CHRF_PLUS_PLUS,
    &crate::charac_ter::metric::INFO,
    &crate::wer::metric::WER,
    &crate::wer::metric::MER,
    &crate::wer::metric::WIL,
    &crate::wer::metric::WIP,
    &crate::wer::metric::CHAR_ERROR_RATE,
    &crate::terms::metric::EXACT,
    &crate::terms::metric::LEMMATIZED,
    &crate::chrf::group::PAIRWISE,
    &crate::chrf::group::AGGREGATE,
    &crate::ter::mbr::INFO,
];
/// Every accepted name, canonical names first, each with its aliases.
#[must_use]
pub fn known_names() -> String {
    METRICS
        .iter()
        .map(
            |m| {
                if m.aliases.is_empty() { m.name.to_owned() } else { format!("{} ({})", m.name, m.aliases.join(", ")) }
            },
        )
        .collect::<Vec<_>>()
        .join(", ")
}

/// Names that mean two metrics to the people who use them, refused rather
/// than guessed: "CER" is jiwer's character error rate to a speech user and
/// `CharacTER` to a user of the `cer` package.
const AMBIGUOUS: &[(&str, &str)] = &[(
    "cer",
    "did you mean char_error_rate (jiwer's CER: character edit operations over reference characters)? The `cer` \
     package's metric is CharacTER: charac_ter (or characTER). Name one of them",
)];

/// The metric named `name` (canonical or alias, any case, surrounding
/// spaces ignored).
///
/// # Errors
/// [`MetricError::UnknownMetric`] listing every name;
/// [`MetricError::AmbiguousMetric`] for a name of two metrics (`cer`).
pub fn lookup(name: &str) -> Result<&'static MetricInfo, MetricError> {
    let n = name.trim();
    if let Some(&(_, meaning)) = AMBIGUOUS.iter().find(|(a, _)| a.eq_ignore_ascii_case(n)) {
        return Err(MetricError::AmbiguousMetric { name: n.to_owned(), meaning });
    }
    METRICS
        .iter()
        .copied()
        .find(|m| m.name.eq_ignore_ascii_case(n) || m.aliases.iter().any(|a| a.eq_ignore_ascii_case(n)))
        .ok_or_else(|| MetricError::UnknownMetric { name: n.to_owned(), known: known_names() })
}

/// The metrics sacrebleu's significance tests take (those with a
/// [`Metric::resample`] view), in the table's order.
pub fn resampled() -> impl Iterator<Item = &'static MetricInfo> {
    METRICS.iter().copied().filter(|m| m.configure("").is_ok_and(|c| c.resample().is_some()))
}

/// Names as a list in words: `a, b and c`.
#[must_use]
pub fn in_words(names: &[&str]) -> String {
    match names.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => names.join(""),
    }
}

/// The SQL guide's table of metric names (docs/sql.md), generated from [`METRICS`] (a test
/// keeps docs/sql.md equal to it).
#[must_use]
pub fn markdown_table() -> String {
    let mut s = String::from(
        "| metric | also accepted | `mteval score` column | SQL functions | reproduces |\n|---|---|---|---|---|\n",
    );
    for m in &METRICS {
        let aliases = m.aliases.iter().map(|a| format!("`{a}`")).collect::<Vec<_>>().join(", ");
        let column = m.column.map_or_else(|| "(`mteval mbr`)".to_owned(), |c| format!("`{c}`"));
        let functions = m.functions.iter().map(|f| format!("`{f}`")).collect::<Vec<_>>().join(", ");
        let _ = writeln!(s, "| `{}` | {aliases} | {column} | {functions} | {} |", m.name, m.reference);
    }
    s
}

/// The SQL guide's table of the option keys of the metric named `name`.
///
/// # Errors
/// An unknown metric name.
pub fn options_table(name: &str) -> Result<String, MetricError> {
    Ok(crate::options::markdown_table(lookup(name)?.options))
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::*;

    #[test]
    fn every_name_resolves_to_its_row_and_names_are_unique() {
        let mut seen = HashSet::new();
        for m in METRICS {
            for n in std::iter::once(&m.name).chain(m.aliases) {
                assert!(seen.insert(n.to_ascii_lowercase()), "{n} twice");
                assert_eq!(lookup(n).unwrap(), m);
                assert_eq!(lookup(&n.to_ascii_uppercase()).unwrap(), m);
            }
            // The canonical options parse, the metric knows its row, and the
            // signature pastes back.
            let c = m.configure("").unwrap();
            assert_eq!(c.info(), m);
            assert_eq!(c.display(), m.display, "{}", m.name);
            let again = m.configure(&c.sql_options()).unwrap();
            assert_eq!(again.signature(NRefs::Fixed(2)), c.signature(NRefs::Fixed(2)), "{}", m.name);
            assert_eq!(c.corpus().is_some(), m.inputs != Inputs::Candidates, "{}", m.name);
        }
        let e = lookup("bleurt").unwrap_err().to_string();
        assert!(e.contains("unknown metric 'bleurt'") && e.contains("charac_ter (characTER)"), "{e}");
        let e = lookup("CER").unwrap_err().to_string();
        assert!(e.contains("'CER' is ambiguous: did you mean char_error_rate (jiwer's CER"), "{e}");
        assert!(e.contains("charac_ter (or characTER)"), "{e}");
        assert_eq!(lookup("chrF++").unwrap().configure("").unwrap().display(), "chrF2++");
        assert_eq!(lookup("chrf").unwrap().configure("nc:4|beta:1").unwrap().display(), "chrF1");
        assert_eq!(lookup("wer").unwrap().configure("unit:char").unwrap().display(), "CER");
        assert!(lookup("term-acc").unwrap().configure("x:y").is_err());
    }

    #[test]
    fn corpus_states_merge_in_any_grouping() {
        let rows = [("the cat sat on the mat", "the cat is on the mat"), ("a b c d", "a c b d"), ("x y", "x y z")];
        for m in METRICS.iter().filter(|m| m.inputs == Inputs::Text) {
            let c = m.configure("").unwrap();
            let mut whole = c.corpus().unwrap();
            let mut parts = [c.corpus().unwrap(), c.corpus().unwrap()];
            for (i, (h, r)) in rows.iter().enumerate() {
                let seg = c.segment(h, &[r]).unwrap().unwrap();
                assert_eq!(seg.len(), c.width(), "{}", m.name);
                assert!(c.sentence_score(&seg).is_some_and(f64::is_finite), "{}", m.name);
                whole.add(&seg);
                parts[i % 2].add(&seg);
            }
            let mut merged = parts[0].clone();
            merged.merge(parts[1].as_ref()).unwrap();
            assert_eq!(merged.segments(), 3, "{}", m.name);
            let (a, b) = (whole.score().unwrap(), merged.score().unwrap());
            assert!((a - b).abs() < 1e-9, "{}: {a} vs {b}", m.name);
            assert_eq!(c.corpus().unwrap().score(), None, "{}: no segment, no score", m.name);
            assert_eq!(c.segment("a", &[]).unwrap(), None, "{}: no reference, no statistics", m.name);
        }
        let ter = lookup("ter").unwrap().configure("").unwrap();
        let cer = lookup("charac_ter").unwrap().configure("").unwrap();
        assert!(ter.corpus().unwrap().merge(cer.corpus().unwrap().as_ref()).is_err());
        let terms = lookup("term-acc").unwrap().configure("").unwrap();
        assert!(terms.segment("a", &["a"]).unwrap_err().to_string().contains("term list"));
    }

    #[test]
    fn every_documented_option_value_parses_and_unknown_keys_name_the_documented_ones() {
        for m in METRICS {
            for k in m.options.iter().flat_map(|g| g.iter()) {
                let mut n = 0;
                for v in k.listed_values() {
                    let opts = format!("{}:{v}", k.key);
                    let parsed = if k.corpus_only {
                        crate::CharacTerConfig::parse_corpus(&opts).map(drop)
                    } else {
                        m.configure(&opts).map(drop)
                    };
                    assert!(parsed.is_ok(), "{}: {opts}: {parsed:?}", m.name);
                    n += 1;
                }
                assert!(n > 0, "{}: {} lists no value", m.name, k.key);
                if !k.corpus_only {
                    assert!(m.configure(&format!("{}:surely-not-a-value", k.key)).is_err(), "{}", k.key);
                }
            }
            if m.options.is_empty() {
                continue;
            }
            let e = m.configure("colour:red").unwrap_err().to_string();
            for k in m.options.iter().flat_map(|g| g.iter()).filter(|k| !k.corpus_only) {
                assert!(e.contains(k.key), "{}: {e} does not name {}", m.name, k.key);
            }
        }
        let t = options_table("chrf++").unwrap();
        assert!(t.starts_with("| key |") && t.contains("| `nw` | `0` (`2` = chrF++; 0–32) |"), "{t}");
        assert!(options_table("mbr_chrf").unwrap().contains("| `self` |"));
    }
}
