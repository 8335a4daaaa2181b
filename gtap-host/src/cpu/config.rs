//! [`CpuConfig`]: how many threads, how many task records, how large each queue, how long a
//! run may take.

use std::time::Duration;

use super::error::CpuError;

/// The most worker threads a CPU runtime may have.
pub const MAX_THREADS: usize = 4096;
/// The most task records a run may have (record ids are `u32`, with the top bit reserved).
pub const MAX_TASK_CAPACITY: u32 = gtap_device::runtime::pool::MAX_CAPACITY;
/// The largest per-worker queue.
pub const MAX_QUEUE_CAPACITY: u32 = gtap_device::runtime::deque::MAX_CAPACITY;
/// The most EPAQ queues.
pub const MAX_NUM_QUEUES: u32 = 64;
/// The default [`CpuConfig::timeout`]: the GPU runtime's default too.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(120);

/// Settings of a [`CpuRuntime`](super::CpuRuntime). Build it with the setters, which share
/// the fields' names; [`CpuRuntime::new`](super::CpuRuntime::new) validates it.
///
/// ```
/// use gtap_host::cpu::CpuConfig;
/// let config = CpuConfig::new().threads(2).task_capacity(1 << 16).queue_capacity(1 << 10);
/// assert_eq!(config.threads, 2);
/// assert!(config.validate().is_ok());
/// assert!(CpuConfig::new().queue_capacity(1000).validate().is_err());
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CpuConfig {
    /// Worker threads, `1..=4096`. Default: [`std::thread::available_parallelism`].
    pub threads: usize,
    /// Task records: the most tasks that may exist at once (spawned and not yet complete),
    /// `1..=2^31`. Default `2^20`. Memory: this many records of the program's largest task
    /// frame plus a 32-byte header. The memory is reserved up front, but pages are only
    /// touched as records are first used.
    pub task_capacity: u32,
    /// Entries of each worker's queue (runnable task ids): a power of two in `2..=2^30`.
    /// Default `2^16`.
    pub queue_capacity: u32,
    /// EPAQ queues that `spawn!(queue(q), ..)` and `taskwait!(queue(q))` may name, `1..=64`.
    /// Default 1. The CPU backend checks the indices but keeps one queue per worker: queues
    /// change how a GPU warp groups tasks, never a result.
    pub num_queues: u32,
    /// How long a run may take before it is stopped with
    /// [`RunError::TimedOut`](crate::RunError::TimedOut). Default 120 s, as on the GPU;
    /// `None`: no limit, a run that never ends then never returns.
    ///
    /// Workers stop between tasks. A task whose body has not returned after a further grace
    /// period (as long as the timeout, but at least 0.1 s and at most 5 s) cannot be stopped
    /// from outside: the run then ends with [`CpuError::Stuck`] and leaves that worker thread
    /// running (see there).
    pub timeout: Option<Duration>,
    /// Block programs (`#[gtap::task(block)]`): threads per team, `1..=64`; each worker is a
    /// team of this many threads running one block task at a time (`threads × team` OS
    /// threads in all). Default 4. Ignored by thread programs.
    pub team: u32,
    /// Block programs: bytes of scratch memory per team (`Block::scratch`), at most 1 MiB.
    /// Default 4096.
    pub block_scratch: usize,
    /// Block programs: check at every `taskwait!()` that each thread's frame equals the
    /// leader's (state that lives across a join must be uniform). Default: on in debug builds.
    pub check_uniform: bool,
}

impl Default for CpuConfig {
    fn default() -> Self {
        CpuConfig {
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            task_capacity: 1 << 20,
            queue_capacity: 1 << 16,
            num_queues: 1,
            timeout: Some(DEFAULT_TIMEOUT),
            team: 4,
            block_scratch: 4096,
            check_uniform: cfg!(debug_assertions),
        }
    }
}

impl CpuConfig {
    /// The defaults (see each field).
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets [`CpuConfig::threads`].
    pub fn threads(mut self, threads: usize) -> Self {
        self.threads = threads;
        self
    }

    /// Sets [`CpuConfig::task_capacity`].
    pub fn task_capacity(mut self, records: u32) -> Self {
        self.task_capacity = records;
        self
    }

    /// Sets [`CpuConfig::queue_capacity`].
    pub fn queue_capacity(mut self, entries: u32) -> Self {
        self.queue_capacity = entries;
        self
    }

    /// Sets [`CpuConfig::num_queues`].
    pub fn num_queues(mut self, queues: u32) -> Self {
        self.num_queues = queues;
        self
    }

