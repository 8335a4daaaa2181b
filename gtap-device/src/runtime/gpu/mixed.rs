//! The persistent loop of a *mixed* program, one with both thread tasks and block tasks
//! (`Program::MIXED`): every warp is a thread-level worker running the warp loop of
//! [`worker`](super::worker), and every thread block also runs block tasks, all its warps
//! together, whenever its leader (thread 0, lane 0 of warp 0) takes one. The design note is
//! `MIXED.md` beside this file: how a block task reaches a block, why joins and termination
//! hold across the two kinds, and why no block waits forever.
//!
//! In brief:
//! - Each warp has one more queue than the program's EPAQ queues, its *block queue* (the
//!   last one), in the same deque arrays. A spawn of a block task, by a lane of a thread task
//!   or by a block task's leader, stages the child there, and so does the lane or leader that
//!   re-enqueues a suspended block task. Thread rounds never take from it, and it is always
//!   published whole; each warp that publishes into it bumps the block's *hint*.
//! - Between its thread rounds the leader takes a block task: the one it must resume at once
//!   (its taskwait found the children complete), else one it stashed, else, when the hint says
//!   there are some, one from its own block queue or up to [`STASH`] stolen from another warp
//!   of its block; and when its warp found no thread task, its whole warp reads 32 entries of
//!   the grid's *block board* (per thread block, how many block tasks its warps published and
//!   nobody took yet) and the leader steals up to [`STASH`] from a block the board names.
//! - The leader *posts* the task in the block's shared state; each warp sees the post at its
//!   next loop top, and the whole block runs one *block step*, with three block barriers:
//!   every warp opens its round's staging, every thread resumes its copy of the frame
//!   (spawning into its own warp's queues), the leader writes the frame back, and after the
//!   last barrier the leader settles the join protocol while each warp publishes what its
//!   threads spawned, as after a thread round.
//! - Only the leader reads the run's stop flags; it posts "stop" to its block, and every warp
//!   leaves its loop when it sees that post. So no warp leaves while a block step may still
//!   need it at a barrier.
//!
//! # Shared memory
//! `[0, RUNTIME_SHARED_BYTES)`: the block's [`MixedShared`] (and, in its last word, where the
//! scratch starts); then one [`WarpShared`](super::warp::WarpShared) per warp; then a block
//! task's scratch ([`crate::task::Block::scratch`]) to the end.

use core::mem::{MaybeUninit, size_of};

use super::block_worker::{
    StepWords, frames_agree, outcome_word, report_divergence, resume_together, set_scratch_offset,
    settle,
};
use super::close::open_round;
use super::layout::{GpuRun, NONE, WARP_SHARED_BYTES, tuning};
use super::profile::{Hooks, Off};
use super::sched::WorkStealing;
use super::take::{finish_steal, steal_from};
use super::warp::WarpCtx;
use super::worker::{
    LoopState, enter, finish, publish_round, round, stop_requested, thread_queues,
};
use crate::arch::barrier::sync_threads;
use crate::arch::copy::copy_words;
use crate::arch::index::{block_idx_x, lane_id, thread_idx_x, warp_id, warps_per_block};
use crate::arch::ops::AtomicInt;
use crate::arch::order::{Cta, Relaxed};
use crate::arch::shared::dynamic_shared_memory;
use crate::arch::warp::{WARP_SIZE, ballot, shfl_idx};
use crate::runtime::deque::claim;
use crate::runtime::record::Record;
use crate::runtime::sync::{AtomicU32, Ordering};
use crate::task::block::RUNTIME_SHARED_BYTES;
use crate::task::{Program, Step};

const FULL: u32 = u32::MAX;

/// Bit 0 of [`MixedShared::post`]: the leader asked the block to leave its loop.
const POST_STOP: u32 = 1;

