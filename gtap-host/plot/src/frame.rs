//! The frame every chart shares: margins sized from the labels, grid, axes, ticks, tick labels,
//! axis labels and title.
//!
//! Layout runs in an order without cycles: the top and bottom margins depend only on the text
//! size, so the plot height, hence the y ticks, are known before the left margin, which must fit
//! the widest y tick label; only then is the plot width, hence the x ticks, known.

use crate::color::{AXIS, GRID, TEXT};
use crate::font::{self, ASCENT, CELL_W};
use crate::image::{Image, Rect};
use crate::{Axis, PlotError};

/// Sizes that scale with the image, so that a chart looks alike at 600 and 1800 pixels.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Style {
    /// Font scale of tick labels, axis labels and legends.
    pub text: u32,
    /// Font scale of the title.
    pub title: u32,
    /// Space between blocks of text, in pixels.
    pub pad: i32,
    /// Length of a major tick mark.
    pub tick: i32,
    /// Thickness of the axis lines.
    pub line: i32,
}

impl Style {
    pub fn for_size(width: u32, height: u32) -> Style {
        let text = if width >= 1400 && height >= 900 {
            3
        } else if width >= 560 && height >= 360 {
            2
        } else {
            1
        };
        let title = if text < 3 && width >= 800 {
            text + 1
        } else {
            text
        };
        let s = text as i32;
        Style {
            text,
            title,
            pad: 4 * s + 2,
            tick: 3 * s + 1,
            line: s,
        }
    }

    /// About how many labelled ticks fit along `len` pixels of the x axis.
    pub fn x_ticks(&self, len: i32) -> usize {
        (len / (40 * self.text as i32)).clamp(2, 12) as usize
    }

    /// About how many labelled ticks fit along `len` pixels of the y axis.
    pub fn y_ticks(&self, len: i32) -> usize {
        (len / (30 * self.text as i32)).clamp(2, 12) as usize
    }
}

/// The texts around a chart; empty ones take no space.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Labels<'a> {
    pub title: &'a str,
    pub x: &'a str,
    pub y: &'a str,
}

/// Where a chart's plot area lies and how axis fractions map onto it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Frame {
    pub style: Style,
    /// The plot area; the axis lines lie just outside it.
    pub plot: Rect,
    /// Pixels between the plot area's edges and the ends of the axes' ranges, so that markers
    /// at the range ends are not cut by the frame.
    pub inset: i32,
    /// Whether y grows downwards (row 0 at the top, as in a timeline).
    pub y_down: bool,
}

/// The smallest plot area, in pixels each way, worth drawing.
const MIN_PLOT: i32 = 40;

/// Extra space a layout needs beside the plot area.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Extra {
    /// Pixels to the right of the plot area (a color bar).
    pub right: i32,
    /// See [`Frame::inset`].
    pub inset: i32,
    /// See [`Frame::y_down`].
    pub y_down: bool,
}

impl Frame {
    /// Lays out a `width` x `height` chart. `y_axis` and `x_axis` build the axes for a given
    /// axis length in pixels (which sets how many ticks fit).
    pub fn layout(
        width: u32,
        height: u32,
        labels: Labels<'_>,
        extra: Extra,
        y_axis: impl FnOnce(&Style, i32) -> Result<Axis, PlotError>,
        x_axis: impl FnOnce(&Style, i32) -> Result<Axis, PlotError>,
    ) -> Result<(Frame, Axis, Axis), PlotError> {
        let style = Style::for_size(width, height);
        let (w, h) = (width.min(1 << 20) as i32, height.min(1 << 20) as i32);
        let th = font::text_height(style.text) as i32;
        let pad = style.pad;
        let top = if labels.title.is_empty() {
            pad + th / 2
        } else {
            2 * pad + font::text_height(style.title) as i32
        };
        let x_label = if labels.x.is_empty() { 0 } else { th + pad };
        let bottom = style.line + style.tick + pad / 2 + th + x_label + pad;
        let plot_h = h - top - bottom;
        let too_small = |plot_w: i32, plot_h: i32| PlotError::TooSmall {
            width,
            height,
            min_width: (w - plot_w + MIN_PLOT).max(0) as u32,
            min_height: (h - plot_h + MIN_PLOT).max(0) as u32,
        };
        if plot_h < MIN_PLOT {
            return Err(too_small(MIN_PLOT, plot_h));
        }
        let y = y_axis(&style, plot_h - 2 * extra.inset)?;
        let y_tick_w = y
            .ticks()
            .iter()
            .filter_map(|t| t.label.as_deref())
            .map(|l| font::text_width(l, style.text) as i32)
            .max()
            .unwrap_or(0);
        let y_label = if labels.y.is_empty() { 0 } else { th + pad };
        let left = pad + y_label + y_tick_w + pad / 2 + style.tick + style.line;
        let right = pad + extra.right + 3 * (CELL_W * style.text) as i32;
        let plot_w = w - left - right;
        if plot_w < MIN_PLOT {
            return Err(too_small(plot_w, plot_h));
        }
        let x = x_axis(&style, plot_w - 2 * extra.inset)?;
        let frame = Frame {
            style,
            plot: Rect::new(left, top, plot_w, plot_h),
            inset: extra.inset,
            y_down: extra.y_down,
        };
        Ok((frame, x, y))
    }

