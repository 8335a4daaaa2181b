//! Lines: thick, anti-aliased, optionally dashed, clipped.
//!
//! A line is drawn from its distance field rather than stepped like Bresenham's: every pixel
//! near a segment is covered by `half_width + 0.5 - distance` (clamped to `0..=1`), which gives
//! any thickness, round caps and joins, and anti-aliasing from one formula. A polyline first
//! collects the largest coverage of each pixel over all its segments and blends once, so the
//! joins where segments overlap are not darkened twice.

use crate::color::Rgb;
use crate::image::{Image, Rect};

/// How a line is drawn.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Stroke {
    /// Line color.
    pub color: Rgb,
    /// Thickness in pixels.
    pub width: f32,
    /// `Some([on, off])` dashes the line: `on` pixels drawn, `off` pixels skipped, repeating
    /// along the whole polyline.
    pub dash: Option<[f32; 2]>,
    /// Blend edge pixels by coverage; `false` gives hard pixel edges.
    pub antialias: bool,
}

impl Stroke {
    /// A solid, anti-aliased line.
    pub fn solid(color: Rgb, width: f32) -> Stroke {
        Stroke {
            color,
            width,
            dash: None,
            antialias: true,
        }
    }

    /// The same line, dashed.
    pub fn dashed(self, on: f32, off: f32) -> Stroke {
        Stroke {
            dash: Some([on, off]),
            ..self
        }
    }
}

/// A point in pixel coordinates: pixel `(x, y)` covers `x..x+1`, `y..y+1`.
pub type Point = (f32, f32);

/// Draws the segment from `a` to `b`.
pub fn line(img: &mut Image, a: Point, b: Point, stroke: &Stroke) {
    polyline(img, &[a, b], stroke);
}

/// Draws the polyline through `points`; non-finite points are skipped.
pub fn polyline(img: &mut Image, points: &[Point], stroke: &Stroke) {
    let points: Vec<Point> = points
        .iter()
        .copied()
        .filter(|p| p.0.is_finite() && p.1.is_finite())
        .collect();
    if points.is_empty() || stroke.width <= 0.0 {
        return;
    }
    let hw = stroke.width / 2.0;
    let reach = hw + 1.0;
    let (mut lo_x, mut lo_y, mut hi_x, mut hi_y) = (f32::MAX, f32::MAX, f32::MIN, f32::MIN);
    for p in &points {
        lo_x = lo_x.min(p.0);
        lo_y = lo_y.min(p.1);
        hi_x = hi_x.max(p.0);
        hi_y = hi_y.max(p.1);
    }
    let bounds = Rect {
        x0: clamp_i32(lo_x - reach),
        y0: clamp_i32(lo_y - reach),
        x1: clamp_i32(hi_x + reach) + 1,
        y1: clamp_i32(hi_y + reach) + 1,
    }
    .intersect(&img.clip());
    if bounds.width() == 0 || bounds.height() == 0 {
        return;
    }
    let mut cov = Coverage::new(bounds);
    let segments = points.windows(2).map(|w| (w[0], w[1]));
    match stroke.dash {
        None => {
            if points.len() == 1 {
                cov.segment(points[0], points[0], hw);
            }
            for (a, b) in segments {
                cov.segment(a, b, hw);
            }
        }
        Some([on, off]) => {
            let on = on.max(0.5);
            let off = off.max(0.0);
            // Distance into the current on+off period, carried across segments.
            let mut phase = 0.0f32;
            for (a, b) in segments {
                let len = dist(a, b);
                let mut s = 0.0f32;
                while s < len {
                    let (step, drawing) = if phase < on {
                        (on - phase, true)
                    } else {
                        (on + off - phase, false)
                    };
                    let e = (s + step).min(len);
                    if drawing {
                        cov.segment(lerp(a, b, s / len), lerp(a, b, e / len), hw);
                    }
                    phase = (phase + (e - s)) % (on + off);
                    s = e;
                }
            }
        }
    }
    cov.blend_into(img, stroke.color, stroke.antialias);
}

fn clamp_i32(v: f32) -> i32 {
    v.floor().clamp(-1.0e9, 1.0e9) as i32
}

fn dist(a: Point, b: Point) -> f32 {
    ((b.0 - a.0).powi(2) + (b.1 - a.1).powi(2)).sqrt()
}

fn lerp(a: Point, b: Point, t: f32) -> Point {
    (a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t)
}

/// Per-pixel coverage over a rectangle, the largest over everything added.
struct Coverage {
    rect: Rect,
    cov: Vec<f32>,
}

impl Coverage {
    fn new(rect: Rect) -> Coverage {
        Coverage {
            rect,
            cov: vec![0.0; rect.width() as usize * rect.height() as usize],
        }
    }

