//! [`Limits`]: the settings the GPU and the CPU backend share, with one type and one meaning
//! on both, so that a program's limits read the same whichever backend runs it.

use std::time::Duration;

/// The default run time limit of both backends.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(120);

/// The GPU backend's default of [`Limits::split_budget`] (the CPU backend's is 0).
pub const DEFAULT_SPLIT_BUDGET: u32 = 2;

/// The default of [`Limits::split_singles`], both backends'.
pub const DEFAULT_SPLIT_SINGLES: u32 = 2;

/// The settings both backends have: queue sizes, EPAQ queues, the run's time limit, a block
/// program's scratch and its uniformity check. It is part of
/// [`GpuConfig`](crate::gpu_runtime::GpuConfig) and of [`CpuConfig`](crate::cpu::CpuConfig):
/// set it through their setters (`GpuConfig::new().num_queues(2)`), read it through their
/// `limits()`. The defaults and the accepted ranges are each backend's own (a GPU queue lives
/// in device memory, a CPU queue in host memory); each getter says both.
///
/// `timeout` is a [`Duration`] on both backends: "no limit" is [`Duration::MAX`], which the
/// CPU backend accepts (`CpuConfig::no_timeout`) and which on the GPU saturates to a limit
/// of centuries, so neither backend needs an `Option` to say it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    pub(crate) queue_capacity: u32,
    pub(crate) num_queues: u32,
    pub(crate) timeout: Duration,
    pub(crate) block_scratch: u32,
    pub(crate) check_uniform: bool,
    pub(crate) auto_granularity: bool,
    pub(crate) split_budget: u32,
    pub(crate) split_singles: u32,
}

impl Limits {
    /// The GPU backend's defaults.
    pub(crate) fn gpu_default() -> Self {
        Limits {
            queue_capacity: 4096,
            split_budget: DEFAULT_SPLIT_BUDGET,
            ..Self::shared_default()
        }
    }

    /// The CPU backend's defaults. No split tasks: a CPU thread that runs a whole subtree
    /// inline holds up no other, so the per-spawn policy's inline calls (the sequential
    /// version's tight loop, few tasks) beat a walk bounded by a budget, whose tasks then
    /// cost more than they do on a GPU (results/2026-11-30-split-cpu-backend.md).
    pub(crate) fn cpu_default() -> Self {
        Limits {
            queue_capacity: 1 << 16,
            split_budget: 0,
            ..Self::shared_default()
        }
    }

    /// The defaults both backends agree on (`queue_capacity` and `split_budget`, which they
    /// do not, each sets).
    fn shared_default() -> Self {
        Limits {
            queue_capacity: 0,
            num_queues: 1,
            timeout: DEFAULT_TIMEOUT,
            block_scratch: 4096,
            check_uniform: cfg!(debug_assertions),
            auto_granularity: true,
            split_budget: 0,
            split_singles: DEFAULT_SPLIT_SINGLES,
        }
    }

    /// Entries of each worker's queue (runnable task ids), a power of two. GPU: `64..=2^24`,
    /// default 4096 (device memory: `warps × num_queues × queue_capacity × 4` bytes). CPU:
    /// `2..=2^30`, default `2^16`. Raise it when a run fails because a queue is full (a
    /// program that spawns many tasks before it joins any).
    pub fn queue_capacity(&self) -> u32 {
        self.queue_capacity
    }

    /// EPAQ queues per worker that `spawn!(queue(q), ..)` may name. Default 1. GPU: `1..=8`,
    /// each warp then groups its rounds by queue, so that tasks of one kind run together
    /// (less divergence). CPU: `1..=64`; the indices are checked but one queue is kept per
    /// worker, as queues change how a GPU warp groups tasks, never a result. Set it to the
    /// number of queues the program names.
    pub fn num_queues(&self) -> u32 {
        self.num_queues
    }

    /// How long a run may take before it is stopped with
    /// [`RunError::TimedOut`](crate::RunError::TimedOut). Default 120 s on both backends;
    /// never zero. Lower it in tests so that a hang fails fast; [`Duration::MAX`] means no
    /// limit. Workers stop between tasks (GPU: between rounds, timed from the kernel's
    /// start); a task that never returns ends the run as `Stuck` a grace period later.
    pub fn timeout(&self) -> Duration {
        self.timeout
    }

    /// Block programs: bytes of scratch memory per block (GPU, shared memory on top of the
    /// runtime's own `gtap_device::task::block::RUNTIME_SHARED_BYTES`; a multiple of 8, at
    /// most 227 KiB) or per team (CPU, at most 1 MiB) for `Block::scratch`. Default 4096.
    /// Raise it when a block program's scratch does not fit; lower it on the GPU to leave a
    /// block's shared memory to more resident blocks.
    pub fn block_scratch(&self) -> u32 {
        self.block_scratch
    }

    /// Block programs: whether every suspension (`taskwait!()`) checks that each thread's
    /// frame equals the leader's and fails with
    /// [`RunError::NonUniformState`](crate::RunError::NonUniformState) if not. Default: on in
    /// debug builds of the host program, off in release builds. On the GPU it costs two block
    /// barriers and a frame comparison per suspension; turn it on to debug a block program
    /// whose results are wrong, off to time one.
    pub fn check_uniform(&self) -> bool {
        self.check_uniform
    }

