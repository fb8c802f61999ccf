//! A corpus of systems to compare: a table with a row per segment and
//! system, or text files (references and one file per system) as sacrebleu
//! reads them, aligned by segment; the column checks every subcommand and
//! Python share; and the per-segment statistics of a metric over a system.

pub mod score_files;
pub mod textfiles;

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use datafusion::arrow::array::{Array, AsArray, Float64Array, StringArray};
use datafusion::arrow::compute::cast;
use datafusion::arrow::datatypes::{DataType, Field, Schema};
use mteval_kernels::NRefs;
use mteval_kernels::metric::{Metric, segment_score};
use mteval_kernels::significance::SegmentStats;

use crate::corpus::textfiles::{STDIN, read_lines, read_utf8, split_lines, split_refs, stdin_systems};
use crate::metrics::MetricChoice;
use crate::session::{SessionOptions, new_context, register_input};

fn is_string_type(t: &DataType) -> bool {
    mteval_udfs::common::is_string_like(t) || t.is_null()
}

/// The field of column `col` of `input`'s `schema` (the `role` it plays
/// names it in errors), a string column when `must_be_string`.
///
/// # Errors
/// A missing column (the error lists the columns), or one of another type.
pub fn check_column<'a>(
    schema: &'a Schema,
    input: &str,
    col: &str,
    role: &str,
    must_be_string: bool,
) -> Result<&'a Field> {
    let Ok(f) = schema.field_with_name(col) else {
        let names: Vec<&str> = schema.fields().iter().map(|f| f.name().as_str()).collect();
        bail!("{input}: {role} column '{col}' not found (columns: {})", names.join(", "));
    };
    if must_be_string && !is_string_type(f.data_type()) {
        bail!("{input}: {role} column '{col}' has type {}, expected a string", f.data_type());
    }
    Ok(f)
}

/// `["ref"]`, the reference column when none is given.
#[must_use]
pub fn default_ref_cols() -> &'static [String] {
    static REF: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    REF.get_or_init(|| vec!["ref".to_owned()])
}

/// Systems with their hypotheses, aligned with one set of references.
pub struct Corpus {
    /// (name, hypotheses), the baseline first.
    pub systems: Vec<(String, Vec<String>)>,
    /// Per segment, its references.
    pub refs: Vec<Vec<String>>,
    /// The `nrefs` of the signatures.
    pub nrefs: NRefs,
    /// Per [`TableSpec::extra_cols`] column, its text per segment (the
    /// baseline's rows; `None` for NULL). Empty in text mode.
    pub extra: Vec<Vec<Option<String>>>,
    /// Per segment, its `--segment-col` value (the baseline's), when given.
    pub keys: Option<Vec<String>>,
    /// The segment-score columns read ([`TableSpec::score_cols`]).
    pub score_cols: Vec<String>,
    /// `scores[s][c][i]`: system `s`'s score in column `score_cols[c]` for segment `i`.
    pub scores: Vec<Vec<Vec<f64>>>,
    /// `gold[s][i]`: system `s`'s gold score for segment `i` ([`TableSpec::gold_col`]; `None`:
    /// missing); empty without a gold column.
    pub gold: Vec<Vec<Option<f64>>>,
}

impl Corpus {
    /// The statistics of system `s` (as [`Self::systems`]) for metric `m`:
    /// from its text, or for a segment score, its column's values.
    ///
    /// # Errors
    /// A segment the metric refuses; a score column that was not read.
    pub fn stats(
        &self,
        m: &MetricChoice,
        s: usize,
        backend: &dyn mteval_kernels::backend::Backend,
    ) -> Result<SegmentStats> {
        let Some(col) = m.score_column() else {
            return segment_stats(m.metric(), &self.systems[s].1, &self.refs, self.keys.as_deref(), backend);
        };
        let Some(c) = self.score_cols.iter().position(|n| n == col) else {
            bail!("the score column '{col}' was not read")
        };
        let mut out = SegmentStats::new(2);
        for &v in &self.scores[s][c] {
            out.push(&segment_score::stats(v));
        }
        Ok(out)
    }

