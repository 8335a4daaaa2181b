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

/// `n` pseudo-random `u32`s from `seed`.
pub fn random_input(n: usize, seed: u64) -> Vec<u32> {
    let mut rng = gtap_examples::buf::Rng::new(seed);
    (0..n).map(|_| rng.next() as u32).collect()
}

/// Asserts that `output` is `input` sorted.
pub fn check_sorted_permutation(input: &[u32], output: &[u32]) {
    assert!(
        output.windows(2).all(|w| w[0] <= w[1]),
        "output is not sorted"
    );
    let mut expected = input.to_vec();
    expected.sort_unstable();
    assert_eq!(expected, output, "output is not a permutation of the input");
}
