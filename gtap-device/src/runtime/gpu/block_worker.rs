//! The persistent loop of a block-level worker: every thread block of the grid is one worker
//! that runs one block task (`#[gtap::task(block)]`) at a time, all its threads running the
//! body (GTaP sections 4.3.1 and 5.1.3).
//!
//! A block worker is a thread-level worker whose batch is one task. Its deques, EPAQ queues,
//! record slab, free lists, join protocol and termination are the warp runtime's, unchanged:
//! the block's thread 0 (the *leader*) plays lane 0 and does every queue and join operation,
//! on a [`WarpShared`] at the start of the block's dynamic shared memory; the task's threads
//! spawn through the same `spawn` (`.cta` atomics on that state, so any thread of the block
//! may spawn). What differs is how a task runs, and that part follows the CPU backend's teams
//! (`runtime::cpu::team`): every thread resumes its own copy of the frame, read from the
//! record, and the leader's copy is written back when the task suspends.
//!
//! One iteration of the loop, with two block barriers:
//!
//! 1. The leader reads the stop flags and the clock, takes a task (the one it kept, a pop
//!    from its own queues round-robin, else a steal of one task from a random victim), opens
//!    the step's shared-memory counters, and *posts* the task's id (or "none", or "stop").
//! 2. **Barrier.** Every thread reads the post. On a task: each copies the frame, resumes it
//!    with its thread index, and reports its outcome (returned, or the taskwait site) into a
//!    shared minimum and maximum, and its spawn count into a shared sum.
//! 3. **Barrier.** Every thread sees the same outcome range. Unequal: a divergent taskwait,
//!    and the run fails naming the first thread that differs from the leader (two more
//!    barriers). A suspension: the leader writes its frame back; with the uniformity check
//!    on, every thread then compares its copy with the record (two more barriers). Then the
//!    leader alone applies the join protocol with the block's total of children, completes
//!    tasks up the tree, and publishes the step's children (as a warp publishes its round's).
//!
//! The posts and step counters are double-buffered by the iteration's parity: a thread reads
//! iteration `i`'s words after the first barrier of `i` and before it arrives at the first
//! barrier of `i + 1`, and the leader rewrites them only in iteration `i + 2`, after passing
//! that barrier. So no extra barrier is needed for the leader to reuse them.
//!
//! # Memory ordering and scope
//! - `bar.sync` orders shared and global memory among the block's threads (it implies
//!   `membar.cta`): the leader's post, the record it took (acquired from a deque or a join
//!   RMW by the leader), the threads' staged ids, children's records and outcome words.
//! - Children are published by the leader's `.gpu` release RMW on its queue's count (as in
//!   the warp runtime), after the barrier that ordered every thread's writes before it; the
//!   release is cumulative over what the leader observed, so thieves see the records.
//! - The frame write-back happens before that publication, so no child writes a result into
//!   the record before the leader's copy lands there.

use core::mem::{MaybeUninit, size_of};
use core::pin::Pin;
use core::time::Duration;

use super::close::{close_round, open_round, settle_allocator};
use super::layout::{GpuRun, NONE, STOP_ABORT, STOP_DONE, WarpStats, roots_built, tuning};
use super::sched::WorkStealing;
use super::warp::{WarpCtx, WarpShared};
use super::worker::{init_worker, layout_matches, quiescent};
use crate::arch::barrier::sync_threads;
use crate::arch::copy::{copy_words, read_words};
use crate::arch::index::{block_idx_x, thread_idx_x};
use crate::arch::ops::AtomicInt;
use crate::arch::order::{Cta, Relaxed};
use crate::arch::shared::dynamic_shared_memory;
use crate::arch::time::{global_timer_ns, nanosleep};
use crate::runtime::RunError;
use crate::runtime::deque::claim;
use crate::runtime::join::{self, AfterReturn, AfterWait, MAX_OUTSTANDING, ParentNext};
use crate::runtime::record::Record;
use crate::runtime::sync::{AtomicU32, Ordering};
use crate::task::block::{RUNTIME_SHARED_BYTES, SCRATCH_OFFSET_AT};
use crate::task::{Ctx, Program, Step};

/// A post: leave the loop.
const STOP: u32 = u32::MAX - 1;

/// A thread's outcome word: bit 31 set when the task returned, else its taskwait site.
const RETURNED: u32 = 1 << 31;

