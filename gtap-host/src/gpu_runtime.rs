//! The GPU runtime's host side: sizes and allocates the run's memory, puts the root task in
//! place, launches the program's persistent kernel (`gtap_<name>`), waits with a timeout,
//! and turns what the kernel left (result, statistics, first error) into Rust values.
//!
//! ```ignore
//! let gpu = gtap_host::Gpu::new(0)?;
//! let mut rt = GpuRuntime::new(gpu, gtap_host::include_ptx!("my_programs"), GpuConfig::new())?;
//! let (value, stats) = rt.run(fib::fib(40))?;
//! ```
//!
//! The device side is `gtap_device::runtime::gpu`; its module docs describe the rounds, the
//! deques and the memory ordering.
//!
//! | file | what |
//! |---|---|
//! | `gpu_runtime/config.rs` | [`GpuConfig`]: its launch ([`GpuLaunch`]), [`Limits`] and experiment knobs ([`GpuTuning`]) |
//! | `gpu_runtime/error.rs` | [`GpuRunError`]: which limit a run hit and the setting that raises it |
//! | `gpu_runtime/runtime.rs` | [`GpuRuntime`], [`GpuStats`]; `GpuRuntime::run` as the sequence of the steps below |
//! | `gpu_runtime/plan.rs` | a run's checks and the length of each device array, before anything is allocated |
//! | `gpu_runtime/buffers.rs` | the device arrays, grown and filled for each run, kept between runs |
//! | `gpu_runtime/control.rs` | the control block (`GpuRun`) the kernel reads, from the configuration and the plan |
//! | `gpu_runtime/launch.rs` | the launch, timed by events, and the wait with its timeout |
//! | `gpu_runtime/decode.rs` | the control block, statistics, result and profile read back after the kernel |
//! | `gpu_runtime/resident.rs` | [`GpuResident`]: a kernel that stays resident and takes roots from the host while it runs ([`GpuRuntime::resident`]), its poller thread |
//! | `gpu_runtime/own_stream.rs` | a resident session's stream of its own, so that its kernel holds up no other runtime's work |
//! | `gpu_runtime/ring.rs` | a resident session's injection ring and completion slots, in mapped host memory |
//! | [`profile`] | [`Profile`]: the per-warp timeline of a profiled run ([`GpuConfig::profile`](GpuLaunch::profile)), and its exporters (Chrome trace, CSVs, summary) |

mod buffers;
mod config;
mod control;
mod decode;
mod error;
mod launch;
mod own_stream;
mod plan;
pub mod profile;
mod resident;
mod ring;
mod runtime;
mod stats;

pub use crate::Limits;
pub use config::{GpuConfig, GpuLaunch, GpuTuning, QueueOrder, Scheduler, Scheduling};
pub use error::GpuRunError;
pub use profile::{BatchSource, Profile, ProfileEvent, WarpProfile};
pub use resident::{GpuResident, RING_CAPACITY, RootTrace, trace_now_ns};
pub use runtime::GpuRuntime;
pub use stats::GpuStats;