    /// Thread programs: whether the runtime decides at each spawn between making the child a
    /// task and running its sequential version (`seq::f`) inline, at once, on the spawning
    /// thread. Default on. It runs a spawn inline when the child is deep in the task tree
    /// (GPU: past `GpuTuning::inline_min_depth`) and the spawning worker already has work
    /// queued for thieves, or when the worker is short of task records or queue entries;
    /// `spawn!(task, f(x))` always makes a task. It changes how many tasks a run makes
    /// (`tasks_executed`, `GpuStats::tasks`), never a result; the statistics count the
    /// inline spawns (`spawns_inlined`). Turn it off to run one task per spawn, as a
    /// program with a hand-written cutoff expects, or to count tasks exactly.
    pub fn auto_granularity(&self) -> bool {
        self.auto_granularity
    }

    /// Thread programs, with [`Limits::auto_granularity`] on: the calls a task split by a
    /// budget of work walks before it makes tasks of the calls still pending. Default 2 on
    /// the GPU, 0 on the CPU (where the per-spawn policy is faster); 0: no task is split. Unless the program says `#[gtap::program(split = false)]`, the
    /// macro gives a split version to each task whose result is
    /// the sum of its children's, read through handles (`let a = spawn!(f(..)); ..
    /// a.get() + b.get()`), whose spawns name no queue (README, "Automatic granularity"):
    /// where the program would start such a task as a task (a root, or a spawn the policy
    /// makes a task), the runtime starts its split version, which walks the calls under it
    /// sequentially, in the program's order, this many of them (at most 32 pending), and
    /// spawns the rest as split tasks with twice its budget, up to 2048. Smaller budgets
    /// fan out faster near the root; the growth keeps the tasks that follow large enough to
    /// pay for themselves. `spawn!(task, f(x))` still makes `f`'s own task.
    pub fn split_budget(&self) -> u32 {
        self.split_budget
    }

    /// Split tasks ([`Limits::split_budget`]): of the calls a split task leaves pending, the
    /// oldest this many become tasks of their own, and the others one task, a bundle, whose
    /// walk starts from all of them (at most as many as a few words of its frame hold: 17
    /// of a `u32` argument, 9 of a `u64`; past that, the oldest are tasks of their own until
    /// the rest fit). Default 2 on both backends; 0: every pending call is a task of its
    /// own. The oldest calls lie nearest the walk's start, the largest in a tree of similar
    /// calls, each worth a task that others can take; most of the youngest are small, and
    /// a task each would cost more than its work (README, "Automatic granularity").
    pub fn split_singles(&self) -> u32 {
        self.split_singles
    }

    /// The rule both backends share: the first setting that breaks it, as its name, its value
    /// and why.
    pub(crate) fn check_shared(&self) -> Result<(), (&'static str, u64, &'static str)> {
        if self.timeout.is_zero() {
            return Err(("timeout", 0, "must be longer than zero"));
        }
        Ok(())
    }
}

/// The setters of the [`Limits`] that both backends' configurations share, written once for
/// [`CpuConfig`](crate::cpu::CpuConfig) and [`GpuConfig`](crate::gpu_runtime::GpuConfig)
/// (each has a `limits: Limits` field). Each points to its getter on [`Limits`], whose docs
/// give the ranges and defaults of both backends. `timeout` stays with each configuration:
/// what happens to a task that outlives it differs.
macro_rules! limit_setters {
    () => {
        /// Sets the entries of each worker's queue ([`Limits::queue_capacity`](crate::Limits::queue_capacity):
        /// a power of two; the range and default of each backend there).
        pub fn queue_capacity(mut self, entries: u32) -> Self {
            self.limits.queue_capacity = entries;
            self
        }

        /// Sets the EPAQ queues a program may name ([`Limits::num_queues`](crate::Limits::num_queues),
        /// default 1).
        pub fn num_queues(mut self, queues: u32) -> Self {
            self.limits.num_queues = queues;
            self
        }

        /// Sets the scratch bytes per team of a block program
        /// ([`Limits::block_scratch`](crate::Limits::block_scratch), `Block::scratch`,
        /// default 4096).
        pub fn block_scratch(mut self, bytes: u32) -> Self {
            self.limits.block_scratch = bytes;
            self
        }

        /// Turns the uniformity check of block programs on or off
        /// ([`Limits::check_uniform`](crate::Limits::check_uniform), default: on in debug
        /// builds).
        pub fn check_uniform(mut self, on: bool) -> Self {
            self.limits.check_uniform = on;
            self
        }

        /// Turns the automatic granularity policy on or off
        /// ([`Limits::auto_granularity`](crate::Limits::auto_granularity), default on).
        pub fn auto_granularity(mut self, on: bool) -> Self {
            self.limits.auto_granularity = on;
            self
        }

        /// Sets the first budget of a task split by a budget of work
        /// ([`Limits::split_budget`](crate::Limits::split_budget), default 2 on the GPU, 0 on
        /// the CPU; 0: no split).
        pub fn split_budget(mut self, calls: u32) -> Self {
            self.limits.split_budget = calls;
            self
        }

        /// Sets the oldest pending calls a split task makes tasks of one by one before it
        /// bundles the others ([`Limits::split_singles`](crate::Limits::split_singles),
        /// default 2; 0: no bundles).
        pub fn split_singles(mut self, calls: u32) -> Self {
            self.limits.split_singles = calls;
            self
        }
    };
}
pub(crate) use limit_setters;
