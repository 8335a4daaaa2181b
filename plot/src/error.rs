//! What can go wrong between a CSV file and a PNG, each error naming the file (and the line or
//! column) to fix: a bad cell in a thousand-line sweep is otherwise hard to find.
//!
//! Command-line mistakes are not here: clap reports those itself (exit code 2).

use std::path::PathBuf;

/// Why a chart could not be made (exit code 1).
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The CSV file could not be read.
    #[error("cannot read {}: {source}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// What the operating system said.
        #[source]
        source: std::io::Error,
    },
    /// The file is not valid CSV (e.g. not UTF-8).
    #[error("{}: {source}", path.display())]
    Csv {
        /// The file.
        path: PathBuf,
        /// What the CSV reader said.
        #[source]
        source: csv::Error,
    },
    /// The file has no header row (it is empty or holds only comments).
    #[error("{}: no header row", path.display())]
    NoHeader {
        /// The file.
        path: PathBuf,
    },
    /// A record with a different number of fields than the header.
    #[error("{}:{line}: {found} fields, but the header has {expected}", path.display())]
    Ragged {
        /// The file.
        path: PathBuf,
        /// Line of the record.
        line: u64,
        /// Fields in the record.
        found: u64,
        /// Fields in the header.
        expected: u64,
    },
    /// A column asked for is not in the header, or is there more than once.
    #[error("{}: {problem} column `{column}`; the columns are: {available}", path.display())]
    Column {
        /// The file.
        path: PathBuf,
        /// `"no"` or `"more than one"`.
        problem: &'static str,
        /// The name asked for.
        column: String,
        /// The header, comma-separated.
        available: String,
    },
    /// A cell that should hold a number does not.
    #[error("{}:{line}: column `{column}`: `{text}` is not {expected}", path.display())]
    BadCell {
        /// The file.
        path: PathBuf,
        /// Line of the record.
        line: u64,
        /// Column name.
        column: String,
        /// The cell.
        text: String,
        /// What it should be, e.g. "a number".
        expected: &'static str,
    },
    /// The data cannot make the chart asked for: no rows left after filtering, no point a log
    /// axis can show, a timeline span that ends before it starts.
    #[error("{0}")]
    Data(String),
    /// The PNG file could not be written.
    #[error("cannot write {}: {source}", path.display())]
    Write {
        /// The file.
        path: PathBuf,
        /// What the encoder or the operating system said.
        #[source]
        source: png::EncodingError,
    },
    /// plotters could not draw the chart.
    #[error("cannot draw {}: {message}", path.display())]
    Draw {
        /// The PNG being written.
        path: PathBuf,
        /// What plotters said.
        message: String,
    },
}

/// This crate's results.
pub type Result<T, E = Error> = std::result::Result<T, E>;
