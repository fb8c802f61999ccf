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
use crate::meta::taskset::{self, SetResult, TaskSetName};
use crate::meta::{LevelScores, MetaData};

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
    /// The weighted average correlation (rescaled to [0, 1]) and its cluster.
    avg: MetaCell,
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
    let data = MetaData { systems, seg: has_seg.then_some(seg), sys: Some(sys), ..MetaData::default() };
    let params = Params { k: K, block_size: crate::meta::TASK_BLOCK_SIZE, ..Params::default() };
    let (set, weights) = taskset::build(TaskSetName::Wmt23, &["all".to_owned()], &params);
    let (mut tasks, mut weights): (Vec<_>, Vec<f64>) =
        set.into_iter().zip(weights).filter(|(t, _)| has_seg || t.level == crate::meta::Level::Sys).unzip();
    // A task over a limit is left out before any work (`mteval meta` can
    // sample it).
    loop {
        let one: Vec<crate::meta::Task> =
            tasks.iter().map(|t| crate::meta::Task { level: t.level, measure: t.measure, params: t.params }).collect();
        let Some(o) = crate::meta::over_limit(&data, &one) else { break };
        tasks.remove(o.task);
        weights.remove(o.task);
        notes.push(format!(
            "{}: {}; left out (mteval meta --corr ties-opt --sample-rate R runs it on a sample of the pairs)",
            one[o.task].name(),
            o.describe()
        ));
    }
    let total: f64 = weights.iter().sum();
    let weights: Vec<f64> = weights.iter().map(|w| w / total).collect();
    // Each task from the seed, as `mteval meta` runs one test set's tasks.
    let results = taskset::run(&tasks, &|_, _| Ok(data.clone()), SEED, true)?;
    let avg = taskset::averages(&results, &weights, params.pval);
    Ok(Some(render(x, &results, &avg, notes)))
}

/// A row per metric in the order of the weighted average correlation (as
/// `mteval meta --tasks` prints it): its average rank, the average with its
/// cluster, and each task's correlation and rank.
fn render(x: &Inputs<'_>, results: &[SetResult], avg: &taskset::Averages, notes: Vec<String>) -> MetaSection {
    let cell = |c: Option<(f64, usize)>| match c {
        Some((corr, rank)) => MetaCell { corr: format!("{corr}"), text: format!("{corr:.4}"), rank: Some(rank) },
        None => MetaCell { corr: String::new(), text: "–".to_owned(), rank: None },
    };
    let rows = avg
        .corrs
        .iter()
        .map(|(name, c, r)| MetaRow {
            name: name.clone(),
            avg_rank: avg.ranks.iter().find(|x| &x.0 == name).map_or_else(String::new, |x| format!("{:.2}", x.1)),
            avg: cell(Some((*c, *r))),
            cells: results
                .iter()
                .map(|t| cell(t.comparison.metrics.iter().find(|m| &m.name == name).map(|m| (m.corr, m.rank))))
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
