//! Helpers for the GPU test suites: a runtime per test, device buffers.

#![allow(dead_code)]

use gtap_host::cudarc::driver::{CudaSlice, DevicePtr};
use gtap_host::gpu_runtime::{GpuConfig, GpuRuntime};
use gtap_host::{Gpu, GpuError};

/// A GPU runtime for `ptx`, or `None` (with the skip message) where there is no GPU.
pub fn runtime(ptx: &str, config: GpuConfig) -> Option<GpuRuntime> {
    let gpu = Gpu::for_tests()?;
    Some(GpuRuntime::new(gpu, ptx, config).expect("GPU runtime"))
}

/// Device memory holding `data`.
pub fn upload<T: gtap_host::cudarc::driver::DeviceRepr>(gpu: &Gpu, data: &[T]) -> CudaSlice<T> {
    gpu.stream()
        .clone_htod(data)
        .map_err(|source| GpuError::Driver {
            call: "cuMemcpyHtoD",
            source,
        })
        .unwrap()
}

/// The contents of device memory.
pub fn download<T: gtap_host::cudarc::driver::DeviceRepr + Default + Clone>(
    gpu: &Gpu,
    s: &CudaSlice<T>,
) -> Vec<T> {
    gpu.stream()
        .clone_dtoh(s)
        .map_err(|source| GpuError::Driver {
            call: "cuMemcpyDtoH",
            source,
        })
        .unwrap()
}

/// The device address of `s`.
pub fn device_ptr<T>(gpu: &Gpu, s: &CudaSlice<T>) -> u64 {
    let (p, _sync) = s.device_ptr(gpu.stream());
    p
}
