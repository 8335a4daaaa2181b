//! Step 2 of a thread-level round: the lanes resume their tasks, and the join protocol's
//! RMWs decide who resumes or completes whom next.

use core::pin::Pin;

use super::layout::{NONE, tuning};
use super::warp::WarpCtx;
use crate::arch::warp::sync_warp;
use crate::runtime::RunError;
use crate::runtime::join::{self, AfterReturn, AfterWait, ParentNext};
use crate::runtime::record::Record;
use crate::task::{Ctx, Program, Step};

const FULL: u32 = u32::MAX;

/// What one lane did in a round's run ([`run_lanes`]).
pub(super) struct LaneRun {
    /// Frames it resumed: its own task, then any that it resumed at once (a parent whose
    /// last child it completed, with `resume_inline`; a task whose children all ran inline).
    pub resumes: u32,
    /// Tasks it completed.
    pub completed: u32,
}

/// What a lane does next in [`run_lanes`].
#[derive(Clone, Copy, PartialEq, Eq)]
enum Next {
    /// Nothing (no task, or its task suspended or was handed on).
    Idle,
    /// Resume task `id`.
    Resume(u32),
    /// Task `id` is complete: free it and tell its parent.
    Complete(u32),
}

/// Runs the lanes' tasks (lane `i` has task `first`, or `NONE`) until each suspended for good
/// or completed, completing ancestors as the join protocol says.
///
/// The work alternates between a divergent part (resuming a frame, freeing a record) and one
/// join RMW per lane whose task completed (`atom.acq_rel.gpu.add` on its parent's join
/// counter, see [`crate::runtime::join`]), issued by all lanes that have one at the same
/// instruction. A release RMW waits for the lane's earlier writes (`MEMBAR.GPU`); issued
/// from several divergent places, those waits would run one after another, while from one
/// place they overlap. Its Acquire half replaces the fence `join` puts after a trigger,
/// which would be one more `MEMBAR.GPU`. A task that suspends at a taskwait, or returns,
/// with children of this round needs no RMW on its own counter: its children reach a queue
/// only when the round closes, so it stores their count ([`join::wait_unstarted`]), and a
/// round in which no task completes issues no RMW at all. Returns what this lane did.
///
/// # Safety
/// The whole warp calls this together; a lane's `first` task was claimed by it this round.
// Always inlined into its worker: where LLVM left it out of line (a program whose split
// task grew the worker past its inlining threshold), the call kept the worker's live values
// in local memory across it and raised the kernel's registers past an occupancy step.
#[inline(always)]
pub(super) unsafe fn run_lanes<P: Program>(w: &WarpCtx, first: u32, current: u32) -> LaneRun {
    let inline = w.run().tuning & tuning::RESUME_INLINE != 0;
    let mut next = if first == NONE {
        Next::Idle
    } else {
        Next::Resume(first)
    };
    let (mut resumes, mut completed) = (0u32, 0u32);
    loop {
        // Divergent part: run until this lane needs a join RMW (or has nothing left).
        // The parent to tell of a completion (`NONE`: none), the task to resume at once.
        let (mut tell, mut again) = (NONE, NONE);
        // The record this lane completed in this step, freed in the converged part.
        let mut freed = NONE;
        match next {
            Next::Idle => {}
            Next::Resume(id) => {
                resumes += 1;
                // SAFETY: this lane owns task `id` now (contract, or the join protocol handed it
                // to this lane).
                match unsafe { resume::<P>(w, id, &mut freed) } {
                    Resumed::Tell(parent) => {
                        completed += 1;
                        tell = parent;
                    }
                    Resumed::Again => again = id,
                    Resumed::Left => {}
                }
            }
            Next::Complete(id) => {
                completed += 1;
                // SAFETY: the join protocol chose this lane to complete task `id`.
                tell = unsafe { complete::<P>(w, id, &mut freed) };
            }
        }
        // SAFETY: every lane of the warp runs this loop until all are idle (the ballot below
        // is uniform), so the warp is converged here.
        unsafe { sync_warp(FULL) };
        // SAFETY: converged; `freed` is a record this lane completed in the step above.
        unsafe { w.free_all::<P::Task>(freed) };
        // Converged part: one release RMW per lane that completed a task, at this one
        // instruction.
        next = if again != NONE {
            Next::Resume(again)
        } else if tell != NONE {
            // SAFETY: the parent outlives its children; its join counter is an atomic.
            let j = unsafe { Record::join(w.record::<P::Task>(tell)) };
            // AcqRel (`InRmw`): the Release half is `join`'s (see its "Memory ordering"); the
            // Acquire half stands in for the fence that `join` puts after a trigger. On the
            // GPU an acquire fence is one more `MEMBAR.GPU` for the lanes that take it, while
            // the RMW's Acquire half only invalidates L1 once its value is back.
            let prev = join::rmw(j, join::step::CHILD_DELTA, join::Acquire::InRmw);
            after_child::<P>(w, tell, prev, inline, current)
        } else {
            Next::Idle
        };
        // A lane that goes on with a task whose children completed (`Resume`, `Complete`)
        // sees their results and subtrees: its RMW above was AcqRel.
        // SAFETY: converged (see above).
        let more = unsafe { crate::arch::warp::ballot(FULL, next != Next::Idle) };
        if more == 0 {
            return LaneRun { resumes, completed };
        }
    }
}

