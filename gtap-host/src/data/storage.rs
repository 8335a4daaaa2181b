//! Where a `DeviceVec`'s bytes live: a host allocation (the CPU backend) or a device
//! allocation on one GPU (through cudarc, on the [`Gpu`]'s stream).

use std::alloc::{self, Layout};
use std::ptr::NonNull;

use cudarc::driver::{CudaSlice, DevicePtr};

use super::DataError;
use crate::{Gpu, GpuError};

/// Where to make a `DeviceVec`: what a runtime (or a [`Gpu`]) says about its memory.
#[derive(Clone, Debug)]
pub enum Memory {
    /// Host memory, for the CPU backend.
    Host,
    /// Device memory of this GPU, for a GPU runtime on it.
    Gpu(Gpu),
}

/// Something whose memory a `DeviceVec` can be made in: a runtime, a [`Gpu`], or a
/// [`Memory`] itself.
pub trait HasMemory {
    /// The memory that this runtime's tasks read.
    fn memory(&self) -> Memory;
}

impl HasMemory for Memory {
    fn memory(&self) -> Memory {
        self.clone()
    }
}

impl HasMemory for Gpu {
    fn memory(&self) -> Memory {
        Memory::Gpu(self.clone())
    }
}

impl HasMemory for crate::gpu_runtime::GpuRuntime {
    fn memory(&self) -> Memory {
        Memory::Gpu(self.gpu().clone())
    }
}

impl HasMemory for crate::runtime::Runtime {
    fn memory(&self) -> Memory {
        match self.as_gpu() {
            Some(gpu) => gpu.memory(),
            None => Memory::Host,
        }
    }
}

impl HasMemory for crate::cpu::CpuRuntime {
    fn memory(&self) -> Memory {
        Memory::Host
    }
}

/// `bytes` bytes aligned to `align`, zeroed, in host or GPU memory.
pub(crate) enum Storage {
    /// A host allocation, freed on drop (none for zero bytes: `ptr` is then dangling).
    Host { ptr: NonNull<u8>, layout: Layout },
    /// A device allocation of at least one byte (CUDA has no empty ones).
    Gpu { gpu: Gpu, bytes: CudaSlice<u8> },
}

// SAFETY: a `Storage` owns its allocation like a `Box<[u8]>` does, and hands out access only
// through `&self`/`&mut self` methods of `DeviceVec`, whose borrows the views carry.
unsafe impl Send for Storage {}
// SAFETY: as above; `&Storage` allows only reads.
unsafe impl Sync for Storage {}

impl Storage {
    /// `layout.size()` zeroed bytes in `memory`.
    pub(crate) fn zeroed(memory: &Memory, layout: Layout) -> Result<Storage, DataError> {
        match memory {
            Memory::Host if layout.size() == 0 => Ok(Storage::Host {
                // An aligned, dangling address: valid for zero-byte accesses.
                ptr: NonNull::new(layout.align() as *mut u8).expect("an alignment is not zero"),
                layout,
            }),
            Memory::Host => {
                // SAFETY: the layout has a nonzero size.
                let ptr = unsafe { alloc::alloc_zeroed(layout) };
                let ptr = NonNull::new(ptr).ok_or(DataError::OutOfMemory {
                    bytes: layout.size(),
                })?;
                Ok(Storage::Host { ptr, layout })
            }
            Memory::Gpu(gpu) => {
                let bytes = gpu
                    .stream()
                    .alloc_zeros::<u8>(layout.size().max(1))
                    .map_err(driver("cuMemAlloc"))?;
                Ok(Storage::Gpu {
                    gpu: gpu.clone(),
                    bytes,
                })
            }
        }
    }

    /// The first byte's address: a host address, or a device address (cuMemAlloc aligns it
    /// to 256 bytes at least).
    pub(crate) fn addr(&self) -> *mut u8 {
        match self {
            Storage::Host { ptr, .. } => ptr.as_ptr(),
            Storage::Gpu { gpu, bytes } => {
                let (addr, _record) = bytes.device_ptr(gpu.stream());
                addr as usize as *mut u8
            }
        }
    }

    /// Copies `src` to the start of the storage (`src.len()` bytes at most its size).
    pub(crate) fn write(&mut self, src: &[u8]) -> Result<(), DataError> {
        match self {
            Storage::Host { ptr, layout } => {
                assert!(src.len() <= layout.size());
                // SAFETY: the allocation holds `layout.size()` bytes, `src` is another
                // allocation, and `&mut self` means no view of this storage is alive.
                unsafe { std::ptr::copy_nonoverlapping(src.as_ptr(), ptr.as_ptr(), src.len()) };
                Ok(())
            }
            Storage::Gpu { gpu, bytes } => {
                if src.is_empty() {
                    return Ok(());
                }
                let mut dst = bytes.slice_mut(..src.len());
                let stream = gpu.stream();
                stream
                    .memcpy_htod(src, &mut dst)
                    .map_err(driver("cuMemcpyHtoD"))?;
                // From page-locked memory (a `PinnedVec`) the copy runs on by DMA after the
                // call returns: wait for it, so that the caller may change `src` at once.
                stream
                    .synchronize()
                    .map_err(driver("cuStreamSynchronize"))?;
                Ok(())
            }
        }
    }

    /// Copies the first `dst.len()` bytes of the storage into `dst`; they are there on return.
    pub(crate) fn read(&self, dst: &mut [u8]) -> Result<(), DataError> {
        match self {
            Storage::Host { ptr, layout } => {
                assert!(dst.len() <= layout.size());
                // SAFETY: the allocation holds `layout.size()` bytes, all initialized (zeroed
                // or written), and `&self` means no view that writes is alive.
                unsafe { std::ptr::copy_nonoverlapping(ptr.as_ptr(), dst.as_mut_ptr(), dst.len()) };
                Ok(())
            }
            Storage::Gpu { gpu, bytes } => {
                if dst.is_empty() {
                    return Ok(());
                }
                let src = bytes.slice(..dst.len());
                let stream = gpu.stream();
                stream
                    .memcpy_dtoh(&src, dst)
                    .map_err(driver("cuMemcpyDtoH"))?;
                stream
                    .synchronize()
                    .map_err(driver("cuStreamSynchronize"))?;
                Ok(())
            }
        }
    }

    /// Gives the memory up without freeing it (a stuck run may still use it).
    pub(crate) fn leak(self) {
        // Neither the host allocation nor the device one (nor the GPU handle) is dropped.
        let _ = std::mem::ManuallyDrop::new(self);
    }
}

impl Drop for Storage {
    fn drop(&mut self) {
        if let Storage::Host { ptr, layout } = self
            && layout.size() > 0
        {
            // SAFETY: allocated in `zeroed` with this layout, freed once.
            unsafe { alloc::dealloc(ptr.as_ptr(), *layout) }
        }
        // A device allocation frees itself (cudarc frees it in stream order, after the
        // work already queued on the stream).
    }
}

/// Maps a failed driver call of the data paths (`call`, for the message) to a [`GpuError`].
pub(super) fn driver(call: &'static str) -> impl Fn(cudarc::driver::DriverError) -> GpuError {
    move |source| GpuError::Driver { call, source }
}
