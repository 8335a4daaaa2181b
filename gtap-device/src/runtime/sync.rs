//! The atomics facade every runtime protocol is written over.
//!
//! The deque, the pool's free stack, the join counters and the termination flags use only
//! what this module exports, and only this surface:
//!
//! | item | operations |
//! |---|---|
//! | [`AtomicU32`], [`AtomicI32`], [`AtomicU64`] | `new`, `load`, `store`, `fetch_add`, `fetch_sub`, `compare_exchange`, `swap` |
//! | [`fence`] | `Release`, `Acquire`, `AcqRel` |
//! | [`spin_loop`] | a busy-wait hint |
//!
//! Three implementations plug in here:
//!
//! - on the host, `core::sync::atomic` (the CPU backend and the ordinary unit tests);
//! - under `cfg(loom)`, loom's model-checked types, so `cargo test --lib loom` explores every
//!   interleaving and every stale read the C++ memory model allows;
//! - on the GPU, inline-PTX atomics with explicit `.gpu` scope (see the crate docs for why
//!   `core::sync::atomic` cannot be used there). Until those land in [`crate::arch`], the
//!   nvptx64 build re-exports `core::sync::atomic` only so that the crate compiles; no kernel
//!   runs the runtime yet.
//!
//! Keep the surface small: everything added here must also be written in PTX.

#[cfg(not(loom))]
pub use core::sync::atomic::{AtomicI32, AtomicU32, AtomicU64, Ordering, fence};

#[cfg(loom)]
pub use loom::sync::atomic::{AtomicI32, AtomicU32, AtomicU64, Ordering, fence};

/// Tells the processor (or loom's scheduler) that the caller is busy-waiting.
#[inline(always)]
pub fn spin_loop() {
    #[cfg(not(loom))]
    core::hint::spin_loop();
    #[cfg(loom)]
    loom::thread::yield_now();
}
