//! [`CpuRuntime`]: starts the worker threads for one run and collects the outcome.

use std::any::Any;
use std::cell::UnsafeCell;
use std::mem::MaybeUninit;
use std::panic::{self, AssertUnwindSafe};
use std::sync::{Condvar, Mutex, PoisonError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use gtap_device::runtime::cpu::{Run, RunMemory, RunOptions, WorkerStats};
use gtap_device::runtime::error::Failure;
use gtap_device::runtime::granularity::{Granularity, ceil_log2};
use gtap_device::runtime::record::Record;
use gtap_device::task::{Call, Program, split};

use super::capacity::MIN_AUTO_RECORDS;
use super::config::CpuConfig;
use super::error::CpuError;
use super::memory::CpuMemory;

/// What a run did. Totals over all workers.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CpuStats {
    /// Worker threads used.
    pub threads: usize,
    /// Tasks that ran to their return, the root included.
    pub tasks_executed: u64,
    /// Resumptions of task frames. A task that suspends `k` times is resumed `k + 1` times.
    pub resumes: u64,
    /// Steal attempts on victims.
    pub steals_attempted: u64,
    /// Steal attempts that took at least one task.
    pub steals_won: u64,
    /// Spawns run inline, as the child's sequential version, instead of as tasks (the
    /// granularity policy, [`Limits::auto_granularity`](crate::Limits::auto_granularity)),
    /// and calls that split tasks walked ([`Limits::split_budget`](crate::Limits::split_budget)).
    /// For a program that only splits (fib), `tasks_executed + spawns_inlined` is its calls.
    /// The tasks a run made are `tasks_executed - 1` (the root was not spawned).
    pub spawns_inlined: u64,
    /// An upper bound on the most task records in use at once: the records handed out at
    /// least once in the run. It exceeds the true peak by at most the free records parked in
    /// the workers' local caches when the last new record was handed out: at most 64 per
    /// worker, and at most a quarter of the pool (but at least one per worker).
    pub peak_records_in_use: u32,
    /// The task records the run had: the configured `task_capacity`, or the default sized
    /// from the host's memory ([`CpuConfig::records_for`]).
    pub task_capacity: u32,
    /// Wall-clock time from starting the workers to joining them.
    pub elapsed: Duration,
}

/// Runs task programs on host threads with work stealing. Reusable: the memory is allocated
/// by [`CpuRuntime::new`] (records: at the first run) and reset, not reallocated, for every
/// later run with the same configuration.
pub struct CpuRuntime {
    config: CpuConfig,
    /// The runs' memory. `None` while a run is in flight (it is then reached only through a
    /// raw pointer, see [`CpuRuntime::run`]), and after a run that could not give it back (a
    /// stuck task, a failed reallocation): the next run allocates it again.
    memory: Option<Box<CpuMemory>>,
    /// The host's memory, read once (`capacity::host_bytes`), from which a run of a
    /// configuration without a `task_capacity` sizes its records.
    host_bytes: Option<u64>,
}

/// The state of one run that the worker threads share, in a heap allocation of its own: the
/// host frees it after joining every worker, or leaks it when a worker is stuck in a task.
struct Shared<'m, P: Program, R> {
    run: Run<'m, P>,
    /// One per root: written by the worker that completes the root (through the pointer
    /// given to [`Run::seed`]), read by the host after joining it.
    results: Box<[UnsafeCell<MaybeUninit<R>>]>,
    /// The message of the panic that is the run's error, if it is one.
    panic_message: Mutex<Option<String>>,
    exits: Exits,
}

/// How many worker threads have left their loop, and a condition variable that the host
/// waits on, with a deadline, until all have.
struct Exits {
    /// Workers that have exited. Incremented by each worker's [`ExitGuard`] as the last thing
    /// its thread does with the run; read by the host.
    count: Mutex<usize>,
    /// Notified at each increment of `count`.
    changed: Condvar,
}

