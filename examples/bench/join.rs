//! `join`: one side-by-side table from the bench's CSVs and GTaP's anchor output (its
//! `run.sh`, CSV `program,n,queues,kernel_ms` with `#` comment lines), as CSV and markdown.
//!
//! Every line of the table compares one other measurement with one gtap GPU row:
//! - GTaP's kernel time against each gtap GPU row of the same program and task tree, one
//!   line per gtap configuration (`config`): anchor `fib` with gtap `fib` (no cutoff), `nq`
//!   with `nqueens` at cutoff depth + 1 (the same tasks: GTaP's tasks of `row > d` count
//!   sequentially, ours of `row >= cutoff`), `fib_cutoffC` with `fib-calls` at cutoff C (GTaP's
//!   recursive leaves), queues alike;
//! - each CPU baseline against each gtap GPU row of the same benchmark and size.
//!
//! `ratio_kernel` is the other time over gtap's kernel time (for GTaP: GTaP / gtap), and
//! `ratio_e2e` the other time over gtap's end-to-end time (CPU rows only: GTaP's anchor has no
//! end-to-end time). Above 1, gtap is faster.

use std::fmt::Write as _;
use std::process::ExitCode;

use crate::cli::JoinArgs;
use crate::csv::{Table, field};

/// A gtap row, as the bench's CSV has it.
#[derive(Clone, Debug)]
struct Gtap {
    benchmark: String,
    size: String,
    cutoff: String,
    queues: String,
    backend: String,
    variant: String,
    config: String,
    runs: String,
    median: f64,
    e2e: f64,
}

/// One line of the joined table: `other` against a gtap GPU row (if there is one).
#[derive(Debug)]
struct Line {
    program: String,
    size: String,
    other: String,
    other_variant: String,
    other_cutoff: String,
    other_runs: String,
    other_ms: f64,
    gtap: Option<Gtap>,
    /// Whether the end-to-end ratio applies (CPU baselines).
    e2e_ratio: bool,
}

/// The columns of the joined CSV.
const HEADER: &str = "program,size,gtap_cutoff,gtap_queues,gtap_config,gtap_runs,gtap_kernel_ms,\
gtap_e2e_ms,other,other_variant,other_cutoff,other_runs,other_ms,ratio_kernel,ratio_e2e,case";

/// Runs `join`.
pub fn run(a: &JoinArgs) -> ExitCode {
    match join(a) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("join: {e}");
            ExitCode::FAILURE
        }
    }
}

fn join(a: &JoinArgs) -> Result<(), String> {
    let read = |p: &std::path::Path| {
        std::fs::read_to_string(p).map_err(|e| format!("{}: {e}", p.display()))
    };
    let mut gtap = Vec::new();
    for path in &a.gtap_csv {
        gtap.extend(gtap_rows(&read(path)?).map_err(|e| format!("{}: {e}", path.display()))?);
    }
    let anchor_text = read(&a.anchor_csv)?;
    let mut lines = anchor_lines(&anchor_text, &gtap, a.anchor_nq_cutoff)
        .map_err(|e| format!("{}: {e}", a.anchor_csv.display()))?;
    let gpu_lines = lines.len();
    lines.extend(cpu_lines(&gtap));
    let md = markdown(a, &anchor_text, &lines[..gpu_lines], &lines[gpu_lines..]);
    print!("{md}");
    if let Some(p) = &a.out_md {
        std::fs::write(p, &md).map_err(|e| format!("{}: {e}", p.display()))?;
    }
    if let Some(p) = &a.out_csv {
        std::fs::write(p, csv(&lines)).map_err(|e| format!("{}: {e}", p.display()))?;
    }
    Ok(())
}

