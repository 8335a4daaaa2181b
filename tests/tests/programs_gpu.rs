//! The paper's programs on the GPU, checked against their sequential references on every
//! run, across several grid and block shapes. Reported as ignored without a GPU (the GPU test harness).

mod common;

use std::time::Duration;

use common::{check_sorted_permutation, random_input};
use gtap::DeviceVec;
use gtap_examples::fib::Leaf;
use gtap_examples::rng::Rng;
use gtap_examples::{cilksort, cilksort_epaq, fib, mergesort, nqueens, tree};

use gtap_host::Gpu;
use gtap_host::gpu_runtime::{GpuConfig, GpuRuntime, QueueOrder, Scheduler};

/// Grid shapes every program is checked on: one warp alone, a few blocks of several warps,
/// wide blocks, and the default (every resident block).
fn shapes() -> Vec<GpuConfig> {
    vec![
        GpuConfig::new().auto_granularity(false).grid(1).block(32),
        GpuConfig::new().auto_granularity(false).grid(7).block(64),
        GpuConfig::new().auto_granularity(false).grid(64).block(256),
        GpuConfig::new().auto_granularity(false),
        // The scheduling switches: warps that keep many tasks unpublished, and parents
        // resumed by the lane that completed their last child.
        GpuConfig::new()
            .auto_granularity(false)
            .grid(7)
            .block(64)
            .keep_unpublished(128)
            .resume_inline(true),
        GpuConfig::new()
            .auto_granularity(false)
            .keep_unpublished(512)
            .resume_inline(true),
        // The EPAQ queue orders (they matter with several queues; the EPAQ tests below run
        // every shape with one, two and three).
        GpuConfig::new()
            .auto_granularity(false)
            .grid(7)
            .block(64)
            .queue_order(QueueOrder::Stay)
            .keep_every_queue(true),
        GpuConfig::new()
            .auto_granularity(false)
            .queue_order(QueueOrder::MostGenerated),
        // Short batches filled up by stealing from the same queue, and GTaP's per-queue
        // steal order (with one queue too, where a warp also tops up).
        GpuConfig::new()
            .auto_granularity(false)
            .grid(7)
            .block(64)
            .queue_order(QueueOrder::Stay)
            .top_up(2),
        GpuConfig::new()
            .auto_granularity(false)
            .top_up(1)
            .steal_per_queue(true),
        // The schedulers the paper compares work stealing with.
        GpuConfig::new()
            .auto_granularity(false)
            .grid(7)
            .block(64)
            .scheduler(Scheduler::OneAtATime),
        GpuConfig::new()
            .auto_granularity(false)
            .scheduler(Scheduler::GlobalQueue),
    ]
}

/// A runtime per shape (none without a GPU), each made as the caller takes it: one at a
/// time holds its records and queues, where eight alive at once (each reserving a share of
/// the memory that was free when it was made), beside the other tests', can run the GPU
/// out of memory.
fn runtimes() -> impl Iterator<Item = GpuRuntime> {
    shapes()
        .into_iter()
        .filter_map(|c| common::runtime(common::examples_ptx(&c), c))
}

fn fib_is_correct_on_every_shape() {
    for mut rt in runtimes() {
        for n in (0..=24).chain([27]) {
            let (v, stats) = rt.run(fib::program::fib(n)).unwrap();
            assert_eq!(v, fib::reference(n), "fib({n}) with {:?}", rt.config());
            assert_eq!(
                stats.tasks,
                fib::task_count(n),
                "tasks of fib({n}) with {:?}",
                rt.config()
            );
        }
    }
}

fn fib_with_a_cutoff_is_correct_with_one_and_three_queues() {
    for config in shapes() {
        for (mut rt, queues, epaq) in with_queues(&config, &[(1, 0), (3, 1)]) {
            for (n, cutoff, leaf) in [
                (20, 2, Leaf::Stack),
                (24, 5, Leaf::Calls),
                (27, 10, Leaf::Stack),
                (27, 10, Leaf::Calls),
            ] {
                let (v, stats) = rt
                    .run(fib::epaq::fib_cutoff(n, cutoff, epaq, leaf))
                    .unwrap();
                assert_eq!(
                    v,
                    fib::reference(n),
                    "fib({n}) cutoff {cutoff}, {queues} queues"
                );
                assert_eq!(stats.tasks, fib::cutoff_task_count(n, cutoff));
            }
        }
    }
}

