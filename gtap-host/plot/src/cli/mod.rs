//! The command line: parse into a [`Command`], then run it (`commands.rs`).

mod args;
mod commands;

use std::fmt;
use std::path::PathBuf;

use args::{Arg, Args};
use gtap_plot::PlotError;
use gtap_plot::csv::CsvError;

pub const USAGE: &str = "\
gtap-plot: PNG charts from CSV files (header row first; # lines are comments)

USAGE:
  gtap-plot line <data.csv> --x <col> --y <col> [--series <col>] [--log-x | --log2-x]
                 [--log-y | --log2-y] [COMMON]
      one line per distinct value of --series (one line without it), points sorted by x
  gtap-plot hist <data.csv> --value <col> [--bins N] [--log-y] [COMMON]
      histogram of a column in N equal-width bins (default: about sqrt of the row count)
  gtap-plot timeline <data.csv> [--rows N] [--t0 NS] [--t1 NS] [--value-max V]
                 [--row-label L] [--value-label L] [COMMON]
      per-row timeline from columns row,start_ns,end_ns,value (value in 0..=1, shown
      as value * V on the color bar; default V = 1)

COMMON:
  -o, --output <out.png>     where to write the chart (required)
  --size <W>x<H>             image size in pixels (default 900x600)
  --title <T>                title (default: none)
  --x-label <L>              x axis label (default: the column name)
  --y-label <L>              y axis label (default: the column name, or `count`)
  --filter <col=value> ...   keep only rows where col is exactly value; repeatable, and
                             further col=value words may follow one --filter; filters
                             on one column match any value, on different columns all
  -h, --help                 this text

  --log-x/--log-y use base 10 (ticks 1, 10, 100, 1k, ...), --log2-x/--log2-y base 2
  (ticks ..., 512, 1Ki, 2Ki, ...). Empty cells and nan/NA are skipped, as are points
  that a log axis cannot show.

EXAMPLE:
  gtap-plot line results/bench.csv --x tasks --y median_ms --series backend \\
      --log-x --log-y --title 'time per run' -o bench.png";

/// Why the command failed.
#[derive(Debug)]
pub enum CliError {
    /// Bad command line.
    Usage(String),
    /// Bad CSV file.
    Csv(CsvError),
    /// The chart could not be drawn or written.
    Plot(PlotError),
    /// The data does not make the chart asked for (e.g. no rows left after filtering).
    Data(String),
}

impl CliError {
    pub fn is_usage(&self) -> bool {
        matches!(self, CliError::Usage(_))
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CliError::Usage(m) | CliError::Data(m) => f.write_str(m),
            CliError::Csv(e) => write!(f, "{e}"),
            CliError::Plot(e) => write!(f, "{e}"),
        }
    }
}

impl From<CsvError> for CliError {
    fn from(e: CsvError) -> Self {
        CliError::Csv(e)
    }
}

impl From<PlotError> for CliError {
    fn from(e: PlotError) -> Self {
        CliError::Plot(e)
    }
}

/// Options every chart takes.
#[derive(Debug, Clone, PartialEq)]
pub struct Common {
    pub input: PathBuf,
    pub output: PathBuf,
    pub size: (u32, u32),
    pub title: String,
    pub x_label: Option<String>,
    pub y_label: Option<String>,
    pub filters: Vec<(String, String)>,
}

/// What to draw.
#[derive(Debug, Clone, PartialEq)]
pub enum Command {
    Help,
    Line {
        common: Common,
        x: String,
        y: String,
        series: Option<String>,
        x_scale: gtap_plot::Scale,
        y_scale: gtap_plot::Scale,
    },
    Hist {
        common: Common,
        value: String,
        bins: Option<usize>,
        log_y: bool,
    },
    Timeline {
        common: Common,
        rows: Option<u32>,
        t0: Option<u64>,
        t1: Option<u64>,
        value_max: f64,
        row_label: String,
        value_label: String,
    },
}

/// Parses and runs one command line (without the program name); returns what to print.
pub fn run(args: impl IntoIterator<Item = String>) -> Result<String, CliError> {
    match parse(args)? {
        Command::Help => Ok(USAGE.to_string()),
        command => commands::execute(command),
    }
}

/// Collects the common options while a command parses its own.
#[derive(Default)]
struct CommonBuilder {
    input: Option<PathBuf>,
    output: Option<PathBuf>,
    size: Option<(u32, u32)>,
    title: Option<String>,
    x_label: Option<String>,
    y_label: Option<String>,
    filters: Vec<(String, String)>,
}

