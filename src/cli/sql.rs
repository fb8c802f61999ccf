//! `mteval sql`: run SQL from `-c`, `-f` or an interactive prompt.

use std::io::{BufRead, IsTerminal};
use std::path::PathBuf;
use std::time::Duration;

use anyhow::{Context, Result, bail};
use datafusion::error::DataFusionError;
use datafusion::prelude::SessionContext;

use super::args::SqlArgs;
use mteval::output::{Format, note};
use mteval::session::statements::{locate, plan_one, print_df, run_all, statements, table_paths, write_df};
use mteval::session::{SessionOptions, new_context};

pub(super) async fn run(a: SqlArgs) -> Result<()> {
    let partitions = usize::from(a.partitions);
    let opts = SessionOptions {
        batch_size: a.batch_size,
        target_partitions: Some(partitions),
        memory_limit: a.memory_limit,
        device: mteval::session::device::get(),
    };
    let ctx = match &a.cluster {
        Some(url) => mteval::cluster::remote_context(url, &opts, Duration::from_secs(a.executor_wait)).await?,
        None => new_context(&opts)?,
    };
    let mut sources: Vec<String> = a.commands.clone();
    for f in &a.files {
        sources.push(std::fs::read_to_string(f).with_context(|| format!("cannot read SQL file {}", f.display()))?);
    }
    if sources.is_empty() {
        if a.output.is_none() {
            return repl(&ctx, a.format, partitions).await;
        }
        // `-o` writes the last statement's result: the statements are read
        // in full from piped input first, as from `-f`.
        let stdin = std::io::stdin();
        if stdin.is_terminal() {
            bail!("-o writes the result of the last statement of -c, -f or piped input; the interactive prompt prints");
        }
        let mut text = String::new();
        std::io::Read::read_to_string(&mut stdin.lock(), &mut text).context("cannot read standard input")?;
        sources.push(text);
    }
    if let Some(path) = &a.output {
        check_last_yields_rows(&sources, path)?;
    }
    let mut all = Vec::new();
    for s in &sources {
        all.extend(statements(s)?);
    }
    let last = all.pop();
    if let Some(path) = &a.output {
        // The output may be no SQL file (the tables the last statement reads are checked when it is planned).
        let files: Vec<String> = a.files.iter().map(|f| f.display().to_string()).collect();
        let files: Vec<&str> = files.iter().map(String::as_str).collect();
        mteval::output::check_outputs(&[("-o", path)], &files)?;
    }
    for st in all {
        print_df(plan_one(&ctx, st, partitions).await?, a.format).await?;
    }
    let last = match last {
        Some(st) => Some(plan_one(&ctx, st, partitions).await?),
        None => None,
    };
    if let (Some(path), Some(p)) = (&a.output, &last) {
        // The files the last statement reads: none may be the output.
        let inputs = table_paths(p.df.logical_plan());
        let inputs: Vec<&str> = inputs.iter().map(String::as_str).collect();
        mteval::output::check_outputs(&[("-o", path)], &inputs)?;
    }
    if let Some(p) = last {
        match &a.output {
            Some(path) => {
                let n = write_df(p.df, path).await.map_err(|e| match e.downcast::<DataFusionError>() {
                    Ok(e) => locate(e, &p.json_files),
                    Err(e) => e,
                })?;
                note!("wrote {n} rows to {}", path.display());
            }
            None => print_df(p, a.format).await?,
        }
    }
    Ok(())
}

/// With `-o`, refuses before anything runs when the last statement returns
/// no rows to write (DDL, `SET`, `COPY`, `INSERT`): the output would be
/// replaced by an empty file with no columns.
fn check_last_yields_rows(sources: &[String], path: &std::path::Path) -> Result<()> {
    use datafusion::sql::parser::Statement as DfStatement;
    use datafusion::sql::sqlparser::ast::Statement as Sql;
    let mut last = None;
    for s in sources {
        if let Some(st) = statements(s)?.pop() {
            last = Some(st);
        }
    }
    let Some(last) = last else { bail!("-o {}: there is no statement to write the result of", path.display()) };
    let rows = match &last {
        DfStatement::Statement(st) => matches!(
            **st,
            Sql::Query(_)
                | Sql::Explain { .. }
                | Sql::ExplainTable { .. }
                | Sql::ShowTables { .. }
                | Sql::ShowColumns { .. }
                | Sql::ShowVariable { .. }
                | Sql::ShowFunctions { .. }
                | Sql::ShowCreate { .. }
        ),
        DfStatement::Explain(_) => true,
        DfStatement::CreateExternalTable(_) | DfStatement::CopyTo(_) | DfStatement::Reset(_) => false,
    };
    if !rows {
        let head: String = last.to_string().split_whitespace().take(3).collect::<Vec<_>>().join(" ");
        bail!(
            "-o {} writes the result of the last statement, but '{head} ...' returns no rows to write; end with a query",
            path.display()
        );
    }
    Ok(())
}

