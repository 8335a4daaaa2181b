//! Point markers. Each shape is an inside-test on offsets from its center; a pixel's coverage is
//! the share of a 4x4 grid of sample points inside, which anti-aliases every shape alike.

use crate::color::Rgb;
use crate::image::Image;

/// The shape drawn at each data point.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Marker {
    /// Filled disc.
    Circle,
    /// Filled square.
    Square,
    /// Filled triangle, apex up.
    Triangle,
    /// Filled square turned 45 degrees.
    Diamond,
    /// Diagonal cross, like `x`.
    Cross,
}

impl Marker {
    /// All markers, in the order series use them.
    pub const ALL: [Marker; 5] = [
        Marker::Circle,
        Marker::Square,
        Marker::Triangle,
        Marker::Diamond,
        Marker::Cross,
    ];

    /// The marker of series number `i`.
    pub fn for_series(i: usize) -> Marker {
        Self::ALL[i % Self::ALL.len()]
    }

    /// Whether offset `(dx, dy)` from the center lies inside the shape of radius `r`; the shapes
    /// are sized to look equally heavy, not to share a bounding box.
    fn inside(self, dx: f32, dy: f32, r: f32) -> bool {
        match self {
            Marker::Circle => dx * dx + dy * dy <= r * r,
            Marker::Square => dx.abs() <= 0.85 * r && dy.abs() <= 0.85 * r,
            Marker::Triangle => {
                let (top, base) = (-1.05 * r, 0.8 * r);
                dy >= top && dy <= base && dx.abs() <= 1.0 * r * (dy - top) / (base - top)
            }
            Marker::Diamond => dx.abs() + dy.abs() <= 1.15 * r,
            Marker::Cross => {
                let arm = 0.3 * r;
                let box_ = 0.95 * r;
                dx.abs() <= box_
                    && dy.abs() <= box_
                    && ((dx - dy).abs() <= arm * std::f32::consts::SQRT_2
                        || (dx + dy).abs() <= arm * std::f32::consts::SQRT_2)
            }
        }
    }
}

/// Draws `marker` of radius `r` pixels centered on `(cx, cy)` (clipped).
pub fn draw_marker(img: &mut Image, marker: Marker, cx: f32, cy: f32, r: f32, color: Rgb) {
    if !(cx.is_finite() && cy.is_finite()) || r <= 0.0 {
        return;
    }
    const N: usize = 4;
    let reach = r * 1.2 + 1.0;
    let (x0, x1) = ((cx - reach).floor() as i32, (cx + reach).ceil() as i32);
    let (y0, y1) = ((cy - reach).floor() as i32, (cy + reach).ceil() as i32);
    for y in y0..=y1 {
        for x in x0..=x1 {
            let mut hits = 0;
            for sy in 0..N {
                for sx in 0..N {
                    let px = x as f32 + (sx as f32 + 0.5) / N as f32;
                    let py = y as f32 + (sy as f32 + 0.5) / N as f32;
                    if marker.inside(px - cx, py - cy, r) {
                        hits += 1;
                    }
                }
            }
            if hits > 0 {
                img.blend(x, y, color, hits as f32 / (N * N) as f32);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const W: Rgb = Rgb(255, 255, 255);
    const K: Rgb = Rgb(0, 0, 0);

    fn ink(m: Marker) -> Vec<bool> {
        let mut img = Image::new(21, 21, W);
        draw_marker(&mut img, m, 10.5, 10.5, 6.0, K);
        img.as_bytes().chunks(3).map(|p| p[0] < 128).collect()
    }

    #[test]
    fn shapes_are_distinct_and_centered() {
        let shapes: Vec<Vec<bool>> = Marker::ALL.iter().map(|m| ink(*m)).collect();
        for (i, a) in shapes.iter().enumerate() {
            for b in &shapes[i + 1..] {
                assert_ne!(a, b);
            }
            assert!(a[10 * 21 + 10], "{:?} misses its center", Marker::ALL[i]);
            let n = a.iter().filter(|d| **d).count();
            assert!(
                (30..200).contains(&n),
                "{:?} has {n} pixels",
                Marker::ALL[i]
            );
        }
        // Cross is hollow between its arms; square is not.
        assert!(!shapes[4][10 * 21 + 14] && shapes[1][10 * 21 + 14]);
    }

    #[test]
    fn series_cycle_through_markers() {
        assert_eq!(Marker::for_series(0), Marker::Circle);
        assert_eq!(Marker::for_series(5), Marker::Circle);
        assert_eq!(Marker::for_series(7), Marker::Triangle);
    }
}
