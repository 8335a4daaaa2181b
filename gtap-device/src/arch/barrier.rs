//! Layer 3: block barriers: `__syncthreads` and its reductions, and named barriers for
//! subsets of a block.
//!
//! A barrier also orders memory at block (`.cta`) scope: every access a thread makes before
//! it happens before every access any participating thread makes after it. That is what
//! makes shared-memory exchanges through a barrier correct without a fence.
//!
//! # Convergence
//! All of these are block-collective (see [`super::raw::barrier`]): the expected threads
//! must all arrive, and every thread of a warp must arrive at the same call. A barrier in
//! code that diverges within a warp, or that some threads of the block skip, is undefined
//! behaviour in the ISA (a hang, or a barrier that lets threads through early), hence
//! `unsafe`.

use super::raw::barrier as raw;

/// Waits until every thread of the block has arrived (`__syncthreads`, `bar.sync 0`).
///
/// # Safety
/// Every non-exited thread of the block must call this (or another barrier-0 function of
/// this module), every thread of a warp at the same call; see the module's Convergence
/// section.
#[inline(always)]
pub unsafe fn sync_threads() {
    // SAFETY: forwarded from this function's contract.
    unsafe { raw::bar_sync_0() }
}

/// [`sync_threads`], also returning how many threads passed `true`
/// (`__syncthreads_count`, `bar.red.popc.u32`).
///
/// # Safety
/// As for [`sync_threads`].
#[inline(always)]
pub unsafe fn sync_threads_count(pred: bool) -> u32 {
    // SAFETY: forwarded from this function's contract.
    unsafe { raw::bar_red_popc_u32(pred) }
}

/// [`sync_threads`], also returning whether every thread passed `true`
/// (`__syncthreads_and`, `bar.red.and.pred`).
///
/// # Safety
/// As for [`sync_threads`].
#[inline(always)]
pub unsafe fn sync_threads_and(pred: bool) -> bool {
    // SAFETY: forwarded from this function's contract.
    unsafe { raw::bar_red_and_pred(pred) }
}

/// [`sync_threads`], also returning whether some thread passed `true`
/// (`__syncthreads_or`, `bar.red.or.pred`).
///
/// # Safety
/// As for [`sync_threads`].
#[inline(always)]
pub unsafe fn sync_threads_or(pred: bool) -> bool {
    // SAFETY: forwarded from this function's contract.
    unsafe { raw::bar_red_or_pred(pred) }
}

/// The hardware barrier of [`agree_sync`] and [`agree_sync_and`]: never used by
/// [`sync_threads`] or by a [`NamedBarrier`] of the runtime, so that a thread at one of
/// these never pairs with a thread at another kind of barrier.
pub const AGREE_BARRIER: u32 = 1;

/// Waits until every thread of the block has arrived at barrier [`AGREE_BARRIER`]
/// (non-aligned `barrier.sync`: threads of a warp may come from different instructions).
///
/// # Safety
/// Every non-exited thread of the block must arrive at barrier [`AGREE_BARRIER`] (through
/// this or [`agree_sync_and`]) in this phase; nothing else may use that barrier.
#[inline(always)]
pub unsafe fn agree_sync() {
    // SAFETY: forwarded from this function's contract; the id is below 16.
    unsafe { raw::barrier_sync(AGREE_BARRIER) }
}

/// [`agree_sync`], also returning whether every thread passed `true`.
///
/// # Safety
/// As for [`agree_sync`].
#[inline(always)]
pub unsafe fn agree_sync_and(pred: bool) -> bool {
    // SAFETY: forwarded from this function's contract; the id is below 16.
    unsafe { raw::barrier_red_and(AGREE_BARRIER, pred) }
}

/// One of the block's hardware barriers 2 to 15, for a fixed number of threads (whole
/// warps). Barrier 0 is [`sync_threads`]'s and barrier 1 [`agree_sync`]'s; neither can be
/// named here.
///
/// Typical use is a producer-consumer hand-off inside a block: producer warps write shared
/// memory and [`arrive`](Self::arrive), consumer warps [`sync`](Self::sync) and then read;
/// the barrier completes when `threads` (producers plus consumers) have arrived.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NamedBarrier {
    id: u32,
    threads: u32,
}

impl NamedBarrier {
    /// Barrier `id` (2 to 15) completing at `threads` threads (a non-zero multiple of 32).
    /// Checked when evaluated; in a `const` that is at compile time.
    ///
    /// # Panics
    /// If `id` or `threads` is out of range.
    #[inline(always)]
    pub const fn new(id: u32, threads: u32) -> Self {
        assert!(
            id >= 2 && id <= 15,
            "named barrier id must be 2..=15 (0 is __syncthreads, 1 is Block::agree's)"
        );
        assert!(
            threads > 0 && threads.is_multiple_of(32),
            "named barrier thread count must be a non-zero multiple of 32"
        );
        NamedBarrier { id, threads }
    }

    /// The barrier's id.
    pub const fn id(self) -> u32 {
        self.id
    }

    /// The number of threads the barrier waits for.
    pub const fn threads(self) -> u32 {
        self.threads
    }

    /// Arrives and waits for the barrier to complete (`bar.sync id, threads`).
    ///
    /// # Safety
    /// Exactly `threads()` threads of the block, whole warps, must arrive at this barrier
    /// (through `sync` or `arrive`) in this phase, and `threads()` must not exceed the
    /// block size; see the module's Convergence section.
    #[inline(always)]
    pub unsafe fn sync(self) {
        // SAFETY: `new` checked the id and count; the caller guarantees the arrivals.
        unsafe { raw::bar_sync(self.id, self.threads) }
    }

    /// Arrives without waiting (`bar.arrive id, threads`): this warp's earlier writes are
    /// visible to the threads whose `sync` completes this phase.
    ///
    /// # Safety
    /// As for [`sync`](Self::sync); also, the caller must not arrive again before the
    /// barrier has completed.
    #[inline(always)]
    pub unsafe fn arrive(self) {
        // SAFETY: `new` checked the id and count; the caller guarantees the arrivals.
        unsafe { raw::bar_arrive(self.id, self.threads) }
    }
}
