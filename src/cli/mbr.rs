//! `mteval mbr INPUT --group-by src_id [--hyp-col hyp] [--utility chrf|chrf-aggregate|ter|METRIC] -o selected.parquet`:
//! Minimum Bayes Risk selection. Per group, every non-NULL hypothesis is
//! scored against the group's pseudo-references (the hypotheses themselves,
//! or `--pseudo-ref-col`) and the one with the best expected utility is kept
//! (the utility is the kernels' [`Utility`]: fastchrf's pairwise or
//! aggregate chrF, or the mean sentence score of any text metric, `ter`,
//! `wer`, `bleu`..., its direction deciding). Ties go to the first row in
//! input order. Groups are written in order of first appearance, with every
//! input column plus `utility` and `n_candidates`.

use std::io::IsTerminal;
use std::sync::Arc;

use anyhow::{Context, Result, bail};
use datafusion::arrow::array::{
    Array, ArrayRef, AsArray, Float64Array, Int64Array, RecordBatch, StringArray, UInt32Array,
};
use datafusion::arrow::compute::{cast, concat_batches, take};
use datafusion::arrow::datatypes::{DataType, Field, Schema};
use datafusion::arrow::row::{RowConverter, SortField};
use indicatif::{ProgressBar, ProgressStyle};
use mteval_kernels::backend::Backend;
use mteval_kernels::metric::Direction;
use mteval_kernels::metric::mbr::{Candidates, Utility};
use rayon::prelude::*;

use super::args::MbrArgs;
use mteval::output::BatchFileWriter;
use mteval::session::{SessionOptions, new_context, register_input};

fn string_column(batch: &RecordBatch, input: &str, col: &str, role: &str) -> Result<ArrayRef> {
    let Some(c) = batch.column_by_name(col) else {
        let names: Vec<&str> = batch.schema_ref().fields().iter().map(|f| f.name().as_str()).collect();
        bail!("{input}: {role} column '{col}' not found (columns: {})", names.join(", "));
    };
    let ok = matches!(c.data_type(), DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View | DataType::Null)
        || matches!(c.data_type(), DataType::Dictionary(..));
    if !ok {
        bail!("{input}: {role} column '{col}' has type {}, expected a string", c.data_type());
    }
    cast(c, &DataType::Utf8).with_context(|| format!("{input}: {role} column '{col}' is not a string column"))
}

/// The best candidate of one group: its row, its utility and the group's
/// number of candidates (non-NULL hypotheses); `None` when no candidate has a
/// utility. Ties go to the first row.
fn select(
    utility: &dyn Utility,
    backend: &dyn Backend,
    hyp: &StringArray,
    pref: Option<&StringArray>,
    members: &[usize],
) -> Result<Option<(usize, f64, usize)>> {
    let cand: Vec<usize> = members.iter().copied().filter(|&i| hyp.is_valid(i)).collect();
    let hyps: Vec<&str> = cand.iter().map(|&i| hyp.value(i)).collect();
    let mut ref_pos = std::collections::HashMap::new();
    let refs: Option<Vec<&str>> = pref.map(|p| {
        let mut v = Vec::new();
        for &i in members {
            if p.is_valid(i) {
                ref_pos.insert(i, v.len());
                v.push(p.value(i));
            }
        }
        v
    });
    let skip: Vec<Option<usize>> = cand
        .iter()
        .enumerate()
        .map(|(j, i)| match (utility.include_self(), &refs) {
            (true, _) => None,
            (false, None) => Some(j),
            (false, Some(_)) => ref_pos.get(i).copied(),
        })
        .collect();
    let scores = utility.expected(backend, &Candidates { hyps: &hyps, refs: refs.as_deref(), skip: &skip })?;
    let higher = utility.direction() == Direction::Higher;
    let mut best: Option<(usize, f64)> = None;
    for (j, s) in scores.iter().enumerate() {
        let Some(s) = *s else { continue };
        let better = match best {
            None => true,
            Some((_, b)) => {
                if higher {
                    s > b
                } else {
                    s < b
                }
            }
        };
        if better {
            best = Some((j, s));
        }
    }
    Ok(best.map(|(j, s)| (cand[j], s, cand.len())))
}

