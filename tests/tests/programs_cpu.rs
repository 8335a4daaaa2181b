//! The paper's programs on the CPU backend, each checked against its sequential reference,
//! with several worker counts.

mod common;

use common::{check_sorted_permutation, random_input, tree_table};
use gtap_examples::buf::Buf;
use gtap_examples::{cilksort, fib, mergesort, nqueens, tree};
use gtap_host::cpu::{CpuConfig, CpuRuntime};

fn runtime(threads: usize) -> CpuRuntime {
    CpuRuntime::new(CpuConfig::new().threads(threads)).expect("CPU runtime")
}

#[test]
fn fib_matches_the_closed_form_and_runs_one_task_per_call() {
    for threads in [1, 2, 4] {
        let mut rt = runtime(threads);
        for n in 0..=22 {
            let (v, stats) = rt.run(fib::program::fib(n)).unwrap();
            assert_eq!(v, fib::reference(n), "fib({n}) on {threads} threads");
            assert_eq!(
                stats.tasks_executed,
                fib::task_count(n),
                "tasks of fib({n})"
            );
        }
    }
}

#[test]
fn fib_with_a_cutoff_matches_with_and_without_epaq_queues() {
    let mut rt = CpuRuntime::new(CpuConfig::new().threads(4).num_queues(3)).unwrap();
    for (n, cutoff) in [(1, 10), (12, 2), (20, 5), (22, 10)] {
        for epaq in [0, 1] {
            let (v, stats) = rt.run(fib::epaq::fib_cutoff(n, cutoff, epaq)).unwrap();
            assert_eq!(v, fib::reference(n), "fib({n}) cutoff {cutoff}");
            assert_eq!(stats.tasks_executed, fib::cutoff_task_count(n, cutoff));
        }
    }
    // The plain program is the cutoff program with the cutoff at 2.
    assert_eq!(fib::cutoff_task_count(25, 2), fib::task_count(25));
}

#[test]
fn nqueens_matches_the_known_counts() {
    let mut rt = runtime(4);
    for n in 1..=14u32 {
        for cutoff in [0, 3, 7] {
            let (v, _) = rt
                .run(nqueens::program::nqueens(n, 0, 0, 0, 0, cutoff))
                .unwrap();
            assert_eq!(
                v,
                nqueens::KNOWN[n as usize],
                "nqueens({n}), cutoff {cutoff}"
            );
        }
    }
}

#[test]
fn nqueens_sequential_part_matches_the_known_counts() {
    for n in 1..=12u32 {
        assert_eq!(
            nqueens::count_seq(n, 0, 0, 0, 0),
            nqueens::KNOWN[n as usize]
        );
    }
}

#[test]
fn mergesort_sorts_random_arrays() {
    let mut rt = runtime(4);
    for (n, cutoff) in [(0, 8), (1, 8), (1000, 1), (50_000, 128), (100_003, 64)] {
        let input = random_input(n, n as u64 + 1);
        let mut data = input.clone();
        let mut tmp = vec![0u32; n];
        let (d, t) = (Buf::new(&mut data), Buf::new(&mut tmp));
        rt.run(mergesort::program::mergesort(d, t, 0, n, cutoff))
            .unwrap();
        check_sorted_permutation(&input, &data);
    }
}

#[test]
fn cilksort_sorts_random_arrays() {
    let mut rt = runtime(4);
    for (n, sort_cutoff, merge_cutoff) in [
        (0, 8, 8),
        (3, 8, 8),
        (1000, 4, 2),
        (100_000, 64, 256),
        (77_777, 16, 32),
    ] {
        let input = random_input(n, n as u64 + 7);
        let mut data = input.clone();
        let mut tmp = vec![0u32; n];
        let (d, t) = (Buf::new(&mut data), Buf::new(&mut tmp));
        rt.run(cilksort::program::cilksort(
            d,
            t,
            0,
            n,
            sort_cutoff,
            merge_cutoff,
        ))
        .unwrap();
        check_sorted_permutation(&input, &data);
    }
}

#[test]
fn cilksort_handles_many_duplicates() {
    let mut rt = runtime(3);
    let input: Vec<u32> = random_input(20_000, 3).into_iter().map(|v| v % 7).collect();
    let mut data = input.clone();
    let mut tmp = vec![0u32; input.len()];
    let (d, t) = (Buf::new(&mut data), Buf::new(&mut tmp));
    rt.run(cilksort::program::cilksort(d, t, 0, input.len(), 8, 16))
        .unwrap();
    check_sorted_permutation(&input, &data);
}

#[test]
fn full_binary_tree_counts_nodes_and_checksums() {
    let w = tree::Work::new(tree_table(), 16, 16);
    let mut rt = runtime(4);
    for depth in [0, 1, 5, 12] {
        let (got, _) = rt.run(tree::full_binary::node(depth, 0, w)).unwrap();
        assert_eq!(
            got.0,
            (1u64 << (depth + 1)) - 1,
            "node count at depth {depth}"
        );
        assert_eq!(
            got,
            tree::full_binary_reference(depth, 0, w),
            "checksum at depth {depth}"
        );
    }
}

#[test]
fn pruned_tree_counts_nodes_and_checksums() {
    let w = tree::Work::new(tree_table(), 8, 8);
    let mut rt = runtime(4);
    for depth in [1, 4, 9, 12] {
        let (got, _) = rt.run(tree::pruned::node(0, depth, 0, w)).unwrap();
        assert_eq!(
            got,
            tree::pruned_reference(0, depth, 0, w),
            "pruned tree of depth {depth}"
        );
        assert!(got.0 > 1, "the tree has more than its root");
    }
}

#[test]
fn the_hand_written_expansion_behaves_like_the_macro_output() {
    let mut rt = runtime(3);
    for n in [0, 1, 2, 10, 20] {
        let (a, sa) = rt
            .run(gtap_examples::fib_expanded::program::fib(n))
            .unwrap();
        let (b, sb) = rt.run(fib::program::fib(n)).unwrap();
        assert_eq!((a, sa.tasks_executed), (b, sb.tasks_executed), "fib({n})");
    }
}