/// One iteration's shared words (two of them, by parity; see the module docs).
#[repr(C)]
pub(super) struct StepWords {
    /// The task id the leader posted, [`NONE`] (idle) or [`STOP`].
    pub(super) post: u32,
    /// Smallest and largest outcome word over the threads.
    pub(super) outcome_min: u32,
    pub(super) outcome_max: u32,
    /// Children the threads spawned in this step, summed.
    pub(super) spawned: u32,
    /// The leader's outcome, for the threads to compare with (divergence only).
    leader_outcome: u32,
    /// Smallest index of a thread that differs from the leader (divergence only).
    diverged: u32,
    /// Threads whose frame differed from the record's (the uniformity check).
    mismatched: u32,
}

impl StepWords {
    /// The words of a step that runs `post`, with the counters the threads fold into open.
    pub(super) fn posting(post: u32) -> StepWords {
        StepWords {
            post,
            outcome_min: u32::MAX,
            outcome_max: 0,
            spawned: 0,
            leader_outcome: 0,
            diverged: u32::MAX,
            mismatched: 0,
        }
    }
}

/// Writes where a block task's scratch starts ([`crate::task::block::SCRATCH_OFFSET_AT`]).
///
/// # Safety
/// One thread of the block, at kernel start, before the barrier that precedes any task.
pub(super) unsafe fn set_scratch_offset(offset: u32) {
    let word = dynamic_shared_memory::<u8>().wrapping_add(SCRATCH_OFFSET_AT);
    // SAFETY: the runtime's word of the block's dynamic shared memory (contract).
    unsafe { word.cast::<u32>().write_volatile(offset) };
}

/// The block's shared state: the worker's queue and allocator bookkeeping, then the steps.
#[repr(C)]
pub struct BlockShared {
    warp: WarpShared,
    steps: [StepWords; 2],
}

const _: () = assert!(
    size_of::<BlockShared>() <= crate::task::block::AGREE_AT,
    "task::block::RUNTIME_SHARED_BYTES must cover BlockShared, Block::agree's key and the scratch offset word"
);

/// The kernel body of block program `P`'s persistent kernel: one worker per thread block.
/// The `#[gtap::program]` macro wraps it in an `extern "ptx-kernel"` entry named
/// `gtap_<name>` for programs of block tasks.
///
/// # Safety
/// `run` points to a control block the host filled for program `P`, with `num_warps`
/// counting blocks (one worker each) and per-worker arrays sized for them; the kernel was
/// launched with one-dimensional blocks and at least `RUNTIME_SHARED_BYTES` of dynamic
/// shared memory (a task's scratch follows it).
pub unsafe fn block_worker<P: Program>(run: *mut GpuRun) {
    let tid = thread_idx_x();
    // SAFETY: `run` is the control block of program `P` (contract).
    let Some((w, bs)) = (unsafe { enter::<P>(run, tid == 0) }) else {
        return;
    };
    let check_uniform = w.run().tuning & tuning::CHECK_UNIFORM != 0;
    let mut l = BlockLoop::new(w.warp, w.run());
    // SAFETY: a field of the control block, which lives for the kernel.
    let stop = w.run_atomic(unsafe { &raw mut (*run).stop });
    loop {
        // SAFETY: `bs` covers both step words; see the module docs for who writes them when.
        let words = unsafe { &raw mut (*bs).steps[l.parity] };
        l.parity ^= 1;
        if tid == 0 {
            // SAFETY: the leader, before this iteration's first barrier.
            unsafe { post_next(&w, words, &mut l, stop) };
        }
        // SAFETY: every thread of the block reaches this barrier once per iteration.
        unsafe { sync_threads() };
        // SAFETY: written before the barrier; not rewritten before the next one (parity).
        let id = unsafe { (&raw const (*words).post).read_volatile() };
        if id == STOP {
            break;
        }
        l.stats.rounds += 1;
        if id == NONE {
            // SAFETY: every thread read the same post (a uniform branch).
            unsafe { idle::<P>(&w, tid, &mut l) };
            continue;
        }
        l.backoff = 0;
        // SAFETY: every thread read the same task id, which the leader took for this block.
        unsafe { step::<P>(&w, words, tid, id, check_uniform, &mut l) };
    }
    if tid == 0 {
        // SAFETY: the leader after the loop; every thread has left it.
        unsafe { finish(&w, &mut l) };
    }
}

