//! A task that never returns on the GPU: the run ends as `Stuck`, the runtime refuses later
//! runs, a new runtime refuses to load its PTX beside the stuck kernel, and once the process has ended (it must abort: a normal exit would wait for the
//! kernel) the GPU is free for the next process. Also a planted hang, run only on request,
//! for checking the GPU script's watchdog.

mod common;

use std::time::Duration;

use common::{device_ptr, upload};
use gtap_host::gpu_runtime::{GpuConfig, GpuRunError, GpuRuntime};
use gtap_host::testing::child::end_stuck_child;
use gtap_host::{Gpu, GpuError};
use gtap_tests::lang::{Counter, program as lang};

fn config() -> GpuConfig {
    GpuConfig::new().auto_granularity(false).grid(16).block(64)
}

/// A zeroed device counter, leaked: a stuck kernel keeps reading it.
fn never_released(gpu: &Gpu) -> Counter {
    let cell = Box::leak(Box::new(upload(gpu, &[0u64])));
    // SAFETY: a zeroed, aligned device u64 that is never freed.
    unsafe { Counter::from_ptr(device_ptr(gpu, cell) as *mut u64) }
}

fn a_task_that_never_returns_is_stuck_and_the_gpu_is_free_after_the_process() {
    let name = "a_task_that_never_returns_is_stuck_and_the_gpu_is_free_after_the_process";
    if Gpu::for_stuck_test(name, Duration::from_secs(120)).is_some() {
        // The child: a stuck run, reported as such; the runtime then refuses to run.
        let timeout = Duration::from_millis(500);
        let mut rt = common::runtime(gtap_tests::PTX, config().timeout(timeout)).expect("GPU");
        let release = never_released(rt.gpu());
        let err = rt.run(lang::spin(release, 3)).unwrap_err();
        assert!(
            matches!(err, GpuRunError::Stuck { after } if after == timeout),
            "{err}"
        );
        let msg = err.to_string();
        assert!(msg.contains("std::process::abort()"), "{msg}");
        let again = rt.run(lang::loop_join(5)).unwrap_err();
        assert!(matches!(again, GpuRunError::Stuck { .. }), "{again}");
        // Loading PTX waits for every kernel, the stuck one too, which never ends: a new
        // runtime fails with `SessionOpen` after its timeout instead of hanging the process
        // inside the driver (`gtap-host/src/gate.rs`).
        let short = config().timeout(Duration::from_secs(1));
        let err = GpuRuntime::new(rt.gpu().clone(), gtap_tests::PTX, short)
            .err()
            .expect("a PTX load beside a stuck kernel is refused");
        assert!(
            matches!(err, GpuRunError::Gpu(GpuError::SessionOpen { .. })),
            "{err}"
        );
        end_stuck_child();
    }
    // The parent, after the child ended: the GPU runs the next program.
    let mut rt = common::runtime(gtap_tests::PTX, config()).expect("GPU");
    let (v, _) = rt.run(lang::loop_join(50)).unwrap();
    assert_eq!(v, (0..50u64).map(|i| i * i).sum());
}

/// Hangs on purpose, for checking the watchdog of `scripts/gpu-run.sh`: the run's timeout
/// is an hour, so the host waits on a kernel that never ends. Runs only with
/// `GTAP_PLANT_HANG` set.
fn planted_hang() {
    let mut rt =
        common::runtime(gtap_tests::PTX, config().timeout(Duration::from_secs(3600))).expect("GPU");
    let release = never_released(rt.gpu());
    eprintln!("planted hang: a task that spins for an hour");
    let r = rt.run(lang::spin(release, 0));
    panic!("the planted hang ended: {r:?}");
}

gtap_host::gpu_test_main!(
    a_task_that_never_returns_is_stuck_and_the_gpu_is_free_after_the_process;
    on_request("GTAP_PLANT_HANG"): [planted_hang]
);
