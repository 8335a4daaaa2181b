//! Axis scales, their ranges and tick positions.
//!
//! Linear axes put ticks at 1, 2 or 5 times a power of ten, so that every label is short and
//! steps are easy to read; log axes put them at whole powers of their base, because benchmark
//! sweeps double or multiply by ten from point to point and a reader wants to see those points.

use crate::PlotError;
use crate::label;

/// How data values map onto an axis.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub enum Scale {
    /// Evenly spaced values.
    #[default]
    Linear,
    /// Logarithmic, ticks at powers of two (labels `512`, `1Ki`, ...).
    Log2,
    /// Logarithmic, ticks at powers of ten (labels `10`, `1k`, `1e-3`, ...).
    Log10,
}

impl Scale {
    /// Whether `v` can be shown: finite, and positive on a log scale.
    pub fn accepts(self, v: f64) -> bool {
        v.is_finite() && (self == Scale::Linear || v > 0.0)
    }

    /// `v` in the scale's even space (`log2 v`, `log10 v` or `v`), or `None` where
    /// [`Scale::accepts`] is false.
    pub fn forward(self, v: f64) -> Option<f64> {
        if !self.accepts(v) {
            return None;
        }
        Some(match self {
            Scale::Linear => v,
            Scale::Log2 => v.log2(),
            Scale::Log10 => v.log10(),
        })
    }

    /// The inverse of [`Scale::forward`]; exact at whole powers, so that tick values are the
    /// powers themselves (`0.01`, not `0.010000000000000002`).
    pub fn inverse(self, t: f64) -> f64 {
        match self {
            Scale::Linear => t,
            Scale::Log2 => t.exp2(),
            Scale::Log10 if t == t.round() && t.abs() < 300.0 => {
                // Parsing rounds correctly; `powf` and `powi` need not.
                format!("1e{}", t as i64).parse().unwrap_or(f64::NAN)
            }
            Scale::Log10 => 10f64.powf(t),
        }
    }
}

/// A tick mark: where it is and, for major ticks, what it says.
#[derive(Debug, Clone, PartialEq)]
pub struct Tick {
    /// Position in data units.
    pub value: f64,
    /// The label of a major tick; `None` for a minor tick (short mark, no grid line).
    pub label: Option<String>,
}

/// How an axis chooses its range and ticks.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AxisOptions {
    /// About how many labelled ticks to aim for.
    pub target_ticks: usize,
    /// Keep the range exactly `min..=max` instead of widening it to the nearest ticks.
    pub tight: bool,
    /// Linear only: steps of at least 1, for counts and indices.
    pub integer_steps: bool,
}

impl Default for AxisOptions {
    fn default() -> Self {
        AxisOptions {
            target_ticks: 6,
            tight: false,
            integer_steps: false,
        }
    }
}

/// A scale with a range and its ticks.
#[derive(Debug, Clone, PartialEq)]
pub struct Axis {
    scale: Scale,
    /// Range ends in the scale's even space ([`Scale::forward`]), `lo < hi`.
    lo: f64,
    hi: f64,
    ticks: Vec<Tick>,
}

impl Axis {
    /// An axis showing `min..=max` (both accepted by `scale`, `min <= max`) with about
    /// `target_ticks` labelled ticks; the range widens to the nearest ticks.
    pub fn new(scale: Scale, min: f64, max: f64, target_ticks: usize) -> Result<Axis, PlotError> {
        Self::with_options(
            scale,
            min,
            max,
            AxisOptions {
                target_ticks,
                ..Default::default()
            },
        )
    }

    /// An axis fitted to every value in `values` that `scale` accepts; `axis` names it in
    /// errors (`"x"`, `"y"`).
    pub fn fit(
        scale: Scale,
        values: impl IntoIterator<Item = f64>,
        axis: &'static str,
        options: AxisOptions,
    ) -> Result<Axis, PlotError> {
        let (mut min, mut max, mut finite, mut kept) = (f64::MAX, f64::MIN, 0usize, 0usize);
        for v in values {
            finite += usize::from(v.is_finite());
            if scale.accepts(v) {
                kept += 1;
                min = min.min(v);
                max = max.max(v);
            }
        }
        if kept == 0 {
            if finite == 0 {
                return Err(PlotError::EmptyData {
                    what: format!("no finite {axis} values"),
                });
            }
            return Err(PlotError::BadScale {
                axis,
                scale,
                reason: format!("but none of {finite} finite values is positive"),
            });
        }
        Self::with_options(scale, min, max, options)
    }

