//! [`GpuRunError`]: why a GPU run did not return a result, and what to change.

use std::time::Duration;

use crate::GpuError;

/// An error from [`GpuRuntime`](super::GpuRuntime). Limit errors name the [`GpuConfig`]
/// setting (or program option) that raises the limit.
///
/// [`GpuConfig`]: super::GpuConfig
#[derive(Debug, thiserror::Error)]
pub enum GpuRunError {
    /// The CUDA driver reported an error: no GPU, a JIT failure, a trap or a fault in a task
    /// (after which CUDA is unusable in this process; see [`GpuError`]).
    #[error(transparent)]
    Gpu(#[from] GpuError),

    /// A task panicked on the GPU (an index out of bounds, an `unwrap` of `None`, ...): the
    /// kernel trapped, and CUDA is unusable for the rest of this process.
    #[error(
        "a task panicked on the GPU at {location}; the kernel trapped, so CUDA is unusable in \
         this process from now on (end it and start a new one). Run the program on the CPU \
         backend (gtap_host::cpu) to see the panic message and debug it"
    )]
    TaskPanicked {
        /// `file:line:column` of the panic.
        location: String,
        /// The driver's error.
        source: GpuError,
    },

    /// A configuration value cannot work.
    #[error("invalid GPU configuration: {setting} = {value}: {why}")]
    InvalidConfig {
        /// The `GpuConfig` field.
        setting: &'static str,
        /// Its value.
        value: u64,
        /// Why it cannot work.
        why: &'static str,
    },

    /// The PTX has no kernel for this program.
    #[error(
        "the PTX has no kernel `{kernel}` for program `{program}`: build the crate that defines \
         the program with gtap-builder and load that PTX (a program's kernel is named gtap_<name>)"
    )]
    NoKernel {
        /// The expected kernel name.
        kernel: String,
        /// The program.
        program: &'static str,
    },

    /// Profiling is on ([`GpuConfig::profile`](super::GpuConfig#structfield.profile)) but the
    /// PTX has the program's plain kernel only.
    #[error(
        "GpuConfig::profile is set but the PTX has no profiled kernel `{kernel}` for program \
         `{program}`: build the crate that defines the program with profiling (GTAP_PROFILE=1 \
         in the environment of the build, or gtap_builder::PtxBuilder::profile(true) in its \
         build.rs) and load that PTX, or turn profiling off (GpuConfig::profile = None)"
    )]
    NoProfiledKernel {
        /// The profiled kernel's name, `gtap_<name>_profiled`.
        kernel: String,
        /// The program.
        program: &'static str,
    },

    /// The device memory the run needs could not be allocated.
    #[error(
        "could not allocate {bytes} bytes of GPU memory for {what}: lower GpuConfig::tasks_per_warp, \
         queue_capacity or grid"
    )]
    OutOfMemory {
        /// What for.
        what: &'static str,
        /// How much.
        bytes: usize,
    },

    /// The run would need more device memory than the GPU has; found before anything is
    /// allocated.
    #[error(
        "the run needs {needed} bytes of GPU memory but the GPU has {total}; {what} take the \
         most: lower GpuConfig::{setting} (now {value}) or GpuConfig::grid"
    )]
    NotEnoughMemory {
        /// Bytes the run's arrays take together (`u64::MAX` when the sum overflows).
        needed: u64,
        /// The GPU's memory, in bytes.
        total: u64,
        /// The largest of the arrays.
        what: &'static str,
        /// The `GpuConfig` field that sizes it.
        setting: &'static str,
        /// That field's value.
        value: u64,
    },

    /// A warp ran out of task records.
    #[error(
        "a warp used all {per_warp} of its task records: raise GpuConfig::tasks_per_warp \
         (or use fewer, larger warps' worth of parallel tasks)"
    )]
    PoolExhausted {
        /// Records per warp.
        per_warp: u32,
    },

    /// A warp's queue was full.
    #[error("a warp's task queue is full ({capacity} entries): raise GpuConfig::queue_capacity")]
    QueueFull {
        /// Entries per queue.
        capacity: u32,
    },

    /// A task spawned more children between two taskwaits than its program allows.
    #[error(
        "task `{task}` spawned more than {limit} children between two taskwaits: raise the \
         program's limit with #[gtap::program(max_children = N)]"
    )]
    TooManyChildren {
        /// The spawning task.
        task: &'static str,
        /// The program's `max_children`.
        limit: u32,
    },

    /// `spawn!(into hs, ..)` found all slots of `hs` taken.
    #[error(
        "spawning `{task}` into slots that are all taken ({capacity}): declare them larger, slots!(T; N)"
    )]
    SlotsFull {
        /// The task being spawned.
        task: &'static str,
        /// The slots' capacity.
        capacity: u32,
    },

    /// A spawn or taskwait named a queue the run does not have.
    #[error("EPAQ queue {queue} does not exist: the run has {num_queues} (GpuConfig::num_queues)")]
    BadQueue {
        /// The queue asked for.
        queue: u32,
        /// Queues per warp.
        num_queues: u32,
    },

    /// Block programs: the threads of a block task did not all reach the same `taskwait!()`
    /// (some returned, or waited at another one).
    #[error(
        "block task `{task}`: thread {thread} did not reach the same taskwait!() as thread 0; \
         every thread of a block task must reach each taskwait!() on the same path"
    )]
    DivergentTaskwait {
        /// The task's name.
        task: &'static str,
        /// The first thread that differed from the leader.
        thread: u32,
    },

    /// Block programs, with the uniformity check on (`GpuConfig::check_uniform`): a value
    /// living across a `taskwait!()` differed between the threads of a block task.
    #[error(
        "block task `{task}` holds a value across a taskwait!() that differs between its threads; \
         what lives across a taskwait!() must be the same on every thread (recompute per-thread \
         values after it)"
    )]
    NonUniformState {
        /// The task's name.
        task: &'static str,
    },

    /// A setting that block programs do not support.
    #[error(
        "program `{program}` has block tasks (#[gtap::task(block)]), which do not support {what}"
    )]
    NotForBlockPrograms {
        /// The program's name.
        program: &'static str,
        /// The unsupported setting.
        what: &'static str,
    },

    /// The device and host compilations of the program disagree on the task records' layout.
    #[error(
        "the GPU kernel lays out task records as {device_size} bytes (align {device_align}) but the \
         host as {host_size} (align {host_align}): rebuild the PTX from the same source as the host \
         program"
    )]
    LayoutMismatch {
        /// `size_of::<Record<Task>>()` on the host.
        host_size: u32,
        /// `align_of` on the host.
        host_align: u32,
        /// On the device.
        device_size: u32,
        /// On the device.
        device_align: u32,
    },

    /// The run took longer than the configured timeout and was stopped.
    #[error(
        "the run took longer than {after:?} and was stopped: raise GpuConfig::timeout if it is \
         just long, or look for tasks that never finish"
    )]
    TimedOut {
        /// The timeout.
        after: Duration,
    },

    /// The run took longer than the timeout and did not stop when asked: a task is still
    /// running (e.g. a loop that never ends inside a task).
    ///
    /// The runtime's own loops stop at the timeout, but nothing can stop a kernel inside a
    /// task's body: CUDA has no call that ends a running kernel and leaves the process's
    /// CUDA usable. So the kernel keeps the GPU until the process ends, this runtime refuses
    /// later runs, and a normal exit of the process would wait for the kernel forever (the
    /// driver's exit handler waits for it). End the process with `std::process::abort()` (or
    /// a signal); the operating system then takes the GPU back. To survive such a task, run
    /// the program in a child process.
    #[error(
        "the run took longer than {after:?} and a task did not stop when asked (a task that never \
         returns?); a kernel cannot be stopped inside a task, so it keeps the GPU until this \
         process ends, and a normal exit would wait for it: end the process with \
         std::process::abort() or a signal, and run programs that may not return in a child \
         process"
    )]
    Stuck {
        /// The timeout.
        after: Duration,
    },

    /// The kernel reported an error code this host does not know (a version mismatch).
    #[error(
        "the GPU kernel reported unknown error code {code}: rebuild the PTX with this gtap version"
    )]
    Unknown {
        /// The code.
        code: u32,
    },
}
