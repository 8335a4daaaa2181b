//! A kernel that executes `trap` makes `Gpu::sync` return `GpuError::Trap` naming it.
//!
//! A trap leaves CUDA unusable for the rest of the process, so this is its own test binary
//! and the test itself runs in a child process (`Gpu::for_fault_test`).

use gtap_host::cudarc::driver::LaunchConfig;
use gtap_host::{Gpu, GpuError};

const PTX: &str = gtap::include_ptx!();

fn a_trap_is_reported_as_a_trap() {
    let Some(gpu) = Gpu::for_fault_test("a_trap_is_reported_as_a_trap") else {
        return;
    };
    let module = gpu.load(PTX).unwrap_or_else(|e| panic!("{e}"));
    let kernel = module.kernel("trap_now").unwrap_or_else(|e| panic!("{e}"));
    let mut args = gpu.stream().launch_builder(kernel.function());
    let cfg = LaunchConfig {
        grid_dim: (4, 1, 1),
        block_dim: (64, 1, 1),
        shared_mem_bytes: 0,
    };
    // SAFETY: `trap_now` takes no arguments; trapping is what it is for.
    let launched = unsafe { args.launch(cfg) };
    let result = launched
        .map_err(|e| GpuError::launch("trap_now", e))
        .and_then(|_| gpu.sync("trap_now"));
    match result {
        Err(GpuError::Trap { kernel }) => assert_eq!(kernel, "trap_now"),
        other => panic!("expected GpuError::Trap for `trap_now`, got {other:?}"),
    }
}

gtap_host::gpu_test_main!(a_trap_is_reported_as_a_trap,);
