//! `mteval calculate-cer HYP REF [--per-sentence]`: the `calculate-cer`
//! command of the `cer` package, same input handling (`str.splitlines()`,
//! `str.split()`) and same printed output (per-sentence blocks, then the
//! statistics as a Python dict), scored on all cores. Differences: an empty
//! reference scores 1.0 (the original `CharacTER`) where `cer` raises, and a
//! one-line file prints `'std': None` where `cer --per_sentence` raises.

use std::io::Write;
use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use mteval_kernels::py::text::py_float_repr;
use mteval_kernels::{CharacTerConfig, CorpusSummary};
use rayon::prelude::*;

use mteval::corpus::textfiles::read_utf8;

/// Arguments of `mteval calculate-cer`.
#[derive(Debug, clap::Args)]
pub struct CalculateCerArgs {
    /// File of hypothesis sentences, one per line.
    pub fhyp: PathBuf,
    /// File of reference sentences, one per line.
    pub fref: PathBuf,
    /// Also print every hypothesis/reference pair with its score.
    #[arg(short = 'r', long = "per-sentence", alias = "per_sentence")]
    pub per_sentence: bool,
    /// `CharacTER` options (`compat:cer`, `fuzzy:0.2`).
    #[arg(long, default_value = "")]
    pub options: String,
}

/// Python `str.splitlines()` line breaks.
const fn is_line_break(c: char) -> bool {
    matches!(c, '\n' | '\r' | '\u{0B}' | '\u{0C}' | '\u{1C}' | '\u{1D}' | '\u{1E}' | '\u{85}' | '\u{2028}' | '\u{2029}')
}

/// Python `str.splitlines()` (no trailing empty line; `\r\n` is one break).
fn splitlines(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut it = text.char_indices().peekable();
    while let Some((i, c)) = it.next() {
        if is_line_break(c) {
            out.push(&text[start..i]);
            let mut end = i + c.len_utf8();
            if c == '\r' && it.peek().is_some_and(|&(_, n)| n == '\n') {
                it.next();
                end += 1;
            }
            start = end;
        }
    }
    if start < text.len() {
        out.push(&text[start..]);
    }
    out
}

/// `n` with thousands separators, as Python's `f"{n:,}"`.
fn thousands(n: usize) -> String {
    let s = n.to_string();
    let mut out = String::with_capacity(s.len() + s.len() / 3);
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

pub(super) fn run(a: &CalculateCerArgs) -> Result<()> {
    let cfg = CharacTerConfig::parse(&a.options)?;
    let (hyp_text, ref_text) = (read_utf8(&a.fhyp)?, read_utf8(&a.fref)?);
    let (hyps, refs) = (splitlines(&hyp_text), splitlines(&ref_text));
    if hyps.len() != refs.len() {
        bail!(
            "both files need to contain the same number of lines: {} has {}, {} has {}",
            a.fhyp.display(),
            hyps.len(),
            a.fref.display(),
            refs.len()
        );
    }
    let scores: Vec<f64> = hyps
        .par_iter()
        .zip(refs.par_iter())
        .enumerate()
        .with_min_len(16)
        .map(|(i, (h, r))| cfg.sentence(h, r).with_context(|| format!("{}: line {}", a.fhyp.display(), i + 1)))
        .collect::<Result<_>>()?;
    // Formatted in full, then written: a closed or full standard output is
    // one clear error (see `mteval::output::write_stdout`).
    let mut out: Vec<u8> = Vec::new();
    if a.per_sentence {
        let join = |s: &str| mteval_kernels::py::text::py_split(s).collect::<Vec<_>>().join(" ");
        for (i, ((h, r), s)) in hyps.iter().zip(&refs).zip(&scores).enumerate() {
            let n = thousands(i + 1);
            writeln!(out, "Hypothesis {n}:\t{}", join(h))?;
            writeln!(out, "Reference {n}:\t{}", join(r))?;
            writeln!(out, "CER score {n}:\t{}\n", py_float_repr(*s))?;
        }
    }
    writeln!(out, "Processing completed! Corpus statistics:\n========================================")?;
    let Some(st) = CorpusSummary::from_scores(&scores) else {
        bail!("no sentences to score (mean requires at least one data point)");
    };
    let std = st.std.map_or_else(|| "None".to_owned(), py_float_repr);
    write!(
        out,
        "{{'count': {}, 'mean': {}, 'median': {}, 'std': {std}, 'min': {}, 'max': {}",
        st.count,
        py_float_repr(st.mean),
        py_float_repr(st.median),
        py_float_repr(st.min),
        py_float_repr(st.max)
    )?;
    if !a.per_sentence {
        let list: Vec<String> = scores.iter().map(|&s| py_float_repr(s)).collect();
        write!(out, ", 'cer_scores': [{}]", list.join(", "))?;
    }
    writeln!(out, "}}")?;
    mteval::output::write_stdout(&out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn python_splitlines_and_thousands() {
        assert_eq!(splitlines("a\nb\r\nc\rd\u{2028}e\u{1c}f\n"), ["a", "b", "c", "d", "e", "f"]);
        assert_eq!(splitlines("a\n\nb"), ["a", "", "b"]);
        assert!(splitlines("").is_empty());
        assert_eq!(thousands(1), "1");
        assert_eq!(thousands(1234), "1,234");
        assert_eq!(thousands(1_234_567), "1,234,567");
    }
}
