//! Dynamic shared memory kernels: a `u32` and a `u64` round trip through the launch-sized
//! buffer, and its size and alignment as the kernel sees them.
//!
//! Launch any number of blocks of any size with `bytes` of dynamic shared memory. With `n`
//! the number of elements that fit, the threads of block `b` together write element `k` as
//! `word(b * n + k)` (or `dword`), barrier, then copy element `n - 1 - k` to
//! `out[b * n + k]`. Thread 0 writes `meta[2b] = dynamic_shared_memory_bytes()` and
//! `meta[2b + 1] = the base address modulo 16` (as `u64`/`u32` to match `out`).

use gtap_device::arch::barrier::sync_threads;
use gtap_device::arch::index::{block_id, thread_id_in_block, threads_per_block};
use gtap_device::arch::shared::{
    dynamic_shared_memory, dynamic_shared_memory_bytes, dynamic_shared_memory_len,
};

use super::values::{dword, word};

macro_rules! roundtrip {
    ($($name:ident: $t:ty, $input:ident;)*) => {$(
        #[doc = concat!("The `", stringify!($t), "` round trip; see the module docs.")]
        ///
        /// # Safety
        /// `out` holds `n` elements per block, `meta` two per block.
        #[unsafe(no_mangle)]
        pub unsafe extern "ptx-kernel" fn $name(out: *mut $t, meta: *mut $t) {
            let smem = dynamic_shared_memory::<$t>();
            let n = dynamic_shared_memory_len::<$t>() as u32;
            let (b, t, nt) = (block_id(), thread_id_in_block(), threads_per_block());
            let mut k = t;
            while k < n {
                // SAFETY: `k < n`, the buffer's length in elements; each element is written
                // by one thread.
                unsafe { smem.add(k as usize).write($input(b * n + k)) };
                k += nt;
            }
            // SAFETY: the whole block reaches this barrier; it orders the writes above
            // before the reads below.
            unsafe { sync_threads() };
            let mut k = t;
            while k < n {
                // SAFETY: `k < n`; `out` has `n` elements per block.
                unsafe {
                    *out.add((b * n + k) as usize) = smem.add((n - 1 - k) as usize).read()
                };
                k += nt;
            }
            if t == 0 {
                // SAFETY: `meta` has two elements per block.
                unsafe {
                    *meta.add(2 * b as usize) = dynamic_shared_memory_bytes() as $t;
                    *meta.add(2 * b as usize + 1) = (smem as usize % 16) as $t;
                }
            }
        }
    )*};
}

roundtrip! {
    smem_roundtrip_u32: u32, word;
    smem_roundtrip_u64: u64, dword;
}

/// Fills the block's dynamic shared memory with `value`, so that the next kernel on the SM
/// starts with it there (shared memory is not cleared between kernels). The runtime tests
/// launch it before a block program to show that no thread reads the runtime's shared state
/// before the thread that writes it has.
///
/// # Safety
/// Any launch shape; the kernel touches only its own dynamic shared memory.
#[unsafe(no_mangle)]
pub unsafe extern "ptx-kernel" fn smem_fill(value: u32) {
    let smem = dynamic_shared_memory::<u32>();
    let n = dynamic_shared_memory_len::<u32>() as u32;
    let (t, nt) = (thread_id_in_block(), threads_per_block());
    let mut k = t;
    while k < n {
        // SAFETY: `k < n`, the buffer's length in words; each word is written by one thread.
        unsafe { core::ptr::write_volatile(smem.add(k as usize), value) };
        k += nt;
    }
}
