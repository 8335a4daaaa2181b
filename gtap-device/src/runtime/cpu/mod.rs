//! The CPU backend's scheduler: worker loops on host threads over the shared runtime pieces.
//!
//! The host (`gtap_host::cpu`) allocates the memory, makes a [`Run`] over it, starts one
//! thread per worker and calls [`Worker::run`] on each. Everything a worker does goes through
//! the shared pieces: task records in a [`Pool`], one [`Deque`] per worker, the [`join`]
//! protocol and [`Termination`] (the GPU's workers share the records, the deque's claim and
//! publish steps and the join protocol, with per-warp slabs of their own in place of the
//! pool). Only the loop around them is CPU-specific:
//!
//! 1. pop the newest id from the own deque (LIFO: depth-first, small working set);
//! 2. else steal from random victims: up to half of a victim's entries, at most
//!    [`STEAL_MAX`]; run the oldest, push the rest onto the own deque;
//! 3. else back off: spin with exponentially more `spin_loop` hints, then call the host's
//!    `idle` hook (`std::thread::yield_now`) on every later round; an idle worker also returns
//!    its cached free records to the pool;
//! 4. run the task (`Worker::execute`): fill a [`Ctx`], resume the frame in its record, and
//!    apply the join protocol to the [`Step`] it returns;
//! 5. stop when [`Termination::stop`] says the root completed or some worker failed.
//!
//! The run's root task is placed by [`Run::seed`] and started by worker 0 before its loop.
//!
//! EPAQ queue indices are checked (an index past the run's `num_queues` is an error) but
//! otherwise ignored: each worker has one deque. Queues change which tasks run together on a
//! GPU warp, never a result.
//!
//! Programs without any `taskwait!()` (`P::HAS_TASKWAIT == false`) still maintain join
//! counters, because termination is detected by the root's completion. Skipping them would
//! need a global count of live tasks instead (a later optimization).
//!
//! # Memory ordering
//! The scheduler adds no atomics of its own: a task id moves between workers only through a
//! deque (push Release / claim Acquire, [`super::deque`]) or a join counter RMW (AcqRel,
//! [`super::join`]), and records through the pool ([`super::pool`]). So the worker that
//! resumes a task has seen the spawner's record writes, the frame as the task's previous
//! worker left it, and its children's results.

use core::any::TypeId;
use core::pin::Pin;

use super::deque::{Deque, DequeState, OwnerEnd, STEAL_MAX, Steal, StealSize};
use super::error::{Failure, RunError};
use super::granularity::{self, Granularity, SpawnRoom, SpawnView};
use super::join::{self, AfterReturn, AfterWait, MAX_OUTSTANDING, ParentNext};
use super::pool::{LocalCache, Pool, PoolState};
use super::record::{NONE, Record};
use super::rng::XorShift32;
use super::sync::{AtomicU32, Ordering, spin_loop};
use super::termination::Termination;
use crate::task::{Ctx, Program, Step};

pub mod team;
pub mod team_sync;

pub use team::{MAX_TEAM, TeamState, follow, posted_task};
pub use team_sync::{StandaloneTeam, TeamSync};

/// Idle rounds spent spinning (with `2^round` spin hints each) before calling the idle hook.
const SPIN_ROUNDS: u32 = 6;

/// How many random victims one idle round tries before backing off.
const VICTIMS_PER_ROUND: u32 = 8;

/// The memory of one run, allocated by the host and reused across runs.
pub struct RunMemory<'m> {
    /// The pool's shared words.
    pub pool: &'m mut PoolState,
    /// The stop flags and error slot.
    pub termination: &'m mut Termination,
    /// One deque per worker; its length is the number of workers.
    pub deques: &'m mut [DequeState],
    /// The deques' rings, one after the other: `deques.len() × queue_capacity` entries, with
    /// `queue_capacity` a power of two.
    pub rings: &'m mut [AtomicU32],
    /// Memory for `record_capacity` records of the program's task type, aligned and sized by
    /// [`Record::array_layout`]. Need not be initialized.
    pub records: *mut u8,
    /// How many records `records` holds (at least 1).
    pub record_capacity: u32,
    /// Block programs: one team per deque (empty otherwise).
    pub teams: &'m mut [TeamState],
    /// Block programs: each team's staging area for the children of one step, one equal
    /// share per team (empty otherwise).
    pub staging: &'m [AtomicU32],
    /// Block programs: each team's scratch memory, `scratch_bytes` per team, 8-aligned.
    pub scratch: *mut u8,
    /// Bytes of scratch per team.
    pub scratch_bytes: usize,
}

