//! Road-like graphs: a 2-D grid with some streets closed and a few short cuts, generated from a
//! seed. They are what Kronecker graphs are not: every degree small (2 to 4, a few 5s and
//! 6s), and a diameter in the thousands (about `width + height`), so a BFS runs thousands of
//! levels with a thin frontier each, as on the road networks of the SuiteSparse collection
//! (GTaP's `roadNet-CA`).
//!
//! The graph on `width × height` vertices (vertex `y * width + x` at column `x`, row `y`):
//!
//! 1. every vertex is linked to its right and lower neighbour (the grid);
//! 2. each grid edge is closed with probability [`RoadParams::closed`];
//! 3. closed edges that would leave the graph in pieces are reopened: a union-find over the
//!    open edges, then every closed edge (in edge order) that joins two components is
//!    reopened, so the result is connected (the grid is), and a BFS from any vertex reaches
//!    every vertex;
//! 4. each vertex gets a short cut with probability [`RoadParams::shortcuts`], to a vertex at
//!    most [`RoadParams::reach`] columns and rows away (a bridge or a diagonal street: it
//!    shortens paths locally, never across the map, so the diameter stays large).
//!
//! The choices in steps 2 and 4 are hashes of the seed and the edge or vertex, so the graph
//! does not depend on the thread count; step 3 is sequential (a fraction of a second at 2^22
//! vertices). The CSR is undirected, without loops or duplicate edges ([`Csr::from_edges`]).

use std::vec::Vec;

use rayon::prelude::*;

use super::csr::Csr;
use super::error::GraphError;
use super::rng::mix64;

/// The shape of a road-like graph.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RoadParams {
    /// Columns of the grid.
    pub width: u32,
    /// Rows of the grid.
    pub height: u32,
    /// The probability that a grid edge is closed (before the reopening that keeps the graph
    /// connected), `0.0..1.0`.
    pub closed: f64,
    /// The probability that a vertex gets a short cut, `0.0..=1.0`.
    pub shortcuts: f64,
    /// The farthest a short cut goes, in columns and in rows.
    pub reach: u32,
}

impl RoadParams {
    /// A grid of about `2^scale` vertices (`2^ceil(scale/2)` columns, `2^floor(scale/2)`
    /// rows), a quarter of its edges closed, a short cut at 2% of the vertices reaching 8
    /// columns and rows: average degree about 3.1.
    pub fn scale(scale: u32) -> RoadParams {
        RoadParams {
            width: 1 << scale.div_ceil(2),
            height: 1 << (scale / 2),
            closed: 0.25,
            shortcuts: 0.02,
            reach: 8,
        }
    }
}

/// The road-like graph of `2^scale` vertices ([`RoadParams::scale`]) from `seed`.
///
/// # Errors
/// As [`road_with`].
pub fn road(scale: u32, seed: u64) -> Result<Csr, GraphError> {
    if scale >= 32 {
        return Err(GraphError::RoadTooLarge {
            width: u64::MAX,
            height: u64::MAX,
        });
    }
    road_with(RoadParams::scale(scale), seed)
}

