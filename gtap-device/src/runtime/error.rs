//! What can stop a run, and the slot where the first such error is kept.
//!
//! Every error is a limit that was hit (or, on the host, a task that panicked or a run the host
//! stopped because it took too long). The first worker to hit one records it in the run's
//! [`ErrorSlot`] and raises the abort flag ([`super::termination`]); every other worker stops
//! at its next step, and the backend returns the recorded error. Errors that happen after the
//! first are dropped: they are usually consequences of the
//! first.
//!
//! # Memory ordering
//! The slot is written once: the CAS `EMPTY -> WRITING` (Acquire) elects the single writer,
//! which writes the value and then stores `WRITTEN` with Release. [`ErrorSlot::get`] loads the
//! state with Acquire, so a reader that sees `WRITTEN` sees the value. The host reads it only
//! after joining every worker thread, which orders it anyway; the Release/Acquire pair keeps
//! the slot correct on the GPU, where the host reads device memory after the kernel ends.

use core::cell::UnsafeCell;
use core::fmt;
use core::mem::MaybeUninit;

use super::sync::{AtomicU32, Ordering};

/// Why a run stopped early. `Copy` and `no_std`: device code writes it into device memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RuntimeError {
    /// Every task record was in use when a task was spawned.
    PoolExhausted {
        /// How many task records the run had.
        capacity: u32,
    },
    /// A worker's deque had no room for a spawned or resumed task.
    QueueFull {
        /// How many task ids one deque holds.
        capacity: u32,
    },
    /// A task spawned more than its program's `MAX_CHILDREN` children between two taskwaits.
    TooManyChildren {
        /// The spawning task.
        task: &'static str,
        /// The program's `MAX_CHILDREN`.
        limit: u32,
    },
    /// `spawn!(into hs, ..)` found every slot of `hs` taken.
    SlotsFull {
        /// The task that was being spawned.
        task: &'static str,
        /// How many slots `hs` has.
        capacity: u32,
    },
    /// A spawn or taskwait named an EPAQ queue the run does not have.
    BadQueue {
        /// The queue index given.
        queue: u32,
        /// How many queues the run has.
        num_queues: u32,
    },
    /// A task panicked (host backends only: on the GPU a panic traps).
    TaskPanicked {
        /// The task that was running.
        task: &'static str,
    },
    /// The host stopped the run (the CPU backend's `Run::abort`): its time limit passed, or a
    /// worker thread could not be started.
    Aborted,
    /// The threads of a block task did not all suspend at the same `taskwait!()` (or did not
    /// all return): a taskwait on a path that depends on the thread.
    DivergentTaskwait {
        /// The block task.
        task: &'static str,
        /// The first thread whose outcome differed from the leader's.
        thread: u32,
    },
    /// At a `taskwait!()` of a block task, some thread's locals differed from the leader's:
    /// state that lives across a join must be the same on every thread.
    NonUniformState {
        /// The block task.
        task: &'static str,
    },
}

impl fmt::Display for RuntimeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            RuntimeError::PoolExhausted { capacity } => {
                write!(f, "all {capacity} task records are in use")
            }
            RuntimeError::QueueFull { capacity } => {
                write!(f, "a worker's task queue is full ({capacity} entries)")
            }
            RuntimeError::TooManyChildren { task, limit } => {
                write!(
                    f,
                    "task `{task}` spawned more than {limit} children between two taskwaits"
                )
            }
            RuntimeError::SlotsFull { task, capacity } => {
                write!(
                    f,
                    "spawn of `{task}` into slots found all {capacity} slots taken"
                )
            }
            RuntimeError::BadQueue { queue, num_queues } => {
                write!(
                    f,
                    "queue index {queue} is out of range (the run has {num_queues} queues)"
                )
            }
            RuntimeError::DivergentTaskwait { task, thread } => write!(
                f,
                "block task `{task}`: thread {thread} did not reach the same taskwait! as thread 0 \
                 (every thread of a block task must reach each taskwait!, or return, together)"
            ),
            RuntimeError::NonUniformState { task } => write!(
                f,
                "block task `{task}`: at a taskwait! some thread's locals differed from thread 0's \
                 (what lives across a join must be the same on every thread of the block)"
            ),
            RuntimeError::TaskPanicked { task } => write!(f, "task `{task}` panicked"),
            RuntimeError::Aborted => f.write_str("the host stopped the run"),
        }
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
    value: UnsafeCell<MaybeUninit<RuntimeError>>,
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
    pub fn set(&self, error: RuntimeError) -> bool {
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
    pub fn get(&self) -> Option<RuntimeError> {
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
        assert!(slot.set(RuntimeError::QueueFull { capacity: 4 }));
        assert!(!slot.set(RuntimeError::PoolExhausted { capacity: 8 }));
        assert_eq!(slot.get(), Some(RuntimeError::QueueFull { capacity: 4 }));
        slot.reset();
        assert_eq!(slot.get(), None);
    }

    #[test]
    fn messages_name_the_limit() {
        let e = RuntimeError::TooManyChildren {
            task: "wide",
            limit: 3,
        };
        assert_eq!(
            e.to_string(),
            "task `wide` spawned more than 3 children between two taskwaits"
        );
        let e = RuntimeError::BadQueue {
            queue: 5,
            num_queues: 2,
        };
        assert!(e.to_string().contains("5") && e.to_string().contains("2 queues"));
    }
}
