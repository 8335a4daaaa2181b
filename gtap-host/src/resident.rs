//! Resident sessions: a runtime that stays up and takes new root tasks while it runs.
//!
//! A [`Resident`](crate::runtime::Resident) session (from [`Runtime::resident`](crate::Runtime::resident),
//! or a backend's own: [`GpuResident`](crate::gpu_runtime::GpuResident), [`CpuResident`]) accepts roots one at a time with `submit(root)`, from
//! any number of host threads, while earlier roots run. Each submission returns a
//! [`RootHandle`]: poll it ([`RootHandle::try_result`]), block on it ([`RootHandle::wait`],
//! bounded by the runtime's timeout), or `.await` it (it is a [`std::future::Future`], usable
//! from tokio or any executor: its waker is woken by the session when the root completes, not
//! by a blocked thread).
//!
//! The handle type and its error, [`RootError`], are the same on both backends; only how the
//! roots reach the workers differs:
//!
//! | backend | how roots run |
//! |---|---|
//! | GPU | the thread kernel is launched once, with no roots, and stays resident: idle warps take the roots the host publishes in an injection ring in mapped host memory, and each root's completion is written to a slot there, which the session's poller thread turns into the handle's outcome (`gpu_runtime/resident.rs`; device side `gtap_device::runtime::gpu::inject`). Thread programs with `taskwait!` only |
//! | CPU | a dispatcher thread of the session takes every root waiting in its queue and runs them as one batch (`CpuRuntime::run_batch`), then the next; a root submitted while a batch runs starts with the next batch |
//!
//! # Failures
//! A failure inside a root's task tree (a task panic, a limit such as `PoolExhausted`) is
//! reported on that root's handle as [`RootError::Failed`], with the runtime's error, when the
//! runtime can tell which root it was (a failed spawn and a task's panic are traced to their
//! root; on the GPU the panicking thread finds its root before the trap ends the kernel, and
//! a fault that is not a panic, such as an illegal address, is traced only when one root was
//! running). It also ends the other roots that were running
//! with it (they share the workers and the run's memory): their handles get
//! [`RootError::Aborted`], naming the failing root when it is known. On the CPU backend that
//! is the roots of the same batch, and roots submitted afterwards run normally. On the GPU it
//! is every root in flight, and the session is closed: the kernel has ended (a trap ends it in
//! any case, and CUDA with it), later submissions get [`RootError::Closed`], `shutdown`
//! returns the error, and after a limit (not a trap) the runtime runs again.
//!
//! # Shutting down
//! `shutdown()` (also run on drop) stops taking new roots, lets every root submitted so far
//! run to its end, and returns once every handle is complete: no submitted root is lost or
//! left pending. A dropped handle is fine at any time: the root still runs, and its result
//! is discarded.
//!
//! | file | what |
//! |---|---|
//! | `resident/handle.rs` | [`RootHandle`] and the session's side of it, `Completer` |
//! | `resident/error.rs` | [`RootError`] |
//! | `resident/cpu.rs` | [`CpuResident`]: the CPU backend's session |

mod cpu;
mod error;
mod handle;

pub use cpu::CpuResident;
pub use error::RootError;
pub use handle::RootHandle;
pub(crate) use handle::{Completer, pair};