/// The road-like graph of `p` from `seed` (see the module docs).
///
/// # Errors
/// [`GraphError::RoadTooLarge`] unless the vertices fit `u32` and the CSR's entries (at most
/// twice the edges) its `u32` offsets.
///
/// # Panics
/// If a probability is outside its range.
pub fn road_with(p: RoadParams, seed: u64) -> Result<Csr, GraphError> {
    assert!(
        (0.0..1.0).contains(&p.closed) && (0.0..=1.0).contains(&p.shortcuts),
        "road graph probabilities out of range: {p:?}"
    );
    let (w, h) = (u64::from(p.width), u64::from(p.height));
    let n = w * h;
    // Grid edges (< 2n) and short cuts (<= n), each stored twice.
    if n >= u64::from(u32::MAX) || 2 * 3 * n > u64::from(u32::MAX) {
        return Err(GraphError::RoadTooLarge {
            width: w,
            height: h,
        });
    }
    let n = n as u32;
    let grid = Grid {
        width: p.width,
        height: p.height,
    };
    let closed = threshold(p.closed);
    // Grid edge `2v` goes right from `v`, `2v + 1` down; `None` off the grid.
    let open: Vec<bool> = (0..2 * n)
        .into_par_iter()
        .map(|e| grid.edge(e).is_some() && hash(seed, 1, e) >= closed)
        .collect();
    let reopened = reconnect(&grid, &open);
    let mut edges: Vec<(u32, u32)> = (0..2 * n)
        .into_par_iter()
        .filter(|&e| open[e as usize] || reopened.binary_search(&e).is_ok())
        .filter_map(|e| grid.edge(e))
        .collect();
    let with_shortcut = threshold(p.shortcuts);
    edges.par_extend(
        (0..n)
            .into_par_iter()
            .filter(|&v| p.shortcuts >= 1.0 || hash(seed, 2, v) < with_shortcut)
            .map(|v| (v, grid.nearby(v, p.reach, hash(seed, 3, v)))),
    );
    Ok(Csr::from_edges(n, &edges, true)?)
}

/// The grid's geometry.
struct Grid {
    width: u32,
    height: u32,
}

impl Grid {
    /// Grid edge `e` as a pair of vertices: `2v` to the right of `v`, `2v + 1` below it;
    /// `None` past the last column or row.
    fn edge(&self, e: u32) -> Option<(u32, u32)> {
        let v = e / 2;
        let (x, y) = (v % self.width, v / self.width);
        if e.is_multiple_of(2) {
            (x + 1 < self.width).then_some((v, v + 1))
        } else {
            (y + 1 < self.height).then_some((v, v + self.width))
        }
    }

    /// A vertex at most `reach` columns and rows from `v` (clamped to the grid), chosen by
    /// `bits`; may be `v` itself (a loop, which the CSR drops).
    fn nearby(&self, v: u32, reach: u32, bits: u64) -> u32 {
        let (x, y) = (v % self.width, v / self.width);
        let span = 2 * u64::from(reach) + 1;
        let dx = (bits & 0xFFFF_FFFF) % span;
        let dy = (bits >> 32) % span;
        let at = |c: u32, d: u64, len: u32| {
            let c = i64::from(c) + d as i64 - i64::from(reach);
            c.clamp(0, i64::from(len) - 1) as u32
        };
        at(y, dy, self.height) * self.width + at(x, dx, self.width)
    }
}

/// The 64-bit threshold under which a uniform word has probability `p`.
fn threshold(p: f64) -> u64 {
    (p * 18_446_744_073_709_551_616.0) as u64
}

/// A uniform word for item `i` of kind `kind` of the graph of `seed`.
fn hash(seed: u64, kind: u64, i: u32) -> u64 {
    mix64(mix64(seed ^ (kind << 56)).wrapping_add(u64::from(i)))
}

/// The closed grid edges to reopen so that the open ones connect every vertex, increasing.
fn reconnect(grid: &Grid, open: &[bool]) -> Vec<u32> {
    let n = grid.width * grid.height;
    let mut sets = DisjointSets::new(n);
    for (e, _) in open.iter().enumerate().filter(|(_, o)| **o) {
        let (u, v) = grid.edge(e as u32).expect("open edges are grid edges");
        sets.union(u, v);
    }
    let mut reopened = Vec::new();
    for (e, _) in open.iter().enumerate().filter(|(_, o)| !**o) {
        if let Some((u, v)) = grid.edge(e as u32)
            && sets.union(u, v)
        {
            reopened.push(e as u32);
        }
    }
    reopened
}

/// Union-find with path halving and union by size.
struct DisjointSets {
    parent: Vec<u32>,
    size: Vec<u32>,
}

impl DisjointSets {
    fn new(n: u32) -> DisjointSets {
        DisjointSets {
            parent: (0..n).collect(),
            size: std::vec![1; n as usize],
        }
    }

