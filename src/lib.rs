//! gtap: GPU fork-join task parallelism in Rust. This facade re-exports the user-facing API.
//!
//! | crate | what |
//! |---|---|
//! | [`device`] (`gtap-device`) | `no_std` device runtime, task model and PTX intrinsics |
//! | [`host`] (`gtap-host`, not on the GPU) | loading PTX, launching kernels, the CPU backend |
//! | `gtap-macros` | [`program`], [`task`], [`spawn!`], [`taskwait!`], [`slots!`] |
//!
//! A task crate starts with
//! `#![feature(coroutines, coroutine_trait, type_alias_impl_trait)]` (tasks are lowered to
//! rustc coroutines, see `gtap-macros`) and, to build its GPU kernels,
//! `#![cfg_attr(target_arch = "nvptx64", feature(abi_ptx))]`.

#![no_std]

pub use gtap_device as device;
#[cfg(not(target_arch = "nvptx64"))]
pub use gtap_host as host;

pub use gtap_device::data::{AtomicView, Plain, View, ViewMut};
pub use gtap_device::task::{
    Block, BlockJoined, BlockPending, Call, Joined, JoinedSlots, Pending, PendingSlots, Program,
    Step,
};
#[cfg(not(target_arch = "nvptx64"))]
pub use gtap_host::data::DeviceVec;
pub use gtap_macros::{Plain, program, slots, spawn, task, taskwait};

/// What task code needs in scope: `use gtap::prelude::*;`.
pub mod prelude {
    pub use gtap_device::data::{AtomicView, View, ViewMut};
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
    pub use gtap_device::runtime::gpu::profile::{Off as ProfileOff, On as ProfileOn};
    #[cfg(target_arch = "nvptx64")]
    pub use gtap_device::runtime::gpu::sched::{
        ByTuning as SchedByTuning, GlobalQueue as SchedGlobalQueue, OneAtATime as SchedOneAtATime,
        WorkStealing as SchedWorkStealing,
    };
    #[cfg(target_arch = "nvptx64")]
    pub use gtap_device::runtime::gpu::thread_worker as gpu_thread_worker;
    pub use gtap_device::task::ctx::{
        assert_block_arg, assert_task_arg, assert_task_result, begin_wait, begin_wait_block,
        deliver, has_drop_glue, into_call, seq_spawn, seq_spawn_into, seq_wait, spawn, spawn_block,
        spawn_detached, spawn_into,
    };
    pub use gtap_device::task::gpu_root::{Probe, ProbeGpuRoot, ProbeHostRef};
    pub use gtap_device::task::handle::end_borrow;
    pub use gtap_device::task::{
        Block, BlockPending, Ctx, PendingSlots, Slot, Slots, TaskArg, TaskResult,
    };
}
