//! Loaded PTX ([`Module`]) and the kernels in it ([`Kernel`]).
//!
//! Loading checks the PTX's `.target` against the GPU first ([`GpuError::PtxTooNew`]), then
//! lets the driver JIT-compile it. cudarc's `load_module` does the load, so that the module is
//! an ordinary `Arc<CudaModule>`; only when it fails is the PTX compiled once more through
//! `cuModuleLoadDataEx` with log buffers, so that [`GpuError::Jit`] carries the compiler's log.
//! A failing load thus compiles twice, a succeeding one once.

use std::ffi::CString;
use std::mem::ManuallyDrop;
use std::sync::Arc;

use cudarc::driver::sys::CUresult;
use cudarc::driver::{CudaContext, CudaFunction, CudaModule, DriverError};
use cudarc::nvrtc::Ptx;

use crate::driver;
use crate::error::GpuError;
use crate::ptx::{self, PtxTarget, sm_name};

/// PTX loaded into a [`Gpu`](crate::Gpu)'s context. Get one from
/// [`Gpu::load`](crate::Gpu::load), then its kernels with [`Module::kernel`].
#[derive(Debug, Clone)]
pub struct Module {
    /// The loaded module; unloaded when the last `Module` or [`Kernel`] of it is dropped.
    module: Arc<Loaded>,
    /// The `.entry` names of the PTX, in order.
    kernels: Vec<String>,
    /// The `.target` of the PTX, if it has one.
    ptx_target: Option<String>,
}

impl Module {
    /// Checks `ptx` against a GPU of compute capability `device`, then loads it into `ctx`.
    pub(crate) fn load(
        ctx: &Arc<CudaContext>,
        device: (u32, u32),
        ptx: &str,
    ) -> Result<Module, GpuError> {
        let ptx_target = check_target(ptx, device)?;
        let target_text = || ptx_target.clone().unwrap_or_else(|| "unknown".to_owned());
        // cudarc hands the text to the driver as a C string (and panics on a NUL byte).
        let c_ptx = CString::new(ptx).map_err(|e| GpuError::Jit {
            ptx_target: target_text(),
            log: format!(
                "the PTX text has a NUL byte at offset {}; PTX is plain text (was a cubin or a \
                 binary file passed as PTX?)",
                e.nul_position()
            ),
            source: DriverError(CUresult::CUDA_ERROR_INVALID_PTX),
        })?;
        match ctx.load_module(Ptx::from_src(ptx)) {
            Ok(module) => {
                let kernels = ptx::entries(ptx);
                load_kernels(&module, &kernels)?;
                Ok(Module {
                    module: Arc::new(Loaded {
                        module: ManuallyDrop::new(module),
                        ordinal: ctx.ordinal(),
                    }),
                    kernels,
                    ptx_target,
                })
            }
            Err(source) if is_jit_failure(source.0) => Err(GpuError::Jit {
                ptx_target: target_text(),
                log: driver::jit_log(ctx, &c_ptx),
                source,
            }),
            Err(source) => Err(GpuError::Driver {
                call: "cuModuleLoadData",
                source,
            }),
        }
    }

    /// The kernel named `name` (an `.entry` of the PTX).
    ///
    /// [`GpuError::KernelNotFound`] lists the kernels there are.
    pub fn kernel(&self, name: &str) -> Result<Kernel, GpuError> {
        let not_found = || GpuError::KernelNotFound {
            name: name.to_owned(),
            available: self.kernels.clone(),
        };
        if name.contains('\0') {
            // cudarc would panic turning it into a C string; no PTX name holds a NUL.
            return Err(not_found());
        }
        match self.module.module.load_function(name) {
            Ok(function) => Ok(Kernel {
                name: name.to_owned(),
                function,
                _module: self.module.clone(),
            }),
            Err(e) if e.0 == CUresult::CUDA_ERROR_NOT_FOUND => Err(not_found()),
            Err(source) => Err(GpuError::Driver {
                call: "cuModuleGetFunction",
                source,
            }),
        }
    }

    /// The kernels of the module (its `.entry` names), in the order the PTX declares them.
    pub fn kernel_names(&self) -> &[String] {
        &self.kernels
    }

    /// The PTX's `.target`, e.g. `sm_70`.
    pub fn ptx_target(&self) -> Option<&str> {
        self.ptx_target.as_deref()
    }

    /// The cudarc module, for what this crate does not wrap (e.g. `get_global`).
    pub fn cuda_module(&self) -> &Arc<CudaModule> {
        &self.module.module
    }
}

/// A loaded module, whose unload (`cuModuleUnload`, which waits for every kernel on the GPU)
/// goes through the GPU's gate (`gate.rs`): while a resident session is open it waits for
/// the session's end instead of hanging the process. Every [`Module`] and [`Kernel`] of the
/// module holds it.
#[derive(Debug)]
struct Loaded {
    module: ManuallyDrop<Arc<CudaModule>>,
    /// The GPU's ordinal, which names its gate.
    ordinal: usize,
}

