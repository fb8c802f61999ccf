//! BLEU as a [`Metric`]: its row of the metric table, its corpus state and
//! its scores in the arithmetic of sacrebleu's significance code.

use std::sync::Arc;

use super::{BleuConfig, Smoothing, compute_bleu};
use crate::metric::sql::{SqlDoc, SqlFunctions, StatField, StatValue};
use crate::metric::{Detail, FlagSets, FromStats, Metric, MetricInfo, Sacrebleu, SacrebleuFlag, as_f64, count, counts};
use crate::py::number::{Py, py_int};
use crate::{MetricError, NRefs, Signature};

/// BLEU on sacrebleu's command line: `-m bleu` and its flags.
pub static SACREBLEU: Sacrebleu = Sacrebleu {
    name: "bleu",
    flags: &[
        SacrebleuFlag {
            long: "tokenize",
            short: Some("-tok"),
            sets: FlagSets::Value("tok"),
            help: "BLEU tokenizer (sacrebleu's -tok; bleu's `tok`)",
        },
        SacrebleuFlag {
            long: "lowercase",
            short: Some("-lc"),
            sets: FlagSets::Switch("case:lc"),
            help: "BLEU: lower-case (sacrebleu's -lc; bleu's `case:lc`)",
        },
        SacrebleuFlag {
            long: "smooth-method",
            short: Some("-s"),
            sets: FlagSets::Value("smooth"),
            help: "BLEU smoothing method (sacrebleu's -s; bleu's `smooth`)",
        },
        SacrebleuFlag {
            long: "smooth-value",
            short: Some("-sv"),
            sets: FlagSets::Value("smooth_value"),
            help: "BLEU smoothing value (sacrebleu's -sv; bleu's `smooth_value`)",
        },
    ],
};

/// BLEU's row of the metric table.
pub static INFO: MetricInfo = MetricInfo {
    name: "bleu",
    display: "BLEU",
    column: Some("bleu"),
    functions: &["bleu", "bleu_stats", "corpus_bleu"],
    reference: "sacrebleu 2.6.0 BLEU",
    options: &[super::OPTIONS],
    sacrebleu: Some(&SACREBLEU),
    configure: |o| Ok(Arc::new(BleuConfig::parse(o)?)),
    sql: Some(&SQL),
    ..MetricInfo::TEXT
};

/// BLEU's SQL functions: `bleu`, `bleu_stats` (both sentence BLEU,
/// effective order on unless `eff:no`) and `corpus_bleu`.
static SQL: SqlFunctions = SqlFunctions {
    sentence: Some(SqlDoc {
        description: "Sentence BLEU on a 0–100 scale, exactly as sacrebleu 2.6.0's recommended sentence BLEU, \
                      `BLEU(effective_order=True).sentence_score` (`eff:no` turns effective order off). With a \
                      list of references, n-gram counts are clipped against each and the closest reference length \
                      is used. NULL in gives NULL out.",
        example: "SELECT bleu(hyp, ref, 'tok:intl') AS bleu FROM t;",
        related: &["bleu_stats", "corpus_bleu", "mteval_signature"],
    }),
    stats: Some((
        SqlDoc {
            description: "Sentence BLEU with its statistics: the score (as `bleu`) and `stats`, `[hyp_len, ref_len, \
                          correct × N, total × N]` (N = `ngram`, 4 by default; `ref_len` the closest reference \
                          length): what sacrebleu sums for its corpus score and resamples in its significance tests.",
            example: "SELECT bleu_stats(hyp, ref).stats FROM t;",
            related: &["bleu", "corpus_bleu", "corpus_bootstrap"],
        },
        &[StatField { name: "score", value: StatValue::Score }, StatField { name: "stats", value: StatValue::Stats }],
    )),
    corpus: Some((
        SqlDoc {
            description: "Corpus BLEU exactly as sacrebleu 2.6.0's `BLEU().corpus_score` (`eff:no` by default): the \
                          score of the summed n-gram statistics, as a mergeable aggregate. Rows with a NULL \
                          hypothesis or no reference are skipped; a group with no scored row gives NULL.",
            example: "SELECT system, corpus_bleu(hyp, ref) FROM t GROUP BY system;",
            related: &["bleu", "bleu_stats", "corpus_chrf", "corpus_ter", "corpus_bootstrap"],
        },
        &[],
    )),
    on_device: false,
    sentence_configure: Some(|o| Ok(Arc::new(SentenceBleu(BleuConfig::parse_with(BleuConfig::sentence(), o)?)))),
};

/// BLEU as its sentence-level SQL functions configure it: sacrebleu's
/// `BLEU(effective_order=True)` with the options on top, the sentence score
/// honouring `eff` (the table's BLEU always scores sentences with effective
/// order, as sacrebleu's sentence mode does).
#[derive(Debug, Clone, Copy)]
struct SentenceBleu(BleuConfig);

impl Metric for SentenceBleu {
    fn info(&self) -> &'static MetricInfo {
        &INFO
    }

    fn signature(&self, nrefs: NRefs) -> Signature {
        self.0.signature(nrefs)
    }

    fn segment(&self, hyp: &str, refs: &[&str]) -> Result<Option<Vec<f64>>, MetricError> {
        Metric::segment(&self.0, hyp, refs)
    }

    fn sentence_score(&self, stats: &[f64]) -> Option<f64> {
        Some(self.0.score(&counts(stats)))
    }

    fn stats(&self) -> Option<&dyn FromStats> {
        Some(&self.0)
    }
}

