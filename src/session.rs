//! Session set-up: a DataFusion context with every mteval UDF registered,
//! files queryable by path (`FROM 'x.parquet'`, `.csv`, `.tsv`, `.json`,
//! `.jsonl`, `.ndjson`), and inputs registered as tables.

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

use anyhow::{Context, Result, bail};
use datafusion::catalog::Session;
use datafusion::common::GetExt;
use datafusion::datasource::file_format::FileFormat;
use datafusion::datasource::file_format::FileFormatFactory;
use datafusion::datasource::file_format::json::JsonFormatFactory;
use datafusion::execution::SessionStateBuilder;
use datafusion::prelude::{CsvReadOptions, JsonReadOptions, ParquetReadOptions, SessionConfig, SessionContext};

/// JSON-lines files under the `.jsonl` / `.ndjson` extensions (DataFusion's
/// own JSON reader only knows `.json`).
#[derive(Debug)]
struct JsonLinesFactory {
    ext: &'static str,
    inner: JsonFormatFactory,
}

impl GetExt for JsonLinesFactory {
    fn get_ext(&self) -> String {
        self.ext.to_owned()
    }
}

impl FileFormatFactory for JsonLinesFactory {
    fn create(
        &self,
        state: &dyn Session,
        format_options: &HashMap<String, String>,
    ) -> datafusion::common::Result<Arc<dyn FileFormat>> {
        self.inner.create(state, format_options)
    }

    fn default(&self) -> Arc<dyn FileFormat> {
        self.inner.default()
    }
}

/// Options for [`new_context`].
#[derive(Debug, Clone, Default)]
pub struct SessionOptions {
    /// Rows per batch (DataFusion's default when `None`).
    pub batch_size: Option<usize>,
    /// Parallel partitions (number of cores when `None`).
    pub target_partitions: Option<usize>,
}

/// A session with every mteval function registered and files queryable by path.
///
/// # Errors
/// When registration fails.
pub fn new_context(opts: &SessionOptions) -> Result<SessionContext> {
    let mut cfg = SessionConfig::new().with_information_schema(true);
    if let Some(b) = opts.batch_size {
        cfg = cfg.with_batch_size(b);
    }
    if let Some(p) = opts.target_partitions {
        cfg = cfg.with_target_partitions(p);
    }
    let mut state = SessionStateBuilder::new().with_config(cfg).with_default_features().build();
    for ext in ["jsonl", "ndjson"] {
        state.register_file_format(Arc::new(JsonLinesFactory { ext, inner: JsonFormatFactory::new() }), true)?;
    }
    let mut ctx = SessionContext::new_with_state(state).enable_url_table();
    mteval_udfs::register_all(&mut ctx)?;
    Ok(ctx)
}

/// Input file kinds, by extension.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InputKind {
    /// Apache Parquet.
    Parquet,
    /// Comma-separated values with a header row.
    Csv,
    /// Tab-separated values with a header row.
    Tsv,
    /// Newline-delimited JSON (`.json`, `.jsonl`, `.ndjson`).
    Json,
}

impl InputKind {
    /// The kind of `path`, from its extension.
    ///
    /// # Errors
    /// Unknown extensions.
    pub fn of(path: &str) -> Result<Self> {
        let ext = Path::new(path).extension().and_then(|e| e.to_str()).unwrap_or("").to_ascii_lowercase();
        Ok(match ext.as_str() {
            "parquet" | "pq" => Self::Parquet,
            "csv" => Self::Csv,
            "tsv" => Self::Tsv,
            "json" | "jsonl" | "ndjson" => Self::Json,
            _ => bail!("{path}: unknown input format '.{ext}' (use .parquet, .csv, .tsv, .json, .jsonl or .ndjson)"),
        })
    }
}

/// Registers `path` as table `name`, checking first that it exists.
///
/// # Errors
/// Missing or unreadable files, unknown formats.
pub async fn register_input(ctx: &SessionContext, name: &str, path: &str) -> Result<InputKind> {
    let kind = InputKind::of(path)?;
    let local = path.strip_prefix("file://").unwrap_or(path);
    if !local.contains("://") {
        let meta = std::fs::metadata(local).with_context(|| format!("cannot read input file {path}"))?;
        if meta.is_dir() {
            bail!("{path} is a directory; give one input file");
        }
    }
    let ext = Path::new(path).extension().and_then(|e| e.to_str()).map(|e| format!(".{e}")).unwrap_or_default();
    let res = match kind {
        InputKind::Parquet => {
            ctx.register_parquet(name, path, ParquetReadOptions::default().file_extension(&ext)).await
        }
        InputKind::Csv => {
            ctx.register_csv(name, path, CsvReadOptions::new().has_header(true).file_extension(&ext)).await
        }
        InputKind::Tsv => {
            ctx.register_csv(name, path, CsvReadOptions::new().has_header(true).delimiter(b'\t').file_extension(&ext))
                .await
        }
        InputKind::Json => ctx.register_json(name, path, JsonReadOptions::default().file_extension(&ext)).await,
    };
    res.with_context(|| format!("cannot read {path} as {kind:?}"))?;
    Ok(kind)
}
