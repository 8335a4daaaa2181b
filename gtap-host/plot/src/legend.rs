//! The series legend: a boxed list of line-and-marker samples with names. It goes in the corner
//! of the plot area that hides no data; when every corner would hide some, the chart makes room
//! for it beside the plot area instead (see `LineChart::render`).

use crate::color::{BACKGROUND, LEGEND_BORDER, Rgb, TEXT};
use crate::draw::{Stroke, line};
use crate::font::{self, ASCENT, CELL_H};
use crate::frame::{Frame, Style};
use crate::image::{Image, Rect};
use crate::marker::{Marker, draw_marker};

/// One legend row.
pub(crate) struct Entry<'a> {
    pub name: &'a str,
    pub color: Rgb,
    pub marker: Marker,
}

/// Length of the line sample in front of each name.
fn sample_len(style: &Style) -> i32 {
    (10 * style.text + 8) as i32
}

/// Width and height of the legend box of `entries`.
pub(crate) fn size(style: &Style, entries: &[Entry<'_>]) -> (i32, i32) {
    let s = style.text;
    let pad = style.pad;
    let name_w = entries
        .iter()
        .map(|e| font::text_width(e.name, s) as i32)
        .max()
        .unwrap_or(0);
    let row_h = (CELL_H * s) as i32;
    (
        pad + sample_len(style) + pad + name_w + pad,
        pad + row_h * entries.len() as i32,
    )
}

/// The corner of the plot area for a `w` x `h` legend that holds the fewest of the pixel
/// positions in `avoid`, and how many it holds. Ties go to top right, top left, bottom right,
/// bottom left, in that order.
pub(crate) fn best_corner(
    frame: &Frame,
    (w, h): (i32, i32),
    avoid: &[(f32, f32)],
) -> (Rect, usize) {
    let p = frame.plot;
    let m = 2 * frame.style.pad;
    let corners = [
        Rect::new(p.x1 - m - w, p.y0 + m, w, h),
        Rect::new(p.x0 + m, p.y0 + m, w, h),
        Rect::new(p.x1 - m - w, p.y1 - m - h, w, h),
        Rect::new(p.x0 + m, p.y1 - m - h, w, h),
    ];
    let hidden = |r: &Rect| {
        // A point within a few pixels of the box is hidden too (markers have a size).
        let grown = Rect {
            x0: r.x0 - m / 2,
            y0: r.y0 - m / 2,
            x1: r.x1 + m / 2,
            y1: r.y1 + m / 2,
        };
        avoid
            .iter()
            .filter(|(x, y)| grown.contains(x.floor() as i32, y.floor() as i32))
            .count()
    };
    corners
        .iter()
        .map(|r| (*r, hidden(r)))
        .min_by_key(|(_, n)| *n)
        .unwrap_or((corners[0], 0))
}

/// Draws the legend of `entries` in `r` (from [`size`]), with lines `line_width` thick and
/// markers of radius `marker_r`.
pub(crate) fn draw(
    img: &mut Image,
    style: &Style,
    r: Rect,
    entries: &[Entry<'_>],
    line_width: f32,
    marker_r: f32,
) {
    let s = style.text;
    let pad = style.pad;
    let sample = sample_len(style);
    let row_h = (CELL_H * s) as i32;
    let old_clip = img.set_clip(None);
    img.fill_rect(r, BACKGROUND);
    img.stroke_rect(r, LEGEND_BORDER);
    for (i, e) in entries.iter().enumerate() {
        let top = r.y0 + pad + i as i32 * row_h;
        let mid = top as f32 + (ASCENT * s) as f32 / 2.0;
        let x0 = (r.x0 + pad) as f32;
        line(
            img,
            (x0, mid),
            (x0 + sample as f32, mid),
            &Stroke::solid(e.color, line_width),
        );
        draw_marker(
            img,
            e.marker,
            x0 + sample as f32 / 2.0,
            mid,
            marker_r,
            e.color,
        );
        font::draw_text(img, r.x0 + 2 * pad + sample, top, e.name, s, TEXT);
    }
    img.set_clip(Some(old_clip));
}
