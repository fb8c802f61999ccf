//! The metric table: every metric of mteval with its canonical name, the
//! other spellings it answers to, its score column, its SQL functions, the
//! tool it reproduces, its option parser and its signature. The CLI (`-m`,
//! `--options METRIC=...`), `mteval_signature('...')` and the README's metric
//! table are read from here, so a name works everywhere or nowhere.
//!
//! Adding a metric: a kernel module with its options parser and signature,
//! one row in [`METRICS`], one arm in [`MetricInfo::configure`] and
//! [`Configured`]'s methods, and its SQL functions in the udfs crate.

use std::fmt::Write as _;

use crate::chrf::group::{MBR_OPTIONS, mbr_signature, parse_mbr_options};
use crate::options::OptionKey;
use crate::{BleuConfig, CharacTerConfig, ChrfConfig, MetricError, NRefs, Signature, Ter};

/// Which metric a row of the table is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MetricKind {
    /// sacrebleu's BLEU.
    Bleu,
    /// sacrebleu's TER.
    Ter,
    /// sacrebleu's chrF (character n-grams only).
    Chrf,
    /// sacrebleu's chrF++ (with word bigrams).
    ChrfPlusPlus,
    /// `CharacTER` (cer / the original rwth-i6 tool).
    CharacTer,
    /// Terminology exact-match accuracy.
    TermAccuracy,
    /// Terminology match accuracy with lemmatized matching.
    TermAccuracyLemmatized,
    /// MBR expected utility: mean pairwise chrF (fastchrf `pairwise_chrf`).
    MbrChrf,
    /// MBR expected utility: aggregate chrF (fastchrf `aggregate_chrf`).
    MbrChrfAggregate,
    /// MBR expected utility: mean sentence TER (lower is better).
    MbrTer,
}

/// One row of the metric table.
#[derive(Debug)]
pub struct MetricInfo {
    /// Which metric.
    pub kind: MetricKind,
    /// The canonical name (lower case), accepted everywhere.
    pub name: &'static str,
    /// Other accepted spellings (matched ignoring case).
    pub aliases: &'static [&'static str],
    /// The score column `mteval score` writes; `None`: not scored per row
    /// there (MBR utilities, which `mteval mbr` and the window functions use).
    pub column: Option<&'static str>,
    /// SQL functions computing it (sentence level first).
    pub functions: &'static [&'static str],
    /// The reference implementation it reproduces.
    pub reference: &'static str,
    /// Its option keys, in groups (the README's option tables).
    pub options: &'static [&'static [OptionKey]],
}

/// Every metric.
pub static METRICS: [MetricInfo; 10] = [
    MetricInfo {
        kind: MetricKind::Bleu,
        name: "bleu",
        aliases: &[],
        column: Some("bleu"),
        functions: &["bleu", "bleu_stats", "corpus_bleu"],
        reference: "sacrebleu 2.6.0 BLEU",
        options: &[crate::bleu::OPTIONS],
    },
    MetricInfo {
        kind: MetricKind::Ter,
        name: "ter",
        aliases: &[],
        column: Some("ter"),
        functions: &["ter", "ter_stats", "ter_alignment", "corpus_ter"],
        reference: "sacrebleu 2.6.0 TER",
        options: &[crate::ter::OPTIONS],
    },
    MetricInfo {
        kind: MetricKind::Chrf,
        name: "chrf",
        aliases: &[],
        column: Some("chrf"),
        functions: &["chrf", "chrf_stats", "corpus_chrf"],
        reference: "sacrebleu 2.6.0 chrF",
        options: &[crate::chrf::OPTIONS],
    },
    MetricInfo {
        kind: MetricKind::ChrfPlusPlus,
        name: "chrf++",
        aliases: &["chrfpp"],
        column: Some("chrfpp"),
        functions: &["chrf", "chrf_stats", "corpus_chrf"],
        reference: "sacrebleu 2.6.0 chrF++ (`nw:2`)",
        options: &[crate::chrf::OPTIONS],
    },
    MetricInfo {
        kind: MetricKind::CharacTer,
        name: "charac_ter",
        aliases: &["characTER", "cer"],
        column: Some("charac_ter"),
        functions: &["charac_ter", "corpus_charac_ter"],
        reference: "cer 1.2.0 / rwth-i6 CharacTER",
        options: &[crate::charac_ter::OPTIONS],
    },
    MetricInfo {
        kind: MetricKind::TermAccuracy,
        name: "term_accuracy",
        aliases: &["term-acc", "term_acc"],
        column: Some("term_acc"),
        functions: &["term_match", "corpus_term_accuracy"],
        reference: "terminology match accuracy (exact)",
        options: &[],
    },
    MetricInfo {
        kind: MetricKind::TermAccuracyLemmatized,
        name: "term_accuracy_lemmatized",
        aliases: &["term-acc-lemmatized", "term_acc_lemmatized"],
        column: Some("term_acc_lemmatized"),
        functions: &["term_match_lemmatized", "corpus_term_accuracy_lemmatized"],
        reference: "terminology match accuracy (lemmatized)",
        options: &[],
    },
    MetricInfo {
        kind: MetricKind::MbrChrf,
        name: "mbr_chrf",
        aliases: &[],
        column: None,
        functions: &["mbr_chrf"],
        reference: "fastchrf 0.2.1 pairwise_chrf",
        options: &[crate::chrf::OPTIONS, MBR_OPTIONS],
    },
    MetricInfo {
        kind: MetricKind::MbrChrfAggregate,
        name: "mbr_chrf_aggregate",
        aliases: &[],
        column: None,
        functions: &["mbr_chrf_aggregate"],
        reference: "fastchrf 0.2.1 aggregate_chrf",
        options: &[crate::chrf::OPTIONS, MBR_OPTIONS],
    },
    MetricInfo {
        kind: MetricKind::MbrTer,
        name: "mbr_ter",
        aliases: &[],
        column: None,
        functions: &[],
        reference: "sacrebleu 2.6.0 TER, averaged as `numpy.mean`",
        options: &[crate::ter::OPTIONS, MBR_OPTIONS],
    },
];

