//! Files and URLs queried by path in SQL (`FROM 'x.parquet'`,
//! `FROM 's3://bucket/dir/'`), as `DataFusion`'s `enable_url_table`, except
//! that a path that cannot be read says why. `DataFusion`'s factory turns every
//! failure of its format inference into "table not found", which hides the
//! cause: a missing URL, an unknown extension, an empty directory. Here a
//! name that looks like a path (a `/`, a scheme or an extension) gets the
//! real cause, naming the path; a plain name (`FROM t`) that is no table
//! keeps `DataFusion`'s "table 't' not found".

use std::sync::Arc;

use async_trait::async_trait;
use datafusion::catalog::{DynamicFileCatalog, TableProvider, UrlTableFactory};
use datafusion::datasource::dynamic_file::DynamicListTableFactory;
use datafusion::datasource::listing::{ListingTable, ListingTableConfig, ListingTableConfigExt, ListingTableUrl};
use datafusion::error::{DataFusionError, Result};
use datafusion::execution::context::SessionState;
use datafusion::prelude::SessionContext;

use crate::session::json_lines::json_error_location;
use crate::session::stores::{is_hidden_name, is_url};

/// Makes every file and URL queryable by path in `ctx` (see the module doc).
pub fn enable(ctx: SessionContext) -> SessionContext {
    let catalogs = Arc::clone(ctx.state().catalog_list());
    let factory = Arc::new(PathTables::default());
    let catalog_list = Arc::new(DynamicFileCatalog::new(catalogs, Arc::clone(&factory) as Arc<dyn UrlTableFactory>));
    let session_id = ctx.session_id();
    let ctx: SessionContext =
        ctx.into_state_builder().with_session_id(session_id).with_catalog_list(catalog_list).build().into();
    // The factory reaches the session (its formats, object stores and
    // options) through this weak reference, as DataFusion's does.
    factory.inner.session_store().with_state(ctx.state_weak_ref());
    ctx
}

/// The table factory behind [`enable`]; `DataFusion`'s keeps the session.
#[derive(Debug, Default)]
struct PathTables {
    inner: DynamicListTableFactory,
}

impl PathTables {
    fn state(&self) -> Result<SessionState> {
        self.inner
            .session_store()
            .get_session()
            .upgrade()
            .and_then(|s| s.read().as_any().downcast_ref::<SessionState>().cloned())
            .ok_or_else(|| DataFusionError::Internal("the session of a path table is gone".into()))
    }
}

#[async_trait]
impl UrlTableFactory for PathTables {
    async fn try_new(&self, name: &str) -> Result<Option<Arc<dyn TableProvider>>> {
        let Ok(url) = ListingTableUrl::parse(name) else { return Ok(None) };
        let state = self.state()?;
        match open(&state, url).await {
            Ok(table) => Ok(Some(table)),
            Err(_) if !looks_like_path(name) => Ok(None),
            Err(e) => Err(DataFusionError::Plan(explain(&state, name, &e))),
        }
    }
}

/// What `DataFusion`'s factory does: the format from the extension, the
/// schema from the files.
async fn open(state: &SessionState, url: ListingTableUrl) -> Result<Arc<dyn TableProvider>> {
    Ok(Arc::new(ListingTable::try_new(listing_config(state, url).await?)?))
}

/// The listing of the file, folder, glob or prefix `url` as SQL reads it:
/// the format from the first file's extension (through a compression
/// suffix), hive-style `key=value` folders as partition columns, the schema
/// from the files.
///
/// # Errors
/// `DataFusion`'s, which [`explain`] turns into a message naming the path.
pub(crate) async fn listing_config(state: &SessionState, url: ListingTableUrl) -> Result<ListingTableConfig> {
    let cfg = ListingTableConfig::new(url).infer_options(state).await?;
    check_dataset(state, &cfg).await?;
    let cfg = cfg.infer_partitions_from_path(state).await?;
    match cfg.clone().infer_schema(state).await {
        Err(e) if e.message().contains("Fail to merge schema field") => Err(name_type_clash(state, &cfg, e).await),
        other => other,
    }
}

