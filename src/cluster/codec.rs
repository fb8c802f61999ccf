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
//! * What `DataFusion`'s encoding of a CSV or JSON file scan loses on its way
//!   from the scheduler to the executors: the compression of `.csv.gz`,
//!   `.jsonl.zst`, ... (it is not on the wire: every scan arrives
//!   uncompressed) and a quote byte that is not UTF-8 (`.tsv`'s, see
//!   `session::TSV_NO_QUOTE`, which cannot be encoded at all). Such a scan
//!   travels as a [`PortableScan`], which this codec sends with those facts
//!   beside the scan and rebuilds as the original scan on the executor.
//!   The client marks such tables before sending a plan
//!   ([`portable_tables`]): each becomes a [`PortableTable`], which this
//!   codec sends with the listing table inside, and whose scans on the
//!   scheduler are [`PortableScan`]s (Ballista's adaptive planner replaces
//!   the session's physical optimizer rules, so the scan itself does it).
//!
//! Every node (client, scheduler, executor) uses the same pair of codecs.
//! Each encoding starts with a tag byte (`PLAIN`: Ballista's bytes follow),
//! so a plan is never decoded by the wrong half.

use std::sync::Arc;

use ballista_core::serde::{BallistaLogicalExtensionCodec, BallistaPhysicalExtensionCodec};
use datafusion::common::parsers::CompressionTypeVariant;
use datafusion::common::{Result, TableReference, exec_datafusion_err};
use datafusion::datasource::TableProvider;
use datafusion::datasource::file_format::FileFormatFactory;
use datafusion::datasource::physical_plan::{CsvSource, FileScanConfigBuilder, JsonSource};
use datafusion::datasource::source::DataSourceExec;
use datafusion::execution::TaskContext;
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
/// Tag: a [`PortableScan`]: the length of the scan's encoding (4 bytes,
/// little-endian), the encoding, then [`ScanFacts`] as JSON.
const SCAN: u8 = 3;
/// Tag: a [`PortableTable`]: a table scan over the listing table follows,
/// in `DataFusion`'s logical plan encoding.
const TABLE: u8 = 4;

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
        match buf.split_first() {
            Some((&TABLE, rest)) => {
                let plan = datafusion_proto::bytes::logical_plan_from_bytes_with_extension_codec(rest, ctx, self)?;
                let LogicalPlan::TableScan(scan) = plan else {
                    return Err(exec_datafusion_err!("the plan's table encoding is damaged"));
                };
                let inner = datafusion::datasource::source_as_provider(&scan.source)?;
                Ok(Arc::new(PortableTable { inner }))
            }
            Some((&PLAIN, rest)) => self.inner.try_decode_table_provider(rest, table_ref, schema, ctx),
            _ => Err(exec_datafusion_err!("the plan's table encoding is not mteval's")),
        }
    }

    fn try_encode_table_provider(
        &self,
        table_ref: &TableReference,
        node: Arc<dyn TableProvider>,
        buf: &mut Vec<u8>,
    ) -> Result<()> {
        if let Some(t) = node.downcast_ref::<PortableTable>() {
            // The listing table goes as DataFusion encodes it, inside a scan.
            let source = datafusion::datasource::provider_as_source(Arc::clone(&t.inner));
            let scan = datafusion::logical_expr::TableScanBuilder::new(table_ref.clone(), source).build()?;
            let bytes = datafusion_proto::bytes::logical_plan_to_bytes_with_extension_codec(
                &LogicalPlan::TableScan(scan),
                self,
            )?;
            buf.push(TABLE);
            buf.extend_from_slice(&bytes);
            return Ok(());
        }
        buf.push(PLAIN);
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
        match buf.split_first() {
            Some((&SCAN, rest)) => decode_scan(self, rest, ctx, proto_converter),
            Some((&PLAIN, rest)) => self.inner.try_decode(rest, inputs, ctx, proto_converter),
            _ => Err(exec_datafusion_err!("the plan's node encoding is not mteval's")),
        }
    }

    fn try_encode(
        &self,
        node: Arc<dyn ExecutionPlan>,
        buf: &mut Vec<u8>,
        proto_converter: &dyn PhysicalProtoConverterExtension,
    ) -> Result<()> {
        if let Some(scan) = node.downcast_ref::<PortableScan>() {
            return encode_scan(self, scan, buf, proto_converter);
        }
        buf.push(PLAIN);
        self.inner.try_encode(node, buf, proto_converter)
    }

    function_codec_methods!();
}