/// A block's shared state in a mixed program (the start of its dynamic shared memory).
#[repr(C)]
pub struct MixedShared {
    /// What the leader asked of the block last: the number of block steps it posted, shifted
    /// left by one, with [`POST_STOP`] set once it asked the block to stop. Written by the
    /// leader between its rounds, polled by every warp's lane 0 at its loop top (`.cta`
    /// atomics: the post only decides who goes to the barrier; what the step reads is ordered
    /// by the barrier itself).
    post: u32,
    /// Set by a warp that published block tasks into its block queue, cleared by the leader
    /// when it looks at the block's queues: a hint, so that a leader with no reason to look
    /// spends no memory traffic on it.
    hint: u32,
    /// The words of the block's steps, by the parity of the step's number: a thread reads a
    /// step's words until it leaves that step, and the leader rewrites them only when it
    /// posts the step after next, which no thread reaches before it left this one.
    steps: [StepWords; 2],
}

const _: () = assert!(
    size_of::<MixedShared>() <= crate::task::block::AGREE_AT,
    "task::block::RUNTIME_SHARED_BYTES must cover MixedShared, Block::agree's key and the scratch offset word"
);

/// What a warp does at the top of its loop.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Top {
    /// A thread round.
    Round,
    /// A block step, with the whole block.
    Step,
    /// Leave the loop.
    Stop,
}

/// What every thread keeps about its block's steps (the same on every thread of the block,
/// but `again`, which only the leader uses).
struct Steps {
    /// The last post this thread acted on.
    seen: u32,
    /// Block steps run so far (the next step's words are `steps[done % 2]`).
    done: u32,
    /// The leader: a block task to run next, with no queue (its taskwait found its children
    /// complete), or [`NONE`].
    again: u32,
    /// The leader: block tasks it took in one steal and has not run yet (the first
    /// `stashed`), run before it looks for more.
    stash: [u32; STASH],
    stashed: u32,
    /// Where the leader's warp looks on the block board next (every lane keeps it).
    scan: u32,
}

/// The most block tasks a leader takes in one steal: enough that the parts of a large merge,
/// all spawned into one warp's block queue, spread over many blocks in a few steals each.
const STASH: usize = 4;

/// The kernel body of mixed program `P`'s persistent kernel. The `#[gtap::program]` macro
/// wraps it in an `extern "ptx-kernel"` entry named `gtap_<name>` for programs with both
/// kinds of task.
///
/// # Safety
/// `run` points to a control block the host filled for program `P` with one more queue per
/// warp than the program's EPAQ queues (the block queue), `num_warps` counting every warp of
/// the grid; the kernel was launched with one-dimensional blocks of whole warps and the
/// shared memory laid out as the module docs say.
pub unsafe fn mixed_worker<P: Program>(run: *mut GpuRun) {
    let (lane, tid) = (lane_id(), thread_idx_x());
    let ms = dynamic_shared_memory::<MixedShared>();
    // SAFETY: `run` is the control block of program `P` (contract); the warps' shared states
    // follow the block's part.
    let Some(w) = (unsafe { enter::<P>(run, lane, RUNTIME_SHARED_BYTES) }) else {
        // Every warp of the block returns here alike (the layout check is the same for all,
        // and the host launches exactly `num_warps` warps), so no barrier waits for it.
        return;
    };
    let mut s = Steps {
        seen: 0,
        done: 0,
        again: NONE,
        stash: [NONE; STASH],
        stashed: 0,
        scan: block_idx_x() + 1,
    };
    if tid == 0 {
        // SAFETY: thread 0 at kernel start, before the block's first barrier.
        s.again = unsafe { init_block::<P>(&w, ms) };
    }
    // SAFETY: every thread of the block reaches this barrier once (see above).
    unsafe { sync_threads() };
    let check_uniform = w.run().tuning & tuning::CHECK_UNIFORM != 0;
    let leads = warp_id() == 0;
    let mut l = LoopState::new(w.warp, w.run());
    // SAFETY: a field of the control block, which lives for the kernel.
    let stop = w.run_atomic(unsafe { &raw mut (*run).stop });
    // SAFETY: the plain hooks need nothing of `run`.
    let mut prof = unsafe { Off::start(run, w.warp, lane) };
    loop {
        // SAFETY: the warp is converged at the top of its loop.
        let top = unsafe {
            if leads {
                lead::<P>(&w, ms, lane, &mut l, &mut s, stop)
            } else {
                follow(&w, ms, lane, &mut s)
            }
        };
        match top {
            Top::Stop => break,
            // SAFETY: every warp of the block saw the same post (see `Steps`).
            Top::Step => unsafe {
                block_step::<P>(&w, ms, lane, tid, check_uniform, &mut l, &mut s)
            },
            Top::Round => {
                // SAFETY: converged, between rounds.
                unsafe { round::<P, Off, WorkStealing>(&w, lane, &mut l, &mut prof) };
                if !l.idle {
                    // SAFETY: converged, just after the round's publication.
                    unsafe { hint_block_tasks::<P>(&w, ms, lane) };
                }
            }
        }
    }
    // SAFETY: every lane left the loop together (the post was broadcast).
    unsafe { finish(&w, lane, &l) };
}

