//! Result output: printing batches (table, CSV, JSON, NDJSON) and writing
//! files atomically (a temporary file beside the target, renamed on success,
//! removed on failure), so a failed or interrupted run never leaves a half file
//! and never clobbers an earlier output. An object-store URL as the target
//! (`s3://bucket/out.parquet`) is written to a local temporary file first and
//! uploaded when complete: the object appears only when the upload completes
//! (a single PUT, or a multipart upload that is completed last), so it is
//! never partial either.

pub mod copy_plan;

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::{Context, Result, bail};
use datafusion::arrow::array::RecordBatch;
use datafusion::arrow::datatypes::SchemaRef;
use datafusion::arrow::{csv, json};
use object_store::ObjectStore;
use object_store::path::Path as ObjectPath;
use parquet::arrow::ArrowWriter;
use parquet::basic::{Compression, ZstdLevel};
use parquet::file::metadata::KeyValue;
use parquet::file::properties::WriterProperties;

/// How results are printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// An aligned text table.
    Table,
    /// CSV with a header row.
    Csv,
    /// One JSON array of row objects.
    Json,
    /// One JSON object per line.
    Ndjson,
}

impl crate::flags::Named for Format {
    const NAMES: &'static [(Self, &'static str, &'static str)] = &[
        (Format::Table, "table", "An aligned text table"),
        (Format::Csv, "csv", "CSV with a header row"),
        (Format::Json, "json", "One JSON array of row objects"),
        (Format::Ndjson, "ndjson", "One JSON object per line"),
    ];
}

/// Refuses a nested column (a struct such as `corpus_wer(...)`'s, a list, a
/// map) for CSV, which holds flat values only, saying what to do instead.
///
/// # Errors
/// The first nested column, with its fields.
pub fn check_flat(schema: &datafusion::arrow::datatypes::Schema, what: &str) -> Result<()> {
    use datafusion::arrow::datatypes::DataType;
    for f in schema.fields() {
        let (kind, select) = match f.data_type() {
            DataType::Struct(fields) => {
                let names: Vec<&str> = fields.iter().map(|x| x.name().as_str()).collect();
                let first = names.first().copied().unwrap_or("field");
                (
                    format!("a struct with fields {}", names.join(", ")),
                    format!(
                        "select its fields (`EXPR['{first}'] AS {first}`, EXPR being the expression that gives '{}')",
                        f.name()
                    ),
                )
            }
            DataType::List(_) | DataType::LargeList(_) | DataType::FixedSizeList(..) | DataType::ListView(_) => {
                ("a list".to_owned(), format!("flatten it (`SELECT unnest(\"{}\") ...`)", f.name()))
            }
            DataType::Map(..) | DataType::Union(..) => {
                (format!("of type {}", f.data_type()), "select its values".to_owned())
            }
            _ => continue,
        };
        bail!(
            "{what}: column '{}' is {kind}, and CSV holds flat values only: {select}, or write JSON lines or Parquet \
             (--format ndjson, or an .ndjson or .parquet output), which keep nested values",
            f.name()
        );
    }
    Ok(())
}

/// Prints `batches` to `out` in `format`.
///
/// # Errors
/// Write or encoding errors.
pub fn print_batches(batches: &[RecordBatch], format: Format, out: &mut dyn Write) -> Result<()> {
    match format {
        Format::Table => {
            if batches.iter().all(|b| b.num_rows() == 0) && batches.first().is_none_or(|b| b.num_columns() == 0) {
                writeln!(out, "(0 rows)")?;
                return Ok(());
            }
            writeln!(out, "{}", datafusion::arrow::util::pretty::pretty_format_batches(batches)?)?;
        }
        Format::Csv => {
            if let Some(b) = batches.first() {
                check_flat(b.schema_ref(), "--format csv")?;
            }
            let mut w = csv::WriterBuilder::new().with_header(true).build(out);
            for b in batches {
                w.write(b)?;
            }
        }
        Format::Json => {
            let mut w = json::WriterBuilder::new().with_explicit_nulls(true).build::<_, json::writer::JsonArray>(out);
            for b in batches {
                w.write(b)?;
            }
            w.finish()?;
            drop(w);
        }
        Format::Ndjson => {
            let mut w =
                json::WriterBuilder::new().with_explicit_nulls(true).build::<_, json::writer::LineDelimited>(out);
            for b in batches {
                w.write(b)?;
            }
            w.finish()?;
        }
    }
    Ok(())
}

