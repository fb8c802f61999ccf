//! The arguments of `mteval sql`, `mteval score` and `mteval mbr`, and the
//! flags `compare` and `report` share (a table's columns, sacrebleu's paired
//! tests); the other subcommands declare theirs in their own modules.

use std::path::PathBuf;

use anyhow::{Result, bail};
use mteval::compare::paired::{resamples, seed_of};
use mteval::corpus::{TableSpec, default_ref_cols};
use mteval::output::Format;
use mteval::session::MAX_BATCH;
use mteval_kernels::significance::{self, PairedTest};

/// Arguments of `mteval mbr`.
#[derive(Debug, clap::Args)]
pub struct MbrArgs {
    /// Input table of candidates: .parquet, .csv, .tsv, .json, .jsonl or .ndjson.
    pub input: String,
    /// Column(s) identifying a source segment (repeatable); one hypothesis is selected per group.
    #[arg(long = "group-by", required = true, num_args = 1..)]
    pub group_by: Vec<String>,
    /// Hypothesis (candidate) column.
    #[arg(long, default_value = "hyp")]
    pub hyp_col: String,
    /// Pseudo-reference column (default: the candidates themselves).
    #[arg(long)]
    pub pseudo_ref_col: Option<String>,
    /// Expected-utility function: a row of the utility table, with or without its `mbr_`
    /// prefix: `chrf` (mean pairwise chrF), `chrf_aggregate` (fastchrf's aggregate chrF; also
    /// `chrf-aggregate`) or `ter` (mean sentence TER, lower is better); or any text metric,
    /// whose mean sentence score is the utility, its direction deciding (`wer`, `mer`,
    /// `char_error_rate`, `bleu`, `chrf++`, `cer`...).
    #[arg(long, default_value = "chrf")]
    pub utility: String,
    /// Utility options in signature syntax (its metric's keys, such as chrF's `nw:2` or WER's
    /// `unit:char`), plus `self:no` to leave each candidate's own pseudo-reference out.
    #[arg(long)]
    pub options: Option<String>,
    /// Write the selected rows (input columns + utility + `n_candidates`) here; printed when absent.
    #[arg(short = 'o', long)]
    pub output: Option<PathBuf>,
    /// Memory pool for `DataFusion`'s operators, e.g. `512M`, `2G` (sorts, joins and
    /// aggregations spill to disk beyond it; scans and scoring stream batch by batch).
    #[arg(long, value_parser = parse_bytes)]
    pub memory_limit: Option<usize>,
}

/// Arguments of `mteval sql`.
#[derive(Debug, clap::Args)]
pub struct SqlArgs {
    /// SQL to run (repeatable; each may hold several `;`-separated statements).
    #[arg(short = 'c', long = "command")]
    pub commands: Vec<String>,
    /// SQL files to run (repeatable).
    #[arg(short = 'f', long = "file")]
    pub files: Vec<PathBuf>,
    /// How results are printed.
    #[arg(long, value_parser = super::named::<Format>(), default_value = "table")]
    pub format: Format,
    /// Write the result of the last statement to this file (.parquet, .csv, .json, .jsonl) instead of printing it.
    #[arg(short = 'o', long)]
    pub output: Option<PathBuf>,
    /// Rows per batch.
    #[arg(long, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=MAX_BATCH))]
    pub batch_size: Option<usize>,
    /// `DataFusion` partitions (`datafusion.execution.target_partitions`). The default, 1,
    /// keeps the input order, which makes results bit-identical to the reference tools
    /// where their float sums depend on order (corpus TER over 3, 5, 6... references,
    /// `mbr_chrf` means); the metric functions use every core within each batch anyway.
    /// More partitions parallelise scans, joins and sorts. `SET` can change it in SQL.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..))]
    pub partitions: u16,
    /// Memory pool for `DataFusion`'s operators, e.g. `512M`, `2G` (sorts, joins and
    /// aggregations spill to disk beyond it; scans and scoring stream batch by batch).
    #[arg(long, value_parser = parse_bytes)]
    pub memory_limit: Option<usize>,
    /// Run the queries on a Ballista cluster, `df://HOST:PORT` (its scheduler; see `mteval scheduler`).
    #[arg(long)]
    pub cluster: Option<String>,
    /// With --cluster: seconds to wait for an executor to register before the queries fail
    /// (a cluster without one would queue them for ever).
    #[arg(long, default_value_t = 30, requires = "cluster")]
    pub executor_wait: u64,
}

