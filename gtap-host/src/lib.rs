//! gtap's host side: open a GPU, load PTX, launch kernels, and turn every failure into an
//! error that says what happened and what to do.
//!
//! ```
//! use gtap_host::cudarc::driver::{LaunchConfig, PushKernelArg};
//! use gtap_host::{Gpu, GpuError};
//!
//! // In a real crate: gtap_host::include_ptx!("my_kernels"), built by gtap-builder.
//! const PTX: &str = r#"
//! .version 7.0
//! .target sm_70
//! .address_size 64
//! .visible .entry iota(.param .u64 out, .param .u32 n)
//! {
//!     .reg .pred %p<2>;
//!     .reg .b32 %r<5>;
//!     .reg .b64 %rd<4>;
//!     ld.param.u64 %rd1, [out];
//!     ld.param.u32 %r1, [n];
//!     mov.u32 %r2, %ctaid.x;
//!     mov.u32 %r3, %ntid.x;
//!     mov.u32 %r4, %tid.x;
//!     mad.lo.s32 %r2, %r2, %r3, %r4;
//!     setp.ge.u32 %p1, %r2, %r1;
//!     @%p1 bra DONE;
//!     cvta.to.global.u64 %rd1, %rd1;
//!     mul.wide.u32 %rd2, %r2, 4;
//!     add.s64 %rd3, %rd1, %rd2;
//!     st.global.u32 [%rd3], %r2;
//! DONE:
//!     ret;
//! }
//! "#;
//!
//! fn main() -> Result<(), GpuError> {
//!     let gpu = match Gpu::new(0) {
//!         Err(e) if e.is_no_gpu() => {
//!             eprintln!("{e}");
//!             return Ok(());
//!         }
//!         opened => opened?,
//!     };
//!     println!("{}", gpu.props());
//!
//!     let iota = gpu.load(PTX)?.kernel("iota")?;
//!     let n = 1000u32;
//!     let stream = gpu.stream();
//!     let mut out = stream
//!         .alloc_zeros::<u32>(n as usize)
//!         .map_err(|source| GpuError::Driver { call: "cuMemAlloc", source })?;
//!     let mut launch = stream.launch_builder(iota.function());
//!     launch.arg(&mut out).arg(&n);
//!     // SAFETY: `iota` takes (u32 *out, u32 n) and writes out[0..n], which `out` holds.
//!     unsafe { launch.launch(LaunchConfig::for_num_elems(n)) }
//!         .map_err(|e| GpuError::launch(iota.name(), e))?;
//!     gpu.sync(iota.name())?;
//!
//!     let host = stream
//!         .clone_dtoh(&out)
//!         .map_err(|source| GpuError::Driver { call: "cuMemcpyDtoH", source })?;
//!     assert!(host.iter().enumerate().all(|(i, &v)| v == i as u32));
//!     Ok(())
//! }
//! ```
//!
//! # Layers
//! Like cudarc, whose types it hands out: thin calls that return `Result`, then a safe API.
//!
//! | Layer | Where | What |
//! |---|---|---|
//! | raw FFI | [`cudarc::driver::sys`] | the driver API, loaded at run time (`dynamic-loading`) |
//! | thin calls | cudarc's `driver::result`, and this crate's `driver.rs` | one driver call each, returning `Result`: probing for `libcuda`, `cuInit` mapped to [`GpuError::NoDriver`] / [`GpuError::NoDevice`], `cuModuleLoadDataEx` with JIT log buffers |
//! | PTX text | [`ptx`] | `.target` and `.entry` read from the PTX before the driver sees it |
//! | safe API | [`Gpu`], [`Module`], [`Kernel`], [`DeviceProps`] | open a GPU, load PTX, find kernels, wait and name the failing kernel |
//! | errors | [`GpuError`] | one enum; every message says what happened and what to do |
//! | one runtime | [`Runtime`], [`Stats`] | the GPU when there is one, the CPU backend otherwise, with one statistics type |
//! | resident sessions | [`resident`] | a runtime that stays up and takes roots one at a time ([`Runtime::resident`]), each with a [`RootHandle`] to poll, wait for or `.await` |
//! | data | [`data::DeviceVec`] | arrays in the memory of the runtime that runs the tasks, copied in and out; their views are task arguments |
//! | settings | [`Limits`] | the queue, timeout and block-program limits both backends share, part of [`gpu_runtime::GpuConfig`] and [`cpu::CpuConfig`] |
//! | tests | [`Gpu::for_tests`], [`Gpu::for_fault_test`] | skip with a message where there is no GPU, unless `GTAP_REQUIRE_GPU=1`; run a faulting test in a child process |
//!
//! Launching is cudarc's: `gpu.stream().launch_builder(kernel.function())`, with
//! [`GpuError::launch`] for its error and [`Gpu::sync`] to wait.
//!
//! # Machines without a GPU
//! cudarc loads `libcuda` on first use and panics when it is missing. [`Gpu::new`] probes for
//! the library first and returns [`GpuError::NoDriver`] instead, so programs and tests can
//! report or skip. Printing any [`GpuError`] never calls the driver.
//!
//! # Kernel faults
//! A trap (a panic in device code), an illegal address and the other kernel faults are CUDA
//! "sticky" errors: CUDA cannot be used again in this process, not even through a new context.
//! [`Gpu::sync`] reports them as [`GpuError::Trap`], [`GpuError::IllegalAddress`] and
//! [`GpuError::KernelFault`], naming the kernel; tests that fault on purpose run in a child
//! process through [`Gpu::for_fault_test`].

pub mod cpu;
pub mod data;
mod driver;
mod error;
mod gate;
mod gpu;
pub mod gpu_runtime;
mod limits;
mod module;
mod props;
pub mod ptx;
pub mod resident;
pub mod runtime;
pub mod testing;

pub use cudarc;
pub use error::GpuError;
pub use gpu::Gpu;
/// The run-time errors both backends report: [`cpu::CpuError::Run`] and
/// [`gpu_runtime::GpuRunError::Run`] hold one.
pub use gtap_device::runtime::RunError;
pub use limits::Limits;
pub use module::{Kernel, Module};
pub use props::DeviceProps;
pub use resident::{RootError, RootHandle};
pub use runtime::{Resident, Runtime, RuntimeError, Stats};
pub use testing::{REQUIRE_GPU_ENV, require_gpu};

/// The PTX that `gtap_builder` wrote for device crate `name` (its name with `-` as `_`),
/// embedded as a `&'static str`. Use it in a crate whose `build.rs` ran the builder.
#[macro_export]
macro_rules! include_ptx {
    ($name:literal) => {
        include_str!(concat!(env!("OUT_DIR"), "/", $name, ".ptx"))
    };
}