/// The rows of one of the bench's CSVs.
fn gtap_rows(text: &str) -> Result<Vec<Gtap>, String> {
    let t = Table::parse(
        text,
        &["benchmark", "size", "backend", "median_ms", "e2e_median_ms"],
    )?;
    let num = |row: &[String], col: &str| {
        let v = t.get(row, col);
        v.parse::<f64>()
            .map_err(|_| format!("`{v}` in column {col} is not a number"))
    };
    t.rows
        .iter()
        .map(|r| {
            Ok(Gtap {
                benchmark: t.get(r, "benchmark").to_string(),
                size: t.get(r, "size").to_string(),
                cutoff: t.get(r, "cutoff").to_string(),
                queues: t.get(r, "queues").to_string(),
                backend: t.get(r, "backend").to_string(),
                variant: t.get(r, "variant").to_string(),
                config: t.get(r, "config").to_string(),
                runs: t.get(r, "runs").to_string(),
                median: num(r, "median_ms")?,
                e2e: num(r, "e2e_median_ms")?,
            })
        })
        .collect()
}

/// gtap's benchmarks and cutoff for the anchor's `program` (with GTaP's cutoff, for the
/// table), or `None` for a program gtap does not have. GTaP's `nq` has no taskwait: its
/// like is `nqueens-detached`; the joined `nqueens` runs the same tasks, and resumes too.
/// `nq_leaf` is GTaP's `nq` with gtap's sequential count as its leaf
/// (`scripts/anchor-leaf.sh`).
fn anchor_match(
    program: &str,
    nq_cutoff: u32,
) -> Option<(&'static [&'static str], String, String)> {
    match program {
        "fib" => Some((&["fib"], String::new(), String::new())),
        "nq" | "nq_leaf" => Some((
            &["nqueens", "nqueens-detached"],
            (nq_cutoff + 1).to_string(),
            nq_cutoff.to_string(),
        )),
        p => {
            let c: u32 = p.strip_prefix("fib_cutoff")?.parse().ok()?;
            Some((&["fib-calls"], c.to_string(), c.to_string()))
        }
    }
}

/// One row of GTaP's anchor output.
struct AnchorRow<'a> {
    program: &'a str,
    n: &'a str,
    queues: &'a str,
    ms: f64,
}

/// Lines for the anchor's rows, each against every matching gtap GPU row. A row with no
/// match makes one line without gtap's figures, under its first benchmark.
fn anchor_lines(text: &str, gtap: &[Gtap], nq_cutoff: u32) -> Result<Vec<Line>, String> {
    let t = Table::parse(text, &["program", "n", "queues", "kernel_ms"])?;
    let runs = text
        .lines()
        .find_map(|l| l.split("runs per program: ").nth(1))
        .map_or(String::new(), |r| r.trim().to_string());
    let mut lines = Vec::new();
    for r in &t.rows {
        let ms = t.get(r, "kernel_ms");
        let row = AnchorRow {
            program: t.get(r, "program"),
            n: t.get(r, "n"),
            queues: t.get(r, "queues"),
            ms: ms
                .parse()
                .map_err(|_| format!("kernel_ms `{ms}` is not a number"))?,
        };
        let Some((benchmarks, cutoff, their_cutoff)) = anchor_match(row.program, nq_cutoff) else {
            eprintln!(
                "join: GTaP's `{}` has no gtap counterpart; left out",
                row.program
            );
            continue;
        };
        let before = lines.len();
        for benchmark in benchmarks {
            let matches = gtap.iter().filter(|g| {
                g.backend == "gpu"
                    && g.benchmark == *benchmark
                    && g.size == row.n
                    && g.cutoff == cutoff
                    && g.queues == row.queues
            });
            lines.extend(
                matches.map(|g| anchor_line(&row, benchmark, &their_cutoff, &runs, Some(g))),
            );
        }
        if lines.len() == before {
            lines.push(anchor_line(&row, benchmarks[0], &their_cutoff, &runs, None));
        }
    }
    Ok(lines)
}

