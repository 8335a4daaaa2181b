//! The device side of `spawn!` for thread-level workers, and its failure paths.

use super::warp::WarpCtx;
use crate::arch::ops::AtomicInt;
use crate::arch::order::{Cta, Relaxed};
use crate::arch::time::clock64;
use crate::runtime::RunError;
use crate::runtime::granularity::{self, LEVELS, SpawnRoom};
use crate::runtime::record::Record;
use crate::task::{Ctx, Program};

/// The device side of `spawn!`: allocates a record from the warp's slab, fills it, stages it
/// in queue `queue` (a mixed program's block task: in the worker's block-task queue), and
/// counts it in `ctx.spawned`.
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
        w.note_failed_task(ctx.record);
        return;
    }
    let thread_queues = super::worker::thread_queues::<P>(w.run());
    // A mixed program's block tasks all go to the worker's last queue, which block leaders
    // take from (`mixed`); the EPAQ queue chosen for them is not used.
    let to_block_queue = P::MIXED && P::task_is_block(&task);
    if !to_block_queue && let Err(e) = RunError::check_queue(queue, thread_queues) {
        w.fail(e);
        w.note_failed_task(ctx.record);
        return;
    }
    let queue = if to_block_queue { thread_queues } else { queue };
    let Some(id) = w.alloc() else {
        w.note_failed_task(ctx.record);
        return;
    };
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
    // Depths only feed the granularity policy: without it a spawn spends no load on them
    // (`fill` leaves the child at depth 0).
    if w.run().granularity.on != 0 {
        // SAFETY: the running task's own record is live, its header written before it ran;
        // the child's record is ours until the round's push.
        unsafe {
            let depth = Record::depth(w.record::<P::Task>(ctx.record));
            Record::set_depth(rec, depth + 1);
        }
    }
    if !w.stage(queue, id) {
        w.note_failed_task(ctx.record);
    }
}

/// Counts a step of a task at `depth` that made `n` children, for the wide-level rule: the
/// children at their depth ([`count_children`]), and, where the grid's estimate of the
/// tree's width still reads the level (above the depth from which the warp inlines, and
/// not sampled enough yet), the task's level: started there if `first()` (the task's first
/// step), and its children. Lane 0 adds these to the grid's every few rounds
/// (`close::share_grid_policy`). A program whose levels are all known, or without the
/// estimate (`wide_nodes` 0: lane 0 marks every level known), pays a load and a test.
#[inline(always)]
pub fn count_level(w: &WarpCtx, depth: u32, n: u32, first: impl FnOnce() -> bool) {
    if n != 0 {
        count_children(w, depth + 1, n);
    }
    let sh = w.sh;
    // SAFETY: `inline_from` is lowered by lanes only atomically during a round: read
    // atomically (relaxed `.cta`, a bound that only decides whether to count);
    // `levels_known` is lane 0's, written between rounds.
    let (from, known) = unsafe {
        let from = u32::load::<Cta, Relaxed>(&raw const (*sh).inline_from);
        (from, (*sh).levels_known)
    };
    // Levels the estimate no longer reads: below where the warp inlines, or sampled enough.
    if depth >= LEVELS.min(from) || known & (1 << depth) != 0 {
        return;
    }
    let d = depth as usize;
    // SAFETY: fields of this warp's shared state that lanes change during a round only by
    // `.cta` atomics, and lane 0 reads and zeroes between rounds; `d < LEVELS`. Relaxed:
    // counts that only steer the policy, which the round's barrier orders before lane 0
    // reads them. 32-bit: a 64-bit atomic on shared memory is a compare-and-swap loop.
    unsafe {
        if first() {
            u32::fetch_add::<Cta, Relaxed>(&raw mut (*sh).level_started[d], 1);
        }
        if n != 0 {
            u32::fetch_add::<Cta, Relaxed>(&raw mut (*sh).level_children[d], n);
        }
    }
}

/// Counts the `n` children at depth `at` that a task step made (the spawns the granularity
/// policy weighed there, [`run_inline`], and any others of the step) in the warp's
/// `level_left`, and when they are the policy's `wide_tasks`th there, lowers the warp's
/// `inline_from` to the depth below ([`SpawnView::from_depth`]). Once per task step rather
/// than per spawn: the spawn path is the kernel's tightest on registers.
#[inline(always)]
pub fn count_children(w: &WarpCtx, at: u32, n: u32) {
    let sh = w.sh;
    // SAFETY: fields of this warp's shared state that lanes change during a round only by
    // `.cta` atomics; `at < LEVELS` is checked first. Relaxed: counts and a bound that only
    // steer the policy; a lane that reads `inline_from` before it is lowered makes one more
    // task, which is as correct as the inline call it would have made.
    unsafe {
        if at >= LEVELS {
            return;
        }
        // Adding `n.wrapping_neg()` subtracts `n`, wrapping: the count crosses zero once.
        let left = u32::fetch_add::<Cta, Relaxed>(
            &raw mut (*sh).level_left[at as usize],
            n.wrapping_neg(),
        );
        if left != 0 && left <= n {
            u32::fetch_min::<Cta, Relaxed>(&raw mut (*sh).inline_from, at + 1);
        }
    }
}

