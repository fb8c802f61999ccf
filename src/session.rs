//! Session set-up: a `DataFusion` context with every mteval UDF registered,
//! files queryable by path (`FROM 'x.parquet'`, `.csv`, `.tsv`, `.json`,
//! `.jsonl`, `.ndjson`), and inputs registered as tables.

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

use anyhow::{Context, Result, bail};
use datafusion::arrow::datatypes::{DataType, Field, Schema};
use datafusion::catalog::Session;
use datafusion::common::GetExt;
use datafusion::common::config::ConfigField;
use datafusion::common::config::{CsvOptions, JsonOptions};
use datafusion::datasource::file_format::FileFormat;
use datafusion::datasource::file_format::FileFormatFactory;
use datafusion::datasource::file_format::csv::CsvFormat;
use datafusion::datasource::file_format::json::JsonFormat;
use datafusion::error::DataFusionError;
use datafusion::execution::SessionStateBuilder;
use datafusion::execution::memory_pool::FairSpillPool;
use datafusion::execution::object_store::{DefaultObjectStoreRegistry, ObjectStoreRegistry};
use datafusion::execution::runtime_env::RuntimeEnvBuilder;
use datafusion::prelude::{CsvReadOptions, JsonReadOptions, ParquetReadOptions, SessionConfig, SessionContext};
use object_store::ObjectStore;
use object_store::aws::AmazonS3Builder;
use object_store::azure::MicrosoftAzureBuilder;
use object_store::gcp::GoogleCloudStorageBuilder;
use object_store::http::HttpBuilder;
use url::Url;

/// A CSV or JSON file format with mteval's defaults preset (see
/// [`csv_format`], [`tsv_format`], [`json_format`]), under an extension:
/// `.csv`, `.tsv`, `.json`, and JSON lines as `.jsonl` and `.ndjson`
/// (`DataFusion`'s JSON reader only knows `.json`).
///
/// `OPTIONS (...)` of `COPY` and `CREATE EXTERNAL TABLE` arrive as
/// `format.KEY` (the SQL planner prefixes a bare `KEY`); `DataFusion`'s own
/// factory, given preset options, would pass `format.delimiter` to
/// `CsvOptions` and fail with `Config value "format" not found`. Here the
/// prefix is taken off and the key set on the preset, so every documented
/// format option works as in datafusion-cli, and a key of another namespace
/// is refused as `DataFusion` refuses it.
#[derive(Debug)]
struct PresetFormat {
    ext: &'static str,
    preset: Preset,
    /// Options of a `COPY` statement, baked in to travel to a cluster's
    /// scheduler (see [`preset_with_options`]); applied before the options
    /// `create` is given.
    baked: Vec<(String, String)>,
}

#[derive(Debug, Clone)]
enum Preset {
    Csv(CsvOptions),
    Json(JsonOptions),
}

/// The extensions of mteval's preset formats.
const PRESET_EXTS: [&str; 5] = ["json", "jsonl", "ndjson", "csv", "tsv"];

/// mteval's preset format for a file extension (`csv`, `tsv`, `json`,
/// `jsonl`, `ndjson`); `None` for another.
#[must_use]
pub fn preset_format(ext: &str) -> Option<Arc<dyn FileFormatFactory>> {
    preset_with_options(ext, Vec::new())
}

/// [`preset_format`] with a `COPY` statement's options (`format.KEY`,
/// value) baked in, applied whenever a format is created from it.
#[must_use]
pub fn preset_with_options(ext: &str, baked: Vec<(String, String)>) -> Option<Arc<dyn FileFormatFactory>> {
    let ext = PRESET_EXTS.into_iter().find(|e| *e == ext)?;
    let preset = match ext {
        "csv" => Preset::Csv(csv_format()),
        "tsv" => Preset::Csv(tsv_format()),
        _ => Preset::Json(json_format()),
    };
    Some(Arc::new(PresetFormat { ext, preset, baked }))
}

