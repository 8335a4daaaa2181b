//! The errors of the graph inputs: one enum for the caller ([`GraphError`]), with the details
//! of a malformed CSR ([`CsrError`]) and of a malformed Matrix Market file ([`MtxError`]) in
//! enums of their own, so that a caller can match on what went wrong and a person reading the
//! message learns where (the file and line) and what would have been accepted.

use std::io;
use std::path::{Path, PathBuf};
use std::string::String;

use thiserror::Error;

/// Why a graph could not be read, generated or validated.
#[derive(Debug, Error)]
pub enum GraphError {
    /// A file could not be opened.
    #[error("cannot open {}: {source}", path.display())]
    Open {
        /// The file.
        path: PathBuf,
        /// What the operating system said.
        source: io::Error,
    },
    /// Matrix Market input is malformed or uses a variant this reader does not support.
    #[error("{}line {line}: {kind}", at(path.as_deref()))]
    Mtx {
        /// The file, when reading from one (not when reading from a stream).
        path: Option<PathBuf>,
        /// The 1-based line the problem was found on.
        line: usize,
        /// What is wrong there.
        kind: MtxError,
    },
    /// A CSR's arrays are inconsistent, or its input edges are.
    #[error("invalid CSR: {0}")]
    Csr(#[from] CsrError),
    /// A Kronecker graph too large for `u32` vertex ids and row offsets.
    #[error(
        "Kronecker graph of scale {scale} and edge factor {edge_factor} is too large: \
         it needs 2^scale < 2^32 vertices and 2 * edge_factor * 2^scale < 2^32 CSR entries"
    )]
    KroneckerTooLarge {
        /// The requested scale (log2 of the vertex count).
        scale: u32,
        /// The requested edges per vertex.
        edge_factor: u32,
    },
    /// A road-like graph too large for `u32` vertex ids and row offsets.
    #[error(
        "road-like graph of {width} x {height} vertices is too large: it needs fewer than \
         2^32 / 6 vertices (CSR entries have u32 offsets)"
    )]
    RoadTooLarge {
        /// The requested columns.
        width: u64,
        /// The requested rows.
        height: u64,
    },
}

/// `"path:"` when there is a path, for error messages.
fn at(path: Option<&Path>) -> String {
    match path {
        Some(p) => std::format!("{}: ", p.display()),
        None => String::new(),
    }
}

/// What is wrong with a CSR (see [`Csr::check`](super::Csr::check) for the invariants) or with
/// the edges it is built from.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum CsrError {
    /// `row_ptr` does not have `n + 1` entries.
    #[error("row_ptr has {len} entries, expected n + 1 = {expected}")]
    RowPtrLen {
        /// Its length.
        len: usize,
        /// `n + 1`.
        expected: u64,
    },
    /// `row_ptr[0]` is not 0.
    #[error("row_ptr[0] is {first}, expected 0")]
    RowPtrStart {
        /// The value found.
        first: u32,
    },
    /// `row_ptr[row + 1] < row_ptr[row]`.
    #[error("row_ptr decreases after row {row}")]
    RowPtrDecreasing {
        /// The row whose end lies before its start.
        row: u32,
    },
    /// `row_ptr[n]` is not the number of stored entries.
    #[error("row_ptr[n] is {last}, but col has {len} entries")]
    RowPtrEnd {
        /// `row_ptr[n]`.
        last: u32,
        /// `col.len()`.
        len: usize,
    },
    /// A column index is not a vertex.
    #[error("row {row} has column {col}, outside 0..{n}")]
    ColumnOutOfRange {
        /// The row holding it.
        row: u32,
        /// The column index.
        col: u32,
        /// The vertex count.
        n: u32,
    },
    /// A row's columns are not strictly increasing (unsorted, or a duplicate entry).
    #[error("row {row} is not strictly increasing at entry {index} (column {col})")]
    UnsortedRow {
        /// The row.
        row: u32,
        /// The index into `col` of the first entry out of order.
        index: usize,
        /// Its column.
        col: u32,
    },
    /// `val` is present but not as long as `col`.
    #[error("val has {len} entries, but col has {expected}")]
    ValLen {
        /// `val.len()`.
        len: usize,
        /// `col.len()`.
        expected: usize,
    },
    /// An input edge names a vertex that does not exist.
    #[error("edge {index} ({u}, {v}) has an endpoint outside 0..{n}")]
    VertexOutOfRange {
        /// The edge's index in the input.
        index: usize,
        /// Its source.
        u: u32,
        /// Its target.
        v: u32,
        /// The vertex count.
        n: u32,
    },
    /// More stored entries than a `u32` row offset can address.
    #[error("{entries} entries do not fit u32 row offsets (at most {})", u32::MAX)]
    TooManyEntries {
        /// The number of entries that would be stored (before duplicates are removed).
        entries: u64,
    },
}