/// Thread 0 at kernel start: the block's shared state, where the scratch starts, and (the
/// grid's first block) the root task's place: a block task root is the leader's first step,
/// taken out of the thread queue where `enter` kept it. Returns that root's id, or [`NONE`].
///
/// # Safety
/// Thread 0 of the block, after `enter` and before the block's first barrier.
unsafe fn init_block<P: Program>(w: &WarpCtx, ms: *mut MixedShared) -> u32 {
    // SAFETY: the block's own shared state; no other thread reads it before the barrier.
    unsafe {
        (&raw mut (*ms).post).write(0);
        (&raw mut (*ms).hint).write(0);
        (&raw mut (*ms).steps[0]).write(StepWords::posting(NONE));
        (&raw mut (*ms).steps[1]).write(StepWords::posting(NONE));
    }
    let warps_end = RUNTIME_SHARED_BYTES as u32 + warps_per_block() * WARP_SHARED_BYTES;
    // SAFETY: thread 0 before the first barrier (contract).
    unsafe { set_scratch_offset(warps_end) };
    if w.warp != 0 {
        return NONE;
    }
    let rec = w.record::<P::Task>(0);
    // SAFETY: `enter` built the root in record 0 (warp 0) and nothing has run it yet.
    if !P::task_is_block(unsafe { &*Record::task(rec) }) {
        return NONE;
    }
    // SAFETY: lane 0 of warp 0 before its first round.
    unsafe { w.lane0() }.private[0] = 0;
    0
}

/// The leader's warp at its loop top: stops the block when the run is over (posting the
/// stop), else takes a block task and posts it, else goes on to a thread round.
///
/// # Safety
/// Warp 0 of the block, converged, at its loop top.
unsafe fn lead<P: Program>(
    w: &WarpCtx,
    ms: *mut MixedShared,
    lane: u32,
    l: &mut LoopState,
    s: &mut Steps,
    stop: &AtomicU32,
) -> Top {
    // SAFETY: converged (contract).
    if unsafe { stop_requested(w, lane, l.idle, stop) } {
        if lane == 0 {
            // SAFETY: the block's post word, a `.cta` atomic.
            unsafe { u32::store::<Cta, Relaxed>(&raw mut (*ms).post, s.seen | POST_STOP) };
        }
        return Top::Stop;
    }
    let mut id = NONE;
    if lane == 0 {
        id = next_block_task::<P>(w, ms, s);
    }
    // SAFETY: converged (contract).
    let mut id = unsafe { shfl_idx(FULL, id, 0) };
    if id == NONE && l.idle {
        // SAFETY: converged (contract; `l.idle` is the same on every lane).
        id = unsafe { scan_board::<P>(w, lane, s) };
    }
    if id == NONE {
        return Top::Round;
    }
    if lane == 0 {
        let words = step_words(ms, s.done);
        // SAFETY: the words of the step after next of the last one every thread left (see
        // `MixedShared::steps`); the leader alone writes them.
        unsafe { words.write(StepWords::posting(id)) };
        // SAFETY: the block's post word, a `.cta` atomic.
        unsafe { u32::store::<Cta, Relaxed>(&raw mut (*ms).post, s.seen.wrapping_add(2)) };
    }
    s.seen = s.seen.wrapping_add(2);
    Top::Step
}