/// `DataFusion`'s "Fail to merge schema field 'X' ..." for a dataset whose
/// files give column X different types, with two files that disagree named
/// (each file's schema inferred on its own; only on this error).
async fn name_type_clash(state: &SessionState, cfg: &ListingTableConfig, e: DataFusionError) -> DataFusionError {
    let msg = e.message().into_owned();
    let (Some(url), Some(options)) = (cfg.table_paths.first(), cfg.options.as_ref()) else { return e };
    let Some(field) = msg.split('\'').nth(1) else { return e };
    let Ok(store) = state.runtime_env().object_store(url) else { return e };
    let Ok(files) = listed_files(state, url, &store, &options.file_extension).await else { return e };
    let named = Named::of(url);
    let mut first: Option<(String, String)> = None;
    for m in &files {
        let Ok(schema) = options.format.infer_schema(state, &store, std::slice::from_ref(m)).await else { continue };
        let Ok(f) = schema.field_with_name(field) else { continue };
        let (file, ty) = (named.shown(m), f.data_type().to_string());
        match &first {
            None => first = Some((file, ty)),
            Some((at, was)) if *was != ty => {
                return DataFusionError::Plan(format!(
                    "its files give column '{field}' different types: {at} has {was}, {file} has {ty}; every file \
                     of a dataset must give a column the same type"
                ));
            }
            Some(_) => {}
        }
    }
    e
}

/// The files of a dataset listed at most, in a message.
const NAMED_FILES: usize = 3;

/// Refuses a dataset (a folder, a glob, a prefix) that cannot be read as one
/// table without losing or mixing up rows, naming the files:
/// - files of more than one format (`DataFusion` would read only those of
///   the first file's format);
/// - files outside the `key=value` partition folders the others are in
///   (`DataFusion` would skip them), or in folders of other keys;
/// - files with other columns than the first file's (their rows would read
///   NULL in the columns they lack); CSV and TSV files are read by position,
///   so their headers must also list the columns in the same order.
///
/// Hidden files are not listed at all (see `session::stores`); a single
/// file passes unchecked.
async fn check_dataset(state: &SessionState, cfg: &ListingTableConfig) -> Result<()> {
    let (Some(url), Some(options)) = (cfg.table_paths.first(), cfg.options.as_ref()) else { return Ok(()) };
    let store = state.runtime_env().object_store(url)?;
    let files = listed_files(state, url, &store, "").await?;
    let first_keys = files.first().map(|m| partition_keys(url, m)).unwrap_or_default();
    let cols: Vec<&str> = first_keys.iter().map(String::as_str).collect();
    let named = Named::of(url);
    let single = files.len() < 2 && cols.is_empty();
    if !single {
        check_one_format(&named, &files)?;
    }
    check_parquet_footers(&store, options, &named, &files).await?;
    check_csv_headers(&store, &named, &files).await?;
    if single {
        return Ok(());
    }
    check_one_layout(&named, url, &files, &cols)?;
    check_columns(state, &store, options, &named, &files, &cols).await
}

/// How many files' footers, heads or schemas the checks read at once.
const AT_ONCE: usize = 16;

/// Every Parquet file's footer checked against its size, naming the first
/// that is not Parquet (the reader would panic on it).
async fn check_parquet_footers(
    store: &Arc<dyn object_store::ObjectStore>,
    options: &datafusion::datasource::listing::ListingOptions,
    named: &Named,
    files: &[object_store::ObjectMeta],
) -> Result<()> {
    use datafusion::datasource::file_format::parquet::ParquetFormat;
    if options.format.downcast_ref::<ParquetFormat>().is_none() {
        return Ok(());
    }
    for chunk in files.chunks(AT_ONCE) {
        let reads: Vec<_> = chunk.iter().map(|m| footer_of(store.as_ref(), named, m)).collect();
        futures::future::try_join_all(reads).await?;
    }
    Ok(())
}

/// Every uncompressed CSV/TSV file's header with each column once (`DataFusion`
/// keeps one of two same-named columns, then fails on the rows' field count
/// without naming the file).
async fn check_csv_headers(
    store: &Arc<dyn object_store::ObjectStore>,
    named: &Named,
    files: &[object_store::ObjectMeta],
) -> Result<()> {
    use crate::session::files::{InputKind, unique_columns};
    let csv: Vec<(&object_store::ObjectMeta, InputKind, String)> = files
        .iter()
        .filter_map(|m| match InputKind::of(m.location.as_ref()) {
            Ok(kind @ (InputKind::Csv | InputKind::Tsv)) => Some((m, kind, named.shown(m))),
            _ => None,
        })
        .collect();
    for chunk in csv.chunks(AT_ONCE) {
        let reads: Vec<_> = chunk
            .iter()
            .map(|(m, kind, shown)| unique_columns(store.as_ref(), &m.location, m.size, *kind, shown))
            .collect();
        futures::future::try_join_all(reads).await.map_err(|e| DataFusionError::Plan(format!("{e:#}")))?;
    }
    Ok(())
}

