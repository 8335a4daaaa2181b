//! [`PinnedVec`]: host memory that a GPU copies to and from directly.
//!
//! A copy between ordinary (pageable) host memory and a GPU goes through the driver's own
//! staging buffers, because the system may move or swap a pageable page while a copy is in
//! flight: the host copies into page-locked staging memory and the GPU's copy engine takes it
//! from there. Memory that is page-locked from the start skips that step, and the copy engine
//! reads or writes it at the bus's speed. For a program whose data starts and ends on the host
//! (a sort of an array the application holds), that copy is most of the end-to-end time.
//!
//! Page-locked memory is taken from what the system can page, so it suits the buffers a
//! program copies to and from a GPU, not everything it allocates. On the CPU backend there is
//! nothing to copy, and a `PinnedVec` is ordinary heap memory.

use std::marker::PhantomData;
use std::ops::{Deref, DerefMut};
use std::ptr::NonNull;

use cudarc::driver::PinnedHostSlice;
use gtap_device::data::Plain;

use super::DataError;
use super::storage::{HasMemory, Memory, driver};

/// `len` zeroed elements of `T` in host memory, page-locked where `on` is a GPU: a slice
/// (`Deref`) to fill and read on the host, which [`DeviceVec::copy_from`] and
/// [`DeviceVec::copy_to`] copy at the bus's speed.
///
/// ```
/// use gtap_host::data::{DeviceVec, Memory, PinnedVec};
///
/// # fn main() -> Result<(), gtap_host::data::DataError> {
/// let on = Memory::Host; // a `GpuRuntime` or a `Gpu` for page-locked memory
/// let mut input = PinnedVec::<u32>::zeroed(&on, 4)?;
/// input.copy_from_slice(&[4, 3, 2, 1]);
/// let mut data = DeviceVec::<u32>::zeros(&on, 4)?;
/// data.copy_from(&input)?;
/// let mut output = PinnedVec::<u32>::zeroed(&on, 4)?;
/// data.copy_to(&mut output)?;
/// assert_eq!(&output[..], &[4, 3, 2, 1]);
/// # Ok(())
/// # }
/// ```
///
/// [`DeviceVec::copy_from`]: super::DeviceVec::copy_from
/// [`DeviceVec::copy_to`]: super::DeviceVec::copy_to
pub struct PinnedVec<T: Plain> {
    pages: Pages,
    ptr: NonNull<T>,
    len: usize,
    _elements: PhantomData<T>,
}

/// Where a [`PinnedVec`]'s elements are: kept only to be freed when it drops.
enum Pages {
    /// Page-locked memory of GPU `ordinal`'s context (`cuMemHostAlloc`), `None` once handed
    /// to the GPU's gate to free (freeing waits for every kernel on the GPU: `gate.rs`).
    Pinned {
        slice: Option<PinnedHostSlice<u8>>,
        ordinal: usize,
    },
    /// Heap memory (the CPU backend), in `u64` words.
    Heap { _words: Vec<u64> },
}

impl Drop for Pages {
    fn drop(&mut self) {
        if let Pages::Pinned { slice, ordinal } = self
            && let Some(slice) = slice.take()
        {
            crate::gate::for_ordinal(*ordinal).release(slice);
        }
    }
}

// SAFETY: a `PinnedVec` owns its elements like a `Vec<T>`; the page-locked allocation is not
// tied to a thread.
unsafe impl<T: Plain + Send> Send for PinnedVec<T> {}
// SAFETY: `&PinnedVec` gives shared reads only, as `&Vec<T>` does.
unsafe impl<T: Plain + Sync> Sync for PinnedVec<T> {}

impl<T: Plain> PinnedVec<T> {
    /// `len` zeroed elements, page-locked if `on` is a GPU (a runtime, a `Gpu`, or a
    /// [`Memory`]), heap memory for the CPU backend.
    pub fn zeroed(on: &impl HasMemory, len: usize) -> Result<Self, DataError> {
        let bytes = len
            .checked_mul(size_of::<T>())
            .ok_or(DataError::OutOfMemory { bytes: usize::MAX })?;
        let (pages, ptr) = match on.memory() {
            Memory::Gpu(gpu) => {
                assert!(
                    align_of::<T>() <= 4096,
                    "elements aligned to more than a page"
                );
                pinned(gpu.context(), bytes)?
            }
            Memory::Host => {
                assert!(
                    align_of::<T>() <= 8,
                    "elements aligned to more than 8 bytes"
                );
                heap(bytes)?
            }
        };
        // SAFETY: `ptr` holds `bytes.max(1)` bytes, aligned for `T` (page-locked memory is
        // page-aligned, the heap buffer is of `u64`s; both checked against `T` above), so
        // zeroing them makes `len` valid `T`s (`Plain`: all-zero bytes are a value).
        unsafe { ptr.as_ptr().write_bytes(0, bytes.max(1)) };
        Ok(PinnedVec {
            pages,
            ptr: ptr.cast(),
            len,
            _elements: PhantomData,
        })
    }