    /// `stats[s][k]`: the statistics of system `s` for metric `metrics[k]`.
    ///
    /// # Errors
    /// As [`Self::stats`], naming the system.
    pub fn all_stats(
        &self,
        metrics: &[MetricChoice],
        backend: &dyn mteval_kernels::backend::Backend,
    ) -> Result<Vec<Vec<SegmentStats>>> {
        self.systems
            .iter()
            .enumerate()
            .map(|(s, (name, _))| {
                metrics.iter().map(|m| self.stats(m, s, backend).with_context(|| name.clone())).collect()
            })
            .collect()
    }
}

/// Where a table input keeps what [`read_table`] reads.
#[derive(Clone, Copy)]
pub struct TableSpec<'a> {
    /// The table (path or URL; for [`corpus_of_batches`], how errors name it).
    pub input: &'a str,
    /// The column naming the system of each row (`None`: one system, `all`).
    pub system_col: Option<&'a str>,
    /// The hypothesis column.
    pub hyp_col: &'a str,
    /// The reference columns (NULLs are skipped).
    pub ref_cols: &'a [String],
    /// The column aligning the systems' rows (else input order).
    pub segment_col: Option<&'a str>,
    /// The baseline system (else the first).
    pub baseline: Option<&'a str>,
    /// More columns to keep per segment, as text: (name, required); a
    /// column not required and not in the table reads as NULL.
    pub extra_cols: &'a [(String, bool)],
    /// Number columns of segment scores computed elsewhere (COMET, human),
    /// read per system and segment; NULL is an error naming both.
    pub score_cols: &'a [String],
    /// Whether the hypothesis and reference columns are read (not when only
    /// score columns are compared).
    pub text: bool,
    /// A number column of gold (human) scores per system and segment, for
    /// meta-evaluation; NULL is a missing score.
    pub gold_col: Option<&'a str>,
}

/// Whether `input` names a table (a dataset, or a file by its extension,
/// compressed or not), as opposed to a text file of references.
#[must_use]
pub fn is_table(input: &str) -> bool {
    if crate::session::is_dataset(input) {
        return true;
    }
    let name = input.rsplit('/').next().unwrap_or(input).to_ascii_lowercase();
    let name = [".gz", ".bz2", ".xz", ".zst"].iter().find_map(|c| name.strip_suffix(c)).unwrap_or(&name);
    [".parquet", ".pq", ".csv", ".tsv", ".json", ".jsonl", ".ndjson"].iter().any(|e| name.ends_with(e))
}

/// Table mode: one table, and none of text mode's flags.
///
/// # Errors
/// Several inputs, or `--num-refs` / `-r` (which read reference files).
pub fn table_mode_only(inputs: &[String], num_refs: Option<usize>, refs: bool) -> Result<()> {
    if inputs.len() != 1 {
        bail!("give one input table, or reference files with -i SYS1 SYS2 ... for text files");
    }
    if num_refs.is_some() {
        bail!(
            "--num-refs reads tab-separated reference files (text mode, with -i); a table names its reference columns with --ref-col"
        );
    }
    if refs {
        bail!(
            "-r/--ref gives reference files (text mode, with -i); a table names its reference columns with --ref-col"
        );
    }
    Ok(())
}

/// Text mode: moves the `--baseline` system (one of the -i files, as
/// given) to the front, where the paired tests and the report take their
/// baseline from.
///
/// # Errors
/// A baseline that is none of the -i files.
pub fn put_baseline_first(corpus: &mut Corpus, baseline: Option<&str>, paired: bool) -> Result<()> {
    let Some(b) = baseline else { return Ok(()) };
    let plain = |n: &str| n.strip_prefix(BASELINE_PREFIX).filter(|_| paired).unwrap_or(n).to_owned();
    let Some(i) = corpus.systems.iter().position(|(n, _)| plain(n) == b) else {
        let names: Vec<String> = corpus.systems.iter().map(|(n, _)| plain(n)).collect();
        bail!("--baseline '{b}' is not one of the -i files ({})", names.join(", "));
    };
    if i == 0 {
        return Ok(());
    }
    if paired {
        corpus.systems[0].0 = plain(&corpus.systems[0].0);
    }
    let base = corpus.systems.remove(i);
    corpus.systems.insert(0, base);
    if paired {
        corpus.systems[0].0 = format!("{BASELINE_PREFIX}{}", corpus.systems[0].0);
    }
    Ok(())
}

