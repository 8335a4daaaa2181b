//! `gtap-plot timeline`: one horizontal strip per row (a warp), shaded by how busy it was over
//! time, as in GTaP's Fig. 6; the input is `Profile::write_timeline_csv`'s
//! `row,start_ns,end_ns,value`, with value in 0..=1 (busy lanes / 32).
//!
//! A profile has far more spans than the chart has pixels, so spans are summed into a grid of
//! one cell per pixel column and per band of rows (a row per band when they fit, else the rows
//! sharing a pixel row). A cell's color is the ramp color of its time-weighted mean value,
//! faded towards white by the share of its time that was busy: nothing is dropped, and a
//! short span in a long pixel still tints it.

use plotters::element::Rectangle;
use plotters::style::{Color, RGBColor, WHITE};

use crate::axis::{Axis, Scale};
use crate::canvas::{self, Chart};
use crate::cli::TimelineArgs;
use crate::error::{Error, Result};
use crate::table::Table;

/// A busy interval of one row.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Span {
    row: u32,
    start: u64,
    end: u64,
    /// 0..=1; sets the color.
    value: f64,
}

/// Draws the chart; returns what was drawn, for the user.
pub fn run(args: &TimelineArgs) -> Result<String> {
    let table = Table::read_filtered(&args.common.input, &args.common.filter)?;
    let spans = read_spans(&table)?;
    let rows = args
        .rows
        .unwrap_or_else(|| spans.iter().map(|s| s.row + 1).max().unwrap_or(1));
    if let Some(s) = spans.iter().find(|s| s.row >= rows) {
        return Err(Error::Data(format!(
            "{}: row {} is not below --rows {rows}",
            table.path.display(),
            s.row
        )));
    }
    let t0 = args
        .t0
        .unwrap_or_else(|| spans.iter().map(|s| s.start).min().unwrap_or(0));
    let t1 = args
        .t1
        .unwrap_or_else(|| spans.iter().map(|s| s.end).max().unwrap_or(0));
    if t1 <= t0 {
        return Err(Error::Data(format!(
            "nothing to plot: the time axis {t0}..{t1} ns is empty (set --t0 and --t1)"
        )));
    }
    let (unit_ns, unit) = time_unit(t1 - t0);
    let x_axis = Axis::exact(Scale::Linear, 0.0, (t1 - t0) as f64 / unit_ns);
    let y_axis = Axis::exact(Scale::Linear, f64::from(rows), 0.0).integers();
    canvas::draw_png(&args.common, |area, layout| {
        let (w, _) = area.dim_in_pixel();
        let (left, right) = area.split_horizontally(w.saturating_sub(layout.px(110.0)));
        let mut chart = layout.builder(&left).build_cartesian_2d(x_axis, y_axis)?;
        paint(&chart, &spans, rows, (t0, t1))?;
        layout.frame(
            &mut chart,
            &format!("time ({unit})"),
            &args.row_label,
            false,
        )?;
        let mut bar = layout.builder(&right);
        bar.margin_left(layout.px(4.0))
            .y_label_area_size(0)
            .right_y_label_area_size(layout.px(70.0));
        let values = Axis::exact(Scale::Linear, 0.0, args.value_max);
        let mut bar = bar.build_cartesian_2d(Axis::exact(Scale::Linear, 0.0, 1.0), values)?;
        let step = args.value_max / 100.0;
        bar.draw_series((0..100).map(|i| {
            let (lo, hi) = (f64::from(i) * step, f64::from(i + 1) * step);
            Rectangle::new(
                [(0.0, lo), (1.0, hi)],
                ramp((f64::from(i) + 0.5) / 100.0).filled(),
            )
        }))?;
        bar.configure_mesh()
            .disable_mesh()
            .disable_x_axis()
            .x_labels(0)
            .y_desc(&args.value_label)
            .label_style(layout.text(14.0))
            .axis_desc_style(layout.text(16.0))
            .draw()?;
        Ok(())
    })?;
    Ok(format!("{} spans on {rows} rows", spans.len()))
}

