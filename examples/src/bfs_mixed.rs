//! Breadth-first search with both kinds of task: a vertex with a short adjacency list is
//! expanded by a thread task, one with a long list by a block task whose threads share it.
//!
//! The search is [`crate::bfs`]'s (GTaP's Program 5): one task per vertex to expand, depths
//! lowered with an atomic minimum in a shared array (an [`AtomicView`]), a child spawned for every
//! neighbour whose depth the task improved, no taskwait (the run ends when every task has).
//! What differs is who expands a vertex, decided by its degree when its task is spawned:
//!
//! - degree below [`Bfs::block_degree`]: a thread task ([`program::visit`]) loops over the
//!   neighbours alone;
//! - from it up: a block task ([`program::visit_block`]), whose threads stride over the
//!   neighbours (thread `t` of `T` takes `t, t + T, ..`), each spawning its own children
//!   (per-thread spawns, no handles).
//!
//! Children are thread or block tasks by *their* degree, whichever kind spawns them; the
//! spawner reads the child's row bounds to decide, and passes them on.
//!
//! GTaP measured its thread BFS 15 times faster than its block BFS on LiveJournal and 1600
//! times on a road network: most vertices have a few neighbours, and a block step for each
//! leaves almost all of a block idle. But a power-law graph's hubs have up to hundreds of
//! thousands of neighbours, which one thread expands sequentially while the rest of the
//! search waits on it. With a threshold of a few hundred, the hubs get blocks and everything
//! else threads. [`Bfs::threads_only`] (threshold `u32::MAX`) is the pure thread BFS and
//! [`Bfs::blocks_only`] (threshold 0) the pure block BFS, in the same program.
//!
//! # Long lists are split
//!
//! A task expands a range of its vertex's row, the whole row unless that is longer than its
//! kind's grain: a thread task's range of more than [`Bfs::grain`] entries is split in two
//! halves (two thread tasks, recursively), a block task's of more than
//! [`Bfs::block_grain`] into chunks of that many entries, one block task each (the block's
//! threads spawn them, thread `t` the chunks `t, t + T, ..`). A hub's first expansion
//! improves most of its neighbours, and every improvement is a spawn into the spawning
//! thread's warp's queue: without the split, one thread would stage a whole hub's adjacency
//! there (hundreds of thousands of tasks), more than a queue holds. With it, a thread task
//! spawns at most `grain` children and a block task's thread at most `block_grain / T` (plus
//! its chunks). So the thread-only search is not GTaP's, which expands a hub on one thread:
//! it splits as rayon's BFS does (`graph::bfs::bfs_parallel`, from 1024 neighbours), which
//! makes it the stronger baseline for the mixed one.
//!
//! Exactness is [`crate::bfs`]'s argument unchanged: depths only decrease, whoever lowers a
//! vertex's depth to its final value spawns a task that offers the next depth to every
//! neighbour (through the tasks of its row's ranges, all spawned unless a task finds the
//! vertex already lower), and a task whose vertex has been lowered below its depth meanwhile
//! returns at once (a later task does the better expansion); which kind of task expands a
//! range does not enter it. The depths are checked against a sequential BFS; the task count depends on
//! the schedule.
//!
//! # Memory ordering
//! As [`crate::bfs`]: `Relaxed` atomics at GPU scope on the depths (each minimum's atomicity
//! and the depths' monotonic decrease are all the search needs; a child's read of its
//! vertex's depth follows its spawn, which the runtime orders). The graph is only read.

use gtap::Call;

use gtap::AtomicView;

pub use crate::bfs::UNREACHED;
use crate::csr_view::CsrView;

/// What every task of a search shares: the graph, the depths, and the sizes that decide who
/// expands what.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct Bfs<'a> {
    /// The graph (its rows are the adjacency lists).
    pub g: CsrView<'a>,
    /// Every vertex's depth, lowered as the search goes.
    pub depths: AtomicView<'a, u32>,
    /// Vertices with at least this many neighbours are expanded by block tasks, the others by
    /// thread tasks (0: block tasks only; `u32::MAX`: thread tasks only).
    pub block_degree: u32,
    /// The most row entries a thread task expands; a longer range is split in halves.
    pub grain: u32,
    /// The most row entries a block task expands; a longer range is split into chunks.
    pub block_grain: u32,
}

