//! Session set-up: a `DataFusion` context with every mteval UDF registered,
//! files queryable by path (`FROM 'x.parquet'`, `.csv`, `.tsv`, `.json`,
//! `.jsonl`, `.ndjson`), and inputs registered as tables. The file formats,
//! the object stores and the inputs each have a module of their own; their
//! public items are re-exported here.

pub mod device;
pub(crate) mod files;
mod formats;
pub(crate) mod inputs;
pub(crate) mod json_lines;
pub(crate) mod path_tables;
pub mod statements;
pub(crate) mod stores;

pub use files::InputKind;
pub use formats::{PresetFormat, TSV_NO_QUOTE, preset_format, preset_parts, preset_with_options, preset_write_options};
pub use inputs::{dataset_root, is_dataset, register_input};
pub use json_lines::json_error_location;
pub use stores::{is_url, store_for_url};

/// The largest `--batch-size`: Arrow's readers allocate a batch's buffers up
/// front, so a size near `usize::MAX` would abort the process.
pub const MAX_BATCH: u64 = 1 << 22;

use std::path::Path;
use std::sync::Arc;

use anyhow::Result;
use datafusion::execution::SessionStateBuilder;
use datafusion::execution::memory_pool::FairSpillPool;
use datafusion::execution::runtime_env::RuntimeEnvBuilder;
use datafusion::prelude::{SessionConfig, SessionContext};

use self::formats::PRESET_EXTS;
use self::stores::EnvObjectStores;

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

/// A session with every mteval function registered and files queryable by path.
///
/// # Errors
/// When registration fails.
pub fn new_context(opts: &SessionOptions) -> Result<SessionContext> {
    let state = client_state(SessionConfig::new(), opts)?;
    Ok(crate::session::path_tables::enable(SessionContext::new_with_state(state)))
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
        c.device = Some(d);
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
    // A dataset folder is every file below it, at any depth (DataFusion
    // would skip the files of subfolders that are not `key=value`
    // partitions, and the deeper folders of a partition); hidden files are
    // left out by the object stores (see `stores::is_hidden_name`), and
    // `path_tables::check_dataset` refuses what cannot be read as one table.
    cfg.options_mut().execution.listing_table_ignore_subdirectory = false;
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
    let device = mteval_udfs::common::configured_device(state.config().options());
    mteval_udfs::register_all_on(&mut state, device)?;
    Ok(state)
}
