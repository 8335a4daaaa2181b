//! The injection ring of a resident session, in page-locked host memory mapped into the
//! device: the [`InjectHeader`], then `capacity` entries of root arguments, then `capacity`
//! completion slots (see the device module `runtime::gpu::inject` for the protocol).
//!
//! The host side of the protocol: a submitter writes root `s`'s arguments into entry
//! `s % capacity`, sets its slot's status to pending, and stores `published = s + 1` with
//! release; the session's poller loads each slot's status with acquire, and once it says
//! done reads the result and sets the status back to pending before the entry is reused.

use std::mem::size_of;
use std::sync::atomic::AtomicU32;

use gtap_device::runtime::gpu::layout::{InjectHeader, SLOT_CLAIMED_NS, SLOT_DONE_NS, SLOT_RESULT};

use super::GpuRunError;
use super::error::driver;

/// A ring's memory: one page-locked, device-mapped allocation.
pub(super) struct Ring {
    host: *mut u8,
    device: u64,
    /// The GPU's ordinal, whose gate frees the memory (`gate.rs`).
    ordinal: usize,
    /// Entries (and slots), a power of two.
    pub capacity: u32,
    /// Bytes between two argument entries.
    pub args_stride: u32,
    /// Bytes between two completion slots.
    pub slot_stride: u32,
}

// SAFETY: the memory is shared with the device and between the session's threads by the
// protocol in the module docs: the header words and the slots' status words are only
// accessed atomically, and an entry's arguments and result bytes are written by one side
// while the other provably does not touch them (ordered by those atomics).
unsafe impl Send for Ring {}
// SAFETY: as above.
unsafe impl Sync for Ring {}

/// The header's size in the allocation (two cache lines).
const HEADER: usize = size_of::<InjectHeader>();

impl Ring {
    /// A zeroed ring of `capacity` entries (a power of two) for arguments of `args_size`
    /// bytes and results of `result_size` bytes.
    pub fn new(
        ordinal: usize,
        capacity: u32,
        args_size: usize,
        result_size: usize,
    ) -> Result<Ring, GpuRunError> {
        assert!(
            capacity.is_power_of_two(),
            "a ring's capacity is a power of two"
        );
        let args_stride = args_size.max(1).next_multiple_of(16);
        let slot_stride = SLOT_RESULT as usize + result_size.next_multiple_of(16);
        let bytes = HEADER + capacity as usize * (args_stride + slot_stride);
        let flags = cudarc::driver::sys::CU_MEMHOSTALLOC_DEVICEMAP;
        // SAFETY: allocates `bytes` page-locked bytes in the current context.
        let host = unsafe { cudarc::driver::result::malloc_host(bytes, flags) }
            .map_err(driver("cuMemHostAlloc"))? as *mut u8;
        // SAFETY: `bytes` bytes just allocated, used by nothing yet.
        unsafe { std::ptr::write_bytes(host, 0, bytes) };
        let mut device = 0;
        // SAFETY: `host` was allocated with DEVICEMAP just above.
        let mapped = unsafe {
            cudarc::driver::sys::cuMemHostGetDevicePointer_v2(&mut device, host.cast(), 0)
        }
        .result()
        .map_err(driver("cuMemHostGetDevicePointer"));
        let ring = Ring {
            host,
            device,
            ordinal,
            capacity,
            args_stride: args_stride as u32,
            slot_stride: slot_stride as u32,
        };
        mapped.map(|()| ring)
    }

    fn args_offset(&self, i: u32) -> usize {
        HEADER + i as usize * self.args_stride as usize
    }

    fn slot_offset(&self, i: u32) -> usize {
        HEADER
            + self.capacity as usize * self.args_stride as usize
            + i as usize * self.slot_stride as usize
    }

    /// Device addresses of the header, the first argument entry and the first slot.
    pub fn device_addrs(&self) -> (u64, u64, u64) {
        (
            self.device,
            self.device + self.args_offset(0) as u64,
            self.device + self.slot_offset(0) as u64,
        )
    }

    fn word(&self, offset: usize) -> &AtomicU32 {
        // SAFETY: `offset` is a 4-aligned word inside the allocation (the header's fields and
        // the slots' status words, at multiples of 16 from a page-aligned start), which lives
        // as long as `self` and is accessed atomically by every party.
        unsafe { AtomicU32::from_ptr(self.host.add(offset).cast()) }
    }

    /// The header's `published` word.
    pub fn published(&self) -> &AtomicU32 {
        self.word(std::mem::offset_of!(InjectHeader, published))
    }

    /// The header's `shutdown` word.
    pub fn shutdown(&self) -> &AtomicU32 {
        self.word(std::mem::offset_of!(InjectHeader, shutdown))
    }