    /// The x pixel coordinate (continuous: pixel `i` spans `i..i+1`) of axis fraction `f`.
    pub fn x_at(&self, f: f64) -> f32 {
        let span = (self.plot.width() - 2 * self.inset) as f64;
        (f64::from(self.plot.x0 + self.inset) + f * span) as f32
    }

    /// The y pixel coordinate of axis fraction `f`.
    pub fn y_at(&self, f: f64) -> f32 {
        let span = (self.plot.height() - 2 * self.inset) as f64;
        if self.y_down {
            (f64::from(self.plot.y0 + self.inset) + f * span) as f32
        } else {
            (f64::from(self.plot.y1 - self.inset) - f * span) as f32
        }
    }

    /// The pixel coordinates of data point `(x, y)`, or `None` if a scale rejects it.
    pub fn point(&self, x_axis: &Axis, y_axis: &Axis, x: f64, y: f64) -> Option<(f32, f32)> {
        Some((
            self.x_at(x_axis.fraction(x)?),
            self.y_at(y_axis.fraction(y)?),
        ))
    }

    /// Pixel column of the tick at `value`, kept inside the plot area.
    fn x_tick(&self, axis: &Axis, value: f64) -> Option<i32> {
        let x = self.x_at(axis.fraction(value)?).floor() as i32;
        Some(x.clamp(self.plot.x0, self.plot.x1 - 1))
    }

    fn y_tick(&self, axis: &Axis, value: f64) -> Option<i32> {
        let y = self.y_at(axis.fraction(value)?).floor() as i32;
        Some(y.clamp(self.plot.y0, self.plot.y1 - 1))
    }

    /// Light grid lines at the labelled ticks; draw before the data.
    pub fn draw_grid(&self, img: &mut Image, x: &Axis, y: &Axis) {
        let p = self.plot;
        for t in x.ticks().iter().filter(|t| t.label.is_some()) {
            if let Some(px) = self.x_tick(x, t.value) {
                img.fill_rect(
                    Rect {
                        x0: px,
                        x1: px + 1,
                        ..p
                    },
                    GRID,
                );
            }
        }
        for t in y.ticks().iter().filter(|t| t.label.is_some()) {
            if let Some(py) = self.y_tick(y, t.value) {
                img.fill_rect(
                    Rect {
                        y0: py,
                        y1: py + 1,
                        ..p
                    },
                    GRID,
                );
            }
        }
    }