/// Another warp at its loop top: what the leader posted since the warp last looked.
///
/// # Safety
/// A warp of the block other than the leader's, converged, at its loop top.
unsafe fn follow(w: &WarpCtx, ms: *mut MixedShared, lane: u32, s: &mut Steps) -> Top {
    let mut post = 0;
    if lane == 0 {
        // SAFETY: the block's post word, a `.cta` atomic.
        post = unsafe { u32::load::<Cta, Relaxed>(&raw const (*ms).post) };
    }
    // SAFETY: converged (contract).
    let post = unsafe { shfl_idx(FULL, post, 0) };
    if post == s.seen {
        if lane == 0 {
            // SAFETY: lane 0 between rounds.
            unsafe { w.lane0() }.stats.rounds += 1;
        }
        return Top::Round;
    }
    s.seen = post;
    if post & POST_STOP != 0 {
        Top::Stop
    } else {
        Top::Step
    }
}

/// The words of step number `n`.
fn step_words(ms: *mut MixedShared, n: u32) -> *mut StepWords {
    // SAFETY: in bounds (`n % 2`); a field of the block's shared state.
    unsafe { &raw mut (*ms).steps[(n % 2) as usize] }
}

/// The leader: the next block task to run, or [`NONE`]: the one it must run again at once,
/// one it stashed, or one taken from its own block's block queues when the hint says there
/// are some (its own queue by a pop, another warp's by a steal of up to [`STASH`]).
fn next_block_task<P: Program>(w: &WarpCtx, ms: *mut MixedShared, s: &mut Steps) -> u32 {
    if s.again != NONE {
        return core::mem::replace(&mut s.again, NONE);
    }
    if s.stashed > 0 {
        s.stashed -= 1;
        return s.stash[s.stashed as usize];
    }
    // SAFETY: the block's hint word, a `.cta` atomic.
    if unsafe { u32::swap::<Cta, Relaxed>(&raw mut (*ms).hint, 0) } == 0 {
        return NONE;
    }
    let bq = thread_queues::<P>(w.run());
    let id = pop_own(w, bq);
    let id = if id != NONE {
        id
    } else {
        (1..warps_per_block())
            .map(|k| w.warp + k)
            .find_map(|victim| take_from::<P>(w, victim, s))
            .unwrap_or(NONE)
    };
    // More may be left, or a steal lost its victim's lock to a thief from another block: look
    // again next time while the board says the block's queues hold any.
    if id != NONE || board(w, w.warp).load(Ordering::Relaxed) as i32 > 0 {
        // SAFETY: the block's hint word, a `.cta` atomic.
        unsafe { u32::store::<Cta, Relaxed>(&raw mut (*ms).hint, 1) };
    }
    id
}

/// The leader: one block task popped from its own warp's block queue `bq`, or [`NONE`].
fn pop_own(w: &WarpCtx, bq: u32) -> u32 {
    // Relaxed: the owner reads only entries it wrote itself (deque docs, edge 4).
    if claim(w.deque(w.warp, bq).count(), |_| 1, Ordering::Relaxed) == 0 {
        return NONE;
    }
    // SAFETY: the leader is lane 0 of its warp, between rounds.
    let sh = unsafe { w.lane0() };
    let q = bq as usize;
    sh.tail[q] = sh.tail[q].wrapping_sub(1);
    board(w, w.warp).fetch_sub(1, Ordering::Relaxed);
    w.ring(w.warp, bq, sh.tail[q]).load(Ordering::Relaxed)
}

