//! The resume argument of every task frame, and the calls the generated code makes on it.
//!
//! A task's frame is a `static` coroutine resumed with a `*mut Ctx`. The backend running the
//! task (the CPU backend's worker thread, or a GPU lane) fills the `Ctx` before each resume;
//! `spawn!` and `taskwait!` expand to the `unsafe` functions below, which read it.
//! The pointer is re-read after every suspension (`ctx = yield`), because a task may resume on
//! another worker.

use super::Pending;
use super::handle::{PendingSlots, Slot};
use super::program::{Call, IntoCall, Program};

/// What a running task knows about where it runs. Filled by the backend before each resume.
///
/// Fields are written by the backend before `resume` and by the running task itself (through
/// the functions of this module); nobody else touches a `Ctx`.
#[derive(Debug)]
#[repr(C)]
pub struct Ctx {
    /// Backend state of the worker running the task (type-erased; the backend casts it back).
    pub worker: *const (),
    /// The running task's record id.
    pub record: u32,
    /// Children spawned since the task started or last passed a `taskwait!()`.
    pub spawned: u32,
    /// The EPAQ queue the task's continuation goes to after its next `taskwait!()`.
    pub resume_queue: u32,
    /// Where the running task's result goes (a [`Slot`] in its parent's frame); null when the
    /// result is discarded.
    pub result_slot: *mut u8,
    /// Block tasks: the thread of the team running this copy of the frame (0 is the leader).
    pub thread: u32,
    /// Block tasks: the `taskwait!()` the task suspended at (its position in the task's
    /// source, from 1), so the runtime can check that every thread reached the same one.
    pub wait_site: u32,
    /// Block tasks: the frame's address in its record minus the address of the copy being
    /// resumed. Each thread resumes its own copy of the frame; a result handle's slot in the
    /// leader's copy is found in the record by this shift.
    pub frame_shift: isize,
}

impl Ctx {
    /// A context for a task about to be resumed.
    pub fn new(worker: *const (), record: u32, result_slot: *mut u8) -> Ctx {
        Ctx {
            worker,
            record,
            spawned: 0,
            resume_queue: 0,
            result_slot,
            thread: 0,
            wait_site: 0,
            frame_shift: 0,
        }
    }
}

/// Checks that what `spawn!` was given is a call of a task of program `P` (one error, at the
/// user's expression, when it is not).
#[inline(always)]
pub fn into_call<'g, P: Program, C: IntoCall<'g, P>>(call: C) -> Call<'g, P, C::Output> {
    call.into_call()
}

/// Compile-time check that `T` may be a task parameter (see [`TaskArg`](super::TaskArg)).
pub fn assert_task_arg<T: super::TaskArg + ?Sized>() {}

/// Compile-time check that `T` may be a block task's parameter (see
/// [`BlockArg`](super::program::BlockArg)).
pub fn assert_block_arg<T: super::program::BlockArg + ?Sized>() {}

/// Whether `T` has drop glue, for the macro's compile-time check that a task parameter has
/// none: frames move between threads and records bytewise, and the GPU never runs a drop.
pub const fn has_drop_glue<T>() -> bool {
    core::mem::needs_drop::<T>()
}

/// Compile-time check that `T` may be a task result (see [`TaskResult`](super::TaskResult)).
pub fn assert_task_result<T: super::TaskResult + ?Sized>() {}

/// `let h = spawn!(queue(q), f(x));`: spawns `call` with its result going to `slot`. The
/// handle holds the borrows of the slot and of the call's arguments (`'c`).
///
/// # Safety
/// `ctx` is the running task's context; `slot` is in the running task's frame and is not
/// moved or reused until a `taskwait!()` covering this child has returned; the returned
/// handle is kept (and then given to [`end_borrow`](super::handle::end_borrow)) until that
/// taskwait has returned, so that what the arguments borrow lives and stays untouched
/// while the child may run (the macro's scope check and lowering guarantee all three).
#[inline(always)]
pub unsafe fn spawn<'a, 'c, P: Program, R>(
    ctx: *mut Ctx,
    slot: &'a Slot<R>,
    call: Call<'c, P, R>,
    queue: u32,
) -> Pending<'a, 'c, R> {
    // SAFETY: forwarded from this function's contract.
    if call.may_inline() && unsafe { crate::backend::run_inline::<P>(ctx, queue) } {
        let args = call.into_args();
        // SAFETY: the slot holds `R`, the called task's result type; nothing reads it before
        // the taskwait (contract), as if a child had written it. `ctx` as in the contract.
        unsafe {
            crate::backend::inline_call::<P>(ctx, true, || P::run_seq(args, slot.as_ptr().cast()))
        };
    } else {
        // SAFETY: forwarded from this function's contract.
        let task = call.into_task_split(unsafe { crate::backend::split_budget::<P>(ctx) });
        // SAFETY: forwarded from this function's contract.
        unsafe { crate::backend::spawn::<P>(ctx, task, slot.as_ptr().cast(), queue) };
    }
    Pending::__new(slot)
}

