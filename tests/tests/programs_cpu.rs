//! The paper's programs on the CPU backend, each checked against its sequential reference,
//! with several worker counts.

mod common;

use common::{check_sorted_permutation, random_input, tree_table};
use gtap::{DeviceVec, ViewMut};
use gtap_examples::fib::Leaf;
use gtap_examples::{cilksort, cilksort_epaq, fib, mergesort, nqueens, tree};
use gtap_host::RunError;
use gtap_host::cpu::{CpuConfig, CpuError, CpuRuntime};

fn runtime(threads: usize) -> CpuRuntime {
    CpuRuntime::new(CpuConfig::new().auto_granularity(false).threads(threads)).expect("CPU runtime")
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
fn fib_split_by_a_budget_sums_every_call_with_the_policy_on_and_off() {
    for auto in [false, true] {
        let mut rt = CpuRuntime::new(CpuConfig::new().auto_granularity(auto).threads(3)).unwrap();
        for (budget, grow, max) in [(0, 0, 0), (1, 0, 1), (2, 0, 2), (7, 0, 7), (64, 0, 64)]
            .into_iter()
            .chain([(1, 1, 16), (3, 2, 1000), (64, 31, u32::MAX), (10_000, 0, 0)])
        {
            for n in [0, 1, 2, 5, 17, 24] {
                let what = format!("fib_split({n}, {budget}, {grow}, {max})");
                let (v, stats) = rt.run(fib::split::fib_split(n, budget, grow, max)).unwrap();
                assert_eq!(v, fib::reference(n), "{what}");
                // Every spawn is `task`: the policy runs none inline.
                assert_eq!(stats.spawns_inlined, 0, "{what}");
            }
        }
        // A budget past the whole tree runs it in the root alone; budget 1 is a task per call.
        let (_, stats) = rt.run(fib::split::fib_split(20, 100_000, 0, 0)).unwrap();
        assert_eq!(stats.tasks_executed, 1);
        let (_, stats) = rt.run(fib::split::fib_split(15, 1, 0, 1)).unwrap();
        assert_eq!(stats.tasks_executed, fib::task_count(15));
    }
}

#[test]
fn nqueens_split_by_a_budget_counts_every_board() {
    let mut rt = runtime(3);
    for (budget, grow, max) in [
        (0, 0, 0),
        (1, 0, 1),
        (5, 0, 5),
        (3, 1, 64),
        (64, 31, u32::MAX),
    ] {
        for n in [1, 4, 6, 8, 10] {
            let root = nqueens::split::nqueens(n, 0, 0, 0, 0, budget, grow, max);
            let (v, _) = rt.run(root).unwrap();
            assert_eq!(
                v,
                nqueens::KNOWN[n as usize],
                "n {n}, budget {budget}, {grow}, {max}"
            );
        }
    }
    // One placement per task: a task for every partial placement, dead ends included, as
    // the program without a cutoff makes.
    let (_, stats) = rt
        .run(nqueens::split::nqueens(6, 0, 0, 0, 0, 1, 0, 1))
        .unwrap();
    let (_, plain) = rt.run(nqueens::program::nqueens(6, 0, 0, 0, 0, 6)).unwrap();
    assert_eq!(stats.tasks_executed, plain.tasks_executed);
}

#[test]
fn fib_with_a_cutoff_matches_with_and_without_epaq_queues() {
    let mut rt = CpuRuntime::new(
        CpuConfig::new()
            .auto_granularity(false)
            .threads(4)
            .num_queues(3),
    )
    .unwrap();
    for (n, cutoff) in [(1, 10), (12, 2), (20, 5), (22, 10)] {
        for (epaq, leaf) in [
            (0, Leaf::Stack),
            (1, Leaf::Stack),
            (0, Leaf::Calls),
            (1, Leaf::Calls),
        ] {
            let (v, stats) = rt
                .run(fib::epaq::fib_cutoff(n, cutoff, epaq, leaf))
                .unwrap();
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
fn detached_nqueens_counts_the_known_solutions_with_the_policy_on_and_off() {
    for policy in [false, true] {
        let mut rt = CpuRuntime::new(CpuConfig::new().auto_granularity(policy).threads(4)).unwrap();
        for n in 1..=12u32 {
            for cutoff in [0, 3, 7, 13] {
                let mut count = DeviceVec::<u64>::zeros(&rt, 1).unwrap();
                let ((), stats) = rt
                    .run(nqueens::detached::nqueens(
                        n,
                        0,
                        0,
                        0,
                        0,
                        cutoff,
                        count.atomics(),
                    ))
                    .unwrap();
                let what = format!("nqueens({n}) cutoff {cutoff}, policy {policy}");
                assert_eq!(
                    count.to_vec().unwrap(),
                    [nqueens::KNOWN[n as usize]],
                    "{what}"
                );
                if !policy {
                    // The same tasks as the joined program: one per placement of rows
                    // `0..=cutoff`.
                    assert_eq!(
                        stats.tasks_executed,
                        nqueens::cutoff_task_count(n, cutoff),
                        "tasks of {what}"
                    );
                }
            }
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

/// The EPAQ runs: (queues, classifier) pairs, each classifier with the queues it uses.
const NQUEENS_EPAQ: [(u32, u32); 3] = [(1, 0), (2, 1), (3, 2)];
const CILKSORT_EPAQ: [(u32, u32); 2] = [(1, 0), (3, 1)];

#[test]
fn nqueens_with_epaq_queues_matches_the_known_counts_and_task_counts() {
    for (queues, epaq) in NQUEENS_EPAQ {
        let mut rt = CpuRuntime::new(
            CpuConfig::new()
                .auto_granularity(false)
                .threads(4)
                .num_queues(queues),
        )
        .unwrap();
        for n in 1..=12u32 {
            for cutoff in [0, 1, 3, 5, 7, 13] {
                let (v, stats) = rt
                    .run(nqueens::epaq::nqueens(n, 0, 0, 0, 0, cutoff, epaq))
                    .unwrap();
                let what = format!("nqueens({n}) cutoff {cutoff}, {queues} queue(s)");
                assert_eq!(v, nqueens::KNOWN[n as usize], "{what}");
                assert_eq!(
                    stats.tasks_executed,
                    nqueens::cutoff_task_count(n, cutoff),
                    "tasks of {what}"
                );
            }
        }
    }
}

#[test]
fn nqueens_task_counts_match_the_plain_program_and_the_search_tree() {
    let mut rt = runtime(2);
    for n in [1, 4, 8, 10] {
        for cutoff in [0, 2, 6, 11] {
            let (_, stats) = rt
                .run(nqueens::program::nqueens(n, 0, 0, 0, 0, cutoff))
                .unwrap();
            assert_eq!(stats.tasks_executed, nqueens::cutoff_task_count(n, cutoff));
        }
    }
    // The root alone; the root and its 8 children; with no cutoff, every node of the search
    // tree (8-queens: 2057 partial placements, the 92 solutions among them).
    assert_eq!(nqueens::cutoff_task_count(8, 0), 1);
    assert_eq!(nqueens::cutoff_task_count(8, 1), 9);
    assert_eq!(nqueens::cutoff_task_count(8, 8), 2057);
}

#[test]
fn the_epaq_classifiers_use_the_queues_they_claim() {
    // A classifier that names a queue the runtime lacks is refused: so these do use it.
    let bad = |queues: u32, run: &dyn Fn(&mut CpuRuntime) -> Result<(), CpuError>| {
        let mut rt = CpuRuntime::new(
            CpuConfig::new()
                .auto_granularity(false)
                .threads(2)
                .num_queues(queues),
        )
        .unwrap();
        match run(&mut rt) {
            Err(CpuError::Run(RunError::BadQueue { queue, .. })) => queue,
            other => panic!("expected a bad-queue error with {queues} queue(s), got {other:?}"),
        }
    };
    let nq = |epaq| {
        move |rt: &mut CpuRuntime| {
            rt.run(nqueens::epaq::nqueens(8, 0, 0, 0, 0, 3, epaq))
                .map(|_| ())
        }
    };
    assert_eq!(bad(1, &nq(1)), 1, "nqueens leaves");
    assert_eq!(bad(2, &nq(2)), 2, "nqueens continuations");
    let input = random_input(5000, 1);
    let cs = |queues| {
        bad(queues, &|rt: &mut CpuRuntime| {
            let (mut data, mut tmp) = (input.clone(), vec![0u32; input.len()]);
            let (d, t) = (
                ViewMut::from_slice(&mut data),
                ViewMut::from_slice(&mut tmp),
            );
            rt.run(cilksort_epaq::program::cilksort(d, t, 64, 64, 1))
                .map(|_| ())
        })
    };
    assert_eq!(cs(1), 1, "cilksort sort leaves");
    assert_eq!(cs(2), 2, "cilksort merge leaves");
}

#[test]
fn cilksort_with_epaq_queues_sorts_and_runs_the_reference_task_count() {
    let cases = [
        (0, 8, 8),
        (3, 8, 8),
        (1000, 4, 2),
        (50_000, 64, 64),
        (77_777, 16, 256),
        (100_000, 256, 32),
        (100_000, 1024, 1024),
    ];
    for (queues, epaq) in CILKSORT_EPAQ {
        let mut rt = CpuRuntime::new(
            CpuConfig::new()
                .auto_granularity(false)
                .threads(4)
                .num_queues(queues),
        )
        .unwrap();
        for (n, sort_cutoff, merge_cutoff) in cases {
            let input = random_input(n, n as u64 + 11);
            let (mut data, mut tmp) = (input.clone(), vec![0u32; n]);
            let (d, t) = (
                ViewMut::from_slice(&mut data),
                ViewMut::from_slice(&mut tmp),
            );
            let (_, stats) = rt
                .run(cilksort_epaq::program::cilksort(
                    d,
                    t,
                    sort_cutoff,
                    merge_cutoff,
                    epaq,
                ))
                .unwrap();
            check_sorted_permutation(&input, &data);

            let (mut walked, mut tmp) = (input.clone(), vec![0u32; n]);
            let want = cilksort_epaq::task_count(&mut walked, &mut tmp, sort_cutoff, merge_cutoff);
            assert_eq!(walked, data, "the reference walk sorts too");
            let what =
                format!("cilksort {n}, cutoffs {sort_cutoff}/{merge_cutoff}, {queues} queue(s)");
            assert_eq!(stats.tasks_executed, want, "tasks of {what}");

            // The plain program runs the same tasks.
            let mut plain = input.clone();
            let (d, t) = (
                ViewMut::from_slice(&mut plain),
                ViewMut::from_slice(&mut tmp),
            );
            let (_, plain_stats) = rt
                .run(cilksort::program::cilksort(d, t, sort_cutoff, merge_cutoff))
                .unwrap();
            assert_eq!(
                plain_stats.tasks_executed, want,
                "tasks of the plain {what}"
            );
        }
    }
}

#[test]
fn cilksort_with_epaq_queues_handles_many_duplicates() {
    let input: Vec<u32> = random_input(30_000, 5).into_iter().map(|v| v % 5).collect();
    let mut rt = CpuRuntime::new(
        CpuConfig::new()
            .auto_granularity(false)
            .threads(3)
            .num_queues(3),
    )
    .unwrap();
    let (mut data, mut tmp) = (input.clone(), vec![0u32; input.len()]);
    let (d, t) = (
        ViewMut::from_slice(&mut data),
        ViewMut::from_slice(&mut tmp),
    );
    rt.run(cilksort_epaq::program::cilksort(d, t, 32, 32, 1))
        .unwrap();
    check_sorted_permutation(&input, &data);
}

#[test]
fn mergesort_sorts_random_arrays() {
    let mut rt = runtime(4);
    for (n, cutoff) in [(0, 8), (1, 8), (1000, 1), (50_000, 128), (100_003, 64)] {
        let input = random_input(n, n as u64 + 1);
        let mut data = input.clone();
        let mut tmp = vec![0u32; n];
        let (d, t) = (
            ViewMut::from_slice(&mut data),
            ViewMut::from_slice(&mut tmp),
        );
        rt.run(mergesort::program::mergesort(d, t, cutoff)).unwrap();
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
        let (d, t) = (
            ViewMut::from_slice(&mut data),
            ViewMut::from_slice(&mut tmp),
        );
        rt.run(cilksort::program::cilksort(d, t, sort_cutoff, merge_cutoff))
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
    let (d, t) = (
        ViewMut::from_slice(&mut data),
        ViewMut::from_slice(&mut tmp),
    );
    rt.run(cilksort::program::cilksort(d, t, 8, 16)).unwrap();
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