/// The options mteval writes a preset format with, before a statement's
/// own: `.tsv` fields are written as they are (no quoting), as `.tsv` is read
/// (see [`TSV_NO_QUOTE`]); a field holding a tab or a line break cannot be
/// written to `.tsv` faithfully (use `.csv`).
#[must_use]
pub fn preset_write_options(ext: &str) -> Vec<(String, String)> {
    match ext {
        "tsv" => vec![("format.quote".into(), "\"".into()), ("format.quote_style".into(), "never".into())],
        _ => Vec::new(),
    }
}

/// The extension and baked options of one of mteval's preset formats;
/// `None` for another format.
#[must_use]
pub fn preset_parts(f: &dyn FileFormatFactory) -> Option<(&'static str, &[(String, String)])> {
    f.downcast_ref::<PresetFormat>().map(|p| (p.ext, p.baked.as_slice()))
}

impl GetExt for PresetFormat {
    fn get_ext(&self) -> String {
        self.ext.to_owned()
    }
}

impl FileFormatFactory for PresetFormat {
    fn create(
        &self,
        _state: &dyn Session,
        format_options: &HashMap<String, String>,
    ) -> datafusion::common::Result<Arc<dyn FileFormat>> {
        let mut keys = Vec::with_capacity(self.baked.len() + format_options.len());
        for (k, v) in self.baked.iter().map(|(k, v)| (k, v)).chain(format_options) {
            let Some(key) = k.strip_prefix("format.") else {
                let ns = k.split('.').next().unwrap_or(k);
                return Err(DataFusionError::Configuration(format!(
                    "Config value \"{ns}\" not found on TableOptions (format options are written 'format.KEY' or 'KEY')"
                )));
            };
            keys.push((key, v.as_str()));
        }
        // Same order as the statement's options would apply; the map has one
        // value per key, so the order cannot change the outcome.
        Ok(match &self.preset {
            Preset::Csv(o) => {
                let mut o = o.clone();
                for (k, v) in keys {
                    o.set(k, v)?;
                }
                Arc::new(CsvFormat::default().with_options(o))
            }
            Preset::Json(o) => {
                let mut o = o.clone();
                for (k, v) in keys {
                    o.set(k, v)?;
                }
                Arc::new(JsonFormat::default().with_options(o))
            }
        })
    }

    fn default(&self) -> Arc<dyn FileFormat> {
        match &self.preset {
            Preset::Csv(o) => Arc::new(CsvFormat::default().with_options(o.clone())),
            Preset::Json(o) => Arc::new(JsonFormat::default().with_options(o.clone())),
        }
    }
}

/// The quote byte of TSV input: 0xFF never occurs in UTF-8 text, so no
/// field is ever read as quoted. TSV is read as IANA's
/// `text/tab-separated-values`: every field raw, quotes included (a
/// hypothesis may well start with `"`); quoted fields need `.csv`.
pub const TSV_NO_QUOTE: u8 = 0xFF;

/// The format of `.tsv` files in SQL (`FROM 'x.tsv'`): CSV with a tab
/// delimiter, a header row and no quoting (see [`TSV_NO_QUOTE`]), its
/// schema inferred from every record as for `.csv` ([`csv_format`]).
fn tsv_format() -> CsvOptions {
    CsvOptions {
        has_header: Some(true),
        delimiter: b'\t',
        quote: TSV_NO_QUOTE,
        schema_infer_max_rec: Some(INFER_ALL_RECORDS),
        ..CsvOptions::default()
    }
}

/// The format of `.csv` files in SQL: `DataFusion`'s, with the schema inferred
/// from every record, not the first 1,000. A column of numbers with text
/// after row 1,000 would otherwise be read as a number and fail there.
fn csv_format() -> CsvOptions {
    CsvOptions { schema_infer_max_rec: Some(INFER_ALL_RECORDS), ..CsvOptions::default() }
}

/// The format of JSON lines in SQL (`FROM 'x.jsonl'`, `.ndjson`): the
/// schema is inferred from every line, not the first 1,000. A key that first
/// appears later would otherwise be dropped, and a float after a run of
/// integers read as an integer, without a word.
fn json_format() -> JsonOptions {
    JsonOptions { schema_infer_max_rec: Some(INFER_ALL_RECORDS), ..JsonOptions::default() }
}

