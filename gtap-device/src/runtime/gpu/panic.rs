//! Reporting a panic's location to the host before the kernel traps.
//!
//! A trap leaves the CUDA context unusable: the host can read no device memory afterwards.
//! So the report goes to host memory mapped into the device, whose address the host passes
//! in the run's control block; each kernel copies it into [`SINK`] when it starts, where the
//! panic handler (which has no other way to reach the run) finds it.
//!
//! In a batch of roots the report also names the root the panicking task belongs to, which
//! only the device can find once the kernel has trapped: every thread notes the record it
//! runs in the control block's `running` array ([`note_running`]), and the panic handler
//! follows that record's parents to a root record ([`root_of_task`]), all of them live
//! while their descendant runs.
//!
//! # Memory ordering
//! The first panicking thread wins `flag` by a `.sys` CAS, writes the fields with `.sys`
//! relaxed stores and issues `fence.sc.sys` before trapping, so the writes reach host memory
//! before the kernel ends; the host reads them after it has seen the kernel fail.

use core::panic::PanicInfo;

use super::layout::{GpuRun, PanicReport, root_of_task};
use crate::arch::index::global_thread_id;
use crate::arch::ops::AtomicInt;
use crate::arch::order::{Gpu, Relaxed, SeqCst, Sys};
use crate::runtime::record::PARENT_OFFSET;

/// The address of the current run's [`PanicReport`], or 0. Written at kernel start by every
/// thread (all write the same value), read by the panic handler.
static mut SINK: u64 = 0;

/// The address of the current run's control block, or 0. As [`SINK`].
static mut RUN: u64 = 0;

/// Records where this run's panic report and control block live (called by every thread at
/// kernel start).
pub fn set_sink(addr: u64, run: *const GpuRun) {
    // SAFETY: `SINK` and `RUN` are globals in device memory, accessed only atomically; every
    // writer stores the same values.
    unsafe {
        u64::store::<Gpu, Relaxed>(&raw mut SINK, addr);
        u64::store::<Gpu, Relaxed>(&raw mut RUN, run as u64);
    }
}

/// Notes that the calling thread now runs the task in record `id`, in a batch (`cfg`, the
/// run's configuration, has a `running` array; a run of one root has none and pays one
/// uniform branch).
#[inline(always)]
pub fn note_running(cfg: &GpuRun, id: u32) {
    if cfg.running != 0 {
        let slot = (cfg.running as *mut u32).wrapping_add(global_thread_id() as usize);
        // SAFETY: the host made `running` one word per launched thread. Relaxed `.gpu`: only
        // a panic handler on this same thread reads it (program order orders it).
        unsafe { u32::store::<Gpu, Relaxed>(slot, id) };
    }
}

/// The root of the batch that the calling thread's running task belongs to, if the run has
/// several roots and the thread noted a task ([`note_running`]). Out of line and cold: it
/// runs once, on a panic, and its code stays out of the kernels' hot paths.
#[cold]
#[inline(never)]
fn panicking_root() -> Option<u32> {
    // SAFETY: as in `set_sink`.
    let run = unsafe { u64::load::<Gpu, Relaxed>(&raw const RUN) } as *const GpuRun;
    if run.is_null() {
        return None;
    }
    // SAFETY: the control block lives for the kernel; these fields are written by the host
    // only, before the launch, and are read in place (no reference to the whole block, whose
    // other fields warps write).
    let (running, records, size, tasks_per_warp, warps, roots, all) = unsafe {
        let reserve = (*run).reserve_chunks * crate::runtime::reserve::CHUNK_RECORDS;
        (
            (*run).running,
            (*run).records,
            (*run).record_size,
            (*run).tasks_per_warp,
            (*run).num_warps,
            (*run).num_roots,
            (*run).slab_records + reserve,
        )
    };
    if running == 0 {
        return None;
    }
    let slot = (running as *const u32).wrapping_add(global_thread_id() as usize);
    // SAFETY: one word per launched thread (see `note_running`).
    let id = unsafe { u32::load::<Gpu, Relaxed>(slot) };
    root_of_task(id, all, tasks_per_warp, warps, roots, |id| {
        let at = (records as *const u8).wrapping_add(id as usize * size as usize + PARENT_OFFSET);
        // SAFETY: `id` is below the run's records (the walk checks it): a live record's
        // header (the task and its ancestors are live while it runs); its parent was written
        // before the task was published, which happened before this thread took it (or an
        // ancestor's writer's, by the same chain).
        Some(unsafe { u32::load::<Gpu, Relaxed>(at.cast()) })
    })
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
        if let Some(root) = panicking_root() {
            u32::store::<Sys, Relaxed>(&raw mut (*report).root, root);
            u32::store::<Sys, Relaxed>(&raw mut (*report).root_known, 1);
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
