//! `gtap-plot hist`: how a column's values are distributed, e.g. the task time of a round in
//! `round_times.csv` (GTaP's Fig. 11), with a log count axis for long tails.

use plotters::element::Rectangle;
use plotters::style::{Color, RGBColor};

use crate::axis::{Axis, Scale};
use crate::canvas;
use crate::cli::HistArgs;
use crate::error::{Error, Result};
use crate::table::Table;

/// A bin: its range and how many values fell in it.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Bin {
    lo: f64,
    hi: f64,
    count: f64,
}

const BAR: RGBColor = RGBColor(70, 130, 190);
const BAR_EDGE: RGBColor = RGBColor(30, 70, 120);

/// Draws the chart; returns what was drawn, for the user.
pub fn run(args: &HistArgs) -> Result<String> {
    let table = Table::read_filtered(&args.common.input, &args.common.filter)?;
    let col = table.column(&args.value)?;
    let mut values = Vec::with_capacity(table.rows.len());
    for row in &table.rows {
        values.push(table.number(row, col)?);
    }
    values.retain(|v| v.is_finite());
    if values.is_empty() {
        return Err(Error::Data(format!(
            "nothing to plot: no finite `{}` value in {}",
            args.value,
            table.path.display()
        )));
    }
    let n = match args.bins {
        Some(n) => n as usize,
        None => ((values.len() as f64).sqrt().ceil() as usize).clamp(1, 50),
    };
    let bins = bin(&values, n);
    let x_axis = Axis::exact(Scale::Linear, bins[0].lo, bins[bins.len() - 1].hi);
    let counts = bins.iter().map(|b| b.count);
    let y_axis = if args.log_y {
        // Down to half the smallest count below a power of ten, so that a bin of one shows.
        let fit = Axis::fit(Scale::Log10, counts, 0.0, "counts")?;
        Axis::exact(Scale::Log10, fit.low() / 2.0, fit.high())
    } else {
        let top = counts.fold(0.0, f64::max) * 1.05;
        Axis::exact(Scale::Linear, 0.0, top).integers()
    };
    let base = y_axis.low();
    let x_desc = args.labels.x_label.as_deref().unwrap_or(&args.value);
    let y_desc = args.labels.y_label.as_deref().unwrap_or("count");
    canvas::draw_png(&args.common, |area, layout| {
        let mut chart = layout.builder(area).build_cartesian_2d(x_axis, y_axis)?;
        layout.frame(&mut chart, x_desc, y_desc, true)?;
        let shown = || bins.iter().filter(|b| b.count > 0.0);
        chart.draw_series(
            shown().map(|b| Rectangle::new([(b.lo, base), (b.hi, b.count)], BAR.filled())),
        )?;
        chart.draw_series(
            shown().map(|b| Rectangle::new([(b.lo, base), (b.hi, b.count)], BAR_EDGE)),
        )?;
        Ok(())
    })?;
    Ok(format!("{} values in {} bins", values.len(), bins.len()))
}

/// `n` equal-width bins from the smallest value to the largest (which falls in the last
/// bin); equal values get one bin of width 1 around them. `values` are finite, not empty.
fn bin(values: &[f64], n: usize) -> Vec<Bin> {
    let min = values.iter().copied().fold(f64::INFINITY, f64::min);
    let max = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if min == max {
        let count = values.len() as f64;
        return vec![Bin {
            lo: min - 0.5,
            hi: min + 0.5,
            count,
        }];
    }
    let width = (max - min) / n as f64;
    let mut bins: Vec<Bin> = (0..n)
        .map(|i| Bin {
            lo: min + i as f64 * width,
            hi: min + (i + 1) as f64 * width,
            count: 0.0,
        })
        .collect();
    bins[n - 1].hi = max;
    for v in values {
        let i = (((v - min) / width) as usize).min(n - 1);
        bins[i].count += 1.0;
    }
    bins
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binning() {
        let counts = |values: &[f64], n| bin(values, n).iter().map(|b| b.count).collect::<Vec<_>>();
        assert_eq!(counts(&[0.0, 1.0, 2.0, 3.0, 4.0], 2), [2.0, 3.0]);
        assert_eq!(counts(&[1.0, 1.0, 10.0], 3), [2.0, 0.0, 1.0]);
        let b = bin(&[5.0, 5.0], 4);
        assert_eq!(
            b,
            [Bin {
                lo: 4.5,
                hi: 5.5,
                count: 2.0
            }]
        );
        let b = bin(&[0.0, 0.1, 0.3], 3);
        assert_eq!((b[0].lo, b[2].hi), (0.0, 0.3));
    }
}