/// A JSON writer that writes a NULL as `null` (Arrow's default leaves the
/// key out, so a row would lack the column).
fn json_writer<W: Write, F: json::writer::JsonFormat>(w: W) -> json::Writer<BufWriter<W>, F> {
    json::WriterBuilder::new().with_explicit_nulls(true).build(BufWriter::new(w))
}

/// Standard output could not be written: the reader closed the pipe
/// ([`std::io::ErrorKind::BrokenPipe`], which `main` ends quietly on, as Unix
/// tools do) or the device failed (a full disk: a clear error, exit status 1).
#[derive(Debug, thiserror::Error)]
#[error("cannot write to standard output")]
pub struct StdoutError(#[source] pub std::io::Error);

impl StdoutError {
    /// Whether the reader of standard output has gone (`mteval ... | head -1`).
    #[must_use]
    pub fn is_closed_pipe(&self) -> bool {
        self.0.kind() == std::io::ErrorKind::BrokenPipe
    }
}

/// Writes `bytes` to standard output and flushes it. Results are formatted in
/// full before this is called, so a result that cannot be encoded (a struct
/// column as CSV) prints nothing, not a header and then an error.
///
/// # Errors
/// [`StdoutError`] when standard output cannot be written.
pub fn write_stdout(bytes: &[u8]) -> Result<()> {
    let mut out = std::io::stdout().lock();
    out.write_all(bytes).and_then(|()| out.flush()).map_err(|e| StdoutError(e).into())
}

/// Whether `e` is a closed standard output (see [`StdoutError`]), wherever
/// in its chain: such a run ends quietly.
#[must_use]
pub fn is_closed_stdout(e: &anyhow::Error) -> bool {
    e.chain().any(|c| c.downcast_ref::<StdoutError>().is_some_and(StdoutError::is_closed_pipe))
}

/// The message of `e` with its causes, as `{e:#}` writes it, less every
/// cause whose text the message already holds: `DataFusion` repeats its inner
/// error in its outer one ("table 't' not found: table 't' not found").
#[must_use]
pub fn error_message(e: &anyhow::Error) -> String {
    let mut msg = String::new();
    for cause in e.chain() {
        let text = cause.to_string();
        // A Ballista job's failure carries the executor's error in Debug form.
        #[cfg(feature = "cluster")]
        let text = crate::cluster::wire_errors::job_error(&text)
            .or_else(|| crate::cluster::wire_errors::transport_error(&text))
            .unwrap_or(text);
        if msg.contains(&text) {
            continue;
        }
        if !msg.is_empty() {
            msg.push_str(": ");
        }
        msg.push_str(&text);
    }
    msg
}

/// Writes a line to standard error; a closed or full standard error is
/// ignored (the line is informational, and `eprintln!` would panic).
#[macro_export]
macro_rules! note {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}
pub use crate::note;

/// Prints the log records of mteval's libraries (target `mteval`: the
/// kernels' "no usable GPU" line and GPU fallback warnings) to standard
/// error as `mteval: info: ...` / `mteval: warning: ...`; the libraries
/// themselves print nothing. Other crates' records (`DataFusion`, Ballista)
/// stay silent, as before.
struct StderrLog;

impl log::Log for StderrLog {
    fn enabled(&self, m: &log::Metadata<'_>) -> bool {
        m.level() <= log::Level::Info && m.target().starts_with("mteval")
    }

    fn log(&self, r: &log::Record<'_>) {
        if self.enabled(r.metadata()) {
            let level = match r.level() {
                log::Level::Error => "error",
                log::Level::Warn => "warning",
                _ => "info",
            };
            note!("mteval: {level}: {}", r.args());
        }
    }

    fn flush(&self) {}
}

/// Installs [`StderrLog`] (once; later calls do nothing): warnings always,
/// informational lines (the device the kernels chose) when `verbose`.
pub fn init_log(verbose: bool) {
    static LOG: StderrLog = StderrLog;
    if log::set_logger(&LOG).is_ok() {
        log::set_max_level(if verbose { log::LevelFilter::Info } else { log::LevelFilter::Warn });
    }
}

/// Temporary files of unfinished outputs, removed by [`remove_temp_files`]
/// when the process is interrupted.
static TEMP_FILES: std::sync::Mutex<Vec<PathBuf>> = std::sync::Mutex::new(Vec::new());

fn temp_files() -> std::sync::MutexGuard<'static, Vec<PathBuf>> {
    TEMP_FILES.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Removes every temporary output file still open (for the Ctrl-C handler).
pub fn remove_temp_files() {
    for p in temp_files().drain(..) {
        let _ = std::fs::remove_file(p);
    }
}

/// A file written under a temporary name and renamed into place by [`AtomicFile::commit`].
#[derive(Debug)]
pub struct AtomicFile {
    target: PathBuf,
    temp: PathBuf,
    committed: bool,
}

impl AtomicFile {
    /// Creates the temporary file beside `target`.
    ///
    /// # Errors
    /// When the directory is missing or not writable.
    pub fn create(target: &Path) -> Result<(Self, File)> {
        let reserved = Self::reserve(target)?;
        let file = File::create(&reserved.temp).with_context(|| {
            format!("cannot write {} (temporary file {})", reserved.target.display(), reserved.temp.display())
        })?;
        Ok((reserved, file))
    }

    /// Chooses the temporary path beside `target` without creating it, for
    /// a writer that creates it itself (`COPY ... TO`); removed on drop
    /// unless committed.
    ///
    /// # Errors
    /// When `target` cannot be written (see [`write_target`]) or its
    /// directory is missing.
    pub fn reserve(target: &Path) -> Result<Self> {
        // A symbolic link is written through (the file it points to is
        // replaced, the link stays); a FIFO, a device, a socket or a
        // directory is refused, never replaced by a regular file.
        let target = &write_target(target)?;
        let dir = output_dir(target)?;
        if target.is_dir() {
            bail!("cannot write {}: it is a directory", target.display());
        }
        let name = target.file_name().and_then(|n| n.to_str()).unwrap_or("out");
        remove_stale_temp_files(dir, name);
        let temp = dir.join(format!(".{name}.mteval-{}.tmp", std::process::id()));
        temp_files().push(temp.clone());
        Ok(Self { target: target.to_owned(), temp, committed: false })
    }

    /// The temporary path (removed on drop unless committed).
    #[must_use]
    pub fn temp_path(&self) -> &Path {
        &self.temp
    }

    /// Renames the temporary file onto the target.
    ///
    /// # Errors
    /// When the rename fails.
    pub fn commit(mut self) -> Result<()> {
        std::fs::rename(&self.temp, &self.target)
            .with_context(|| format!("cannot move {} to {}", self.temp.display(), self.target.display()))?;
        self.committed = true;
        Ok(())
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        temp_files().retain(|p| p != &self.temp);
        if !self.committed {
            let _ = std::fs::remove_file(&self.temp);
        }
    }
}

/// The file that writing `path` replaces: `path` itself, or for a symbolic
/// link the file it points to (followed to the end).
///
/// # Errors
/// `path` (or the file a link points to) exists and is not a regular file,
/// or is a link to nothing.
pub fn write_target(path: &Path) -> Result<PathBuf> {
    let Ok(meta) = std::fs::symlink_metadata(path) else { return Ok(path.to_owned()) };
    if !meta.file_type().is_symlink() {
        check_regular(path, &meta, None)?;
        return Ok(path.to_owned());
    }
    let Ok(target) = std::fs::canonicalize(path) else {
        let to = std::fs::read_link(path).map(|t| t.display().to_string()).unwrap_or_default();
        bail!(
            "cannot write {}: it is a symbolic link to {to}, which does not exist (mteval writes through a link to \
             an existing file; give the path to write)",
            path.display()
        );
    };
    let meta = std::fs::metadata(&target).with_context(|| format!("cannot write {}", path.display()))?;
    check_regular(path, &meta, Some(&target))?;
    Ok(target)
}

/// Refuses an existing output that is not a regular file (`via`: the file
/// a link at `path` points to).
fn check_regular(path: &Path, meta: &std::fs::Metadata, via: Option<&Path>) -> Result<()> {
    let t = meta.file_type();
    if t.is_file() {
        return Ok(());
    }
    let what = file_kind(t);
    let shown = match via {
        Some(v) => format!("{} (a link to {})", path.display(), v.display()),
        None => path.display().to_string(),
    };
    if t.is_dir() {
        bail!("cannot write {shown}: it is a directory; give a file name");
    }
    bail!(
        "cannot write {shown}: it is {what}, not a regular file. Outputs are written whole under a temporary \
         name and renamed into place, which would replace the {} itself; give the path of a regular file \
         (or leave out -o where the result can be printed)",
        what.trim_start_matches("a ")
    )
}

/// What kind of file `t` is, in words.
fn file_kind(t: std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return "a FIFO (named pipe)";
        }
        if t.is_char_device() {
            return "a character device";
        }
        if t.is_block_device() {
            return "a block device";
        }
        if t.is_socket() {
            return "a socket";
        }
    }
    if t.is_dir() { "a directory" } else { "a special file" }
}

