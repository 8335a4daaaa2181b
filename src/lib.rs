//! gtap: GPU fork-join task parallelism in Rust. Write recursive fork-join programs as
//! tasks (`#[gtap::program]`, `#[gtap::task]`, `spawn!`, `taskwait!`) and run them on the
//! GPU, or on CPU threads where there is none, through one [`Runtime`].
//!
//! ```
//! #![feature(coroutines, coroutine_trait, type_alias_impl_trait)]
//!
//! #[gtap::program]
//! pub mod fib {
//!     #[gtap::task]
//!     pub fn fib(n: u32) -> u64 {
//!         if n < 2 {
//!             return n as u64;
//!         }
//!         let a = spawn!(fib(n - 1)); // a child task; `a` is its result handle
//!         let b = spawn!(fib(n - 2));
//!         taskwait!(); // wait for both children
//!         a.get() + b.get()
//!     }
//! }
//!
//! fn main() -> Result<(), gtap::RuntimeError> {
//!     // The CPU backend, on two worker threads. A crate whose build.rs builds its PTX
//!     // takes the GPU when there is one: `gtap::Runtime::new(gtap::include_ptx!())`.
//!     let mut rt = gtap::Runtime::cpu(gtap::CpuConfig::new().threads(2))?;
//!     println!("running on {}", rt.selection());
//!     let (value, stats) = rt.run(fib::fib(20))?;
//!     assert_eq!(value, 6765);
//!     assert_eq!(stats.backend, gtap::Backend::Cpu);
//!     println!("fib(20) = {value}: {stats}");
//!     Ok(())
//! }
//! ```
//!
//! # A crate of your own
//! gtap's `template/` folder is a starter crate to copy: its `src/lib.rs` holds the task
//! program (a `#![no_std]` library, which is what gets compiled for the GPU), its `main.rs`
//! runs it, its `build.rs` builds the PTX, and its `rust-toolchain.toml` pins the nightly
//! gtap needs. The README's "Your first program" walks through it. One dependency, twice:
//!
//! ```toml
//! [dependencies]
//! gtap = { path = "../gtap" }
//! [build-dependencies]
//! gtap = { path = "../gtap", default-features = false, features = ["build"] }
//! ```
//!
//! Host-only dependencies (rayon, clap, ...) go under
//! `[target.'cfg(not(target_arch = "nvptx64"))'.dependencies]`, so that the GPU build,
//! which has no `std`, does not compile them; the builder names any that is in the wrong
//! place.
//!
//! # What is here
//! | item | what |
//! |---|---|
//! | [`program`], [`task`], [`spawn!`], [`taskwait!`], [`slots!`] | the task language (`gtap-macros`) |
//! | [`Runtime`], [`Stats`], [`RuntimeError`] | run a program on the GPU or the CPU backend |
//! | [`GpuConfig`], [`CpuConfig`], [`Limits`] | each backend's settings; every setting's docs give its default and when to change it |
//! | [`include_ptx!`], `build` (feature `build`) | the crate's PTX: built by `build.rs`, embedded in the host program |
//! | [`host`] (`gtap-host`) | everything else on the host: the two backends on their own ([`host::gpu_runtime::GpuRuntime`], [`host::cpu::CpuRuntime`]), profiles, the GPU launcher |
//! | [`device`] (`gtap-device`) | the `no_std` runtime and PTX intrinsics that run on the GPU |
//!
//! # Features
//! - `runtime` (default): [`Runtime`] and everything host-side ([`host`]); off in the GPU
//!   build, where only the task language exists.
//! - `build`: `gtap::build` (crate `gtap-builder`), the PTX builder, for `build.rs` (a build-dependency without the
//!   default features keeps the host runtime out of the build script).
//!
//! A task crate starts with
//! `#![feature(coroutines, coroutine_trait, type_alias_impl_trait)]` (tasks are lowered to
//! rustc coroutines, see `gtap-macros`) and, to build its GPU kernels,
//! `#![cfg_attr(target_arch = "nvptx64", feature(abi_ptx))]`.

#![no_std]

pub use gtap_device as device;
#[cfg(all(feature = "runtime", not(target_arch = "nvptx64")))]
pub use gtap_host as host;

pub use gtap_device::data::{AtomicView, Plain, TeamMut, View, ViewMut};
pub use gtap_device::task::{
    AgreeDomain, Block, BlockJoined, BlockPending, Call, Joined, JoinedSlots, Pending,
    PendingSlots, Program, Step,
};
#[cfg(all(feature = "runtime", not(target_arch = "nvptx64")))]
pub use gtap_host::data::{DeviceVec, PinnedVec};
pub use gtap_macros::{Plain, program, slots, spawn, task, taskwait};

