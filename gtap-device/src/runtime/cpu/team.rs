//! Block programs on the CPU backend: each worker is a team of threads that runs one block
//! task at a time, every thread of the team running the whole body (see
//! [`crate::task::block`] for the rules a block task follows).
//!
//! The team's leader (thread 0) is an ordinary [`Worker`]: it pops, steals and applies the join
//! protocol exactly as for thread tasks. Only the running of a task differs. For each task
//! the leader *posts* the task's id to its team, every thread (the leader too) resumes its own
//! copy of the frame (read from the record), and the leader waits until every thread has
//! *arrived*. Then the leader:
//!
//! 1. checks that every thread suspended at the same `taskwait!()` or returned (else the run
//!    fails: a divergent taskwait);
//! 2. if the task suspended, writes its own copy of the frame back to the record (and, with
//!    the uniformity check on, has every thread compare its copy with it);
//! 3. applies the join protocol with the children the whole team spawned;
//! 4. only then pushes those children onto its deque. Threads spawn during the body by
//!    allocating a record from the pool (each with its own cache) and *staging* its id in
//!    the team's staging area; nothing is published before step 2, so no child can write its
//!    result into the record before the leader's copy of the frame lands there.
//!
//! In a program with both kinds of task (`Program::MIXED`) the leader runs a thread task
//! alone, exactly as a thread program's worker does (in place, with itself as the task's
//! worker), and the followers wait for the next post; `cpu::spawn` tells the two apart by
//! what the task's `Ctx::worker` points to (`Common::in_team`).
//!
//! Copies of a frame are bitwise: the followers' copies are forgotten, never dropped, and the
//! record's copy is the one the runtime drops. A value with drop glue that a block task holds
//! across a `taskwait!()` would be owned by every thread after the join, and dropped by each:
//! block tasks must not do that (see `crate::task::block`; not checked: rustc reports every
//! coroutine as needing drop, so `needs_drop` cannot tell).
//!
//! # Memory ordering
//! - Posting: the leader stores the command, resets `arrived`, then bumps `epoch` with
//!   Release; a follower that sees the new epoch (Acquire) sees the command, the record (the
//!   leader acquired it from a deque or a join RMW) and the reset count.
//! - Arriving: each follower's `arrived` increment is Release; the leader's Acquire load that
//!   sees all of them sees every follower's writes of the step (its outcome words, staged ids,
//!   the records of its children).
//! - Staged ids are then published by the leader's deque push (Release), which is cumulative
//!   over what it acquired.

use core::mem::MaybeUninit;
use core::pin::Pin;

use super::team_sync::{TeamSync, aborted, wait_until};
use super::{Common, Run, Worker};
use crate::runtime::error::RunError;
use crate::runtime::join::{self, AfterReturn, AfterWait};
use crate::runtime::pool::LocalCache;
use crate::runtime::record::Record;
use crate::runtime::sync::{AtomicU32, Ordering};
use crate::runtime::termination::Termination;
use crate::task::block::{AgreeKey, TeamEnv, set_team_env};
use crate::task::{Ctx, Program, Step};

/// The most threads a CPU team may have.
pub const MAX_TEAM: u32 = 64;

/// Command: leave the loop.
const STOP: u32 = u32::MAX;
/// Command: compare your frame with the record's (the uniformity check).
const CHECK: u32 = u32::MAX - 1;

/// A thread's outcome word: bit 31 set when the task returned, else the taskwait site.
const RETURNED: u32 = 1 << 31;

/// The shared state of one team. One per worker, allocated by the host.
pub struct TeamState {
    epoch: AtomicU32,
    command: AtomicU32,
    arrived: AtomicU32,
    /// Children staged in the current step.
    staged: AtomicU32,
    /// Followers whose frame differed from the leader's at the last check.
    mismatched: AtomicU32,
    /// Per thread: its outcome word.
    outcome: [AtomicU32; MAX_TEAM as usize],
    sync: TeamSync,
}

