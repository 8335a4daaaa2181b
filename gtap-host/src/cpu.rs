//! The CPU backend: runs a task program on host threads with work stealing.
//!
//! The same program that runs on the GPU runs here, on `threads` worker threads. Each worker
//! has its own deque, steals from random victims when it runs dry, and follows the GPU
//! runtime's protocols for task records, join counters and termination. Those protocols are
//! the shared, `no_std` code in `gtap_device::runtime`. Only the worker loop is specific to
//! the CPU.
//!
//! ```ignore
//! use gtap_host::cpu::{CpuConfig, CpuRuntime};
//!
//! #[gtap::program]
//! mod fib {
//!     #[gtap::task]
//!     pub fn fib(n: u32) -> u64 {
//!         if n < 2 { return n as u64; }
//!         let a = spawn!(fib(n - 1));
//!         let b = spawn!(fib(n - 2));
//!         taskwait!();
//!         a.get() + b.get()
//!     }
//! }
//!
//! fn main() -> Result<(), gtap_host::cpu::CpuError> {
//!     let mut rt = CpuRuntime::new(CpuConfig::new().threads(4))?;
//!     let (value, stats) = rt.run(fib::fib(30))?;
//!     assert_eq!(value, 832_040);
//!     println!("{} tasks in {:?}", stats.tasks_executed, stats.elapsed);
//!     Ok(())
//! }
//! ```
//!
//! | file | what |
//! |---|---|
//! | `cpu/capacity.rs` | the default number of task records, from the host's memory |
//! | `cpu/config.rs` | [`CpuConfig`]: its workers ([`CpuWorkers`]: threads, task records, team size), the shared [`Limits`], and their validation |
//! | `cpu/error.rs` | [`CpuError`]: which limit a run hit and the setter that raises it |
//! | `cpu/memory.rs` | the runtime's memory, allocated once and reused across runs |
//! | `cpu/runtime.rs` | [`CpuRuntime`], [`CpuStats`]: starting the workers, catching panics, the timeout |
//!
//! # Errors
//! A run stops at the first limit it hits and returns the matching [`CpuError`]:
//! - the task pool is exhausted;
//! - a worker's queue is full;
//! - a task spawned more than its program's `max_children` children between two taskwaits;
//! - `spawn!(into ..)` found its slots full;
//! - an EPAQ queue index is out of range;
//! - a task panicked;
//! - the run took longer than [`CpuConfig::timeout`].
//!
//! Every worker stops at its next task boundary, so a failing run neither hangs nor leaks
//! threads. The runtime stays usable: the next run starts from fresh state.
//!
//! # Tasks that never return
//! A host thread cannot be stopped inside a task body. When the timeout has passed and a
//! worker is still inside a task after a grace period, the run ends with
//! [`CpuError::Stuck`]: the caller gets control back, that worker thread is left running, and
//! the memory it uses (records, queues, the run's shared state) is leaked so that it stays
//! valid for it. This is why the workers are not scoped threads: `CpuRuntime::run` keeps
//! everything they borrow in heap allocations that it either frees after joining them or
//! leaks. The runtime then allocates fresh memory for its next run.
//!
//! A task panic is caught on its worker thread (`catch_unwind`). This needs the default
//! `panic = "unwind"`. With `panic = "abort"` a task panic aborts the process, as anywhere
//! else.

mod capacity;
mod config;
mod error;
mod memory;
mod runtime;

pub use crate::Limits;
pub use config::{CpuConfig, CpuWorkers};
pub use error::CpuError;
pub use gtap_device::runtime::cpu::WorkerStats;
pub use runtime::{CpuRuntime, CpuStats};
