//! Where `spawn!` goes: the backend running the current task.
//!
//! The task model ([`crate::task`]) calls these two functions and nothing else of a backend.
//! On the host they go to the CPU backend (`crate::runtime::cpu`); on the GPU to the
//! thread-level runtime (`crate::runtime::gpu`).

use crate::task::{Ctx, Program};

/// Spawns `task` as a child of the running task: allocates a record, fills it, enqueues it,
/// and counts it in `(*ctx).spawned`. Failures (pool or queue full, too many children, a bad
/// queue index) stop the run with an error; the task itself goes on until its next taskwait,
/// where it suspends for good.
///
/// # Safety
/// - `ctx` is the context the backend gave the running task of program `P`, and the task is
///   being resumed by that backend right now.
/// - `result_slot` is null, or valid for one write of the child's result type until the
///   taskwait of the running task that covers this child has returned.
#[inline(always)]
pub(crate) unsafe fn spawn<P: Program>(
    ctx: *mut Ctx,
    task: P::Task,
    result_slot: *mut u8,
    queue: u32,
) {
    #[cfg(not(target_arch = "nvptx64"))]
    // SAFETY: forwarded from this function's contract.
    unsafe {
        crate::runtime::cpu::spawn::<P>(ctx, task, result_slot, queue)
    }
    #[cfg(target_arch = "nvptx64")]
    // SAFETY: forwarded from this function's contract.
    unsafe {
        crate::runtime::gpu::spawn::<P>(ctx, task, result_slot, queue)
    }
}

/// Whether a spawn of the running task into `queue` runs the child inline (its sequential
/// version, now) instead of making it a task: the granularity policy
/// ([`crate::runtime::granularity`]) over what the backend sees; counted in the run's
/// statistics when it does. Only asked for programs with sequential versions.
///
/// # Safety
/// As [`spawn`].
#[inline(always)]
pub(crate) unsafe fn run_inline<P: Program>(ctx: *mut Ctx, queue: u32) -> bool {
    #[cfg(not(target_arch = "nvptx64"))]
    // SAFETY: forwarded from this function's contract.
    unsafe {
        crate::runtime::cpu::run_inline::<P>(ctx, queue)
    }
    #[cfg(target_arch = "nvptx64")]
    // SAFETY: forwarded from this function's contract.
    unsafe {
        crate::runtime::gpu::run_inline::<P>(ctx, queue)
    }
}

/// The budget of the split task started for a spawn of the running task that becomes a
/// task ([`crate::task::split`]): the granularity policy's `split_budget` while it is on,
/// else 0 (no split). Zero at no cost for a program without split tasks.
///
/// # Safety
/// As [`spawn`].
#[inline(always)]
pub(crate) unsafe fn split_budget<P: Program>(ctx: *mut Ctx) -> u32 {
    #[cfg(not(target_arch = "nvptx64"))]
    // SAFETY: forwarded from this function's contract.
    unsafe {
        crate::runtime::cpu::split_budget::<P>(ctx)
    }
    #[cfg(target_arch = "nvptx64")]
    // SAFETY: forwarded from this function's contract.
    unsafe {
        crate::runtime::gpu::split_budget::<P>(ctx)
    }
}

/// The oldest pending calls a split task makes tasks of one by one before it bundles the
/// others: the run's granularity policy's `split_singles` ([`crate::task::split`]).
///
/// # Safety
/// As [`spawn`].
#[inline(always)]
pub(crate) unsafe fn split_singles<P: Program>(ctx: *mut Ctx) -> u32 {
    #[cfg(not(target_arch = "nvptx64"))]
    // SAFETY: forwarded from this function's contract.
    unsafe {
        crate::runtime::cpu::split_singles::<P>(ctx)
    }
    #[cfg(target_arch = "nvptx64")]
    // SAFETY: forwarded from this function's contract.
    unsafe {
        crate::runtime::gpu::split_singles::<P>(ctx)
    }
}

