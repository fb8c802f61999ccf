//! The `mteval` command line. See `mteval --help`.

use std::io::{IsTerminal, Write};
use std::process::ExitCode;

use clap::Parser;

mod cli;

/// Exit status of a run whose standard output was closed by its reader:
/// 128 + SIGPIPE, what a shell reports for a Unix tool ended by a closed pipe.
const CLOSED_PIPE: u8 = 141;

fn main() -> ExitCode {
    let argv = cli::sacrebleu_short_flags(std::env::args_os().collect());
    let args = match cli::Cli::try_parse_from(argv) {
        Ok(a) => a,
        // `--help` and `--version` into a pipe or a file: written as any
        // other output, so a closed pipe ends quietly and a full disk is an
        // error (clap ignores both). On a terminal, clap prints in colour.
        Err(e)
            if matches!(e.kind(), clap::error::ErrorKind::DisplayHelp | clap::error::ErrorKind::DisplayVersion)
                && !std::io::stdout().is_terminal() =>
        {
            return finish(mteval::output::write_stdout(e.render().to_string().as_bytes()));
        }
        Err(e) => e.exit(),
    };
    mteval::output::init_log(args.verbose);
    finish(cli::run(args))
}

fn finish(res: anyhow::Result<()>) -> ExitCode {
    match res {
        Ok(()) => ExitCode::SUCCESS,
        // `mteval ... | head -1`: the reader has all it wanted; no message.
        Err(e) if mteval::output::is_closed_stdout(&e) => ExitCode::from(CLOSED_PIPE),
        Err(e) => {
            // Not `eprintln!`, which panics when standard error is closed.
            let _ = writeln!(std::io::stderr(), "error: {}", mteval::output::error_message(&e));
            ExitCode::from(1)
        }
    }
}
