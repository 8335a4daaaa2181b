//! The automatic granularity policy on the CPU backend (`CpuConfig::auto_granularity`, on by
//! default): the same results with it on and off, for the paper's programs and thousands of
//! random programs; far fewer tasks for fib with no cutoff; `spawn!(task, ..)` always a
//! task; and a program that exhausts a small pool as one task per spawn completes under it.

#![feature(coroutines, coroutine_trait, type_alias_impl_trait)]

mod common;

use common::{check_sorted_permutation, counter, random_input, tree_table};
use gtap::ViewMut;
use gtap_examples::{cilksort, fib, mergesort, nqueens, tree};
use gtap_host::RunError;
use gtap_host::cpu::{CpuConfig, CpuError, CpuRuntime};
use gtap_tests::lang;
use gtap_tests::random;

fn runtime(threads: usize, on: bool) -> CpuRuntime {
    CpuRuntime::new(CpuConfig::new().threads(threads).auto_granularity(on)).unwrap()
}

#[test]
fn the_policy_is_on_by_default() {
    assert!(CpuConfig::new().limits().auto_granularity());
    assert!(
        !CpuConfig::new()
            .auto_granularity(false)
            .limits()
            .auto_granularity()
    );
}

#[test]
fn fib_with_no_cutoff_makes_far_fewer_tasks_under_the_policy() {
    for threads in [1, 2, 4] {
        let (v_off, off) = runtime(threads, false).run(fib::program::fib(25)).unwrap();
        let (v_on, on) = runtime(threads, true).run(fib::program::fib(25)).unwrap();
        assert_eq!((v_off, v_on), (fib::reference(25), fib::reference(25)));
        assert_eq!(off.tasks_executed, fib::task_count(25));
        assert_eq!(off.spawns_inlined, 0);
        assert!(on.spawns_inlined > 0, "{threads} threads: {on:?}");
        assert!(
            on.tasks_executed * 10 < off.tasks_executed,
            "{threads} threads: {} tasks with the policy, {} without",
            on.tasks_executed,
            off.tasks_executed
        );
    }
}

/// In a program with split tasks (fib's, by default), a split task walks at most its budget of
/// calls and makes tasks of the rest, so every call of fib is either a task's own or a
/// walked one (counted as a spawn run inline), and a budget past the tree is one task. The
/// budget's defaults (none on the CPU, 2 on the GPU), 0 turning splitting off, and the policy
/// off making a task per call.
#[test]
fn fib_is_split_by_a_budget_of_calls() {
    assert_eq!(CpuConfig::new().limits().split_budget(), 0);
    assert_eq!(gtap::GpuConfig::new().limits().split_budget(), 2);
    for threads in [1, 3] {
        for budget in [0, 1, 2, 4, 8, 16, 2048, u32::MAX] {
            let config = CpuConfig::new().threads(threads).split_budget(budget);
            let mut rt = CpuRuntime::new(config).unwrap();
            for n in [0, 1, 2, 7, 20, 25] {
                let (v, stats) = rt.run(fib::program::fib(n)).unwrap();
                let what = format!("fib({n}), budget {budget}, {threads} threads: {stats:?}");
                assert_eq!(v, fib::reference(n), "{what}");
                if budget == 0 {
                    continue;
                }
                assert_eq!(
                    stats.tasks_executed + stats.spawns_inlined,
                    fib::task_count(n),
                    "{what}"
                );
                if budget == u32::MAX || fib::task_count(n) <= u64::from(budget) {
                    assert_eq!(stats.tasks_executed, 1, "{what}");
                } else {
                    assert!(stats.tasks_executed > 1, "{what}");
                }
            }
        }
    }
}