/// What is wrong on one line of a Matrix Market file.
///
/// Every variant that quotes the input quotes at most the first few dozen characters of it,
/// escaped, so that a binary or enormous line makes a short, printable message.
#[derive(Debug, Error)]
pub enum MtxError {
    /// The line could not be read.
    #[error("read failed: {0}")]
    Io(#[from] io::Error),
    /// The input has no bytes at all.
    #[error(
        "the input is empty: a Matrix Market file starts with the banner \
         `%%MatrixMarket matrix coordinate <field> <symmetry>`"
    )]
    Empty,
    /// The input starts with gzip's magic bytes.
    #[error(
        "this is gzip-compressed data, not Matrix Market text: decompress it first \
         (the SuiteSparse collection ships `.tar.gz` archives with the `.mtx` inside)"
    )]
    Compressed,
    /// The line is not UTF-8 text (comment lines may be anything; the others are ASCII).
    #[error(
        "byte {column} of the line is not UTF-8 text: Matrix Market files are ASCII text; \
         is this the right file?"
    )]
    NotUtf8 {
        /// The 1-based byte offset of the first invalid byte in the line.
        column: usize,
    },
    /// The line is longer than any line of a Matrix Market file needs to be.
    #[error(
        "the line is longer than {limit} bytes, far more than a Matrix Market line needs; \
         is this the right file?"
    )]
    LineTooLong {
        /// The longest line accepted, in bytes.
        limit: usize,
    },
    /// The first line is not a Matrix Market banner.
    #[error(
        "expected the banner `%%MatrixMarket matrix coordinate <field> <symmetry>` as the \
         first line, found `{0}`"
    )]
    BadBanner(String),
    /// The banner names a variant this reader does not read.
    #[error("unsupported {what} `{found}` (this reader supports {supported})")]
    Unsupported {
        /// Which banner word: "object", "format", "field" or "symmetry".
        what: &'static str,
        /// The word found.
        found: String,
        /// The words accepted in its place.
        supported: &'static str,
    },
    /// The input ends before the size line.
    #[error("the input ends before the size line `rows cols entries`")]
    MissingSize,
    /// The size line is malformed.
    #[error("expected the size line `rows cols entries`, three non-negative integers, found `{0}`")]
    BadSize(String),
    /// The matrix is not square, so it is not a graph's adjacency matrix.
    #[error("the matrix is {rows} x {cols}; a graph needs a square matrix")]
    NotSquare {
        /// Its rows.
        rows: u64,
        /// Its columns.
        cols: u64,
    },
    /// More rows than the read allows ([`Limits::max_vertices`](super::mtx::Limits)).
    #[error("the matrix has {rows} rows, more than {}", over_limit(*max, "vertices", "max_vertices"))]
    TooManyRows {
        /// Its rows.
        rows: u64,
        /// The most vertices allowed.
        max: u32,
    },
    /// More entries declared than the read allows ([`Limits::max_entries`](super::mtx::Limits)).
    #[error(
        "the size line declares {declared} entries, {stored} to store (a symmetric file's \
         entries are stored both ways), more than {}",
        over_limit(*max, "entries", "max_entries")
    )]
    TooManyEntries {
        /// The entries the size line declares.
        declared: u64,
        /// The entries the CSR would store before duplicates are merged: `declared`, twice
        /// that for a symmetric file.
        stored: u64,
        /// The most stored entries allowed.
        max: u32,
    },
    /// An entry line has the wrong number of words.
    #[error("expected an entry `{expected}`, found `{found}`")]
    BadEntry {
        /// The entry's shape for this field: `row col` or `row col value`.
        expected: &'static str,
        /// The line.
        found: String,
    },
    /// An entry's index is not a non-negative integer that fits `u64` (a negative, fractional
    /// or garbage word, or an absurdly long one).
    #[error("the {what} index `{found}` is not an integer in 1..={n} (indices start at 1)")]
    BadIndex {
        /// "row" or "column".
        what: &'static str,
        /// The word.
        found: String,
        /// The matrix dimension.
        n: u64,
    },
    /// An entry's index is 0 or beyond the matrix (indices are 1-based).
    #[error("entry ({row}, {col}) is outside the 1-based range 1..={n}")]
    IndexOutOfRange {
        /// Its row, as written.
        row: u64,
        /// Its column, as written.
        col: u64,
        /// The matrix dimension.
        n: u64,
    },
    /// An entry's value is not a number of the banner's field.
    #[error("the value `{found}` is not {expected} (the banner's field is `{field}`)")]
    BadValue {
        /// The word.
        found: String,
        /// "a real number" or "an integer".
        expected: &'static str,
        /// The banner's field word, lowercase.
        field: &'static str,
    },
    /// An entry's value is NaN, infinite, or beyond `f32`'s range.
    #[error(
        "the value `{found}` is not a finite f32: graph weights must be finite numbers of \
         magnitude below 3.4e38"
    )]
    NonFiniteValue {
        /// The word.
        found: String,
    },
    /// Duplicate entries whose sum overflows `f32`, reported on the line of the last of them.
    #[error(
        "the entries at ({row}, {col}) sum beyond f32's range (duplicate entries are summed, \
         and in a symmetric file so are (i, j) and (j, i)); this line holds the last of them"
    )]
    SumNotFinite {
        /// The row, 1-based as in the file.
        row: u64,
        /// The column, 1-based as in the file.
        col: u64,
    },
    /// The file ends before the number of entries the size line promised.
    #[error(
        "the size line promised {expected} entries, the input ends after {found}; \
         is the file truncated?"
    )]
    MissingEntries {
        /// Promised.
        expected: u64,
        /// Present.
        found: u64,
    },
    /// An entry beyond the number the size line promised.
    #[error(
        "more entries than the {expected} the size line promised; is the size line wrong, \
         or are two files joined?"
    )]
    ExtraEntry {
        /// Promised.
        expected: u64,
    },
}

/// The end of a message about a size over a [`Limits`](super::mtx::Limits) field: what the
/// types allow when the limit is theirs, else how to raise it.
fn over_limit(max: u32, what: &str, field: &str) -> String {
    if max == u32::MAX {
        std::format!("the {max} {what} gtap's u32 CSR can hold")
    } else {
        std::format!("the {max} {what} this read allows (raise `Limits::{field}` to read it)")
    }
}
