//! What can stop a run, and the slot where the first such error is kept.
//!
//! [`RunError`] is the one vocabulary of run-time errors that both backends report: a limit
//! that was hit (the task pool, a queue, `max_children`, a `slots!` capacity, an EPAQ queue
//! index, the timeout) or a block task that broke the block rules. Its `Display` is the only
//! wording of these errors: the host error types (`CpuError`, `GpuRunError`) hold it in one
//! variant and print it unchanged, so the same limit reads the same on the CPU and on the GPU,
//! and each message names the setting that raises the limit. A new limit is one new variant
//! here, its message, and its code in the GPU's encoding (`gpu::layout::KernelError`).
//!
//! The CPU backend records a [`Failure`] (a `RunError`, or a reason of its own host: a task
//! that panicked, a run the host stopped) in the run's [`ErrorSlot`]. The GPU writes the
//! `RunError` as three words of its control block (`gpu::layout::KernelError::encode`), and
//! the host decodes them with the inverse function.
//!
//! The first worker to fail records its error and raises the abort flag
//! ([`super::termination`]); every other worker stops at its next step, and the backend
//! returns the recorded error. Errors that happen after the first are dropped: they are
//! usually consequences of the first.
//!
//! # Memory ordering
//! The slot is written once: the CAS `EMPTY -> WRITING` (Acquire) elects the single writer,
//! which writes the value and then stores `WRITTEN` with Release. [`ErrorSlot::get`] loads the
//! state with Acquire, so a reader that sees `WRITTEN` sees the value. The host reads it only
//! after joining every worker thread, which orders it anyway.

use core::cell::UnsafeCell;
use core::fmt;
use core::mem::MaybeUninit;
use core::time::Duration;

use super::sync::{AtomicU32, Ordering};

/// Why a run stopped early, on either backend: a limit that was hit, or a block task that
/// broke the block rules. `Display` names the limit and the setting that raises it, in the
/// same words on both backends.
///
/// `T` is how a task is named: its name (`&'static str`, what the host errors hold), or its
/// index in the program's `TASK_NAMES` (`u32`, what device code knows and the GPU writes);
/// [`RunError::map_task`] turns one into the other.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum RunError<T = &'static str> {
    /// Every task record was in use when a task was spawned.
    PoolExhausted {
        /// The run's records: on the CPU its pool's (`CpuConfig::task_capacity`), on the GPU
        /// the warps' slabs and the reserve together (`GpuConfig::tasks_per_warp` per warp,
        /// `GpuConfig::reserve_records`).
        capacity: u32,
    },
    /// A worker's queue of runnable tasks had no room for a spawned or resumed task.
    QueueFull {
        /// Entries of the queue (`queue_capacity`; on the GPU's global-queue scheduler, the
        /// global queue's).
        capacity: u32,
    },
    /// A task spawned more than its program's `max_children` children between two
    /// taskwaits.
    TooManyChildren {
        /// The spawning task.
        task: T,
        /// The program's `max_children`.
        limit: u32,
    },
    /// `spawn!(into hs, ..)` found every slot of `hs` taken.
    SlotsFull {
        /// The task being spawned.
        task: T,
        /// How many slots `hs` has.
        capacity: u32,
    },
    /// A spawn or taskwait named an EPAQ queue the run does not have.
    BadQueue {
        /// The queue index given.
        queue: u32,
        /// How many queues the run has (`num_queues`).
        num_queues: u32,
    },
    /// The run took longer than its timeout and was stopped.
    TimedOut {
        /// The timeout.
        after: Duration,
    },
    /// The threads of a block task did not all reach the same `taskwait!()` (or did not all
    /// return): a taskwait on a path that depends on the thread.
    DivergentTaskwait {
        /// The block task.
        task: T,
        /// The first thread whose outcome differed from the leader's.
        thread: u32,
    },
    /// At a `taskwait!()` of a block task, some thread's locals differed from the leader's:
    /// state that lives across a join must be the same on every thread.
    NonUniformState {
        /// The block task.
        task: T,
    },
}

impl<T> RunError<T> {
    /// `Err(BadQueue)` unless `queue` is one of the run's `num_queues` EPAQ queues: the one
    /// check of a queue index, made at each spawn and at each taskwait by both backends, so
    /// that a task is never staged into, nor resumed from, a queue the run does not have.
    #[inline(always)]
    pub fn check_queue(queue: u32, num_queues: u32) -> Result<(), RunError<T>> {
        if queue < num_queues {
            Ok(())
        } else {
            Err(RunError::BadQueue { queue, num_queues })
        }
    }

