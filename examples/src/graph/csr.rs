//! Compressed sparse rows: the one graph and matrix layout of the BFS and SpMV programs.
//!
//! Row `v` holds the out-neighbours of vertex `v` (the column indices of row `v`'s nonzeros)
//! in `col[row_ptr[v]..row_ptr[v + 1]]`, sorted and without duplicates. Every array is a plain
//! `Vec` of 32-bit words so that the GPU side can upload the slices as they are; `u32`
//! offsets cap a graph at `u32::MAX` stored entries (a scale-26 Graph500 graph, 2^31 entries,
//! still fits).

use std::vec::Vec;

use rayon::prelude::*;

use super::assemble::{Weighted, assemble};
use super::error::CsrError;

/// A graph, or a square sparse matrix, in compressed sparse rows.
///
/// The fields are public so that the GPU side can upload them; [`Csr::check`] says whether
/// they satisfy the invariants below, which the constructors here guarantee and the
/// algorithms assume (they panic on an index out of bounds, nothing worse, if a hand-built
/// `Csr` breaks them).
#[derive(Clone, Debug, PartialEq)]
pub struct Csr {
    /// The number of vertices (rows and columns).
    pub n: u32,
    /// `n + 1` offsets into `col`: row `v` is `row_ptr[v]..row_ptr[v + 1]`; `row_ptr[0] = 0`,
    /// non-decreasing, `row_ptr[n] = col.len()`.
    pub row_ptr: Vec<u32>,
    /// The column index (neighbour) of each stored entry: each row strictly increasing, each
    /// index below `n`.
    pub col: Vec<u32>,
    /// Each stored entry's value, as long as `col`; `None` for a pattern (unweighted) graph,
    /// whose entries all count as 1.
    pub val: Option<Vec<f32>>,
}

impl Csr {
    /// The graph with `n` vertices and the directed edges `(u, v)` of `edges`, and also
    /// `(v, u)` for each of them when `symmetrize` (an undirected graph). Self loops are
    /// dropped and duplicate edges kept once; rows come out sorted.
    ///
    /// The build is a parallel counting sort by source vertex, then a parallel sort of each
    /// row (see `assemble.rs`), so it scales to Graph500 sizes.
    ///
    /// # Errors
    /// [`CsrError::VertexOutOfRange`] for the first edge with an endpoint `>= n`, and
    /// [`CsrError::TooManyEntries`] if the entries before deduplication (`edges.len()`, twice
    /// that when symmetrizing) would not fit `u32` offsets.
    pub fn from_edges(n: u32, edges: &[(u32, u32)], symmetrize: bool) -> Result<Csr, CsrError> {
        let (row_ptr, col) = assemble(n, edges, symmetrize)?;
        Ok(Csr {
            n,
            row_ptr,
            col,
            val: None,
        })
    }

    /// As [`Csr::from_edges`], for edges `(u, v, value)`: the mirrored entry of a symmetrized
    /// edge has the same value, and duplicate entries are summed (the usual sparse-matrix
    /// convention; the sum runs in a fixed order, so the result does not depend on thread
    /// timing).
    ///
    /// # Errors
    /// As [`Csr::from_edges`].
    pub fn from_weighted_edges(
        n: u32,
        edges: &[(u32, u32, f32)],
        symmetrize: bool,
    ) -> Result<Csr, CsrError> {
        let (row_ptr, entries) = assemble(n, edges, symmetrize)?;
        let (col, val): (Vec<u32>, Vec<f32>) = entries
            .into_par_iter()
            .map(|Weighted { col, val }| (col, val))
            .unzip();
        Ok(Csr {
            n,
            row_ptr,
            col,
            val: Some(val),
        })
    }

    /// The number of stored entries: directed edges, so twice the undirected edges of a
    /// symmetrized graph.
    pub fn num_edges(&self) -> usize {
        self.col.len()
    }

    /// The range of `col` (and `val`) holding row `v`.
    ///
    /// # Panics
    /// If `v >= n`.
    pub fn row(&self, v: u32) -> core::ops::Range<usize> {
        self.row_ptr[v as usize] as usize..self.row_ptr[v as usize + 1] as usize
    }

    /// The out-degree of vertex `v`.
    ///
    /// # Panics
    /// If `v >= n`.
    pub fn degree(&self, v: u32) -> u32 {
        self.row_ptr[v as usize + 1] - self.row_ptr[v as usize]
    }

    /// The out-neighbours of vertex `v`, increasing.
    ///
    /// # Panics
    /// If `v >= n`.
    pub fn neighbors(&self, v: u32) -> &[u32] {
        &self.col[self.row(v)]
    }

    /// The values of row `v`'s entries, or `None` for a pattern graph.
    ///
    /// # Panics
    /// If `v >= n`.
    pub fn values(&self, v: u32) -> Option<&[f32]> {
        self.val.as_ref().map(|val| &val[self.row(v)])
    }

    /// Whether every edge `(u, v)` has its reverse `(v, u)` (values are not compared).
    ///
    /// # Panics
    /// If the `Csr` breaks its invariants.
    pub fn is_symmetric(&self) -> bool {
        (0..self.n).into_par_iter().all(|u| {
            self.neighbors(u)
                .iter()
                .all(|&v| self.neighbors(v).binary_search(&u).is_ok())
        })
    }

