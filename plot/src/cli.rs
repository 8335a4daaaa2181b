//! The command line, declared with clap: what scripts (`scripts/plot-granularity.sh`, the
//! commands in `results/`) call, so flags keep their names. clap turns an unknown flag, a
//! missing value or a bad one into a usage error (exit code 2) naming it.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

use crate::axis::Scale;

/// PNG charts from CSV files (header row first; lines starting with # are comments).
#[derive(Debug, Parser)]
#[command(
    name = "gtap-plot",
    version,
    after_help = "\
Run `gtap-plot <COMMAND> --help` for a chart's options.

--log-x/--log-y use base 10 (ticks 1, 10, 100, 1k, ...), --log2-x/--log2-y base 2 (ticks ...,
512, 1Ki, 2Ki, ...). Empty cells and nan/NA are skipped, as are points a log axis cannot show.

Example:
  gtap-plot line results/bench.csv --x tasks --y median_ms --series backend \\
      --log-x --log-y --title 'time per run' -o bench.png"
)]
pub struct Cli {
    /// The chart to draw.
    #[command(subcommand)]
    pub command: Command,
}

/// The chart kinds.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Line chart of one column against another, a line per --series value.
    ///
    /// One line per distinct value of --series (one line without it), points sorted by x.
    Line(LineArgs),
    /// Histogram of a column in equal-width bins.
    Hist(HistArgs),
    /// Horizontal bars of a column, a bar per category and series (e.g. speed-up ratios).
    ///
    /// A row's category is its --category cells joined by spaces; categories are drawn top
    /// to bottom in the order of the file, one bar per --series value in each.
    Bar(BarArgs),
    /// Timeline of busy spans, a strip per row (e.g. per warp).
    ///
    /// Reads the columns row,start_ns,end_ns,value, as the profiler's timeline.csv has
    /// them; value is in 0..=1 and sets the color.
    Timeline(TimelineArgs),
}

/// Options every chart takes.
#[derive(Debug, Args)]
pub struct Common {
    /// The CSV file.
    #[arg(value_name = "data.csv")]
    pub input: PathBuf,
    /// Where to write the PNG.
    #[arg(short, long, value_name = "out.png")]
    pub output: PathBuf,
    /// Image size in pixels.
    #[arg(long, value_name = "WxH", default_value = "900x600", value_parser = parse_size)]
    pub size: Size,
    /// Title above the chart [default: none]
    #[arg(long, default_value = "", hide_default_value = true)]
    pub title: String,
    /// Keep only rows where COLUMN is exactly VALUE. Repeatable, and further COLUMN=VALUE
    /// words may follow one --filter; filters on one column match any of their values,
    /// filters on different columns must all match.
    #[arg(long, value_name = "COLUMN=VALUE", num_args = 1.., value_parser = parse_filter)]
    pub filter: Vec<Filter>,
}

/// Axis titles of the charts whose axes show columns.
#[derive(Debug, Args)]
pub struct AxisLabels {
    /// X axis label [default: the column name]
    #[arg(long)]
    pub x_label: Option<String>,
    /// Y axis label [default: the column name, or `count`]
    #[arg(long)]
    pub y_label: Option<String>,
}

/// `gtap-plot line`.
#[derive(Debug, Args)]
pub struct LineArgs {
    /// Options every chart takes.
    #[command(flatten)]
    pub common: Common,
    /// Axis labels.
    #[command(flatten)]
    pub labels: AxisLabels,
    /// Column of x values.
    #[arg(long, value_name = "COLUMN")]
    pub x: String,
    /// Column of y values.
    #[arg(long, value_name = "COLUMN")]
    pub y: String,
    /// Column whose values name the lines.
    #[arg(long, value_name = "COLUMN")]
    pub series: Option<String>,
    /// Log-scale x axis, base 10.
    #[arg(long, conflicts_with = "log2_x")]
    pub log_x: bool,
    /// Log-scale x axis, base 2.
    #[arg(long)]
    pub log2_x: bool,
    /// Log-scale y axis, base 10.
    #[arg(long, conflicts_with = "log2_y")]
    pub log_y: bool,
    /// Log-scale y axis, base 2.
    #[arg(long)]
    pub log2_y: bool,
}

