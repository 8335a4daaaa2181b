//! Colors: the chart theme, the series palette and the sequential ramp for timelines.
//!
//! The palette is chosen so that neighbouring series differ in hue and lightness (series also
//! differ in marker shape, for readers who cannot tell some hues apart). The ramp goes from light
//! to dark so that "more" reads as "darker" in print, as in GTaP's per-warp timeline figure.

/// An 8-bit sRGB color.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Rgb(pub u8, pub u8, pub u8);

impl Rgb {
    /// `self` blended over `under` with opacity `alpha` in `0..=1`.
    pub fn over(self, under: Rgb, alpha: f32) -> Rgb {
        let a = alpha.clamp(0.0, 1.0);
        let mix = |top: u8, bottom: u8| {
            (f32::from(top) * a + f32::from(bottom) * (1.0 - a)).round() as u8
        };
        Rgb(
            mix(self.0, under.0),
            mix(self.1, under.1),
            mix(self.2, under.2),
        )
    }
}

/// Page background.
pub const BACKGROUND: Rgb = Rgb(255, 255, 255);
/// Axis lines, tick marks and the plot frame.
pub const AXIS: Rgb = Rgb(40, 40, 40);
/// Grid lines inside the plot area, light enough to sit behind the data.
pub const GRID: Rgb = Rgb(228, 228, 228);
/// All text.
pub const TEXT: Rgb = Rgb(20, 20, 20);
/// Legend box border.
pub const LEGEND_BORDER: Rgb = Rgb(160, 160, 160);
/// Histogram bars.
pub const BAR: Rgb = Rgb(70, 130, 190);
/// Histogram bar outlines.
pub const BAR_EDGE: Rgb = Rgb(30, 70, 120);

/// Series colors, used in order and then repeated.
pub const PALETTE: [Rgb; 10] = [
    Rgb(0, 114, 178),   // blue
    Rgb(230, 97, 0),    // orange
    Rgb(0, 150, 100),   // green
    Rgb(200, 20, 60),   // crimson
    Rgb(120, 80, 170),  // purple
    Rgb(140, 90, 40),   // brown
    Rgb(210, 100, 170), // pink
    Rgb(90, 90, 90),    // dark gray
    Rgb(150, 150, 0),   // olive
    Rgb(0, 170, 200),   // cyan
];

/// The color of series number `i`.
pub fn series_color(i: usize) -> Rgb {
    PALETTE[i % PALETTE.len()]
}

/// Stops of the timeline ramp, from value 0 (light) to value 1 (dark).
const RAMP: [Rgb; 5] = [
    Rgb(255, 240, 190),
    Rgb(250, 190, 90),
    Rgb(230, 110, 40),
    Rgb(170, 30, 50),
    Rgb(60, 10, 70),
];

/// The ramp color of `value` in `0..=1` (clamped; NaN counts as 0), interpolated linearly
/// between the stops.
pub fn ramp(value: f32) -> Rgb {
    let v = if value.is_nan() {
        0.0
    } else {
        value.clamp(0.0, 1.0)
    };
    let pos = v * (RAMP.len() - 1) as f32;
    let i = (pos.floor() as usize).min(RAMP.len() - 2);
    let t = pos - i as f32;
    RAMP[i + 1].over(RAMP[i], t)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn luma(c: Rgb) -> u32 {
        299 * u32::from(c.0) + 587 * u32::from(c.1) + 114 * u32::from(c.2)
    }

    #[test]
    fn ramp_gets_darker() {
        let mut last = u32::MAX;
        for i in 0..=32 {
            let l = luma(ramp(i as f32 / 32.0));
            assert!(l < last, "ramp not monotonic at {i}/32");
            last = l;
        }
        assert_eq!(ramp(0.0), RAMP[0]);
        assert_eq!(ramp(1.0), RAMP[4]);
        assert_eq!(ramp(f32::NAN), RAMP[0]);
        assert_eq!(ramp(7.0), RAMP[4]);
    }

    #[test]
    fn palette_colors_differ_from_each_other_and_the_theme() {
        for (i, a) in PALETTE.iter().enumerate() {
            for b in &PALETTE[i + 1..] {
                assert_ne!(a, b);
            }
            assert!(![BACKGROUND, AXIS, GRID, TEXT].contains(a));
        }
    }

    #[test]
    fn blending() {
        assert_eq!(
            Rgb(200, 0, 100).over(Rgb(0, 200, 100), 0.5),
            Rgb(100, 100, 100)
        );
        assert_eq!(Rgb(1, 2, 3).over(BACKGROUND, 1.0), Rgb(1, 2, 3));
        assert_eq!(Rgb(1, 2, 3).over(BACKGROUND, -1.0), BACKGROUND);
    }
}
