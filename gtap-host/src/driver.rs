//! The thin layer: the driver calls the safe API needs beyond cudarc's safe API, each a
//! `Result`-returning function that maps the driver's code to a [`GpuError`] with advice.
//!
//! - [`library`]: is `libcuda` loadable at all? cudarc loads it lazily and *panics* on first use
//!   when it is missing; probing first turns that into [`GpuError::NoDriver`].
//! - [`init`], [`device_count`]: `cuInit` and `cuDeviceGetCount`.
//! - [`jit_log`]: `cuModuleLoadDataEx` with error and info log buffers, to get the JIT
//!   compiler's messages for PTX that failed to load.

use std::ffi::{CStr, c_void};
use std::mem::MaybeUninit;
use std::sync::OnceLock;

use cudarc::driver::sys::{self, CUjit_option, CUresult};
use cudarc::driver::{CudaContext, DriverError, result};

use crate::error::{GpuError, code_name};

/// Checks that the CUDA driver library can be loaded, once per process.
///
/// Without this, the first cudarc call on a machine without `libcuda` panics (cudarc's
/// `culib()` has no fallible form); its probe `is_culib_present` tries the same names in the
/// same order, so when this returns `Ok`, cudarc's own load succeeds too.
pub(crate) fn library() -> Result<(), GpuError> {
    static PRESENT: OnceLock<bool> = OnceLock::new();
    let present = *PRESENT.get_or_init(|| {
        // SAFETY: `is_culib_present` dlopens each candidate name and drops the handle, which
        // runs the library's initialisers and finalisers. The candidates are the NVIDIA
        // driver's library names; the driver is made to be loaded into any process at any time.
        unsafe { sys::is_culib_present() }
    });
    if present {
        Ok(())
    } else {
        Err(GpuError::NoDriver {
            reason: missing_library_reason(),
        })
    }
}

/// "libcuda.so.1 could not be loaded (nor N other names)", from the names cudarc tries.
fn missing_library_reason() -> String {
    let names: Vec<String> = ["cuda", "nvcuda"]
        .iter()
        .flat_map(|lib| cudarc::get_lib_name_candidates(lib))
        .collect();
    let shown = names
        .iter()
        .find(|n| n.ends_with(".so.1"))
        .or(names.first())
        .map_or("libcuda", String::as_str);
    format!(
        "{shown} could not be loaded, nor any of {} other names",
        names.len().saturating_sub(1)
    )
}

/// `cuInit(0)`; a driver that reports no GPU is [`GpuError::NoDevice`] for `ordinal`, a library
/// that is no working driver is [`GpuError::NoDriver`]. Call [`library`] first.
pub(crate) fn init(ordinal: usize) -> Result<(), GpuError> {
    result::init().map_err(|e| init_error(ordinal, e))
}

fn init_error(ordinal: usize, source: DriverError) -> GpuError {
    let reason = match source.0 {
        CUresult::CUDA_ERROR_NO_DEVICE => return GpuError::NoDevice { ordinal, count: 0 },
        CUresult::CUDA_ERROR_STUB_LIBRARY => {
            "the libcuda.so found is the CUDA toolkit's stub for linking, not the driver \
             (cuInit: CUDA_ERROR_STUB_LIBRARY); take its folder out of LD_LIBRARY_PATH"
        }
        CUresult::CUDA_ERROR_SYSTEM_DRIVER_MISMATCH => {
            "the driver library does not match the loaded kernel module \
             (cuInit: CUDA_ERROR_SYSTEM_DRIVER_MISMATCH); reboot after a driver update"
        }
        CUresult::CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE => {
            "the CUDA forward-compatibility driver in use does not support this GPU \
             (cuInit: CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE); remove the cuda-compat \
             folder from LD_LIBRARY_PATH"
        }
        _ => {
            return GpuError::Driver {
                call: "cuInit",
                source,
            };
        }
    };
    GpuError::NoDriver {
        reason: reason.to_owned(),
    }
}

/// `cuDeviceGetCount`. Call [`init`] first.
pub(crate) fn device_count() -> Result<usize, GpuError> {
    let count = result::device::get_count().map_err(|source| GpuError::Driver {
        call: "cuDeviceGetCount",
        source,
    })?;
    Ok(usize::try_from(count).unwrap_or(0))
}

/// Bytes per log buffer. A failing module's log is a few lines per error; the driver cuts
/// anything longer and still terminates the text.
const LOG_BYTES: usize = 64 * 1024;