impl CommonBuilder {
    /// Takes `arg` if it is a common option or the input file; `Ok(false)` if it is not.
    fn take(&mut self, arg: &Arg, args: &mut Args) -> Result<bool, CliError> {
        match arg {
            Arg::Positional(p) if self.input.is_none() => self.input = Some(PathBuf::from(p)),
            Arg::Positional(p) => {
                return Err(CliError::Usage(format!(
                    "unexpected argument `{p}` (one input file only)"
                )));
            }
            Arg::Flag(f) => match f.as_str() {
                "-o" | "--output" => self.output = Some(args.value(f)?.into()),
                "--size" => self.size = Some(args::size(&args.value(f)?)?),
                "--title" => self.title = Some(args.value(f)?),
                "--x-label" => self.x_label = Some(args.value(f)?),
                "--y-label" => self.y_label = Some(args.value(f)?),
                "--filter" => {
                    self.filters.push(args::filter(&args.value(f)?)?);
                    while let Some(more) = args.more_filters() {
                        self.filters.push(args::filter(&more)?);
                    }
                }
                _ => return Ok(false),
            },
        }
        Ok(true)
    }

    fn build(self) -> Result<Common, CliError> {
        Ok(Common {
            input: self
                .input
                .ok_or_else(|| CliError::Usage("missing the input <data.csv>".into()))?,
            output: self
                .output
                .ok_or_else(|| CliError::Usage("missing -o <out.png>".into()))?,
            size: self.size.unwrap_or((900, 600)),
            title: self.title.unwrap_or_default(),
            x_label: self.x_label,
            y_label: self.y_label,
            filters: self.filters,
        })
    }
}

fn unknown(command: &str, flag: &str, own: &str) -> CliError {
    CliError::Usage(format!(
        "`{command}` has no option {flag}; its options are {own} and -o, --size, --title, \
         --x-label, --y-label, --filter"
    ))
}

fn required(value: Option<String>, flag: &str) -> Result<String, CliError> {
    value.ok_or_else(|| CliError::Usage(format!("missing {flag} <col>")))
}

/// Reads the rest of `command`'s arguments: the common ones into `common`, its own flags
/// through `own` (which says whether it knew the flag). Returns `true` on `-h`/`--help`.
fn read_flags(
    args: &mut Args,
    common: &mut CommonBuilder,
    command: &str,
    known: &str,
    mut own: impl FnMut(&str, &mut Args) -> Result<bool, CliError>,
) -> Result<bool, CliError> {
    while let Some(arg) = args.next()? {
        if common.take(&arg, args)? {
            continue;
        }
        let Arg::Flag(f) = &arg else {
            unreachable!("positionals are taken above")
        };
        if f == "-h" || f == "--help" {
            return Ok(true);
        }
        if !own(f, args)? {
            return Err(unknown(command, f, known));
        }
    }
    Ok(false)
}

