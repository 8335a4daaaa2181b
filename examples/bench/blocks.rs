//! What the block programs' benchmarks (`granularity`'s `gpu-block` rows, `bfs`, `spmv`)
//! share: their GPU configuration, and a measurement that says once, instead of panicking,
//! when the GPU runtime cannot run block programs.
//!
//! The configuration is the harness's, with the block size and grid of `GTAP_BP_BLOCK` and
//! `GTAP_BP_GRID` when set (GTaP ran its block BFS on 4000 blocks of 32 threads, its trees on
//! 1000 of 64), and the scratch memory the block reductions need.

use gtap_examples::block_reduce::gpu_scratch_needed;
use gtap_host::gpu_runtime::{GpuConfig, GpuRunError, GpuRuntime, GpuStats};

use super::{Harness, note};

/// `base` made ready for block programs.
pub fn block_config(base: &GpuConfig) -> GpuConfig {
    let env = |name: &str| std::env::var(name).ok().and_then(|v| v.parse::<u32>().ok());
    let mut config = base.clone();
    if let Some(b) = env("GTAP_BP_BLOCK") {
        config = config.block(b);
    }
    if let Some(g) = env("GTAP_BP_GRID") {
        config = config.grid(g);
    }
    // A block task may spawn a whole adjacency list in one step (BFS): records and queue
    // entries per block for it.
    if let Some(t) = env("GTAP_BP_TASKS") {
        config = config.tasks_per_warp(t);
    }
    if let Some(q) = env("GTAP_BP_QUEUE") {
        config = config.queue_capacity(q);
    }
    let needed = gpu_scratch_needed(config.block) as u32;
    let scratch = config.block_scratch.max(needed);
    config.block_scratch(scratch)
}

/// Measures `run` (one GPU run of a block program, its result checked) as backend
/// `gpu-block`, under [`block_config`]. A first run (the warm-up) decides: an error is
/// said once, counts as a failure of the harness, and nothing is measured.
pub fn measure_block(
    h: &mut Harness,
    rt: &mut GpuRuntime,
    label: &str,
    mut run: impl FnMut(&mut GpuRuntime) -> Result<GpuStats, GpuRunError>,
) {
    let base = rt.config().clone();
    if let Err(e) = rt.set_config(block_config(&base)) {
        eprintln!("{label}: no configuration for block programs: {e}");
        h.failures += 1;
        return;
    }
    match run(rt) {
        Ok(_) => h.measure(label.to_string(), "gpu-block", || {
            note(run(rt).unwrap_or_else(|e| panic!("{label}, block program, on the GPU: {e}")))
        }),
        Err(e) => {
            eprintln!("{label}, block program, on the GPU: {e}");
            h.failures += 1;
        }
    }
    rt.set_config(base).expect("configuration");
}