/// The EPAQ runs: (queues, classifier) pairs, each classifier with the queues it uses.
const NQUEENS_EPAQ: [(u32, u32); 3] = [(1, 0), (2, 1), (3, 2)];
const CILKSORT_EPAQ: [(u32, u32); 2] = [(1, 0), (3, 1)];

/// A runtime of `config` per (queues, EPAQ classifier) pair of `pairs` (the global-queue
/// ablation has one queue only), or none without a GPU; each made as the caller takes it, so
/// that one runtime's records and queues at a time hold the GPU's memory.
fn with_queues<'a>(
    config: &'a GpuConfig,
    pairs: &'a [(u32, u32)],
) -> impl Iterator<Item = (GpuRuntime, u32, u32)> + 'a {
    pairs
        .iter()
        .filter(|&&(queues, _)| {
            queues == 1 || config.tuning().scheduler() != Scheduler::GlobalQueue
        })
        .filter_map(|&(queues, epaq)| {
            // A warp that follows one queue at a time expands the others' tasks before
            // running them: more live records and queue entries than depth-first order
            // (one warp alone holds most of the tree).
            // Sized per warp so that a grid of few warps has room for most of the tree (2^21
            // records in all) in its slabs; a large grid keeps the default slabs and borrows
            // from the device-wide reserve (slabs of 16384 records on the default grid took
            // 6 GB a runtime, more than an 80 GB GPU had left beside the binary's other
            // tests), with at least 16384 queue entries per warp.
            let warps = config
                .launch()
                .grid()
                .map_or(u32::MAX, |g| g * config.launch().block() / 32);
            let room = ((1u32 << 21) / warps).next_power_of_two();
            let config = config
                .clone()
                .num_queues(queues)
                .tasks_per_warp(config.launch().tasks_per_warp().max(room))
                .queue_capacity(
                    config
                        .limits()
                        .queue_capacity()
                        .max(room.max(16384))
                        .min(1 << 24),
                );
            common::runtime(common::examples_ptx(&config), config).map(|rt| (rt, queues, epaq))
        })
}

fn nqueens_with_epaq_queues_is_correct_on_every_shape() {
    for config in shapes() {
        for (mut rt, queues, epaq) in with_queues(&config, &NQUEENS_EPAQ) {
            for (ns, cutoffs) in [(1..=10u32, &[0, 3, 6][..]), (7..=8, &[9][..])] {
                for n in ns {
                    for &cutoff in cutoffs {
                        let (v, stats) = rt
                            .run(nqueens::epaq::nqueens(n, 0, 0, 0, 0, cutoff, epaq))
                            .unwrap();
                        let what = format!(
                            "nqueens({n}) cutoff {cutoff}, {queues} queue(s), {:?}",
                            rt.config()
                        );
                        assert_eq!(v, nqueens::KNOWN[n as usize], "{what}");
                        assert_eq!(
                            stats.tasks,
                            nqueens::cutoff_task_count(n, cutoff),
                            "tasks of {what}"
                        );
                    }
                }
            }
        }
    }
}

fn cilksort_with_epaq_queues_is_correct_on_every_shape() {
    let n = 100_003;
    let input = random_input(n, 17);
    let cutoffs = [(64, 64), (256, 256), (1024, 1024), (16, 128)];
    // The reference: the sorted input, and the task count of each cutoff pair.
    let counts: Vec<u64> = cutoffs
        .iter()
        .map(|&(sc, mc)| {
            let (mut d, mut t) = (input.clone(), vec![0u32; n]);
            cilksort_epaq::task_count(&mut d, &mut t, sc, mc)
        })
        .collect();
    for config in shapes() {
        for (mut rt, queues, epaq) in with_queues(&config, &CILKSORT_EPAQ) {
            let mut tmp = DeviceVec::<u32>::zeros(&rt, n).unwrap();
            for (&(sc, mc), &want) in cutoffs.iter().zip(&counts) {
                let mut data = DeviceVec::from_slice(&rt, &input).unwrap();
                let root =
                    cilksort_epaq::program::cilksort(data.view_mut(), tmp.view_mut(), sc, mc, epaq);
                let (_, stats) = rt.run(root).unwrap();
                let what = format!(
                    "cilksort {n}, cutoffs {sc}/{mc}, {queues} queue(s), {:?}",
                    rt.config()
                );
                check_sorted_permutation(&input, &data.to_vec().unwrap());
                assert_eq!(stats.tasks, want, "tasks of {what}");
            }
        }
    }
}

