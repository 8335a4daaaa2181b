//! Every example program once, at a small size, checked against its sequential reference:
//! the run that `scripts/gpu-sanitize.sh` puts under compute-sanitizer's four tools.
//!
//! ```text
//! cargo run --release -p gtap-examples --example smoke -- [--grid G] [--block B] [--all-configs]
//! ```
//!
//! On the GPU when there is one, otherwise on the CPU backend (with `GTAP_REQUIRE_GPU=1`, a
//! missing GPU is an error instead). On the GPU the launch is small by default, so that the
//! run stays short under the sanitizers; `--all-configs` runs every program again with the
//! EPAQ queue orders, top-up, inline resumes and the ablation schedulers (`smoke/gpu.rs`).
//! Exits with failure at the first wrong result or error.

use std::process::ExitCode;

use clap::Parser;

use gtap::ViewMut;
use gtap::host::Gpu;
use gtap::host::cpu::{CpuConfig, CpuRuntime};
use gtap_examples::rng::Rng;
use gtap_examples::{cilksort, fib, mergesort, nqueens, tree};

#[path = "smoke/gpu.rs"]
mod gpu;

/// Every example program once, at a small size, checked against its reference.
#[derive(Parser)]
struct Args {
    /// Thread blocks of the GPU launch.
    #[arg(long, default_value_t = 8)]
    grid: u32,
    /// Threads per block of the GPU launch.
    #[arg(long, default_value_t = 64)]
    block: u32,
    /// On the GPU, run every program on every scheduling configuration, not just the default.
    #[arg(long)]
    all_configs: bool,
}

/// Entries of the trees' lookup table.
pub(crate) const TABLE: usize = 1 << 10;

fn main() -> ExitCode {
    let args = Args::parse();
    let outcome = match Gpu::new(0) {
        Ok(gpu) => {
            println!("backend: GPU, {}", gpu.props());
            gpu::run(gpu, &gpu::configs(args.grid, args.block, args.all_configs))
        }
        Err(e) if e.is_no_gpu() && !gtap::host::require_gpu() => {
            println!("no GPU here ({e}); running on the CPU backend");
            on_cpu()
        }
        Err(e) => Err(e.to_string()),
    };
    match outcome {
        Ok(n) => {
            println!("smoke: {n} runs, all correct");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn check<T: PartialEq + std::fmt::Debug>(what: &str, got: T, want: T) -> Result<(), String> {
    if got == want {
        println!("{what}: {got:?} (correct)");
        Ok(())
    } else {
        Err(format!("{what}: got {got:?}, expected {want:?}"))
    }
}

fn input(n: usize, seed: u64) -> Vec<u32> {
    let mut rng = Rng::new(seed);
    (0..n).map(|_| rng.next() as u32).collect()
}

/// The trees' lookup table (leaked: `tree::Work` on the host wants a `'static` table).
fn table() -> &'static [u64] {
    let mut rng = Rng::new(7);
    let t: Vec<u64> = (0..TABLE).map(|_| rng.next()).collect();
    Box::leak(t.into_boxed_slice())
}

fn sorted(mut v: Vec<u32>) -> Vec<u32> {
    v.sort_unstable();
    v
}

fn on_cpu() -> Result<usize, String> {
    let s = |e: gtap::host::cpu::CpuError| e.to_string();
    let mut rt = CpuRuntime::new(CpuConfig::new().num_queues(3)).map_err(s)?;
    let mut runs = 0;
    check(
        "fib(18)",
        rt.run(fib::program::fib(18)).map_err(s)?.0,
        fib::reference(18),
    )?;
    let (v, _) = rt
        .run(fib::epaq::fib_cutoff(20, 6, 1, fib::Leaf::Calls))
        .map_err(s)?;
    check("fib(20), cutoff 6, 3 queues", v, fib::reference(20))?;
    let (v, _) = rt
        .run(nqueens::program::nqueens(9, 0, 0, 0, 0, 4))
        .map_err(s)?;
    check("nqueens(9)", v, nqueens::KNOWN[9])?;
    runs += 3;
    for (name, n) in [("mergesort", 20_000usize), ("cilksort", 20_000)] {
        let host = input(n, 11);
        let mut data = host.clone();
        let mut tmp = vec![0u32; n];
        let (a, t) = (
            ViewMut::from_slice(&mut data),
            ViewMut::from_slice(&mut tmp),
        );
        if name == "mergesort" {
            rt.run(mergesort::program::mergesort(a, t, 128))
                .map_err(s)?;
        } else {
            rt.run(cilksort::program::cilksort(a, t, 64, 256))
                .map_err(s)?;
        }
        check(
            &format!("{name} of {n}: sorted permutation"),
            data == sorted(host),
            true,
        )?;
        runs += 1;
    }
    let host_table = table();
    let work = |m, c| tree::Work::new(host_table, m, c);
    let (v, _) = rt
        .run(tree::full_binary::node(10, 0, work(16, 16)))
        .map_err(s)?;
    check(
        "full binary tree, depth 10",
        v,
        tree::full_binary_reference(10, 0, work(16, 16)),
    )?;
    let (v, _) = rt
        .run(tree::pruned::node(0, 10, 0, work(8, 8)))
        .map_err(s)?;
    check(
        "pruned tree, depth 10",
        v,
        tree::pruned_reference(0, 10, 0, work(8, 8)),
    )?;
    runs += 2;
    Ok(runs)
}
