//! Histograms: bars over bins, for distributions such as the per-warp task time of a round.

use crate::PlotError;
use crate::color::{BACKGROUND, BAR, BAR_EDGE};
use crate::frame::{Extra, Frame, Labels};
use crate::image::{Image, Rect};
use crate::scale::{Axis, AxisOptions, Scale};

/// A bar chart of counts over bins `lo..hi`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Histogram {
    /// Title above the chart; empty for none.
    pub title: String,
    /// Label under the x axis; empty for none.
    pub x_label: String,
    /// Label beside the y axis; empty for none.
    pub y_label: String,
    /// `(lo, hi, count)` per bin, `lo < hi`, `count >= 0`; bins may have gaps between them.
    pub bins: Vec<(f64, f64, f64)>,
    /// Log-scale counts (base 10), for long tails; empty bins are then not drawn.
    pub log_y: bool,
}

impl Histogram {
    /// `n` equal-width bins over the finite values in `values`, from the smallest to the
    /// largest (the largest falls in the last bin). All-equal values get one bin of width 1
    /// around them; no finite values give no bins.
    pub fn bin(values: &[f64], n: usize) -> Vec<(f64, f64, f64)> {
        let finite: Vec<f64> = values.iter().copied().filter(|v| v.is_finite()).collect();
        let (Some(min), Some(max)) = (
            finite.iter().copied().reduce(f64::min),
            finite.iter().copied().reduce(f64::max),
        ) else {
            return Vec::new();
        };
        if min == max {
            return vec![(min - 0.5, min + 0.5, finite.len() as f64)];
        }
        let n = n.max(1);
        let width = (max - min) / n as f64;
        let mut bins: Vec<(f64, f64, f64)> = (0..n)
            .map(|i| (min + i as f64 * width, min + (i + 1) as f64 * width, 0.0))
            .collect();
        bins[n - 1].1 = max;
        for v in finite {
            let i = (((v - min) / width) as usize).min(n - 1);
            bins[i].2 += 1.0;
        }
        bins
    }

    fn check(&self) -> Result<(), PlotError> {
        if self.bins.is_empty() {
            return Err(PlotError::EmptyData {
                what: "histogram: no bins".into(),
            });
        }
        for (i, &(lo, hi, count)) in self.bins.iter().enumerate() {
            if !(lo.is_finite() && hi.is_finite() && lo < hi) {
                return Err(PlotError::InvalidData(format!(
                    "histogram bin {i} is {lo}..{hi}"
                )));
            }
            if !(count.is_finite() && count >= 0.0) {
                return Err(PlotError::InvalidData(format!(
                    "histogram bin {i} has count {count}"
                )));
            }
        }
        Ok(())
    }

