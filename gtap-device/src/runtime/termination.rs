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
use super::record::NONE;
use super::sync::{AtomicU32, Ordering};

/// Bit of [`Termination::stop`]: the root task completed.
pub const DONE: u32 = 1;
/// Bit of [`Termination::stop`]: a worker recorded an error; everyone stops.
pub const ABORT: u32 = 2;

/// A root of the run completed; `left` counts the roots not completed yet (the number of
/// roots when the run starts). Returns whether this was the last one, whose worker then
/// raises [`DONE`]. Both backends count their roots with it (a run of one root included).
///
/// AcqRel: the decrements form one release sequence, so the worker that takes the count to
/// zero has seen every other root's completion (and, through each root's join chain, its
/// whole subtree's writes) before it raises `DONE` with Release.
#[inline(always)]
pub fn last_root(left: &AtomicU32) -> bool {
    left.fetch_sub(1, Ordering::AcqRel) == 1
}

/// The run-wide stop flags and the first error. One per run, shared by all workers.
pub struct Termination {
    /// [`DONE`] | [`ABORT`]. Set by the worker that completes the last root or hits an error;
    /// read by every worker between tasks and while idle.
    flags: AtomicU32,
    /// The first error of the run.
    error: ErrorSlot,
    /// Roots not completed yet ([`last_root`]); set before the run.
    roots_left: AtomicU32,
    /// The record of a task whose spawn failed the run (the first to note one), or `NONE`.
    error_record: AtomicU32,
}

impl Termination {
    /// Flags cleared, no error.
    pub fn new() -> Self {
        Termination {
            flags: AtomicU32::new(0),
            error: ErrorSlot::new(),
            roots_left: AtomicU32::new(1),
            error_record: AtomicU32::new(NONE),
        }
    }

    /// Clears the flags and the error for the next run, of `roots` roots. Needs `&mut`: no
    /// worker is alive.
    pub fn reset(&mut self, roots: u32) {
        self.flags = AtomicU32::new(0);
        self.error.reset();
        self.roots_left = AtomicU32::new(roots);
        self.error_record = AtomicU32::new(NONE);
    }

    /// Sets how many roots the run has (1 after [`Termination::reset`]), before any worker
    /// starts.
    pub fn set_roots(&self, roots: u32) {
        // Relaxed: the workers that count the roots down start after this (thread spawn
        // orders it).
        self.roots_left.store(roots, Ordering::Relaxed);
    }

    /// A root completed: when it was the last, every worker may stop.
    pub fn root_completed(&self) {
        if last_root(&self.roots_left) {
            // Release: everything the run wrote (the results included) happens before a
            // worker's Acquire load that sees DONE. An RMW, not a store: it must not clear
            // ABORT.
            self.flags.fetch_add(DONE, Ordering::Release);
        }
    }

    /// Notes that a spawn of the task in record `record` failed the run (the first note
    /// stays), so that the host can tell which root of a batch it belonged to.
    pub fn note_failed_task(&self, record: u32) {
        // Relaxed: read by the host after joining the workers.
        let _ =
            self.error_record
                .compare_exchange(NONE, record, Ordering::Relaxed, Ordering::Relaxed);
    }

    /// The record [`Termination::note_failed_task`] noted, if any.
    pub fn failed_task(&self) -> Option<u32> {
        Some(self.error_record.load(Ordering::Relaxed)).filter(|&r| r != NONE)
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
        t.reset(2);
        t.root_completed();
        assert!(!t.is_done(), "one of two roots");
        t.root_completed();
        assert!(t.is_done());
        assert_eq!(t.error(), None);
    }
}
