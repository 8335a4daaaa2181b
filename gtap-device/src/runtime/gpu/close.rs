//! Step 3 of a round, lane 0's part: opening the round's shared counters, settling the
//! warp's allocator, returning freed records, and publishing the round's new tasks to the
//! queues (`close_round`). The block workers' leader runs the same functions.

use core::mem::offset_of;

use super::layout::{GpuRun, MAX_QUEUES, NONE, tuning};
use super::sched::Scheduler;
use super::warp::{FREED_CAP, ROUND_UNIT_SHIFT, WarpCtx, WarpShared};
use crate::arch::ops::AtomicInt;
use crate::arch::order::{Gpu, Relaxed};
use crate::arch::time::clock64;
use crate::arch::warp::WARP_SIZE;
use crate::runtime::deque::publish;
use crate::runtime::granularity::{
    HEAVY_LEAF_ROUNDS, InlineRound, LEVEL_SAMPLE, LEVELS, MAX_BACKOFF, adjust_backoff,
    grid_heavy_leaves, heavy_leaf_round, width_from_fanout,
};
use crate::runtime::record::Record;
use crate::runtime::reserve::{CHUNK_RECORDS, chunk_start};
use crate::runtime::sync::{AtomicU32, Ordering};
use crate::task::Program;

/// The records a warp can take for new tasks between rounds: its free stack, its slab's
/// never-used records and what is left of the reserve's windows it holds.
#[inline(always)]
fn records_held(sh: &WarpShared, run: &GpuRun) -> u32 {
    sh.sp + (run.tasks_per_warp - sh.fresh) + sh.win_left[0] + sh.win_left[1]
}

/// Lane 0, before the lanes run: zero the round's counters and compute each queue's room.
pub(super) fn open_round<S: Scheduler>(w: &WarpCtx) {
    let run = w.run();
    // SAFETY: called by lane 0 between rounds (see the callers).
    let sh = unsafe { w.lane0() };
    sh.alloc_taken = 0;
    sh.freed_n = 0;
    if run.granularity.on != 0 {
        sh.run_started = clock64();
        sh.free_open = records_held(sh, run);
    }
    for q in 0..run.num_queues as usize {
        sh.staged[q] = 0;
        // The head seen last time only makes the room smaller than it is (thieves only move
        // it forward), so reload it (an L2 round trip) only when the room looks short.
        let mut used = sh.tail[q]
            .wrapping_add(sh.private[q])
            .wrapping_sub(sh.head[q]);
        // (With the global queue there are no thieves: lane 0 keeps `head` itself.)
        if run.queue_capacity.saturating_sub(used) < run.queue_capacity / 2
            && !S::global_queue(w.run())
        {
            // Acquire: thieves' reads of entries below `head` happen before we overwrite them
            // (deque docs, edge 2).
            sh.head[q] = w.deque(w.warp, q as u32).head().load(Ordering::Acquire);
            used = sh.tail[q]
                .wrapping_add(sh.private[q])
                .wrapping_sub(sh.head[q]);
        }
        sh.room[q] = run.queue_capacity.saturating_sub(used);
        sh.stage_base[q] = sh.tail[q].wrapping_add(sh.private[q]);
    }
}

/// How much a round's time moves the warp's average round time (1 / 2^this): enough rounds
/// that one long leaf or one short resume does not sway it, few enough that it follows the
/// tree as it changes from spawning nodes to leaves.
const ROUND_AVERAGE_SHIFT: u32 = 3;

/// Lane 0, after the lanes ran, with the granularity policy on: an ordinary round (no
/// inline call) moves the warp's average round time for its queue towards its own; a round
/// with inline calls sets the warp's back-off from how long they took against its queue's
/// average, and from what the round's length cost the warp against the tasks they saved
/// ([`adjust_backoff`]).
/// Rounds with inline calls stay out of the average: they measure the policy's doing, not
/// the program's tasks. A `chained` round (a lane resumed a parent inline, `resume_inline`)
/// went on up a chain of the tree after its batch, and its length is mostly the chain's:
/// it may be the warp's fastest, but it is not judged as a round of heavy leaves.
pub(super) fn time_round(w: &WarpCtx, chained: bool) {
    let run = w.run();
    if run.granularity.on == 0 {
        return;
    }
    // SAFETY: called by lane 0 between rounds (see the callers).
    let sh = unsafe { w.lane0() };
    // Split tasks walk only with the policy on.
    sh.stats.inlined += u64::from(core::mem::take(&mut sh.round_walked));
    let n = sh.round_inlined;
    let took = clock64()
        .wrapping_sub(sh.run_started)
        .min(u64::from(u32::MAX)) as u32;
    if n == 0 {
        let q = round_queue(sh);
        sh.round_cycles[q] = average_units(sh.round_cycles[q], took);
        sh.stats.round_cycles = average(sh.stats.round_cycles, took);
        // Most rounds are neither the fastest yet nor far past it: they skip the call.
        let fastest = sh.fastest_round;
        let far = fastest.saturating_mul(run.granularity.task_rounds);
        if took < fastest || fastest == 0 || (took > far && !chained) {
            note_round_extremes(w.run, sh, took);
        }
        return;
    }
    weigh_inline_round(w, sh, took);
}