/// The spans of `table`, checked: rows fit a `u32`, no span ends before it starts, values
/// are in 0..=1.
fn read_spans(table: &Table) -> Result<Vec<Span>> {
    let [row, start, end, value] = ["row", "start_ns", "end_ns", "value"].map(|c| table.column(c));
    let (row, start, end, value) = (row?, start?, end?, value?);
    let mut spans = Vec::with_capacity(table.rows.len());
    for r in &table.rows {
        let at = || format!("{}:{}", table.path.display(), r.line);
        let index = table.integer(r, row)?;
        let (s, e, v) = (
            table.integer(r, start)?,
            table.integer(r, end)?,
            table.number(r, value)?,
        );
        let index = u32::try_from(index)
            .map_err(|_| Error::Data(format!("{}: row {index} is too large", at())))?;
        if e < s {
            return Err(Error::Data(format!(
                "{}: end_ns {e} is before start_ns {s}",
                at()
            )));
        }
        if !(0.0..=1.0).contains(&v) {
            return Err(Error::Data(format!("{}: value {v} is not in 0..=1", at())));
        }
        spans.push(Span {
            row: index,
            start: s,
            end: e,
            value: v,
        });
    }
    Ok(spans)
}

/// A unit for the time axis so that it spans 1 to 1000 of them: ns per unit, and its name.
fn time_unit(span_ns: u64) -> (f64, &'static str) {
    match span_ns {
        0..1_000 => (1.0, "ns"),
        1_000..1_000_000 => (1e3, "us"),
        1_000_000..1_000_000_000 => (1e6, "ms"),
        _ => (1e9, "s"),
    }
}

/// Paints the spans, a pixel at a time, into the chart's plotting area.
fn paint(chart: &Chart, spans: &[Span], rows: u32, (t0, t1): (u64, u64)) -> canvas::Drawn {
    let area = chart.plotting_area().strip_coord_spec();
    let (width, height) = area.dim_in_pixel();
    let bands = rows.min(height).max(1);
    let grid = Grid::fill(spans, rows, bands, (t0, t1), width as usize);
    for band in 0..bands {
        let (top, bottom) = (band * height / bands, (band + 1) * height / bands);
        for col in 0..width {
            let Some((busy, mean)) = grid.cell(col as usize, band as usize) else {
                continue;
            };
            let color = mix(ramp(mean), WHITE, busy);
            for y in top..bottom {
                area.draw_pixel((col as i32, y as i32), &color)?;
            }
        }
    }
    Ok(())
}

/// Spans summed into cells of one pixel column by one band of rows.
struct Grid {
    width: usize,
    /// Per cell (band-major): busy time in ns, and busy time times value.
    busy: Vec<f64>,
    weighted: Vec<f64>,
    /// Per band: ns of one column, times the band's rows (the time a cell can be busy).
    capacity: Vec<f64>,
}

impl Grid {
    fn fill(spans: &[Span], rows: u32, bands: u32, (t0, t1): (u64, u64), width: usize) -> Grid {
        let band_of = |row: u32| (u64::from(row) * u64::from(bands) / u64::from(rows)) as usize;
        let column_ns = (t1 - t0) as f64 / width as f64;
        let mut capacity = vec![0.0; bands as usize];
        for row in 0..rows {
            capacity[band_of(row)] += column_ns;
        }
        let cells = width * bands as usize;
        let (mut busy, mut weighted) = (vec![0.0; cells], vec![0.0; cells]);
        for span in spans {
            let s = (span.start.clamp(t0, t1) - t0) as f64;
            let e = (span.end.clamp(t0, t1) - t0) as f64;
            let band = band_of(span.row) * width;
            let first = (s / column_ns) as usize;
            let last = ((e / column_ns).ceil() as usize).min(width);
            for col in first..last {
                let (lo, hi) = (col as f64 * column_ns, (col + 1) as f64 * column_ns);
                let overlap = e.min(hi) - s.max(lo);
                if overlap > 0.0 {
                    busy[band + col] += overlap;
                    weighted[band + col] += overlap * span.value;
                }
            }
        }
        Grid {
            width,
            busy,
            weighted,
            capacity,
        }
    }