/// A path as a run's outputs and inputs are compared: an existing file by
/// its canonical path, a new one by its directory's canonical path and its
/// name, a URL as it is written.
fn identity(p: &str) -> String {
    if crate::session::is_url(p) {
        return p.to_owned();
    }
    let path = Path::new(p.strip_prefix("file://").unwrap_or(p));
    if let Ok(c) = std::fs::canonicalize(path) {
        return c.display().to_string();
    }
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or_else(|| Path::new("."));
    match (std::fs::canonicalize(dir), path.file_name()) {
        (Ok(d), Some(name)) => d.join(name).display().to_string(),
        _ => path.display().to_string(),
    }
}

/// Checks, before a run does any work, that its outputs can be written
/// without destroying anything: no output is one of the `inputs` (or lies
/// inside an input directory, where a later read of that directory would
/// take it as input), no two outputs are the same file, and none is a
/// directory, FIFO, device or socket (see [`write_target`]). Each output is
/// `(flag, path)`; the flag names it in the error.
///
/// # Errors
/// The first conflict, naming both paths.
pub fn check_outputs(outputs: &[(&str, &Path)], inputs: &[&str]) -> Result<()> {
    let mut seen: Vec<(&str, &Path, String)> = Vec::new();
    for &(flag, out) in outputs {
        let Some(text) = out.to_str() else { continue };
        let target = if crate::session::is_url(text) {
            out.to_owned()
        } else {
            // Before any work: a missing directory fails here, not after it.
            let target = write_target(out)?;
            output_dir(&target)?;
            target
        };
        let id = identity(&target.display().to_string());
        if let Some((other, other_path, _)) = seen.iter().find(|(_, _, i)| *i == id) {
            bail!(
                "{flag} {} and {other} {} are the same file: each output needs a path of its own",
                out.display(),
                other_path.display()
            );
        }
        for input in inputs {
            // A glob reads below its leading folders.
            let root = crate::session::dataset_root(input).map(|r| r.display().to_string());
            let input = root.as_deref().unwrap_or(input);
            let input_id = identity(input);
            let inside = !crate::session::is_url(input) && Path::new(&id).starts_with(&input_id) && id != input_id;
            if id == input_id {
                bail!("{flag} {}: this is the input {input}; writing it would destroy the input", out.display());
            }
            if inside && Path::new(&input_id).is_dir() {
                bail!(
                    "{flag} {}: it lies inside the input directory {input}, which is read as a whole; write the \
                     output elsewhere",
                    out.display()
                );
            }
        }
        seen.push((flag, out, id));
    }
    Ok(())
}

