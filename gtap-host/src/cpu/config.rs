//! [`CpuConfig`]: how many threads, how many task records, how large each queue, how long a
//! run may take.

use std::time::Duration;

use super::error::CpuError;
use crate::Limits;

/// The most worker threads a CPU runtime may have.
pub const MAX_THREADS: usize = 4096;
/// The most task records a run may have (record ids are `u32`, with the top bit reserved).
pub const MAX_TASK_CAPACITY: u32 = gtap_device::runtime::pool::MAX_CAPACITY;
/// The largest per-worker queue.
pub const MAX_QUEUE_CAPACITY: u32 = gtap_device::runtime::deque::MAX_CAPACITY;
/// The most EPAQ queues.
pub const MAX_NUM_QUEUES: u32 = 64;
/// The smallest worker stack.
pub const MIN_STACK_BYTES: usize = 64 << 10;
/// The largest worker stack.
pub const MAX_STACK_BYTES: usize = 4 << 30;
/// The default worker stack: room for sequential versions that recurse about a hundred
/// thousand small frames deep. Only the pages a thread touches take memory.
pub const DEFAULT_STACK_BYTES: usize = 64 << 20;

/// Settings of a [`CpuRuntime`](super::CpuRuntime): its workers ([`CpuWorkers`]: threads,
/// task records, team size) and the [`Limits`] it shares with the GPU backend. Build it with
/// the setters, which share the settings' names, and read it through [`CpuConfig::workers`]
/// and [`CpuConfig::limits`]; [`CpuRuntime::new`](super::CpuRuntime::new) validates it.
///
/// ```
/// use gtap_host::cpu::CpuConfig;
/// let config = CpuConfig::new().threads(2).task_capacity(1 << 16).queue_capacity(1 << 10);
/// assert_eq!(config.workers().threads(), 2);
/// assert_eq!(config.limits().queue_capacity(), 1 << 10);
/// assert!(config.validate().is_ok());
/// assert!(CpuConfig::new().queue_capacity(1000).validate().is_err());
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CpuConfig {
    pub(crate) workers: CpuWorkers,
    pub(crate) limits: Limits,
}

/// The CPU backend's own part of a [`CpuConfig`]: how many workers, how many task records,
/// how many threads per team. Set through `CpuConfig`'s setters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CpuWorkers {
    pub(crate) threads: usize,
    pub(crate) task_capacity: Option<u32>,
    pub(crate) team: u32,
    pub(crate) stack_bytes: usize,
}

impl CpuWorkers {
    /// Worker threads, `1..=4096`. Default: [`std::thread::available_parallelism`]. Lower it
    /// to leave cores to other work, or to reproduce a run with fewer workers.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Task records: the most tasks that may exist at once (spawned and not yet complete),
    /// `1..=2^31`, or `None` (the default): as many as a quarter of the host's memory holds
    /// for the program being run ([`CpuConfig::records_for`]). Memory: this many records of
    /// the program's largest task frame plus a 32-byte header, reserved up front as address
    /// space; pages are only touched as records are first used, so a run takes about the
    /// memory of the most tasks it has alive. Set it to bound a run's memory, or to
    /// reproduce a `PoolExhausted`.
    pub fn task_capacity(&self) -> Option<u32> {
        self.task_capacity
    }

    /// Block programs (`#[gtap::task(block)]`): threads per team, `1..=64`; each worker is a
    /// team of this many threads running one block task at a time (`threads × team` OS
    /// threads in all). Default 4. Ignored by thread programs.
    pub fn team(&self) -> u32 {
        self.team
    }

    /// The call stack of each worker thread, in bytes, `64 KiB..=4 GiB`. Default 64 MiB,
    /// reserved as address space, of which only the pages a thread uses take memory. A spawn
    /// that the granularity policy runs inline recurses on this stack as deep as the child's
    /// subtree (the CPU twin of `GpuConfig::stack_bytes`); a deeper recursion overflows it,
    /// which ends the process.
    pub fn stack_bytes(&self) -> usize {
        self.stack_bytes
    }
}

impl Default for CpuConfig {
    fn default() -> Self {
        CpuConfig {
            workers: CpuWorkers {
                threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
                task_capacity: None,
                team: 4,
                stack_bytes: DEFAULT_STACK_BYTES,
            },
            limits: Limits::cpu_default(),
        }
    }
}

impl CpuConfig {
    crate::limits::limit_setters!();

    /// The defaults (see each getter of [`CpuWorkers`] and [`Limits`]).
    pub fn new() -> Self {
        Self::default()
    }

    /// The CPU's own settings: threads, task records, team size.
    pub fn workers(&self) -> &CpuWorkers {
        &self.workers
    }

    /// The settings the GPU backend shares: queues, timeout, block scratch, uniformity check.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// Sets the worker threads ([`CpuWorkers::threads`], default: the available
    /// parallelism).
    pub fn threads(mut self, threads: usize) -> Self {
        self.workers.threads = threads;
        self
    }

    /// Sets the task records ([`CpuWorkers::task_capacity`], default: sized from the host's
    /// memory for each program).
    pub fn task_capacity(mut self, records: u32) -> Self {
        self.workers.task_capacity = Some(records);
        self
    }