impl TeamState {
    /// A team with no command posted yet.
    pub fn new() -> Self {
        TeamState {
            epoch: AtomicU32::new(0),
            command: AtomicU32::new(0),
            arrived: AtomicU32::new(0),
            staged: AtomicU32::new(0),
            mismatched: AtomicU32::new(0),
            // `from_fn`, not `[const { .. }; N]`: loom's atomics have no const constructor.
            outcome: core::array::from_fn(|_| AtomicU32::new(0)),
            sync: TeamSync::new(),
        }
    }
}

impl Default for TeamState {
    fn default() -> Self {
        Self::new()
    }
}

/// Where a team's threads find the pieces of the run they use while running a task: what
/// `Ctx::worker` points to in a block program. `repr(C)` with `Common` first, like
/// [`Worker`] (see [`super::fail_slots_full`]).
#[repr(C)]
pub struct Member<'r, 'm, P: Program> {
    common: Common<'r>,
    run: &'r Run<'m, P>,
    team: &'r TeamState,
    staging: &'r [AtomicU32],
    cache: LocalCache,
    index: u32,
    size: u32,
    current_task: &'static str,
}

impl<'r, 'm, P: Program> Member<'r, 'm, P> {
    fn new(run: &'r Run<'m, P>, worker: u32, index: u32) -> Self {
        Member {
            common: Common {
                program: core::any::TypeId::of::<P>(),
                termination: run.termination,
                failed: false,
                in_team: true,
            },
            run,
            team: &run.teams[worker as usize],
            staging: run.staging(worker),
            cache: run.pool.new_cache(),
            index,
            size: run.team,
            current_task: "",
        }
    }

