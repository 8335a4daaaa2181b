//! The device side of `spawn!` for thread-level workers, and its failure paths.

use super::warp::WarpCtx;
use crate::runtime::RunError;
use crate::runtime::record::Record;
use crate::task::{Ctx, Program};

/// The device side of `spawn!`: allocates a record from the warp's slab, fills it, stages it
/// in queue `queue`, and counts it in `ctx.spawned`.
///
/// # Safety
/// As `crate::backend::spawn`: `ctx` is the context this runtime gave the running task.
#[inline(always)]
pub unsafe fn spawn<P: Program>(ctx: *mut Ctx, task: P::Task, result_slot: *mut u8, queue: u32) {
    // SAFETY: the running task's context (contract).
    let ctx = unsafe { &mut *ctx };
    // SAFETY: `worker` is the `WarpCtx` this lane's `run_task` put there.
    let w = unsafe { &*(ctx.worker as *const WarpCtx) };
    ctx.spawned += 1;
    if ctx.spawned > P::MAX_CHILDREN {
        let me = w.record::<P::Task>(ctx.record);
        // SAFETY: the running task's own, live record.
        let index = P::task_index(unsafe { &*Record::task(me) });
        w.fail(RunError::TooManyChildren {
            task: index,
            limit: P::MAX_CHILDREN,
        });
        return;
    }
    if queue >= w.run().num_queues {
        w.fail(RunError::BadQueue {
            queue,
            num_queues: w.run().num_queues,
        });
        return;
    }
    let Some(id) = w.alloc() else { return };
    let rec = w.record::<P::Task>(id);
    // A program without `taskwait!` never reads a child's result, and the parent may be gone
    // when the child returns: no slot.
    let result_slot = if P::HAS_TASKWAIT {
        result_slot
    } else {
        core::ptr::null_mut()
    };
    // SAFETY: a record just taken from this warp's slab: free and ours; it is published to
    // other warps only by the round's push (release fence).
    unsafe { Record::fill(rec, ctx.record, result_slot, queue, task) };
    w.stage(queue, id);
}

/// `spawn!(into hs, ..)` with `hs` full: stops the run with an error.
///
/// # Safety
/// As [`spawn`].
#[cold]
#[inline(never)]
pub unsafe fn fail_slots_full(ctx: *mut Ctx, task_index: u32, capacity: u32) {
    // SAFETY: as in `spawn`.
    let w = unsafe { &*((*ctx).worker as *const WarpCtx) };
    w.fail(RunError::SlotsFull {
        task: task_index,
        capacity,
    });
}
