//! `gtap-plot`: PNG charts of gtap's benchmark sweeps (`line`, `hist`, `bar`) and profiler timelines
//! (`timeline`) from CSV files; `gtap-plot --help` for usage.
//!
//! Drawing is plotters' (bitmap backend, text through `ab_glyph` with an embedded DejaVu Sans),
//! so the tool needs no system fonts and no C libraries: CI machines and the GPU hosts have
//! neither. What is ours is small: the command line (`cli`), reading CSV (`table`), log axes
//! with short tick labels (`axis`), the frame and font all charts share (`canvas`), and one
//! module per chart kind.
//!
//! Exit codes: 0 done, 1 the data or the output file is the problem, 2 a usage error.

mod axis;
mod bar;
mod canvas;
mod cli;
mod error;
mod hist;
mod line;
mod table;
mod timeline;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let cli = cli::Cli::parse();
    let result = match &cli.command {
        cli::Command::Line(args) => line::run(args),
        cli::Command::Hist(args) => hist::run(args),
        cli::Command::Bar(args) => bar::run(args),
        cli::Command::Timeline(args) => timeline::run(args),
    };
    match result {
        Ok(summary) => {
            println!("{summary}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("gtap-plot: {e}");
            ExitCode::FAILURE
        }
    }
}
