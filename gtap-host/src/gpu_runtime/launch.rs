//! Launch and wait: the persistent kernel on a stream, timed by CUDA events, and
//! the host's wait for it.
//!
//! The kernel stops itself at the timeout (`GpuRun::timeout_ns` says why the host sends no
//! abort), so the host only polls events, a call that never blocks on the kernel. What the
//! wait cannot end itself, a kernel stuck inside a task, it reports as [`Stopped::Stuck`] and
//! leaves to the runtime, which owns the memory the kernel still uses; a failed kernel it
//! reports as [`Stopped::Failed`], for the runtime to name a panicking task's location.

use std::sync::Arc;
use std::time::{Duration, Instant};

use cudarc::driver::sys::CUevent_flags;
use cudarc::driver::{CudaEvent, CudaStream, PushKernelArg};

use super::GpuRunError;
use super::error::driver;
use super::plan::RunPlan;
use crate::limits::DEFAULT_TIMEOUT;
use crate::{Gpu, GpuError, Kernel};

/// How long past its timeout the host waits for a kernel that should have stopped itself
/// before it calls the run [`GpuRunError::Stuck`]: long enough for every warp to reach its
/// next timeout check (a round's tasks must return first).
const STUCK_GRACE: Duration = Duration::from_secs(5);

/// The longest pause between two looks at a running kernel. The pause grows with the wait
/// (a 32nd of it), so that a short run is seen to end within microseconds and a long one
/// costs the host's core little; its end is then seen at most about 3% late.
const MAX_POLL_PAUSE: Duration = Duration::from_micros(200);

/// Below this, a pause only yields the core: a sleep that short oversleeps by tens of
/// microseconds (the kernel's timer slack).
const MIN_SLEEP: Duration = Duration::from_micros(20);

/// A launched kernel: the events recorded on the stream before and after it.
pub(super) struct Launched {
    start: CudaEvent,
    end: CudaEvent,
}

/// Why a wait ended without the kernel having completed.
pub(super) enum Stopped {
    /// The kernel failed (a trap or a fault): CUDA is unusable in this process.
    Failed(GpuError),
    /// The kernel did not stop a grace period past the timeout: it still runs.
    Stuck,
    /// The kernel had not started a grace period past the timeout (at least the default
    /// timeout, [`verdict`]): other work of the process holds the GPU, and the kernel starts
    /// once that ends.
    NotStarted,
}

/// What a wait does after a look at the kernel that found it not ended.
#[derive(Debug, PartialEq, Eq)]
enum Verdict {
    Wait,
    Stuck,
    NotStarted,
}

/// The wait's limits, from how long it has `waited` since the launch and how long the kernel
/// has `ran` since it started (`None` while it has not).
///
/// A kernel that runs is given `timeout` (it stops itself then) and a grace period. One that
/// has not started is given at least the default timeout and the grace, counted from the
/// launch: it may wait on the shared stream behind another runtime's run, which may take as
/// long as its own timeout; but a kernel queued behind one that never ends (an open resident
/// session's, which stays until its shutdown) is reported, not waited for without end.
fn verdict(waited: Duration, ran: Option<Duration>, timeout: Duration) -> Verdict {
    // Saturating: `Duration::MAX` is how a caller asks for no limit.
    let limit = timeout.saturating_add(STUCK_GRACE);
    let start_limit = start_wait(timeout).saturating_add(STUCK_GRACE);
    match ran {
        Some(ran) if ran > limit => Verdict::Stuck,
        None if waited > start_limit => Verdict::NotStarted,
        _ => Verdict::Wait,
    }
}

/// How long a run with `timeout` waits for its kernel to start, before the grace period
/// ([`verdict`]): the timeout, or the default timeout where that is longer.
pub(super) fn start_wait(timeout: Duration) -> Duration {
    timeout.max(DEFAULT_TIMEOUT)
}

