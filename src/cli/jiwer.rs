//! `mteval jiwer -r REF -h HYP [-c] [-a] [-g]`: jiwer 4.0.0's command line,
//! same input handling and same printed output, aligned on all cores.
//!
//! jiwer reads each file with Python's universal newlines (`\n`, `\r\n`,
//! `\r`), strips every line and keeps only the lines longer than one
//! character (a one-character line is dropped, as jiwer drops it). Without
//! `-g` the two files must then have as many lines; `-g` joins each side's
//! lines with a space into one sentence (jiwer's `wer_contiguous` /
//! `cer_contiguous`). It prints `wer` (`cer` with `-c`) as Python prints the
//! value (an int when every reference is empty), or with `-a`
//! `visualize_alignment(out, show_measures=True)`. `--normalize
//! whisper-english` (mteval's addition) normalises each kept line with
//! Whisper's English normaliser first.

use std::path::PathBuf;

use anyhow::{Result, bail};
use mteval_kernels::py::text::{py_float_repr, py_strip};
use mteval_kernels::wer::{Unit, VisualizeOptions, WerConfig, WerCounts};
use mteval_kernels::whisper::Normalizer;
use mteval_kernels::whisper::basic::BasicOptions;
use rayon::prelude::*;

use mteval::corpus::textfiles::read_utf8;

/// Arguments of `mteval jiwer` (jiwer's own flags; `--help` only, as `-h`
/// is the hypothesis).
#[derive(Debug, clap::Args)]
#[command(disable_help_flag = true)]
pub struct JiwerArgs {
    /// Path to new-line delimited text file of reference sentences.
    #[arg(short = 'r', long = "reference")]
    pub reference: PathBuf,
    /// Path to new-line delimited text file of hypothesis sentences.
    #[arg(short = 'h', long = "hypothesis")]
    pub hypothesis: PathBuf,
    /// Compute CER instead of WER.
    #[arg(short = 'c', long = "cer")]
    pub cer: bool,
    /// Print alignment of each sentence.
    #[arg(short = 'a', long = "align")]
    pub align: bool,
    /// Apply a global minimal alignment between reference and hypothesis sentences before
    /// computing the WER.
    #[arg(short = 'g', long = "global")]
    pub global: bool,
    /// Normalise every sentence first, as ASR evaluations do (not in jiwer): Whisper's English or basic
    /// text normaliser, as whisper-normalizer 0.1.15 gives them, applied to each kept line before the
    /// measure (before the join with -g).
    #[arg(long = "normalize", value_enum, value_name = "NORMALIZER")]
    pub normalize: Option<Normalize>,
    /// Print help.
    #[arg(long, action = clap::ArgAction::Help)]
    pub help: Option<bool>,
}

/// `--normalize`'s values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Normalize {
    /// Whisper's `EnglishTextNormalizer`.
    WhisperEnglish,
    /// Whisper's `BasicTextNormalizer`.
    WhisperBasic,
}

/// The lines jiwer keeps: Python's `readlines()` in text mode (universal
/// newlines), each `strip()`ped, those longer than one code point.
fn sentences(text: &str) -> Vec<&str> {
    mteval::corpus::textfiles::universal_lines(text).map(py_strip).filter(|s| s.chars().nth(1).is_some()).collect()
}

/// What jiwer prints for a measure: Python's `repr` of a float, or of an
/// int when every reference is empty (`wer` is then the insertion count).
fn py_measure(x: f64, counts: &WerCounts) -> String {
    if counts.ref_len == 0 { format!("{}", counts.insertions) } else { py_float_repr(x) }
}

pub(super) fn run(a: &JiwerArgs) -> Result<()> {
    let (ref_text, hyp_text) = (read_utf8(&a.reference)?, read_utf8(&a.hypothesis)?);
    let (mut refs, mut hyps) = (sentences(&ref_text), sentences(&hyp_text));
    let normalized: [Vec<String>; 2];
    if let Some(n) = a.normalize {
        let n = match n {
            Normalize::WhisperEnglish => Normalizer::English,
            Normalize::WhisperBasic => Normalizer::Basic(BasicOptions::default()),
        };
        let all = |v: &[&str]| v.par_iter().with_min_len(64).map(|s| n.apply(s)).collect::<Vec<_>>();
        normalized = [all(&refs), all(&hyps)];
        refs = normalized[0].iter().map(String::as_str).collect();
        hyps = normalized[1].iter().map(String::as_str).collect();
    }
    let joined: [String; 2];
    if a.global {
        // ReduceToSingleSentence, then the reduction to tokens: one sentence
        // per side, empty when the side has no line.
        joined = [refs.join(" "), hyps.join(" ")];
        refs = vec![joined[0].as_str()];
        hyps = vec![joined[1].as_str()];
    } else if refs.len() != hyps.len() {
        bail!(
            "Number of reference sentences ({} in '{}') and hypothesis sentences ({} in '{}') do not match! Use \
             the `--global` flag to compute the measures over a global alignment of the reference and hypothesis \
             sentences.",
            refs.len(),
            a.reference.display(),
            hyps.len(),
            a.hypothesis.display()
        );
    } else if refs.is_empty() {
        // jiwer's reductions give one empty sentence for no sentence at all.
        refs = vec![""];
        hyps = vec![""];
    }
    let cfg = WerConfig { unit: if a.cer { Unit::Char } else { Unit::Word }, ..WerConfig::default() };
    let pairs: Vec<(&str, &str)> = hyps.iter().copied().zip(refs.iter().copied()).collect();
    let out = if a.align {
        let alignments: Vec<_> =
            pairs.par_iter().with_min_len(16).filter_map(|(h, r)| cfg.alignment(h, &[r])).collect();
        cfg.visualize(&alignments, VisualizeOptions::default())
    } else {
        let counts =
            pairs.par_iter().with_min_len(16).map(|(h, r)| cfg.counts(h, r)).reduce(WerCounts::default, |mut x, y| {
                x.add(&y);
                x
            });
        format!("{}\n", py_measure(counts.wer(), &counts))
    };
    mteval::output::write_stdout(out.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jiwers_lines_are_stripped_and_longer_than_one_character() {
        assert_eq!(
            sentences("a\nhello world\n\n  x y  \r\nb c\rd\u{2028}e"),
            ["hello world", "x y", "b c", "d\u{2028}e"]
        );
        assert!(sentences("").is_empty());
        assert!(sentences("a\n \n\t\n").is_empty());
    }
}
