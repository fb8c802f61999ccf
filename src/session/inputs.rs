//! Input files registered as tables (one file or a dataset): the readers'
//! options, text columns read as text, and JSON error locations (what a
//! file is and its checks: `files`).

use std::path::Path;

use anyhow::{Context, Result, bail};
use datafusion::arrow::datatypes::{DataType, Field, Schema};
use datafusion::prelude::{CsvReadOptions, JsonReadOptions, ParquetReadOptions, SessionContext};

use super::files::{InputKind, unique_columns};
use super::formats::{INFER_ALL_RECORDS, TSV_NO_QUOTE};
use super::json_lines::json_error_location;
use super::stores::is_url;

/// Registers `path` as table `name`, checking first that it exists: one
/// file, or a dataset ([`is_dataset`]: a folder, a glob, an object-store
/// prefix). In CSV
/// and TSV input, the columns named in `text_cols` are read as strings
/// whatever their values look like (a column of years or of numbers is
/// still text to score). Other columns get the type that fits every record.
///
/// # Errors
/// Missing or unreadable files, unknown formats.
pub async fn register_input(ctx: &SessionContext, name: &str, path: &str, text_cols: &[&str]) -> Result<InputKind> {
    fn csv<'a>(kind: InputKind, ext: &'a str, schema: Option<&'a Schema>) -> CsvReadOptions<'a> {
        let mut o =
            CsvReadOptions::new().has_header(true).file_extension(ext).schema_infer_max_records(INFER_ALL_RECORDS);
        if kind == InputKind::Tsv {
            o = o.delimiter(b'\t').quote(TSV_NO_QUOTE);
        }
        if let Some(s) = schema {
            o = o.schema(s);
        }
        o
    }
    // A compressed file is read as SQL reads it (the compression from its
    // suffix), which the single-file readers below do not do.
    if is_dataset(path) || is_compressed(path) {
        return register_dataset(ctx, name, path, text_cols).await;
    }
    let local = path.strip_prefix("file://").unwrap_or(path);
    if !is_url(path) {
        std::fs::metadata(local).with_context(|| format!("cannot read input {path}"))?;
    }
    let kind = InputKind::of(path)?;
    let ext = Path::new(path).extension().and_then(|e| e.to_str()).map(|e| format!(".{e}")).unwrap_or_default();
    if matches!(kind, InputKind::Parquet | InputKind::Csv | InputKind::Tsv) {
        check_unique_columns(ctx, path, kind).await?;
    }
    let res = match kind {
        InputKind::Parquet => {
            ctx.register_parquet(name, path, ParquetReadOptions::default().file_extension(&ext)).await
        }
        InputKind::Csv | InputKind::Tsv => ctx.register_csv(name, path, csv(kind, &ext, None)).await,
        InputKind::Json => {
            let o = JsonReadOptions::default().file_extension(&ext).schema_infer_max_records(INFER_ALL_RECORDS);
            ctx.register_json(name, path, o).await
        }
    };
    if let Err(e) = res {
        if kind == InputKind::Json
            && let Some(located) = json_error_location(path, &e.to_string())
        {
            return Err(located);
        }
        return Err(anyhow::Error::new(e).context(format!("cannot read {path} as {kind:?}")));
    }
    if matches!(kind, InputKind::Csv | InputKind::Tsv) {
        let inferred =
            ctx.table(name).await.with_context(|| format!("cannot read {path}"))?.schema().as_arrow().clone();
        if let Some(schema) = text_schema(&inferred, text_cols) {
            ctx.deregister_table(name)?;
            ctx.register_csv(name, path, csv(kind, &ext, Some(&schema)))
                .await
                .with_context(|| format!("cannot read {path} as {kind:?}"))?;
        }
        empty_fields_as_text(ctx, name, text_cols).await.with_context(|| format!("cannot read {path}"))?;
    }
    Ok(kind)
}

/// `schema` with the `text_cols` read as strings, when one of them is not
/// (CSV/TSV inference made numbers of a column of digits); `None` when
/// every text column already is.
fn text_schema(schema: &Schema, text_cols: &[&str]) -> Option<Schema> {
    let is_text = |f: &Field| mteval_udfs::common::is_string(f.data_type());
    if !schema.fields().iter().any(|f| text_cols.contains(&f.name().as_str()) && !is_text(f)) {
        return None;
    }
    let fields: Vec<Field> = schema
        .fields()
        .iter()
        .map(|f| {
            let f = f.as_ref().clone();
            if text_cols.contains(&f.name().as_str()) { f.with_data_type(DataType::Utf8) } else { f }
        })
        .collect();
    Some(Schema::new(fields))
}

/// The compression suffixes a file may end with, after its format's.
pub(crate) const COMPRESSED: [&str; 4] = [".gz", ".bz2", ".xz", ".zst"];

/// Whether the file `path` ends with a [`COMPRESSED`] suffix.
#[must_use]
pub fn is_compressed(path: &str) -> bool {
    let lower = path.to_ascii_lowercase();
    COMPRESSED.iter().any(|c| lower.ends_with(c))
}

/// Whether `path` names a dataset rather than one file: a local directory
/// (every file below it, hive-style `key=value` folders as columns), a glob
/// (`*`, `?`, `[`), or a URL ending in `/` (an object-store prefix).
#[must_use]
pub fn is_dataset(path: &str) -> bool {
    let glob = |p: &str| p.contains(['*', '?', '[']);
    if is_url(path) && !path.starts_with("file://") {
        let rest = path.split_once("://").map_or(path, |(_, r)| r);
        return path.ends_with('/') || glob(rest);
    }
    // A file whose name holds a glob character is a file.
    let local = Path::new(path.strip_prefix("file://").unwrap_or(path));
    local.is_dir() || (glob(&local.to_string_lossy()) && !local.is_file())
}