impl Exits {
    /// Waits until `n` workers have exited or `deadline` passes; returns whether all did.
    fn wait(&self, n: usize, deadline: Option<Instant>) -> bool {
        let mut count = self.count.lock().unwrap_or_else(PoisonError::into_inner);
        loop {
            if *count >= n {
                return true;
            }
            count = match deadline {
                None => self
                    .changed
                    .wait(count)
                    .unwrap_or_else(PoisonError::into_inner),
                Some(deadline) => {
                    let left = deadline.saturating_duration_since(Instant::now());
                    if left.is_zero() {
                        return false;
                    }
                    self.changed
                        .wait_timeout(count, left)
                        .unwrap_or_else(PoisonError::into_inner)
                        .0
                }
            };
        }
    }
}

/// Counts its worker as exited when dropped: at the end of the worker's thread, also when it
/// unwinds.
struct ExitGuard<'a>(&'a Exits);

impl Drop for ExitGuard<'_> {
    fn drop(&mut self) {
        let mut count = self.0.count.lock().unwrap_or_else(PoisonError::into_inner);
        *count += 1;
        self.0.changed.notify_all();
    }
}

/// How long the host waits, after stopping a run, for workers still inside a task before it
/// reports [`CpuError::Stuck`]: as long as the timeout, but at least 0.1 s and at most 5 s.
fn stuck_grace(timeout: Option<Duration>) -> Duration {
    timeout
        .unwrap_or_default()
        .clamp(Duration::from_millis(100), Duration::from_secs(5))
}

impl CpuRuntime {
    /// A runtime with `config`, validated, and its queues allocated.
    pub fn new(config: CpuConfig) -> Result<Self, CpuError> {
        config.validate()?;
        let memory = Box::new(CpuMemory::new(
            config.workers.threads,
            config.limits.queue_capacity,
        )?);
        Ok(CpuRuntime {
            config,
            memory: Some(memory),
            host_bytes: super::capacity::host_bytes(),
        })
    }

    /// The configuration.
    pub fn config(&self) -> &CpuConfig {
        &self.config
    }

    /// Changes the configuration. The memory is reallocated only if the threads or queue
    /// capacity changed (records are sized at the next run).
    pub fn set_config(&mut self, config: CpuConfig) -> Result<(), CpuError> {
        config.validate()?;
        if config.workers.threads != self.config.workers.threads
            || config.limits.queue_capacity != self.config.limits.queue_capacity
        {
            // Free the old queues first, so that peak memory is not old + new. Should the new
            // allocation fail, the next run tries again.
            self.memory = None;
            self.memory = Some(Box::new(CpuMemory::new(
                config.workers.threads,
                config.limits.queue_capacity,
            )?));
        }
        self.config = config;
        Ok(())
    }

    /// The address of the task record buffer, once a run allocated it (to check reuse).
    #[doc(hidden)]
    pub fn records_addr(&self) -> Option<usize> {
        self.memory.as_ref().and_then(|m| m.records_addr())
    }

    /// The memory of the next run: the runtime's, or fresh memory after a run that could not
    /// give it back.
    fn take_memory(&mut self) -> Result<Box<CpuMemory>, CpuError> {
        Ok(match self.memory.take() {
            Some(memory) => memory,
            None => Box::new(CpuMemory::new(
                self.config.workers.threads,
                self.config.limits.queue_capacity,
            )?),
        })
    }

    /// The options of the next run's scheduler, for `roots` roots and `records` task records.
    fn run_options(&self, roots: usize, records: u32) -> RunOptions {
        RunOptions {
            num_queues: self.config.limits.num_queues,
            idle: std::thread::yield_now,
            team: self.config.workers.team,
            check_uniform: self.config.limits.check_uniform,
            granularity: self.granularity(roots, records),
        }
    }

