//! Plan codecs of a Ballista cluster: Ballista's own, plus the two things
//! mteval puts into a plan that they cannot carry.
//!
//! * The file formats of `COPY ... TO 'x.csv'` / `.tsv` / `.json` / `.jsonl` /
//!   `.ndjson`: mteval's presets (see `session::PresetFormat`), sent by their
//!   extension and rebuilt from it on the scheduler, so a cluster writes every
//!   format a local run writes.
//! * The device bound into an aggregate or window function when the query was
//!   planned (the session's `mteval.device`, see
//!   `mteval_udfs::common::bind_device`): `DataFusion` sends functions by
//!   name, which would leave the executor's own default in place.
//!
//! Every node (client, scheduler, executor) uses the same pair of codecs.
//! Each encoding starts with a tag byte (`PLAIN`: Ballista's bytes follow),
//! so a plan is never decoded by the wrong half.

use std::sync::Arc;

use ballista_core::serde::{BallistaLogicalExtensionCodec, BallistaPhysicalExtensionCodec};
use datafusion::common::{Result, TableReference, exec_datafusion_err};
use datafusion::datasource::TableProvider;
use datafusion::datasource::file_format::FileFormatFactory;
use datafusion::execution::{SessionState, TaskContext};
use datafusion::logical_expr::{AggregateUDF, Extension, LogicalPlan, ScalarUDF, WindowUDF};
use datafusion::physical_plan::ExecutionPlan;
use datafusion_proto::logical_plan::LogicalExtensionCodec;
use datafusion_proto::physical_plan::{PhysicalExtensionCodec, PhysicalProtoConverterExtension};
use mteval_kernels::backend::DeviceRequest;

/// Tag: the bytes that follow are Ballista's (or `DataFusion`'s) encoding.
const PLAIN: u8 = 0;
/// Tag: a preset file format, its extension follows.
const PRESET: u8 = 1;
/// Tag: a function bound to a device, the device's name follows.
const DEVICE: u8 = 2;

/// Ballista's logical codec, with mteval's file formats and device bindings.
#[derive(Debug, Default)]
pub struct LogicalCodec {
    inner: BallistaLogicalExtensionCodec,
}

/// Ballista's physical codec, with mteval's device bindings.
#[derive(Debug, Default)]
pub struct PhysicalCodec {
    inner: BallistaPhysicalExtensionCodec,
}

/// The codecs every node of a cluster uses.
#[must_use]
pub fn codecs() -> (Arc<dyn LogicalExtensionCodec>, Arc<dyn PhysicalExtensionCodec>) {
    (Arc::new(LogicalCodec::default()), Arc::new(PhysicalCodec::default()))
}

fn encode_device(device: Option<DeviceRequest>, buf: &mut Vec<u8>) {
    if let Some(d) = device {
        buf.push(DEVICE);
        buf.extend_from_slice(d.to_string().as_bytes());
    }
}

/// The device of a `DEVICE` encoding; `None` for an empty buffer (a
/// function sent by name only).
fn decode_device(name: &str, buf: &[u8]) -> Result<Option<DeviceRequest>> {
    match buf.split_first() {
        None => Ok(None),
        Some((&DEVICE, rest)) => std::str::from_utf8(rest)
            .ok()
            .and_then(|s| s.parse().ok())
            .map(Some)
            .ok_or_else(|| exec_datafusion_err!("{name}: the plan names an unknown device")),
        Some(_) => Err(exec_datafusion_err!("{name}: the plan's function encoding is not mteval's")),
    }
}

fn udaf(name: &str, buf: &[u8]) -> Result<Arc<AggregateUDF>> {
    let device = decode_device(name, buf)?.ok_or_else(|| exec_datafusion_err!("unknown aggregate function {name}"))?;
    mteval_udfs::aggregate_on(name, device)
        .ok_or_else(|| exec_datafusion_err!("{name}: not an mteval function that runs on a device"))
}

fn udwf(name: &str, buf: &[u8]) -> Result<Arc<WindowUDF>> {
    let device = decode_device(name, buf)?.ok_or_else(|| exec_datafusion_err!("unknown window function {name}"))?;
    mteval_udfs::window_on(name, device)
        .ok_or_else(|| exec_datafusion_err!("{name}: not an mteval function that runs on a device"))
}

/// The function methods both codecs share: scalar functions go by name
/// (Ballista's codec), aggregate and window functions by name plus the
/// device bound into them.
macro_rules! function_codec_methods {
    () => {
        fn try_decode_udf(&self, name: &str, buf: &[u8]) -> Result<Arc<ScalarUDF>> {
            self.inner.try_decode_udf(name, buf)
        }

        fn try_encode_udf(&self, node: &ScalarUDF, buf: &mut Vec<u8>) -> Result<()> {
            self.inner.try_encode_udf(node, buf)
        }

        fn try_decode_udaf(&self, name: &str, buf: &[u8]) -> Result<Arc<AggregateUDF>> {
            udaf(name, buf)
        }

        fn try_encode_udaf(&self, node: &AggregateUDF, buf: &mut Vec<u8>) -> Result<()> {
            encode_device(mteval_udfs::aggregate_device(node), buf);
            Ok(())
        }

        fn try_decode_udwf(&self, name: &str, buf: &[u8]) -> Result<Arc<WindowUDF>> {
            udwf(name, buf)
        }

        fn try_encode_udwf(&self, node: &WindowUDF, buf: &mut Vec<u8>) -> Result<()> {
            encode_device(mteval_udfs::window_device(node), buf);
            Ok(())
        }
    };
}