/// [`check_parquet_footers`] of one file.
async fn footer_of(store: &dyn object_store::ObjectStore, named: &Named, m: &object_store::ObjectMeta) -> Result<()> {
    crate::session::files::parquet_footer(store, &m.location, m.size)
        .await
        .map(drop)
        .map_err(|e| DataFusionError::Plan(format!("{}: {e}", named.shown(m))))
}

/// Files named in messages: by path, or by URL in an object store.
struct Named {
    root: String,
}

impl Named {
    /// Files of the dataset `url`: local ones by path, others by URL.
    fn of(url: &ListingTableUrl) -> Self {
        Self { root: if url.scheme() == "file" { "/".to_owned() } else { url.object_store().as_str().to_owned() } }
    }

    fn shown(&self, m: &object_store::ObjectMeta) -> String {
        format!("{}{}", self.root, m.location)
    }

    /// The first [`NAMED_FILES`] of `ms`, and how many more.
    fn listing(&self, ms: &[&object_store::ObjectMeta]) -> String {
        let mut names: Vec<String> = ms.iter().take(NAMED_FILES).map(|m| self.shown(m)).collect();
        if ms.len() > NAMED_FILES {
            names.push(format!("and {} more", ms.len() - NAMED_FILES));
        }
        names.join(", ")
    }
}

/// The files of the dataset `url` whose names end with `ext` (`""`: all),
/// as `DataFusion` lists them (hidden ones left out by the store, empty ones
/// skipped), in path order.
async fn listed_files(
    state: &SessionState,
    url: &ListingTableUrl,
    store: &Arc<dyn object_store::ObjectStore>,
    ext: &str,
) -> Result<Vec<object_store::ObjectMeta>> {
    use futures::TryStreamExt;
    let mut files: Vec<object_store::ObjectMeta> = url
        .list_all_files(state, store.as_ref(), ext)
        .await?
        .try_filter(|m| std::future::ready(m.size > 0))
        .try_collect()
        .await?;
    files.sort_by(|a, b| a.location.cmp(&b.location));
    Ok(files)
}

/// The `key=value` folders above the file `m` of the dataset `url`, in order.
fn partition_keys(url: &ListingTableUrl, m: &object_store::ObjectMeta) -> Vec<String> {
    let segs: Vec<&str> = url.strip_prefix(&m.location).map(Iterator::collect).unwrap_or_default();
    segs[..segs.len().saturating_sub(1)].iter().filter_map(|s| s.split_once('=').map(|(k, _)| k.to_owned())).collect()
}

/// `files` grouped by `key`, in the order of their first file.
fn grouped<K: PartialEq>(
    files: &[object_store::ObjectMeta],
    key: impl Fn(&object_store::ObjectMeta) -> K,
) -> Vec<(K, Vec<&object_store::ObjectMeta>)> {
    let mut groups: Vec<(K, Vec<&object_store::ObjectMeta>)> = Vec::new();
    for m in files {
        let k = key(m);
        match groups.iter_mut().find(|(g, _)| *g == k) {
            Some((_, ms)) => ms.push(m),
            None => groups.push((k, vec![m])),
        }
    }
    groups
}

/// One format (extension, through a compression suffix) for every file.
fn check_one_format(named: &Named, files: &[object_store::ObjectMeta]) -> Result<()> {
    let formats = grouped(files, |m| {
        let (ext, compression) =
            ListingTableConfig::infer_file_extension_and_compression_type(m.location.as_ref()).unwrap_or_default();
        match compression {
            Some(c) => format!(".{ext}.{c}"),
            None => format!(".{ext}"),
        }
    });
    if formats.len() > 1 {
        let each: Vec<String> = formats.iter().map(|(f, ms)| format!("{f}: {}", named.listing(ms))).collect();
        return Err(DataFusionError::Plan(format!(
            "its files are of {} formats ({}); a dataset is read as one table of one format: put each format in a \
             folder of its own, or name one with a glob (DIR/**/*{})",
            formats.len(),
            each.join("; "),
            formats[0].0
        )));
    }
    Ok(())
}

