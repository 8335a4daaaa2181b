//! Per-row timelines: one horizontal strip per warp, shaded by how busy it was, for the kind of
//! per-warp GPU timeline that GTaP's paper shows in its Fig. 6.
//!
//! A chart has far fewer pixels than a profile has events, so spans are first accumulated into a
//! grid of one cell per pixel column and per *row group* (all rows when they fit, otherwise the
//! rows that share a pixel row). A cell keeps the busy time it saw and the time-weighted sum of
//! the span values; its color is the ramp color of the mean value, faded towards the background
//! by the share of the cell's time that was busy. Nothing is dropped: a 10 ns span in a 1 us
//! pixel still tints it.

use crate::PlotError;
use crate::color::{AXIS, BACKGROUND, TEXT, ramp};
use crate::font::{self, ASCENT};
use crate::frame::{Extra, Frame, Labels};
use crate::image::{Image, Rect};
use crate::scale::{Axis, AxisOptions, Scale};

/// A busy interval of one row.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Span {
    /// Row (e.g. warp) index, below [`Timeline::rows`].
    pub row: u32,
    /// Start time in ns (same clock as [`Timeline::t0`]).
    pub start: u64,
    /// End time in ns, `>= start`.
    pub end: u64,
    /// How busy, `0..=1` (e.g. busy lanes / 32); sets the color.
    pub value: f32,
}

/// A chart of [`Span`]s over time, one strip per row, row 0 at the top.
#[derive(Debug, Clone, PartialEq)]
pub struct Timeline {
    /// Title above the chart; empty for none.
    pub title: String,
    /// What a row is, for the y axis label (e.g. `"warp"`).
    pub row_label: String,
    /// What a span's value is, for the color bar (e.g. `"busy lanes"`).
    pub value_label: String,
    /// What value 1 means in the color bar's labels (e.g. 32.0 for lanes of a warp); 1.0 shows
    /// the values as they are.
    pub value_max: f64,
    /// Number of rows.
    pub rows: u32,
    /// Start of the time axis, ns.
    pub t0: u64,
    /// End of the time axis, ns, `> t0`; spans are cut to `t0..t1`.
    pub t1: u64,
    /// The busy intervals.
    pub spans: Vec<Span>,
}

impl Default for Timeline {
    fn default() -> Self {
        Timeline {
            title: String::new(),
            row_label: String::new(),
            value_label: String::new(),
            value_max: 1.0,
            rows: 0,
            t0: 0,
            t1: 0,
            spans: Vec::new(),
        }
    }
}

/// A time unit for the axis, so that the axis spans 1 to 1000 of them: divisor from ns and
/// name.
fn time_unit(span_ns: u64) -> (f64, &'static str) {
    match span_ns {
        0..1_000 => (1.0, "ns"),
        1_000..1_000_000 => (1e3, "us"),
        1_000_000..1_000_000_000 => (1e6, "ms"),
        _ => (1e9, "s"),
    }
}

impl Timeline {
    fn check(&self) -> Result<(), PlotError> {
        if self.spans.is_empty() || self.rows == 0 {
            return Err(PlotError::EmptyData {
                what: "timeline: no spans or no rows".into(),
            });
        }
        if self.t1 <= self.t0 {
            return Err(PlotError::InvalidData(format!(
                "timeline: t1 = {} is not after t0 = {}",
                self.t1, self.t0
            )));
        }
        for (i, s) in self.spans.iter().enumerate() {
            if s.row >= self.rows {
                return Err(PlotError::InvalidData(format!(
                    "timeline span {i}: row {} but there are {} rows",
                    s.row, self.rows
                )));
            }
            if s.end < s.start || !s.value.is_finite() {
                return Err(PlotError::InvalidData(format!(
                    "timeline span {i}: {}..{} ns with value {}",
                    s.start, s.end, s.value
                )));
            }
        }
        Ok(())
    }

    /// The x axis label, naming the unit.
    fn x_label(&self) -> String {
        format!("time since t0 ({})", time_unit(self.t1 - self.t0).1)
    }

    /// The y axis label, saying how many rows share a pixel row when they do.
    fn y_label(&self, plot_h: i32) -> String {
        let per_px = self.rows.div_ceil(plot_h.max(1) as u32);
        if per_px > 1 {
            format!("{} (up to {per_px} per pixel row)", self.row_label)
        } else {
            self.row_label.clone()
        }
    }

    /// Width of the color bar and its labels, to the right of the plot area.
    fn bar_width(s: u32) -> i32 {
        (10 * s + 4) as i32
    }

    fn bar_axis(&self) -> Result<Axis, PlotError> {
        let max = if self.value_max.is_finite() && self.value_max > 0.0 {
            self.value_max
        } else {
            1.0
        };
        let opts = AxisOptions {
            target_ticks: 4,
            tight: true,
            integer_steps: false,
        };
        Axis::with_options(Scale::Linear, 0.0, max, opts)
    }

