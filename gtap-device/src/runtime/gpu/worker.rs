//! The persistent loop of a warp of thread-level workers, and the device side of `spawn!`.
//! See the module docs of `gpu` for the round structure and the memory-ordering argument.

use core::mem::{align_of, size_of};
use core::pin::Pin;
use core::time::Duration;

use super::global_queue;
use super::layout::{
    GpuRun, KernelError, NONE, STOP_ABORT, STOP_DONE, WarpStats, batch_source, tuning,
};
use super::profile::Hooks;
use super::warp::{self, FREED_CAP, WarpCtx, WarpShared};
use crate::arch::index::{global_warp_id, lane_id, warp_id};
use crate::arch::shared::dynamic_shared_memory;
use crate::arch::time::{global_timer_ns, nanosleep};
use crate::arch::warp::{WARP_SIZE, shfl_idx, sync_warp};
use crate::runtime::RunError;
use crate::runtime::deque::{claim, publish};
use crate::runtime::join::{self, AfterReturn, AfterWait, ParentNext};
use crate::runtime::record::Record;
use crate::runtime::sync::Ordering;
use crate::task::{Ctx, Program, Step};

const FULL: u32 = u32::MAX;

/// How often (in rounds) a busy warp checks the stop flags.
const FLAG_PERIOD: u64 = 32;

/// Where the lanes of a round read their task ids from.
#[derive(Clone, Copy)]
struct Batch {
    /// Ids taken in total (lanes `0..n` run one each).
    n: u32,
    /// Lanes `0..kept` read `ring(warp, queue, kept_base + lane)`.
    kept: u32,
    kept_base: u32,
    /// Lanes `kept..n` read `ring(src_warp, queue, src_base + lane - kept)`.
    src_warp: u32,
    src_base: u32,
    queue: u32,
    /// A steal: lane 0 must advance the victim's head by `n - kept` and unlock afterwards.
    stolen: bool,
    /// Lanes `kept..n` read the global queue's slots `src_base + lane - kept` instead, and
    /// lane 0 releases them afterwards (the global-queue ablation).
    global: bool,
    /// Where the tasks came from, a [`batch_source`] code: lane 0's alone (not broadcast),
    /// for the profiler.
    source: u32,
}