#[cfg(all(feature = "runtime", not(target_arch = "nvptx64")))]
pub use gtap_host::{
    Limits, RunError,
    cpu::CpuConfig,
    gpu_runtime::GpuConfig,
    runtime::{
        Backend, BackendChoice, BackendStats, Reason, Runtime, RuntimeBuilder, RuntimeError,
        Selection, Stats,
    },
};

/// The PTX builder for a crate's `build.rs` (crate `gtap-builder`), with feature `build`:
///
/// ```no_run
/// // The body of `fn main` in build.rs:
/// gtap::build::PtxBuilder::new(".").build_or_exit();
/// ```
#[cfg(all(feature = "build", not(target_arch = "nvptx64")))]
pub use gtap_builder as build;

/// The PTX of this crate's task programs, built by its `build.rs`
/// (`gtap::build::PtxBuilder`), embedded as a `&'static str` for
/// [`Runtime::new`](crate::Runtime::new). `include_ptx!("name")` embeds a variant built
/// with [`PtxBuilder::output_name`](https://docs.rs/gtap-builder) instead, e.g. one with the
/// lab kernels.
///
/// ```ignore
/// let mut rt = gtap::Runtime::new(gtap::include_ptx!())?;
/// ```
#[macro_export]
macro_rules! include_ptx {
    () => {
        include_str!(env!(
            "GTAP_PTX",
            "gtap::include_ptx!() embeds the PTX that the crate's build.rs builds: add a \
             build.rs with `fn main() { gtap::build::PtxBuilder::new(\".\").build_or_exit(); }` \
             and gtap (features = [\"build\"]) under [build-dependencies], as gtap's template \
             crate has"
        ))
    };
    ($name:literal) => {
        include_str!(concat!(env!("OUT_DIR"), "/", $name, ".ptx"))
    };
}

/// What task code needs in scope: `use gtap::prelude::*;`.
pub mod prelude {
    pub use gtap_device::data::{AtomicView, TeamMut, View, ViewMut};
    pub use gtap_device::task::Block;
    pub use gtap_macros::{slots, spawn, task, taskwait};
}

/// Used by the code `#[gtap::program]` generates; not a public API.
#[doc(hidden)]
pub mod __private {
    pub use gtap_device::data::assert_plain;
    #[cfg(target_arch = "nvptx64")]
    pub use gtap_device::runtime::gpu::block_worker as gpu_block_worker;
    pub use gtap_device::runtime::gpu::layout::GpuRun;
    #[cfg(target_arch = "nvptx64")]
    pub use gtap_device::runtime::gpu::mixed_worker as gpu_mixed_worker;
    #[cfg(target_arch = "nvptx64")]
    pub use gtap_device::runtime::gpu::profile::{Off as ProfileOff, On as ProfileOn};
    #[cfg(target_arch = "nvptx64")]
    pub use gtap_device::runtime::gpu::sched::{
        ByTuning as SchedByTuning, GlobalQueue as SchedGlobalQueue, OneAtATime as SchedOneAtATime,
        WorkStealing as SchedWorkStealing,
    };
    #[cfg(target_arch = "nvptx64")]
    pub use gtap_device::runtime::gpu::thread_worker as gpu_thread_worker;
    pub use gtap_device::task::checks::{frame_message, plain_task_call, plain_task_handle};
    pub use gtap_device::task::ctx::{
        assert_block_arg, assert_task_arg, assert_task_result, begin_wait, begin_wait_block,
        deliver, has_drop_glue, into_call, run_whole, runs_whole, seq_slot_taken, seq_spawn,
        seq_spawn_into, seq_wait, spawn, spawn_block, spawn_detached, spawn_into,
    };
    pub use gtap_device::task::gpu_root::{Probe, ProbeGpuRoot, ProbeHostRef};
    pub use gtap_device::task::handle::end_borrow;
    pub use gtap_device::task::split::{
        PENDING as SPLIT_PENDING, SplitBuffer, SplitBundle, SplitCalls, SplitPending, SplitStack,
        count_walked as split_count_walked, next_budget as split_next_budget,
        run_each as split_run_each, singles_for as split_singles, split_buffer, split_bundle,
    };
    pub use gtap_device::task::sum_stack::{SumBuffer, SumStack};
    pub use gtap_device::task::{
        Block, BlockPending, Ctx, PendingSlots, Slot, Slots, TaskArg, TaskResult,
    };
}