/// Arguments of `mteval score`.
#[derive(Debug, clap::Args)]
pub struct ScoreArgs {
    /// Input table: .parquet, .csv, .tsv, .json, .jsonl or .ndjson (not with --hyp).
    pub input: Option<String>,
    /// Metrics to compute (repeatable): any name of the metric table (docs/sql.md), e.g. ter, chrf++, wer,
    /// characTER, term-acc.
    #[arg(short = 'm', long = "metric", default_values_t = vec!["ter".to_owned()], num_args = 1..)]
    pub metrics: Vec<String>,
    /// Metric options in signature syntax, as `METRIC=OPTIONS` (e.g. `ter=norm:yes|case:mixed`),
    /// or just `OPTIONS` when one metric is given. Repeatable.
    #[arg(long = "options")]
    pub options: Vec<String>,
    /// Hypothesis column.
    #[arg(long, default_value = "hyp", conflicts_with = "hyp")]
    pub hyp_col: String,
    /// Reference column(s); several give multiple references per row (NULLs are skipped).
    #[arg(long = "ref-col", default_values_t = vec!["ref".to_owned()], conflicts_with = "hyp")]
    pub ref_cols: Vec<String>,
    /// Terms column for term-acc: per row a list of terms, each a list of alternatives.
    #[arg(long, default_value = "terms", conflicts_with = "hyp")]
    pub terms_col: String,
    /// Lemmas column for term-acc-lemmatized: per row a list of {lemma, start, end} (code-point offsets).
    #[arg(long, default_value = "lemmas", conflicts_with = "hyp")]
    pub lemmas_col: String,
    /// Print the corpus score per value of this column (table inputs; text files have no columns).
    #[arg(long, conflicts_with = "hyp")]
    pub group_by: Option<String>,
    /// Write the input rows with score columns appended (Parquet keeps the signatures in its metadata).
    /// Table inputs only: text mode prints its scores.
    #[arg(short = 'o', long, conflicts_with = "hyp")]
    pub output: Option<PathBuf>,
    /// Memory pool for `DataFusion`'s operators, e.g. `512M`, `2G` (sorts, joins and
    /// aggregations spill to disk beyond it; scans and scoring stream batch by batch).
    #[arg(long, value_parser = parse_bytes, conflicts_with = "hyp")]
    pub memory_limit: Option<usize>,
    /// Text mode: line-aligned hypothesis file.
    #[arg(long, conflicts_with = "input")]
    pub hyp: Option<PathBuf>,
    /// Text mode: line-aligned reference file (repeat for multiple references).
    #[arg(long = "ref", requires = "hyp")]
    pub refs: Vec<PathBuf>,
    /// Text mode: also print the score of every line.
    #[arg(long, requires = "hyp")]
    pub sentence: bool,
    /// Text mode: each reference line holds N tab-separated references (sacrebleu's --num-refs).
    #[arg(long = "num-refs", default_value_t = 1, requires = "hyp")]
    pub num_refs: usize,
    /// Print only the scores, without names and signatures (sacrebleu's -b).
    #[arg(short = 'b', long = "score-only")]
    pub score_only: bool,
    /// Print scores as JSON lines (`{"name", "score", "signature", ...}`) instead of text.
    #[arg(long)]
    pub json: bool,
    /// Decimal places of printed scores (text output).
    #[arg(short = 'w', long, default_value_t = 4)]
    pub width: usize,
    /// Rows per batch.
    #[arg(long, default_value_t = 8192, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=MAX_BATCH), conflicts_with = "hyp")]
    pub batch_size: usize,
    /// Also write the HTML report of the scores (`mteval report`): the systems are the
    /// `--group-by` values (one system without it); metrics with significance tests only (not
    /// `CharacTER`, term accuracy, MBR). Table inputs only.
    #[arg(long, conflicts_with = "hyp")]
    pub report: Option<PathBuf>,
    /// Score on a Ballista cluster, `df://HOST:PORT` (its scheduler; see `mteval scheduler`). Table inputs only.
    #[arg(long, conflicts_with = "hyp")]
    pub cluster: Option<String>,
    /// With --cluster: seconds to wait for an executor to register before the job fails
    /// (a cluster without one would queue it for ever).
    #[arg(long, default_value_t = 30, requires = "cluster")]
    pub executor_wait: u64,
    /// Score N partitions of the input at once (its files, and ranges of large files, in
    /// order). The output rows stay in input order and the corpus statistics are summed in
    /// input order, so every number equals the default's; the scored rows of later partitions
    /// wait in memory until the earlier ones are written.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..), conflicts_with = "hyp")]
    pub partitions: u16,
}

