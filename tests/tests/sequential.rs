//! Every thread task's generated sequential version (`seq::f`, its serial elision: each
//! `spawn!` a plain call, each `taskwait!()` nothing) computes what the task computes: the
//! paper's programs, the language tests and the random programs, against their references,
//! on the calling thread with no runtime at all.

mod common;

use common::{check_sorted_permutation, counter, random_input, tree_table};
use gtap::ViewMut;
use gtap_examples::fib::Leaf;
use gtap_examples::{cilksort, cilksort_epaq, fib, mergesort, nqueens, tree};
use gtap_tests::lang;
use gtap_tests::random;

#[test]
fn fib_sequential_versions_match_the_closed_form() {
    for n in 0..=25 {
        assert_eq!(fib::program::seq::fib(n), fib::reference(n), "fib({n})");
        assert_eq!(
            gtap_examples::fib_expanded::program::seq::fib(n),
            fib::reference(n),
            "the hand-written expansion's fib({n})"
        );
        for leaf in [Leaf::Stack, Leaf::Calls] {
            for epaq in [0, 1] {
                assert_eq!(
                    fib::epaq::seq::fib_cutoff(n, 7, epaq, leaf),
                    fib::reference(n),
                    "fib_cutoff({n})"
                );
            }
        }
    }
}

#[test]
fn nqueens_sequential_versions_match_the_known_counts() {
    for n in 1..=10u32 {
        let want = nqueens::KNOWN[n as usize];
        for cutoff in [0, 3, n] {
            assert_eq!(nqueens::program::seq::nqueens(n, 0, 0, 0, 0, cutoff), want);
            for epaq in [0, 1, 2] {
                assert_eq!(
                    nqueens::epaq::seq::nqueens(n, 0, 0, 0, 0, cutoff, epaq),
                    want,
                    "nqueens({n}), cutoff {cutoff}, classifier {epaq}"
                );
            }
        }
    }
}

#[test]
fn sort_sequential_versions_sort() {
    for (n, cutoff) in [(0, 8), (1, 8), (1000, 1), (20_011, 64)] {
        let input = random_input(n, n as u64 + 3);
        for algo in 0..3 {
            let mut data = input.clone();
            let mut tmp = vec![0u32; n];
            let (d, t) = (
                ViewMut::from_slice(&mut data),
                ViewMut::from_slice(&mut tmp),
            );
            match algo {
                0 => mergesort::program::seq::mergesort(d, t, cutoff),
                1 => cilksort::program::seq::cilksort(d, t, cutoff, 2 * cutoff),
                _ => cilksort_epaq::program::seq::cilksort(d, t, cutoff, 2 * cutoff, 1),
            }
            check_sorted_permutation(&input, &data);
        }
    }
}

#[test]
fn tree_sequential_versions_match_the_references() {
    let w = tree::Work::new(tree_table(), 8, 8);
    for depth in [0, 1, 5, 10] {
        assert_eq!(
            tree::full_binary::seq::node(depth, 0, w),
            tree::full_binary_reference(depth, 0, w),
            "full tree of depth {depth}"
        );
        assert_eq!(
            tree::pruned::seq::node(0, depth, 0, w),
            tree::pruned_reference(0, depth, 0, w),
            "pruned tree of depth {depth}"
        );
    }
}

#[test]
fn language_sequential_versions_match_the_references() {
    for n in 0..12 {
        assert_eq!(
            lang::program::seq::branches(n),
            lang::branches_reference(n),
            "branches({n})"
        );
        assert_eq!(lang::program::seq::even(n), n % 2 == 0, "even({n})");
    }
    let (c, _cell) = counter();
    lang::program::seq::scatter(c, 6);
    assert_eq!(
        c.get(),
        (1 << 7) - 1,
        "nodes of scatter(6), fire and forget"
    );
}

#[test]
fn random_programs_sequential_versions_match_their_reference() {
    for seed in 0..500u64 {
        let (c, _cell) = counter();
        let value = random::program::seq::node(seed, 0, 3, c);
        let (want, nodes) = random::reference(seed, 0);
        assert_eq!(value, want, "value of random program {seed}");
        assert_eq!(c.get(), nodes, "nodes of random program {seed}");
    }
}

#[test]
fn sequential_versions_count_the_spawns_they_run_as_calls() {
    use gtap::__private::into_call;
    for n in 0..=20u32 {
        // fib(n) makes 2 fib(n + 1) - 1 calls, each spawned but the first.
        let (got, spawns) =
            into_call::<fib::program::Program, _>(fib::program::fib(n)).__run_seq_counted(0);
        assert_eq!(got, fib::reference(n));
        assert_eq!(u64::from(spawns), 2 * fib::reference(n + 1) - 2, "fib({n})");
        // The hand-written expansion counts as the macro's output does; a count passed in
        // comes back with the call's added.
        let (_, expanded) = into_call::<gtap_examples::fib_expanded::program::Program, _>(
            gtap_examples::fib_expanded::program::fib(n),
        )
        .__run_seq_counted(5);
        assert_eq!(expanded, spawns + 5, "fib_expanded({n})");
    }
    for (n, cutoff) in [(6, 3), (8, 8), (10, 4)] {
        let (got, spawns) = into_call::<nqueens::program::Program, _>(nqueens::program::nqueens(
            n, 0, 0, 0, 0, cutoff,
        ))
        .__run_seq_counted(0);
        assert_eq!(got, nqueens::KNOWN[n as usize]);
        // Every task of the search but the root was spawned.
        assert_eq!(
            u64::from(spawns),
            nqueens::cutoff_task_count(n, cutoff) - 1,
            "nqueens({n}), cutoff {cutoff}"
        );
    }
}

#[test]
fn a_summing_sequential_version_matches_its_reference_past_its_stack() {
    use gtap::__private::into_call;
    // Width 6, depth 5: up to 26 calls pending, past the 24 tuples of 32 bytes that the
    // loop's stack holds, so some children run by a call of the loop on a stack of its own.
    for (depth, width) in [(0, 3), (1, 0), (1, 16), (3, 4), (5, 6), (2, 11)] {
        let (want, nodes) = lang::weights_reference(depth, width, 7, 1);
        assert_eq!(
            lang::program::seq::weights(depth, width, 7, 1),
            want,
            "depth {depth}, width {width}"
        );
        let (got, spawns) =
            into_call::<lang::program::Program, _>(lang::program::weights(depth, width, 7, 1))
                .__run_seq_counted(0);
        assert_eq!(got, want);
        assert_eq!(
            u64::from(spawns),
            nodes - 1,
            "every node but the root is a spawn"
        );
    }
}

#[test]
fn a_summing_sequential_version_stops_at_its_slots_capacity() {
    // 17 children into `slots!(u64; 16)`: the task would fail with `SlotsFull`, its
    // sequential version panics, as the recursive one does.
    let panic = std::panic::catch_unwind(|| lang::program::seq::weights(1, 17, 0, 0))
        .expect_err("past the slots' capacity");
    let message = panic
        .downcast_ref::<String>()
        .map(String::as_str)
        .or_else(|| panic.downcast_ref::<&str>().copied())
        .unwrap_or_default();
    assert!(message.contains("past the 16 slots"), "{message}");
}
