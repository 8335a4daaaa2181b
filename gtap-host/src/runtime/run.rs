//! [`Runtime`] and [`RuntimeBuilder`]: starting the chosen backend and running on it.

use std::fmt;
use std::time::Instant;

use gtap_device::task::{Call, Program};

use crate::Gpu;
use crate::cpu::{CpuConfig, CpuRuntime};
use crate::gpu_runtime::{GpuConfig, GpuRuntime};

use super::select::{Decision, decide};
use super::{BACKEND_ENV, Backend, BackendChoice, Reason, RuntimeError, Selection, Stats};

/// Runs task programs on the GPU when there is one, and on the CPU backend otherwise; see
/// the [module docs](super) for how it chooses. Reusable: each backend keeps its memory
/// between runs.
pub struct Runtime {
    inner: Inner,
    selection: Selection,
}

/// The backend inside a [`Runtime`].
enum Inner {
    /// Boxed: a GPU runtime is much larger than a CPU one.
    Gpu(Box<GpuRuntime>),
    Cpu(CpuRuntime),
}

/// Settings of a [`Runtime`]: where it may run and each backend's configuration (only the
/// chosen backend's is used).
#[derive(Clone, Debug, Default)]
pub struct RuntimeBuilder {
    choice: BackendChoice,
    gpu: GpuConfig,
    cpu: CpuConfig,
}

impl RuntimeBuilder {
    /// Where to run (default [`BackendChoice::Auto`]: the GPU when there is one).
    pub fn backend(mut self, choice: BackendChoice) -> Self {
        self.choice = choice;
        self
    }

    /// The GPU backend's settings, if it is chosen (default [`GpuConfig::new`]).
    pub fn gpu_config(mut self, config: GpuConfig) -> Self {
        self.gpu = config;
        self
    }

    /// The CPU backend's settings, if it is chosen (default [`CpuConfig::new`]).
    pub fn cpu_config(mut self, config: CpuConfig) -> Self {
        self.cpu = config;
        self
    }

    /// Chooses the backend and starts it. `ptx` is the crate's PTX
    /// (`gtap::include_ptx!()`), which the GPU backend loads; the CPU backend does not need
    /// it.
    pub fn build(self, ptx: &str) -> Result<Runtime, RuntimeError> {
        let env = std::env::var(BACKEND_ENV).ok();
        match decide(self.choice, env.as_deref(), crate::require_gpu(), || {
            Gpu::new(0)
        })? {
            Decision::Gpu(gpu, reason) => {
                let device = gpu.props().to_string();
                let rt = GpuRuntime::new(gpu, ptx, self.gpu)?;
                Ok(Runtime {
                    inner: Inner::Gpu(Box::new(rt)),
                    selection: Selection {
                        backend: Backend::Gpu,
                        device,
                        reason,
                    },
                })
            }
            Decision::Cpu(reason) => Runtime::start_cpu(self.cpu, reason),
        }
    }
}

impl Runtime {
    /// The GPU when there is one, otherwise the CPU backend, both with their default
    /// settings. `ptx` is the crate's PTX: `gtap::include_ptx!()` in a crate whose `build.rs`
    /// runs the builder.
    pub fn new(ptx: &str) -> Result<Runtime, RuntimeError> {
        RuntimeBuilder::default().build(ptx)
    }

    /// Settings: the backend choice and each backend's configuration.
    pub fn builder() -> RuntimeBuilder {
        RuntimeBuilder::default()
    }

    /// The CPU backend with `config`, whatever the machine has (no PTX needed).
    pub fn cpu(config: CpuConfig) -> Result<Runtime, RuntimeError> {
        Runtime::start_cpu(config, Reason::Chosen)
    }

