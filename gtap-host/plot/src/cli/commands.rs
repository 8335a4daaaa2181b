//! Running a parsed command: read the CSV, build the chart, write the PNG.

use gtap_plot::csv::Table;
use gtap_plot::{Histogram, LineChart, Series, Span, Timeline};

use super::{CliError, Command, Common};

/// Runs `command` (not `Help`); returns a one-line summary of what was written.
pub fn execute(command: Command) -> Result<String, CliError> {
    match command {
        Command::Help => Ok(super::USAGE.to_string()),
        Command::Line {
            common,
            x,
            y,
            series,
            x_scale,
            y_scale,
        } => {
            let table = load(&common)?;
            let (xc, yc) = (table.column(&x)?, table.column(&y)?);
            let groups = match &series {
                Some(s) => table.group_by(table.column(s)?),
                None => vec![("", table.records.iter().collect())],
            };
            let mut chart = LineChart {
                title: common.title.clone(),
                x_label: common.x_label.clone().unwrap_or(x),
                y_label: common.y_label.clone().unwrap_or(y),
                x_scale,
                y_scale,
                series: Vec::new(),
            };
            for (name, records) in groups {
                let mut points = records
                    .iter()
                    .map(|r| Ok((table.number(r, xc)?, table.number(r, yc)?)))
                    .collect::<Result<Vec<_>, CliError>>()?;
                points.sort_by(|a, b| a.0.total_cmp(&b.0));
                chart.series.push(Series::new(name, points));
            }
            let n = chart.series.len();
            let points: usize = chart.series.iter().map(|s| s.points.len()).sum();
            write(&common, chart.render(common.size.0, common.size.1)?)?;
            Ok(format!("{n} series, {points} points"))
        }
        Command::Hist {
            common,
            value,
            bins,
            log_y,
        } => {
            let table = load(&common)?;
            let col = table.column(&value)?;
            let values = table
                .records
                .iter()
                .map(|r| table.number(r, col))
                .collect::<Result<Vec<f64>, _>>()?;
            let finite = values.iter().filter(|v| v.is_finite()).count();
            let n = bins.unwrap_or_else(|| ((finite as f64).sqrt().ceil() as usize).clamp(1, 50));
            let hist = Histogram {
                title: common.title.clone(),
                x_label: common.x_label.clone().unwrap_or(value),
                y_label: common.y_label.clone().unwrap_or_else(|| "count".into()),
                bins: Histogram::bin(&values, n),
                log_y,
            };
            write(&common, hist.render(common.size.0, common.size.1)?)?;
            Ok(format!("{finite} values in {} bins", hist.bins.len()))
        }
        Command::Timeline {
            common,
            rows,
            t0,
            t1,
            value_max,
            row_label,
            value_label,
        } => {
            if common.x_label.is_some() || common.y_label.is_some() {
                return Err(CliError::Usage(
                    "timeline labels its axes itself; use --row-label and --value-label".into(),
                ));
            }
            let table = load(&common)?;
            let cols = ["row", "start_ns", "end_ns", "value"].map(|c| table.column(c));
            let [row, start, end, value] = cols;
            let (row, start, end, value) = (row?, start?, end?, value?);
            let mut spans = Vec::with_capacity(table.records.len());
            for r in &table.records {
                let row_index = table.integer(r, row)?;
                let (s, e) = (table.integer(r, start)?, table.integer(r, end)?);
                let v = table.number(r, value)?;
                let at = format!("{}:{}", table.path.display(), r.line);
                let row_index = u32::try_from(row_index)
                    .map_err(|_| CliError::Data(format!("{at}: row {row_index} is too large")))?;
                if e < s {
                    return Err(CliError::Data(format!(
                        "{at}: end_ns {e} is before start_ns {s}"
                    )));
                }
                if !(0.0..=1.0).contains(&v) {
                    return Err(CliError::Data(format!("{at}: value {v} is not in 0..=1")));
                }
                spans.push(Span {
                    row: row_index,
                    start: s,
                    end: e,
                    value: v as f32,
                });
            }
            let rows = rows.unwrap_or_else(|| spans.iter().map(|s| s.row + 1).max().unwrap_or(0));
            let timeline = Timeline {
                title: common.title.clone(),
                row_label,
                value_label,
                value_max,
                rows,
                t0: t0.unwrap_or_else(|| spans.iter().map(|s| s.start).min().unwrap_or(0)),
                t1: t1.unwrap_or_else(|| spans.iter().map(|s| s.end).max().unwrap_or(0)),
                spans,
            };
            write(&common, timeline.render(common.size.0, common.size.1)?)?;
            Ok(format!("{} spans on {rows} rows", timeline.spans.len()))
        }
    }
}

