//! A view of a graph (or sparse matrix) in compressed sparse rows that tasks take as an
//! argument: the device-side twin of the host's [`crate::graph::Csr`], made of shared views
//! ([`View`]) of its arrays, in host memory on the CPU backend and in GPU memory on the GPU
//! ([`crate::graph::device::DeviceCsr`]). The arrays are only read while tasks run.
//!
//! Nothing here needs the CSR invariants for soundness: every access goes through a checked
//! slice, so a malformed graph panics where an offset is out of range.

use gtap::View;

/// The arrays of a CSR graph or matrix: `row_ptr` (`n + 1` offsets), `col` (the column, or
/// neighbour, of each entry) and optionally `val` (each entry's value; a pattern graph has
/// none and its entries count as 1).
#[derive(Clone, Copy, Debug)]
pub struct CsrView<'a> {
    row_ptr: View<'a, u32>,
    col: View<'a, u32>,
    val: Option<View<'a, f32>>,
    n: u32,
}

impl<'a> CsrView<'a> {
    /// Views `g` (on the host, for the CPU backend).
    #[cfg(not(target_arch = "nvptx64"))]
    pub fn new(g: &'a crate::graph::Csr) -> CsrView<'a> {
        CsrView::from_views(
            View::from_slice(&g.row_ptr),
            View::from_slice(&g.col),
            g.val.as_deref().map(View::from_slice),
        )
    }

    /// The graph of these arrays (e.g. views of `DeviceVec`s).
    ///
    /// # Panics
    /// If `row_ptr` is empty (it holds `n + 1` offsets), or `val` is not as long as `col`.
    pub fn from_views(
        row_ptr: View<'a, u32>,
        col: View<'a, u32>,
        val: Option<View<'a, f32>>,
    ) -> CsrView<'a> {
        assert!(!row_ptr.is_empty(), "a CSR's row_ptr holds n + 1 offsets");
        assert!(
            val.is_none_or(|v| v.len() == col.len()),
            "a CSR's val holds one value per entry, as col does"
        );
        let n = u32::try_from(row_ptr.len() - 1).expect("at most u32::MAX rows");
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

    /// The arrays as slices, for a task to read: turning a view into a slice checks where
    /// its memory is, so a task does that once and then indexes the slices.
    ///
    /// # Panics
    /// If the arrays are in the other backend's memory (see [`gtap::View::as_slice`]).
    #[inline(always)]
    pub fn slices(self) -> CsrSlices<'a> {
        CsrSlices {
            row_ptr: self.row_ptr.as_slice(),
            col: self.col.as_slice(),
            val: self.val.map(|v| v.as_slice()),
        }
    }
}

/// A CSR graph's arrays as slices ([`CsrView::slices`]).
#[derive(Clone, Copy, Debug)]
pub struct CsrSlices<'a> {
    row_ptr: &'a [u32],
    col: &'a [u32],
    val: Option<&'a [f32]>,
}

impl<'a> CsrSlices<'a> {
    /// Row `v`'s entries: `start..end` indices into [`CsrSlices::col`] and
    /// [`CsrSlices::val`].
    ///
    /// # Panics
    /// If `v` is not a row.
    #[inline(always)]
    pub fn row(self, v: u32) -> (u32, u32) {
        (self.row_ptr[v as usize], self.row_ptr[v as usize + 1])
    }

    /// The column (neighbour) of entry `e`.
    ///
    /// # Panics
    /// If `e` is not an entry.
    #[inline(always)]
    pub fn col(self, e: u32) -> u32 {
        self.col[e as usize]
    }

    /// The value of entry `e` (1 in a pattern graph).
    ///
    /// # Panics
    /// If `e` is not an entry.
    #[inline(always)]
    pub fn val(self, e: u32) -> f32 {
        self.val.map_or(1.0, |v| v[e as usize])
    }
}
