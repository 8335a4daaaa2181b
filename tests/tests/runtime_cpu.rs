//! `gtap::Runtime` on the CPU backend: the settings given reach the backend, the common
//! statistics are the backend's, and a run's error is typed with the shared run error inside.

use gtap::{Backend, BackendChoice, CpuConfig, Reason, Runtime, RuntimeError};
use gtap_examples::fib;

#[test]
fn a_cpu_choice_runs_on_the_cpu_backend_with_its_settings() {
    let mut rt = Runtime::builder()
        .backend(BackendChoice::Cpu)
        .cpu_config(CpuConfig::new().threads(3).auto_granularity(false))
        .build("")
        .expect("a CPU runtime needs no PTX");
    assert_eq!(rt.backend(), Backend::Cpu);
    assert_eq!(rt.selection().reason, Reason::Chosen);
    assert_eq!(
        rt.selection().to_string(),
        "CPU backend, 3 worker threads (chosen by the program)"
    );
    assert!(rt.as_gpu().is_none());
    assert_eq!(rt.as_cpu().unwrap().config().workers().threads(), 3);

    let (value, stats) = rt.run(fib::program::fib(18)).unwrap();
    assert_eq!(value, fib::reference(18));
    let cpu = stats.cpu().expect("a CPU run").clone();
    assert_eq!(stats.backend, Backend::Cpu);
    assert_eq!(cpu.threads, 3);
    // Policy off: one task per call of fib, 2 fib(n + 1) - 1 calls.
    assert_eq!(stats.tasks_executed, 2 * fib::reference(19) - 1);
    assert_eq!(stats.tasks_executed, cpu.tasks_executed);
    assert_eq!(stats.spawns_inlined, 0);
    assert_eq!(stats.run_time, cpu.elapsed);
    assert!(stats.elapsed >= stats.run_time);
    assert!(stats.gpu().is_none());
}

#[test]
fn a_limit_hit_is_the_shared_run_error_and_the_runtime_stays_usable() {
    let config = CpuConfig::new()
        .threads(2)
        .task_capacity(8)
        .auto_granularity(false);
    let mut rt = Runtime::cpu(config).unwrap();
    let err = rt.run(fib::program::fib(16)).unwrap_err();
    assert!(matches!(err, RuntimeError::Cpu(_)), "{err:?}");
    let run = err.run_error().expect("a run error both backends share");
    assert!(run.to_string().contains("task_capacity"), "{run}");
    assert_eq!(rt.run(fib::program::fib(3)).unwrap().0, 2);
}

#[test]
fn a_batch_runs_through_the_runtime_and_names_a_failing_root() {
    use gtap::RunError;
    use gtap_tests::lang::program as lang;
    let mut rt = Runtime::cpu(CpuConfig::new().threads(2).auto_granularity(false)).unwrap();
    let (values, stats) = rt
        .run_batch((0..40u32).map(|n| fib::program::fib(n % 15)))
        .unwrap();
    let expected: Vec<u64> = (0..40u32).map(|n| fib::reference(n % 15)).collect();
    assert_eq!(values, expected);
    assert_eq!(
        stats.tasks_executed,
        (0..40u32).map(|n| fib::task_count(n % 15)).sum::<u64>()
    );
    let roots = (0..8).map(|i| {
        if i == 5 {
            lang::fail_below(2)
        } else {
            lang::loop_join(3)
        }
    });
    let err = rt.run_batch(roots).unwrap_err();
    assert_eq!(err.failed_root(), Some(5), "{err}");
    assert!(
        matches!(err.run_error(), Some(RunError::SlotsFull { .. })),
        "{err}"
    );
}

#[test]
fn device_vectors_are_made_for_the_runtime_that_runs_the_tasks() {
    use gtap::DeviceVec;
    use gtap_examples::mergesort;
    let mut rt = Runtime::cpu(CpuConfig::new().threads(2)).unwrap();
    let input: Vec<u32> = (0..5000u32)
        .map(|i| i.wrapping_mul(2_654_435_761) >> 7)
        .collect();
    let mut data = DeviceVec::from_slice(&rt, &input).unwrap();
    let mut tmp = DeviceVec::<u32>::zeros(&rt, input.len()).unwrap();
    rt.run(mergesort::program::mergesort(
        data.view_mut(),
        tmp.view_mut(),
        64,
    ))
    .unwrap();
    let mut want = input.clone();
    want.sort_unstable();
    assert_eq!(data.to_vec().unwrap(), want);
}