/// Records of a JSON-lines, CSV or TSV input read to infer its schema: all
/// of them (see [`json_format`], [`csv_format`]); `register_input` uses the
/// same. It costs one more pass over the file; a wrong guess costs the job.
const INFER_ALL_RECORDS: usize = usize::MAX;

/// Options for [`new_context`].
#[derive(Debug, Clone, Default)]
pub struct SessionOptions {
    /// Rows per batch (`DataFusion`'s default when `None`).
    pub batch_size: Option<usize>,
    /// Parallel partitions (number of cores when `None`).
    pub target_partitions: Option<usize>,
    /// Memory pool size in bytes for `DataFusion`'s operators (sorts, joins,
    /// aggregations spill to disk beyond it); unbounded when `None`.
    pub memory_limit: Option<usize>,
    /// The session's `mteval.device` (unset when `None`: `auto`, or on a
    /// cluster each executor's own default).
    pub device: Option<mteval_kernels::backend::DeviceRequest>,
}

/// Whether `path` names an object-store URL rather than a local file.
#[must_use]
pub fn is_url(path: &str) -> bool {
    path.contains("://") && !path.starts_with("file://")
}

/// The object store serving `url` (`s3://bucket`, `gs://bucket`,
/// `az://container`, `http(s)://host`), configured from the usual
/// environment variables: `AWS_*` (`AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`,
/// `AWS_REGION`, `AWS_ENDPOINT`, `AWS_ALLOW_HTTP`, ...), `GOOGLE_*`
/// (`GOOGLE_SERVICE_ACCOUNT`, ...), `AZURE_*` (`AZURE_STORAGE_ACCOUNT_NAME`,
/// `AZURE_STORAGE_ACCOUNT_KEY`, ...).
///
/// # Errors
/// Unsupported schemes and incomplete configurations, naming the URL.
pub fn store_for_url(url: &Url) -> Result<Arc<dyn ObjectStore>> {
    let u = url.as_str();
    let store: Arc<dyn ObjectStore> = match url.scheme() {
        "s3" | "s3a" => Arc::new(AmazonS3Builder::from_env().with_url(u).build().with_context(|| hint(url, "AWS_"))?),
        "gs" | "gcs" => {
            Arc::new(GoogleCloudStorageBuilder::from_env().with_url(u).build().with_context(|| hint(url, "GOOGLE_"))?)
        }
        "az" | "adl" | "azure" | "abfs" | "abfss" => {
            Arc::new(MicrosoftAzureBuilder::from_env().with_url(u).build().with_context(|| hint(url, "AZURE_"))?)
        }
        "http" | "https" => {
            let origin = &url[..url::Position::BeforePath];
            // The URL asks for plain HTTP itself, so it is allowed.
            let client = object_store::ClientOptions::new().with_allow_http(url.scheme() == "http");
            Arc::new(
                HttpBuilder::new()
                    .with_url(origin)
                    .with_client_options(client)
                    .build()
                    .with_context(|| format!("cannot open {url}"))?,
            )
        }
        s => bail!("unsupported URL scheme '{s}' in {url} (use s3://, gs://, az://, http(s):// or a local path)"),
    };
    Ok(store)
}

fn hint(url: &Url, prefix: &str) -> String {
    format!("cannot open {url} (object-store settings come from the {prefix}* environment variables)")
}

/// `DataFusion`'s object-store registry, creating the store of a bucket from
/// the environment the first time a URL names it (so `FROM 's3://b/x.parquet'`
/// works in SQL without DDL).
#[derive(Debug, Default)]
struct EnvObjectStores {
    known: DefaultObjectStoreRegistry,
}

impl ObjectStoreRegistry for EnvObjectStores {
    fn register_store(&self, url: &Url, store: Arc<dyn ObjectStore>) -> Option<Arc<dyn ObjectStore>> {
        self.known.register_store(url, store)
    }

    fn deregister_store(&self, url: &Url) -> datafusion::common::Result<Arc<dyn ObjectStore>> {
        self.known.deregister_store(url)
    }

