//! What can go wrong between "find a GPU" and "the kernel finished", each with what to do.
//!
//! One enum, [`GpuError`], with one variant per thing a caller might handle differently: no GPU
//! at all (skip), a PTX problem (rebuild), a kernel fault (the context is gone), or any other
//! driver call that failed.
//!
//! # Formatting never calls the driver
//! cudarc's `Display` for [`DriverError`] asks the driver for its error string, and with dynamic
//! loading that panics when `libcuda` is absent. The messages here name the code through its
//! `CUresult` variant name instead (see [`code_name`]), so a `GpuError` can be printed on any
//! machine; the driver's own string stays reachable through [`std::error::Error::source`].

use cudarc::driver::{DriverError, sys::CUresult};

/// An error from finding a GPU, loading PTX, launching a kernel or waiting for one.
///
/// Every message says what happened and what to do about it. [`GpuError::is_no_gpu`] tells the
/// "this machine has no usable GPU" cases apart, which tests turn into a skip.
#[derive(Debug, thiserror::Error)]
pub enum GpuError {
    /// The CUDA driver library could not be loaded or is not a working driver.
    #[error(
        "no CUDA driver found ({reason}); gtap needs an NVIDIA GPU and its driver: install the \
         driver, or if it is installed add the folder holding libcuda.so.1 to LD_LIBRARY_PATH"
    )]
    NoDriver {
        /// What was found instead: the library names tried, or the code `cuInit` returned.
        reason: String,
    },

    /// The driver works but has no GPU with the requested ordinal.
    #[error("{}", no_device_message(*ordinal, *count))]
    NoDevice {
        /// The ordinal that was asked for.
        ordinal: usize,
        /// How many GPUs the driver reports (0 when it reports none at all).
        count: usize,
    },

    /// The driver's JIT compiler rejected the PTX; `log` holds its messages.
    #[error(
        "the CUDA driver could not compile the PTX (target {ptx_target}) for this GPU: {}; {}\n\
         JIT log:\n{}",
        code_name(source),
        jit_hint(source.0),
        if log.trim().is_empty() { "(empty)" } else { log.trim_end() }
    )]
    Jit {
        /// The `.target` of the PTX, or `unknown` when it has none.
        ptx_target: String,
        /// The JIT compiler's error log, then its info log (verbose), as text.
        log: String,
        /// The code `cuModuleLoadData` returned.
        source: DriverError,
    },

    /// The PTX was built for a newer GPU than this one; found before asking the driver.
    #[error(
        "the PTX targets {ptx_target}, but this GPU is {device}: the driver cannot run PTX built \
         for a newer GPU. Rebuild the device crate for this GPU with GTAP_CUDA_ARCH={device} \
         (or leave GTAP_CUDA_ARCH unset: the default, sm_70, runs on every GPU from Volta on)"
    )]
    PtxTooNew {
        /// The PTX's `.target`, e.g. `sm_90`.
        ptx_target: String,
        /// The GPU's architecture, e.g. `sm_80`.
        device: String,
    },

    /// The module has no kernel of that name.
    #[error(
        "the PTX has no kernel named `{name}`; its kernels are: {}. A kernel must be \
         `#[unsafe(no_mangle)] pub unsafe extern \"ptx-kernel\" fn` so that its name survives; \
         names are case-sensitive",
        list_or_none(available)
    )]
    KernelNotFound {
        /// The name that was asked for.
        name: String,
        /// The `.entry` names of the module.
        available: Vec<String>,
    },

    /// The driver refused to launch the kernel; nothing ran.
    #[error("could not launch kernel `{kernel}`: {}; {}", code_name(source), launch_hint(source.0))]
    Launch {
        /// The kernel's name.
        kernel: String,
        /// The code the launch returned.
        source: DriverError,
    },

    /// The kernel executed `trap` (a Rust panic on the GPU aborts this way).
    ///
    /// The driver reports `trap` as `CUDA_ERROR_LAUNCH_FAILED` (the GPU suite's fault tests
    /// check it), a code it also gives the rare exception that has no code of its own; an
    /// illegal instruction (`CUDA_ERROR_ILLEGAL_INSTRUCTION`) maps here too.
    #[error(
        "kernel `{kernel}` trapped (CUDA_ERROR_LAUNCH_FAILED or CUDA_ERROR_ILLEGAL_INSTRUCTION): \
         device code panicked, failed an assertion or hit an unreachable path (rarely: another \
         device exception). {STICKY}; to find the place, run the program under \
         `compute-sanitizer`"
    )]
    Trap {
        /// The kernel's name (as given to [`Gpu::sync`](crate::Gpu::sync)).
        kernel: String,
    },

    /// The kernel read or wrote memory that is not mapped for it.
    #[error(
        "kernel `{kernel}` accessed an invalid address (CUDA_ERROR_ILLEGAL_ADDRESS): a pointer \
         argument is wrong, an index is out of bounds, memory was freed while in use, or a thread's \
         call stack overflowed (in a gtap program: a spawn that the granularity policy ran \
         inline recurses as deep as the child's subtree, so a recursion with no depth bound, \
         such as a graph walk, must spawn with `spawn!(task, ..)`; or raise \
         `GpuConfig::stack_bytes`). {STICKY}; to find the access, run the program under \
         `compute-sanitizer`"
    )]
    IllegalAddress {
        /// The kernel's name (as given to [`Gpu::sync`](crate::Gpu::sync)).
        kernel: String,
    },

    /// Another kernel fault: timeout, misaligned access, stack overflow, ...
    #[error("kernel `{kernel}` failed: {what} ({code:?}). {STICKY}; {advice}")]
    KernelFault {
        /// The kernel's name (as given to [`Gpu::sync`](crate::Gpu::sync)).
        kernel: String,
        /// The driver's code.
        code: CUresult,
        /// What the code means.
        what: &'static str,
        /// What to do about it.
        advice: &'static str,
    },

    /// A driver call that waits for every kernel on the GPU (loading or unloading PTX,
    /// freeing page-locked memory, raising the stack limit) was not made, because a kernel
    /// of this process that runs until told to stop stayed running for as long as the call
    /// could wait: made beside it, the call would wait for it inside the driver, holding the
    /// driver's lock, and hang the process (see `gate.rs`).
    #[error(
        "{call} waits until every kernel on the GPU has ended, and {open} kernel(s) of this \
         process that run until told to stop were still running after {waited:?}: an open \
         resident session, or the kernel of a run that ended Stuck or NotStarted. Shut the \
         session down first (from another thread, or before this call), or make runtimes \
         and load PTX before opening sessions; after a stuck run, start a new process"
    )]
    SessionOpen {
        /// The driver call that was not made.
        call: &'static str,
        /// How long it waited for them to end.
        waited: std::time::Duration,
        /// How many were open.
        open: usize,
    },

    /// Any other driver call failed.
    #[error("CUDA driver call {call} failed: {}{}", code_name(source), driver_hint(source.0))]
    Driver {
        /// The driver call (or cudarc method) that failed.
        call: &'static str,
        /// Its code.
        source: DriverError,
    },
}

