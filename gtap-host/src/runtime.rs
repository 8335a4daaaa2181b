//! [`Runtime`]: one type that runs a task program on the GPU when there is one and on the
//! CPU backend otherwise, says which and why, and reports one [`Stats`] type.
//!
//! ```ignore
//! let mut rt = gtap::Runtime::new(gtap::include_ptx!())?;
//! println!("running on {}", rt.selection());
//! let (value, stats) = rt.run(fib::fib(30))?;
//! println!("fib(30) = {value}: {stats}");
//! ```
//!
//! It wraps the two backends, which stay usable on their own
//! ([`GpuRuntime`](crate::gpu_runtime::GpuRuntime) and [`CpuRuntime`](crate::cpu::CpuRuntime),
//! for what only one of them has: profiles, ablation schedulers, a register cap, a
//! per-run configuration change). [`Runtime::as_gpu`] and [`Runtime::as_cpu`] reach the
//! backend inside.
//!
//! # Choosing the backend
//! [`RuntimeBuilder::backend`] (default [`BackendChoice::Auto`]), or without changing code
//! the environment: `GTAP_BACKEND=cpu` (or `gpu`, `auto`) decides where the code left it to
//! `Auto`, and `GTAP_REQUIRE_GPU=1` makes a missing GPU an error instead of a reason to run
//! on the CPU (as it does for gtap's GPU tests and examples).
//!
//! | `Auto` and... | runs on |
//! |---|---|
//! | a GPU that opens | the GPU |
//! | no driver or no GPU | the CPU backend, [`Reason::NoGpu`] saying why; an error under `GTAP_REQUIRE_GPU=1` |
//! | a GPU that fails to open, or PTX that fails to load | nothing: an error (a broken GPU set-up is never hidden by running elsewhere) |
//!
//! | file | what |
//! |---|---|
//! | `runtime/select.rs` | [`BackendChoice`], [`Backend`], [`Reason`], [`Selection`]: the decision, apart from opening the GPU |
//! | `runtime/stats.rs` | [`Stats`] and [`BackendStats`]: the common counters and each backend's own |
//! | `runtime/error.rs` | [`RuntimeError`] |
//! | `runtime/run.rs` | [`Runtime`] and [`RuntimeBuilder`] |
//! | `runtime/resident.rs` | [`Resident`]: a resident session on either backend ([`Runtime::resident`]) |

mod error;
mod resident;
mod run;
mod select;
mod stats;

pub use error::RuntimeError;
pub use resident::Resident;
pub use run::{Runtime, RuntimeBuilder};
pub use select::{BACKEND_ENV, Backend, BackendChoice, Reason, Selection};
pub use stats::{BackendStats, Stats};