/// A split task makes tasks of its oldest pending calls and one bundle of the rest
/// (`Limits::split_singles`, default 2 on both backends): every call still runs once (as a
/// task's own or walked), the results are the same, and there are fewer tasks than with a
/// task per pending call (`split_singles(0)`), each bundle walking what would have been
/// several.
#[test]
fn a_split_task_bundles_its_youngest_pending_calls() {
    assert_eq!(CpuConfig::new().limits().split_singles(), 2);
    assert_eq!(gtap::GpuConfig::new().limits().split_singles(), 2);
    for threads in [1, 3] {
        for budget in [1, 4, 64] {
            let tasks = |singles: u32, n: u32| {
                let config = CpuConfig::new()
                    .threads(threads)
                    .split_budget(budget)
                    .split_singles(singles);
                let (v, stats) = CpuRuntime::new(config)
                    .unwrap()
                    .run(fib::program::fib(n))
                    .unwrap();
                let what = format!("fib({n}), budget {budget}, singles {singles}: {stats:?}");
                assert_eq!(v, fib::reference(n), "{what}");
                assert_eq!(
                    stats.tasks_executed + stats.spawns_inlined,
                    fib::task_count(n),
                    "{what}"
                );
                stats.tasks_executed
            };
            for n in [2, 9, 22] {
                let (one_each, bundled) = (tasks(0, n), tasks(2, n));
                assert!(bundled <= one_each, "fib({n}), budget {budget}");
                if n == 22 {
                    assert!(
                        2 * bundled < one_each,
                        "fib(22), budget {budget}: {bundled} tasks bundled, {one_each} not"
                    );
                }
                for singles in [1, 3, 32] {
                    tasks(singles, n);
                }
            }
        }
    }
}

/// Calls of [`given::leaves_seq`], the sequential version that task `leaves` names.
static GIVEN_CALLS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// A task that names its own sequential version (`#[gtap::task(seq = ..)]`); fib's shape,
/// which would otherwise get a split task and the summing loop.
#[gtap::program(name = "given_seq")]
mod given {
    /// The leaves of a full binary tree of `depth` levels below this node.
    #[gtap::task(seq = leaves_seq)]
    pub fn leaves(depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let a = spawn!(leaves(depth - 1));
        let b = spawn!(leaves(depth - 1));
        taskwait!();
        a.get() + b.get()
    }

    /// [`leaves`]' sequential version: the closed form, counted in `GIVEN_CALLS`.
    pub fn leaves_seq(depth: u32) -> u64 {
        super::GIVEN_CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        1 << depth
    }
}

/// A spawn the policy runs inline calls the sequential version the task names, and nothing
/// else: no split task, no generated loop (each inline call is one call of it, counted as
/// one spawn run inline, since it runs no spawns of its own), and `seq::leaves` is it too.
#[test]
fn a_task_runs_the_sequential_version_it_names() {
    use std::sync::atomic::Ordering::Relaxed;
    const { assert!(!<given::Program as gtap::device::task::Program>::SPLITS) };
    let before = GIVEN_CALLS.load(Relaxed);
    assert_eq!(given::seq::leaves(20), 1 << 20);
    assert_eq!(GIVEN_CALLS.load(Relaxed), before + 1);
    let (off, off_stats) = runtime(2, false).run(given::leaves(14)).unwrap();
    assert_eq!(off, 1 << 14);
    assert_eq!(off_stats.spawns_inlined, 0);
    assert_eq!(off_stats.tasks_executed, (1 << 15) - 1);
    // With a split budget too, which a program with split tasks would walk its calls by.
    let split = CpuConfig::new().threads(2).split_budget(2);
    for mut rt in [runtime(2, true), CpuRuntime::new(split).unwrap()] {
        let before = GIVEN_CALLS.load(Relaxed);
        let (on, stats) = rt.run(given::leaves(22)).unwrap();
        assert_eq!(on, 1 << 22);
        assert!(stats.spawns_inlined > 0, "{stats:?}");
        assert_eq!(GIVEN_CALLS.load(Relaxed) - before, stats.spawns_inlined);
        // A task per node would be 2^23 - 1.
        assert!(stats.tasks_executed * 100 < 1 << 23, "{stats:?}");
    }
}

/// Counts for [`whole`]: bodies of `whole::node` run as tasks, and calls of its sequential
/// version; bodies of `whole::apart`.
static WHOLE_BODIES: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
static WHOLE_SEQ_CALLS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
static APART_BODIES: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// Tasks that may run whole as their sequential version (`node`), and one that may not
/// (`apart`, whose spawns name their queue).
#[gtap::program(name = "whole")]
mod whole {
    use std::sync::atomic::Ordering::Relaxed;

    /// The leaves of a full tree of `depth` levels below this node, four children each.
    #[gtap::task(seq = node_seq)]
    pub fn node(depth: u32) -> u64 {
        super::WHOLE_BODIES.fetch_add(1, Relaxed);
        if depth == 0 {
            return 1;
        }
        let kids = slots!(u64; 4);
        for _ in 0..4 {
            spawn!(into kids, node(depth - 1));
        }
        taskwait!();
        kids.iter().sum()
    }

