//! `mteval score --hyp hyp.txt --ref ref.txt [--ref ref2.txt]`: line-aligned
//! plain-text files, as sacrebleu takes them. Scored directly with the kernels
//! on all cores.

use std::path::Path;

use anyhow::{Context, Result, bail};
use mteval_kernels::NRefs;

use super::ScoreArgs;
use super::report::{self, ScoreLine};
use crate::metrics::resolve_metrics;

/// The path that names standard input (as sacrebleu reads a system there).
pub(crate) const STDIN: &str = "-";

/// Reads `path` as UTF-8 text (`-`: standard input); an invalid byte is
/// reported with its line.
/// A `.gz` file is decompressed first, as sacrebleu's `smart_open` does.
pub(crate) fn read_utf8(path: &Path) -> Result<String> {
    let mut bytes = if path == Path::new(STDIN) {
        let mut b = Vec::new();
        std::io::Read::read_to_end(&mut std::io::stdin().lock(), &mut b).context("cannot read standard input")?;
        b
    } else {
        std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?
    };
    if path.extension().is_some_and(|e| e.eq_ignore_ascii_case("gz")) {
        let mut plain = Vec::new();
        std::io::Read::read_to_end(&mut flate2::read::MultiGzDecoder::new(&bytes[..]), &mut plain)
            .with_context(|| format!("{}: not a valid gzip file", path.display()))?;
        bytes = plain;
    }
    String::from_utf8(bytes).map_err(|e| {
        #[allow(clippy::naive_bytecount, reason = "counted once, for an error message; not worth the bytecount crate")]
        let line = 1 + e.as_bytes()[..e.utf8_error().valid_up_to()].iter().filter(|&&b| b == b'\n').count();
        anyhow::anyhow!("{}: line {line} is not valid UTF-8", path.display())
    })
}

/// The lines of a text file's contents as sacrebleu's command line reads
/// them: split at `\n` only, then each line `rstrip()`ped (Python's
/// whitespace, so `\r`, tabs, U+3000 and U+001C go too). Only chrF with
/// `space:yes` sees the difference; every other metric splits or drops
/// whitespace itself.
pub(crate) fn split_lines(text: &str) -> Vec<&str> {
    if text.is_empty() {
        return Vec::new();
    }
    // A final `\n` ends the last line; it does not start another.
    let body = text.strip_suffix('\n').unwrap_or(text);
    body.split('\n').map(mteval_kernels::text::py_rstrip).collect()
}

/// Reads `path` as lines ([`split_lines`]), each its own string.
pub(crate) fn read_lines(path: &Path) -> Result<Vec<String>> {
    Ok(split_lines(&read_utf8(path)?).into_iter().map(str::to_owned).collect())
}

/// The `n` tab-separated references of every line (sacrebleu's
/// `--num-refs`: split at the first `n - 1` tabs), as `n` streams.
pub(crate) fn split_refs<'a>(path: &Path, lines: Vec<&'a str>, n: usize) -> Result<Vec<Vec<&'a str>>> {
    if n == 1 {
        return Ok(vec![lines]);
    }
    let mut streams: Vec<Vec<&str>> = vec![Vec::with_capacity(lines.len()); n];
    for (i, l) in lines.iter().enumerate() {
        let fields: Vec<&str> = l.splitn(n, '\t').collect();
        if fields.len() != n {
            bail!("{}: line {}: expected {n} tab-separated references, found {}", path.display(), i + 1, fields.len());
        }
        for (s, x) in streams.iter_mut().zip(fields) {
            s.push(x);
        }
    }
    Ok(streams)
}

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
    let backend = super::backend()?;
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
        crate::output::write_stdout(sentence_lines(&line.name, &sentences, a.json, several, w).as_bytes())?;
        report::print(&[line], a.json, w, a.score_only)?;
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