/// The leader: up to [`STASH`] block tasks stolen from `victim`'s block queue; returns the
/// first and stashes the rest.
fn take_from<P: Program>(w: &WarpCtx, victim: u32, s: &mut Steps) -> Option<u32> {
    let bq = thread_queues::<P>(w.run());
    let st = steal_from::<WorkStealing>(w, victim, bq, STASH as u32)?;
    let first = w.ring(victim, bq, st.head).load(Ordering::Relaxed);
    for i in 1..st.n {
        let id = w
            .ring(victim, bq, st.head.wrapping_add(i))
            .load(Ordering::Relaxed);
        s.stash[s.stashed as usize] = id;
        s.stashed += 1;
    }
    finish_steal(w, &st);
    board(w, victim).fetch_sub(st.n, Ordering::Relaxed);
    Some(first)
}

/// The leader's whole warp, when its warp found no thread task: looks at the next 32 entries
/// of the block board (one per lane), and the leader steals from the block queues of the
/// first other block that has published block tasks. Returns the task, or [`NONE`].
///
/// # Safety
/// Warp 0 of the block, converged.
unsafe fn scan_board<P: Program>(w: &WarpCtx, lane: u32, s: &mut Steps) -> u32 {
    let per_block = warps_per_block();
    let blocks = w.run().num_warps / per_block;
    let own = w.warp / per_block;
    let at = (s.scan + lane) % blocks;
    s.scan = (s.scan + WARP_SIZE) % blocks;
    // A count below 0 (as `i32`) is a taker that subtracted before the publisher added.
    let published = board(w, at * per_block).load(Ordering::Relaxed) as i32 > 0;
    // SAFETY: converged (contract).
    let found = unsafe { ballot(FULL, published && at != own) };
    let mut id = NONE;
    if lane == 0 && found != 0 {
        let target = (at + found.trailing_zeros()) % blocks;
        id = (0..per_block)
            .map(|k| target * per_block + k)
            .find_map(|victim| take_from::<P>(w, victim, s))
            .unwrap_or(NONE);
    }
    // SAFETY: converged (contract).
    unsafe { shfl_idx(FULL, id, 0) }
}

/// The block board's count of the thread block of `warp` (see [`GpuRun::block_board`]).
fn board(w: &WarpCtx, warp: u32) -> &AtomicU32 {
    let block = warp / warps_per_block();
    // SAFETY: one count per thread block of the grid, zeroed by the host, only accessed
    // atomically during the run; the facade's atomics have `u32`'s layout. Relaxed everywhere:
    // the count is a hint of where to look; the deques' own protocol hands out the tasks.
    unsafe { &*(w.run().block_board as *const AtomicU32).add(block as usize) }
}

/// Lane 0 after its warp published a round or a step: bumps the block's hint when it
/// published block tasks (its `staged` holds what it published until the next round opens).
///
/// # Safety
/// The whole warp, converged, just after it published.
unsafe fn hint_block_tasks<P: Program>(w: &WarpCtx, ms: *mut MixedShared, lane: u32) {
    if lane != 0 {
        return;
    }
    let bq = thread_queues::<P>(w.run()) as usize;
    // SAFETY: lane 0 between rounds.
    let published = unsafe { w.lane0() }.staged[bq];
    if published > 0 {
        // SAFETY: the block's hint word, a `.cta` atomic.
        unsafe { u32::store::<Cta, Relaxed>(&raw mut (*ms).hint, 1) };
        board(w, w.warp).fetch_add(published, Ordering::Relaxed);
    }
}

