//! [`RuntimeError`]: what can go wrong choosing a backend or running on it.

use crate::GpuError;
use crate::cpu::CpuError;
use crate::gpu_runtime::GpuRunError;
use gtap_device::runtime::RunError;

use super::select::BACKEND_ENV;

/// An error of a [`Runtime`](super::Runtime): choosing its backend, or a run on it.
#[derive(Debug, thiserror::Error)]
pub enum RuntimeError {
    /// The GPU backend was required but there is no GPU here.
    #[error(
        "the GPU backend is required ({required_by}), but there is no GPU here: {source}. To \
         run on the CPU backend instead, unset GTAP_REQUIRE_GPU, or set {BACKEND_ENV}=cpu, or \
         leave the choice to BackendChoice::Auto"
    )]
    NoGpu {
        /// Who required it: `GTAP_REQUIRE_GPU`, `GTAP_BACKEND=gpu` or the program.
        required_by: &'static str,
        /// Why there is no GPU (no driver, no device).
        source: GpuError,
    },

    /// There is a GPU, but it could not be opened: the set-up is broken, and the runtime
    /// does not hide that by running on the CPU instead.
    #[error(
        "a GPU is here but could not be used: {0}\n(set {BACKEND_ENV}=cpu to run on the CPU \
         backend meanwhile)"
    )]
    OpenGpu(#[source] GpuError),

    /// `GTAP_BACKEND` has a value that is not a backend.
    #[error("{BACKEND_ENV}={value:?} is not understood: use gpu, cpu or auto (or leave it unset)")]
    BadBackendEnv {
        /// Its value.
        value: String,
    },

    /// An error of the GPU backend: starting it (loading the PTX, the configuration) or a run.
    #[error(transparent)]
    Gpu(#[from] GpuRunError),

    /// An error of the CPU backend: starting it (the configuration, memory) or a run.
    #[error(transparent)]
    Cpu(#[from] CpuError),
}

impl RuntimeError {
    /// The run-time error both backends report alike (a limit hit, a timeout, a block
    /// task's divergent taskwait), if this is one.
    /// Also inside the error of a batch's failing root.
    pub fn run_error(&self) -> Option<&RunError> {
        fn gpu(e: &GpuRunError) -> Option<&RunError> {
            match e {
                GpuRunError::Run(e) => Some(e),
                GpuRunError::InRoot { source, .. } => gpu(source),
                _ => None,
            }
        }
        fn cpu(e: &CpuError) -> Option<&RunError> {
            match e {
                CpuError::Run(e) => Some(e),
                CpuError::InRoot { source, .. } => cpu(source),
                _ => None,
            }
        }
        match self {
            RuntimeError::Gpu(e) => gpu(e),
            RuntimeError::Cpu(e) => cpu(e),
            _ => None,
        }
    }

    /// The root of a batch ([`Runtime::run_batch`](super::Runtime::run_batch)) whose task
    /// failed the run, when a spawn failed it.
    pub fn failed_root(&self) -> Option<usize> {
        match self {
            RuntimeError::Gpu(GpuRunError::InRoot { root, .. })
            | RuntimeError::Cpu(CpuError::InRoot { root, .. }) => Some(*root),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[test]
    fn the_common_run_error_is_reached_from_either_backend() {
        let timed_out = RunError::TimedOut {
            after: Duration::from_millis(5),
        };
        let cpu = RuntimeError::Cpu(CpuError::Run(timed_out));
        let gpu = RuntimeError::Gpu(GpuRunError::Run(timed_out));
        assert_eq!(cpu.run_error(), Some(&timed_out));
        assert_eq!(gpu.run_error(), Some(&timed_out));
        assert_eq!(cpu.to_string(), gpu.to_string());
        assert!(
            RuntimeError::BadBackendEnv { value: "x".into() }
                .run_error()
                .is_none()
        );
    }

    #[test]
    fn a_required_gpu_says_who_required_it_and_how_to_run_anyway() {
        let e = RuntimeError::NoGpu {
            required_by: "GTAP_REQUIRE_GPU",
            source: GpuError::NoDriver {
                reason: "libcuda.so.1 not found".into(),
            },
        };
        let msg = e.to_string();
        assert!(msg.contains("required (GTAP_REQUIRE_GPU)"), "{msg}");
        assert!(msg.contains("GTAP_BACKEND=cpu"), "{msg}");
    }
}