/// Lane 0, after an ordinary round of `took` cycles that is the warp's fastest so far or
/// far past it: the fastest round, and the warp's count of heavy leaf rounds, past which it
/// stops inlining ([`heavy_leaf_round`]: its back-off goes past any tree). Each heavy round
/// also counts in the grid's `GpuRun::heavy_rounds`, from whose `GpuRun::grid_heavy_rounds`
/// every warp stops where they are common enough (here, or in [`share_grid_policy`]).
// Out of line, for the reason `share_grid_policy` is: registers.
#[inline(never)]
fn note_round_extremes(run: *mut GpuRun, sh: &mut super::warp::WarpShared, took: u32) {
    let fastest = match sh.fastest_round {
        0 => took,
        fastest => fastest.min(took),
    };
    sh.fastest_round = fastest;
    // The tasks the round ran, from the batch lane 0 took (the profiler's source unused).
    let ran = super::batch::Batch::from_words(sh.batch, 0).n;
    if sh.heavy_leaves < HEAVY_LEAF_ROUNDS
        && heavy_leaf_round(
            &sh.cfg.granularity,
            took.into(),
            fastest.into(),
            sh.alloc_taken,
            ran,
        )
    {
        sh.heavy_leaves += 1;
        // SAFETY: `run` is the control block (`WarpCtx::run`), which lives for the run; the
        // facade's atomics have the layout of `u32`.
        let grid = unsafe { &*(&raw mut (*run).heavy_rounds as *const AtomicU32) };
        // Relaxed: a count that only steers the policy (a warp that sees it late makes a
        // few more inline calls, as correct as tasks); `.gpu` scope, as every atomic of
        // the facade on the device.
        let seen = grid.fetch_add(1, Ordering::Relaxed).saturating_add(1);
        if sh.heavy_leaves == HEAVY_LEAF_ROUNDS || grid_heavy(sh, seen) {
            stop_inlining(sh);
        }
    }
}

/// Whether `seen` heavy leaf rounds across the grid stop the inlining of a warp whose
/// own state is `sh` ([`grid_heavy_leaves`], from the warp's busy rounds).
#[inline(always)]
fn grid_heavy(sh: &super::warp::WarpShared, seen: u32) -> bool {
    let busy = sh.stats.rounds.saturating_sub(sh.stats.idle_rounds);
    grid_heavy_leaves(sh.cfg.grid_heavy_rounds, seen, busy, sh.cfg.num_warps)
}

/// The warp runs no more spawns inline, but where memory is short.
fn stop_inlining(sh: &mut super::warp::WarpShared) {
    sh.backoff = MAX_BACKOFF;
    sh.stats.backoff = MAX_BACKOFF as u32;
}