/// One block step of the task the leader posted, run by every thread of the block: each warp
/// opens its staging; after the first barrier every thread resumes its own copy of the frame
/// (spawning into its own warp's queues) and reports its outcome; after the second, a
/// divergent outcome fails the run, and a suspension writes the leader's copy back (and is
/// checked for uniformity if asked); after the third, which orders that write-back before any
/// child is published, the leader settles the task's join and every warp publishes.
///
/// # Safety
/// Every thread of the block calls it, after the same post, at its loop top.
unsafe fn block_step<P: Program>(
    w: &WarpCtx,
    ms: *mut MixedShared,
    lane: u32,
    tid: u32,
    check_uniform: bool,
    l: &mut LoopState,
    s: &mut Steps,
) {
    let words = step_words(ms, s.done);
    s.done = s.done.wrapping_add(1);
    if lane == 0 {
        open_round::<WorkStealing>(w);
    }
    // SAFETY: every thread of the block reaches it (contract): orders the post and every
    // warp's opened staging before any thread spawns.
    unsafe { sync_threads() };
    // SAFETY: written by the leader before the barrier; rewritten two steps later.
    let id = unsafe { (&raw const (*words).post).read_volatile() };
    let leader = tid == 0;
    let mut copy = MaybeUninit::<P::Task>::uninit();
    // SAFETY: every thread of the block comes here (contract), with the task the leader took
    // for the block, whose frame nobody writes before the barrier inside.
    let (frame, step, ctx, diverged) =
        unsafe { resume_together::<P>(w, words, tid, id, &mut copy) };
    let mut completed = 0;
    if diverged {
        let outcome = outcome_word(step, &ctx);
        // SAFETY: a uniform branch (every thread read the same range).
        unsafe { report_divergence::<P>(w, words, leader, tid, outcome, &copy) };
    } else {
        let mut agree = true;
        if step == Step::Wait {
            if leader {
                // SAFETY: every thread has resumed; nobody reads the record's frame now, and no
                // child of this step is published before the barrier below.
                unsafe { copy_words(frame, copy.as_ptr()) };
            }
            if check_uniform {
                // SAFETY: a uniform branch; the write-back above comes first.
                agree = unsafe { frames_agree::<P>(w, words, leader, frame, &copy) };
            }
        }
        // SAFETY: every thread comes here (the branches above are uniform).
        unsafe { sync_threads() };
        if agree && leader {
            // SAFETY: the leader after the step's barriers.
            completed = unsafe { settle_step::<P>(w, words, id, step, l, s) };
        }
    }
    // SAFETY: each warp is converged again here (after the barrier, and the leader's lanes
    // wait for it in the first collective of the publication).
    unsafe { publish_round::<P, WorkStealing>(w, lane, completed, false, l) };
    // SAFETY: as above, after the publication.
    unsafe { hint_block_tasks::<P>(w, ms, lane) };
}

/// The leader after a step every thread ended the same way: the join protocol with the
/// block's children (a suspended block task goes back to a block queue when its last child
/// completes); counts the step. Returns how many tasks completed here (for the task count,
/// and the counts of a program without `taskwait!`).
///
/// # Safety
/// The leader alone, after the step's last barrier; a suspended task's frame is written back.
unsafe fn settle_step<P: Program>(
    w: &WarpCtx,
    words: *mut StepWords,
    id: u32,
    step: Step,
    l: &mut LoopState,
    s: &mut Steps,
) -> u32 {
    // SAFETY: updated by every thread before the step's second barrier.
    let spawned = unsafe { (&raw const (*words).spawned).read_volatile() };
    let block_queue = thread_queues::<P>(w.run());
    // SAFETY: the leader alone runs the task's join step (contract).
    let completed = unsafe { settle::<P>(w, id, step, spawned, block_queue, &mut s.again) };
    l.lane_resumes += 1;
    // Counted when they complete, as the lanes count thread tasks: a block task that returned
    // with children outstanding is counted by whoever completes its last child.
    l.lane_completed += u64::from(completed);
    completed
}
