//! Block-barrier kernels: `__syncthreads` (`bar.sync 0`), its reductions (`bar.red`), and
//! named barriers (`bar.sync id, n` / `bar.arrive id, n`).
//!
//! All run on [`BAR_BLOCKS`](super::values::BAR_BLOCKS) x [`BAR_THREADS`] threads (eight warps per block) with
//! `BAR_THREADS * 4` bytes of dynamic shared memory, and write to `out` at the thread's
//! global index `i` (times a stride where noted). Thread `i`'s input is `word(i)`.

use gtap_device::arch::barrier::{
    NamedBarrier, sync_threads, sync_threads_and, sync_threads_count, sync_threads_or,
};
use gtap_device::arch::index::{global_thread_id, thread_id_in_block, threads_per_block};
use gtap_device::arch::shared::dynamic_shared_memory;

use super::values::{BAR_REDUCE_STRIDE, BAR_SUBSET_A, BAR_THREADS, word};

/// Each thread writes `word(i)` to shared slot `t`, `sync_threads`, then reads slot
/// `(t + 1) % n` (another warp's for the last lane of each warp) into `out[i]`.
///
/// # Safety
/// Launch as the module docs say.
#[unsafe(no_mangle)]
pub unsafe extern "ptx-kernel" fn bar_syncthreads(out: *mut u32) {
    let smem = dynamic_shared_memory::<u32>();
    let (i, t, n) = (
        global_thread_id(),
        thread_id_in_block(),
        threads_per_block(),
    );
    // SAFETY: each thread writes its own slot; the barrier, which the whole block reaches
    // together, orders every write before every read.
    unsafe {
        smem.add(t as usize).write(word(i));
        sync_threads();
        *out.add(i as usize) = smem.add(((t + 1) % n) as usize).read();
    }
}

/// `out[i * BAR_REDUCE_STRIDE + ..] = [count(t % 3 == 0), and(true), and(t != 5),
/// or(t == 5), or(false)]` (booleans as 0/1).
///
/// # Safety
/// Launch as the module docs say.
#[unsafe(no_mangle)]
pub unsafe extern "ptx-kernel" fn bar_syncthreads_reduce(out: *mut u32) {
    let (i, t) = (global_thread_id(), thread_id_in_block());
    // SAFETY: the whole block executes each barrier, in the same order, warp-uniformly.
    let r = unsafe {
        [
            sync_threads_count(t % 3 == 0),
            sync_threads_and(true) as u32,
            sync_threads_and(t != 5) as u32,
            sync_threads_or(t == 5) as u32,
            sync_threads_or(false) as u32,
        ]
    };
    for (k, v) in r.into_iter().enumerate() {
        // SAFETY: `out` has `BAR_REDUCE_STRIDE` elements per thread.
        unsafe { *out.add((i * BAR_REDUCE_STRIDE) as usize + k) = v };
    }
}

/// Producer-consumer through barrier 4: warps 0-3 write `word(i)` to shared slot `t` and
/// `arrive`; warps 4-7 `sync` (all 256 threads complete the barrier) and then read slot
/// `t - 128` into `out[i]`. Producers write `out[i] = !word(i)`.
///
/// # Safety
/// Launch as the module docs say.
#[unsafe(no_mangle)]
pub unsafe extern "ptx-kernel" fn bar_named_arrive(out: *mut u32) {
    const B: NamedBarrier = NamedBarrier::new(4, BAR_THREADS);
    let smem = dynamic_shared_memory::<u32>();
    let (i, t) = (global_thread_id(), thread_id_in_block());
    let half = BAR_THREADS / 2;
    if t < half {
        // SAFETY: producers write their own slots, then arrive (whole warps 0-3); the
        // consumers read them only after their `sync` completes the same phase.
        unsafe {
            smem.add(t as usize).write(word(i));
            B.arrive();
            *out.add(i as usize) = !word(i);
        }
    } else {
        // SAFETY: whole warps 4-7 sync; with the producers' arrivals that makes 256.
        unsafe {
            B.sync();
            *out.add(i as usize) = smem.add((t - half) as usize).read();
        }
    }
}

/// Two groups with their own barriers at once: threads `0..BAR_SUBSET_A` (warps 0-1) on
/// barrier 2, the other 192 on barrier 3. Each writes `word(i)` to slot `t`, syncs its
/// group, and reads the next slot of its group, cyclically, into `out[i]`.
///
/// # Safety
/// Launch as the module docs say.
#[unsafe(no_mangle)]
pub unsafe extern "ptx-kernel" fn bar_named_subsets(out: *mut u32) {
    const A: NamedBarrier = NamedBarrier::new(2, BAR_SUBSET_A);
    const B: NamedBarrier = NamedBarrier::new(3, BAR_THREADS - BAR_SUBSET_A);
    let smem = dynamic_shared_memory::<u32>();
    let (i, t) = (global_thread_id(), thread_id_in_block());
    let (barrier, base, size) = if t < BAR_SUBSET_A {
        (A, 0, BAR_SUBSET_A)
    } else {
        (B, BAR_SUBSET_A, BAR_THREADS - BAR_SUBSET_A)
    };
    // SAFETY: each thread writes its own slot; exactly the group's whole warps sync on the
    // group's barrier, which orders the group's writes before its reads; the groups share
    // no slot.
    unsafe {
        smem.add(t as usize).write(word(i));
        barrier.sync();
        let next = base + (t - base + 1) % size;
        *out.add(i as usize) = smem.add(next as usize).read();
    }
}