/// Every file in the same `key=value` folders (`cols`, the ones
/// `DataFusion` infers), right below the dataset's folder.
fn check_one_layout(
    named: &Named,
    url: &ListingTableUrl,
    files: &[object_store::ObjectMeta],
    cols: &[&str],
) -> Result<()> {
    use datafusion::datasource::listing::helpers::parse_partitions_for_path;
    let layouts = grouped(files, |m| partition_keys(url, m));
    if layouts.len() > 1 {
        let each: Vec<String> = layouts
            .iter()
            .map(|(l, ms)| {
                let folders = if l.is_empty() {
                    "no partition folders".to_owned()
                } else {
                    l.iter().map(|c| format!("{c}=...")).collect::<Vec<_>>().join("/")
                };
                format!("{folders}: {}", named.listing(ms))
            })
            .collect();
        return Err(DataFusionError::Plan(format!(
            "its files lie in {} different layouts of partition folders ({}); every file of a partitioned dataset \
             lies in the same key=value folders, in the same order (a file outside them would have no value for \
             the partition columns)",
            layouts.len(),
            each.join("; ")
        )));
    }
    let outside: Vec<&object_store::ObjectMeta> =
        files.iter().filter(|m| parse_partitions_for_path(url, &m.location, cols.iter().copied()).is_none()).collect();
    if !outside.is_empty() {
        let layout = cols.iter().map(|c| format!("{c}=...")).collect::<Vec<_>>().join("/");
        return Err(DataFusionError::Plan(format!(
            "{} do not lie right below the dataset's folder in its partition folders {layout}; every file of a \
             partitioned dataset lies in the same key=value folders, in the same order, right below its folder",
            named.listing(&outside),
        )));
    }
    Ok(())
}

/// Every file with the first file's columns (CSV/TSV: in the same order),
/// none named as a partition key.
async fn check_columns(
    state: &SessionState,
    store: &Arc<dyn object_store::ObjectStore>,
    options: &datafusion::datasource::listing::ListingOptions,
    named: &Named,
    files: &[object_store::ObjectMeta],
    cols: &[&str],
) -> Result<()> {
    use datafusion::datasource::file_format::csv::CsvFormat;
    let shown = |m: &object_store::ObjectMeta| named.shown(m);
    // Columns: each file's own, compared with the first file's.
    let format = Arc::clone(&options.format);
    let header_only: Option<Arc<dyn datafusion::datasource::file_format::FileFormat>> = format
        .downcast_ref::<CsvFormat>()
        .map(|c| Arc::new(CsvFormat::default().with_options(c.options().clone()).with_schema_infer_max_rec(1)) as _);
    let by_position = header_only.is_some();
    let per_file = header_only.unwrap_or_else(|| Arc::clone(&format));
    // Each file's schema, several read at once (on an object store each is a
    // round trip or two), then compared in the files' order.
    let mut schemas = Vec::with_capacity(files.len());
    let per_file = &per_file;
    for chunk in files.chunks(AT_ONCE) {
        let reads: Vec<_> = chunk
            .iter()
            .map(|m| async move {
                per_file
                    .infer_schema(state, store, std::slice::from_ref(m))
                    .await
                    .map_err(|e| DataFusionError::Plan(format!("{}: {}", shown(m), e.message())))
            })
            .collect();
        schemas.extend(futures::future::try_join_all(reads).await?);
    }
    let mut first: Option<(Vec<String>, &object_store::ObjectMeta)> = None;
    for (m, schema) in files.iter().zip(schemas) {
        let names: Vec<String> = schema.fields().iter().map(|f| f.name().clone()).collect();
        if let Some(both) = names.iter().find(|n| cols.contains(&n.as_str())) {
            return Err(DataFusionError::Plan(format!(
                "{} has a column '{both}', which its partition folders ({both}=...) also give; rename the column \
                 or the folders",
                shown(m)
            )));
        }
        let Some((want, at)) = &first else {
            first = Some((names, m));
            continue;
        };
        if &names == want {
            continue;
        }
        let mut a = want.clone();
        let mut b = names.clone();
        a.sort();
        b.sort();
        if a == b && !by_position {
            continue;
        }
        let joined = |v: &[String]| v.join(", ");
        if a == b {
            return Err(DataFusionError::Plan(format!(
                "{} lists its columns as ({}) where {} has ({}); the CSV/TSV files of a dataset are read by \
                 position, so every file must list the same columns in the same order",
                shown(m),
                joined(&names),
                shown(at),
                joined(want)
            )));
        }
        let missing: Vec<&String> = want.iter().filter(|c| !names.contains(c)).collect();
        let extra: Vec<&String> = names.iter().filter(|c| !want.contains(c)).collect();
        let mut diff = Vec::new();
        if !missing.is_empty() {
            diff.push(format!("lacks {}", missing.iter().map(|c| format!("'{c}'")).collect::<Vec<_>>().join(", ")));
        }
        if !extra.is_empty() {
            diff.push(format!(
                "has {} in addition",
                extra.iter().map(|c| format!("'{c}'")).collect::<Vec<_>>().join(", ")
            ));
        }
        return Err(DataFusionError::Plan(format!(
            "its files have different columns: {} has ({}), {} has ({}) and {}; every file of a dataset must \
             have the same columns (rows of a file without a column would read NULL there)",
            shown(at),
            joined(want),
            shown(m),
            joined(&names),
            diff.join(" and ")
        )));
    }
    Ok(())
}