/// Settings of a run that are not memory.
#[derive(Clone, Copy, Debug)]
pub struct RunOptions {
    /// How many EPAQ queues spawns and taskwaits may name.
    pub num_queues: u32,
    /// Called by an idle worker after spinning (the host passes `std::thread::yield_now`).
    pub idle: fn(),
    /// Threads per team in a block program (1 for thread programs), `1..=team::MAX_TEAM`.
    pub team: u32,
    /// Block programs: check at every suspension that each thread's frame equals the
    /// leader's (see `crate::task::block`).
    pub check_uniform: bool,
    /// Which spawns run inline instead of as tasks ([`super::granularity`]; thread programs
    /// only).
    pub granularity: Granularity,
}

/// One run of program `P`: the shared state all workers use.
pub struct Run<'m, P: Program> {
    pool: Pool<'m, P::Task>,
    termination: &'m Termination,
    deques: &'m [DequeState],
    rings: &'m [AtomicU32],
    queue_capacity: u32,
    workers: u32,
    num_queues: u32,
    max_children: u32,
    idle: fn(),
    /// The roots' records: `first_root..first_root + roots` ([`Run::seed`]).
    first_root: u32,
    roots: u32,
    /// The next root no worker has started yet (`roots` once all have been).
    next_root: AtomicU32,
    teams: &'m [TeamState],
    staging: &'m [AtomicU32],
    scratch: *mut u8,
    scratch_bytes: usize,
    team: u32,
    check_uniform: bool,
    granularity: Granularity,
}

// SAFETY: every shared field is an atomic, a reference to atomics, or the pool (whose records
// are handed to one worker at a time, with the orderings in the module docs). Task frames move
// between threads: a program's tasks are built to run on any worker (their arguments are
// `Copy + 'static`, their results go through slots published by the join protocol).
unsafe impl<P: Program> Sync for Run<'_, P> {}

impl<'m, P: Program> Run<'m, P> {
    /// A run over `memory`, with every piece of shared state reset.
    ///
    /// # Safety
    /// `memory.records` is aligned for `Record<P::Task>` and valid for reads and writes of
    /// `memory.record_capacity` of them for `'m`, and nothing else uses it meanwhile.
    ///
    /// # Panics
    /// If there are no deques, the rings are not `deques.len()` rings of one power-of-two
    /// length, `record_capacity` is 0, or `num_queues` is 0 (the host validates its
    /// configuration first).
    pub unsafe fn new(memory: RunMemory<'m>, options: RunOptions) -> Self {
        let RunMemory {
            pool,
            termination,
            deques,
            rings,
            records,
            record_capacity,
            teams,
            staging,
            scratch,
            scratch_bytes,
        } = memory;
        let workers = deques.len();
        assert!(
            workers > 0 && workers <= u32::MAX as usize,
            "a run needs at least one worker"
        );
        assert!(
            rings.len() % workers == 0,
            "rings must be one equal share per deque"
        );
        let queue_capacity = rings.len() / workers;
        assert!(
            queue_capacity.is_power_of_two()
                && queue_capacity <= super::deque::MAX_CAPACITY as usize,
            "queue capacity {queue_capacity} is not a power of two <= 2^30"
        );
        assert!(record_capacity > 0 && record_capacity <= super::pool::MAX_CAPACITY);
        assert!(options.num_queues > 0, "a run needs at least one queue");
        if P::BLOCK {
            assert!(
                options.team >= 1 && options.team <= team::MAX_TEAM,
                "a team has 1 to {} threads",
                team::MAX_TEAM
            );
            assert!(
                teams.len() == workers && !staging.is_empty() && staging.len() % workers == 0,
                "a block program needs one team and one staging share per worker"
            );
        }

        pool.reset();
        termination.reset(1);
        for d in deques.iter() {
            d.reset(&mut OwnerEnd::new());
        }
        for t in teams.iter_mut() {
            *t = TeamState::new();
        }
        let teams = &*teams;
        let (pool, termination, deques, rings) = (&*pool, &*termination, &*deques, &*rings);
        // SAFETY: forwarded from this function's contract; the state was just reset.
        let pool = unsafe { Pool::new(pool, records.cast(), record_capacity, workers as u32) };
        Run {
            pool,
            termination,
            deques,
            rings,
            queue_capacity: queue_capacity as u32,
            workers: workers as u32,
            num_queues: options.num_queues,
            max_children: P::MAX_CHILDREN.min(MAX_OUTSTANDING),
            idle: options.idle,
            first_root: NONE,
            roots: 0,
            next_root: AtomicU32::new(0),
            teams,
            staging,
            scratch,
            scratch_bytes,
            team: if P::BLOCK { options.team } else { 1 },
            check_uniform: options.check_uniform,
            granularity: options.granularity,
        }
    }