/// The directory a file at `target` is written in, refused when it is
/// missing (naming the first component on the way that is a file).
fn output_dir(target: &Path) -> Result<&Path> {
    let dir = target.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or_else(|| Path::new("."));
    if !dir.is_dir() {
        // The first component on the way that is not a directory says why.
        let blocker = dir.ancestors().filter(|a| !a.as_os_str().is_empty()).find(|a| a.exists() && !a.is_dir());
        match blocker {
            Some(f) => bail!("cannot write {}: {} is a file, not a directory", target.display(), f.display()),
            None => bail!("cannot write {}: directory {} does not exist", target.display(), dir.display()),
        }
    }
    Ok(dir)
}

/// Removes `.{name}.mteval-PID.tmp` files in `dir` left by runs that were
/// killed (SIGKILL cannot be caught) and whose process no longer exists.
fn remove_stale_temp_files(dir: &Path, name: &str) {
    let proc_fs = Path::new("/proc/self");
    if !proc_fs.exists() {
        return; // no way to tell whether the owner is alive
    }
    let prefix = format!(".{name}.mteval-");
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for e in entries.flatten() {
        let file = e.file_name();
        let Some(pid) = file.to_str().and_then(|f| f.strip_prefix(&prefix)).and_then(|r| r.strip_suffix(".tmp")) else {
            continue;
        };
        if pid.parse::<u32>().is_ok() && !Path::new("/proc").join(pid).exists() {
            let _ = std::fs::remove_file(e.path());
        }
    }
}

