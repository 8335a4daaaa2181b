//! Every example program once, at a small size, checked against its sequential reference:
//! the run that `scripts/gpu-sanitize.sh` puts under compute-sanitizer's four tools.
//!
//! ```text
//! cargo run --release -p gtap-examples --example smoke
//! ```
//!
//! On the GPU when there is one (`GTAP_GRID` / `GTAP_BLOCK` set the launch shape, small by
//! default so that the run stays short under the sanitizers), otherwise on the CPU backend.
//! Exits with failure at the first wrong result or error.

use std::process::ExitCode;

use gtap_examples::buf::{Buf, Rng};
use gtap_examples::{cilksort, fib, mergesort, nqueens, tree};
use gtap_host::Gpu;
use gtap_host::cpu::{CpuConfig, CpuRuntime};
use gtap_host::cudarc::driver::{CudaSlice, DevicePtr};
use gtap_host::gpu_runtime::{GpuConfig, GpuRuntime};

/// Entries of the trees' lookup table.
const TABLE: usize = 1 << 10;

fn main() -> ExitCode {
    let outcome = match Gpu::new(0) {
        Ok(gpu) => on_gpu(gpu),
        Err(e) if e.is_no_gpu() => {
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

fn on_gpu(gpu: Gpu) -> Result<usize, String> {
    println!("backend: GPU, {}", gpu.props());
    let env = |name: &str| std::env::var(name).ok().and_then(|v| v.parse::<u32>().ok());
    let config = GpuConfig::new()
        .grid(env("GTAP_GRID").unwrap_or(8))
        .block(env("GTAP_BLOCK").unwrap_or(64));
    let s = |e: gtap_host::gpu_runtime::GpuRunError| e.to_string();
    let mut rt = GpuRuntime::new(gpu.clone(), gtap_examples::PTX, config.clone()).map_err(s)?;
    let stream = gpu.stream().clone();
    let d = |e: gtap_host::cudarc::driver::DriverError| e.to_string();
    let ptr = |b: &CudaSlice<u32>| b.device_ptr(&stream).0;
    let mut runs = 0;

    check(
        "fib(18)",
        rt.run(fib::program::fib(18)).map_err(s)?.0,
        fib::reference(18),
    )?;
    runs += 1;
    rt.set_config(config.clone().num_queues(3)).map_err(s)?;
    let (v, _) = rt
        .run(fib::epaq::fib_cutoff(20, 6, 1, fib::Leaf::Calls))
        .map_err(s)?;
    check("fib(20), cutoff 6, 3 queues", v, fib::reference(20))?;
    rt.set_config(config).map_err(s)?;
    runs += 1;
    let (v, _) = rt
        .run(nqueens::program::nqueens(9, 0, 0, 0, 0, 4))
        .map_err(s)?;
    check("nqueens(9)", v, nqueens::KNOWN[9])?;
    runs += 1;

    for (name, n) in [("mergesort", 20_000usize), ("cilksort", 20_000)] {
        let host = input(n, 11);
        let data = stream.clone_htod(&host).map_err(d)?;
        let tmp = stream.clone_htod(&vec![0u32; n]).map_err(d)?;
        // SAFETY: both device buffers hold `n` u32s and outlive the run.
        let (a, t) = unsafe {
            (
                Buf::from_raw(ptr(&data) as *mut u32, n),
                Buf::from_raw(ptr(&tmp) as *mut u32, n),
            )
        };
        if name == "mergesort" {
            rt.run(mergesort::program::mergesort(a, t, 0, n, 128))
                .map_err(s)?;
        } else {
            rt.run(cilksort::program::cilksort(a, t, 0, n, 64, 256))
                .map_err(s)?;
        }
        let out = stream.clone_dtoh(&data).map_err(d)?;
        check(
            &format!("{name} of {n}: sorted permutation"),
            out == sorted(host),
            true,
        )?;
        runs += 1;
    }

    let host_table = table();
    let dev_table = stream.clone_htod(host_table).map_err(d)?;
    let table_ptr = dev_table.device_ptr(&stream).0 as *const u64;
    // SAFETY: the device table holds TABLE u64s and outlives the runs.
    let dev_work = |m, c| unsafe { tree::Work::from_raw(table_ptr, TABLE, m, c) };
    let host_work = |m, c| tree::Work::new(host_table, m, c);
    let (v, _) = rt
        .run(tree::full_binary::node(10, 0, dev_work(16, 16)))
        .map_err(s)?;
    check(
        "full binary tree, depth 10",
        v,
        tree::full_binary_reference(10, 0, host_work(16, 16)),
    )?;
    let (v, _) = rt
        .run(tree::pruned::node(0, 10, 0, dev_work(8, 8)))
        .map_err(s)?;
    check(
        "pruned tree, depth 10",
        v,
        tree::pruned_reference(0, 10, 0, host_work(8, 8)),
    )?;
    runs += 2;
    Ok(runs)
}

fn on_cpu() -> Result<usize, String> {
    let s = |e: gtap_host::cpu::CpuError| e.to_string();
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
        let (a, t) = (Buf::new(&mut data), Buf::new(&mut tmp));
        if name == "mergesort" {
            rt.run(mergesort::program::mergesort(a, t, 0, n, 128))
                .map_err(s)?;
        } else {
            rt.run(cilksort::program::cilksort(a, t, 0, n, 64, 256))
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