impl LineArgs {
    /// The x and y scales the flags ask for.
    pub fn scales(&self) -> (Scale, Scale) {
        (
            Scale::from_flags(self.log_x, self.log2_x),
            Scale::from_flags(self.log_y, self.log2_y),
        )
    }
}

/// `gtap-plot hist`.
#[derive(Debug, Args)]
pub struct HistArgs {
    /// Options every chart takes.
    #[command(flatten)]
    pub common: Common,
    /// Axis labels.
    #[command(flatten)]
    pub labels: AxisLabels,
    /// Column of values.
    #[arg(long, value_name = "COLUMN")]
    pub value: String,
    /// Number of bins [default: about the square root of the value count, at most 50]
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=10_000))]
    pub bins: Option<u32>,
    /// Log-scale counts (base 10), for long tails.
    #[arg(long)]
    pub log_y: bool,
}

/// `gtap-plot bar`.
#[derive(Debug, Args)]
pub struct BarArgs {
    /// Options every chart takes.
    #[command(flatten)]
    pub common: Common,
    /// Axis labels (--x-label names the value axis).
    #[command(flatten)]
    pub labels: AxisLabels,
    /// Columns whose cells, joined, name a row's category (comma-separated or repeated).
    #[arg(long, value_name = "COLUMN", value_delimiter = ',', required = true)]
    pub category: Vec<String>,
    /// Column of bar lengths.
    #[arg(long, value_name = "COLUMN")]
    pub value: String,
    /// Column whose values name the bars of a category.
    #[arg(long, value_name = "COLUMN")]
    pub series: Option<String>,
    /// A vertical reference line at V (e.g. 1 for parity). Repeatable.
    #[arg(long, value_name = "V", value_parser = parse_positive)]
    pub reference: Vec<f64>,
    /// Log-scale value axis, base 10.
    #[arg(long, conflicts_with = "log2_value")]
    pub log_value: bool,
    /// Log-scale value axis, base 2 (ratios: 1/2, 1, 2, 4).
    #[arg(long)]
    pub log2_value: bool,
}

/// `gtap-plot timeline`.
#[derive(Debug, Args)]
pub struct TimelineArgs {
    /// Options every chart takes.
    #[command(flatten)]
    pub common: Common,
    /// Number of rows [default: the largest row + 1]
    #[arg(long, value_name = "N")]
    pub rows: Option<u32>,
    /// Start of the time axis in ns [default: the earliest start]
    #[arg(long, value_name = "NS")]
    pub t0: Option<u64>,
    /// End of the time axis in ns [default: the latest end]
    #[arg(long, value_name = "NS")]
    pub t1: Option<u64>,
    /// What value 1 shows as on the color bar (e.g. 32 for busy lanes of a warp).
    #[arg(long, value_name = "V", default_value_t = 1.0, value_parser = parse_positive)]
    pub value_max: f64,
    /// What a row is, for the y axis (e.g. `warp`).
    #[arg(long, value_name = "L", default_value = "row")]
    pub row_label: String,
    /// What the value is, for the color bar (e.g. `busy lanes`).
    #[arg(long, value_name = "L", default_value = "value")]
    pub value_label: String,
}

/// An image size in pixels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Size {
    /// Width.
    pub width: u32,
    /// Height.
    pub height: u32,
}

/// A `--filter COLUMN=VALUE`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Filter {
    /// The column.
    pub column: String,
    /// The exact value to keep.
    pub value: String,
}

/// Parses `900x600`; each side 100..=16384 pixels, room for a chart's frame and labels.
fn parse_size(text: &str) -> Result<Size, String> {
    let bad = || format!("expected WIDTHxHEIGHT, e.g. 900x600, got `{text}`");
    let (w, h) = text.split_once(['x', 'X']).ok_or_else(bad)?;
    let (width, height) = (w.parse().map_err(|_| bad())?, h.parse().map_err(|_| bad())?);
    if !(100..=16384).contains(&width) || !(100..=16384).contains(&height) {
        return Err(format!(
            "each side must be 100..=16384 pixels, got `{text}`"
        ));
    }
    Ok(Size { width, height })
}

/// Parses `COLUMN=VALUE` (the value may be empty, to keep rows with an empty cell).
fn parse_filter(text: &str) -> Result<Filter, String> {
    match text.split_once('=') {
        Some((column, value)) if !column.is_empty() => Ok(Filter {
            column: column.to_string(),
            value: value.to_string(),
        }),
        _ => Err(format!("expected COLUMN=VALUE, got `{text}`")),
    }
}

