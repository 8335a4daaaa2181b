//! The persistent loop of a warp of thread-level workers, as its steps: enter, then rounds of
//! take ([`take`], with `take.rs`), run ([`run_round`], with `lanes.rs`) and publish
//! ([`publish_round`], with `close.rs`), then finish. See the module docs of `gpu` for the
//! round structure and the memory-ordering argument; `spawn.rs` holds the device side of
//! `spawn!`.

use core::mem::{align_of, size_of};
use core::time::Duration;

use super::batch::Batch;
use super::close::{
    close_round, copy_freed, lend_for_roots, open_round, settle_allocator, time_round,
};
use super::global_queue;
use super::lanes::{LaneRun, run_lanes};
use super::layout::{
    GpuRun, KernelError, NONE, STOP_ABORT, STOP_DONE, WarpStats, batch_source, roots_built,
};
use super::profile::Hooks;
use super::sched::Scheduler;
use super::take::{Stolen, finish_steal, take_batch};
use super::warp::{self, WarpCtx, WarpShared};
use crate::arch::copy::read_words;
use crate::arch::index::{global_warp_id, lane_id, warp_id};
use crate::arch::shared::dynamic_shared_memory;
use crate::arch::time::{global_timer_ns, nanosleep};
use crate::arch::warp::{WARP_SIZE, ballot, shfl_idx, sync_warp};
use crate::runtime::RunError;
use crate::runtime::deque::publish;
use crate::runtime::record::Record;
use crate::runtime::sync::{AtomicU32, Ordering};
use crate::task::Program;

const FULL: u32 = u32::MAX;

/// How often (in rounds) a busy warp checks the stop flags.
const FLAG_PERIOD: u64 = 32;

/// The kernel body of program `P`'s persistent kernel (thread-level workers). The
/// `#[gtap::program]` macro wraps it in an `extern "ptx-kernel"` entry named `gtap_<name>`
/// with the profiler's hooks off ([`profile::Off`](super::profile::Off)) and the
/// work-stealing scheduler ([`sched`](super::sched)); in a build with `--cfg gtap_lab`, also
/// in the lab kernels: `gtap_<name>_profiled` with the hooks on
/// ([`profile::On`](super::profile::On)), in which lane 0 of every warp records each round,
/// under the scheduler the run's tuning bits name, and one kernel per ablation scheduler.
/// `Off`'s hooks are empty and its state has no size, and `WorkStealing` answers every
/// scheduler question with a constant, so the plain kernel carries none of their code.
///
/// # Safety
/// `run` points to a control block the host filled for program `P` (see
/// [`GpuRun`](super::layout::GpuRun)), and the kernel was launched with
/// `warps_per_block * size_of::<WarpShared>()` bytes of dynamic shared memory; and what
/// [`Hooks::start`] requires of `run` for `H`.
// Always inlined into the program's kernel, its one caller, for the reason `run_lanes` is.
#[inline(always)]
pub unsafe fn thread_worker<P: Program, H: Hooks, S: Scheduler>(run: *mut GpuRun) {
    let lane = lane_id();
    // SAFETY: `run` is the control block of program `P` (contract); the warps' shared states
    // start the block's dynamic shared memory.
    let Some(w) = (unsafe { enter::<P>(run, lane, 0) }) else {
        return;
    };
    let mut l = LoopState::new(w.warp, w.run());
    // SAFETY: a field of the control block, which lives for the kernel (contract).
    let stop = w.run_atomic(unsafe { &raw mut (*run).stop });
    // SAFETY: `run` is as `H` requires (contract).
    let mut prof = unsafe { H::start(run, w.warp, lane) };

    loop {
        // SAFETY: all lanes are converged at the top of the loop.
        if unsafe { stop_requested(&w, lane, l.idle, stop) } {
            break;
        }
        // SAFETY: converged, as above.
        unsafe { round::<P, H, S>(&w, lane, &mut l, &mut prof) };
    }
    prof.finish();
    // SAFETY: every lane left the loop together (the flags were broadcast).
    unsafe { finish(&w, lane, &l) };
}

