//! Running SQL statements as `mteval sql` does, for the CLI and Python's
//! `mteval.sql`: each statement planned after the previous one ran, with
//! mteval's checks (COPY targets that are inputs, batch and partition
//! limits, the device setting), `SHOW FUNCTIONS` with mteval's functions,
//! and errors located in the file, row and column they come from.

use anyhow::{Context, Result, bail};
use datafusion::arrow::array::RecordBatch;
use datafusion::logical_expr::{LogicalPlan, Statement as PlanStatement};
use datafusion::prelude::{DataFrame, SessionContext};
use datafusion::sql::parser::DFParser;
use futures::StreamExt;

use crate::output::{BatchFileWriter, Format, print_batches, write_stdout};

/// A statement planned (and, for DDL and `SET`, already carried out).
pub struct Planned {
    /// The result to print or write.
    pub df: DataFrame,
    /// For `COPY ... TO`: where it writes.
    pub copy_to: Option<String>,
    /// Local JSON files the statement reads, to locate a JSON error in.
    pub json_files: Vec<String>,
    /// For `COPY ... TO` a local file: the file it writes under a temporary
    /// name, renamed onto the target when the statement succeeds.
    pub atomic: Option<crate::output::AtomicFile>,
}

/// The statements of `sql` (several may be `;`-separated), each nested at
/// most [`MAX_NESTING`] expressions deep.
///
/// # Errors
/// A syntax error, or a statement nested deeper.
pub fn statements(sql: &str) -> Result<Vec<datafusion::sql::parser::Statement>> {
    let parsed: Vec<_> = DFParser::parse_sql(sql).context("SQL syntax error")?.into_iter().collect();
    for (i, st) in parsed.iter().enumerate() {
        if nesting_over(st, MAX_NESTING) {
            let which = if parsed.len() > 1 { format!("statement {}", i + 1) } else { "the statement".to_owned() };
            let e = anyhow::anyhow!(
                "{which} nests expressions or set operations more than {MAX_NESTING} deep (a chain of that \
                 many OR-ed conditions, + terms or UNIONs), beyond what mteval plans: write a long OR of \
                 equalities as IN (...), or split the statement"
            );
            // A tree this deep is dropped one level per stack frame: it is
            // left to the process rather than dropped here.
            std::mem::forget(parsed);
            return Err(e);
        }
    }
    Ok(parsed)
}

/// The stack of the threads that parse, plan and run SQL statements (the
/// CLI's `mteval sql` and Python's `mteval.sql`, their runtimes' workers
/// included). Planning and running a statement recurses once per level of
/// nesting (`a = 1 OR a = 2 OR ...` is a chain of nested ORs, `SELECT ...
/// UNION ALL SELECT ...` one of set operations) beyond what `DataFusion`'s
/// `recursive_protection` covers (dropping, cloning, comparing, displaying
/// and evaluating expressions and plans recurse unprotected): about 3 KB a
/// level of expressions and 15 KB a level of UNIONs, so tokio's 2 MiB
/// worker stacks overflowed at a few hundred to a few thousand levels, and
/// the main thread's 8 MiB at 10,000 terms. Only the pages a statement uses
/// are allocated.
pub const SQL_STACK: usize = 256 << 20;

/// The deepest nesting of expressions, and the longest chain of set
/// operations, a statement may have: what [`SQL_STACK`] holds (150 MB for
/// 10,000 UNIONs) and `DataFusion` plans in minutes (its planning time
/// grows with the square of the depth: 10,000 `+` terms take two minutes).
pub const MAX_NESTING: usize = 10_000;