/// Appended to every kernel fault.
///
/// Dropping the context does not help: after a fault in one context, creating a fresh one
/// (primary or not) in the same process fails with the same code, as NVIDIA's documentation
/// of these codes says (the GPU suite's fault tests check it).
const STICKY: &str = "The CUDA context is now unusable (a sticky error): every later CUDA call \
                      in this process fails with the same code, in new contexts too, so end the \
                      process and start a new one";

impl GpuError {
    /// Whether this error means "this machine has no usable GPU": [`GpuError::NoDriver`] or
    /// [`GpuError::NoDevice`]. Tests skip on these (see [`Gpu::for_tests`](crate::Gpu::for_tests)).
    pub fn is_no_gpu(&self) -> bool {
        matches!(self, GpuError::NoDriver { .. } | GpuError::NoDevice { .. })
    }

    /// Whether CUDA is unusable in this process after this error: a kernel fault, or a call
    /// that failed because of an earlier one (see [`Gpu::sync`](crate::Gpu::sync)).
    pub fn is_sticky(&self) -> bool {
        match self {
            GpuError::Trap { .. }
            | GpuError::IllegalAddress { .. }
            | GpuError::KernelFault { .. } => true,
            GpuError::Driver { source, .. } | GpuError::Launch { source, .. } => {
                is_fault_code(source.0)
            }
            _ => false,
        }
    }