/// What a warp keeps from round to round, in registers (every step below is inlined).
pub(super) struct LoopState {
    /// The EPAQ queue the warp works on.
    queue: u32,
    /// The victim choice's xorshift state (lane 0's).
    pub(super) rng: u32,
    /// The idle sleep, doubled per idle round.
    backoff: u32,
    /// The last round found no task.
    pub(super) idle: bool,
    /// Programs without `taskwait!`: tasks this warp spawned and completed (lane 0's copy;
    /// a warp counts the roots it built as spawned).
    spawned_total: u64,
    completed_total: u64,
    /// Per-lane counts, summed over the warp once at the end.
    pub(super) lane_resumes: u64,
    pub(super) lane_completed: u64,
}

impl LoopState {
    /// The loop state of warp `warp` of a run with control block `cfg`.
    #[inline(always)]
    pub(super) fn new(warp: u32, cfg: &GpuRun) -> LoopState {
        LoopState {
            queue: 0,
            rng: warp.wrapping_mul(0x9E37_79B9) | 1,
            backoff: 0,
            idle: true,
            spawned_total: u64::from(roots_built(warp, cfg.num_warps, cfg.num_roots)),
            completed_total: 0,
            lane_resumes: 0,
            lane_completed: 0,
        }
    }
}

/// One round after the stop check: take a batch; with none, idle; else run it and publish
/// what it made (steps 1 to 3).
///
/// # Safety
/// The whole warp is converged, between rounds.
#[inline(always)]
pub(super) unsafe fn round<P: Program, H: Hooks, S: Scheduler>(
    w: &WarpCtx,
    lane: u32,
    l: &mut LoopState,
    prof: &mut H,
) {
    prof.round_start();
    // SAFETY: converged (contract).
    let (b, id) = unsafe { take::<P, S>(w, lane, l) };
    l.idle = b.n == 0;
    if b.n == 0 {
        // SAFETY: converged (`b.n` is uniform).
        unsafe { idle::<P>(w, lane, l) };
        prof.idle_round();
        return;
    }
    l.backoff = 0;
    // SAFETY: converged; `id` (when not NONE) was claimed by this warp for this round.
    let ran = unsafe { run_round::<P, H, S>(w, lane, id, &b, l.queue, prof) };
    l.lane_resumes += u64::from(ran.resumes);
    l.lane_completed += u64::from(ran.completed);
    // A lane that resumed more than its own task resumed parents inline (`resume_inline`):
    // the round ran up a chain of the tree after its batch, and its length says little of
    // how heavy its tasks were (`close::time_round`).
    // SAFETY: converged, just after the round's barrier.
    let chained = unsafe { ballot(FULL, ran.resumes > 1) } != 0;
    // SAFETY: converged, just after the round's barrier.
    unsafe { publish_round::<P, S>(w, lane, b.n, chained, l) };
    prof.round_end();
}

/// The start of the kernel for one warp: its context, after checking the host's layout of
/// program `P` and (warp 0) building the root task; `None` for a warp past the run's warps
/// or a layout mismatch (reported). The block's warps keep their [`WarpShared`]s one after
/// the other from byte `shared_base` of its dynamic shared memory.
///
/// # Safety
/// The whole warp calls it at kernel start; `run` is as [`thread_worker`] requires, with
/// the warps' shared states at `shared_base`.
#[inline(always)]
pub(super) unsafe fn enter<P: Program>(
    run: *mut GpuRun,
    lane: u32,
    shared_base: usize,
) -> Option<WarpCtx> {
    let warp = global_warp_id();
    // SAFETY: the control block lives for the kernel (contract).
    let cfg = unsafe { read_words(run) };
    super::panic::set_sink(cfg.panic_report, run);
    if warp >= cfg.num_warps {
        return None;
    }
    let sh: *mut WarpShared = dynamic_shared_memory::<u8>()
        .wrapping_add(shared_base)
        .cast::<WarpShared>()
        .wrapping_add(warp_id() as usize);
    let w = WarpCtx { run, sh, warp };

    if !layout_matches::<P>(&w, &cfg, lane == 0) {
        return None;
    }
    if lane == 0 {
        // SAFETY: lane 0 at kernel start, before the first barrier.
        unsafe { init_worker::<P>(&w, &cfg) };
    }
    // SAFETY: the whole warp reaches this point (no lane returned above without all).
    unsafe { sync_warp(FULL) };
    Some(w)
}

