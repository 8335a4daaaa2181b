//! Chart axes: a plotters coordinate that is linear, log base 10 or log base 2, with short tick
//! labels (`1.5k`, `8Ki`, `1e-3`).
//!
//! plotters has a log coordinate, but it places no tick at all on a range narrower than one
//! power, has no base-2 labels, and formats ticks with `Debug` (`1000000.0`). Sweeps are
//! mostly powers of two and times spanning decades, so this type widens log ranges to whole
//! powers and places ticks on them; linear axes keep plotters' own 1-2-5 ticks.

use std::ops::Range;

use plotters::coord::ranged1d::{KeyPointHint, NoDefaultFormatting, Ranged, ValueFormatter};
use plotters::coord::types::RangedCoordf64;

use crate::error::{Error, Result};

/// How values map to positions on an axis.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scale {
    /// Evenly spaced values.
    Linear,
    /// Evenly spaced powers of 10.
    Log10,
    /// Evenly spaced powers of 2.
    Log2,
}

impl Scale {
    /// The scale of `--log-*` (base 10) and `--log2-*` (base 2), linear with neither.
    pub fn from_flags(log10: bool, log2: bool) -> Scale {
        match (log10, log2) {
            (true, _) => Scale::Log10,
            (false, true) => Scale::Log2,
            (false, false) => Scale::Linear,
        }
    }

    /// Whether a point at `v` can be drawn: finite, and positive on a log axis.
    pub fn shows(self, v: f64) -> bool {
        v.is_finite() && (self == Scale::Linear || v > 0.0)
    }

    fn base(self) -> f64 {
        match self {
            Scale::Linear => 1.0,
            Scale::Log10 => 10.0,
            Scale::Log2 => 2.0,
        }
    }

    /// Where `v` lies on a linear scale: itself, or its logarithm (exact for powers of the
    /// base, which `f64::log` misses by an ulp: `log10(0.001)` is -2.9999999999999996).
    fn linearize(self, v: f64) -> f64 {
        if self == Scale::Linear {
            return v;
        }
        let t = v.log(self.base());
        if (t - t.round()).abs() < 1e-9 {
            t.round()
        } else {
            t
        }
    }
}

/// One axis of a chart: a [`Scale`] over a range of values, usable as a plotters coordinate.
#[derive(Debug, Clone)]
pub struct Axis {
    scale: Scale,
    range: Range<f64>,
    integers: bool,
}

impl Axis {
    /// An axis from `start` to `end` as given (`end < start` runs backwards, e.g. rows going
    /// down). Both must be finite, and positive on a log scale.
    pub fn exact(scale: Scale, start: f64, end: f64) -> Axis {
        Axis {
            scale,
            range: start..end,
            integers: false,
        }
    }

    /// An axis over `values` (those the scale cannot show are left out; `what` names the
    /// axis in the error when none is left): log scales widen to whole powers, linear ones
    /// by `pad` of the span on each side, and a single value gets a range around it.
    pub fn fit(
        scale: Scale,
        values: impl IntoIterator<Item = f64>,
        pad: f64,
        what: &str,
    ) -> Result<Axis> {
        let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
        for v in values.into_iter().filter(|&v| scale.shows(v)) {
            (lo, hi) = (lo.min(v), hi.max(v));
        }
        if lo > hi {
            let kind = if scale == Scale::Linear {
                "finite"
            } else {
                "positive"
            };
            return Err(Error::Data(format!("nothing to plot: no {kind} {what}")));
        }
        let (start, end) = match scale {
            Scale::Linear if lo == hi => {
                (lo - lo.abs().max(1.0) * 0.5, hi + hi.abs().max(1.0) * 0.5)
            }
            Scale::Linear => (lo - (hi - lo) * pad, hi + (hi - lo) * pad),
            _ => {
                let first = scale.linearize(lo).floor() as i32;
                let last = scale.linearize(hi).ceil() as i32;
                // A single power gets one more on each side, to sit in the middle.
                let (first, last) = if first == last {
                    (first - 1, last + 1)
                } else {
                    (first, last)
                };
                (scale.base().powi(first), scale.base().powi(last))
            }
        };
        Ok(Axis::exact(scale, start, end))
    }

