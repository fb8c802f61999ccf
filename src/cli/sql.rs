//! `mteval sql`: run SQL from `-c`, `-f` or an interactive prompt.

use std::io::{BufRead, IsTerminal, Write};

use anyhow::{Context, Result, bail};
use datafusion::arrow::array::RecordBatch;
use datafusion::prelude::{DataFrame, SessionContext};
use datafusion::sql::parser::DFParser;
use futures::StreamExt;

use super::SqlArgs;
use crate::output::{BatchFileWriter, Format, print_batches};
use crate::session::{SessionOptions, new_context};

/// Plans every statement of `sql` (several may be `;`-separated).
async fn plan_all(ctx: &SessionContext, sql: &str) -> Result<Vec<DataFrame>> {
    let statements = DFParser::parse_sql(sql).context("SQL syntax error")?;
    let mut out = Vec::new();
    for st in statements {
        let state = ctx.state();
        let plan = state.statement_to_plan(st).await.map_err(window_hint)?;
        out.push(ctx.execute_logical_plan(plan).await?);
        check_limits(ctx, &state)?;
        apply_device_setting(ctx)?;
    }
    Ok(out)
}

/// DataFusion says only "Invalid function" when a window function is called
/// without `OVER`; this says how to call mteval's.
fn window_hint(e: datafusion::error::DataFusionError) -> anyhow::Error {
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
/// command line accepts, with an error: DataFusion takes any value, then
/// aborts allocating a batch of 10^10 rows, or plans 10^8 partitions for
/// ever. `before` is the session as it was before the statement.
fn check_limits(ctx: &SessionContext, before: &datafusion::execution::SessionState) -> Result<()> {
    let was = &before.config().options().execution;
    let (batch, parts) = {
        let state = ctx.state();
        let now = &state.config().options().execution;
        (now.batch_size.get() as u64, now.target_partitions)
    };
    let max_parts = usize::from(u16::MAX);
    if batch > super::MAX_BATCH || parts > max_parts {
        let lock = ctx.state_ref();
        let mut state = lock.write();
        let exec = &mut state.config_mut().options_mut().execution;
        exec.batch_size = was.batch_size;
        exec.target_partitions = was.target_partitions;
        if batch > super::MAX_BATCH {
            bail!("datafusion.execution.batch_size = {batch} is above mteval's limit of {} rows", super::MAX_BATCH);
        }
        bail!("datafusion.execution.target_partitions = {parts} is above mteval's limit of {max_parts}");
    }
    Ok(())
}

/// `SET mteval.device = '...'` also moves the aggregate and window
/// functions (which DataFusion runs without session settings) to that device.
fn apply_device_setting(ctx: &SessionContext) -> Result<()> {
    let state = ctx.state();
    let opts = state.config().options();
    if let Some(d) = opts.extensions.get::<mteval_udfs::MtevalConfig>().map(|c| c.device.trim().to_owned())
        && !d.is_empty()
    {
        let req: mteval_kernels::backend::DeviceRequest =
            d.parse().map_err(|e: String| anyhow::anyhow!("mteval.device: {e}"))?;
        mteval_kernels::backend::backend_for(req)?;
        mteval_kernels::backend::set_default_device(req);
    }
    Ok(())
}

async fn print_df(df: DataFrame, format: Format) -> Result<()> {
    let batches: Vec<RecordBatch> = df.collect().await?;
    if batches.first().is_some_and(|b| b.num_columns() == 0) || (batches.is_empty() && format == Format::Table) {
        return Ok(());
    }
    let stdout = std::io::stdout();
    let mut lock = stdout.lock();
    print_batches(&batches, format, &mut lock)?;
    lock.flush()?;
    Ok(())
}

/// Streams a result into a file, atomically.
pub(crate) async fn write_df(df: DataFrame, path: &std::path::Path) -> Result<usize> {
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

pub(super) async fn run(a: SqlArgs) -> Result<()> {
    let ctx = new_context(&SessionOptions {
        batch_size: a.batch_size,
        target_partitions: Some(usize::from(a.partitions)),
        memory_limit: a.memory_limit,
    })?;
    let mut sources: Vec<String> = a.commands.clone();
    for f in &a.files {
        sources.push(std::fs::read_to_string(f).with_context(|| format!("cannot read SQL file {}", f.display()))?);
    }
    if sources.is_empty() {
        return repl(&ctx, a.format).await;
    }
    let mut frames = Vec::new();
    for s in &sources {
        frames.extend(plan_all(&ctx, s).await?);
    }
    let last = frames.pop();
    for df in frames {
        print_df(df, a.format).await?;
    }
    if let Some(df) = last {
        match &a.output {
            Some(path) => {
                let n = write_df(df, path).await?;
                eprintln!("wrote {n} rows to {}", path.display());
            }
            None => print_df(df, a.format).await?,
        }
    }
    Ok(())
}

async fn repl(ctx: &SessionContext, format: Format) -> Result<()> {
    let stdin = std::io::stdin();
    let interactive = stdin.is_terminal();
    let mut buf = String::new();
    let prompt = |cont: bool| {
        if interactive {
            eprint!("{}", if cont { "     -> " } else { "mteval> " });
            let _ = std::io::stderr().flush();
        }
    };
    prompt(false);
    let mut failed = 0usize;
    for line in stdin.lock().lines() {
        let line = line?;
        let t = line.trim();
        if buf.is_empty() && (t == "\\q" || t == "quit" || t == "exit") {
            break;
        }
        buf.push_str(&line);
        buf.push('\n');
        if t.ends_with(';') {
            let sql = std::mem::take(&mut buf);
            let res = async {
                for df in plan_all(ctx, &sql).await? {
                    print_df(df, format).await?;
                }
                Ok::<_, anyhow::Error>(())
            }
            .await;
            // An error ends the statement, not the session (as in psql and
            // sqlite3); piped input still exits with status 1 at the end, so
            // a script's failure shows.
            if let Err(e) = res {
                eprintln!("error: {e:#}");
                failed += 1;
            }
        }
        prompt(!buf.is_empty());
    }
    if !buf.trim().is_empty() {
        for df in plan_all(ctx, &buf).await? {
            print_df(df, format).await?;
        }
    }
    if failed > 0 && !interactive {
        bail!("{failed} statement(s) read from standard input failed");
    }
    Ok(())
}