/// Whether the host laid out program `P`'s records and root arguments as this compilation
/// does (sizes and alignment); a mismatch is reported by the worker's `reporter` thread.
/// The host sized them with its own compilation of the program; a mismatch would corrupt
/// everything, so every worker checks before touching any.
#[inline(always)]
pub(super) fn layout_matches<P: Program>(w: &WarpCtx, cfg: &GpuRun, reporter: bool) -> bool {
    let size = size_of::<Record<P::Task>>() as u32;
    let align = align_of::<Record<P::Task>>() as u32;
    let ok = size == cfg.record_size
        && align == cfg.record_align
        && size_of::<P::Args>() as u32 == cfg.args_size;
    if !ok && reporter {
        w.fail(KernelError::LayoutMismatch { size, align });
    }
    ok
}

/// The worker's shared state at kernel start, and its share of the run's roots
/// ([`roots_built`]), built here from their arguments (a frame's layout may differ between
/// the host's compilation and this one; the `repr(C)` arguments' does not). A run's one root
/// goes to record 0 and stays unpublished as warp 0's first task; a batch's roots are
/// published in queue 0 of the warps that built them, for every warp to steal.
///
/// # Safety
/// Lane 0 (or the block's leader) at kernel start, before the worker's first barrier, after
/// [`layout_matches`] held.
#[inline(always)]
pub(super) unsafe fn init_worker<P: Program>(w: &WarpCtx, cfg: &GpuRun) {
    // SAFETY: lane 0 at kernel start (contract).
    let sh = unsafe { w.lane0() };
    warp::init(sh, w.warp, cfg);
    let roots = roots_built(w.warp, cfg.num_warps, cfg.num_roots);
    let slab = w.warp * cfg.tasks_per_warp;
    for k in 0..roots {
        let i = w.warp + k * cfg.num_warps;
        // SAFETY: the host wrote `num_roots` `P::Args` at `root_args` (sizes checked,
        // contract), and `i < num_roots`.
        let args =
            unsafe { core::ptr::read_unaligned((cfg.root_args as *const P::Args).add(i as usize)) };
        let slot = (cfg.root_result + u64::from(i) * u64::from(cfg.result_size)) as *mut u8;
        let rec = w.record::<P::Task>(slab + k);
        // SAFETY: record `k` of this warp's slab is not handed out yet; nothing else runs it.
        unsafe {
            Record::init(rec);
            let args = crate::task::split::split_root::<P>(args, &cfg.granularity);
            Record::fill(rec, NONE, slot, 0, P::start(args));
        }
        w.ring(w.warp, 0, k).store(slab + k, Ordering::Relaxed);
    }
    sh.fresh = roots;
    lend_for_roots(w, roots);
    if cfg.num_roots == 1 {
        // The first take reads it as a task the warp kept.
        sh.private[0] = roots;
    } else if roots > 0 {
        sh.tail[0] = roots;
        // Release: the records and ring entries written above happen before a thief's claim.
        publish(w.deque(w.warp, 0).count(), roots);
    }
}

