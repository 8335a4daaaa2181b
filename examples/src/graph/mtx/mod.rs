//! A reader for the Matrix Market coordinate format, the format of the SuiteSparse Matrix
//! Collection (and of the graphs GAP, Gunrock and the GTaP paper's peers benchmark on).
//!
//! ```text
//! %%MatrixMarket matrix coordinate pattern symmetric
//! % comments
//! 3 3 2          <- rows, columns, entries
//! 2 1            <- row, column (1-based), and a value unless the field is `pattern`
//! 3 2
//! ```
//!
//! It reads square `coordinate` matrices with field `pattern`, `real` or `integer` and
//! symmetry `general` or `symmetric`; anything else in the banner is refused with an error
//! that names it. A `symmetric` file stores one triangle: each entry is also read mirrored.
//! The matrix becomes a [`Csr`] as a graph would: a `general` matrix as a directed graph, the
//! diagonal dropped and duplicate entries merged (values summed), as [`Csr::from_edges`]
//! does. The CPU references and the GPU programs read the same `Csr`, so they agree on what
//! the matrix is.
//!
//! # Untrusted input
//! Matrix Market files are downloaded, so the reader treats its input as hostile: any bytes
//! give a `Csr` or a [`GraphError::Mtx`] naming the line and what is wrong there, never a
//! panic. Memory follows what the input holds, not what it claims: the entry list starts at
//! a small capacity and grows as entries arrive (never past the declared count, since an
//! entry beyond it is an error), a line is read only up to [`MAX_LINE`] bytes, and the size
//! line is checked against [`Limits`] before anything is built. The one allocation the header
//! alone decides is the CSR's `n + 1` row offsets, made once the whole file has been read and
//! checked; [`Limits::max_vertices`] bounds it for callers that need a tighter bound than the
//! `u32` vertex ids give. Values must be finite `f32`s, duplicates' sums included, so that
//! the SpMV references compare numbers, not NaNs.
//!
//! Specification: Boisvert, Pozo and Remington, *The Matrix Market Exchange Formats: Initial
//! Design*, NIST IR 5935, 1996.

mod lines;
mod parse;
#[cfg(test)]
mod tests;

use std::fs::File;
use std::io::{BufRead, BufReader};
use std::path::Path;

use rayon::prelude::*;

use super::csr::Csr;
use super::error::{GraphError, MtxError};
use lines::Lines;
pub use lines::MAX_LINE;
use parse::{Entries, Parsed};

/// Bounds on what a file may declare, checked against its size line before anything is
/// built.
///
/// [`Limits::default()`] is [`Limits::MAX`], what gtap's `u32` CSR can hold. A caller that
/// reads files from unknown sources on a machine with less memory can lower them: the CSR
/// takes 4 bytes per vertex however few entries the file has, and 4 bytes (8 with values) per
/// stored entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// The most vertices (rows) a file may declare.
    pub max_vertices: u32,
    /// The most entries the CSR may store before duplicates are merged: the declared entries,
    /// twice that for a `symmetric` file.
    pub max_entries: u32,
}

impl Limits {
    /// What the types hold: `u32` vertex ids and `u32` row offsets.
    pub const MAX: Limits = Limits {
        max_vertices: u32::MAX,
        max_entries: u32::MAX,
    };
}

impl Default for Limits {
    fn default() -> Limits {
        Limits::MAX
    }
}

/// Reads a Matrix Market matrix from `input`, within [`Limits::MAX`].
///
/// # Errors
/// [`GraphError::Mtx`] with the line and what is wrong there.
pub fn read(input: impl BufRead) -> Result<Csr, GraphError> {
    read_with(input, Limits::MAX)
}

/// Reads a Matrix Market matrix held in memory, as [`read`] does.
///
/// # Errors
/// As [`read`].
pub fn read_str(text: &str) -> Result<Csr, GraphError> {
    read(text.as_bytes())
}

/// Reads a Matrix Market matrix from bytes, as [`read`] does (bytes that are not UTF-8 are an
/// error outside comment lines).
///
/// # Errors
/// As [`read`].
pub fn read_bytes(bytes: &[u8]) -> Result<Csr, GraphError> {
    read(bytes)
}

/// Reads a Matrix Market matrix from `input`, refusing a size line beyond `limits`.
///
/// # Errors
/// [`GraphError::Mtx`] with the line and what is wrong there.
pub fn read_with(input: impl BufRead, limits: Limits) -> Result<Csr, GraphError> {
    let mut lines = Lines::new(input);
    let parsed = parse::parse(&mut lines, limits).map_err(|kind| GraphError::Mtx {
        path: None,
        line: lines.number(),
        kind,
    })?;
    build(parsed)
}

/// Reads a Matrix Market file, within [`Limits::MAX`].
///
/// # Errors
/// [`GraphError::Open`] if the file cannot be opened; otherwise as [`read`], with the path in
/// the error.
pub fn read_path(path: impl AsRef<Path>) -> Result<Csr, GraphError> {
    read_path_with(path, Limits::MAX)
}

/// Reads a Matrix Market file, refusing a size line beyond `limits`.
///
/// # Errors
/// As [`read_path`].
pub fn read_path_with(path: impl AsRef<Path>, limits: Limits) -> Result<Csr, GraphError> {
    let path = path.as_ref();
    let file = File::open(path).map_err(|source| GraphError::Open {
        path: path.to_path_buf(),
        source,
    })?;
    read_with(BufReader::new(file), limits).map_err(|e| match e {
        GraphError::Mtx { line, kind, .. } => GraphError::Mtx {
            path: Some(path.to_path_buf()),
            line,
            kind,
        },
        other => other,
    })
}

/// The CSR of a parsed file, with its values checked for overflowing sums.
fn build(parsed: Parsed) -> Result<Csr, GraphError> {
    let Parsed {
        n,
        symmetric,
        entries,
        lines,
    } = parsed;
    let edges = match entries {
        Entries::Pattern(edges) => return Ok(Csr::from_edges(n, &edges, symmetric)?),
        Entries::Valued(edges) => edges,
    };
    let g = Csr::from_weighted_edges(n, &edges, symmetric)?;
    let val = g.val.as_deref().unwrap_or_default();
    let Some(bad) = val.par_iter().position_first(|x| !x.is_finite()) else {
        return Ok(g);
    };
    // Every value read is finite, so at least two entries were summed here: report the last
    // of them, where the sum was complete.
    let row = g.row_ptr.partition_point(|&p| p as usize <= bad) - 1;
    let (u, v) = (row as u32, g.col[bad]);
    let last = edges
        .iter()
        .rposition(|&(a, b, _)| (a, b) == (u, v) || (symmetric && (a, b) == (v, u)))
        .unwrap_or(edges.len().saturating_sub(1));
    Err(GraphError::Mtx {
        path: None,
        line: lines.line_of(last),
        kind: MtxError::SumNotFinite {
            row: u as u64 + 1,
            col: v as u64 + 1,
        },
    })
}
