//! Warp-collective kernels: shuffles (idx, up, down, xor; full warp and 8-lane segments;
//! 32- and 64-bit), ballot, votes, `activemask`, `__syncwarp`.
//!
//! All run on [`WARP_BLOCKS`](super::values::WARP_BLOCKS) x [`WARP_THREADS`](super::values::WARP_THREADS) threads (two full warps per block) and
//! write per-thread results to `out` at the thread's global index `i` (times a stride where
//! noted). Every lane of both warps takes part, so `FULL_MASK` is the right mask.
//! Thread `i`'s input is `word(i)` (or `dword(i)`); the host recomputes the answers.

use gtap_device::arch::index::{global_thread_id, lane_id, thread_id_in_block};
use gtap_device::arch::shared::dynamic_shared_memory;
use gtap_device::arch::warp::{self, FULL_MASK};

use super::values::{VOTE_STRIDE, dword, word};

/// Even lanes.
const EVEN: u32 = 0x5555_5555;

macro_rules! shfl_kernel {
    ($($name:ident: $t:ty, $input:ident, |$mask:ident, $v:ident| $call:expr;)*) => {$(
        #[doc = concat!("`out[i] = ", stringify!($call), "` with `v = ", stringify!($input), "(i)`.")]
        ///
        /// # Safety
        /// Launch as the module docs say; `out` holds one element per thread.
        #[unsafe(no_mangle)]
        pub unsafe extern "ptx-kernel" fn $name(out: *mut $t) {
            let i = global_thread_id();
            let $mask = FULL_MASK;
            let $v: $t = $input(i);
            // SAFETY: every lane of the warp executes this shuffle with the full mask, and
            // every source lane is in the warp.
            let r = unsafe { $call };
            // SAFETY: `out` has one element per thread.
            unsafe { *out.add(i as usize) = r };
        }
    )*};
}

shfl_kernel! {
    warp_shfl_idx_u32: u32, word, |m, v| warp::shfl_idx(m, v, (lane_id() + 3) % 32);
    warp_shfl_up_u32: u32, word, |m, v| warp::shfl_up(m, v, 1);
    warp_shfl_down_u32: u32, word, |m, v| warp::shfl_down(m, v, 2);
    warp_shfl_xor_u32: u32, word, |m, v| warp::shfl_xor(m, v, 5);
    warp_shfl_idx_width8_u32: u32, word, |m, v| warp::shfl_idx_width(m, v, 3, 8);
    warp_shfl_up_width8_u32: u32, word, |m, v| warp::shfl_up_width(m, v, 3, 8);
    warp_shfl_down_width8_u32: u32, word, |m, v| warp::shfl_down_width(m, v, 3, 8);
    warp_shfl_xor_width8_u32: u32, word, |m, v| warp::shfl_xor_width(m, v, 9, 8);
    warp_shfl_idx_u64: u64, dword, |m, v| warp::shfl_idx(m, v, (lane_id() + 3) % 32);
    warp_shfl_up_u64: u64, dword, |m, v| warp::shfl_up(m, v, 1);
    warp_shfl_down_u64: u64, dword, |m, v| warp::shfl_down(m, v, 2);
    warp_shfl_xor_u64: u64, dword, |m, v| warp::shfl_xor(m, v, 5);
}

/// `out[i] = ballot(FULL_MASK, lane is odd)`: `0xAAAA_AAAA` everywhere.
///
/// # Safety
/// Launch as the module docs say; `out` holds one `u32` per thread.
#[unsafe(no_mangle)]
pub unsafe extern "ptx-kernel" fn warp_ballot_parity(out: *mut u32) {
    let i = global_thread_id();
    // SAFETY: every lane of the warp votes with the full mask.
    let r = unsafe { warp::ballot(FULL_MASK, lane_id() % 2 == 1) };
    // SAFETY: `out` has one element per thread.
    unsafe { *out.add(i as usize) = r };
}

