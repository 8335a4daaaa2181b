//! What the block programs' benchmarks (`granularity`'s `gpu-block` rows, `graph`) share:
//! their GPU configuration, and a measurement that says once, instead of panicking, when the
//! GPU runtime cannot run block programs.
//!
//! The configuration is the harness's, with `--bp-block`, `--bp-grid`, `--bp-tasks` and
//! `--bp-queue` where given (GTaP ran its block BFS on 4000 blocks of 32 threads, its trees
//! on 1000 of 64), and the scratch memory the block reductions need.

use gtap::host::gpu_runtime::{GpuConfig, GpuRunError, GpuRuntime};
use gtap_examples::block_reduce::gpu_scratch_needed;

use crate::cli::GpuArgs;
use crate::harness::{Harness, Key, Sample};

/// `base` made ready for block programs.
pub fn block_config(base: &GpuConfig, args: &GpuArgs) -> GpuConfig {
    let mut config = base.clone();
    if let Some(b) = args.bp_block {
        config = config.block(b);
    }
    if let Some(g) = args.bp_grid {
        config = config.grid(g);
    }
    // A block task may spawn a whole adjacency list in one step (BFS): records and queue
    // entries per block for it.
    if let Some(t) = args.bp_tasks {
        config = config.tasks_per_warp(t);
    }
    if let Some(q) = args.bp_queue {
        config = config.queue_capacity(q);
    }
    let needed = gpu_scratch_needed(config.launch().block()) as u32;
    let scratch = config.limits().block_scratch().max(needed);
    config.block_scratch(scratch)
}

/// Measures `run` (one GPU run of a block program, its result checked) as the row `key`
/// (backend `gpu-block`), under [`block_config`]. A first run decides: an error is said
/// once, counts as a failure of the harness, and nothing is measured.
pub fn measure_block(
    h: &mut Harness,
    rt: &mut GpuRuntime,
    args: &GpuArgs,
    key: Key,
    mut run: impl FnMut(&mut GpuRuntime) -> Result<Sample, GpuRunError>,
) {
    let label = key.label();
    let base = rt.config().clone();
    if let Err(e) = rt.set_config(block_config(&base, args)) {
        eprintln!("{label}: no configuration for block programs: {e}");
        h.failures += 1;
        return;
    }
    match run(rt) {
        Ok(_) => h.measure(key, || {
            run(rt).unwrap_or_else(|e| panic!("{label} on the GPU: {e}"))
        }),
        Err(e) => {
            eprintln!("{label} on the GPU: {e}");
            h.failures += 1;
        }
    }
    rt.set_config(base).expect("configuration");
}