/// Lines gathered into statements, as the prompt and piped input read them:
/// a statement ends at a line ending in `;`; `\q`, `quit` or `exit` on a
/// line of its own between statements leaves.
#[derive(Default)]
struct Gathered {
    text: String,
    /// The statement holds a prompt line longer than [`MAX_PROMPT_LINE`]:
    /// it is refused when it ends.
    overlong: bool,
}

enum Line {
    /// Leave.
    Quit,
    /// The statement the line completes.
    Statement(String),
    /// The statement the line completes holds a line longer than
    /// [`MAX_PROMPT_LINE`]: it is not run.
    Overlong,
    /// The statement goes on.
    More,
}

impl Gathered {
    fn push(&mut self, line: &str) -> Line {
        let t = line.trim();
        if self.text.is_empty() && !self.overlong && (t == "\\q" || t == "quit" || t == "exit") {
            return Line::Quit;
        }
        self.text.push_str(line);
        self.text.push('\n');
        if t.ends_with(';') { self.end() } else { Line::More }
    }

    /// A prompt line longer than [`MAX_PROMPT_LINE`], which ended in `;` or
    /// not (`ends`): its statement will be refused.
    fn push_overlong(&mut self, ends: bool) -> Line {
        self.overlong = true;
        if ends { self.end() } else { Line::More }
    }

    fn end(&mut self) -> Line {
        let text = std::mem::take(&mut self.text);
        if std::mem::take(&mut self.overlong) { Line::Overlong } else { Line::Statement(text) }
    }

    /// Whether no statement is being gathered.
    fn is_empty(&self) -> bool {
        self.text.trim().is_empty() && !self.overlong
    }

    /// The unfinished statement, if any.
    fn rest(&self) -> Option<&str> {
        (!self.text.trim().is_empty()).then_some(self.text.as_str())
    }
}

/// Runs one statement of the prompt or of piped input: an error ends the
/// statement, not the session (as in psql and sqlite3), and is printed;
/// `Ok(false)` then. Standard output gone ends it all.
async fn run_one(ctx: &SessionContext, sql: &str, partitions: usize, format: Format) -> Result<bool> {
    match run_all(ctx, sql, partitions, format).await {
        Ok(()) => Ok(true),
        Err(e) if mteval::output::is_closed_stdout(&e) => Err(e),
        Err(e) => {
            note!("error: {}", mteval::output::error_message(&e));
            Ok(false)
        }
    }
}

async fn repl(ctx: &SessionContext, format: Format, partitions: usize) -> Result<()> {
    let stdin = std::io::stdin();
    if stdin.is_terminal() {
        return prompt(ctx, format, partitions).await;
    }
    let mut gathered = Gathered::default();
    let mut failed = 0usize;
    for line in stdin.lock().lines() {
        match gathered.push(&line?) {
            Line::Quit => break,
            // Piped input exits with status 1 at the end if a statement
            // failed, so a script's failure shows.
            Line::Statement(sql) => failed += usize::from(!run_one(ctx, &sql, partitions, format).await?),
            Line::More | Line::Overlong => {}
        }
    }
    if let Some(rest) = gathered.rest() {
        run_all(ctx, rest, partitions, format).await?;
    }
    if failed > 0 {
        bail!("{failed} statement(s) read from standard input failed");
    }
    Ok(())
}

/// Where the prompt keeps its history: `MTEVAL_HISTORY`, else
/// `~/.mteval_history`; none when `MTEVAL_HISTORY` is set but empty (as an
/// empty `HISTFILE` in bash), and none, with a note, when the path holds a
/// file that is not a history file: the prompt never overwrites a data file
/// named by mistake.
fn history_path() -> Option<PathBuf> {
    let path = match std::env::var_os("MTEVAL_HISTORY") {
        Some(p) if p.is_empty() => return None,
        Some(p) => PathBuf::from(p),
        None => PathBuf::from(std::env::var_os("HOME")?).join(".mteval_history"),
    };
    if let Err(why) = check_history_file(&path) {
        note!("note: the prompt keeps no history: {} {why}", path.display());
        return None;
    }
    Some(path)
}

/// Whether `path` may be used as the prompt's history file: it does not
/// exist yet, or it is a regular file that is empty or starts with the line
/// rustyline writes at the top of its history files (`#V2`). The error says
/// why not.
fn check_history_file(path: &std::path::Path) -> std::result::Result<(), String> {
    use std::io::Read;
    let meta = match std::fs::metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(format!("cannot be read ({e})")),
    };
    if !meta.is_file() {
        return Err("is not a regular file".into());
    }
    let mut head = [0u8; 4];
    let n =
        std::fs::File::open(path).and_then(|mut f| f.read(&mut head)).map_err(|e| format!("cannot be read ({e})"))?;
    if n == 0 || (n >= 3 && head.starts_with(b"#V2")) {
        return Ok(());
    }
    Err("is not a history file (it does not start with the '#V2' line of the prompt's history files); set \
         MTEVAL_HISTORY to another path, or to nothing for no history"
        .into())
}

