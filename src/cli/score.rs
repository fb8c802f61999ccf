//! `mteval score INPUT`: stream a table through the metric UDFs, append score
//! columns, write them atomically, and print corpus scores per group.

use std::collections::HashMap;
use std::io::IsTerminal;
use std::sync::Arc;

use anyhow::{Context, Result, bail};
use datafusion::arrow::array::{Array, ArrayRef, AsArray, Float64Array, RecordBatch, StringArray};
use datafusion::arrow::compute::cast;
use datafusion::arrow::datatypes::{DataType, Field, Float64Type, Int64Type, Schema};
use datafusion::common::Column;
use datafusion::logical_expr::{Expr, ScalarUDF};
use datafusion::prelude::lit;
use futures::StreamExt;
use indicatif::{ProgressBar, ProgressStyle};
use mteval_kernels::NRefs;
use mteval_kernels::metric::CorpusState;
use mteval_kernels::terms::{TermCounts, stanza_sentences};

use super::args::ScoreArgs;
use super::score_lines::{self, ScoreLine};
use mteval::corpus::check_column;
use mteval::metrics::{MetricChoice, resolve_metrics};
use mteval::output::BatchFileWriter;
use mteval::session::{InputKind, SessionOptions, new_context, register_input};

const STATS_PREFIX: &str = "__mteval_stats_";

fn ident(name: &str) -> Expr {
    Expr::Column(Column::new_unqualified(name))
}

/// Corpus statistics of one group, per metric.
#[derive(Debug, Clone)]
struct GroupStats {
    metrics: Vec<Box<dyn CorpusState>>,
    nrefs: Option<NRefs>,
}

impl GroupStats {
    fn new(metrics: &[MetricChoice]) -> Self {
        Self { metrics: metrics.iter().map(MetricChoice::corpus).collect(), nrefs: None }
    }
}

