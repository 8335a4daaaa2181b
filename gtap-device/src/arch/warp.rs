//! Layer 3: warp collectives over typed values: shuffles, votes, `__syncwarp`.
//!
//! Each function takes the `mask` of lanes that take part, as CUDA's `__shfl_sync` family
//! does, and is `unsafe` for the reason the raw instructions are (see below). The shuffles
//! move any [`ShuffleValue`]: 32-bit values in one `shfl.sync`, 64-bit values in two.
//!
//! # Convergence
//! All functions here except [`active_mask`] and the lane masks are warp-collective: the
//! calling lane must be in `mask`, and every lane in `mask` must call the same function with
//! the same `mask` (and the same `width`) before any of them can return. A shuffle reading
//! a lane outside `mask` gets an undefined value. Breaking this is undefined behaviour in the
//! ISA (in practice a hang or garbage), which is why these are `unsafe fn`.
//!
//! On `sm_70` and later the lanes synchronise by mask, not by program counter, so the
//! lanes may reach the call from different places in the code (and LLVM, which is not told
//! these are collective, may duplicate a call into several branches without harm).

use super::raw::{sreg, warp as raw};

pub use super::WARP_SIZE;

/// The mask naming every lane of a warp.
pub const FULL_MASK: u32 = u32::MAX;

mod sealed {
    pub trait Sealed {}
}

/// A value a shuffle can move: `u32`, `i32`, `f32` (one `shfl.sync`), `u64`, `i64`, `f64`
/// (two). Sealed.
pub trait ShuffleValue: sealed::Sealed + Copy {
    /// Applies `shfl` (a 32-bit shuffle with fixed lane argument) to every 32-bit half.
    #[doc(hidden)]
    fn map_words(self, shfl: impl FnMut(u32) -> u32) -> Self;
}

macro_rules! shuffle32 {
    ($($t:ty: $to:expr, $from:expr;)*) => {$(
        impl sealed::Sealed for $t {}
        impl ShuffleValue for $t {
            #[inline(always)]
            fn map_words(self, mut shfl: impl FnMut(u32) -> u32) -> Self {
                let to: fn($t) -> u32 = $to;
                let from: fn(u32) -> $t = $from;
                from(shfl(to(self)))
            }
        }
    )*};
}

macro_rules! shuffle64 {
    ($($t:ty: $to:expr, $from:expr;)*) => {$(
        impl sealed::Sealed for $t {}
        impl ShuffleValue for $t {
            #[inline(always)]
            fn map_words(self, mut shfl: impl FnMut(u32) -> u32) -> Self {
                let to: fn($t) -> u64 = $to;
                let from: fn(u64) -> $t = $from;
                let bits = to(self);
                let lo = shfl(bits as u32) as u64;
                let hi = shfl((bits >> 32) as u32) as u64;
                from(lo | (hi << 32))
            }
        }
    )*};
}

shuffle32! {
    u32: |v| v, |w| w;
    i32: |v| v as u32, |w| w as i32;
    f32: f32::to_bits, f32::from_bits;
}

shuffle64! {
    u64: |v| v, |w| w;
    i64: |v| v as u64, |w| w as i64;
    f64: f64::to_bits, f64::from_bits;
}

/// The `c` operand of `shfl.sync`: segment mask for sub-warps of `width` lanes, and the
/// clamp (`0x1f` for idx, down, bfly; `0` for up).
#[inline(always)]
const fn shfl_c(width: u32, up: bool) -> u32 {
    ((WARP_SIZE - width) << 8) | if up { 0 } else { 0x1f }
}

/// Returns `v` of lane `src_lane` (`__shfl_sync(mask, v, src_lane)`).
///
/// # Safety
/// See the module's Convergence section; `src_lane` must be in `mask`.
#[inline(always)]
pub unsafe fn shfl_idx<T: ShuffleValue>(mask: u32, v: T, src_lane: u32) -> T {
    // SAFETY: forwarded from this function's contract.
    unsafe { shfl_idx_width(mask, v, src_lane, WARP_SIZE) }
}

/// Returns `v` of lane `src_lane` of the caller's segment of `width` lanes (`width` a power
/// of two up to 32; `__shfl_sync(mask, v, src_lane, width)`).
///
/// # Safety
/// See the module's Convergence section; the source lane must be in `mask`.
#[inline(always)]
pub unsafe fn shfl_idx_width<T: ShuffleValue>(mask: u32, v: T, src_lane: u32, width: u32) -> T {
    let c = shfl_c(width, false);
    // SAFETY: forwarded from this function's contract.
    v.map_words(|w| unsafe { raw::shfl_sync_idx_b32(w, src_lane, c, mask) })
}

/// Returns `v` of the lane `delta` below the caller, or the caller's own `v` if that lane
/// is outside its segment (`__shfl_up_sync`).
///
/// # Safety
/// See the module's Convergence section.
#[inline(always)]
pub unsafe fn shfl_up<T: ShuffleValue>(mask: u32, v: T, delta: u32) -> T {
    // SAFETY: forwarded from this function's contract.
    unsafe { shfl_up_width(mask, v, delta, WARP_SIZE) }
}

