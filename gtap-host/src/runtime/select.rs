//! Which backend a [`Runtime`](super::Runtime) runs on, and why: the decision as a function
//! of the program's choice, the environment and what opening the GPU gave.

use std::fmt;
use std::str::FromStr;

use crate::GpuError;

use super::RuntimeError;

/// The environment variable that chooses the backend where the program left it to
/// [`BackendChoice::Auto`]: `gpu`, `cpu` or `auto` (any case; empty is `auto`).
pub const BACKEND_ENV: &str = "GTAP_BACKEND";

/// Where a [`Runtime`](super::Runtime) should run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum BackendChoice {
    /// The GPU when there is one, the CPU backend otherwise (the default). `GTAP_BACKEND`
    /// may choose instead, and `GTAP_REQUIRE_GPU=1` makes a missing GPU an error.
    #[default]
    Auto,
    /// The GPU, or an error.
    Gpu,
    /// The CPU backend, even where there is a GPU.
    Cpu,
}

impl FromStr for BackendChoice {
    type Err = RuntimeError;

    /// `gpu`, `cpu` or `auto`, in any case; empty is `auto`.
    fn from_str(s: &str) -> Result<Self, RuntimeError> {
        match s.trim().to_ascii_lowercase().as_str() {
            "" | "auto" => Ok(BackendChoice::Auto),
            "gpu" => Ok(BackendChoice::Gpu),
            "cpu" => Ok(BackendChoice::Cpu),
            _ => Err(RuntimeError::BadBackendEnv {
                value: s.to_owned(),
            }),
        }
    }
}

/// The backend a runtime runs on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Backend {
    /// One GPU, through the persistent kernel.
    Gpu,
    /// Host threads with work stealing.
    Cpu,
}

impl fmt::Display for Backend {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Backend::Gpu => "GPU",
            Backend::Cpu => "CPU",
        })
    }
}

/// Why a runtime runs where it does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reason {
    /// The choice was [`BackendChoice::Auto`] and a GPU was found.
    GpuFound,
    /// The choice was [`BackendChoice::Auto`] and there is no GPU here: why (no driver, no
    /// device), as [`GpuError`] says it.
    NoGpu(String),
    /// The program chose the backend ([`RuntimeBuilder::backend`](super::RuntimeBuilder::backend),
    /// [`Runtime::cpu`](super::Runtime::cpu)).
    Chosen,
    /// `GTAP_BACKEND` chose it.
    Env,
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reason::GpuFound => f.write_str("a GPU was found"),
            Reason::NoGpu(why) => write!(f, "no GPU here: {why}"),
            Reason::Chosen => f.write_str("chosen by the program"),
            Reason::Env => write!(f, "chosen by {BACKEND_ENV}"),
        }
    }
}

/// Where a runtime runs, on what, and why: `rt.selection()` prints as, e.g.,
/// `GPU 0: NVIDIA H100 80GB HBM3 (sm_90, 132 SMs, ...) (a GPU was found)` or
/// `CPU backend, 16 worker threads (no GPU here: ...)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Selection {
    /// The backend.
    pub backend: Backend,
    /// What it runs on: the GPU's properties, or the CPU backend's workers.
    pub device: String,
    /// Why.
    pub reason: Reason,
}

impl fmt::Display for Selection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.device, self.reason)
    }
}

/// What to start, decided from the choice, the environment and the GPU.
#[derive(Debug)]
pub(super) enum Decision<G> {
    /// The GPU `G`, which opened.
    Gpu(G, Reason),
    /// The CPU backend.
    Cpu(Reason),
}