    /// Places the run's roots, each a task with the slot its result goes to, in records with
    /// consecutive ids. Call once, before the workers start; idle workers take the roots in
    /// order, one at a time ([`Worker::run`]), and the run is done when every root completed.
    ///
    /// # Safety
    /// Each slot points to writable storage for its root's result type, which stays valid
    /// until the run is over.
    ///
    /// # Panics
    /// If called twice, or with no root.
    pub unsafe fn seed(
        &mut self,
        roots: impl ExactSizeIterator<Item = (P::Task, *mut u8)>,
    ) -> Result<(), RunError> {
        assert_eq!(self.first_root, NONE, "Run::seed called twice");
        let n = u32::try_from(roots.len()).map_err(|_| RunError::PoolExhausted {
            capacity: self.pool.capacity(),
        })?;
        assert!(n > 0, "a run needs a root");
        let first = self.pool.alloc_fresh(n)?;
        for (id, (task, result_slot)) in (first..).zip(roots) {
            // SAFETY: `id` was just allocated by this thread; the workers that will read it
            // are started after this (thread spawn orders it).
            unsafe { Record::fill(self.pool.record(id), NONE, result_slot, 0, task) };
        }
        self.termination.set_roots(n);
        (self.first_root, self.roots) = (first, n);
        Ok(())
    }

    /// Which root (its position in [`Run::seed`]'s order) the task that failed the run belongs
    /// to, if a spawn failed it or a panicking task was noted ([`Run::note_failed_task`]): found by following the task's parents, which are all
    /// live while it is. Call after every worker returned.
    pub fn failed_root(&self) -> Option<u32> {
        let mut id = self.termination.failed_task()?;
        for _ in 0..self.pool.touched() {
            // SAFETY: the record was handed out in this run (an initialized header), and no
            // worker is running (contract): its parent field is stable.
            let parent = unsafe { Record::parent(self.pool.record(id)) };
            if parent == NONE {
                break;
            }
            id = parent;
        }
        id.checked_sub(self.first_root).filter(|&i| i < self.roots)
    }

    /// How many workers the run has.
    pub fn workers(&self) -> u32 {
        self.workers
    }

    /// The state of worker `index`, to run on its own thread.
    ///
    /// # Safety
    /// At most one worker per index is made per run: a worker owns its deque's tail end, and
    /// two owners would run one task twice at the same time.
    ///
    /// # Panics
    /// If `index` is not below [`Run::workers`].
    pub unsafe fn worker(&self, index: u32) -> Worker<'_, 'm, P> {
        assert!(index < self.workers);
        Worker {
            common: Common {
                program: TypeId::of::<P>(),
                termination: self.termination,
                failed: false,
                in_team: false,
            },
            run: self,
            index,
            deque: self.deque(index),
            owner: OwnerEnd::new(),
            cache: self.pool.new_cache(),
            rng: XorShift32::for_worker(index),
            current_task: "",
            current_record: NONE,
            stats: WorkerStats::default(),
        }
    }

    /// The checks of a spawn shared by workers and team members: counts it in `ctx.spawned`
    /// (even when it fails: the task then suspends at its next taskwait and is never resumed,
    /// so no handle of a failed spawn is ever read), and fails the run past `max_children` or
    /// with a queue the run does not have. Returns whether the spawn may go on.
    fn admit_spawn(
        &self,
        common: &mut Common<'_>,
        ctx: &mut Ctx,
        task: &'static str,
        queue: u32,
    ) -> bool {
        let earlier = ctx.spawned;
        ctx.spawned = ctx.spawned.saturating_add(1);
        if common.failed {
            return false;
        }
        if earlier >= self.max_children {
            common.fail(RunError::TooManyChildren {
                task,
                limit: self.max_children,
            });
            self.termination.note_failed_task(ctx.record);
            return false;
        }
        if let Err(e) = RunError::check_queue(queue, self.num_queues) {
            common.fail(e);
            self.termination.note_failed_task(ctx.record);
            return false;
        }
        true
    }

