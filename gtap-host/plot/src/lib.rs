//! PNG charts for gtap's benchmark sweeps and profiler timelines.

mod color;
mod draw;
mod encode;
mod error;
pub mod font;
mod image;
mod label;
mod marker;
mod scale;

pub use color::{Rgb, ramp, series_color};
pub use draw::{Point, Stroke, line, polyline};
pub use error::PlotError;
pub use image::{Image, Rect};
pub use marker::{Marker, draw_marker};
pub use scale::{Axis, AxisOptions, Scale, Tick};
