//! The `gtap-plot` binary as a user and the scripts run it: a chart of each kind rendered into
//! a scratch folder and read back, exit codes, and the messages of bad input.
//!
//! These tests run the binary cargo built (`CARGO_BIN_EXE_gtap-plot`), so they need cargo's
//! build layout; `scripts/gpu-build.sh` leaves them out of the GPU bundle.

use std::path::PathBuf;
use std::process::Command;

/// What a run printed and how it ended.
struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

fn gtap_plot(args: &[&str]) -> Run {
    let out = Command::new(env!("CARGO_BIN_EXE_gtap-plot"))
        .args(args)
        .output()
        .unwrap();
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8(out.stdout).unwrap(),
        stderr: String::from_utf8(out.stderr).unwrap(),
    }
}

/// A folder of the test's own, removed at the end.
struct Scratch(PathBuf);

impl Scratch {
    fn new(test: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("gtap-plot-{test}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }

    /// Writes `text` to `name`; returns its path.
    fn file(&self, name: &str, text: &str) -> String {
        std::fs::write(self.0.join(name), text).unwrap();
        self.path(name)
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

/// A decoded PNG: its size and RGB pixels.
struct Image {
    width: u32,
    height: u32,
    rgb: Vec<[u8; 3]>,
}

fn read_png(path: &str) -> Image {
    let decoder = png::Decoder::new(std::fs::File::open(path).unwrap());
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).unwrap();
    assert_eq!(info.color_type, png::ColorType::Rgb, "{path}");
    let rgb = buf[..info.buffer_size()]
        .chunks(3)
        .map(|p| [p[0], p[1], p[2]])
        .collect();
    Image {
        width: info.width,
        height: info.height,
        rgb,
    }
}

impl Image {
    /// Pixels of exactly `color`.
    fn count(&self, color: [u8; 3]) -> usize {
        self.rgb.iter().filter(|&&p| p == color).count()
    }

    /// Pixels that are neither white nor gray (lines, bars, spans rather than text and grid).
    fn colored(&self) -> usize {
        let gray = |p: [u8; 3]| p[0].abs_diff(p[1]) < 8 && p[1].abs_diff(p[2]) < 8;
        self.rgb.iter().filter(|&&p| !gray(p)).count()
    }
}

const SWEEP: &str = "\
# fib on two backends
tasks,backend,median_ms,tree
1024,gpu,0.02,full
1024,cpu,0.005,full
1048576,gpu,0.3,full
1048576,cpu,0.5,full
1073741824,gpu,85,full
1073741824,cpu,140,full
1073741824,cpu,1,pruned
";

#[test]
fn help_lists_the_charts_and_their_flags() {
    let run = gtap_plot(&["--help"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    for command in ["line", "hist", "bar", "timeline"] {
        assert!(
            run.stdout.contains(&format!("\n  {command} ")),
            "{}",
            run.stdout
        );
    }
    let run = gtap_plot(&["line", "--help"]);
    assert_eq!(run.code, 0);
    for flag in [
        "--x <COLUMN>",
        "--series",
        "--log-x",
        "--log2-y",
        "--filter",
        "--output",
    ] {
        assert!(run.stdout.contains(flag), "{flag} in {}", run.stdout);
    }
}

#[test]
fn a_line_chart_on_log_axes_with_series_and_filters() {
    let dir = Scratch::new("line");
    let data = dir.file("sweep.csv", SWEEP);
    let out = dir.path("sweep.png");
    let run = gtap_plot(&[
        "line",
        &data,
        "--x",
        "tasks",
        "--y",
        "median_ms",
        "--series",
        "backend",
        "--log2-x",
        "--log-y",
        "--filter",
        "tree=full",
        "--title",
        "fib",
        "-o",
        &out,
        "--size",
        "640x480",
    ]);
    assert_eq!((run.code, run.stderr.as_str()), (0, ""));
    assert_eq!(run.stdout.trim(), "2 series, 6 points");
    let png = read_png(&out);
    assert_eq!((png.width, png.height), (640, 480));
    // The first two series colors (lines, markers, legend keys).
    assert!(
        png.count([0, 114, 178]) > 700,
        "gpu blue: {}",
        png.count([0, 114, 178])
    );
    assert!(
        png.count([230, 97, 0]) > 700,
        "cpu orange: {}",
        png.count([230, 97, 0])
    );
}

const RATIOS: &str = "\
program,size,config,ratio
fib,30,default,1.2
fib,30,tuned,0.9
nqueens,16,default,1.6
nqueens,16,tuned,2.5
";

#[test]
fn a_bar_chart_of_ratios() {
    let dir = Scratch::new("bar");
    let data = dir.file("ratios.csv", RATIOS);
    let out = dir.path("ratios.png");
    let run = gtap_plot(&[
        "bar",
        &data,
        "--category",
        "program,size",
        "--value",
        "ratio",
        "--series",
        "config",
        "--reference",
        "1",
        "--log2-value",
        "-o",
        &out,
    ]);
    assert_eq!((run.code, run.stderr.as_str()), (0, ""));
    assert_eq!(run.stdout.trim(), "2 categories, 2 series, 4 bars");
    let png = read_png(&out);
    let (blue, orange) = (png.count([0, 114, 178]), png.count([230, 97, 0]));
    assert!(
        blue > 5_000 && orange > 5_000,
        "bars: {blue} blue, {orange} orange"
    );
    // The longest bar (2.5) is orange: more orange than blue.
    assert!(orange > blue, "{orange} orange against {blue} blue");
}

#[test]
fn a_bar_chart_refuses_two_rows_for_one_bar() {
    let dir = Scratch::new("bar-twice");
    let data = dir.file("ratios.csv", RATIOS);
    let run = gtap_plot(&[
        "bar",
        &data,
        "--category",
        "program",
        "--value",
        "ratio",
        "-o",
        &dir.path("o.png"),
    ]);
    assert_eq!(run.code, 1, "{}", run.stdout);
    assert!(
        run.stderr.contains(":3: a second row for category `fib`"),
        "{}",
        run.stderr
    );
}

#[test]
fn a_histogram() {
    let dir = Scratch::new("hist");
    let values: String = (0..200).map(|i| format!("{}\n", (i * i) % 97)).collect();
    let data = dir.file("times.csv", &format!("run_ns\n{values}"));
    let out = dir.path("hist.png");
    let run = gtap_plot(&[
        "hist", &data, "--value", "run_ns", "--bins", "12", "--log-y", "-o", &out,
    ]);
    assert_eq!((run.code, run.stderr.as_str()), (0, ""));
    assert_eq!(run.stdout.trim(), "200 values in 12 bins");
    let png = read_png(&out);
    assert_eq!((png.width, png.height), (900, 600));
    assert!(
        png.count([70, 130, 190]) > 100_000,
        "the bars: {}",
        png.count([70, 130, 190])
    );
}

#[test]
fn a_timeline() {
    let dir = Scratch::new("timeline");
    let spans: String = (0..8)
        .flat_map(|warp| (0..20).map(move |i| (warp, i)))
        .map(|(warp, i)| {
            format!(
                "{warp},{},{},{}\n",
                1000 * i,
                1000 * i + 700,
                f64::from(warp) / 8.0
            )
        })
        .collect();
    let data = dir.file(
        "timeline.csv",
        &format!("row,start_ns,end_ns,value\n{spans}"),
    );
    let out = dir.path("timeline.png");
    let run = gtap_plot(&[
        "timeline",
        &data,
        "--value-max",
        "32",
        "--row-label",
        "warp",
        "--value-label",
        "busy lanes",
        "-o",
        &out,
        "--size",
        "800x500",
    ]);
    assert_eq!((run.code, run.stderr.as_str()), (0, ""));
    assert_eq!(run.stdout.trim(), "160 spans on 8 rows");
    let png = read_png(&out);
    assert_eq!((png.width, png.height), (800, 500));
    // Spans cover about 70% of a plot of roughly 650x430 pixels, plus the color bar.
    assert!(png.colored() > 100_000, "{} colored pixels", png.colored());
}

#[test]
fn a_bad_column_names_the_file_and_the_columns() {
    let dir = Scratch::new("column");
    let data = dir.file("d.csv", "n,ms\n1,2\n");
    let out = dir.path("o.png");
    let run = gtap_plot(&["line", &data, "--x", "n", "--y", "seconds", "-o", &out]);
    assert_eq!(run.code, 1);
    let expected = format!("gtap-plot: {data}: no column `seconds`; the columns are: n, ms");
    assert_eq!(run.stderr.trim(), expected);
    assert!(!std::path::Path::new(&out).exists());
}

#[test]
fn bad_data_is_an_error_naming_the_line() {
    let dir = Scratch::new("data");
    let data = dir.file("sweep.csv", SWEEP);
    let out = dir.path("o.png");
    let run = gtap_plot(&["line", &data, "--x", "tasks", "--y", "backend", "-o", &out]);
    assert_eq!(run.code, 1);
    let expected = format!("gtap-plot: {data}:3: column `backend`: `gpu` is not a number");
    assert_eq!(run.stderr.trim(), expected);
    let run = gtap_plot(&[
        "line",
        &data,
        "--x",
        "tasks",
        "--y",
        "median_ms",
        "--filter",
        "tree=none",
        "-o",
        &out,
    ]);
    assert_eq!(run.code, 1);
    assert_eq!(
        run.stderr.trim(),
        format!("gtap-plot: {data} has no rows matching --filter tree=none")
    );
    let spans = dir.file(
        "t.csv",
        "row,start_ns,end_ns,value\n0,10,20,0.5\n1,30,25,0.5\n",
    );
    let run = gtap_plot(&["timeline", &spans, "-o", &out]);
    assert_eq!(run.code, 1);
    assert_eq!(
        run.stderr.trim(),
        format!("gtap-plot: {spans}:3: end_ns 25 is before start_ns 30")
    );
}

#[test]
fn unknown_flags_and_bad_values_are_usage_errors() {
    let usage = |args: &[&str], expected: &str| {
        let run = gtap_plot(args);
        assert_eq!(run.code, 2, "{args:?}: {}", run.stderr);
        assert!(run.stderr.contains(expected), "{args:?}: {}", run.stderr);
        assert!(run.stderr.contains("--help"), "{args:?}: {}", run.stderr);
    };
    let line = ["line", "d.csv", "--x", "n", "--y", "ms", "-o", "o.png"];
    usage(
        &[&line[..], &["--bins", "3"]].concat(),
        "unexpected argument '--bins'",
    );
    usage(
        &[&line[..], &["--size", "900"]].concat(),
        "expected WIDTHxHEIGHT",
    );
    usage(
        &[&line[..], &["--filter", "tree"]].concat(),
        "expected COLUMN=VALUE",
    );
    usage(
        &[&line[..], &["--log-x", "--log2-x"]].concat(),
        "cannot be used with",
    );
    usage(&line[..6], "--output <out.png>");
    usage(&["pie", "d.csv"], "unrecognized subcommand 'pie'");
    usage(
        &["timeline", "d.csv", "-o", "o.png", "--x-label", "t"],
        "unexpected argument '--x-label'",
    );
}
