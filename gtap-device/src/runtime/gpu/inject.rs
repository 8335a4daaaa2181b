//! Resident kernels: taking roots from the host's injection ring while the kernel runs, and
//! telling the host when each completed.
//!
//! A resident session (`GpuRuntime::resident` on the host) launches the thread kernel with
//! no roots and an [`InjectHeader`] in page-locked host memory mapped into the device, with
//! a ring of root arguments and one completion slot per ring entry beside it. Root `s` (the
//! session's `s`-th submission) uses entry and slot `s % inject_capacity`; the host reuses
//! them only after it has read the slot's completion, so the device never reads an entry the
//! host is rewriting, and the host never reads a result the device is writing.
//!
//! Who polls: lane 0 of every `POLL_STRIDE`-th warp, when its round found no task (so
//! polling never delays running work) and at the pace of its idle back-off. Such a warp
//! claims up to a warp's width of roots by CAS on `GpuRun::inject_taken`, no more than half
//! its free records and queue room (the roots' children need the rest), builds their records
//! from their arguments as a batch's warps do at kernel start, and publishes them in its
//! queue 0, where it takes them next round and others steal them.
//!
//! One reader over the bus (`inject_flags::ONE_READER`, which the host sets): only the
//! polling warp that holds `GpuRun::inject_reader` (a try-lock in device memory) reads the
//! header in host memory; it copies `published` into `GpuRun::inject_seen` (and, on every
//! `SHUTDOWN_EVERY`-th read, the shutdown word into `inject_shutdown_seen`), and the other
//! polling warps read those copies. With every polling warp reading the header itself, a
//! small root's time on the device grew with the number of polling warps, by about 5 us
//! each (as if their reads of one word over the bus were served one after another, and an
//! idle warp's next round waited for its read): one reader keeps one read in flight.
//!
//! Each completion slot also carries two `%globaltimer` readings for the host's latency
//! trace (`GpuResident::set_trace`): when a warp claimed the root (`SLOT_CLAIMED_NS`) and
//! when it completed (`SLOT_DONE_NS`, the low 32 bits), stored before the status.
//!
//! # Memory ordering
//! - Host to device: the host writes a root's arguments and zeroes its slot's status, then
//!   stores `published` with release (on x86-64 a store after the writes, with the compiler
//!   kept from reordering them). The reader loads `published` with `ld.acquire.sys`: the
//!   arguments below it are visible to its later loads; it stores the copy with release
//!   (`.gpu`) and a polling warp loads the copy with acquire (`.gpu`), which extends that
//!   happens-before to the polling warp (causality order is transitive across the two
//!   scopes). The claim CAS can be relaxed: the claimer reads only entries below a
//!   `published` it acquired itself. The reader lock is taken with an acquire CAS and freed
//!   with a release store, so each reader's header reads come after the previous reader's
//!   and the copy only moves forward.
//! - Device to host: the root's result is written into its slot by the lane that returns
//!   the root; the lane that completes the root (the same lane: a root completes where it
//!   returns) then stores the slot's status with `st.release.sys`, which orders the result
//!   before it for any observer, the host included. The host loads the status with acquire,
//!   then reads the result.
//! - The end: `inject_completed` is bumped (release, `.gpu`) after the status store. A poller
//!   that sees `shutdown` (acquire, `.sys`), then `published`, then `inject_completed ==
//!   published` (acquire) knows every root the host will ever publish completed (completed
//!   <= taken <= published, and `published` is final once `shutdown` is set), and raises
//!   `STOP_DONE`. With one reader, the shutdown flag's copy is stored (release) after the
//!   copy of a `published` read after `shutdown`, and `finished` acquires it first.

