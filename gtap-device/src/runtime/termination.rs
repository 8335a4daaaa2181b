//! When a run ends: the root task completed, or some worker hit an error.
//!
//! Termination detection is root completion (design note: `README.md`, "Termination"): the
//! join protocol completes a task only after its whole subtree has completed, so when the root
//! completes no task of the run is left anywhere, and the worker that completed it raises
//! [`DONE`]. Workers poll the flags between tasks and leave their loop when either is set. No
//! counting of idle workers is needed, so the same check is right for any number of workers.
//!
//! An error raises [`ABORT`] after recording itself in the [`ErrorSlot`]; workers then stop at
//! their next step without finishing the tasks in hand (the run is abandoned, and the next run
//! starts from freshly reset state).
//!
//! # Memory ordering
//! - `DONE` is raised with a Release RMW after the root's result was delivered;
//!   [`Termination::stop`] loads with Acquire, so a worker that stops on `DONE` has seen the
//!   whole run's writes.
//!   The host reads the result after joining the worker threads, which orders it anyway; on
//!   the GPU the kernel's end does.
//! - `ABORT` is raised after the error was recorded (the slot has its own Release/Acquire
//!   pair). A worker that sees `ABORT` only stops; it reads nothing the failing worker wrote.
//! - Both bits are monotonic within a run: set once, cleared only by [`Termination::reset`]
//!   between runs.

use super::error::{ErrorSlot, Failure};
use super::sync::{AtomicU32, Ordering};

/// Bit of [`Termination::stop`]: the root task completed.
pub const DONE: u32 = 1;
/// Bit of [`Termination::stop`]: a worker recorded an error; everyone stops.
pub const ABORT: u32 = 2;

/// The run-wide stop flags and the first error. One per run, shared by all workers.
pub struct Termination {
    /// [`DONE`] | [`ABORT`]. Set by the worker that completes the root or hits an error; read
    /// by every worker between tasks and while idle.
    flags: AtomicU32,
    /// The first error of the run.
    error: ErrorSlot,
}

impl Termination {
    /// Flags cleared, no error.
    pub fn new() -> Self {
        Termination {
            flags: AtomicU32::new(0),
            error: ErrorSlot::new(),
        }
    }

    /// Clears the flags and the error for the next run. Needs `&mut`: no worker is alive.
    pub fn reset(&mut self) {
        self.flags = AtomicU32::new(0);
        self.error.reset();
    }

    /// The root completed: every worker may stop.
    pub fn finish(&self) {
        // Release: everything the run wrote (the root's result included) happens before a
        // worker's Acquire load that sees DONE. An RMW, not a store: it must not clear ABORT.
        self.flags.fetch_add(DONE, Ordering::Release);
    }

    /// Records `error` (if it is the first) and tells every worker to stop. Returns whether
    /// it was the first.
    pub fn fail(&self, error: Failure) -> bool {
        let first = self.error.set(error);
        if first {
            // Relaxed: a worker that sees ABORT stops without reading anything; the error
            // itself is published by the slot's own Release store. Only the first failure
            // raises the bit, so the add cannot carry into another bit.
            self.flags.fetch_add(ABORT, Ordering::Relaxed);
        }
        first
    }

    /// The stop bits: nonzero once the run is over (done or aborted).
    #[inline(always)]
    pub fn stop(&self) -> u32 {
        // Acquire: pairs with the Release in `finish`.
        self.flags.load(Ordering::Acquire)
    }

    /// Whether the root completed.
    pub fn is_done(&self) -> bool {
        self.stop() & DONE != 0
    }

    /// The run's first error, if any.
    pub fn error(&self) -> Option<Failure> {
        self.error.get()
    }
}

impl Default for Termination {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;
    use crate::runtime::error::RunError;

    #[test]
    fn done_and_abort_are_separate_bits() {
        let mut t = Termination::new();
        assert_eq!(t.stop(), 0);
        assert!(t.fail(RunError::PoolExhausted { capacity: 1 }.into()));
        assert!(!t.fail(RunError::QueueFull { capacity: 1 }.into()));
        assert_eq!(t.stop(), ABORT);
        assert_eq!(
            t.error(),
            Some(Failure::Run(RunError::PoolExhausted { capacity: 1 }))
        );
        t.reset();
        t.finish();
        assert!(t.is_done());
        assert_eq!(t.error(), None);
    }
}