/// [`shfl_up`] within segments of `width` lanes.
///
/// # Safety
/// See the module's Convergence section.
#[inline(always)]
pub unsafe fn shfl_up_width<T: ShuffleValue>(mask: u32, v: T, delta: u32, width: u32) -> T {
    let c = shfl_c(width, true);
    // SAFETY: forwarded from this function's contract.
    v.map_words(|w| unsafe { raw::shfl_sync_up_b32(w, delta, c, mask) })
}

/// Returns `v` of the lane `delta` above the caller, or the caller's own `v` if that lane
/// is outside its segment (`__shfl_down_sync`).
///
/// # Safety
/// See the module's Convergence section.
#[inline(always)]
pub unsafe fn shfl_down<T: ShuffleValue>(mask: u32, v: T, delta: u32) -> T {
    // SAFETY: forwarded from this function's contract.
    unsafe { shfl_down_width(mask, v, delta, WARP_SIZE) }
}

/// [`shfl_down`] within segments of `width` lanes.
///
/// # Safety
/// See the module's Convergence section.
#[inline(always)]
pub unsafe fn shfl_down_width<T: ShuffleValue>(mask: u32, v: T, delta: u32, width: u32) -> T {
    let c = shfl_c(width, false);
    // SAFETY: forwarded from this function's contract.
    v.map_words(|w| unsafe { raw::shfl_sync_down_b32(w, delta, c, mask) })
}

/// Returns `v` of lane `lane_id ^ lane_mask` (`__shfl_xor_sync`; butterfly reductions).
///
/// # Safety
/// See the module's Convergence section.
#[inline(always)]
pub unsafe fn shfl_xor<T: ShuffleValue>(mask: u32, v: T, lane_mask: u32) -> T {
    // SAFETY: forwarded from this function's contract.
    unsafe { shfl_xor_width(mask, v, lane_mask, WARP_SIZE) }
}

/// [`shfl_xor`] within segments of `width` lanes.
///
/// # Safety
/// See the module's Convergence section.
#[inline(always)]
pub unsafe fn shfl_xor_width<T: ShuffleValue>(mask: u32, v: T, lane_mask: u32, width: u32) -> T {
    let c = shfl_c(width, false);
    // SAFETY: forwarded from this function's contract.
    v.map_words(|w| unsafe { raw::shfl_sync_bfly_b32(w, lane_mask, c, mask) })
}

/// The lanes of `mask` that passed `true` (`__ballot_sync`).
///
/// # Safety
/// See the module's Convergence section.
#[inline(always)]
pub unsafe fn ballot(mask: u32, pred: bool) -> u32 {
    // SAFETY: forwarded from this function's contract.
    unsafe { raw::vote_sync_ballot_b32(pred, mask) }
}

/// Whether some lane of `mask` passed `true` (`__any_sync`).
///
/// # Safety
/// See the module's Convergence section.
#[inline(always)]
pub unsafe fn any(mask: u32, pred: bool) -> bool {
    // SAFETY: forwarded from this function's contract.
    unsafe { raw::vote_sync_any_pred(pred, mask) }
}

/// Whether every lane of `mask` passed `true` (`__all_sync`).
///
/// # Safety
/// See the module's Convergence section.
#[inline(always)]
pub unsafe fn all(mask: u32, pred: bool) -> bool {
    // SAFETY: forwarded from this function's contract.
    unsafe { raw::vote_sync_all_pred(pred, mask) }
}

/// Whether every lane of `mask` passed the same value (`__uni_sync`).
///
/// # Safety
/// See the module's Convergence section.
#[inline(always)]
pub unsafe fn uniform(mask: u32, pred: bool) -> bool {
    // SAFETY: forwarded from this function's contract.
    unsafe { raw::vote_sync_uni_pred(pred, mask) }
}

/// Waits for every lane of `mask` and orders their memory accesses before it before their
/// accesses after it (`__syncwarp(mask)`).
///
/// # Safety
/// See the module's Convergence section.
#[inline(always)]
pub unsafe fn sync_warp(mask: u32) {
    // SAFETY: forwarded from this function's contract.
    unsafe { raw::bar_warp_sync(mask) }
}

/// The lanes executing this call together with the caller right now (`__activemask`).
/// A snapshot, not a promise of convergence: see [`raw::activemask_b32`].
#[inline(always)]
pub fn active_mask() -> u32 {
    raw::activemask_b32()
}

/// The lanes below the caller (`%lanemask_lt`): `ballot(...) & lane_mask_lt()` counts the
/// voters before this lane, e.g. to give each a slot.
#[inline(always)]
pub fn lane_mask_lt() -> u32 {
    sreg::lanemask_lt()
}

/// Only the caller's lane (`%lanemask_eq`).
#[inline(always)]
pub fn lane_mask_eq() -> u32 {
    sreg::lanemask_eq()
}