use super::layout::{
    InjectHeader, NONE, SLOT_CLAIMED_NS, SLOT_DONE, SLOT_DONE_NS, SLOT_RESULT, inject_flags,
};
use super::warp::{WarpCtx, WarpShared};
use crate::arch::ops::AtomicInt;
use crate::arch::order::{Acquire, Release, Sys};
use crate::arch::time::global_timer_ns;
use crate::arch::warp::WARP_SIZE;
use crate::runtime::deque::publish;
use crate::runtime::record::Record;
use crate::runtime::sync::Ordering;
use crate::task::Program;

/// Whether warp `w` polls the ring: a resident run, and one warp in `inject_poll_stride`
/// ([`POLL_STRIDE`](super::layout::POLL_STRIDE) by default).
#[inline(always)]
pub(super) fn polls(w: &WarpCtx) -> bool {
    let cfg = w.run();
    cfg.inject != 0 && w.warp & cfg.inject_poll_stride.wrapping_sub(1) == 0
}

/// Lane 0 of an idle polling warp, between rounds: claims the roots published and not taken
/// yet (up to what the warp has room for), builds their records, and publishes them in its
/// queue 0. Returns how many it took.
///
/// # Safety
/// Lane 0, between rounds, in a resident run of program `P` (the host checked the arguments'
/// layout, and `inject*` describe the mapped ring).
#[inline(never)]
pub(super) unsafe fn take_roots<P: Program>(w: &WarpCtx) -> u32 {
    let cfg = w.run();
    // SAFETY: lane 0 between rounds (contract).
    let sh = unsafe { w.lane0() };
    if sh.private[0] != 0 {
        // Tasks kept unpublished sit where the roots would go; the warp is not idle anyway.
        return 0;
    }
    // SAFETY: lane 0 of a resident run (contract).
    let published = unsafe { published(w) };
    let free_records = sh.sp + (cfg.tasks_per_warp - sh.fresh);
    // The steal end as it is now (the warp's copy is refreshed only by rounds that run, and
    // an idle warp's may be far behind). Acquire: thieves' reads of entries below it happen
    // before those entries are overwritten (as in `open_round`).
    sh.head[0] = w.deque(w.warp, 0).head().load(Ordering::Acquire);
    let used = sh.tail[0].wrapping_sub(sh.head[0]);
    let queue_room = cfg.queue_capacity.saturating_sub(used);
    let limit = WARP_SIZE.min(free_records / 2).min(queue_room / 2);
    // SAFETY: a field of the live control block.
    let taken = w.run_atomic(unsafe { &raw mut (*w.run).inject_taken });
    let mut first = taken.load(Ordering::Relaxed);
    let n = loop {
        let waiting = published.wrapping_sub(first);
        // More than the ring holds: others claimed past the `published` read above.
        if waiting == 0 || waiting > cfg.inject_capacity || limit == 0 {
            return 0;
        }
        let n = waiting.min(limit);
        // Relaxed: only entries below this warp's own acquired `published` are read.
        match taken.compare_exchange(
            first,
            first.wrapping_add(n),
            Ordering::Relaxed,
            Ordering::Relaxed,
        ) {
            Ok(_) => break n,
            Err(now) => first = now,
        }
    };
    for j in 0..n {
        // SAFETY: `first + j` was claimed above and is below `published`; lane 0 between
        // rounds owns the allocator (contract), and `n` is below the free records.
        unsafe { build_root::<P>(w, sh, first.wrapping_add(j), sh.tail[0].wrapping_add(j)) };
    }
    sh.tail[0] = sh.tail[0].wrapping_add(n);
    // Release: the records and ring entries written above happen before a thief's claim.
    publish(w.deque(w.warp, 0).count(), n);
    n
}

/// How often (in header reads) the one reader also reads `shutdown`.
const SHUTDOWN_EVERY: u32 = 8;

