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

use crate::csr_view::CsrView;

/// A row with at least this many entries per thread of the block is summed by the whole
/// block; shorter rows by one thread each.
pub const LONG_ROW_PER_THREAD: u32 = 4;

/// The operands of one product: the matrix, `x` (one element per column) and `y` (one per
/// row), in memory that outlives the run.
#[derive(Clone, Copy, Debug)]
pub struct Spmv {
    a: CsrView,
    x: *const f32,
    y: *mut f32,
}

impl Spmv {
    /// The product of `a` (viewed by the caller, see [`CsrView::new`]) and `x` into `y`, in
    /// host memory for the CPU backend. The caller keeps all three alive, and does not touch
    /// `y`, until the runs that use it end.
    ///
    /// # Panics
    /// If `x` or `y` is not `a.n()` long.
    #[cfg(not(target_arch = "nvptx64"))]
    pub fn new(a: CsrView, x: &[f32], y: &mut [f32]) -> Spmv {
        assert!(
            x.len() == a.n() as usize && y.len() == a.n() as usize,
            "x and y need one element per row of the matrix"
        );
        Spmv {
            a,
            x: x.as_ptr(),
            y: y.as_mut_ptr(),
        }
    }

    /// The product of raw vectors, e.g. device allocations.
    ///
    /// # Safety
    /// `x` is valid for reads and `y` for writes of `a.n()` `f32`s for as long as the value is
    /// used; nothing else writes `x` or accesses `y` meanwhile.
    pub unsafe fn from_raw(a: CsrView, x: *const f32, y: *mut f32) -> Spmv {
        Spmv { a, x, y }
    }

    /// The number of rows.
    pub fn rows(self) -> u32 {
        self.a.n()
    }

    /// The entries `first, first + step, ..` of row `r` times `x`, summed in `f64`.
    #[inline(always)]
    fn dot(self, r: u32, first: u32, step: u32) -> f64 {
        let (start, end) = self.a.row(r);
        let mut sum = 0.0;
        let mut e = start.saturating_add(first);
        while e < end {
            // SAFETY: `e` is an entry of row `r`, and its column is below `n`, the length of
            // `x` (the constructors' contracts).
            let (v, c) = unsafe { (self.a.val(e), self.a.col(e)) };
            // SAFETY: as above.
            sum += f64::from(v) * f64::from(unsafe { *self.x.add(c as usize) });
            e = e.saturating_add(step);
        }
        sum
    }

    /// Writes `y[r]`.
    ///
    /// # Safety
    /// `r < n`, and no other thread accesses `y[r]` during the run.
    #[inline(always)]
    unsafe fn set(self, r: u32, v: f32) {
        // SAFETY: forwarded from this function's contract; `y` holds `n` elements.
        unsafe { self.y.add(r as usize).write(v) };
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
    pub fn rows(b: Block, s: Spmv, lo: u32, hi: u32, grain: u32) {
        if hi - lo > grain.max(1) {
            if b.is_leader() {
                let mid = lo + (hi - lo) / 2;
                spawn!(rows(s, lo, mid, grain));
                spawn!(rows(s, mid, hi, grain));
            }
            return;
        }
        let long = LONG_ROW_PER_THREAD.saturating_mul(b.size());
        let mut r = lo + b.index();
        while r < hi {
            if s.len(r) < long {
                // SAFETY: `r` is in this task's rows and this thread's share of them.
                unsafe { s.set(r, s.dot(r, 0, 1) as f32) };
            }
            r = r.saturating_add(b.size());
        }
        // Every thread walks every row here, so all take the same long rows together.
        for r in lo..hi {
            if s.len(r) >= long {
                let sum = block_reduce::sum_f64(b, s.dot(r, b.index(), b.size()));
                if b.is_leader() {
                    // SAFETY: `r` is in this task's rows; only the leader writes it.
                    unsafe { s.set(r, sum as f32) };
                }
            }
        }
    }
}
