//! Many roots in one launch on the GPU (`GpuRuntime::run_batch`): results in order for
//! batches from one root to many per warp, a failing root named (a limit, or a panic), a
//! batch too large for one
//! launch refused, an empty batch, and runs after a failed batch. The same checks on the CPU:
//! `batch_cpu.rs`. Reported as ignored without a GPU (the GPU test harness).

mod common;

use std::time::Duration;

use common::gpu_in_root as in_root;

use gtap_examples::{fib, nqueens};
use gtap_host::RunError;
use gtap_host::gpu_runtime::{GpuConfig, GpuRunError, GpuRuntime};
use gtap_tests::lang::program as lang;

fn config() -> GpuConfig {
    GpuConfig::new().timeout(Duration::from_secs(60))
}

fn a_batch_returns_every_result_in_order() {
    let Some(mut rt) = common::runtime(gtap_examples::PTX, config()) else {
        return;
    };
    for roots in [1usize, 2, 31, 1000, 100_000] {
        let ns: Vec<u32> = (0..roots as u32).map(|i| (i * 7) % 21).collect();
        let (values, stats) = rt
            .run_batch(ns.iter().map(|&n| fib::program::fib(n)))
            .unwrap();
        let expected: Vec<u64> = ns.iter().map(|&n| fib::reference(n)).collect();
        assert_eq!(values, expected, "{roots} roots");
        assert!(stats.tasks >= roots as u64, "{roots} roots");
    }
}

fn a_batch_of_nqueens_boards_counts_each() {
    let Some(mut rt) = common::runtime(gtap_examples::PTX, config()) else {
        return;
    };
    let known = |n: u32| [1u64, 0, 0, 2, 10, 4, 40, 92, 352, 724][n as usize - 1];
    let boards: Vec<u32> = (0..20_000).map(|i| 4 + i % 7).collect();
    let (values, _) = rt
        .run_batch(
            boards
                .iter()
                .map(|&n| nqueens::program::nqueens(n, 0, 0, 0, 0, 3)),
        )
        .unwrap();
    let expected: Vec<u64> = boards.iter().map(|&n| known(n)).collect();
    assert_eq!(values, expected);
}

fn a_failing_root_is_named_and_the_runtime_stays_usable() {
    let Some(mut rt) = common::runtime(gtap_tests::PTX, config().auto_granularity(false)) else {
        return;
    };
    for (bad, depth) in [(0, 0), (600, 3), (4095, 1)] {
        let roots = (0..4096).map(|i| {
            if i == bad {
                lang::fail_below(depth)
            } else {
                lang::loop_join(5)
            }
        });
        let (root, roots, source) = in_root(rt.run_batch(roots).unwrap_err());
        assert_eq!((root, roots), (bad, 4096), "depth {depth}");
        assert!(
            matches!(source, GpuRunError::Run(RunError::SlotsFull { .. })),
            "{source}"
        );
    }
    let one = rt.run(lang::loop_join(5)).unwrap().0;
    let (values, _) = rt.run_batch((0..64).map(|_| lang::loop_join(5))).unwrap();
    assert!(values.iter().all(|&v| v == one));
}

/// A batch of 4096 roots in which root `bad` panics `depth` tasks below it: the error names
/// the root and carries the panic. A trap ends CUDA in the process, so each case runs in a
/// child process of its own (`Gpu::for_fault_test`).
fn a_panicking_root_is_named(test: &str, bad: u32, depth: u32) {
    let Some(gpu) = gtap_host::Gpu::for_fault_test(test) else {
        return;
    };
    let mut rt = GpuRuntime::new(gpu, gtap_tests::PTX, config().auto_granularity(false)).unwrap();
    let roots = (0..4096u32).map(|i| lang::panic_below(depth, if i == bad { 7 } else { i % 4 }));
    let (root, roots, source) = in_root(rt.run_batch(roots).unwrap_err());
    assert_eq!((root, roots), (bad as usize, 4096), "depth {depth}");
    match source {
        GpuRunError::TaskPanicked { location, .. } => {
            assert!(location.contains("lang.rs"), "{location}");
        }
        other => panic!("expected TaskPanicked in root {bad}, got {other}"),
    }
}

fn a_panic_deep_in_a_root_names_the_root() {
    a_panicking_root_is_named("a_panic_deep_in_a_root_names_the_root", 600, 3);
}

fn a_panicking_last_root_is_named() {
    a_panicking_root_is_named("a_panicking_last_root_is_named", 4095, 0);
}

fn a_batch_too_large_for_one_launch_is_refused() {
    let small = config().grid(4).block(32).tasks_per_warp(64);
    let Some(mut rt) = common::runtime(gtap_examples::PTX, small) else {
        return;
    };
    // 4 warps with 64 records each take at most 4 x 32 roots.
    rt.run_batch((0..128).map(|_| fib::program::fib(3)))
        .unwrap();
    let err = rt
        .run_batch((0..129).map(|_| fib::program::fib(3)))
        .unwrap_err();
    assert!(
        matches!(
            err,
            GpuRunError::BatchTooLarge {
                roots: 129,
                setting: "tasks_per_warp",
                ..
            }
        ),
        "{err}"
    );
    assert!(err.to_string().contains("smaller batches"), "{err}");
}

fn an_empty_batch_returns_nothing() {
    let Some(mut rt) = common::runtime(gtap_examples::PTX, config()) else {
        return;
    };
    let (values, _) = rt
        .run_batch(Vec::<gtap::Call<fib::program::Program, u64>>::new())
        .unwrap();
    assert!(values.is_empty());
}

gtap_host::gpu_test_main!(
    a_batch_returns_every_result_in_order,
    a_batch_of_nqueens_boards_counts_each,
    a_failing_root_is_named_and_the_runtime_stays_usable,
    a_panic_deep_in_a_root_names_the_root,
    a_panicking_last_root_is_named,
    a_batch_too_large_for_one_launch_is_refused,
    an_empty_batch_returns_nothing,
);