    /// Maps an error reported after kernel `kernel` ran (by a synchronize, or by any later call
    /// that picked up its fault) to [`Trap`](GpuError::Trap),
    /// [`IllegalAddress`](GpuError::IllegalAddress) or [`KernelFault`](GpuError::KernelFault);
    /// a code that is no kernel fault becomes [`Driver`](GpuError::Driver) with `call`.
    pub fn after_kernel(kernel: &str, call: &'static str, source: DriverError) -> GpuError {
        let kernel = kernel.to_owned();
        match source.0 {
            CUresult::CUDA_ERROR_LAUNCH_FAILED | CUresult::CUDA_ERROR_ILLEGAL_INSTRUCTION => {
                GpuError::Trap { kernel }
            }
            CUresult::CUDA_ERROR_ILLEGAL_ADDRESS => GpuError::IllegalAddress { kernel },
            code => match fault_description(code) {
                Some((what, advice)) => GpuError::KernelFault {
                    kernel,
                    code,
                    what,
                    advice,
                },
                None => GpuError::Driver { call, source },
            },
        }
    }

    /// Maps the error of a kernel launch: a sticky fault left by an earlier kernel maps as in
    /// [`GpuError::after_kernel`] (naming `kernel`, the launch that noticed it), anything else
    /// becomes [`Launch`](GpuError::Launch).
    ///
    /// ```no_run
    /// # use gtap_host::{Gpu, GpuError, cudarc::driver::LaunchConfig};
    /// # fn f(gpu: &Gpu, kernel: &gtap_host::Kernel) -> Result<(), GpuError> {
    /// let mut launch = gpu.stream().launch_builder(kernel.function());
    /// // SAFETY: the kernel takes no parameters and touches no memory.
    /// unsafe { launch.launch(LaunchConfig::for_num_elems(1)) }
    ///     .map_err(|e| GpuError::launch(kernel.name(), e))?;
    /// # Ok(()) }
    /// ```
    pub fn launch(kernel: &str, source: DriverError) -> GpuError {
        if is_fault_code(source.0) {
            GpuError::after_kernel(kernel, "cuLaunchKernel", source)
        } else {
            GpuError::Launch {
                kernel: kernel.to_owned(),
                source,
            }
        }
    }
}

/// The name of a driver code, e.g. `CUDA_ERROR_INVALID_PTX (218)`, without calling the driver.
pub(crate) fn code_name(err: &DriverError) -> String {
    format!("{:?} ({})", err.0, err.0 as u32)
}

/// Whether `code` reports a kernel fault (a sticky error).
fn is_fault_code(code: CUresult) -> bool {
    matches!(
        code,
        CUresult::CUDA_ERROR_LAUNCH_FAILED
            | CUresult::CUDA_ERROR_ILLEGAL_INSTRUCTION
            | CUresult::CUDA_ERROR_ILLEGAL_ADDRESS
    ) || fault_description(code).is_some()
}

/// Appended to [`GpuError::Driver`]'s message for a code that needs explaining.
fn driver_hint(code: CUresult) -> &'static str {
    if is_fault_code(code) {
        "; an earlier kernel fault left CUDA unusable in this process (a sticky error): end \
         the process and start a new one"
    } else {
        ""
    }
}