impl Drop for Loaded {
    fn drop(&mut self) {
        // SAFETY: taken once, here; the field is not used after.
        let module = unsafe { ManuallyDrop::take(&mut self.module) };
        crate::gate::for_ordinal(self.ordinal).release(module);
    }
}

/// Looks up every kernel of a module just loaded. With the driver's lazy loading (the
/// default since CUDA 12.2) a module's kernels are loaded at their first lookup, and loading
/// one waits for every kernel on the GPU: done later, beside a resident session's kernel, it
/// would wait for the session's end. Done here, it happens inside the load's gate.
fn load_kernels(module: &Arc<CudaModule>, names: &[String]) -> Result<(), GpuError> {
    for name in names.iter().filter(|n| !n.contains('\0')) {
        module
            .load_function(name)
            .map_err(|source| GpuError::Driver {
                call: "cuModuleGetFunction",
                source,
            })?;
    }
    Ok(())
}

/// A kernel of a [`Module`]. Launch it through cudarc:
/// `gpu.stream().launch_builder(kernel.function())`, then
/// [`GpuError::launch`] and [`Gpu::sync`](crate::Gpu::sync) for errors.
#[derive(Debug, Clone)]
pub struct Kernel {
    /// The `.entry` name.
    name: String,
    /// The driver's handle; it keeps its module loaded.
    function: CudaFunction,
    /// Its module, so that the last of a module's `Module`s and `Kernel`s to drop unloads it
    /// through the gate (declared after `function`, which therefore drops first).
    _module: Arc<Loaded>,
}

impl Kernel {
    /// The kernel's name, as in the PTX.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The cudarc function, for `CudaStream::launch_builder`.
    pub fn function(&self) -> &CudaFunction {
        &self.function
    }
}

/// The `.target` of `ptx` (if any), or [`GpuError::PtxTooNew`] when it needs a newer GPU than
/// one of compute capability `device`.
fn check_target(ptx: &str, device: (u32, u32)) -> Result<Option<String>, GpuError> {
    let target = ptx::target(ptx);
    if let Some(parsed) = target.as_deref().and_then(PtxTarget::parse)
        && parsed.is_newer_than(device)
    {
        return Err(GpuError::PtxTooNew {
            ptx_target: parsed.to_string(),
            device: sm_name(device),
        });
    }
    Ok(target)
}

/// Codes with which `cuModuleLoadData` says "this PTX does not compile here".
fn is_jit_failure(code: CUresult) -> bool {
    matches!(
        code,
        CUresult::CUDA_ERROR_INVALID_PTX
            | CUresult::CUDA_ERROR_UNSUPPORTED_PTX_VERSION
            | CUresult::CUDA_ERROR_NO_BINARY_FOR_GPU
            | CUresult::CUDA_ERROR_INVALID_IMAGE
            | CUresult::CUDA_ERROR_JIT_COMPILER_NOT_FOUND
            | CUresult::CUDA_ERROR_INVALID_SOURCE
            | CUresult::CUDA_ERROR_SHARED_OBJECT_SYMBOL_NOT_FOUND
            | CUresult::CUDA_ERROR_SHARED_OBJECT_INIT_FAILED
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ptx_for(target: &str) -> String {
        format!(
            ".version 8.0\n.target {target}\n.address_size 64\n.visible .entry k() {{ ret; }}\n"
        )
    }

    #[test]
    fn ptx_newer_than_the_gpu_is_refused_with_advice() {
        let e = check_target(&ptx_for("sm_90"), (8, 6)).unwrap_err();
        assert!(
            matches!(&e, GpuError::PtxTooNew { ptx_target, device } if ptx_target == "sm_90" && device == "sm_86"),
            "{e:?}"
        );
        let msg = e.to_string();
        assert!(msg.contains("GTAP_CUDA_ARCH=sm_86"), "{msg}");
        assert!(!e.is_no_gpu());
    }

    #[test]
    fn ptx_for_this_or_an_older_gpu_passes() {
        assert_eq!(
            check_target(&ptx_for("sm_70"), (9, 0)).unwrap().as_deref(),
            Some("sm_70")
        );
        assert_eq!(
            check_target(&ptx_for("sm_90a, debug"), (9, 0))
                .unwrap()
                .as_deref(),
            Some("sm_90a")
        );
        assert_eq!(check_target(".version 8.0\n", (7, 0)).unwrap(), None);
        // An unparseable target is left to the driver.
        assert_eq!(
            check_target(&ptx_for("sm_x"), (7, 0)).unwrap().as_deref(),
            Some("sm_x")
        );
    }

    #[test]
    fn only_compile_codes_count_as_jit_failures() {
        assert!(is_jit_failure(CUresult::CUDA_ERROR_INVALID_PTX));
        assert!(is_jit_failure(CUresult::CUDA_ERROR_UNSUPPORTED_PTX_VERSION));
        assert!(!is_jit_failure(CUresult::CUDA_ERROR_OUT_OF_MEMORY));
        assert!(!is_jit_failure(CUresult::CUDA_ERROR_ILLEGAL_ADDRESS));
    }
}
