//! The `mteval` command line. See `mteval --help`.

use std::io::Write;
use std::process::ExitCode;

use clap::Parser;

/// Exit status of a run whose standard output was closed by its reader:
/// 128 + SIGPIPE, what a shell reports for a Unix tool ended by a closed pipe.
const CLOSED_PIPE: u8 = 141;

fn main() -> ExitCode {
    let args = mteval::cli::Cli::parse();
    match mteval::cli::run(args) {
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
