//! The main example: Fibonacci as a task program, one task per call.
//!
//! ```text
//! cargo run --release -p gtap-examples --example fib -- [N] [THREADS]
//! ```
//!
//! It says which backend ran. Today that is the CPU backend (worker threads with work
//! stealing); the GPU runtime is not implemented yet (see the README's status table).

use std::process::ExitCode;

use gtap_examples::fib;
use gtap_host::cpu::{CpuConfig, CpuRuntime};

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let n: u32 = match args.next().map(|a| a.parse()) {
        None => 30,
        Some(Ok(n)) if n <= 60 => n,
        Some(_) => {
            eprintln!("usage: fib [N (0..=60, default 30)] [THREADS (default: all cores)]");
            return ExitCode::FAILURE;
        }
    };
    let mut config = CpuConfig::new();
    if let Some(t) = args.next() {
        match t.parse() {
            Ok(t) => config = config.threads(t),
            Err(_) => {
                eprintln!("THREADS must be a positive integer, got `{t}`");
                return ExitCode::FAILURE;
            }
        }
    }
    match run(n, config) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run(n: u32, config: CpuConfig) -> Result<(), gtap_host::cpu::CpuError> {
    println!(
        "backend: CPU ({} worker threads; the GPU runtime is not implemented yet)",
        config.threads
    );
    let mut rt = CpuRuntime::new(config)?;
    let (value, stats) = rt.run(fib::program::fib(n))?;
    let expected = fib::reference(n);
    println!(
        "fib({n}) = {value} ({}), {} tasks in {:.1} ms ({:.1} M tasks/s), {} of {} steals won",
        if value == expected {
            "correct"
        } else {
            "WRONG"
        },
        stats.tasks_executed,
        stats.elapsed.as_secs_f64() * 1e3,
        stats.tasks_executed as f64 / stats.elapsed.as_secs_f64() / 1e6,
        stats.steals_won,
        stats.steals_attempted,
    );
    assert_eq!(value, expected, "fib({n}) is wrong");
    Ok(())
}
