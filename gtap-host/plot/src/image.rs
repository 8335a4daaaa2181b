//! The raster every chart draws into: an RGB image with a clip rectangle.
//!
//! Charts draw data with the clip set to the plot area, so a line that leaves the axes' range is
//! cut at the frame instead of running over the labels; every drawing operation goes through
//! [`Image::blend`] or [`Image::fill_rect`], which honour the clip.

use crate::color::Rgb;

/// A half-open pixel rectangle: `x0 <= x < x1`, `y0 <= y < y1`; y grows downwards.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rect {
    /// Left edge (inclusive).
    pub x0: i32,
    /// Top edge (inclusive).
    pub y0: i32,
    /// Right edge (exclusive).
    pub x1: i32,
    /// Bottom edge (exclusive).
    pub y1: i32,
}

impl Rect {
    /// The rectangle with top-left corner `(x, y)` and the given size.
    pub fn new(x: i32, y: i32, width: i32, height: i32) -> Rect {
        Rect {
            x0: x,
            y0: y,
            x1: x + width,
            y1: y + height,
        }
    }

    /// Width in pixels (0 when empty).
    pub fn width(&self) -> i32 {
        (self.x1 - self.x0).max(0)
    }

    /// Height in pixels (0 when empty).
    pub fn height(&self) -> i32 {
        (self.y1 - self.y0).max(0)
    }

    /// Whether pixel `(x, y)` lies inside.
    pub fn contains(&self, x: i32, y: i32) -> bool {
        x >= self.x0 && x < self.x1 && y >= self.y0 && y < self.y1
    }

    /// The pixels in both rectangles (possibly empty).
    pub fn intersect(&self, other: &Rect) -> Rect {
        Rect {
            x0: self.x0.max(other.x0),
            y0: self.y0.max(other.y0),
            x1: self.x1.min(other.x1),
            y1: self.y1.min(other.y1),
        }
    }

    /// Whether the two rectangles share a pixel.
    pub fn overlaps(&self, other: &Rect) -> bool {
        let i = self.intersect(other);
        i.width() > 0 && i.height() > 0
    }
}

/// An RGB image, 8 bits per channel, row-major from the top-left corner.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Image {
    width: u32,
    height: u32,
    /// `3 * width * height` bytes, RGB.
    data: Vec<u8>,
    /// Drawing outside this rectangle is discarded; always inside the image.
    clip: Rect,
}

impl Image {
    /// A `width` x `height` image filled with `background`.
    pub fn new(width: u32, height: u32, background: Rgb) -> Image {
        let n = width as usize * height as usize;
        let mut data = Vec::with_capacity(3 * n);
        for _ in 0..n {
            data.extend_from_slice(&[background.0, background.1, background.2]);
        }
        Image {
            width,
            height,
            data,
            clip: Self::full(width, height),
        }
    }

    fn full(width: u32, height: u32) -> Rect {
        Rect::new(
            0,
            0,
            width.min(i32::MAX as u32) as i32,
            height.min(i32::MAX as u32) as i32,
        )
    }

    /// Width in pixels.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Height in pixels.
    pub fn height(&self) -> u32 {
        self.height
    }

    /// The raw RGB bytes, row-major.
    pub fn as_bytes(&self) -> &[u8] {
        &self.data
    }

    /// The color at `(x, y)`, or `None` outside the image.
    pub fn pixel(&self, x: u32, y: u32) -> Option<Rgb> {
        if x >= self.width || y >= self.height {
            return None;
        }
        let i = 3 * (y as usize * self.width as usize + x as usize);
        Some(Rgb(self.data[i], self.data[i + 1], self.data[i + 2]))
    }

    /// The current clip rectangle.
    pub fn clip(&self) -> Rect {
        self.clip
    }

    /// Restricts drawing to `clip` (intersected with the image), or lifts the restriction with
    /// `None`. Returns the previous clip so that callers can restore it.
    pub fn set_clip(&mut self, clip: Option<Rect>) -> Rect {
        let full = Self::full(self.width, self.height);
        let old = self.clip;
        self.clip = clip.map_or(full, |c| c.intersect(&full));
        old
    }

