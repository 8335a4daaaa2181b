//! The main example: Fibonacci as a task program, one task per call.
//!
//! ```text
//! cargo run --release -p gtap-examples --example fib -- [N]
//! ```
//!
//! It runs on the GPU when there is one (and says so), otherwise on the CPU backend (worker
//! threads with work stealing), saying why; with `GTAP_REQUIRE_GPU=1` a missing GPU is an
//! error instead.

use std::process::ExitCode;

use gtap_examples::fib;
use gtap_host::Gpu;
use gtap_host::cpu::{CpuConfig, CpuRuntime};
use gtap_host::gpu_runtime::{GpuConfig, GpuRuntime};

fn main() -> ExitCode {
    let n: u32 = match std::env::args().nth(1).map(|a| a.parse()) {
        None => 30,
        Some(Ok(n)) if n <= 60 => n,
        Some(_) => {
            eprintln!("usage: fib [N (0..=60, default 30)]");
            return ExitCode::FAILURE;
        }
    };
    let outcome = match Gpu::new(0) {
        Ok(gpu) => on_gpu(gpu, n),
        Err(e) if e.is_no_gpu() && !gtap_host::require_gpu() => {
            println!("no GPU here ({e})");
            on_cpu(n)
        }
        Err(e) => Err(e.to_string()),
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn report(n: u32, value: u64, tasks: u64, seconds: f64) -> Result<(), String> {
    let expected = fib::reference(n);
    println!(
        "fib({n}) = {value} ({}), {tasks} tasks in {:.2} ms ({:.1} M tasks/s)",
        if value == expected {
            "correct"
        } else {
            "WRONG"
        },
        seconds * 1e3,
        tasks as f64 / seconds / 1e6,
    );
    if value == expected {
        Ok(())
    } else {
        Err(format!("fib({n}) should be {expected}"))
    }
}

fn on_gpu(gpu: Gpu, n: u32) -> Result<(), String> {
    println!("backend: GPU, {}", gpu.props());
    let mut config = GpuConfig::new();
    if let Some(g) = env_u32("GTAP_GRID") {
        config = config.grid(g);
    }
    if let Some(b) = env_u32("GTAP_BLOCK") {
        config = config.block(b);
    }
    let mut rt = GpuRuntime::new(gpu, gtap_examples::PTX, config).map_err(|e| e.to_string())?;
    let (value, stats) = rt.run(fib::program::fib(n)).map_err(|e| e.to_string())?;
    println!(
        "grid {} x block {}, kernel time measured with CUDA events",
        stats.grid, stats.block
    );
    report(n, value, stats.tasks, stats.kernel_time.as_secs_f64())
}

/// A launch-shape override from the environment (`GTAP_GRID`, `GTAP_BLOCK`).
fn env_u32(name: &str) -> Option<u32> {
    std::env::var(name).ok().and_then(|v| v.parse().ok())
}

fn on_cpu(n: u32) -> Result<(), String> {
    let config = CpuConfig::new();
    println!(
        "backend: CPU, {} worker threads",
        config.workers().threads()
    );
    let mut rt = CpuRuntime::new(config).map_err(|e| e.to_string())?;
    let (value, stats) = rt.run(fib::program::fib(n)).map_err(|e| e.to_string())?;
    report(n, value, stats.tasks_executed, stats.elapsed.as_secs_f64())
}
