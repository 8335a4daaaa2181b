//! `gtap-plot bar`: one horizontal bar per category and series, for tables of ratios such as
//! `scripts/side-by-side.sh`'s (gtap against GTaP per program and size, a bar per
//! configuration), with reference lines (1x, 2x) to read them against.
//!
//! Bars are horizontal so that category names such as `nqueens 16 q1` stay readable; the first
//! category is drawn at the top, in the order of the file.

use plotters::chart::SeriesLabelPosition;
use plotters::element::{PathElement, Rectangle, Text};
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters::style::{BLACK, Color, RGBColor};

use crate::axis::{Axis, Scale, label};
use crate::canvas::{self, Layout};
use crate::cli::BarArgs;
use crate::error::{Error, Result};
use crate::table::Table;

/// The bars to draw: category names (top to bottom), series names, and `values[c][s]`.
#[derive(Debug, PartialEq)]
struct Bars {
    categories: Vec<String>,
    series: Vec<String>,
    values: Vec<Vec<Option<f64>>>,
}

/// Draws the chart; returns what was drawn, for the user.
pub fn run(args: &BarArgs) -> Result<String> {
    let table = Table::read_filtered(&args.common.input, &args.common.filter)?;
    let bars = collect(&table, args)?;
    let scale = Scale::from_flags(args.log_value, args.log2_value);
    let shown: Vec<f64> = bars.values.iter().flatten().flatten().copied().collect();
    let value_axis = Axis::fit(
        scale,
        shown.iter().chain(&args.reference).copied(),
        0.08,
        "bar values",
    )?;
    let n = bars.categories.len();
    let category_axis = Axis::exact(Scale::Linear, n as f64 - 0.5, -0.5);
    let value_desc = args.labels.x_label.as_deref().unwrap_or(&args.value);
    let longest = bars.categories.iter().map(|c| c.chars().count()).max();
    canvas::draw_png(&args.common, |area, layout| {
        let label_width = layout.px(8.0 * longest.unwrap_or(4) as f64 + 16.0);
        let mut chart = layout
            .builder(area)
            .y_label_area_size(label_width)
            .build_cartesian_2d(value_axis.clone(), category_axis)?;
        let name_of = |v: &f64| category_name(&bars.categories, *v);
        chart
            .configure_mesh()
            .x_desc(value_desc)
            .y_labels(n + 1)
            .y_label_formatter(&name_of)
            .label_style(layout.text(14.0))
            .axis_desc_style(layout.text(16.0))
            .bold_line_style(BLACK.mix(0.12))
            .light_line_style(BLACK.mix(0.04))
            .disable_y_mesh()
            .draw()?;
        let base = value_axis.low();
        for (s, name) in bars.series.iter().enumerate() {
            let color = canvas::series_color(s);
            let rects = bar_rects(&bars, s, base);
            let drawn = chart.draw_series(
                rects
                    .iter()
                    .map(|&(a, b)| Rectangle::new([a, b], color.filled())),
            )?;
            if bars.series.len() > 1 || !name.is_empty() {
                let key = layout.px(12.0) as i32;
                drawn.label(name.as_str()).legend(move |(x, y)| {
                    Rectangle::new([(x, y - key / 2), (x + key, y + key / 2)], color.filled())
                });
            }
            let anchor = Pos::new(HPos::Left, VPos::Center);
            let text = layout.text(12.0).pos(anchor);
            chart.draw_series(rects.iter().map(|&(_, (v, y1))| {
                let y = y1 - bar_height(&bars) / 2.0;
                Text::new(
                    format!(" {}", label(v, Scale::Linear)),
                    (v, y),
                    text.clone(),
                )
            }))?;
        }
        draw_references(&mut chart, &args.reference, n, layout)?;
        canvas::legend(&mut chart, layout, SeriesLabelPosition::LowerRight)
    })?;
    Ok(format!(
        "{} categories, {} series, {} bars",
        n,
        bars.series.len(),
        shown.len()
    ))
}

