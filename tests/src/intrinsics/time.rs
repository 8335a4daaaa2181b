//! Clock and sleep kernels: `%clock64`, `%globaltimer`, `nanosleep`.
//!
//! Any 1-D launch; thread `i` (global index) below `n` writes at `out[i * 3 ..]`.

use gtap_device::arch::index::global_thread_id;
use gtap_device::arch::time::{clock64, global_timer_ns, nanosleep};

/// `[c0, c1, c2]`: three `clock64` readings with a `nanosleep(1000)` between each; the
/// host checks `c0 < c1 < c2`.
///
/// # Safety
/// `out` holds `3 * n` `u64`s.
#[unsafe(no_mangle)]
pub unsafe extern "ptx-kernel" fn time_clock64(out: *mut u64, n: u32) {
    let i = global_thread_id();
    if i >= n {
        return;
    }
    let c0 = clock64();
    nanosleep(1000);
    let c1 = clock64();
    nanosleep(1000);
    let c2 = clock64();
    for (k, v) in [c0, c1, c2].into_iter().enumerate() {
        // SAFETY: `i < n` and `out` has three elements per thread.
        unsafe { *out.add(3 * i as usize + k) = v };
    }
}

/// `[t0, t1, t1 - t0]`: `globaltimer` before and after ten `nanosleep(ns)`; the host checks
/// the timer moved forward and, loosely, by about `10 * ns`.
///
/// # Safety
/// `out` holds `3 * n` `u64`s.
#[unsafe(no_mangle)]
pub unsafe extern "ptx-kernel" fn time_nanosleep(out: *mut u64, n: u32, ns: u32) {
    let i = global_thread_id();
    if i >= n {
        return;
    }
    let t0 = global_timer_ns();
    for _ in 0..10 {
        nanosleep(ns);
    }
    let t1 = global_timer_ns();
    for (k, v) in [t0, t1, t1.wrapping_sub(t0)].into_iter().enumerate() {
        // SAFETY: `i < n` and `out` has three elements per thread.
        unsafe { *out.add(3 * i as usize + k) = v };
    }
}