    /// A child of the running task described by `ctx`: a record from the pool (through
    /// `cache`), filled with `task`, not yet published. `None` when the pool is exhausted (the
    /// run then failed).
    fn make_child(
        &self,
        common: &mut Common<'_>,
        cache: &mut LocalCache,
        ctx: &Ctx,
        task: P::Task,
        result_slot: *mut u8,
        queue: u32,
    ) -> Option<u32> {
        let id = match self.pool.alloc(cache) {
            Ok(id) => id,
            Err(e) => {
                common.fail(e);
                self.termination.note_failed_task(ctx.record);
                return None;
            }
        };
        // SAFETY: `id` was just allocated through the caller's cache: no other thread has it
        // until the caller publishes it (a deque push, or the team leader's push).
        // SAFETY: as above; the running task's record is live, its depth written before it
        // was published to this worker.
        unsafe {
            let child = self.pool.record(id);
            Record::fill(child, ctx.record, result_slot, queue, task);
            Record::set_depth(child, Record::depth(self.pool.record(ctx.record)) + 1);
        }
        Some(id)
    }

    /// Team `index`'s share of the staging area.
    fn staging(&self, index: u32) -> &'m [AtomicU32] {
        let share = self.staging.len() / self.workers as usize;
        &self.staging[index as usize * share..(index as usize + 1) * share]
    }

    /// Team `index`'s scratch memory.
    fn scratch(&self, index: u32) -> (*mut u8, usize) {
        (
            self.scratch
                .wrapping_add(index as usize * self.scratch_bytes),
            self.scratch_bytes,
        )
    }

    /// Threads per team (1 unless the program is a block program).
    pub fn team(&self) -> u32 {
        self.team
    }

    fn deque(&self, index: u32) -> Deque<'m> {
        let cap = self.queue_capacity as usize;
        let start = index as usize * cap;
        Deque::new(
            &self.deques[index as usize],
            &self.rings[start..start + cap],
        )
    }

    /// The next root no worker has started, claimed for the calling worker.
    pub(crate) fn take_root(&self) -> Option<u32> {
        // Relaxed: the roots' records were written before the workers started (thread spawn
        // orders them); the counter only hands each out once.
        if self.next_root.load(Ordering::Relaxed) >= self.roots {
            return None;
        }
        let i = self.next_root.fetch_add(1, Ordering::Relaxed);
        (i < self.roots).then(|| self.first_root + i)
    }

    /// Stops the run with `error`, if it is the run's first error (returns whether it was).
    /// The host calls it when a worker thread panicked.
    pub fn fail(&self, error: Failure) -> bool {
        self.termination.fail(error)
    }

    /// Notes `record` as the task that failed the run (the first noted is kept), so that
    /// [`Run::failed_root`] finds its root: the host calls it for a task that panicked.
    pub fn note_failed_task(&self, record: u32) {
        if record != NONE {
            self.termination.note_failed_task(record);
        }
    }

    /// Stops a run that is still going with [`Failure::Aborted`] (the host's time limit
    /// passed, or it could not start every worker). Workers stop at their next step, between
    /// tasks: a task body that never returns keeps its worker. Returns whether the run was
    /// still going: a run whose root completed, or that already failed, keeps its outcome.
    pub fn abort(&self) -> bool {
        // A root that completes between this check and the `fail` below still leaves the run
        // failed with `Aborted`: the host then reports a timeout for a run that just made it,
        // which is true of its duration and loses nothing (the frames are dropped as usual).
        self.termination.stop() == 0 && self.termination.fail(Failure::Aborted)
    }

    /// Records handed out at least once in this run: an upper bound on the peak number of
    /// records in use (see [`Pool::touched`]).
    pub fn peak_records(&self) -> u32 {
        self.pool.touched()
    }

    /// The records this run's pool holds.
    pub fn record_capacity(&self) -> u32 {
        self.pool.capacity()
    }

    /// After every worker has returned: the run's outcome. On an error, drops the frames of
    /// the tasks that never completed.
    ///
    /// # Panics
    /// If the workers stopped although the root did not complete and no error was recorded
    /// (the host did not run every worker to its end).
    pub fn finish(&mut self) -> Result<(), Failure> {
        let error = self.termination.error();
        if error.is_some() || !self.termination.is_done() {
            for id in 0..self.pool.touched() {
                let rec = self.pool.record(id);
                // SAFETY: ids below `touched` were initialized when first handed out; no worker
                // is alive (`&mut self`, and the host joined them), so nobody resumes these
                // frames again.
                unsafe {
                    if Record::is_live(rec) {
                        Record::drop_task(rec);
                    }
                }
            }
        }
        match error {
            Some(e) => Err(e),
            None => {
                assert!(
                    self.termination.is_done(),
                    "the workers stopped before the root task completed"
                );
                Ok(())
            }
        }
    }
}

