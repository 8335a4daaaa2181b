//! Programs with both thread tasks and block tasks on the GPU's mixed kernel: every warp runs
//! thread tasks and every thread block, all its warps together, runs the block tasks its
//! leader takes. The checks of `mixed_cpu.rs` on several launch shapes, a block task as the
//! root, EPAQ queues beside the block queue, and the settings such programs refuse. Reported
//! as ignored without a GPU (the GPU test harness).

mod common;

use std::time::Duration;

use common::{device_ptr, download, upload};
use gtap_host::gpu_runtime::{GpuConfig, GpuRunError, GpuRuntime};
use gtap_tests::lang::Counter;
use gtap_tests::mixed::{program, walk_reference};

/// `grid` blocks of `block` threads; a run that hangs ends at the timeout instead.
fn config(grid: u32, block: u32) -> GpuConfig {
    GpuConfig::new()
        .grid(grid)
        .block(block)
        .check_uniform(true)
        .timeout(Duration::from_secs(30))
}

/// Runs `walk(n)` on `rt` with a fresh device counter: (result, counter, tasks).
fn walk(rt: &mut GpuRuntime, n: u32) -> (u64, u64, u64) {
    let gpu = rt.gpu().clone();
    let cell = upload(&gpu, &[0u64]);
    // SAFETY: a zeroed, aligned device u64 that outlives the run.
    let c = unsafe { Counter::from_ptr(device_ptr(&gpu, &cell) as *mut u64) };
    let (v, stats) = rt.run(program::walk(c, n)).unwrap();
    (v, download(&gpu, &cell)[0], stats.tasks)
}

fn thread_and_block_tasks_join_each_other_on_several_launch_shapes() {
    for (grid, block) in [(1, 32), (4, 64), (16, 128), (132, 256), (8, 512)] {
        // A block of 512 threads fits the register file only with at most 128 registers.
        let config = match block {
            512 => config(grid, block).max_registers(128),
            _ => config(grid, block),
        };
        let Some(mut rt) = common::runtime(gtap_tests::PTX, config) else {
            return;
        };
        for n in [0, 1, 7, 40, 200] {
            let (v, count, tasks) = walk(&mut rt, n);
            let shape = format!("{grid} blocks of {block}, n = {n}");
            assert_eq!(v, walk_reference(n, block), "{shape}");
            assert_eq!(count, u64::from(n * block), "{shape}");
            // walk: n + 1 tasks; each team_step: itself, its square, a bump per thread.
            assert_eq!(
                tasks,
                u64::from(n + 1) + u64::from(n) * (2 + u64::from(block)),
                "{shape}"
            );
        }
    }
}

fn a_block_task_can_be_the_root() {
    let Some(mut rt) = common::runtime(gtap_tests::PTX, config(8, 128)) else {
        return;
    };
    let gpu = rt.gpu().clone();
    let cell = upload(&gpu, &[0u64]);
    // SAFETY: a zeroed, aligned device u64 that outlives the run.
    let c = unsafe { Counter::from_ptr(device_ptr(&gpu, &cell) as *mut u64) };
    let (v, stats) = rt.run(program::team_step(c, 6)).unwrap();
    assert_eq!(v, 128 + 36);
    assert_eq!(download(&gpu, &cell)[0], 128);
    assert_eq!(stats.tasks, 1 + 1 + 128);
}

fn epaq_queues_sit_beside_the_block_queue() {
    let Some(mut rt) = common::runtime(gtap_tests::PTX, config(16, 64).num_queues(3)) else {
        return;
    };
    let (v, count, _) = walk(&mut rt, 30);
    assert_eq!(v, walk_reference(30, 64));
    assert_eq!(count, 30 * 64);
}

fn runs_repeat_on_one_runtime() {
    let Some(mut rt) = common::runtime(gtap_tests::PTX, config(132, 128)) else {
        return;
    };
    for round in 0..20 {
        let (v, count, _) = walk(&mut rt, 64);
        assert_eq!(v, walk_reference(64, 128), "round {round}");
        assert_eq!(count, 64 * 128, "round {round}");
    }
}

fn settings_block_tasks_do_not_support_are_refused() {
    let Some(mut rt) = common::runtime(gtap_tests::PTX, config(4, 64).profile(64)) else {
        return;
    };
    let cell: &'static mut u64 = Box::leak(Box::new(0u64));
    // SAFETY: zeroed, aligned, leaked; never touched (the run is refused).
    let counter = unsafe { Counter::from_ptr(cell as *mut u64) };
    let err = rt.run(program::walk(counter, 3)).unwrap_err();
    assert!(
        matches!(
            err,
            GpuRunError::NotForBlockPrograms {
                program: "mixed",
                ..
            }
        ),
        "{err}"
    );
    rt.set_config(config(4, 64)).unwrap();
    let (v, _, _) = walk(&mut rt, 3);
    assert_eq!(v, walk_reference(3, 64));
}