/// What the wire format of a CSV or JSON scan drops, sent beside it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
struct ScanFacts {
    /// The files' compression, as `CompressionTypeVariant` prints it
    /// (`GZIP`, `XZ`, `ZSTD`, `BZIP2`, `UNCOMPRESSED`).
    compression: String,
    /// A CSV scan's bytes (delimiter, quote, escape, comment, terminator),
    /// as the scan had them; `None` for JSON.
    csv: Option<CsvBytes>,
}

/// The bytes of a CSV scan.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
struct CsvBytes {
    delimiter: u8,
    quote: u8,
    escape: Option<u8>,
    comment: Option<u8>,
    terminator: Option<u8>,
}

/// A CSV or JSON file scan that `DataFusion`'s plan encoding would change
/// (see the module doc): to the other operators it is the scan itself (same
/// schema, partitions and rows), a leaf whose encoding this module's codec
/// writes. Only a [`PortableTable`] makes these, when the scheduler plans
/// its scan; an executor decodes one as the plain scan it wraps.
#[derive(Debug)]
pub struct PortableScan {
    scan: Arc<dyn ExecutionPlan>,
    facts: ScanFacts,
}

impl PortableScan {
    /// `plan` wrapped, when it is a CSV or JSON scan that the wire would
    /// change; `None` otherwise.
    fn wrap(plan: &Arc<dyn ExecutionPlan>) -> Option<Self> {
        let exec = plan.downcast_ref::<DataSourceExec>()?;
        let facts = if let Some((conf, csv)) = exec.downcast_to_file_source::<CsvSource>() {
            let bytes = CsvBytes {
                delimiter: csv.delimiter(),
                quote: csv.quote(),
                escape: csv.escape(),
                comment: csv.comment(),
                terminator: csv.terminator(),
            };
            let ascii = [Some(bytes.delimiter), Some(bytes.quote), bytes.escape, bytes.comment]
                .into_iter()
                .flatten()
                .all(|b| b.is_ascii());
            let plain = ascii && bytes.terminator.is_none();
            (conf.file_compression_type, Some(bytes), plain)
        } else if let Some((conf, _)) = exec.downcast_to_file_source::<JsonSource>() {
            (conf.file_compression_type, None, true)
        } else {
            return None;
        };
        let (compression, csv, plain) = facts;
        if plain && !compression.is_compressed() {
            return None;
        }
        let facts = ScanFacts { compression: compression.get_variant().to_string(), csv };
        Some(Self { scan: Arc::clone(plan), facts })
    }
}

impl datafusion::physical_plan::DisplayAs for PortableScan {
    fn fmt_as(
        &self,
        t: datafusion::physical_plan::DisplayFormatType,
        f: &mut std::fmt::Formatter<'_>,
    ) -> std::fmt::Result {
        write!(f, "PortableScan: ")?;
        self.scan.fmt_as(t, f)
    }
}

impl ExecutionPlan for PortableScan {
    fn name(&self) -> &'static str {
        "PortableScan"
    }

    fn properties(&self) -> &Arc<datafusion::physical_plan::PlanProperties> {
        self.scan.properties()
    }

    fn children(&self) -> Vec<&Arc<dyn ExecutionPlan>> {
        Vec::new()
    }

    fn apply_expressions(
        &self,
        f: &mut dyn FnMut(
            &Arc<dyn datafusion::physical_plan::PhysicalExpr>,
        ) -> Result<datafusion::common::tree_node::TreeNodeRecursion>,
    ) -> Result<datafusion::common::tree_node::TreeNodeRecursion> {
        self.scan.apply_expressions(f)
    }

    fn with_new_children(self: Arc<Self>, children: Vec<Arc<dyn ExecutionPlan>>) -> Result<Arc<dyn ExecutionPlan>> {
        if children.is_empty() {
            Ok(self)
        } else {
            Err(exec_datafusion_err!("PortableScan is a leaf; it takes no children"))
        }
    }

    fn execute(
        &self,
        partition: usize,
        context: Arc<TaskContext>,
    ) -> Result<datafusion::physical_plan::SendableRecordBatchStream> {
        self.scan.execute(partition, context)
    }

    fn metrics(&self) -> Option<datafusion::physical_plan::metrics::MetricsSet> {
        self.scan.metrics()
    }
}

