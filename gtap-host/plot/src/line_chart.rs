//! Line charts: one polyline with markers per series, for benchmark sweeps (time against size,
//! speedup against cores), usually on log axes.

use crate::PlotError;
use crate::color::{BACKGROUND, series_color};
use crate::draw::{Stroke, polyline};
use crate::frame::{Extra, Frame, Labels, Style};
use crate::image::Image;
use crate::legend::{self, Entry};
use crate::marker::{Marker, draw_marker};
use crate::scale::{Axis, AxisOptions, Scale};

/// A named sequence of points, drawn in the order given (sort by x for a sweep).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Series {
    /// Legend text; series with empty names are left out of the legend.
    pub name: String,
    /// `(x, y)` points. Non-finite points, and non-positive ones on a log axis, are skipped;
    /// the line joins the points on either side of a skipped one.
    pub points: Vec<(f64, f64)>,
}

impl Series {
    /// A series from a name and points.
    pub fn new(name: impl Into<String>, points: Vec<(f64, f64)>) -> Series {
        Series {
            name: name.into(),
            points,
        }
    }
}

/// A chart of one or more series against shared x and y axes.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct LineChart {
    /// Title above the chart; empty for none.
    pub title: String,
    /// Label under the x axis; empty for none.
    pub x_label: String,
    /// Label beside the y axis, reading upwards; empty for none.
    pub y_label: String,
    /// Scale of the x axis.
    pub x_scale: Scale,
    /// Scale of the y axis.
    pub y_scale: Scale,
    /// The data; series `i` gets palette color `i` and marker `i` (both repeat).
    pub series: Vec<Series>,
}

impl LineChart {
    /// The points of each series that both scales accept.
    fn drawable(&self) -> Vec<Vec<(f64, f64)>> {
        let ok = |&(x, y): &(f64, f64)| self.x_scale.accepts(x) && self.y_scale.accepts(y);
        self.series
            .iter()
            .map(|s| s.points.iter().copied().filter(ok).collect())
            .collect()
    }

    /// Lays the chart out without drawing it, with `right` pixels kept free beside the plot
    /// area (for a legend that fits nowhere inside).
    pub(crate) fn layout(
        &self,
        width: u32,
        height: u32,
        right: i32,
    ) -> Result<(Frame, Axis, Axis), PlotError> {
        let drawable = self.drawable();
        if drawable.iter().all(Vec::is_empty) {
            // Say which axis is to blame when points exist but a log scale rejects them all.
            let all = || self.series.iter().flat_map(|s| s.points.iter().copied());
            let finite: Vec<(f64, f64)> = all()
                .filter(|(x, y)| x.is_finite() && y.is_finite())
                .collect();
            let opts = AxisOptions::default();
            Axis::fit(self.x_scale, finite.iter().map(|p| p.0), "x", opts)?;
            Axis::fit(self.y_scale, finite.iter().map(|p| p.1), "y", opts)?;
            return Err(PlotError::EmptyData {
                what: "line chart: no point has both coordinates showable on the chosen scales"
                    .into(),
            });
        }
        let xs = drawable.iter().flatten().map(|p| p.0);
        let ys = drawable.iter().flatten().map(|p| p.1);
        let labels = self.labels();
        let inset = marker_radius(Style::for_size(width, height).text) as i32 + 3;
        let extra = Extra {
            inset,
            right,
            ..Default::default()
        };
        Frame::layout(
            width,
            height,
            labels,
            extra,
            |style, len| {
                let opts = AxisOptions {
                    target_ticks: style.y_ticks(len),
                    // The data's own range: the inset keeps end markers off the frame, and
                    // widening to a round tick can waste a third of a short axis.
                    tight: self.y_scale == Scale::Linear,
                    ..Default::default()
                };
                Axis::fit(self.y_scale, ys, "y", opts)
            },
            |style, len| {
                let opts = AxisOptions {
                    target_ticks: style.x_ticks(len),
                    // The data's own range: the inset keeps end markers off the frame, and
                    // widening to a round tick can waste a third of a short axis.
                    tight: self.x_scale == Scale::Linear,
                    ..Default::default()
                };
                Axis::fit(self.x_scale, xs, "x", opts)
            },
        )
    }