fn the_epaq_benchmark_sweeps_fit_the_benchmark_configuration() {
    // The bench's EPAQ configuration (examples/bench.rs) at the ends of the default sweeps
    // (scripts/sweep-epaq.sh): nqueens(16) at cutoffs 4 and 7, cilksort at cutoffs 64 and
    // 4096 (on 5e6 elements here, a tenth of the sweep's). With the granularity policy off no
    // spawn runs inline when a queue fills, so the queues must hold the deepest backlog a warp
    // builds: 16384 entries ran out at times on the default grid of 12 warps per SM. Records:
    // `with_queues`' slabs and the reserve, one runtime at a time (the bench's 32768 per warp
    // take 12 GB a runtime; with every queue count's runtime alive at once, a slab of 4 GB
    // did not fit an 80 GB GPU).
    let config = GpuConfig::new()
        .auto_granularity(false)
        .queue_capacity(32768);
    let tasks = [4, 7].map(|cutoff| (cutoff, nqueens::cutoff_task_count(16, cutoff)));
    let mut ran = false;
    for (mut rt, queues, epaq) in with_queues(&config, &NQUEENS_EPAQ) {
        ran = true;
        for (cutoff, want) in tasks {
            let (v, stats) = rt
                .run(nqueens::epaq::nqueens(16, 0, 0, 0, 0, cutoff, epaq))
                .unwrap();
            assert_eq!(
                v,
                nqueens::KNOWN[16],
                "nqueens(16) cutoff {cutoff}, {queues} queue(s)"
            );
            assert_eq!(stats.tasks, want, "tasks of nqueens(16) cutoff {cutoff}");
        }
    }
    if !ran {
        return; // no GPU
    }
    let n = 5_000_000;
    let input = random_input(n, 5);
    for (mut rt, queues, epaq) in with_queues(&config, &CILKSORT_EPAQ) {
        let mut tmp = DeviceVec::<u32>::zeros(&rt, n).unwrap();
        for cutoff in [64, 4096] {
            let mut data = DeviceVec::from_slice(&rt, &input).unwrap();
            let root = cilksort_epaq::program::cilksort(
                data.view_mut(),
                tmp.view_mut(),
                cutoff,
                cutoff,
                epaq,
            );
            rt.run(root)
                .unwrap_or_else(|e| panic!("cilksort {n} cutoff {cutoff}, {queues} queue(s): {e}"));
            check_sorted_permutation(&input, &data.to_vec().unwrap());
        }
    }
}

fn top_up_runs_nqueens_16_to_the_end_again_and_again() {
    // The regression test of a deadlock in the remote free path: with `top_up`, nqueens(16)
    // at cutoff 7 (many steals, so many records freed by other warps) hung in about two
    // runs of three, one lane waiting in a warp collective for a lane that had left it (see
    // `WarpCtx::free_all`). Six runs of each queue count and top-up depth. Such a hang is
    // inside a step, where the run's own timeout cannot stop it, so the test runs in a child
    // process that is killed, and the test failed, if it has not passed within its deadline.
    if Gpu::for_hang_test(
        "top_up_runs_nqueens_16_to_the_end_again_and_again",
        Duration::from_secs(240),
    )
    .is_none()
    {
        return;
    }
    // Queues of 32768: the default grid is as many warps as the kernel's registers let fit
    // (fewer than 16 per SM for this program), and on fewer warps one EPAQ queue of a warp
    // that expands the others first outgrew 16384 entries. Records: the default slabs, with
    // the device-wide reserve for a warp that needs more: slabs of 32768 records (12 GB a
    // runtime) do not fit an 80 GB GPU beside the binary's other tests.
    let config = GpuConfig::new()
        .auto_granularity(false)
        .queue_capacity(32768)
        .timeout(Duration::from_secs(30));
    let want = nqueens::cutoff_task_count(16, 7);
    for top_up in [1, 2] {
        for (mut rt, queues, epaq) in with_queues(&config.clone().top_up(top_up), &NQUEENS_EPAQ) {
            for run in 0..6 {
                let (v, stats) = rt
                    .run(nqueens::epaq::nqueens(16, 0, 0, 0, 0, 7, epaq))
                    .unwrap_or_else(|e| {
                        panic!("top_up {top_up}, {queues} queue(s), run {run}: {e}")
                    });
                assert_eq!(v, nqueens::KNOWN[16], "top_up {top_up}, {queues} queue(s)");
                assert_eq!(stats.tasks, want, "top_up {top_up}, {queues} queue(s)");
            }
        }
    }
}