/// The rows of `table` as bars: the category of a row is its `--category` cells joined by
/// spaces, its series the `--series` cell; each (category, series) at most once.
fn collect(table: &Table, args: &BarArgs) -> Result<Bars> {
    let category_cols = args
        .category
        .iter()
        .map(|c| table.column(c))
        .collect::<Result<Vec<_>>>()?;
    let value_col = table.column(&args.value)?;
    let series_col = args.series.as_ref().map(|s| table.column(s)).transpose()?;
    let scale = Scale::from_flags(args.log_value, args.log2_value);
    let mut bars = Bars {
        categories: Vec::new(),
        series: Vec::new(),
        values: Vec::new(),
    };
    for row in &table.rows {
        let category: Vec<&str> = category_cols.iter().map(|&c| &row.fields[c][..]).collect();
        let category = category.join(" ");
        let series = series_col.map_or("", |c| &row.fields[c]).to_string();
        let c = index_of(&mut bars.categories, &category);
        let s = index_of(&mut bars.series, &series);
        bars.values.resize(bars.categories.len(), Vec::new());
        let slot = &mut bars.values[c];
        slot.resize(slot.len().max(s + 1), None);
        if slot[s].is_some() {
            return Err(Error::Data(format!(
                "{}:{}: a second row for category `{category}`{}; add a --category column or a \
                 --filter that tells them apart",
                table.path.display(),
                row.line,
                if series.is_empty() {
                    String::new()
                } else {
                    format!(", series `{series}`")
                },
            )));
        }
        let v = table.number(row, value_col)?;
        slot[s] = scale.shows(v).then_some(v);
    }
    for slot in &mut bars.values {
        slot.resize(bars.series.len(), None);
    }
    if bars.values.iter().flatten().all(Option::is_none) {
        return Err(Error::Data(format!(
            "nothing to plot: no row of {} has a `{}` the value axis can show",
            table.path.display(),
            args.value
        )));
    }
    Ok(bars)
}

/// The index of `name` in `names`, appended if new.
fn index_of(names: &mut Vec<String>, name: &str) -> usize {
    names.iter().position(|n| n == name).unwrap_or_else(|| {
        names.push(name.to_string());
        names.len() - 1
    })
}

/// The height of one bar: a category's 0.8 shared by the series.
fn bar_height(bars: &Bars) -> f64 {
    0.8 / bars.series.len().max(1) as f64
}

/// Corners of series `s`'s bars, from `base` to each value, within its category's slot.
fn bar_rects(bars: &Bars, s: usize, base: f64) -> Vec<((f64, f64), (f64, f64))> {
    let h = bar_height(bars);
    let mut rects = Vec::new();
    for (c, values) in bars.values.iter().enumerate() {
        if let Some(v) = values[s] {
            let top = c as f64 - 0.4 + s as f64 * h;
            rects.push(((base, top), (v, top + h)));
        }
    }
    rects
}

/// The category name at tick `v` (ticks between categories get none).
fn category_name(categories: &[String], v: f64) -> String {
    let i = v.round();
    if (v - i).abs() > 1e-6 || i < 0.0 {
        return String::new();
    }
    categories.get(i as usize).cloned().unwrap_or_default()
}

/// A vertical gray line at each reference value, across every category.
fn draw_references(
    chart: &mut canvas::Chart,
    references: &[f64],
    n: usize,
    layout: Layout,
) -> canvas::Drawn {
    const GRAY: RGBColor = RGBColor(90, 90, 90);
    let width = layout.px(1.5).max(1);
    for &r in references {
        chart.draw_series(std::iter::once(PathElement::new(
            [(r, -0.5), (r, n as f64 - 0.5)],
            GRAY.stroke_width(width),
        )))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn category_names_only_on_whole_ticks() {
        let names = ["a".to_string(), "b".to_string()];
        assert_eq!(category_name(&names, 1.0), "b");
        assert_eq!(category_name(&names, 0.5), "");
        assert_eq!(category_name(&names, 2.0), "");
        assert_eq!(category_name(&names, -1.0), "");
    }

    #[test]
    fn bars_share_their_category_slot() {
        let bars = Bars {
            categories: vec!["x".into(), "y".into()],
            series: vec!["p".into(), "q".into()],
            values: vec![vec![Some(2.0), None], vec![Some(1.0), Some(3.0)]],
        };
        assert_eq!(
            bar_rects(&bars, 0, 0.0),
            [((0.0, -0.4), (2.0, 0.0)), ((0.0, 0.6), (1.0, 1.0))]
        );
        assert_eq!(bar_rects(&bars, 1, 0.5), [((0.5, 1.0), (3.0, 1.4))]);
    }
}