/// Lane 0, after a round with inline calls that took `took` cycles: the warp's new back-off
/// ([`adjust_backoff`]) and its statistics.
// Out of line, for the reason `share_grid_policy` is: registers (and only rounds with inline
// calls pay for the call).
#[inline(never)]
fn weigh_inline_round(w: &WarpCtx, sh: &mut super::warp::WarpShared, took: u32) {
    let policy = &w.run().granularity;
    let inline = InlineRound {
        calls: sh.round_inlined,
        cycles: sh.round_inline_cycles,
        spawns: u64::from(sh.round_inline_spawns),
        uncounted: sh.round_inline_uncounted,
        took: took.into(),
        wide: sh.inline_from.saturating_add_signed(sh.backoff) < policy.min_depth,
    };
    let round_cycles = u64::from(sh.round_cycles[round_queue(sh)]) << ROUND_UNIT_SHIFT;
    if round_cycles > 0 {
        let backoff = adjust_backoff(policy, sh.backoff, inline, round_cycles, sh.backed_off != 0);
        if backoff > sh.backoff {
            sh.backed_off = 1;
        }
        sh.backoff = backoff;
        // (A warp that moved up past its depth counts as not backed off.)
        sh.stats.backoff = sh.stats.backoff.max(sh.backoff.max(0) as u32);
    }
    sh.stats.inlined += u64::from(inline.calls);
    sh.stats.inline_cycles += inline.cycles;
    sh.stats.spawns_elided += inline.spawns;
    (
        sh.round_inlined,
        sh.round_inline_cycles,
        sh.round_inline_spawns,
        sh.round_inline_uncounted,
    ) = (0, 0, 0, 0);
}

/// Lane 0, between rounds, with the granularity policy on: what the warps learn together.
///
/// The wide level: adds the warp's level counts to the grid's and lowers its depth to the
/// grid's estimate of the tree's width ([`share_fanout`]), then offers the depth from which
/// the warp inlines by the wide-level rules (`WarpShared::inline_from`, lowered by
/// `spawn::count_children` and the estimate) to the grid, and takes the grid's if that is
/// shallower, in one atomic on `GpuRun::wide_from_not`. Why the
/// grid's: a warp counts only the tasks it makes, and a warp that stole its first tasks
/// deep in the tree never makes many at the upper levels, so on its own it would find a
/// deeper, finer level than the warps that made the upper ones, and its run more tasks.
///
/// Heavy leaves: stops the warp's inlining once the grid has seen
/// `GpuRun::grid_heavy_rounds` rounds of heavy leaf tasks (`GpuRun::heavy_rounds`), if they
/// are common enough ([`grid_heavy_leaves`], which says why the grid's).
// Out of line: inlined into the worker loop, its addresses were computed once before the
// loop and held in registers for the whole kernel, past the count that fits 12 warps per SM
// for some programs; called every few rounds, the call costs nothing measurable.
#[inline(never)]
pub(super) fn share_grid_policy(stop: &AtomicU32, sh: &mut super::warp::WarpShared) {
    // Addressed from `stop`, which the worker loop keeps in registers anyway.
    const FROM_STOP: usize = offset_of!(GpuRun, wide_from_not) - offset_of!(GpuRun, stop);
    const HEAVY_FROM_STOP: usize = offset_of!(GpuRun, heavy_rounds) - offset_of!(GpuRun, stop);
    let stop = stop as *const AtomicU32 as *mut u8;
    if sh.cfg.granularity.wide_nodes != 0 {
        // The host's array of `LEVELS` words, which lives for the run.
        let grid = sh.cfg.fanout as *mut u64;
        if let Some(from) = share_fanout(grid, sh) {
            sh.inline_from = sh.inline_from.min(from);
        }
    }
    // The grid's depth carries the width estimate's too, to the warps that count nothing.
    if sh.cfg.granularity.wide_tasks != 0 || sh.cfg.granularity.wide_nodes != 0 {
        let own = sh.inline_from;
        // SAFETY: `stop` is the control block's `stop`, so this is its `wide_from_not`, a
        // word of the control block, which lives for the run, changed by warps only by
        // `.gpu` atomics. Relaxed: a bound that only steers the policy (a warp that reads it
        // late makes a few more tasks, as correct as the inline calls it would have made);
        // the lanes read `inline_from` after the round's barrier. Negated: the host's zero
        // is "none".
        let grid = !unsafe {
            let word = stop.add(FROM_STOP).cast::<u32>();
            u32::fetch_max::<Gpu, Relaxed>(word, !own)
        };
        sh.inline_from = own.min(grid);
    }
    if sh.cfg.grid_heavy_rounds != 0 && sh.backoff < MAX_BACKOFF {
        // SAFETY: as above, the control block's `heavy_rounds`. Relaxed: as its increment
        // (`note_round_extremes`); the lanes read `backoff` after the round's barrier.
        let seen =
            unsafe { &*stop.add(HEAVY_FROM_STOP).cast::<AtomicU32>() }.load(Ordering::Relaxed);
        if grid_heavy(sh, seen) {
            stop_inlining(sh);
        }
    }
}