    /// The granularity policy's settings for the next run of `roots` roots with `records`
    /// task records: a child is a task
    /// within `log2(threads / roots) + 4` levels of its root (enough tasks for every worker, with slack,
    /// before a subtree is committed to one), and after that while its worker's deque holds
    /// fewer than 4 tasks; it runs inline when the pool or the deque has at most 64 entries
    /// left (or a quarter of it, if smaller).
    fn granularity(&self, roots: usize, records: u32) -> Granularity {
        if !self.config.limits.auto_granularity {
            return Granularity::OFF;
        }
        // Workers per root: a batch's roots already spread over the workers.
        let threads = (self.config.workers.threads as u32).div_ceil(roots.max(1) as u32);
        let smaller = records.min(self.config.limits.queue_capacity);
        Granularity {
            on: 1,
            min_depth: ceil_log2(threads) + 4,
            min_queued: 4,
            reserve: (smaller / 4).min(64),
            backoff_ratio: 0,
            task_rounds: 0,
            wide_tasks: 0,
            wide_nodes: 0,
            split_budget: self.config.limits.split_budget,
            split_singles: self.config.limits.split_singles,
        }
    }

    /// Makes `memory` hold the records of a run of `P` ([`CpuConfig::records_for`]) and
    /// returns how many: a capacity the configuration set, or the default, halved while its
    /// allocation fails (the system may refuse that much address space at once), down to
    /// [`MIN_AUTO_RECORDS`].
    fn reserve_records<P: Program>(&self, memory: &mut CpuMemory) -> Result<u32, CpuError> {
        let oom = || CpuError::OutOfMemory {
            what: "the task records",
            bytes: usize::MAX,
            setting: "task_capacity",
        };
        let auto = self.config.workers.task_capacity.is_none();
        let mut capacity = self.config.records_on::<P>(self.host_bytes);
        loop {
            let layout = Record::<P::Task>::array_layout(capacity).map_err(|_| oom())?;
            match memory.ensure_records(layout) {
                Ok(()) => return Ok(capacity),
                Err(CpuError::OutOfMemory { .. }) if auto && capacity > MIN_AUTO_RECORDS => {
                    capacity = (capacity / 2).max(MIN_AUTO_RECORDS);
                }
                Err(e) => return Err(e),
            }
        }
    }

    /// Frees a run's shared state and gives its memory back to the runtime.
    ///
    /// # Safety
    ///
    /// No worker of the run is running (none was started, or every one was joined); both
    /// pointers came from `Box::into_raw` and are given back once.
    unsafe fn give_back<P: Program, R>(
        &mut self,
        shared: *mut Shared<'_, P, R>,
        memory: *mut CpuMemory,
    ) {
        // SAFETY: the caller's contract; the shared state, which borrows the memory, first.
        unsafe {
            drop(Box::from_raw(shared));
            self.memory = Some(Box::from_raw(memory));
        }
    }

    /// Runs `root` to completion on the configured number of threads and returns its result.
    ///
    /// On an error (a limit hit, a task panic, the timeout) every worker stops, the frames of
    /// the tasks left unfinished are dropped, and the error says which limit to raise. The
    /// runtime stays usable for the next run. A task that does not return after the timeout
    /// ends the run with [`CpuError::Stuck`] instead (see there).
    ///
    /// `root` may borrow (slices of host memory, views of `DeviceVec`s made for the CPU
    /// backend, `'g`): the borrow lasts until this call returns, after every worker has left
    /// the run. That is why a run whose root task takes a borrowing parameter
    /// ([`Call::borrows`]) and has a task that never returns cannot end with
    /// [`CpuError::Stuck`]: the stuck task would still use what the caller gets back. Such a
    /// run aborts the process instead, after printing why.
    pub fn run<'g, P: Program, R: Copy + Send + 'static>(
        &mut self,
        root: Call<'g, P, R>,
    ) -> Result<(R, CpuStats), CpuError> {
        let (mut values, stats) = self.run_roots(vec![root])?;
        Ok((values.pop().expect("one root, one result"), stats))
    }