    /// The same error with its task, if it names one, mapped by `f` (an index to a name, or
    /// back).
    #[inline(always)]
    pub fn map_task<U>(self, f: impl FnOnce(T) -> U) -> RunError<U> {
        match self {
            RunError::PoolExhausted { capacity } => RunError::PoolExhausted { capacity },
            RunError::QueueFull { capacity } => RunError::QueueFull { capacity },
            RunError::TooManyChildren { task, limit } => RunError::TooManyChildren {
                task: f(task),
                limit,
            },
            RunError::SlotsFull { task, capacity } => RunError::SlotsFull {
                task: f(task),
                capacity,
            },
            RunError::BadQueue { queue, num_queues } => RunError::BadQueue { queue, num_queues },
            RunError::TimedOut { after } => RunError::TimedOut { after },
            RunError::DivergentTaskwait { task, thread } => RunError::DivergentTaskwait {
                task: f(task),
                thread,
            },
            RunError::NonUniformState { task } => RunError::NonUniformState { task: f(task) },
        }
    }
}

/// The one wording of each run-time error. Where the two backends size a limit with
/// differently named settings, the message names both.
impl fmt::Display for RunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            RunError::PoolExhausted { capacity } => write!(
                f,
                "task pool exhausted: all {capacity} task records of the run were in use when a \
                 task was spawned (on the GPU: the warps' slabs and the device-wide reserve \
                 they borrow from); raise CpuConfig::task_capacity (default: a quarter of the \
                 host's memory), or on the GPU GpuConfig::reserve_records (default: a quarter \
                 of the free device memory, at most 8 GiB) or GpuConfig::tasks_per_warp; or keep fewer tasks alive at once (give \
                 tasks a sequential version so that the granularity policy can run spawns \
                 inline)"
            ),
            RunError::QueueFull { capacity } => write!(
                f,
                "task queue full: a queue of {capacity} runnable tasks had no room; raise \
                 CpuConfig::queue_capacity or GpuConfig::queue_capacity"
            ),
            RunError::TooManyChildren { task, limit } => write!(
                f,
                "task `{task}` spawned more than {limit} children between two taskwait!()s; \
                 add a taskwait!() or raise the program's limit with \
                 #[gtap::program(max_children = N)]"
            ),
            RunError::SlotsFull { task, capacity } => write!(
                f,
                "spawn!(into ..) of task `{task}` found all {capacity} slots taken; declare \
                 the slots larger (slots!(T; N)) or add a taskwait!() before they fill up"
            ),
            RunError::BadQueue { queue, num_queues } => write!(
                f,
                "EPAQ queue index {queue} is out of range: the run has {num_queues} queue(s); \
                 name a lower queue in queue(..), or raise CpuConfig::num_queues or \
                 GpuConfig::num_queues"
            ),
            RunError::TimedOut { after } => write!(
                f,
                "the run took longer than {after:?} and was stopped: raise CpuConfig::timeout \
                 or GpuConfig::timeout if it is just long, or look for tasks that never finish"
            ),
            RunError::DivergentTaskwait { task, thread } => write!(
                f,
                "block task `{task}`: thread {thread} did not reach the same taskwait!() as \
                 thread 0; every thread of a block task must reach each taskwait!() (and \
                 return) on the same path"
            ),
            RunError::NonUniformState { task } => write!(
                f,
                "block task `{task}`: at a taskwait!() some thread's locals differed from \
                 thread 0's; what lives across a join must be the same on every thread \
                 (recompute per-thread values after the taskwait!())"
            ),
        }
    }
}

impl core::error::Error for RunError {}

/// Why a CPU run stopped early: a [`RunError`], or a reason that only the CPU backend's host
/// has. What the run's [`ErrorSlot`] holds; the host turns it into a `CpuError`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Failure {
    /// A limit or a block rule, as on the GPU.
    Run(RunError),
    /// A task panicked (on the GPU a panic traps instead).
    TaskPanicked {
        /// The task that was running.
        task: &'static str,
    },
    /// The host stopped the run (the CPU backend's `Run::abort`): its time limit passed, or a
    /// worker thread could not be started.
    Aborted,
}

impl From<RunError> for Failure {
    fn from(error: RunError) -> Self {
        Failure::Run(error)
    }
}

const EMPTY: u32 = 0;
const WRITING: u32 = 1;
const WRITTEN: u32 = 2;

/// Holds the first error of a run. Written at most once per run; reset between runs.
pub struct ErrorSlot {
    /// `EMPTY`, `WRITING` or `WRITTEN`; monotonic within a run. CAS by the failing worker,
    /// read by the backend after the run.
    state: AtomicU32,
    /// Written only by the worker that won the CAS on `state`, read only after `WRITTEN`.
    value: UnsafeCell<MaybeUninit<Failure>>,
}