impl<'a> Bfs<'a> {
    /// A search of `g` into `depths`, block tasks from `block_degree` neighbours up; the
    /// grains are 256 entries for a thread task and 8192 for a block task.
    pub fn new(g: CsrView<'a>, depths: AtomicView<'a, u32>, block_degree: u32) -> Bfs<'a> {
        Bfs {
            g,
            depths,
            block_degree,
            grain: 256,
            block_grain: 8192,
        }
    }

    /// The same search with thread tasks only.
    pub fn threads_only(self) -> Bfs<'a> {
        Bfs {
            block_degree: u32::MAX,
            ..self
        }
    }

    /// The same search with block tasks only.
    pub fn blocks_only(self) -> Bfs<'a> {
        Bfs {
            block_degree: 0,
            ..self
        }
    }

    /// The same search with these grains (each at least 1).
    pub fn grains(self, grain: u32, block_grain: u32) -> Bfs<'a> {
        Bfs {
            grain: grain.max(1),
            block_grain: block_grain.max(1),
            ..self
        }
    }

    /// Whether a vertex whose row is `start..end` is expanded by a block task.
    #[inline(always)]
    pub fn by_block(self, start: u32, end: u32) -> bool {
        end - start >= self.block_degree
    }
}

/// The root task of a search from `source` (whose depth the caller set to 0): a thread task
/// that reads the source's row where the graph lives (device memory, on the GPU) and
/// expands it with the kind of task its degree asks for.
pub fn root(s: Bfs<'_>, source: u32) -> Call<'_, program::Program, ()> {
    program::search(s, source)
}

/// The program.
#[gtap::program(name = "bfs_mixed", max_children = 1073741823)]
pub mod program {
    use gtap::Block;

    use super::Bfs;
    use crate::bfs::lower;

    /// The search from `source`: its row expanded by a thread task or a block task, by its
    /// degree.
    #[gtap::task]
    pub fn search(s: Bfs<'_>, source: u32) {
        let (start, end) = s.g.slices().row(source);
        if s.by_block(start, end) {
            spawn!(visit_block(s, source, 0, start, end));
        } else {
            spawn!(visit(s, source, 0, start, end));
        }
    }

    /// Expands the entries `lo..hi` of vertex `v`'s row, `v` reached at depth `d`, on one
    /// thread (in halves, by two thread tasks, when longer than the grain).
    #[gtap::task]
    pub fn visit(s: Bfs<'_>, v: u32, d: u32, lo: u32, hi: u32) {
        if s.depths.load(v as usize) < d {
            return; // stale: a task for `v` at a smaller depth exists
        }
        if hi - lo > s.grain {
            let mid = lo + (hi - lo) / 2;
            spawn!(visit(s, v, d, lo, mid));
            spawn!(visit(s, v, d, mid, hi));
            return;
        }
        // Slices once per task: a view checks where its memory is when it becomes one.
        let (rows, depth) = (s.g.slices(), s.depths.as_slice());
        let mut e = lo;
        while e < hi {
            let u = rows.col(e);
            if lower(depth, u, d + 1) {
                let (start, end) = rows.row(u);
                if s.by_block(start, end) {
                    spawn!(visit_block(s, u, d + 1, start, end));
                } else {
                    spawn!(visit(s, u, d + 1, start, end));
                }
            }
            e += 1;
        }
    }

    /// Expands the entries `lo..hi` of vertex `v`'s row, `v` reached at depth `d`, with the
    /// whole block: each thread takes every `b.size()`-th entry and spawns the children it
    /// improved (in chunks, one block task each, when longer than the block grain).
    #[gtap::task(block)]
    pub fn visit_block(b: Block, s: Bfs<'_>, v: u32, d: u32, lo: u32, hi: u32) {
        if s.depths.load(v as usize) < d {
            return; // stale (threads that read a later depth only leave work to that task)
        }
        if hi - lo > s.block_grain {
            let chunks = (hi - lo).div_ceil(s.block_grain);
            let mut c = b.index();
            while c < chunks {
                let from = lo + c * s.block_grain;
                let to = hi.min(from.saturating_add(s.block_grain));
                spawn!(visit_block(s, v, d, from, to));
                c += b.size();
            }
            return;
        }
        let (rows, depth) = (s.g.slices(), s.depths.as_slice());
        let mut e = lo + b.index();
        while e < hi {
            let u = rows.col(e);
            if lower(depth, u, d + 1) {
                let (start, end) = rows.row(u);
                if s.by_block(start, end) {
                    spawn!(visit_block(s, u, d + 1, start, end));
                } else {
                    spawn!(visit(s, u, d + 1, start, end));
                }
            }
            e = e.saturating_add(b.size());
        }
    }
}