/// What a block worker keeps from iteration to iteration (the leader's copy is the one that
/// counts, except for `parity`, which every thread keeps).
struct BlockLoop {
    stats: WarpStats,
    /// Programs without `taskwait!`: tasks this worker spawned and completed (a worker counts
    /// the roots it built as spawned).
    spawned_total: u64,
    completed_total: u64,
    /// The EPAQ queue the worker takes from first.
    queue: u32,
    /// The victim choice's xorshift state.
    rng: u32,
    /// The idle sleep, doubled per idle iteration.
    backoff: u32,
    /// A task whose taskwait found its children complete: run again next, with no queue.
    again: u32,
    started_ns: u64,
    /// Which of the two step words this iteration uses.
    parity: usize,
}

impl BlockLoop {
    fn new(worker: u32, cfg: &GpuRun) -> BlockLoop {
        BlockLoop {
            stats: WarpStats::default(),
            spawned_total: u64::from(roots_built(worker, cfg.num_warps, cfg.num_roots)),
            completed_total: 0,
            queue: 0,
            rng: worker.wrapping_mul(0x9E37_79B9) | 1,
            backoff: 0,
            again: NONE,
            started_ns: global_timer_ns(),
            parity: 0,
        }
    }
}

/// The start of the kernel for one block: its context and shared state, after checking the
/// host's layout of program `P` and (block 0) building the root task; `None` for a block past
/// the run's workers or a layout mismatch (reported by the leader). Every thread it returns
/// `Some` to finds the shared state written: the leader writes it, then the block waits.
///
/// # Safety
/// Every thread of the block calls it at kernel start; `run` is as [`block_worker`] requires.
unsafe fn enter<P: Program>(run: *mut GpuRun, leader: bool) -> Option<(WarpCtx, *mut BlockShared)> {
    let worker = block_idx_x();
    // SAFETY: the control block lives for the kernel (contract).
    let cfg = unsafe { read_words(run) };
    super::panic::set_sink(cfg.panic_report, run);
    if worker >= cfg.num_warps {
        return None;
    }
    let bs: *mut BlockShared = dynamic_shared_memory::<BlockShared>();
    // SAFETY: `bs` is the start of the block's dynamic shared memory, which covers it.
    let sh = unsafe { &raw mut (*bs).warp };
    let w = WarpCtx {
        run,
        sh,
        warp: worker,
    };
    if !layout_matches::<P>(&w, &cfg, leader) {
        return None;
    }
    if leader {
        // SAFETY: the leader at kernel start, before the first barrier.
        unsafe { init_worker::<P>(&w, &cfg) };
        // SAFETY: the runtime's word of the block's dynamic shared memory; tasks read it
        // after the first barrier. The scratch follows the runtime's part.
        unsafe { set_scratch_offset(RUNTIME_SHARED_BYTES as u32) };
    }
    // Every other thread reads the leader's shared copy of the control block from here on,
    // so it waits for that write (shared memory starts with whatever the SM's previous block
    // left there, and a stale `num_warps` of 0 traps `roots_built`).
    // SAFETY: every thread of the block reaches this barrier or none does: the checks above
    // read only the control block, the same for every thread.
    unsafe { sync_threads() };
    Some((w, bs))
}

/// The leader, at the top of an iteration: reads the stop flags and the clock, takes the
/// next task, opens the step's counters and posts what the block does (a task id, [`NONE`]
/// or [`STOP`]) in this iteration's words.
///
/// # Safety
/// The leader alone, before the iteration's first barrier; `words` are this iteration's.
unsafe fn post_next(w: &WarpCtx, words: *mut StepWords, l: &mut BlockLoop, stop: &AtomicU32) {
    let timeout_ns = w.run().timeout_ns;
    // Relaxed: a stopping worker reads nothing more of the run.
    let mut flags = stop.load(Ordering::Relaxed);
    if flags == 0 && global_timer_ns().wrapping_sub(l.started_ns) > timeout_ns {
        w.fail(RunError::TimedOut {
            after: Duration::from_nanos(timeout_ns),
        });
        flags = STOP_ABORT;
    }
    let post = if flags != 0 {
        STOP
    } else if l.again != NONE {
        core::mem::replace(&mut l.again, NONE)
    } else {
        take(w, &mut l.queue, &mut l.rng)
    };
    if post != STOP && post != NONE {
        open_round::<WorkStealing>(w);
    }
    // SAFETY: the leader alone writes this iteration's words, before the barrier.
    unsafe { words.write(StepWords::posting(post)) };
}

