//! The series legend: a boxed list of line-and-marker samples with names, put in the corner of
//! the plot area that hides the fewest data points.

use crate::color::{BACKGROUND, LEGEND_BORDER, Rgb, TEXT};
use crate::draw::{Stroke, line};
use crate::font::{self, ASCENT, CELL_H};
use crate::frame::Frame;
use crate::image::{Image, Rect};
use crate::marker::{Marker, draw_marker};

/// One legend row.
pub(crate) struct Entry<'a> {
    pub name: &'a str,
    pub color: Rgb,
    pub marker: Marker,
}

/// Draws the legend of `entries` inside `frame`'s plot area, in the corner holding the fewest
/// of the pixel positions in `avoid`. Returns the box it drew (`None` when there is nothing to
/// list).
pub(crate) fn draw_legend(
    img: &mut Image,
    frame: &Frame,
    entries: &[Entry<'_>],
    avoid: &[(f32, f32)],
    line_width: f32,
    marker_r: f32,
) -> Option<Rect> {
    if entries.is_empty() {
        return None;
    }
    let s = frame.style.text;
    let pad = frame.style.pad;
    let sample = (10 * s + 8) as i32;
    let row_h = (CELL_H * s) as i32;
    let name_w = entries
        .iter()
        .map(|e| font::text_width(e.name, s) as i32)
        .max()
        .unwrap_or(0);
    let (w, h) = (
        pad + sample + pad + name_w + pad,
        pad + row_h * entries.len() as i32,
    );
    let p = frame.plot;
    let m = 2 * pad;
    let corners = [
        Rect::new(p.x1 - m - w, p.y0 + m, w, h), // top right
        Rect::new(p.x0 + m, p.y0 + m, w, h),     // top left
        Rect::new(p.x1 - m - w, p.y1 - m - h, w, h),
        Rect::new(p.x0 + m, p.y1 - m - h, w, h),
    ];
    let hidden = |r: &Rect| {
        avoid
            .iter()
            .filter(|(x, y)| r.contains(x.floor() as i32, y.floor() as i32))
            .count()
    };
    // The first corner with the fewest hidden points; ties keep the reading order above.
    let r = *corners
        .iter()
        .min_by_key(|r| hidden(r))
        .unwrap_or(&corners[0]);
    let old_clip = img.set_clip(Some(p));
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
    Some(r)
}
