//! Special registers: thread, block and grid indices, lane masks, SM ids.
//!
//! Reading a special register has no precondition, so these are safe functions. The
//! index registers (`%tid`, `%ntid`, `%ctaid`, `%nctaid`) are read through LLVM's NVVM
//! intrinsics (`core::arch::nvptx`), which emit the same `mov.u32 %r, %tid.x` but also tell
//! LLVM each register's range (`%tid.x < 1024`, ...), so it can drop overflow and bounds
//! arithmetic. The others are inline PTX; those that are constant for the thread's life are
//! `pure` (LLVM may merge reads), the ones that may change under preemption
//! (`%smid`, `%warpid`) are not.

use core::arch::asm;
use core::arch::nvptx;

macro_rules! index_sreg {
    ($($name:ident => $intrinsic:ident, $reg:literal, $what:literal;)*) => {
        $(
            #[doc = concat!("`", $reg, "`: ", $what)]
            #[inline(always)]
            pub fn $name() -> u32 {
                // SAFETY: reading a special register has no precondition (`core::arch::nvptx`
                // marks these `unsafe` only because they exist on nvptx alone).
                unsafe { nvptx::$intrinsic() }
            }
        )*
    };
}

index_sreg! {
    tid_x => _thread_idx_x, "%tid.x", "this thread's index in its block, x (`threadIdx.x`).";
    tid_y => _thread_idx_y, "%tid.y", "this thread's index in its block, y (`threadIdx.y`).";
    tid_z => _thread_idx_z, "%tid.z", "this thread's index in its block, z (`threadIdx.z`).";
    ntid_x => _block_dim_x, "%ntid.x", "threads per block, x (`blockDim.x`).";
    ntid_y => _block_dim_y, "%ntid.y", "threads per block, y (`blockDim.y`).";
    ntid_z => _block_dim_z, "%ntid.z", "threads per block, z (`blockDim.z`).";
    ctaid_x => _block_idx_x, "%ctaid.x", "this block's index in the grid, x (`blockIdx.x`).";
    ctaid_y => _block_idx_y, "%ctaid.y", "this block's index in the grid, y (`blockIdx.y`).";
    ctaid_z => _block_idx_z, "%ctaid.z", "this block's index in the grid, z (`blockIdx.z`).";
    nctaid_x => _grid_dim_x, "%nctaid.x", "blocks per grid, x (`gridDim.x`).";
    nctaid_y => _grid_dim_y, "%nctaid.y", "blocks per grid, y (`gridDim.y`).";
    nctaid_z => _grid_dim_z, "%nctaid.z", "blocks per grid, z (`gridDim.z`).";
}

macro_rules! asm_sreg {
    ($($name:ident, $reg:literal, [$($opt:ident),*], $what:literal;)*) => {
        $(
            #[doc = concat!("`mov.u32 %r, ", $reg, "`: ", $what)]
            #[inline(always)]
            pub fn $name() -> u32 {
                let r: u32;
                // SAFETY: reading a special register has no precondition and touches no
                // memory.
                unsafe {
                    asm!(
                        concat!("mov.u32 {r}, ", $reg, ";"),
                        r = out(reg32) r,
                        options($($opt,)* nomem, nostack),
                    );
                }
                r
            }
        )*
    };
}

asm_sreg! {
    laneid, "%laneid", [pure],
        "this thread's lane in its warp, 0..32 (threads fill warps in order of their linear \
         index in the block, x fastest).";
    lanemask_eq, "%lanemask_eq", [pure], "a 32-bit mask with only this lane's bit set.";
    lanemask_lt, "%lanemask_lt", [pure], "a mask of the lanes below this one.";
    lanemask_le, "%lanemask_le", [pure], "a mask of the lanes up to and including this one.";
    lanemask_gt, "%lanemask_gt", [pure], "a mask of the lanes above this one.";
    lanemask_ge, "%lanemask_ge", [pure], "a mask of this lane and the lanes above it.";
    warpid, "%warpid", [],
        "the hardware warp slot this thread runs in on its SM. Not the warp's index in its \
         block, and it may change when the warp is preempted: for the index, use \
         `arch::index::warp_id`.";
    nwarpid, "%nwarpid", [pure], "the number of hardware warp slots per SM.";
    smid, "%smid", [],
        "the SM this thread runs on (may change under preemption; not necessarily dense).";
    nsmid, "%nsmid", [pure], "an upper bound of `%smid` + 1 (not necessarily the SM count).";
    dynamic_smem_size, "%dynamic_smem_size", [pure],
        "the bytes of dynamic shared memory this launch gave each block.";
    total_smem_size, "%total_smem_size", [pure],
        "the bytes of shared memory this block has, static and dynamic (rounded up to the \
         allocation granularity).";
}