    fn labels(&self) -> Labels<'_> {
        Labels {
            title: &self.title,
            x: &self.x_label,
            y: &self.y_label,
        }
    }

    /// The legend rows: every series with a name.
    fn entries(&self) -> Vec<Entry<'_>> {
        let named = self
            .series
            .iter()
            .enumerate()
            .filter(|(_, s)| !s.name.is_empty());
        named
            .map(|(i, s)| Entry {
                name: &s.name,
                color: series_color(i),
                marker: Marker::for_series(i),
            })
            .collect()
    }

    /// Draws the chart on a `width` x `height` white image.
    pub fn render(&self, width: u32, height: u32) -> Result<Image, PlotError> {
        let entries = self.entries();
        let (mut frame, mut x, mut y) = self.layout(width, height, 0)?;
        let mut paths = self.pixel_paths(&frame, &x, &y);
        let box_size = legend::size(&frame.style, &entries);
        let (mut legend_box, hidden) = best_corner_for(&frame, box_size, &paths);
        if hidden > 0 && !entries.is_empty() {
            // Every corner hides data: put the legend beside the plot area if that leaves a
            // usable plot, else keep the least bad corner.
            if let Ok(beside) = self.layout(width, height, box_size.0 + frame.style.pad) {
                (frame, x, y) = beside;
                paths = self.pixel_paths(&frame, &x, &y);
                let p = frame.plot;
                let left = p.x1 + frame.style.line + frame.style.pad;
                legend_box = crate::image::Rect::new(left, p.y0, box_size.0, box_size.1);
            }
        }
        let mut img = Image::new(width, height, BACKGROUND);
        frame.draw_grid(&mut img, &x, &y);
        let s = frame.style.text;
        let (line_w, r) = (line_width(s), marker_radius(s));
        let old_clip = img.set_clip(Some(frame.plot));
        for (i, px) in paths.iter().enumerate() {
            let (color, marker) = (series_color(i), Marker::for_series(i));
            polyline(&mut img, px, &Stroke::solid(color, line_w));
            for &(cx, cy) in px {
                // A ring of background around each marker keeps it readable where lines cross.
                draw_marker(&mut img, marker, cx, cy, r + 1.5, BACKGROUND);
                draw_marker(&mut img, marker, cx, cy, r, color);
            }
        }
        img.set_clip(Some(old_clip));
        frame.draw_axes(&mut img, &x, &y, self.labels());
        if !entries.is_empty() {
            legend::draw(&mut img, &frame.style, legend_box, &entries, line_w, r);
        }
        Ok(img)
    }

    /// Each series' drawable points in pixel coordinates.
    fn pixel_paths(&self, frame: &Frame, x: &Axis, y: &Axis) -> Vec<Vec<(f32, f32)>> {
        let to_px = |&(a, b): &(f64, f64)| frame.point(x, y, a, b);
        self.drawable()
            .iter()
            .map(|points| points.iter().filter_map(to_px).collect())
            .collect()
    }
}

/// The legend corner hiding the fewest line and marker pixels of `paths`.
fn best_corner_for(
    frame: &Frame,
    size: (i32, i32),
    paths: &[Vec<(f32, f32)>],
) -> (crate::image::Rect, usize) {
    let mut avoid = Vec::new();
    for px in paths {
        sample_path(px, 3.0, &mut avoid);
    }
    legend::best_corner(frame, size, &avoid)
}

/// Line width in pixels for text scale `s`.
fn line_width(s: u32) -> f32 {
    1.0 + 0.75 * s as f32
}

/// Marker radius in pixels for text scale `s`.
fn marker_radius(s: u32) -> f32 {
    1.5 + 1.5 * s as f32
}

