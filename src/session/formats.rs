//! mteval's CSV, TSV and JSON formats under their extensions, with the
//! options `COPY` and `CREATE EXTERNAL TABLE` give them.

use std::collections::HashMap;
use std::sync::Arc;

use datafusion::catalog::Session;
use datafusion::common::GetExt;
use datafusion::common::config::ConfigField;
use datafusion::common::config::{CsvOptions, JsonOptions};
use datafusion::datasource::file_format::FileFormat;
use datafusion::datasource::file_format::FileFormatFactory;
use datafusion::datasource::file_format::csv::CsvFormat;
use datafusion::datasource::file_format::json::JsonFormat;
use datafusion::error::DataFusionError;

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
pub struct PresetFormat {
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
pub(super) const PRESET_EXTS: [&str; 5] = ["json", "jsonl", "ndjson", "csv", "tsv"];

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
pub(super) const INFER_ALL_RECORDS: usize = usize::MAX;