fn the_benchmark_sizes_are_correct() {
    // fib up to 40 and nqueens up to 16 on the default shape and on wide blocks.
    for config in [
        GpuConfig::new().auto_granularity(false),
        GpuConfig::new().auto_granularity(false).block(256),
    ] {
        let Some(mut rt) =
            common::runtime(common::examples_ptx(&config), config.tasks_per_warp(8192))
        else {
            return;
        };
        for n in 28..=40 {
            let (v, stats) = rt.run(fib::program::fib(n)).unwrap();
            assert_eq!(v, fib::reference(n), "fib({n}) with {:?}", rt.config());
            assert_eq!(stats.tasks, fib::task_count(n), "tasks of fib({n})");
        }
        for n in 12..=16u32 {
            let (v, _) = rt.run(nqueens::program::nqueens(n, 0, 0, 0, 0, 7)).unwrap();
            assert_eq!(
                v,
                nqueens::KNOWN[n as usize],
                "nqueens({n}) with {:?}",
                rt.config()
            );
        }
    }
}

fn nqueens_is_correct_on_every_shape() {
    for mut rt in runtimes() {
        for n in 1..=11u32 {
            let (v, _) = rt.run(nqueens::program::nqueens(n, 0, 0, 0, 0, 4)).unwrap();
            assert_eq!(
                v,
                nqueens::KNOWN[n as usize],
                "nqueens({n}) with {:?}",
                rt.config()
            );
        }
    }
}

/// nqueens without a cutoff in the source, its spawns run inline from row 3 (and 6): its
/// sequential version (the summing loop; in `nqueens::auto` the `count_seq` it names)
/// counts whole subtrees on the GPU.
fn nqueens_without_a_cutoff_is_correct_with_its_loop_inline() {
    for depth in [3, 6] {
        let config = GpuConfig::new()
            .inline_min_depth(depth)
            .inline_min_queued(0);
        let Some(mut rt) = common::runtime(common::examples_ptx(&config), config) else {
            return;
        };
        for n in [1, 5, 8, 11, 12] {
            let what = format!("nqueens({n}), inline from {depth}");
            let (v, stats) = rt.run(nqueens::program::nqueens(n, 0, 0, 0, 0, n)).unwrap();
            let (given, given_stats) = rt.run(nqueens::auto::nqueens(n, 0, 0, 0, 0)).unwrap();
            assert_eq!(v, nqueens::KNOWN[n as usize], "{what}");
            assert_eq!(given, nqueens::KNOWN[n as usize], "{what}, auto");
            if n >= 11 {
                assert!(stats.spawns_inlined > 0, "{what}: {stats:?}");
                assert!(
                    given_stats.spawns_inlined > 0,
                    "{what}, auto: {given_stats:?}"
                );
            }
        }
    }
}

