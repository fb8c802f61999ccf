//! Segment scores of text-mode systems (`mteval compare REF -i SYS...
//! --score-file NAME=FILE`): the output of `comet-score` (a line
//! `PATH<TAB>Segment I<TAB>score: X` per system and segment, matched to the
//! `-i` files by path; its `PATH<TAB>score: X` system lines are skipped), or
//! plain files with one number per line, one file per `-i` system in order
//! (`NAME=SYS1.scores,SYS2.scores`).

use std::collections::HashMap;
use std::path::Path;

use anyhow::{Context, Result, bail};
use mteval_kernels::metric::segment_score::SegmentScore;

use crate::corpus::textfiles::{read_utf8, split_lines};

/// A `--score-file` flag: the score's name (with `:lower`) and its files.
#[derive(Debug, Clone)]
pub struct ScoreFile {
    /// `NAME` or `NAME:lower`, as `--score-col` takes it.
    pub name: String,
    /// `NAME` alone.
    column: String,
    /// One comet-score output, or one plain file per system.
    pub files: Vec<String>,
}

impl ScoreFile {
    /// `NAME[:lower]=FILE[,FILE...]`.
    ///
    /// # Errors
    /// A flag without `=` or without files.
    pub fn parse(flag: &str) -> Result<Self> {
        let Some((name, files)) = flag.split_once('=') else {
            bail!("--score-file {flag}: expected NAME=FILE (comet-score's output) or NAME=SYS1.scores,SYS2.scores");
        };
        let files: Vec<String> = files.split(',').filter(|f| !f.is_empty()).map(str::to_owned).collect();
        if files.is_empty() || name.trim().is_empty() {
            bail!("--score-file {flag}: expected NAME=FILE (comet-score's output) or NAME=SYS1.scores,SYS2.scores");
        }
        let column = segment_score_flag("--score-file", name.trim())?.name;
        Ok(Self { name: name.trim().to_owned(), column, files })
    }

    /// The column name (without `:lower`), as [`SegmentScore::from_flag`] reads it.
    #[must_use]
    pub fn column(&self) -> &str {
        &self.column
    }

    /// The scores of each of `systems` (the `-i` paths as given), `n`
    /// segments each.
    ///
    /// # Errors
    /// Unreadable files, lines that are not scores, a system without a
    /// score for every segment, or plain files not one per system.
    pub fn read(&self, systems: &[String], n: usize) -> Result<Vec<Vec<f64>>> {
        let flag = format!("--score-file {}", self.name);
        if let [one] = &self.files[..] {
            let text = read_utf8(Path::new(one)).with_context(|| flag.clone())?;
            if text.lines().any(|l| l.contains("\tSegment ")) {
                return comet_scores(one, &text, systems, n).with_context(|| flag.clone());
            }
        }
        if self.files.len() != systems.len() {
            bail!(
                "{flag}: {} plain score files for {} systems; give one per -i file, in order, or comet-score's \
                 output",
                self.files.len(),
                systems.len()
            );
        }
        self.files
            .iter()
            .zip(systems)
            .map(|(f, sys)| {
                let text = read_utf8(Path::new(f)).with_context(|| flag.clone())?;
                let lines = split_lines(&text);
                if lines.len() != n {
                    bail!("{flag}: {f} has {} lines but {sys} has {n}", lines.len());
                }
                lines.iter().enumerate().map(|(i, l)| number(f, i, l.trim())).collect()
            })
            .collect()
    }
}

/// The options a score's name may carry after `:` (`NAME:lower`).
const SCORE_OPTIONS: [&str; 2] = ["lower", "higher"];

/// `value`, a score's `NAME` or `NAME:lower` (`NAME:higher`) as `flag`
/// (`--score-col`, `--score-file`) takes it.
///
/// # Errors
/// An empty name, or an option after `:` other than `lower` or `higher`,
/// naming the flag, its value and the options known.
pub(crate) fn segment_score_flag(flag: &str, value: &str) -> Result<SegmentScore> {
    if let Some((name, opt)) = value.rsplit_once(':')
        && !name.trim().is_empty()
        && !SCORE_OPTIONS.contains(&opt.trim().to_ascii_lowercase().as_str())
    {
        let known = SCORE_OPTIONS.join(", ");
        if opt.trim().is_empty() {
            bail!("{flag} {value}: no option after ':' (known: {known}), or give the name alone");
        }
        bail!("{flag} {value}: unknown option '{opt}' (known: {known})");
    }
    SegmentScore::from_flag(value).map_err(|e| match e {
        mteval_kernels::MetricError::InvalidOption { reason, .. } => anyhow::anyhow!("{flag} {reason}"),
        other => anyhow::anyhow!("{flag} {value}: {other}"),
    })
}

/// A finite number on line `i` (from 0) of `file`.
fn number(file: &str, i: usize, s: &str) -> Result<f64> {
    match s.parse::<f64>() {
        Ok(x) if x.is_finite() => Ok(x),
        _ => bail!("{file}: line {}: '{s}' is not a score (a finite number)", i + 1),
    }
}

