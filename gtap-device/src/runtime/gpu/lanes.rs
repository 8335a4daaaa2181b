//! Step 2 of a thread-level round: the lanes resume their tasks, and the join protocol's
//! RMWs decide who resumes or completes whom next.

use core::pin::Pin;

use super::layout::{NONE, tuning};
use super::warp::WarpCtx;
use crate::arch::warp::sync_warp;
use crate::runtime::join::{self, AfterReturn, AfterWait, ParentNext};
use crate::runtime::record::Record;
use crate::task::{Ctx, Program, Step};

const FULL: u32 = u32::MAX;

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

/// What a lane's join RMW is for, to interpret the old value it returns.
#[derive(Clone, Copy)]
enum Rmw {
    /// `wait`: task `id` added its `n` children at a taskwait.
    Wait { id: u32, n: u32 },
    /// `finish`: task `id` returned with `n` children not waited for.
    Finish { id: u32, n: u32 },
    /// `child_completed`: a child of `parent` completed.
    Child { parent: u32 },
}

/// Runs the lanes' tasks (lane `i` has task `first`, or `NONE`) until each suspended for good
/// or completed, completing ancestors as the join protocol says.
///
/// The work alternates between a divergent part (resuming a frame, freeing a record) and one
/// join RMW per lane (`atom.acq_rel.gpu.add` on a join counter, see
/// [`crate::runtime::join`]), issued by all lanes that have one at the same instruction. A
/// release RMW waits for the lane's earlier writes (`MEMBAR.GPU`); issued from several
/// divergent places, those waits would run one after another, while from one place they
/// overlap. Its Acquire half replaces the fence `join` puts after a trigger, which would be
/// one more `MEMBAR.GPU`. Returns (resumes, tasks completed) for this lane.
///
/// # Safety
/// The whole warp calls this together; a lane's `first` task was claimed by it this round.
pub(super) unsafe fn run_lanes<P: Program>(w: &WarpCtx, first: u32, current: u32) -> (u32, u32) {
    let inline = w.run().tuning & tuning::RESUME_INLINE != 0;
    let mut next = if first == NONE {
        Next::Idle
    } else {
        Next::Resume(first)
    };
    let (mut resumes, mut completed) = (0u32, 0u32);
    loop {
        // Divergent part: run until this lane needs a join RMW (or has nothing left).
        let mut rmw = None;
        // The record this lane completed in this step, freed in the converged part.
        let mut freed = NONE;
        match next {
            Next::Idle => {}
            Next::Resume(id) => {
                resumes += 1;
                // SAFETY: this lane owns task `id` now (contract, or the join protocol handed it
                // to this lane).
                let (r, done) = unsafe { resume::<P>(w, id, &mut freed) };
                rmw = r;
                completed += u32::from(done);
            }
            Next::Complete(id) => {
                completed += 1;
                // SAFETY: the join protocol chose this lane to complete task `id`.
                rmw = unsafe { complete::<P>(w, id, &mut freed) };
            }
        }
        // SAFETY: every lane of the warp runs this loop until all are idle (the ballot below
        // is uniform), so the warp is converged here.
        unsafe { sync_warp(FULL) };
        // SAFETY: converged; `freed` is a record this lane completed in the step above.
        unsafe { w.free_all::<P::Task>(freed) };
        // Converged part: one release RMW per lane that needs one, at this one instruction.
        let mut prev = 0;
        let (target, delta) = match rmw {
            Some(Rmw::Wait { id, n }) => (id, join::step::wait_delta(n)),
            Some(Rmw::Finish { id, n }) => (id, join::step::finish_delta(n)),
            Some(Rmw::Child { parent }) => (parent, join::step::CHILD_DELTA),
            None => (NONE, 0),
        };
        if target != NONE {
            // SAFETY: the record is live (the task itself, or a parent that outlives its
            // children); its join counter is an atomic.
            let j = unsafe { Record::join(w.record::<P::Task>(target)) };
            // AcqRel (`InRmw`): the Release half is `join`'s (see its "Memory ordering"); the
            // Acquire half stands in for the fence that `join` puts after a trigger. On the
            // GPU an acquire fence is one more `MEMBAR.GPU` for the lanes that take it, while
            // the RMW's Acquire half only invalidates L1 once its value is back.
            prev = join::rmw(j, delta, join::Acquire::InRmw);
        }
        next = match rmw {
            None => Next::Idle,
            Some(Rmw::Wait { id, n }) => match join::step::after_wait(prev, n) {
                AfterWait::Continue => Next::Resume(id),
                AfterWait::Suspended => Next::Idle,
            },
            Some(Rmw::Finish { id, n }) => match join::step::after_finish(prev, n) {
                AfterReturn::Complete => Next::Complete(id),
                AfterReturn::Pending => Next::Idle,
            },
            Some(Rmw::Child { parent }) => match join::step::after_child(prev) {
                ParentNext::Resume => {
                    // The parent waits at a taskwait and this was its last child.
                    // SAFETY: the parent's `queue` was written before its join RMW, acquired
                    // by ours (AcqRel).
                    let q = unsafe { Record::queue(w.record::<P::Task>(parent)) };
                    if inline && q == current {
                        Next::Resume(parent)
                    } else {
                        w.stage(q, parent);
                        Next::Idle
                    }
                }
                ParentNext::Complete => Next::Complete(parent),
                ParentNext::Nothing => Next::Idle,
            },
        };
        // A lane that goes on with a task whose children completed (`Resume`, `Complete`)
        // sees their results and subtrees: its RMW above was AcqRel.
        // SAFETY: converged (see above).
        let more = unsafe { crate::arch::warp::ballot(FULL, next != Next::Idle) };
        if more == 0 {
            return (resumes, completed);
        }
    }
}

