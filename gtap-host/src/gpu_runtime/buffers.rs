//! A run's device memory: the arrays the kernel works in, grown when a run needs more and
//! kept for the next run.
//!
//! The sixteen arrays differ only in element type, length (from the plan's
//! [`ArrayLens`](super::plan::ArrayLens)), the name an allocation failure gives, and what the
//! kernel needs in them when it starts ([`Fill`]); so each is one call of one helper, and
//! [`Buffers::prepare`] reads as the list of arrays. The calls run in a fixed order (the order
//! of [`DeviceArrays`]' fields): the first allocation that fails is the run's error, and the
//! arrays set up before it stay allocated for the next run.

use std::mem::size_of;
use std::sync::Arc;

use cudarc::driver::{CudaSlice, CudaStream, DevicePtr, DeviceRepr, ValidAsZeroBits};
use gtap_device::runtime::gpu::layout::NONE;
use gtap_device::runtime::reserve::ReserveState;

use super::GpuRunError;
use super::error::driver;
use super::plan::RunPlan;

/// Device memory of a run, kept across runs and grown when a run needs more.
#[derive(Default)]
pub(super) struct Buffers {
    pub run: Option<CudaSlice<u8>>,
    pub records: Option<CudaSlice<u8>>,
    pub rings: Option<CudaSlice<u32>>,
    pub deques: Option<CudaSlice<u8>>,
    pub free_stacks: Option<CudaSlice<u32>>,
    pub remote_free: Option<CudaSlice<u32>>,
    pub stats: Option<CudaSlice<u8>>,
    pub counters: Option<CudaSlice<u8>>,
    pub global_queue: Option<CudaSlice<u8>>,
    pub global_ring: Option<CudaSlice<u32>>,
    pub result: Option<CudaSlice<u8>>,
    pub args: Option<CudaSlice<u8>>,
    pub profile_events: Option<CudaSlice<u8>>,
    pub profile_warps: Option<CudaSlice<u8>>,
    pub block_board: Option<CudaSlice<u32>>,
    pub reserve: Option<CudaSlice<u64>>,
    pub chunk_words: Option<CudaSlice<u32>>,
    pub running: Option<CudaSlice<u32>>,
    pub fanout: Option<CudaSlice<u64>>,
}

/// The device addresses of a run's arrays, as the control block names them (0: not used).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct DeviceArrays {
    pub records: u64,
    pub rings: u64,
    pub deques: u64,
    pub free_stacks: u64,
    pub remote_free: u64,
    pub stats: u64,
    pub counters: u64,
    pub global_queue: u64,
    pub global_ring: u64,
    pub root_result: u64,
    pub root_args: u64,
    pub profile_events: u64,
    pub profile_warps: u64,
    pub block_board: u64,
    pub reserve: u64,
    pub chunk_words: u64,
    pub running: u64,
    pub fanout: u64,
}

/// What an array must hold when the kernel starts.
enum Fill<'a, T> {
    /// Anything: the kernel writes each element before it reads it.
    Unset,
    /// Zeros when the array is allocated, then whatever earlier runs left; see
    /// [`ensure_zeroed`].
    ZeroedOnce,
    /// Zeros, every run.
    Zeroed,
    /// This value in every element, every run.
    Every(T),
    /// These elements at the start (nothing when empty), the rest unset.
    Prefix(&'a [T]),
}

impl Buffers {
    /// Grows and fills every array `plan` needs, `args` (the root's arguments, as bytes) in
    /// place, and returns their addresses.
    pub fn prepare(
        &mut self,
        stream: &Arc<CudaStream>,
        plan: &RunPlan,
        args: &[u8],
    ) -> Result<DeviceArrays, GpuRunError> {
        use Fill::{Every, Prefix, Unset, Zeroed, ZeroedOnce};
        let (b, n, on) = (self, &plan.lens, Setup(stream));
        // The profiler's buffers: events (not zeroed: the host reads only what each warp's
        // header says it wrote) and the headers (zeroed).
        let profiled = plan.profile_capacity > 0;
        let (global, profile) = ("the global queue", "the profile buffer");
        // Fields are evaluated in the order written: this is the order of the set-ups.
        Ok(DeviceArrays {
            records: on.array(&mut b.records, n.records, "task records", ZeroedOnce)?,
            rings: on.array(&mut b.rings, n.rings, "queues", Unset)?,
            deques: on.array(&mut b.deques, n.deques, "queue states", Zeroed)?,
            free_stacks: on.array(&mut b.free_stacks, n.free_stacks, "free stacks", Unset)?,
            remote_free: on.array(&mut b.remote_free, n.remote_free, "free lists", Every(NONE))?,
            stats: on.array(&mut b.stats, n.stats, "statistics", Zeroed)?,
            counters: on.array(&mut b.counters, n.counters, "task counters", Zeroed)?,
            // The global-queue ablation: its state (zeroed) and its ring (a single slot when
            // the ablation is off).
            global_queue: on.array(&mut b.global_queue, n.global_queue, global, Zeroed)?,
            global_ring: on.array(&mut b.global_ring, n.global_ring, global, Unset)?,
            root_result: on.array(&mut b.result, n.result, "the result", Unset)?,
            root_args: on.array(&mut b.args, n.args, "the root's arguments", Prefix(args))?,
            profile_events: if profiled {
                on.array(&mut b.profile_events, n.profile_events, profile, Unset)?
            } else {
                0
            },
            profile_warps: if profiled {
                on.array(&mut b.profile_warps, n.profile_warps, profile, Zeroed)?
            } else {
                0
            },
            block_board: if n.block_board > 0 {
                on.array(&mut b.block_board, n.block_board, "the block board", Zeroed)?
            } else {
                0
            },
            // The record reserve: an empty free list and no chunk lent yet, every run; the
            // chunks' links and live counts are written by the kernel before they are read.
            reserve: on.array(
                &mut b.reserve,
                n.reserve,
                "the record reserve",
                Prefix(RESERVE),
            )?,
            chunk_words: on.array(
                &mut b.chunk_words,
                n.chunk_words,
                "the record reserve",
                Unset,
            )?,
            // A batch: no thread runs a task yet.
            running: if n.running > 0 {
                on.array(&mut b.running, n.running, "the running tasks", Every(NONE))?
            } else {
                0
            },
            fanout: on.array(&mut b.fanout, n.fanout, "the policy's level counts", Zeroed)?,
        })
    }
}