    /// An axis showing `min..=max`, chosen as `options` say.
    pub fn with_options(
        scale: Scale,
        min: f64,
        max: f64,
        options: AxisOptions,
    ) -> Result<Axis, PlotError> {
        let (Some(mut lo), Some(mut hi)) = (scale.forward(min), scale.forward(max)) else {
            return Err(PlotError::BadScale {
                axis: "",
                scale,
                reason: format!("but the range is {min}..{max}"),
            });
        };
        if lo > hi {
            return Err(PlotError::InvalidData(format!(
                "axis range {min}..{max} is reversed"
            )));
        }
        let target = options.target_ticks.max(2);
        if lo == hi {
            // One value: show it in the middle of a small range.
            let pad = match scale {
                Scale::Linear if lo == 0.0 => 1.0,
                Scale::Linear => lo.abs() * 0.5,
                Scale::Log2 | Scale::Log10 => 1.0,
            };
            lo -= pad;
            hi += pad;
        }
        let mut axis = Axis {
            scale,
            lo,
            hi,
            ticks: Vec::new(),
        };
        match scale {
            Scale::Linear => axis.linear_ticks(target, options),
            Scale::Log2 | Scale::Log10 => axis.log_ticks(target, options.tight),
        }
        Ok(axis)
    }

    fn linear_ticks(&mut self, target: usize, options: AxisOptions) {
        let raw = (self.hi - self.lo) / target as f64;
        let mag = 10f64.powf(raw.log10().floor());
        // The 1-2-5 step nearest the raw one (by ratio), so that the tick count stays near the
        // target instead of halving whenever rounding up crosses a step.
        let mut step = [1.0, 2.0, 5.0, 10.0]
            .iter()
            .map(|m| m * mag)
            .min_by(|a, b| (a / raw).ln().abs().total_cmp(&(b / raw).ln().abs()));
        if options.integer_steps {
            step = step.map(|s| s.max(1.0).round());
        }
        let step = step.unwrap_or(raw);
        let (k0, k1) = if options.tight {
            (
                (self.lo / step - 1e-9).ceil(),
                (self.hi / step + 1e-9).floor(),
            )
        } else {
            let k = (
                (self.lo / step + 1e-9).floor(),
                (self.hi / step - 1e-9).ceil(),
            );
            self.lo = k.0 * step;
            self.hi = k.1 * step;
            k
        };
        let mut values = Vec::new();
        let mut k = k0;
        while k <= k1 {
            values.push(k * step);
            k += 1.0;
        }
        let labels = label::linear(&values, step);
        self.ticks = (values.into_iter().zip(labels))
            .map(|(value, l)| Tick {
                value,
                label: Some(l),
            })
            .collect();
    }

    fn log_ticks(&mut self, target: usize, tight: bool) {
        let (e0, e1) = ((self.lo + 1e-9).floor(), (self.hi - 1e-9).ceil());
        let decimal = self.scale == Scale::Log10;
        if !tight {
            if decimal {
                // Widen only to the nearest 1..9 x 10^k, not to whole decades, which can waste
                // most of a short axis.
                let (lo, hi) = (self.scale.inverse(self.lo), self.scale.inverse(self.hi));
                let step_lo = self.scale.inverse(e0);
                let step_hi = self.scale.inverse(e1 - 1.0);
                self.lo = ((lo / step_lo * (1.0 + 1e-9)).floor() * step_lo).log10();
                self.hi = ((hi / step_hi * (1.0 - 1e-9)).ceil() * step_hi).log10();
            } else {
                self.lo = e0;
                self.hi = e1;
            }
        }
        let powers = (e1 - e0) as i64;
        // Label every `stride`-th power, aligned to multiples of `stride` so that the labels of
        // two charts of the same data agree.
        let stride = ((powers as f64 / target as f64).ceil() as i64).max(1);
        // With few decades there is room to label 2x and 5x too.
        let label_2_5 = decimal && powers * 3 <= target as i64;
        for e in e0 as i64..=e1 as i64 {
            let value = self.scale.inverse(e as f64);
            let major = e.rem_euclid(stride) == 0;
            let label = major.then(|| {
                if decimal {
                    label::decimal(value, value)
                } else {
                    label::power_of_two(e as i32)
                }
            });
            self.push_if_inside(value, label);
            if decimal && powers <= 8 && e < e1 as i64 {
                for m in 2..=9 {
                    let v = f64::from(m) * value;
                    let label = (label_2_5 && (m == 2 || m == 5)).then(|| label::decimal(v, value));
                    self.push_if_inside(v, label);
                }
            }
        }
        // A range inside one decade may hold no power: label its 1..9 x 10^k ticks instead.
        if self.ticks.iter().filter(|t| t.label.is_some()).count() < 2 {
            for t in &mut self.ticks {
                let res = 10f64.powf(t.value.log10().floor());
                t.label = Some(label::decimal(t.value, res));
            }
        }
    }