/// An iteration with no task: a program without `taskwait!` ends when every task spawned
/// has completed (worker 0's first warp checks whenever it is idle); then the leader sleeps
/// a while, longer each idle iteration in a row.
///
/// # Safety
/// Every thread of the block calls it (a uniform branch after the post).
unsafe fn idle<P: Program>(w: &WarpCtx, tid: u32, l: &mut BlockLoop) {
    l.stats.idle_rounds += 1;
    let quiet = !P::HAS_TASKWAIT && w.warp == 0 && tid < 32 && {
        // SAFETY: the first warp of block 0 is converged here (a uniform branch after the
        // barrier).
        unsafe { quiescent(w, tid) }
    };
    if quiet && tid == 0 {
        // Release: as at the root's completion.
        // SAFETY: a field of the live control block.
        w.raise_stop(
            unsafe { &raw mut (*w.run).stop },
            STOP_DONE,
            Ordering::Release,
        );
    }
    if tid == 0 {
        l.backoff = (l.backoff * 2).clamp(64, 4096);
        nanosleep(l.backoff);
    }
}

/// One step of task `id`: every thread resumes its own copy of the frame and reports its
/// outcome; after the barrier, a divergent outcome fails the run, a suspension writes the
/// leader's frame back (and checks uniformity if asked), and the leader settles the step.
///
/// # Safety
/// Every thread of the block calls it with the task id the leader posted and took.
unsafe fn step<P: Program>(
    w: &WarpCtx,
    words: *mut StepWords,
    tid: u32,
    id: u32,
    check_uniform: bool,
    l: &mut BlockLoop,
) {
    let leader = tid == 0;
    let mut copy = MaybeUninit::<P::Task>::uninit();
    // SAFETY: every thread that read a task id comes here (the post is uniform), with the
    // task the leader took for this block.
    let (frame, step, ctx, diverged) =
        unsafe { resume_together::<P>(w, words, tid, id, &mut copy) };
    if diverged {
        let outcome = outcome_word(step, &ctx);
        // SAFETY: uniform branch (every thread read the same range).
        unsafe { report_divergence::<P>(w, words, leader, tid, outcome, &copy) };
        return;
    }
    if step == Step::Wait {
        if leader {
            // SAFETY: every thread has resumed: nobody reads the record's frame now.
            unsafe { copy_words(frame, copy.as_ptr()) };
        }
        // SAFETY: uniform branch (the step is uniform, checked above).
        if check_uniform && !unsafe { frames_agree::<P>(w, words, leader, frame, &copy) } {
            return;
        }
    }
    if leader {
        // SAFETY: the leader after the step's barrier, which ordered every thread's spawns
        // and reports before it.
        unsafe { close_step::<P>(w, words, id, step, ctx.resume_queue, l) };
    }
}

/// Every thread of the block: resumes its own copy (`copy`) of task `id`'s frame, meets the
/// others at the step's barrier, and reads whether they all ended the same way. Returns the
/// frame in the record, this thread's step and context, and whether the outcomes differed.
///
/// # Safety
/// Every thread of the block calls it, with the task the leader took for the block: its
/// frame is live and nobody writes it before the barrier; `words` are the step's.
pub(super) unsafe fn resume_together<P: Program>(
    w: &WarpCtx,
    words: *mut StepWords,
    tid: u32,
    id: u32,
    copy: &mut MaybeUninit<P::Task>,
) -> (*mut P::Task, Step, Ctx, bool) {
    // SAFETY: a live record (contract).
    let frame = unsafe { Record::task(w.record::<P::Task>(id)) };
    // SAFETY: the frame is live and copied before anyone writes it (contract).
    let (step, ctx) = unsafe { resume_copy::<P>(w, words, tid, id, frame, copy) };
    // SAFETY: every thread of the block comes here (contract).
    unsafe { sync_threads() };
    // SAFETY: updated before the barrier; rewritten only two steps later.
    let (lo, hi) = unsafe {
        (
            (&raw const (*words).outcome_min).read_volatile(),
            (&raw const (*words).outcome_max).read_volatile(),
        )
    };
    (frame, step, ctx, lo != hi)
}

/// A thread's outcome word: [`RETURNED`], or the taskwait site.
pub(super) fn outcome_word(step: Step, ctx: &Ctx) -> u32 {
    match step {
        Step::Done => RETURNED,
        Step::Wait => ctx.wait_site,
    }
}