/// Parses a command line (without the program name).
pub fn parse(args: impl IntoIterator<Item = String>) -> Result<Command, CliError> {
    let mut args = Args::new(args);
    let command = match args.next()? {
        None => {
            return Err(CliError::Usage(
                "no command; expected line, hist or timeline".into(),
            ));
        }
        Some(Arg::Flag(f)) if f == "-h" || f == "--help" => return Ok(Command::Help),
        Some(Arg::Positional(c)) => c,
        Some(Arg::Flag(f)) => {
            return Err(CliError::Usage(format!(
                "expected a command (line, hist, timeline), got {f}"
            )));
        }
    };
    let mut common = CommonBuilder::default();
    match command.as_str() {
        "line" => {
            let (mut x, mut y, mut series) = (None, None, None);
            let (mut x_scale, mut y_scale) = (gtap_plot::Scale::Linear, gtap_plot::Scale::Linear);
            let known = "--x, --y, --series, --log-x, --log2-x, --log-y, --log2-y";
            let help = read_flags(&mut args, &mut common, "line", known, |f, args| {
                match f {
                    "--x" => x = Some(args.value(f)?),
                    "--y" => y = Some(args.value(f)?),
                    "--series" => series = Some(args.value(f)?),
                    "--log-x" => x_scale = gtap_plot::Scale::Log10,
                    "--log2-x" => x_scale = gtap_plot::Scale::Log2,
                    "--log-y" => y_scale = gtap_plot::Scale::Log10,
                    "--log2-y" => y_scale = gtap_plot::Scale::Log2,
                    _ => return Ok(false),
                }
                Ok(true)
            })?;
            if help {
                return Ok(Command::Help);
            }
            Ok(Command::Line {
                common: common.build()?,
                x: required(x, "--x")?,
                y: required(y, "--y")?,
                series,
                x_scale,
                y_scale,
            })
        }
        "hist" => {
            let (mut value, mut bins, mut log_y) = (None, None, false);
            let known = "--value, --bins, --log-y";
            let help = read_flags(&mut args, &mut common, "hist", known, |f, args| {
                match f {
                    "--value" => value = Some(args.value(f)?),
                    "--bins" => {
                        let n: usize = args::number(f, &args.value(f)?)?;
                        if n == 0 {
                            return Err(CliError::Usage("--bins must be at least 1".into()));
                        }
                        bins = Some(n);
                    }
                    "--log-y" => log_y = true,
                    _ => return Ok(false),
                }
                Ok(true)
            })?;
            if help {
                return Ok(Command::Help);
            }
            Ok(Command::Hist {
                common: common.build()?,
                value: required(value, "--value")?,
                bins,
                log_y,
            })
        }
        "timeline" => {
            let (mut rows, mut t0, mut t1, mut value_max) = (None, None, None, 1.0);
            let (mut row_label, mut value_label) = ("row".to_string(), "value".to_string());
            let known = "--rows, --t0, --t1, --value-max, --row-label, --value-label";
            let help = read_flags(&mut args, &mut common, "timeline", known, |f, args| {
                match f {
                    "--rows" => rows = Some(args::number(f, &args.value(f)?)?),
                    "--t0" => t0 = Some(args::number(f, &args.value(f)?)?),
                    "--t1" => t1 = Some(args::number(f, &args.value(f)?)?),
                    "--value-max" => value_max = args::number(f, &args.value(f)?)?,
                    "--row-label" => row_label = args.value(f)?,
                    "--value-label" => value_label = args.value(f)?,
                    _ => return Ok(false),
                }
                Ok(true)
            })?;
            if help {
                return Ok(Command::Help);
            }
            Ok(Command::Timeline {
                common: common.build()?,
                rows,
                t0,
                t1,
                value_max,
                row_label,
                value_label,
            })
        }
        other => Err(CliError::Usage(format!(
            "unknown command `{other}`; expected line, hist or timeline"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gtap_plot::Scale;

    fn parse_str(s: &str) -> Result<Command, CliError> {
        parse(s.split_whitespace().map(String::from))
    }

    #[test]
    fn parses_a_line_command() {
        let c = parse_str(
            "line d.csv --x n --y ms --series backend --log2-x --log-y --filter a=1 b=2 \
             --filter c=3 -o out.png --size 640x480 --title T",
        )
        .unwrap();
        let Command::Line {
            common,
            x,
            y,
            series,
            x_scale,
            y_scale,
        } = c
        else {
            panic!("{c:?}")
        };
        assert_eq!(
            (x.as_str(), y.as_str(), series.as_deref()),
            ("n", "ms", Some("backend"))
        );
        assert_eq!((x_scale, y_scale), (Scale::Log2, Scale::Log10));
        assert_eq!(common.filters.len(), 3);
        assert_eq!(common.filters[1], ("b".into(), "2".into()));
        assert_eq!(common.size, (640, 480));
        assert_eq!(common.title, "T");
        assert_eq!(common.output, PathBuf::from("out.png"));
    }

    #[test]
    fn usage_errors_say_what_is_wrong() {
        let msg = |s: &str| parse_str(s).unwrap_err().to_string();
        assert!(msg("line d.csv --y ms -o o.png").contains("missing --x"));
        assert!(msg("line d.csv --x n --y ms").contains("missing -o"));
        assert!(msg("line --x n --y ms -o o.png").contains("missing the input"));
        assert!(msg("line d.csv --x n --y ms -o o.png --bins 3").contains("no option --bins"));
        assert!(msg("pie d.csv").contains("unknown command `pie`"));
        assert!(msg("hist d.csv --value v --bins 0 -o o.png").contains("at least 1"));
        assert!(msg("line a.csv b.csv").contains("unexpected argument `b.csv`"));
        assert!(parse_str("").unwrap_err().is_usage());
        assert_eq!(parse_str("--help").unwrap(), Command::Help);
        assert_eq!(parse_str("hist -h").unwrap(), Command::Help);
        assert_eq!(parse_str("line d.csv --help").unwrap(), Command::Help);
        assert_eq!(parse_str("timeline -h").unwrap(), Command::Help);
        let t = msg("timeline d.csv --rows 4 -o o.png --value v");
        assert!(t.contains("`timeline` has no option --value"), "{t}");
        assert!(t.contains("--rows, --t0"), "{t}");
        assert!(msg("hist d.csv --value v -o o.png --x n").contains("`hist` has no option --x"));
    }
}