    /// Runs every root of `roots` to completion in one run and returns their results in the
    /// same order, with the run's statistics: independent task trees sharing the workers
    /// (idle workers start the roots in order and steal from each other as usual).
    ///
    /// A failure ends the whole run; when it happened in a spawn (a limit) or a thread task
    /// panicked, the error is [`CpuError::InRoot`], which says which root's task failed.
    ///
    /// ```ignore
    /// let roots: Vec<_> = (0..1000).map(|i| program::fib(10 + i % 10)).collect();
    /// let (values, stats) = rt.run_batch(roots)?;
    /// ```
    pub fn run_batch<'g, P: Program, R: Copy + Send + 'static>(
        &mut self,
        roots: impl IntoIterator<Item = Call<'g, P, R>>,
    ) -> Result<(Vec<R>, CpuStats), CpuError> {
        let roots: Vec<Call<'g, P, R>> = roots.into_iter().collect();
        if roots.is_empty() {
            return Ok((Vec::new(), CpuStats::default()));
        }
        self.run_roots(roots)
    }

    /// One run of `roots` (at least one); what they borrow stays borrowed (`'g`) until this
    /// call returns (see [`CpuRuntime::run`] for a stuck run that borrows).
    fn run_roots<'g, P: Program, R: Copy + Send + 'static>(
        &mut self,
        roots: Vec<Call<'g, P, R>>,
    ) -> Result<(Vec<R>, CpuStats), CpuError> {
        let borrows = roots.iter().any(Call::borrows);
        let root_name = roots[0].task_name();
        // How the workers borrow: they are not scoped threads, because a stuck worker must be
        // able to outlive this call. Everything they use is in two heap allocations that this
        // function reaches only through raw pointers while they run: the `CpuMemory` (taken
        // out of the runtime) and the run's `Shared` state. Once every worker has been joined,
        // the memory goes back to the runtime and the shared state is freed; if a worker is
        // stuck (or this function unwinds while workers run), both are leaked instead, so
        // every reference a worker holds stays valid for as long as its thread lives.
        let threads = self.config.workers.threads;
        let timeout = self.config.deadline();
        let mut memory = self.take_memory()?;
        let capacity = match self.reserve_records::<P>(&mut memory) {
            Ok(c) => c,
            Err(e) => {
                self.memory = Some(memory);
                return Err(e);
            }
        };
        let layout = Record::<P::Task>::array_layout(capacity).expect("reserved above");
        // From here until the memory is boxed again, it is reached only through this pointer
        // (a `Box` must not be moved while threads use references derived from it).
        let memory = Box::into_raw(memory);
        let block_scratch = P::BLOCK.then_some(self.config.limits.block_scratch as usize);
        // SAFETY: `memory` came from `Box::into_raw` just above and nothing else refers to it;
        // it stays allocated until it is boxed again below, after every worker was joined, or
        // forever when it is leaked.
        let run_memory = match unsafe { &mut *memory }.for_run(layout, capacity, block_scratch) {
            Ok(m) => m,
            Err(e) => {
                // SAFETY: from `Box::into_raw` above; the failed `for_run` left no borrow.
                self.memory = Some(unsafe { Box::from_raw(memory) });
                return Err(e);
            }
        };
        let options = self.run_options(roots.len(), capacity);
        let budget = split::budget::<P>(&options.granularity);
        // SAFETY: the record memory holds `capacity` records of `P::Task` (its layout came
        // from `Record::array_layout`) and is used by nothing else while the run lives:
        // `memory` is out of `self` until the run is over.
        let shared = unsafe { Shared::<P, R>::new(run_memory, options, roots.len()) };
        let shared_raw = Box::into_raw(Box::new(shared));
        // SAFETY: `shared_raw` came from `Box::into_raw` just above; no worker exists yet, so
        // this is the only reference. `results` has one slot of each root's result type and
        // lives as long as the run (both are in the same allocation).
        let seeded = unsafe {
            let slots = (*shared_raw).results.iter().map(|r| r.get().cast::<u8>());
            let tasks = roots.into_iter().map(|c| c.into_task_split(budget));
            (*shared_raw).run.seed(tasks.zip(slots))
        };
        if let Err(e) = seeded {
            // SAFETY: no worker was started; both pointers came from `Box::into_raw` above and
            // are given back once each (the shared state, which borrows the memory, first).
            unsafe { self.give_back(shared_raw, memory) };
            return Err(CpuError::Run(e));
        }
        // SAFETY: the shared state stays allocated until every worker was joined, or forever
        // (see the top of this function); from here on, until the joins, only shared
        // references to it are made.
        let (run, panic_message, exits) = unsafe {
            (
                &(*shared_raw).run,
                &(*shared_raw).panic_message,
                &(*shared_raw).exits,
            )
        };

        let started = Instant::now();
        let stack = self.config.workers.stack_bytes;
        let (handles, spawn_error) =
            // SAFETY: both allocations stay until every worker was joined, or forever (see the
            // top of this function).
            unsafe { start_workers(run, panic_message, exits, threads, stack) };
        let workers = handles.len();
        if !wait_for_workers(run, exits, workers, started, timeout, spawn_error.is_some()) {
            if borrows {
                stuck_with_borrowed_data(P::NAME, root_name);
            }
            // Leave the threads running: dropping their handles detaches them. The shared
            // state and the memory are leaked, so what the threads use stays valid; the next
            // run allocates fresh memory (`self.memory` is `None`). DeviceVecs made before
            // may be in use by the stuck task too (a `'static` one, leaked for it).
            crate::data::note_stuck();
            drop(handles);
            return Err(spawn_error.unwrap_or(CpuError::Stuck {
                after: timeout.unwrap_or_default(),
            }));
        }
        let (totals, worker_panic) = join_all(handles);
        let elapsed = started.elapsed();
        if let Some(payload) = worker_panic {
            // A bug in the runtime, not in a task: the memory is leaked (the next run
            // allocates fresh memory), as are the frames of the run.
            panic::resume_unwind(payload);
        }
        // SAFETY: every worker was joined: this is the only reference to the shared state now.
        let shared = unsafe { &mut *shared_raw };
        let stats = shared.stats(totals, threads, elapsed);
        let value = shared.outcome(timeout);
        // SAFETY: every worker was joined; both pointers came from `Box::into_raw` above and
        // are given back once each, the shared state (which borrows the memory) first.
        unsafe { self.give_back(shared_raw, memory) };
        if let Some(e) = spawn_error {
            return Err(e);
        }
        value.map(|v| (v, stats))
    }
}

