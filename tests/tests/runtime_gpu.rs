//! `gtap::Runtime` on the GPU: left to choose, it takes the GPU and says so; the common
//! statistics mean the same on both backends (with the granularity policy off, both run one
//! task per call); the GPU's own statistics stay reachable. Reported as ignored without a
//! GPU (the GPU test harness).

use gtap::{Backend, BackendChoice, CpuConfig, GpuConfig, Reason, Runtime};
use gtap_examples::fib;

/// Where the environment leaves the choice to the runtime (gpu-run.sh does).
fn auto_is_left_to_the_runtime() -> bool {
    std::env::var("GTAP_BACKEND").map_or(true, |v| v.trim().is_empty() || v == "auto")
}

fn auto_takes_the_gpu_and_says_why() {
    assert!(
        auto_is_left_to_the_runtime(),
        "unset GTAP_BACKEND to run this test"
    );
    let mut rt = Runtime::new(gtap_examples::PTX).expect("a GPU runtime");
    assert_eq!(rt.backend(), Backend::Gpu);
    assert_eq!(rt.selection().reason, Reason::GpuFound);
    let line = rt.selection().to_string();
    assert!(
        line.starts_with("GPU 0: ") && line.ends_with("(a GPU was found)"),
        "{line}"
    );
    assert!(rt.as_gpu().is_some() && rt.as_cpu().is_none());

    let (value, stats) = rt.run(fib::program::fib(25)).expect("fib(25)");
    assert_eq!(value, fib::reference(25));
    assert_eq!(stats.backend, Backend::Gpu);
    let gpu = stats.gpu().expect("a GPU run");
    assert_eq!(stats.tasks_executed, gpu.tasks);
    assert_eq!(stats.spawns_inlined, gpu.spawns_inlined);
    assert_eq!(stats.run_time, gpu.kernel_time);
    assert!(stats.run_time > std::time::Duration::ZERO);
    assert!(stats.elapsed >= stats.run_time, "{stats:?}");
    assert!(stats.cpu().is_none());
}

fn both_backends_count_the_same_tasks() {
    let n = 20;
    let mut gpu = Runtime::builder()
        .backend(BackendChoice::Gpu)
        .gpu_config(GpuConfig::new().auto_granularity(false))
        .build(gtap_examples::PTX)
        .expect("a GPU runtime");
    assert_eq!(gpu.selection().reason, Reason::Chosen);
    let mut cpu = Runtime::cpu(CpuConfig::new().threads(2).auto_granularity(false)).unwrap();
    let (on_gpu, gpu_stats) = gpu.run(fib::program::fib(n)).unwrap();
    let (on_cpu, cpu_stats) = cpu.run(fib::program::fib(n)).unwrap();
    assert_eq!(on_gpu, on_cpu);
    assert_eq!(on_gpu, fib::reference(n));
    // One task per call: 2 fib(n + 1) - 1, the root included.
    let calls = 2 * fib::reference(n + 1) - 1;
    assert_eq!(gpu_stats.tasks_executed, calls);
    assert_eq!(cpu_stats.tasks_executed, calls);
    assert_eq!((gpu_stats.spawns_inlined, cpu_stats.spawns_inlined), (0, 0));
    // Every task is resumed at least once (a parent again after its join, unless its
    // children were done by then).
    assert!(gpu_stats.resumes >= calls && cpu_stats.resumes >= calls);
}

gtap_host::gpu_test_main!(
    auto_takes_the_gpu_and_says_why,
    both_backends_count_the_same_tasks
);
