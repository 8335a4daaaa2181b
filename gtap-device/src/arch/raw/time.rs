//! Clocks, sleeping and stopping: `%clock64`, `%globaltimer`, `nanosleep`, `trap`.
//!
//! None of these has a precondition, so all are safe. The clock reads are not `pure` (two
//! reads must not be merged) and keep the default memory clobber, so the compiler keeps
//! them in order with the memory accesses they time.

use core::arch::asm;

/// `mov.u64 %rd, %clock64`: this SM's cycle counter.
///
/// Counts cycles of the SM the thread runs on: comparable only between reads on the same SM,
/// and a warp can be preempted and resumed elsewhere between two reads. Non-decreasing for
/// one thread as long as it stays on one SM.
#[inline(always)]
pub fn clock64() -> u64 {
    let d: u64;
    // SAFETY: reading a special register has no precondition.
    unsafe { asm!("mov.u64 {d}, %clock64;", d = out(reg64) d, options(nostack)) }
    d
}

/// `mov.u64 %rd, %globaltimer`: a GPU-wide nanosecond timer.
///
/// The same timer on every SM, so reads from different blocks compare. Its resolution
/// depends on the GPU (the hardware updates it every microsecond or so on many parts; it
/// is not a cycle counter).
#[inline(always)]
pub fn globaltimer() -> u64 {
    let d: u64;
    // SAFETY: reading a special register has no precondition.
    unsafe { asm!("mov.u64 {d}, %globaltimer;", d = out(reg64) d, options(nostack)) }
    d
}

/// `nanosleep.u32 t`: suspends the calling thread for about `t` nanoseconds.
///
/// The ISA promises a duration in `[0, 2 * t]` and caps `t` at one millisecond; it is a
/// back-off hint for spin loops, not a timer. Requires `sm_70`, PTX ISA 6.3.
#[inline(always)]
pub fn nanosleep_u32(t: u32) {
    // SAFETY: `nanosleep` has no precondition and touches no memory.
    unsafe { asm!("nanosleep.u32 {t};", t = in(reg32) t, options(nomem, nostack)) }
}

/// `trap`: aborts the kernel; the launch fails with an illegal-instruction error and the
/// CUDA context is unusable afterwards.
#[inline(always)]
pub fn trap() -> ! {
    // SAFETY: `trap` takes no operands and touches no memory; it ends the kernel.
    unsafe { asm!("trap;", options(noreturn, nostack)) }
}
