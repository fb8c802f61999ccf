//! comet-compare's statistics for any metric or score column (`mteval
//! compare --comet-compare`, Python's `mteval.comet_compare`): per metric,
//! each system's segment scores as `float32`, then
//! [`mteval_kernels::significance::comet`] (paired t-test and bootstrap
//! resampling for every pair), printed as comet-compare prints them or as
//! JSON with comet-compare's keys.

use std::fmt::Write as _;

use anyhow::{Context, Result, bail};
use mteval_kernels::metric::Direction;
use mteval_kernels::significance::comet::{self, Comparison, Options, SUMMARY_THRESHOLD};

use crate::compare::Json;
use crate::corpus::Corpus;
use crate::metrics::MetricChoice;

/// One metric's comparison: its name, signature, direction and the pairs.
#[derive(Debug, Clone)]
pub struct MetricComparison {
    /// The metric's display name (`comet`, `BLEU`, ...).
    pub name: String,
    /// Its signature.
    pub signature: String,
    /// Lower scores are better (the summary credits the lower mean).
    pub lower_is_better: bool,
    /// The statistics.
    pub comparison: Comparison,
}

/// Each system's segment scores for `m`: the score column's values, or the
/// metric's sentence scores, as `float32`.
///
/// # Errors
/// A segment without a sentence score (naming system and segment).
fn segment_scores(
    corpus: &Corpus,
    m: &MetricChoice,
    backend: &dyn mteval_kernels::backend::Backend,
) -> Result<Vec<Vec<f32>>> {
    corpus
        .systems
        .iter()
        .enumerate()
        .map(|(s, (name, _))| {
            let stats = corpus.stats(m, s, backend).with_context(|| name.clone())?;
            let scores: Vec<f64> = (0..stats.len())
                .map(|i| {
                    m.metric().sentence_score(stats.row(i)).with_context(|| {
                        format!("{name}, segment {}: {} has no segment score there", i + 1, m.display())
                    })
                })
                .collect::<Result<_>>()?;
            Ok(comet::to_f32(&scores))
        })
        .collect()
}

/// The systems of `corpus` in name order (indices into its systems).
#[must_use]
pub fn name_order(corpus: &Corpus) -> Vec<usize> {
    let mut order: Vec<usize> = (0..corpus.systems.len()).collect();
    order.sort_by(|&i, &j| corpus.systems[i].0.cmp(&corpus.systems[j].0));
    order
}

/// comet-compare over the systems of `corpus` taken in `order` (indices
/// into its systems; the pairs' indices are positions in `order`) for
/// each of `metrics`.
///
/// # Errors
/// Fewer than two systems; a score the statistics refuse (naming system
/// and segment).
pub fn compare(
    corpus: &Corpus,
    order: &[usize],
    metrics: &[MetricChoice],
    opts: &Options,
    backend: &dyn mteval_kernels::backend::Backend,
) -> Result<Vec<MetricComparison>> {
    if corpus.systems.len() < 2 {
        bail!("--comet-compare compares two or more systems; the input has {}", corpus.systems.len());
    }
    metrics
        .iter()
        .map(|m| {
            let mut all = segment_scores(corpus, m, backend)?;
            let scores: Vec<Vec<f32>> = order.iter().map(|&i| std::mem::take(&mut all[i])).collect();
            let comparison = comet::compare(&scores, opts).map_err(|e| {
                // Name the system rather than its index.
                let msg = e.to_string();
                let named = order.iter().enumerate().fold(msg, |acc, (i, &s)| {
                    acc.replace(&format!("system {i},"), &format!("system {},", corpus.systems[s].0))
                });
                anyhow::anyhow!("{}: {named}", m.display())
            })?;
            Ok(MetricComparison {
                name: m.display(),
                signature: m.signature(corpus.nrefs),
                lower_is_better: m.metric().direction() == Direction::Lower,
                comparison,
            })
        })
        .collect()
}

/// Python's `'{:.4f}'.format(x)` of a float (`nan`, `inf` as Python writes them).
fn f4(x: f64) -> String {
    if x.is_nan() {
        "nan".to_owned()
    } else if x.is_infinite() {
        if x > 0.0 { "inf".to_owned() } else { "-inf".to_owned() }
    } else {
        format!("{x:.4}")
    }
}

