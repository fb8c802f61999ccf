//! `mteval report`: the arguments, and the page of a table or of text
//! files (the page itself is the library's `report` module).

use std::path::PathBuf;

use anyhow::{Result, bail};
use mteval_kernels::significance::PairedTest;

use super::args::{PairedFlags, TableColumns};
use mteval::corpus::{TableSpec, put_baseline_first, read_text, table_mode_only};
use mteval::metrics::resolve_compared;
use mteval::report::{REF_LENGTH, Setup, length_bucket, write_from_table, write_page};

/// Arguments of `mteval report`.
#[derive(Debug, clap::Args)]
pub struct ReportArgs {
    /// A table (.parquet, .csv, .tsv, .json, .jsonl) with a row per segment and system: raw
    /// segments or the output of `mteval score` (scored again from its text columns). With -i:
    /// reference files, as sacrebleu takes them.
    #[arg(required = true)]
    pub inputs: Vec<String>,
    /// Text mode: one line-aligned hypothesis file per system (named by its path).
    #[arg(short = 'i', long = "input", num_args = 1..)]
    pub systems: Vec<PathBuf>,
    /// Text mode: each reference line holds N tab-separated references (sacrebleu's --num-refs)
    /// [default: 1].
    #[arg(long = "num-refs")]
    pub num_refs: Option<usize>,
    /// The HTML file to write (atomically).
    #[arg(short = 'o', long)]
    pub output: PathBuf,
    /// Metrics: names of the metric table with significance tests.
    #[arg(short = 'm', long = "metrics", num_args = 1.., default_values = mteval::metrics::REPORT_DEFAULT)]
    pub metrics: Vec<String>,
    /// Metric options in signature syntax, `METRIC=OPTIONS` (e.g. `ter=norm:yes`); repeatable.
    #[arg(long = "options")]
    pub options: Vec<String>,
    /// Table mode: a number column of segment scores computed elsewhere (COMET, xCOMET, human
    /// judgements), reported beside the text metrics as a metric whose corpus score is the
    /// mean; `NAME:lower` where lower is better. Repeatable.
    #[arg(long = "score-col", value_name = "COL[:lower]")]
    pub score_cols: Vec<String>,
    /// Table mode: the columns, and the baseline.
    #[command(flatten)]
    pub table: TableColumns,
    /// Source column shown in the segment browser (default: `src` when the table has one).
    #[arg(long)]
    pub src_col: Option<String>,
    /// sacrebleu's paired tests (bootstrap resampling by default) and their seed.
    #[command(flatten)]
    pub paired: PairedFlags,
    /// Break the scores down by this column (repeatable); `ref-length` buckets the segments by
    /// the first reference's length in words.
    #[arg(long = "by")]
    pub by: Vec<String>,
    /// Segments listed per view of the segment browser.
    #[arg(long, default_value_t = 10)]
    pub segments: usize,
    /// Title of the page (default: the input's name).
    #[arg(long)]
    pub title: Option<String>,
    /// Table mode: a number column of gold (human) scores per system and segment (NULL:
    /// missing). Adds a section ranking the page's metrics by their agreement with it, as
    /// `mteval meta` ranks them (WMT23's tasks, 1000 resampling runs, seed 12345).
    #[arg(long)]
    pub gold: Option<String>,
    /// Adds comet-compare's section: for every pair of systems and each metric, the paired t-test
    /// and bootstrap win/tie shares of Unbabel COMET's `comet-compare` (its defaults: 300 splits of
    /// 40%, numpy seed 12), as `mteval compare --comet-compare` computes them.
    #[arg(long = "comet-compare")]
    pub comet_compare: bool,
}

pub(super) async fn run(a: &ReportArgs) -> Result<()> {
    let mut inputs: Vec<String> = a.inputs.clone();
    inputs.extend(a.systems.iter().map(|p| p.display().to_string()));
    let inputs: Vec<&str> = inputs.iter().map(String::as_str).collect();
    mteval::output::check_outputs(&[("-o", &a.output)], &inputs)?;
    let table = a.systems.is_empty().then(|| a.inputs.first().map(String::as_str)).flatten();
    let checked = mteval::metrics::check_comparable(&a.metrics, "report");
    mteval::metrics::or_score_col_hint(checked, table, &a.metrics).await?;
    let metrics = resolve_compared(&a.metrics, &a.options, &a.score_cols)?;
    let bs = a.paired.bootstrap_n()?;
    let test = a.paired.test(Some(bs))?.unwrap_or(PairedTest::Bootstrap(bs));
    let setup = Setup {
        metrics,
        test,
        seed: a.paired.seed()?,
        segments: a.segments,
        title: a.title.clone().unwrap_or_else(|| a.inputs.join(" ")),
        input: a.inputs.join(" "),
        segment_col: a.table.segment_col.clone(),
        gold_col: a.gold.clone(),
        comet: a.comet_compare.then(mteval_kernels::significance::comet::Options::default),
    };
    if !a.systems.is_empty() {
        return write_from_text(&setup, a);
    }
    table_mode_only(&a.inputs, a.num_refs, false)?;
    let input = &a.inputs[0];
    let score_cols: Vec<String> = setup.metrics.iter().filter_map(|m| m.score_column().map(str::to_owned)).collect();
    let table = TableSpec { score_cols: &score_cols, ..a.table.spec(input, &[]) };
    write_from_table(&setup, table, a.src_col.as_deref(), &a.by, &a.output).await
}

/// Text mode: reference files and one hypothesis file per system.
fn write_from_text(setup: &Setup, a: &ReportArgs) -> Result<()> {
    mteval::metrics::check_resampled(&setup.metrics, "mteval report")?;
    if let Some(b) = a.by.iter().find(|b| *b != REF_LENGTH) {
        bail!("--by {b}: text files have no columns (only --by {REF_LENGTH}); give a table");
    }
    if a.src_col.is_some() {
        bail!("--src-col is for table inputs; text files are aligned by line");
    }
    if let Some(c) = a.score_cols.first() {
        bail!("--score-col {c} names a column of a table; text files have none: give a table");
    }
    if let Some(c) = &a.gold {
        bail!("--gold {c} names a column of a table; text files have none: give a table");
    }
    a.table.refuse_in_text_mode()?;
    let refs: Vec<PathBuf> = a.inputs.iter().map(PathBuf::from).collect();
    let mut corpus = read_text(&refs, &a.systems, a.num_refs.unwrap_or(1), false)?;
    put_baseline_first(&mut corpus, a.table.baseline.as_deref(), false)?;
    let by: Vec<(String, Vec<Option<String>>)> = a
        .by
        .iter()
        .map(|b| {
            (b.clone(), corpus.refs.iter().map(|r| Some(length_bucket(r.first().map_or("", String::as_str)))).collect())
        })
        .collect();
    write_page(&corpus, None, &by, setup, &a.output)
}
