//! What the block and mixed programs' benchmarks (`granularity`'s `gpu-block` and
//! `gpu-mixed` rows, `graph`) share: their GPU configurations, and a measurement that says
//! once, instead of panicking, when the GPU runtime cannot run a program under one.
//!
//! A block program's configuration is the harness's, with `--bp-block`, `--bp-grid`,
//! `--bp-tasks` and `--bp-queue` where given (GTaP ran its block BFS on 4000 blocks of 32
//! threads, its trees on 1000 of 64), and the scratch memory the block reductions need. A
//! mixed program's is the harness's with blocks of the family's `--team` threads (a block
//! task's team is the whole block), its records and queue entries per warp where the family
//! sets them, and the same scratch.

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
    with_reduction_scratch(config)
}

/// `base` made ready for mixed programs: blocks of `team` threads, and `room` task records
/// and queue entries per warp where given.
pub fn mixed_config(base: &GpuConfig, team: u32, room: Option<u32>) -> GpuConfig {
    let mut config = base.clone().block(team);
    if let Some(r) = room {
        config = config.tasks_per_warp(r).queue_capacity(r);
    }
    with_reduction_scratch(config)
}

/// `config` with at least the scratch memory a block reduction needs on its blocks.
fn with_reduction_scratch(config: GpuConfig) -> GpuConfig {
    let needed = gpu_scratch_needed(config.launch().block()) as u32;
    let scratch = config.limits().block_scratch().max(needed);
    config.block_scratch(scratch)
}

/// Measures `run` (one GPU run of a block program, its result checked) as the row `key`
/// (backend `gpu-block`), under [`block_config`].
pub fn measure_block(
    h: &mut Harness,
    rt: &mut GpuRuntime,
    args: &GpuArgs,
    key: Key,
    run: impl FnMut(&mut GpuRuntime) -> Result<Sample, GpuRunError>,
) {
    let config = block_config(rt.config(), args);
    measure_under(h, rt, config, key, run);
}

/// Measures `run` (one GPU run, its result checked) as the row `key` under `config`; the
/// runtime's configuration is restored afterwards. A first run decides: an error (a
/// configuration the GPU cannot launch, a limit the run hits) is said once, counts as a
/// failure of the harness, and nothing is measured.
pub fn measure_under(
    h: &mut Harness,
    rt: &mut GpuRuntime,
    config: GpuConfig,
    key: Key,
    mut run: impl FnMut(&mut GpuRuntime) -> Result<Sample, GpuRunError>,
) {
    let label = key.label();
    let base = rt.config().clone();
    if let Err(e) = rt.set_config(config) {
        eprintln!("{label}: no such configuration: {e}");
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
