//! Programs with both thread tasks and block tasks on the CPU backend: a team's leader runs
//! a thread task alone and a block task with its team; joins, results and per-thread spawns
//! cross the two kinds. The same checks on the GPU: `mixed_gpu.rs`.

mod common;

use common::counter;
use gtap::Program;
use gtap_host::cpu::{CpuConfig, CpuRuntime};
use gtap_tests::mixed::{program, walk_reference};

// The macro says the program is mixed, and gives it no sequential versions (yet).
const _: () = assert!(program::Program::BLOCK && program::Program::MIXED && !program::Program::SEQ);

#[test]
fn thread_and_block_tasks_join_each_other_on_every_team_shape() {
    for threads in [1, 2, 3] {
        for team in [1, 2, 4] {
            let mut rt = CpuRuntime::new(CpuConfig::new().threads(threads).team(team)).unwrap();
            for n in [0, 1, 7, 40] {
                let (c, cell) = counter();
                let (v, stats) = rt.run(program::walk(c, n)).unwrap();
                assert_eq!(v, walk_reference(n, team), "{threads} x {team}, n = {n}");
                assert_eq!(*cell, u64::from(n * team), "{threads} x {team}, n = {n}");
                // walk: n + 1 tasks; each team_step: itself, its square, a bump per thread.
                let tasks = u64::from(n + 1) + u64::from(n) * (2 + u64::from(team));
                assert_eq!(stats.tasks_executed, tasks, "{threads} x {team}, n = {n}");
            }
        }
    }
}

#[test]
fn mergesort_with_block_merges_sorts_on_every_team_shape() {
    use gtap::ViewMut;
    use gtap_examples::mergesort_mixed::{Params, program as msort};
    let p = Params {
        leaf: 16,
        block_merge: 64,
        part: 48,
    };
    for threads in [1, 3] {
        for team in [1, 4] {
            let mut rt = CpuRuntime::new(CpuConfig::new().threads(threads).team(team)).unwrap();
            for n in [0, 1, 17, 64, 1000, 20_011] {
                let input = common::random_input(n, n as u64 + 3);
                let mut data = input.clone();
                let mut tmp = vec![0u32; n];
                let (x, y) = (
                    ViewMut::from_slice(&mut data),
                    ViewMut::from_slice(&mut tmp),
                );
                rt.run(msort::sort(x, y, false, p)).unwrap();
                common::check_sorted_permutation(&input, &data);
            }
        }
    }
}

#[test]
fn cilksort_with_block_sorts_and_merges_sorts_on_every_team_shape() {
    use gtap::ViewMut;
    use gtap_examples::cilksort_mixed::{Params, program as csort};
    // Small sizes, so that every kind of step runs: thread leaves (up to 8), block sorts (up
    // to 40), thread merges (sequential up to 6) and block merges (from 100, parts of 37).
    let small = Params {
        leaf: 8,
        block_sort: 40,
        merge_leaf: 6,
        block_merge: 100,
        part: 37,
    };
    // (Chunks are sorted in tiles only on the GPU; `block_sort`'s unit tests run the tiles
    // on teams of std threads.)
    for (threads, team) in [(1, 1), (1, 4), (2, 3), (3, 4), (2, 8)] {
        let mut rt = CpuRuntime::new(CpuConfig::new().threads(threads).team(team)).unwrap();
        for (n, p) in [
            (0, small),
            (1, small),
            (7, small),
            (40, small),
            (41, small),
            (333, small),
            (5000, small),
            (20_011, small),
            (20_011, small.threads_only()),
            (70_001, Params::default()),
        ] {
            for dups in [false, true] {
                let mut input = common::random_input(n, n as u64 + 5);
                if dups {
                    // Many equal keys: every merge path meets long runs of ties.
                    input.iter_mut().for_each(|v| *v %= 7);
                }
                let mut data = input.clone();
                let mut tmp = vec![0u32; n];
                let (d, t) = (
                    ViewMut::from_slice(&mut data),
                    ViewMut::from_slice(&mut tmp),
                );
                rt.run(csort::sort(d, t, p)).unwrap();
                common::check_sorted_permutation(&input, &data);
            }
        }
    }
}

