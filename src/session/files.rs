//! What an input file is before `DataFusion` reads it: its kind by
//! extension, and the checks of its Parquet footer and of its header's
//! column names that both a registered input and SQL's tables read by path
//! make.

use std::path::Path;

use anyhow::{Context, Result, bail};

use super::formats::TSV_NO_QUOTE;

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

/// The length of the metadata of the Parquet file at `location` (`size`
/// bytes), from its footer tail, checked against the file's size before any
/// reader trusts it: the Parquet reader panics on a footer that claims more
/// bytes than the file holds. `None` for an encrypted footer.
///
/// # Errors
/// Why the file is not Parquet, or the store's error.
pub(crate) async fn parquet_footer(
    store: &dyn object_store::ObjectStore,
    location: &object_store::path::Path,
    size: u64,
) -> std::result::Result<Option<u64>, String> {
    use datafusion::parquet::file::FOOTER_SIZE;
    use datafusion::parquet::file::metadata::FooterTail;
    use object_store::ObjectStoreExt;
    // The file starts with the magic bytes and ends with its metadata, then
    // the footer tail: the metadata's length and the magic bytes again.
    let foot = FOOTER_SIZE as u64;
    if size < foot + 4 {
        return Err(format!("not a Parquet file (no Parquet footer: {size} bytes)"));
    }
    let tail = store.get_range(location, size - foot..size).await.map_err(|e| format!("cannot read it: {e}"))?;
    let Ok(tail) = FooterTail::try_from(&tail[..]) else {
        return Err("not a Parquet file (no Parquet footer)".to_owned());
    };
    if tail.is_encrypted_footer() {
        return Ok(None);
    }
    let len = tail.metadata_length() as u64;
    if len + foot + 4 > size {
        return Err(format!(
            "not a Parquet file (its footer is longer than the file: {len} bytes of metadata in {size})"
        ));
    }
    Ok(Some(len))
}

/// Fails when the file at `location` (`size` bytes) of `store`, of `kind`,
/// names a column twice (`path`: its name in messages). `DataFusion` merges
/// same-named Parquet columns into one, keeping the first; Arrow's CSV
/// reader reports a field count that does not say why. Reads only the
/// Parquet footer, or the first MiB of a CSV/TSV file (a longer header is
/// not checked). A table registered from a file and SQL's tables read by
/// path check every file with it.
///
/// # Errors
/// A column named twice, a file that is not what its kind says.
pub(crate) async fn unique_columns(
    store: &dyn object_store::ObjectStore,
    location: &object_store::path::Path,
    size: u64,
    kind: InputKind,
    path: &str,
) -> Result<()> {
    use datafusion::parquet::file::FOOTER_SIZE;
    use datafusion::parquet::file::metadata::ParquetMetaDataReader;
    use object_store::ObjectStoreExt;

    let names: Vec<String> = match kind {
        InputKind::Parquet => {
            let Some(len) = parquet_footer(store, location, size).await.map_err(|e| anyhow::anyhow!("{path}: {e}"))?
            else {
                return Ok(()); // an encrypted footer: DataFusion says what it makes of it
            };
            let foot = FOOTER_SIZE as u64;
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
