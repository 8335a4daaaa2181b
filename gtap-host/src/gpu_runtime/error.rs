//! [`GpuRunError`]: why a GPU run did not return a result, and what to change.

use std::time::Duration;

use gtap_device::runtime::RunError;
use gtap_device::runtime::gpu::layout::{ErrorWords, KernelError};

use crate::GpuError;

/// An error from [`GpuRuntime`](super::GpuRuntime). Limit errors name the [`GpuConfig`]
/// setting (or program option) that raises the limit.
///
/// The limits a run can hit (and the block rules it can break) are [`GpuRunError::Run`], in
/// the same [`RunError`] and the same words as on the CPU backend (`CpuError::Run`); the
/// other variants are the GPU's own.
///
/// [`GpuConfig`]: super::GpuConfig
#[derive(Debug, thiserror::Error)]
pub enum GpuRunError {
    /// A limit was hit (records per warp, queue, `max_children`, `slots!`, EPAQ queue index,
    /// [`GpuConfig::timeout`](crate::Limits::timeout)), or a block task broke a
    /// block rule. The kernel stopped itself, and the runtime is ready for the next run.
    #[error(transparent)]
    Run(#[from] RunError),

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

    /// The run needs one of the program's lab kernels (profiling is on,
    /// [`GpuLaunch::profile`](super::GpuLaunch::profile), or an ablation scheduler is chosen,
    /// [`GpuTuning::scheduler`](super::GpuTuning::scheduler)) but the PTX has the plain
    /// kernels only.
    #[error(
        "{why} but the PTX has no lab kernel `{kernel}` for program `{program}`: build the \
         crate that defines the program with the lab kernels (GTAP_LAB=1 in the environment of \
         the build, or gtap_builder::PtxBuilder::lab(true) in its build.rs) and load that PTX, \
         or run the plain kernel (GpuConfig::no_profile, Scheduler::WorkStealing)"
    )]
    NoLabKernel {
        /// The lab kernel's name, e.g. `gtap_<name>_profiled`.
        kernel: String,
        /// The program.
        program: &'static str,
        /// What asked for it, e.g. "GpuConfig::profile is set".
        why: &'static str,
    },

    /// The device memory the run needs could not be allocated.
    #[error(
        "could not allocate {bytes} bytes of GPU memory for {what}: lower GpuConfig::tasks_per_warp, \
         reserve_records, queue_capacity or grid"
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

    /// The root task takes a reference (`&[T]`, `&mut [T]`, or a type that holds one): made
    /// on the host, it points into host memory, which a kernel must not read. Found before
    /// anything is launched; the runtime is ready for the next run.
    #[error(
        "the root task `{task}` takes a reference, which the host can only make into host \
         memory, and the GPU cannot read host memory: make the data a gtap::DeviceVec for this \
         runtime and pass its view (View, ViewMut, AtomicView) to a root task that takes views; \
         its children may then take slices of it (or run this root on the CPU backend)"
    )]
    HostReferenceRoot {
        /// The root task.
        task: &'static str,
    },

    /// One root of a batch ([`GpuRuntime::run_batch`](super::GpuRuntime::run_batch)) failed
    /// the run: the error, and the root that the failing task belonged to. The other roots'
    /// results are lost with the run (one launch ran them all).
    #[error("root {root} of the {roots} in the batch failed: {source}")]
    InRoot {
        /// The root's position in the batch.
        root: usize,
        /// How many roots the batch had.
        roots: usize,
        /// What went wrong.
        source: Box<GpuRunError>,
    },

    /// A batch that does not fit one launch: each worker builds and queues its share of the
    /// roots at the start.
    #[error(
        "a batch of {roots} roots puts {per_worker} on each of the {workers} workers, more than \
         half of their {setting} ({limit}): run it in smaller batches, or raise {setting}"
    )]
    BatchTooLarge {
        /// Roots in the batch.
        roots: usize,
        /// Roots per worker.
        per_worker: u32,
        /// Workers of the launch.
        workers: usize,
        /// The setting that bounds it (`tasks_per_warp` or `queue_capacity`).
        setting: &'static str,
        /// Its value.
        limit: u32,
    },

    /// A setting or call that programs with block tasks (block or mixed programs) do not
    /// support.
    #[error(
        "program `{program}` has block tasks (#[gtap::task(block)]), which do not support {what}"
    )]
    NotForBlockPrograms {
        /// The program's name.
        program: &'static str,
        /// The unsupported setting.
        what: &'static str,
    },

    /// A resident session ([`GpuRuntime::resident`](super::GpuRuntime::resident)) cannot run
    /// this program or this configuration.
    #[error("program `{program}` cannot run in a resident session: {why}")]
    NotResident {
        /// The program's name.
        program: &'static str,
        /// Why, and what to use instead.
        why: &'static str,
    },

    /// A resident session's kernel ended before every submitted root completed: a root's
    /// task failed (a limit, a panic), and every root in flight was reported on its handle.
    #[error(
        "the resident session's kernel failed: {message}; every root in flight got this error \
         on its handle"
    )]
    ResidentFailed {
        /// What ended it.
        message: String,
    },

    /// The device and host compilations of the program disagree on the task records' layout
    /// in a way the host cannot adopt: the roots' arguments differ too (the PTX was built from
    /// another version of the program), or the device's layout was already adopted once.
    /// (Frames that rustc merely lays out differently in the two compilations are fine: the
    /// host takes the device's record size and runs again.)
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

    /// The run's kernel had not started a grace period past the timeout (at least the
    /// default timeout, since it may wait behind another runtime's run) after its launch:
    /// other GPU work of this process holds the GPU, typically an open resident session,
    /// whose kernel fills the GPU and stays until the session shuts down.
    ///
    /// The kernel is still queued and starts once that work ends, using this runtime's
    /// memory then, so this runtime refuses later runs (as after [`GpuRunError::Stuck`]).
    #[error(
        "the run's kernel had not started {after:?} after its launch (and a grace period): \
         other GPU work of this process holds the GPU (an open resident session keeps its \
         kernel on the GPU until it shuts down); shut the session down before other work on \
         the GPU. The kernel still starts once that work ends and uses this runtime's memory \
         then, so this runtime refuses later runs: make a new one"
    )]
    NotStarted {
        /// How long it waited: the timeout, or the default timeout where that is longer.
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

impl GpuRunError {
    /// The error a kernel left in its control block ([`GpuRun::error_words`]), the inverse of
    /// the device's [`KernelError::encode`]: tasks are named from `task_names` (the program's
    /// `Program::TASK_NAMES`), and a layout mismatch is reported against the host's record
    /// size and alignment. `None` when the words hold no error.
    ///
    /// [`GpuRun::error_words`]: gtap_device::runtime::gpu::layout::GpuRun::error_words
    pub fn from_kernel(
        words: ErrorWords,
        task_names: &[&'static str],
        host_size: u32,
        host_align: u32,
    ) -> Option<GpuRunError> {
        let name = |i: u32| task_names.get(i as usize).copied().unwrap_or("?");
        Some(match KernelError::decode(words) {
            Ok(None) => return None,
            Ok(Some(KernelError::Run(e))) => GpuRunError::Run(e.map_task(name)),
            Ok(Some(KernelError::LayoutMismatch { size, align })) => GpuRunError::LayoutMismatch {
                host_size,
                host_align,
                device_size: size,
                device_align: align,
            },
            Err(code) => GpuRunError::Unknown { code },
        })
    }
}

/// Maps a failed driver call named `call` to the run's error.
pub(super) fn driver(call: &'static str) -> impl Fn(cudarc::driver::DriverError) -> GpuRunError {
    move |source| GpuRunError::Gpu(GpuError::Driver { call, source })
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    fn decode(e: KernelError) -> GpuRunError {
        GpuRunError::from_kernel(e.encode(), &["fib", "wide"], 64, 8).expect("an error")
    }

    #[test]
    fn kernel_errors_name_their_tasks_and_print_as_the_shared_error() {
        let e = decode(KernelError::Run(RunError::TooManyChildren {
            task: 1,
            limit: 3,
        }));
        let shared = RunError::TooManyChildren {
            task: "wide",
            limit: 3,
        };
        assert!(matches!(e, GpuRunError::Run(r) if r == shared), "{e:?}");
        assert_eq!(e.to_string(), shared.to_string());
        // An index the host does not know (PTX of another program) still decodes.
        let e = decode(KernelError::Run(RunError::NonUniformState { task: 9 }));
        assert!(
            matches!(e, GpuRunError::Run(RunError::NonUniformState { task: "?" })),
            "{e:?}"
        );
        let after = Duration::from_secs(3);
        let e = decode(KernelError::Run(RunError::TimedOut { after }));
        assert!(
            matches!(e, GpuRunError::Run(RunError::TimedOut { after: a }) if a == after),
            "{e:?}"
        );
        assert!(e.to_string().contains("GpuConfig::timeout"), "{e}");
    }

    #[test]
    fn gpu_only_errors_and_no_error() {
        let e = decode(KernelError::LayoutMismatch {
            size: 48,
            align: 16,
        });
        assert!(
            matches!(
                e,
                GpuRunError::LayoutMismatch {
                    host_size: 64,
                    host_align: 8,
                    device_size: 48,
                    device_align: 16
                }
            ),
            "{e:?}"
        );
        let words = ErrorWords {
            code: 77,
            ..ErrorWords::default()
        };
        assert!(matches!(
            GpuRunError::from_kernel(words, &[], 0, 0),
            Some(GpuRunError::Unknown { code: 77 })
        ));
        assert!(GpuRunError::from_kernel(ErrorWords::default(), &[], 0, 0).is_none());
    }
}