/// Whether the run is over for this warp (done, failed, or past its timeout), counting the
/// round that starts otherwise. Lane 0 reads the flags and the clock; every lane leaves
/// together. A busy warp checks every `FLAG_PERIOD` rounds (an error or the timeout may wait
/// that long); an idle one every round (the root's completion is only ever seen by idle warps:
/// when it completes, no task is left anywhere).
///
/// # Safety
/// The whole warp is converged.
#[inline(always)]
pub(super) unsafe fn stop_requested(w: &WarpCtx, lane: u32, idle: bool, stop: &AtomicU32) -> bool {
    let mut flags = 0;
    if lane == 0 {
        // SAFETY: lane 0 between rounds.
        let sh = unsafe { w.lane0() };
        let period = sh.stats.rounds % FLAG_PERIOD == 0;
        if period && sh.cfg.granularity.on != 0 {
            super::close::share_grid_policy(stop, sh);
        }
        if idle || period {
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
    // SAFETY: converged (contract).
    let flags = unsafe { shfl_idx(FULL, flags, 0) };
    if flags == 0 && lane == 0 {
        // SAFETY: lane 0 between rounds.
        unsafe { w.lane0() }.stats.rounds += 1;
    }
    flags != 0
}

/// Step 1, take: lane 0 decides where the round's tasks come from ([`take_batch`]), every
/// lane reads its id, and lane 0 releases what it claimed from others (a victim's steal lock,
/// the global queue's slots). Returns the batch and this lane's task (`NONE` if none).
///
/// # Safety
/// The whole warp is converged.
#[inline(always)]
unsafe fn take<P: Program, S: Scheduler>(
    w: &WarpCtx,
    lane: u32,
    l: &mut LoopState,
) -> (Batch, u32) {
    let warp = w.warp;
    // Where the batch came from: lane 0's, for its profiler.
    let mut source = batch_source::NONE;
    if lane == 0 {
        let b = take_batch::<S>(w, l.queue, thread_queues::<P>(w.run()), &mut l.rng);
        // SAFETY: lane 0, before the barrier below.
        unsafe { w.lane0() }.batch = b.words();
        source = b.source;
    }
    // SAFETY: converged before lane 0's part (contract); every lane comes here. Orders
    // lane 0's writes above before the reads below.
    unsafe { sync_warp(FULL) };
    // SAFETY: written by lane 0 before the barrier, next written in the next round's take,
    // after the round's later barriers.
    let b = Batch::from_words(unsafe { (*w.sh).batch }, source);
    l.queue = b.queue;
    let mut id = NONE;
    if lane < b.kept {
        id = w
            .ring(warp, b.queue, b.kept_base.wrapping_add(lane))
            .load(Ordering::Relaxed);
    } else if lane < b.n {
        let pos = b.src_base.wrapping_add(lane - b.kept);
        id = if S::global_queue(w.run()) && b.global {
            global_queue::slot(w, pos).load(Ordering::Relaxed)
        } else {
            w.ring(b.src_warp, b.queue, pos).load(Ordering::Relaxed)
        };
    }
    // SAFETY: converged; orders the reads above before the head update and before any
    // lane stages into the same ring positions.
    unsafe { sync_warp(FULL) };
    if lane == 0 && b.stolen {
        finish_steal(
            w,
            &Stolen {
                victim: b.src_warp,
                queue: b.queue,
                head: b.src_base,
                n: b.n - b.kept,
            },
        );
    }
    if S::global_queue(w.run()) && lane == 0 && b.global && b.n > b.kept {
        global_queue::release(w, b.src_base, b.n - b.kept);
    }
    (b, id)
}

/// The longest an idle warp of a thread kernel sleeps between two looks for work, in ns.
///
/// A small tree's run is a chain of rounds, each waiting for the tasks the last one
/// published, and most warps are idle, so what a published task waits for is an idle thief
/// to wake: a long sleep adds to every step of the chain. A short one costs the large runs
/// the traffic of idle warps looking at their victims, and with hardly any sleep (GTaP's
/// warps spin) a large run of a program without `taskwait!` slowed down. This bound is
/// where small trees gained and large ones lost little (the idle-sleep record in
/// `results/`).
const IDLE_SLEEP_MAX_NS: u32 = 256;

/// A round that found no task: counts it, ends a program without `taskwait!` when every task
/// spawned has completed (warp 0 checks whenever it has nothing to do), and sleeps a while,
/// longer each idle round in a row.
///
/// # Safety
/// The whole warp is converged.
#[inline(always)]
unsafe fn idle<P: Program>(w: &WarpCtx, lane: u32, l: &mut LoopState) {
    let backoff = &mut l.backoff;
    let mut injected = 0;
    if lane == 0 {
        // SAFETY: lane 0 between rounds.
        unsafe { w.lane0() }.stats.idle_rounds += 1;
        if P::HAS_TASKWAIT && super::inject::polls(w) {
            // SAFETY: lane 0 between rounds of a resident run (`polls`).
            injected = unsafe { super::inject::take_roots::<P>(w) };
            // SAFETY: as above.
            if injected == 0 && unsafe { super::inject::finished(w) } {
                // Release: as at the root's completion in `complete`.
                // SAFETY: a field of the live control block.
                w.raise_stop(
                    unsafe { &raw mut (*w.run).stop },
                    STOP_DONE,
                    Ordering::Release,
                );
            }
        }
    }
    if P::HAS_TASKWAIT && w.run().inject != 0 {
        // SAFETY: converged (contract; a uniform branch).
        if unsafe { shfl_idx(FULL, injected, 0) } > 0 {
            // Roots in queue 0: the next round takes them, at once.
            l.queue = 0;
            *backoff = 0;
            return;
        }
    }
    // SAFETY: converged (contract).
    if !P::HAS_TASKWAIT && w.warp == 0 && unsafe { quiescent(w, lane) } && lane == 0 {
        // Release: as at the root's completion in `complete`.
        // SAFETY: a field of the live control block.
        w.raise_stop(
            unsafe { &raw mut (*w.run).stop },
            STOP_DONE,
            Ordering::Release,
        );
    }
    // In a mixed program an idle warp must soon see its leader's next block step, which waits
    // for it at a barrier: it sleeps less. A resident run sleeps what its host chose.
    let longest = if P::MIXED {
        512
    } else if P::HAS_TASKWAIT && w.run().inject != 0 {
        w.run().inject_idle_ns.max(64)
    } else {
        IDLE_SLEEP_MAX_NS
    };
    *backoff = (*backoff * 2).clamp(64, longest);
    nanosleep(*backoff);
}

/// Step 2, run: each lane with a task resumes it ([`run_lanes`]), between the barriers that
/// publish the round's shared-memory setup to the lanes and the lanes' writes to lane 0.
/// Returns what this lane did.
///
/// # Safety
/// The whole warp is converged; `id` (when not NONE) was claimed by this warp for this round.
#[inline(always)]
unsafe fn run_round<P: Program, H: Hooks, S: Scheduler>(
    w: &WarpCtx,
    lane: u32,
    id: u32,
    b: &Batch,
    queue: u32,
    prof: &mut H,
) -> LaneRun {
    if lane == 0 {
        open_round::<S>(w);
    }
    // SAFETY: converged; publishes the round's shared-memory setup to every lane.
    unsafe { sync_warp(FULL) };
    prof.run_start();
    // SAFETY: this lane alone runs `id` (contract); the whole warp calls `run_lanes` together.
    let ran = unsafe { run_lanes::<P>(w, id, queue) };
    // SAFETY: every lane comes back here; orders the round's writes before lane 0's
    // bookkeeping and publication.
    unsafe { sync_warp(FULL) };
    // SAFETY: converged (just after the barrier).
    unsafe { prof.run_end(ran.resumes, b.n, b.source, b.queue) };
    ran
}

/// Step 3, publish: lane 0 settles the allocator, every lane returns the round's freed
/// records, lane 0 publishes the round's new tasks ([`close_round`]) and picks the next queue;
/// with the global-queue ablation, the lanes copy the new tasks there. `completed` is how
/// many tasks completed on the warp in the round (lane 0's value counts): for programs
/// without `taskwait!`, every task the round ran; `chained`, whether a lane resumed a
/// parent inline in it.
///
/// # Safety
/// The whole warp is converged, just after the round's run ([`run_round`]).
#[inline(always)]
pub(super) unsafe fn publish_round<P: Program, S: Scheduler>(
    w: &WarpCtx,
    lane: u32,
    completed: u32,
    chained: bool,
    l: &mut LoopState,
) {
    let warp = w.warp;
    let (mut base, mut freed) = (0, 0);
    if lane == 0 {
        time_round(w, chained);
        let taken;
        (base, freed, taken) = settle_allocator(w);
        if !P::HAS_TASKWAIT {
            // Every task of the round completed (none can wait), and the round spawned
            // `taken`. Published before the round's new tasks are (in `close_round`), so a
            // completion counted anywhere comes after its spawn was counted.
            l.spawned_total += u64::from(taken);
            l.completed_total += u64::from(completed);
            let (s, c) = w.counts(warp);
            s.store(l.spawned_total, Ordering::Relaxed);
            // Release: the spawn count above and the round's work (ordered by the barrier
            // before) happen before a checker that reads this count.
            c.store(l.completed_total, Ordering::Release);
        }
    }
    // SAFETY: converged (contract).
    let (base, freed) = unsafe { (shfl_idx(FULL, base, 0), shfl_idx(FULL, freed, 0)) };
    // SAFETY: between the round's barriers; positions from `base` are above what the
    // round's allocations left on the stack.
    unsafe { copy_freed(w, lane, base, freed) };
    // SAFETY: converged; orders the copies before lane 0 moves the stack pointer past them.
    unsafe { sync_warp(FULL) };
    let (mut push_n, mut push_src, mut push_base) = (0, 0, 0);
    if lane == 0 {
        let closed = close_round::<P, S>(w, l.queue, freed, WARP_SIZE);
        (l.queue, push_n, push_src) = (closed.next, closed.to_global, closed.global_src);
        if S::global_queue(w.run()) && push_n > 0 {
            match global_queue::reserve(w, push_n) {
                Some(base) => push_base = base,
                None => push_n = 0,
            }
        }
    }
    // Only the global queue's copies need the lanes here again, after lane 0's reservation.
    // Under work stealing nothing the lanes do before the next round's barriers reads what
    // lane 0 wrote above, and a barrier at the loop's end costs time on its own (the
    // compile-time schedulers record in results/ has the measurement).
    if S::global_queue(w.run()) {
        // SAFETY: converged (a uniform branch): orders lane 0's reservation before the copies.
        unsafe { sync_warp(FULL) };
        // SAFETY: converged.
        unsafe { push_global(w, lane, push_n, push_src, push_base) };
    }
}

/// The global-queue ablation's publish: the lanes copy the ids lane 0 reserved room for
/// (`n` of them, from ring position `src`, to global slot `base`), then lane 0 commits them.
///
/// # Safety
/// The whole warp is converged.
#[inline(always)]
unsafe fn push_global(w: &WarpCtx, lane: u32, n: u32, src: u32, base: u32) {
    // SAFETY: converged (contract).
    let (n, src, base) = unsafe {
        (
            shfl_idx(FULL, n, 0),
            shfl_idx(FULL, src, 0),
            shfl_idx(FULL, base, 0),
        )
    };
    let mut i = lane;
    while i < n {
        let id = w
            .ring(w.warp, 0, src.wrapping_add(i))
            .load(Ordering::Relaxed);
        // Relaxed: committed by lane 0's Release store after the barrier.
        global_queue::slot(w, base.wrapping_add(i)).store(id, Ordering::Relaxed);
        i += WARP_SIZE;
    }
    // SAFETY: converged; orders the copies before the commit.
    unsafe { sync_warp(FULL) };
    if lane == 0 && n > 0 {
        global_queue::commit(w, base, n);
    }
}

/// Step 4, finish: the warp's statistics, summed over its lanes, into its slot for the host.
///
/// # Safety
/// The whole warp is converged, after the loop.
#[inline(always)]
pub(super) unsafe fn finish(w: &WarpCtx, lane: u32, l: &LoopState) {
    // SAFETY: converged (contract).
    let resumes = unsafe { warp_sum(l.lane_resumes) };
    // SAFETY: as above.
    let tasks = unsafe { warp_sum(l.lane_completed) };
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
        unsafe { *(w.run().stats as *mut WarpStats).add(w.warp as usize) = stats };
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

/// How many of a worker's queues hold thread tasks: all of them, but in a mixed program the
/// last, which holds block tasks (`mixed`). A constant but for the one field in thread and
/// block programs.
#[inline(always)]
pub(super) fn thread_queues<P: Program>(run: &GpuRun) -> u32 {
    run.num_queues - u32::from(P::MIXED)
}
