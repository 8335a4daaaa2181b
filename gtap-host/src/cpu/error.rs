//! [`CpuError`]: why a CPU run failed, and what to change.

use std::time::Duration;

use gtap_device::runtime::RunError;
use gtap_device::runtime::error::Failure;

/// Why [`CpuRuntime::new`](super::CpuRuntime::new) or
/// [`CpuRuntime::run`](super::CpuRuntime::run) failed. Each message names the limit that was
/// hit and how to raise it.
///
/// The limits a run can hit (and the block rules it can break) are [`CpuError::Run`], in the
/// same [`RunError`] and the same words as on the GPU (`GpuRunError::Run`); the other
/// variants are the CPU backend's own.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum CpuError {
    /// A limit was hit (task pool, queue, `max_children`, `slots!`, EPAQ queue index,
    /// [`CpuConfig::timeout`](super::CpuConfig::timeout)), or a block task broke a block
    /// rule. The run was abandoned: every worker left its loop at its next task boundary,
    /// the frames of the unfinished tasks were dropped, and the runtime is ready for the
    /// next run.
    #[error(transparent)]
    Run(#[from] RunError),
    /// One root of a batch ([`CpuRuntime::run_batch`](super::CpuRuntime::run_batch)) failed
    /// the run: the error, and the root that the failing task belonged to. The other roots'
    /// results are lost with the run.
    #[error("root {root} of the {roots} in the batch failed: {source}")]
    InRoot {
        /// The root's position in the batch.
        root: usize,
        /// How many roots the batch had.
        roots: usize,
        /// What went wrong.
        source: Box<CpuError>,
    },
    /// A task panicked. The run was abandoned.
    #[error("task `{task}` panicked: {message}")]
    TaskPanicked {
        /// The task that was running.
        task: &'static str,
        /// The panic message.
        message: String,
    },
    /// The run took longer than the timeout and a task did not return when asked to stop
    /// (e.g. a loop that never ends inside a task body). A host thread cannot be interrupted
    /// inside a task: its worker thread is left running, and the memory of that run (records,
    /// queues, the root's result slot) is leaked so that it stays valid for that thread. The
    /// runtime allocates fresh memory at the next run and stays usable. Memory that the stuck
    /// task reaches through raw pointers in its arguments (such as a buffer view) must outlive
    /// it as well.
    #[error(
        "the run took longer than {after:?} and a task did not return when asked to stop: a \
         task that never returns, or one slower than the grace period (then raise \
         CpuConfig::timeout); its worker thread was left running and the run's memory leaked, \
         so keep any buffer the task points into alive; the runtime is ready for the next run"
    )]
    Stuck {
        /// The timeout.
        after: Duration,
    },
    /// A worker thread could not be started.
    #[error("could not start worker thread {index}: {source}; lower CpuConfig::threads")]
    ThreadSpawn {
        /// Which worker.
        index: usize,
        /// What the OS said.
        source: std::io::Error,
    },
    /// A setting is out of range.
    #[error("invalid CpuConfig::{setting}({value}): {why}")]
    InvalidConfig {
        /// The setting: a field of [`CpuConfig`](super::CpuConfig), and its setter.
        setting: &'static str,
        /// The value given.
        value: u64,
        /// Why it cannot work: the valid range.
        why: &'static str,
    },
    /// The runtime's memory could not be allocated.
    #[error("could not allocate {bytes} bytes for {what}; lower CpuConfig::{setting}")]
    OutOfMemory {
        /// What the memory was for.
        what: &'static str,
        /// How much was asked for (`usize::MAX` when the size overflows).
        bytes: usize,
        /// The setting that sizes it.
        setting: &'static str,
    },
}

impl CpuError {
    /// The host error for a run's failure; `panic_message` is the message of the panic that
    /// caused a [`Failure::TaskPanicked`], and `timeout` the run's timeout, the reason for a
    /// [`Failure::Aborted`] (the host's other reason, a worker that could not be started, is
    /// reported as [`CpuError::ThreadSpawn`] instead).
    pub(crate) fn from_failure(
        failure: Failure,
        panic_message: Option<String>,
        timeout: Option<Duration>,
    ) -> Self {
        match failure {
            Failure::Run(e) => CpuError::Run(e),
            Failure::TaskPanicked { task } => CpuError::TaskPanicked {
                task,
                message: panic_message.unwrap_or_else(|| String::from("(no message)")),
            },
            Failure::Aborted => CpuError::Run(RunError::TimedOut {
                after: timeout.unwrap_or_default(),
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn run_errors_print_as_the_shared_error() {
        for e in [
            RunError::PoolExhausted { capacity: 8 },
            RunError::QueueFull { capacity: 4 },
            RunError::TooManyChildren {
                task: "wide",
                limit: 3,
            },
            RunError::BadQueue {
                queue: 3,
                num_queues: 1,
            },
        ] {
            let host = CpuError::from_failure(e.into(), None, None);
            assert!(matches!(host, CpuError::Run(r) if r == e), "{host:?}");
            assert_eq!(host.to_string(), e.to_string());
        }
        let e = CpuError::from_failure(RunError::PoolExhausted { capacity: 8 }.into(), None, None);
        assert!(e.to_string().contains("CpuConfig::task_capacity"), "{e}");
    }

    #[test]
    fn host_reasons_become_cpu_errors() {
        let e = CpuError::from_failure(
            Failure::TaskPanicked { task: "t" },
            Some("boom".into()),
            None,
        );
        assert_eq!(e.to_string(), "task `t` panicked: boom");
        let e = CpuError::from_failure(Failure::Aborted, None, Some(Duration::from_millis(20)));
        assert!(
            matches!(e, CpuError::Run(RunError::TimedOut { after }) if after.as_millis() == 20),
            "{e:?}"
        );
        assert!(e.to_string().contains("CpuConfig::timeout"), "{e}");
    }
}