/// A CSV or JSON listing table sent to a cluster (see the module doc): to
/// the planner it is the listing table itself; its scans are wrapped in
/// [`PortableScan`]s where the plan encoding would change them.
#[derive(Debug)]
pub struct PortableTable {
    inner: Arc<dyn TableProvider>,
}

/// Every scan of `plan` that the plan encoding would change, wrapped.
fn wrap_scans(plan: Arc<dyn ExecutionPlan>) -> Result<Arc<dyn ExecutionPlan>> {
    use datafusion::common::tree_node::{Transformed, TreeNode};
    plan.transform_up(|node| {
        Ok(match PortableScan::wrap(&node) {
            Some(p) => Transformed::yes(Arc::new(p) as Arc<dyn ExecutionPlan>),
            None => Transformed::no(node),
        })
    })
    .map(|t| t.data)
}

#[async_trait::async_trait]
impl TableProvider for PortableTable {
    fn schema(&self) -> datafusion::arrow::datatypes::SchemaRef {
        self.inner.schema()
    }

    fn constraints(&self) -> Option<&datafusion::common::Constraints> {
        self.inner.constraints()
    }

    fn table_type(&self) -> datafusion::logical_expr::TableType {
        self.inner.table_type()
    }

    async fn scan(
        &self,
        state: &dyn datafusion::catalog::Session,
        projection: Option<&Vec<usize>>,
        filters: &[datafusion::logical_expr::Expr],
        limit: Option<usize>,
    ) -> Result<Arc<dyn ExecutionPlan>> {
        wrap_scans(self.inner.scan(state, projection, filters, limit).await?)
    }

    async fn scan_with_args<'a>(
        &self,
        state: &dyn datafusion::catalog::Session,
        args: datafusion::catalog::ScanArgs<'a>,
    ) -> Result<datafusion::catalog::ScanResult> {
        let plan = self.inner.scan_with_args(state, args).await?.into_inner();
        Ok(datafusion::catalog::ScanResult::new(wrap_scans(plan)?))
    }

    fn supports_filters_pushdown(
        &self,
        filters: &[&datafusion::logical_expr::Expr],
    ) -> Result<Vec<datafusion::logical_expr::TableProviderFilterPushDown>> {
        self.inner.supports_filters_pushdown(filters)
    }

    fn statistics(&self) -> Option<datafusion::common::Statistics> {
        self.inner.statistics()
    }
}

/// `plan` with every CSV or JSON listing table it scans as a
/// [`PortableTable`], for a cluster: what a client does before it sends a
/// plan (the scans' schemas are unchanged).
///
/// # Errors
/// When a rewritten scan cannot be rebuilt.
pub fn portable_tables(plan: LogicalPlan) -> Result<LogicalPlan> {
    use datafusion::common::tree_node::Transformed;
    use datafusion::datasource::file_format::csv::CsvFormat;
    use datafusion::datasource::file_format::json::JsonFormat;
    use datafusion::datasource::listing::ListingTable;
    plan.transform_up_with_subqueries(|node| {
        let LogicalPlan::TableScan(scan) = &node else { return Ok(Transformed::no(node)) };
        let Ok(provider) = datafusion::datasource::source_as_provider(&scan.source) else {
            return Ok(Transformed::no(node));
        };
        let text = provider.downcast_ref::<ListingTable>().is_some_and(|t| {
            let f = t.options().format.as_ref();
            f.downcast_ref::<CsvFormat>().is_some() || f.downcast_ref::<JsonFormat>().is_some()
        });
        if !text {
            return Ok(Transformed::no(node));
        }
        let LogicalPlan::TableScan(mut scan) = node else { unreachable!("matched above") };
        scan.source = datafusion::datasource::provider_as_source(Arc::new(PortableTable { inner: provider }));
        Ok(Transformed::yes(LogicalPlan::TableScan(scan)))
    })
    .map(|t| t.data)
}

