//! A CSR graph copied into the memory of a runtime (GPU memory for a GPU runtime), with the
//! view the block programs (BFS, SpMV) read: the one upload that the GPU tests, the smoke
//! run and the bench share.

use gtap::DeviceVec;
use gtap::host::data::{DataError, HasMemory};

use super::Csr;
use crate::csr_view::CsrView;

/// A CSR graph in a runtime's memory, as [`DeviceVec`]s; its [`CsrView`] borrows them.
pub struct DeviceCsr {
    row_ptr: DeviceVec<u32>,
    col: DeviceVec<u32>,
    val: Option<DeviceVec<f32>>,
}

impl DeviceCsr {
    /// Copies `g` to the memory of `on` (a runtime or a `Gpu`).
    pub fn upload(on: &impl HasMemory, g: &Csr) -> Result<DeviceCsr, DataError> {
        Ok(DeviceCsr {
            row_ptr: DeviceVec::from_slice(on, &g.row_ptr)?,
            col: DeviceVec::from_slice(on, &g.col)?,
            val: match &g.val {
                Some(v) => Some(DeviceVec::from_slice(on, v)?),
                None => None,
            },
        })
    }

    /// The view the block programs take as an argument.
    pub fn view(&self) -> CsrView<'_> {
        CsrView::from_views(
            self.row_ptr.view(),
            self.col.view(),
            self.val.as_ref().map(DeviceVec::view),
        )
    }
}
