//! `gtap-plot`: PNG charts from CSV files; see `gtap-plot --help`.

mod cli;

use std::process::ExitCode;

fn main() -> ExitCode {
    match cli::run(std::env::args().skip(1)) {
        Ok(message) => {
            println!("{message}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("gtap-plot: {e}");
            if e.is_usage() {
                eprintln!("run `gtap-plot --help` for usage");
                return ExitCode::from(2);
            }
            ExitCode::FAILURE
        }
    }
}