/// The kernel body of program `P`'s persistent kernel (thread-level workers). The
/// `#[gtap::program]` macro wraps it in an `extern "ptx-kernel"` entry named `gtap_<name>`
/// with the profiler's hooks off ([`profile::Off`](super::profile::Off)), and, in a build
/// with `--cfg gtap_profile`, in a second one named `gtap_<name>_profiled` with them on
/// ([`profile::On`](super::profile::On)), in which lane 0 of every warp records each round.
/// `Off`'s hooks are empty and its state has no size, so the plain kernel compiles to the
/// same PTX as before the profiler existed.
///
/// # Safety
/// `run` points to a control block the host filled for program `P` (see
/// [`GpuRun`](super::layout::GpuRun)), and the kernel was launched with
/// `warps_per_block * size_of::<WarpShared>()` bytes of dynamic shared memory; and what
/// [`Hooks::start`] requires of `run` for `H`.
pub unsafe fn thread_worker<P: Program, H: Hooks>(run: *mut GpuRun) {
    let lane = lane_id();
    let warp = global_warp_id();
    // SAFETY: the control block lives for the kernel (contract).
    let cfg = unsafe { *run };
    super::panic::set_sink(cfg.panic_report);
    if warp >= cfg.num_warps {
        return;
    }
    let sh: *mut WarpShared =
        dynamic_shared_memory::<WarpShared>().wrapping_add(warp_id() as usize);
    let w = WarpCtx { run, sh, warp };

    // The host sized the records and the root's arguments with its own compilation of the
    // program; a mismatch would corrupt everything, so check before touching any.
    let size = size_of::<Record<P::Task>>() as u32;
    let align = align_of::<Record<P::Task>>() as u32;
    if size != cfg.record_size
        || align != cfg.record_align
        || size_of::<P::Args>() as u32 != cfg.args_size
    {
        if lane == 0 {
            w.fail(KernelError::LayoutMismatch { size, align });
        }
        return;
    }
    if lane == 0 {
        // SAFETY: lane 0 at kernel start, before the first barrier.
        warp::init(unsafe { w.lane0() }, warp, &cfg);
        if warp == 0 {
            // The root task: built here from its arguments (a frame's layout may differ
            // between the host's compilation and this one; the `repr(C)` arguments' does not),
            // in record 0, kept unpublished as warp 0's first task.
            // SAFETY: the host wrote a `P::Args` at `root_args` (sizes checked above).
            let args = unsafe { core::ptr::read_unaligned(cfg.root_args as *const P::Args) };
            let rec = w.record::<P::Task>(0);
            // SAFETY: record 0 is warp 0's first and not handed out yet; nothing else runs it.
            unsafe {
                Record::init(rec);
                Record::fill(rec, NONE, cfg.root_result as *mut u8, 0, P::start(args));
            }
            w.ring(0, 0, 0).store(0, Ordering::Relaxed);
        }
    }
    // SAFETY: the whole warp reaches this point (no lane returned above without all).
    unsafe { sync_warp(FULL) };

    // Programs without `taskwait!`: tasks this warp spawned and completed (lane 0's copy;
    // warp 0 counts the root as spawned).
    let (mut spawned_total, mut completed_total) = (u64::from(warp == 0), 0u64);
    let mut queue = 0u32;
    let mut rng = warp.wrapping_mul(0x9E37_79B9) | 1;
    let mut backoff = 0u32;
    let mut idle = true;
    // Per-lane counts, summed over the warp once at the end.
    let (mut lane_resumes, mut lane_completed) = (0u64, 0u64);
    // SAFETY: fields of the control block, which lives for the kernel (contract).
    let stop = w.run_atomic(unsafe { &raw mut (*run).stop });
    // SAFETY: `run` is as `H` requires (contract).
    let mut prof = unsafe { H::start(run, warp, lane) };

    loop {
        // Lane 0 reads the flags and the clock; every lane leaves together. A busy warp checks
        // every `FLAG_PERIOD` rounds (an error or the timeout may wait that long); an
        // idle one every round (the root's completion is only ever seen by idle warps: when
        // it completes, no task is left anywhere).
        let mut flags = 0;
        if lane == 0 {
            // SAFETY: lane 0 between rounds.
            let sh = unsafe { w.lane0() };
            if idle || sh.stats.rounds % FLAG_PERIOD == 0 {
                // Relaxed: a stopping warp reads nothing more of the run.
                flags = stop.load(Ordering::Relaxed);
                let (started, timeout) = (sh.started_ns, sh.cfg.timeout_ns);
                if flags == 0 && global_timer_ns().wrapping_sub(started) > timeout {
                    w.fail(RunError::TimedOut {
                        after: Duration::from_nanos(timeout),
                    });
                    flags = STOP_ABORT;
                }
            }
        }
        // SAFETY: all lanes are converged at the top of the loop.
        let flags = unsafe { shfl_idx(FULL, flags, 0) };
        if flags != 0 {
            break;
        }
        if lane == 0 {
            // SAFETY: lane 0 between rounds.
            unsafe { w.lane0() }.stats.rounds += 1;
        }
        prof.round_start();

        // 1. Take a batch (lane 0 decides, the lanes read their ids).
        let mut b = Batch {
            n: 0,
            kept: 0,
            kept_base: 0,
            src_warp: warp,
            src_base: 0,
            queue,
            stolen: false,
            global: false,
            source: batch_source::NONE,
        };
        if lane == 0 {
            b = take_batch(&w, queue, &mut rng);
        }
        // SAFETY: converged (lane 0's work above is not a divergent barrier region).
        let b = unsafe { broadcast(b) };
        queue = b.queue;
        let mut id = NONE;
        if lane < b.kept {
            id = w
                .ring(warp, b.queue, b.kept_base.wrapping_add(lane))
                .load(Ordering::Relaxed);
        } else if lane < b.n {
            let pos = b.src_base.wrapping_add(lane - b.kept);
            id = if b.global {
                global_queue::slot(&w, pos).load(Ordering::Relaxed)
            } else {
                w.ring(b.src_warp, b.queue, pos).load(Ordering::Relaxed)
            };
        }
        // SAFETY: converged; orders the reads above before the head update and before any
        // lane stages into the same ring positions.
        unsafe { sync_warp(FULL) };
        if lane == 0 && b.stolen {
            finish_steal(
                &w,
                &Stolen {
                    victim: b.src_warp,
                    queue: b.queue,
                    head: b.src_base,
                    n: b.n - b.kept,
                },
            );
        }
        if lane == 0 && b.global && b.n > b.kept {
            global_queue::release(&w, b.src_base, b.n - b.kept);
        }
        idle = b.n == 0;
        if b.n == 0 {
            if lane == 0 {
                // SAFETY: lane 0 between rounds.
                unsafe { w.lane0() }.stats.idle_rounds += 1;
            }
            // A program without `taskwait!` ends when every task spawned has completed;
            // warp 0 checks whenever it has nothing to do.
            // SAFETY: converged (`b.n` is uniform).
            if !P::HAS_TASKWAIT && warp == 0 && unsafe { quiescent(&w, lane) } && lane == 0 {
                // Release: as at the root's completion in `complete`.
                // SAFETY: a field of the live control block.
                w.raise_stop(
                    unsafe { &raw mut (*run).stop },
                    STOP_DONE,
                    Ordering::Release,
                );
            }
            backoff = (backoff * 2).clamp(64, 4096);
            nanosleep(backoff);
            prof.idle_round();
            continue;
        }
        backoff = 0;

        // 2. Run: each lane with a task resumes it.
        if lane == 0 {
            open_round(&w);
        }
        // SAFETY: converged; publishes the round's shared-memory setup to every lane.
        unsafe { sync_warp(FULL) };
        prof.run_start();
        // SAFETY: `id` (when not NONE) was claimed by this warp for this round, so this lane
        // alone runs it; the whole warp calls `run_lanes` together.
        let (r, c) = unsafe { run_lanes::<P>(&w, id, queue) };
        lane_resumes += u64::from(r);
        lane_completed += u64::from(c);
        // SAFETY: every lane comes back here; orders the round's writes before lane 0's
        // bookkeeping and publication.
        unsafe { sync_warp(FULL) };
        // SAFETY: converged (just after the barrier).
        unsafe { prof.run_end(r, b.n, b.source, b.queue) };

        // 3. Settle the allocator (lane 0), return the freed records (all lanes), publish
        // (lane 0).
        let (mut base, mut freed) = (0, 0);
        if lane == 0 {
            let taken;
            (base, freed, taken) = settle_allocator(&w);
            if !P::HAS_TASKWAIT {
                // Every task of the round completed (none can wait), and the round spawned
                // `taken`. Published before the round's new tasks are (in `close_round`), so a
                // completion counted anywhere comes after its spawn was counted.
                spawned_total += u64::from(taken);
                completed_total += u64::from(b.n);
                let (s, c) = w.counts(warp);
                s.store(spawned_total, Ordering::Relaxed);
                // Release: the spawn count above and the round's work (ordered by the barrier
                // before) happen before a checker that reads this count.
                c.store(completed_total, Ordering::Release);
            }
        }
        // SAFETY: converged.
        let (base, freed) = unsafe { (shfl_idx(FULL, base, 0), shfl_idx(FULL, freed, 0)) };
        // SAFETY: between the round's barriers; positions from `base` are above what the
        // round's allocations left on the stack.
        unsafe { copy_freed(&w, lane, base, freed) };
        // SAFETY: converged; orders the copies before lane 0 moves the stack pointer past them.
        unsafe { sync_warp(FULL) };
        let (mut push_n, mut push_src, mut push_base) = (0, 0, 0);
        if lane == 0 {
            (queue, (push_n, push_src)) = close_round::<P>(&w, queue, freed, WARP_SIZE);
            if push_n > 0 {
                match global_queue::reserve(&w, push_n) {
                    Some(base) => push_base = base,
                    None => push_n = 0,
                }
            }
        }
        // SAFETY: converged.
        unsafe { sync_warp(FULL) };
        if global_queue::enabled(&w) {
            // The global-queue ablation: the lanes copy the ids lane 0 reserved room for,
            // then lane 0 commits them.
            // SAFETY: converged.
            let (n, src, base) = unsafe {
                (
                    shfl_idx(FULL, push_n, 0),
                    shfl_idx(FULL, push_src, 0),
                    shfl_idx(FULL, push_base, 0),
                )
            };
            let mut i = lane;
            while i < n {
                let id = w.ring(warp, 0, src.wrapping_add(i)).load(Ordering::Relaxed);
                // Relaxed: committed by lane 0's Release store after the barrier.
                global_queue::slot(&w, base.wrapping_add(i)).store(id, Ordering::Relaxed);
                i += WARP_SIZE;
            }
            // SAFETY: converged; orders the copies before the commit.
            unsafe { sync_warp(FULL) };
            if lane == 0 && n > 0 {
                global_queue::commit(&w, base, n);
            }
        }
        prof.round_end();
    }

    prof.finish();

    // SAFETY: every lane left the loop together (the flags were broadcast).
    let resumes = unsafe { warp_sum(lane_resumes) };
    // SAFETY: as above.
    let tasks = unsafe { warp_sum(lane_completed) };
    if lane == 0 {
        // SAFETY: lane 0 after the loop; every lane has left it.
        let sh = unsafe { w.lane0() };
        let stats = WarpStats {
            resumes,
            tasks,
            records_touched: sh.fresh,
            ..sh.stats
        };
        // SAFETY: one stats slot per warp, written once, read by the host after the kernel.
        unsafe { *(cfg.stats as *mut WarpStats).add(warp as usize) = stats };
    }
}

