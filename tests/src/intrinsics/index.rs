//! The index kernel: every thread writes every index it can see.

use gtap_device::arch::index::{
    block_dim, block_id, block_idx, global_thread_id, global_warp_id, grid_dim, lane_id,
    num_threads, sm_id, thread_id_in_block, thread_idx, warp_id, warps_per_block,
};
use gtap_device::arch::raw::sreg;

use super::values::INDEX_STRIDE;

/// Launch with `INDEX_GRID` x `INDEX_BLOCK`. Thread `g = global_thread_id()` writes, at
/// `out[g * INDEX_STRIDE ..]`: `tid.{x,y,z}`, `ntid.{x,y,z}`, `ctaid.{x,y,z}`,
/// `nctaid.{x,y,z}`, `lane_id`, `warp_id`, `global_warp_id`, `global_thread_id`,
/// `thread_id_in_block`, `block_id`, `warps_per_block`, `num_threads`, `smid`, `nsmid`.
///
/// # Safety
/// `out` holds `INDEX_STRIDE` `u32`s per thread of the launch.
#[unsafe(no_mangle)]
pub unsafe extern "ptx-kernel" fn index_all(out: *mut u32) {
    let (t, nt, b, nb) = (thread_idx(), block_dim(), block_idx(), grid_dim());
    let g = global_thread_id();
    let r = [
        t.x,
        t.y,
        t.z,
        nt.x,
        nt.y,
        nt.z,
        b.x,
        b.y,
        b.z,
        nb.x,
        nb.y,
        nb.z,
        lane_id(),
        warp_id(),
        global_warp_id(),
        g,
        thread_id_in_block(),
        block_id(),
        warps_per_block(),
        num_threads(),
        sm_id(),
        sreg::nsmid(),
    ];
    for (k, v) in r.into_iter().enumerate() {
        // SAFETY: `out` has `INDEX_STRIDE` elements per thread and `g` is below the thread
        // count.
        unsafe { *out.add((g * INDEX_STRIDE) as usize + k) = v };
    }
}