pub(super) async fn run(a: ScoreArgs) -> Result<()> {
    let metrics = resolve_metrics(&a.metrics, &a.options)?;
    let Some(input) = a.input.clone() else { bail!("give an INPUT table or --hyp/--ref text files") };
    check_outputs(&a, &input)?;
    if a.report.is_some() {
        mteval::metrics::check_resampled(&metrics, "--report")?;
    }
    // One partition keeps the input order (and sacrebleu's summation order);
    // the UDFs score each batch on all cores.
    let opts = SessionOptions {
        batch_size: Some(a.batch_size),
        target_partitions: Some(usize::from(a.partitions)),
        memory_limit: a.memory_limit,
        device: mteval::session::device::get(),
    };
    let ctx = score_context(&a, &opts).await?;
    let mut text_cols = vec![a.hyp_col.as_str()];
    if metrics.iter().any(MetricChoice::uses_refs) {
        text_cols.extend(a.ref_cols.iter().map(String::as_str));
    }
    let kind = register_input(&ctx, "input", &input, &text_cols).await?;
    let df = ctx.table("input").await.with_context(|| format!("cannot read {input}"))?;
    let schema = df.schema().as_arrow().clone();
    check_input(&schema, &input, &a, &metrics)?;
    let df = for_the_cluster(df.select(score_exprs(&schema, &a, &metrics))?, a.cluster.is_some())?;

    // Parquet knows its row count from metadata; other formats would need a full read.
    let total_rows = if kind == InputKind::Parquet { df.clone().count().await.ok() } else { None };
    let pb = progress(total_rows)?;
    let mut out_fields: Vec<Field> = schema.fields().iter().map(|f| f.as_ref().clone()).collect();
    for m in &metrics {
        out_fields.push(Field::new(m.column(), DataType::Float64, true));
    }
    let out_schema = Arc::new(Schema::new(out_fields));
    let mut writer = match &a.output {
        Some(p) => Some(BatchFileWriter::create(p, &out_schema, &[])?),
        None => None,
    };

    // Step 3: stream, scoring and summing the statistics per group.
    let mut groups = Groups::default();
    let mut stream = in_input_order(df, usize::from(a.partitions)).await?;
    let n_in = schema.fields().len();
    let mut row_base = 0usize;
    while let Some(batch) = stream.next().await {
        let batch = batch.map_err(|e| {
            read_error(&e, kind, &input).unwrap_or_else(|| match &a.cluster {
                // The executors number a bad row within their own batches,
                // whose place in the input the client does not learn.
                Some(_) => cluster_batch_error(&e.to_string(), &input),
                None => batch_error(&e.to_string(), &input, row_base),
            })
        })?;
        let n = batch.num_rows();
        let row_group = groups.assign(&batch, a.group_by.as_deref(), &metrics)?;
        let nref_counts = count_refs(&batch, &a.ref_cols);
        let mut cols: Vec<ArrayRef> = batch.columns()[..n_in].to_vec();
        for (k, m) in metrics.iter().enumerate() {
            cols.push(accumulate(m, k, &batch, n_in, &row_group, &nref_counts, &mut groups.entries, &a)?);
        }
        if let Some(w) = writer.as_mut() {
            w.write(&RecordBatch::try_new(Arc::clone(&out_schema), cols)?)?;
        }
        row_base += n;
        pb.inc(n as u64);
    }
    pb.finish_and_clear();

    let lines = reduce(&groups.entries, &metrics, &a, &input, writer.as_mut())?;
    // Step 5: the output file, then the report.
    if let Some(wr) = writer {
        let rows = wr.rows();
        wr.finish().await?;
        if let Some(p) = &a.output {
            mteval::output::note!("wrote {rows} scored rows to {}", p.display());
        }
    }
    score_lines::print(&lines, a.json, a.width, a.score_only)?;
    if let Some(out) = &a.report {
        // The page of `mteval report INPUT --system-col GROUP -m ...`.
        let setup = mteval::report::Setup {
            metrics,
            test: mteval_kernels::significance::PairedTest::Bootstrap(mteval_kernels::significance::DEFAULT_BOOTSTRAP),
            seed: mteval::compare::paired::seed_of(None)?,
            segments: 10,
            title: input.clone(),
            input: input.clone(),
            segment_col: None,
            gold_col: None,
            comet: None,
        };
        let table = mteval::corpus::TableSpec {
            input: &input,
            system_col: a.group_by.as_deref(),
            hyp_col: &a.hyp_col,
            ref_cols: &a.ref_cols,
            segment_col: None,
            baseline: None,
            extra_cols: &[],
            score_cols: &[],
            text: true,
            gold_col: None,
        };
        mteval::report::write_from_table(&setup, table, None, &[], out).await?;
    }
    Ok(())
}

/// The session of a score job: local, or on `--cluster`, where the scoring
/// runs on the executors and the corpus statistics are summed here, in the
/// order the rows come back (partition after partition).
async fn score_context(a: &ScoreArgs, opts: &SessionOptions) -> Result<datafusion::prelude::SessionContext> {
    let Some(url) = &a.cluster else { return new_context(opts) };
    let ctx = mteval::cluster::remote_context(url, opts, std::time::Duration::from_secs(a.executor_wait)).await?;
    if a.partitions > 1 {
        mteval::cluster::results_in_partition_order(&ctx)?;
    }
    Ok(ctx)
}