/// How sacrebleu's table names the baseline of a paired test.
pub const BASELINE_PREFIX: &str = "Baseline: ";

/// Statistics of every segment of one system for one metric (chrF and TER
/// through the backend, which batches them on a GPU).
pub(crate) fn segment_stats(
    m: &dyn Metric,
    hyps: &[String],
    refs: &[Vec<String>],
    keys: Option<&[String]>,
    backend: &dyn mteval_kernels::backend::Backend,
) -> Result<SegmentStats> {
    let rows: Vec<(&str, Vec<&str>)> =
        hyps.iter().zip(refs).map(|(h, r)| (h.as_str(), r.iter().map(String::as_str).collect())).collect();
    let mut out = SegmentStats::new(m.width());
    let line = |i: usize| segment_label(keys, i);
    let stats = m.segments_on(backend, &rows);
    for (i, s) in stats.into_iter().enumerate() {
        let s = s.with_context(|| line(i))?.with_context(|| format!("{}: no reference", line(i)))?;
        out.push(&s);
    }
    Ok(out)
}

/// How errors name segment `i` (from 0): by its `--segment-col` key when
/// the segments have keys, else by its number (from 1).
pub(crate) fn segment_label(keys: Option<&[String]>, i: usize) -> String {
    match keys.and_then(|k| k.get(i)) {
        Some(k) => format!("segment '{k}'"),
        None => format!("segment {}", i + 1),
    }
}

/// Text mode: references (tab-separated with --num-refs) and system files.
///
/// # Errors
/// A file that cannot be read or is not UTF-8, files of different lengths, a line with
/// fewer references than --num-refs.
pub fn read_text(ref_files: &[PathBuf], system_files: &[PathBuf], num_refs: usize, paired: bool) -> Result<Corpus> {
    if ref_files.is_empty() {
        bail!("give the reference file(s) before -i, as sacrebleu takes them: mteval compare REF -i SYS1 SYS2");
    }
    if num_refs == 0 || (num_refs != 1 && ref_files.len() > 1) {
        bail!("--num-refs reads several references from one tab-separated file; give one reference file");
    }
    let mut streams: Vec<Vec<String>> = Vec::new();
    for f in ref_files {
        let text = read_utf8(f)?;
        let split = split_refs(f, split_lines(&text), num_refs)?;
        streams.extend(split.into_iter().map(|s| s.into_iter().map(str::to_owned).collect::<Vec<String>>()));
    }
    let n = streams[0].len();
    let mut systems: Vec<(String, Vec<String>)> = Vec::new();
    let from_stdin = matches!(system_files, [only] if only.as_path() == Path::new(STDIN));
    if from_stdin {
        let only = &system_files[0];
        // sacrebleu's systems on standard input: tab-separated, named
        // `System 1`, `System 2`, ... (one system keeps the name `-`).
        let read = stdin_systems(&read_utf8(only)?, "standard input")?;
        let several = read.len() > 1;
        for (i, lines) in read.into_iter().enumerate() {
            systems.push((if several { format!("System {}", i + 1) } else { STDIN.to_owned() }, lines));
        }
    }
    for f in system_files.iter().filter(|_| !from_stdin) {
        let name = f.display().to_string();
        if systems.iter().any(|(s, _)| *s == name) {
            if paired && systems[0].0 == name {
                continue; // sacrebleu skips a system given again as the baseline
            }
            bail!("{name} is given twice");
        }
        let lines = read_lines(f)?;
        systems.push((name, lines));
    }
    for (name, lines) in &systems {
        if lines.len() != n {
            bail!("{name} has {} lines but {} has {n}", lines.len(), ref_files[0].display());
        }
    }
    for (f, s) in ref_files.iter().zip(&streams) {
        if s.len() != n {
            bail!("{} has {} lines but {} has {n}", f.display(), s.len(), ref_files[0].display());
        }
    }
    if paired {
        systems[0].0 = format!("{BASELINE_PREFIX}{}", systems[0].0);
    }
    let refs: Vec<Vec<String>> = (0..n).map(|i| streams.iter().map(|s| s[i].clone()).collect()).collect();
    let nrefs = NRefs::Fixed(streams.len());
    Ok(Corpus {
        systems,
        refs,
        nrefs,
        extra: Vec::new(),
        keys: None,
        score_cols: Vec::new(),
        scores: Vec::new(),
        gold: Vec::new(),
    })
}