/// The policy's wide-level rule (`GpuConfig::inline_wide_tasks`): nqueens' tree never
/// reaches the default `inline_min_depth`, so without the rule every spawn is a task; with
/// it a warp that made that many tasks at one row runs the rows below inline.
fn a_wide_tree_runs_below_its_wide_level_inline() {
    for wide in [0, 64] {
        let config = GpuConfig::new().inline_wide_tasks(wide);
        let Some(mut rt) = common::runtime(common::examples_ptx(&config), config) else {
            return;
        };
        for n in [8, 12] {
            let (v, stats) = rt.run(nqueens::program::nqueens(n, 0, 0, 0, 0, n)).unwrap();
            assert_eq!(v, nqueens::KNOWN[n as usize], "nqueens({n}), wide {wide}");
            if wide == 0 {
                assert_eq!(stats.spawns_inlined, 0, "nqueens({n}): {stats:?}");
            } else if n == 12 {
                assert!(stats.spawns_inlined > 0, "nqueens({n}): {stats:?}");
            }
        }
        // A hand-written cutoff below the wide level: its leaves inlined until a round of
        // them moves the warp down (`granularity::inlined_leaves`), the count unchanged.
        let (v, stats) = rt
            .run(nqueens::program::nqueens(12, 0, 0, 0, 0, 5))
            .unwrap();
        assert_eq!(
            v,
            nqueens::KNOWN[12],
            "nqueens(12) cutoff 5, wide {wide}: {stats:?}"
        );
    }
}

/// The policy's heavy-leaf rule across the grid (`GpuConfig::inline_grid_heavy_rounds`):
/// below a cutoff of 18, rounds of fib's sequential leaves are heavy, and the warps count
/// them in the grid's statistic; the result and the tasks are the same whichever warps stop
/// inlining, at the default count, with the rule off (0), and at the lowest (1).
fn heavy_leaves_counted_by_the_grid_change_no_result() {
    for rounds in [None, Some(0), Some(1)] {
        let config = match rounds {
            Some(r) => GpuConfig::new().inline_grid_heavy_rounds(r),
            None => GpuConfig::new(),
        };
        let Some(mut rt) = common::runtime(common::examples_ptx(&config), config) else {
            return;
        };
        for leaf in [Leaf::Stack, Leaf::Calls] {
            let (v, stats) = rt.run(fib::epaq::fib_cutoff(36, 18, 0, leaf)).unwrap();
            let what = format!("fib(36) cutoff 18, {leaf:?} leaves, grid rounds {rounds:?}");
            assert_eq!(v, fib::reference(36), "{what}");
            assert_eq!(stats.tasks, fib::cutoff_task_count(36, 18), "{what}");
            assert!(stats.heavy_leaf_rounds > 0, "{what}: {stats:?}");
        }
    }
}

/// A round in which lanes resume parents inline (`GpuConfig::resume_inline`) runs a chain of
/// completions up the tree after its batch, and is long however light fib's leaves: it must
/// not count as a round of heavy leaves, or fib's warps would stop inlining.
fn inline_resumes_are_not_heavy_leaves() {
    let config = GpuConfig::new().resume_inline(true);
    let Some(mut rt) = common::runtime(common::examples_ptx(&config), config) else {
        return;
    };
    let (v, stats) = rt.run(fib::program::fib(30)).unwrap();
    assert_eq!(v, fib::reference(30), "fib(30) with inline resumes");
    assert!(
        stats.spawns_inlined > 0,
        "fib(30) with inline resumes: {stats:?}"
    );
    assert!(
        stats.heavy_leaf_rounds < 64,
        "fib(30) with inline resumes counted heavy leaf rounds: {stats:?}"
    );
}

/// fib split by a budget of calls on the GPU (its split task, the default policy): every call is a task's
/// own or a walked one (counted as a spawn run inline), whatever the budget, with bundles of
/// pending calls (the default, 2 singles) or without (0); a budget past the tree is one task
/// while the tree is shallower than the walk's 32 pending calls (deeper, the walk stops where
/// its stack is full); 0 decides spawn by spawn.
fn fib_is_split_by_a_budget_of_calls() {
    let settings = [(0, 2), (1, 2), (2, 2), (2, 0), (4, 1), (16, 2), (2048, 2)];
    for (budget, singles) in settings.into_iter().chain([(u32::MAX, 2)]) {
        let config = GpuConfig::new().split_budget(budget).split_singles(singles);
        let Some(mut rt) = common::runtime(common::examples_ptx(&config), config) else {
            return;
        };
        for n in (0..=24).chain([30, 35]) {
            let (v, stats) = rt.run(fib::program::fib(n)).unwrap();
            let what = format!("fib({n}), budget {budget}, singles {singles}: {stats:?}");
            assert_eq!(v, fib::reference(n), "{what}");
            if budget == 0 {
                continue;
            }
            assert_eq!(
                stats.tasks + stats.spawns_inlined,
                fib::task_count(n),
                "{what}"
            );
            if budget == u32::MAX && n <= 24 {
                assert_eq!(stats.tasks, 1, "{what}");
            }
        }
    }
}

