//! Which `DeviceVec`s a stuck run may still use.
//!
//! A run whose task never returns ends with `Stuck` while that task goes on (a CPU worker
//! thread, or the GPU's kernel), on the memory the run was given. Nothing records which
//! vectors a run was given (a root's arguments are opaque to the runtime), so every vector
//! made before a stuck run counts as possibly in use by it: it refuses every later access
//! with [`DataError::InUseByStuckRun`](super::DataError::InUseByStuckRun), and its drop leaks
//! its memory instead of freeing memory a task may still write. Vectors made afterwards are
//! unaffected. A stuck run is a bug to fix, so this errs on the side of refusing.

use std::sync::atomic::{AtomicU64, Ordering};

/// How many runs have ended stuck in this process. Only increases.
static STUCK_RUNS: AtomicU64 = AtomicU64::new(0);

/// Called by a runtime whose run ends stuck, before it returns the error.
pub(crate) fn note_stuck() {
    // Relaxed: a vector that the stuck run was given was borrowed by the run's root call
    // until `run` returned, on this thread. Whoever touches the vector next got the borrow
    // back from this thread: the same thread later, or another one through something that
    // synchronizes (a join, a lock, a channel), which orders this increment before its read.
    // No other data rides on the count.
    STUCK_RUNS.fetch_add(1, Ordering::Relaxed);
}

/// The stuck runs so far: a vector stores this when made, and is in use by a stuck run when
/// the count has moved since.
pub(crate) fn stuck_runs() -> u64 {
    // Relaxed: see `note_stuck`.
    STUCK_RUNS.load(Ordering::Relaxed)
}