/// One row of a table input: the hypothesis, the segment key, the
/// references, the extra columns, the segment scores.
struct Row {
    hyp: String,
    key: Option<String>,
    refs: Vec<String>,
    extra: Vec<Option<String>>,
    scores: Vec<f64>,
    gold: Option<f64>,
}

/// The values of score column `name` of a batch as float64 (the schema
/// check made sure it holds numbers).
fn score_values(b: &datafusion::arrow::record_batch::RecordBatch, name: &str) -> Result<Float64Array> {
    let c = b.column_by_name(name).with_context(|| format!("score column '{name}' not found"))?;
    Ok(cast(c, &DataType::Float64).with_context(|| format!("score column '{name}'"))?.as_primitive().clone())
}

/// Row `i`'s segment scores, one per score column (`values`, as `cols`);
/// `at` names the row in errors.
fn row_scores(cols: &[String], values: &[Float64Array], i: usize, at: impl Fn() -> String) -> Result<Vec<f64>> {
    let mut out = Vec::with_capacity(cols.len());
    for (c, v) in cols.iter().zip(values) {
        if v.is_null(i) {
            bail!(
                "{} has no '{c}' score (NULL); every system needs a score for every segment: score the missing \
                 segments, or leave them out of the table for every system",
                at()
            );
        }
        if !v.value(i).is_finite() {
            bail!("{}: the '{c}' score is {}, not a number", at(), v.value(i));
        }
        out.push(v.value(i));
    }
    Ok(out)
}

/// Table mode: one row per (system, segment), read from a file or URL.
///
/// # Errors
/// An input that cannot be read; as [`corpus_of_batches`].
pub async fn read_table(a: &TableSpec<'_>) -> Result<Corpus> {
    let input = a.input;
    let ctx = new_context(&SessionOptions {
        target_partitions: Some(1),
        device: crate::session::device::get(),
        ..Default::default()
    })?;
    let mut text_cols = Vec::new();
    if a.text {
        text_cols.push(a.hyp_col);
        text_cols.extend(a.ref_cols.iter().map(String::as_str));
    }
    text_cols.extend(a.system_col);
    register_input(&ctx, "input", input, &text_cols).await?;
    let df = ctx.table("input").await?;
    // The text columns must hold text, as `mteval score` requires: a number
    // cast to text would be scored as a string of digits.
    let schema = df.schema().as_arrow().clone();
    let batches = df.collect().await.with_context(|| format!("cannot read {input}"))?;
    corpus_of_batches(a, &schema, &batches)
}

