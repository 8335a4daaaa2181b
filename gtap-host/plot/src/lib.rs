//! PNG charts for gtap's benchmark sweeps and profiler timelines, with no system fonts, no C
//! libraries and no drawing crates: CI machines have none of them, and a chart needs little.
//!
//! ```
//! use gtap_plot::{LineChart, Scale, Series};
//!
//! let chart = LineChart {
//!     title: "fib(n)".into(),
//!     x_label: "tasks".into(),
//!     y_label: "time (ms)".into(),
//!     x_scale: Scale::Log2,
//!     y_scale: Scale::Log10,
//!     series: vec![
//!         Series::new("gpu", vec![(1024.0, 0.02), (1048576.0, 0.3), (1073741824.0, 85.0)]),
//!         Series::new("cpu", vec![(1024.0, 0.005), (1048576.0, 0.5), (1073741824.0, 140.0)]),
//!     ],
//! };
//! let image = chart.render(900, 600)?;
//! let png: Vec<u8> = image.encode_png()?; // or image.write_png("fib.png")?
//! assert!(png.starts_with(b"\x89PNG"));
//! # Ok::<(), gtap_plot::PlotError>(())
//! ```
//!
//! The `gtap-plot` binary draws the same charts from CSV files (`gtap-plot --help`).
//!
//! # Layers
//!
//! | layer | files | what |
//! |---|---|---|
//! | raster | `image.rs`, `draw.rs`, `marker.rs`, `encode.rs` | RGB image with a clip rectangle; thick anti-aliased (dashed) lines, markers, PNG |
//! | text | [`font`] | a hand-drawn 5x9 bitmap font for printable ASCII, scaled 1-3x, horizontal or rotated |
//! | axes | `scale.rs`, `label.rs`, `frame.rs`, `legend.rs` | ranges and 1-2-5 or power ticks, short labels (`1.5k`, `8Ki`, `1e-3`), margins, grid, legend |
//! | charts | `line_chart.rs`, `histogram.rs`, `timeline.rs` | [`LineChart`], [`Histogram`], [`Timeline`] |
//! | data | [`csv`] | CSV tables with file:line errors, filters, grouping (for the binary) |
//!
//! Rendering is deterministic: the same chart gives the same bytes on every machine, so PNGs
//! can be compared in tests.

pub mod color;
pub mod csv;
mod draw;
mod encode;
mod error;
pub mod font;
mod frame;
mod histogram;
mod image;
mod label;
mod legend;
mod line_chart;
mod marker;
mod scale;
mod timeline;

pub use color::{Rgb, ramp, series_color};
pub use draw::{Point, Stroke, line, polyline};
pub use error::PlotError;
pub use histogram::Histogram;
pub use image::{Image, Rect};
pub use line_chart::{LineChart, Series};
pub use marker::{Marker, draw_marker};
pub use scale::{Axis, AxisOptions, Scale, Tick};
pub use timeline::{Span, Timeline};