/// Broadcasts lane 0's batch to the warp.
///
/// # Safety
/// The whole warp is converged.
#[inline(always)]
unsafe fn broadcast(b: Batch) -> Batch {
    // SAFETY: converged (contract).
    unsafe {
        Batch {
            n: shfl_idx(FULL, b.n, 0),
            kept: shfl_idx(FULL, b.kept, 0),
            kept_base: shfl_idx(FULL, b.kept_base, 0),
            src_warp: shfl_idx(FULL, b.src_warp, 0),
            src_base: shfl_idx(FULL, b.src_base, 0),
            queue: shfl_idx(FULL, b.queue, 0),
            stolen: shfl_idx(FULL, b.stolen as u32, 0) != 0,
            global: shfl_idx(FULL, b.global as u32, 0) != 0,
            // Lane 0's, for its profiler.
            source: b.source,
        }
    }
}

/// Warp 0, idle, in a program without `taskwait!`: whether every task spawned so far has
/// completed, which ends the run.
///
/// The lanes first sum every warp's `completed` count (Acquire), then, after a barrier, every
/// warp's `spawned` count. A completion counted in the first sum happened, with its
/// spawn's count before it (a warp publishes its counts before the tasks it spawned, and a
/// task runs only after it was published or kept), so at the moment the first pass ends no
/// more tasks have completed than were spawned, and the second pass sees at least as many
/// spawns. Equal sums therefore mean that, when the first pass ended, every task spawned
/// had completed: no task was running, so none can be spawned later, and the counts are
/// final. (Counts only grow, and a task counts as spawned before it can run.)
///
/// # Safety
/// The whole warp is converged.
pub(super) unsafe fn quiescent(w: &WarpCtx, lane: u32) -> bool {
    let n = w.run().num_warps;
    let mut completed = 0u64;
    let mut i = lane;
    while i < n {
        // Acquire: pairs with the Release store of the count (see above).
        completed += w.counts(i).1.load(Ordering::Acquire);
        i += WARP_SIZE;
    }
    // SAFETY: converged (contract); orders every lane's first pass before any second pass.
    unsafe { sync_warp(FULL) };
    let mut spawned = 0u64;
    let mut i = lane;
    while i < n {
        // Relaxed: ordered after the first pass by the acquire loads and the barrier.
        spawned += w.counts(i).0.load(Ordering::Relaxed);
        i += WARP_SIZE;
    }
    // SAFETY: converged (contract).
    let (completed, spawned) = unsafe { (warp_sum(completed), warp_sum(spawned)) };
    completed == spawned
}

