//! Layer 3: where the calling thread is: thread, block, grid, lane and warp indices.
//!
//! The `_x`/`_y`/`_z` functions are the PTX special registers; the rest derive linear
//! indices from them the way the hardware numbers threads: x fastest, then y, then z
//! (`linear = x + y * dim.x + z * dim.x * dim.y`), and threads fill warps in that order,
//! so a warp is 32 consecutive linear thread indices of one block.
//!
//! Linear and global indices are `u32` and wrap (silently) for grids of 2^32 threads or
//! more; gtap's persistent kernels are far smaller.

#[cfg(target_arch = "nvptx64")]
use super::raw::sreg;

/// A 3-component launch dimension or index (`dim3`/`uint3`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Dim3 {
    /// x, the fastest-varying component.
    pub x: u32,
    /// y.
    pub y: u32,
    /// z, the slowest-varying component.
    pub z: u32,
}

impl Dim3 {
    /// `x * y * z` (wrapping).
    #[inline(always)]
    pub const fn volume(self) -> u32 {
        self.x.wrapping_mul(self.y).wrapping_mul(self.z)
    }

    /// The linear index of `self` as a position within `dim` (x fastest; wrapping).
    #[inline(always)]
    pub const fn linear_in(self, dim: Dim3) -> u32 {
        self.x.wrapping_add(
            dim.x
                .wrapping_mul(self.y.wrapping_add(dim.y.wrapping_mul(self.z))),
        )
    }
}

/// The thread's index in its block (`threadIdx`).
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
pub fn thread_idx() -> Dim3 {
    Dim3 {
        x: sreg::tid_x(),
        y: sreg::tid_y(),
        z: sreg::tid_z(),
    }
}

/// The block size (`blockDim`).
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
pub fn block_dim() -> Dim3 {
    Dim3 {
        x: sreg::ntid_x(),
        y: sreg::ntid_y(),
        z: sreg::ntid_z(),
    }
}

/// The block's index in the grid (`blockIdx`).
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
pub fn block_idx() -> Dim3 {
    Dim3 {
        x: sreg::ctaid_x(),
        y: sreg::ctaid_y(),
        z: sreg::ctaid_z(),
    }
}

/// The grid size in blocks (`gridDim`).
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
pub fn grid_dim() -> Dim3 {
    Dim3 {
        x: sreg::nctaid_x(),
        y: sreg::nctaid_y(),
        z: sreg::nctaid_z(),
    }
}

/// `threadIdx.x`.
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
pub fn thread_idx_x() -> u32 {
    sreg::tid_x()
}

/// `blockDim.x`.
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
pub fn block_dim_x() -> u32 {
    sreg::ntid_x()
}

/// `blockIdx.x`.
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
pub fn block_idx_x() -> u32 {
    sreg::ctaid_x()
}

/// `gridDim.x`.
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
pub fn grid_dim_x() -> u32 {
    sreg::nctaid_x()
}

/// The thread's linear index in its block, `0..threads_per_block()`.
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
pub fn thread_id_in_block() -> u32 {
    thread_idx().linear_in(block_dim())
}

/// Threads per block.
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
pub fn threads_per_block() -> u32 {
    block_dim().volume()
}

/// The block's linear index in the grid, `0..num_blocks()`.
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
pub fn block_id() -> u32 {
    block_idx().linear_in(grid_dim())
}

/// Blocks in the grid.
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
pub fn num_blocks() -> u32 {
    grid_dim().volume()
}

/// The thread's linear index in the grid: `block_id() * threads_per_block() +
/// thread_id_in_block()`, `0..num_threads()`.
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
pub fn global_thread_id() -> u32 {
    block_id()
        .wrapping_mul(threads_per_block())
        .wrapping_add(thread_id_in_block())
}

/// Threads in the grid.
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
pub fn num_threads() -> u32 {
    num_blocks().wrapping_mul(threads_per_block())
}

/// The thread's lane in its warp, `0..32` (`%laneid`).
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
pub fn lane_id() -> u32 {
    sreg::laneid()
}

/// The index of the thread's warp in its block, `0..warps_per_block()`:
/// `thread_id_in_block() / 32`. (Not `%warpid`, which is a hardware slot; see
/// [`sreg::warpid`].)
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
pub fn warp_id() -> u32 {
    thread_id_in_block() / super::warp::WARP_SIZE
}

/// Warps per block, counting a last, partial warp: `ceil(threads_per_block() / 32)`.
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
pub fn warps_per_block() -> u32 {
    threads_per_block().div_ceil(super::warp::WARP_SIZE)
}

/// The warp's index in the grid: `block_id() * warps_per_block() + warp_id()`.
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
pub fn global_warp_id() -> u32 {
    block_id()
        .wrapping_mul(warps_per_block())
        .wrapping_add(warp_id())
}

/// The SM the thread runs on right now (`%smid`; may change under preemption, and the ids
/// need not be dense). For statistics and debugging only.
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
pub fn sm_id() -> u32 {
    sreg::smid()
}
