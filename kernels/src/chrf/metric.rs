//! chrF and chrF++ as [`Metric`]s: their rows of the metric table, the
//! corpus state and the scores in the arithmetic of sacrebleu's
//! significance code.

use std::sync::Arc;

use super::{ChrfConfig, ChrfSegment};
use crate::metric::sql::{Segment, SqlDoc, SqlFunctions, StatField, StatValue};
use crate::metric::{Detail, FlagSets, FromStats, Metric, MetricInfo, Sacrebleu, SacrebleuFlag, as_f64, counts};
use crate::py::Py;
use crate::{MetricError, NRefs, Signature};

/// chrF and chrF++ on sacrebleu's command line: `-m chrf` and its flags.
pub static SACREBLEU: Sacrebleu = Sacrebleu {
    name: "chrf",
    flags: &[
        SacrebleuFlag {
            long: "chrf-char-order",
            short: Some("-cc"),
            sets: FlagSets::Value("nc"),
            help: "chrF character order (sacrebleu's -cc; chrf's `nc`)",
        },
        SacrebleuFlag {
            long: "chrf-word-order",
            short: Some("-cw"),
            sets: FlagSets::Value("nw"),
            help: "chrF word order (sacrebleu's -cw; chrf's `nw`; 2 = chrF++)",
        },
        SacrebleuFlag {
            long: "chrf-beta",
            short: None,
            sets: FlagSets::Value("beta"),
            help: "chrF beta (chrf's `beta`)",
        },
        SacrebleuFlag {
            long: "chrf-whitespace",
            short: None,
            sets: FlagSets::Switch("space:yes"),
            help: "chrF: keep whitespace (chrf's `space:yes`)",
        },
        SacrebleuFlag {
            long: "chrf-lowercase",
            short: None,
            sets: FlagSets::Switch("case:lc"),
            help: "chrF: lower-case (chrf's `case:lc`)",
        },
        SacrebleuFlag {
            long: "chrf-eps-smoothing",
            short: None,
            sets: FlagSets::Switch("eff:no"),
            help: "chrF: eps smoothing (chrf's `eff:no`)",
        },
    ],
};

/// chrF's row of the metric table.
pub static CHRF: MetricInfo = MetricInfo {
    name: "chrf",
    display: "chrF2",
    column: Some("chrf"),
    functions: &["chrf", "chrf_stats", "corpus_chrf"],
    reference: "sacrebleu 2.6.0 chrF",
    options: &[super::OPTIONS],
    sacrebleu: Some(&SACREBLEU),
    configure: |o| Ok(Arc::new(Chrf { cfg: ChrfConfig::parse_with(ChrfConfig::default(), o)?, info: &CHRF })),
    sql: Some(&SQL),
    ..MetricInfo::TEXT
};

/// chrF's SQL functions (chrF++ is `'nw:2'`): `chrf`, `chrf_stats` and
/// `corpus_chrf`, on the session's device.
static SQL: SqlFunctions = SqlFunctions {
    sentence: Some(SqlDoc {
        description: "Sentence chrF on a 0–100 scale, exactly as sacrebleu 2.6.0's `CHRF().sentence_score`; \
                      `'nw:2'` gives chrF++. With a list of references, the best one per sentence. NULL in gives \
                      NULL out.",
        example: "SELECT chrf(hyp, ref, 'nw:2') AS chrfpp FROM t;",
        related: &["chrf_stats", "corpus_chrf", "mbr_chrf", "mteval_signature"],
    }),
    stats: Some((
        SqlDoc {
            description: "Sentence chrF with its statistics: the score, `best_ref` (the chosen reference's 0-based \
                          position in the list as given, NULL elements counted) and `stats`, `[hyp, ref, match]` per \
                          order, character orders 1..nc then word orders 1..nw: what sacrebleu sums for its corpus \
                          score.",
            example: "SELECT chrf_stats(hyp, [ref1, ref2]).best_ref FROM t;",
            related: &["chrf", "corpus_chrf"],
        },
        &[
            StatField { name: "score", value: StatValue::Score },
            StatField { name: "best_ref", value: StatValue::Reference(0) },
            StatField { name: "stats", value: StatValue::Stats },
        ],
    )),
    corpus: Some((
        SqlDoc {
            description: "Corpus chrF exactly as sacrebleu 2.6.0's `CHRF().corpus_score`: the F-score of the summed \
                          best-reference statistics, as a mergeable aggregate. Rows with a NULL hypothesis or no \
                          reference are skipped; a group with no scored row gives NULL.",
            example: "SELECT system, corpus_chrf(hyp, ref, 'nw:2') FROM t GROUP BY system;",
            related: &["chrf", "chrf_stats", "corpus_ter"],
        },
        &[],
    )),
    on_device: true,
    sentence_configure: None,
};

/// A segment's statistics and its facts `[chosen reference]`.
#[allow(clippy::cast_precision_loss, reason = "reference positions are small")]
fn chrf_segment(s: &ChrfSegment) -> Segment {
    Segment { facts: vec![s.best_ref as f64], stats: as_f64(&s.stats) }
}