fn mergesort_with_block_merges_sorts() {
    use gtap::ViewMut;
    use gtap::device::data::Home;
    use gtap_examples::mergesort_mixed::{Params, program as msort};
    let Some(mut rt) = common::runtime(gtap_examples::PTX, config(132, 256)) else {
        return;
    };
    let gpu = rt.gpu().clone();
    let small = Params {
        leaf: 16,
        block_merge: 256,
        part: 1000,
    };
    for (n, p) in [
        (0, Params::default()),
        (1, Params::default()),
        (5000, small),
        (100_003, small),
        (1_000_000, Params::default()),
        (3_000_017, Params::default()),
    ] {
        let input = common::random_input(n, n as u64 + 9);
        // Device buffers of at least one element (an empty allocation is an error).
        let mut padded = input.clone();
        padded.resize(n.max(1), 0);
        let data = upload(&gpu, &padded);
        let tmp = upload(&gpu, &vec![0u32; n.max(1)]);
        // SAFETY: both device buffers hold at least `n` u32s and outlive the run, their
        // only user.
        let (x, y) = unsafe {
            (
                ViewMut::from_raw_parts(device_ptr(&gpu, &data) as *mut u32, n, Home::Gpu),
                ViewMut::from_raw_parts(device_ptr(&gpu, &tmp) as *mut u32, n, Home::Gpu),
            )
        };
        rt.run(msort::sort(x, y, false, p)).unwrap();
        let mut out = download(&gpu, &data);
        out.truncate(n);
        common::check_sorted_permutation(&input, &out);
    }
}

fn cilksort_with_block_sorts_and_merges_sorts() {
    // The default scratch is too little for a tile of 256 threads: chunks unstaged.
    let Some(mut rt) = common::runtime(gtap_examples::PTX, config(132, 256)) else {
        return;
    };
    cilksort_sizes(&mut rt);
    let tiles = gtap_examples::block_sort::scratch_bytes(256) as u32;
    rt.set_config(config(132, 256).block_scratch(tiles))
        .unwrap();
    cilksort_sizes(&mut rt);
}

fn cilksort_sizes(rt: &mut GpuRuntime) {
    use gtap::ViewMut;
    use gtap::device::data::Home;
    use gtap_examples::cilksort_mixed::{Params, program as csort};
    let gpu = rt.gpu().clone();
    let small = Params {
        leaf: 16,
        block_sort: 1000,
        merge_leaf: 64,
        block_merge: 3000,
        part: 1000,
    };
    for (n, p, dups) in [
        (0, Params::default(), false),
        (1, Params::default(), false),
        (900, small, false),
        (5000, small, true),
        (100_003, small, false),
        (100_003, small.threads_only(), true),
        (1_000_000, Params::default(), true),
        (3_000_017, Params::default(), false),
        (20_000_000, Params::default(), false),
    ] {
        let mut input = common::random_input(n, n as u64 + 11);
        if dups {
            input.iter_mut().for_each(|v| *v %= 7);
        }
        // Device buffers of at least one element (an empty allocation is an error).
        let mut padded = input.clone();
        padded.resize(n.max(1), 0);
        let data = upload(&gpu, &padded);
        let tmp = upload(&gpu, &vec![0u32; n.max(1)]);
        // SAFETY: both device buffers hold at least `n` u32s and outlive the run, their only
        // user.
        let (d, t) = unsafe {
            (
                ViewMut::from_raw_parts(device_ptr(&gpu, &data) as *mut u32, n, Home::Gpu),
                ViewMut::from_raw_parts(device_ptr(&gpu, &tmp) as *mut u32, n, Home::Gpu),
            )
        };
        rt.run(csort::sort(d, t, p))
            .unwrap_or_else(|e| panic!("cilksort-mixed of {n} with {p:?}: {e}"));
        let mut out = download(&gpu, &data);
        out.truncate(n);
        common::check_sorted_permutation(&input, &out);
    }
}

