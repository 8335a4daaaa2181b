//! Breadth-first search as a block program: GTaP's Program 5 (paper section 5.1.3), one task
//! per vertex to expand, its neighbours shared by the threads of a block.
//!
//! Every vertex's depth lives in a shared array of `u32` ([`Depths`]), [`UNREACHED`] at the
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
//! # Memory ordering
//! `Relaxed` atomics at GPU scope throughout: correctness needs only the atomicity of each
//! minimum and the monotonic decrease of each depth. A child task reads what its parent
//! wrote (the depth of its vertex) after its spawn, which the runtime orders (a task is
//! published with release and taken with acquire); a stale read would only make it do
//! redundant work. The host reads the depths after the run, which the run's end orders.

use gtap::device::arch::{DeviceAtomicU32, Relaxed};

/// The depth of a vertex the search has not reached (the same as
/// [`crate::graph::bfs::UNREACHED`]).
pub const UNREACHED: u32 = u32::MAX;

/// The shared depth array, one `u32` per vertex, in memory that outlives the run.
#[derive(Clone, Copy, Debug)]
pub struct Depths {
    ptr: *mut u32,
    len: u32,
}

impl Depths {
    /// Views `depths` (host memory, for the CPU backend). The caller keeps `depths` alive
    /// and does not touch it until the runs that use the view end.
    #[cfg(not(target_arch = "nvptx64"))]
    pub fn new(depths: &mut [u32]) -> Depths {
        assert!(depths.len() <= u32::MAX as usize, "too many vertices");
        Depths {
            ptr: depths.as_mut_ptr(),
            len: depths.len() as u32,
        }
    }

    /// A view of raw memory, e.g. a device allocation.
    ///
    /// # Safety
    /// `ptr` is a global (not stack) address, 4-byte aligned, valid for reads and writes of
    /// `len` `u32`s for as long as the view is used, and accessed only through views like this
    /// one while tasks run.
    pub unsafe fn from_raw(ptr: *mut u32, len: u32) -> Depths {
        Depths { ptr, len }
    }

    /// Vertex `v`'s depth, as an atomic.
    ///
    /// # Panics
    /// If `v` is out of range.
    #[inline(always)]
    fn at(self, v: u32) -> &'static DeviceAtomicU32 {
        assert!(v < self.len, "vertex out of range");
        // SAFETY: in bounds (checked), a global address valid for the run and only accessed
        // atomically while tasks run (the constructors' contracts).
        unsafe { DeviceAtomicU32::from_ptr(self.ptr.add(v as usize)) }
    }

    /// Vertex `v`'s current depth.
    #[inline(always)]
    pub fn get(self, v: u32) -> u32 {
        self.at(v).load::<Relaxed>()
    }

    /// Lowers vertex `v`'s depth to `d` unless it is already as low: whether it was higher.
    #[inline(always)]
    pub fn lower(self, v: u32, d: u32) -> bool {
        let at = self.at(v);
        at.load::<Relaxed>() > d && at.fetch_min::<Relaxed>(d) > d
    }
}

/// The program.
#[gtap::program(name = "bfs", max_children = 1073741823)]
pub mod program {
    use gtap::Block;

    use super::Depths;
    use crate::csr_view::CsrView;

    /// Expands vertex `v`, reached at depth `d` (the root: the source at 0, whose depth the
    /// caller set to 0).
    #[gtap::task(block)]
    pub fn visit(b: Block, g: CsrView, depths: Depths, v: u32, d: u32) {
        if depths.get(v) < d {
            return; // stale: a task for `v` at a smaller depth exists
        }
        let (start, end) = g.row(v);
        let mut e = start + b.index();
        while e < end {
            // SAFETY: `e` is inside row `v`.
            let u = unsafe { g.col(e) };
            if depths.lower(u, d + 1) {
                spawn!(visit(g, depths, u, d + 1));
            }
            e = e.saturating_add(b.size());
        }
    }
}