    /// Sets [`CpuConfig::timeout`] to `Some(timeout)` (to run without a limit, set the field
    /// to `None`).
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = Some(timeout);
        self
    }

    /// Sets [`CpuConfig::team`].
    pub fn team(mut self, threads: u32) -> Self {
        self.team = threads;
        self
    }

    /// Sets [`CpuConfig::block_scratch`].
    pub fn block_scratch(mut self, bytes: usize) -> Self {
        self.block_scratch = bytes;
        self
    }

    /// Sets [`CpuConfig::check_uniform`].
    pub fn check_uniform(mut self, on: bool) -> Self {
        self.check_uniform = on;
        self
    }

    /// Checks every setting against its range.
    pub fn validate(&self) -> Result<(), CpuError> {
        let invalid = |setting, value: u64, reason| {
            Err(CpuError::InvalidConfig {
                setting,
                value,
                reason,
            })
        };
        if self.threads == 0 || self.threads > MAX_THREADS {
            return invalid("threads", self.threads as u64, "must be between 1 and 4096");
        }
        if self.task_capacity == 0 || self.task_capacity > MAX_TASK_CAPACITY {
            return invalid(
                "task_capacity",
                self.task_capacity.into(),
                "must be between 1 and 2^31",
            );
        }
        if self.queue_capacity < 2
            || self.queue_capacity > MAX_QUEUE_CAPACITY
            || !self.queue_capacity.is_power_of_two()
        {
            return invalid(
                "queue_capacity",
                self.queue_capacity.into(),
                "must be a power of two between 2 and 2^30",
            );
        }
        if self.num_queues == 0 || self.num_queues > MAX_NUM_QUEUES {
            return invalid(
                "num_queues",
                self.num_queues.into(),
                "must be between 1 and 64",
            );
        }
        if self.team == 0 || self.team > gtap_device::runtime::cpu::MAX_TEAM {
            return invalid("team", self.team.into(), "must be between 1 and 64");
        }
        if self.block_scratch > 1 << 20 {
            return invalid(
                "block_scratch",
                self.block_scratch as u64,
                "must be at most 1 MiB",
            );
        }
        if self.timeout.is_some_and(|t| t.is_zero()) {
            return invalid(
                "timeout",
                0,
                "must be longer than zero (set the field to None for no limit)",
            );
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_valid() {
        let c = CpuConfig::new();
        assert!(c.threads >= 1);
        c.validate().unwrap();
    }

    #[test]
    fn each_bad_setting_names_itself() {
        let cases = [
            (CpuConfig::new().threads(0), "threads"),
            (CpuConfig::new().threads(MAX_THREADS + 1), "threads"),
            (CpuConfig::new().task_capacity(0), "task_capacity"),
            (CpuConfig::new().task_capacity(u32::MAX), "task_capacity"),
            (CpuConfig::new().queue_capacity(0), "queue_capacity"),
            (CpuConfig::new().queue_capacity(1), "queue_capacity"),
            (CpuConfig::new().queue_capacity(3000), "queue_capacity"),
            (CpuConfig::new().queue_capacity(1 << 31), "queue_capacity"),
            (CpuConfig::new().num_queues(0), "num_queues"),
            (CpuConfig::new().num_queues(65), "num_queues"),
            (CpuConfig::new().timeout(Duration::ZERO), "timeout"),
            (CpuConfig::new().team(0), "team"),
            (CpuConfig::new().team(65), "team"),
            (CpuConfig::new().block_scratch(2 << 20), "block_scratch"),
        ];
        for (config, name) in cases {
            match config.validate() {
                Err(CpuError::InvalidConfig { setting, .. }) => assert_eq!(setting, name),
                other => {
                    panic!("{config:?}: expected an InvalidConfig error for {name}, got {other:?}")
                }
            }
        }
        let msg = CpuConfig::new()
            .queue_capacity(1000)
            .validate()
            .unwrap_err()
            .to_string();
        assert!(msg.contains("CpuConfig::queue_capacity(1000)"), "{msg}");
    }

    #[test]
    fn timeout_defaults_to_the_gpu_default_and_can_be_lifted() {
        assert_eq!(CpuConfig::new().timeout, Some(DEFAULT_TIMEOUT));
        let c = CpuConfig::new().timeout(Duration::from_millis(5));
        assert_eq!(c.timeout, Some(Duration::from_millis(5)));
        let unlimited = CpuConfig {
            timeout: None,
            ..CpuConfig::new()
        };
        unlimited.validate().unwrap();
    }
}
