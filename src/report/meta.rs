//! The report's meta-evaluation section (`mteval report --gold COL`): the
//! page's metrics ranked by their agreement with the gold (human) scores,
//! as `mteval meta` ranks them (WMT23's four tasks, mt-metrics-eval's
//! numbers). Segment level: each metric's sentence scores; system level:
//! its corpus scores (the systems table's) against each system's mean gold
//! score. Lower-is-better metrics are negated, as mt-metrics-eval's data
//! holds every metric higher-is-better. Systems are taken in name order.

use anyhow::Result;
use mteval_kernels::meta::permutation::Params;
use mteval_kernels::py::numpy_mean;
use serde::Serialize;

use crate::corpus::Corpus;
use crate::meta::{LevelScores, MetaData, TaskResult, run_tasks, wmt23_tasks};

/// Resampling runs per pair of metrics and the seed (`mteval meta`'s defaults).
const K: usize = 1000;
const SEED: u32 = 12345;

#[derive(Serialize)]
pub(super) struct MetaSection {
    gold: String,
    k: usize,
    seed: u32,
    tasks: Vec<String>,
    rows: Vec<MetaRow>,
    notes: Vec<String>,
}

#[derive(Serialize)]
struct MetaRow {
    name: String,
    avg_rank: String,
    cells: Vec<MetaCell>,
}

#[derive(Serialize)]
struct MetaCell {
    /// Full precision, for tools reading the page.
    corr: String,
    text: String,
    rank: Option<usize>,
}

/// What the section is made of: the page's metric names and directions,
/// `sentence[s][k][i]` and the corpus scores `corpus_scores[s][k]`.
pub(super) struct Inputs<'a> {
    pub gold_col: &'a str,
    pub names: &'a [String],
    pub lower: &'a [bool],
    pub sentence: &'a [Vec<Vec<f64>>],
    pub corpus_scores: &'a [Vec<f64>],
}

/// The section; `None` without gold scores or with fewer than two systems.
///
/// # Errors
/// A failing ranking.
pub(super) fn section(corpus: &Corpus, x: &Inputs<'_>) -> Result<Option<MetaSection>> {
    let n_sys = corpus.systems.len();
    if corpus.gold.is_empty() || n_sys < 2 {
        return Ok(None);
    }
    let mut order: Vec<usize> = (0..n_sys).collect();
    order.sort_by(|&a, &b| corpus.systems[a].0.cmp(&corpus.systems[b].0));
    let n_seg = corpus.refs.len();
    let sign = |k: usize| if x.lower[k] { -1.0 } else { 1.0 };
    let label = |k: usize| if x.lower[k] { format!("{} (negated)", x.names[k]) } else { x.names[k].clone() };
    let mut notes = Vec::new();
    let mut seg = LevelScores { items: n_seg, ..LevelScores::default() };
    let mut sys = LevelScores { items: 1, ..LevelScores::default() };
    for &s in &order {
        seg.gold.extend(&corpus.gold[s]);
        let present: Vec<f64> = corpus.gold[s].iter().flatten().copied().collect();
        sys.gold.push(numpy_mean(&present));
    }
    for k in 0..x.names.len() {
        let scores: Vec<f64> = order.iter().flat_map(|&s| x.sentence[s][k].iter().map(move |v| sign(k) * v)).collect();
        if scores.iter().all(|v| v.is_finite()) {
            seg.metrics.push((label(k), scores));
        } else {
            notes.push(format!("{} has no sentence score for some segment: left out at the segment level", x.names[k]));
        }
        sys.metrics.push((label(k), order.iter().map(|&s| sign(k) * x.corpus_scores[s][k]).collect()));
    }
    let systems = order.iter().map(|&s| corpus.systems[s].0.clone()).collect();
    let has_seg = n_seg > 1 && !seg.metrics.is_empty();
    let data = MetaData { systems, seg: has_seg.then_some(seg), sys: Some(sys) };
    let mut tasks: Vec<_> =
        wmt23_tasks(&Params { k: K, block_size: crate::meta::TASK_BLOCK_SIZE, ..Params::default() })
            .into_iter()
            .filter(|t| has_seg || t.level == crate::meta::Level::Sys)
            .collect();
    // A task over a limit is left out before any work (`mteval meta` can
    // sample it).
    while let Some(o) = crate::meta::over_limit(&data, &tasks) {
        let t = tasks.remove(o.task);
        notes.push(format!(
            "{}: {}; left out (mteval meta --corr ties-opt --sample-rate R runs it on a sample of the pairs)",
            t.name(),
            o.describe()
        ));
    }
    let results = run_tasks(&data, &tasks, SEED)?;
    Ok(Some(render(x, &results, notes)))
}

fn render(x: &Inputs<'_>, results: &[TaskResult], notes: Vec<String>) -> MetaSection {
    let rows = crate::meta::summary_rows(results)
        .into_iter()
        .map(|(name, avg, cells)| MetaRow {
            name,
            avg_rank: format!("{avg:.2}"),
            cells: cells
                .into_iter()
                .map(|c| match c {
                    Some((corr, rank)) => {
                        MetaCell { corr: format!("{corr}"), text: format!("{corr:.4}"), rank: Some(rank) }
                    }
                    None => MetaCell { corr: String::new(), text: "–".to_owned(), rank: None },
                })
                .collect(),
        })
        .collect();
    MetaSection {
        gold: x.gold_col.to_owned(),
        k: K,
        seed: SEED,
        tasks: results.iter().map(|r| r.task.name()).collect(),
        rows,
        notes,
    }
}