    pub(crate) fn layout(
        &self,
        width: u32,
        height: u32,
        y_label: &str,
    ) -> Result<(Frame, Axis, Axis), PlotError> {
        self.check()?;
        let style = crate::frame::Style::for_size(width, height);
        let s = style.text;
        let bar = self.bar_axis()?;
        let bar_labels = bar.ticks().iter().filter_map(|t| t.label.as_deref());
        let bar_label_w = bar_labels
            .map(|l| font::text_width(l, s) as i32)
            .max()
            .unwrap_or(0);
        let value_label = if self.value_label.is_empty() {
            0
        } else {
            font::text_height(s) as i32 + style.pad
        };
        let right = style.pad
            + Self::bar_width(s)
            + style.tick
            + style.pad / 2
            + bar_label_w
            + style.pad
            + value_label;
        let extra = Extra {
            right,
            inset: 0,
            y_down: true,
        };
        let x_label = self.x_label();
        let labels = Labels {
            title: &self.title,
            x: &x_label,
            y: y_label,
        };
        let span_ns = self.t1 - self.t0;
        let (div, _) = time_unit(span_ns);
        let rows = self.rows;
        Frame::layout(
            width,
            height,
            labels,
            extra,
            |style, len| {
                // Row k is centered on k: the range -0.5..rows-0.5 puts each label mid-strip.
                let target_ticks = style.y_ticks(len).min(rows as usize);
                let opts = AxisOptions {
                    target_ticks,
                    tight: true,
                    integer_steps: true,
                };
                Axis::with_options(Scale::Linear, -0.5, f64::from(rows) - 0.5, opts)
            },
            |style, len| {
                let opts = AxisOptions {
                    target_ticks: style.x_ticks(len),
                    tight: true,
                    ..Default::default()
                };
                Axis::with_options(Scale::Linear, 0.0, span_ns as f64 / div, opts)
            },
        )
    }

    /// Draws the timeline on a `width` x `height` white image.
    pub fn render(&self, width: u32, height: u32) -> Result<Image, PlotError> {
        // The y label depends on the plot height, which depends a little on the label: lay out
        // with the longer label so that it surely fits.
        let (probe, _, _) = self.layout(width, height, &self.y_label(1))?;
        let y_label = self.y_label(probe.plot.height());
        let (frame, x, y) = self.layout(width, height, &y_label)?;
        let mut img = Image::new(width, height, BACKGROUND);
        self.draw_strips(&mut img, frame.plot);
        frame.draw_axes(
            &mut img,
            &x,
            &y,
            Labels {
                title: &self.title,
                x: &self.x_label(),
                y: &y_label,
            },
        );
        self.draw_color_bar(&mut img, &frame)?;
        Ok(img)
    }

    /// Accumulates the spans into cells and paints them.
    fn draw_strips(&self, img: &mut Image, plot: Rect) {
        let (w, h) = (plot.width() as usize, plot.height() as usize);
        let rows = self.rows as usize;
        let groups = rows.min(h);
        let group_of = |row: usize| row * groups / rows;
        let mut rows_in = vec![0u32; groups];
        for r in 0..rows {
            rows_in[group_of(r)] += 1;
        }
        // busy[g * w + x]: busy time in cell (g, x), in units of one pixel column's time.
        let mut busy = vec![0f32; groups * w];
        let mut weighted = vec![0f32; groups * w];
        let ns_per_px = (self.t1 - self.t0) as f64 / w as f64;
        for s in &self.spans {
            let start = s.start.clamp(self.t0, self.t1);
            let end = s.end.clamp(self.t0, self.t1);
            if end <= start {
                continue;
            }
            let a = (start - self.t0) as f64 / ns_per_px;
            let b = (end - self.t0) as f64 / ns_per_px;
            let g = group_of(s.row as usize);
            let value = s.value.clamp(0.0, 1.0);
            for px in (a.floor() as usize)..(b.ceil() as usize).min(w) {
                let overlap = (b.min(px as f64 + 1.0) - a.max(px as f64)).max(0.0) as f32;
                busy[g * w + px] += overlap;
                weighted[g * w + px] += overlap * value;
            }
        }
        for g in 0..groups {
            let y0 = plot.y0 + (g * h / groups) as i32;
            let mut y1 = plot.y0 + ((g + 1) * h / groups) as i32;
            if y1 - y0 >= 4 {
                y1 -= 1; // a thin gap keeps neighbouring strips apart
            }
            for px in 0..w {
                let t = busy[g * w + px];
                if t <= 0.0 {
                    continue;
                }
                let share = (t / rows_in[g] as f32).min(1.0);
                let color = ramp(weighted[g * w + px] / t).over(BACKGROUND, share);
                let x = plot.x0 + px as i32;
                img.fill_rect(
                    Rect {
                        x0: x,
                        x1: x + 1,
                        y0,
                        y1,
                    },
                    color,
                );
            }
        }
    }

