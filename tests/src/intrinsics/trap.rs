//! The trap kernel: stops the grid with `trap` (the context is unusable afterwards, so the
//! host runs it in its own test binary, `tests/tests/trap_gpu.rs`).

/// Traps at once, in every thread.
///
/// # Safety
/// None beyond the launch; it never returns normally.
#[unsafe(no_mangle)]
pub unsafe extern "ptx-kernel" fn trap_now() {
    gtap_device::arch::trap()
}