/// The rows of `df` in input order. With more than one partition, every
/// partition is computed at once by a task of its own (the scoring happens
/// there), and their batches are read partition after partition: each
/// partition holds a contiguous run of the input (files in path order,
/// ranges of a file in order), as `DataFusion` splits a scan; round-robin
/// repartitioning and the scan's work stealing between partitions are off,
/// so that no row changes partition.
async fn in_input_order(
    df: datafusion::prelude::DataFrame,
    partitions: usize,
) -> Result<futures::stream::BoxStream<'static, datafusion::error::Result<RecordBatch>>> {
    if partitions <= 1 {
        return Ok(df.execute_stream().await?.boxed());
    }
    let (mut state, plan) = df.into_parts();
    let options = state.config_mut().options_mut();
    options.optimizer.enable_round_robin_repartition = false;
    // A partition that finishes early would take files of another.
    options.execution.enable_file_stream_work_stealing = false;
    let df = datafusion::prelude::DataFrame::new(state, plan);
    let receivers: Vec<_> = df
        .execute_stream_partitioned()
        .await?
        .into_iter()
        .map(|mut part| {
            let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
            tokio::spawn(async move {
                while let Some(b) = part.next().await {
                    let failed = b.is_err();
                    if tx.send(b).is_err() || failed {
                        break;
                    }
                }
            });
            futures::stream::unfold(rx, |mut rx| async move { rx.recv().await.map(|b| (b, rx)) })
        })
        .collect();
    Ok(futures::stream::iter(receivers).flatten().boxed())
}

/// `-o` and `--report` may be neither the input nor each other (checked
/// before any work).
fn check_outputs(a: &ScoreArgs, input: &str) -> Result<()> {
    let outputs: Vec<(&str, &std::path::Path)> = [("-o", a.output.as_deref()), ("--report", a.report.as_deref())]
        .into_iter()
        .filter_map(|(flag, p)| Some((flag, p?)))
        .collect();
    mteval::output::check_outputs(&outputs, &[input])
}

/// The scoring query as a cluster gets it (what the plan encoding would
/// lose, a compressed or TSV input, goes beside it); locally as it is.
fn for_the_cluster(df: datafusion::prelude::DataFrame, on_cluster: bool) -> Result<datafusion::prelude::DataFrame> {
    if !on_cluster {
        return Ok(df);
    }
    let (state, plan) = df.into_parts();
    Ok(datafusion::prelude::DataFrame::new(state, mteval::cluster::for_the_wire(plan)?))
}

/// Step 1: the input has the columns the metrics read, of usable types,
/// and none named as a score column.
fn check_input(schema: &Schema, input: &str, a: &ScoreArgs, metrics: &[MetricChoice]) -> Result<()> {
    check_column(schema, input, &a.hyp_col, "hypothesis", true)?;
    if metrics.iter().any(MetricChoice::uses_refs) {
        for r in &a.ref_cols {
            check_column(schema, input, r, "reference", true)?;
        }
    }
    for m in metrics {
        if let Some(lemmatized) = m.terms() {
            check_column(schema, input, &a.terms_col, "terms", false)?;
            if lemmatized {
                check_column(schema, input, &a.lemmas_col, "lemmas", false)?;
            }
        }
    }
    if let Some(g) = &a.group_by {
        let t = check_column(schema, input, g, "group-by", false)?.data_type();
        if !datafusion::arrow::compute::can_cast_types(t, &DataType::Utf8) {
            bail!(
                "{input}: group-by column '{g}' has type {t}, which has no text form to print per group; group by a string, number or date column"
            );
        }
    }
    for m in metrics {
        if schema.field_with_name(m.column()).is_ok() {
            bail!("{input} already has a column named '{}'; rename it before scoring", m.column());
        }
    }
    Ok(())
}

