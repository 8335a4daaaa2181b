//! A raw view of a graph (or sparse matrix) in compressed sparse rows, that tasks can pass to
//! their children: the device-side twin of the host's [`crate::graph::Csr`].
//!
//! Task arguments are copied into each child's record, so a task cannot borrow a `Csr`; the
//! BFS and SpMV programs pass the addresses of its arrays instead, in host memory on the CPU
//! backend and in device memory on the GPU. The arrays are only read while tasks run.

/// The arrays of a CSR graph or matrix: `row_ptr` (`n + 1` offsets), `col` (the column, or
/// neighbour, of each entry) and optionally `val` (each entry's value; a pattern graph has
/// none and its entries count as 1). Invariants as [`crate::graph::Csr`]'s.
#[derive(Clone, Copy, Debug)]
pub struct CsrView {
    row_ptr: *const u32,
    col: *const u32,
    /// Null for a pattern graph.
    val: *const f32,
    n: u32,
}

// SAFETY: a `CsrView` only reads its arrays, which its constructors require to stay valid and
// unchanged while it is used; sharing read-only access between threads is sound.
unsafe impl Send for CsrView {}
// SAFETY: as above.
unsafe impl Sync for CsrView {}

impl CsrView {
    /// Views `g` (on the host, for the CPU backend). The caller keeps `g` alive and unchanged
    /// until the runs that use the view end.
    #[cfg(not(target_arch = "nvptx64"))]
    pub fn new(g: &crate::graph::Csr) -> CsrView {
        CsrView {
            row_ptr: g.row_ptr.as_ptr(),
            col: g.col.as_ptr(),
            val: g.val.as_ref().map_or(core::ptr::null(), |v| v.as_ptr()),
            n: g.n,
        }
    }

    /// A view of raw arrays, e.g. device allocations (`val` null for a pattern graph).
    ///
    /// # Safety
    /// - `row_ptr` holds `n + 1` offsets and `col` (and `val` unless null) `row_ptr[n]`
    ///   entries, valid for reads and unchanged for as long as the view is used;
    /// - they satisfy [`crate::graph::Csr`]'s invariants: offsets non-decreasing from 0,
    ///   columns below `n`.
    pub unsafe fn from_raw(row_ptr: *const u32, col: *const u32, val: *const f32, n: u32) -> Self {
        CsrView {
            row_ptr,
            col,
            val,
            n,
        }
    }

    /// The number of rows (vertices).
    #[inline(always)]
    pub fn n(self) -> u32 {
        self.n
    }

    /// Row `v`'s entries: `start..end` indices into the entry arrays.
    ///
    /// # Panics
    /// If `v >= n`.
    #[inline(always)]
    pub fn row(self, v: u32) -> (u32, u32) {
        assert!(v < self.n, "row out of range");
        // SAFETY: `v + 1 <= n`, and `row_ptr` holds `n + 1` offsets (constructor contract).
        unsafe {
            (
                *self.row_ptr.add(v as usize),
                *self.row_ptr.add(v as usize + 1),
            )
        }
    }

    /// The column (neighbour) of entry `e`.
    ///
    /// # Safety
    /// `e` is below `row_ptr[n]` (an index from [`CsrView::row`]).
    #[inline(always)]
    pub unsafe fn col(self, e: u32) -> u32 {
        // SAFETY: in bounds (this function's contract) and valid (the constructor's).
        unsafe { *self.col.add(e as usize) }
    }

    /// The value of entry `e` (1 in a pattern graph).
    ///
    /// # Safety
    /// As [`CsrView::col`].
    #[inline(always)]
    pub unsafe fn val(self, e: u32) -> f32 {
        if self.val.is_null() {
            1.0
        } else {
            // SAFETY: in bounds (this function's contract) and valid (the constructor's).
            unsafe { *self.val.add(e as usize) }
        }
    }
}