// SAFETY: `value` is written by exactly one thread (the winner of the `state` CAS) before a
// Release store of `WRITTEN`, and read only after an Acquire load of `WRITTEN`.
unsafe impl Sync for ErrorSlot {}

impl ErrorSlot {
    /// An empty slot.
    pub fn new() -> Self {
        ErrorSlot {
            state: AtomicU32::new(EMPTY),
            value: UnsafeCell::new(MaybeUninit::uninit()),
        }
    }

    /// Empties the slot for the next run. Needs `&mut`: no worker of a run is alive.
    pub fn reset(&mut self) {
        self.state = AtomicU32::new(EMPTY);
    }

    /// Records `error` if it is the run's first. Returns whether it was.
    pub fn set(&self, error: Failure) -> bool {
        // Acquire: keeps the write below after the claim.
        if self
            .state
            .compare_exchange(EMPTY, WRITING, Ordering::Acquire, Ordering::Relaxed)
            .is_err()
        {
            return false;
        }
        // SAFETY: the CAS above made this thread the only writer; readers wait for `WRITTEN`.
        unsafe { (*self.value.get()).write(error) };
        // Release: publishes the value to readers that see `WRITTEN`.
        self.state.store(WRITTEN, Ordering::Release);
        true
    }

    /// The recorded error, if one was completely written.
    pub fn get(&self) -> Option<Failure> {
        // Acquire: pairs with the Release store in `set`.
        if self.state.load(Ordering::Acquire) == WRITTEN {
            // SAFETY: `WRITTEN` is stored after the value was written, and never again changed
            // within the run.
            Some(unsafe { (*self.value.get()).assume_init() })
        } else {
            None
        }
    }
}

impl Default for ErrorSlot {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    extern crate std;
    use std::string::ToString;

    use super::*;

    #[test]
    fn first_error_wins_and_reset_clears() {
        let mut slot = ErrorSlot::new();
        assert_eq!(slot.get(), None);
        assert!(slot.set(RunError::QueueFull { capacity: 4 }.into()));
        assert!(!slot.set(Failure::Aborted));
        assert_eq!(
            slot.get(),
            Some(Failure::Run(RunError::QueueFull { capacity: 4 }))
        );
        slot.reset();
        assert_eq!(slot.get(), None);
    }

    #[test]
    fn a_queue_index_is_checked_against_the_runs_queues() {
        assert_eq!(RunError::<&str>::check_queue(0, 1), Ok(()));
        assert_eq!(RunError::<&str>::check_queue(2, 3), Ok(()));
        let bad = RunError::<&str>::check_queue(3, 3);
        assert_eq!(
            bad,
            Err(RunError::BadQueue {
                queue: 3,
                num_queues: 3
            })
        );
        assert!(RunError::<&str>::check_queue(u32::MAX, 1).is_err());
    }

    #[test]
    fn messages_name_the_limit_and_the_setting() {
        let e: RunError = RunError::TooManyChildren {
            task: "wide",
            limit: 3,
        };
        let msg = e.to_string();
        assert!(
            msg.starts_with("task `wide` spawned more than 3 children"),
            "{msg}"
        );
        assert!(msg.contains("max_children"), "{msg}");
        let msg = RunError::BadQueue {
            queue: 5,
            num_queues: 2,
        }
        .to_string();
        assert!(
            msg.contains("index 5") && msg.contains("2 queue(s)"),
            "{msg}"
        );
        assert!(msg.contains("CpuConfig::num_queues") && msg.contains("GpuConfig::num_queues"));
        let msg = RunError::PoolExhausted { capacity: 8 }.to_string();
        assert!(msg.contains("8 task records"), "{msg}");
        assert!(
            msg.contains("CpuConfig::task_capacity") && msg.contains("GpuConfig::tasks_per_warp")
        );
        let msg = RunError::TimedOut {
            after: Duration::from_millis(20),
        }
        .to_string();
        assert!(
            msg.contains("20ms") && msg.contains("GpuConfig::timeout"),
            "{msg}"
        );
    }

    #[test]
    fn map_task_keeps_everything_else() {
        let e = RunError::DivergentTaskwait {
            task: 2u32,
            thread: 7,
        };
        assert_eq!(
            e.map_task(|i| ["a", "b", "c"][i as usize]),
            RunError::DivergentTaskwait {
                task: "c",
                thread: 7
            }
        );
        let e: RunError<u32> = RunError::QueueFull { capacity: 4 };
        assert_eq!(
            e.map_task(|_| -> &str { unreachable!() }),
            RunError::QueueFull { capacity: 4 }
        );
    }
}