/// Lane 0, between rounds: adds the warp's counts of the tree's levels since the last time
/// (`WarpShared::level_started` and `level_children`) to the grid's, at `grid`
/// (`GpuRun::fanout`), and returns the depth from which the grid's counts say to inline
/// ([`width_from_fanout`]), if any; marks the levels it read that the grid has sampled
/// enough (`WarpShared::levels_known`).
///
/// Only a warp that counted something since the last time reads the grid's counts: the
/// others learn the depth through `GpuRun::wide_from_not` (`share_grid_policy`), so idle
/// warps and programs that count nothing spend no global access here. The grid's words are
/// read one level at a time, as the estimate walks down, each read its level's add where
/// the warp has one (the add's old value plus the warp's part): a chain of `from + 1`
/// round trips to L2 rather than a scan of all `LEVELS` words.
fn share_fanout(grid: *mut u64, sh: &mut WarpShared) -> Option<u32> {
    let any = |counts: &[u32]| counts.iter().any(|&c| c != 0);
    if !any(&sh.level_started) && !any(&sh.level_children) {
        return None;
    }
    let (started, children) = (&mut sh.level_started, &mut sh.level_children);
    let mut own = |d: usize| {
        (u64::from(core::mem::take(&mut started[d])) << 32)
            | u64::from(core::mem::take(&mut children[d]))
    };
    let known = &mut sh.levels_known;
    let level = |d: u32| {
        let (i, mine) = (d as usize, own(d as usize));
        // SAFETY: `grid` is the run's `GpuRun::fanout`, `LEVELS` words that live for the
        // run, changed by warps only by `.gpu` atomics; `d < LEVELS`. Relaxed: counts that
        // only steer the policy (a warp that reads them late inlines a few rounds later).
        let total = unsafe {
            if mine != 0 {
                u64::fetch_add::<Gpu, Relaxed>(grid.add(i), mine).wrapping_add(mine)
            } else {
                u64::load::<Gpu, Relaxed>(grid.add(i))
            }
        };
        if total >> 32 >= LEVEL_SAMPLE {
            *known |= 1 << d;
        }
        (total >> 32, total & u64::from(u32::MAX))
    };
    let from = width_from_fanout(level, sh.cfg.granularity.wide_nodes);
    // The levels below those the estimate read (the ones it read are zero now): added,
    // their sums not needed now.
    for d in 0..LEVELS as usize {
        let mine = own(d);
        if mine != 0 {
            // SAFETY: as above, `d < LEVELS`.
            unsafe { u64::fetch_add::<Gpu, Relaxed>(grid.add(d), mine) };
        }
    }
    from
}

/// The queue whose tasks the warp's last round ran (lane 0, from the batch it took).
#[inline(always)]
fn round_queue(sh: &super::warp::WarpShared) -> usize {
    // (Below `MAX_QUEUES` already: the remainder only spares the index its bounds check.)
    super::batch::Batch::from_words(sh.batch, 0).queue as usize % MAX_QUEUES as usize
}

/// [`average`] of `avg`, in units of `1 << ROUND_UNIT_SHIFT` cycles, with a round of `took`
/// cycles: the per-queue averages of [`WarpShared::round_cycles`](super::warp::WarpShared).
#[inline(always)]
fn average_units(avg: u16, took: u32) -> u16 {
    let units = (took >> ROUND_UNIT_SHIFT).min(u32::from(u16::MAX));
    average(avg.into(), units) as u16
}

/// `avg` moved towards `x` by `1 / 2^ROUND_AVERAGE_SHIFT`; `x` itself when `avg` is 0 (no
/// sample yet).
fn average(avg: u32, x: u32) -> u32 {
    if avg == 0 {
        x
    } else {
        avg - (avg >> ROUND_AVERAGE_SHIFT) + (x >> ROUND_AVERAGE_SHIFT)
    }
}

/// Lane 0, after the lanes ran: settles the allocator (what came from the free stack and
/// what from the fresh records) and returns where this round's freed ids go on the free stack,
/// how many there are (for the lanes to copy, [`copy_freed`]), and how many records the round
/// allocated (the tasks it spawned).
pub(super) fn settle_allocator(w: &WarpCtx) -> (u32, u32, u32) {
    let run = w.run();
    // SAFETY: called by lane 0 between rounds (see the callers).
    let sh = unsafe { w.lane0() };
    let taken = sh.alloc_taken;
    let from_stack = taken.min(sh.sp);
    sh.sp -= from_stack;
    let rest = taken - from_stack;
    let from_slab = rest.min(run.tasks_per_warp - sh.fresh);
    sh.fresh += from_slab;
    if rest > from_slab {
        settle_windows(sh, rest - from_slab);
    }
    (sh.sp, sh.freed_n.min(FREED_CAP as u32), taken)
}