/// `spawn!(queue(q), f(x));`: spawns `call` and discards its result.
///
/// # Safety
/// `ctx` is the running task's context, and what the call's arguments borrow (`'g`) lives
/// and stays untouched until the running task is complete (the macro makes `'g` the running
/// task's own argument lifetime).
#[inline(always)]
pub unsafe fn spawn_detached<'g, P: Program, R>(ctx: *mut Ctx, call: Call<'g, P, R>, queue: u32) {
    // SAFETY: forwarded from this function's contract.
    if call.may_inline() && unsafe { crate::backend::run_inline::<P>(ctx, queue) } {
        // The result is dropped, as a detached child's is.
        // SAFETY: `ctx` as in this function's contract.
        unsafe { crate::backend::inline_call::<P>(ctx, true, || call.__run_seq().1) };
        return;
    }
    // SAFETY: forwarded from this function's contract.
    let task = call.into_task_split(unsafe { crate::backend::split_budget::<P>(ctx) });
    // SAFETY: forwarded; a null slot means the result is dropped.
    unsafe { crate::backend::spawn::<P>(ctx, task, core::ptr::null_mut(), queue) };
}

/// `spawn!(into hs, queue(q), f(x));`: spawns `call` with its result going to the next free
/// slot of `slots`. Past the capacity of `slots`, the run stops with an error.
///
/// # Safety
/// As [`spawn`], for the storage behind `slots`, whose handle holds the borrow of the
/// arguments (`'c`) until the taskwait.
#[inline(always)]
pub unsafe fn spawn_into<'c, P: Program, R, const N: usize>(
    ctx: *mut Ctx,
    slots: &PendingSlots<'_, 'c, R, N>,
    call: Call<'c, P, R>,
    queue: u32,
) {
    let next = slots.__next();
    // SAFETY: forwarded from this function's contract; asked only for a spawn that goes on.
    let inline = next.is_some()
        && call.may_inline()
        && unsafe { crate::backend::run_inline::<P>(ctx, queue) };
    match next {
        // SAFETY: a slot of `R` just handed out, read only after the taskwait; `ctx` as in
        // this function's contract.
        Some(slot) if inline => unsafe {
            let args = call.into_args();
            crate::backend::inline_call::<P>(ctx, true, || P::run_seq(args, slot.cast()))
        },
        // SAFETY: forwarded from this function's contract.
        Some(slot) => unsafe {
            let task = call.into_task_split(crate::backend::split_budget::<P>(ctx));
            crate::backend::spawn::<P>(ctx, task, slot.cast(), queue)
        },
        // SAFETY: `ctx` is the running task's context.
        None => unsafe {
            crate::backend::fail_slots_full(ctx, call.task_name(), call.task_index(), N as u32)
        },
    }
}

/// Whether the running task, at its first resume, runs to its end as its sequential version
/// ([`run_whole`]) rather than as its body: what the granularity policy would decide for a
/// spawn of one of its children into its own queue, so that where each of its spawns would
/// run inline, the task makes one call of its sequential version instead of a call per
/// child. The macro asks only for a task that names its sequential version
/// (`#[gtap::task(seq = g)]`), whose every spawn the policy weighs and none names a queue.
///
/// On a GPU the difference is more than the decisions saved: a lane that calls a child's
/// sequential version in a loop over the children waits at each call for the longest of its
/// warp's lanes' calls, where one call for the task's whole subtree waits once.
///
/// # Safety
/// `ctx` is the running task's context, at its first resume.
#[inline(always)]
pub unsafe fn runs_whole<P: Program>(ctx: *mut Ctx) -> bool {
    // SAFETY: forwarded from this function's contract.
    P::SEQ && unsafe { crate::backend::runs_whole::<P>(ctx) }
}

/// Runs `call`, the running task's own call, to its end as its sequential version, timed and
/// counted as an inline call, and returns its result (which the task returns).
///
/// # Safety
/// `ctx` is the running task's context; [`runs_whole`] said yes.
#[inline(always)]
pub unsafe fn run_whole<P: Program, R>(ctx: *mut Ctx, call: Call<'_, P, R>) -> R {
    let mut out = core::mem::MaybeUninit::<R>::uninit();
    let args = call.into_args();
    // SAFETY: `out` holds an `R`, the result type of the task `call` calls (a `Call` is made
    // only by that task's generated constructor); `ctx` as in this function's contract.
    unsafe {
        crate::backend::inline_call::<P>(ctx, false, || P::run_seq(args, out.as_mut_ptr().cast()))
    };
    // SAFETY: `run_seq` wrote the result.
    unsafe { out.assume_init() }
}

/// `taskwait!(queue(q))`, before suspending: records the continuation's queue and says
/// whether there is anything to wait for (no children since the last taskwait: no suspension).
///
/// # Safety
/// `ctx` is the running task's context.
#[inline(always)]
pub unsafe fn begin_wait(ctx: *mut Ctx, queue: u32) -> bool {
    // SAFETY: the running task owns its context.
    let ctx = unsafe { &mut *ctx };
    ctx.resume_queue = queue;
    ctx.spawned > 0
}

