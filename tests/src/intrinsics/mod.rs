//! Kernels with known answers for every intrinsic of `gtap_device::arch`.
//!
//! Each module's docs give its kernels' launch shape, buffers and answers; [`values`] holds
//! what the kernels and the host checks share. Two test binaries use them:
//! `tests/tests/ptx_text.rs` (no GPU: checks that each kernel's PTX holds the exact
//! instruction with the right qualifiers) and `tests/tests/intrinsics_gpu.rs` (runs them).
//!
//! Kernel names spell what they test, e.g. `atom_add_u32_gpu_acq_rel` is `fetch_add` on a
//! `u32` at `Gpu` scope with `AcqRel` ordering, which must be `atom.acq_rel.gpu.add.u32`.

pub mod values;

#[cfg(target_arch = "nvptx64")]
pub mod atomics;
#[cfg(target_arch = "nvptx64")]
pub mod barriers;
#[cfg(target_arch = "nvptx64")]
pub mod fences;
#[cfg(target_arch = "nvptx64")]
pub mod index;
#[cfg(target_arch = "nvptx64")]
pub mod memory;
#[cfg(target_arch = "nvptx64")]
pub mod shared;
#[cfg(target_arch = "nvptx64")]
pub mod time;
#[cfg(target_arch = "nvptx64")]
pub mod trap;
#[cfg(target_arch = "nvptx64")]
pub mod warp;
