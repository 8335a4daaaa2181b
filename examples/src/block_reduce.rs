//! Block-wide reductions for block tasks: every thread of the team gives a value, every thread
//! gets the combination of all of them.
//!
//! Block tasks split their data-parallel work over the team (`Block::index`,
//! `Block::size`), and most need the parts back as one value: the synthetic tree's checksum,
//! a long row of SpMV. The team shares nothing but its scratch memory and its barrier, so a
//! reduction goes through them:
//!
//! - on the GPU, when the block is whole warps (its size a multiple of 32), each warp first
//!   combines its 32 values with shuffles, lane 0 of each warp writes the warp's value to
//!   the scratch, and after a barrier every thread combines those (one per warp, at most 32);
//!   a block of one warp needs neither scratch nor barrier;
//! - otherwise (the CPU backend's teams, odd GPU block sizes) every thread writes its value
//!   to the scratch and, after a barrier, every thread combines all of them.
//!
//! Every thread combines the same values in the same order (index order), so all get the same
//! result even for an operation that is not associative (floating-point addition).
//! A second barrier at the end keeps a fast thread from overwriting the scratch (in a later
//! reduction or the team's next task) while a slow one still reads it.
//!
//! The scratch must hold [`cpu_scratch_needed`] bytes on the CPU backend
//! (`CpuConfig::block_scratch`, whose default of 4096 bytes is enough for every team size it
//! allows) and [`gpu_scratch_needed`] on the GPU (`GpuConfig::block_scratch`: 256 bytes are
//! enough for any block of whole warps).
//!
//! # Convergence
//! A reduction is block-wide, like `Block::sync`: every thread of the team must call it, the
//! same number of times, on the same path.

use gtap::Block;

/// Scratch bytes a reduction needs on a GPU block of `threads` threads
/// (`GpuConfig::block_scratch`): 8 per warp for whole warps (none for a single warp), else 8
/// per thread.
pub const fn gpu_scratch_needed(threads: u32) -> usize {
    if threads.is_multiple_of(32) {
        if threads == 32 {
            0
        } else {
            8 * (threads as usize / 32)
        }
    } else {
        cpu_scratch_needed(threads)
    }
}

/// Scratch bytes a reduction needs on a CPU team of `threads` threads
/// (`CpuConfig::block_scratch`): 8 per thread (none for a team of one).
pub const fn cpu_scratch_needed(threads: u32) -> usize {
    if threads == 1 {
        0
    } else {
        8 * threads as usize
    }
}

/// What this build's reductions need: [`gpu_scratch_needed`] on the GPU, else
/// [`cpu_scratch_needed`].
pub const fn scratch_needed(threads: u32) -> usize {
    if cfg!(target_arch = "nvptx64") {
        gpu_scratch_needed(threads)
    } else {
        cpu_scratch_needed(threads)
    }
}

/// The wrapping sum of every thread's `v`, on every thread.
#[inline(always)]
pub fn sum_u64(b: Block, v: u64) -> u64 {
    reduce(b, v, u64::wrapping_add)
}

/// The sum of every thread's `v`, on every thread (added in the same order on all threads,
/// so all get the same bits).
#[inline(always)]
pub fn sum_f64(b: Block, v: f64) -> f64 {
    let add = |x: u64, y: u64| (f64::from_bits(x) + f64::from_bits(y)).to_bits();
    f64::from_bits(reduce(b, v.to_bits(), add))
}

/// Combines every thread's `v` with `op` (values as 64-bit words), on every thread.
///
/// # Panics
/// If the team's scratch is smaller than [`scratch_needed`].
#[inline(always)]
pub fn reduce(b: Block, v: u64, op: impl Fn(u64, u64) -> u64 + Copy) -> u64 {
    let size = b.size();
    if size == 1 {
        return v;
    }
    assert!(
        b.scratch_bytes() >= scratch_needed(size),
        "a block reduction needs more scratch memory: set block_scratch (CpuConfig or GpuConfig)"
    );
    let slots = b.scratch().cast::<u64>();
    #[cfg(target_arch = "nvptx64")]
    if size.is_multiple_of(32) {
        return warps::reduce(b, v, op, slots);
    }
    // SAFETY: the scratch holds `size` u64s (checked above), aligned to 8 (`Block::scratch`);
    // each thread writes its own slot.
    unsafe { slots.add(b.index() as usize).write(v) };
    b.sync();
    // SAFETY: every slot was written before the barrier, and none is written again before the
    // barrier below.
    let total = (1..size as usize).fold(unsafe { slots.read() }, |acc, i| {
        // SAFETY: as above.
        op(acc, unsafe { slots.add(i).read() })
    });
    b.sync();
    total
}

/// The GPU's reduction for blocks of whole warps.
#[cfg(target_arch = "nvptx64")]
mod warps {
    use gtap::Block;
    use gtap::device::arch::warp::shfl_xor;

    /// Every lane of the warp takes part.
    const FULL: u32 = u32::MAX;

    #[inline(always)]
    pub fn reduce(b: Block, v: u64, op: impl Fn(u64, u64) -> u64 + Copy, slots: *mut u64) -> u64 {
        let mut v = v;
        let mut lane_mask = 16;
        while lane_mask > 0 {
            // SAFETY: the block is whole warps and every thread of it reaches this reduction
            // (the module's convergence rule), so all 32 lanes of each warp take part.
            v = op(v, unsafe { shfl_xor(FULL, v, lane_mask) });
            lane_mask /= 2;
        }
        // A butterfly leaves the warp's total on every lane, in an order that depends on the
        // lane: take lane 0's, so that every thread ends with the same bits.
        // SAFETY: as above.
        v = unsafe { gtap::device::arch::warp::shfl_idx(FULL, v, 0) };
        let warps = b.size() / 32;
        if warps == 1 {
            return v;
        }
        if b.index().is_multiple_of(32) {
            // SAFETY: the scratch holds one u64 per warp (checked by the caller); each warp's
            // lane 0 writes its own slot.
            unsafe { slots.add(b.index() as usize / 32).write(v) };
        }
        b.sync();
        // SAFETY: every warp's slot was written before the barrier, and none is written again
        // before the barrier below.
        let total = (1..warps as usize).fold(unsafe { slots.read() }, |acc, i| {
            // SAFETY: as above.
            op(acc, unsafe { slots.add(i).read() })
        });
        b.sync();
        total
    }
}