fn bfs_with_thread_and_block_expansions_finds_every_depth() {
    use gtap::DeviceVec;
    use gtap_examples::bfs_mixed::{self, Bfs, UNREACHED};
    use gtap_examples::graph::bfs::bfs_sequential;
    use gtap_examples::graph::device::DeviceCsr;
    use gtap_examples::graph::{Csr, kronecker, road};
    let mut graphs: Vec<(String, Csr)> = vec![
        ("small.mtx".into(), common::sample_graph()),
        ("two components".into(), common::two_components()),
        ("a directed graph".into(), common::directed_graph()),
        ("one vertex".into(), Csr::from_edges(1, &[], true).unwrap()),
    ];
    for (scale, seed) in [(10, 2), (12, 3), (14, 1)] {
        graphs.push((
            format!("kronecker({scale}, 16, {seed})"),
            kronecker(scale, 16, seed).unwrap(),
        ));
    }
    for (scale, seed) in [(12, 1), (14, 2)] {
        graphs.push((format!("road({scale}, {seed})"), road(scale, seed).unwrap()));
    }
    // A task spawns a child per improved neighbour, a thread task a hub's whole adjacency
    // into its warp's queue: room for it.
    for (grid, block, room) in [(16, 64, 1 << 16), (132, 256, 1 << 15), (8, 512, 1 << 16)] {
        let config = config(grid, block)
            .tasks_per_warp(room)
            .queue_capacity(room);
        // A block of 512 threads fits the register file only with the registers capped.
        let config = match block {
            512 => config.max_registers(128),
            _ => config,
        };
        let Some(mut rt) = common::runtime(gtap_examples::PTX, config) else {
            return;
        };
        let gpu = rt.gpu().clone();
        for (what, g) in &graphs {
            let dg = DeviceCsr::upload(&gpu, g).unwrap();
            let hub = (0..g.n).max_by_key(|&v| g.degree(v)).unwrap();
            for source in [hub, g.n - 1, 0] {
                let want = bfs_sequential(g, source);
                let mut init = vec![UNREACHED; g.n as usize];
                init[source as usize] = 0;
                // Blocks only, hubs by blocks, most vertices by blocks, threads only; with
                // the default grains, and rows split into small ranges.
                for (block_degree, grains) in [
                    (0, (256, 8192)),
                    (4, (256, 8192)),
                    (64, (256, 8192)),
                    (u32::MAX, (256, 8192)),
                    (0, (3, 300)),
                    (32, (7, 5)),
                    (u32::MAX, (2, 2)),
                ] {
                    let mut depths = DeviceVec::from_slice(&rt, &init).unwrap();
                    let s = Bfs::new(dg.view(), depths.atomics(), block_degree)
                        .grains(grains.0, grains.1);
                    let shape = format!(
                        "{what} from {source}, blocks from degree {block_degree}, grains \
                         {grains:?}, {grid} blocks of {block}"
                    );
                    rt.run(bfs_mixed::root(s, source))
                        .unwrap_or_else(|e| panic!("BFS of {shape}: {e}"));
                    assert_eq!(depths.to_vec().unwrap(), want, "BFS of {shape}");
                }
            }
        }
    }
}

fn trees_with_heavy_nodes_on_blocks_match_the_thread_programs() {
    use gtap::DeviceVec;
    use gtap_examples::tree::{self, Work};
    use gtap_examples::tree_mixed::{Heavy, full_binary_mixed, pruned_mixed};
    let leaked = common::tree_table();
    for (grid, block) in [(16, 64), (132, 256), (4, 512)] {
        // The trees' kernel needs more than 128 registers per thread: a block of 512 threads
        // fits the register file only with them capped.
        let config = match block {
            512 => config(grid, block).max_registers(128),
            _ => config(grid, block),
        };
        let Some(mut rt) = common::runtime(gtap_examples::PTX, config) else {
            return;
        };
        let table = DeviceVec::from_slice(&rt, leaked).unwrap();
        for (m, c) in [(16, 16), (0, 5), (100, 3), (1000, 1000)] {
            let w = Work::from_view(table.view(), m, c);
            let host = Work::new(leaked, m, c);
            let some = Heavy {
                mem_ops: 100,
                compute_iters: 1000,
            };
            for heavy in [Heavy::NEVER, Heavy::ALWAYS, some] {
                let shape = format!("mem {m}, fma {c}, {heavy:?}, {grid} blocks of {block}");
                // A heavy node is two tasks: itself and its work.
                let per_node = if heavy.is(host) { 2 } else { 1 };
                for depth in [0, 1, 5, 12] {
                    let (got, stats) = rt
                        .run(full_binary_mixed::node(depth, 0, w, heavy))
                        .unwrap_or_else(|e| panic!("full tree of depth {depth}, {shape}: {e}"));
                    let want = tree::full_binary_reference(depth, 0, host);
                    assert_eq!(got, want, "full tree of depth {depth}, {shape}");
                    assert_eq!(stats.tasks, per_node * want.0, "full tree, {shape}");
                }
                for depth in [4, 12, 16] {
                    let (got, stats) = rt
                        .run(pruned_mixed::node(0, depth, 0, w, heavy))
                        .unwrap_or_else(|e| panic!("pruned tree of depth {depth}, {shape}: {e}"));
                    let want = tree::pruned_reference(0, depth, 0, host);
                    assert_eq!(got, want, "pruned tree of depth {depth}, {shape}");
                    assert_eq!(stats.tasks, per_node * want.0, "pruned tree, {shape}");
                }
            }
        }
    }
}

gtap_host::gpu_test_main!(
    mergesort_with_block_merges_sorts,
    trees_with_heavy_nodes_on_blocks_match_the_thread_programs,
    bfs_with_thread_and_block_expansions_finds_every_depth,
    cilksort_with_block_sorts_and_merges_sorts,
    thread_and_block_tasks_join_each_other_on_several_launch_shapes,
    a_block_task_can_be_the_root,
    epaq_queues_sit_beside_the_block_queue,
    runs_repeat_on_one_runtime,
    settings_block_tasks_do_not_support_are_refused,
);