/// The folder a local dataset reads below: the directory itself, or a
/// glob's leading folders; `None` for a URL or a single file.
#[must_use]
pub fn dataset_root(path: &str) -> Option<std::path::PathBuf> {
    if is_url(path) && !path.starts_with("file://") {
        return None;
    }
    let local = Path::new(path.strip_prefix("file://").unwrap_or(path));
    if local.is_dir() {
        return Some(local.to_owned());
    }
    let fixed: std::path::PathBuf =
        local.components().take_while(|c| !c.as_os_str().to_string_lossy().contains(['*', '?', '['])).collect();
    (fixed != local).then_some(fixed)
}

/// Registers the dataset `path` (see [`is_dataset`]) as table `name` as SQL
/// reads it (`FROM 'dir/'`): the format from the first file's extension
/// (compressed or not), the schema from the files, hive-style partition
/// folders as columns. `DataFusion` reads the files in path order, so the
/// rows come in a deterministic order: file by file, each in its own order.
/// CSV/TSV text columns are read as [`register_input`] reads them.
async fn register_dataset(ctx: &SessionContext, name: &str, path: &str, text_cols: &[&str]) -> Result<InputKind> {
    use datafusion::datasource::listing::{ListingTable, ListingTableUrl};
    let state = ctx.state();
    let url = ListingTableUrl::parse(path).with_context(|| format!("{path}: not a path, glob or URL"))?;
    let cfg = crate::session::path_tables::listing_config(&state, url)
        .await
        .map_err(|e| anyhow::anyhow!(crate::session::path_tables::explain(&state, path, &e)))?;
    let ext = cfg.options.as_ref().map(|o| o.file_extension.clone()).unwrap_or_default();
    let plain = ext.split('.').next().unwrap_or_default();
    let kind = InputKind::of(&format!("x.{plain}")).map_err(|_| {
        anyhow::anyhow!(
            "{path}: its files are .{ext}, a format mteval does not read (use .parquet, .csv, .tsv, .json, .jsonl \
             or .ndjson, compressed or not)"
        )
    })?;
    let cfg = match cfg.file_schema.as_deref().and_then(|s| text_schema(s, text_cols)) {
        Some(s) if matches!(kind, InputKind::Csv | InputKind::Tsv) => cfg.with_schema(std::sync::Arc::new(s)),
        _ => cfg,
    };
    let table = ListingTable::try_new(cfg).with_context(|| format!("cannot read {path}"))?;
    ctx.register_table(name, std::sync::Arc::new(table))?;
    if matches!(kind, InputKind::Csv | InputKind::Tsv) {
        empty_fields_as_text(ctx, name, text_cols).await.with_context(|| format!("cannot read {path}"))?;
    }
    Ok(kind)
}

/// Re-registers the CSV/TSV table `name` as a view in which the `text_cols`
/// read an empty field as the empty string. Arrow's CSV reader turns every
/// empty field into NULL, but neither RFC 4180 nor IANA's TSV has a NULL: an
/// empty hypothesis is a system output (TER 100, as sacrebleu scores an
/// empty line), and as NULL it would silently leave the corpus score. The
/// other columns keep Arrow's reading (an empty number is NULL).
async fn empty_fields_as_text(ctx: &SessionContext, name: &str, text_cols: &[&str]) -> Result<()> {
    use datafusion::functions::expr_fn::coalesce;
    use datafusion::prelude::{Expr, ident, lit};
    let table = ctx.table(name).await?;
    if !table.schema().fields().iter().any(|f| text_cols.contains(&f.name().as_str())) {
        return Ok(());
    }
    let exprs: Vec<Expr> = table
        .schema()
        .fields()
        .iter()
        .map(|f| {
            let c = ident(f.name());
            if text_cols.contains(&f.name().as_str()) && mteval_udfs::common::is_string(f.data_type()) {
                coalesce(vec![c, lit("")]).alias(f.name())
            } else {
                c
            }
        })
        .collect();
    let view = table.select(exprs)?.into_view();
    ctx.deregister_table(name)?;
    ctx.register_table(name, view)?;
    Ok(())
}

/// Fails when the file at `path` names a column twice. `DataFusion` merges
/// same-named Parquet columns into one, keeping the first, so `score` would
/// silently score whichever came first; Arrow's CSV reader reports a field
/// count that does not say why. Reads only the Parquet footer, or the first
/// MiB of a CSV/TSV file (a longer header is not checked).
async fn check_unique_columns(ctx: &SessionContext, path: &str, kind: InputKind) -> Result<()> {
    use datafusion::datasource::listing::ListingTableUrl;
    use object_store::ObjectStoreExt;

    let url = ListingTableUrl::parse(path).with_context(|| format!("cannot read {path}"))?;
    let store = ctx.runtime_env().object_store(url.object_store()).with_context(|| format!("cannot read {path}"))?;
    let location = url.prefix();
    let size = store.head(location).await.with_context(|| format!("cannot read input file {path}"))?.size;
    if size == 0 && kind != InputKind::Parquet {
        bail!("{path}: the file is empty (not even a header row)");
    }
    unique_columns(store.as_ref(), location, size, kind, path).await
}