    /// A copy of `data`, page-locked if `on` is a GPU.
    pub fn from_slice(on: &impl HasMemory, data: &[T]) -> Result<Self, DataError> {
        let mut v = PinnedVec::zeroed(on, data.len())?;
        v.copy_from_slice(data);
        Ok(v)
    }

    /// Whether the elements are page-locked (made for a GPU), rather than heap memory.
    pub fn is_pinned(&self) -> bool {
        matches!(self.pages, Pages::Pinned { .. })
    }
}

/// `bytes` (at least one) of page-locked memory in `context`, and its address.
fn pinned(
    context: &std::sync::Arc<cudarc::driver::CudaContext>,
    bytes: usize,
) -> Result<(Pages, NonNull<u8>), DataError> {
    // SAFETY: the memory is uninitialized until the caller zeroes it, before any read; flags
    // 0: plain page-locked memory, which the host reads at full speed (unlike write-combined
    // memory, cudarc's `alloc_pinned` default).
    let mut slice = unsafe { context.alloc_pinned_with_flags::<u8>(bytes.max(1), 0) }
        .map_err(driver("cuMemHostAlloc"))?;
    let ptr = slice.as_mut_ptr().map_err(driver("cuEventSynchronize"))?;
    let ptr = NonNull::new(ptr).ok_or(DataError::OutOfMemory { bytes })?;
    let pages = Pages::Pinned {
        slice: Some(slice),
        ordinal: context.ordinal(),
    };
    Ok((pages, ptr))
}

/// `bytes` (at least one) of heap memory in `u64` words, and its address.
fn heap(bytes: usize) -> Result<(Pages, NonNull<u8>), DataError> {
    let words = bytes.max(1).div_ceil(8);
    let mut v: Vec<u64> = Vec::new();
    v.try_reserve_exact(words)
        .map_err(|_| DataError::OutOfMemory { bytes })?;
    v.resize(words, 0);
    let ptr = NonNull::new(v.as_mut_ptr().cast::<u8>()).expect("a Vec's buffer is not null");
    Ok((Pages::Heap { _words: v }, ptr))
}

impl<T: Plain> Deref for PinnedVec<T> {
    type Target = [T];

    fn deref(&self) -> &[T] {
        // SAFETY: `ptr` holds `len` initialized elements (zeroed at creation, then written
        // only through `&mut self`), owned by `self` and alive as long as it; no copy of the
        // runtime's is in flight on them (`DeviceVec`'s copies wait for theirs to finish).
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl<T: Plain> DerefMut for PinnedVec<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        // SAFETY: as in `deref`, and `&mut self` makes the slice the only access.
        unsafe { std::slice::from_raw_parts_mut(self.ptr.as_ptr(), self.len) }
    }
}

impl<T: Plain + std::fmt::Debug> std::fmt::Debug for PinnedVec<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PinnedVec")
            .field("len", &self.len)
            .field("pinned", &self.is_pinned())
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn on_the_cpu_backend_it_is_zeroed_heap_memory() {
        let mut v = PinnedVec::<u32>::zeroed(&Memory::Host, 5).unwrap();
        assert!(!v.is_pinned());
        assert_eq!(&v[..], &[0; 5]);
        v[2] = 7;
        assert_eq!(v.iter().sum::<u32>(), 7);
        let w = PinnedVec::from_slice(&Memory::Host, &[1u64, 2, 3]).unwrap();
        assert_eq!(&w[..], &[1, 2, 3]);
        let empty = PinnedVec::<u8>::zeroed(&Memory::Host, 0).unwrap();
        assert!(empty.is_empty());
    }

    #[test]
    fn a_size_past_the_address_space_is_an_error() {
        let e = PinnedVec::<u64>::zeroed(&Memory::Host, usize::MAX / 4).unwrap_err();
        assert!(matches!(e, DataError::OutOfMemory { .. }), "{e}");
    }
}
