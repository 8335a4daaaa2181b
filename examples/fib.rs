//! The main example: Fibonacci as a task program, one task per call.
//!
//! ```text
//! cargo run --release -p gtap-examples --example fib -- [N]
//! ```
//!
//! It runs on the GPU when there is one, otherwise on the CPU backend (worker threads with
//! work stealing), and says which and why: that is [`gtap::Runtime`]'s choice.
//! `GTAP_BACKEND=cpu` runs on the CPU backend anyway; with `GTAP_REQUIRE_GPU=1` a missing GPU
//! is an error instead. `GTAP_GRID` and `GTAP_BLOCK` override the GPU's launch shape.

use std::process::ExitCode;

use gtap::{GpuConfig, Runtime, Stats};
use gtap_examples::fib;

fn main() -> ExitCode {
    let n: u32 = match std::env::args().nth(1).map(|a| a.parse()) {
        None => 30,
        Some(Ok(n)) if n <= 60 => n,
        Some(_) => {
            eprintln!("usage: fib [N (0..=60, default 30)]");
            return ExitCode::FAILURE;
        }
    };
    match run(n) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run(n: u32) -> Result<(), String> {
    let mut gpu = GpuConfig::new();
    if let Some(g) = env_u32("GTAP_GRID") {
        gpu = gpu.grid(g);
    }
    if let Some(b) = env_u32("GTAP_BLOCK") {
        gpu = gpu.block(b);
    }
    let mut rt = Runtime::builder()
        .gpu_config(gpu)
        .build(gtap_examples::PTX)
        .map_err(|e| e.to_string())?;
    println!("backend: {}", rt.selection());
    let (value, stats) = rt.run(fib::program::fib(n)).map_err(|e| e.to_string())?;
    if let Some(g) = stats.gpu() {
        println!(
            "grid {} x block {}, kernel time measured with CUDA events",
            g.grid, g.block
        );
    }
    report(n, value, &stats)
}

fn report(n: u32, value: u64, stats: &Stats) -> Result<(), String> {
    let expected = fib::reference(n);
    println!(
        "fib({n}) = {value} ({}), {stats}",
        if value == expected {
            "correct"
        } else {
            "WRONG"
        },
    );
    if value == expected {
        Ok(())
    } else {
        Err(format!("fib({n}) should be {expected}"))
    }
}

/// A launch-shape override from the environment (`GTAP_GRID`, `GTAP_BLOCK`).
fn env_u32(name: &str) -> Option<u32> {
    std::env::var(name).ok().and_then(|v| v.parse().ok())
}