/// The sum of `v` over the warp (butterfly reduction).
///
/// # Safety
/// The whole warp is converged.
#[inline(always)]
unsafe fn warp_sum(v: u64) -> u64 {
    let mut v = v;
    let mut offset = WARP_SIZE / 2;
    while offset > 0 {
        // SAFETY: converged (contract).
        v += unsafe { crate::arch::warp::shfl_xor(FULL, v, offset) };
        offset /= 2;
    }
    v
}

/// Lane 0: the tasks of this round. Kept entries of the current queue first (the newest 32
/// alone, with no atomic, when the warp kept more), then a pop batch from it, filled up when
/// short by a steal from the same queue of another warp (`GpuRun::top_up`); if the queue is
/// empty, the other queues round-robin (with `tuning::STEAL_PER_QUEUE`, after a steal from
/// the empty queue failed); if all are empty, a steal from random victims.
///
/// Always inlined: a call would put what the kernel passes by reference (`rng`) in local
/// memory for the whole loop, a load and a store around every use in the hottest code
/// (results/perf-notes.md has the measurement).
#[inline(always)]
fn take_batch(w: &WarpCtx, queue: u32, rng: &mut u32) -> Batch {
    let run = w.run();
    let nq = run.num_queues;
    let top_up = if run.num_warps > 1 { run.top_up } else { 0 };
    let per_queue = run.tuning & tuning::STEAL_PER_QUEUE != 0;
    // SAFETY: called by lane 0 between rounds (see the callers).
    let sh = unsafe { w.lane0() };
    for step in 0..nq {
        let q = (queue + step) % nq;
        let private = sh.private[q as usize];
        if private >= WARP_SIZE {
            // A whole batch of unpublished entries (possible when the warp keeps more than a
            // warp's width, `keep_max`): the newest 32, with no atomic at all.
            let rest = private - WARP_SIZE;
            sh.private[q as usize] = rest;
            return Batch {
                n: WARP_SIZE,
                kept: WARP_SIZE,
                kept_base: sh.tail[q as usize].wrapping_add(rest),
                src_warp: w.warp,
                src_base: 0,
                queue: q,
                stolen: false,
                global: false,
                source: batch_source::KEPT,
            };
        }
        let kept = private;
        sh.private[q as usize] = 0;
        let want = WARP_SIZE - kept;
        if global_queue::enabled(w) {
            // The ablation: what the warp kept, then ids from the global queue.
            let (h, k) = if want > 0 {
                global_queue::claim(w, want)
            } else {
                (0, 0)
            };
            return Batch {
                n: kept + k,
                kept,
                kept_base: sh.tail[q as usize],
                src_warp: w.warp,
                src_base: h,
                queue: q,
                stolen: false,
                global: k > 0,
                source: if k > 0 {
                    batch_source::GLOBAL
                } else if kept > 0 {
                    batch_source::KEPT
                } else {
                    batch_source::NONE
                },
            };
        }
        // Relaxed: the owner reads only entries it wrote itself (deque docs, edge 4).
        let count = w.deque(w.warp, q).count();
        let k = if one_at_a_time(w) {
            claim_singly(count, want, Ordering::Relaxed)
        } else {
            claim(count, |_| want, Ordering::Relaxed)
        };
        let tail = sh.tail[q as usize].wrapping_sub(k);
        sh.tail[q as usize] = tail;
        let own = kept + k;
        // Kept entries sit at [old tail, old tail + kept); the popped ones just below the
        // old tail, at [tail, tail + k). Read both as one run from `tail`.
        let mut b = Batch {
            n: own,
            kept: own,
            kept_base: tail,
            src_warp: w.warp,
            src_base: 0,
            queue: q,
            stolen: false,
            global: false,
            source: if k > 0 {
                batch_source::POP
            } else {
                batch_source::KEPT
            },
        };
        if own < WARP_SIZE
            && top_up > 0
            && (own > 0 || per_queue)
            && let Some(s) = steal(w, q, false, WARP_SIZE - own, top_up, rng, &mut sh.stats)
        {
            // The warp's own entries in lanes `0..own`, the stolen ones after them.
            b.n = own + s.n;
            b.src_warp = s.victim;
            b.src_base = s.head;
            b.stolen = true;
            b.source = if own > 0 {
                batch_source::TOP_UP
            } else {
                batch_source::STEAL
            };
            return b;
        }
        if own > 0 {
            return b;
        }
    }
    // Steal.
    if run.num_warps > 1
        && let Some(s) = steal(
            w,
            queue,
            true,
            WARP_SIZE,
            run.steal_attempts,
            rng,
            &mut sh.stats,
        )
    {
        return Batch {
            n: s.n,
            kept: 0,
            kept_base: 0,
            src_warp: s.victim,
            src_base: s.head,
            queue: s.queue,
            stolen: true,
            global: false,
            source: batch_source::STEAL,
        };
    }
    Batch {
        n: 0,
        kept: 0,
        kept_base: 0,
        src_warp: w.warp,
        src_base: 0,
        queue,
        stolen: false,
        global: false,
        source: batch_source::NONE,
    }
}