/// Parses a byte size: a number with an optional unit (`K`, `M`, `G`, `T`,
/// powers of 1024, with or without `B`/`iB`), e.g. `512M`, `1.5G`.
pub(crate) fn parse_bytes(s: &str) -> Result<usize, String> {
    let t = s.trim();
    let split = t.find(|c: char| c.is_ascii_alphabetic()).unwrap_or(t.len());
    let (num, unit) = t.split_at(split);
    let n: f64 = num.trim().parse().map_err(|_| format!("'{s}': expected a size such as 512M or 2G"))?;
    let scale = match unit.to_ascii_uppercase().trim_end_matches("IB").trim_end_matches('B') {
        "" => 1u64,
        "K" => 1 << 10,
        "M" => 1 << 20,
        "G" => 1 << 30,
        "T" => 1 << 40,
        _ => return Err(format!("'{s}': unknown unit '{unit}' (use K, M, G or T)")),
    };
    #[allow(clippy::cast_precision_loss, reason = "the unit scales are powers of two up to 2^40, exact in f64")]
    let bytes = n * scale as f64;
    if !(bytes.is_finite() && bytes >= 1.0 && bytes < 2f64.powi(62)) {
        return Err(format!("'{s}': the size must be positive"));
    }
    #[allow(
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        reason = "bytes is checked above to lie in [1, 2^62)"
    )]
    Ok(bytes as usize)
}

#[cfg(test)]
mod tests {
    use super::parse_bytes;

    #[test]
    fn byte_sizes() {
        assert_eq!(parse_bytes("512"), Ok(512));
        assert_eq!(parse_bytes("64K"), Ok(64 << 10));
        assert_eq!(parse_bytes("512M"), Ok(512 << 20));
        assert_eq!(parse_bytes("2GiB"), Ok(2 << 30));
        assert_eq!(parse_bytes("1.5g"), Ok(3 << 29));
        assert_eq!(parse_bytes("2 GB"), Ok(2 << 30));
        for bad in ["", "G", "0", "-1G", "12Q", "nanM"] {
            assert!(parse_bytes(bad).is_err(), "{bad}");
        }
    }
}

/// The columns of a table with a row per segment and system (`mteval
/// compare`, `mteval report`), and the baseline system. The column flags
/// are options without a stored default, so that text mode can refuse
/// them when given (text files have no columns).
#[derive(Debug, clap::Args)]
pub struct TableColumns {
    /// Table mode: the column naming the system of each row [default: system].
    #[arg(long)]
    pub system_col: Option<String>,
    /// Table mode: hypothesis column [default: hyp].
    #[arg(long)]
    pub hyp_col: Option<String>,
    /// Table mode: reference column(s); NULL references are skipped [default: ref].
    #[arg(long = "ref-col")]
    pub ref_cols: Vec<String>,
    /// Table mode: the column identifying a segment, to align the systems' rows (default: each
    /// system's rows in input order).
    #[arg(long)]
    pub segment_col: Option<String>,
    /// The baseline system (default: the first system in the input; in text mode, one of the -i
    /// files as given).
    #[arg(long)]
    pub baseline: Option<String>,
}