/// Step 2: the expressions of the scoring query: every input column, then
/// per metric its sentence statistics (`segment_stats`' struct, or the
/// term counts) under a private name.
fn score_exprs(schema: &Schema, a: &ScoreArgs, metrics: &[MetricChoice]) -> Vec<Expr> {
    let refs_expr = if a.ref_cols.len() == 1 || !metrics.iter().any(MetricChoice::uses_refs) {
        ident(&a.ref_cols[0])
    } else {
        datafusion::functions_nested::expr_fn::make_array(a.ref_cols.iter().map(|c| ident(c)).collect())
    };
    let mut exprs: Vec<Expr> = schema.fields().iter().map(|f| ident(f.name())).collect();
    for m in metrics {
        let opts = m.udf_options();
        let stats =
            match m.terms() {
                None => ScalarUDF::from(mteval_udfs::metric_table::segment_stats::SegmentStatsUdf::default())
                    .call(vec![ident(&a.hyp_col), refs_expr.clone(), lit(m.info().name), lit(opts)]),
                Some(false) => ScalarUDF::from(mteval_udfs::terms::term_match::TermMatchUdf::default())
                    .call(vec![ident(&a.hyp_col), ident(&a.terms_col)]),
                Some(true) => {
                    ScalarUDF::from(mteval_udfs::terms::term_match_lemmatized::TermMatchLemmatizedUdf::default())
                        .call(vec![ident(&a.hyp_col), ident(&a.lemmas_col), ident(&a.terms_col)])
                }
            };
        exprs.push(stats.alias(format!("{STATS_PREFIX}{}", m.column())));
    }
    exprs
}

/// A progress bar on a terminal (hidden otherwise), with the total when known.
fn progress(total_rows: Option<usize>) -> Result<ProgressBar> {
    Ok(if std::io::stderr().is_terminal() {
        let pb = total_rows.map_or_else(ProgressBar::new_spinner, |n| ProgressBar::new(n as u64));
        pb.set_style(ProgressStyle::with_template(
            "{spinner} [{elapsed_precise}] {bar:40} {pos}/{len} rows ({per_sec}, eta {eta})",
        )?);
        pb
    } else {
        ProgressBar::hidden()
    })
}

/// Step 3: the groups of `--group-by`, in order of first appearance; `None`
/// is the NULL group, apart from a group whose value is the text "NULL".
#[derive(Default)]
struct Groups {
    entries: Vec<(Option<String>, GroupStats)>,
    index: HashMap<String, usize>,
    null_group: Option<usize>,
}

impl Groups {
    /// The group of every row of `batch` (one group without `--group-by`).
    fn assign(&mut self, batch: &RecordBatch, group_by: Option<&str>, metrics: &[MetricChoice]) -> Result<Vec<usize>> {
        let n = batch.num_rows();
        let keys: Option<StringArray> = match group_by {
            Some(g) => Some(
                cast(batch.column_by_name(g).context("group column")?, &DataType::Utf8)?.as_string::<i32>().clone(),
            ),
            None => None,
        };
        let Self { entries: groups, index, null_group } = self;
        let mut row_group = Vec::with_capacity(n);
        for i in 0..n {
            let key = match &keys {
                None => Some(""),
                Some(k) => k.is_valid(i).then(|| k.value(i)),
            };
            let known = match key {
                Some(k) => index.get(k).copied(),
                None => *null_group,
            };
            let gi = known.unwrap_or_else(|| {
                groups.push((key.map(str::to_owned), GroupStats::new(metrics)));
                match key {
                    Some(k) => index.insert(k.to_owned(), groups.len() - 1),
                    None => null_group.replace(groups.len() - 1),
                };
                groups.len() - 1
            });
            row_group.push(gi);
        }
        Ok(row_group)
    }
}

