//! [`OwnStream`]: a resident session's stream of its own, apart from the runtime's.
//!
//! A runtime works on its [`Gpu`]'s stream, the context's default (legacy) stream, which
//! every runtime of the process shares and which every synchronous driver call (such as a
//! `cuMemcpyDtoH`) waits for. A resident kernel runs until its session shuts down. On the
//! shared stream it would hold up every other runtime's work in the process for that long,
//! and a synchronous call on another thread would wait for it inside the driver, where it
//! keeps the session's own threads (launching, watching the end event) from the driver
//! calls they need to shut the session down: a deadlock. So a session launches on a
//! non-blocking stream of its own, which the legacy stream does not wait for, and reads
//! device memory with copies on that stream, which wait for nothing else.
//!
//! The stream is made with the driver's `cuStreamCreate`, not cudarc's
//! `CudaContext::new_stream`: that one puts the context handle into cudarc's multi-stream
//! mode, whose first step is a `cuCtxSynchronize` (which would wait for another session's
//! kernel) and after which every allocation records events on every use.

use std::sync::Arc;

use cudarc::driver::result::stream::{self, StreamKind};
use cudarc::driver::sys::CUstream;
use cudarc::driver::{CudaStream, DriverError};

use super::GpuRunError;
use super::error::driver;
use crate::Gpu;

/// A non-blocking stream in a [`Gpu`]'s context, destroyed when dropped (the driver then
/// frees it once the work queued on it has completed, so dropping it never waits).
pub(super) struct OwnStream {
    /// cudarc's view of the stream, for launches and events; it does not own the stream.
    stream: Arc<CudaStream>,
    raw: CUstream,
}

// SAFETY: a CUDA stream handle may be used from any thread of the process (the driver's
// calls on it are thread-safe); `stream` is `Send + Sync` itself.
unsafe impl Send for OwnStream {}
// SAFETY: as for `Send`; `OwnStream` has no interior mutability of its own.
unsafe impl Sync for OwnStream {}

impl OwnStream {
    /// A new stream in `gpu`'s context whose work starts only after the work queued on
    /// `gpu`'s stream so far (the buffers a session's kernel reads were filled there).
    pub fn after(gpu: &Gpu) -> Result<OwnStream, GpuRunError> {
        let ctx = gpu.context();
        ctx.bind_to_thread().map_err(driver("cuCtxSetCurrent"))?;
        let raw = stream::create(StreamKind::NonBlocking).map_err(driver("cuStreamCreate"))?;
        // SAFETY: `raw` is a stream of `ctx` (bound above); it lives until `OwnStream` is
        // dropped, and the wrapper is never handed out beyond `&self`'s borrow, so no use of
        // it outlives the stream. Work on it is ordered with the runtime's by the join below
        // and, after the session, by the host's wait for the kernel's end.
        let stream = unsafe { ctx.wrap_borrowed_stream(raw) };
        let own = OwnStream { stream, raw };
        own.stream
            .join(gpu.stream())
            .map_err(driver("cuStreamWaitEvent"))?;
        Ok(own)
    }

    /// The stream, to launch and record events on.
    pub fn stream(&self) -> &Arc<CudaStream> {
        &self.stream
    }

    /// Copies `out.len()` bytes from device address `at` into `out` once the work queued on
    /// this stream has completed; waits for nothing on other streams.
    ///
    /// # Safety
    /// `at..at + out.len()` is device memory of this context that stays allocated until the
    /// copy has completed (it has when this returns), and that nothing writes meanwhile.
    pub unsafe fn read(&self, out: &mut [u8], at: u64) -> Result<(), DriverError> {
        // SAFETY: per the contract; `raw` is a live stream of the context.
        unsafe {
            cudarc::driver::result::memcpy_dtoh_async(out, at, self.raw)?;
            stream::synchronize(self.raw)
        }
    }
}

impl Drop for OwnStream {
    fn drop(&mut self) {
        // A failure here leaves only a stream handle behind; there is no one to tell.
        let _ = self.stream.context().bind_to_thread();
        // SAFETY: `raw` was created by `after` and is destroyed once; the wrapper's last
        // users (launches, event records, copies) have returned, since they borrowed `self`.
        let _ = unsafe { stream::destroy(self.raw) };
    }
}