    /// Ticks only at whole numbers (for counts and row indices).
    pub fn integers(mut self) -> Axis {
        self.integers = true;
        self
    }

    /// The lower end of the axis (the start or the end, whichever is smaller).
    pub fn low(&self) -> f64 {
        self.range.start.min(self.range.end)
    }

    /// The upper end of the axis (the start or the end, whichever is larger).
    pub fn high(&self) -> f64 {
        self.range.start.max(self.range.end)
    }

    /// The powers of the base within the range, every `stride`-th so that at most `max` remain.
    fn powers(&self, max: usize) -> Vec<f64> {
        let (a, b) = (
            self.scale.linearize(self.range.start),
            self.scale.linearize(self.range.end),
        );
        let (first, last) = (a.min(b).ceil() as i32, a.max(b).floor() as i32);
        let count = (last - first + 1).max(0) as usize;
        let stride = count.div_ceil(max.max(1)).max(1);
        (first..=last)
            .step_by(stride)
            .map(|e| self.scale.base().powi(e))
            .collect()
    }

    /// Log ticks: powers of the base; on a log10 axis of at most two decades also 2x and 5x
    /// them, and for grid lines (`light`) every multiple 2x to 9x.
    fn log_points(&self, max: usize, light: bool) -> Vec<f64> {
        let powers = self.powers(max);
        if self.scale != Scale::Log10 || (powers.len() > 3 && !light) {
            return powers;
        }
        let multiples: &[f64] = if light {
            &[1., 2., 3., 4., 5., 6., 7., 8., 9.]
        } else {
            &[1., 2., 5.]
        };
        let (lo, hi) = (self.low(), self.high());
        let first = powers.first().map_or(lo, |p| p / 10.0);
        let mut points: Vec<f64> = std::iter::successors(Some(first), |p| Some(p * 10.0))
            .take_while(|&p| p <= hi)
            .flat_map(|p| multiples.iter().map(move |m| p * m))
            .filter(|v| (lo * (1.0 - 1e-9)..=hi * (1.0 + 1e-9)).contains(v))
            .collect();
        if points.len() > max {
            points = powers;
        }
        points
    }
}

impl Ranged for Axis {
    type FormatOption = NoDefaultFormatting;
    type ValueType = f64;

    fn map(&self, value: &f64, limit: (i32, i32)) -> i32 {
        let s = self.scale;
        let (a, b) = (s.linearize(self.range.start), s.linearize(self.range.end));
        let fraction = (s.linearize(*value) - a) / (b - a);
        limit.0 + (fraction * f64::from(limit.1 - limit.0)).round() as i32
    }

    fn key_points<Hint: KeyPointHint>(&self, hint: Hint) -> Vec<f64> {
        let max = hint.max_num_points();
        let points = match self.scale {
            Scale::Linear => RangedCoordf64::from(self.range.clone()).key_points(hint),
            _ => self.log_points(max, hint.weight().allow_light_points()),
        };
        if self.integers {
            return points.into_iter().filter(|v| v.fract() == 0.0).collect();
        }
        points
    }

    fn range(&self) -> Range<f64> {
        self.range.clone()
    }
}

impl ValueFormatter<f64> for Axis {
    fn format_ext(&self, value: &f64) -> String {
        label(*value, self.scale)
    }
}