/// The line of anchor row `row` against gtap's row `g` of `benchmark` (if any).
fn anchor_line(
    row: &AnchorRow,
    benchmark: &str,
    their_cutoff: &str,
    runs: &str,
    g: Option<&Gtap>,
) -> Line {
    Line {
        program: benchmark.to_string(),
        size: row.n.to_string(),
        other: other_name(row.program).to_string(),
        other_variant: format!("{}, {} queue(s)", row.program, row.queues),
        other_cutoff: their_cutoff.to_string(),
        other_runs: runs.to_string(),
        other_ms: row.ms,
        gtap: g.cloned(),
        e2e_ratio: false,
    }
}

/// Who ran the anchor's `program`: GTaP, or for `nq_leaf` GTaP with gtap's leaf (a name of
/// its own, so that charts of GTaP's own programs can leave it out).
fn other_name(program: &str) -> &'static str {
    if program == "nq_leaf" {
        "GTaP, gtap's leaf"
    } else {
        "GTaP"
    }
}

/// Lines for the CPU baselines, each against every gtap GPU row of its benchmark and size.
fn cpu_lines(gtap: &[Gtap]) -> Vec<Line> {
    let mut lines = Vec::new();
    for c in gtap.iter().filter(|g| !g.backend.starts_with("gpu")) {
        let line = |g: Option<&Gtap>| Line {
            program: c.benchmark.clone(),
            size: c.size.clone(),
            other: c.backend.clone(),
            other_variant: c.variant.clone(),
            other_cutoff: c.cutoff.clone(),
            other_runs: c.runs.clone(),
            other_ms: c.median,
            gtap: g.cloned(),
            e2e_ratio: true,
        };
        let gpus: Vec<&Gtap> = gtap
            .iter()
            .filter(|g| g.backend == "gpu" && g.benchmark == c.benchmark && g.size == c.size)
            .collect();
        if gpus.is_empty() {
            lines.push(line(None));
        }
        lines.extend(gpus.into_iter().map(|g| line(Some(g))));
    }
    lines
}

/// `other / gtap` where both are known.
fn ratio(other: f64, gtap: Option<f64>) -> Option<f64> {
    gtap.filter(|&g| g > 0.0).map(|g| other / g)
}

impl Line {
    /// A short name of what was run, for charts: `fib(40)`, `fib-calls(40) c10 q3` (gtap's
    /// cutoff and queues, where it has them).
    fn case(&self) -> String {
        let mut case = format!("{}({})", self.program, self.size);
        if let Some(g) = &self.gtap {
            if !g.cutoff.is_empty() && !g.cutoff.contains('/') {
                case += &format!(" c{}", g.cutoff);
            }
            if !g.queues.is_empty() && g.queues != "1" {
                case += &format!(" q{}", g.queues);
            }
        }
        case
    }

    fn ratio_kernel(&self) -> Option<f64> {
        ratio(self.other_ms, self.gtap.as_ref().map(|g| g.median))
    }

    fn ratio_e2e(&self) -> Option<f64> {
        let e2e = self.gtap.as_ref().map(|g| g.e2e).filter(|_| self.e2e_ratio);
        ratio(self.other_ms, e2e)
    }
}

fn opt(v: Option<f64>, digits: usize) -> String {
    v.map_or(String::new(), |v| format!("{v:.digits$}"))
}

/// The lines as CSV.
fn csv(lines: &[Line]) -> String {
    let mut out = format!("{HEADER}\n");
    for l in lines {
        let g = l.gtap.as_ref();
        let s = |f: fn(&Gtap) -> &String| g.map_or(String::new(), |g| field(f(g)));
        let fields = [
            field(&l.program),
            field(&l.size),
            s(|g| &g.cutoff),
            s(|g| &g.queues),
            s(|g| &g.config),
            s(|g| &g.runs),
            opt(g.map(|g| g.median), 4),
            opt(g.map(|g| g.e2e), 4),
            field(&l.other),
            field(&l.other_variant),
            field(&l.other_cutoff),
            field(&l.other_runs),
            format!("{:.4}", l.other_ms),
            opt(l.ratio_kernel(), 4),
            opt(l.ratio_e2e(), 4),
            field(&l.case()),
        ];
        out += &fields.join(",");
        out.push('\n');
    }
    out
}