/// What comet-compare prints for one metric: each pair's results
/// (`display_statistical_results`), a blank line, then the summary
/// (`t_tests_summary`, tabulate's `simple` grid).
#[must_use]
pub fn text(systems: &[String], m: &MetricComparison) -> String {
    let mut out = String::new();
    for p in &m.comparison.pairs {
        let (x, y) = (&systems[p.x], &systems[p.y]);
        let b = &p.bootstrap;
        let _ = writeln!(out, "==========================\nx_name: {x}\ny_name: {y}\n\nBootstrap Resampling Results:");
        for (k, v) in [
            ("x-mean", f64::from(b.x_mean)),
            ("y-mean", f64::from(b.y_mean)),
            ("ties (%)", b.ties),
            ("x_wins (%)", b.x_wins),
            ("y_wins (%)", b.y_wins),
        ] {
            let _ = writeln!(out, "{k}:\t{}", f4(v));
        }
        let t = &p.t_test;
        let _ = writeln!(
            out,
            "\nPaired T-Test Results:\nstatistic:\t{}\np_value:\t{}",
            f4(f64::from(t.statistic)),
            f4(f64::from(t.p_value))
        );
        if t.p_value <= SUMMARY_THRESHOLD {
            // comet-compare's choice, which on equal means names y twice.
            let (best, worse) = if m.lower_is_better {
                (if b.x_mean < b.y_mean { x } else { y }, if b.x_mean > b.y_mean { x } else { y })
            } else {
                (if b.x_mean > b.y_mean { x } else { y }, if b.x_mean < b.y_mean { x } else { y })
            };
            let _ = writeln!(
                out,
                "Null hypothesis rejected according to t-test.\nScores differ significantly across samples.\n{best} \
                 outperforms {worse}."
            );
        } else {
            out.push_str("Null hypothesis can't be rejected.\nBoth systems have equal averages.\n");
        }
    }
    out.push('\n');
    out.push_str("Summary\nIf system_x is better than system_y then:\n");
    let _ = writeln!(out, "Null hypothesis rejected according to t-test with p_value={SUMMARY_THRESHOLD}.");
    out.push_str("Scores differ significantly across samples.\n");
    let grid = m.comparison.grid(SUMMARY_THRESHOLD, m.lower_is_better);
    let mut header = vec!["system_x \\ system_y".to_owned()];
    header.extend(systems.iter().cloned());
    let rows: Vec<Vec<String>> = systems
        .iter()
        .zip(&grid)
        .map(|(name, row)| {
            let mut r = vec![name.clone()];
            r.extend(row.iter().map(|c| match c {
                Some(true) => "True".to_owned(),
                Some(false) => "False".to_owned(),
                None => String::new(),
            }));
            r
        })
        .collect();
    out.push_str(&simple_table(&header, &rows));
    out
}

/// tabulate's `simple` format with headers, every column left-aligned:
/// widths of at least the header plus 2, columns joined by two spaces,
/// trailing spaces stripped.
fn simple_table(header: &[String], rows: &[Vec<String>]) -> String {
    let len = |s: &str| s.chars().count();
    let mut width: Vec<usize> = header.iter().map(|h| len(h) + 2).collect();
    for r in rows {
        for (w, c) in width.iter_mut().zip(r) {
            *w = (*w).max(len(c));
        }
    }
    let line = |cells: &[String]| {
        let padded: Vec<String> =
            cells.iter().zip(&width).map(|(c, &w)| format!("{c}{}", " ".repeat(w - len(c)))).collect();
        format!("{}\n", padded.join("  ").trim_end())
    };
    let mut out = line(header);
    let rule: Vec<String> = width.iter().map(|&w| "-".repeat(w)).collect();
    out.push_str(&line(&rule));
    for r in rows {
        out.push_str(&line(r));
    }
    out
}

/// The JSON of the comparisons: per metric an object with the settings,
/// comet-compare's `statistical_results` (its keys: `x_name`, `y_name`,
/// `bootstrap_resampling` with `x-mean`, `y-mean`, `ties (%)`, `x_wins
/// (%)`, `y_wins (%)`, and `paired_t-test` with `statistic`, `p_value`) and
/// the summary grid (`summary[i][j]`: system i significantly better than j;
/// `null` on the diagonal).
#[must_use]
pub fn json(systems: &[String], results: &[MetricComparison], opts: &Options) -> String {
    let items: Vec<Json> = results
        .iter()
        .map(|m| {
            let pairs: Vec<Json> = m
                .comparison
                .pairs
                .iter()
                .map(|p| {
                    let b = &p.bootstrap;
                    Json::Object(vec![
                        ("x_name".to_owned(), Json::from(systems[p.x].as_str())),
                        ("y_name".to_owned(), Json::from(systems[p.y].as_str())),
                        (
                            "bootstrap_resampling".to_owned(),
                            Json::Object(vec![
                                ("x-mean".to_owned(), Json::from(f64::from(b.x_mean))),
                                ("y-mean".to_owned(), Json::from(f64::from(b.y_mean))),
                                ("ties (%)".to_owned(), Json::from(b.ties)),
                                ("x_wins (%)".to_owned(), Json::from(b.x_wins)),
                                ("y_wins (%)".to_owned(), Json::from(b.y_wins)),
                            ]),
                        ),
                        (
                            "paired_t-test".to_owned(),
                            Json::Object(vec![
                                ("statistic".to_owned(), Json::from(f64::from(p.t_test.statistic))),
                                ("p_value".to_owned(), Json::from(f64::from(p.t_test.p_value))),
                            ]),
                        ),
                    ])
                })
                .collect();
            let grid: Vec<Json> = m
                .comparison
                .grid(SUMMARY_THRESHOLD, m.lower_is_better)
                .into_iter()
                .map(|row| Json::Array(row.into_iter().map(|c| c.map_or(Json::Null, Json::from)).collect()))
                .collect();
            let count = Json::from;
            Json::Object(vec![
                ("metric".to_owned(), Json::from(m.name.as_str())),
                ("signature".to_owned(), Json::from(m.signature.as_str())),
                ("systems".to_owned(), Json::Array(systems.iter().map(|s| Json::from(s.as_str())).collect())),
                ("segments".to_owned(), count(m.comparison.segments)),
                ("seed".to_owned(), Json::Leaf(serde_json::Value::from(opts.seed))),
                ("num_splits".to_owned(), count(opts.num_splits)),
                ("sample_ratio".to_owned(), Json::from(opts.sample_ratio)),
                ("sample_size".to_owned(), count(m.comparison.sample_size)),
                ("t_test_alternative".to_owned(), Json::from(opts.alternative.name())),
                ("lower_is_better".to_owned(), Json::from(m.lower_is_better)),
                ("statistical_results".to_owned(), Json::Array(pairs)),
                ("summary".to_owned(), Json::Array(grid)),
            ])
        })
        .collect();
    format!("{}\n", Json::Array(items).pretty(4))
}