    fn labels(&self) -> Labels<'_> {
        Labels {
            title: &self.title,
            x: &self.x_label,
            y: &self.y_label,
        }
    }

    pub(crate) fn layout(&self, width: u32, height: u32) -> Result<(Frame, Axis, Axis), PlotError> {
        self.check()?;
        let edges = self.bins.iter().flat_map(|b| [b.0, b.1]);
        let integral = self.bins.iter().all(|b| b.2.fract() == 0.0);
        let y_scale = if self.log_y {
            Scale::Log10
        } else {
            Scale::Linear
        };
        // Linear counts start at 0 so that bar heights compare; log counts at half the
        // smallest count, so that the smallest bars still show.
        let min_positive = self
            .bins
            .iter()
            .map(|b| b.2)
            .filter(|c| *c > 0.0)
            .reduce(f64::min);
        let floor = if self.log_y {
            min_positive.map(|c| c / 2.0)
        } else {
            Some(0.0)
        };
        // Headroom above the tallest bar, so that it does not merge with the frame.
        let max = self.bins.iter().map(|b| b.2).fold(0.0, f64::max);
        let ceiling = max * if self.log_y { 1.3 } else { 1.05 };
        let counts = self.bins.iter().map(|b| b.2).chain(floor).chain([ceiling]);
        Frame::layout(
            width,
            height,
            self.labels(),
            Extra::default(),
            |style, len| {
                let target_ticks = style.y_ticks(len);
                let opts = AxisOptions {
                    target_ticks,
                    integer_steps: integral,
                    tight: false,
                };
                Axis::fit(y_scale, counts, "y", opts)
            },
            |style, len| {
                let opts = AxisOptions {
                    target_ticks: style.x_ticks(len),
                    ..Default::default()
                };
                Axis::fit(Scale::Linear, edges, "x", opts)
            },
        )
    }

    /// Draws the histogram on a `width` x `height` white image.
    pub fn render(&self, width: u32, height: u32) -> Result<Image, PlotError> {
        let (frame, x, y) = self.layout(width, height)?;
        let mut img = Image::new(width, height, BACKGROUND);
        frame.draw_grid(&mut img, &x, &y);
        let old_clip = img.set_clip(Some(frame.plot));
        let bottom = frame.plot.y1;
        for &(lo, hi, count) in &self.bins {
            let (Some(f_lo), Some(f_hi), Some(f_c)) =
                (x.fraction(lo), x.fraction(hi), y.fraction(count))
            else {
                continue; // a zero count on a log axis
            };
            let x0 = frame.x_at(f_lo).round() as i32;
            let mut x1 = frame.x_at(f_hi).round() as i32;
            if x1 - x0 >= 5 {
                x1 -= 1; // a gap between neighbouring bars
            }
            let x1 = x1.max(x0 + 1);
            let mut top = frame.y_at(f_c).round() as i32;
            if count > 0.0 {
                top = top.min(bottom - 2); // a non-empty bin never vanishes
            }
            let bar = Rect {
                x0,
                y0: top,
                x1,
                y1: bottom,
            };
            img.fill_rect(bar, BAR);
            if bar.width() >= 3 && bar.height() >= 3 {
                img.stroke_rect(bar, BAR_EDGE);
            }
        }
        img.set_clip(Some(old_clip));
        frame.draw_axes(&mut img, &x, &y, self.labels());
        Ok(img)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::color::AXIS;

    #[test]
    fn binning_counts_every_finite_value_once() {
        let v = [0.0, 1.0, 2.0, 3.0, 4.0, 9.99, 10.0, f64::NAN];
        let bins = Histogram::bin(&v, 5);
        assert_eq!(bins.len(), 5);
        assert_eq!(bins[0], (0.0, 2.0, 2.0));
        assert_eq!(bins[4], (8.0, 10.0, 2.0));
        assert_eq!(bins.iter().map(|b| b.2).sum::<f64>(), 7.0);
        assert_eq!(Histogram::bin(&[3.0, 3.0], 4), vec![(2.5, 3.5, 2.0)]);
        assert!(Histogram::bin(&[f64::INFINITY], 4).is_empty());
    }

    fn hist() -> Histogram {
        Histogram {
            title: "task time per warp".into(),
            x_label: "us".into(),
            y_label: "warps".into(),
            bins: vec![
                (0.0, 1.0, 5.0),
                (1.0, 2.0, 40.0),
                (2.0, 3.0, 0.0),
                (3.0, 4.0, 1.0),
            ],
            log_y: false,
        }
    }

    #[test]
    fn bars_and_axes_are_drawn() {
        let h = hist();
        let img = h.render(600, 400).unwrap();
        let (frame, x, y) = h.layout(600, 400).unwrap();
        let p = frame.plot;
        assert_eq!(
            img.pixel(p.x0 as u32 - 1, ((p.y0 + p.y1) / 2) as u32),
            Some(AXIS)
        );
        // The tallest bar is filled at its middle, just above the x axis.
        let cx = frame.x_at(x.fraction(1.5).unwrap()) as u32;
        let cy = frame.y_at(y.fraction(20.0).unwrap()) as u32;
        assert_eq!(img.pixel(cx, cy), Some(BAR));
        // The empty bin draws nothing above the axis.
        let ex = frame.x_at(x.fraction(2.5).unwrap()) as u32;
        assert_ne!(img.pixel(ex, p.y1 as u32 - 3), Some(BAR));
    }

    #[test]
    fn log_counts() {
        let mut h = hist();
        h.log_y = true;
        let img = h.render(600, 400).unwrap();
        assert!(img.as_bytes().chunks(3).any(|p| p == [BAR.0, BAR.1, BAR.2]));
        h.bins = vec![(0.0, 1.0, 0.0)];
        assert!(matches!(
            h.render(600, 400),
            Err(PlotError::BadScale { axis: "y", .. })
        ));
    }

    #[test]
    fn bad_bins_are_errors() {
        let mut h = hist();
        h.bins.push((5.0, 5.0, 1.0));
        assert!(matches!(h.render(600, 400), Err(PlotError::InvalidData(_))));
        h.bins = vec![(0.0, 1.0, -1.0)];
        assert!(matches!(h.render(600, 400), Err(PlotError::InvalidData(_))));
        h.bins.clear();
        assert!(matches!(
            h.render(600, 400),
            Err(PlotError::EmptyData { .. })
        ));
    }
}