/// The `#` lines of GTaP's CSV that the header repeats (without their `# `): how GTaP was
/// built and run, and any failed run.
fn anchor_header(anchor_text: &str) -> impl Iterator<Item = &str> {
    anchor_text.lines().filter_map(|l| {
        let rest = l.strip_prefix("# ")?;
        ["gtap anchor", "gpu", "nvcc", "module loading", "FAIL"]
            .iter()
            .any(|p| rest.starts_with(p))
            .then_some(rest)
    })
}

/// The header, the GTaP table and the CPU table, as markdown.
fn markdown(a: &JoinArgs, anchor_text: &str, gpu: &[Line], cpu: &[Line]) -> String {
    let unknown = |v: &Option<String>| v.clone().unwrap_or_else(|| "not given".into());
    let mut md = String::from("# gtap and GTaP side by side\n\n");
    let _ = writeln!(md, "- GPU: {}", unknown(&a.gpu));
    let _ = writeln!(md, "- date: {}", unknown(&a.date));
    let _ = writeln!(md, "- gtap commit: {}", unknown(&a.commit));
    for rest in anchor_header(anchor_text) {
        let _ = writeln!(md, "- GTaP's run.sh: {rest}");
    }
    md += "- Times are medians in ms. GTaP: kernel time (a CUDA event pair around its one \
           launch, one process per run; its module loaded before the launch where the line \
           above says EAGER). gtap kernel: CUDA events around the launch; gtap e2e: \
           wall clock from the host call to the result in host memory (`bench --help`). CPU: \
           wall clock.\n- Ratios are the other time over gtap's: above 1, gtap is faster.\n\
           - nqueens: GTaP's cutoff depth d runs the same tasks as gtap's cutoff d + 1.\n\n";
    md += "## GPU: GTaP against gtap\n\n| program | n | cutoff (GTaP / gtap) | queues | GTaP ms \
           | gtap config | gtap kernel ms | gtap e2e ms | GTaP / gtap kernel |\n\
           |---|---|---|---|---:|---|---:|---:|---:|\n";
    for l in gpu {
        let g = l.gtap.as_ref();
        let _ = writeln!(
            md,
            "| {} ({}) | {} | {} / {} | {} | {:.3} | {} | {} | {} | {} |",
            l.program,
            l.other_variant.split(',').next().unwrap_or(""),
            l.size,
            dash(&l.other_cutoff),
            dash(g.map_or("", |g| &g.cutoff)),
            g.map_or("", |g| &g.queues),
            l.other_ms,
            g.map_or("no gtap row", |g| &g.config),
            opt(g.map(|g| g.median), 3),
            opt(g.map(|g| g.e2e), 3),
            times(l.ratio_kernel())
        );
    }
    md += "\n## gtap's GPU against CPU baselines\n\n| program | size | baseline | cutoff | CPU ms \
           | runs | gtap config, cutoff, queues | gtap kernel ms | gtap e2e ms | CPU / gtap e2e \
           | CPU / gtap kernel |\n|---|---|---|---|---:|---:|---|---:|---:|---:|---:|\n";
    for l in cpu {
        let g = l.gtap.as_ref();
        let _ = writeln!(
            md,
            "| {} | {} | {}: {} | {} | {:.3} | {} | {} | {} | {} | {} | {} |",
            l.program,
            l.size,
            l.other,
            l.other_variant,
            dash(&l.other_cutoff),
            l.other_ms,
            l.other_runs,
            g.map_or("no gtap GPU row".into(), |g| format!(
                "{}, {}, {}",
                g.config,
                dash(&g.cutoff),
                g.queues
            )),
            opt(g.map(|g| g.median), 3),
            opt(g.map(|g| g.e2e), 3),
            times(l.ratio_e2e()),
            times(l.ratio_kernel())
        );
    }
    md
}

fn dash(s: &str) -> &str {
    if s.is_empty() { "-" } else { s }
}

fn times(r: Option<f64>) -> String {
    r.map_or(String::new(), |r| format!("{r:.2}x"))
}