/// The device side of the granularity policy ([`granularity::run_inline`]) for a spawn by
/// the running task into `queue`: what the lane's warp sees, from its shared state, and
/// the child's depth. Counts a spawn it runs inline in the warp's statistics.
///
/// The lanes of a warp run a round's tasks together, so a lane that runs a child inline
/// holds up the others of its warp until its call returns (they wait at the round's end):
/// the policy's depth bound keeps such calls to the lower, smaller subtrees.
///
/// # Safety
/// As [`spawn`].
#[inline(always)]
pub unsafe fn run_inline<P: Program>(ctx: *mut Ctx, queue: u32) -> bool {
    // SAFETY: the running task's context (contract).
    let ctx = unsafe { &*ctx };
    // SAFETY: `worker` is the `WarpCtx` this lane's `run_task` put there.
    let w = unsafe { &*(ctx.worker as *const WarpCtx) };
    let run = w.run();
    let policy = &run.granularity;
    // A bad queue is the spawn's to report.
    if policy.on == 0 || queue >= super::worker::thread_queues::<P>(run) {
        return false;
    }
    let sh = w.sh;
    let q = queue as usize;
    // SAFETY: lane 0 wrote `room`, `free_open` and `backoff` before this round's barrier and
    // lanes only read them during the round; `staged`, `alloc_taken` and `inline_from` are
    // changed by lanes during the round, so they are read atomically (relaxed, `.cta`: a
    // snapshot of this warp's own counters, which orders nothing). `q < MAX_QUEUES`.
    let (staged, room, backoff, from_depth) = unsafe {
        let staged = u32::load::<Cta, Relaxed>(&raw const (*sh).staged[q]);
        let taken = u32::load::<Cta, Relaxed>(&raw const (*sh).alloc_taken);
        let room = SpawnRoom {
            free_records: (*sh).free_open.saturating_sub(taken),
            queue_room: (*sh).room[q].saturating_sub(staged),
        };
        let from = u32::load::<Cta, Relaxed>(&raw const (*sh).inline_from);
        (staged, room, (*sh).backoff, from)
    };
    let parent = w.record::<P::Task>(ctx.record);
    // SAFETY: the running task's own record is live, its header written before it ran.
    let depth = unsafe { Record::depth(parent) } + 1;
    let queue_view = || {
        // SAFETY: lane 0 wrote `tail`, `private` and `head` before this round's barrier and
        // lanes only read them during the round; the running task's record as above (its
        // `queue` is the one it was taken from: the spawner's or its own last taskwait's).
        unsafe {
            let queued = ((*sh).tail[q])
                .wrapping_add((*sh).private[q])
                .wrapping_sub((*sh).head[q])
                .wrapping_add(staged);
            (queued, queue != Record::queue(parent))
        }
    };
    let inline =
        granularity::run_inline_lazily(policy, depth, from_depth, backoff, room, queue_view);
    if inline {
        // SAFETY: a field of this warp's shared state, bumped only atomically by lanes
        // during a round and read by lane 0 after the round's barrier (`time_round`).
        // Relaxed `.cta`: a count, which the barrier orders.
        unsafe { u32::fetch_add::<Cta, Relaxed>(&raw mut (*sh).round_inlined, 1) };
    }
    inline
}

/// Whether the running task, at its first resume, runs whole as its sequential version
/// (`crate::task::ctx::runs_whole`): [`run_inline`] for a child of it into the queue it was
/// taken from.
///
/// # Safety
/// As [`spawn`].
#[inline(always)]
pub unsafe fn runs_whole<P: Program>(ctx: *mut Ctx) -> bool {
    // SAFETY: `worker` is the `WarpCtx` this lane's `run_task` put in the running task's
    // context (contract).
    let w = unsafe { &*((*ctx).worker as *const WarpCtx) };
    if w.run().granularity.on == 0 {
        return false;
    }
    // SAFETY: the running task's own record is live, its header written before it ran.
    let queue = unsafe { Record::queue(w.record::<P::Task>((*ctx).record)) };
    // SAFETY: forwarded from this function's contract.
    unsafe { run_inline::<P>(ctx, queue) }
}

/// The budget of a split task started for a spawn of the running task that becomes a task
/// (`crate::task::split`): the policy's `split_budget` while the policy is on, else 0.
///
/// # Safety
/// As [`spawn`].
#[inline(always)]
pub unsafe fn split_budget<P: Program>(ctx: *mut Ctx) -> u32 {
    if !P::SPLITS {
        return 0;
    }
    // SAFETY: `worker` is the `WarpCtx` this lane's `run_task` put in the running task's
    // context (contract).
    let w = unsafe { &*((*ctx).worker as *const WarpCtx) };
    crate::task::split::budget::<P>(&w.run().granularity)
}