/// Decides where to run: `choice` is the program's, `env` the value of `GTAP_BACKEND` (if
/// set), `require_gpu` whether `GTAP_REQUIRE_GPU` is on; `open` opens the GPU and is called
/// only when the GPU may be used.
pub(super) fn decide<G>(
    choice: BackendChoice,
    env: Option<&str>,
    require_gpu: bool,
    open: impl FnOnce() -> Result<G, GpuError>,
) -> Result<Decision<G>, RuntimeError> {
    let (choice, reason) = match (choice, env) {
        (BackendChoice::Auto, Some(v)) => match v.parse()? {
            BackendChoice::Auto => (BackendChoice::Auto, None),
            chosen => (chosen, Some(Reason::Env)),
        },
        (BackendChoice::Auto, None) => (BackendChoice::Auto, None),
        (chosen, _) => (chosen, Some(Reason::Chosen)),
    };
    match choice {
        BackendChoice::Cpu => Ok(Decision::Cpu(reason.unwrap_or(Reason::Chosen))),
        BackendChoice::Gpu => match open() {
            Ok(gpu) => Ok(Decision::Gpu(gpu, reason.unwrap_or(Reason::Chosen))),
            Err(source) if source.is_no_gpu() => Err(RuntimeError::NoGpu {
                required_by: if reason == Some(Reason::Env) {
                    "GTAP_BACKEND=gpu"
                } else {
                    "the program (BackendChoice::Gpu)"
                },
                source,
            }),
            Err(source) => Err(RuntimeError::OpenGpu(source)),
        },
        BackendChoice::Auto => match open() {
            Ok(gpu) => Ok(Decision::Gpu(gpu, Reason::GpuFound)),
            Err(source) if source.is_no_gpu() && require_gpu => Err(RuntimeError::NoGpu {
                required_by: "GTAP_REQUIRE_GPU",
                source,
            }),
            Err(e) if e.is_no_gpu() => Ok(Decision::Cpu(Reason::NoGpu(e.to_string()))),
            Err(source) => Err(RuntimeError::OpenGpu(source)),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn no_driver() -> Result<u32, GpuError> {
        Err(GpuError::NoDriver {
            reason: "libcuda.so not found".into(),
        })
    }

    fn broken() -> Result<u32, GpuError> {
        Err(GpuError::PtxTooNew {
            ptx_target: "sm_90".into(),
            device: "sm_80".into(),
        })
    }

    fn never() -> Result<u32, GpuError> {
        panic!("the GPU must not be opened for a CPU choice")
    }

    #[test]
    fn auto_takes_the_gpu_when_it_opens_and_the_cpu_when_there_is_none() {
        assert!(matches!(
            decide(BackendChoice::Auto, None, false, || Ok(7u32)),
            Ok(Decision::Gpu(7, Reason::GpuFound))
        ));
        let d = decide(BackendChoice::Auto, None, false, no_driver).unwrap();
        assert!(
            matches!(&d, Decision::Cpu(Reason::NoGpu(why)) if why.contains("libcuda.so")),
            "{d:?}"
        );
    }

    #[test]
    fn require_gpu_makes_a_missing_gpu_an_error_under_auto_only() {
        let e = decide(BackendChoice::Auto, None, true, no_driver).unwrap_err();
        assert!(e.to_string().contains("GTAP_REQUIRE_GPU"), "{e}");
        assert!(matches!(
            decide(BackendChoice::Cpu, None, true, never),
            Ok(Decision::Cpu(Reason::Chosen))
        ));
    }

    #[test]
    fn a_broken_gpu_is_an_error_not_a_fallback() {
        assert!(matches!(
            decide(BackendChoice::Auto, None, false, broken),
            Err(RuntimeError::OpenGpu(_))
        ));
    }

    #[test]
    fn the_environment_decides_only_what_the_program_left_to_auto() {
        assert!(matches!(
            decide(BackendChoice::Auto, Some("CPU"), false, never),
            Ok(Decision::Cpu(Reason::Env))
        ));
        assert!(matches!(
            decide(BackendChoice::Auto, Some(" auto "), false, || Ok(1u32)),
            Ok(Decision::Gpu(1, Reason::GpuFound))
        ));
        assert!(matches!(
            decide(BackendChoice::Cpu, Some("gpu"), false, never),
            Ok(Decision::Cpu(Reason::Chosen))
        ));
        let e = decide(BackendChoice::Auto, Some("gpu"), false, no_driver).unwrap_err();
        assert!(e.to_string().contains("GTAP_BACKEND=gpu"), "{e}");
        let e = decide(BackendChoice::Auto, Some("tpu"), false, never).unwrap_err();
        assert!(e.to_string().contains("GTAP_BACKEND=\"tpu\""), "{e}");
    }

    #[test]
    fn a_selection_says_what_and_why() {
        let s = Selection {
            backend: Backend::Cpu,
            device: "CPU backend, 4 worker threads".into(),
            reason: Reason::NoGpu("no CUDA driver".into()),
        };
        assert_eq!(
            s.to_string(),
            "CPU backend, 4 worker threads (no GPU here: no CUDA driver)"
        );
    }
}