/// Step 3, per batch and metric: adds the batch's sentence statistics of
/// metric `k` to the groups of its rows (`row_group`) and returns the
/// metric's score column. Struct results are read by field name.
#[allow(
    clippy::too_many_arguments,
    reason = "the per-batch pieces of the score loop's state, each borrowed as it needs"
)]
fn accumulate(
    m: &MetricChoice,
    k: usize,
    batch: &RecordBatch,
    n_in: usize,
    row_group: &[usize],
    nref_counts: &[usize],
    groups: &mut [(Option<String>, GroupStats)],
    a: &ScoreArgs,
) -> Result<ArrayRef> {
    let col = batch.column(n_in + k);
    if let Some(lemmatized) = m.terms() {
        return accumulate_terms(lemmatized, k, batch, col, row_group, groups, a);
    }
    let stats = col.as_struct();
    let field = |name: &str| {
        stats.column_by_name(name).with_context(|| format!("internal: {} statistics without '{name}'", m.column()))
    };
    let score = field("score")?;
    let lists = field("stats")?.as_list::<i32>();
    for (i, &gi) in row_group.iter().enumerate() {
        if !stats.is_valid(i) {
            continue;
        }
        let g = &mut groups[gi].1;
        g.nrefs = NRefs::observe(g.nrefs, nref_counts[i]);
        g.metrics[k].add(lists.value(i).as_primitive::<Float64Type>().values());
    }
    Ok(Arc::clone(score))
}

/// [`accumulate`] for terminology accuracy: the term counts per row.
fn accumulate_terms(
    lemmatized: bool,
    k: usize,
    batch: &RecordBatch,
    col: &ArrayRef,
    row_group: &[usize],
    groups: &mut [(Option<String>, GroupStats)],
    a: &ScoreArgs,
) -> Result<ArrayRef> {
    let n = batch.num_rows();
    // Stanza sentence counts only matter to the lemmatized corpus check.
    let hyps = if lemmatized {
        Some(cast(batch.column_by_name(&a.hyp_col).context("hypothesis column")?, &DataType::Utf8)?)
    } else {
        None
    };
    let hyps = hyps.as_ref().map(datafusion::arrow::array::AsArray::as_string::<i32>);
    let st = col.as_struct();
    let int = |name: &str| st.column_by_name(name).map(|c| c.as_primitive::<Int64Type>().clone());
    let (Some(matched), Some(total)) = (int("matched"), int("total")) else {
        bail!("internal: term match result without counts");
    };
    let exact = if lemmatized { int("exact") } else { Some(matched.clone()) };
    let Some(exact) = exact else { bail!("internal: term match result without exact count") };
    let dropped = st.column_by_name("dropped").map(|c| c.as_boolean().clone());
    let Some(dropped) = dropped else { bail!("internal: term match result without dropped flag") };
    let mut per_row = Vec::with_capacity(n);
    for (i, &gi) in row_group.iter().enumerate() {
        if !st.is_valid(i) {
            per_row.push(None);
            continue;
        }
        let to_u32 = |x: i64| u32::try_from(x).unwrap_or(u32::MAX);
        let c = TermCounts {
            exact: to_u32(exact.value(i)),
            lemmatized: to_u32(matched.value(i)),
            total: to_u32(total.value(i)),
            dropped: dropped.value(i),
            lemmatized_below_exact: false,
            lemma_sentences: match hyps {
                Some(h) if !dropped.value(i) => stanza_sentences(h.value(i)),
                _ => 0,
            },
        };
        groups[gi].1.metrics[k].add(&c.to_stats());
        per_row.push((c.total > 0).then(|| f64::from(c.lemmatized) / f64::from(c.total)));
    }
    Ok(Arc::new(Float64Array::from(per_row)))
}