    /// [`node`]'s sequential version, counted.
    pub fn node_seq(depth: u32) -> u64 {
        super::WHOLE_SEQ_CALLS.fetch_add(1, Relaxed);
        1 << (2 * depth)
    }

    /// As [`node`], its spawns in queue 0 by name.
    #[gtap::task(seq = node_seq)]
    pub fn apart(depth: u32) -> u64 {
        super::APART_BODIES.fetch_add(1, Relaxed);
        if depth == 0 {
            return 1;
        }
        let kids = slots!(u64; 4);
        for _ in 0..4 {
            spawn!(into kids, queue(0), apart(depth - 1));
        }
        taskwait!();
        kids.iter().sum()
    }
}

/// Where the policy would run every spawn of a task that names its sequential version inline,
/// the task runs whole as that version instead (one call, counted as one spawn run inline),
/// without running its body; never with the policy off, and never for a task whose spawns
/// name a queue.
/// On one thread the run is deterministic, and a task three levels down, whose children
/// are at the policy's `min_depth` (4 on one thread), finds at least the policy's four
/// tasks queued where its siblings and its parents' are still waiting.
#[test]
fn a_task_whose_spawns_would_all_run_inline_runs_whole() {
    use std::sync::atomic::Ordering::Relaxed;
    let nodes = (4u64.pow(9) - 1) / 3;
    for threads in [1, 2] {
        for on in [false, true] {
            let (bodies, calls) = (WHOLE_BODIES.load(Relaxed), WHOLE_SEQ_CALLS.load(Relaxed));
            let (v, stats) = runtime(threads, on).run(whole::node(8)).unwrap();
            let what = format!("{threads} threads, policy {on}: {stats:?}");
            assert_eq!(v, 1 << 16, "{what}");
            let bodies = WHOLE_BODIES.load(Relaxed) - bodies;
            let calls = WHOLE_SEQ_CALLS.load(Relaxed) - calls;
            assert_eq!(calls, stats.spawns_inlined, "{what}");
            if !on {
                assert_eq!((bodies, calls), (nodes, 0), "{what}");
            } else {
                assert!(bodies < stats.tasks_executed, "{what}");
                assert!(stats.tasks_executed * 10 < nodes, "{what}");
            }
            let before = APART_BODIES.load(Relaxed);
            let (v, stats) = runtime(threads, on).run(whole::apart(6)).unwrap();
            let what = format!("apart, {threads} threads, policy {on}: {stats:?}");
            assert_eq!(v, 1 << 12, "{what}");
            assert_eq!(
                APART_BODIES.load(Relaxed) - before,
                stats.tasks_executed,
                "{what}"
            );
            assert_eq!(stats.spawns_inlined > 0, on, "{what}");
        }
    }
}

/// fib again, in a program that turns split tasks off (`split = false`).
#[gtap::program(name = "fib_unsplit", split = false)]
mod unsplit {
    #[gtap::task]
    pub fn fib(n: u32) -> u64 {
        if n < 2 {
            return n as u64;
        }
        let a = spawn!(fib(n - 1));
        let b = spawn!(fib(n - 2));
        taskwait!();
        a.get() + b.get()
    }
}

/// Without split tasks (`split = false`) the policy decides spawn by spawn, where fib's
/// split task with a budget past the tree walks it all in one task.
#[test]
fn a_program_without_split_tasks_decides_spawn_by_spawn() {
    let config = CpuConfig::new().threads(1).split_budget(u32::MAX);
    let mut rt = CpuRuntime::new(config).unwrap();
    let (v, unsplit) = rt.run(unsplit::fib(20)).unwrap();
    assert_eq!(v, fib::reference(20));
    let (v, split) = rt.run(fib::program::fib(20)).unwrap();
    assert_eq!(v, fib::reference(20));
    assert_eq!(split.tasks_executed, 1, "{split:?}");
    assert!(unsplit.tasks_executed > 1, "{unsplit:?}");
}

#[test]
fn a_split_program_with_the_policy_off_makes_a_task_per_call() {
    for threads in [1, 3] {
        let (v, stats) = runtime(threads, false).run(fib::program::fib(20)).unwrap();
        assert_eq!(v, fib::reference(20));
        assert_eq!(stats.tasks_executed, fib::task_count(20));
        assert_eq!(stats.spawns_inlined, 0);
    }
}