impl LogicalExtensionCodec for LogicalCodec {
    fn try_decode(&self, buf: &[u8], inputs: &[LogicalPlan], ctx: &TaskContext) -> Result<Extension> {
        self.inner.try_decode(buf, inputs, ctx)
    }

    fn try_encode(&self, node: &Extension, buf: &mut Vec<u8>) -> Result<()> {
        self.inner.try_encode(node, buf)
    }

    fn try_decode_table_provider(
        &self,
        buf: &[u8],
        table_ref: &TableReference,
        schema: datafusion::arrow::datatypes::SchemaRef,
        ctx: &TaskContext,
    ) -> Result<Arc<dyn TableProvider>> {
        self.inner.try_decode_table_provider(buf, table_ref, schema, ctx)
    }

    fn try_encode_table_provider(
        &self,
        table_ref: &TableReference,
        node: Arc<dyn TableProvider>,
        buf: &mut Vec<u8>,
    ) -> Result<()> {
        self.inner.try_encode_table_provider(table_ref, node, buf)
    }

    fn try_decode_file_format(&self, buf: &[u8], ctx: &TaskContext) -> Result<Arc<dyn FileFormatFactory>> {
        match buf.split_first() {
            Some((&PRESET, rest)) => serde_json::from_slice::<(String, Vec<(String, String)>)>(rest)
                .ok()
                .and_then(|(ext, baked)| crate::session::preset_with_options(&ext, baked))
                .ok_or_else(|| exec_datafusion_err!("the plan names an unknown file format")),
            Some((&PLAIN, rest)) => self.inner.try_decode_file_format(rest, ctx),
            _ => Err(exec_datafusion_err!("the plan's file format encoding is not mteval's")),
        }
    }

    fn try_encode_file_format(&self, buf: &mut Vec<u8>, node: Arc<dyn FileFormatFactory>) -> Result<()> {
        if let Some((ext, baked)) = crate::session::preset_parts(node.as_ref()) {
            buf.push(PRESET);
            serde_json::to_writer(&mut *buf, &(ext, baked)).map_err(|e| exec_datafusion_err!("{e}"))?;
            return Ok(());
        }
        buf.push(PLAIN);
        self.inner.try_encode_file_format(buf, node)
    }

    function_codec_methods!();
}

impl PhysicalExtensionCodec for PhysicalCodec {
    fn try_decode(
        &self,
        buf: &[u8],
        inputs: &[Arc<dyn ExecutionPlan>],
        ctx: &TaskContext,
        proto_converter: &dyn PhysicalProtoConverterExtension,
    ) -> Result<Arc<dyn ExecutionPlan>> {
        self.inner.try_decode(buf, inputs, ctx, proto_converter)
    }

    fn try_encode(
        &self,
        node: Arc<dyn ExecutionPlan>,
        buf: &mut Vec<u8>,
        proto_converter: &dyn PhysicalProtoConverterExtension,
    ) -> Result<()> {
        self.inner.try_encode(node, buf, proto_converter)
    }

    function_codec_methods!();
}

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
pub fn bake_copy_options(state: &SessionState, plan: LogicalPlan, on_cluster: bool) -> Result<LogicalPlan> {
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

#[cfg(test)]
mod tests {
    use datafusion::prelude::SessionContext;

    use super::*;

    #[test]
    fn bound_functions_and_presets_round_trip() {
        let codec = LogicalCodec::default();
        let ctx = SessionContext::new().task_ctx();
        for f in mteval_udfs::aggregate_functions_on(Some(DeviceRequest::Cpu)) {
            let mut buf = Vec::new();
            codec.try_encode_udaf(&f, &mut buf).unwrap();
            match mteval_udfs::aggregate_device(&f) {
                Some(d) => {
                    let back = codec.try_decode_udaf(f.name(), &buf).unwrap();
                    assert_eq!(back.name(), f.name());
                    assert_eq!(mteval_udfs::aggregate_device(&back), Some(d));
                }
                None => assert!(buf.is_empty(), "{} is sent by name", f.name()),
            }
        }
        for f in mteval_udfs::window_functions_on(Some(DeviceRequest::Cuda)) {
            let mut buf = Vec::new();
            PhysicalCodec::default().try_encode_udwf(&f, &mut buf).unwrap();
            let back = PhysicalCodec::default().try_decode_udwf(f.name(), &buf).unwrap();
            assert_eq!(mteval_udfs::window_device(&back), Some(DeviceRequest::Cuda), "{}", f.name());
        }
        for ext in ["csv", "tsv", "json", "jsonl", "ndjson"] {
            let baked = vec![("format.compression".to_owned(), "gzip".to_owned())];
            let f = crate::session::preset_with_options(ext, baked.clone()).unwrap();
            let mut buf = Vec::new();
            codec.try_encode_file_format(&mut buf, f).unwrap();
            let back = codec.try_decode_file_format(&buf, &ctx).unwrap();
            assert_eq!(crate::session::preset_parts(back.as_ref()), Some((ext, baked.as_slice())));
        }
        let parquet: Arc<dyn FileFormatFactory> =
            Arc::new(datafusion::datasource::file_format::parquet::ParquetFormatFactory::new());
        let mut buf = Vec::new();
        codec.try_encode_file_format(&mut buf, parquet).unwrap();
        assert_eq!(buf[0], PLAIN);
        assert_eq!(codec.try_decode_file_format(&buf, &ctx).unwrap().get_ext(), "parquet");
        assert!(
            codec.try_decode_udaf("corpus_ter", &[DEVICE, b'x']).unwrap_err().to_string().contains("unknown device")
        );
    }
}