    fn get_store(&self, url: &Url) -> datafusion::common::Result<Arc<dyn ObjectStore>> {
        if let Ok(s) = self.known.get_store(url) {
            return Ok(s);
        }
        if url.scheme() == "file" {
            return self.known.get_store(url);
        }
        let store = store_for_url(url).map_err(|e| DataFusionError::External(format!("{e:#}").into()))?;
        self.known.register_store(url, Arc::clone(&store));
        Ok(store)
    }
}

/// A session with every mteval function registered and files queryable by path.
///
/// # Errors
/// When registration fails.
pub fn new_context(opts: &SessionOptions) -> Result<SessionContext> {
    let state = client_state(SessionConfig::new(), opts)?;
    Ok(crate::path_tables::enable(SessionContext::new_with_state(state)))
}

/// The state of a session that plans queries here (run here, or sent to a
/// cluster): `base` with mteval's settings and `opts`, `DataFusion`'s
/// features, object stores from the environment, mteval's formats and functions.
///
/// # Errors
/// When the runtime cannot be built or registration fails.
pub fn client_state(base: SessionConfig, opts: &SessionOptions) -> Result<datafusion::execution::SessionState> {
    let state = SessionStateBuilder::new()
        .with_config(session_config(base, opts))
        .with_runtime_env(runtime_env(opts.memory_limit, None)?)
        .with_default_features()
        .build();
    Ok(with_mteval(state)?)
}

/// `base` (`DataFusion`'s or Ballista's configuration) with mteval's settings
/// extension and defaults, and `opts`.
#[must_use]
pub fn session_config(base: SessionConfig, opts: &SessionOptions) -> SessionConfig {
    let mut cfg = base.with_information_schema(true).with_option_extension(mteval_udfs::MtevalConfig::default());
    if let (Some(d), Some(c)) = (opts.device, cfg.options_mut().extensions.get_mut::<mteval_udfs::MtevalConfig>()) {
        c.device = d.to_string();
    }
    if let Some(b) = opts.batch_size {
        cfg = cfg.with_batch_size(b);
    }
    if let Some(p) = opts.target_partitions {
        cfg = cfg.with_target_partitions(p);
    }
    // Strings keep the type they have in the file (DataFusion would read
    // Parquet strings as Utf8View, which scored outputs would then carry,
    // and which readers before pyarrow 16 cannot open).
    cfg.options_mut().execution.parquet.schema_force_view_types = false;
    // No file statistics: DataFusion 55 merges a row group's missing max
    // (pyarrow leaves strings over 4 KB out of the statistics) with another
    // group's min == max into a file-level constant, and then reads the whole
    // column as that constant (apache/datafusion#25226). Scoring reads every
    // row anyway; statistics would only prune.
    cfg.options_mut().execution.collect_statistics = false;
    cfg
}

/// The runtime: object stores from the environment for any URL (see
/// [`store_for_url`]), a memory pool of `memory_limit` bytes when given, and
/// spill files under `temp_dir` when given.
///
/// # Errors
/// When the runtime cannot be built.
pub fn runtime_env(
    memory_limit: Option<usize>,
    temp_dir: Option<&Path>,
) -> datafusion::common::Result<Arc<datafusion::execution::runtime_env::RuntimeEnv>> {
    let mut runtime = RuntimeEnvBuilder::new().with_object_store_registry(Arc::new(EnvObjectStores::default()));
    if let Some(bytes) = memory_limit {
        runtime = runtime.with_memory_pool(Arc::new(FairSpillPool::new(bytes)));
    }
    if let Some(dir) = temp_dir {
        runtime = runtime.with_temp_file_path(dir);
    }
    runtime.build_arc()
}

