//! A CSR graph copied into GPU memory, with the view the block programs (BFS, SpMV) read: the
//! one upload that the GPU tests, the smoke run and the bench share.

use gtap::host::cudarc::driver::{CudaSlice, DevicePtr, DeviceRepr};
use gtap::host::{Gpu, GpuError};

use super::Csr;
use crate::csr_view::CsrView;

/// A CSR graph in device memory. Its arrays live as long as this value; the [`CsrView`] points
/// into them, so keep this alive while a run uses the view.
pub struct DeviceCsr {
    _row_ptr: CudaSlice<u32>,
    _col: CudaSlice<u32>,
    _val: Option<CudaSlice<f32>>,
    view: CsrView,
}

fn upload<T: DeviceRepr>(gpu: &Gpu, data: &[T]) -> Result<CudaSlice<T>, GpuError> {
    gpu.stream()
        .clone_htod(data)
        .map_err(|source| GpuError::Driver {
            call: "cuMemcpyHtoD",
            source,
        })
}

impl DeviceCsr {
    /// Copies `g` to `gpu`'s memory.
    pub fn upload(gpu: &Gpu, g: &Csr) -> Result<DeviceCsr, GpuError> {
        // Zero-length device buffers cannot be made: pad `col` and `val` with one entry.
        let col = upload(gpu, if g.col.is_empty() { &[0] } else { &g.col })?;
        let row_ptr = upload(gpu, &g.row_ptr)?;
        let val = match &g.val {
            Some(v) => Some(upload(gpu, if v.is_empty() { &[0.0] } else { v })?),
            None => None,
        };
        let stream = gpu.stream();
        let val_ptr = val
            .as_ref()
            .map_or(std::ptr::null(), |v| v.device_ptr(stream).0 as *const f32);
        // SAFETY: the device arrays hold a copy of `g` (a valid CSR) and live as long as the
        // returned value, whose view no run may use after it is dropped (the type's contract).
        let view = unsafe {
            CsrView::from_raw(
                row_ptr.device_ptr(stream).0 as *const u32,
                col.device_ptr(stream).0 as *const u32,
                val_ptr,
                g.n,
            )
        };
        Ok(DeviceCsr {
            _row_ptr: row_ptr,
            _col: col,
            _val: val,
            view,
        })
    }

    /// The view the block programs take as an argument.
    pub fn view(&self) -> CsrView {
        self.view
    }
}
