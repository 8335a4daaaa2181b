//! The GPU runtime with thread-level workers (GTaP sections 4.1 to 4.3 and 4.5).
//!
//! One persistent kernel per program. Every warp is a worker that runs up to 32 tasks per
//! round, one per lane. Each round:
//!
//! 1. **Take a batch.** The tasks the warp kept from its last round (up to 32, never
//!    published), then a warp-cooperative *pop batch* from its own deque (lane 0 claims up to
//!    `32 - kept` entries by CAS on `count`, the lanes read the ids in parallel), trying its
//!    EPAQ queues round-robin from the one the last round chose; if all are empty, a *steal batch* from a
//!    random victim (lane 0 takes the victim's steal lock and claims up to 32 entries, the
//!    lanes read them at the victim's `head`, lane 0 advances `head` and unlocks). With
//!    `GpuConfig::top_up`, a batch its own deque left short is filled up by a steal from
//!    the same queue of another warp, as GTaP does (its own entries in the first lanes).
//! 2. **Run.** Each lane with a task resumes its frame (`Program::resume`), then applies the
//!    join protocol ([`crate::runtime::join`]): a task that returned completes (maybe its
//!    parent too, up the tree), a task at a taskwait either goes on at once (its children all
//!    ran inline) or stays suspended until its last child re-enqueues it. Since its children
//!    are only published in step 3, a task's own taskwait or return stores the count of its
//!    children rather than adding it by RMW (`join::wait_unstarted`); only completions RMW.
//! 3. **Publish.** Spawned children and re-enqueued parents were written during the round
//!    into the ring above the owner's `tail`, unpublished. The warp picks the next round's
//!    queue (with EPAQ: the next one, round-robin, that holds a whole batch), keeps the newest
//!    `keep_max` (default 32) of its new tasks for itself and *push batches* the rest:
//!    `count += n` per queue, one release RMW (or, when several queues publish, one release
//!    fence and relaxed adds).
//!
//! Task records come from the warp's own slab (no global counter per spawn): a free stack
//! the warp alone uses, a bump pointer into never-used records, and a lock-free list on
//! which other warps return records they freed (pushed by CAS, taken whole by exchange, so
//! there is no ABA). Lane 0 takes that list when its free stack runs low; after finding it
//! empty it leaves it for a few rounds while the slab has never-used records to spare (in a
//! recursion's first descent nothing is freed, and each look is an L2 round trip). Records freed by their own warp go straight back to its stack at the end
//! of the round. Lanes complete tasks in the divergent part of a step; the whole warp frees
//! them together after the step's barrier (`WarpCtx::free_all`), because a warp collective
//! run by an `activemask` group inside divergent code deadlocked (see there).
//!
//! A program with no `taskwait!()` anywhere (`Program::HAS_TASKWAIT == false`, which the
//! macro works out) skips the join protocol altogether: nobody ever waits, so a task completes
//! when it returns, with no RMW on its parent's counter, and its children get no result slot.
//! Such a run ends when every task spawned has completed: each warp publishes how many tasks
//! it spawned and completed after each round, and warp 0, when idle, sums them
//! (`worker::quiescent` argues why equal sums mean the end).
//!
//! The run ends when the root task completes ([`crate::runtime::termination`]'s argument
//! holds unchanged: completion is tree-shaped, so the root completes after every task), or
//! when a warp records an error or the host asks it to stop. No grid barrier is needed, so
//! the kernel is correct whatever the number of resident blocks.
//!
//! A resident session's kernel (`GpuRuntime::resident` on the host) is the same thread kernel
//! launched with no roots: its idle warps take roots from an injection ring the host fills
//! while the kernel runs, each root's completion goes to a slot in host memory, and the
//! kernel ends when the host asked it to and every root it published has completed
//! (`inject`, whose docs give the protocol and its system-scope ordering). Block and mixed
//! programs, and programs without `taskwait!`, have no resident mode (the host refuses them).
//!
//! The lab kernels run the same loop with the per-warp timeline profiler on
//! (`gtap_<name>_profiled`; `profile`: one event per round per warp, for the host to export)
//! or under an ablation scheduler (`sched`); they exist only in PTX built with
//! `--cfg gtap_lab`, and the plain kernel's code does not change with them.
//!
//! # Memory ordering and scope
//! The deque, join and free-list protocols are the shared ones ([`crate::runtime::deque`],
//! [`crate::runtime::join`]), run over the `.gpu`-scope atomics facade: every warp of the
//! grid may take part. Two more edges are GPU-specific, both inside one warp:
//! - a lane's writes during a round (ring entries, records) and lane 0's publishing at the
//!   round's end are separated by `bar.warp.sync`, which orders memory among the warp's
//!   lanes; lane 0's release fence is cumulative, so thieves that acquire the new `count`
//!   see the other lanes' writes too;
//! - per-warp bookkeeping in shared memory (tails, staging counters, the free stack pointer)
//!   is written by lane 0 between rounds and read or bumped by lanes during a round; the
//!   `bar.warp.sync` at each round boundary orders both, and the bumps are `.cta` atomics.

// Host-compiled for its unit tests; only the kernel uses it.
#[cfg_attr(not(target_arch = "nvptx64"), allow(dead_code))]
mod batch;
pub mod layout;
pub mod profile;

#[cfg(target_arch = "nvptx64")]
mod block_worker;
#[cfg(target_arch = "nvptx64")]
mod close;
#[cfg(target_arch = "nvptx64")]
mod global_queue;
#[cfg(target_arch = "nvptx64")]
mod inject;
#[cfg(target_arch = "nvptx64")]
mod lanes;
#[cfg(target_arch = "nvptx64")]
mod mixed;
pub mod sched;
#[cfg(target_arch = "nvptx64")]
mod spawn;
#[cfg(target_arch = "nvptx64")]
mod take;
#[cfg(target_arch = "nvptx64")]
mod warp;
#[cfg(target_arch = "nvptx64")]
mod worker;

#[cfg(target_arch = "nvptx64")]
mod panic;

#[cfg(target_arch = "nvptx64")]
pub use block_worker::block_worker;
#[cfg(target_arch = "nvptx64")]
pub use mixed::mixed_worker;
#[cfg(target_arch = "nvptx64")]
pub use panic::{report_panic, set_sink};
#[cfg(target_arch = "nvptx64")]
pub use spawn::{
    fail_slots_full, inline_end, inline_start, run_inline, runs_whole, spawn, split_budget,
    split_singles, split_walked,
};
#[cfg(target_arch = "nvptx64")]
pub use worker::thread_worker;
