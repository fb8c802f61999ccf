//! The `mteval` command line. See `mteval --help`.

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let args = mteval::cli::Cli::parse();
    match mteval::cli::run(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(1)
        }
    }
}