/// Delivers the running task's return value to its parent's slot (or drops it).
///
/// # Safety
/// `ctx` is the running task's context, and `R` is the type of the slot its parent gave.
#[inline(always)]
pub unsafe fn deliver<R>(ctx: *mut Ctx, value: R) {
    // SAFETY: the running task owns its context.
    let slot = unsafe { (*ctx).result_slot };
    if !slot.is_null() {
        // SAFETY: the parent's slot for this child has type `R` and is not read until the
        // parent's taskwait, which completes after this task does (handle.rs, memory ordering).
        unsafe { slot.cast::<R>().write(value) };
    }
}

/// `let h = spawn!(queue(q), f(x));` in a block task: a block-wide operation. Every thread
/// reaches it and gets a handle; the leader (thread 0) alone spawns the child, whose result
/// goes to the handle's slot in the frame stored in the task's record, so that after the join
/// every thread reads it from its copy of that frame.
///
/// # Safety
/// `ctx` is the running block task's context; `slot` is the handle's slot, a local of the
/// task's frame that lives until the taskwait covering this child has returned; what the
/// call's arguments borrow lives until the running task is complete (as for
/// [`spawn_detached`]).
#[inline(always)]
pub unsafe fn spawn_block<'g, P: Program, R>(
    ctx: *mut Ctx,
    slot: *mut R,
    call: Call<'g, P, R>,
    queue: u32,
) {
    // SAFETY: the running task owns its context.
    let (thread, shift) = unsafe { ((*ctx).thread, (*ctx).frame_shift) };
    // Other threads make no child: the child is the block's, spawned by its leader.
    if thread == 0 {
        let in_record = slot.cast::<u8>().wrapping_offset(shift);
        // SAFETY: forwarded from this function's contract; `in_record` is the same local in
        // the record's copy of the frame, which the leader writes back before any child runs.
        unsafe { crate::backend::spawn::<P>(ctx, call.into_task(), in_record, queue) };
    }
}

/// `taskwait!(queue(q))` in a block task, before suspending: always suspends (the threads may
/// have spawned different numbers of children, so only the runtime knows whether any are
/// outstanding), and records which taskwait this is.
///
/// # Safety
/// `ctx` is the running block task's context.
#[inline(always)]
pub unsafe fn begin_wait_block(ctx: *mut Ctx, queue: u32, site: u32) {
    // SAFETY: the running task owns its context.
    let ctx = unsafe { &mut *ctx };
    ctx.resume_queue = queue;
    ctx.wait_site = site;
}

/// `let h = spawn!(queue(q), f(x));` in a task's sequential version: the child already ran
/// (its result is `value`), so its slot is filled at once; the handle is still pending, and
/// becomes readable at the `taskwait!()` that would join it, as in the task.
///
/// # Safety
/// `slot` is empty and nothing reads it before that `taskwait!()` (the macro's scope check).
#[inline(always)]
pub unsafe fn seq_spawn<'a, R>(slot: &'a Slot<R>, value: R, queue: u32) -> Pending<'a, 'static, R> {
    let _ = queue;
    // SAFETY: the slot is empty and unread (contract).
    unsafe { slot.as_ptr().write(value) };
    Pending::__new(slot)
}

/// `spawn!(into hs, queue(q), f(x));` in a task's sequential version: the child's result
/// `value` goes to the next free slot of `slots`.
///
/// # Panics
/// If all `N` slots are taken (where the task would stop its run with `SlotsFull`).
#[inline(always)]
pub fn seq_spawn_into<R, const N: usize>(slots: &PendingSlots<'_, '_, R, N>, value: R, queue: u32) {
    let _ = queue;
    match slots.__next() {
        // SAFETY: a slot just handed out by `__next`: empty, and read only after the
        // `taskwait!()` that joins these slots.
        Some(slot) => unsafe { slot.write(value) },
        None => seq_slots_full(N),
    }
}

/// `spawn!(into hs, ..)` in a summing sequential version, which keeps no slots (the child's
/// result goes into the running sum): counts the slot the child takes of the `capacity` of
/// `hs`'s `slots!`, so that a spawn past them fails as in [`seq_spawn_into`].
///
/// # Panics
/// If `taken` already equals `capacity`.
#[inline(always)]
pub fn seq_slot_taken(taken: &mut usize, capacity: usize) {
    if *taken >= capacity {
        seq_slots_full(capacity);
    }
    *taken += 1;
}

#[cold]
#[inline(never)]
fn seq_slots_full(capacity: usize) -> ! {
    panic!(
        "spawn!(into ..) past the {capacity} slots of its slots!: raise the capacity in slots!(T; N)"
    )
}

/// `taskwait!(queue(q))` in a task's sequential version: every child already ran; the
/// queue expression is still evaluated, as in the task.
#[inline(always)]
pub fn seq_wait(queue: u32) {
    let _ = queue;
}