/// Entries claimed from another warp's deque; its lock stays held until the lanes have read
/// them (the caller's round releases it after moving `head`).
pub(super) struct Stolen {
    /// The warp stolen from.
    pub(super) victim: u32,
    /// Its queue.
    pub(super) queue: u32,
    /// The victim's `head` when claimed: the entries are `[head, head + n)` of its ring.
    pub(super) head: u32,
    /// Entries claimed.
    pub(super) n: u32,
}

/// Lane 0: tries up to `attempts` random victims for up to `want` entries of queue `queue`
/// (of queue `queue + attempt`, round-robin, when `vary_queue`). Inlined as
/// [`take_batch`] is. The block worker steals one entry at a time with it.
#[inline(always)]
pub(super) fn steal(
    w: &WarpCtx,
    queue: u32,
    vary_queue: bool,
    want: u32,
    attempts: u32,
    rng: &mut u32,
    stats: &mut WarpStats,
) -> Option<Stolen> {
    let run = w.run();
    for attempt in 0..attempts {
        *rng ^= *rng << 13;
        *rng ^= *rng >> 17;
        *rng ^= *rng << 5;
        let mut victim = *rng % (run.num_warps - 1);
        if victim >= w.warp {
            victim += 1;
        }
        let q = if vary_queue {
            (queue + attempt) % run.num_queues
        } else {
            queue
        };
        stats.steals_attempted += 1;
        let d = w.deque(victim, q);
        // Relaxed pre-check, to skip empty victims without touching their lock.
        if d.count().load(Ordering::Relaxed) == 0 {
            continue;
        }
        // Acquire: the previous thief's head update happens before our read of head.
        if d.lock()
            .compare_exchange(0, 1, Ordering::Acquire, Ordering::Relaxed)
            .is_err()
        {
            continue;
        }
        // Acquire: the owner's push (release fence + count add) happens before our reads of
        // the ids and their records.
        let k = if one_at_a_time(w) {
            claim_singly(d.count(), want, Ordering::Acquire)
        } else {
            claim(d.count(), |avail| avail.min(want), Ordering::Acquire)
        };
        if k == 0 {
            d.lock().store(0, Ordering::Release);
            continue;
        }
        let head = d.head().load(Ordering::Relaxed);
        stats.steals_won += 1;
        return Some(Stolen {
            victim,
            queue: q,
            head,
            n: k,
        });
    }
    None
}

