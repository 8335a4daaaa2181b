//! Layer 3: dynamic shared memory (the launch-sized per-block buffer, CUDA's
//! `extern __shared__`).
//!
//! The launch sets its size (`shared_mem_bytes`); the kernel gets one base address, the
//! same in every call and for every `T`. Carving it up between uses is the kernel's job.

use super::raw::{smem, sreg};

/// The base of the block's dynamic shared memory, aligned for `T`.
///
/// Uninitialised at kernel start; valid for [`dynamic_shared_memory_bytes`] bytes and only
/// inside this block. Accesses to it from several threads need the usual synchronisation
/// (a barrier, or atomics at `.cta` scope).
#[inline(always)]
pub fn dynamic_shared_memory<T>() -> *mut T {
    smem::dynamic_shared_memory::<T>()
}

/// The size of the block's dynamic shared memory in bytes, as the launch set it
/// (`%dynamic_smem_size`).
#[inline(always)]
pub fn dynamic_shared_memory_bytes() -> u32 {
    sreg::dynamic_smem_size()
}

/// The number of `T`s that fit in the block's dynamic shared memory.
#[inline(always)]
pub fn dynamic_shared_memory_len<T>() -> usize {
    dynamic_shared_memory_bytes() as usize / core::mem::size_of::<T>().max(1)
}
