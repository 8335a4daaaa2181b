//! The one error type of the library: what can go wrong between data and a PNG file.

use std::path::PathBuf;

use crate::Scale;

/// Why a chart could not be rendered or written.
#[derive(Debug, thiserror::Error)]
pub enum PlotError {
    /// Writing the PNG file failed.
    #[error("cannot write {}: {source}", path.display())]
    Io {
        /// The file being written.
        path: PathBuf,
        /// What the operating system said.
        #[source]
        source: std::io::Error,
    },
    /// The PNG encoder refused the image (it should not; this is reported, not hidden).
    #[error("PNG encoding failed: {0}")]
    Encode(#[from] png::EncodingError),
    /// Nothing drawable: no series, no points left after skipping non-finite ones, no bins.
    #[error("nothing to plot: {what}")]
    EmptyData {
        /// What was empty, e.g. "line chart: no finite points".
        what: String,
    },
    /// A log axis with no positive value to show.
    #[error("{axis} axis: {scale:?} scale needs positive values, {reason}")]
    BadScale {
        /// `"x"` or `"y"`.
        axis: &'static str,
        /// The scale asked for.
        scale: Scale,
        /// What the data has instead, e.g. "but none of 12 values is positive".
        reason: String,
    },
    /// Data that cannot mean anything: a bin with `lo >= hi`, a span past the last row.
    #[error("invalid data: {0}")]
    InvalidData(String),
    /// The image is too small to hold the chart's frame and labels.
    #[error(
        "image {width}x{height} is too small for this chart; use at least {min_width}x{min_height}"
    )]
    TooSmall {
        /// Width asked for.
        width: u32,
        /// Height asked for.
        height: u32,
        /// Smallest width that works.
        min_width: u32,
        /// Smallest height that works.
        min_height: u32,
    },
}