/// Lane 0 (or the block worker's leader), once the stolen entries have been read: moves the
/// victim's `head` past them and releases its steal lock.
#[inline(always)]
pub(super) fn finish_steal(w: &WarpCtx, s: &Stolen) {
    let d = w.deque(s.victim, s.queue);
    // Release: our reads of the stolen entries happen before the owner reuses their slots
    // (deque docs, edge 2).
    d.head().store(s.head.wrapping_add(s.n), Ordering::Release);
    // Release: the next thief, acquiring the lock, reads the `head` stored above (edge 3).
    d.lock().store(0, Ordering::Release);
}

/// Whether pops and steals claim one task per CAS (the sequential Chase-Lev ablation).
#[inline(always)]
fn one_at_a_time(w: &WarpCtx) -> bool {
    w.run().tuning & tuning::ONE_AT_A_TIME != 0
}

/// Claims up to `want` entries of `count` one per CAS, as a deque operated one task at a
/// time would (the ablation of batched claims).
fn claim_singly(count: &crate::runtime::sync::AtomicU32, want: u32, order: Ordering) -> u32 {
    let mut got = 0;
    while got < want && claim(count, |_| 1, order) == 1 {
        got += 1;
    }
    got
}

/// Lane 0, before the lanes run: zero the round's counters and compute each queue's room.
pub(super) fn open_round(w: &WarpCtx) {
    let run = w.run();
    // SAFETY: called by lane 0 between rounds (see the callers).
    let sh = unsafe { w.lane0() };
    sh.alloc_taken = 0;
    sh.freed_n = 0;
    for q in 0..run.num_queues as usize {
        sh.staged[q] = 0;
        // The head seen last time only makes the room smaller than it is (thieves only move
        // it forward), so reload it (an L2 round trip) only when the room looks short.
        let mut used = sh.tail[q]
            .wrapping_add(sh.private[q])
            .wrapping_sub(sh.head[q]);
        // (With the global queue there are no thieves: lane 0 keeps `head` itself.)
        if run.queue_capacity.saturating_sub(used) < run.queue_capacity / 2
            && !global_queue::enabled(w)
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
    sh.fresh = (sh.fresh + (taken - from_stack)).min(run.tasks_per_warp);
    (sh.sp, sh.freed_n.min(FREED_CAP as u32), taken)
}

/// Every lane: copies the round's freed ids `lane, lane + 32, ..` below `n` onto the free
/// stack from position `base`, in parallel (lane 0 alone would take up to 64 serial steps).
///
/// # Safety
/// Between the barrier after the lanes' work and the one before [`close_round`]: the freed
/// ids are settled, and nobody reads the free stack above `base`.
#[inline(always)]
unsafe fn copy_freed(w: &WarpCtx, lane: u32, base: u32, n: u32) {
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
/// With the global-queue ablation it publishes nothing itself: it returns how many of the
/// warp's staged ids (and from which ring position) the warp must move to the global queue.
pub(super) fn close_round<P: Program>(
    w: &WarpCtx,
    current: u32,
    freed: u32,
    batch: u32,
) -> (u32, (u32, u32)) {
    let run = w.run();
    // SAFETY: called by lane 0 between rounds (see the callers).
    let sh = unsafe { w.lane0() };
    sh.sp += freed;
    if sh.sp < 2 * WARP_SIZE {
        // A quarter of the slab never used: room enough to leave the remote list for a few
        // rounds (a round allocates at most what its tasks spawn).
        let spare = run.tasks_per_warp.saturating_sub(sh.fresh) >= run.tasks_per_warp / 4;
        if sh.remote_skip > 0 && spare {
            sh.remote_skip -= 1;
        } else {
            // Acquire: pairs with the Release pushes of other warps (their last uses of the
            // records happen before we hand them out again).
            let mut id = w.remote_free(w.warp).swap(NONE, Ordering::Acquire);
            // An empty list (as in a recursion's first descent, when nothing is freed yet):
            // skip the next few rounds' look, an L2 round trip on lane 0's path each.
            sh.remote_skip = if id == NONE { REMOTE_SKIP_ROUNDS } else { 0 };
            while id != NONE {
                // SAFETY: as above; `id` is one of this warp's records, now free.
                unsafe { *w.free_stack(sh.sp) = id };
                sh.sp += 1;
                // SAFETY: the list's links were written before the pushes we acquired.
                id = unsafe { Record::<P::Task>::next_free(w.record::<P::Task>(id)) }
                    .load(Ordering::Relaxed);
            }
        }
    }
    let nq = run.num_queues as usize;
    let mut next = current as usize;
    if nq > 1 && run.tuning & tuning::MOST_GENERATED != 0 {
        // GTaP's order: the queue that got the most new tasks this round (the lowest on a
        // tie); queue 0 when there were none.
        let new = |q: usize| sh.staged[q].min(sh.room[q]);
        next = 0;
        for q in 1..nq {
            if new(q) > new(next) {
                next = q;
            }
        }
    } else if nq > 1 {
        // Tasks the warp holds in queue `q`: published (as far as it knows: thieves may have
        // taken some), kept and staged.
        let holds = |q: usize| {
            sh.tail[q]
                .wrapping_sub(sh.head[q])
                .wrapping_add(sh.private[q] + sh.staged[q].min(sh.room[q]))
        };
        // The next queue after the current one that holds a whole batch, the current one
        // last; if none does, the one that holds the most.
        let mut found = false;
        let first = usize::from(run.tuning & tuning::STAY_ON_QUEUE == 0);
        for step in first..first + nq {
            let q = (current as usize + step) % nq;
            if holds(q) >= batch {
                next = q;
                found = true;
                break;
            }
        }
        if !found {
            for q in 0..nq {
                if holds(q) > holds(next) {
                    next = q;
                }
            }
        }
    }
    // Publish: keep the newest (up to `keep_max`) of the next queue, push the rest. First
    // how many of each queue (into `staged`, read for the last time here), then the adds.
    let mut push = (0, 0);
    let mut publishing = 0;
    for q in 0..nq {
        let staged = sh.staged[q].min(sh.room[q]);
        let total = sh.private[q] + staged;
        let keep = if q == next || run.tuning & tuning::KEEP_EVERY_QUEUE != 0 {
            total.min(run.keep_max)
        } else {
            0
        };
        let n = total - keep;
        if n > 0 && global_queue::enabled(w) {
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
    (next as u32, push)
}

/// Rounds [`close_round`] leaves the remote free list alone after finding it empty.
const REMOTE_SKIP_ROUNDS: u32 = 8;

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
unsafe fn run_lanes<P: Program>(w: &WarpCtx, first: u32, current: u32) -> (u32, u32) {
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
    // SAFETY: the frame is pinned in its record and only this lane resumes it now.
    let step = unsafe { P::resume(Pin::new_unchecked(&mut *Record::task(rec)), &mut ctx) };
    let n = ctx.spawned;
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
    let parent = unsafe { Record::parent(rec) };
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
    // The root: the run is done. Release: the root's result and every task's writes
    // (acquired along the completion chain) happen before the host reads them.
    // SAFETY: a field of the live control block.
    w.raise_stop(
        unsafe { &raw mut (*w.run).stop },
        STOP_DONE,
        Ordering::Release,
    );
    None
}

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