    fn start_cpu(config: CpuConfig, reason: Reason) -> Result<Runtime, RuntimeError> {
        let rt = CpuRuntime::new(config)?;
        let threads = rt.config().workers().threads();
        Ok(Runtime {
            inner: Inner::Cpu(rt),
            selection: Selection {
                backend: Backend::Cpu,
                device: format!(
                    "CPU backend, {threads} worker thread{}",
                    if threads == 1 { "" } else { "s" }
                ),
                reason,
            },
        })
    }

    /// Where it runs.
    pub fn backend(&self) -> Backend {
        self.selection.backend
    }

    /// Where it runs, on what and why; prints as one line.
    pub fn selection(&self) -> &Selection {
        &self.selection
    }

    /// Runs `root` (a call of a task, e.g. `fib::fib(30)`) to completion and returns its
    /// result with the run's statistics. On an error (a limit hit, a task panic, the
    /// timeout) the error says which setting to change; the runtime stays usable, except
    /// after the GPU errors that leave CUDA unusable in the process (a trap, a fault).
    pub fn run<'g, P: Program, R: Copy + Send + 'static>(
        &mut self,
        root: Call<'g, P, R>,
    ) -> Result<(R, Stats), RuntimeError> {
        let start = Instant::now();
        match &mut self.inner {
            Inner::Gpu(rt) => {
                let (value, stats) = rt.run(root)?;
                Ok((value, Stats::from_gpu(stats, start.elapsed())))
            }
            Inner::Cpu(rt) => {
                let (value, stats) = rt.run(root)?;
                Ok((value, Stats::from_cpu(stats, start.elapsed())))
            }
        }
    }

    /// Runs every root of `roots` (independent task trees: one per query, input or item) in
    /// one run, one launch on the GPU, and returns their results in order, with the statistics
    /// of the whole run. A failure ends the whole run; a failing spawn's error names its root
    /// (`GpuRunError::InRoot`, `CpuError::InRoot`). See `GpuRuntime::run_batch` for the limits
    /// of one launch.
    ///
    /// ```ignore
    /// let (values, stats) = rt.run_batch((0..10_000).map(|i| fib::fib(10 + i % 10)))?;
    /// ```
    pub fn run_batch<'g, P: Program, R: Copy + Send + 'static>(
        &mut self,
        roots: impl IntoIterator<Item = Call<'g, P, R>>,
    ) -> Result<(Vec<R>, Stats), RuntimeError> {
        let start = Instant::now();
        match &mut self.inner {
            Inner::Gpu(rt) => {
                let (values, stats) = rt.run_batch(roots)?;
                Ok((values, Stats::from_gpu(stats, start.elapsed())))
            }
            Inner::Cpu(rt) => {
                let (values, stats) = rt.run_batch(roots)?;
                Ok((values, Stats::from_cpu(stats, start.elapsed())))
            }
        }
    }

    /// The GPU backend, when it runs on the GPU.
    pub fn as_gpu(&self) -> Option<&GpuRuntime> {
        match &self.inner {
            Inner::Gpu(rt) => Some(rt),
            Inner::Cpu(_) => None,
        }
    }

    /// The GPU backend, when it runs on the GPU, e.g. to change its configuration.
    pub fn as_gpu_mut(&mut self) -> Option<&mut GpuRuntime> {
        match &mut self.inner {
            Inner::Gpu(rt) => Some(rt),
            Inner::Cpu(_) => None,
        }
    }

    /// The CPU backend, when it runs on the CPU.
    pub fn as_cpu(&self) -> Option<&CpuRuntime> {
        match &self.inner {
            Inner::Cpu(rt) => Some(rt),
            Inner::Gpu(_) => None,
        }
    }

    /// The CPU backend, when it runs on the CPU, e.g. to change its configuration.
    pub fn as_cpu_mut(&mut self) -> Option<&mut CpuRuntime> {
        match &mut self.inner {
            Inner::Cpu(rt) => Some(rt),
            Inner::Gpu(_) => None,
        }
    }
}

impl fmt::Debug for Runtime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Runtime")
            .field("selection", &self.selection)
            .finish_non_exhaustive()
    }
}