/// JIT-compiles `ptx` once more in `ctx`, this time through `cuModuleLoadDataEx` with log
/// buffers, and returns the error log followed by the info log. Used after cudarc's
/// `load_module` failed, so the compile is expected to fail again; if it unexpectedly succeeds
/// the module is unloaded and the log says so.
pub(crate) fn jit_log(ctx: &CudaContext, ptx: &CStr) -> String {
    if let Err(e) = ctx.bind_to_thread() {
        return format!(
            "(no log: could not make the context current: {})",
            code_name(&e)
        );
    }
    // SAFETY: `bind_to_thread` just made `ctx` current on this thread.
    let (loaded, error_log, info_log) = unsafe { load_data_with_log(ptx) };
    let mut log = error_log;
    if !info_log.is_empty() {
        if !log.is_empty() {
            log.push('\n');
        }
        log.push_str(&info_log);
    }
    if let Ok(module) = loaded {
        // SAFETY: `module` was loaded just above and nothing else holds it; unloaded once.
        let _ = unsafe { result::module::unload(module) };
        log.push_str(
            "\n(compiling again with logging succeeded: the first failure was no compile error)",
        );
    }
    log
}

/// `cuModuleLoadDataEx(image)` with error and info log buffers and verbose logging; returns
/// the result and the two logs as text.
///
/// # Safety
/// A CUDA context must be current on the calling thread. A returned module belongs to the
/// caller, who must unload it once.
unsafe fn load_data_with_log(image: &CStr) -> (Result<sys::CUmodule, DriverError>, String, String) {
    let mut error_buf = vec![0u8; LOG_BYTES];
    let mut info_buf = vec![0u8; LOG_BYTES];
    let mut options = [
        CUjit_option::CU_JIT_ERROR_LOG_BUFFER,
        CUjit_option::CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
        CUjit_option::CU_JIT_INFO_LOG_BUFFER,
        CUjit_option::CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES,
        CUjit_option::CU_JIT_LOG_VERBOSE,
    ];
    // Size and flag options travel by value in the pointer slot (the driver reads an
    // `unsigned int` there and writes the used size back into it).
    let mut values: [*mut c_void; 5] = [
        error_buf.as_mut_ptr().cast(),
        std::ptr::without_provenance_mut(LOG_BYTES),
        info_buf.as_mut_ptr().cast(),
        std::ptr::without_provenance_mut(LOG_BYTES),
        std::ptr::without_provenance_mut(1),
    ];
    let mut module = MaybeUninit::<sys::CUmodule>::uninit();
    // SAFETY: the caller made a context current. `image` is NUL-terminated PTX text.
    // `options` and `values` both hold 5 entries, and each buffer stays alive and unmoved,
    // LOG_BYTES long, until the call returns. `module` is a valid place for the handle.
    let status = unsafe {
        sys::cuModuleLoadDataEx(
            module.as_mut_ptr(),
            image.as_ptr().cast(),
            options.len() as u32,
            options.as_mut_ptr(),
            values.as_mut_ptr(),
        )
    };
    let loaded = match status.result() {
        // SAFETY: the call succeeded, so it wrote the module handle.
        Ok(()) => Ok(unsafe { module.assume_init() }),
        Err(e) => Err(e),
    };
    (loaded, log_text(&error_buf), log_text(&info_buf))
}

/// The NUL-terminated text at the start of a log buffer, trimmed.
fn log_text(buf: &[u8]) -> String {
    let end = buf.iter().position(|&b| b == 0).unwrap_or(buf.len());
    String::from_utf8_lossy(&buf[..end]).trim_end().to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn log_text_stops_at_nul_and_trims() {
        assert_eq!(log_text(b"ptxas error: x\n\0garbage"), "ptxas error: x");
        assert_eq!(log_text(b"\0\0\0"), "");
        assert_eq!(log_text(b"no terminator"), "no terminator");
    }

    #[test]
    fn init_codes_map_to_no_device_and_no_driver() {
        let e = init_error(2, DriverError(CUresult::CUDA_ERROR_NO_DEVICE));
        assert!(
            matches!(
                e,
                GpuError::NoDevice {
                    ordinal: 2,
                    count: 0
                }
            ),
            "{e:?}"
        );
        let e = init_error(0, DriverError(CUresult::CUDA_ERROR_STUB_LIBRARY));
        assert!(
            matches!(&e, GpuError::NoDriver { reason } if reason.contains("stub")),
            "{e:?}"
        );
        let e = init_error(0, DriverError(CUresult::CUDA_ERROR_UNKNOWN));
        assert!(
            matches!(e, GpuError::Driver { call: "cuInit", .. }),
            "{e:?}"
        );
    }

    #[test]
    fn missing_library_reason_names_the_soname() {
        let reason = missing_library_reason();
        if cfg!(target_os = "linux") {
            assert!(
                reason.starts_with("libcuda.so.1 could not be loaded"),
                "{reason}"
            );
        }
        assert!(reason.contains("other names"), "{reason}");
    }
}