/// The ring's `published` as this polling warp may use it: the header's, read over the bus
/// with acquire at system scope (the host's writes of the arguments below it, and of their
/// slots' status, happen before this warp's reads of them; module docs). With
/// `ONE_READER`, only the warp that holds `inject_reader` reads the header, and copies it
/// (and, every `SHUTDOWN_EVERY`-th read, `shutdown`) into device memory; the others read
/// the copy, with acquire at GPU scope, which extends the same happens-before to them.
///
/// # Safety
/// Lane 0 in a resident run.
#[inline(always)]
unsafe fn published(w: &WarpCtx) -> u32 {
    let header = w.run().inject as *mut InjectHeader;
    if w.run().inject_flags & inject_flags::ONE_READER == 0 {
        // SAFETY: the header lives in mapped host memory for the kernel's life (contract).
        return unsafe { u32::load::<Sys, Acquire>(&raw const (*header).published) };
    }
    // SAFETY: fields of the live control block.
    let (reader, copy) = unsafe {
        (
            w.run_atomic(&raw mut (*w.run).inject_reader),
            w.run_atomic(&raw mut (*w.run).inject_seen),
        )
    };
    // Acquire: the previous reader's copies (stored before its release below) happen before
    // this one's header reads, so the copies only move forward.
    if reader
        .compare_exchange(0, 1, Ordering::Acquire, Ordering::Relaxed)
        .is_err()
    {
        // Acquire: pairs with the reader's release store of the copy.
        return copy.load(Ordering::Acquire);
    }
    // SAFETY: a field of the live control block, written under `reader` only.
    let reads = w.run_atomic(unsafe { &raw mut (*w.run).inject_reads });
    let n = reads.load(Ordering::Relaxed);
    reads.store(n.wrapping_add(1), Ordering::Relaxed);
    // SAFETY: the header lives in mapped host memory for the kernel's life (contract).
    let shutdown = n.is_multiple_of(SHUTDOWN_EVERY)
        && unsafe { u32::load::<Sys, Acquire>(&raw const (*header).shutdown) } != 0;
    // SAFETY: as above. Read after `shutdown`: final when `shutdown` was seen.
    let published = unsafe { u32::load::<Sys, Acquire>(&raw const (*header).published) };
    // Release: the header reads above (and what they acquired) happen before a polling
    // warp's acquire load of the copy.
    copy.store(published, Ordering::Release);
    if shutdown {
        // SAFETY: a field of the live control block.
        let seen = w.run_atomic(unsafe { &raw mut (*w.run).inject_shutdown_seen });
        // Release: after the final copy of `published` (`finished` acquires this first).
        seen.store(1, Ordering::Release);
    }
    // Release: the copies happen before the next reader's acquire CAS.
    reader.store(0, Ordering::Release);
    published
}

/// Builds root `seq`'s record from its arguments in the ring and puts its id at position
/// `pos` of the warp's queue 0 (not published yet).
///
/// # Safety
/// As [`take_roots`], for a root this warp claimed, with a free record left.
#[inline(always)]
unsafe fn build_root<P: Program>(w: &WarpCtx, sh: &mut WarpShared, seq: u32, pos: u32) {
    let cfg = w.run();
    let i = u64::from(seq & (cfg.inject_capacity - 1));
    let args_at = (cfg.inject_args + i * u64::from(cfg.inject_args_stride)) as *const P::Args;
    // SAFETY: the host wrote a `P::Args` there before publishing `seq` (acquired by the
    // caller), and rewrites it only after the root's slot says it completed.
    let args = unsafe { core::ptr::read_unaligned(args_at) };
    let slot_base = cfg.inject_slots + i * u64::from(cfg.inject_slot_stride);
    let slot = (slot_base + u64::from(SLOT_RESULT)) as *mut u8;
    // SAFETY: the slot's claim-time word, 8-aligned in the mapped ring; the host reads it
    // only after the slot's status says done (ordered by that release store).
    unsafe {
        core::ptr::write_volatile(
            (slot_base + u64::from(SLOT_CLAIMED_NS)) as *mut u64,
            global_timer_ns(),
        )
    };
    let id = alloc(w, sh);
    let rec = w.record::<P::Task>(id);
    // SAFETY: `id` was just taken off this warp's allocator: nothing else uses the record.
    unsafe {
        Record::init(rec);
        let args = crate::task::split::split_root::<P>(args, &cfg.granularity);
        Record::fill(rec, NONE, slot, 0, P::start(args));
    }
    w.ring(w.warp, 0, pos).store(id, Ordering::Relaxed);
}