/// Counts `calls` that a split task walked ([`crate::task::split`]) in the run's statistics,
/// as spawns run inline.
///
/// # Safety
/// As [`spawn`].
#[inline(always)]
pub(crate) unsafe fn split_walked<P: Program>(ctx: *mut Ctx, calls: u32) {
    #[cfg(not(target_arch = "nvptx64"))]
    // SAFETY: forwarded from this function's contract.
    unsafe {
        crate::runtime::cpu::split_walked::<P>(ctx, calls)
    }
    #[cfg(target_arch = "nvptx64")]
    // SAFETY: forwarded from this function's contract.
    unsafe {
        let _ = core::marker::PhantomData::<P>;
        crate::runtime::gpu::split_walked(ctx, calls)
    }
}

/// Whether the running task, at its first resume, runs whole as its sequential version:
/// [`run_inline`] for a child of it into its own queue (`crate::task::ctx::runs_whole`);
/// counted in the run's statistics as a spawn run inline when it does.
///
/// # Safety
/// As [`spawn`].
#[inline(always)]
pub(crate) unsafe fn runs_whole<P: Program>(ctx: *mut Ctx) -> bool {
    #[cfg(not(target_arch = "nvptx64"))]
    // SAFETY: forwarded from this function's contract.
    unsafe {
        crate::runtime::cpu::runs_whole::<P>(ctx)
    }
    #[cfg(target_arch = "nvptx64")]
    // SAFETY: forwarded from this function's contract.
    unsafe {
        crate::runtime::gpu::runs_whole::<P>(ctx)
    }
}

/// Runs `call`, the sequential version of a child of program `P` that [`run_inline`] said
/// to run inline (`itself`), or of the running task that [`runs_whole`] said to run whole,
/// which returns how many spawns it ran as plain calls below it, or
/// [`UNCOUNTED`](crate::task::program::UNCOUNTED) ([`Program::run_seq`]), and tells the
/// backend how long it took and how many tasks it saved: the spawns below, and the inlined
/// child `itself` (the GPU's policy weighs a warp's inline calls against its rounds and by
/// the tasks they saved; the CPU's does not time them).
///
/// # Safety
/// As [`spawn`].
#[inline(always)]
pub(crate) unsafe fn inline_call<P: Program>(
    ctx: *mut Ctx,
    itself: bool,
    call: impl FnOnce() -> u32,
) {
    #[cfg(not(target_arch = "nvptx64"))]
    {
        // The CPU does not time its inline calls, nor read what they return.
        let _ = (ctx, itself, core::marker::PhantomData::<P>);
        call();
    }
    #[cfg(target_arch = "nvptx64")]
    {
        // SAFETY: forwarded from this function's contract.
        unsafe { crate::runtime::gpu::inline_start(ctx) };
        let (below, uncounted) = crate::task::program::seq_spawns::<P>(call());
        let saved = below.saturating_add(u32::from(itself));
        // SAFETY: forwarded from this function's contract.
        unsafe { crate::runtime::gpu::inline_end(ctx, saved, uncounted) };
    }
}

/// `spawn!(into hs, ..)` found all `capacity` slots of `hs` taken while spawning `task_name`:
/// stops the run with an error. The running task goes on until its next taskwait, where it
/// suspends for good.
///
/// # Safety
/// `ctx` is the context the backend gave the running task, which the backend is resuming
/// right now.
#[inline(never)]
#[cold]
pub(crate) unsafe fn fail_slots_full(
    ctx: *mut Ctx,
    task_name: &'static str,
    task_index: u32,
    capacity: u32,
) {
    #[cfg(not(target_arch = "nvptx64"))]
    // SAFETY: forwarded from this function's contract.
    unsafe {
        crate::runtime::cpu::fail_slots_full(ctx, task_name, capacity)
    }
    #[cfg(not(target_arch = "nvptx64"))]
    let _ = task_index;
    #[cfg(target_arch = "nvptx64")]
    // SAFETY: forwarded from this function's contract.
    unsafe {
        let _ = task_name;
        crate::runtime::gpu::fail_slots_full(ctx, task_index, capacity)
    }
}