    /// Sets pixel `(x, y)` to `color` if it lies inside the clip.
    pub fn put(&mut self, x: i32, y: i32, color: Rgb) {
        self.blend(x, y, color, 1.0);
    }

    /// Blends `color` with opacity `alpha` over pixel `(x, y)` if it lies inside the clip.
    pub fn blend(&mut self, x: i32, y: i32, color: Rgb, alpha: f32) {
        if alpha <= 0.0 || !self.clip.contains(x, y) {
            return;
        }
        let i = 3 * (y as usize * self.width as usize + x as usize);
        let under = Rgb(self.data[i], self.data[i + 1], self.data[i + 2]);
        let c = if alpha >= 1.0 {
            color
        } else {
            color.over(under, alpha)
        };
        self.data[i..i + 3].copy_from_slice(&[c.0, c.1, c.2]);
    }

    /// Fills `rect`, clipped.
    pub fn fill_rect(&mut self, rect: Rect, color: Rgb) {
        let r = rect.intersect(&self.clip);
        for y in r.y0..r.y1 {
            let row = y as usize * self.width as usize;
            for x in r.x0..r.x1 {
                let i = 3 * (row + x as usize);
                self.data[i..i + 3].copy_from_slice(&[color.0, color.1, color.2]);
            }
        }
    }

    /// Draws the one-pixel-wide outline just inside `rect`.
    pub fn stroke_rect(&mut self, rect: Rect, color: Rgb) {
        let Rect { x0, y0, x1, y1 } = rect;
        self.fill_rect(
            Rect {
                x0,
                y0,
                x1,
                y1: y0 + 1,
            },
            color,
        );
        self.fill_rect(
            Rect {
                x0,
                y0: y1 - 1,
                x1,
                y1,
            },
            color,
        );
        self.fill_rect(
            Rect {
                x0,
                y0,
                x1: x0 + 1,
                y1,
            },
            color,
        );
        self.fill_rect(
            Rect {
                x0: x1 - 1,
                y0,
                x1,
                y1,
            },
            color,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const RED: Rgb = Rgb(255, 0, 0);
    const WHITE: Rgb = Rgb(255, 255, 255);

    #[test]
    fn fill_is_clipped_to_image_and_clip() {
        let mut img = Image::new(10, 8, WHITE);
        img.fill_rect(Rect::new(-5, -5, 8, 8), RED);
        assert_eq!(img.pixel(2, 2), Some(RED));
        assert_eq!(img.pixel(3, 3), Some(WHITE));
        img.set_clip(Some(Rect::new(5, 5, 2, 2)));
        img.fill_rect(Rect::new(0, 0, 10, 8), RED);
        assert_eq!(img.pixel(5, 5), Some(RED));
        assert_eq!(img.pixel(6, 6), Some(RED));
        assert_eq!(img.pixel(7, 6), Some(WHITE));
        assert_eq!(img.pixel(4, 5), Some(WHITE));
        img.put(0, 0, WHITE);
        assert_eq!(img.pixel(0, 0), Some(RED));
        img.set_clip(None);
        img.put(0, 0, WHITE);
        assert_eq!(img.pixel(0, 0), Some(WHITE));
        assert_eq!(img.pixel(10, 0), None);
    }

    #[test]
    fn stroke_rect_draws_only_the_border() {
        let mut img = Image::new(6, 6, WHITE);
        img.stroke_rect(Rect::new(1, 1, 4, 4), RED);
        for (x, y) in [(1, 1), (4, 1), (1, 4), (4, 4), (2, 1), (1, 3)] {
            assert_eq!(img.pixel(x, y), Some(RED), "({x}, {y})");
        }
        assert_eq!(img.pixel(2, 2), Some(WHITE));
        assert_eq!(img.pixel(0, 0), Some(WHITE));
        assert_eq!(img.pixel(5, 5), Some(WHITE));
    }

    #[test]
    fn blend_mixes() {
        let mut img = Image::new(1, 1, WHITE);
        img.blend(0, 0, Rgb(0, 0, 0), 0.5);
        assert_eq!(img.pixel(0, 0), Some(Rgb(128, 128, 128)));
    }
}
