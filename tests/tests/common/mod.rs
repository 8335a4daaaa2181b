//! Helpers for the test suites: a GPU runtime per test, device buffers, and inputs shared by
//! the CPU and GPU suites.

#![allow(dead_code)]

use gtap_examples::graph::{Csr, mtx};
use gtap_examples::rng::Rng;
use gtap_host::cudarc::driver::{CudaSlice, DevicePtr};
use gtap_host::gpu_runtime::{GpuConfig, GpuRuntime};
use gtap_host::{Gpu, GpuError};

/// A GPU runtime for `ptx`, or `None` (with the skip message) where there is no GPU.
pub fn runtime(ptx: &str, config: GpuConfig) -> Option<GpuRuntime> {
    let gpu = Gpu::for_tests()?;
    Some(GpuRuntime::new(gpu, ptx, config).expect("GPU runtime"))
}

/// The examples' PTX that has the kernels `config` runs: the lab build where it needs lab
/// kernels, else the plain one.
#[allow(dead_code)] // not every test binary runs the examples
pub fn examples_ptx(config: &GpuConfig) -> &'static str {
    if config.needs_lab_kernels() {
        gtap_examples::PTX_LAB
    } else {
        gtap_examples::PTX
    }
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
    let mut rng = gtap_examples::rng::Rng::new(seed);
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

/// The synthetic trees' lookup table: 4096 pseudo-random words, leaked (`tree::Work::new`
/// wants a `'static` table).
pub fn tree_table() -> &'static [u64] {
    let mut rng = Rng::new(42);
    Box::leak(
        (0..1 << 12)
            .map(|_| rng.next())
            .collect::<Vec<_>>()
            .into_boxed_slice(),
    )
}

/// `examples/data/small.mtx`: 10 vertices, one of them isolated. Carried in the test binary,
/// which may run far from the folder it was built in.
pub fn sample_graph() -> Csr {
    mtx::read_str(include_str!("../../../examples/data/small.mtx")).unwrap()
}

/// Two components (a path and a triangle) and an isolated vertex.
pub fn two_components() -> Csr {
    Csr::from_edges(8, &[(0, 1), (1, 2), (2, 3), (4, 5), (5, 6), (6, 4)], true).unwrap()
}

/// A directed graph: 3 -> 0 -> 1 -> 2.
pub fn directed_graph() -> Csr {
    Csr::from_edges(4, &[(0, 1), (1, 2), (3, 0)], false).unwrap()
}

/// A weighted 500 x 500 matrix of positive values (no cancellation, so relative errors stay
/// meaningful): 3000 random entries and two long rows, 0 and 1.
pub fn weighted_matrix() -> Csr {
    let mut rng = Rng::new(9);
    let n = 500u32;
    let mut entries = Vec::new();
    for _ in 0..3000 {
        let (u, v) = (
            (rng.next() % n as u64) as u32,
            (rng.next() % n as u64) as u32,
        );
        entries.push((u, v, (rng.next() % 1000) as f32 / 100.0 + 0.5));
    }
    for v in 2..n {
        entries.push((0, v, 1.5));
        entries.push((1, v, 0.25 + v as f32 / 1000.0));
    }
    Csr::from_weighted_edges(n, &entries, false).unwrap()
}

/// A test counter in a leaked host cell (for CPU runs), and the cell to read it back.
pub fn counter() -> (gtap_tests::lang::Counter, &'static mut u64) {
    let cell: &'static mut u64 = Box::leak(Box::new(0u64));
    let ptr: *mut u64 = cell;
    // SAFETY: zeroed, aligned, leaked: valid for the whole process.
    (unsafe { gtap_tests::lang::Counter::from_ptr(ptr) }, cell)
}

/// Runs `f` to its end on this thread, parking while it is pending (the smallest executor
/// there is: the waker unparks the thread).
pub fn block_on<F: std::future::Future>(f: F) -> F::Output {
    use std::sync::Arc;
    use std::task::{Context, Poll, Wake, Waker};
    use std::thread::Thread;
    struct Unpark(Thread);
    impl Wake for Unpark {
        fn wake(self: Arc<Self>) {
            self.0.unpark();
        }
    }
    let waker = Waker::from(Arc::new(Unpark(std::thread::current())));
    let mut cx = Context::from_waker(&waker);
    let mut f = std::pin::pin!(f);
    loop {
        match f.as_mut().poll(&mut cx) {
            Poll::Ready(v) => return v,
            Poll::Pending => std::thread::park(),
        }
    }
}

/// The root a batch's CPU error names, the batch's size and the root's own error; panics
/// unless the error is `CpuError::InRoot`.
pub fn cpu_in_root(e: gtap_host::cpu::CpuError) -> (usize, usize, gtap_host::cpu::CpuError) {
    match e {
        gtap_host::cpu::CpuError::InRoot {
            root,
            roots,
            source,
        } => (root, roots, *source),
        other => panic!("expected InRoot, got {other}"),
    }
}

/// The same for a GPU error (`GpuRunError::InRoot`).
pub fn gpu_in_root(
    e: gtap_host::gpu_runtime::GpuRunError,
) -> (usize, usize, gtap_host::gpu_runtime::GpuRunError) {
    match e {
        gtap_host::gpu_runtime::GpuRunError::InRoot {
            root,
            roots,
            source,
        } => (root, roots, *source),
        other => panic!("expected InRoot, got {other}"),
    }
}