/// What one worker did in a run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WorkerStats {
    /// Tasks run to their return.
    pub tasks_executed: u64,
    /// Resumptions of task frames (a task that waits once is resumed twice).
    pub resumes: u64,
    /// Steal attempts on victims.
    pub steals_attempted: u64,
    /// Steal attempts that took at least one task.
    pub steals_won: u64,
    /// Spawns run inline, as the child's sequential version, instead of as tasks, and calls
    /// that split tasks walked (`crate::task::split`).
    pub spawns_inlined: u64,
}

impl core::ops::AddAssign for WorkerStats {
    fn add_assign(&mut self, o: WorkerStats) {
        self.tasks_executed += o.tasks_executed;
        self.spawns_inlined += o.spawns_inlined;
        self.resumes += o.resumes;
        self.steals_attempted += o.steals_attempted;
        self.steals_won += o.steals_won;
    }
}

/// The part of a [`Worker`] that does not depend on the program, first in its layout, so that
/// entry points that know no program type ([`fail_slots_full`]) and checks of the program type
/// can use the type-erased [`Ctx::worker`] pointer.
#[repr(C)]
struct Common<'r> {
    /// The `TypeId` of the worker's program.
    program: TypeId,
    termination: &'r Termination,
    /// This worker recorded an error: it stops at once, without finishing the join protocol
    /// for the task in hand.
    failed: bool,
    /// A team member running a block task ([`team::Member`]), not a [`Worker`] running a
    /// thread task: which of the two `ctx.worker` points to, in a program with both kinds.
    in_team: bool,
}

impl Common<'_> {
    fn fail(&mut self, error: impl Into<Failure>) {
        self.failed = true;
        self.termination.fail(error.into());
    }
}

/// One worker's private state. Lives on its thread for the whole run; running tasks reach it
/// through [`Ctx::worker`].
#[repr(C)]
pub struct Worker<'r, 'm, P: Program> {
    /// First: see [`Common`].
    common: Common<'r>,
    run: &'r Run<'m, P>,
    index: u32,
    deque: Deque<'m>,
    owner: OwnerEnd,
    cache: LocalCache,
    rng: XorShift32,
    /// The name of the task being resumed (for errors; set before each resume, because the
    /// frame cannot be inspected while it runs).
    current_task: &'static str,
    /// The record of the task being resumed (for a panic's root in a batch).
    current_record: u32,
    stats: WorkerStats,
}

impl<P: Program> Worker<'_, '_, P> {
    /// The worker loop; returns when the run is over (every root completed, or some worker
    /// failed): its own deque first, then the next root nobody started, then steals.
    pub fn run(&mut self) {
        let mut idle = 0u32;
        loop {
            if self.common.failed || self.run.termination.stop() != 0 {
                return;
            }
            if let Some(id) = self.take(&mut idle) {
                self.execute(id);
            }
        }
    }

    /// The next task this worker runs: the newest of its deque, else a root no worker took
    /// yet, else one stolen. `None` after an idle pause instead: spins that double at each
    /// pause, then the run's idle hook. `idle` counts the pauses since the last task taken.
    fn take(&mut self, idle: &mut u32) -> Option<u32> {
        let found = match self.deque.pop(&mut self.owner) {
            Some(id) => Some(id),
            None => self.run.take_root().or_else(|| self.steal()),
        };
        if found.is_some() {
            *idle = 0;
            return found;
        }
        if *idle == SPIN_ROUNDS {
            // Idle for a while: let busy workers use our free records.
            self.run.pool.flush(&mut self.cache);
        }
        if *idle < SPIN_ROUNDS {
            for _ in 0..(1u32 << *idle) {
                spin_loop();
            }
        } else {
            (self.run.idle)();
        }
        *idle = idle.saturating_add(1);
        None
    }

    /// What this worker did so far.
    pub fn stats(&self) -> WorkerStats {
        self.stats
    }

