//! gtap's device runtime, `#![no_std]`.
//!
//! Compiled for `nvptx64-nvidia-cuda` it is the code that runs on the GPU; compiled for the
//! host it provides the same types to host code (and, later, drives the CPU backend).
//!
//! | module | what |
//! |---|---|
//! | [`arch`] | PTX intrinsics in three layers: raw inline PTX, scope/ordering-parameterised operations, typed API |
//! | [`task`] | the task model the macros lower to: frames, handles, the resume context |
//! | [`data`] | views of arrays and arrays of atomics that tasks share, on both backends |
//!
//! Nothing here uses `core::sync::atomic` on the device: the NVPTX backend drops the ordering
//! of read-modify-write operations and gives loads, stores and fences `.sys` scope
//! (rust-lang/rust#136480). Every device atomic is written as inline PTX in [`arch`].

#![no_std]
// `task::gpu_root::NoRef`: an auto trait that finds references in a root task's arguments.
#![feature(auto_traits, negative_impls)]
// Block tasks on the CPU backend find their team through a thread-local (task::block).
#![cfg_attr(not(target_arch = "nvptx64"), feature(thread_local))]
#![cfg_attr(
    target_arch = "nvptx64",
    feature(
        asm_experimental_arch,
        stdarch_nvptx,
        // The block-barrier intrinsics, which LLVM knows to be `convergent` (arch::raw::barrier).
        link_llvm_intrinsics,
        // `${concat(..)}` in the macros that generate one wrapper per PTX instruction form.
        macro_metavar_expr_concat,
        // `core::intrinsics::gpu::gpu_launch_sized_workgroup_mem` (dynamic shared memory).
        core_intrinsics,
        gpu_intrinsics,
        gpu_launch_sized_workgroup_mem,
    ),
    allow(internal_features)
)]

pub mod arch;
mod backend;
pub mod data;
pub mod runtime;
pub mod task;

/// On the GPU a panic traps: the kernel stops with `CUDA_ERROR_LAUNCH_FAILED`, which the host
/// reports as a trap, and which is the only way to end a whole grid at once. Before it traps,
/// the first panicking thread writes where it panicked into the run's panic report (mapped
/// host memory, see `runtime::gpu::layout::PanicReport`), so the host can say where.
#[cfg(target_arch = "nvptx64")]
#[panic_handler]
fn panic(info: &core::panic::PanicInfo<'_>) -> ! {
    runtime::gpu::report_panic(info);
    arch::trap()
}
