//! End-to-end tests on a real GPU: load, launch, and each failure mapped to its error.
//! Reported as ignored where there is no GPU (`gtap_host::testing::harness`).
//!
//! Tests that make a kernel fault run in a child process ([`Gpu::for_fault_test`]): the fault
//! leaves CUDA unusable for the rest of the process, and would fail every test after it.

use gtap_host::cudarc::driver::sys::CUresult;
use gtap_host::cudarc::driver::{CudaSlice, LaunchConfig, PushKernelArg};
use gtap_host::{Gpu, GpuError, Kernel};

/// `iota(u32 *out, u32 n)`: `out[i] = i` for `i < n`.
const IOTA: &str = r#"
.version 7.0
.target sm_70
.address_size 64

.visible .entry iota(.param .u64 out, .param .u32 n)
{
    .reg .pred %p<2>;
    .reg .b32 %r<5>;
    .reg .b64 %rd<4>;
    ld.param.u64 %rd1, [out];
    ld.param.u32 %r1, [n];
    mov.u32 %r2, %ctaid.x;
    mov.u32 %r3, %ntid.x;
    mov.u32 %r4, %tid.x;
    mad.lo.s32 %r2, %r2, %r3, %r4;
    setp.ge.u32 %p1, %r2, %r1;
    @%p1 bra DONE;
    cvta.to.global.u64 %rd1, %rd1;
    mul.wide.u32 %rd2, %r2, 4;
    add.s64 %rd3, %rd1, %rd2;
    st.global.u32 [%rd3], %r2;
DONE:
    ret;
}
"#;

/// One kernel per fault.
const FAULTS: &str = r#"
.version 7.0
.target sm_70
.address_size 64

.visible .entry trap_now()
{
    trap;
    ret;
}

.visible .entry poke_null()
{
    .reg .b32 %r<2>;
    .reg .b64 %rd<2>;
    mov.u64 %rd1, 0;
    mov.u32 %r1, 1;
    st.volatile.global.u32 [%rd1], %r1;
    ret;
}

.visible .entry misaligned(.param .u64 buf)
{
    .reg .b32 %r<2>;
    .reg .b64 %rd<3>;
    ld.param.u64 %rd1, [buf];
    cvta.to.global.u64 %rd1, %rd1;
    add.s64 %rd2, %rd1, 1;
    mov.u32 %r1, 1;
    st.volatile.global.u32 [%rd2], %r1;
    ret;
}
"#;

fn alloc(gpu: &Gpu, n: usize) -> CudaSlice<u32> {
    gpu.stream().alloc_zeros::<u32>(n).expect("cuMemAlloc")
}

/// Runs `iota` over `n` elements and checks the result.
fn run_iota(gpu: &Gpu) -> Result<(), GpuError> {
    let iota = gpu.load(IOTA)?.kernel("iota")?;
    let n = 1000u32;
    let mut out = alloc(gpu, n as usize);
    let mut launch = gpu.stream().launch_builder(iota.function());
    launch.arg(&mut out).arg(&n);
    // SAFETY: `iota` takes (u32 *out, u32 n) and writes out[0..n], which `out` holds.
    unsafe { launch.launch(LaunchConfig::for_num_elems(n)) }
        .map_err(|e| GpuError::launch(iota.name(), e))?;
    gpu.sync(iota.name())?;
    let host = gpu.stream().clone_dtoh(&out).expect("cuMemcpyDtoH");
    assert!(
        host.iter().enumerate().all(|(i, &v)| v == i as u32),
        "{:?}",
        &host[..8]
    );
    Ok(())
}

/// Launches a parameterless kernel on one thread and waits for it.
fn launch_and_sync(gpu: &Gpu, kernel: &Kernel) -> Result<(), GpuError> {
    let mut launch = gpu.stream().launch_builder(kernel.function());
    // SAFETY: the fault kernels without parameters touch no memory of ours.
    unsafe { launch.launch(LaunchConfig::for_num_elems(1)) }
        .map_err(|e| GpuError::launch(kernel.name(), e))?;
    gpu.sync(kernel.name())
}

fn loads_and_runs_a_kernel() {
    let Some(gpu) = Gpu::for_tests() else { return };
    let module = gpu.load(IOTA).unwrap();
    assert_eq!(module.kernel_names(), ["iota"]);
    assert_eq!(module.ptx_target(), Some("sm_70"));
    run_iota(&gpu).unwrap();
}

fn a_missing_kernel_lists_the_ones_there_are() {
    let Some(gpu) = Gpu::for_tests() else { return };
    let e = gpu.load(FAULTS).unwrap().kernel("trap").unwrap_err();
    match &e {
        GpuError::KernelNotFound { name, available } => {
            assert_eq!(name, "trap");
            assert_eq!(available, &["trap_now", "poke_null", "misaligned"]);
        }
        other => panic!("{other:?}"),
    }
    eprintln!("{e}");
}