    /// This thread's team environment for `Block`; `view` must outlive every block task the
    /// thread runs.
    fn env(&self, worker: u32, view: &MemberView<'_>) -> TeamEnv {
        fn barrier(arg: *const ()) {
            // SAFETY: `arg` is the `MemberView` of the thread that set this environment, alive
            // while the thread runs block tasks (`follow`, `Worker::run_team`).
            let m = unsafe { &*(arg as *const MemberView<'_>) };
            m.team.sync.sync(m.size, m.idle, || aborted(m.termination));
        }
        fn agree(arg: *const (), index: u32, key: &AgreeKey) -> Option<bool> {
            // SAFETY: as in `barrier`.
            let m = unsafe { &*(arg as *const MemberView<'_>) };
            let aborted = || aborted(m.termination);
            m.team.sync.agree(index, m.size, key, m.idle, aborted)
        }
        let (scratch, scratch_len) = self.run.scratch(worker);
        TeamEnv {
            index: self.index,
            size: self.size,
            barrier,
            agree,
            barrier_arg: (view as *const MemberView<'_>).cast(),
            scratch,
            scratch_len,
        }
    }

    fn view(&self) -> MemberView<'r> {
        MemberView {
            team: self.team,
            size: self.size,
            idle: self.run.idle,
            termination: self.run.termination,
        }
    }

    /// Resumes this thread's copy of task `id`'s frame; returns the step, the copy and the
    /// context it ran with. The leader's copy is the one written back.
    ///
    /// # Safety
    /// Task `id` was posted to this team and is live; the record's frame is not written until
    /// every thread has arrived.
    unsafe fn resume(&mut self, id: u32) -> (Step, MaybeUninit<P::Task>, Ctx) {
        let rec = self.run.pool.record(id);
        // SAFETY: the record is live and nobody writes its frame during the step (contract).
        let frame = unsafe { Record::task(rec) };
        let mut copy = MaybeUninit::<P::Task>::uninit();
        // SAFETY: `frame` is a valid frame; every thread resumes its own bitwise copy and only
        // the leader's is written back, the others forgotten (the rules of block tasks keep
        // values with drop glue out of what crosses a taskwait).
        unsafe { copy.as_mut_ptr().copy_from_nonoverlapping(frame, 1) };
        // SAFETY: as above.
        self.current_task = P::task_name(unsafe { copy.assume_init_ref() });
        let result_slot = if self.index == 0 {
            // SAFETY: the record is live.
            unsafe { Record::result_slot(rec) }
        } else {
            core::ptr::null_mut()
        };
        let me: *mut Self = self;
        let mut ctx = Ctx::new(me as *const (), id, result_slot);
        ctx.thread = self.index;
        ctx.frame_shift = (frame as isize).wrapping_sub(copy.as_ptr() as isize);
        // SAFETY: the copy is a live frame that has not returned (it was enqueued); block
        // frames are `Unpin` (no borrow crosses a taskwait), so pinning a local copy is sound;
        // `ctx` describes this task and this member.
        let step = unsafe { P::resume(Pin::new_unchecked(copy.assume_init_mut()), &mut ctx) };
        (step, copy, ctx)
    }

    /// Records this thread's outcome for the leader.
    fn report(&self, step: Step, ctx: &Ctx) {
        let word = match step {
            Step::Done => RETURNED,
            Step::Wait => ctx.wait_site,
        };
        // Relaxed: published by the Release of the arrival (or read by the leader itself).
        self.team.outcome[self.index as usize].store(word, Ordering::Relaxed);
    }

    /// `spawn!` by this thread: a record from the pool, staged for the leader to push.
    fn spawn(&mut self, ctx: &mut Ctx, task: P::Task, result_slot: *mut u8, queue: u32) {
        if !self
            .run
            .admit_spawn(&mut self.common, ctx, self.current_task, queue)
        {
            return;
        }
        // Relaxed: a slot index in this step's staging area; the leader reads the total after
        // every thread has arrived (Acquire).
        let k = self.team.staged.fetch_add(1, Ordering::Relaxed);
        if k as usize >= self.staging.len() {
            return self.common.fail(RunError::QueueFull {
                capacity: self.staging.len() as u32,
            });
        }
        let Some(id) = self.run.make_child(
            &mut self.common,
            &mut self.cache,
            ctx,
            task,
            result_slot,
            queue,
        ) else {
            return;
        };
        // The leader publishes it after the step. Relaxed: read by the leader after the
        // arrivals (Acquire).
        self.staging[k as usize].store(id, Ordering::Relaxed);
    }
}

/// What the barrier function of [`TeamEnv`] needs: no program type in it.
struct MemberView<'r> {
    team: &'r TeamState,
    size: u32,
    idle: fn(),
    termination: &'r Termination,
}

impl<P: Program> Worker<'_, '_, P> {
    /// The leader's loop of a block program: as [`Worker::run`], with every task run by the
    /// whole team. Returns when the run is over, after telling the followers to stop.
    pub fn run_team(&mut self) {
        let run = self.run;
        let mut member = Member::new(run, self.index, 0);
        let view = member.view();
        set_team_env(member.env(self.index, &view));
        let team = member.team;
        // A block task whose taskwait found its children complete: run again next.
        let mut next = super::NONE;
        let mut idle = 0u32;
        loop {
            if self.common.failed || member.common.failed || run.termination.stop() != 0 {
                post(team, STOP);
                return;
            }
            let id = if next != super::NONE {
                core::mem::replace(&mut next, super::NONE)
            } else if let Some(id) = self.take(&mut idle) {
                id
            } else {
                continue;
            };
            // SAFETY: this worker took `id`: its frame is live and nobody runs it now.
            if P::MIXED && !P::task_is_block(unsafe { &*Record::task(run.pool.record(id)) }) {
                // A thread task: the leader runs it alone, as a thread program's worker
                // does; the followers wait for the next post.
                self.execute(id);
                continue;
            }
            // What a panic in this step reports (`Worker::current_task`, `current_record`),
            // before the task runs.
            // SAFETY: this worker took `id`: its frame is live and nobody runs it now.
            self.current_task = P::task_name(unsafe { &*Record::task(run.pool.record(id)) });
            self.current_record = id;
            // Relaxed: only this thread resets it, before posting (Release).
            team.staged.store(0, Ordering::Relaxed);
            post(team, id);
            // SAFETY: `id` was just posted to the team; the frame is written back only below,
            // after every thread arrived.
            let (step, copy, ctx) = unsafe { member.resume(id) };
            member.report(step, &ctx);
            self.stats.resumes += 1;
            self.current_task = member.current_task;
            wait_arrivals(team, run.team, run.idle, run.termination);
            if member.common.failed || aborted(run.termination) {
                continue;
            }
            if let Some(thread) = diverged(team, run.team) {
                self.fail(RunError::DivergentTaskwait {
                    task: self.current_task,
                    thread,
                });
                continue;
            }
            let rec = run.pool.record(id);
            // Acquire: pairs with the followers' Relaxed bumps, ordered by their arrival.
            let staged = team
                .staged
                .load(Ordering::Acquire)
                .min(member.staging.len() as u32);
            match step {
                Step::Wait => {
                    // SAFETY: every thread has arrived: no one reads the record's frame now,
                    // and the copy is a suspended frame of this task.
                    unsafe { Record::task(rec).copy_from_nonoverlapping(copy.as_ptr(), 1) };
                    if run.check_uniform && run.team > 1 {
                        team.mismatched.store(0, Ordering::Relaxed);
                        post(team, CHECK);
                        wait_arrivals(team, run.team, run.idle, run.termination);
                        if aborted(run.termination) {
                            continue;
                        }
                        if team.mismatched.load(Ordering::Acquire) != 0 {
                            self.fail(RunError::NonUniformState {
                                task: self.current_task,
                            });
                            continue;
                        }
                    }
                    if let Err(e) = RunError::check_queue(ctx.resume_queue, run.num_queues) {
                        self.fail(e);
                        continue;
                    }
                    // SAFETY: this worker runs the task.
                    unsafe { Record::set_queue(rec, ctx.resume_queue) };
                    // SAFETY: the record is live.
                    match join::wait(unsafe { Record::join(rec) }, staged) {
                        AfterWait::Continue => next = id,
                        AfterWait::Suspended => {}
                    }
                }
                Step::Done => {
                    self.stats.tasks_executed += 1;
                    // SAFETY: the record is live.
                    let join = unsafe { Record::join(rec) };
                    if let AfterReturn::Complete = join::finish(join, staged) {
                        self.complete(id);
                    }
                }
            }
            self.push_staged(member.staging, staged);
        }
    }

    /// Pushes the `n` children the team staged in the last step.
    fn push_staged(&mut self, staging: &[AtomicU32], n: u32) {
        let mut buf = [0u32; 64];
        let mut done = 0;
        while done < n {
            let k = (n - done).min(64);
            for (i, slot) in buf.iter_mut().enumerate().take(k as usize) {
                // Relaxed: acquired with the arrivals.
                *slot = staging[(done as usize) + i].load(Ordering::Relaxed);
            }
            if let Err(e) = self.deque.push_batch(&mut self.owner, &buf[..k as usize]) {
                return self.fail(e);
            }
            done += k;
        }
    }
}

/// The first thread whose outcome differs from the leader's, if any.
fn diverged(team: &TeamState, size: u32) -> Option<u32> {
    // Relaxed: every outcome was acquired with the arrivals (the leader's is its own).
    let leader = team.outcome[0].load(Ordering::Relaxed);
    (1..size).find(|&t| team.outcome[t as usize].load(Ordering::Relaxed) != leader)
}

/// The leader posts `command` to its followers.
fn post(team: &TeamState, command: u32) {
    // Relaxed: both published by the Release bump of the epoch.
    team.command.store(command, Ordering::Relaxed);
    team.arrived.store(0, Ordering::Relaxed);
    team.epoch.fetch_add(1, Ordering::Release);
}

/// The leader waits until its `size - 1` followers have arrived, or the run was aborted.
fn wait_arrivals(team: &TeamState, size: u32, idle: fn(), termination: &Termination) {
    // Acquire: pairs with each follower's Release arrival.
    wait_until(idle, || {
        team.arrived.load(Ordering::Acquire) == size - 1 || aborted(termination)
    });
}

/// The loop of follower `index` (`1..team`) of worker `worker`'s team: runs every task the
/// leader posts until it posts the stop command.
///
/// # Safety
/// One follower per (worker, index) per run, and the leader of that worker runs
/// [`Worker::run_team`] in the same run.
pub unsafe fn follow<P: Program>(run: &Run<'_, P>, worker: u32, index: u32) {
    let mut member = Member::new(run, worker, index);
    let view = member.view();
    set_team_env(member.env(worker, &view));
    let team = member.team;
    let mut seen = 0u32;
    let mut held = MaybeUninit::<P::Task>::uninit();
    let mut held_id = super::NONE;
    loop {
        // Acquire: pairs with the leader's Release post.
        wait_until(run.idle, || {
            team.epoch.load(Ordering::Acquire) != seen || aborted(run.termination)
        });
        if aborted(run.termination) {
            // The leader may be gone (a panic); it posts nothing more that matters.
            return;
        }
        seen = team.epoch.load(Ordering::Acquire);
        let command = team.command.load(Ordering::Relaxed);
        match command {
            STOP => return,
            CHECK => {
                if held_id != super::NONE {
                    let rec = run.pool.record(held_id);
                    // SAFETY: the leader wrote its frame back before posting CHECK and writes
                    // nothing until every thread arrives; the held copy is this thread's.
                    let same = unsafe { same_bytes(Record::task(rec), held.as_ptr()) };
                    if !same {
                        team.mismatched.fetch_add(1, Ordering::Relaxed);
                    }
                }
            }
            id => {
                // SAFETY: posted by the leader, which writes the frame only after arrivals.
                let (step, copy, ctx) = unsafe { member.resume(id) };
                member.report(step, &ctx);
                held = copy;
                held_id = if step == Step::Wait { id } else { super::NONE };
            }
        }
        // Release: publishes this thread's outcome, staged ids and children's records.
        team.arrived.fetch_add(1, Ordering::Release);
    }
}

/// The block task posted to worker `worker`'s team now, if one is, and its name: what a
/// follower that panicked was running (for reporting the panic and its root). Call it from
/// that follower's thread before the panic fails the run: until every follower has arrived
/// or the run is aborted, the leader posts nothing else and writes no frame.
pub fn posted_task<P: Program>(run: &Run<'_, P>, worker: u32) -> Option<(u32, &'static str)> {
    let team = run.teams.get(worker as usize)?;
    // Relaxed: this thread acquired the command with the post's epoch when it took the task,
    // and nothing has replaced it since (above).
    let id = team.command.load(Ordering::Relaxed);
    if id == STOP || id == CHECK {
        return None;
    }
    // SAFETY: `id` is the posted task's live record, whose frame nobody writes now (above).
    let name = P::task_name(unsafe { &*Record::task(run.pool.record(id)) });
    Some((id, name))
}

/// Whether two frames have the same bytes (the uniformity check).
///
/// # Safety
/// Both point to frames of the same task, valid for reads.
unsafe fn same_bytes<T>(a: *const T, b: *const T) -> bool {
    let n = core::mem::size_of::<T>();
    // Bytes of a frame may include padding; both copies were made from the same bytes and ran
    // the same code, so equal frames have equal padding in practice. Read as `u8` through
    // `MaybeUninit` and compared by value with volatile reads, which the compiler may not
    // treat as reading uninitialized memory to optimize on.
    let (a, b) = (a.cast::<u8>(), b.cast::<u8>());
    (0..n).all(|i| {
        // SAFETY: `i < size_of::<T>()`, inside both frames.
        unsafe { core::ptr::read_volatile(a.add(i)) == core::ptr::read_volatile(b.add(i)) }
    })
}

/// `spawn!` in a block program on the CPU backend.
///
/// # Safety
/// `ctx` is the context of a running block task, given by a [`Member`] of program `P`.
pub unsafe fn spawn<P: Program>(ctx: *mut Ctx, task: P::Task, result_slot: *mut u8, queue: u32) {
    // SAFETY: the running task owns its context.
    let ctx = unsafe { &mut *ctx };
    // SAFETY: `ctx.worker` is this thread's `Member<P>`, not otherwise used while its task runs.
    let member = unsafe { &mut *(ctx.worker as *mut Member<'_, '_, P>) };
    member.spawn(ctx, task, result_slot, queue);
}
