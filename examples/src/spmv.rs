//! Sparse matrix times dense vector, `y = A x`, as a block program: the kind of work the GTaP
//! paper names for block-level workers (section 4.3, "SpMV, frontier expansion"), which does
//! not give a program of its own, so the shape here is ours.
//!
//! A task covers a range of rows. A range longer than `grain` rows is halved: the leader
//! spawns a task per half (spawns without handles, made by one thread: one child each) and
//! the task ends; nothing waits for the halves, the run ends when every task has. A range of
//! at most `grain` rows is computed by the block:
//! - short rows, one per thread (thread `t` of `n` takes rows `lo + t, lo + t + n, ..`), each
//!   summed in column order;
//! - long rows (at least [`LONG_ROW_PER_THREAD`] entries per thread of the block, the hubs of
//!   a power-law graph), one at a time by the whole block: thread `t` sums entries
//!   `t, t + n, ..` of the row and the block adds the parts up ([`block_reduce::sum_f64`]).
//!
//! Sums are in `f64`, rounded to `f32` once, as the CPU reference
//! ([`crate::graph::spmv::spmv`]) does: a short row equals the reference bit for bit, a long
//! one differs only by the order of its additions (far below `f32` precision). Rows are
//! disjoint between tasks, so each element of `y` is written once, by one thread.
//!
//! The team's scratch must hold [`block_reduce::scratch_needed`] bytes (on the GPU, 256 bytes
//! are enough for any block of whole warps).
//!
//! [`block_reduce::sum_f64`]: crate::block_reduce::sum_f64
//! [`block_reduce::scratch_needed`]: crate::block_reduce::scratch_needed

use gtap::device::data::{DeviceAtomic, Relaxed};
use gtap::{AtomicView, View};

use crate::csr_view::{CsrSlices, CsrView};

/// A row with at least this many entries per thread of the block is summed by the whole
/// block; shorter rows by one thread each.
pub const LONG_ROW_PER_THREAD: u32 = 4;

/// The operands of one product: the matrix, `x` (one element per column) and `y` (one per
/// row), in the memory of the runtime that runs the product.
///
/// `y` is an [`AtomicView`]: every thread of a block task holds the same view (its own copy
/// of the frame), so the output cannot be an exclusive view; each element is written once,
/// by one thread, with a relaxed atomic store, which costs what a plain store does.
#[derive(Clone, Copy, Debug)]
pub struct Spmv<'a> {
    a: CsrView<'a>,
    x: View<'a, f32>,
    y: AtomicView<'a, f32>,
}

impl<'a> Spmv<'a> {
    /// The product of `a` and `x` into `y`.
    ///
    /// # Panics
    /// If `x` or `y` is not `a.n()` long.
    pub fn new(a: CsrView<'a>, x: View<'a, f32>, y: AtomicView<'a, f32>) -> Spmv<'a> {
        assert!(
            x.len() == a.n() as usize && y.len() == a.n() as usize,
            "x and y need one element per row of the matrix"
        );
        Spmv { a, x, y }
    }

    /// The number of rows.
    pub fn rows(self) -> u32 {
        self.a.n()
    }

    /// The operands as slices, once per task.
    #[inline(always)]
    fn slices(self) -> Operands<'a> {
        Operands {
            a: self.a.slices(),
            x: self.x.as_slice(),
            y: self.y.as_slice(),
        }
    }
}

/// [`Spmv`]'s operands as slices.
#[derive(Clone, Copy)]
struct Operands<'a> {
    a: CsrSlices<'a>,
    x: &'a [f32],
    y: &'a [DeviceAtomic<u32>],
}

impl Operands<'_> {
    /// The entries `first, first + step, ..` of row `r` times `x`, summed in `f64`.
    #[inline(always)]
    fn dot(self, r: u32, first: u32, step: u32) -> f64 {
        let (start, end) = self.a.row(r);
        let mut sum = 0.0;
        let mut e = start.saturating_add(first);
        while e < end {
            let (v, c) = (self.a.val(e), self.a.col(e));
            sum += f64::from(v) * f64::from(self.x[c as usize]);
            e = e.saturating_add(step);
        }
        sum
    }

    /// Writes `y[r]` (relaxed: see [`Spmv`]).
    #[inline(always)]
    fn set(self, r: u32, v: f32) {
        self.y[r as usize].store::<Relaxed>(v.to_bits());
    }

    /// The number of entries of row `r`.
    #[inline(always)]
    fn len(self, r: u32) -> u32 {
        let (start, end) = self.a.row(r);
        end - start
    }
}

/// The program.
#[gtap::program(name = "spmv")]
pub mod program {
    use gtap::Block;

    use super::{LONG_ROW_PER_THREAD, Spmv};
    use crate::block_reduce;

    /// `y[lo..hi] = (A x)[lo..hi]`, split into ranges of at most `grain` rows (at least 1).
    #[gtap::task(block)]
    pub fn rows(b: Block, s: Spmv<'_>, lo: u32, hi: u32, grain: u32) {
        if hi - lo > grain.max(1) {
            if b.is_leader() {
                let mid = lo + (hi - lo) / 2;
                spawn!(rows(s, lo, mid, grain));
                spawn!(rows(s, mid, hi, grain));
            }
            return;
        }
        let m = s.slices();
        let long = LONG_ROW_PER_THREAD.saturating_mul(b.size());
        let mut r = lo + b.index();
        while r < hi {
            if m.len(r) < long {
                m.set(r, m.dot(r, 0, 1) as f32);
            }
            r = r.saturating_add(b.size());
        }
        // Every thread walks every row here, so all take the same long rows together.
        for r in lo..hi {
            if m.len(r) >= long {
                let sum = block_reduce::sum_f64(b, m.dot(r, b.index(), b.size()));
                if b.is_leader() {
                    m.set(r, sum as f32);
                }
            }
        }
    }
}
