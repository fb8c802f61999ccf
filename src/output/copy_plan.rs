//! The rewrite of a `COPY` plan before it runs: the statement's options
//! baked into its file format, so that they survive the trip to a cluster
//! (`DataFusion`'s plan encoding sends the format but not the options).

use std::sync::Arc;

use datafusion::common::{Result, exec_datafusion_err};
use datafusion::datasource::file_format::FileFormatFactory;
use datafusion::execution::SessionState;
use datafusion::logical_expr::LogicalPlan;

/// A `COPY` with the statement's options baked into its file format, and
/// mteval's writing defaults for its presets (`.tsv`: every field written
/// as it is, as `.tsv` is read). On a cluster this is what makes the options
/// arrive: `DataFusion`'s plan encoding sends the format but drops the
/// options (`OPTIONS (format.delimiter '|')`, Parquet's `compression`),
/// which would write the file with the defaults. A local run (`on_cluster`
/// false) bakes only mteval's presets, so both write the same bytes. Other
/// plans are returned as they are.
///
/// # Errors
/// Options the format refuses, or, on a cluster, options of a format that
/// cannot carry them.
pub fn bake_options(state: &SessionState, plan: LogicalPlan, on_cluster: bool) -> Result<LogicalPlan> {
    use datafusion::datasource::file_format::parquet::{ParquetFormat, ParquetFormatFactory};
    use datafusion::datasource::file_format::{file_type_to_format, format_as_file_type};
    use datafusion::logical_expr::dml::CopyTo;
    let LogicalPlan::Copy(c) = plan else { return Ok(plan) };
    let factory = file_type_to_format(&c.file_type)?;
    let preset = crate::session::preset_parts(factory.as_ref()).map(|(ext, _)| ext);
    if preset.is_none() && (c.options.is_empty() || !on_cluster) {
        return Ok(LogicalPlan::Copy(c));
    }
    // What the local run would write, to check the options as it does.
    let format = factory.create(state, &c.options)?;
    let baked: Arc<dyn FileFormatFactory> = if let Some(ext) = preset {
        let mut given: Vec<(String, String)> = c.options.iter().map(|(k, v)| (k.clone(), v.clone())).collect();
        given.sort();
        let mut keys = crate::session::preset_write_options(ext);
        keys.extend(given);
        crate::session::preset_with_options(ext, keys)
            .ok_or_else(|| exec_datafusion_err!("COPY to {}: unknown format", c.output_url))?
    } else if let Some(p) = format.downcast_ref::<ParquetFormat>() {
        Arc::new(ParquetFormatFactory::new_with_options(p.options().clone()))
    } else {
        return Err(exec_datafusion_err!(
            "COPY to {} on a cluster: the options of .{} files cannot be sent to the cluster; use -o to write \
             the result here",
            c.output_url,
            c.file_type.get_ext()
        ));
    };
    Ok(LogicalPlan::Copy(CopyTo::new(
        c.input,
        c.output_url,
        c.partition_by,
        format_as_file_type(baked),
        std::collections::HashMap::new(),
    )))
}