/// Resumes task `id` until it suspends or returns; returns the join RMW it needs, if any, and
/// whether it completed here (a task that returns with no children outstanding).
///
/// # Safety
/// This lane owns task `id`.
unsafe fn resume<P: Program>(w: &WarpCtx, id: u32, freed: &mut u32) -> (Option<Rmw>, bool) {
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
    // The step's children, counted at their depth for the policy's wide-level rule
    // (`granularity`'s docs); compiled out of programs whose every spawn is a task.
    if P::WEIGHS && n != 0 && w.run().granularity.on != 0 {
        // SAFETY: the task is live and ours; its header was published with it.
        let depth = unsafe { Record::depth(rec) };
        super::spawn::count_children(w, depth + 1, n);
    }
    match step {
        Step::Wait => {
            // SAFETY: we run the task; readers of `queue` come after the join RMW.
            unsafe { Record::set_queue(rec, ctx.resume_queue) };
            (Some(Rmw::Wait { id, n }), false)
        }
        // Returned with every child of earlier epochs complete and none now: complete at
        // once, with no RMW on its own counter (see `join::finish`).
        // SAFETY: the task is complete and nobody else touches it.
        // Without `taskwait!` in the program, a task completes when it returns: its children
        // need not report to it (termination is counted instead, see `quiescent`).
        Step::Done if n == 0 || !P::HAS_TASKWAIT => (unsafe { complete::<P>(w, id, freed) }, true),
        Step::Done => (Some(Rmw::Finish { id, n }), false),
    }
}

/// Drops complete task `id`'s frame, hands its record to the caller's `freed` (the warp frees
/// it after the step, [`WarpCtx::free_all`]) and returns the RMW that tells its parent, or
/// marks the run done when `id` is the root.
///
/// # Safety
/// Task `id` is complete and this lane is the one the join protocol chose to complete it.
unsafe fn complete<P: Program>(w: &WarpCtx, id: u32, freed: &mut u32) -> Option<Rmw> {
    let rec = w.record::<P::Task>(id);
    // SAFETY: the record is live and complete; nobody else touches it now.
    let (parent, slot) = unsafe { (Record::parent(rec), Record::result_slot(rec)) };
    // SAFETY: as above.
    unsafe { Record::drop_task(rec) };
    // Freed by the whole warp after the step (`WarpCtx::free_all`).
    *freed = id;
    if !P::HAS_TASKWAIT {
        // Nobody waits for anybody; the end is detected by counting (`quiescent`).
        return None;
    }
    if parent != NONE {
        return Some(Rmw::Child { parent });
    }
    if w.run().inject != 0 {
        // A root of a resident run: its slot tells the host (the result was written above it).
        super::inject::root_completed(w, slot);
        return None;
    }
    // A root: the run is done when it was the last.
    w.root_completed();
    None
}