/// A reserve's state at the start of a run, as `u64` words: the free list's empty head, then
/// the bump counter at 0 (and its padding).
const RESERVE: &[u64] = &[ReserveState::EMPTY, 0];

/// Sets up arrays on one stream.
struct Setup<'s>(&'s Arc<CudaStream>);

impl Setup<'_> {
    /// Grows `slot` to at least `len` elements, fills it as `fill` says, and returns its
    /// address.
    fn array<T: DeviceRepr + ValidAsZeroBits + Clone>(
        &self,
        slot: &mut Option<CudaSlice<T>>,
        len: usize,
        what: &'static str,
        fill: Fill<'_, T>,
    ) -> Result<u64, GpuRunError> {
        let stream = self.0;
        let s = match fill {
            Fill::ZeroedOnce => ensure_zeroed(stream, slot, len, what)?,
            _ => ensure(stream, slot, len, what)?,
        };
        match fill {
            Fill::Unset | Fill::ZeroedOnce => {}
            Fill::Zeroed => stream.memset_zeros(s).map_err(driver("cuMemsetD8"))?,
            Fill::Every(value) => stream
                .memcpy_htod(&vec![value; s.len()], s)
                .map_err(driver("cuMemcpyHtoD"))?,
            Fill::Prefix(head) => {
                if !head.is_empty() {
                    stream
                        .memcpy_htod(head, &mut s.slice_mut(..head.len()))
                        .map_err(driver("cuMemcpyHtoD"))?;
                }
            }
        }
        Ok(addr(stream, s))
    }
}

/// Grows `slot` to at least `len` elements (contents unspecified) and returns it.
pub(super) fn ensure<'a, T: DeviceRepr>(
    stream: &Arc<CudaStream>,
    slot: &'a mut Option<CudaSlice<T>>,
    len: usize,
    what: &'static str,
) -> Result<&'a mut CudaSlice<T>, GpuRunError> {
    let len = len.max(1);
    if slot.as_ref().is_none_or(|s| s.len() < len) {
        *slot = None;
        // SAFETY: the memory is written (zeroed or copied) before any kernel reads it.
        let fresh = unsafe { stream.alloc::<T>(len) }.map_err(|_| GpuRunError::OutOfMemory {
            what,
            bytes: len * size_of::<T>(),
        })?;
        *slot = Some(fresh);
    }
    Ok(slot.as_mut().expect("just ensured"))
}

/// [`ensure`], zeroing memory it allocates: for the task records. A block task's threads each
/// copy the whole frame (`block_worker`), the bytes of states the task has not reached yet
/// included, which no task has written in fresh memory. Zeroed once per allocation, those
/// bytes are defined (the sanitizer's initcheck reads them as such); later they hold what
/// earlier tasks left, which is never used before the task writes it.
fn ensure_zeroed<'a, T: DeviceRepr + ValidAsZeroBits>(
    stream: &Arc<CudaStream>,
    slot: &'a mut Option<CudaSlice<T>>,
    len: usize,
    what: &'static str,
) -> Result<&'a mut CudaSlice<T>, GpuRunError> {
    let fresh = slot.as_ref().is_none_or(|s| s.len() < len.max(1));
    let s = ensure(stream, slot, len, what)?;
    if fresh {
        stream.memset_zeros(s).map_err(driver("cuMemsetD8"))?;
    }
    Ok(s)
}

/// The device address of `s`.
pub(super) fn addr<T>(stream: &CudaStream, s: &CudaSlice<T>) -> u64 {
    let (ptr, _sync) = s.device_ptr(stream);
    ptr
}