/// The row of `kind`.
#[must_use]
pub fn info(kind: MetricKind) -> &'static MetricInfo {
    let i = match kind {
        MetricKind::Bleu => 0,
        MetricKind::Ter => 1,
        MetricKind::Chrf => 2,
        MetricKind::ChrfPlusPlus => 3,
        MetricKind::CharacTer => 4,
        MetricKind::TermAccuracy => 5,
        MetricKind::TermAccuracyLemmatized => 6,
        MetricKind::MbrChrf => 7,
        MetricKind::MbrChrfAggregate => 8,
        MetricKind::MbrTer => 9,
    };
    &METRICS[i]
}

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

/// The metric named `name` (canonical or alias, any case, surrounding
/// spaces ignored).
///
/// # Errors
/// [`MetricError::UnknownMetric`] listing every name.
pub fn lookup(name: &str) -> Result<&'static MetricInfo, MetricError> {
    let n = name.trim();
    METRICS
        .iter()
        .find(|m| m.name.eq_ignore_ascii_case(n) || m.aliases.iter().any(|a| a.eq_ignore_ascii_case(n)))
        .ok_or_else(|| MetricError::UnknownMetric { name: n.to_owned(), known: known_names() })
}

/// A metric with its options parsed.
#[derive(Debug, Clone, PartialEq)]
pub enum Configured {
    /// BLEU (the options as given configure the corpus score; sacrebleu's
    /// defaults: `eff:no`).
    Bleu(BleuConfig),
    /// TER.
    Ter(Ter),
    /// chrF or chrF++ (the options decide the word order).
    Chrf(ChrfConfig),
    /// `CharacTER`.
    CharacTer(CharacTerConfig),
    /// Terminology accuracy.
    TermAccuracy {
        /// Lemmatized matching.
        lemmatized: bool,
    },
    /// An MBR utility on chrF.
    MbrChrf {
        /// chrF options.
        cfg: ChrfConfig,
        /// Whether each candidate is also its own pseudo-reference.
        include_self: bool,
        /// Aggregate chrF rather than mean pairwise chrF.
        aggregate: bool,
    },
    /// The MBR utility mean sentence TER.
    MbrTer {
        /// TER options.
        ter: Ter,
        /// Whether each candidate is also its own pseudo-reference.
        include_self: bool,
    },
}