/// The longest line the prompt takes, in bytes. Typed keys past it are
/// dropped without being echoed, and the line's statement is refused when it
/// ends: the line editor redraws a whole line at each wrap, so a long line
/// typed (or pasted by a terminal without bracketed paste) would cost time
/// and terminal output growing with the square of its length. Long
/// statements are read from a file (`-f`) or piped in.
const MAX_PROMPT_LINE: usize = 16 * 1024;

/// What [`LineCap`] dropped from the line being edited.
#[derive(Default)]
struct Dropped {
    any: bool,
    /// The last non-blank character dropped: the line's real last one.
    last: Option<char>,
}

/// The prompt's key handler enforcing [`MAX_PROMPT_LINE`]: a character
/// typed on a line that long is dropped (no redraw) and remembered.
struct LineCap(std::sync::Arc<std::sync::Mutex<Dropped>>);

impl rustyline::ConditionalEventHandler for LineCap {
    fn handle(
        &self,
        evt: &rustyline::Event,
        _n: rustyline::RepeatCount,
        _positive: bool,
        ctx: &rustyline::EventContext,
    ) -> Option<rustyline::Cmd> {
        use rustyline::{KeyCode, KeyEvent, Modifiers};
        let Some(&KeyEvent(KeyCode::Char(c), m)) = evt.get(0) else { return None };
        if !(m == Modifiers::NONE || m == Modifiers::SHIFT) || ctx.line().len() < MAX_PROMPT_LINE {
            return None;
        }
        let mut d = self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        d.any = true;
        if !c.is_whitespace() {
            d.last = Some(c);
        }
        Some(rustyline::Cmd::Noop)
    }
}

/// The prompt at a terminal, as datafusion-cli's: line editing (arrows,
/// Home/End, Ctrl-A/E/W/U), the statements' history (Up/Down, Ctrl-R;
/// kept in [`history_path`]), Ctrl-C dropping the statement being typed,
/// Ctrl-D (or `\q`, `quit`, `exit`) leaving. A statement runs at its `;`;
/// an error is printed and the prompt goes on. A statement still being typed
/// when the prompt is left is not run (as in psql and sqlite3): it is kept
/// in the history, and a note says so. A line longer than
/// [`MAX_PROMPT_LINE`] is refused with its statement.
async fn prompt(ctx: &SessionContext, format: Format, partitions: usize) -> Result<()> {
    use rustyline::error::ReadlineError;
    let mut rl = rustyline::DefaultEditor::new().context("cannot start the prompt")?;
    let dropped = std::sync::Arc::new(std::sync::Mutex::new(Dropped::default()));
    rl.bind_sequence(
        rustyline::Event::Any,
        rustyline::EventHandler::Conditional(Box::new(LineCap(std::sync::Arc::clone(&dropped)))),
    );
    let history = history_path();
    if let Some(h) = &history {
        // A missing or unreadable history starts empty.
        let _ = rl.load_history(h);
    }
    let mut gathered = Gathered::default();
    loop {
        let read = rl.readline(if gathered.is_empty() { "mteval> " } else { "     -> " });
        let cut = std::mem::take(&mut *dropped.lock().unwrap_or_else(std::sync::PoisonError::into_inner));
        match read {
            Ok(line) => {
                let mut told = false;
                let pushed = if cut.any || line.len() > MAX_PROMPT_LINE {
                    let ends = cut.last.or_else(|| line.trim_end().chars().next_back()) == Some(';');
                    if !gathered.overlong {
                        told = true;
                        note!(
                            "error: a line typed at the prompt holds at most {MAX_PROMPT_LINE} bytes; this one is \
                             longer (keys past the limit are not shown), so its statement {}. Read long statements \
                             from a file (mteval sql -f FILE) or pipe them in",
                            if ends { "was not run" } else { "will not be run when it ends" }
                        );
                    }
                    gathered.push_overlong(ends)
                } else {
                    gathered.push(&line)
                };
                match pushed {
                    Line::Quit => break,
                    Line::Statement(sql) => {
                        let _ = rl.add_history_entry(sql.trim_end());
                        run_one(ctx, &sql, partitions, format).await?;
                    }
                    Line::Overlong if !told => note!("error: the statement with the over-long line was not run"),
                    Line::Overlong | Line::More => {}
                }
            }
            // Ctrl-C: the statement being typed is dropped.
            Err(ReadlineError::Interrupted) => gathered = Gathered::default(),
            Err(ReadlineError::Eof) => break,
            Err(e) => return Err(e).context("the prompt"),
        }
    }
    if let Some(rest) = gathered.rest() {
        let _ = rl.add_history_entry(rest.trim_end());
        note!("note: the unfinished statement (no ';' at its end) was not run; it is kept in the history");
    }
    if let Some(h) = &history
        && let Err(e) = rl.save_history(h)
    {
        note!("note: the prompt's history was not saved to {}: {e}", h.display());
    }
    Ok(())
}