    /// Axis lines, ticks, tick labels, axis labels and title; draw after the data.
    pub fn draw_axes(&self, img: &mut Image, x: &Axis, y: &Axis, labels: Labels<'_>) {
        let old_clip = img.set_clip(None);
        let Style {
            text: s,
            pad,
            tick,
            line,
            ..
        } = self.style;
        let p = self.plot;
        // The box just outside the plot area.
        img.fill_rect(
            Rect {
                x0: p.x0 - line,
                x1: p.x1 + line,
                y0: p.y0 - line,
                y1: p.y0,
            },
            AXIS,
        );
        img.fill_rect(
            Rect {
                x0: p.x0 - line,
                x1: p.x1 + line,
                y0: p.y1,
                y1: p.y1 + line,
            },
            AXIS,
        );
        img.fill_rect(
            Rect {
                x0: p.x0 - line,
                x1: p.x0,
                ..p
            },
            AXIS,
        );
        img.fill_rect(
            Rect {
                x0: p.x1,
                x1: p.x1 + line,
                ..p
            },
            AXIS,
        );

        let th = font::text_height(s) as i32;
        let cap = (ASCENT * s) as i32;
        // Tick marks, then labels: every label if they fit, else every k-th (k as small as
        // fits), so that the labels left stay evenly spaced.
        let label_top = p.y1 + line + tick + pad / 2;
        let label_right = p.x0 - line - tick - pad / 2;
        let mut x_labels = Vec::new();
        for t in x.ticks() {
            let Some(px) = self.x_tick(x, t.value) else {
                continue;
            };
            let len = if t.label.is_some() {
                tick
            } else {
                tick / 2 + 1
            };
            img.fill_rect(Rect::new(px, p.y1 + line, 1, len), AXIS);
            if let Some(label) = &t.label {
                let w = font::text_width(label, s) as i32;
                x_labels.push((px - w / 2, px - w / 2 + w, label));
            }
        }
        let stride = label_stride(&x_labels, 2 * (CELL_W * s) as i32);
        for (left, _, label) in x_labels.iter().step_by(stride) {
            font::draw_text(img, *left, label_top, label, s, TEXT);
        }
        let mut y_labels = Vec::new();
        for t in y.ticks() {
            let Some(py) = self.y_tick(y, t.value) else {
                continue;
            };
            let len = if t.label.is_some() {
                tick
            } else {
                tick / 2 + 1
            };
            img.fill_rect(Rect::new(p.x0 - line - len, py, len, 1), AXIS);
            if let Some(label) = &t.label {
                y_labels.push((py - cap / 2, py - cap / 2 + cap, label));
            }
        }
        // Ticks come in increasing value, which is decreasing y unless y grows downwards.
        let y_sorted: Vec<_> = if self.y_down {
            y_labels.clone()
        } else {
            y_labels.iter().rev().cloned().collect()
        };
        let stride = label_stride(&y_sorted, pad);
        for (top, _, label) in y_labels.iter().step_by(stride) {
            let w = font::text_width(label, s) as i32;
            font::draw_text(img, label_right - w, *top, label, s, TEXT);
        }
        // Axis labels, centered on the plot area.
        if !labels.x.is_empty() {
            let w = font::text_width(labels.x, s) as i32;
            let top = label_top + th + pad;
            font::draw_text(img, p.x0 + (p.width() - w) / 2, top, labels.x, s, TEXT);
        }
        if !labels.y.is_empty() {
            let w = font::text_width(labels.y, s) as i32;
            let bottom = p.y0 + (p.height() + w) / 2;
            font::draw_text_up(img, pad, bottom, labels.y, s, TEXT);
        }
        if !labels.title.is_empty() {
            let mut ts = self.style.title;
            while ts > 1 && font::text_width(labels.title, ts) > img.width() {
                ts -= 1;
            }
            let w = font::text_width(labels.title, ts) as i32;
            let left = ((img.width() as i32 - w) / 2).max(0);
            font::draw_text(img, left, pad, labels.title, ts, TEXT);
        }
        img.set_clip(Some(old_clip));
    }
}

/// The smallest k such that every k-th of `labels` (extents `(lo, hi)` along the axis, in
/// increasing order of position) are at least `gap` pixels apart.
fn label_stride<T>(labels: &[(i32, i32, T)], gap: i32) -> usize {
    let fits = |k: usize| {
        let kept: Vec<_> = labels.iter().step_by(k).collect();
        kept.windows(2).all(|w| w[1].0 - w[0].1 >= gap)
    };
    (1..labels.len().max(1))
        .find(|&k| fits(k))
        .unwrap_or(labels.len().max(1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn label_stride_thins_evenly() {
        let spaced = [(0, 10, ()), (20, 30, ()), (40, 50, ())];
        assert_eq!(label_stride(&spaced, 5), 1);
        let tight = [(0, 10, ()), (12, 22, ()), (24, 34, ()), (36, 46, ())];
        assert_eq!(label_stride(&tight, 5), 2);
        assert_eq!(label_stride(&tight, 100), 4);
        assert_eq!(label_stride::<()>(&[], 5), 1);
    }
}