/// Every thread: copies task `id`'s frame into `copy`, resumes it with the thread's index and
/// reports the outcome and spawn count into the iteration's shared words.
///
/// # Safety
/// `frame` is task `id`'s live frame, which nobody writes until the step's barrier.
pub(super) unsafe fn resume_copy<P: Program>(
    w: &WarpCtx,
    words: *mut StepWords,
    tid: u32,
    id: u32,
    frame: *mut P::Task,
    copy: &mut MaybeUninit<P::Task>,
) -> (Step, Ctx) {
    // SAFETY: bitwise copies of a live frame; only the leader's is written back, the others
    // forgotten (block tasks hold nothing with drop glue across a taskwait).
    unsafe { copy_words(copy.as_mut_ptr(), frame) };
    let result_slot = if tid == 0 {
        // SAFETY: the record is live.
        unsafe { Record::result_slot(w.record::<P::Task>(id)) }
    } else {
        core::ptr::null_mut()
    };
    let mut ctx = Ctx::new(w as *const WarpCtx as *const (), id, result_slot);
    // A mixed program runs one root per launch: nothing to note.
    if !P::MIXED {
        super::panic::note_running(w.run(), id);
    }
    ctx.thread = tid;
    ctx.frame_shift = (frame as isize).wrapping_sub(copy.as_ptr() as isize);
    // SAFETY: the copy is a live frame that has not returned; block frames are `Unpin` in
    // effect (nothing borrows across a taskwait), so resuming a local copy is sound.
    let step = unsafe { P::resume(Pin::new_unchecked(copy.assume_init_mut()), &mut ctx) };
    let outcome = outcome_word(step, &ctx);
    // SAFETY: shared-memory words of this iteration, updated by `.cta` atomics (relaxed: read
    // after the step's barrier, which orders them).
    unsafe {
        u32::fetch_min::<Cta, Relaxed>(&raw mut (*words).outcome_min, outcome);
        u32::fetch_max::<Cta, Relaxed>(&raw mut (*words).outcome_max, outcome);
        if ctx.spawned > 0 {
            u32::fetch_add::<Cta, Relaxed>(&raw mut (*words).spawned, ctx.spawned);
        }
    }
    (step, ctx)
}

/// The leader, after a step every thread ended the same way: the join protocol with the
/// block's children, the allocator's bookkeeping, the counts of a program without
/// `taskwait!`, and the publication of the step's children.
///
/// # Safety
/// The leader alone, after the step's barrier; a suspended task's frame is written back.
unsafe fn close_step<P: Program>(
    w: &WarpCtx,
    words: *mut StepWords,
    id: u32,
    step: Step,
    resume_queue: u32,
    l: &mut BlockLoop,
) {
    // SAFETY: updated by every thread before the step's barrier (contract).
    let total = unsafe { (&raw const (*words).spawned).read_volatile() };
    // SAFETY: the leader alone runs the task's join step (contract).
    let completed = unsafe { settle::<P>(w, id, step, total, resume_queue, &mut l.again) };
    l.stats.resumes += 1;
    l.stats.tasks += u64::from(completed);
    let (base, freed, taken) = settle_allocator(w);
    for i in 0..freed {
        // SAFETY: the leader between steps; `base + i` is above what the step's allocations
        // left on the free stack, inside the slab's stack.
        unsafe { *w.free_stack(base + i) = (*w.sh).freed[i as usize] };
    }
    if !P::HAS_TASKWAIT {
        l.spawned_total += u64::from(taken);
        l.completed_total += u64::from(completed);
        let (s, c) = w.counts(w.warp);
        s.store(l.spawned_total, Ordering::Relaxed);
        // Release: as in the warp runtime (`worker::quiescent`).
        c.store(l.completed_total, Ordering::Release);
    }
    l.queue = close_round::<P, WorkStealing>(w, l.queue, freed, 1).next;
}