/// Even lanes only: `out[i] = ballot(EVEN, lane.is_multiple_of(4))` (`0x1111_1111`); odd lanes write
/// `0xdead`. Checks that a partial mask takes part alone.
///
/// # Safety
/// Launch as the module docs say; `out` holds one `u32` per thread.
#[unsafe(no_mangle)]
pub unsafe extern "ptx-kernel" fn warp_ballot_even_mask(out: *mut u32) {
    let i = global_thread_id();
    let lane = lane_id();
    let r = if lane.is_multiple_of(2) {
        // SAFETY: exactly the even lanes execute this vote, with the even-lane mask.
        unsafe { warp::ballot(EVEN, lane.is_multiple_of(4)) }
    } else {
        0xdead
    };
    // SAFETY: `out` has one element per thread.
    unsafe { *out.add(i as usize) = r };
}

/// `out[i * VOTE_STRIDE + ..] = [any(lane == 7), any(false), all(true), all(lane != 7),
/// uniform(true), uniform(lane is even)]` as 0/1: `[1, 0, 1, 0, 1, 0]`.
///
/// # Safety
/// Launch as the module docs say; `out` holds `VOTE_STRIDE` `u32`s per thread.
#[unsafe(no_mangle)]
pub unsafe extern "ptx-kernel" fn warp_vote(out: *mut u32) {
    let i = global_thread_id();
    let lane = lane_id();
    // SAFETY: every lane of the warp executes each vote with the full mask.
    let r = unsafe {
        [
            warp::any(FULL_MASK, lane == 7),
            warp::any(FULL_MASK, false),
            warp::all(FULL_MASK, true),
            warp::all(FULL_MASK, lane != 7),
            warp::uniform(FULL_MASK, true),
            warp::uniform(FULL_MASK, lane.is_multiple_of(2)),
        ]
    };
    for (k, b) in r.into_iter().enumerate() {
        // SAFETY: `out` has `VOTE_STRIDE` elements per thread.
        unsafe { *out.add((i * VOTE_STRIDE) as usize + k) = b as u32 };
    }
}

/// `out[2i] = activemask()` at the top; `out[2i + 1] = activemask()` inside a branch only
/// even lanes take (odd lanes write 0). The host checks that each mask holds the caller's
/// own lane, and that the branch's mask holds no odd lane.
///
/// # Safety
/// Launch as the module docs say; `out` holds two `u32`s per thread.
#[unsafe(no_mangle)]
pub unsafe extern "ptx-kernel" fn warp_activemask(out: *mut u32) {
    let i = global_thread_id() as usize;
    let top = warp::active_mask();
    let branch = if lane_id().is_multiple_of(2) {
        warp::active_mask()
    } else {
        0
    };
    // SAFETY: `out` has two elements per thread.
    unsafe {
        *out.add(2 * i) = top;
        *out.add(2 * i + 1) = branch;
    }
}

/// Shared-memory exchange through `__syncwarp`: each thread writes `word(i)` to its
/// dynamic shared slot, `sync_warp(FULL_MASK)`, then reads its neighbour's (`lane ^ 1`).
/// Then the even lanes alone do the same through `sync_warp(EVEN)` with neighbour
/// `lane ^ 2`, into `out[n + i]` (`n` the thread count; odd lanes leave it alone).
/// Launch with `WARP_THREADS * 4` bytes of dynamic shared memory; `out` holds two `u32`s
/// per thread.
///
/// # Safety
/// As above.
#[unsafe(no_mangle)]
pub unsafe extern "ptx-kernel" fn warp_syncwarp(out: *mut u32, n: u32) {
    let smem = dynamic_shared_memory::<u32>();
    let i = global_thread_id();
    let t = thread_id_in_block();
    let lane = lane_id();
    // SAFETY: each thread writes its own slot (the launch gives one per thread); the
    // neighbours' slots are read only after the warp barrier, which orders the writes
    // before the reads for its lanes.
    unsafe {
        smem.add(t as usize).write(word(i));
        warp::sync_warp(FULL_MASK);
        *out.add(i as usize) = smem.add((t ^ 1) as usize).read();
        warp::sync_warp(FULL_MASK);
    }
    if lane.is_multiple_of(2) {
        // SAFETY: as above, among the even lanes (all of which execute this branch, with
        // the even-lane mask); the odd lanes no longer touch shared memory.
        unsafe {
            smem.add(t as usize).write(word(i + n));
            warp::sync_warp(EVEN);
            *out.add((n + i) as usize) = smem.add((t ^ 2) as usize).read();
        }
    }
}