#[test]
fn a_summing_task_gives_the_same_results_with_the_policy_on_and_off() {
    // Deep enough for the policy to inline (its loop then runs whole subtrees).
    let (want, nodes) = lang::weights_reference(7, 5, 3, 2);
    let (off, off_stats) = runtime(2, false)
        .run(lang::program::weights(7, 5, 3, 2))
        .unwrap();
    assert_eq!(off, want);
    assert_eq!(off_stats.tasks_executed, nodes);
    for threads in [1, 2, 4] {
        let (on, stats) = runtime(threads, true)
            .run(lang::program::weights(7, 5, 3, 2))
            .unwrap();
        assert_eq!(on, want, "{threads} threads");
        assert!(stats.spawns_inlined > 0, "{threads} threads: {stats:?}");
    }
}

#[test]
fn a_forced_spawn_is_always_a_task() {
    let (v, stats) = runtime(2, true).run(lang::program::fib_forced(18)).unwrap();
    assert_eq!(v, fib::reference(18));
    assert_eq!(stats.spawns_inlined, 0);
    assert_eq!(stats.tasks_executed, fib::task_count(18));
}

#[test]
fn a_spawn_into_another_queue_is_a_task() {
    for threads in [1, 3] {
        let config = CpuConfig::new().threads(threads).num_queues(2);
        let mut rt = CpuRuntime::new(config).unwrap();
        let (same, kept) = rt.run(lang::program::fib_queues(22, 0, false)).unwrap();
        let (flipped, apart) = rt.run(lang::program::fib_queues(22, 0, true)).unwrap();
        assert_eq!((same, flipped), (fib::reference(22), fib::reference(22)));
        assert!(kept.spawns_inlined > 0, "{threads} threads: {kept:?}");
        assert_eq!(apart.spawns_inlined, 0, "{threads} threads: {apart:?}");
        assert_eq!(apart.tasks_executed, fib::task_count(22));
    }
}

#[test]
fn a_program_that_exhausts_a_small_pool_completes_under_the_policy() {
    let config = CpuConfig::new().threads(1).task_capacity(16);
    let mut off = CpuRuntime::new(config.clone().auto_granularity(false)).unwrap();
    match off.run(nqueens::program::nqueens(8, 0, 0, 0, 0, 8)) {
        Err(CpuError::Run(RunError::PoolExhausted { .. })) => {}
        other => panic!("expected PoolExhausted without the policy, got {other:?}"),
    }
    let mut on = CpuRuntime::new(config).unwrap();
    let (v, stats) = on.run(nqueens::program::nqueens(8, 0, 0, 0, 0, 8)).unwrap();
    assert_eq!(v, nqueens::KNOWN[8]);
    assert!(stats.spawns_inlined > 0);
}

#[test]
fn the_papers_programs_give_the_same_results_with_the_policy_on_and_off() {
    let w = tree::Work::new(tree_table(), 4, 4);
    for (threads, on) in [(1, true), (3, true), (4, false)] {
        let mut rt = runtime(threads, on);
        for n in [0, 1, 12, 22] {
            assert_eq!(rt.run(fib::program::fib(n)).unwrap().0, fib::reference(n));
        }
        for n in [4, 8, 10] {
            let (v, _) = rt.run(nqueens::program::nqueens(n, 0, 0, 0, 0, n)).unwrap();
            assert_eq!(v, nqueens::KNOWN[n as usize], "nqueens({n})");
            let (v, _) = rt.run(nqueens::auto::nqueens(n, 0, 0, 0, 0)).unwrap();
            assert_eq!(v, nqueens::KNOWN[n as usize], "nqueens({n}), auto");
        }
        let input = random_input(30_011, 5);
        for algo in 0..2 {
            let mut data = input.clone();
            let mut tmp = vec![0u32; input.len()];
            let (d, t) = (
                ViewMut::from_slice(&mut data),
                ViewMut::from_slice(&mut tmp),
            );
            match algo {
                0 => rt.run(mergesort::program::mergesort(d, t, 16)).map(|_| ()),
                _ => rt
                    .run(cilksort::program::cilksort(d, t, 16, 32))
                    .map(|_| ()),
            }
            .unwrap();
            check_sorted_permutation(&input, &data);
        }
        for depth in [3, 11] {
            let (got, _) = rt.run(tree::full_binary::node(depth, 0, w)).unwrap();
            assert_eq!(got, tree::full_binary_reference(depth, 0, w));
            let (got, _) = rt.run(tree::pruned::node(0, depth, 0, w)).unwrap();
            assert_eq!(got, tree::pruned_reference(0, depth, 0, w));
        }
    }
}