/// Appends points every `step` pixels along the polyline `px` (and its vertices) to `out`.
fn sample_path(px: &[(f32, f32)], step: f32, out: &mut Vec<(f32, f32)>) {
    out.extend_from_slice(px);
    for w in px.windows(2) {
        let (a, b) = (w[0], w[1]);
        let len = ((b.0 - a.0).powi(2) + (b.1 - a.1).powi(2)).sqrt();
        let n = (len / step) as usize;
        for k in 1..n {
            let t = k as f32 / n as f32;
            out.push((a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Rgb;
    use crate::color::{AXIS, PALETTE};

    fn chart() -> LineChart {
        LineChart {
            title: "fib(n), time per task".into(),
            x_label: "n".into(),
            y_label: "time (ns)".into(),
            x_scale: Scale::Log2,
            y_scale: Scale::Log10,
            series: vec![
                Series::new("gpu", vec![(1.0, 10.0), (4.0, 100.0), (16.0, 5000.0)]),
                Series::new("cpu", vec![(1.0, 3.0), (4.0, 30.0), (16.0, 300.0)]),
            ],
        }
    }

    fn count(img: &Image, c: Rgb) -> usize {
        img.as_bytes()
            .chunks(3)
            .filter(|p| *p == [c.0, c.1, c.2])
            .count()
    }

    #[test]
    fn axes_are_where_the_layout_says() {
        let c = chart();
        let img = c.render(640, 420).unwrap();
        let (frame, _, _) = c.layout(640, 420, 0).unwrap();
        let p = frame.plot;
        let mid_y = ((p.y0 + p.y1) / 2) as u32;
        let mid_x = ((p.x0 + p.x1) / 2) as u32;
        // Left and bottom axis lines, just outside the plot area.
        assert_eq!(img.pixel(p.x0 as u32 - 1, mid_y), Some(AXIS));
        assert_eq!(img.pixel(mid_x, p.y1 as u32), Some(AXIS));
        assert_eq!(img.pixel(p.x1 as u32, mid_y), Some(AXIS));
        // Nothing of the data outside the frame: the image corners are background.
        assert_eq!(img.pixel(0, 0), Some(BACKGROUND));
        assert_eq!(img.pixel(639, 419), Some(BACKGROUND));
    }

    #[test]
    fn series_colors_are_present() {
        let img = chart().render(640, 420).unwrap();
        assert!(count(&img, PALETTE[0]) > 50);
        assert!(count(&img, PALETTE[1]) > 50);
        assert_eq!(count(&img, PALETTE[2]), 0);
    }

    #[test]
    fn first_point_lands_at_the_low_corner() {
        let c = chart();
        let (frame, x, y) = c.layout(640, 420, 0).unwrap();
        // x range 1..16 (powers of 2), y range 3..5000 (the data, already at 1..9 x 10^k):
        // the cpu series starts in the low left corner, the gpu series at log10(10 / 3) of the
        // way up.
        let (px, py) = frame.point(&x, &y, 1.0, 3.0).unwrap();
        assert_eq!((px, py), (frame.x_at(0.0), frame.y_at(0.0)));
        let (gx, gy) = frame.point(&x, &y, 1.0, 10.0).unwrap();
        let up = (10f64 / 3.0).log10() / (5000f64 / 3.0).log10();
        assert!((gy - frame.y_at(up)).abs() < 0.01);
        let img = c.render(640, 420).unwrap();
        assert_eq!(img.pixel(px as u32, py as u32 - 1), Some(PALETTE[1]));
        assert_eq!(img.pixel(gx as u32, gy as u32), Some(PALETTE[0]));
    }

    #[test]
    fn bad_points_are_skipped_and_all_bad_is_an_error() {
        let mut c = chart();
        c.series[0].points.push((f64::NAN, 1.0));
        c.series[0].points.push((-4.0, 1.0));
        c.series[1].points.push((8.0, 0.0));
        assert!(c.render(500, 300).is_ok());
        c.series = vec![Series::new("neg", vec![(1.0, -1.0), (2.0, 0.0)])];
        assert!(matches!(
            c.render(500, 300),
            Err(PlotError::BadScale {
                axis: "y",
                scale: Scale::Log10,
                ..
            })
        ));
        c.series = vec![Series::new("nan", vec![(f64::NAN, 1.0)])];
        assert!(matches!(
            c.render(500, 300),
            Err(PlotError::EmptyData { .. })
        ));
        c.series.clear();
        assert!(matches!(
            c.render(500, 300),
            Err(PlotError::EmptyData { .. })
        ));
    }

    #[test]
    fn too_small_is_an_error() {
        assert!(matches!(
            chart().render(60, 40),
            Err(PlotError::TooSmall { .. })
        ));
    }
}