/// Lane 0: `n` records of the round came from the reserve's windows, the first window's
/// first (as `WarpCtx::alloc` hands them out); an empty first window takes the second's
/// place, so that only the second is ever empty while the first is not.
#[inline(never)]
fn settle_windows(sh: &mut super::warp::WarpShared, mut n: u32) {
    for i in 0..2 {
        let k = n.min(sh.win_left[i]);
        sh.win_next[i] += k;
        sh.win_left[i] -= k;
        n -= k;
    }
    if sh.win_left[0] == 0 {
        sh.win_next[0] = sh.win_next[1];
        sh.win_left[0] = sh.win_left[1];
        sh.win_left[1] = 0;
    }
}

/// Lane 0, between rounds: when the warp holds fewer records it can hand out (free stack,
/// slab, windows) than its low-water mark and has a window free, it borrows a chunk from the
/// reserve, so that the next round's spawns (up to a chunk's worth) find records. The mark is
/// [`CHUNK_RECORDS`], or half the slab when that is smaller, so that a warp with a small slab
/// borrows only once it has used half of it (an idle warp borrows nothing). A dry reserve
/// leaves the warp as it is: its spawns then run inline where the granularity policy may
/// (it sees the records left), and fail the run where not.
#[inline(always)]
fn top_up_records(w: &WarpCtx) {
    let run = w.run();
    // SAFETY: called by lane 0 between rounds (see the callers).
    let sh = unsafe { w.lane0() };
    let held = records_held(sh, run);
    let low_water = CHUNK_RECORDS.min(run.tasks_per_warp / 2).max(1);
    if held < low_water && sh.win_left[1] == 0 && run.reserve_chunks != 0 {
        borrow_chunk(w);
    }
}

/// Lane 0 at kernel start, after it built the warp's `roots` root tasks: a warp that starts
/// several of a batch's roots borrows a chunk from the reserve before its first round. That
/// round runs up to a warp's width of roots side by side, each of which may spawn several
/// children at once (a split task makes up to `split_singles + 1`), and the roots may have
/// taken up to half the slab (the batch's bound): more than [`top_up_records`]' mark, which
/// only looks between rounds, may leave it.
pub(super) fn lend_for_roots(w: &WarpCtx, roots: u32) {
    if roots > 1 && w.run().reserve_chunks != 0 {
        borrow_chunk(w);
    }
}

/// Lane 0: [`top_up_records`]'s loan, out of line (rare: once per chunk's worth of spawns
/// past the slab).
#[inline(never)]
fn borrow_chunk(w: &WarpCtx) {
    let run = w.run();
    // SAFETY: the configuration of the running kernel, as the host set it up.
    let Some(chunk) = (unsafe { run.record_reserve() }).take() else {
        return;
    };
    // SAFETY: called by lane 0 between rounds or at kernel start (see the callers).
    let sh = unsafe { w.lane0() };
    let i = usize::from(sh.win_left[0] != 0);
    sh.win_next[i] = chunk_start(chunk, run.slab_records);
    sh.win_left[i] = CHUNK_RECORDS;
    sh.stats.chunks_borrowed += 1;
}

/// Every lane: copies the round's freed ids `lane, lane + 32, ..` below `n` onto the free
/// stack from position `base`, in parallel (lane 0 alone would take up to 64 serial steps).
///
/// # Safety
/// Between the barrier after the lanes' work and the one before [`close_round`]: the freed
/// ids are settled, and nobody reads the free stack above `base`.
#[inline(always)]
pub(super) unsafe fn copy_freed(w: &WarpCtx, lane: u32, base: u32, n: u32) {
    let mut i = lane;
    while i < n {
        // SAFETY: `i < n <= FREED_CAP`; the stack holds at most the warp's own records, fewer
        // than its slab, so `base + i < tasks_per_warp` (contract for the positions).
        unsafe { *w.free_stack(base + i) = (*w.sh).freed[i as usize] };
        i += WARP_SIZE;
    }
}