    /// The task this worker resumed last (for reporting a panic).
    pub fn current_task(&self) -> &'static str {
        self.current_task
    }

    /// The record of the task this worker resumed last, [`NONE`] before the first (for
    /// reporting which root of a batch a panic happened in, [`Run::note_failed_task`]).
    pub fn current_record(&self) -> u32 {
        self.current_record
    }

    fn fail(&mut self, error: impl Into<Failure>) {
        self.common.fail(error);
    }

    /// Tries a few random victims; on success keeps the first stolen id to run and pushes the
    /// rest onto the own deque.
    fn steal(&mut self) -> Option<u32> {
        let workers = self.run.workers;
        if workers < 2 {
            return None;
        }
        // At most half the ring: the stolen rest then always fits the (empty) own deque, even
        // while a thief still holds a claim on it.
        let max = STEAL_MAX.min((self.deque.capacity() / 2).max(1));
        let mut buf = [0u32; STEAL_MAX as usize];
        for _ in 0..VICTIMS_PER_ROUND.min(workers - 1) {
            let victim = self.rng.victim(self.index, workers);
            self.stats.steals_attempted += 1;
            if let Steal::Taken(k) = self
                .run
                .deque(victim)
                .steal_batch(StealSize::HalfUpTo(max), &mut buf)
            {
                self.stats.steals_won += 1;
                if k > 1
                    && let Err(e) = self.deque.push_batch(&mut self.owner, &buf[1..k as usize])
                {
                    self.fail(e);
                    return None;
                }
                return Some(buf[0]);
            }
        }
        None
    }

    /// Runs task `id` (taken from a deque, or the root) until it suspends or returns, and
    /// applies the join protocol.
    fn execute(&mut self, id: u32) {
        let rec = self.run.pool.record(id);
        loop {
            // SAFETY: this worker took `id` from a deque (or it is the root), so it alone runs
            // the task now, and the take ordered the spawner's (or the previous worker's)
            // writes of the record before this.
            let (task, result_slot) = unsafe { (Record::task(rec), Record::result_slot(rec)) };
            // SAFETY: as above; the frame is live and not running.
            self.current_task = P::task_name(unsafe { &*task });
            self.current_record = id;
            let worker: *mut Self = self;
            let mut ctx = Ctx::new(worker as *const (), id, result_slot);
            // SAFETY: the frame lives in its record and is never moved while the task exists;
            // `ctx` describes this task and this worker; the task has not returned (it was
            // enqueued or is the root). Children write their results into slots inside the
            // frame while it runs: the frame is `!Unpin`, so `&mut` to it asserts no
            // exclusivity over them.
            let step = unsafe { P::resume(Pin::new_unchecked(&mut *task), &mut ctx) };
            self.stats.resumes += 1;
            if self.common.failed {
                return;
            }
            match step {
                Step::Wait => {
                    if let Err(e) = RunError::check_queue(ctx.resume_queue, self.run.num_queues) {
                        return self.fail(e);
                    }
                    // SAFETY: this worker runs the task; the queue is read by whoever
                    // enqueues it, after the join RMW below.
                    unsafe { Record::set_queue(rec, ctx.resume_queue) };
                    // SAFETY: the record is live.
                    match join::wait(unsafe { Record::join(rec) }, ctx.spawned) {
                        AfterWait::Continue => continue,
                        // The record may already be running elsewhere: do not touch it.
                        AfterWait::Suspended => return,
                    }
                }
                Step::Done => {
                    self.stats.tasks_executed += 1;
                    // SAFETY: the record is live.
                    match join::finish(unsafe { Record::join(rec) }, ctx.spawned) {
                        AfterReturn::Complete => return self.complete(id),
                        AfterReturn::Pending => return,
                    }
                }
            }
        }
    }

    /// Task `id` is complete: free it and tell its parent, up the tree as far as tasks
    /// complete (a loop, not recursion).
    fn complete(&mut self, mut id: u32) {
        loop {
            let rec = self.run.pool.record(id);
            // SAFETY: the task is complete: this worker is the only one that will ever touch
            // its record again (until it is reallocated), and its writes were acquired by the
            // join RMW that decided completion.
            let parent = unsafe {
                let parent = Record::parent(rec);
                Record::drop_task(rec);
                parent
            };
            self.run.pool.free(&mut self.cache, id);
            if parent == NONE {
                self.run.termination.root_completed();
                return;
            }
            let prec = self.run.pool.record(parent);
            // SAFETY: the parent's record is live until all its children, this one included,
            // completed: it cannot be freed before this RMW.
            match join::child_completed(unsafe { Record::join(prec) }) {
                ParentNext::Nothing => return,
                ParentNext::Resume => {
                    // One deque per worker: the parent's resume queue was validated at its
                    // taskwait and changes nothing here.
                    if let Err(e) = self.deque.push(&mut self.owner, parent) {
                        self.fail(e);
                    }
                    return;
                }
                ParentNext::Complete => id = parent,
            }
        }
    }

    /// The granularity policy ([`super::granularity`]) for a spawn by the running task
    /// described by `ctx`: over this worker's deque, the pool's never-used records plus this
    /// worker's cached ones (free records on the pool's stack are not counted: a lower
    /// bound, which is what a reserve needs), and the child's depth.
    fn run_inline(&mut self, ctx: &Ctx, queue: u32) -> bool {
        let policy = &self.run.granularity;
        // A bad queue is the spawn's to report.
        if policy.on == 0 || queue >= self.run.num_queues || self.common.failed {
            return false;
        }
        let pool = &self.run.pool;
        let queued = self.deque.len();
        let parent = pool.record(ctx.record);
        // SAFETY: the running task's record is live; its depth and queue were written before
        // it was published to this worker (the queue by its spawner or its last taskwait).
        let (depth, from) = unsafe { (Record::depth(parent) + 1, Record::queue(parent)) };
        let view = SpawnView {
            depth,
            queued,
            room: SpawnRoom {
                free_records: (pool.capacity().saturating_sub(pool.touched()))
                    .saturating_add(self.cache.len() as u32),
                queue_room: self.deque.capacity().saturating_sub(queued),
            },
            // One task per thread: no warp for an inline call to hold up.
            backoff: 0,
            other_queue: queue != from,
            // `min_depth` alone: a CPU has few workers, so it is shallow for any tree.
            from_depth: policy.min_depth,
        };
        let inline = granularity::run_inline(policy, view);
        self.stats.spawns_inlined += u64::from(inline);
        inline
    }

    /// Spawns `task` as a child of the running task described by `ctx`.
    fn spawn(&mut self, ctx: &mut Ctx, task: P::Task, result_slot: *mut u8, queue: u32) {
        if !self
            .run
            .admit_spawn(&mut self.common, ctx, self.current_task, queue)
        {
            return;
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
        // The push publishes the child's record.
        if let Err(e) = self.deque.push(&mut self.owner, id) {
            // The record stays live; `Run::finish` drops its frame.
            self.fail(e);
            self.run.termination.note_failed_task(ctx.record);
        }
    }
}

