//! The block programs of the examples (BFS, SpMV, the synthetic trees run a block per node) on
//! the CPU backend, checked against their sequential references on several team sizes and
//! team counts. The same checks on the GPU: `block_programs_gpu.rs`.

mod common;

use std::time::Duration;

use common::{directed_graph, sample_graph, tree_table, two_components, weighted_matrix};
use gtap::{AtomicView, View};
use gtap_examples::bfs;
use gtap_examples::csr_view::CsrView;
use gtap_examples::graph::bfs::bfs_sequential;
use gtap_examples::graph::spmv::{check_close, input_vector, spmv};
use gtap_examples::graph::{Csr, kronecker};
use gtap_examples::spmv::Spmv;
use gtap_examples::{tree, tree_block};
use gtap_host::cpu::{CpuConfig, CpuRuntime};

/// `(teams, threads per team)`: one thread alone, a team of 4, several teams of 8.
const SHAPES: [(usize, u32); 4] = [(1, 1), (1, 4), (2, 4), (3, 8)];

fn runtime(teams: usize, team: u32) -> CpuRuntime {
    let config = CpuConfig::new()
        .threads(teams)
        .team(team)
        .check_uniform(true)
        .timeout(Duration::from_secs(120));
    CpuRuntime::new(config).expect("CPU runtime")
}

/// BFS depths from `source` by the block program.
fn block_bfs(rt: &mut CpuRuntime, g: &Csr, source: u32) -> Vec<u32> {
    let mut depths = vec![bfs::UNREACHED; g.n as usize];
    depths[source as usize] = 0;
    let view = AtomicView::from_slice(&mut depths);
    rt.run(bfs::program::visit(CsrView::new(g), view, source, 0))
        .unwrap();
    depths
}

fn check_bfs(rt: &mut CpuRuntime, g: &Csr, source: u32, what: &str) {
    assert_eq!(
        block_bfs(rt, g, source),
        bfs_sequential(g, source),
        "BFS of {what} from {source}"
    );
}

#[test]
fn bfs_matches_the_sequential_search_on_the_sample_graph_from_every_source() {
    let g = sample_graph();
    for (teams, team) in SHAPES {
        let mut rt = runtime(teams, team);
        for source in 0..g.n {
            check_bfs(&mut rt, &g, source, &format!("small.mtx on {teams}x{team}"));
        }
    }
}

#[test]
fn bfs_matches_the_sequential_search_on_kronecker_graphs() {
    // Program 5 is label-correcting: a vertex reached first on a long path is expanded again
    // each time a shorter one lowers its depth, and from a low-degree source the tasks can
    // outnumber the vertices 40 to 1 (scale 12). Teams of several threads cost the CPU
    // backend a hand-off per task, so the largest graphs run on teams of one thread.
    let graphs = |scales: &[(u32, u64)]| -> Vec<(String, Csr)> {
        scales
            .iter()
            .map(|&(scale, seed)| {
                let what = format!("kronecker({scale}, 16, {seed})");
                (what, kronecker(scale, 16, seed).unwrap())
            })
            .collect()
    };
    let small = graphs(&[(8, 1), (9, 2), (10, 3)]);
    let large = graphs(&[(11, 4), (12, 3), (12, 4)]);
    for (teams, team, graphs) in [
        (1, 4, &small),
        (2, 8, &small),
        (3, 1, &small),
        (2, 1, &large),
    ] {
        let mut rt = runtime(teams, team);
        for (what, g) in graphs {
            // The hub, and vertices of low (or no) degree.
            let hub = (0..g.n).max_by_key(|&v| g.degree(v)).unwrap();
            for source in [hub, 0, g.n - 1] {
                check_bfs(&mut rt, g, source, &format!("{what} on {teams}x{team}"));
            }
        }
    }
}

#[test]
fn bfs_stays_in_its_component_and_follows_directed_edges() {
    let g = two_components();
    let directed = directed_graph();
    for (teams, team) in SHAPES {
        let mut rt = runtime(teams, team);
        for source in 0..g.n {
            check_bfs(&mut rt, &g, source, "two components");
        }
        for source in 0..directed.n {
            check_bfs(&mut rt, &directed, source, "a directed graph");
        }
    }
}

#[test]
fn bfs_of_a_single_vertex_runs_one_task() {
    let g = Csr::from_edges(1, &[], true).unwrap();
    for (teams, team) in SHAPES {
        let mut rt = runtime(teams, team);
        let mut depths = vec![0];
        let view = AtomicView::from_slice(&mut depths);
        let (_, stats) = rt
            .run(bfs::program::visit(CsrView::new(&g), view, 0, 0))
            .unwrap();
        assert_eq!((depths, stats.tasks_executed), (vec![0], 1));
    }
}

/// `y = A x` by the block program, ranges of `grain` rows.
fn block_spmv(rt: &mut CpuRuntime, a: &Csr, x: &[f32], grain: u32) -> (Vec<f32>, u64) {
    let mut y = vec![f32::NAN; a.n as usize];
    let s = Spmv::new(
        CsrView::new(a),
        View::from_slice(x),
        AtomicView::from_slice(&mut y),
    );
    let (_, stats) = rt
        .run(gtap_examples::spmv::program::rows(s, 0, a.n, grain))
        .unwrap();
    (y, stats.tasks_executed)
}