/// Output file formats, by extension.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OutKind {
    /// `.parquet`
    Parquet,
    /// `.csv`
    Csv,
    /// `.json` (one JSON array)
    Json,
    /// `.jsonl` / `.ndjson`
    Ndjson,
}

impl OutKind {
    /// The output kind of `path`.
    ///
    /// # Errors
    /// Unknown extensions.
    pub fn of(path: &Path) -> Result<Self> {
        let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("").to_ascii_lowercase();
        Ok(match ext.as_str() {
            "parquet" | "pq" => Self::Parquet,
            "csv" => Self::Csv,
            "json" => Self::Json,
            "jsonl" | "ndjson" => Self::Ndjson,
            _ if path.is_dir() => bail!("cannot write {}: it is a directory; give a file name", path.display()),
            "" => bail!(
                "{}: no file extension to tell the output format (use .parquet, .csv, .json, .jsonl)",
                path.display()
            ),
            _ => bail!("{}: unknown output format '.{ext}' (use .parquet, .csv, .json, .jsonl)", path.display()),
        })
    }
}

enum Sink {
    Parquet(ArrowWriter<File>),
    Csv(csv::Writer<BufWriter<File>>),
    Json(json::ArrayWriter<BufWriter<File>>),
    Ndjson(json::LineDelimitedWriter<BufWriter<File>>),
}

/// Streams batches into a file of any [`OutKind`], atomically.
pub struct BatchFileWriter {
    file: AtomicFile,
    sink: Sink,
    rows: usize,
    upload: Option<Upload>,
    /// The target as given, for messages (a full disk names it).
    shown: String,
}

/// Where a finished file goes when the target is an object-store URL.
struct Upload {
    url: String,
    store: Arc<dyn ObjectStore>,
    path: ObjectPath,
}

impl Upload {
    fn of(target: &Path) -> Result<Option<Self>> {
        let Some(s) = target.to_str().filter(|s| crate::session::is_url(s)) else { return Ok(None) };
        let url = url::Url::parse(s).with_context(|| format!("cannot write {s}: not a valid URL"))?;
        if matches!(url.scheme(), "http" | "https") {
            bail!("cannot write {s}: http(s) URLs are read only (write to a local path, s3://, gs:// or az://)");
        }
        let store = crate::session::store_for_url(&url)?;
        let path =
            ObjectPath::from_url_path(url.path()).with_context(|| format!("cannot write {s}: bad object path"))?;
        if path.as_ref().is_empty() {
            bail!("cannot write {s}: the URL names no object (give a file name)");
        }
        Ok(Some(Self { url: s.to_owned(), store, path }))
    }

