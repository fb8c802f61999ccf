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
use crate::session::stores::is_url;

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
    cfg.infer_partitions_from_path(state).await?.infer_schema(state).await
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
            return format!("{name}: the directory holds no files to read");
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
    let mut entries: Vec<std::path::PathBuf> = std::fs::read_dir(dir).ok()?.flatten().map(|e| e.path()).collect();
    entries.sort();
    entries.into_iter().find_map(|p| if p.is_dir() { first_file(&p) } else { Some(p) })
}

/// Whether `dir` or a directory below it holds a file (`DataFusion` lists recursively).
fn has_files(dir: &std::path::Path) -> bool {
    let Ok(entries) = std::fs::read_dir(dir) else { return true };
    entries.flatten().any(|e| {
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
