//! Many roots in one run on the CPU backend (`CpuRuntime::run_batch`): results in order, the
//! tasks of every root counted, a failing root named, an empty batch, and runs after a failed
//! batch. The same checks on the GPU: `batch_gpu.rs`.

mod common;

use common::cpu_in_root as in_root;
use gtap_examples::{fib, nqueens};
use gtap_host::RunError;
use gtap_host::cpu::{CpuConfig, CpuError, CpuRuntime};
use gtap_tests::lang::program as lang;

fn runtime(threads: usize) -> CpuRuntime {
    CpuRuntime::new(CpuConfig::new().threads(threads)).expect("CPU runtime")
}

#[test]
fn a_batch_returns_every_result_in_order() {
    for threads in [1, 2, 4] {
        let mut rt = runtime(threads);
        let ns: Vec<u32> = (0..500).map(|i| i % 23).collect();
        let (values, stats) = rt
            .run_batch(ns.iter().map(|&n| fib::program::fib(n)))
            .unwrap();
        let expected: Vec<u64> = ns.iter().map(|&n| fib::reference(n)).collect();
        assert_eq!(values, expected, "{threads} threads");
        assert!(stats.tasks_executed >= 500);
    }
}

#[test]
fn every_root_is_a_whole_task_tree() {
    // Without the granularity policy every call is a task: the tasks of the batch are the
    // sum of its roots' trees.
    let mut rt = CpuRuntime::new(CpuConfig::new().threads(3).auto_granularity(false)).unwrap();
    let ns = [10u32, 0, 1, 15, 7];
    let (values, stats) = rt
        .run_batch(ns.iter().map(|&n| fib::program::fib(n)))
        .unwrap();
    assert_eq!(values, [55, 0, 1, 610, 13]);
    let calls = fib::task_count;
    assert_eq!(
        stats.tasks_executed,
        ns.iter().map(|&n| calls(n)).sum::<u64>()
    );
}

#[test]
fn a_batch_of_nqueens_boards_counts_each() {
    let mut rt = runtime(4);
    let boards = [4u32, 5, 6, 7, 8, 4, 8];
    let (values, _) = rt
        .run_batch(
            boards
                .iter()
                .map(|&n| nqueens::program::nqueens(n, 0, 0, 0, 0, 3)),
        )
        .unwrap();
    let known = |n: u32| [1u64, 0, 0, 2, 10, 4, 40, 92][n as usize - 1];
    assert_eq!(values, boards.map(known));
}

#[test]
fn a_failing_root_is_named_and_the_runtime_stays_usable() {
    // Policy off: the failing spawn must be a task, not an inline call.
    let mut rt = CpuRuntime::new(CpuConfig::new().threads(3).auto_granularity(false)).unwrap();
    for (bad, depth) in [(0, 0), (6, 3), (11, 1)] {
        let roots = (0..12).map(|i| {
            if i == bad {
                lang::fail_below(depth)
            } else {
                lang::loop_join(5)
            }
        });
        let (root, roots, source) = in_root(rt.run_batch(roots).unwrap_err());
        assert_eq!((root, roots), (bad, 12), "depth {depth}");
        assert!(
            matches!(source, CpuError::Run(RunError::SlotsFull { .. })),
            "{source}"
        );
    }
    let (values, _) = rt.run_batch((0..4).map(lang::loop_join)).unwrap();
    assert_eq!(values.len(), 4);
    assert_eq!(rt.run(lang::loop_join(5)).unwrap().0, values_of_one(5));
}

#[test]
fn a_panicking_root_is_named_and_the_runtime_stays_usable() {
    let mut rt = CpuRuntime::new(CpuConfig::new().threads(3).auto_granularity(false)).unwrap();
    for (bad, depth) in [(0, 0), (6, 3), (11, 1)] {
        let roots =
            (0..12u32).map(|i| lang::panic_below(depth, if i as usize == bad { 7 } else { i % 4 }));
        let (root, roots, source) = in_root(rt.run_batch(roots).unwrap_err());
        assert_eq!((root, roots), (bad, 12), "depth {depth}");
        assert!(
            matches!(
                source,
                CpuError::TaskPanicked {
                    task: "panic_below",
                    ..
                }
            ),
            "{source}"
        );
    }
    let (values, _) = rt
        .run_batch((0..8u32).map(|i| lang::panic_below(2, i % 4)))
        .unwrap();
    assert_eq!(values, [10, 11, 12, 13, 10, 11, 12, 13]);
}

fn values_of_one(n: u32) -> u64 {
    let mut rt = runtime(1);
    rt.run(lang::loop_join(n)).unwrap().0
}

#[test]
fn an_empty_batch_returns_nothing() {
    let mut rt = runtime(2);
    let (values, stats) = rt
        .run_batch(Vec::<gtap::Call<fib::program::Program, u64>>::new())
        .unwrap();
    assert!(values.is_empty());
    assert_eq!(stats.tasks_executed, 0);
}
