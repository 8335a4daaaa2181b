//! Dynamic shared memory: the per-block buffer whose size the launch chooses
//! (`extern __shared__` in CUDA C++).
//!
//! rustc exposes it as `core::intrinsics::gpu::gpu_launch_sized_workgroup_mem::<T>()`: on
//! nvptx that becomes one module-level `.extern .shared .align A .b8
//! gpu_launch_sized_workgroup_mem[];` (`A` the largest alignment any caller asked for) and a
//! generic pointer to it. The launch gives its size (`shared_mem_bytes` in the launch
//! configuration; [`super::sreg::dynamic_smem_size`] reads it back).

/// The generic address of the block's dynamic shared memory, aligned for `T`.
///
/// Every call in a block returns the same address, whatever `T`. The memory is
/// uninitialised at kernel start and holds [`super::sreg::dynamic_smem_size`] bytes;
/// reading or writing it is up to the caller (the pointer is only valid within this block,
/// and only for that many bytes).
#[inline(always)]
pub fn dynamic_shared_memory<T>() -> *mut T {
    core::intrinsics::gpu::gpu_launch_sized_workgroup_mem::<T>()
}