/// What a lane does after a child of `parent` completed and its RMW returned `prev`: resume
/// the parent (inline resumes, same queue) or stage it for a round, complete it, or nothing.
#[inline(always)]
fn after_child<P: Program>(
    w: &WarpCtx,
    parent: u32,
    prev: i32,
    inline: bool,
    current: u32,
) -> Next {
    match join::step::after_child(prev) {
        ParentNext::Resume => {
            // The parent waits at a taskwait and this was its last child. With one queue
            // (and no block tasks, whose queue is another) its queue is 0, checked at its
            // taskwait (`resume`): no load, which would wait for the RMW's value and then
            // for L2 (the RMW's acquire invalidated L1) before the parent could be staged.
            let q = if !P::MIXED && w.run().num_queues == 1 {
                0
            } else {
                // SAFETY: the parent's `queue` was written before its children were
                // published, acquired by ours (AcqRel) through the chain that ran this child.
                unsafe { Record::queue(w.record::<P::Task>(parent)) }
            };
            if inline && q == current {
                Next::Resume(parent)
            } else {
                w.stage(q, parent);
                Next::Idle
            }
        }
        ParentNext::Complete => Next::Complete(parent),
        ParentNext::Nothing => Next::Idle,
    }
}

/// How a lane's resume of a task ended.
enum Resumed {
    /// The task completed: tell this parent (`NONE`: there is none to tell).
    Tell(u32),
    /// The task waits at a taskwait whose children all ran inline: resume it at once.
    Again,
    /// The task suspended, or returned with children outstanding: its last child goes on.
    Left,
}

/// Resumes task `id` until it suspends or returns ([`Resumed`] says how it ended).
///
/// # Safety
/// This lane owns task `id`.
unsafe fn resume<P: Program>(w: &WarpCtx, id: u32, freed: &mut u32) -> Resumed {
    let rec = w.record::<P::Task>(id);
    // SAFETY: the task is live and ours; its header was published with it.
    let slot = unsafe { Record::result_slot(rec) };
    let mut ctx = Ctx::new(w as *const WarpCtx as *const (), id, slot);
    // A mixed program runs one root per launch: nothing to note.
    if !P::MIXED {
        super::panic::note_running(w.run(), id);
    }
    // SAFETY: the frame is pinned in its record and only this lane resumes it now.
    let step = unsafe { P::resume(Pin::new_unchecked(&mut *Record::task(rec)), &mut ctx) };
    let n = ctx.spawned;
    // The step's children, counted at their depth for the policy's wide-level rule, and the
    // task's level for the grid's estimate of the tree's width (`granularity`'s docs);
    // compiled out of programs whose every spawn is a task.
    if P::WEIGHS && w.run().granularity.on != 0 {
        // SAFETY: the task is live and ours; its header was published with it.
        super::spawn::count_level(w, unsafe { Record::depth(rec) }, n, || {
            // SAFETY: as above; this lane runs the task.
            unsafe { Record::first_step(rec) }
        });
    }
    // The step's children are staged, published when the round closes (or kept for the
    // warp's next round): none can run before this lane's writes here are visible to it.
    match step {
        Step::Wait => {
            // The queue to resume in is checked here, as on the CPU, so that a parent's
            // queue is valid when its last child stages it (with one queue, `after_child`
            // does not even load it). A bad one fails the run, and the task waits for one
            // child more than it has: it suspends for good, as after a failed spawn.
            let checked = RunError::check_queue(ctx.resume_queue, w.run().num_queues);
            let bad = checked.is_err();
            if let Err(e) = checked {
                w.fail(e);
                w.note_failed_task(id);
            }
            // SAFETY: we run the task; readers of `queue` come after its children run.
            unsafe { Record::set_queue(rec, if bad { 0 } else { ctx.resume_queue }) };
            // SAFETY: the task is live and ours; the step's children are unstarted (above).
            match unsafe { join::wait_unstarted(Record::join(rec), n + u32::from(bad)) } {
                AfterWait::Continue => Resumed::Again,
                AfterWait::Suspended => Resumed::Left,
            }
        }
        // Returned with every child of earlier epochs complete and none now: complete at
        // once, with no RMW on its own counter (see `join::finish`). Without `taskwait!` in
        // the program, a task completes when it returns: its children need not report to it
        // (termination is counted instead, see `quiescent`).
        Step::Done => {
            // SAFETY: the task is live and ours; the step's children are unstarted (above).
            let done = !P::HAS_TASKWAIT
                || unsafe { join::finish_unstarted(Record::join(rec), n) } == AfterReturn::Complete;
            if done {
                // SAFETY: every child is complete, so is the task; nobody else touches it.
                Resumed::Tell(unsafe { complete::<P>(w, id, freed) })
            } else {
                Resumed::Left
            }
        }
    }
}

/// Drops complete task `id`'s frame, hands its record to the caller's `freed` (the warp frees
/// it after the step, [`WarpCtx::free_all`]) and returns the parent whose join counter its
/// completion goes to (`NONE`: none), or marks the run done when `id` is the root.
///
/// # Safety
/// Task `id` is complete and this lane is the one the join protocol chose to complete it.
unsafe fn complete<P: Program>(w: &WarpCtx, id: u32, freed: &mut u32) -> u32 {
    let rec = w.record::<P::Task>(id);
    // SAFETY: the record is live and complete; nobody else touches it now.
    let (parent, slot) = unsafe { (Record::parent(rec), Record::result_slot(rec)) };
    // SAFETY: as above.
    unsafe { Record::drop_task(rec) };
    // Freed by the whole warp after the step (`WarpCtx::free_all`).
    *freed = id;
    if !P::HAS_TASKWAIT {
        // Nobody waits for anybody; the end is detected by counting (`quiescent`).
        return NONE;
    }
    if parent != NONE {
        return parent;
    }
    if w.run().inject != 0 {
        // A root of a resident run: its slot tells the host (the result was written above it).
        super::inject::root_completed(w, slot);
        return NONE;
    }
    // A root: the run is done when it was the last.
    w.root_completed();
    NONE
}
