//! [`Buf`], a raw view of a `u32` array: what [`crate::cilksort_mixed`] passes to its tasks.
//!
//! The other programs take the typed views of `gtap::data` (`View`, `ViewMut`, and
//! `TeamMut` in a block task: each thread reaches its own equal share), which the borrow
//! checker keeps disjoint across a join. cilksort-mixed's block sorts write a chunk in
//! patterns that are not one equal share per thread (a tile's strided copies, merge passes
//! over both buffers in turn, the team's scratch), so it still reaches its arrays through
//! this raw view, and the functions that make slices of it are `unsafe`, with the
//! disjointness argued at each call.

/// A `u32` array in memory that outlives the task run (host memory on the CPU backend,
/// device memory on the GPU).
#[derive(Clone, Copy, Debug)]
pub struct Buf {
    ptr: *mut u32,
    len: usize,
}

// SAFETY: a `Buf` is an address and a length; the tasks that share one write disjoint parts
// of it (each program's documentation argues which), so it may move between threads.
unsafe impl Send for Buf {}

impl Buf {
    /// Views `slice` for the duration of a run.
    ///
    /// The caller keeps `slice` alive and untouched until the run that uses the `Buf` ends.
    pub fn new(slice: &mut [u32]) -> Buf {
        Buf {
            ptr: slice.as_mut_ptr(),
            len: slice.len(),
        }
    }

    /// A `Buf` over raw memory, e.g. a device allocation.
    ///
    /// # Safety
    /// `ptr` is valid for reads and writes of `len` elements for as long as the `Buf` is used.
    pub unsafe fn from_raw(ptr: *mut u32, len: usize) -> Buf {
        Buf { ptr, len }
    }

    /// Number of elements.
    pub fn len(self) -> usize {
        self.len
    }

    /// Whether the buffer is empty.
    pub fn is_empty(self) -> bool {
        self.len == 0
    }

    /// The elements `lo..hi` as a shared slice.
    ///
    /// # Safety
    /// No task writes `lo..hi` while the slice is in use.
    ///
    /// # Panics
    /// If `lo..hi` is not inside the buffer.
    pub unsafe fn read(self, lo: usize, hi: usize) -> &'static [u32] {
        assert!(lo <= hi && hi <= self.len, "Buf range out of bounds");
        // SAFETY: in bounds (checked above), valid for the run (constructor contract), and
        // not written meanwhile (this function's contract).
        unsafe { core::slice::from_raw_parts(self.ptr.add(lo), hi - lo) }
    }

    /// The elements `lo..hi` as a mutable slice.
    ///
    /// # Safety
    /// No other task reads or writes `lo..hi` while the slice is in use.
    ///
    /// # Panics
    /// If `lo..hi` is not inside the buffer.
    #[allow(clippy::mut_from_ref)]
    pub unsafe fn slice(self, lo: usize, hi: usize) -> &'static mut [u32] {
        assert!(lo <= hi && hi <= self.len, "Buf range out of bounds");
        // SAFETY: in bounds (checked above), valid for the run (constructor contract), and not
        // aliased (this function's contract).
        unsafe { core::slice::from_raw_parts_mut(self.ptr.add(lo), hi - lo) }
    }
}