/// Lane 0, after the lanes ran and copied the freed ids: refills the free stack from the
/// remote list when it runs low, and publishes the staged tasks. Returns the queue the next
/// round starts from.
///
/// With several EPAQ queues the warp turns to the next queue (round-robin, the current one
/// last) that holds a whole batch (`batch` tasks: a warp's width, or 1 for a block worker),
/// or to the one that holds the most if none does (`tuning::STAY_ON_QUEUE` and
/// `tuning::MOST_GENERATED` choose otherwise); it keeps up to `keep_max` of that queue's new
/// tasks and publishes the rest of every queue. Taking turns keeps every round's tasks of one
/// kind (EPAQ's point) while no queue waits for
/// another to drain: a recursion whose leaves go to their own queue would otherwise expand
/// its whole tree before running one leaf, and hold a record for every node at once.
///
/// With the global-queue ablation it publishes nothing itself: it says how many of the
/// warp's staged ids (and from which ring position) the warp must move to the global queue.
pub(super) fn close_round<P: Program, S: Scheduler>(
    w: &WarpCtx,
    current: u32,
    freed: u32,
    batch: u32,
) -> Closed {
    // SAFETY: called by lane 0 between rounds (see the callers).
    unsafe { w.lane0() }.sp += freed;
    refill_free_stack::<P>(w);
    top_up_records(w);
    let nq = super::worker::thread_queues::<P>(w.run()) as usize;
    let next = next_queue(w, current as usize, nq, batch);
    let (to_global, global_src) = publish_queues::<S>(w, next, nq);
    Closed {
        next: next as u32,
        to_global,
        global_src,
    }
}

/// What [`close_round`] decided.
pub(super) struct Closed {
    /// The queue the next round starts from.
    pub(super) next: u32,
    /// The global-queue ablation: how many staged ids the warp moves to the global queue,
    /// from which position of its ring (always 0 under the other schedulers).
    pub(super) to_global: u32,
    pub(super) global_src: u32,
}

/// Lane 0: takes the remote free list onto the free stack when the stack runs low.
///
/// The list is linked through the records, so walking it is one dependent L2 load per
/// record on lane 0's path, between the warp's rounds: a list of hundreds of records, freed
/// by thieves, made one close last as long as many rounds. So while a quarter of the slab is
/// never used (every allocation this round can come from there), a refill walks at most
/// [`REMOTE_WALK`] records and keeps the rest of the list it took in `remote_rest`, for the
/// next refills. Short of fresh records it walks the whole list, so that no allocation fails
/// while a freed record waits in it.
#[inline(always)]
fn refill_free_stack<P: Program>(w: &WarpCtx) {
    let run = w.run();
    // SAFETY: called by lane 0 between rounds (see the callers).
    let sh = unsafe { w.lane0() };
    if sh.sp >= 2 * WARP_SIZE {
        return;
    }
    // A quarter of the slab never used: room enough to leave the remote list for a few
    // rounds (a round allocates at most what its tasks spawn).
    let spare = run.tasks_per_warp.saturating_sub(sh.fresh) >= run.tasks_per_warp / 4;
    if sh.remote_rest == NONE {
        if sh.remote_skip > 0 && spare {
            sh.remote_skip -= 1;
            return;
        }
        // Acquire: pairs with the Release pushes of other warps (their last uses of the
        // records happen before we hand them out again); the list is ours from here on.
        sh.remote_rest = w.remote_free(w.warp).swap(NONE, Ordering::Acquire);
        // An empty list (as in a recursion's first descent, when nothing is freed yet): skip
        // the next few rounds' look, an L2 round trip on lane 0's path each.
        sh.remote_skip = if sh.remote_rest == NONE {
            REMOTE_SKIP_ROUNDS
        } else {
            0
        };
    }
    let limit = if spare { REMOTE_WALK } else { u32::MAX };
    let mut id = sh.remote_rest;
    let mut walked = 0;
    while id != NONE && walked < limit {
        // SAFETY: as above; `id` is one of this warp's records, now free.
        unsafe { *w.free_stack(sh.sp) = id };
        sh.sp += 1;
        walked += 1;
        // SAFETY: the list's links were written before the pushes acquired when it was taken.
        id = unsafe { Record::<P::Task>::next_free(w.record::<P::Task>(id)) }
            .load(Ordering::Relaxed);
    }
    sh.remote_rest = id;
}

/// Records a refill takes from a remote free list while fresh records are plentiful (see
/// [`refill_free_stack`]): half a warp's width, a few microseconds of lane 0's time.
const REMOTE_WALK: u32 = WARP_SIZE / 2;