fn detached_nqueens_is_correct_on_every_shape() {
    for mut rt in runtimes() {
        for n in 1..=11u32 {
            for cutoff in [0, 4, 12] {
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
                let what = format!("nqueens({n}) cutoff {cutoff} with {:?}", rt.config());
                assert_eq!(
                    count.to_vec().unwrap(),
                    [nqueens::KNOWN[n as usize]],
                    "{what}"
                );
                assert_eq!(
                    stats.tasks,
                    nqueens::cutoff_task_count(n, cutoff),
                    "tasks of {what}"
                );
            }
        }
    }
}

fn sorts_are_correct_on_every_shape() {
    for mut rt in runtimes() {
        for (n, seed) in [(1usize, 1u64), (1000, 2), (100_003, 3)] {
            let input = random_input(n, seed);
            let mut data = DeviceVec::from_slice(&rt, &input).unwrap();
            let mut tmp = DeviceVec::<u32>::zeros(&rt, n).unwrap();
            rt.run(mergesort::program::mergesort(
                data.view_mut(),
                tmp.view_mut(),
                128,
            ))
            .unwrap();
            check_sorted_permutation(&input, &data.to_vec().unwrap());

            data.copy_from(&input).unwrap();
            rt.run(cilksort::program::cilksort(
                data.view_mut(),
                tmp.view_mut(),
                64,
                256,
            ))
            .unwrap();
            check_sorted_permutation(&input, &data.to_vec().unwrap());
        }
    }
}

fn trees_are_correct_on_every_shape() {
    let mut rng = Rng::new(42);
    let host_table: Vec<u64> = (0..1 << 12).map(|_| rng.next()).collect();
    let leaked: &'static [u64] = Box::leak(host_table.clone().into_boxed_slice());
    for mut rt in runtimes() {
        let table = DeviceVec::from_slice(&rt, &host_table).unwrap();
        let dev_work = |m, c| tree::Work::from_view(table.view(), m, c);
        for depth in [0, 5, 12] {
            let (got, _) = rt
                .run(tree::full_binary::node(depth, 0, dev_work(16, 16)))
                .unwrap();
            let want = tree::full_binary_reference(depth, 0, tree::Work::new(leaked, 16, 16));
            assert_eq!(
                got,
                want,
                "full binary tree, depth {depth}, with {:?}",
                rt.config()
            );
        }
        for depth in [4, 12] {
            let (got, _) = rt
                .run(tree::pruned::node(0, depth, 0, dev_work(8, 8)))
                .unwrap();
            let want = tree::pruned_reference(0, depth, 0, tree::Work::new(leaked, 8, 8));
            assert_eq!(
                got,
                want,
                "pruned tree, depth {depth}, with {:?}",
                rt.config()
            );
        }
    }
}

gtap_host::gpu_test_main!(
    fib_is_correct_on_every_shape,
    fib_with_a_cutoff_is_correct_with_one_and_three_queues,
    nqueens_with_epaq_queues_is_correct_on_every_shape,
    cilksort_with_epaq_queues_is_correct_on_every_shape,
    the_epaq_benchmark_sweeps_fit_the_benchmark_configuration,
    top_up_runs_nqueens_16_to_the_end_again_and_again,
    the_benchmark_sizes_are_correct,
    nqueens_is_correct_on_every_shape,
    nqueens_without_a_cutoff_is_correct_with_its_loop_inline,
    a_wide_tree_runs_below_its_wide_level_inline,
    heavy_leaves_counted_by_the_grid_change_no_result,
    inline_resumes_are_not_heavy_leaves,
    fib_is_split_by_a_budget_of_calls,
    detached_nqueens_is_correct_on_every_shape,
    sorts_are_correct_on_every_shape,
    trees_are_correct_on_every_shape,
);
