//! Reporting a panic's location to the host before the kernel traps.
//!
//! A trap leaves the CUDA context unusable: the host can read no device memory afterwards.
//! So the report goes to host memory mapped into the device, whose address the host passes
//! in the run's control block; each kernel copies it into [`SINK`] when it starts, where the
//! panic handler (which has no other way to reach the run) finds it.
//!
//! # Memory ordering
//! The first panicking thread wins `flag` by a `.sys` CAS, writes the fields with `.sys`
//! relaxed stores and issues `fence.sc.sys` before trapping, so the writes reach host memory
//! before the kernel ends; the host reads them after it has seen the kernel fail.

use core::panic::PanicInfo;

use super::layout::PanicReport;
use crate::arch::ops::AtomicInt;
use crate::arch::order::{Gpu, Relaxed, SeqCst, Sys};

/// The address of the current run's [`PanicReport`], or 0. Written at kernel start by every
/// thread (all write the same value), read by the panic handler.
static mut SINK: u64 = 0;

/// Records where this run's panic report lives (called by every thread at kernel start).
pub fn set_sink(addr: u64) {
    // SAFETY: `SINK` is a global in device memory, accessed only atomically; every writer
    // stores the same value.
    unsafe { u64::store::<Gpu, Relaxed>(&raw mut SINK, addr) };
}

/// Writes `info`'s location into the run's panic report, if there is one and no other thread
/// wrote it first.
pub fn report_panic(info: &PanicInfo<'_>) {
    // SAFETY: as in `set_sink`.
    let addr = unsafe { u64::load::<Gpu, Relaxed>(&raw const SINK) };
    if addr == 0 {
        return;
    }
    let report = addr as *mut PanicReport;
    // SAFETY: the host allocated a `PanicReport` at `addr` (mapped host memory) for this run;
    // fields are written only by the thread that won `flag`.
    unsafe {
        if u32::compare_and_swap::<Sys, Relaxed>(&raw mut (*report).flag, 0, 2) != 0 {
            // Another thread is writing the report: give it time to finish before this thread's
            // trap ends the kernel (bounded: a trap must come in any case).
            for _ in 0..1_000_000 {
                if u32::load::<Sys, Relaxed>(&raw const (*report).flag) == 1 {
                    break;
                }
            }
            return;
        }
        if let Some(loc) = info.location() {
            u32::store::<Sys, Relaxed>(&raw mut (*report).line, loc.line());
            u32::store::<Sys, Relaxed>(&raw mut (*report).column, loc.column());
            let file = loc.file().as_bytes();
            let n = file.len().min(240);
            for (i, b) in file[..n].iter().enumerate() {
                (&raw mut (*report).file[i]).write_volatile(*b);
            }
            u32::store::<Sys, Relaxed>(&raw mut (*report).file_len, n as u32);
        }
        if let Some(msg) = info.message().as_str() {
            let msg = msg.as_bytes();
            let n = msg.len().min(120);
            for (i, b) in msg[..n].iter().enumerate() {
                (&raw mut (*report).message[i]).write_volatile(*b);
            }
            u32::store::<Sys, Relaxed>(&raw mut (*report).message_len, n as u32);
        }
        crate::arch::fence::<Sys, SeqCst>();
        u32::store::<Sys, Relaxed>(&raw mut (*report).flag, 1);
        crate::arch::fence::<Sys, SeqCst>();
    }
}