    /// Streams `local` into the object; on failure the multipart upload is
    /// aborted, so no object appears.
    async fn send(&self, local: &Path) -> Result<()> {
        use tokio::io::AsyncWriteExt;
        let mut file = tokio::fs::File::open(local).await?;
        let mut w = object_store::buffered::BufWriter::new(Arc::clone(&self.store), self.path.clone());
        let res = match tokio::io::copy(&mut file, &mut w).await {
            // A failed shutdown has already aborted the multipart upload
            // whose completion failed (and the writer may not be aborted
            // after a shutdown: object_store panics).
            Ok(_) => w.shutdown().await,
            Err(e) => {
                let _ = w.abort().await;
                Err(e)
            }
        };
        res.with_context(|| format!("cannot upload {}", self.url))
    }
}

impl BatchFileWriter {
    /// Opens a writer for `path` with `schema`; `metadata` goes into a Parquet
    /// file's key-value metadata (ignored for other formats).
    ///
    /// # Errors
    /// Unknown format or unwritable path.
    pub fn create(path: &Path, schema: &SchemaRef, metadata: &[(String, String)]) -> Result<Self> {
        let kind = OutKind::of(path)?;
        if matches!(kind, OutKind::Csv) {
            // Before any file is made.
            check_flat(schema, &path.display().to_string())?;
        }
        let upload = Upload::of(path)?;
        let local = match &upload {
            // Staged in the temporary directory; uploaded by `finish`.
            Some(_) => {
                let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("out");
                std::env::temp_dir().join(format!("mteval-upload-{name}"))
            }
            None => path.to_owned(),
        };
        let (file, f) = AtomicFile::create(&local)?;
        let sink = match kind {
            OutKind::Parquet => {
                let kv: Vec<KeyValue> = metadata.iter().map(|(k, v)| KeyValue::new(k.clone(), v.clone())).collect();
                let props = WriterProperties::builder()
                    .set_compression(Compression::ZSTD(ZstdLevel::try_new(3)?))
                    .set_key_value_metadata((!kv.is_empty()).then_some(kv))
                    .build();
                Sink::Parquet(ArrowWriter::try_new(f, Arc::clone(schema), Some(props))?)
            }
            OutKind::Csv => Sink::Csv(csv::WriterBuilder::new().with_header(true).build(BufWriter::new(f))),
            OutKind::Json => Sink::Json(json_writer(f)),
            OutKind::Ndjson => Sink::Ndjson(json_writer(f)),
        };
        Ok(Self { file, sink, rows: 0, upload, shown: path.display().to_string() })
    }

    /// Writes one batch.
    ///
    /// # Errors
    /// Encoding or I/O errors, naming the target.
    pub fn write(&mut self, batch: &RecordBatch) -> Result<()> {
        self.rows += batch.num_rows();
        let res: Result<()> = match &mut self.sink {
            Sink::Parquet(w) => w.write(batch).map_err(Into::into),
            Sink::Csv(w) => w.write(batch).map_err(Into::into),
            Sink::Json(w) => w.write(batch).map_err(Into::into),
            Sink::Ndjson(w) => w.write(batch).map_err(Into::into),
        };
        res.with_context(|| format!("cannot write {}", self.shown))
    }

    /// Adds a key-value pair to a Parquet file's metadata before it is closed.
    pub fn add_metadata(&mut self, key: &str, value: &str) {
        if let Sink::Parquet(w) = &mut self.sink {
            w.append_key_value_metadata(KeyValue::new(key.to_owned(), value.to_owned()));
        }
    }

    /// Rows written so far.
    #[must_use]
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Flushes, closes and renames the file into place (or uploads it).
    ///
    /// # Errors
    /// I/O and object-store errors.
    pub async fn finish(self) -> Result<()> {
        let closed: Result<()> = match self.sink {
            Sink::Parquet(w) => w.close().map(drop).map_err(Into::into),
            Sink::Csv(w) => w.into_inner().flush().map_err(Into::into),
            Sink::Json(mut w) => w.finish().map_err(Into::into).and_then(|()| Ok(w.into_inner().flush()?)),
            Sink::Ndjson(mut w) => w.finish().map_err(Into::into).and_then(|()| Ok(w.into_inner().flush()?)),
        };
        closed.with_context(|| format!("cannot write {}", self.shown))?;
        match &self.upload {
            // The staged file is removed when `self.file` drops, uncommitted.
            Some(up) => up.send(self.file.temp_path()).await,
            None => self.file.commit(),
        }
    }
}
