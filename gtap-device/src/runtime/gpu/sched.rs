//! Which scheduler a thread-level kernel is compiled with: the work-stealing one that every
//! plain kernel runs, or one of the two ablations of GTaP section 6.1 that measure what it
//! saves (deques operated one task at a time; one global queue for the whole grid).
//!
//! The choice is a type parameter of the thread worker (`thread_worker`), as the
//! profiler's hooks are, so that in the plain kernel a constant decides each branch and the
//! kernel carries none of the ablations' code. The lab build (`--cfg gtap_lab`) adds a kernel
//! per ablation, and a profiled kernel that reads the choice from the run's [`tuning`] bits
//! ([`ByTuning`]), so that any scheduler can be profiled.

use super::layout::{GpuRun, tuning};

/// A scheduler: what the worker loop does differently under it.
pub trait Scheduler {
    /// Pops and steals claim one task per CAS (up to 32 per round) instead of a batch per
    /// CAS, like per-warp Chase-Lev deques operated one task at a time.
    fn one_at_a_time(run: &GpuRun) -> bool;
    /// One global queue for the whole grid instead of per-warp deques (no stealing); see
    /// [`GlobalQueue`](super::layout::GlobalQueue). The host runs it with one EPAQ queue.
    fn global_queue(run: &GpuRun) -> bool;
}

/// gtap's scheduler: per-warp deques, batched warp-cooperative pops, pushes and steals.
pub struct WorkStealing;

impl Scheduler for WorkStealing {
    #[inline(always)]
    fn one_at_a_time(_: &GpuRun) -> bool {
        false
    }
    #[inline(always)]
    fn global_queue(_: &GpuRun) -> bool {
        false
    }
}

/// Ablation: per-warp deques operated one task per CAS.
pub struct OneAtATime;

impl Scheduler for OneAtATime {
    #[inline(always)]
    fn one_at_a_time(_: &GpuRun) -> bool {
        true
    }
    #[inline(always)]
    fn global_queue(_: &GpuRun) -> bool {
        false
    }
}

/// Ablation: one global queue, no stealing.
pub struct GlobalQueue;

impl Scheduler for GlobalQueue {
    #[inline(always)]
    fn one_at_a_time(_: &GpuRun) -> bool {
        false
    }
    #[inline(always)]
    fn global_queue(_: &GpuRun) -> bool {
        true
    }
}

/// Whichever scheduler the run's [`tuning`] bits name: the profiled kernel's, so that one
/// kernel profiles all three.
pub struct ByTuning;

impl Scheduler for ByTuning {
    #[inline(always)]
    fn one_at_a_time(run: &GpuRun) -> bool {
        run.tuning & tuning::ONE_AT_A_TIME != 0
    }
    #[inline(always)]
    fn global_queue(run: &GpuRun) -> bool {
        run.tuning & tuning::GLOBAL_QUEUE != 0
    }
}