/// A short tick label: `0.25`, `40`, `1.5k`, `2M`, `1e-5`; on a log2 axis, powers of two from
/// 1024 up as `1Ki`, `8Mi`.
pub fn label(v: f64, scale: Scale) -> String {
    if scale == Scale::Log2 && (1024.0..2f64.powi(70)).contains(&v) && v.log2().fract() == 0.0 {
        let e = v.log2() as usize;
        let unit = ["Ki", "Mi", "Gi", "Ti", "Pi", "Ei"][e / 10 - 1];
        return format!("{}{unit}", 1u32 << (e % 10));
    }
    // Six significant digits, so that 0.1 + 0.2 shows as 0.3.
    let v: f64 = format!("{v:.5e}").parse().unwrap_or(v);
    let a = v.abs();
    if v == 0.0 {
        return "0".into();
    }
    if !(1e-3..1e15).contains(&a) {
        return format!("{v:e}");
    }
    let (div, unit) = [(1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k"), (1.0, "")]
        .into_iter()
        .find(|&(d, _)| a >= d)
        .unwrap_or((1.0, ""));
    let mantissa: f64 = format!("{:.3}", v / div).parse().unwrap_or(v / div);
    format!("{mantissa}{unit}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bold(axis: &Axis, max: usize) -> Vec<String> {
        axis.key_points(plotters::coord::ranged1d::BoldPoints(max))
            .iter()
            .map(|v| axis.format_ext(v))
            .collect()
    }

    #[test]
    fn labels() {
        let l = |v| label(v, Scale::Linear);
        assert_eq!(
            [l(0.0), l(0.1 + 0.2), l(2.0), l(-40.0), l(999.5)],
            ["0", "0.3", "2", "-40", "999.5"]
        );
        assert_eq!(
            [l(1500.0), l(2e6), l(1.25e9), l(0.001), l(1e-5)],
            ["1.5k", "2M", "1.25G", "0.001", "1e-5"]
        );
        assert_eq!(label(8192.0, Scale::Log2), "8Ki");
        assert_eq!(label(1073741824.0, Scale::Log2), "1Gi");
        assert_eq!(label(4194304.0, Scale::Log2), "4Mi");
        assert_eq!(label(512.0, Scale::Log2), "512");
        assert_eq!(label(3000.0, Scale::Log2), "3k");
        assert_eq!(label(8192.0, Scale::Log10), "8.192k");
    }

    #[test]
    fn log_axes_widen_to_powers_and_tick_on_them() {
        let a = Axis::fit(Scale::Log10, [0.02, 85.0], 0.0, "y").unwrap();
        assert_eq!(a.range(), 0.01..100.0);
        assert_eq!(bold(&a, 10), ["0.01", "0.1", "1", "10", "100"]);
        let a = Axis::fit(Scale::Log2, [1024.0, 1073741824.0], 0.0, "x").unwrap();
        let every_other = [
            "1Ki", "4Ki", "16Ki", "64Ki", "256Ki", "1Mi", "4Mi", "16Mi", "64Mi", "256Mi", "1Gi",
        ];
        assert_eq!(bold(&a, 11), every_other);
        let a = Axis::fit(Scale::Log10, [1.5, 8.0], 0.0, "y").unwrap();
        assert_eq!(bold(&a, 10), ["1", "2", "5", "10"]);
        let a = Axis::fit(Scale::Log10, [100.0], 0.0, "y").unwrap();
        assert_eq!(a.range(), 10.0..1000.0);
        let e = Axis::fit(Scale::Log10, [0.0, -1.0, f64::NAN], 0.0, "y values").unwrap_err();
        assert_eq!(e.to_string(), "nothing to plot: no positive y values");
    }

    #[test]
    fn linear_axes_pad_and_can_keep_to_integers() {
        let a = Axis::fit(Scale::Linear, [0.0, 10.0, f64::NAN], 0.1, "x").unwrap();
        assert_eq!(a.range(), -1.0..11.0);
        assert_eq!(
            Axis::fit(Scale::Linear, [3.0], 0.1, "x").unwrap().range(),
            1.5..4.5
        );
        let rows = Axis::exact(Scale::Linear, 3.0, 0.0).integers();
        assert_eq!(bold(&rows, 10), ["0", "1", "2", "3"]);
        assert_eq!(rows.map(&0.0, (0, 300)), 300);
    }
}
