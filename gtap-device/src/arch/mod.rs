//! PTX intrinsics, in three layers.
//!
//! | layer | module | what | safety |
//! |---|---|---|---|
//! | 1 | `raw` | one `#[inline(always)]` wrapper per PTX instruction, named after it (`atom_acq_rel_gpu_add_u32` is `atom.acq_rel.gpu.add.u32`) | `unsafe fn` where the instruction has a precondition |
//! | 2 | [`order`], [`ops`] | scopes and orderings as marker types; atomics, loads, stores and fences generic over them, each monomorphising to one layer-1 instruction | `unsafe fn` on raw pointers |
//! | 3 | [`atomic`], [`index`], `warp`, `barrier`, `time`, `shared`, [`copy`] | typed API: [`DeviceAtomic<T, S>`](atomic::DeviceAtomic) with safe operations, indices, warp collectives over typed values, barriers, timers, dynamic shared memory, copies in whole words | safe where the ISA allows it; collectives stay `unsafe` (convergence) |
//!
//! Why inline PTX instead of `core::sync::atomic` or LLVM's NVVM intrinsics: today's NVPTX
//! backend drops the ordering of atomic read-modify-writes and gives loads, stores and
//! fences `.sys` scope (rust-lang/rust#136480), and no Rust API names a PTX scope. Writing
//! the instruction ourselves is the only way to get `atom.acq_rel.gpu` and the like, and
//! `tests/tests/ptx_text.rs` checks the PTX of every combination. Two exceptions: the
//! index registers (`%tid`, `%ctaid`, ...) are read through `core::arch::nvptx`, so that
//! LLVM knows their ranges, and the block barriers go through LLVM's barrier intrinsics,
//! which are `convergent` (inline assembly cannot be, and LLVM was seen duplicating an
//! inline `bar.sync 0` into two branches, which breaks the aligned barrier's rule that a
//! warp's threads meet at one instruction).
//!
//! Everything except the plain types ([`order`], [`index::Dim3`], [`atomic::DeviceAtomic`],
//! [`ops::AtomicInt`] and [`ops::fence`]) and the word copies ([`copy`]), which also work on
//! the host, exists only on `nvptx64`; so do the modules named without links here (build
//! the docs with `--target nvptx64-nvidia-cuda` to see them).
//!
//! All of it targets `sm_70` and PTX ISA 6.3 or later (Volta's memory model and independent
//! thread scheduling; `nanosleep`), the builder's default target.

pub mod atomic;
pub mod copy;
pub mod index;
pub mod ops;
pub mod order;

#[cfg(target_arch = "nvptx64")]
pub mod barrier;
#[cfg(target_arch = "nvptx64")]
pub mod raw;
#[cfg(target_arch = "nvptx64")]
pub mod shared;
#[cfg(target_arch = "nvptx64")]
pub mod time;
#[cfg(target_arch = "nvptx64")]
pub mod warp;

/// Threads per warp on every NVIDIA GPU so far (here rather than in `warp`, which exists
/// only on the GPU, for the host-compiled code that sizes things by it).
pub const WARP_SIZE: u32 = 32;

pub use atomic::{
    DeviceAtomic, DeviceAtomicI32, DeviceAtomicI64, DeviceAtomicU32, DeviceAtomicU64,
};
pub use ops::{AtomicInt, fence};
pub use order::{
    AcqRel, Acquire, Cta, FenceOrdering, Gpu, LoadOrdering, Ordering, Relaxed, Release,
    RmwOrdering, Scope, SeqCst, StoreOrdering, Sys,
};

/// Stops the kernel with an illegal-instruction error (`trap`). On the host: panics.
///
/// The whole grid ends and the CUDA context is unusable afterwards; the host reports it as a
/// trap. The device panic handler calls this.
#[inline(always)]
pub fn trap() -> ! {
    #[cfg(target_arch = "nvptx64")]
    raw::time::trap();
    #[cfg(not(target_arch = "nvptx64"))]
    panic!("gtap: trap")
}