    /// Checks the invariants listed on the fields, and reports the first one broken.
    ///
    /// # Errors
    /// The [`CsrError`] naming the first broken invariant (the lowest row, where the broken
    /// invariant is per row).
    pub fn check(&self) -> Result<(), CsrError> {
        let expected = self.n as u64 + 1;
        if self.row_ptr.len() as u64 != expected {
            return Err(CsrError::RowPtrLen {
                len: self.row_ptr.len(),
                expected,
            });
        }
        if self.row_ptr[0] != 0 {
            return Err(CsrError::RowPtrStart {
                first: self.row_ptr[0],
            });
        }
        if let Some(row) = self.row_ptr.par_windows(2).position_first(|w| w[1] < w[0]) {
            return Err(CsrError::RowPtrDecreasing { row: row as u32 });
        }
        let last = self.row_ptr[self.n as usize];
        if last as usize != self.col.len() {
            return Err(CsrError::RowPtrEnd {
                last,
                len: self.col.len(),
            });
        }
        if let Some(val) = &self.val
            && val.len() != self.col.len()
        {
            return Err(CsrError::ValLen {
                len: val.len(),
                expected: self.col.len(),
            });
        }
        match (0..self.n)
            .into_par_iter()
            .find_map_first(|row| self.check_row(row).err())
        {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    /// Row `row`'s columns are in range and strictly increasing.
    fn check_row(&self, row: u32) -> Result<(), CsrError> {
        let range = self.row(row);
        let cols = &self.col[range.clone()];
        for (i, &c) in cols.iter().enumerate() {
            if c >= self.n {
                return Err(CsrError::ColumnOutOfRange {
                    row,
                    col: c,
                    n: self.n,
                });
            }
            if i > 0 && c <= cols[i - 1] {
                return Err(CsrError::UnsortedRow {
                    row,
                    index: range.start + i,
                    col: c,
                });
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::vec;

    #[test]
    fn from_edges_drops_loops_and_duplicates_and_sorts() {
        let g = Csr::from_edges(4, &[(0, 2), (0, 1), (0, 2), (1, 1), (3, 0)], false).unwrap();
        assert_eq!(g.row_ptr, vec![0, 2, 2, 2, 3]);
        assert_eq!(g.col, vec![1, 2, 0]);
        assert_eq!(g.num_edges(), 3);
        assert_eq!(g.degree(0), 2);
        assert_eq!(g.neighbors(3), &[0]);
        assert!(!g.is_symmetric());
        g.check().unwrap();
    }

    #[test]
    fn symmetrize_adds_reverse_edges_once() {
        let g = Csr::from_edges(3, &[(0, 1), (1, 0), (1, 2)], true).unwrap();
        assert_eq!(g.row_ptr, vec![0, 1, 3, 4]);
        assert_eq!(g.col, vec![1, 0, 2, 1]);
        assert!(g.is_symmetric());
        g.check().unwrap();
    }

    #[test]
    fn weighted_duplicates_are_summed() {
        let g = Csr::from_weighted_edges(
            3,
            &[(0, 1, 1.5), (2, 2, 9.0), (0, 1, 2.0), (2, 0, 4.0)],
            true,
        )
        .unwrap();
        assert_eq!(g.col, vec![1, 2, 0, 0]);
        assert_eq!(g.val, Some(vec![3.5, 4.0, 3.5, 4.0]));
        assert_eq!(g.values(1), Some(&[3.5][..]));
        g.check().unwrap();
    }

    #[test]
    fn empty_graphs_are_valid() {
        for n in [0, 5] {
            let g = Csr::from_edges(n, &[], true).unwrap();
            assert_eq!(g.row_ptr, vec![0; n as usize + 1]);
            g.check().unwrap();
        }
    }

    #[test]
    fn out_of_range_edges_are_reported() {
        assert_eq!(
            Csr::from_edges(3, &[(0, 1), (1, 3), (4, 0)], false),
            Err(CsrError::VertexOutOfRange {
                index: 1,
                u: 1,
                v: 3,
                n: 3
            })
        );
    }

    #[test]
    fn check_names_the_broken_invariant() {
        let good = Csr::from_edges(3, &[(0, 1), (0, 2), (2, 1)], false).unwrap();
        let broken = |f: fn(&mut Csr)| {
            let mut g = good.clone();
            f(&mut g);
            g.check().unwrap_err()
        };
        assert_eq!(
            broken(|g| {
                g.row_ptr.pop();
            }),
            CsrError::RowPtrLen {
                len: 3,
                expected: 4
            }
        );
        assert_eq!(
            broken(|g| g.row_ptr[0] = 1),
            CsrError::RowPtrStart { first: 1 }
        );
        assert_eq!(
            broken(|g| g.row_ptr[2] = 1),
            CsrError::RowPtrDecreasing { row: 1 }
        );
        assert_eq!(
            broken(|g| g.row_ptr[3] = 2),
            CsrError::RowPtrEnd { last: 2, len: 3 }
        );
        assert_eq!(
            broken(|g| g.col[2] = 3),
            CsrError::ColumnOutOfRange {
                row: 2,
                col: 3,
                n: 3
            }
        );
        assert_eq!(
            broken(|g| g.col.swap(0, 1)),
            CsrError::UnsortedRow {
                row: 0,
                index: 1,
                col: 1
            }
        );
        assert_eq!(
            broken(|g| g.val = Some(vec![1.0])),
            CsrError::ValLen {
                len: 1,
                expected: 3
            }
        );
    }
}