/// Step 4: the corpus score of every group (or of all rows) per metric,
/// with its signature (also written into a Parquet output's metadata).
fn reduce(
    groups: &[(Option<String>, GroupStats)],
    metrics: &[MetricChoice],
    a: &ScoreArgs,
    input: &str,
    mut writer: Option<&mut BatchFileWriter>,
) -> Result<Vec<ScoreLine>> {
    let mut lines = Vec::new();
    let mut all = GroupStats::new(metrics);
    for (_, g) in groups {
        for (a, b) in all.metrics.iter_mut().zip(&g.metrics) {
            a.merge(b.as_ref())?;
        }
        all.nrefs = match (all.nrefs, g.nrefs) {
            (None, x) | (x, None) => x,
            (Some(x), Some(y)) if x == y => Some(x),
            _ => Some(NRefs::Var),
        };
    }
    for (k, m) in metrics.iter().enumerate() {
        all.metrics[k].check().with_context(|| format!("{input}: {}", m.column()))?;
        let sig = m.signature(all.nrefs.unwrap_or(NRefs::Fixed(a.ref_cols.len())));
        if let Some(wr) = writer.as_deref_mut() {
            wr.add_metadata(&format!("mteval.signature.{}", m.column()), &sig);
        }
        let line = |group: Option<(String, Option<String>)>, g: &GroupStats| ScoreLine {
            group,
            name: m.display(),
            signature: sig.clone(),
            score: g.metrics[k].score(),
            segments: g.metrics[k].segments(),
        };
        match &a.group_by {
            Some(col) => lines.extend(groups.iter().map(|(key, g)| line(Some((col.clone(), key.clone())), g))),
            None => lines.push(line(None, &all)),
        }
    }
    Ok(lines)
}

/// An error of reading `input` rather than of scoring it: a JSON error gets
/// its line in the file (Arrow's own message counts from the start of the
/// chunk it parsed, or names no line); CSV and Parquet errors keep theirs.
pub(crate) fn read_error(
    e: &datafusion::error::DataFusionError,
    kind: InputKind,
    input: &str,
) -> Option<anyhow::Error> {
    let msg = e.to_string();
    if kind == InputKind::Json
        && msg.contains("Json error")
        && let Some(located) = mteval::session::json_error_location(input, &msg)
    {
        return Some(located);
    }
    ["Json error", "Csv error", "Parquet error"]
        .iter()
        .any(|k| msg.contains(k))
        .then(|| anyhow::anyhow!("{input}: cannot read the input: {}", e.message()))
}

/// A scoring error of the batch starting at input row `row_base`: the UDFs
/// name the row within its batch, which becomes the row of the input.
fn batch_error(msg: &str, input: &str, row_base: usize) -> anyhow::Error {
    const MARK: &str = mteval_udfs::common::ROW_IN_BATCH;
    if let Some(end) = msg.find(MARK) {
        let head = &msg[..end];
        if let Some(start) = head.rfind("row ")
            && let Ok(i) = head[start + 4..].parse::<usize>()
        {
            let row = row_base + i;
            return anyhow::anyhow!(
                "{input}: {}row {row} (counting from 0){}",
                &msg[..start],
                &msg[end + MARK.len()..]
            );
        }
    }
    anyhow::anyhow!("{input}: scoring rows from {row_base}: {msg}")
}

/// A scoring error raised on a cluster's executor: the row is named within
/// the executor's batch (Ballista does not say where that batch starts), so
/// the message says so instead of passing it off as the input's row.
fn cluster_batch_error(msg: &str, input: &str) -> anyhow::Error {
    if mteval::cluster::wire_errors::transport_error(msg).is_some() {
        // Not the input's fault: the cluster could not be asked (the
        // message is put in words when printed).
        return anyhow::anyhow!(msg.to_owned());
    }
    let msg = mteval::cluster::wire_errors::job_error(msg).unwrap_or_else(|| msg.to_owned());
    let msg = msg.replace(mteval_udfs::common::ROW_IN_BATCH, " of a batch scored on the cluster");
    anyhow::anyhow!(
        "{input}: {msg} (the executors count rows within their batches, so the row's place in the input is not \
         known here; find it by its text, or score without --cluster to get the input's row number)"
    )
}

/// Non-NULL references per row (for the signature's `nrefs`).
fn count_refs(batch: &RecordBatch, ref_cols: &[String]) -> Vec<usize> {
    let mut counts = vec![0usize; batch.num_rows()];
    for c in ref_cols {
        if let Some(col) = batch.column_by_name(c) {
            for (i, n) in counts.iter_mut().enumerate() {
                if col.is_valid(i) {
                    *n += 1;
                }
            }
        }
    }
    counts
}