impl MetricInfo {
    /// Parses `options` (signature syntax, `key:value|...`) for this metric.
    ///
    /// # Errors
    /// Unknown keys and bad values, naming them.
    pub fn configure(&self, options: &str) -> Result<Configured, MetricError> {
        Ok(match self.kind {
            MetricKind::Bleu => Configured::Bleu(BleuConfig::parse(options)?),
            MetricKind::Ter => Configured::Ter(Ter::from_options(options)?),
            MetricKind::Chrf => Configured::Chrf(ChrfConfig::parse_with(ChrfConfig::default(), options)?),
            MetricKind::ChrfPlusPlus => {
                Configured::Chrf(ChrfConfig::parse_with(ChrfConfig::chrf_plus_plus(), options)?)
            }
            MetricKind::CharacTer => Configured::CharacTer(CharacTerConfig::parse(options)?),
            MetricKind::TermAccuracy | MetricKind::TermAccuracyLemmatized => {
                if !options.trim().is_empty() {
                    return Err(MetricError::InvalidOption {
                        metric: "term accuracy",
                        reason: format!("{} takes no options (got '{options}')", self.name),
                    });
                }
                Configured::TermAccuracy { lemmatized: self.kind == MetricKind::TermAccuracyLemmatized }
            }
            MetricKind::MbrChrf | MetricKind::MbrChrfAggregate => {
                let (cfg, include_self) = parse_mbr_options(options)?;
                Configured::MbrChrf { cfg, include_self, aggregate: self.kind == MetricKind::MbrChrfAggregate }
            }
            MetricKind::MbrTer => {
                let (ter, include_self) = crate::ter::mbr::parse_mbr_ter_options(options)?;
                Configured::MbrTer { ter, include_self }
            }
        })
    }
}

impl Configured {
    /// The reproducibility signature for `nrefs` references.
    #[must_use]
    pub fn signature(&self, nrefs: NRefs) -> Signature {
        match self {
            Self::Bleu(cfg) => cfg.signature(nrefs),
            Self::Ter(t) => t.config.signature(nrefs),
            Self::Chrf(cfg) => cfg.signature(nrefs),
            Self::CharacTer(cfg) => cfg.signature(nrefs),
            Self::TermAccuracy { lemmatized } => crate::terms::signature(*lemmatized),
            Self::MbrTer { ter, include_self } => crate::ter::mbr::mbr_ter_signature(ter, *include_self),
            Self::MbrChrf { cfg, include_self, aggregate } => {
                mbr_signature(cfg, *include_self, if *aggregate { "aggregate" } else { "pairwise" })
            }
        }
    }

    /// Display name, as the reference tool prints it (`TER`, `chrF2`, `chrF2++`).
    #[must_use]
    pub fn display(&self) -> String {
        match self {
            Self::Bleu(_) => "BLEU".to_owned(),
            Self::Ter(_) => "TER".to_owned(),
            Self::Chrf(cfg) => cfg.name(),
            Self::CharacTer(_) => "CharacTER".to_owned(),
            Self::TermAccuracy { lemmatized: false } => "TermAcc".to_owned(),
            Self::TermAccuracy { lemmatized: true } => "TermAcc-lemmatized".to_owned(),
            Self::MbrChrf { aggregate: false, .. } => "MBR-chrF".to_owned(),
            Self::MbrChrf { aggregate: true, .. } => "MBR-chrF-aggregate".to_owned(),
            Self::MbrTer { .. } => "MBR-TER".to_owned(),
        }
    }

    /// The length limit the options set, which the signature leaves out
    /// (it can refuse a row, never change a score); `None` for metrics
    /// without one.
    #[must_use]
    pub fn max_words(&self) -> Option<usize> {
        match self {
            Self::Ter(t) | Self::MbrTer { ter: t, .. } => t.config.max_words,
            Self::CharacTer(cfg) => cfg.max_words,
            _ => None,
        }
    }

    /// The options that configure the metric's SQL functions exactly as this:
    /// the signature (which pastes back as options), plus `max_words`; empty
    /// for terminology accuracy, whose functions take none.
    #[must_use]
    pub fn sql_options(&self) -> String {
        if let Self::TermAccuracy { .. } = self {
            return String::new();
        }
        let sig = self.signature(NRefs::Var).to_string();
        match self.max_words() {
            Some(usize::MAX) => format!("{sig}|max_words:none"),
            Some(n) => format!("{sig}|max_words:{n}"),
            None => sig,
        }
    }
}

impl Configured {
    /// The metric as the significance tests resample it (BLEU, chrF, chrF++
    /// and TER); `None` for the others.
    #[must_use]
    pub fn resample(&self) -> Option<&dyn crate::significance::Resample> {
        match self {
            Self::Bleu(c) => Some(c),
            Self::Chrf(c) => Some(c),
            Self::Ter(t) => Some(t),
            _ => None,
        }
    }