    /// The task records a run of program `P` gets: the configured
    /// [`task_capacity`](CpuWorkers::task_capacity), else a quarter of the host's memory in
    /// `P`'s records (at least `2^16`, at most `2^31`; `2^20` where the host's memory cannot
    /// be read). A run whose allocation of the default fails halves it until it fits.
    pub fn records_for<P: gtap_device::task::Program>(&self) -> u32 {
        self.records_on::<P>(super::capacity::host_bytes())
    }

    /// [`records_for`](CpuConfig::records_for) on a host with `host_bytes` of memory (a
    /// runtime reads it once, not at every run).
    pub(crate) fn records_on<P: gtap_device::task::Program>(&self, host_bytes: Option<u64>) -> u32 {
        let record = std::mem::size_of::<gtap_device::runtime::record::Record<P::Task>>();
        self.workers
            .task_capacity
            .unwrap_or_else(|| super::capacity::auto_records(host_bytes, record))
    }

    /// Sets how long a run may take ([`Limits::timeout`], default 120 s). A task whose body
    /// has not returned a grace period after the timeout (as long as the timeout, but at
    /// least 0.1 s and at most 5 s) cannot be stopped from outside: the run then ends with
    /// [`CpuError::Stuck`] and leaves that worker thread running (see there).
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.limits.timeout = timeout;
        self
    }

    /// Lifts the time limit ([`Limits::timeout`] becomes [`Duration::MAX`]): a run that never
    /// ends then never returns. For runs longer than any limit one would choose.
    pub fn no_timeout(mut self) -> Self {
        self.limits.timeout = Duration::MAX;
        self
    }

    /// Sets each worker thread's stack ([`CpuWorkers::stack_bytes`], default 64 MiB).
    pub fn stack_bytes(mut self, bytes: usize) -> Self {
        self.workers.stack_bytes = bytes;
        self
    }

    /// Sets the threads per team of a block program ([`CpuWorkers::team`], default 4).
    pub fn team(mut self, threads: u32) -> Self {
        self.workers.team = threads;
        self
    }

    /// The run's time limit, `None` for none ([`CpuConfig::no_timeout`]).
    pub(crate) fn deadline(&self) -> Option<Duration> {
        (self.limits.timeout != Duration::MAX).then_some(self.limits.timeout)
    }

    /// Checks every setting against its range.
    pub fn validate(&self) -> Result<(), CpuError> {
        let invalid = |setting, value: u64, why| {
            Err(CpuError::InvalidConfig {
                setting,
                value,
                why,
            })
        };
        if self.workers.threads == 0 || self.workers.threads > MAX_THREADS {
            return invalid(
                "threads",
                self.workers.threads as u64,
                "must be between 1 and 4096",
            );
        }
        if let Some(records) = self.workers.task_capacity
            && (records == 0 || records > MAX_TASK_CAPACITY)
        {
            return invalid(
                "task_capacity",
                records.into(),
                "must be between 1 and 2^31",
            );
        }
        let limits = &self.limits;
        if limits.queue_capacity < 2
            || limits.queue_capacity > MAX_QUEUE_CAPACITY
            || !limits.queue_capacity.is_power_of_two()
        {
            return invalid(
                "queue_capacity",
                limits.queue_capacity.into(),
                "must be a power of two between 2 and 2^30",
            );
        }
        if limits.num_queues == 0 || limits.num_queues > MAX_NUM_QUEUES {
            return invalid(
                "num_queues",
                limits.num_queues.into(),
                "must be between 1 and 64",
            );
        }
        if !(MIN_STACK_BYTES..=MAX_STACK_BYTES).contains(&self.workers.stack_bytes) {
            return invalid(
                "stack_bytes",
                self.workers.stack_bytes as u64,
                "must be between 64 KiB and 4 GiB",
            );
        }
        if self.workers.team == 0 || self.workers.team > gtap_device::runtime::cpu::MAX_TEAM {
            return invalid("team", self.workers.team.into(), "must be between 1 and 64");
        }
        if limits.block_scratch > 1 << 20 {
            return invalid(
                "block_scratch",
                limits.block_scratch.into(),
                "must be at most 1 MiB",
            );
        }
        if let Err((setting, value, _)) = limits.check_shared() {
            // The shared rule, with the CPU's way out: no limit at all.
            return invalid(
                setting,
                value,
                "must be longer than zero (CpuConfig::no_timeout() for no limit)",
            );
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limits::DEFAULT_TIMEOUT;

    #[test]
    fn defaults_are_valid() {
        let c = CpuConfig::new();
        assert!(c.workers().threads() >= 1);
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
            (CpuConfig::new().stack_bytes(1024), "stack_bytes"),
            (CpuConfig::new().stack_bytes(usize::MAX), "stack_bytes"),
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
        assert_eq!(CpuConfig::new().limits().timeout(), DEFAULT_TIMEOUT);
        assert_eq!(CpuConfig::new().deadline(), Some(DEFAULT_TIMEOUT));
        let c = CpuConfig::new().timeout(Duration::from_millis(5));
        assert_eq!(c.deadline(), Some(Duration::from_millis(5)));
        let unlimited = CpuConfig::new().no_timeout();
        assert_eq!(unlimited.deadline(), None);
        unlimited.validate().unwrap();
    }
}
