//! Warp-collective instructions: `shfl.sync`, `vote.sync`, `activemask`, `bar.warp.sync`.
//!
//! Each `.sync` instruction names the lanes that take part in a 32-bit `membermask`. On
//! `sm_70` and later (independent thread scheduling) the lanes need not arrive at the same
//! instruction in lockstep: each waits until every lane of the mask has executed a
//! `.sync` instruction of the same kind with the same mask. The ISA leaves the result
//! undefined when the executing lane is not in its own mask, or when a lane of the mask
//! never executes the instruction (in practice: a hang), hence `unsafe`.
//!
//! # Convergence
//! Every wrapper here except [`activemask_b32`] is warp-collective: the executing lane must
//! be in `membermask`, and every lane in `membermask` must execute the same wrapper with
//! the same `membermask` (and, for the shuffles, the same `c`). This is on the caller.
//!
//! LLVM is not told that these are collective (Rust cannot mark inline assembly
//! `convergent`). On `sm_70` and later that is harmless for these instructions, which
//! synchronise by mask, not by program counter.

use core::arch::asm;

/// The `# Safety` text of the warp-collective wrappers.
macro_rules! collective_safety {
    () => {
        "The calling lane must be in `membermask`, and every lane in `membermask` must execute \
         this same operation with the same `membermask` (see the module's Convergence \
         section); otherwise the result is undefined and the warp may hang."
    };
}

macro_rules! shfl {
    ($($name:ident, $mode:literal, $what:literal;)*) => {
        $(
            #[doc = concat!("`shfl.sync.", $mode, ".b32 d, a, b, c, membermask`: ", $what)]
            #[doc = ""]
            #[doc = "`c` packs two fields: bits 8..13 hold the *segment mask* (`(32 - width) << 8` \
                     for sub-warps of `width` lanes, a power of two) and bits 0..5 the *clamp* \
                     (`0x1f` for idx, down and bfly; `0` for up). A source lane outside the \
                     segment or clamp makes `d` the caller's own `a`."]
            #[doc = ""]
            #[doc = "# Safety"]
            #[doc = collective_safety!()]
            #[doc = " Every lane in `membermask` must also pass the same `c`, and each source \
                     lane must be in `membermask`, or `d` is undefined."]
            #[inline(always)]
            pub unsafe fn $name(a: u32, b: u32, c: u32, membermask: u32) -> u32 {
                let d: u32;
                // SAFETY: the caller guarantees the lanes of `membermask` converge on this
                // shuffle; it reads only registers.
                unsafe {
                    asm!(
                        concat!("shfl.sync.", $mode, ".b32 {d}, {a}, {b}, {c}, {m};"),
                        d = out(reg32) d,
                        a = in(reg32) a,
                        b = in(reg32) b,
                        c = in(reg32) c,
                        m = in(reg32) membermask,
                        options(nomem, nostack),
                    );
                }
                d
            }
        )*
    };
}

shfl! {
    shfl_sync_idx_b32, "idx", "returns `a` of lane `b` (within the caller's segment).";
    shfl_sync_up_b32, "up", "returns `a` of the lane `b` below the caller.";
    shfl_sync_down_b32, "down", "returns `a` of the lane `b` above the caller.";
    shfl_sync_bfly_b32, "bfly", "returns `a` of the lane whose index is the caller's XOR `b`.";
}

/// `vote.sync.ballot.b32 d, p, membermask`: bit `i` of the result is set iff lane `i` is
/// in `membermask` and passed `pred = true`.
///
/// # Safety
/// The calling lane must be in `membermask`, and every lane in `membermask` must execute
/// this same operation with the same `membermask` (see the module's Convergence section);
/// otherwise the result is undefined and the warp may hang.
#[inline(always)]
pub unsafe fn vote_sync_ballot_b32(pred: bool, membermask: u32) -> u32 {
    let d: u32;
    // SAFETY: the caller guarantees the lanes of `membermask` converge on this vote; it
    // reads only registers.
    unsafe {
        asm!(
            "{{ .reg .pred %vp; setp.ne.u32 %vp, {p}, 0; vote.sync.ballot.b32 {d}, %vp, {m}; }}",
            d = out(reg32) d,
            p = in(reg32) pred as u32,
            m = in(reg32) membermask,
            options(nomem, nostack),
        );
    }
    d
}

macro_rules! vote_pred {
    ($($name:ident, $mode:literal, $what:literal;)*) => {
        $(
            #[doc = concat!("`vote.sync.", $mode, ".pred d, p, membermask`: ", $what)]
            #[doc = ""]
            #[doc = "# Safety"]
            #[doc = collective_safety!()]
            #[inline(always)]
            pub unsafe fn $name(pred: bool, membermask: u32) -> bool {
                let d: u32;
                // SAFETY: the caller guarantees the lanes of `membermask` converge on this
                // vote; it reads only registers.
                unsafe {
                    asm!(
                        concat!(
                            "{{ .reg .pred %vp; setp.ne.u32 %vp, {p}, 0; vote.sync.", $mode,
                            ".pred %vp, %vp, {m}; selp.u32 {d}, 1, 0, %vp; }}"
                        ),
                        d = out(reg32) d,
                        p = in(reg32) pred as u32,
                        m = in(reg32) membermask,
                        options(nomem, nostack),
                    );
                }
                d != 0
            }
        )*
    };
}

vote_pred! {
    vote_sync_any_pred, "any", "true iff some lane of `membermask` passed `true`.";
    vote_sync_all_pred, "all", "true iff every lane of `membermask` passed `true`.";
    vote_sync_uni_pred, "uni", "true iff every lane of `membermask` passed the same value.";
}

/// `activemask.b32 d`: the lanes of this warp that are executing this instruction together
/// with the caller (the caller's bit is always set).
///
/// Which lanes those are is a snapshot of the hardware's current grouping: it is *not* a
/// promise that they converge later, so it is no substitute for a mask known from the
/// program's structure. Not collective; safe.
#[inline(always)]
pub fn activemask_b32() -> u32 {
    let d: u32;
    // SAFETY: `activemask` has no precondition and touches no memory.
    unsafe {
        asm!(
            "activemask.b32 {d};",
            d = out(reg32) d,
            options(nomem, nostack)
        );
    }
    d
}

/// `bar.warp.sync membermask`: waits until every lane of `membermask` has executed a
/// `bar.warp.sync` with the same mask (`__syncwarp`). It also orders memory among the
/// participating lanes: their accesses before it happen before their accesses after it.
///
/// # Safety
/// The calling lane must be in `membermask`, and every lane in `membermask` must execute
/// this same operation with the same `membermask` (see the module's Convergence section);
/// otherwise the result is undefined and the warp may hang.
#[inline(always)]
pub unsafe fn bar_warp_sync(membermask: u32) {
    // SAFETY: the caller guarantees the lanes of `membermask` converge here. No `nomem`:
    // the barrier orders memory, so the compiler must not move accesses across it.
    unsafe {
        asm!("bar.warp.sync {m};", m = in(reg32) membermask, options(nostack));
    }
}