/// Whether `st` nests expressions (subqueries included) more than `limit`
/// deep, or chains more set operations. The walk is sqlparser's visitor,
/// which grows its stack as it needs (`recursive_protection`), and stops
/// at the limit.
fn nesting_over(st: &datafusion::sql::parser::Statement, limit: usize) -> bool {
    use datafusion::sql::parser::{CopyToSource, Statement};
    use datafusion::sql::sqlparser::ast::{Expr, Query, SetExpr, Visit, Visitor};
    use std::ops::ControlFlow;
    struct Depth {
        now: usize,
        limit: usize,
    }
    impl Visitor for Depth {
        type Break = ();
        fn pre_visit_query(&mut self, q: &Query) -> ControlFlow<()> {
            // `a UNION b UNION c` nests to the left.
            let (mut chain, mut body) = (0, q.body.as_ref());
            while let SetExpr::SetOperation { left, .. } = body {
                chain += 1;
                body = left;
            }
            if chain > self.limit { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
        }
        fn pre_visit_expr(&mut self, _: &Expr) -> ControlFlow<()> {
            self.now += 1;
            if self.now > self.limit { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
        }
        fn post_visit_expr(&mut self, _: &Expr) -> ControlFlow<()> {
            self.now -= 1;
            ControlFlow::Continue(())
        }
    }
    let mut d = Depth { now: 0, limit };
    match st {
        Statement::Statement(s) => s.visit(&mut d).is_break(),
        Statement::CopyTo(c) => match &c.source {
            CopyToSource::Query(q) => q.visit(&mut d).is_break(),
            CopyToSource::Relation(_) => false,
        },
        Statement::Explain(e) => nesting_over(&e.statement, limit),
        Statement::CreateExternalTable(_) | Statement::Reset(_) => false,
    }
}

/// Runs `f` on a thread with a [`SQL_STACK`] stack, the calling thread
/// waiting (the CLI's `mteval sql`: its main thread has the 8 MiB the
/// system gives).
///
/// # Errors
/// When the thread cannot be started.
pub fn on_sql_stack<T: Send>(f: impl FnOnce() -> T + Send) -> Result<T> {
    std::thread::scope(|s| {
        let t = std::thread::Builder::new()
            .name("mteval-sql".into())
            .stack_size(SQL_STACK)
            .spawn_scoped(s, f)
            .context("cannot start the thread that runs the statements")?;
        Ok(t.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
    })
}

/// Plans one statement. `partitions` is the session's partition count,
/// which a `RESET` of `datafusion.execution.target_partitions` returns to.
/// A statement is planned after the ones before it ran, so it sees what
/// they made (`COPY ... TO 'x.parquet'; SELECT ... FROM 'x.parquet'`).
///
/// # Errors
/// A statement that does not plan (naming the table, column or setting).
pub async fn plan_one(
    ctx: &SessionContext,
    st: datafusion::sql::parser::Statement,
    partitions: usize,
) -> Result<Planned> {
    let show_functions = show_functions_like(&st);
    let state = ctx.state();
    let plan = mteval_reset(state.statement_to_plan(st).await.map_err(window_hint)?);
    let on_cluster = is_cluster_session(&state);
    let plan = crate::output::copy_plan::bake_options(&state, plan, on_cluster)?;
    #[cfg(feature = "cluster")]
    let plan = if on_cluster { crate::cluster::for_the_wire(plan)? } else { plan };
    check_setting(&plan)?;
    let copy_to = match &plan {
        LogicalPlan::Copy(c) => {
            check_copy_target(&c.output_url)?;
            if !c.output_url.ends_with('/') {
                let target = c.output_url.strip_prefix("file://").unwrap_or(&c.output_url);
                let inputs = table_paths(&c.input);
                let inputs: Vec<&str> = inputs.iter().map(String::as_str).collect();
                crate::output::check_outputs(&[("COPY ... TO", std::path::Path::new(target))], &inputs)?;
            }
            Some(c.output_url.clone())
        }
        _ => None,
    };
    let (plan, atomic) = if on_cluster { (plan, None) } else { atomic_copy(plan)? };
    let json_files = json_files(&plan);
    let resets_partitions = is_partitions_reset(&plan);
    let mut df = ctx.execute_logical_plan(plan).await.map_err(|e| locate(e, &json_files))?;
    if let Some(ShowFunctions { like }) = show_functions {
        df = with_user_defined_functions(ctx, df, like.as_deref())?;
    }
    if resets_partitions {
        // DataFusion's default is one partition per core, which gives up
        // the input order; mteval's is the session's `--partitions`.
        ctx.state_ref().write().config_mut().options_mut().execution.target_partitions = partitions;
    }
    check_limits(ctx, &state)?;
    check_device_setting(ctx)?;
    Ok(Planned { df, copy_to, json_files, atomic })
}

/// A `COPY ... TO` one local file rewritten to write a temporary file
/// beside it (hidden, see `output::AtomicFile`), which [`collect`] renames
/// onto the target when the statement succeeds: a failed or interrupted
/// `COPY` leaves an existing target as it was, as `-o` does. A directory
/// target (a trailing `/`, no extension, `PARTITIONED BY`), an object-store
/// URL (whose uploads complete only whole) and a cluster's `COPY` (written
/// by the executors) are left as they are.
fn atomic_copy(plan: LogicalPlan) -> Result<(LogicalPlan, Option<crate::output::AtomicFile>)> {
    use datafusion::logical_expr::dml::CopyTo;
    let LogicalPlan::Copy(c) = plan else { return Ok((plan, None)) };
    let target = std::path::Path::new(c.output_url.strip_prefix("file://").unwrap_or(&c.output_url));
    if crate::session::is_url(&c.output_url)
        || c.output_url.ends_with('/')
        || !c.partition_by.is_empty()
        || target.extension().is_none()
        || target.is_dir()
    {
        return Ok((LogicalPlan::Copy(c), None));
    }
    let file = crate::output::AtomicFile::reserve(target).map_err(|e| copy_error(&e, &c.output_url))?;
    let temp = file.temp_path().display().to_string();
    Ok((LogicalPlan::Copy(CopyTo::new(c.input, temp, c.partition_by, c.file_type, c.options)), Some(file)))
}

/// Plans and prints every statement of `sql`, one after the other.
///
/// # Errors
/// The first statement that fails to plan or run, located in its file and row.
pub async fn run_all(ctx: &SessionContext, sql: &str, partitions: usize, format: Format) -> Result<()> {
    for st in statements(sql)? {
        print_df(plan_one(ctx, st, partitions).await?, format).await?;
    }
    Ok(())
}

/// A `SHOW FUNCTIONS [LIKE 'pattern']` statement.
pub(crate) struct ShowFunctions {
    /// The `LIKE` pattern, if any.
    like: Option<String>,
}

/// For `SHOW FUNCTIONS [LIKE 'pattern']`: `Some`, with the pattern.
pub(crate) fn show_functions_like(st: &datafusion::sql::parser::Statement) -> Option<ShowFunctions> {
    use datafusion::sql::sqlparser::ast::{ShowStatementFilter, Statement};
    let datafusion::sql::parser::Statement::Statement(st) = st else { return None };
    match st.as_ref() {
        Statement::ShowFunctions { filter: None } => Some(ShowFunctions { like: None }),
        Statement::ShowFunctions { filter: Some(ShowStatementFilter::Like(p)) } => {
            Some(ShowFunctions { like: Some(p.clone()) })
        }
        _ => None,
    }
}

/// Adds to `DataFusion`'s `SHOW FUNCTIONS` result the functions it leaves
/// out: those whose argument types their own code checks (a user-defined
/// signature, as every mteval function and built-ins such as `coalesce`
/// have), which list no parameter types in `information_schema`. Their rows
/// take the parameter names, the description and the syntax from the
/// function's documentation.
pub(crate) fn with_user_defined_functions(
    ctx: &SessionContext,
    df: DataFrame,
    like: Option<&str>,
) -> Result<DataFrame> {
    use std::sync::Arc;

    use datafusion::arrow::array::{ArrayRef, ListBuilder, StringArray, StringBuilder, new_null_array};
    use datafusion::arrow::compute::cast;
    use datafusion::logical_expr::{Documentation, Signature, col, lit};

    /// A row: the function's name, its kind and its documentation.
    type Row<'a> = (String, &'a str, Option<&'a Documentation>);

    let state = ctx.state();
    let mut rows: Vec<Row<'_>> = Vec::new();
    let unlisted = |s: &Signature| s.type_signature.get_example_types().is_empty();
    for f in state.scalar_functions().values().filter(|f| unlisted(f.signature())) {
        rows.push((f.name().to_owned(), "SCALAR", f.documentation()));
    }
    for f in state.aggregate_functions().values().filter(|f| unlisted(f.signature())) {
        rows.push((f.name().to_owned(), "AGGREGATE", f.documentation()));
    }
    for f in state.window_functions().values().filter(|f| unlisted(f.signature())) {
        rows.push((f.name().to_owned(), "WINDOW", f.documentation()));
    }
    rows.sort_by(|a, b| a.0.cmp(&b.0));
    rows.dedup_by(|a, b| a.0 == b.0);
    let text =
        |f: &dyn Fn(&Row<'_>) -> Option<String>| -> ArrayRef { Arc::new(rows.iter().map(f).collect::<StringArray>()) };
    let mut params = ListBuilder::new(StringBuilder::new());
    for (_, _, doc) in &rows {
        for (name, _) in doc.and_then(|d| d.arguments.as_ref()).into_iter().flatten() {
            params.values().append_value(name);
        }
        params.append(doc.is_some_and(|d| d.arguments.is_some()));
    }
    // Return and parameter types: NULL (the function decides them from its arguments).
    let columns = [
        Some(text(&|r| Some(r.0.clone()))),
        None,
        Some(Arc::new(params.finish()) as ArrayRef),
        None,
        Some(text(&|r| Some(r.1.to_owned()))),
        Some(text(&|r| r.2.map(|d| d.description.clone()))),
        Some(text(&|r| r.2.map(|d| d.syntax_example.clone()))),
    ];
    let schema = Arc::new(df.schema().as_arrow().clone());
    let mut cols = Vec::with_capacity(columns.len());
    for (c, field) in columns.iter().zip(schema.fields()) {
        cols.push(match c {
            Some(c) => cast(c, field.data_type())?,
            None => new_null_array(field.data_type(), rows.len()),
        });
    }
    let extra = ctx.read_batch(RecordBatch::try_new(schema, cols)?)?;
    let extra = match like {
        Some(p) => extra.filter(col("function_name").like(lit(p)))?,
        None => extra,
    };
    Ok(df.union(extra)?)
}

const TARGET_PARTITIONS: &str = "datafusion.execution.target_partitions";

/// Refuses `SET datafusion.execution.target_partitions = 0`: `DataFusion`
/// reads 0 as one partition per core, which silently gives up the input
/// order that makes some results bit-identical to the reference tools.
pub(crate) fn check_setting(plan: &LogicalPlan) -> Result<()> {
    if let LogicalPlan::Statement(PlanStatement::SetVariable(s)) = plan
        && s.variable.eq_ignore_ascii_case(TARGET_PARTITIONS)
        && s.value.trim().parse::<u64>() == Ok(0)
    {
        bail!(
            "{TARGET_PARTITIONS} = 0 would mean one partition per core ({}), which gives up the input order that \
             order-dependent results rely on; set the number of partitions explicitly",
            std::thread::available_parallelism().map_or(1, std::num::NonZero::get)
        );
    }
    Ok(())
}

/// `RESET mteval.KEY` (which `DataFusion` refuses for a settings extension:
/// "Could not find config namespace") as a `SET` of the session's default:
/// for `mteval.device`, the command line's device, else unset.
pub(crate) fn mteval_reset(plan: LogicalPlan) -> LogicalPlan {
    match plan {
        LogicalPlan::Statement(PlanStatement::ResetVariable(r))
            if r.variable.to_ascii_lowercase().starts_with("mteval.") =>
        {
            let value = if r.variable.eq_ignore_ascii_case("mteval.device") {
                crate::session::device::get().map(|d| d.to_string()).unwrap_or_default()
            } else {
                String::new()
            };
            LogicalPlan::Statement(PlanStatement::SetVariable(datafusion::logical_expr::SetVariable {
                variable: r.variable,
                value,
            }))
        }
        other => other,
    }
}

pub(crate) fn is_partitions_reset(plan: &LogicalPlan) -> bool {
    matches!(plan, LogicalPlan::Statement(PlanStatement::ResetVariable(r)) if r.variable.eq_ignore_ascii_case(TARGET_PARTITIONS))
}

/// Checks, before `COPY ... TO` runs, that a local target can be created:
/// the nearest existing directory on its path must accept a new file.
/// `object_store`'s local writer otherwise loops for ever on a directory that
/// exists but refuses new files with "not found" (`/proc`), and reports
/// other refusals as an internal error.
pub(crate) fn check_copy_target(url: &str) -> Result<()> {
    if crate::session::is_url(url) {
        return Ok(()); // the object store says what is wrong
    }
    let target = std::path::Path::new(url.strip_prefix("file://").unwrap_or(url));
    let mut dir = target.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or_else(|| std::path::Path::new("."));
    if url.ends_with('/') {
        dir = target; // a directory of files
    }
    while !dir.exists() {
        match dir.parent() {
            Some(p) if !p.as_os_str().is_empty() => dir = p,
            _ => {
                dir = std::path::Path::new(".");
                break;
            }
        }
    }
    if !dir.is_dir() {
        bail!("COPY cannot write {url}: {} is a file, not a directory", dir.display());
    }
    let probe = dir.join(format!(".mteval-copy-probe-{}", std::process::id()));
    match std::fs::OpenOptions::new().write(true).create_new(true).open(&probe) {
        Ok(_) => {
            let _ = std::fs::remove_file(&probe);
            Ok(())
        }
        Err(e) => bail!("COPY cannot write {url}: cannot create files in {} ({e})", dir.display()),
    }
}

/// The local files and directories every listing table of `plan` reads
/// (views and subqueries included).
#[must_use]
pub fn table_paths(plan: &LogicalPlan) -> Vec<String> {
    use datafusion::common::tree_node::TreeNodeRecursion;
    use datafusion::datasource::listing::ListingTable;
    use datafusion::datasource::source_as_provider;
    let mut paths = Vec::new();
    let _ = plan.apply_with_subqueries(|node| {
        if let LogicalPlan::TableScan(scan) = node
            && let Ok(provider) = source_as_provider(&scan.source)
            && let Some(t) = provider.downcast_ref::<ListingTable>()
        {
            for u in t.table_paths() {
                let url: &url::Url = u.as_ref();
                match url.to_file_path() {
                    Ok(p) => paths.push(p.display().to_string()),
                    Err(()) => paths.push(url.as_str().to_owned()),
                }
            }
        }
        Ok(TreeNodeRecursion::Continue)
    });
    paths
}

/// The local JSON files `plan` reads (tables, views and subqueries
/// included), and the location of a `CREATE EXTERNAL TABLE ... STORED AS
/// JSON`, for [`locate`].
pub(crate) fn json_files(plan: &LogicalPlan) -> Vec<String> {
    use datafusion::common::tree_node::TreeNodeRecursion;
    use datafusion::datasource::listing::ListingTable;
    use datafusion::datasource::source_as_provider;
    let mut files = Vec::new();
    let mut local = |u: &url::Url| {
        if let Ok(p) = u.to_file_path()
            && p.is_file()
        {
            files.push(p.display().to_string());
        }
    };
    let _ = plan.apply_with_subqueries(|node| {
        match node {
            LogicalPlan::TableScan(scan) => {
                if let Ok(provider) = source_as_provider(&scan.source)
                    && let Some(t) = provider.downcast_ref::<ListingTable>()
                    && t.options().format.get_ext() == "json"
                {
                    for u in t.table_paths() {
                        local(u.as_ref());
                    }
                }
            }
            LogicalPlan::Ddl(datafusion::logical_expr::DdlStatement::CreateExternalTable(c))
                if c.file_type.eq_ignore_ascii_case("json") =>
            {
                for loc in &c.locations {
                    if let Ok(u) = datafusion::datasource::listing::ListingTableUrl::parse(loc) {
                        local(u.as_ref());
                    }
                }
            }
            _ => {}
        }
        Ok(TreeNodeRecursion::Continue)
    });
    files
}

/// A JSON error located in the file and line it comes from (Arrow names
/// neither); other errors unchanged.
#[must_use]
pub fn locate(e: datafusion::error::DataFusionError, json_files: &[String]) -> anyhow::Error {
    let msg = e.to_string();
    if msg.contains("Json error") || msg.contains("JSON") || msg.contains("json") {
        for f in json_files {
            if let Some(located) = crate::session::json_error_location(f, &msg) {
                return located;
            }
        }
    }
    e.into()
}

/// A failed `COPY ... TO url`: names the target and drops `DataFusion`'s
/// "likely caused by a bug" note, which a refused write is not.
pub(crate) fn copy_error(e: &anyhow::Error, url: &str) -> anyhow::Error {
    let msg = format!("{e:#}");
    let cause = msg.split(".\nThis issue was likely caused by a bug").next().unwrap_or(&msg);
    let cause = cause.strip_prefix("Internal error: ").unwrap_or(cause);
    anyhow::anyhow!("COPY cannot write {url}: {cause}")
}

/// `DataFusion` says only "Invalid function" when a window function is called
/// without `OVER`; this says how to call mteval's.
pub(crate) fn window_hint(e: datafusion::error::DataFusionError) -> anyhow::Error {
    let msg = e.to_string();
    let called = mteval_udfs::window_functions()
        .into_iter()
        .map(|f| f.name().to_owned())
        .find(|n| msg.contains(&format!("Invalid function '{n}'")));
    match called {
        Some(n) => anyhow::Error::new(e)
            .context(format!("{n} is a window function: call it with OVER, e.g. {n}(hyp) OVER (PARTITION BY src_id)")),
        None => e.into(),
    }
}

/// Undoes a `SET` of the batch size or the partition count beyond what the
/// command line accepts, with an error: `DataFusion` takes any value, then
/// aborts allocating a batch of 10^10 rows, or plans 10^8 partitions for
/// ever. `before` is the session as it was before the statement.
pub(crate) fn check_limits(ctx: &SessionContext, before: &datafusion::execution::SessionState) -> Result<()> {
    let was = &before.config().options().execution;
    let (batch, parts) = {
        let state = ctx.state();
        let now = &state.config().options().execution;
        (now.batch_size.get() as u64, now.target_partitions)
    };
    let max_parts = usize::from(u16::MAX);
    if batch > crate::session::MAX_BATCH || parts > max_parts {
        let lock = ctx.state_ref();
        let mut state = lock.write();
        let exec = &mut state.config_mut().options_mut().execution;
        exec.batch_size = was.batch_size;
        exec.target_partitions = was.target_partitions;
        if batch > crate::session::MAX_BATCH {
            bail!(
                "datafusion.execution.batch_size = {batch} is above mteval's limit of {} rows",
                crate::session::MAX_BATCH
            );
        }
        bail!("datafusion.execution.target_partitions = {parts} is above mteval's limit of {max_parts}");
    }
    Ok(())
}

/// Whether `state` is a cluster client's (always false without the
/// `cluster` feature).
fn is_cluster_session(state: &datafusion::execution::SessionState) -> bool {
    #[cfg(feature = "cluster")]
    return crate::cluster::is_cluster_session(state);
    #[cfg(not(feature = "cluster"))]
    {
        let _ = state;
        false
    }
}

/// A session's `SET mteval.device = 'cuda'` fails at once, not at its
/// first query, when this machine has no usable GPU. The setting is the
/// session's own; on a cluster it is the executors' business.
pub(crate) fn check_device_setting(ctx: &SessionContext) -> Result<()> {
    let state = ctx.state();
    if is_cluster_session(&state) {
        return Ok(());
    }
    if let Some(d) = mteval_udfs::common::configured_device(state.config().options()) {
        mteval_kernels::backend::backend_for(d)?;
    }
    Ok(())
}

///
/// # Errors
/// A query that fails to run, or standard output that cannot be written.
pub async fn print_df(p: Planned, format: Format) -> Result<()> {
    let batches = collect(p).await?;
    if batches.first().is_some_and(|b| b.num_columns() == 0) || (batches.is_empty() && format == Format::Table) {
        return Ok(());
    }
    // Formatted in full first: a result that cannot be encoded prints nothing.
    let mut text = Vec::new();
    print_batches(&batches, format, &mut text)?;
    write_stdout(&text)
}

/// Runs every statement of `sql` as `mteval sql -c` does (the same checks:
/// `COPY` targets, outputs over inputs, settings) and returns the schema
/// and rows of the last one; the results of the others are computed and
/// dropped. What `mteval.sql` in Python runs.
///
/// # Errors
/// As the CLI's, naming the file, column or row.
pub async fn collect_sql(
    ctx: &SessionContext,
    sql: &str,
) -> Result<(datafusion::arrow::datatypes::SchemaRef, Vec<RecordBatch>)> {
    let partitions = ctx.state().config().target_partitions();
    let mut statements = statements(sql)?;
    let Some(last) = statements.pop() else { bail!("no SQL statement to run") };
    for st in statements {
        collect(plan_one(ctx, st, partitions).await?).await?;
    }
    let last = plan_one(ctx, last, partitions).await?;
    let schema = std::sync::Arc::new(last.df.schema().as_arrow().clone());
    Ok((schema, collect(last).await?))
}

/// The rows of a planned statement, its errors located as `print_df`'s.
pub(crate) async fn collect(p: Planned) -> Result<Vec<RecordBatch>> {
    let Planned { df, copy_to, json_files, atomic } = p;
    let batches = df.collect().await.map_err(|e| {
        let e = locate(e, &json_files);
        match &copy_to {
            Some(url) => copy_error(&e, url),
            None => e,
        }
    })?;
    if let (Some(file), Some(url)) = (atomic, &copy_to) {
        file.commit().map_err(|e| copy_error(&e, url))?;
    }
    Ok(batches)
}

/// Streams a result into a file, atomically.
///
/// # Errors
/// A query that fails to run, or a file that cannot be written (the target is
/// left as it was).
pub async fn write_df(df: DataFrame, path: &std::path::Path) -> Result<usize> {
    let schema = std::sync::Arc::new(df.schema().as_arrow().clone());
    let mut stream = df.execute_stream().await?;
    let mut w = BatchFileWriter::create(path, &schema, &[])?;
    while let Some(b) = stream.next().await {
        w.write(&b?)?;
    }
    let n = w.rows();
    w.finish().await?;
    Ok(n)
}