    /// The color bar to the right of the plot area, dark (value 1) at the top.
    fn draw_color_bar(&self, img: &mut Image, frame: &Frame) -> Result<(), PlotError> {
        let st = frame.style;
        let s = st.text;
        let p = frame.plot;
        let bar = Rect::new(
            p.x1 + st.line + st.pad,
            p.y0,
            Self::bar_width(s),
            p.height(),
        );
        let h = (bar.height() - 1).max(1) as f32;
        for y in bar.y0..bar.y1 {
            let v = 1.0 - (y - bar.y0) as f32 / h;
            img.fill_rect(
                Rect {
                    y0: y,
                    y1: y + 1,
                    ..bar
                },
                ramp(v),
            );
        }
        img.stroke_rect(bar, AXIS);
        let axis = self.bar_axis()?;
        let cap = (ASCENT * s) as i32;
        let (_, max) = axis.range();
        let label_x = bar.x1 + st.tick + st.pad / 2;
        let mut widest = 0;
        for t in axis.ticks() {
            let Some(label) = &t.label else { continue };
            let y = (bar.y1 as f32 - 1.0 - (t.value / max) as f32 * h).round() as i32;
            img.fill_rect(Rect::new(bar.x1, y, st.tick, 1), AXIS);
            font::draw_text(img, label_x, y - cap / 2, label, s, TEXT);
            widest = widest.max(font::text_width(label, s) as i32);
        }
        if !self.value_label.is_empty() {
            let w = font::text_width(&self.value_label, s) as i32;
            let x = label_x + widest + st.pad;
            font::draw_text_up(
                img,
                x,
                p.y0 + (p.height() + w) / 2,
                &self.value_label,
                s,
                TEXT,
            );
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn timeline(rows: u32) -> Timeline {
        let spans = (0..rows)
            .flat_map(|r| {
                let base = u64::from(r % 50) * 2;
                [
                    Span {
                        row: r,
                        start: base,
                        end: base + 400,
                        value: 1.0,
                    },
                    Span {
                        row: r,
                        start: base + 500,
                        end: base + 900,
                        value: 0.1,
                    },
                ]
            })
            .collect();
        Timeline {
            title: "per-warp timeline".into(),
            row_label: "warp".into(),
            value_label: "busy lanes".into(),
            value_max: 32.0,
            rows,
            t0: 0,
            t1: 1000,
            spans,
        }
    }

    #[test]
    fn spans_are_colored_by_value() {
        let t = timeline(8);
        let img = t.render(700, 400).unwrap();
        let (frame, _, _) = t.layout(700, 400, "warp").unwrap();
        let p = frame.plot;
        let y = (p.y0 + 3) as u32;
        let at = |ns: f64| (p.x0 as f64 + ns / 1000.0 * p.width() as f64) as u32;
        assert_eq!(img.pixel(at(200.0), y), Some(ramp(1.0)));
        assert_eq!(img.pixel(at(700.0), y), Some(ramp(0.1)));
        assert_eq!(img.pixel(at(450.0), y), Some(BACKGROUND));
        assert_eq!(img.pixel(at(950.0), y), Some(BACKGROUND));
    }

    #[test]
    fn more_rows_than_pixels_are_compressed() {
        let t = timeline(5000);
        let img = t.render(600, 300).unwrap();
        let (frame, _, _) = t.layout(600, 300, "warp (up to 30 per pixel row)").unwrap();
        let p = frame.plot;
        // Every pixel row of the plot shows busy rows early on.
        let x = (p.x0 + p.width() / 10) as u32;
        for y in p.y0..p.y1 {
            assert_ne!(img.pixel(x, y as u32), Some(BACKGROUND), "row {y}");
        }
        assert!(t.y_label(p.height()).contains("per pixel row"));
    }

    #[test]
    fn bad_timelines_are_errors() {
        let mut t = timeline(2);
        t.spans[0].row = 2;
        assert!(matches!(t.render(600, 300), Err(PlotError::InvalidData(_))));
        let mut t = timeline(2);
        t.t1 = 0;
        assert!(matches!(t.render(600, 300), Err(PlotError::InvalidData(_))));
        let mut t = timeline(2);
        t.spans.clear();
        assert!(matches!(
            t.render(600, 300),
            Err(PlotError::EmptyData { .. })
        ));
    }

    #[test]
    fn time_units() {
        assert_eq!(time_unit(999).1, "ns");
        assert_eq!(time_unit(50_000).1, "us");
        assert_eq!(time_unit(2_000_000).1, "ms");
        assert_eq!(time_unit(2_000_000_000).1, "s");
    }
}