/// The CSV scan `exec` with its bytes set to `bytes` (and compression, for
/// the rebuilt scan).
fn with_csv_bytes(
    exec: &DataSourceExec,
    bytes: CsvBytes,
    compression: CompressionTypeVariant,
) -> Result<Arc<dyn ExecutionPlan>> {
    let (conf, csv) = exec
        .downcast_to_file_source::<CsvSource>()
        .ok_or_else(|| exec_datafusion_err!("a portable CSV scan that is not a CSV scan"))?;
    let options = datafusion::common::config::CsvOptions {
        has_header: Some(csv.has_header()),
        delimiter: bytes.delimiter,
        quote: bytes.quote,
        terminator: bytes.terminator,
        escape: bytes.escape,
        comment: bytes.comment,
        newlines_in_values: Some(csv.newlines_in_values()),
        truncated_rows: Some(csv.truncate_rows()),
        ..Default::default()
    };
    let source = csv.clone().with_csv_options(options);
    let conf = FileScanConfigBuilder::from(conf.clone())
        .with_source(Arc::new(source))
        .with_file_compression_type(compression.into())
        .build();
    Ok(DataSourceExec::from_data_source(conf))
}

/// A wire-safe CSV byte: `b` when ASCII, else `placeholder`.
fn ascii_or(b: u8, placeholder: u8) -> u8 {
    if b.is_ascii() { b } else { placeholder }
}

fn encode_scan(
    codec: &PhysicalCodec,
    scan: &PortableScan,
    buf: &mut Vec<u8>,
    proto_converter: &dyn PhysicalProtoConverterExtension,
) -> Result<()> {
    let exec = scan
        .scan
        .downcast_ref::<DataSourceExec>()
        .ok_or_else(|| exec_datafusion_err!("a portable scan that is not a file scan"))?;
    // The scan as the wire can carry it; the facts restore it.
    let wire: Arc<dyn ExecutionPlan> = match scan.facts.csv {
        Some(b) => {
            let safe = CsvBytes {
                delimiter: ascii_or(b.delimiter, b','),
                quote: ascii_or(b.quote, b'"'),
                escape: b.escape.map(|e| ascii_or(e, b'\\')),
                comment: b.comment.map(|c| ascii_or(c, b'#')),
                terminator: None,
            };
            with_csv_bytes(exec, safe, CompressionTypeVariant::UNCOMPRESSED)?
        }
        None => Arc::clone(&scan.scan),
    };
    let bytes = datafusion_proto::bytes::physical_plan_to_bytes_with_proto_converter(wire, codec, proto_converter)?;
    let len = u32::try_from(bytes.len()).map_err(|_| exec_datafusion_err!("a file scan's plan over 4 GiB"))?;
    buf.push(SCAN);
    buf.extend_from_slice(&len.to_le_bytes());
    buf.extend_from_slice(&bytes);
    serde_json::to_writer(&mut *buf, &scan.facts).map_err(|e| exec_datafusion_err!("{e}"))
}