    /// One segment's statistics as the significance tests hold them (see
    /// [`crate::significance::SegmentStats`]); `None` with no reference or
    /// for a metric without [`Self::resample`].
    ///
    /// # Errors
    /// A segment over TER's length limit.
    #[allow(clippy::cast_precision_loss, reason = "statistics are counts far below 2^53")]
    pub fn segment_stats(&self, hyp: &str, refs: &[&str]) -> Result<Option<Vec<f64>>, MetricError> {
        Ok(match self {
            Self::Bleu(c) => c.segment(hyp, refs).map(|s| s.iter().map(|&x| x as f64).collect()),
            Self::Chrf(c) => c.segment(hyp, refs).map(|s| s.stats.iter().map(|&x| x as f64).collect()),
            Self::Ter(t) => t.segment(hyp, refs)?.map(|s| vec![f64::from(s.num_edits), s.ref_len]),
            _ => None,
        })
    }
}

/// The corpus state of a metric, sacrebleu's shape: sentence statistics
/// summed, the corpus score computed from the sums (`score(Σ stats)`), so
/// states merge in any grouping. The aggregate SQL functions keep the same
/// statistics types ([`crate::TerStats`], [`crate::ChrfStats`]) and score them
/// with the same functions; `CharacTER` keeps its sentence scores (its corpus
/// value is their mean, as the original CLI prints it, and `cer`'s summary
/// needs the median).
#[derive(Debug, Clone, PartialEq)]
pub enum CorpusStats {
    /// BLEU: Σ n-gram statistics.
    Bleu(crate::BleuStats),
    /// TER: Σ edits, Σ average reference lengths.
    Ter(crate::TerStats),
    /// chrF: Σ n-gram statistics of the best references.
    Chrf(crate::ChrfStats),
    /// `CharacTER`: the sentence scores.
    CharacTer(Vec<f64>),
    /// Terminology: Σ match counts.
    TermAccuracy(crate::terms::TermAccuracy),
}

impl CorpusStats {
    /// Adds `other`'s statistics (of the same metric).
    ///
    /// # Errors
    /// Statistics of another metric.
    pub fn merge(&mut self, other: &Self) -> Result<(), MetricError> {
        match (self, other) {
            (Self::Bleu(a), Self::Bleu(b)) => a.merge(b),
            (Self::Ter(a), Self::Ter(b)) => a.merge(b),
            (Self::Chrf(a), Self::Chrf(b)) => a.merge(b),
            (Self::CharacTer(a), Self::CharacTer(b)) => a.extend_from_slice(b),
            (Self::TermAccuracy(a), Self::TermAccuracy(b)) => a.merge(b),
            _ => {
                return Err(MetricError::InvalidInput {
                    metric: "corpus statistics",
                    reason: "statistics of different metrics cannot be merged".into(),
                });
            }
        }
        Ok(())
    }

    /// Segments counted (for terminology: the predictions kept).
    #[must_use]
    pub fn segments(&self) -> u64 {
        match self {
            Self::Ter(s) => s.segments,
            Self::Chrf(s) => s.segments,
            Self::Bleu(s) => s.segments,
            Self::CharacTer(s) => s.len() as u64,
            Self::TermAccuracy(s) => s.kept_predictions,
        }
    }
}

impl Configured {
    /// An empty corpus state; `None` for MBR utilities, which have no corpus score.
    #[must_use]
    pub fn corpus_stats(&self) -> Option<CorpusStats> {
        Some(match self {
            Self::Bleu(_) => CorpusStats::Bleu(crate::BleuStats::default()),
            Self::Ter(_) => CorpusStats::Ter(crate::TerStats::default()),
            Self::Chrf(_) => CorpusStats::Chrf(crate::ChrfStats::default()),
            Self::CharacTer(_) => CorpusStats::CharacTer(Vec::new()),
            Self::TermAccuracy { .. } => CorpusStats::TermAccuracy(crate::terms::TermAccuracy::default()),
            Self::MbrChrf { .. } | Self::MbrTer { .. } => return None,
        })
    }

