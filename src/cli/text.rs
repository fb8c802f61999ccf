//! `mteval score --hyp hyp.txt --ref ref.txt [--ref ref2.txt]`: line-aligned
//! plain-text files, as sacrebleu takes them. Scored directly with the kernels
//! on all cores.

use anyhow::{Context, Result, bail};
use mteval_kernels::NRefs;

use super::args::ScoreArgs;
use super::score_lines::{self, ScoreLine};
use mteval::corpus::textfiles::{read_utf8, split_lines, split_refs};
use mteval::metrics::resolve_metrics;

pub(super) fn run(a: &ScoreArgs) -> Result<()> {
    let Some(hyp_path) = &a.hyp else { bail!("--hyp is required in text mode") };
    if a.refs.is_empty() {
        bail!("text mode needs at least one --ref file");
    }
    if a.output.is_some() {
        bail!("-o is for table inputs; in text mode scores are printed");
    }
    let metrics = resolve_metrics(&a.metrics, &a.options)?;
    if let Some(m) = metrics.iter().find(|m| !m.uses_refs()) {
        bail!("{} needs a table input with a terms column (mteval score INPUT -m term-acc)", m.column());
    }
    // Lines are slices of the files' contents: no string per line.
    let hyp_text = read_utf8(hyp_path)?;
    let hyps = split_lines(&hyp_text);
    if a.num_refs == 0 || (a.num_refs > 1 && a.refs.len() > 1) {
        bail!("--num-refs N reads N tab-separated references per line of one --ref file");
    }
    let ref_texts = a.refs.iter().map(|r| read_utf8(r)).collect::<Result<Vec<String>>>()?;
    let mut refs = Vec::new();
    for (r, text) in a.refs.iter().zip(&ref_texts) {
        let lines = split_lines(text);
        if lines.len() != hyps.len() {
            bail!("{} has {} lines but {} has {}", r.display(), lines.len(), hyp_path.display(), hyps.len());
        }
        refs.extend(split_refs(r, lines, a.num_refs)?);
    }
    let nrefs = NRefs::Fixed(refs.len());
    let w = a.width;
    let backend = mteval::session::device::backend()?;
    let rows: Vec<(&str, Vec<&str>)> =
        (0..hyps.len()).map(|i| (hyps[i], refs.iter().map(|r| r[i]).collect())).collect();
    // Every metric is computed before anything is printed, so that an error
    // (a line over a length limit) leaves no partial output behind.
    let mut results = Vec::with_capacity(metrics.len());
    for m in &metrics {
        // Sentence scores (line, score), printed with the corpus score.
        let mut out: Vec<(usize, f64)> = Vec::new();
        let segs = m.metric().segments_on(backend.as_ref(), &rows);
        let mut st = m.corpus();
        for (i, s) in segs.into_iter().enumerate() {
            let Some(s) = s.with_context(|| format!("{}: line {}", hyp_path.display(), i + 1))? else { continue };
            st.add(&s);
            if a.sentence
                && let Some(x) = m.metric().sentence_score(&s)
            {
                out.push((i + 1, x));
            }
        }
        let (score, segments) = (st.score(), st.segments());
        results
            .push((out, ScoreLine { group: None, name: m.display(), signature: m.signature(nrefs), score, segments }));
    }
    let several = results.len() > 1;
    for (sentences, line) in results {
        mteval::output::write_stdout(sentence_lines(&line.name, &sentences, a.json, several, w).as_bytes())?;
        score_lines::print(&[line], a.json, w, a.score_only)?;
    }
    Ok(())
}

/// The sentence scores of one metric, before its corpus line: sacrebleu's
/// `N<TAB>score` lines, with the metric's name in front when several
/// metrics are printed (`TER<TAB>N<TAB>score`), or with `--json` one object
/// per line (`{"name": "TER", "line": N, "score": ...}`, full precision).
fn sentence_lines(name: &str, scores: &[(usize, f64)], json: bool, several: bool, w: usize) -> String {
    use std::fmt::Write as _;
    let mut s = String::new();
    for (line, score) in scores {
        let _ = if json {
            writeln!(s, "{}", serde_json::json!({"name": name, "line": line, "score": score}))
        } else if several {
            writeln!(s, "{name}\t{line}\t{score:.w$}")
        } else {
            writeln!(s, "{line}\t{score:.w$}")
        };
    }
    s
}