/// The worker behind `ctx`, checked (in debug builds) to run program `P`.
///
/// # Safety
/// `ctx` is the context of a task being resumed by a [`Worker`] of program `P`, which is not
/// otherwise used while the returned reference lives.
unsafe fn worker_of<'c, P: Program>(ctx: &Ctx) -> &'c mut Worker<'c, 'c, P> {
    // SAFETY: `Worker` is `repr(C)` with `Common` first; `ctx.worker` points to a worker.
    let program = unsafe { (*ctx.worker.cast::<Common<'_>>()).program };
    debug_assert!(
        program == TypeId::of::<P>(),
        "spawn of a task of another program"
    );
    // SAFETY: per the contract, `ctx.worker` is a `Worker<P>` whose loop is suspended in
    // `P::resume` and does not use it until the task yields back.
    unsafe { &mut *(ctx.worker as *mut Worker<'c, 'c, P>) }
}

/// `spawn!` on the CPU backend (the task model reaches it through the private `backend::spawn`).
///
/// # Safety
/// `ctx` is the context of the running task, given by a [`Worker`] of program `P`;
/// `result_slot` is null or valid for a write of the task's result until the parent's
/// taskwait that covers this child returns.
pub unsafe fn spawn<P: Program>(ctx: *mut Ctx, task: P::Task, result_slot: *mut u8, queue: u32) {
    // SAFETY: forwarded from the contract.
    if P::BLOCK && unsafe { runs_in_team(ctx) } {
        // SAFETY: forwarded; a block program's tasks run with a team member as their worker.
        return unsafe { team::spawn::<P>(ctx, task, result_slot, queue) };
    }
    // SAFETY: the running task owns its context (contract).
    let ctx = unsafe { &mut *ctx };
    // SAFETY: forwarded from the contract.
    let worker = unsafe { worker_of::<P>(ctx) };
    worker.spawn(ctx, task, result_slot, queue);
}

/// Whether a spawn runs inline on the CPU backend (the task model reaches it through the
/// private `backend::run_inline`).
///
/// # Safety
/// As [`spawn`].
pub unsafe fn run_inline<P: Program>(ctx: *mut Ctx, queue: u32) -> bool {
    if P::BLOCK {
        return false;
    }
    // SAFETY: the running task owns its context (contract).
    let ctx = unsafe { &*ctx };
    // SAFETY: forwarded from the contract.
    let worker = unsafe { worker_of::<P>(ctx) };
    worker.run_inline(ctx, queue)
}

/// Whether the running task, at its first resume, runs whole as its sequential version on
/// the CPU backend (`crate::task::ctx::runs_whole`): [`run_inline`] for a child of it into
/// the queue it was taken from.
///
/// # Safety
/// As [`run_inline`].
pub unsafe fn runs_whole<P: Program>(ctx: *mut Ctx) -> bool {
    if P::BLOCK {
        return false;
    }
    // SAFETY: the running task owns its context (contract).
    let ctx_ref = unsafe { &*ctx };
    // SAFETY: forwarded from the contract.
    let worker = unsafe { worker_of::<P>(ctx_ref) };
    if worker.run.granularity.on == 0 {
        return false;
    }
    // SAFETY: the running task's record is live; its queue was written before it was
    // published to this worker.
    let queue = unsafe { Record::queue(worker.run.pool.record(ctx_ref.record)) };
    worker.run_inline(ctx_ref, queue)
}

/// The budget of a split task started for a spawn of the running task that becomes a task
/// (`crate::task::split`): the policy's `split_budget` while the policy is on, else 0.
///
/// # Safety
/// As [`run_inline`].
#[inline(always)]
pub unsafe fn split_budget<P: Program>(ctx: *mut Ctx) -> u32 {
    if !P::SPLITS || P::BLOCK {
        return 0;
    }
    // SAFETY: the running task owns its context (contract).
    let ctx = unsafe { &*ctx };
    // SAFETY: forwarded from the contract.
    let worker = unsafe { worker_of::<P>(ctx) };
    crate::task::split::budget::<P>(&worker.run.granularity)
}

/// The oldest pending calls a split task makes tasks of one by one (the policy's
/// `split_singles`, `crate::task::split`).
///
/// # Safety
/// As [`run_inline`].
#[inline(always)]
pub unsafe fn split_singles<P: Program>(ctx: *mut Ctx) -> u32 {
    if P::BLOCK {
        return 0;
    }
    // SAFETY: the running task owns its context (contract).
    let ctx = unsafe { &*ctx };
    // SAFETY: forwarded from the contract.
    let worker = unsafe { worker_of::<P>(ctx) };
    crate::task::split::singles::<P>(&worker.run.granularity)
}

/// Counts `calls` that a split task walked into the worker's statistics (as spawns run
/// inline).
///
/// # Safety
/// As [`run_inline`].
#[inline(always)]
pub unsafe fn split_walked<P: Program>(ctx: *mut Ctx, calls: u32) {
    if P::BLOCK {
        return;
    }
    // SAFETY: the running task owns its context (contract).
    let ctx = unsafe { &*ctx };
    // SAFETY: forwarded from the contract.
    let worker = unsafe { worker_of::<P>(ctx) };
    worker.stats.spawns_inlined += u64::from(calls);
}

/// Whether the task behind `ctx` runs on a team (a block task), rather than on a worker
/// alone (a thread task, also in a program with block tasks).
///
/// # Safety
/// `ctx` is the context of a running task, given by a [`Worker`] or a team member.
unsafe fn runs_in_team(ctx: *const Ctx) -> bool {
    // SAFETY: both are `repr(C)` with `Common` first (contract); read only.
    unsafe { (*((*ctx).worker as *const Common<'_>)).in_team }
}

/// `spawn!(into hs, ..)` past the capacity of `hs` on the CPU backend: stops the run.
///
/// # Safety
/// `ctx` is the context of the running task, given by a [`Worker`] (of any program), which
/// is not otherwise used during the call.
pub unsafe fn fail_slots_full(ctx: *mut Ctx, task: &'static str, capacity: u32) {
    // SAFETY: the running task owns its context (contract).
    let ctx = unsafe { &mut *ctx };
    // Counted like a failed spawn, so that the task suspends at its next taskwait.
    ctx.spawned = ctx.spawned.saturating_add(1);
    // SAFETY: `Worker` is `repr(C)` with `Common` first, and the worker is not otherwise used
    // while the task runs (contract).
    let common = unsafe { &mut *(ctx.worker as *mut Common<'_>) };
    common.fail(RunError::SlotsFull { task, capacity });
    common.termination.note_failed_task(ctx.record);
}