/// chrF++'s row of the metric table (chrF with `nw:2` by default).
pub static CHRF_PLUS_PLUS: MetricInfo = MetricInfo {
    name: "chrf++",
    display: "chrF2++",
    aliases: &["chrfpp"],
    column: Some("chrfpp"),
    functions: &["chrf", "chrf_stats", "corpus_chrf"],
    reference: "sacrebleu 2.6.0 chrF++ (`nw:2`)",
    options: &[super::OPTIONS],
    sacrebleu: Some(&SACREBLEU),
    configure: |o| {
        Ok(Arc::new(Chrf { cfg: ChrfConfig::parse_with(ChrfConfig::chrf_plus_plus(), o)?, info: &CHRF_PLUS_PLUS }))
    },
    ..MetricInfo::TEXT
};

/// chrF or chrF++ as chosen by name (the name picks the default word order
/// and the score column; the options decide the rest).
#[derive(Debug, Clone, Copy)]
pub struct Chrf {
    /// The options.
    pub cfg: ChrfConfig,
    info: &'static MetricInfo,
}

impl Metric for Chrf {
    fn info(&self) -> &'static MetricInfo {
        self.info
    }

    fn display(&self) -> String {
        self.cfg.name()
    }

    fn signature(&self, nrefs: NRefs) -> Signature {
        self.cfg.signature(nrefs)
    }

    fn segment(&self, hyp: &str, refs: &[&str]) -> Result<Option<Vec<f64>>, MetricError> {
        Ok(self.cfg.segment(hyp, refs).map(|s| as_f64(&s.stats)))
    }

    fn segments_on(
        &self,
        backend: &dyn crate::backend::Backend,
        rows: &[(&str, Vec<&str>)],
    ) -> Vec<Result<Option<Vec<f64>>, MetricError>> {
        self.cfg.segments_on(backend, rows).into_iter().map(|s| Ok(s.map(|s| as_f64(&s.stats)))).collect()
    }

    fn segment_facts(&self, hyp: &str, refs: &[&str]) -> Result<Option<Segment>, MetricError> {
        Ok(self.cfg.segment(hyp, refs).map(|s| chrf_segment(&s)))
    }

    fn segment_facts_on(
        &self,
        backend: &dyn crate::backend::Backend,
        rows: &[(&str, Vec<&str>)],
    ) -> Vec<Result<Option<Segment>, MetricError>> {
        self.cfg.segments_on(backend, rows).into_iter().map(|s| Ok(s.map(|s| chrf_segment(&s)))).collect()
    }

    fn stats(&self) -> Option<&dyn FromStats> {
        Some(&self.cfg)
    }
}

/// chrF from its summed statistics (`[hyp, ref, match]` per order).
impl FromStats for ChrfConfig {
    fn width(&self) -> usize {
        self.stats_len()
    }

    fn score(&self, sums: &[f64]) -> f64 {
        ChrfConfig::score(self, &counts(sums))
    }

    /// sacrebleu's `CHRFScore` fields.
    fn details(&self, _sums: &[f64]) -> Vec<(&'static str, Detail)> {
        vec![
            ("char_order", Detail::Int(self.char_order as u64)),
            ("word_order", Detail::Int(self.word_order as u64)),
            ("beta", Detail::Float(self.beta)),
        ]
    }

    fn score_f32(&self, sums: &[f32]) -> Py {
        chrf_f32(self, sums)
    }
}

/// sacrebleu's `CHRF._compute_f_score` on `float32` statistics.
fn chrf_f32(cfg: &ChrfConfig, stats: &[f32]) -> Py {
    let eps = Py::Float(1e-16);
    let factor = Py::Float(cfg.beta * cfg.beta);
    let one_plus = Py::Float(1.0 + cfg.beta * cfg.beta);
    let mut score = Py::Float(0.0);
    let mut effective_order = 0u32;
    let (mut avg_prec, mut avg_rec) = (Py::Float(0.0), Py::Float(0.0));
    let orders = cfg.orders();
    for i in 0..orders {
        let (n_hyp, n_ref, n_match) = (Py::F32(stats[3 * i]), Py::F32(stats[3 * i + 1]), Py::F32(stats[3 * i + 2]));
        let prec = if n_hyp.value() > 0.0 { n_match / n_hyp } else { eps };
        let rec = if n_ref.value() > 0.0 { n_match / n_ref } else { eps };
        let denom = factor * prec + rec;
        score += if denom.value() > 0.0 { one_plus * prec * rec / denom } else { eps };
        if n_hyp.value() > 0.0 && n_ref.value() > 0.0 {
            avg_prec += prec;
            avg_rec += rec;
            effective_order += 1;
        }
    }
    if cfg.eps_smoothing {
        return Py::Float(100.0) * score / Py::Float(orders as f64);
    }
    if effective_order == 0 {
        avg_prec = Py::Float(0.0);
        avg_rec = Py::Float(0.0);
    } else {
        avg_prec /= Py::Float(f64::from(effective_order));
        avg_rec /= Py::Float(f64::from(effective_order));
    }
    if (avg_prec + avg_rec).value() == 0.0 {
        return Py::Float(0.0);
    }
    let mut score = one_plus * avg_prec * avg_rec;
    score /= factor * avg_prec + avg_rec;
    Py::Float(100.0) * score
}