/// Table mode over rows already read: `batches` of `schema` (one row per
/// system and segment), checked and aligned as [`read_table`] does.
///
/// # Errors
/// A missing column, a text column that is not text, a score column that
/// is not numbers, a NULL system, segment, hypothesis or score, systems
/// whose segments differ.
pub fn corpus_of_batches(
    a: &TableSpec<'_>,
    schema: &Schema,
    batches: &[datafusion::arrow::record_batch::RecordBatch],
) -> Result<Corpus> {
    let input = a.input;
    if a.text {
        check_column(schema, input, a.hyp_col, "hypothesis", true)?;
        for r in a.ref_cols {
            check_column(schema, input, r, "reference", true)?;
        }
    }
    if let Some(c) = a.system_col {
        check_column(schema, input, c, "system", false)?;
    }
    if let Some(c) = a.segment_col {
        check_column(schema, input, c, "segment", false)?;
    }
    // Score columns hold numbers (a text column of digits is refused too:
    // its values would be parsed, not read).
    for c in a.score_cols {
        let f = check_column(schema, input, c, "score", false)?;
        if !f.data_type().is_numeric() {
            bail!("{input}: score column '{c}' has type {}, expected numbers (segment scores)", f.data_type());
        }
    }
    if let Some(c) = a.gold_col {
        let f = check_column(schema, input, c, "gold", false)?;
        if !f.data_type().is_numeric() && *f.data_type() != DataType::Null {
            bail!("{input}: gold column '{c}' has type {}, expected numbers (human scores)", f.data_type());
        }
    }
    // system -> (segment key -> (hyp, refs)), in order of appearance.
    let mut order: Vec<String> = Vec::new();
    let mut rows: HashMap<String, Vec<Row>> = HashMap::new();
    let mut row_no = 0usize;
    for b in batches {
        let col = |name: &str, role: &str| -> Result<StringArray> {
            let c = b.column_by_name(name).with_context(|| {
                let names: Vec<&str> = b.schema_ref().fields().iter().map(|f| f.name().as_str()).collect();
                format!("{input}: {role} column '{name}' not found (columns: {})", names.join(", "))
            })?;
            Ok(cast(c, &DataType::Utf8)
                .with_context(|| format!("{input}: {role} column '{name}' has no text form"))?
                .as_string::<i32>()
                .clone())
        };
        let sys = a.system_col.map(|c| col(c, "system")).transpose()?;
        let hyp = if a.text { Some(col(a.hyp_col, "hypothesis")?) } else { None };
        let seg = a.segment_col.map(|c| col(c, "segment")).transpose()?;
        let refs: Vec<StringArray> =
            if a.text { a.ref_cols.iter().map(|c| col(c, "reference")).collect::<Result<_>>()? } else { Vec::new() };
        let scores: Vec<Float64Array> =
            a.score_cols.iter().map(|c| score_values(b, c).with_context(|| input.to_owned())).collect::<Result<_>>()?;
        let gold = a.gold_col.map(|c| score_values(b, c).with_context(|| input.to_owned())).transpose()?;
        let extra: Vec<Option<StringArray>> = a
            .extra_cols
            .iter()
            .map(
                |(c, required)| {
                    if *required || b.column_by_name(c).is_some() { col(c, "requested").map(Some) } else { Ok(None) }
                },
            )
            .collect::<Result<_>>()?;
        for i in 0..b.num_rows() {
            let r = row_no + i;
            let name = match &sys {
                Some(sys) if sys.is_null(i) => {
                    bail!(
                        "{input}: row {r} (counting from 0): the system column '{}' is NULL",
                        a.system_col.unwrap_or("")
                    )
                }
                Some(sys) => sys.value(i).to_owned(),
                None => "all".to_owned(),
            };
            let key = match &seg {
                Some(s) if s.is_null(i) => bail!("{input}: row {r}: the segment column is NULL"),
                Some(s) => Some(s.value(i).to_owned()),
                None => None,
            };
            if hyp.as_ref().is_some_and(|h| h.is_null(i)) {
                bail!("{input}: row {r}: system '{name}' has a NULL hypothesis");
            }
            let at = || {
                format!(
                    "{input}: row {r} (system '{name}'{})",
                    key.as_ref().map_or_else(String::new, |k| format!(", segment '{k}'"))
                )
            };
            let sc = row_scores(a.score_cols, &scores, i, at)?;
            let rr: Vec<String> = refs.iter().filter(|c| c.is_valid(i)).map(|c| c.value(i).to_owned()).collect();
            if !rows.contains_key(&name) {
                order.push(name.clone());
            }
            let ex =
                extra.iter().map(|c| c.as_ref().and_then(|c| c.is_valid(i).then(|| c.value(i).to_owned()))).collect();
            let h = hyp.as_ref().map_or_else(String::new, |h| h.value(i).to_owned());
            let g = gold.as_ref().and_then(|g| g.is_valid(i).then(|| g.value(i)));
            if let Some(v) = g.filter(|v| !v.is_finite()) {
                bail!("{}: the gold score is {v}; scores must be finite numbers: a missing one is NULL", at());
            }
            rows.entry(name).or_default().push(Row { hyp: h, key, refs: rr, extra: ex, scores: sc, gold: g });
        }
        row_no += b.num_rows();
    }
    align(a, input, order, &rows)
}