#[test]
fn spmv_matches_the_reference_on_weighted_and_pattern_matrices() {
    let weighted = weighted_matrix();
    let pattern = kronecker(11, 16, 5).unwrap();
    for (teams, team) in SHAPES {
        let mut rt = runtime(teams, team);
        for (a, what) in [(&weighted, "weighted"), (&pattern, "kronecker(11)")] {
            let x = input_vector(a.n, 3);
            let want = spmv(a, &x);
            for grain in [1, 7, 64, 100_000] {
                let (y, tasks) = block_spmv(&mut rt, a, &x, grain);
                // Sums in f64 like the reference: short rows are equal, long ones differ only
                // by the order of their additions.
                check_close(&want, &y, 1e-6)
                    .unwrap_or_else(|e| panic!("{what}, grain {grain}, on {teams}x{team}: {e}"));
                assert_eq!(tasks, range_tasks(0, a.n, grain), "tasks, grain {grain}");
            }
        }
    }
}

/// The tasks of `rows(_, lo, hi, grain)`: ranges are halved until they hold `grain` rows.
fn range_tasks(lo: u32, hi: u32, grain: u32) -> u64 {
    if hi - lo > grain.max(1) {
        let mid = lo + (hi - lo) / 2;
        1 + range_tasks(lo, mid, grain) + range_tasks(mid, hi, grain)
    } else {
        1
    }
}

#[test]
fn spmv_of_an_empty_matrix_and_of_one_row() {
    let mut rt = runtime(2, 4);
    let empty = Csr::from_edges(0, &[], false).unwrap();
    let (y, tasks) = block_spmv(&mut rt, &empty, &[], 4);
    assert_eq!((y, tasks), (vec![], 1));
    let one = Csr::from_weighted_edges(2, &[(0, 1, 3.0)], false).unwrap();
    let (y, _) = block_spmv(&mut rt, &one, &[2.0, 5.0], 1);
    assert_eq!(y, vec![15.0, 0.0]);
}

#[test]
fn a_nodes_work_split_over_any_team_sums_to_the_whole() {
    let w = tree::Work::new(tree_table(), 37, 53);
    for id in [0, 1, 12345, u64::MAX / 3] {
        let whole = tree::node_work(id, w);
        for step in [1, 2, 3, 8, 32, 64, 100] {
            let split = (0..step).fold(0u64, |acc, t| {
                acc.wrapping_add(tree::node_work_share(id, w, t, step))
            });
            assert_eq!(split, whole, "node {id} split {step} ways");
        }
    }
}

#[test]
fn block_trees_match_the_thread_trees() {
    let table = tree_table();
    for (mem_ops, compute_iters) in [(16, 16), (0, 5), (9, 0), (100, 3)] {
        let w = tree::Work::new(table, mem_ops, compute_iters);
        let mut thread_rt = CpuRuntime::new(CpuConfig::new().threads(2)).unwrap();
        for (teams, team) in SHAPES {
            let mut rt = runtime(teams, team);
            let on = format!("mem {mem_ops}, fma {compute_iters}, on {teams}x{team}");
            for depth in [0, 1, 5, 9] {
                let want = tree::full_binary_reference(depth, 0, w);
                assert_eq!(want.0, (1u64 << (depth + 1)) - 1);
                let (got, stats) = rt
                    .run(tree_block::full_binary_block::node(depth, 0, w))
                    .unwrap();
                assert_eq!(got, want, "full binary tree, depth {depth}, {on}");
                assert_eq!(stats.tasks_executed, want.0);
                let (thread, _) = thread_rt.run(tree::full_binary::node(depth, 0, w)).unwrap();
                assert_eq!(thread, want, "thread version, depth {depth}");
            }
            for depth in [1, 4, 8, 11] {
                let want = tree::pruned_reference(0, depth, 0, w);
                let (got, stats) = rt
                    .run(tree_block::pruned_block::node(0, depth, 0, w))
                    .unwrap();
                assert_eq!(got, want, "pruned tree, depth {depth}, {on}");
                assert_eq!(stats.tasks_executed, want.0);
                let (thread, _) = thread_rt.run(tree::pruned::node(0, depth, 0, w)).unwrap();
                assert_eq!(thread, want, "thread version, depth {depth}");
            }
        }
    }
}

#[test]
fn a_pruned_tree_thins_out_with_depth() {
    // Every node at depth 0 keeps all three children; none below max_depth exists.
    assert_eq!(tree::kept_children(0, 0, 10).len, 3);
    assert_eq!(tree::kept_children(7, 10, 10).len, 0);
    let w = tree::Work::new(tree_table(), 0, 0);
    let (count, _) = tree::pruned_reference(0, 11, 0, w);
    assert!(count > 100 && count < 3u64.pow(11), "{count} nodes");
}