impl Metric for BleuConfig {
    fn info(&self) -> &'static MetricInfo {
        &INFO
    }

    fn signature(&self, nrefs: NRefs) -> Signature {
        BleuConfig::signature(self, nrefs)
    }

    fn segment(&self, hyp: &str, refs: &[&str]) -> Result<Option<Vec<f64>>, MetricError> {
        Ok(BleuConfig::segment(self, hyp, refs).map(|s| as_f64(&s)))
    }

    /// Sentence BLEU uses effective order (sacrebleu's sentence-level mode
    /// turns it on); the corpus score keeps the options.
    fn sentence_score(&self, stats: &[f64]) -> Option<f64> {
        Some(Self { effective_order: true, ..*self }.score(&counts(stats)))
    }

    fn stats(&self) -> Option<&dyn FromStats> {
        Some(self)
    }

    /// `66.3/43.2/30.9/22.7 (BP = 1.000 ratio = 1.014 hyp_len = 10295 ref_len = 10152)`.
    fn verbose(&self, sums: &[f64]) -> Option<String> {
        let d = self.score_details(&counts(sums));
        let prec: Vec<String> = d.precisions.iter().map(|p| format!("{p:.1}")).collect();
        Some(format!(
            "{} (BP = {:.3} ratio = {:.3} hyp_len = {} ref_len = {})",
            prec.join("/"),
            d.bp,
            d.ratio(),
            d.sys_len,
            d.ref_len
        ))
    }
}

/// BLEU from its summed statistics `[hyp_len, ref_len, correct per order,
/// total per order]`.
impl FromStats for BleuConfig {
    fn width(&self) -> usize {
        self.stats_len()
    }

    fn score(&self, sums: &[f64]) -> f64 {
        BleuConfig::score(self, &counts(sums))
    }

    /// sacrebleu's `BLEUScore` fields.
    fn details(&self, sums: &[f64]) -> Vec<(&'static str, Detail)> {
        let stats = counts(sums);
        let n = self.max_ngram_order;
        let b = self.score_details(&stats);
        vec![
            ("counts", Detail::Ints(stats[2..2 + n].to_vec())),
            ("totals", Detail::Ints(stats[2 + n..2 + 2 * n].to_vec())),
            ("precisions", Detail::Floats(b.precisions)),
            ("bp", Detail::Float(b.bp)),
            ("sys_len", Detail::Int(b.sys_len)),
            ("ref_len", Detail::Int(b.ref_len)),
        ]
    }

    /// `correct[n-1] += k` on an `int64` row stores `int(c + k)`: add-k
    /// with a fractional `k` truncates.
    fn score_ar(&self, sums: &[f64]) -> f64 {
        let Smoothing::AddK(k) = self.smooth else { return FromStats::score(self, sums) };
        let n = self.max_ngram_order;
        let mut v = counts(sums);
        if v[2..2 + n].iter().all(|&c| c == 0) {
            return 0.0;
        }
        for o in 1..n {
            v[2 + o] = count((v[2 + o] as f64 + k).trunc());
            v[2 + n + o] = count((v[2 + n + o] as f64 + k).trunc());
        }
        compute_bleu(&v[2..2 + n], &v[2 + n..2 + 2 * n], v[0], v[1], Smoothing::AddK(0.0), self.effective_order).score
    }

    fn score_f32(&self, sums: &[f32]) -> Py {
        bleu_f32(self, sums)
    }
}

/// sacrebleu's `compute_bleu` on `float32` sums: the precisions in
/// `float32`, the logs, their mean and the brevity penalty in doubles.
fn bleu_f32(cfg: &BleuConfig, sums: &[f32]) -> Py {
    let n = cfg.max_ngram_order;
    let (sys_len, ref_len) = (py_int(sums[0]), py_int(sums[1]));
    let mut correct: Vec<Py> = sums[2..2 + n].iter().map(|&x| Py::F32(x)).collect();
    let mut total: Vec<Py> = sums[2 + n..2 + 2 * n].iter().map(|&x| Py::F32(x)).collect();
    let mut bp = 1.0f64;
    if sys_len < ref_len {
        bp = if sys_len > 0 { (1.0 - ref_len as f64 / sys_len as f64).exp() } else { 0.0 };
    }
    let mut precisions = vec![Py::Float(0.0); n];
    if correct.iter().all(|c| c.value() == 0.0) {
        return Py::Float(0.0);
    }
    let mut smooth_mteval = 1.0f64;
    let mut eff_order = n;
    for o in 1..=n {
        if let Smoothing::AddK(k) = cfg.smooth
            && o > 1
        {
            correct[o - 1] += Py::Float(k);
            total[o - 1] += Py::Float(k);
        }
        if total[o - 1].value() == 0.0 {
            break;
        }
        if cfg.effective_order {
            eff_order = o;
        }
        if correct[o - 1].value() == 0.0 {
            match cfg.smooth {
                Smoothing::Exp => {
                    smooth_mteval *= 2.0;
                    precisions[o - 1] = Py::Float(100.0) / (Py::Float(smooth_mteval) * total[o - 1]);
                }
                Smoothing::Floor(v) => precisions[o - 1] = Py::Float(100.0 * v) / total[o - 1],
                Smoothing::None | Smoothing::AddK(_) => {}
            }
        } else {
            precisions[o - 1] = Py::Float(100.0) * correct[o - 1] / total[o - 1];
        }
    }
    let log_sum = precisions[..eff_order].iter().fold(0.0f64, |acc, p| {
        let x = p.value();
        acc + if x == 0.0 { -9_999_999_999.0 } else { x.ln() }
    });
    Py::Float(bp * (log_sum / eff_order as f64).exp())
}
