//! Device kernels and task programs used by gtap's integration tests; the tests are in
//! `tests/`. The library builds for the host and, through `build.rs`, into PTX.
#![no_std]
#![feature(coroutines, coroutine_trait, type_alias_impl_trait)]
#![cfg_attr(
    target_arch = "nvptx64",
    feature(abi_ptx, stdarch_nvptx, macro_metavar_expr_concat)
)]

pub mod block;
pub mod borrow;
pub mod detached;
pub mod intrinsics;
pub mod lang;
pub mod mixed;
pub mod random;

/// This library's PTX (its kernels and the GPU kernel of [`lang`]), built by `build.rs`.
#[cfg(not(target_arch = "nvptx64"))]
pub const PTX: &str = gtap::include_ptx!();

// Links the device runtime in (its panic handler above all).
use gtap_device as _;

/// Adds `b` to `a` element-wise (a smoke test of the build and launch path).
///
/// # Safety
/// `a` and `b` hold `n` `u32`s each.
#[cfg(target_arch = "nvptx64")]
#[unsafe(no_mangle)]
pub unsafe extern "ptx-kernel" fn vec_add(a: *mut u32, b: *const u32, n: u32) {
    // SAFETY: reading special registers has no precondition.
    let i = unsafe {
        core::arch::nvptx::_block_idx_x() * core::arch::nvptx::_block_dim_x()
            + core::arch::nvptx::_thread_idx_x()
    } as u32;
    if i < n {
        // SAFETY: i < n and the host passes buffers of n elements.
        unsafe { *a.add(i as usize) += *b.add(i as usize) };
    }
}