/// Lane 0 between rounds: a record off the warp's free stack, or a never-used one.
#[inline(always)]
fn alloc(w: &WarpCtx, sh: &mut WarpShared) -> u32 {
    if sh.sp > 0 {
        sh.sp -= 1;
        // SAFETY: entries below `sp` hold free ids of this warp (lane 0 between rounds).
        unsafe { *w.free_stack(sh.sp) }
    } else {
        let id = w.warp * w.run().tasks_per_warp + sh.fresh;
        sh.fresh += 1;
        id
    }
}

/// A root of a resident run completed: its slot (whose result the completing lane wrote)
/// says so to the host, and the count of completed roots goes up.
#[inline(never)]
pub(super) fn root_completed(w: &WarpCtx, result_slot: *mut u8) {
    let status = result_slot.wrapping_sub(SLOT_RESULT as usize).cast::<u32>();
    let done_ns = result_slot
        .wrapping_sub((SLOT_RESULT - SLOT_DONE_NS) as usize)
        .cast::<u32>();
    // SAFETY: the slot's completion-time word, in the mapped ring; ordered before the host's
    // read by the status store below. The low 32 bits: the host rebuilds the rest from the
    // claim time, which is less than 4 s earlier.
    unsafe { core::ptr::write_volatile(done_ns, global_timer_ns() as u32) };
    // Release at system scope: the result, written by this lane, happens before the host's
    // acquire load that sees DONE (module docs).
    // SAFETY: `result_slot` is a slot of the mapped ring (`build_root`), its status word
    // `SLOT_RESULT` bytes before it.
    unsafe { u32::store::<Sys, Release>(status, SLOT_DONE) };
    // SAFETY: a field of the live control block.
    let completed = w.run_atomic(unsafe { &raw mut (*w.run).inject_completed });
    // Release: after the status store, for the end check's acquire load.
    completed.fetch_add(1, Ordering::Release);
}

/// Lane 0 of an idle polling warp: whether the host asked to shut down and every root it
/// published has completed, which ends the kernel.
///
/// # Safety
/// Lane 0 in a resident run.
#[inline(never)]
pub(super) unsafe fn finished(w: &WarpCtx) -> bool {
    let published = if w.run().inject_flags & inject_flags::ONE_READER != 0 {
        // SAFETY: a field of the live control block.
        let seen = w.run_atomic(unsafe { &raw mut (*w.run).inject_shutdown_seen });
        // Acquire: the reader stored the final `published` copy before this flag.
        if seen.load(Ordering::Acquire) == 0 {
            return false;
        }
        // SAFETY: a field of the live control block.
        let copy = w.run_atomic(unsafe { &raw mut (*w.run).inject_seen });
        // Relaxed: ordered by the acquire above; final (read after `shutdown`).
        copy.load(Ordering::Relaxed)
    } else {
        let header = w.run().inject as *mut InjectHeader;
        // SAFETY: the header lives in mapped host memory for the kernel's life (contract).
        let shutdown = unsafe { u32::load::<Sys, Acquire>(&raw const (*header).shutdown) };
        if shutdown == 0 {
            return false;
        }
        // SAFETY: as above. Read after `shutdown`: final.
        unsafe { u32::load::<Sys, Acquire>(&raw const (*header).published) }
    };
    // SAFETY: a field of the live control block.
    let completed = w.run_atomic(unsafe { &raw mut (*w.run).inject_completed });
    // Acquire: pairs with the completions' release adds.
    completed.load(Ordering::Acquire) == published
}