fn decode_scan(
    codec: &PhysicalCodec,
    buf: &[u8],
    ctx: &TaskContext,
    proto_converter: &dyn PhysicalProtoConverterExtension,
) -> Result<Arc<dyn ExecutionPlan>> {
    let bad = || exec_datafusion_err!("the plan's file scan encoding is damaged");
    let (len, rest) = buf.split_first_chunk::<4>().ok_or_else(bad)?;
    let len = usize::try_from(u32::from_le_bytes(*len)).map_err(|_| bad())?;
    let (plan, facts) = (rest.get(..len).ok_or_else(bad)?, &rest[len..]);
    let facts: ScanFacts = serde_json::from_slice(facts).map_err(|_| bad())?;
    let compression: CompressionTypeVariant = facts.compression.parse().map_err(|_| bad())?;
    let plan =
        datafusion_proto::bytes::physical_plan_from_bytes_with_proto_converter(plan, ctx, codec, proto_converter)?;
    let exec = plan.downcast_ref::<DataSourceExec>().ok_or_else(bad)?;
    if let Some(bytes) = facts.csv {
        return with_csv_bytes(exec, bytes, compression);
    }
    let (conf, _) = exec.downcast_to_file_source::<JsonSource>().ok_or_else(bad)?;
    let conf = FileScanConfigBuilder::from(conf.clone()).with_file_compression_type(compression.into()).build();
    Ok(DataSourceExec::from_data_source(conf))
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

#[cfg(test)]
mod scan_tests {

    use super::*;

    /// The physical plan of `sql` as the scheduler makes it (the client's
    /// logical plan with its portable tables, sent through the logical
    /// codec), encoded and decoded as an executor gets it.
    async fn round_trip(sql: &str) -> (Arc<dyn ExecutionPlan>, Arc<dyn ExecutionPlan>) {
        let ctx = crate::session::new_context(&crate::session::SessionOptions::default()).unwrap();
        let plan = ctx.state().create_logical_plan(sql).await.unwrap();
        let plan = portable_tables(plan).unwrap();
        let logical = LogicalCodec::default();
        let bytes = datafusion_proto::bytes::logical_plan_to_bytes_with_extension_codec(&plan, &logical).unwrap();
        let sent =
            datafusion_proto::bytes::logical_plan_from_bytes_with_extension_codec(&bytes, &ctx.task_ctx(), &logical)
                .unwrap();
        let plan = ctx.state().create_physical_plan(&sent).await.unwrap();
        let codec = PhysicalCodec::default();
        let bytes =
            datafusion_proto::bytes::physical_plan_to_bytes_with_extension_codec(Arc::clone(&plan), &codec).unwrap();
        let back =
            datafusion_proto::bytes::physical_plan_from_bytes_with_extension_codec(&bytes, &ctx.task_ctx(), &codec)
                .unwrap();
        (plan, back)
    }

    /// The scans of `plan` with their compression and quote byte.
    fn scans(plan: &Arc<dyn ExecutionPlan>) -> Vec<(String, Option<u8>, bool)> {
        use datafusion::common::tree_node::{TreeNode, TreeNodeRecursion};
        let mut out = Vec::new();
        let _ = plan.apply(|p| {
            let p = p.downcast_ref::<PortableScan>().map_or(p, |w| &w.scan);
            if let Some(e) = p.downcast_ref::<DataSourceExec>()
                && let Some(conf) =
                    e.data_source().downcast_ref::<datafusion::datasource::physical_plan::FileScanConfig>()
            {
                let quote = e.downcast_to_file_source::<CsvSource>().map(|(_, c)| c.quote());
                out.push((conf.file_compression_type.get_variant().to_string(), quote, true));
            }
            Ok(TreeNodeRecursion::Continue)
        });
        out
    }

    #[tokio::test]
    async fn compressed_and_tsv_scans_survive_the_plan_encoding() {
        let dir = tempfile::tempdir().unwrap();
        let ctx = crate::session::new_context(&crate::session::SessionOptions::default()).unwrap();
        let demo = concat!(env!("CARGO_MANIFEST_DIR"), "/data/demo.parquet");
        for (name, stored, gz) in [("a.csv.gz", "CSV", true), ("a.tsv", "TSV", false), ("a.jsonl.gz", "JSON", true)] {
            let path = dir.path().join(name).display().to_string();
            let opts = if gz { " OPTIONS ('format.compression' 'gzip')" } else { "" };
            ctx.sql(&format!("COPY (SELECT hyp, ref FROM '{demo}') TO '{path}' STORED AS {stored}{opts}"))
                .await
                .unwrap()
                .collect()
                .await
                .unwrap();
            let (plan, back) = round_trip(&format!("SELECT count(*), min(hyp) FROM '{path}'")).await;
            let before = scans(&plan);
            assert_eq!(before.len(), 1, "{name}");
            let (compression, quote, _) = &before[0];
            assert_eq!(compression, if gz { "GZIP" } else { "" }, "{name}");
            if stored == "TSV" {
                assert_eq!(*quote, Some(crate::session::TSV_NO_QUOTE));
            }
            assert_eq!(scans(&back), before, "{name}");
        }
    }
}
