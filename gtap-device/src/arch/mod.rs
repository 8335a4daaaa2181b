//! PTX intrinsics (placeholder being filled in).

/// Stops the kernel with an illegal-instruction error (`trap`).
#[inline(always)]
pub fn trap() -> ! {
    #[cfg(target_arch = "nvptx64")]
    // SAFETY: `trap` takes no operands and touches no memory; it ends the kernel.
    unsafe {
        core::arch::asm!("trap;", options(noreturn, nostack));
    }
    #[cfg(not(target_arch = "nvptx64"))]
    panic!("gtap: trap")
}