/// A run of `program` whose root (`task`) borrows the caller's data has a worker stuck in a
/// task past the timeout: returning would hand the caller back data that the task may still
/// use, so the process ends here.
#[cold]
fn stuck_with_borrowed_data(program: &str, task: &str) -> ! {
    eprintln!(
        "gtap: a task of a run of program `{program}` (root task `{task}`) has not returned past \
         the run's timeout, and the run borrows the caller's data (its root takes references or \
         views), which the task may still use: the process is aborted. Find the task that does \
         not return by running on the CPU backend with a root that borrows nothing ('static \
         data), which reports CpuError::Stuck instead"
    );
    std::process::abort()
}

impl<'m, P: Program, R: Copy> Shared<'m, P, R> {
    /// The shared state of a run of `roots` roots in `memory` with `options`, before its roots
    /// are seeded.
    ///
    /// # Safety
    ///
    /// As [`Run::new`]: `memory.records` is aligned for `Record<P::Task>` and valid for reads
    /// and writes of `memory.record_capacity` of them for `'m`, and nothing else uses it
    /// meanwhile.
    unsafe fn new(memory: RunMemory<'m>, options: RunOptions, roots: usize) -> Self {
        Shared {
            // SAFETY: the caller's contract.
            run: unsafe { Run::<P>::new(memory, options) },
            results: (0..roots)
                .map(|_| UnsafeCell::new(MaybeUninit::uninit()))
                .collect(),
            panic_message: Mutex::new(None),
            exits: Exits {
                count: Mutex::new(0),
                changed: Condvar::new(),
            },
        }
    }