    /// The corpus score of `stats`; `None` when no segment was scored (or
    /// the statistics are another metric's).
    #[must_use]
    pub fn corpus_score(&self, stats: &CorpusStats) -> Option<f64> {
        match (self, stats) {
            (Self::Bleu(cfg), CorpusStats::Bleu(s)) => s.score(cfg),
            (Self::Ter(t), CorpusStats::Ter(s)) => (s.segments > 0).then(|| t.score(s)),
            (Self::Chrf(cfg), CorpusStats::Chrf(s)) => s.score(cfg),
            (Self::CharacTer(_), CorpusStats::CharacTer(s)) => crate::CorpusSummary::from_scores(s).map(|c| c.mean),
            (Self::TermAccuracy { lemmatized: false }, CorpusStats::TermAccuracy(s)) => s.exact_accuracy(),
            (Self::TermAccuracy { lemmatized: true }, CorpusStats::TermAccuracy(s)) => s.lemmatized_accuracy(),
            _ => None,
        }
    }
}

/// The README's table of metric names, generated from [`METRICS`] (a test
/// keeps the README equal to it).
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

/// The README's table of the option keys of the metric named `name`.
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
        for m in &METRICS {
            assert!(std::ptr::eq(info(m.kind), m), "{}: info() finds its own row", m.name);
            for n in std::iter::once(&m.name).chain(m.aliases) {
                assert!(seen.insert(n.to_ascii_lowercase()), "{n} twice");
                assert_eq!(lookup(n).unwrap().kind, m.kind);
                assert_eq!(lookup(&n.to_ascii_uppercase()).unwrap().kind, m.kind);
            }
            // The canonical options parse, and the signature pastes back.
            let c = m.configure("").unwrap();
            let again = m.configure(&c.sql_options()).unwrap();
            assert_eq!(again.signature(NRefs::Fixed(2)), c.signature(NRefs::Fixed(2)), "{}", m.name);
        }
        let e = lookup("bleurt").unwrap_err().to_string();
        assert!(e.contains("unknown metric 'bleurt'") && e.contains("charac_ter (characTER, cer)"), "{e}");
        assert_eq!(lookup("chrF++").unwrap().configure("").unwrap().display(), "chrF2++");
        assert!(lookup("term-acc").unwrap().configure("x:y").is_err());
    }

    #[test]
    fn corpus_states_merge_in_any_grouping() {
        let rows = [("the cat sat on the mat", "the cat is on the mat"), ("a b c d", "a c b d"), ("x y", "x y z")];
        for name in ["bleu", "ter", "chrf", "chrf++", "charac_ter"] {
            let c = lookup(name).unwrap().configure("").unwrap();
            let mut whole = c.corpus_stats().unwrap();
            let mut parts = [c.corpus_stats().unwrap(), c.corpus_stats().unwrap()];
            for (i, (h, r)) in rows.iter().enumerate() {
                let one = match &c {
                    Configured::Ter(t) => {
                        let seg = t.segment(h, &[r]).unwrap().unwrap();
                        let mut s = crate::TerStats::default();
                        s.add(&seg);
                        CorpusStats::Ter(s)
                    }
                    Configured::Chrf(cfg) => {
                        let mut s = crate::ChrfStats::default();
                        s.add(&cfg.segment(h, &[r]).unwrap().stats);
                        CorpusStats::Chrf(s)
                    }
                    Configured::CharacTer(cfg) => CorpusStats::CharacTer(vec![cfg.sentence(h, r).unwrap()]),
                    Configured::Bleu(cfg) => {
                        let mut s = crate::BleuStats::default();
                        s.add(&cfg.segment(h, &[r]).unwrap());
                        CorpusStats::Bleu(s)
                    }
                    _ => unreachable!(),
                };
                whole.merge(&one).unwrap();
                parts[i % 2].merge(&one).unwrap();
            }
            let mut merged = parts[0].clone();
            merged.merge(&parts[1]).unwrap();
            assert_eq!(merged.segments(), 3, "{name}");
            let (a, b) = (c.corpus_score(&whole).unwrap(), c.corpus_score(&merged).unwrap());
            assert!((a - b).abs() < 1e-9, "{name}: {a} vs {b}");
            assert_eq!(c.corpus_score(&c.corpus_stats().unwrap()), None, "{name}: no segment, no score");
        }
        let mut ter = lookup("ter").unwrap().configure("").unwrap().corpus_stats().unwrap();
        assert!(ter.merge(&CorpusStats::CharacTer(vec![0.5])).is_err());
    }

    #[test]
    fn every_documented_option_value_parses_and_unknown_keys_name_the_documented_ones() {
        for m in &METRICS {
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