#[cfg(test)]
mod tests {
    use super::*;

    const GTAP: &str = "benchmark,size,cutoff,queues,backend,variant,config,runs,median_ms,\
min_ms,max_ms,e2e_median_ms,e2e_min_ms,e2e_max_ms,tasks
fib,40,,1,gpu,\"task per call, no cutoff\",default,10,60.0,59,61,61.0,60,62,331160281
fib,40,,1,gpu,\"task per call, no cutoff\",tuned,10,50.0,49,51,51.0,50,52,331160281
nqueens,16,8,1,gpu,x,default,10,100.0,99,101,101.0,100,102,1
nqueens-detached,16,8,1,gpu,w,default,10,62.5,62,63,63.0,62,64,1
nqueens,16,4,,rayon,y,,3,400.0,399,401,400.0,399,401,0
fib-calls,40,10,3,gpu,z,default,10,3.0,2.9,3.1,3.5,3.4,3.6,1
";
    const ANCHOR: &str =
        "# gtap anchor: GTaP a3c2ed7\n# nvcc: release 13.0; build 2 s; runs per program: 5
# runs fib 40 1: 119 120 121
# module loading: CUDA_MODULE_LOADING=EAGER for GTaP's processes
program,n,queues,kernel_ms
fib,40,1,120.0
nq,16,1,125.0
nq_leaf,16,1,25.0
fib_cutoff10,40,3,6.0
fib_cutoff10,40,1,9.0
";

    #[test]
    fn joins() {
        let gtap = gtap_rows(GTAP).unwrap();
        let gpu = anchor_lines(ANCHOR, &gtap, 7).unwrap();
        let got: Vec<(&str, Option<&str>, Option<f64>)> = gpu
            .iter()
            .map(|l| {
                (
                    l.program.as_str(),
                    l.gtap.as_ref().map(|g| g.config.as_str()),
                    l.ratio_kernel(),
                )
            })
            .collect();
        assert_eq!(
            got,
            [
                ("fib", Some("default"), Some(2.0)),
                ("fib", Some("tuned"), Some(2.4)),
                ("nqueens", Some("default"), Some(1.25)),
                ("nqueens-detached", Some("default"), Some(2.0)),
                ("nqueens", Some("default"), Some(0.25)),
                ("nqueens-detached", Some("default"), Some(0.4)),
                ("fib-calls", Some("default"), Some(2.0)),
                ("fib-calls", None, None),
            ]
        );
        assert_eq!(gpu[0].other_runs, "5");
        let cpu = cpu_lines(&gtap);
        assert_eq!(cpu.len(), 1);
        assert_eq!(cpu[0].ratio_e2e(), Some(400.0 / 101.0));
        let text = csv(&cpu);
        let t = Table::parse(&text, &["ratio_e2e"]).unwrap();
        assert_eq!(t.get(&t.rows[0], "gtap_cutoff"), "8");
        assert_eq!(t.get(&t.rows[0], "case"), "nqueens(16) c8");
        let cases: Vec<String> = gpu.iter().map(Line::case).collect();
        assert_eq!(cases[0], "fib(40)");
        assert_eq!(cases[3], "nqueens-detached(16) c8");
        assert_eq!(cases[6], "fib-calls(40) c10 q3");
        let others: Vec<&str> = gpu.iter().map(|l| l.other.as_str()).collect();
        assert_eq!(others[3..5], ["GTaP", "GTaP, gtap's leaf"]);
    }

    /// The header keeps how GTaP was built and loaded, not every run's times.
    #[test]
    fn header_keeps_the_build_and_module_loading() {
        let kept: Vec<&str> = anchor_header(ANCHOR).collect();
        assert_eq!(
            kept,
            [
                "gtap anchor: GTaP a3c2ed7",
                "nvcc: release 13.0; build 2 s; runs per program: 5",
                "module loading: CUDA_MODULE_LOADING=EAGER for GTaP's processes",
            ]
        );
    }
}
