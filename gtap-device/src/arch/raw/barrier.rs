//! Block barriers: `bar.sync`, `bar.arrive`, `bar.red`.
//!
//! A block has 16 barriers, numbered 0 to 15; `__syncthreads` is barrier 0 with every thread
//! of the block. A barrier completes when the expected number of threads (all of the block,
//! or a given multiple of 32) has arrived. `bar.sync` and `bar.red` wait for completion,
//! `bar.arrive` counts the caller and goes on. Memory accesses of the arriving threads
//! before the barrier happen before the accesses of the waiting threads after it (for
//! threads of the block: `.cta` scope).
//!
//! # Why LLVM intrinsics here, not inline PTX
//! `bar` is the *aligned* form of `barrier`: every thread of a warp must execute the same
//! `bar` instruction. LLVM may duplicate an inline-assembly block into several branches
//! (tail duplication; it did so for a `bar.sync 0` after a loop, leaving lanes of one warp
//! at two different `bar.sync` instructions), and Rust cannot mark inline assembly
//! `convergent` to forbid that. LLVM's own barrier intrinsics
//! (`llvm.nvvm.barrier.cta.*.aligned.*`) are `convergent`, so LLVM never adds control flow
//! around them, and they print as exactly these instructions (`bar.sync 0`,
//! `bar.sync a, b`, `bar.arrive a, b`, `bar.red.popc.u32`, `bar.red.and.pred`,
//! `bar.red.or.pred`; `tests/tests/ptx_text.rs` checks the text).
//!
//! Two wrappers are the non-aligned form, `barrier` (not `bar`): each thread arrives on its
//! own, so threads of one warp may reach the barrier from different instructions (sm_70 and
//! later). They serve a barrier whose callers may have diverged by mistake
//! ([`crate::task::Block::agree`]): with the aligned form that mistake would be undefined.
//!
//! # Convergence
//! Every wrapper is block-collective: the expected number of threads must reach a barrier
//! instruction with the same id (and count), and all threads of a warp must execute the same
//! one. Otherwise the block hangs or the barrier completes early; the ISA leaves it
//! undefined. These are therefore `unsafe`, and so are the wrappers that build on them.

#[allow(improper_ctypes)]
unsafe extern "C" {
    #[link_name = "llvm.nvvm.barrier.cta.sync.aligned.all"]
    fn barrier_cta_sync_aligned_all(id: u32);
    #[link_name = "llvm.nvvm.barrier.cta.sync.aligned.count"]
    fn barrier_cta_sync_aligned_count(id: u32, count: u32);
    #[link_name = "llvm.nvvm.barrier.cta.arrive.aligned.count"]
    fn barrier_cta_arrive_aligned_count(id: u32, count: u32);
    #[link_name = "llvm.nvvm.barrier.cta.red.popc.aligned.all"]
    fn barrier_cta_red_popc_aligned_all(id: u32, pred: bool) -> u32;
    #[link_name = "llvm.nvvm.barrier.cta.red.and.aligned.all"]
    fn barrier_cta_red_and_aligned_all(id: u32, pred: bool) -> bool;
    #[link_name = "llvm.nvvm.barrier.cta.red.or.aligned.all"]
    fn barrier_cta_red_or_aligned_all(id: u32, pred: bool) -> bool;
    #[link_name = "llvm.nvvm.barrier.cta.sync.all"]
    fn barrier_cta_sync_all(id: u32);
    #[link_name = "llvm.nvvm.barrier.cta.red.and.all"]
    fn barrier_cta_red_and_all(id: u32, pred: bool) -> bool;
}

/// `bar.sync 0`: waits until every thread of the block has arrived (`__syncthreads`).
///
/// # Safety
/// Every non-exited thread of the block must reach a barrier 0 instruction, every thread
/// of a warp the same one (see the module's Convergence section).
#[inline(always)]
pub unsafe fn bar_sync_0() {
    // SAFETY: the caller guarantees the whole block, warp-uniformly, reaches barrier 0.
    unsafe { barrier_cta_sync_aligned_all(0) }
}