/// The leader, after the loop: the worker's statistics into its slot for the host.
///
/// # Safety
/// The leader after the loop.
unsafe fn finish(w: &WarpCtx, l: &mut BlockLoop) {
    // SAFETY: the leader after the loop (contract).
    let sh = unsafe { w.lane0() };
    let stats = WarpStats {
        records_touched: sh.fresh,
        // `close_round` keeps the queue's high-water mark, `steal` the steal counts, in the
        // shared state.
        max_queue: sh.stats.max_queue,
        chunks_borrowed: sh.stats.chunks_borrowed,
        steals_attempted: sh.stats.steals_attempted,
        steals_won: sh.stats.steals_won,
        ..l.stats
    };
    // SAFETY: one stats slot per worker, written once, read by the host after the kernel.
    unsafe { *(w.run().stats as *mut WarpStats).add(w.warp as usize) = stats };
}

/// The leader: the next task. The one it kept from its last step in the current queue
/// first (no atomic), then a pop from its queues round-robin from the current one, else one
/// task stolen from a random victim. Returns [`NONE`] when there is none.
fn take(w: &WarpCtx, queue: &mut u32, rng: &mut u32) -> u32 {
    let run = w.run();
    let nq = run.num_queues;
    // SAFETY: the leader between steps.
    let sh = unsafe { w.lane0() };
    for step in 0..nq {
        let q = (*queue + step) % nq;
        let qi = q as usize;
        if sh.private[qi] > 0 {
            sh.private[qi] -= 1;
            *queue = q;
            return w
                .ring(w.warp, q, sh.tail[qi].wrapping_add(sh.private[qi]))
                .load(Ordering::Relaxed);
        }
        // Relaxed: the owner reads only entries it wrote itself (deque docs, edge 4).
        if claim(w.deque(w.warp, q).count(), |_| 1, Ordering::Relaxed) == 1 {
            sh.tail[qi] = sh.tail[qi].wrapping_sub(1);
            *queue = q;
            return w.ring(w.warp, q, sh.tail[qi]).load(Ordering::Relaxed);
        }
    }
    if run.num_warps < 2 {
        return NONE;
    }
    let Some(s) =
        super::take::steal::<WorkStealing>(w, *queue, Some(nq), 1, run.steal_attempts, rng)
    else {
        return NONE;
    };
    let id = w.ring(s.victim, s.queue, s.head).load(Ordering::Relaxed);
    super::take::finish_steal(w, &s);
    id
}

/// The leader, after a step of task `id` that every thread ended the same way: the join
/// protocol with the block's `spawned` children. Returns how many tasks completed here: the
/// task, if it returned with no child outstanding, and the ancestors its completion completed
/// (a task is counted when it completes, by whoever completes it, as the warps' lanes do).
///
/// # Safety
/// The leader alone, after the step's barrier; a suspended task's frame is written back.
pub(super) unsafe fn settle<P: Program>(
    w: &WarpCtx,
    id: u32,
    step: Step,
    spawned: u32,
    resume_queue: u32,
    again: &mut u32,
) -> u32 {
    let rec = w.record::<P::Task>(id);
    // `max_children` holds per thread and is checked at each spawn; the block's total is
    // bounded only by what the join counter can count.
    let limit = MAX_OUTSTANDING;
    if spawned > limit {
        // SAFETY: the task's own, live record.
        let index = P::task_index(unsafe { &*Record::task(rec) });
        w.fail(RunError::TooManyChildren { task: index, limit });
        return 0;
    }
    match step {
        Step::Wait => {
            if let Err(e) = RunError::check_queue(resume_queue, w.run().num_queues) {
                w.fail(e);
                return 0;
            }
            // SAFETY: the leader runs the task; readers of `queue` come after the join RMW.
            unsafe { Record::set_queue(rec, resume_queue) };
            // SAFETY: the record is live.
            if join::wait(unsafe { Record::join(rec) }, spawned) == AfterWait::Continue {
                *again = id;
            }
            0
        }
        Step::Done => {
            if !P::HAS_TASKWAIT {
                // Nobody waits: the task completes when it returns (see `worker::quiescent`).
                // SAFETY: the task is complete and nobody else touches it.
                unsafe { Record::drop_task(rec) };
                w.free::<P::Task>(id);
                return 1;
            }
            // SAFETY: the record is live.
            if join::finish(unsafe { Record::join(rec) }, spawned) == AfterReturn::Complete {
                // SAFETY: the join protocol made this block complete the task.
                unsafe { complete::<P>(w, id) }
            } else {
                0
            }
        }
    }
}

