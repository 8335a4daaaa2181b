//! [`CpuError`]: why a CPU run failed, and what to change.

use std::time::Duration;

use gtap_device::runtime::RuntimeError;

/// Why [`CpuRuntime::new`](super::CpuRuntime::new) or
/// [`CpuRuntime::run`](super::CpuRuntime::run) failed. Each message names the limit that was
/// hit and how to raise it.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum CpuError {
    /// Every task record was in use when a task was spawned.
    #[error(
        "task pool exhausted: all {capacity} task records were in use when a task was spawned; \
         raise the limit with CpuConfig::task_capacity (or keep fewer tasks alive at once)"
    )]
    PoolExhausted {
        /// The run's [`CpuConfig::task_capacity`](super::CpuConfig::task_capacity).
        capacity: u32,
    },
    /// A worker's queue of runnable tasks was full.
    #[error(
        "task queue full: a worker's queue of {capacity} runnable tasks had no room; raise the \
         limit with CpuConfig::queue_capacity"
    )]
    QueueFull {
        /// The run's [`CpuConfig::queue_capacity`](super::CpuConfig::queue_capacity).
        capacity: u32,
    },
    /// A task spawned more children between two taskwaits than its program allows.
    #[error(
        "task `{task}` spawned more than {limit} children between two taskwait!()s; add a \
         taskwait!() or raise the limit with #[gtap::program(max_children = N)]"
    )]
    TooManyChildren {
        /// The spawning task.
        task: &'static str,
        /// The program's `max_children`.
        limit: u32,
    },
    /// `spawn!(into hs, ..)` found every slot of `hs` taken.
    #[error(
        "spawn!(into ..) of task `{task}` found all {capacity} slots taken; make the slots \
         larger (slots!(T; N)) or add a taskwait!() before they fill up"
    )]
    SlotsFull {
        /// The task being spawned.
        task: &'static str,
        /// How many slots there were.
        capacity: u32,
    },
    /// A spawn or taskwait named an EPAQ queue the runtime does not have.
    #[error(
        "EPAQ queue index {queue} is out of range: the runtime has {num_queues} queue(s); raise \
         the limit with CpuConfig::num_queues"
    )]
    BadQueue {
        /// The index given.
        queue: u32,
        /// The run's [`CpuConfig::num_queues`](super::CpuConfig::num_queues).
        num_queues: u32,
    },
    /// The threads of a block task did not all reach the same `taskwait!()` (or return
    /// together). The run was abandoned.
    #[error(
        "block task `{task}`: thread {thread} did not reach the same taskwait! as thread 0; every \
         thread of a block task must reach each taskwait! (and return) on the same path"
    )]
    DivergentTaskwait {
        /// The block task.
        task: &'static str,
        /// The first thread that differed.
        thread: u32,
    },
    /// At a `taskwait!()` of a block task some thread's locals differed from the leader's.
    /// The run was abandoned.
    #[error(
        "block task `{task}`: at a taskwait! some thread's locals differed from thread 0's; what \
         lives across a join must be the same on every thread (recompute per-thread values after \
         the taskwait!)"
    )]
    NonUniformState {
        /// The block task.
        task: &'static str,
    },
    /// A task panicked. The run was abandoned.
    #[error("task `{task}` panicked: {message}")]
    TaskPanicked {
        /// The task that was running.
        task: &'static str,
        /// The panic message.
        message: String,
    },
    /// The run took longer than [`CpuConfig::timeout`](super::CpuConfig::timeout) and was
    /// stopped: every worker left its loop at its next task boundary, the frames of the
    /// unfinished tasks were dropped, and the runtime is ready for the next run.
    #[error(
        "the run took longer than {after:?} and was stopped: raise CpuConfig::timeout if it is \
         just long, or look for tasks that never finish"
    )]
    TimedOut {
        /// The timeout.
        after: Duration,
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
    #[error("invalid CpuConfig::{setter}({value}): {reason}")]
    InvalidConfig {
        /// The setter (and field) of [`CpuConfig`](super::CpuConfig).
        setter: &'static str,
        /// The value given.
        value: u64,
        /// The valid range.
        reason: &'static str,
    },
    /// The runtime's memory could not be allocated.
    #[error("could not allocate {bytes} bytes for {what}; lower CpuConfig::{setter}")]
    OutOfMemory {
        /// What the memory was for.
        what: &'static str,
        /// How much was asked for (`usize::MAX` when the size overflows).
        bytes: usize,
        /// The setting that sizes it.
        setter: &'static str,
    },
}

impl CpuError {
    /// The host error for a runtime error; `panic_message` is the message of the panic that
    /// caused a [`RuntimeError::TaskPanicked`], and `timeout` the run's timeout, the reason
    /// for a [`RuntimeError::Aborted`] (the host's other reason, a worker that could not be
    /// started, is reported as [`CpuError::ThreadSpawn`] instead).
    pub(crate) fn from_runtime(
        error: RuntimeError,
        panic_message: Option<String>,
        timeout: Option<Duration>,
    ) -> Self {
        match error {
            RuntimeError::PoolExhausted { capacity } => CpuError::PoolExhausted { capacity },
            RuntimeError::QueueFull { capacity } => CpuError::QueueFull { capacity },
            RuntimeError::TooManyChildren { task, limit } => {
                CpuError::TooManyChildren { task, limit }
            }
            RuntimeError::SlotsFull { task, capacity } => CpuError::SlotsFull { task, capacity },
            RuntimeError::BadQueue { queue, num_queues } => {
                CpuError::BadQueue { queue, num_queues }
            }
            RuntimeError::TaskPanicked { task } => CpuError::TaskPanicked {
                task,
                message: panic_message.unwrap_or_else(|| String::from("(no message)")),
            },
            RuntimeError::DivergentTaskwait { task, thread } => {
                CpuError::DivergentTaskwait { task, thread }
            }
            RuntimeError::NonUniformState { task } => CpuError::NonUniformState { task },
            RuntimeError::Aborted => CpuError::TimedOut {
                after: timeout.unwrap_or_default(),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limit_errors_name_the_setter() {
        let e = CpuError::from_runtime(RuntimeError::PoolExhausted { capacity: 8 }, None, None);
        assert!(
            e.to_string().contains("8 task records")
                && e.to_string().contains("CpuConfig::task_capacity")
        );
        let e = CpuError::from_runtime(RuntimeError::QueueFull { capacity: 4 }, None, None);
        assert!(e.to_string().contains("CpuConfig::queue_capacity"));
        let e = CpuError::from_runtime(
            RuntimeError::TooManyChildren {
                task: "wide",
                limit: 3,
            },
            None,
            None,
        );
        assert!(e.to_string().contains("`wide`") && e.to_string().contains("max_children"));
        let e = CpuError::from_runtime(
            RuntimeError::BadQueue {
                queue: 3,
                num_queues: 1,
            },
            None,
            None,
        );
        assert!(e.to_string().contains("CpuConfig::num_queues"));
        let e = CpuError::from_runtime(
            RuntimeError::TaskPanicked { task: "t" },
            Some("boom".into()),
            None,
        );
        assert_eq!(e.to_string(), "task `t` panicked: boom");
        let e =
            CpuError::from_runtime(RuntimeError::Aborted, None, Some(Duration::from_millis(20)));
        assert!(matches!(e, CpuError::TimedOut { after } if after.as_millis() == 20));
        assert!(e.to_string().contains("CpuConfig::timeout"), "{e}");
    }
}