/// Whether a table name is meant as a file or URL rather than a table.
fn looks_like_path(name: &str) -> bool {
    name.contains(['/', '\\']) || is_url(name) || std::path::Path::new(name).extension().is_some()
}

/// Why the path `name` could not be opened (`e`: `DataFusion`'s error), naming it.
pub(crate) fn explain(state: &SessionState, name: &str, e: &DataFusionError) -> String {
    let msg = e.to_string();
    if !is_url(name) {
        let local = std::path::Path::new(name.strip_prefix("file://").unwrap_or(name));
        if !local.exists() {
            return format!("table '{name}' not found: no table has that name and no file {} exists", local.display());
        }
        if local.is_dir() && !has_files(local) {
            return format!(
                "{name}: the directory holds no files to read (hidden files, whose names start with '.' or '_', are \
                 skipped)"
            );
        }
    }
    // A folder's format is its first file's (DataFusion lists them in order).
    let first = if is_url(name) {
        None
    } else {
        first_file(std::path::Path::new(name.strip_prefix("file://").unwrap_or(name)))
    };
    let probe = first.as_ref().map_or_else(|| name.to_owned(), |f| f.display().to_string());
    let (ext, compression) = ListingTableConfig::infer_file_extension_and_compression_type(&probe).unwrap_or_default();
    if msg.contains("No file_format found with extension") {
        let file = match &first {
            Some(f) => format!("its first file {}", f.display()),
            None if name.ends_with('/') => "its first file".to_owned(),
            None => "it".to_owned(),
        };
        let ext = match compression {
            Some(c) => format!(".{ext}.{c}"),
            None => format!(".{ext}"),
        };
        return format!(
            "{name}: cannot tell the file format of {file} from its extension '{ext}' (SQL reads {}); for another \
             name, use CREATE EXTERNAL TABLE t STORED AS PARQUET|CSV|JSON LOCATION '{name}'",
            known_extensions(state)
        );
    }
    let json = ["json", "jsonl", "ndjson"].contains(&ext.to_ascii_lowercase().as_str());
    if json
        && compression.is_none()
        && let Some(located) = json_error_location(name, &msg)
    {
        return format!("{located:#}");
    }
    let cause = e.message();
    format!("cannot read {name}: {cause}")
}

/// The first file below the local directory `dir` in path order (`None`
/// for a file, a glob or an empty directory).
fn first_file(dir: &std::path::Path) -> Option<std::path::PathBuf> {
    let mut entries: Vec<std::path::PathBuf> = std::fs::read_dir(dir)
        .ok()?
        .flatten()
        .filter(|e| !is_hidden_name(&e.file_name().to_string_lossy()))
        .map(|e| e.path())
        .collect();
    entries.sort();
    entries.into_iter().find_map(|p| if p.is_dir() { first_file(&p) } else { Some(p) })
}

/// Whether `dir` or a directory below it holds a file that is not hidden.
fn has_files(dir: &std::path::Path) -> bool {
    let Ok(entries) = std::fs::read_dir(dir) else { return true };
    entries.flatten().filter(|e| !is_hidden_name(&e.file_name().to_string_lossy())).any(|e| {
        let p = e.path();
        if p.is_dir() { has_files(&p) } else { true }
    })
}

/// The registered file extensions, e.g. `.parquet, .csv, .json, ...`.
fn known_extensions(state: &SessionState) -> String {
    let exts: Vec<String> = ["parquet", "csv", "tsv", "json", "jsonl", "ndjson", "arrow", "avro"]
        .iter()
        .filter(|e| state.get_file_format_factory(e).is_some())
        .map(|e| format!(".{e}"))
        .collect();
    exts.join(", ")
}