#[allow(clippy::too_many_lines, reason = "the command's steps in order: read the input, group its rows, select, write")]
pub(super) async fn run(a: MbrArgs) -> Result<()> {
    if let Some(out) = &a.output {
        mteval::output::check_outputs(&[("-o", out)], &[a.input.as_str()])?;
    }
    let utility = mteval_kernels::metrics::utility(&a.utility, a.options.as_deref().unwrap_or(""))?;
    let signature = utility.signature().to_string();
    let backend = mteval::session::device::backend()?;
    let ctx = new_context(&SessionOptions {
        batch_size: Some(8192),
        target_partitions: Some(1),
        memory_limit: a.memory_limit,
        device: mteval::session::device::get(),
    })?;
    let mut text_cols = vec![a.hyp_col.as_str()];
    text_cols.extend(a.pseudo_ref_col.as_deref());
    let kind = register_input(&ctx, "input", &a.input, &text_cols).await?;
    let df = ctx.table("input").await.with_context(|| format!("cannot read {}", a.input))?;
    let schema = Arc::new(df.schema().as_arrow().clone());
    for c in ["utility", "n_candidates"] {
        if schema.field_with_name(c).is_ok() {
            bail!("{} already has a column named '{c}'; rename it first", a.input);
        }
    }
    let batches = match df.collect().await {
        Ok(b) => b,
        Err(e) => {
            return Err(super::score::read_error(&e, kind, &a.input)
                .unwrap_or_else(|| anyhow::Error::new(e).context(format!("reading {}", a.input))));
        }
    };
    let batch = concat_batches(&schema, &batches)?;
    let n = batch.num_rows();
    let hyp_col = string_column(&batch, &a.input, &a.hyp_col, "hypothesis")?;
    let hyp = hyp_col.as_string::<i32>();
    let pref_col = match &a.pseudo_ref_col {
        Some(c) => Some(string_column(&batch, &a.input, c, "pseudo-reference")?),
        None => None,
    };
    let pref = pref_col.as_ref().map(datafusion::arrow::array::AsArray::as_string::<i32>);

    // Group rows by the exact values of the group-by columns, in order of first appearance.
    let mut key_cols = Vec::new();
    for g in &a.group_by {
        let c = batch.column_by_name(g).with_context(|| {
            let names: Vec<&str> = schema.fields().iter().map(|f| f.name().as_str()).collect();
            format!("{}: group-by column '{g}' not found (columns: {})", a.input, names.join(", "))
        })?;
        key_cols.push(Arc::clone(c));
    }
    let conv = RowConverter::new(key_cols.iter().map(|c| SortField::new(c.data_type().clone())).collect())?;
    let rows = conv.convert_columns(&key_cols)?;
    let mut index: std::collections::HashMap<&[u8], usize> = std::collections::HashMap::new();
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for i in 0..n {
        let gi = *index.entry(rows.row(i).data()).or_insert_with(|| {
            groups.push(Vec::new());
            groups.len() - 1
        });
        groups[gi].push(i);
    }

    let pb = if std::io::stderr().is_terminal() {
        let pb = ProgressBar::new(groups.len() as u64);
        pb.set_style(ProgressStyle::with_template(
            "{spinner} [{elapsed_precise}] {bar:40} {pos}/{len} groups (eta {eta})",
        )?);
        pb
    } else {
        ProgressBar::hidden()
    };
    // Groups are independent, so they run in parallel as well as within
    // (small MBR groups leave most cores idle otherwise); every score is the
    // same whatever the schedule, and the picks are gathered in group order.
    let picks: Vec<Result<Option<(usize, f64, usize)>>> = groups
        .par_iter()
        .map(|members| {
            let pick = select(utility.as_ref(), backend.as_ref(), hyp, pref, members).with_context(|| {
                let first = members.first().copied().unwrap_or(0);
                format!("{}: the group of row {first} (counting from 0; {} rows)", a.input, members.len())
            });
            pb.inc(1);
            pick
        })
        .collect();
    pb.finish_and_clear();
    let mut picked: Vec<u32> = Vec::new();
    let mut skipped = 0usize;
    let mut utilities: Vec<f64> = Vec::new();
    let mut counts: Vec<i64> = Vec::new();
    for pick in picks {
        if let Some((row, s, n_cand)) = pick? {
            picked.push(u32::try_from(row).context("more than 2^32 rows")?);
            utilities.push(s);
            counts.push(i64::try_from(n_cand).unwrap_or(i64::MAX));
        } else {
            skipped += 1;
        }
    }
    if skipped > 0 {
        mteval::output::note!(
            "mteval: {skipped} of {} groups have no candidate to select (every hypothesis NULL, or no \
             pseudo-reference left) and have no row in the output",
            groups.len()
        );
    }

    let idx = UInt32Array::from(picked);
    let mut cols: Vec<ArrayRef> =
        batch.columns().iter().map(|c| take(c.as_ref(), &idx, None)).collect::<Result<_, _>>()?;
    cols.push(Arc::new(Float64Array::from(utilities)));
    cols.push(Arc::new(Int64Array::from(counts)));
    let mut fields: Vec<Field> = schema.fields().iter().map(|f| f.as_ref().clone()).collect();
    fields.push(Field::new("utility", DataType::Float64, false));
    fields.push(Field::new("n_candidates", DataType::Int64, false));
    let out_schema = Arc::new(Schema::new(fields));
    let out = RecordBatch::try_new(Arc::clone(&out_schema), cols)?;
    if let Some(p) = &a.output {
        let mut w = BatchFileWriter::create(p, &out_schema, &[("mteval.signature.mbr".to_owned(), signature.clone())])?;
        w.write(&out)?;
        w.finish().await?;
        mteval::output::note!("selected {} of {n} rows ({} groups) into {}", out.num_rows(), groups.len(), p.display());
        mteval::output::write_stdout(format!("MBR|{signature}\n").as_bytes())
    } else {
        let mut text = Vec::new();
        mteval::output::print_batches(&[out], mteval::output::Format::Table, &mut text)?;
        text.extend_from_slice(format!("MBR|{signature}\n").as_bytes());
        mteval::output::write_stdout(&text)
    }
}
