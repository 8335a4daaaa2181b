//! [`RootError`]: why a root submitted to a resident session has no result.

use std::sync::Arc;
use std::time::Duration;

use crate::RuntimeError;

/// Why a root submitted to a resident session ([`RootHandle`](super::RootHandle)) has no
/// result. Cloneable: one runtime failure may end many roots, and each of their handles holds
/// it.
#[derive(Clone, Debug, thiserror::Error)]
pub enum RootError {
    /// The root's own task tree failed: a task panicked or hit a limit. The runtime's error
    /// says which limit to raise, or where the task panicked.
    #[error("root {root} failed: {source}")]
    Failed {
        /// The root's submission number (0 for the session's first root).
        root: u64,
        /// What the runtime reported.
        #[source]
        source: Arc<RuntimeError>,
    },

    /// Another root that ran together with this one failed (or the runtime itself did), and
    /// the failure ended the work in flight: this root did not complete. It may be submitted
    /// again.
    #[error(
        "root {root} did not complete: {} failed while it ran ({source}); submit it again, \
         or fix the failing root",
        match failed_root { Some(r) => format!("root {r}"), None => "a root of the same run".to_owned() }
    )]
    Aborted {
        /// The root's submission number.
        root: u64,
        /// The root whose failure ended it, when the runtime could tell.
        failed_root: Option<u64>,
        /// What the runtime reported.
        #[source]
        source: Arc<RuntimeError>,
    },

    /// The session could not run the root at all: it had already failed in a way that ends
    /// it (on the GPU, a trap leaves CUDA unusable in the process).
    #[error("root {root} was not run: the resident session had failed before ({source})")]
    Closed {
        /// The root's submission number.
        root: u64,
        /// The failure that closed the session.
        #[source]
        source: Arc<RuntimeError>,
    },

    /// The session ended without delivering the root's outcome: a thread of the session
    /// ended abnormally (a bug in gtap, not in the program). Nothing is known of the root.
    #[error(
        "root {root} has no outcome: the resident session's thread ended without delivering \
         one (a bug in gtap; please report it)"
    )]
    Lost {
        /// The root's submission number.
        root: u64,
    },

    /// [`RootHandle::wait`](super::RootHandle::wait) gave up: the root had not completed
    /// after the runtime's timeout. The root still runs; the handle may be waited on again.
    #[error(
        "root {root} has not completed after {after:?} (the runtime's timeout): wait again, \
         or raise the timeout (GpuConfig::timeout, CpuConfig::timeout)"
    )]
    TimedOut {
        /// The root's submission number.
        root: u64,
        /// How long the wait lasted.
        after: Duration,
    },
}

impl RootError {
    /// What a failure that ended a run gives root `root` of it: [`RootError::Failed`] when
    /// its own tree failed (`failed`), else [`RootError::Aborted`], naming the root that
    /// failed when the runtime could tell. Both backends end their roots in flight this way.
    pub(crate) fn ended(
        root: u64,
        failed: bool,
        failed_root: Option<u64>,
        source: Arc<RuntimeError>,
    ) -> RootError {
        if failed {
            RootError::Failed { root, source }
        } else {
            RootError::Aborted {
                root,
                failed_root,
                source,
            }
        }
    }

    /// The submission number of the root this error is about.
    pub fn root(&self) -> u64 {
        match self {
            RootError::Failed { root, .. }
            | RootError::Aborted { root, .. }
            | RootError::Closed { root, .. }
            | RootError::Lost { root }
            | RootError::TimedOut { root, .. } => *root,
        }
    }

    /// The runtime's error behind it, if there is one (not for a timed-out wait).
    pub fn runtime_error(&self) -> Option<&RuntimeError> {
        match self {
            RootError::Failed { source, .. }
            | RootError::Aborted { source, .. }
            | RootError::Closed { source, .. } => Some(source),
            RootError::Lost { .. } | RootError::TimedOut { .. } => None,
        }
    }
}
