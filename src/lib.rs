//! gtap: GPU fork-join task parallelism in Rust. This facade re-exports the user-facing API.
//!
//! | crate | what |
//! |---|---|
//! | [`device`] (`gtap-device`) | `no_std` device runtime and PTX intrinsics |
//! | [`host`] (`gtap-host`, not on the GPU) | loading PTX, launching kernels, errors |

#![no_std]

pub use gtap_device as device;
#[cfg(not(target_arch = "nvptx64"))]
pub use gtap_host as host;