    /// The run's statistics: the workers' `totals`, summed over `threads` workers that ran
    /// for `elapsed`.
    fn stats(&self, totals: WorkerStats, threads: usize, elapsed: Duration) -> CpuStats {
        CpuStats {
            threads,
            tasks_executed: totals.tasks_executed,
            resumes: totals.resumes,
            steals_attempted: totals.steals_attempted,
            steals_won: totals.steals_won,
            spawns_inlined: totals.spawns_inlined,
            peak_records_in_use: self.run.peak_records(),
            task_capacity: self.run.record_capacity(),
            elapsed,
        }
    }

    /// The run's outcome once every worker was joined (no worker refers to the shared state
    /// any more: `&mut self`): the roots' results, or the run's error with the message of the
    /// task panic that caused it (and, in a batch, the root whose task failed a spawn or panicked).
    fn outcome(&mut self, timeout: Option<Duration>) -> Result<Vec<R>, CpuError> {
        let roots = self.results.len();
        let failed_root = self.run.failed_root();
        match self.run.finish() {
            // SAFETY: every root completed, so each delivered its result into its slot, and
            // the workers that did it were joined.
            Ok(()) => Ok(self
                .results
                .iter_mut()
                .map(|r| unsafe { r.get_mut().assume_init() })
                .collect()),
            Err(e) => {
                let message = self
                    .panic_message
                    .get_mut()
                    .unwrap_or_else(PoisonError::into_inner)
                    .take();
                let error = CpuError::from_failure(e, message, timeout);
                Err(match failed_root {
                    Some(root) if roots > 1 => CpuError::InRoot {
                        root: root as usize,
                        roots,
                        source: Box::new(error),
                    },
                    _ => error,
                })
            }
        }
    }
}

/// Starts `threads` workers on `run`, each a team of `run.team()` threads (the first is the
/// worker, the others its followers). Stops at the first thread that cannot be started:
/// returns the handles of those started, and that thread's error.
///
/// # Safety
///
/// `run`, `panic_message` and `exits` (and, through `run`, the memory) stay allocated until
/// every thread returned was joined, or forever (a stuck worker): the threads keep the
/// references past this call.
unsafe fn start_workers<P: Program>(
    run: &Run<'_, P>,
    panic_message: &Mutex<Option<String>>,
    exits: &Exits,
    threads: usize,
    stack_bytes: usize,
) -> (Vec<JoinHandle<WorkerStats>>, Option<CpuError>) {
    let team = run.team() as usize;
    let mut handles = Vec::with_capacity(threads * team);
    for thread in 0..threads * team {
        // Worker `index`'s team is threads `index * team ..`; its first is the worker.
        let (index, member) = (thread / team, (thread % team) as u32);
        let name = if team == 1 {
            format!("gtap-cpu-{index}")
        } else {
            format!("gtap-cpu-{index}.{member}")
        };
        let builder = std::thread::Builder::new()
            .name(name)
            .stack_size(stack_bytes);
        // SAFETY: the thread borrows `run`, `panic_message` and `exits` (and, through `run`,
        // the memory). Both allocations are freed only after this thread was joined, or
        // never (a stuck worker); see this function's contract and the top of
        // `CpuRuntime::run`. It returns plain `WorkerStats`, which borrow nothing.
        let spawned = unsafe {
            builder.spawn_unchecked(move || {
                let _exit = ExitGuard(exits);
                if member == 0 {
                    worker_thread(run, index as u32, panic_message)
                } else {
                    follower_thread(run, index as u32, member, panic_message)
                }
            })
        };
        match spawned {
            Ok(handle) => handles.push(handle),
            Err(source) => {
                let error = CpuError::ThreadSpawn {
                    index: thread,
                    source,
                };
                return (handles, Some(error));
            }
        }
    }
    (handles, None)
}