/// Lane 0: the queue the next round starts from (see [`close_round`]), one of the `nq` that
/// hold thread tasks.
#[inline(always)]
fn next_queue(w: &WarpCtx, current: usize, nq: usize, batch: u32) -> usize {
    let run = w.run();
    // SAFETY: called by lane 0 between rounds (see the callers).
    let sh = unsafe { w.lane0() };
    if nq == 1 {
        return current;
    }
    if run.tuning & tuning::MOST_GENERATED != 0 {
        // GTaP's order: the queue that got the most new tasks this round (the lowest on a
        // tie); queue 0 when there were none.
        let new = |q: usize| sh.staged[q].min(sh.room[q]);
        return (1..nq).fold(0, |best, q| if new(q) > new(best) { q } else { best });
    }
    // Tasks the warp holds in queue `q`: published (as far as it knows: thieves may have
    // taken some), kept and staged.
    let holds = |q: usize| {
        sh.tail[q]
            .wrapping_sub(sh.head[q])
            .wrapping_add(sh.private[q] + sh.staged[q].min(sh.room[q]))
    };
    // The next queue after the current one that holds a whole batch, the current one last;
    // if none does, the one that holds the most.
    let first = usize::from(run.tuning & tuning::STAY_ON_QUEUE == 0);
    for step in first..first + nq {
        let q = (current + step) % nq;
        if holds(q) >= batch {
            return q;
        }
    }
    (0..nq).fold(
        current,
        |best, q| if holds(q) > holds(best) { q } else { best },
    )
}

/// Lane 0: keeps the newest (up to `keep_max`) of queue `next`'s new tasks and publishes the
/// rest of every queue; queues from `nq` on (a mixed program's block tasks) are always
/// published whole, for the block leaders to take. Returns what the global-queue ablation
/// must copy (see [`close_round`]).
#[inline(always)]
fn publish_queues<S: Scheduler>(w: &WarpCtx, next: usize, nq_thread: usize) -> (u32, u32) {
    let run = w.run();
    // SAFETY: called by lane 0 between rounds (see the callers).
    let sh = unsafe { w.lane0() };
    let nq = run.num_queues as usize;
    // First how many of each queue (into `staged`, read for the last time here), then the
    // adds.
    let mut push = (0, 0);
    let mut publishing = 0;
    for q in 0..nq {
        let staged = sh.staged[q].min(sh.room[q]);
        let total = sh.private[q] + staged;
        let keep = if q == next || (q < nq_thread && run.tuning & tuning::KEEP_EVERY_QUEUE != 0) {
            total.min(run.keep_max)
        } else {
            0
        };
        let n = total - keep;
        if n > 0 && S::global_queue(w.run()) {
            // The ablation: the oldest `n` go to the global queue (copied by the lanes, see
            // the caller); their slots here are free again once copied.
            push = (n, sh.tail[q]);
            sh.tail[q] = sh.tail[q].wrapping_add(n);
            sh.head[q] = sh.tail[q];
            sh.staged[q] = 0;
        } else {
            sh.staged[q] = n;
            publishing += u32::from(n > 0);
        }
        sh.private[q] = keep;
    }
    // One release for all queues: each release waits for this warp's earlier writes and
    // RMWs (`MEMBAR.GPU`), so a second release add would wait for the first add's round
    // trip. With several queues, one fence and relaxed adds instead.
    if publishing > 1 {
        // Release: the ids and records written before it happen before any thief's Acquire
        // claim that reads one of the adds below (deque docs, edge 1, as a fence).
        crate::runtime::sync::fence(Ordering::Release);
    }
    for q in 0..nq {
        let n = sh.staged[q];
        if n > 0 {
            let count = w.deque(w.warp, q as u32).count();
            if publishing > 1 {
                // Relaxed: released by the fence above.
                count.fetch_add(n, Ordering::Relaxed);
            } else {
                publish(count, n);
            }
            sh.tail[q] = sh.tail[q].wrapping_add(n);
            let used = sh.tail[q].wrapping_sub(sh.head[q]);
            sh.stats.max_queue = sh.stats.max_queue.max(used);
        }
    }
    push
}

/// Rounds [`close_round`] leaves the remote free list alone after finding it empty.
const REMOTE_SKIP_ROUNDS: u32 = 8;