    fn push_if_inside(&mut self, value: f64, label: Option<String>) {
        let t = self.scale.forward(value).unwrap_or(f64::NAN);
        if t >= self.lo - 1e-9 && t <= self.hi + 1e-9 {
            self.ticks.push(Tick { value, label });
        }
    }

    /// The scale.
    pub fn scale(&self) -> Scale {
        self.scale
    }

    /// The range shown, in data units.
    pub fn range(&self) -> (f64, f64) {
        (self.scale.inverse(self.lo), self.scale.inverse(self.hi))
    }

    /// The ticks, in increasing order of value.
    pub fn ticks(&self) -> &[Tick] {
        &self.ticks
    }

    /// Where `v` lies on the axis: 0 at the low end, 1 at the high end (outside `0..=1` when
    /// `v` is outside the range); `None` where the scale does not accept `v`.
    pub fn fraction(&self, v: f64) -> Option<f64> {
        self.scale
            .forward(v)
            .map(|t| (t - self.lo) / (self.hi - self.lo))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn labels(axis: &Axis) -> Vec<&str> {
        axis.ticks()
            .iter()
            .filter_map(|t| t.label.as_deref())
            .collect()
    }

    #[test]
    fn linear_ticks_are_nice() {
        let a = Axis::new(Scale::Linear, 0.3, 9.2, 6).unwrap();
        assert_eq!(labels(&a), ["0", "2", "4", "6", "8", "10"]);
        assert_eq!(a.range(), (0.0, 10.0));
        let a = Axis::new(Scale::Linear, 0.013, 0.087, 5).unwrap();
        assert_eq!(labels(&a), ["0", "0.02", "0.04", "0.06", "0.08", "0.1"]);
        let a = Axis::new(Scale::Linear, 0.0, 0.87, 5).unwrap();
        assert_eq!(labels(&a), ["0", "0.2", "0.4", "0.6", "0.8", "1"]);
        let a = Axis::new(Scale::Linear, -1200.0, 3400.0, 5).unwrap();
        assert_eq!(labels(&a), ["-2k", "-1k", "0", "1k", "2k", "3k", "4k"]);
        for t in a.ticks() {
            let step_multiple = t.value / 1000.0;
            assert!((step_multiple - step_multiple.round()).abs() < 1e-9);
        }
    }

    #[test]
    fn linear_tight_and_integer() {
        let tight = AxisOptions {
            target_ticks: 5,
            tight: true,
            integer_steps: false,
        };
        let a = Axis::with_options(Scale::Linear, 0.0, 7.3, tight).unwrap();
        assert_eq!(a.range(), (0.0, 7.3));
        assert_eq!(labels(&a), ["0", "2", "4", "6"]);
        let ints = AxisOptions {
            target_ticks: 8,
            tight: false,
            integer_steps: true,
        };
        let a = Axis::with_options(Scale::Linear, 0.0, 3.0, ints).unwrap();
        assert_eq!(labels(&a), ["0", "1", "2", "3"]);
    }

    #[test]
    fn single_value_gets_a_range() {
        let a = Axis::new(Scale::Linear, 5.0, 5.0, 5).unwrap();
        let (lo, hi) = a.range();
        assert!(lo < 5.0 && hi > 5.0);
        let a = Axis::new(Scale::Log10, 100.0, 100.0, 5).unwrap();
        let (lo, hi) = a.range();
        assert!(
            (lo - 10.0).abs() < 1e-9 && (hi - 1000.0).abs() < 1e-6,
            "{lo} {hi}"
        );
        let a = Axis::new(Scale::Linear, 0.0, 0.0, 5).unwrap();
        assert_eq!(a.range(), (-1.0, 1.0));
    }

    #[test]
    fn log10_ticks_at_powers() {
        let a = Axis::new(Scale::Log10, 3.0, 2.0e6, 8).unwrap();
        let (lo, hi) = a.range();
        assert!(
            (lo - 3.0).abs() < 1e-9 && (hi / 2e6 - 1.0).abs() < 1e-9,
            "{lo} {hi}"
        );
        assert_eq!(labels(&a), ["10", "100", "1k", "10k", "100k", "1M"]);
        // Minor ticks at 2..9 times each power, unlabelled.
        assert!(
            a.ticks()
                .iter()
                .any(|t| t.value == 3000.0 && t.label.is_none())
        );
        let a = Axis::new(Scale::Log10, 1e-4, 0.5, 8).unwrap();
        assert_eq!(labels(&a), ["1e-4", "1e-3", "0.01", "0.1"]);
        // Widened to the nearest 1..9 x 10^k.
        let a = Axis::new(Scale::Log10, 0.0053, 115.0, 8).unwrap();
        let (lo, hi) = a.range();
        assert!(
            (lo - 0.005).abs() < 1e-12 && (hi - 200.0).abs() < 1e-9,
            "{lo} {hi}"
        );
    }

    #[test]
    fn log10_with_many_decades_labels_every_other_power() {
        let a = Axis::new(Scale::Log10, 1.0, 1e12, 6).unwrap();
        assert_eq!(a.range(), (1.0, 1e12));
        assert_eq!(labels(&a), ["1", "100", "10k", "1M", "100M", "10G", "1T"]);
    }

    #[test]
    fn log10_with_one_decade_labels_2_and_5() {
        let a = Axis::new(Scale::Log10, 12.0, 90.0, 6).unwrap();
        assert_eq!(labels(&a), ["10", "20", "50"]);
        // No power of ten in range: every tick is labelled.
        let a = Axis::new(Scale::Log10, 31.0, 44.0, 6).unwrap();
        assert_eq!(labels(&a), ["30", "40", "50"]);
    }

    #[test]
    fn log2_ticks_at_powers_of_two() {
        let a = Axis::new(Scale::Log2, 32.0, 8192.0, 10).unwrap();
        assert_eq!(
            labels(&a),
            ["32", "64", "128", "256", "512", "1Ki", "2Ki", "4Ki", "8Ki"]
        );
        let a = Axis::new(Scale::Log2, 1.0, 1048576.0, 5).unwrap();
        assert_eq!(labels(&a), ["1", "16", "256", "4Ki", "64Ki", "1Mi"]);
        // The powers in between are minor ticks.
        assert!(
            a.ticks()
                .iter()
                .any(|t| t.value == 2.0 && t.label.is_none())
        );
    }

    #[test]
    fn fraction_maps_ends_to_0_and_1() {
        let a = Axis::new(Scale::Log2, 4.0, 64.0, 5).unwrap();
        assert_eq!(a.fraction(4.0), Some(0.0));
        assert_eq!(a.fraction(64.0), Some(1.0));
        assert_eq!(a.fraction(16.0), Some(0.5));
        assert_eq!(a.fraction(0.0), None);
        let a = Axis::new(Scale::Linear, 0.0, 10.0, 5).unwrap();
        assert_eq!(a.fraction(2.5), Some(0.25));
        assert_eq!(a.fraction(f64::NAN), None);
    }

    #[test]
    fn fit_skips_what_the_scale_cannot_show() {
        let opts = AxisOptions::default();
        let a = Axis::fit(Scale::Log10, [-1.0, 0.0, f64::NAN, 10.0, 1000.0], "x", opts).unwrap();
        assert_eq!(a.range(), (10.0, 1000.0));
        match Axis::fit(Scale::Log2, [-1.0, 0.0], "y", opts) {
            Err(PlotError::BadScale {
                axis: "y",
                scale: Scale::Log2,
                ..
            }) => {}
            other => panic!("expected BadScale, got {other:?}"),
        }
        assert!(matches!(
            Axis::fit(Scale::Linear, [f64::NAN], "x", opts),
            Err(PlotError::EmptyData { .. })
        ));
    }
}