/// `state` with mteval's file formats (`.csv`, `.tsv`, `.json`, `.jsonl`,
/// `.ndjson`, see [`PresetFormat`]) and every mteval function registered.
///
/// # Errors
/// When registration fails.
pub fn with_mteval(
    mut state: datafusion::execution::SessionState,
) -> datafusion::common::Result<datafusion::execution::SessionState> {
    for ext in PRESET_EXTS {
        if let Some(f) = preset_format(ext) {
            state.register_file_format(f, true)?;
        }
    }
    // Bound to the session's device: what a cluster's executor runs a plan's
    // aggregate and window functions on when the client left mteval.device unset.
    let device = mteval_udfs::common::configured_device("mteval.device", state.config().options())?;
    mteval_udfs::register_all_on(&mut state, device)?;
    Ok(state)
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

/// Registers `path` as table `name`, checking first that it exists. In CSV
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
    let kind = InputKind::of(path)?;
    let local = path.strip_prefix("file://").unwrap_or(path);
    if !is_url(path) {
        let meta = std::fs::metadata(local).with_context(|| format!("cannot read input file {path}"))?;
        if meta.is_dir() {
            bail!("{path} is a directory; give one input file");
        }
    }
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
        let is_text = |f: &Field| mteval_udfs::common::is_string(f.data_type());
        if inferred.fields().iter().any(|f| text_cols.contains(&f.name().as_str()) && !is_text(f)) {
            let fields: Vec<Field> = inferred
                .fields()
                .iter()
                .map(|f| {
                    let f = f.as_ref().clone();
                    if text_cols.contains(&f.name().as_str()) { f.with_data_type(DataType::Utf8) } else { f }
                })
                .collect();
            let schema = Schema::new(fields);
            ctx.deregister_table(name)?;
            ctx.register_csv(name, path, csv(kind, &ext, Some(&schema)))
                .await
                .with_context(|| format!("cannot read {path} as {kind:?}"))?;
        }
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

/// Where in the local JSON-lines file `path` Arrow's error `msg` comes from,
/// as an error naming the file, the line (1-based) and what is wrong there;
/// `None` for a URL, or when no line explains it. Arrow's own messages count
/// lines from the start of each chunk it parses, or name no line at all, so
/// this reads the file again, only after Arrow has failed:
/// - the first line that is not a JSON value (column included);
/// - else the first line where a field holds another JSON type than on an
///   earlier line (a number where other lines have a string, a list where
///   they have a number, ...): Arrow infers one type per column and cannot
///   read the other. When `msg` names the field ("whilst decoding field
///   'x'"), only that field is looked at.
///
/// Blank lines are skipped, as Arrow does.
#[must_use]
pub fn json_error_location(path: &str, msg: &str) -> Option<anyhow::Error> {
    use std::io::BufRead;
    if is_url(path) {
        return None;
    }
    let local = path.strip_prefix("file://").unwrap_or(path);
    let field = msg.split("whilst decoding field '").nth(1).and_then(|r| r.split('\'').next());
    let mut kinds: HashMap<String, (&'static str, usize)> = HashMap::new();
    let mut conflict: Option<anyhow::Error> = None;
    let file = std::io::BufReader::new(std::fs::File::open(local).ok()?);
    for (i, line) in file.split(b'\n').enumerate() {
        let line = line.ok()?;
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let value = match serde_json::from_slice::<serde_json::Value>(&line) {
            Ok(v) => v,
            Err(e) => {
                let msg = e.to_string();
                let what = msg.rfind(" at line ").map_or(msg.as_str(), |k| &msg[..k]);
                return Some(anyhow::anyhow!(
                    "{path}: line {} is not valid JSON, column {}: {what}",
                    i + 1,
                    e.column()
                ));
            }
        };
        if conflict.is_some() {
            continue; // a syntax error further on is still the first thing to fix
        }
        let mut leaves = Vec::new();
        json_kinds(&value, String::new(), &mut leaves);
        for (at, kind) in leaves {
            let top = at.split(['.', '[']).next().unwrap_or("");
            if field.is_some_and(|f| f != top) {
                continue;
            }
            if at.is_empty() && kind != "an object" {
                conflict = Some(anyhow::anyhow!("{path}: line {} is {kind}; every line must be a JSON object", i + 1));
                break;
            }
            match kinds.get(&at) {
                None => {
                    kinds.insert(at, (kind, i + 1));
                }
                Some(&(first, first_line)) if first != kind => {
                    let hint = if [first, kind].contains(&"a number") && [first, kind].contains(&"a string") {
                        " (quote the numbers)"
                    } else {
                        ""
                    };
                    conflict = Some(anyhow::anyhow!(
                        "{path}: line {}: field '{at}' is {kind}, but {first} on line {first_line}; \
                         a JSON field must have one type on every line{hint}",
                        i + 1
                    ));
                    break;
                }
                Some(_) => {}
            }
        }
    }
    conflict
}

/// The JSON type of every non-null value in `v`, by path: `a.b` for object
/// keys, `a[]` for list elements; the top-level object has the empty path.
fn json_kinds(v: &serde_json::Value, at: String, out: &mut Vec<(String, &'static str)>) {
    use serde_json::Value;
    let kind = match v {
        Value::Null => return,
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(items) => {
            for item in items {
                json_kinds(item, format!("{at}[]"), out);
            }
            "a list"
        }
        Value::Object(map) => {
            for (k, item) in map {
                json_kinds(item, if at.is_empty() { k.clone() } else { format!("{at}.{k}") }, out);
            }
            "an object"
        }
    };
    out.push((at, kind));
}

/// Fails when the file at `path` names a column twice. `DataFusion` merges
/// same-named Parquet columns into one, keeping the first, so `score` would
/// silently score whichever came first; Arrow's CSV reader reports a field
/// count that does not say why. Reads only the Parquet footer, or the first
/// MiB of a CSV/TSV file (a longer header is not checked).
async fn check_unique_columns(ctx: &SessionContext, path: &str, kind: InputKind) -> Result<()> {
    use datafusion::datasource::listing::ListingTableUrl;
    use datafusion::parquet::file::FOOTER_SIZE;
    use datafusion::parquet::file::metadata::{FooterTail, ParquetMetaDataReader};
    use object_store::ObjectStoreExt;

    let url = ListingTableUrl::parse(path).with_context(|| format!("cannot read {path}"))?;
    let store = ctx.runtime_env().object_store(url.object_store()).with_context(|| format!("cannot read {path}"))?;
    let location = url.prefix();
    let size = store.head(location).await.with_context(|| format!("cannot read input file {path}"))?.size;
    let names: Vec<String> = match kind {
        InputKind::Parquet => {
            // The file ends with its metadata, then the footer tail: the
            // metadata's length and the magic bytes (parquet decodes both).
            let foot = FOOTER_SIZE as u64;
            let tail = if size >= foot + 4 { store.get_range(location, size - foot..size).await.ok() } else { None };
            let Some(tail) = tail.and_then(|t| FooterTail::try_from(&t[..]).ok()) else {
                bail!("{path}: not a Parquet file (no Parquet footer)");
            };
            if tail.is_encrypted_footer() {
                return Ok(()); // DataFusion says what it makes of it
            }
            let len = tail.metadata_length() as u64;
            if len + foot + 4 > size {
                bail!("{path}: not a Parquet file (its footer is longer than the file)");
            }
            let bytes = store
                .get_range(location, size - foot - len..size - foot)
                .await
                .with_context(|| format!("cannot read input file {path}"))?;
            let meta = ParquetMetaDataReader::decode_metadata(&bytes)
                .with_context(|| format!("cannot read {path} as Parquet"))?;
            meta.file_metadata().schema_descr().root_schema().get_fields().iter().map(|f| f.name().to_owned()).collect()
        }
        InputKind::Csv | InputKind::Tsv => {
            const HEAD: u64 = 1 << 20;
            let bytes = store
                .get_range(location, 0..size.min(HEAD))
                .await
                .with_context(|| format!("cannot read input file {path}"))?;
            let Some(end) = bytes.iter().position(|&b| b == b'\n') else { return Ok(()) };
            let mut format = datafusion::arrow::csv::reader::Format::default().with_header(true);
            if kind == InputKind::Tsv {
                format = format.with_delimiter(b'\t').with_quote(TSV_NO_QUOTE);
            }
            // A quoted header field spanning lines is not checked.
            let Ok((schema, _)) = format.infer_schema(&bytes[..=end], Some(0)) else { return Ok(()) };
            schema.fields().iter().map(|f| f.name().clone()).collect()
        }
        InputKind::Json => return Ok(()),
    };
    let mut seen = std::collections::HashSet::new();
    if let Some(dup) = names.iter().find(|n| !seen.insert(n.as_str())) {
        bail!(
            "{path}: column '{dup}' appears more than once (columns: {}); give every column its own name",
            names.join(", ")
        );
    }
    Ok(())
}