/// Reads the input and applies the filters; no rows left is an error naming the filters.
fn load(common: &Common) -> Result<Table, CliError> {
    let mut table = Table::read(&common.input)?;
    // Filters on one column keep rows matching any of them; filters on different columns
    // must all match.
    let mut columns: Vec<&str> = Vec::new();
    for (col, _) in &common.filters {
        if !columns.contains(&col.as_str()) {
            columns.push(col);
        }
    }
    for col in columns {
        let values: Vec<&str> = common
            .filters
            .iter()
            .filter(|(c, _)| c == col)
            .map(|(_, v)| v.as_str())
            .collect();
        table = table.filter_any(col, &values)?;
    }
    if table.records.is_empty() {
        let filters: Vec<String> = common
            .filters
            .iter()
            .map(|(c, v)| format!("{c}={v}"))
            .collect();
        let why = if filters.is_empty() {
            "has no data rows".to_string()
        } else {
            format!("has no rows matching --filter {}", filters.join(" "))
        };
        return Err(CliError::Data(format!("{} {why}", table.path.display())));
    }
    Ok(table)
}

fn write(common: &Common, img: gtap_plot::Image) -> Result<(), CliError> {
    img.write_png(&common.output)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::run;
    use std::path::PathBuf;

    /// A scratch directory unique to the test, removed at the end.
    struct Scratch(PathBuf);

    impl Scratch {
        fn new(name: &str) -> Scratch {
            let dir =
                std::env::temp_dir().join(format!("gtap-plot-cli-{name}-{}", std::process::id()));
            std::fs::create_dir_all(&dir).unwrap();
            Scratch(dir)
        }

        fn file(&self, name: &str, text: &str) -> String {
            let p = self.0.join(name);
            std::fs::write(&p, text).unwrap();
            p.display().to_string()
        }

        fn path(&self, name: &str) -> String {
            self.0.join(name).display().to_string()
        }
    }

    impl Drop for Scratch {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    fn cli(line: &str) -> Result<String, String> {
        run(line.split_whitespace().map(String::from)).map_err(|e| e.to_string())
    }

    const SWEEP: &str = "n,backend,ms\n1,gpu,2\n2,gpu,3\n4,gpu,5\n1,cpu,1\n4,cpu,9\n";

    #[test]
    fn line_chart_with_series_is_written() {
        let s = Scratch::new("line");
        let data = s.file("d.csv", SWEEP);
        let out = s.path("o.png");
        let msg = cli(&format!(
            "line {data} --x n --y ms --series backend --log2-x -o {out}"
        ))
        .unwrap();
        assert_eq!(msg, "2 series, 5 points");
        assert!(std::fs::read(&out).unwrap().starts_with(b"\x89PNG"));
        let msg = cli(&format!(
            "line {data} --x n --y ms --filter backend=cpu -o {out}"
        ))
        .unwrap();
        assert_eq!(msg, "1 series, 2 points");
        let both = "--filter backend=cpu backend=gpu n=4";
        let msg = cli(&format!(
            "line {data} --x n --y ms --series backend {both} -o {out}"
        ));
        assert_eq!(msg.unwrap(), "2 series, 2 points");
    }

    #[test]
    fn missing_column_is_named_with_the_file() {
        let s = Scratch::new("missing");
        let data = s.file("d.csv", SWEEP);
        let out = s.path("o.png");
        let err = cli(&format!("line {data} --x n --y time -o {out}")).unwrap_err();
        assert_eq!(
            err,
            format!("{data}: no column `time`; the columns are: n, backend, ms")
        );
        let err = cli(&format!(
            "line {data} --x n --y ms --filter kind=a -o {out}"
        ))
        .unwrap_err();
        assert!(err.contains("no column `kind`"), "{err}");
        let err = cli(&format!(
            "line {data} --x n --y ms --filter backend=tpu -o {out}"
        ))
        .unwrap_err();
        assert!(
            err.ends_with("has no rows matching --filter backend=tpu"),
            "{err}"
        );
        assert!(!std::path::Path::new(&out).exists());
    }

    #[test]
    fn bad_cells_are_named_with_line_and_column() {
        let s = Scratch::new("bad");
        let data = s.file("d.csv", "n,ms\n1,2\n2,fast\n");
        let err = cli(&format!("line {data} --x n --y ms -o {}", s.path("o.png"))).unwrap_err();
        assert_eq!(
            err,
            format!("{data}:3: column `ms`: `fast` is not a number")
        );
    }

    #[test]
    fn hist_and_timeline() {
        let s = Scratch::new("hist");
        let data = s.file("d.csv", "v\n1\n2\n2\n3\n10\n");
        let out = s.path("h.png");
        assert_eq!(
            cli(&format!("hist {data} --value v --bins 3 -o {out}")).unwrap(),
            "5 values in 3 bins"
        );
        let tl = s.file(
            "t.csv",
            "row,start_ns,end_ns,value\n0,100,500,1\n1,150,900,0.25\n3,100,200,0.5\n",
        );
        let out = s.path("t.png");
        assert_eq!(
            cli(&format!("timeline {tl} -o {out}")).unwrap(),
            "3 spans on 4 rows"
        );
        let bad = s.file("b.csv", "row,start_ns,end_ns,value\n0,500,100,1\n");
        let err = cli(&format!("timeline {bad} -o {out}")).unwrap_err();
        assert_eq!(err, format!("{bad}:2: end_ns 100 is before start_ns 500"));
        let bad = s.file("c.csv", "row,start,end_ns,value\n0,500,100,1\n");
        let err = cli(&format!("timeline {bad} -o {out}")).unwrap_err();
        assert!(err.contains("no column `start_ns`"), "{err}");
    }
}
