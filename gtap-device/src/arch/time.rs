//! Layer 3: time and back-off: cycle counter, nanosecond timer, `nanosleep`.

use super::raw::time as raw;

/// The SM's cycle counter (`%clock64`). Compare only readings taken on one SM; a warp can
/// migrate between two readings after preemption.
#[inline(always)]
pub fn clock64() -> u64 {
    raw::clock64()
}

/// A GPU-wide nanosecond timer (`%globaltimer`), comparable across blocks and SMs. Its
/// update granularity is coarse on many GPUs (about a microsecond).
#[inline(always)]
pub fn global_timer_ns() -> u64 {
    raw::globaltimer()
}

/// Suspends the calling thread for about `ns` nanoseconds (`nanosleep.u32`); the ISA
/// allows anything in `[0, 2 * ns]` and caps `ns` at one millisecond. For back-off in spin
/// loops, so that waiting warps leave the SM's issue slots to working ones.
#[inline(always)]
pub fn nanosleep(ns: u32) {
    raw::nanosleep_u32(ns)
}
