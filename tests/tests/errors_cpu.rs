//! The run-time errors read the same on both backends. Each program here hits a limit (or
//! breaks a block rule) on the CPU backend; its error then goes the way a GPU run's error
//! goes: named by task index as device code names it, encoded into the control block's
//! words as the kernel writes them, decoded as `GpuRuntime` reads them back. Both host
//! errors must hold the same `RunError` and print the same message. Needs no GPU: the GPU
//! side is the encoding and decoding functions, which the kernel and the runtime call.

use std::time::Duration;

use gtap::Program;
use gtap_device::runtime::gpu::layout::KernelError;
use gtap_host::RunError;
use gtap_host::cpu::{CpuConfig, CpuError, CpuRuntime};
use gtap_host::gpu_runtime::GpuRunError;
use gtap_tests::block::program as blocks;
use gtap_tests::lang::program as lang;

/// What `GpuRuntime` reports when a kernel of program `P` fails with `error`.
fn through_the_gpu_encoding<P: Program>(error: RunError) -> GpuRunError {
    let index = |name: &str| {
        P::TASK_NAMES
            .iter()
            .position(|n| *n == name)
            .unwrap_or_else(|| panic!("`{name}` is no task of the program")) as u32
    };
    let words = KernelError::Run(error.map_task(index)).encode();
    GpuRunError::from_kernel(words, P::TASK_NAMES, 0, 0).expect("the words hold an error")
}

/// Checks that the CPU backend's error `cpu` reads the same through the GPU's path, and
/// returns the shared error.
fn same_on_both<P: Program>(cpu: CpuError) -> RunError {
    let CpuError::Run(shared) = cpu else {
        panic!("expected a run error, got {cpu:?}")
    };
    let gpu = through_the_gpu_encoding::<P>(shared);
    assert!(matches!(gpu, GpuRunError::Run(e) if e == shared), "{gpu:?}");
    assert_eq!(cpu.to_string(), gpu.to_string());
    shared
}

fn runtime(config: CpuConfig) -> CpuRuntime {
    CpuRuntime::new(config.timeout(Duration::from_secs(60))).expect("CPU runtime")
}

#[test]
fn task_limits_read_the_same() {
    let mut rt = runtime(CpuConfig::new().auto_granularity(false).threads(2));
    let err = rt.run(lang::too_many(1000)).unwrap_err();
    let e = same_on_both::<lang::Program>(err);
    assert_eq!(
        e,
        RunError::TooManyChildren {
            task: "too_many",
            limit: 256
        }
    );
    let err = rt.run(lang::fan(2, 17)).unwrap_err();
    let e = same_on_both::<lang::Program>(err);
    assert!(
        matches!(e, RunError::SlotsFull { capacity: 16, .. }),
        "{e:?}"
    );
}

#[test]
fn sizing_limits_read_the_same() {
    let mut rt = runtime(
        CpuConfig::new()
            .auto_granularity(false)
            .threads(2)
            .num_queues(1),
    );
    let err = rt.run(lang::fib_q(6, 1)).unwrap_err();
    let e = same_on_both::<lang::Program>(err);
    assert!(
        matches!(e, RunError::BadQueue { num_queues: 1, .. }),
        "{e:?}"
    );
    // Only the taskwait's queue out of range.
    let err = rt.run(lang::wait_in(2)).unwrap_err();
    let e = same_on_both::<lang::Program>(err);
    assert!(
        matches!(
            e,
            RunError::BadQueue {
                queue: 2,
                num_queues: 1
            }
        ),
        "{e:?}"
    );
    assert_eq!(rt.run(lang::wait_in(0)).unwrap().0, 9);

    let mut rt = runtime(
        CpuConfig::new()
            .auto_granularity(false)
            .threads(1)
            .task_capacity(8),
    );
    let err = rt.run(lang::fan(6, 8)).unwrap_err();
    let e = same_on_both::<lang::Program>(err);
    assert_eq!(e, RunError::PoolExhausted { capacity: 8 });

    // One worker: a task's 16 children all go to its own queue of 4 before its taskwait.
    let mut rt = runtime(
        CpuConfig::new()
            .auto_granularity(false)
            .threads(1)
            .queue_capacity(4),
    );
    let err = rt.run(lang::fan(3, 16)).unwrap_err();
    let e = same_on_both::<lang::Program>(err);
    assert_eq!(e, RunError::QueueFull { capacity: 4 });
}

#[test]
fn a_timeout_reads_the_same() {
    let timeout = Duration::from_millis(20);
    let mut rt = CpuRuntime::new(
        CpuConfig::new()
            .auto_granularity(false)
            .threads(2)
            .timeout(timeout),
    )
    .unwrap();
    let err = rt.run(lang::loop_join(u32::MAX)).unwrap_err();
    let e = same_on_both::<lang::Program>(err);
    assert_eq!(e, RunError::TimedOut { after: timeout });
}

#[test]
fn block_rules_read_the_same() {
    let mut rt = runtime(
        CpuConfig::new()
            .auto_granularity(false)
            .threads(2)
            .team(4)
            .check_uniform(true),
    );
    let err = rt.run(blocks::divergent()).unwrap_err();
    let e = same_on_both::<blocks::Program>(err);
    assert_eq!(
        e,
        RunError::DivergentTaskwait {
            task: "divergent",
            thread: 1
        }
    );
    let err = rt.run(blocks::non_uniform()).unwrap_err();
    let e = same_on_both::<blocks::Program>(err);
    assert_eq!(
        e,
        RunError::NonUniformState {
            task: "non_uniform"
        }
    );
}