/// BFS depths from `source` by the mixed program, block tasks from `block_degree` up.
fn mixed_bfs(
    rt: &mut CpuRuntime,
    g: &gtap_examples::graph::Csr,
    source: u32,
    block_degree: u32,
    grains: Option<(u32, u32)>,
) -> Vec<u32> {
    use gtap::AtomicView;
    use gtap_examples::bfs_mixed::{self, Bfs, UNREACHED};
    use gtap_examples::csr_view::CsrView;
    let mut depths = vec![UNREACHED; g.n as usize];
    depths[source as usize] = 0;
    {
        let mut s = Bfs::new(
            CsrView::new(g),
            AtomicView::from_slice(&mut depths),
            block_degree,
        );
        if let Some((grain, block_grain)) = grains {
            s = s.grains(grain, block_grain);
        }
        rt.run(bfs_mixed::root(s, source)).unwrap();
    }
    depths
}

#[test]
fn bfs_with_thread_and_block_expansions_finds_every_depth() {
    use gtap_examples::graph::bfs::bfs_sequential;
    use gtap_examples::graph::{Csr, kronecker, road};
    let mut graphs: Vec<(String, Csr)> = vec![
        ("small.mtx".into(), common::sample_graph()),
        ("two components".into(), common::two_components()),
        ("a directed graph".into(), common::directed_graph()),
    ];
    for (scale, seed) in [(7, 1), (8, 2)] {
        graphs.push((
            format!("kronecker({scale}, 16, {seed})"),
            kronecker(scale, 16, seed).unwrap(),
        ));
    }
    graphs.push(("road(8, 3)".into(), road(8, 3).unwrap()));
    for (threads, team) in [(1, 1), (2, 2), (1, 3)] {
        let mut rt = CpuRuntime::new(CpuConfig::new().threads(threads).team(team)).unwrap();
        for (what, g) in &graphs {
            // The hub, and the last vertex (an end of a road, maybe an isolated one).
            let hub = (0..g.n).max_by_key(|&v| g.degree(v)).unwrap();
            for source in [hub, g.n - 1] {
                let want = bfs_sequential(g, source);
                // Blocks only, hubs by blocks, most vertices by blocks, threads only; with
                // the default grains, and (where a hub has 24 or more neighbours) with rows
                // split into ranges of 3 and 5 entries.
                for block_degree in [0, 3, 24, u32::MAX] {
                    let split = (block_degree >= 24).then_some(Some((3, 5)));
                    for grains in std::iter::once(None).chain(split) {
                        assert_eq!(
                            mixed_bfs(&mut rt, g, source, block_degree, grains),
                            want,
                            "{what} from {source}, blocks from degree {block_degree}, \
                             grains {grains:?}, {threads} x {team}"
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn trees_with_heavy_nodes_on_blocks_match_the_thread_programs() {
    use gtap_examples::tree::{self, Work};
    use gtap_examples::tree_mixed::{Heavy, full_binary_mixed, pruned_mixed};
    let table = common::tree_table();
    for (threads, team) in [(1, 1), (2, 4), (3, 3)] {
        let mut rt = CpuRuntime::new(CpuConfig::new().threads(threads).team(team)).unwrap();
        for (mem_ops, iters) in [(0, 0), (8, 16), (64, 5)] {
            let w = Work::new(table, mem_ops, iters);
            for heavy in [
                Heavy::NEVER,
                Heavy::ALWAYS,
                Heavy {
                    mem_ops: 32,
                    compute_iters: 16,
                },
            ] {
                let shape = format!("{threads} x {team}, work {mem_ops}/{iters}, {heavy:?}");
                // A heavy node is two tasks: itself and its work.
                let per_node = if heavy.is(w) { 2 } else { 1 };
                for depth in [0, 1, 6] {
                    let (v, stats) = rt.run(full_binary_mixed::node(depth, 0, w, heavy)).unwrap();
                    let want = tree::full_binary_reference(depth, 0, w);
                    assert_eq!(v, want, "full tree of depth {depth}, {shape}");
                    assert_eq!(
                        stats.tasks_executed,
                        per_node * want.0,
                        "full tree, {shape}"
                    );
                }
                for max_depth in [1, 5, 9] {
                    let (v, stats) = rt
                        .run(pruned_mixed::node(0, max_depth, 7, w, heavy))
                        .unwrap();
                    let want = tree::pruned_reference(0, max_depth, 7, w);
                    assert_eq!(v, want, "pruned tree of depth {max_depth}, {shape}");
                    assert_eq!(
                        stats.tasks_executed,
                        per_node * want.0,
                        "pruned tree, {shape}"
                    );
                }
            }
        }
    }
}