#[test]
fn random_programs_give_the_same_results_with_the_policy_on_and_off() {
    for (threads, queues, seeds) in [(1usize, 1u32, 0..500u64), (4, 3, 500..1500)] {
        let config = CpuConfig::new().threads(threads).num_queues(queues);
        let mut on = CpuRuntime::new(config.clone()).unwrap();
        let mut off = CpuRuntime::new(config.auto_granularity(false)).unwrap();
        let mut inlined = 0;
        for seed in seeds {
            let (want, nodes) = random::reference(seed, 0);
            for (rt, policy) in [(&mut on, "on"), (&mut off, "off")] {
                let (c, _cell) = counter();
                let (value, stats) = rt.run(random::program::node(seed, 0, queues, c)).unwrap();
                assert_eq!(value, want, "random program {seed}, policy {policy}");
                assert_eq!(
                    c.get(),
                    nodes,
                    "nodes of random program {seed}, policy {policy}"
                );
                inlined += stats.spawns_inlined;
            }
        }
        assert!(
            inlined > 0,
            "the policy ran no spawn inline ({threads} threads)"
        );
    }
}

/// Split tasks with bundles, as the GPU runs them by default (the CPU backend's default
/// budget is 0): the random programs and a summing task with a parameter every call shares
/// give the results they give with the policy off.
#[test]
fn split_tasks_and_bundles_give_the_same_results() {
    for threads in [1usize, 3] {
        let split = CpuConfig::new().threads(threads).split_budget(4);
        let mut rt = CpuRuntime::new(split.clone()).unwrap();
        for seed in 0..300u64 {
            let (want, nodes) = random::reference(seed, 0);
            let (c, _cell) = counter();
            let (value, _) = rt.run(random::program::node(seed, 0, 1, c)).unwrap();
            assert_eq!((value, c.get()), (want, nodes), "random program {seed}");
        }
        for singles in [0, 1, 2] {
            let mut rt = CpuRuntime::new(split.clone().split_singles(singles)).unwrap();
            for depth in [0, 3, 9] {
                let (v, stats) = rt.run(shapes::tri(depth, 1, 7)).unwrap();
                let what = format!("tri({depth}), {threads} threads, singles {singles}: {stats:?}");
                assert_eq!(v, shapes::tri_reference(depth, 1, 7), "{what}");
                let calls = (3u64.pow(depth + 1) - 1) / 2;
                assert_eq!(stats.tasks_executed + stats.spawns_inlined, calls, "{what}");
            }
        }
    }
}

/// A split task (`split = true`: an error if none qualifies) whose calls differ in two
/// 8-byte arguments, so that a bundle holds fewer of them than of fib's, and share a third.
#[gtap::program(name = "split_shapes", split = true)]
mod shapes {
    /// Three children per call.
    #[gtap::task]
    pub fn tri(depth: u32, tag: u64, scale: u64) -> u64 {
        if depth == 0 {
            return tag * scale % 1000;
        }
        let a = spawn!(tri(depth - 1, tag * 3, scale));
        let b = spawn!(tri(depth - 1, tag * 3 + 1, scale));
        let c = spawn!(tri(depth - 1, tag * 3 + 2, scale));
        taskwait!();
        a.get() + b.get() + c.get() + 1
    }

    /// What [`tri`] computes, by plain recursion.
    pub fn tri_reference(depth: u32, tag: u64, scale: u64) -> u64 {
        if depth == 0 {
            return tag * scale % 1000;
        }
        (0..3)
            .map(|i| tri_reference(depth - 1, tag * 3 + i, scale))
            .sum::<u64>()
            + 1
    }
}

#[test]
fn an_inline_call_can_recurse_deep_on_a_worker_stack() {
    // A chain 20,000 tasks deep on 256 records: once the chain holds all but the policy's
    // reserve, the next spawn runs inline and recurses down the rest of the chain, far
    // deeper than a default 2 MiB thread stack holds (the workers' stacks are
    // `CpuConfig::stack_bytes`, 64 MiB by default).
    let n = 20_000;
    let config = CpuConfig::new().threads(1).task_capacity(256);
    let (v, stats) = CpuRuntime::new(config)
        .unwrap()
        .run(lang::program::fan(n, 1))
        .unwrap();
    assert_eq!(v, u64::from(n) + 1);
    assert!(stats.spawns_inlined >= 1, "{stats:?}");
    assert!(stats.tasks_executed < 256, "{stats:?}");
}