/// The systems' hypotheses aligned with the baseline's segments and references.
fn align(a: &TableSpec<'_>, input: &str, mut order: Vec<String>, rows: &HashMap<String, Vec<Row>>) -> Result<Corpus> {
    let Some(first) = order.first() else { bail!("{input}: no rows") };
    let base = match a.baseline {
        Some(b) if !rows.contains_key(b) => {
            bail!("--baseline '{b}' is not a system of {input} (systems: {})", order.join(", "))
        }
        Some(b) => b.to_owned(),
        None => first.clone(),
    };
    order.retain(|s| *s != base);
    order.insert(0, base.clone());
    let base_rows = &rows[&base];
    let refs: Vec<Vec<String>> = base_rows.iter().map(|r| r.refs.clone()).collect();
    if let Some(i) = refs.iter().position(Vec::is_empty).filter(|_| a.text) {
        let keys: Option<Vec<String>> =
            a.segment_col.map(|_| base_rows.iter().map(|r| r.key.clone().unwrap_or_default()).collect());
        let what = segment_label(keys.as_deref(), i);
        bail!("{input}: {what} of the baseline '{base}' has no reference");
    }
    let mut systems = Vec::with_capacity(order.len());
    let mut scores = Vec::with_capacity(order.len());
    let mut gold = Vec::new();
    for name in &order {
        let mine = &rows[name];
        // The system's rows in the baseline's segment order.
        let aligned: Vec<&Row> = if a.segment_col.is_some() {
            let mut by_key: HashMap<&str, &Row> = HashMap::new();
            for r in mine {
                let k = r.key.as_deref().unwrap_or_default();
                if by_key.insert(k, r).is_some() {
                    bail!("{input}: system '{name}' has segment '{k}' twice");
                }
            }
            let mut aligned = Vec::with_capacity(base_rows.len());
            for r in base_rows {
                let k = r.key.as_deref().unwrap_or_default();
                let Some(row) = by_key.remove(k) else {
                    bail!("{input}: system '{name}' has no row for segment '{k}', which '{base}' has");
                };
                aligned.push(row);
            }
            if let Some(k) = by_key.keys().next() {
                bail!("{input}: system '{name}' has segment '{k}', which '{base}' does not");
            }
            aligned
        } else {
            if mine.len() != base_rows.len() {
                bail!(
                    "{input}: system '{name}' has {} rows but '{base}' has {}; give --segment-col to align them by segment",
                    mine.len(),
                    base_rows.len()
                );
            }
            mine.iter().collect()
        };
        systems.push((name.clone(), aligned.iter().map(|r| r.hyp.clone()).collect()));
        scores.push((0..a.score_cols.len()).map(|c| aligned.iter().map(|r| r.scores[c]).collect()).collect());
        if a.gold_col.is_some() {
            gold.push(aligned.iter().map(|r| r.gold).collect());
        }
    }
    let nrefs = refs
        .iter()
        .skip(1)
        .fold(NRefs::Fixed(refs[0].len()), |acc, r| NRefs::observe(Some(acc), r.len()).unwrap_or(acc));
    let extra = (0..a.extra_cols.len()).map(|c| base_rows.iter().map(|r| r.extra[c].clone()).collect()).collect();
    let keys = a.segment_col.map(|_| base_rows.iter().map(|r| r.key.clone().unwrap_or_default()).collect());
    Ok(Corpus { systems, refs, nrefs, extra, keys, score_cols: a.score_cols.to_vec(), scores, gold })
}