/// What a fault code other than trap and illegal address means and what to do.
/// `None` for codes that are no kernel fault.
fn fault_description(code: CUresult) -> Option<(&'static str, &'static str)> {
    Some(match code {
        CUresult::CUDA_ERROR_LAUNCH_TIMEOUT => (
            "it ran longer than the display watchdog allows",
            "run on a GPU that drives no display, or make the kernel finish sooner; a \
             persistent kernel that never stops also ends this way (check its exit condition)",
        ),
        CUresult::CUDA_ERROR_MISALIGNED_ADDRESS => (
            "it accessed memory at an address not aligned to the access size",
            "check pointer casts and the alignment of device buffers and structs; \
             `compute-sanitizer` names the access",
        ),
        CUresult::CUDA_ERROR_HARDWARE_STACK_ERROR => (
            "a thread's call stack overflowed or was corrupted",
            "avoid deep or unbounded recursion, or raise the stack size with \
             CudaContext::set_limit(CU_LIMIT_STACK_SIZE, ...)",
        ),
        CUresult::CUDA_ERROR_INVALID_ADDRESS_SPACE => (
            "an instruction used an address outside its state space (e.g. a generic pointer \
             to local memory used as global)",
            "check the address-space conversions (`cvta`) in inline PTX",
        ),
        CUresult::CUDA_ERROR_INVALID_PC => (
            "the program counter left the code (a corrupted function pointer or return address)",
            "check indirect calls and stack writes; `compute-sanitizer` may name the place",
        ),
        CUresult::CUDA_ERROR_ASSERT => (
            "a device-side assertion failed",
            "the assertion's message, if any, was printed by the driver",
        ),
        _ => return None,
    })
}

/// What to do about a JIT failure, by code.
fn jit_hint(code: CUresult) -> &'static str {
    match code {
        CUresult::CUDA_ERROR_UNSUPPORTED_PTX_VERSION => {
            "the PTX ISA version is newer than this driver understands: update the NVIDIA driver, \
             or build the device crate with an older PTX version"
        }
        CUresult::CUDA_ERROR_NO_BINARY_FOR_GPU | CUresult::CUDA_ERROR_INVALID_IMAGE => {
            "the PTX does not fit this GPU: rebuild with GTAP_CUDA_ARCH set to this GPU's sm_XX \
             (architecture-specific targets like sm_90a run only on exactly that GPU)"
        }
        CUresult::CUDA_ERROR_JIT_COMPILER_NOT_FOUND => {
            "the driver's PTX JIT compiler is missing (libnvidia-ptxjitcompiler.so): reinstall \
             the NVIDIA driver"
        }
        _ => {
            "the log below says which line failed; if the PTX came from gtap-builder, please \
             report it with the PTX attached"
        }
    }
}

/// What to do about a launch the driver refused, by code.
fn launch_hint(code: CUresult) -> &'static str {
    match code {
        CUresult::CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES => {
            "the kernel needs more registers or shared memory per block than the GPU has: use \
             fewer threads per block"
        }
        CUresult::CUDA_ERROR_INVALID_VALUE => {
            "the launch configuration or arguments are invalid: check grid and block sizes \
             against DeviceProps (max_threads_per_block) and the shared memory size against \
             shared_mem_per_block"
        }
        CUresult::CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE => {
            "a cooperative launch asked for more blocks than fit on the GPU at once: use at most \
             sm_count x blocks-per-SM (occupancy) blocks"
        }
        CUresult::CUDA_ERROR_INVALID_HANDLE | CUresult::CUDA_ERROR_INVALID_CONTEXT => {
            "the kernel belongs to another context: load the module on the Gpu that launches it"
        }
        _ => "nothing ran; check the kernel's parameters against its signature",
    }
}

fn no_device_message(ordinal: usize, count: usize) -> String {
    if count == 0 {
        "the CUDA driver is installed but reports no GPU (cuInit: CUDA_ERROR_NO_DEVICE); check \
         `nvidia-smi` and that CUDA_VISIBLE_DEVICES does not hide every GPU"
            .to_owned()
    } else {
        let plural = if count == 1 { "" } else { "s" };
        format!(
            "there is no GPU {ordinal}: the CUDA driver sees {count} GPU{plural}, numbered 0 to {}; \
             pick one of those (CUDA_VISIBLE_DEVICES changes which GPUs are seen and renumbers them)",
            count - 1
        )
    }
}