/// Parses a finite number above zero.
fn parse_positive(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(v) if v.is_finite() && v > 0.0 => Ok(v),
        _ => Err(format!("expected a number above 0, got `{text}`")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    fn parse(line: &str) -> Result<Cli, clap::Error> {
        Cli::try_parse_from(std::iter::once("gtap-plot").chain(line.split_whitespace()))
    }

    fn error(line: &str) -> String {
        parse(line).unwrap_err().to_string()
    }

    #[test]
    fn the_declaration_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn line_flags_and_repeated_filters() {
        let cli = parse(
            "line d.csv --x n --y ms --series backend --log2-x --log-y --filter a=1 b=2 \
             --filter c=3 -o out.png --size 640x480 --title T",
        )
        .unwrap();
        let Command::Line(args) = cli.command else {
            panic!("{cli:?}")
        };
        assert_eq!((args.x.as_str(), args.y.as_str()), ("n", "ms"));
        assert_eq!(args.series.as_deref(), Some("backend"));
        assert_eq!(args.scales(), (Scale::Log2, Scale::Log10));
        let c = &args.common;
        let filters: Vec<(&str, &str)> = c
            .filter
            .iter()
            .map(|f| (f.column.as_str(), f.value.as_str()))
            .collect();
        assert_eq!(filters, [("a", "1"), ("b", "2"), ("c", "3")]);
        assert_eq!((c.size.width, c.size.height), (640, 480));
        assert_eq!(
            (c.title.as_str(), c.output.to_str()),
            ("T", Some("out.png"))
        );
    }

    #[test]
    fn defaults() {
        let Command::Timeline(t) = parse("timeline t.csv -o o.png").unwrap().command else {
            panic!()
        };
        assert_eq!((t.rows, t.t0, t.t1, t.value_max), (None, None, None, 1.0));
        assert_eq!(
            (t.row_label.as_str(), t.value_label.as_str()),
            ("row", "value")
        );
        assert_eq!(
            t.common.size,
            Size {
                width: 900,
                height: 600
            }
        );
    }

    #[test]
    fn usage_errors_name_the_problem() {
        let e = error("line d.csv --y ms -o o.png");
        assert!(e.contains("--x <COLUMN>"), "{e}");
        assert!(error("line d.csv --x n --y ms").contains("--output <out.png>"));
        let e = error("line d.csv --x n --y ms -o o.png --bins 3");
        assert!(e.contains("unexpected argument '--bins'"), "{e}");
        assert!(error("pie d.csv").contains("unrecognized subcommand 'pie'"));
        assert!(error("hist d.csv --value v --bins 0 -o o.png").contains("--bins <N>"));
        assert!(error("line d.csv --x n --y ms -o o.png --size 900").contains("WIDTHxHEIGHT"));
        assert!(error("line d.csv --x n --y ms -o o.png --size 9x9").contains("100..=16384"));
        assert!(error("line d.csv --x n --y ms -o o.png --filter n").contains("COLUMN=VALUE"));
        let e = error("line d.csv --x n --y ms -o o.png --log-x --log2-x");
        assert!(e.contains("cannot be used with"), "{e}");
        let e = error("timeline d.csv -o o.png --x-label t");
        assert!(e.contains("unexpected argument '--x-label'"), "{e}");
        assert!(error("timeline d.csv -o o.png --value-max 0").contains("above 0"));
        assert!(error("bar d.csv --value r -o o.png").contains("--category <COLUMN>"));
        let e = error("bar d.csv --category p --value r -o o.png --log-value --log2-value");
        assert!(e.contains("cannot be used with"), "{e}");
    }

    #[test]
    fn bar_flags() {
        let cli = parse(
            "bar d.csv --category program,size --category q --value ratio --series config \
             --reference 1 --reference 2 --log2-value -o o.png",
        )
        .unwrap();
        let Command::Bar(b) = cli.command else {
            panic!("{cli:?}")
        };
        assert_eq!(b.category, ["program", "size", "q"]);
        assert_eq!(
            (b.value.as_str(), b.series.as_deref()),
            ("ratio", Some("config"))
        );
        assert_eq!(b.reference, [1.0, 2.0]);
        assert!(b.log2_value && !b.log_value);
    }
}