impl TableColumns {
    /// What [`read_table`] reads from `input`, with `extra_cols` (name, required).
    pub(crate) fn spec<'a>(&'a self, input: &'a str, extra_cols: &'a [(String, bool)]) -> TableSpec<'a> {
        TableSpec {
            input,
            system_col: Some(self.system_col.as_deref().unwrap_or("system")),
            hyp_col: self.hyp_col.as_deref().unwrap_or("hyp"),
            ref_cols: if self.ref_cols.is_empty() { default_ref_cols() } else { &self.ref_cols },
            segment_col: self.segment_col.as_deref(),
            baseline: self.baseline.as_deref(),
            extra_cols,
            score_cols: &[],
            text: true,
            gold_col: None,
        }
    }

    /// Text mode: refuses the column flags, which only a table has.
    ///
    /// # Errors
    /// A column flag that was given.
    pub(crate) fn refuse_in_text_mode(&self) -> Result<()> {
        for (flag, given) in [
            ("--system-col", self.system_col.is_some()),
            ("--hyp-col", self.hyp_col.is_some()),
            ("--ref-col", !self.ref_cols.is_empty()),
            ("--segment-col", self.segment_col.is_some()),
        ] {
            if given {
                bail!(
                    "{flag} is for table inputs; with -i the inputs are text files, aligned by line and named by \
                     their paths"
                );
            }
        }
        Ok(())
    }
}

/// `n` where it is positive, else `default`: sacrebleu's `PairedTest` takes a
/// count of 0 or less as its default.
fn positive_or(n: Option<i64>, default: usize) -> usize {
    n.and_then(|n| usize::try_from(n).ok()).filter(|&n| n > 0).unwrap_or(default)
}

/// sacrebleu's paired-test flags, as `compare` and `report` take them.
#[derive(Debug, Clone, clap::Args)]
pub struct PairedFlags {
    /// Paired bootstrap resampling against the baseline (sacrebleu's --paired-bs; `report`'s
    /// default).
    #[arg(long = "paired-bs", conflicts_with = "paired_ar")]
    pub paired_bs: bool,
    /// Paired approximate randomization against the baseline (sacrebleu's --paired-ar).
    #[arg(long = "paired-ar")]
    pub paired_ar: bool,
    /// Bootstrap resamples of --paired-bs (and of `report`'s 95% intervals). Default, and for 0
    /// or less as in sacrebleu: 1000.
    #[arg(long = "paired-bs-n", allow_negative_numbers = true)]
    pub paired_bs_n: Option<i64>,
    /// Trials of --paired-ar. Default, and for 0 or less as in sacrebleu: 10000.
    #[arg(long = "paired-ar-n", allow_negative_numbers = true)]
    pub paired_ar_n: Option<i64>,
    /// Random seed of the resamples: an integer, or `none` for a fresh one each run. Default:
    /// `SACREBLEU_SEED`, else 12345 (sacrebleu's).
    #[arg(long)]
    pub seed: Option<String>,
}

impl PairedFlags {
    /// The seed: `--seed`, else `SACREBLEU_SEED`, else 12345.
    ///
    /// # Errors
    /// A seed that is not an integer or `none`.
    pub fn seed(&self) -> Result<Option<u128>> {
        seed_of(self.seed.as_deref())
    }

    /// `--paired-bs-n`, checked: 0 or less is the default, as sacrebleu's
    /// `PairedTest` takes it.
    ///
    /// # Errors
    /// Over the limit.
    pub fn bootstrap_n(&self) -> Result<usize> {
        resamples(positive_or(self.paired_bs_n, significance::DEFAULT_BOOTSTRAP), "--paired-bs-n")
    }

    /// The test asked for: approximate randomization (with bootstrap
    /// intervals of `ar_intervals` resamples, as sacrebleu's
    /// `n_ar_confidence`), paired bootstrap, or `None` without either flag.
    ///
    /// # Errors
    /// A resample count over the limit.
    pub fn test(&self, ar_intervals: Option<usize>) -> Result<Option<PairedTest>> {
        Ok(if self.paired_ar {
            let trials = positive_or(self.paired_ar_n, significance::DEFAULT_TRIALS);
            Some(PairedTest::Randomization(resamples(trials, "--paired-ar-n")?, ar_intervals))
        } else if self.paired_bs {
            Some(PairedTest::Bootstrap(self.bootstrap_n()?))
        } else {
            None
        })
    }
}
