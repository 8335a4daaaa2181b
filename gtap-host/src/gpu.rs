//! [`Gpu`]: one opened GPU — its CUDA context, the stream work goes to, and its properties.

use std::sync::Arc;

use cudarc::driver::{CudaContext, CudaStream};

use crate::driver;
use crate::error::GpuError;
use crate::module::Module;
use crate::props::DeviceProps;

/// An opened GPU: a CUDA context, the stream gtap launches on, and the device's properties.
///
/// Cloning is cheap and shares the context and stream. Work is ordered on [`Gpu::stream`]
/// (the context's default stream); [`Gpu::sync`] waits for it and names the kernel in errors.
#[derive(Debug, Clone)]
pub struct Gpu {
    /// The context every call of this handle runs in.
    ctx: Arc<CudaContext>,
    /// The context's default stream.
    stream: Arc<CudaStream>,
    /// Read once by [`Gpu::new`].
    props: DeviceProps,
}

impl Gpu {
    /// Opens GPU `ordinal` in its primary context, the one every `Gpu::new(ordinal)` of this
    /// process shares (as does the CUDA runtime).
    ///
    /// Fails with [`GpuError::NoDriver`] where the CUDA driver library cannot be loaded (never
    /// a panic, although cudarc itself panics there) and with [`GpuError::NoDevice`] where the
    /// driver has no GPU `ordinal`; [`GpuError::is_no_gpu`] covers both.
    pub fn new(ordinal: usize) -> Result<Gpu, GpuError> {
        driver::library()?;
        driver::init(ordinal)?;
        let count = driver::device_count()?;
        if ordinal >= count {
            return Err(GpuError::NoDevice { ordinal, count });
        }
        let ctx = CudaContext::new(ordinal).map_err(|source| GpuError::Driver {
            call: "cuDevicePrimaryCtxRetain",
            source,
        })?;
        let props = DeviceProps::query(&ctx)?;
        let stream = ctx.default_stream();
        Ok(Gpu { ctx, stream, props })
    }

    /// The GPU's properties, read when it was opened.
    pub fn props(&self) -> &DeviceProps {
        &self.props
    }

    /// The cudarc context, for what this crate does not wrap.
    pub fn context(&self) -> &Arc<CudaContext> {
        &self.ctx
    }

    /// The stream to allocate, copy and launch on (the context's default stream).
    pub fn stream(&self) -> &Arc<CudaStream> {
        &self.stream
    }

    /// Loads PTX text (e.g. from [`include_ptx!`](crate::include_ptx)) into this GPU's context.
    ///
    /// Before the driver sees it, the PTX's `.target` is checked against the GPU:
    /// PTX for a newer GPU is [`GpuError::PtxTooNew`], with the `GTAP_CUDA_ARCH` to rebuild
    /// with. PTX the driver cannot compile is [`GpuError::Jit`], with the compiler's log.
    ///
    /// Loading waits for every kernel on the GPU to end, so while a resident session of this
    /// process is open it waits (outside the driver) for the session to shut down, up to
    /// the default run timeout, and then fails with [`GpuError::SessionOpen`].
    pub fn load(&self, ptx: &str) -> Result<Module, GpuError> {
        self.load_waiting(ptx, crate::limits::DEFAULT_TIMEOUT)
    }

    /// [`Gpu::load`], waiting up to `wait` for open sessions to shut down.
    pub(crate) fn load_waiting(
        &self,
        ptx: &str,
        wait: std::time::Duration,
    ) -> Result<Module, GpuError> {
        crate::gate::of(&self.ctx).quiet("cuModuleLoadData", wait, || {
            Module::load(&self.ctx, self.props.compute_capability, ptx)
        })
    }

    /// Waits until all work on [`Gpu::stream`] has finished; `kernel` names the kernel that
    /// ran last, for the error.
    ///
    /// A kernel fault surfaces here: [`GpuError::Trap`] (device code panicked),
    /// [`GpuError::IllegalAddress`], or [`GpuError::KernelFault`] (timeout, misaligned access,
    /// ...). After any of them CUDA is unusable in this process (a sticky error): every later
    /// call fails with the same code, even in a new context, so the only way on is a new
    /// process. Tests that fault on purpose therefore run in
    /// a child process: see [`Gpu::for_fault_test`].
    pub fn sync(&self, kernel: &str) -> Result<(), GpuError> {
        self.stream
            .synchronize()
            .map_err(|e| GpuError::after_kernel(kernel, "cuStreamSynchronize", e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn new_gives_a_gpu_or_says_there_is_none() {
        match Gpu::new(0) {
            Ok(gpu) => {
                let p = gpu.props();
                assert_eq!(p.ordinal, 0);
                assert!(!p.name.is_empty());
                assert!(p.compute_capability.0 >= 3, "{p}");
                assert!(p.sm_count > 0 && p.warp_size == 32, "{p}");
                assert!(p.max_threads_per_block >= 512 && p.total_mem > 0, "{p}");
                eprintln!("{p}");
            }
            Err(e) => {
                assert!(e.is_no_gpu(), "expected a GPU or a no-GPU error, got: {e}");
                assert!(
                    !crate::testing::require_gpu(),
                    "{e} ({} is set: a GPU is required)",
                    crate::REQUIRE_GPU_ENV
                );
            }
        }
    }

    #[test]
    fn no_driver_library_is_no_driver_not_a_panic() {
        if driver::library().is_ok() {
            return; // a driver is installed; the GPU tests cover this machine
        }
        for ordinal in [0, 7] {
            let e = Gpu::new(ordinal).unwrap_err();
            assert!(matches!(e, GpuError::NoDriver { .. }), "{e:?}");
            assert!(e.to_string().starts_with("no CUDA driver found ("), "{e}");
        }
    }

    #[test]
    fn an_ordinal_past_the_last_gpu_is_no_device() {
        match Gpu::new(1000) {
            Err(GpuError::NoDevice {
                ordinal: 1000,
                count,
            }) => {
                let msg = GpuError::NoDevice {
                    ordinal: 1000,
                    count,
                }
                .to_string();
                assert!(msg.contains("no GPU 1000") || count == 0, "{msg}");
            }
            Err(e @ GpuError::NoDriver { .. }) => assert!(driver::library().is_err(), "{e}"),
            other => panic!("expected NoDevice or NoDriver, got {other:?}"),
        }
    }
}