    fn find(&mut self, mut v: u32) -> u32 {
        while self.parent[v as usize] != v {
            let grand = self.parent[self.parent[v as usize] as usize];
            self.parent[v as usize] = grand;
            v = grand;
        }
        v
    }

    /// Joins the sets of `u` and `v`: whether they were apart.
    fn union(&mut self, u: u32, v: u32) -> bool {
        let (mut a, mut b) = (self.find(u), self.find(v));
        if a == b {
            return false;
        }
        if self.size[a as usize] < self.size[b as usize] {
            core::mem::swap(&mut a, &mut b);
        }
        self.parent[b as usize] = a;
        self.size[a as usize] += self.size[b as usize];
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::bfs::{UNREACHED, bfs_sequential};

    #[test]
    fn same_seed_same_graph_other_seed_other_graph() {
        let a = road(10, 1).unwrap();
        assert_eq!(a, road(10, 1).unwrap());
        assert_ne!(a, road(10, 2).unwrap());
    }

    #[test]
    fn graphs_are_valid_connected_and_have_small_degrees() {
        for (scale, seed) in [(1, 1), (5, 2), (12, 3), (14, 4)] {
            let g = road(scale, seed).unwrap();
            assert_eq!(g.n, 1 << scale);
            g.check().unwrap();
            assert!(g.is_symmetric());
            let depths = bfs_sequential(&g, 0);
            assert!(depths.iter().all(|&d| d != UNREACHED), "scale {scale}");
            let max_degree = (0..g.n).map(|v| g.degree(v)).max().unwrap();
            assert!(max_degree <= 8, "scale {scale}: degree {max_degree}");
            if scale >= 12 {
                let mean = g.num_edges() as f64 / f64::from(g.n);
                assert!(
                    (2.5..3.6).contains(&mean),
                    "scale {scale}: mean degree {mean}"
                );
            }
        }
    }

    #[test]
    fn the_diameter_grows_with_the_side() {
        // A 128 x 128 grid: paths across it are about 256 steps; short cuts of at most 8
        // columns and rows shorten them by a small factor, never to a few steps.
        let g = road(14, 5).unwrap();
        let depths = bfs_sequential(&g, 0);
        let far = depths.iter().copied().max().unwrap();
        assert!(
            (128..=600).contains(&far),
            "eccentricity of a corner: {far}"
        );
    }

    #[test]
    fn closing_every_edge_leaves_a_spanning_tree() {
        let p = RoadParams {
            width: 37,
            height: 11,
            closed: 0.999_999,
            shortcuts: 0.0,
            reach: 0,
        };
        let g = road_with(p, 9).unwrap();
        assert_eq!(g.num_edges(), 2 * (37 * 11 - 1));
        assert!(bfs_sequential(&g, 5).iter().all(|&d| d != UNREACHED));
    }

    /// Generation time, degrees and a corner's eccentricity at scale 22, or at
    /// `GTAP_ROAD_SCALE` if set:
    /// `cargo test -p gtap-examples --release --lib road_timing -- --ignored --nocapture`.
    #[test]
    #[ignore = "a timing, not a test; run it by name in release mode"]
    fn road_timing() {
        let scale = std::env::var("GTAP_ROAD_SCALE")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(22);
        let t = std::time::Instant::now();
        let g = road(scale, 1).unwrap();
        let built = t.elapsed();
        let mut degrees = [0u32; 16];
        for v in 0..g.n {
            degrees[(g.degree(v) as usize).min(15)] += 1;
        }
        let far = bfs_sequential(&g, 0).into_iter().max().unwrap();
        std::println!(
            "scale {scale}: {} vertices, {} entries, built in {:.3} s; vertices by degree \
             {:?}; eccentricity of vertex 0: {far}",
            g.n,
            g.num_edges(),
            built.as_secs_f64(),
            &degrees[..9],
        );
    }

    #[test]
    fn oversized_requests_are_refused() {
        assert!(matches!(road(32, 0), Err(GraphError::RoadTooLarge { .. })));
        assert!(road(30, 0).is_err());
    }
}