/// comet-score's lines `PATH<TAB>Segment I<TAB>score: X[<TAB>variance: V]`.
fn comet_scores(file: &str, text: &str, systems: &[String], n: usize) -> Result<Vec<Vec<f64>>> {
    // Per path, each segment's score and the line (from 0) that gave it.
    let mut by_path: HashMap<&str, Vec<Option<(f64, usize)>>> = HashMap::new();
    for (i, line) in text.lines().enumerate() {
        let fields: Vec<&str> = line.split('\t').collect();
        let seg = fields.get(1).and_then(|f| f.strip_prefix("Segment ")).and_then(|k| k.parse::<usize>().ok());
        let score = fields.get(2).and_then(|f| f.strip_prefix("score: "));
        match (seg, score) {
            (Some(k), Some(x)) => {
                let v = by_path.entry(fields[0]).or_default();
                if k >= v.len() {
                    v.resize(k + 1, None);
                }
                if let Some((_, first)) = v[k] {
                    bail!(
                        "{file}: line {}: segment {k} of {} is listed twice (first on line {}); comet-score prints \
                         each segment once",
                        i + 1,
                        fields[0],
                        first + 1
                    );
                }
                v[k] = Some((number(file, i, x.trim())?, i));
            }
            // `PATH<TAB>score: X` (the system score) and comet's other messages.
            _ if fields.len() == 2 && fields[1].starts_with("score: ") => {}
            _ if line.trim().is_empty() || line.starts_with("Predictions saved in") => {}
            _ => bail!("{file}: line {}: not a comet-score line (PATH<TAB>Segment I<TAB>score: X): {line}", i + 1),
        }
    }
    systems
        .iter()
        .map(|sys| {
            let Some(v) = by_path.get(sys.as_str()) else {
                let mut paths: Vec<&str> = by_path.keys().copied().collect();
                paths.sort_unstable();
                bail!("{file} has no scores for {sys} (it scores {}); give comet-score the -i paths", paths.join(", "));
            };
            if v.len() != n {
                bail!("{file} scores {} segments of {sys}, which has {n}", v.len());
            }
            v.iter()
                .enumerate()
                .map(|(k, x)| {
                    x.map(|(x, _)| x).with_context(|| format!("{file} has no score for segment {k} of {sys}"))
                })
                .collect()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comet_score_output_and_flags() {
        let out = "a.txt\tSegment 0\tscore: 0.8000\nb.txt\tSegment 0\tscore: 0.7000\na.txt\tSegment 1\tscore: \
                   0.6000\nb.txt\tSegment 1\tscore: 0.5000\tvariance: 0.0100\na.txt\tscore: 0.7000\nb.txt\tscore: \
                   0.6000\n";
        let systems = vec!["b.txt".to_owned(), "a.txt".to_owned()];
        assert_eq!(comet_scores("c", out, &systems, 2).unwrap(), vec![vec![0.7, 0.5], vec![0.8, 0.6]]);
        let e = comet_scores("c", out, &["z.txt".to_owned()], 2).unwrap_err().to_string();
        assert!(e.contains("c has no scores for z.txt (it scores a.txt, b.txt)"), "{e}");
        assert!(comet_scores("c", out, &systems, 3).unwrap_err().to_string().contains("scores 2 segments"));
        let bad = comet_scores("c", "a.txt\tSegment 0\tscore: x\n", &systems, 1).unwrap_err().to_string();
        assert!(bad.contains("line 1: 'x' is not a score"), "{bad}");
        let f = ScoreFile::parse("metricx:lower=a.s,b.s").unwrap();
        assert_eq!((f.column(), f.files.len()), ("metricx", 2));
        assert_eq!(ScoreFile::parse("comet=out.txt").unwrap().column(), "comet");
        assert!(ScoreFile::parse("comet").is_err() && ScoreFile::parse("=x").is_err());
    }

    #[test]
    fn a_segment_listed_twice_is_refused_with_both_lines() {
        // Issue 56, item 3: the second score of segment 0 used to replace the
        // first without a word (a.txt's mean became (0.9 + 0.4) / 2).
        let out = "a.txt\tSegment 0\tscore: 0.8000\na.txt\tSegment 1\tscore: 0.4000\na.txt\tSegment 0\tscore: \
                   0.9000\n";
        let e = comet_scores("c.out", out, &["a.txt".to_owned()], 2).unwrap_err().to_string();
        assert_eq!(
            e,
            "c.out: line 3: segment 0 of a.txt is listed twice (first on line 1); comet-score prints each segment once"
        );
    }

    #[test]
    fn score_flag_options_are_named_with_the_known_ones() {
        let e = segment_score_flag("--score-col", "comet:upper").unwrap_err().to_string();
        assert_eq!(e, "--score-col comet:upper: unknown option 'upper' (known: lower, higher)");
        let e = ScoreFile::parse("comet:upper=a.out").unwrap_err().to_string();
        assert_eq!(e, "--score-file comet:upper: unknown option 'upper' (known: lower, higher)");
        let e = segment_score_flag("--score-col", "comet:").unwrap_err().to_string();
        assert!(e.starts_with("--score-col comet:: no option after ':'"), "{e}");
        let e = segment_score_flag("--score-col", ":lower").unwrap_err().to_string();
        assert!(e.starts_with("--score-col ':lower': give a column name"), "{e}");
        assert_eq!(segment_score_flag("--score-col", "metricx:Lower").unwrap().name, "metricx");
    }
}
