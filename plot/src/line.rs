//! `gtap-plot line`: y against x, a line per series, for benchmark sweeps (time against
//! problem size, warps, cutoff), usually on log axes.

use plotters::chart::SeriesLabelPosition;
use plotters::element::{Circle, PathElement};
use plotters::series::LineSeries;
use plotters::style::Color;

use crate::axis::{Axis, Scale};
use crate::canvas;
use crate::cli::LineArgs;
use crate::error::{Error, Result};
use crate::table::Table;

/// A named line: its points sorted by x.
type Series = (String, Vec<(f64, f64)>);

/// Draws the chart; returns what was drawn, for the user.
pub fn run(args: &LineArgs) -> Result<String> {
    let table = Table::read_filtered(&args.common.input, &args.common.filter)?;
    let (x, y) = (table.column(&args.x)?, table.column(&args.y)?);
    let groups = match &args.series {
        Some(name) => table.group_by(table.column(name)?),
        None => vec![("", table.rows.iter().collect())],
    };
    let (x_scale, y_scale) = args.scales();
    let mut series: Vec<Series> = Vec::new();
    for (name, rows) in groups {
        let mut points = Vec::with_capacity(rows.len());
        for row in rows {
            let p = (table.number(row, x)?, table.number(row, y)?);
            if x_scale.shows(p.0) && y_scale.shows(p.1) {
                points.push(p);
            }
        }
        points.sort_by(|a, b| a.0.total_cmp(&b.0));
        if !points.is_empty() {
            series.push((name.to_string(), points));
        }
    }
    if series.is_empty() {
        return Err(Error::Data(format!(
            "nothing to plot: no ({}, {}) point in {} is finite{}",
            args.x,
            args.y,
            table.path.display(),
            if (x_scale, y_scale) == (Scale::Linear, Scale::Linear) {
                ""
            } else {
                " and positive on the log axes"
            }
        )));
    }
    let all = || series.iter().flat_map(|s| s.1.iter().copied());
    let x_axis = Axis::fit(x_scale, all().map(|p| p.0), 0.02, "x values")?;
    let y_axis = Axis::fit(y_scale, all().map(|p| p.1), 0.05, "y values")?;
    let legend = legend_corner(&x_axis, &y_axis, all());
    let x_desc = args.labels.x_label.as_deref().unwrap_or(&args.x);
    let y_desc = args.labels.y_label.as_deref().unwrap_or(&args.y);
    canvas::draw_png(&args.common, |area, layout| {
        let mut chart = layout.builder(area).build_cartesian_2d(x_axis, y_axis)?;
        layout.frame(&mut chart, x_desc, y_desc, true)?;
        let width = layout.px(2.0).max(2);
        let marker = layout.px(3.5).max(3);
        for (i, (name, points)) in series.iter().enumerate() {
            let color = canvas::series_color(i);
            let line = LineSeries::new(points.iter().copied(), color.stroke_width(width));
            let drawn = chart.draw_series(line)?;
            if !name.is_empty() {
                let key = layout.px(20.0) as i32;
                drawn.label(name.as_str()).legend(move |(x, y)| {
                    PathElement::new([(x, y), (x + key, y)], color.stroke_width(width))
                });
            }
            chart.draw_series(
                points
                    .iter()
                    .map(|&p| Circle::new(p, marker, color.filled())),
            )?;
        }
        if series.iter().any(|s| !s.0.is_empty()) {
            canvas::legend(&mut chart, layout, legend)?;
        }
        Ok(())
    })?;
    let points: usize = series.iter().map(|s| s.1.len()).sum();
    Ok(format!("{} series, {points} points", series.len()))
}

/// The corner of the plot with the fewest points near it, where the legend hides least.
fn legend_corner(
    x: &Axis,
    y: &Axis,
    points: impl Iterator<Item = (f64, f64)>,
) -> SeriesLabelPosition {
    use plotters::coord::ranged1d::Ranged;
    // Counts per corner: upper left, upper right, lower left, lower right; a corner is the
    // outer 40% of both axes.
    let mut crowd = [0usize; 4];
    for (px, py) in points {
        let (fx, fy) = (x.map(&px, (0, 100)), y.map(&py, (0, 100)));
        let (left, right, low, high) = (fx < 40, fx > 60, fy < 40, fy > 60);
        for (i, near) in [high && left, high && right, low && left, low && right]
            .into_iter()
            .enumerate()
        {
            crowd[i] += usize::from(near);
        }
    }
    match (0..4).min_by_key(|&i| crowd[i]) {
        Some(1) => SeriesLabelPosition::UpperRight,
        Some(2) => SeriesLabelPosition::LowerLeft,
        Some(3) => SeriesLabelPosition::LowerRight,
        _ => SeriesLabelPosition::UpperLeft,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_legend_goes_where_the_points_are_not() {
        let axis = || Axis::exact(Scale::Linear, 0.0, 10.0);
        let rising = [
            (0.0, 0.0),
            (1.0, 1.0),
            (9.0, 9.0),
            (10.0, 10.0),
            (10.0, 9.0),
        ];
        let corner = legend_corner(&axis(), &axis(), rising.into_iter());
        assert!(matches!(corner, SeriesLabelPosition::UpperLeft));
        let falling = rising.map(|(x, y)| (x, 10.0 - y));
        let corner = legend_corner(&axis(), &axis(), falling.into_iter().chain([(0.0, 0.0)]));
        assert!(matches!(corner, SeriesLabelPosition::UpperRight));
    }
}
