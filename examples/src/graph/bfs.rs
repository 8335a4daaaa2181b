//! Breadth-first search on the CPU: the references a GPU BFS is checked against, and the
//! rayon baseline it is timed against.
//!
//! Both functions return each vertex's depth (its distance in edges from the source), which
//! unlike a BFS tree is unique, so a GPU result can be compared element by element.
//! [`traversed_edges`] gives the edge count for TEPS (traversed edges per second).

use core::sync::atomic::{AtomicU32, Ordering::Relaxed};
use std::collections::VecDeque;
use std::vec;
use std::vec::Vec;

use rayon::prelude::*;

use super::csr::Csr;

/// The depth of a vertex the search did not reach.
pub const UNREACHED: u32 = u32::MAX;

/// Neighbour lists at least this long are split across tasks (the hubs of power-law graphs).
const SPLIT_DEGREE: usize = 1 << 10;

/// Depths from `source` by the textbook queue-based BFS, one thread.
///
/// # Panics
/// If `source >= g.n`.
pub fn bfs_sequential(g: &Csr, source: u32) -> Vec<u32> {
    assert!(
        source < g.n,
        "BFS source {source} is not a vertex (n = {})",
        g.n
    );
    let mut depth = vec![UNREACHED; g.n as usize];
    let mut queue = VecDeque::new();
    depth[source as usize] = 0;
    queue.push_back(source);
    while let Some(u) = queue.pop_front() {
        let next = depth[u as usize] + 1;
        for &v in g.neighbors(u) {
            if depth[v as usize] == UNREACHED {
                depth[v as usize] = next;
                queue.push_back(v);
            }
        }
    }
    depth
}

/// Depths from `source` by a level-synchronous parallel BFS (top-down only): the vertices of
/// each level's frontier are expanded in parallel, and a vertex joins the next frontier
/// through whichever task first moves its depth from [`UNREACHED`] with a compare-exchange,
/// so each vertex is claimed once.
///
/// # Memory ordering
/// `Relaxed` throughout: within a level a depth only ever goes from [`UNREACHED`] to this
/// level's value, and the compare-exchange's atomicity alone makes one task the claimant.
/// Values written in one level are read in later levels only after the level's parallel
/// `collect` has returned, and rayon orders everything a finished task did before that
/// return.
///
/// # Panics
/// If `source >= g.n`.
pub fn bfs_parallel(g: &Csr, source: u32) -> Vec<u32> {
    assert!(
        source < g.n,
        "BFS source {source} is not a vertex (n = {})",
        g.n
    );
    let depth: Vec<AtomicU32> = (0..g.n)
        .into_par_iter()
        .map(|_| AtomicU32::new(UNREACHED))
        .collect();
    depth[source as usize].store(0, Relaxed);
    let mut frontier = vec![source];
    let mut level = 0;
    while !frontier.is_empty() {
        level += 1;
        // The plain load first spares the compare-exchange (and its cache-line ownership) on
        // the many edges that lead back into visited vertices.
        let claim = |&v: &u32| {
            let d = &depth[v as usize];
            d.load(Relaxed) == UNREACHED
                && d.compare_exchange(UNREACHED, level, Relaxed, Relaxed)
                    .is_ok()
        };
        frontier = frontier
            .par_iter()
            .flat_map(|&u| {
                g.neighbors(u)
                    .par_iter()
                    .with_min_len(SPLIT_DEGREE)
                    .copied()
                    .filter(claim)
            })
            .collect();
    }
    depth.into_iter().map(AtomicU32::into_inner).collect()
}

/// The edges a BFS with these depths traversed: the sum of the degrees of the reached
/// vertices, the numerator of TEPS.
///
/// On an undirected (symmetrized) CSR this counts each undirected edge in the reached
/// component twice, once per direction; halve it for TEPS in Graph500's sense, which counts
/// undirected input edges.
///
/// # Panics
/// If `depths.len() != g.n`.
pub fn traversed_edges(g: &Csr, depths: &[u32]) -> u64 {
    assert_eq!(depths.len(), g.n as usize, "one depth per vertex");
    depths
        .par_iter()
        .zip(g.row_ptr.par_windows(2))
        .filter(|(d, _)| **d != UNREACHED)
        .map(|(_, w)| (w[1] - w[0]) as u64)
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::{kronecker, mtx};

    fn sample() -> Csr {
        mtx::read_str(include_str!("../../data/small.mtx")).unwrap()
    }

    #[test]
    fn depths_on_the_sample_graph() {
        let g = sample();
        let u = UNREACHED;
        let expected = vec![0, 1, 1, 2, 2, 3, 4, 4, 5, u];
        assert_eq!(bfs_sequential(&g, 0), expected);
        assert_eq!(bfs_parallel(&g, 0), expected);
        // Vertex 9 has no edges: only itself is reached, and nothing is traversed.
        let alone = bfs_parallel(&g, 9);
        assert_eq!(alone.iter().filter(|&&d| d != u).count(), 1);
        assert_eq!(traversed_edges(&g, &alone), 0);
        assert_eq!(traversed_edges(&g, &expected), g.num_edges() as u64);
    }

    #[test]
    fn sequential_and_parallel_agree_on_kronecker_graphs() {
        for scale in 8..=12 {
            let g = kronecker(scale, 16, scale as u64).unwrap();
            // The highest-degree vertex, and vertices that may be isolated.
            let hub = (0..g.n).max_by_key(|&v| g.degree(v)).unwrap();
            for source in [hub, 0, g.n - 1] {
                let seq = bfs_sequential(&g, source);
                assert_eq!(
                    bfs_parallel(&g, source),
                    seq,
                    "scale {scale}, source {source}"
                );
                if g.degree(source) == 0 {
                    assert_eq!(traversed_edges(&g, &seq), 0);
                }
            }
        }
    }

    #[test]
    fn a_directed_graph_is_followed_one_way() {
        let g = Csr::from_edges(4, &[(0, 1), (1, 2), (3, 0)], false).unwrap();
        let u = UNREACHED;
        assert_eq!(bfs_sequential(&g, 0), vec![0, 1, 2, u]);
        assert_eq!(bfs_parallel(&g, 0), vec![0, 1, 2, u]);
        assert_eq!(bfs_parallel(&g, 3), vec![1, 2, 3, 0]);
        assert_eq!(traversed_edges(&g, &[0, 1, 2, u]), 2);
    }
}