fn list_or_none(names: &[String]) -> String {
    if names.is_empty() {
        "none (the PTX has no `.entry`)".to_owned()
    } else {
        names
            .iter()
            .map(|n| format!("`{n}`"))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(code: CUresult) -> DriverError {
        DriverError(code)
    }

    #[test]
    fn trap_and_illegal_address_get_their_own_variants() {
        // `trap` comes back as LAUNCH_FAILED (the GPU fault tests see it so).
        for code in [
            CUresult::CUDA_ERROR_LAUNCH_FAILED,
            CUresult::CUDA_ERROR_ILLEGAL_INSTRUCTION,
        ] {
            let e = GpuError::after_kernel("k", "cuStreamSynchronize", err(code));
            assert!(
                matches!(&e, GpuError::Trap { kernel } if kernel == "k"),
                "{code:?} -> {e:?}"
            );
        }
        let e = GpuError::after_kernel(
            "k",
            "cuStreamSynchronize",
            err(CUresult::CUDA_ERROR_ILLEGAL_ADDRESS),
        );
        assert!(
            matches!(&e, GpuError::IllegalAddress { kernel } if kernel == "k"),
            "{e:?}"
        );
    }

    #[test]
    fn other_sticky_codes_are_kernel_faults() {
        for code in [
            CUresult::CUDA_ERROR_LAUNCH_TIMEOUT,
            CUresult::CUDA_ERROR_MISALIGNED_ADDRESS,
            CUresult::CUDA_ERROR_HARDWARE_STACK_ERROR,
            CUresult::CUDA_ERROR_INVALID_ADDRESS_SPACE,
            CUresult::CUDA_ERROR_INVALID_PC,
            CUresult::CUDA_ERROR_ASSERT,
        ] {
            let e = GpuError::after_kernel("k", "cuStreamSynchronize", err(code));
            assert!(
                matches!(&e, GpuError::KernelFault { kernel, code: c, .. } if kernel == "k" && *c == code),
                "{code:?} -> {e:?}"
            );
            assert!(e.is_sticky());
        }
    }

    #[test]
    fn non_fault_codes_stay_driver_errors() {
        let e = GpuError::after_kernel(
            "k",
            "cuStreamSynchronize",
            err(CUresult::CUDA_ERROR_INVALID_VALUE),
        );
        assert!(
            matches!(&e, GpuError::Driver { call: "cuStreamSynchronize", source } if source.0 == CUresult::CUDA_ERROR_INVALID_VALUE),
            "{e:?}"
        );
        assert!(!e.is_sticky());
    }

    #[test]
    fn a_call_failing_after_a_fault_says_to_restart() {
        let e = GpuError::Driver {
            call: "cuDevicePrimaryCtxRetain",
            source: err(CUresult::CUDA_ERROR_ILLEGAL_ADDRESS),
        };
        assert!(e.is_sticky());
        let msg = e.to_string();
        assert!(
            msg.contains("earlier kernel fault") && msg.contains("end the process"),
            "{msg}"
        );
        let e = GpuError::Launch {
            kernel: "k".into(),
            source: err(CUresult::CUDA_ERROR_INVALID_VALUE),
        };
        assert!(!e.is_sticky());
    }

    #[test]
    fn launch_errors_are_launch_unless_an_earlier_kernel_faulted() {
        let e = GpuError::launch("k", err(CUresult::CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES));
        assert!(
            matches!(&e, GpuError::Launch { kernel, .. } if kernel == "k"),
            "{e:?}"
        );
        assert!(e.to_string().contains("fewer threads per block"), "{e}");
        let e = GpuError::launch("k", err(CUresult::CUDA_ERROR_ILLEGAL_ADDRESS));
        assert!(matches!(e, GpuError::IllegalAddress { .. }), "{e:?}");
        let e = GpuError::launch("k", err(CUresult::CUDA_ERROR_MISALIGNED_ADDRESS));
        assert!(matches!(e, GpuError::KernelFault { .. }), "{e:?}");
    }

    #[test]
    fn sticky_messages_say_the_context_is_gone() {
        for code in [
            CUresult::CUDA_ERROR_ILLEGAL_INSTRUCTION,
            CUresult::CUDA_ERROR_ILLEGAL_ADDRESS,
            CUresult::CUDA_ERROR_LAUNCH_TIMEOUT,
        ] {
            // Formatting must not call the driver: this runs on machines without one.
            let msg = GpuError::after_kernel("walk", "cuStreamSynchronize", err(code)).to_string();
            assert!(msg.contains("`walk`"), "{msg}");
            assert!(msg.contains("unusable"), "{msg}");
            assert!(msg.contains("end the process"), "{msg}");
            assert!(msg.contains("sticky"), "{msg}");
        }
    }

    #[test]
    fn only_no_driver_and_no_device_are_no_gpu() {
        assert!(GpuError::NoDriver { reason: "x".into() }.is_no_gpu());
        assert!(
            GpuError::NoDevice {
                ordinal: 0,
                count: 0
            }
            .is_no_gpu()
        );
        assert!(!GpuError::Trap { kernel: "k".into() }.is_no_gpu());
        assert!(
            !GpuError::Driver {
                call: "cuInit",
                source: err(CUresult::CUDA_ERROR_UNKNOWN)
            }
            .is_no_gpu()
        );
    }

    #[test]
    fn messages_name_codes_without_the_driver() {
        let e = GpuError::Driver {
            call: "cuMemAlloc",
            source: err(CUresult::CUDA_ERROR_OUT_OF_MEMORY),
        };
        assert_eq!(
            e.to_string(),
            "CUDA driver call cuMemAlloc failed: CUDA_ERROR_OUT_OF_MEMORY (2)"
        );
    }

    #[test]
    fn no_device_message_gives_the_valid_range() {
        let msg = GpuError::NoDevice {
            ordinal: 3,
            count: 2,
        }
        .to_string();
        assert!(msg.contains("no GPU 3"), "{msg}");
        assert!(msg.contains("2 GPUs, numbered 0 to 1"), "{msg}");
        let msg = GpuError::NoDevice {
            ordinal: 0,
            count: 0,
        }
        .to_string();
        assert!(msg.contains("reports no GPU"), "{msg}");
    }

    #[test]
    fn kernel_not_found_lists_the_entries() {
        let e = GpuError::KernelNotFound {
            name: "ad".into(),
            available: vec!["add".into(), "mul".into()],
        };
        let msg = e.to_string();
        assert!(
            msg.contains("`ad`") && msg.contains("`add`, `mul`"),
            "{msg}"
        );
        let e = GpuError::KernelNotFound {
            name: "x".into(),
            available: vec![],
        };
        assert!(e.to_string().contains("no `.entry`"));
    }

    #[test]
    fn jit_message_carries_log_and_advice() {
        let e = GpuError::Jit {
            ptx_target: "sm_70".into(),
            log: "ptxas application ptx input, line 9; error   : Unknown symbol 'x'\n".into(),
            source: err(CUresult::CUDA_ERROR_INVALID_PTX),
        };
        let msg = e.to_string();
        assert!(msg.contains("CUDA_ERROR_INVALID_PTX (218)"), "{msg}");
        assert!(msg.contains("line 9; error"), "{msg}");
        let e = GpuError::Jit {
            ptx_target: "sm_70".into(),
            log: String::new(),
            source: err(CUresult::CUDA_ERROR_UNSUPPORTED_PTX_VERSION),
        };
        let msg = e.to_string();
        assert!(
            msg.contains("update the NVIDIA driver") && msg.contains("(empty)"),
            "{msg}"
        );
    }
}