/// `bar.sync a, b`: waits on barrier `a` until `b` threads (a multiple of 32) have arrived.
///
/// # Safety
/// `a` must be below 16 and `b` a non-zero multiple of 32 no larger than the block. Exactly
/// `b` threads, whole warps, must reach barrier `a` (with `bar.sync` or `bar.arrive`) with the
/// same `b` in this phase (see the module's Convergence section).
#[inline(always)]
pub unsafe fn bar_sync(a: u32, b: u32) {
    // SAFETY: the caller guarantees the barrier id and count are valid and met.
    unsafe { barrier_cta_sync_aligned_count(a, b) }
}

/// `bar.arrive a, b`: counts the caller's warp as arrived at barrier `a` (which completes
/// at `b` threads) and continues without waiting. The producer half of a producer-consumer
/// pair whose consumers use [`bar_sync`]: the producer's earlier writes are visible to the
/// consumers once their `bar.sync` returns.
///
/// # Safety
/// As for [`bar_sync`]. Also, a thread must not arrive at the same barrier again before it
/// has completed.
#[inline(always)]
pub unsafe fn bar_arrive(a: u32, b: u32) {
    // SAFETY: the caller guarantees the barrier id and count are valid and met.
    unsafe { barrier_cta_arrive_aligned_count(a, b) }
}

/// `bar.red.popc.u32 d, 0, p`: a barrier 0 over the whole block that also returns how many
/// threads passed `pred = true` (`__syncthreads_count`).
///
/// # Safety
/// As for [`bar_sync_0`].
#[inline(always)]
pub unsafe fn bar_red_popc_u32(pred: bool) -> u32 {
    // SAFETY: the caller guarantees the whole block, warp-uniformly, reaches barrier 0.
    unsafe { barrier_cta_red_popc_aligned_all(0, pred) }
}

/// `bar.red.and.pred d, 0, p`: a barrier 0 over the whole block that returns whether every
/// thread passed `true` (`__syncthreads_and`).
///
/// # Safety
/// As for [`bar_sync_0`].
#[inline(always)]
pub unsafe fn bar_red_and_pred(pred: bool) -> bool {
    // SAFETY: the caller guarantees the whole block, warp-uniformly, reaches barrier 0.
    unsafe { barrier_cta_red_and_aligned_all(0, pred) }
}

/// `bar.red.or.pred d, 0, p`: a barrier 0 over the whole block that returns whether some
/// thread passed `true` (`__syncthreads_or`).
///
/// # Safety
/// As for [`bar_sync_0`].
#[inline(always)]
pub unsafe fn bar_red_or_pred(pred: bool) -> bool {
    // SAFETY: the caller guarantees the whole block, warp-uniformly, reaches barrier 0.
    unsafe { barrier_cta_red_or_aligned_all(0, pred) }
}

/// `barrier.sync a` (non-aligned): waits on barrier `a` until every thread of the block has
/// arrived at it; threads of a warp may arrive from different instructions.
///
/// # Safety
/// `a` must be below 16. Every non-exited thread of the block must reach barrier `a` (with
/// this function or [`barrier_red_and`]) in this phase, and no thread may use barrier `a`
/// with a thread count.
#[inline(always)]
pub unsafe fn barrier_sync(a: u32) {
    // SAFETY: the caller guarantees the barrier id and the arrivals.
    unsafe { barrier_cta_sync_all(a) }
}

/// `barrier.red.and.pred d, a, p` (non-aligned): [`barrier_sync`] on barrier `a` that
/// returns whether every thread passed `true`.
///
/// # Safety
/// As for [`barrier_sync`].
#[inline(always)]
pub unsafe fn barrier_red_and(a: u32, pred: bool) -> bool {
    // SAFETY: the caller guarantees the barrier id and the arrivals.
    unsafe { barrier_cta_red_and_all(a, pred) }
}