/// Waits for the `workers` started at `started` to exit. At the deadline (at once when
/// `spawn_failed`: not every worker could be started) it stops the run; if a worker is still
/// inside a task a grace period later, it gives up on it. Returns whether every worker exited.
fn wait_for_workers<P: Program>(
    run: &Run<'_, P>,
    exits: &Exits,
    workers: usize,
    started: Instant,
    timeout: Option<Duration>,
    spawn_failed: bool,
) -> bool {
    let mut deadline = timeout.and_then(|t| started.checked_add(t));
    if spawn_failed {
        run.abort();
        deadline = Some(started);
    }
    if !exits.wait(workers, deadline) {
        run.abort();
        let grace = Instant::now().checked_add(stuck_grace(timeout));
        if !exits.wait(workers, grace) {
            return false;
        }
    }
    true
}

/// Joins every worker thread: their statistics summed, and the payload of a thread that
/// panicked (the last one joined).
fn join_all(handles: Vec<JoinHandle<WorkerStats>>) -> (WorkerStats, Option<Box<dyn Any + Send>>) {
    let mut totals = WorkerStats::default();
    let mut worker_panic = None;
    for handle in handles {
        // Worker threads catch every panic of a task themselves.
        match handle.join() {
            Ok(stats) => totals += stats,
            Err(payload) => worker_panic = Some(payload),
        }
    }
    (totals, worker_panic)
}

/// One worker thread: runs the worker loop, turning a panic into the run's error.
fn worker_thread<P: Program>(
    run: &Run<'_, P>,
    index: u32,
    panic_message: &Mutex<Option<String>>,
) -> WorkerStats {
    // SAFETY: `CpuRuntime::run` starts one thread per index, each making its worker once.
    let mut worker = unsafe { run.worker(index) };
    let body = || {
        if P::BLOCK {
            worker.run_team()
        } else {
            worker.run()
        }
    };
    if let Err(payload) = panic::catch_unwind(AssertUnwindSafe(body)) {
        // Keep the message only if this panic is the run's first error.
        let mut message = panic_message.lock().unwrap_or_else(PoisonError::into_inner);
        if run.fail(Failure::TaskPanicked {
            task: worker.current_task(),
        }) {
            run.note_failed_task(worker.current_record());
            *message = Some(panic_text(payload.as_ref()));
        }
    }
    worker.stats()
}

/// Thread `member` (not 0) of worker `index`'s team in a block program: runs the tasks its
/// leader posts, turning a panic into the run's error.
fn follower_thread<P: Program>(
    run: &Run<'_, P>,
    index: u32,
    member: u32,
    panic_message: &Mutex<Option<String>>,
) -> WorkerStats {
    // SAFETY: `CpuRuntime::run` starts one thread per (worker, member), and the worker's own
    // thread runs `Worker::run_team`.
    let body = || unsafe { gtap_device::runtime::cpu::follow(run, index, member) };
    if let Err(payload) = panic::catch_unwind(AssertUnwindSafe(body)) {
        // Before failing the run: until then the leader keeps the task posted.
        let posted = gtap_device::runtime::cpu::posted_task(run, index);
        let mut message = panic_message.lock().unwrap_or_else(PoisonError::into_inner);
        let task = posted.map_or("a block task (on a team thread)", |(_, name)| name);
        if run.fail(Failure::TaskPanicked { task }) {
            if let Some((record, _)) = posted {
                run.note_failed_task(record);
            }
            *message = Some(panic_text(payload.as_ref()));
        }
    }
    WorkerStats::default()
}

fn panic_text(payload: &(dyn Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_owned()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        String::from("(a panic payload that is not a string)")
    }
}