    /// Adds the capsule of half-width `hw` around segment `a`-`b`.
    fn segment(&mut self, a: Point, b: Point, hw: f32) {
        let reach = hw + 1.0;
        let r = Rect {
            x0: clamp_i32(a.0.min(b.0) - reach),
            y0: clamp_i32(a.1.min(b.1) - reach),
            x1: clamp_i32(a.0.max(b.0) + reach) + 1,
            y1: clamp_i32(a.1.max(b.1) + reach) + 1,
        }
        .intersect(&self.rect);
        let (dx, dy) = (b.0 - a.0, b.1 - a.1);
        let len2 = dx * dx + dy * dy;
        for y in r.y0..r.y1 {
            for x in r.x0..r.x1 {
                let (px, py) = (x as f32 + 0.5 - a.0, y as f32 + 0.5 - a.1);
                let t = if len2 > 0.0 {
                    ((px * dx + py * dy) / len2).clamp(0.0, 1.0)
                } else {
                    0.0
                };
                let d = ((px - t * dx).powi(2) + (py - t * dy).powi(2)).sqrt();
                let c = (hw + 0.5 - d).clamp(0.0, 1.0);
                if c > 0.0 {
                    let i = (y - self.rect.y0) as usize * self.rect.width() as usize
                        + (x - self.rect.x0) as usize;
                    self.cov[i] = self.cov[i].max(c);
                }
            }
        }
    }

    fn blend_into(&self, img: &mut Image, color: Rgb, antialias: bool) {
        let w = self.rect.width() as usize;
        for (i, &c) in self.cov.iter().enumerate() {
            let alpha = if antialias {
                c
            } else if c >= 0.5 {
                1.0
            } else {
                0.0
            };
            if alpha > 0.0 {
                let x = self.rect.x0 + (i % w) as i32;
                let y = self.rect.y0 + (i / w) as i32;
                img.blend(x, y, color, alpha);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const W: Rgb = Rgb(255, 255, 255);
    const K: Rgb = Rgb(0, 0, 0);

    fn dark(img: &Image, x: u32, y: u32) -> bool {
        img.pixel(x, y).unwrap().0 < 128
    }

    #[test]
    fn horizontal_line_has_its_thickness() {
        let mut img = Image::new(20, 20, W);
        line(&mut img, (2.0, 10.5), (18.0, 10.5), &Stroke::solid(K, 3.0));
        let col: Vec<bool> = (0..20).map(|y| dark(&img, 10, y)).collect();
        assert_eq!(col.iter().filter(|d| **d).count(), 3);
        assert!(col[9] && col[10] && col[11]);
    }

    #[test]
    fn diagonal_line_is_continuous() {
        let mut img = Image::new(30, 30, W);
        line(&mut img, (1.0, 1.0), (29.0, 22.0), &Stroke::solid(K, 1.0));
        for x in 2..28 {
            assert!((0..30).any(|y| dark(&img, x, y)), "gap at column {x}");
        }
    }

    #[test]
    fn hard_edges_without_antialiasing() {
        let mut img = Image::new(30, 30, W);
        let stroke = Stroke {
            antialias: false,
            ..Stroke::solid(K, 2.0)
        };
        line(&mut img, (1.0, 1.0), (29.0, 17.0), &stroke);
        assert!(img.as_bytes().iter().all(|b| *b == 0 || *b == 255));
    }

    #[test]
    fn dashes_leave_gaps() {
        let mut img = Image::new(40, 5, W);
        line(
            &mut img,
            (0.0, 2.5),
            (40.0, 2.5),
            &Stroke::solid(K, 1.0).dashed(4.0, 4.0),
        );
        let row: Vec<bool> = (0..40).map(|x| dark(&img, x, 2)).collect();
        assert!(row[1] && row[2] && !row[5] && !row[6] && row[9] && row[10] && !row[13]);
    }

    #[test]
    fn clip_cuts_the_line() {
        let mut img = Image::new(20, 20, W);
        img.set_clip(Some(Rect::new(5, 0, 10, 20)));
        line(&mut img, (0.0, 10.0), (20.0, 10.0), &Stroke::solid(K, 2.0));
        assert!(!dark(&img, 4, 10) && dark(&img, 5, 10) && dark(&img, 14, 10));
        assert!(!dark(&img, 15, 10));
    }

    #[test]
    fn joins_are_not_darkened_twice() {
        let (a, b, c) = ((2.0, 2.0), (10.0, 10.0), (18.0, 2.0));
        let stroke = Stroke::solid(K, 2.0);
        let mut both = Image::new(20, 20, W);
        polyline(&mut both, &[a, b, c], &stroke);
        let mut first = Image::new(20, 20, W);
        line(&mut first, a, b, &stroke);
        let mut second = Image::new(20, 20, W);
        line(&mut second, b, c, &stroke);
        // Each pixel takes the larger coverage of the two segments, never their sum.
        for y in 0..20 {
            for x in 0..20 {
                let want = first
                    .pixel(x, y)
                    .unwrap()
                    .0
                    .min(second.pixel(x, y).unwrap().0);
                assert_eq!(both.pixel(x, y).unwrap().0, want, "({x}, {y})");
            }
        }
    }
}