    /// Slot `i`'s status word.
    pub fn status(&self, i: u32) -> &AtomicU32 {
        self.word(self.slot_offset(i))
    }

    /// Writes `args` into entry `i`.
    ///
    /// # Safety
    /// Entry `i` is not published, or its root's slot was read as done (the device no
    /// longer reads it); `args` is at most `args_stride` bytes.
    pub unsafe fn write_args(&self, i: u32, args: &[u8]) {
        debug_assert!(args.len() <= self.args_stride as usize);
        // SAFETY: in the allocation (contract), and nobody else touches the entry now.
        unsafe {
            std::ptr::copy_nonoverlapping(
                args.as_ptr(),
                self.host.add(self.args_offset(i)),
                args.len(),
            )
        };
    }

    /// Slot `i`'s result.
    ///
    /// # Safety
    /// The slot's status was loaded as done (with acquire), its root's result type is `R`,
    /// and `R` fits the slot.
    pub unsafe fn read_result<R: Copy>(&self, i: u32) -> R {
        let at = self.slot_offset(i) + SLOT_RESULT as usize;
        // SAFETY: the device wrote an `R` there before the status (contract).
        unsafe { std::ptr::read_unaligned(self.host.add(at).cast::<R>()) }
    }

    /// Slot `i`'s device times (`%globaltimer`, ns): when a warp claimed its root, and when
    /// the root completed.
    ///
    /// # Safety
    /// As [`Ring::read_result`]: the slot's status was loaded as done (with acquire).
    pub unsafe fn device_times(&self, i: u32) -> (u64, u64) {
        let base = self.slot_offset(i);
        // SAFETY: 8- and 4-aligned words inside the slot, written by the device before the
        // status it was seen done by (contract).
        let (claimed, done_lo) = unsafe {
            (
                std::ptr::read_volatile(
                    self.host.add(base + SLOT_CLAIMED_NS as usize).cast::<u64>(),
                ),
                std::ptr::read_volatile(self.host.add(base + SLOT_DONE_NS as usize).cast::<u32>()),
            )
        };
        (claimed, done_after(claimed, done_lo))
    }

    /// Which slot a device result pointer (as a root's record holds it) points into.
    pub fn slot_of(&self, result_ptr: u64) -> Option<u32> {
        let first = self.device_addrs().2 + u64::from(SLOT_RESULT);
        let off = result_ptr.checked_sub(first)?;
        let i = off / u64::from(self.slot_stride);
        (off % u64::from(self.slot_stride) == 0 && i < u64::from(self.capacity)).then_some(i as u32)
    }
}

/// The whole timer reading whose low 32 bits are `done_lo`: the first at or after `claimed`
/// (a root completes less than 2^32 ns, about 4.3 s, after its claim).
fn done_after(claimed: u64, done_lo: u32) -> u64 {
    let done = (claimed & !0xFFFF_FFFF) | u64::from(done_lo);
    if done < claimed {
        done + (1 << 32)
    } else {
        done
    }
}

impl Drop for Ring {
    fn drop(&mut self) {
        // No kernel uses the ring any more (the session drops its ring only after its kernel
        // ended, and leaks it otherwise); freeing it waits for every kernel on the GPU, so it
        // goes through the gate.
        let pages = crate::gate::HostPages(self.host.cast());
        crate::gate::for_ordinal(self.ordinal).release(pages);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_completion_time_is_rebuilt_after_its_claim() {
        let claimed = 0x1234_FFFF_FF00;
        assert_eq!(done_after(claimed, 0xFFFF_FFF0), 0x1234_FFFF_FFF0);
        assert_eq!(done_after(claimed, 0x10), 0x1235_0000_0010, "past a wrap");
        assert_eq!(done_after(claimed, 0xFFFF_FF00), claimed, "at once");
    }

    #[test]
    fn the_slots_follow_the_entries_and_are_found_again() {
        let ring = Ring {
            host: std::ptr::null_mut(),
            device: 0x1000,
            ordinal: 0,
            capacity: 8,
            args_stride: 32,
            slot_stride: 32,
        };
        let (h, a, s) = ring.device_addrs();
        assert_eq!((h, a, s), (0x1000, 0x1000 + 128, 0x1000 + 128 + 8 * 32));
        for i in 0..8 {
            let ptr = s + u64::from(i) * 32 + u64::from(SLOT_RESULT);
            assert_eq!(ring.slot_of(ptr), Some(i));
        }
        assert_eq!(ring.slot_of(s), None, "the status word is not a result");
        assert_eq!(ring.slot_of(s + 8 * 32 + 16), None, "past the last slot");
        std::mem::forget(ring); // nothing was allocated
    }
}