fn ptx_that_does_not_compile_carries_the_jit_log() {
    let Some(gpu) = Gpu::for_tests() else { return };
    let bad = IOTA.replace("mov.u32 %r4, %tid.x;", "mov.u32 %r9, %tid.x;");
    let e = gpu.load(&bad).unwrap_err();
    match &e {
        GpuError::Jit {
            ptx_target,
            log,
            source,
        } => {
            assert_eq!(ptx_target, "sm_70");
            assert_eq!(source.0, CUresult::CUDA_ERROR_INVALID_PTX);
            assert!(
                log.contains("%r9"),
                "log does not name the bad register: {log}"
            );
        }
        other => panic!("{other:?}"),
    }
    eprintln!("{e}");
}

fn a_ptx_version_newer_than_the_driver_is_a_jit_error() {
    let Some(gpu) = Gpu::for_tests() else { return };
    let e = gpu
        .load(&IOTA.replace(".version 7.0", ".version 99.0"))
        .unwrap_err();
    assert!(
        matches!(&e, GpuError::Jit { source, .. } if source.0 == CUresult::CUDA_ERROR_UNSUPPORTED_PTX_VERSION),
        "{e:?}"
    );
    eprintln!("{e}");
}

fn ptx_for_a_newer_gpu_is_refused_before_the_driver_sees_it() {
    let Some(gpu) = Gpu::for_tests() else { return };
    let newer = format!("sm_{}", (gpu.props().compute_capability.0 + 1) * 10);
    let e = gpu.load(&IOTA.replace("sm_70", &newer)).unwrap_err();
    match &e {
        GpuError::PtxTooNew { ptx_target, device } => {
            assert_eq!(ptx_target, &newer);
            assert_eq!(device, &gpu.props().arch());
        }
        other => panic!("{other:?}"),
    }
    eprintln!("{e}");
}

fn a_trap_is_reported_as_trap_and_poisons_the_process() {
    let Some(gpu) = Gpu::for_fault_test("a_trap_is_reported_as_trap_and_poisons_the_process")
    else {
        return;
    };
    let trap = gpu.load(FAULTS).unwrap().kernel("trap_now").unwrap();
    let e = launch_and_sync(&gpu, &trap).unwrap_err();
    assert!(
        matches!(&e, GpuError::Trap { kernel } if kernel == "trap_now"),
        "{e:?}"
    );
    eprintln!("{e}");
    // Sticky: the next launch fails too, and is mapped as a fault.
    let again = launch_and_sync(&gpu, &trap).unwrap_err();
    assert!(again.is_sticky(), "{again:?}");
    // Even a fresh context, once every handle to the old one is gone, fails: CUDA is done for
    // in this process (what the messages tell users).
    drop((trap, gpu));
    let e = Gpu::new(0).and_then(|gpu| run_iota(&gpu)).unwrap_err();
    assert!(e.is_sticky(), "{e:?}");
    eprintln!("{e}");
}

fn an_illegal_address_is_reported() {
    let Some(gpu) = Gpu::for_fault_test("an_illegal_address_is_reported") else {
        return;
    };
    let poke = gpu.load(FAULTS).unwrap().kernel("poke_null").unwrap();
    let e = launch_and_sync(&gpu, &poke).unwrap_err();
    assert!(
        matches!(&e, GpuError::IllegalAddress { kernel } if kernel == "poke_null"),
        "{e:?}"
    );
    eprintln!("{e}");
}

fn a_misaligned_store_is_a_kernel_fault() {
    let Some(gpu) = Gpu::for_fault_test("a_misaligned_store_is_a_kernel_fault") else {
        return;
    };
    let kernel = gpu.load(FAULTS).unwrap().kernel("misaligned").unwrap();
    let buf = alloc(&gpu, 4);
    let mut launch = gpu.stream().launch_builder(kernel.function());
    launch.arg(&buf);
    // SAFETY: the kernel writes inside `buf` (misaligned on purpose: the test wants the fault).
    let e = unsafe { launch.launch(LaunchConfig::for_num_elems(1)) }
        .map_err(|e| GpuError::launch(kernel.name(), e))
        .and_then(|_| gpu.sync(kernel.name()))
        .unwrap_err();
    assert!(
        matches!(
            &e,
            GpuError::KernelFault {
                code: CUresult::CUDA_ERROR_MISALIGNED_ADDRESS,
                ..
            }
        ),
        "{e:?}"
    );
    eprintln!("{e}");
}

gtap_host::gpu_test_main!(
    loads_and_runs_a_kernel,
    a_missing_kernel_lists_the_ones_there_are,
    ptx_that_does_not_compile_carries_the_jit_log,
    a_ptx_version_newer_than_the_driver_is_a_jit_error,
    ptx_for_a_newer_gpu_is_refused_before_the_driver_sees_it,
    a_trap_is_reported_as_trap_and_poisons_the_process,
    an_illegal_address_is_reported,
    a_misaligned_store_is_a_kernel_fault,
);