    /// The busy share of a cell's time and its mean value; `None` where it was idle.
    fn cell(&self, col: usize, band: usize) -> Option<(f64, f64)> {
        let i = band * self.width + col;
        let busy = self.busy[i];
        (busy > 0.0).then(|| {
            (
                (busy / self.capacity[band]).min(1.0),
                self.weighted[i] / busy,
            )
        })
    }
}

/// Light yellow (idle lanes) to dark purple (a full warp), darker as values grow.
const RAMP: [RGBColor; 5] = [
    RGBColor(255, 240, 190),
    RGBColor(250, 190, 90),
    RGBColor(230, 110, 40),
    RGBColor(170, 30, 50),
    RGBColor(60, 10, 70),
];

/// The ramp's color for `value` in 0..=1.
fn ramp(value: f64) -> RGBColor {
    let pos = value.clamp(0.0, 1.0) * (RAMP.len() - 1) as f64;
    let i = (pos.floor() as usize).min(RAMP.len() - 2);
    mix(RAMP[i + 1], RAMP[i], pos - i as f64)
}

/// `top` over `under` with opacity `alpha`.
fn mix(top: RGBColor, under: RGBColor, alpha: f64) -> RGBColor {
    let a = alpha.clamp(0.0, 1.0);
    let m = |t: u8, u: u8| (f64::from(t) * a + f64::from(u) * (1.0 - a)).round() as u8;
    RGBColor(m(top.0, under.0), m(top.1, under.1), m(top.2, under.2))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn span(row: u32, start: u64, end: u64, value: f64) -> Span {
        Span {
            row,
            start,
            end,
            value,
        }
    }

    #[test]
    fn spans_are_summed_into_pixel_cells() {
        // One row, four 100 ns columns; a span over half of column 0, all of 1, half of 2.
        let grid = Grid::fill(&[span(0, 1050, 1250, 0.5)], 1, 1, (1000, 1400), 4);
        let cells: Vec<_> = (0..4).map(|c| grid.cell(c, 0)).collect();
        assert_eq!(
            cells,
            [Some((0.5, 0.5)), Some((1.0, 0.5)), Some((0.5, 0.5)), None]
        );
        // Four rows in two bands: a band is busy half the time when one of its rows is, and
        // its value is the mean over the busy time.
        let spans = [
            span(0, 0, 100, 1.0),
            span(1, 0, 100, 0.5),
            span(3, 0, 50, 0.25),
        ];
        let grid = Grid::fill(&spans, 4, 2, (0, 100), 1);
        assert_eq!(grid.cell(0, 0), Some((1.0, 0.75)));
        assert_eq!(grid.cell(0, 1), Some((0.25, 0.25)));
        // Spans outside t0..t1 are cut off.
        let grid = Grid::fill(
            &[span(0, 0, 50, 1.0), span(0, 150, 400, 1.0)],
            1,
            1,
            (100, 200),
            2,
        );
        assert_eq!((grid.cell(0, 0), grid.cell(1, 0)), (None, Some((1.0, 1.0))));
    }

    #[test]
    fn the_ramp_darkens_and_fades_to_white() {
        let luma = |c: RGBColor| 299 * u32::from(c.0) + 587 * u32::from(c.1) + 114 * u32::from(c.2);
        let lumas: Vec<u32> = (0..=32).map(|i| luma(ramp(f64::from(i) / 32.0))).collect();
        assert!(lumas.windows(2).all(|w| w[1] < w[0]), "{lumas:?}");
        assert_eq!(mix(RAMP[4], WHITE, 0.0), WHITE);
        assert_eq!(mix(RAMP[4], WHITE, 1.0), RAMP[4]);
        assert_eq!(time_unit(999), (1.0, "ns"));
        assert_eq!(time_unit(2_500_000), (1e6, "ms"));
    }
}