/// The oldest pending calls a split task makes tasks of one by one (the policy's
/// `split_singles`, `crate::task::split`).
///
/// # Safety
/// As [`spawn`].
#[inline(always)]
pub unsafe fn split_singles<P: Program>(ctx: *mut Ctx) -> u32 {
    // SAFETY: `worker` is the `WarpCtx` this lane's `run_task` put in the running task's
    // context (contract).
    let w = unsafe { &*((*ctx).worker as *const WarpCtx) };
    crate::task::split::singles::<P>(&w.run().granularity)
}

/// Counts `calls` that a split task of the running task walked into the warp's statistics
/// (as spawns run inline): in the round's count, which lane 0 adds to them between rounds;
/// a count too large for a round's 32 lanes to add without overflow, directly.
///
/// # Safety
/// As [`spawn`].
#[inline(always)]
pub unsafe fn split_walked(ctx: *mut Ctx, calls: u32) {
    /// Below it, 32 lanes' counts add up to less than `u32::MAX`.
    const ROUND_MAX: u32 = 1 << 26;
    // SAFETY: `worker` is the `WarpCtx` this lane's `run_task` put in the running task's
    // context (contract).
    let w = unsafe { &*((*ctx).worker as *const WarpCtx) };
    // SAFETY: fields of this warp's shared state, which lanes change only atomically during
    // a round and lane 0 (`close`) changes and reads only between rounds, after the round's
    // barrier. Relaxed `.cta`: counts, which the barrier orders.
    unsafe {
        if calls < ROUND_MAX {
            u32::fetch_add::<Cta, Relaxed>(&raw mut (*w.sh).round_walked, calls);
        } else {
            u64::fetch_add::<Cta, Relaxed>(&raw mut (*w.sh).stats.inlined, u64::from(calls));
        }
    }
}

/// The start of an inline call: its clock, subtracted from the warp's sum of its round's
/// inline cycles ([`inline_end`] adds the end's), so that the sum is the calls' cycles once
/// every call has ended, and no register holds a start across the call.
///
/// # Safety
/// As [`spawn`].
#[inline(always)]
pub unsafe fn inline_start(ctx: *mut Ctx) {
    let now = clock64();
    // SAFETY: `worker` is the `WarpCtx` this lane's `run_task` put in the running task's
    // context (contract).
    let w = unsafe { &*((*ctx).worker as *const WarpCtx) };
    // SAFETY: a field of this warp's shared state, changed only atomically by lanes during
    // a round and read by lane 0 after the round's barrier, when every call has ended.
    // Relaxed `.cta`: a sum, which the barrier orders.
    unsafe {
        u64::fetch_add::<Cta, Relaxed>(&raw mut (*w.sh).round_inline_cycles, now.wrapping_neg())
    };
}

/// The end of an inline call that saved `saved` tasks (the spawns it ran as plain calls, and
/// the inlined spawn itself): its clock into the warp's sum of inline cycles (see
/// [`inline_start`]), and `saved` into the round's count, which
/// [`time_round`](super::close::time_round) weighs the cycles by. An `uncounted` call ran
/// a sequential version its task named, whose saved tasks are not known: it is counted
/// apart too, for the policy to judge by its time alone.
///
/// # Safety
/// As [`spawn`].
#[inline(always)]
pub unsafe fn inline_end(ctx: *mut Ctx, saved: u32, uncounted: bool) {
    let now = clock64();
    // SAFETY: as in `inline_start`.
    let w = unsafe { &*((*ctx).worker as *const WarpCtx) };
    // SAFETY: fields of this warp's shared state, changed only atomically by lanes during a
    // round and read by lane 0 after the round's barrier. Relaxed `.cta`: sums, which the
    // barrier orders.
    unsafe {
        u64::fetch_add::<Cta, Relaxed>(&raw mut (*w.sh).round_inline_cycles, now);
        u32::fetch_add::<Cta, Relaxed>(&raw mut (*w.sh).round_inline_spawns, saved);
        if uncounted {
            u32::fetch_add::<Cta, Relaxed>(&raw mut (*w.sh).round_inline_uncounted, 1);
        }
    }
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
    // Counted like a failed spawn, so that the task suspends at its next taskwait for good
    // (its record, noted below, stays its own) instead of going on past it.
    // SAFETY: the running task's context (contract).
    unsafe { (*ctx).spawned += 1 };
    w.fail(RunError::SlotsFull {
        task: task_index,
        capacity,
    });
    // SAFETY: the running task's context (contract).
    w.note_failed_task(unsafe { (*ctx).record });
}
