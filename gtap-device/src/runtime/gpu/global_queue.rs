//! The global-queue ablation ([`sched::GlobalQueue`](super::sched::GlobalQueue)): one queue for the whole grid, to
//! measure what per-warp deques with work stealing save (GTaP section 6.1). Lane 0 of a warp
//! does the queue operations; the lanes copy ids in parallel. The protocol is in
//! [`GlobalQueue`]'s docs: positions are free-running `u32`s, and both the producers'
//! commits (`tail`) and the consumers' releases (`freed`) happen in reservation order, so
//! `tail` never covers an unwritten id and no slot is overwritten before it was read.
//!
//! The in-order waits spin on another warp's progress; every spin also watches the run's
//! stop word, so an error elsewhere (or a full queue here) cannot leave a warp spinning.

use super::layout::{GlobalQueue, STOP_ABORT};
use super::warp::WarpCtx;
use crate::runtime::RunError;
use crate::runtime::sync::{AtomicU32, Ordering};

/// The queue's four positions.
#[inline(always)]
fn state(w: &WarpCtx) -> (&AtomicU32, &AtomicU32, &AtomicU32, &AtomicU32) {
    let q = w.run().global_queue as *mut GlobalQueue;
    // SAFETY: the host allocated and zeroed one `GlobalQueue` for a run with the flag set;
    // its fields are only accessed atomically during the run.
    unsafe {
        (
            w.run_atomic(&raw mut (*q).alloc),
            w.run_atomic(&raw mut (*q).tail),
            w.run_atomic(&raw mut (*q).head),
            w.run_atomic(&raw mut (*q).freed),
        )
    }
}

/// Slot `pos` (free-running) of the ring.
#[inline(always)]
pub fn slot(w: &WarpCtx, pos: u32) -> &AtomicU32 {
    let run = w.run();
    let i = (pos & (run.global_capacity - 1)) as usize;
    // SAFETY: in bounds (the capacity is a power of two, allocated by the host); entries are
    // only accessed atomically.
    unsafe { &*(run.global_ring as *const AtomicU32).add(i) }
}

/// Whether the run is stopping (an error, or the host's request).
#[inline(always)]
fn stopping(w: &WarpCtx) -> bool {
    // SAFETY: a field of the live control block.
    let stop = w.run_atomic(unsafe { &raw mut (*w.run).stop });
    // Relaxed: the caller only gives up waiting; it reads nothing the stopper wrote.
    stop.load(Ordering::Relaxed) & STOP_ABORT != 0
}

/// Spins until `pos` holds `want` (Acquire), or the run stops; returns whether it got there.
#[inline(always)]
fn wait_for(w: &WarpCtx, pos: &AtomicU32, want: u32) -> bool {
    let mut spins = 0u32;
    // Acquire: the previous holder's ids (commit) or reads (release) happen before ours.
    while pos.load(Ordering::Acquire) != want {
        spins = spins.wrapping_add(1);
        if spins.is_multiple_of(256) && stopping(w) {
            return false;
        }
    }
    true
}

/// Lane 0: claims up to `want` committed ids; returns where they start and how many.
pub fn claim(w: &WarpCtx, want: u32) -> (u32, u32) {
    let (_, tail, head, _) = state(w);
    let mut h = head.load(Ordering::Relaxed);
    loop {
        // Acquire: the committing producer's ids happen before our reads of them.
        let k = tail.load(Ordering::Acquire).wrapping_sub(h).min(want);
        if k == 0 {
            return (h, 0);
        }
        // Relaxed: the ids' visibility came with `tail` above; `head` only hands out slots.
        match head.compare_exchange(h, h.wrapping_add(k), Ordering::Relaxed, Ordering::Relaxed) {
            Ok(_) => return (h, k),
            Err(now) => h = now,
        }
    }
}

/// Lane 0, after the warp read the ids `[h, h + k)` it claimed: frees their slots, in
/// claim order.
pub fn release(w: &WarpCtx, h: u32, k: u32) {
    let (_, _, _, freed) = state(w);
    if wait_for(w, freed, h) {
        // Release: our reads of the slots happen before a producer that sees `freed` past
        // them overwrites them.
        freed.store(h.wrapping_add(k), Ordering::Release);
    }
}

/// Lane 0: reserves `n` slots for new ids, or fails the run with a full queue.
pub fn reserve(w: &WarpCtx, n: u32) -> Option<u32> {
    let (alloc, _, _, freed) = state(w);
    let base = alloc.fetch_add(n, Ordering::Relaxed);
    let cap = w.run().global_capacity;
    // Acquire: consumers' reads of the slots we will overwrite happen before our writes.
    if base
        .wrapping_add(n)
        .wrapping_sub(freed.load(Ordering::Acquire))
        > cap
    {
        w.fail(RunError::QueueFull { capacity: cap });
        return None;
    }
    Some(base)
}

/// Lane 0, after the warp wrote the ids of its reservation `[base, base + n)`: commits
/// them, in reservation order.
pub fn commit(w: &WarpCtx, base: u32, n: u32) {
    let (_, tail, _, _) = state(w);
    if wait_for(w, tail, base) {
        // Release: the ids (written by the warp's lanes, ordered before by `bar.warp.sync`)
        // and the tasks' records happen before a consumer that acquires `tail`.
        tail.store(base.wrapping_add(n), Ordering::Release);
    }
}
