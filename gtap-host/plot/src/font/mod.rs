//! Text from a built-in bitmap font, so that charts need no font files or system libraries.
//!
//! The glyphs ([`glyphs`]) are 5x9 pixel bitmaps in a 6x11 cell (one column and two rows of
//! spacing), scaled by an integer so that they stay crisp: 1 for small print, 2 for labels, 3
//! for big titles. Text is drawn horizontally or turned 90 degrees counter-clockwise (reading
//! upwards, for y-axis labels).

pub mod glyphs;

use crate::color::Rgb;
use crate::image::Image;
use glyphs::{GLYPH_H, GLYPH_W, glyph};

/// Horizontal advance per character, in unscaled pixels.
pub const CELL_W: u32 = GLYPH_W + 1;
/// Line height, in unscaled pixels: the glyph with descenders plus two rows of leading.
pub const CELL_H: u32 = GLYPH_H + 2;
/// Rows above the baseline, in unscaled pixels (capital height).
pub const ASCENT: u32 = 7;

/// Width of `text` at `scale`, without the spacing after the last character.
pub fn text_width(text: &str, scale: u32) -> u32 {
    let n = text.chars().count() as u32;
    (n * CELL_W).saturating_sub(1) * scale
}

/// Height of one line of text at `scale`, descenders included, leading not.
pub fn text_height(scale: u32) -> u32 {
    GLYPH_H * scale
}

/// Draws `text` with its top-left corner at `(x, y)`; the baseline is `ASCENT * scale` below.
pub fn draw_text(img: &mut Image, x: i32, y: i32, text: &str, scale: u32, color: Rgb) {
    for_each_dot(text, scale, |u, v| img.put(x + u, y + v, color));
}

/// Draws `text` turned 90 degrees counter-clockwise, reading upwards: the text starts at the
/// bottom at `y` and the tops of the letters face left, at `x`. It occupies
/// `x .. x + text_height(scale)` by `y - text_width(text, scale) .. y`.
pub fn draw_text_up(img: &mut Image, x: i32, y: i32, text: &str, scale: u32, color: Rgb) {
    for_each_dot(text, scale, |u, v| img.put(x + v, y - 1 - u, color));
}

/// Calls `dot(u, v)` for every inked pixel of `text`, `u` along the text, `v` down the glyphs.
fn for_each_dot(text: &str, scale: u32, mut dot: impl FnMut(i32, i32)) {
    let s = scale.max(1) as i32;
    for (i, c) in text.chars().enumerate() {
        let left = i as i32 * CELL_W as i32 * s;
        for (row, bits) in glyph(c).iter().enumerate() {
            for col in 0..GLYPH_W {
                if bits & (1 << (GLYPH_W - 1 - col)) == 0 {
                    continue;
                }
                for dv in 0..s {
                    for du in 0..s {
                        dot(left + col as i32 * s + du, row as i32 * s + dv);
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const W: Rgb = Rgb(255, 255, 255);
    const K: Rgb = Rgb(0, 0, 0);

    fn inked(img: &Image) -> Vec<(u32, u32)> {
        let mut v = Vec::new();
        for y in 0..img.height() {
            for x in 0..img.width() {
                if img.pixel(x, y) == Some(K) {
                    v.push((x, y));
                }
            }
        }
        v
    }

    #[test]
    fn text_has_the_size_it_reports() {
        for scale in 1..=3 {
            let text = "Ag|";
            let mut img = Image::new(60, 40, W);
            draw_text(&mut img, 1, 1, text, scale, K);
            let dots = inked(&img);
            let max_x = dots.iter().map(|d| d.0).max().unwrap();
            let max_y = dots.iter().map(|d| d.1).max().unwrap();
            let min_x = dots.iter().map(|d| d.0).min().unwrap();
            assert_eq!(min_x, 1);
            assert!(max_x < 1 + text_width(text, scale));
            assert!(max_y < 1 + text_height(scale));
        }
    }

    #[test]
    fn scale_two_is_scale_one_doubled() {
        let mut one = Image::new(20, 12, W);
        draw_text(&mut one, 0, 0, "k7", 1, K);
        let mut two = Image::new(40, 24, W);
        draw_text(&mut two, 0, 0, "k7", 2, K);
        for y in 0..24 {
            for x in 0..40 {
                assert_eq!(two.pixel(x, y), one.pixel(x / 2, y / 2), "({x}, {y})");
            }
        }
    }

    #[test]
    fn rotated_text_is_the_transpose_read_upwards() {
        let text = "Fy";
        let mut flat = Image::new(12, 10, W);
        draw_text(&mut flat, 0, 0, text, 1, K);
        let mut up = Image::new(10, 12, W);
        draw_text_up(&mut up, 0, 12, text, 1, K);
        for v in 0..10 {
            for u in 0..12 {
                assert_eq!(flat.pixel(u, v), up.pixel(v, 11 - u), "({u}, {v})");
            }
        }
        // The top of the F (its bar) faces left, at the bottom of the image.
        assert_eq!(up.pixel(0, 11), Some(K));
    }

    #[test]
    fn drawing_is_clipped() {
        let mut img = Image::new(4, 4, W);
        draw_text(&mut img, -2, -3, "WWW", 3, K);
        draw_text_up(&mut img, 2, 100, "WWW", 3, K);
    }

    /// Writes every glyph at scales 1 to 3 to `$TMPDIR/gtap-plot-glyphs.png`, for looking at
    /// the font while editing it: `cargo test -p gtap-plot glyph_sheet -- --ignored`.
    #[test]
    #[ignore = "writes a file to look at"]
    fn glyph_sheet() {
        let all: String = (glyphs::FIRST..=glyphs::LAST).map(char::from).collect();
        let mut img = Image::new(1200, 260, W);
        let mut y = 4;
        for scale in 1..=3 {
            for line in [&all[..48], &all[48..]] {
                draw_text(&mut img, 4, y, line, scale, K);
                y += (CELL_H * scale) as i32;
            }
        }
        draw_text_up(&mut img, 1180, 250, "rotated: Log2 y (ns)", 2, K);
        let path = std::env::temp_dir().join("gtap-plot-glyphs.png");
        img.write_png(&path).unwrap();
        println!("wrote {}", path.display());
    }
}
