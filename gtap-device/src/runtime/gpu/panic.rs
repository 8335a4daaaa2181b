//! Reporting a panic's location to the host before the kernel traps.
//!
//! A trap leaves the CUDA context unusable: the host can read no device memory afterwards.
//! So the report goes to host memory mapped into the device, whose address the host passes
//! in the run's control block; each kernel copies it into [`SINK`] when it starts, where the
//! panic handler (which has no other way to reach the run) finds it.
//!
//! In a batch of roots, and in a resident session, the report also names the root the
//! panicking task belongs to, which only the device can find once the kernel has trapped:
//! every thread notes the record it runs in the control block's `running` array
//! ([`note_running`]), and the panic handler follows that record's parents to its root
//! record ([`root_record_of_task`]), all of them live while their descendant runs. A batch's
//! root record is one the warps built at the start, so its place names the root's position
//! (`PanicReport::root`). A resident session's was built wherever a polling warp had a free
//! record; what names it is its result pointer, the device address of its completion slot in
//! the mapped ring, which the handler copies into `PanicReport::root_slot` for the host to
//! map to the root's slot. A run of one root has no `running` array: its one root needs no
//! naming.
//!
//! # Memory ordering
//! The first panicking thread wins `flag` by a `.sys` CAS, writes the fields with `.sys`
//! relaxed stores and issues `fence.sc.sys` before trapping, so the writes reach host memory
//! before the kernel ends; the host reads them after it has seen the kernel fail. The walk
//! reads record headers (parents, the root's result pointer) with relaxed `.gpu` loads:
//! each was written before its task was published, and the chain of publications and takes
//! (release, acquire) that brought the panicking task to this thread orders those writes
//! before the reads.

use core::panic::PanicInfo;

use super::layout::{GpuRun, PanicReport, root_of_record, root_record_of_task};
use crate::arch::index::global_thread_id;
use crate::arch::ops::AtomicInt;
use crate::arch::order::{Gpu, Relaxed, SeqCst, Sys};
use crate::runtime::record::{PARENT_OFFSET, RESULT_SLOT_OFFSET};

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

/// Notes that the calling thread now runs the task in record `id`, in a batch or a resident
/// session (`cfg`, the run's configuration, has a `running` array; a run of one root has
/// none and pays one uniform branch).
#[inline(always)]
pub fn note_running(cfg: &GpuRun, id: u32) {
    if cfg.running != 0 {
        let slot = (cfg.running as *mut u32).wrapping_add(global_thread_id() as usize);
        // SAFETY: the host made `running` one word per launched thread. Relaxed `.gpu`: only
        // a panic handler on this same thread reads it (program order orders it).
        unsafe { u32::store::<Gpu, Relaxed>(slot, id) };
    }
}

/// What the panic handler found out about the root of the panicking task.
enum PanickingRoot {
    /// Nothing: a run of one root (no `running` array), or a walk that found no root.
    Unknown,
    /// A batch: the root's position in it.
    Batch(u32),
    /// A resident session: the root record's result pointer (its completion slot's result,
    /// in the mapped ring).
    Resident(u64),
}

/// The root that the calling thread's running task belongs to, if the run has a `running`
/// array (a batch or a resident session) and the thread noted a task ([`note_running`]):
/// the walk up the task's parents to its root record ([`root_record_of_task`]) is the same
/// for both, what names the root differs. A batch's root record is one of those the warps
/// built at the start ([`root_of_record`]); a resident session's was built from the ring
/// by a polling warp, anywhere in its slab, and its result pointer is the one thing that
/// ties it to its submission (the host maps it to a slot, as it does for a failed spawn).
/// Out of line and cold: it runs once, on a panic, and its code stays out of the kernels'
/// hot paths.
#[cold]
#[inline(never)]
fn panicking_root() -> PanickingRoot {
    // SAFETY: as in `set_sink`.
    let run = unsafe { u64::load::<Gpu, Relaxed>(&raw const RUN) } as *const GpuRun;
    if run.is_null() {
        return PanickingRoot::Unknown;
    }
    // SAFETY: the control block lives for the kernel; these fields are written by the host
    // only, before the launch, and are read in place (no reference to the whole block, whose
    // other fields warps write).
    let (running, records, size, tasks_per_warp, warps, roots, all, inject) = unsafe {
        let reserve = (*run).reserve_chunks * crate::runtime::reserve::CHUNK_RECORDS;
        (
            (*run).running,
            (*run).records,
            (*run).record_size,
            (*run).tasks_per_warp,
            (*run).num_warps,
            (*run).num_roots,
            (*run).slab_records + reserve,
            (*run).inject,
        )
    };
    if running == 0 {
        return PanickingRoot::Unknown;
    }
    let slot = (running as *const u32).wrapping_add(global_thread_id() as usize);
    // SAFETY: one word per launched thread (see `note_running`).
    let id = unsafe { u32::load::<Gpu, Relaxed>(slot) };
    let header = |id: u32, offset: usize| {
        (records as *const u8).wrapping_add(id as usize * size as usize + offset)
    };
    let top = root_record_of_task(id, all, |id| {
        // SAFETY: `id` is below the run's records (the walk checks it): a live record's
        // header (the task and its ancestors are live while it runs); its parent was written
        // before the task was published, which happened before this thread took it (or an
        // ancestor's writer's, by the same chain).
        Some(unsafe { u32::load::<Gpu, Relaxed>(header(id, PARENT_OFFSET).cast()) })
    });
    let Some(top) = top else {
        return PanickingRoot::Unknown;
    };
    // `inject` is the test `lanes::complete` makes before it takes a root's result pointer
    // for a completion slot: in a resident run every root record is built from the ring
    // (`inject::build_root`), with its slot's result as its result pointer.
    if inject != 0 {
        // SAFETY: `top` is below the run's records (the walk returned it): the live root
        // record of the running task (a root completes only after its children, so it
        // outlives every task below it). Its result pointer is 8-aligned in the header (the
        // records array and `record_size` keep the record's alignment) and was written by
        // `build_root` before the root was published, ordered before this thread's read by
        // the same chain as the parents above. Relaxed `.gpu`: nothing else writes it while
        // the root is live.
        let ptr = unsafe { u64::load::<Gpu, Relaxed>(header(top, RESULT_SLOT_OFFSET).cast()) };
        return PanickingRoot::Resident(ptr);
    }
    match root_of_record(top, tasks_per_warp, warps, roots) {
        Some(root) => PanickingRoot::Batch(root),
        None => PanickingRoot::Unknown,
    }
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
        match panicking_root() {
            PanickingRoot::Batch(root) => {
                u32::store::<Sys, Relaxed>(&raw mut (*report).root, root);
                u32::store::<Sys, Relaxed>(&raw mut (*report).root_known, 1);
            }
            PanickingRoot::Resident(slot) => {
                u64::store::<Sys, Relaxed>(&raw mut (*report).root_slot, slot);
            }
            PanickingRoot::Unknown => {}
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