/// Launches `kernel` on `stream` (the runtime's, or a resident session's own) of `gpu`'s
/// context with the shape of `plan` and its one argument, the control block at `run_addr`,
/// between two timing events.
pub(super) fn launch(
    gpu: &Gpu,
    stream: &Arc<CudaStream>,
    kernel: &Kernel,
    plan: &RunPlan,
    run_addr: u64,
) -> Result<Launched, GpuRunError> {
    let ctx = gpu.context();
    let start = ctx
        .new_event(Some(CUevent_flags::CU_EVENT_DEFAULT))
        .map_err(driver("cuEventCreate"))?;
    let end = ctx
        .new_event(Some(CUevent_flags::CU_EVENT_DEFAULT))
        .map_err(driver("cuEventCreate"))?;
    start.record(stream).map_err(driver("cuEventRecord"))?;
    let mut builder = stream.launch_builder(kernel.function());
    builder.arg(&run_addr);
    // SAFETY: the kernel takes one pointer to a `GpuRun`, which `run_addr` is, filled for
    // program `P` with arrays of the sizes it names; the shared memory is what it needs.
    unsafe { builder.launch(plan.launch_config()) }
        .map_err(|e| GpuRunError::Gpu(GpuError::launch(kernel.name(), e)))?;
    end.record(stream).map_err(driver("cuEventRecord"))?;
    Ok(Launched { start, end })
}

impl Launched {
    /// Waits for the kernel to complete, then synchronizes with the device.
    ///
    /// The kernel stops itself at `timeout` (`GpuRun::timeout_ns`, which says why the host
    /// sends no abort). The host only notices a kernel that cannot stop, one stuck inside a
    /// task: its clock starts when the `start` event has passed (the kernel may wait on the
    /// stream behind another runtime's), and it gives up a grace period after the timeout;
    /// and a kernel that has not started as long after its launch ([`verdict`]).
    pub fn wait(&self, gpu: &Gpu, kernel: &Kernel, timeout: Duration) -> Result<(), Stopped> {
        let waiting = Instant::now();
        let mut began: Option<Instant> = None;
        loop {
            match self.end.try_is_complete() {
                Ok(true) => break,
                Ok(false) => {}
                Err(e) => {
                    return Err(Stopped::Failed(GpuError::after_kernel(
                        kernel.name(),
                        "cuEventQuery",
                        e,
                    )));
                }
            }
            if began.is_none() && matches!(self.start.try_is_complete(), Ok(true)) {
                began = Some(Instant::now());
            }
            match verdict(waiting.elapsed(), began.map(|b| b.elapsed()), timeout) {
                Verdict::Wait => {}
                Verdict::Stuck => return Err(Stopped::Stuck),
                Verdict::NotStarted => return Err(Stopped::NotStarted),
            }
            let pause = (waiting.elapsed() / 32).min(MAX_POLL_PAUSE);
            if pause < MIN_SLEEP {
                std::thread::yield_now();
            } else {
                std::thread::sleep(pause);
            }
        }
        gpu.sync(kernel.name()).map_err(Stopped::Failed)
    }

    /// Whether the kernel has ended, without waiting: `Ok(true)` once it completed, the
    /// kernel's error once it failed.
    pub fn end_reached(&self, kernel: &str) -> Result<bool, GpuError> {
        self.end
            .try_is_complete()
            .map_err(|e| GpuError::after_kernel(kernel, "cuEventQuery", e))
    }

    /// The kernel's time in milliseconds, between the two events (once it has completed).
    pub fn kernel_ms(&self) -> Result<f32, GpuRunError> {
        self.start
            .elapsed_ms(&self.end)
            .map_err(driver("cuEventElapsedTime"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const S: Duration = Duration::from_secs(1);

    #[test]
    fn a_running_kernel_is_stuck_only_a_grace_period_past_the_timeout() {
        let timeout = 10 * S;
        assert_eq!(verdict(100 * S, Some(12 * S), timeout), Verdict::Wait);
        let past = timeout + STUCK_GRACE + S;
        assert_eq!(verdict(past, Some(past), timeout), Verdict::Stuck);
    }

    #[test]
    fn a_kernel_that_never_starts_is_reported_not_waited_for() {
        // However short its own timeout: it may wait behind another runtime's run.
        let short = Duration::from_millis(20);
        assert_eq!(verdict(DEFAULT_TIMEOUT, None, short), Verdict::Wait);
        let past = DEFAULT_TIMEOUT + STUCK_GRACE + S;
        assert_eq!(verdict(past, None, short), Verdict::NotStarted);
        let long = 2 * DEFAULT_TIMEOUT;
        assert_eq!(verdict(past, None, long), Verdict::Wait);
        assert_eq!(
            verdict(long + STUCK_GRACE + S, None, long),
            Verdict::NotStarted
        );
    }

    #[test]
    fn no_timeout_waits_for_ever() {
        let long = Duration::from_secs(1 << 40);
        assert_eq!(verdict(long, None, Duration::MAX), Verdict::Wait);
        assert_eq!(verdict(long, Some(long), Duration::MAX), Verdict::Wait);
    }
}
