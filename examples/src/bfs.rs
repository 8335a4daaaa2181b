//! Breadth-first search as a block program: GTaP's Program 5 (paper section 5.1.3), one task
//! per vertex to expand, its neighbours shared by the threads of a block.
//!
//! Every vertex's depth lives in a shared array of `u32`, [`UNREACHED`] at the
//! start except the source's 0. The task for vertex `v` at depth `d` has its threads stride
//! over `v`'s neighbours (thread `t` of `n` takes neighbours `t, t + n, ..`); for each
//! neighbour `u` a thread lowers `depth[u]` to `d + 1` with an atomic minimum, and if that
//! improved it, the thread itself spawns the task for `u` at `d + 1` (a spawn without a
//! handle: one child per thread that executes it, no join). The program has no taskwait: the
//! run ends when every task has, and the depths are then those of a BFS from the source.
//!
//! Why the result is exact although tasks run in any order: a depth only decreases, and
//! whoever lowers `depth[u]` to its final value `D` spawns a task for `u` at `D`, which
//! offers `D + 1` to every neighbour of `u`. By induction on the BFS distance, each vertex
//! ends at its distance.
//!
//! What differs from Program 5:
//! - the task gets its depth `d` as an argument, and returns at once if `depth[v]` is already
//!   below `d` when it starts: a later task for `v` at a smaller depth exists and does the
//!   same expansion better (Program 5 reads `depth[v]` on entry and expands with it, which
//!   repeats that later task's work). Threads that read at different times may disagree;
//!   the ones that return early only leave work to that later task, so this is safe;
//! - a thread reads `depth[u]` before the atomic minimum and skips the atomic when it would
//!   not improve it (as the CPU baseline, [`crate::graph::bfs::bfs_parallel`], does): most
//!   edges of a power-law graph lead to visited vertices.
//!
//! The task count depends on the schedule (a vertex may be improved several times before its
//! final depth), so it is not checked; the depths are.
//!
//! The depths are an [`AtomicView`](gtap::AtomicView) (`u32` per vertex, in the memory of the runtime that
//! runs the search: a `DeviceVec` made for it, or a host slice on the CPU backend).
//!
//! # Memory ordering
//! `Relaxed` atomics at GPU scope throughout (the view's own methods): correctness needs only
//! the atomicity of each minimum and the monotonic decrease of each depth. A child task reads
//! what its parent wrote (the depth of its vertex) after its spawn, which the runtime orders
//! (a task is published with release and taken with acquire); a stale read would only make it
//! do redundant work. The host reads the depths after the run, which the run's end orders.

use gtap::device::data::{DeviceAtomic, Relaxed};

/// The depth of a vertex the search has not reached (the same as
/// [`crate::graph::bfs::UNREACHED`]).
pub const UNREACHED: u32 = u32::MAX;

/// Lowers vertex `v`'s depth in `depths` to `d` unless it is already as low: whether it was
/// higher (a relaxed load first, so that the common case, a vertex reached already, costs no
/// atomic read-modify-write).
///
/// # Panics
/// If `v` is out of range.
#[inline(always)]
pub fn lower(depths: &[DeviceAtomic<u32>], v: u32, d: u32) -> bool {
    let depth = &depths[v as usize];
    depth.load::<Relaxed>() > d && depth.fetch_min::<Relaxed>(d) > d
}

/// The program.
#[gtap::program(name = "bfs", max_children = 1073741823)]
pub mod program {
    use gtap::device::data::Relaxed;
    use gtap::{AtomicView, Block};

    use super::lower;
    use crate::csr_view::CsrView;

    /// Expands vertex `v`, reached at depth `d` (the root: the source at 0, whose depth the
    /// caller set to 0).
    #[gtap::task(block)]
    pub fn visit(b: Block, g: CsrView<'_>, depths: AtomicView<'_, u32>, v: u32, d: u32) {
        // Slices once per task: a view checks where its memory is when it becomes one.
        let (rows, depth) = (g.slices(), depths.as_slice());
        if depth[v as usize].load::<Relaxed>() < d {
            return; // stale: a task for `v` at a smaller depth exists
        }
        let (start, end) = rows.row(v);
        let mut e = start + b.index();
        while e < end {
            let u = rows.col(e);
            if lower(depth, u, d + 1) {
                spawn!(visit(g, depths, u, d + 1));
            }
            e = e.saturating_add(b.size());
        }
    }
}