/// The leader: task `id` is complete; frees it and tells its parent, up the tree as far as
/// tasks complete. A parent whose last child this was is staged in its resume queue. Returns
/// how many tasks it completed.
///
/// # Safety
/// Task `id` is complete and the join protocol chose this block to complete it.
pub(super) unsafe fn complete<P: Program>(w: &WarpCtx, mut id: u32) -> u32 {
    let mut completed = 0;
    loop {
        let rec = w.record::<P::Task>(id);
        // SAFETY: complete: nobody else touches the record until it is reallocated; its
        // writes were acquired by the join RMW that decided completion.
        let parent = unsafe {
            let parent = Record::parent(rec);
            Record::drop_task(rec);
            parent
        };
        w.free::<P::Task>(id);
        completed += 1;
        if parent == NONE {
            w.root_completed();
            return completed;
        }
        let prec = w.record::<P::Task>(parent);
        // SAFETY: the parent's record is live until all its children completed.
        match join::child_completed(unsafe { Record::join(prec) }) {
            ParentNext::Nothing => return completed,
            ParentNext::Resume => {
                // SAFETY: written before the parent's join RMW, which the trigger acquired.
                let q = unsafe { Record::queue(prec) };
                w.stage(q, parent);
                return completed;
            }
            ParentNext::Complete => id = parent,
        }
    }
}

/// After a step whose threads ended differently: fails the run with the first thread that
/// differs from the leader. Two barriers.
///
/// # Safety
/// Every thread of the block calls it (a uniform branch), with its own outcome and frame.
#[cold]
#[inline(never)]
pub(super) unsafe fn report_divergence<P: Program>(
    w: &WarpCtx,
    words: *mut StepWords,
    leader: bool,
    tid: u32,
    outcome: u32,
    copy: &MaybeUninit<P::Task>,
) {
    if leader {
        // SAFETY: the leader alone writes it, before the barrier.
        unsafe { (&raw mut (*words).leader_outcome).write_volatile(outcome) };
    }
    // SAFETY: every thread calls this function (contract).
    unsafe { sync_threads() };
    // SAFETY: written before the barrier.
    let lead = unsafe { (&raw const (*words).leader_outcome).read_volatile() };
    if outcome != lead {
        // SAFETY: a shared word of this iteration, `.cta` atomic.
        unsafe { u32::fetch_min::<Cta, Relaxed>(&raw mut (*words).diverged, tid) };
    }
    // SAFETY: as above.
    unsafe { sync_threads() };
    if leader {
        // SAFETY: updated before the barrier.
        let thread = unsafe { (&raw const (*words).diverged).read_volatile() };
        // SAFETY: the leader's copy is a frame of the task (the step ran on it).
        let index = P::task_index(unsafe { copy.assume_init_ref() });
        w.fail(RunError::DivergentTaskwait {
            task: index,
            thread,
        });
    }
}

/// The uniformity check after a suspension whose frame the leader wrote back: every thread
/// compares its copy with the record's. Returns whether all agreed (else the run failed).
/// Two barriers.
///
/// # Safety
/// Every thread of the block calls it (a uniform branch); `frame` is the task's record
/// frame, written back by the leader before the call.
#[cold]
#[inline(never)]
pub(super) unsafe fn frames_agree<P: Program>(
    w: &WarpCtx,
    words: *mut StepWords,
    leader: bool,
    frame: *mut P::Task,
    copy: &MaybeUninit<P::Task>,
) -> bool {
    // SAFETY: every thread calls this function (contract); orders the write-back first.
    unsafe { sync_threads() };
    let (a, b) = (frame.cast::<u8>(), copy.as_ptr().cast::<u8>());
    let same = (0..size_of::<P::Task>()).all(|i| {
        // SAFETY: `i` is inside both frames; volatile byte reads compare the bytes as stored
        // (padding included: both copies came from the same bytes and ran the same code).
        unsafe { a.add(i).read_volatile() == b.add(i).read_volatile() }
    });
    if !same {
        // SAFETY: a shared word of this iteration, `.cta` atomic.
        unsafe { u32::fetch_add::<Cta, Relaxed>(&raw mut (*words).mismatched, 1) };
    }
    // SAFETY: as above.
    unsafe { sync_threads() };
    // SAFETY: updated before the barrier.
    let bad = unsafe { (&raw const (*words).mismatched).read_volatile() } != 0;
    if bad && leader {
        // SAFETY: the leader's copy is a frame of the task.
        let index = P::task_index(unsafe { copy.assume_init_ref() });
        w.fail(RunError::NonUniformState { task: index });
    }
    !bad
}
