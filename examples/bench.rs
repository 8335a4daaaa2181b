//! The benchmark harness: the paper's programs on the GPU, and the same algorithms on the
//! CPU (sequential Rust, and rayon on every core), timed the same way and checked on every
//! run.
//!
//! ```text
//! cargo run --release -p gtap-examples --example bench -- [--runs N] [--out FILE] [--gpu-only] [--profile DIR] [NAME...]
//! ```
//!
//! NAMEs select benchmarks by prefix (`fib`, `epaq-fib`, `epaq-nqueens`, `epaq-cilksort`,
//! `nqueens`, `mergesort`, `cilksort`, `tree`; `epaq` selects the three EPAQ ones); none means
//! all. GPU times are kernel times from CUDA events; CPU times are wall-clock
//! around the computation. Each benchmark is run once to warm up, then `--runs` times
//! (default 10; CPU baselines whose first run takes over a second run 3 times, over ten
//! seconds once). The synthetic tree reads from a 2^20-entry (8 MiB) table.
//! The table printed last has the median, minimum and maximum; `--out` writes it as CSV.
//!
//! Environment: `GTAP_GRID`, `GTAP_BLOCK`, `GTAP_MAX_REGISTERS`, `GTAP_KEEP`
//! (`keep_unpublished`), `GTAP_KEEP_EVERY_QUEUE=1`,
//! `GTAP_QUEUE_ORDER=next-full|stay|most-generated`, `GTAP_TOP_UP` (victims, `top_up`),
//! `GTAP_STEAL_ATTEMPTS`, `GTAP_TIMEOUT_S` (the run's timeout, seconds),
//! `GTAP_STEAL_PER_QUEUE=1` and `GTAP_RESUME_INLINE=1` set the GPU configuration;
//! `GTAP_SCHEDULER=one-at-a-time|global-queue` an ablation scheduler; `GTAP_FIB_N=30,35`,
//! `GTAP_NQ_N=12,14`, `GTAP_MERGESORT_N=..`, `GTAP_CILKSORT_N=..` the problem sizes.
//!
//! The EPAQ benchmarks (GTaP section 6.4, Fig. 10) run a program with a cutoff at each cutoff
//! of a list, with one queue and with EPAQ queues, on the GPU only, in rows named
//! `PROGRAM(SIZE) cutoff C, Q queue(s)` (`scripts/sweep-epaq.sh` sweeps them into one CSV):
//! - `epaq-fib`: `fib::epaq`, fib(`GTAP_EPAQ_FIB_N`, default 40) at the cutoffs
//!   `GTAP_CUTOFFS` (default 10); 1 queue, and 3 (recursing tasks, sequential tasks,
//!   continuations). Checks the value and the exact task count. The sequential code is
//!   GTaP's, recursive calls (rows `fib-calls(40) ..`); `GTAP_FIB_LEAF=stack` walks the call
//!   tree with an explicit stack instead (rows `fib(40) ..`), `both` runs both.
//! - `epaq-nqueens`: `nqueens::epaq`, nqueens(`GTAP_EPAQ_NQ_N`, default and most 16) at the
//!   cutoffs `GTAP_NQ_CUTOFFS` (default 7; GTaP's cutoff depth `d` is our cutoff `d + 1`);
//!   1 queue, 2 (spawning tasks and continuations, sequential counts: GTaP's classifier) and
//!   3 (continuations apart). Checks the count and the exact task count.
//! - `epaq-cilksort`: `cilksort_epaq`, `GTAP_EPAQ_CILKSORT_N` (default 5e7) random `u32`s at
//!   the cutoffs `GTAP_CILKSORT_CUTOFFS` (default 256; the sort and the merge cutoff both);
//!   1 queue, and 3 (spawning tasks and continuations, sort leaves, merge leaves: GTaP's
//!   classifier). Checks the output against a CPU sort, and that every run counts the same
//!   tasks (the count depends on the data).
//!
//! They run with 32768 task records and 16384 queue entries per warp.
//!
//! Further NAMEs, the block programs' benchmarks, each with its own file and environment:
//! `granularity` (GTaP 6.3, the synthetic trees as thread and as block programs,
//! `bench/granularity.rs`), `bfs` and `spmv` (Kronecker graphs, `bench/graph.rs`). Their
//! block-program rows have the backend `gpu-block` (`bench/blocks.rs`).
//!
//! `--profile DIR` runs the GPU benchmarks with the per-warp timeline profiler
//! (`GpuConfig::profile`, the examples' profiled PTX) and writes, for each, a folder
//! `DIR/<benchmark>/` with `trace.json` (open it in <https://ui.perfetto.dev>),
//! `timeline.csv` (for `gtap-plot timeline`), `round_times.csv` and `summary.txt`, from the
//! last run. It implies `--gpu-only`, one measured run unless `--runs` says otherwise, and,
//! with no NAME, fib(30) alone (`GTAP_FIB_N` for others). `GTAP_PROFILE_EVENTS` sets the
//! events recorded per warp (default 4096; a warp records one per round). Profiled kernel
//! times include the profiler's own cost.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use gtap_examples::buf::{Buf, Rng, insertion_sort, merge_into};
use gtap_examples::fib::Leaf;
use gtap_examples::{cilksort, cilksort_epaq, fib, mergesort, nqueens, tree};
use gtap_host::Gpu;
use gtap_host::cudarc::driver::{CudaSlice, DevicePtr};
use gtap_host::gpu_runtime::{GpuConfig, GpuRuntime, QueueOrder, Scheduler};

#[path = "bench/blocks.rs"]
mod blocks;
#[path = "bench/granularity.rs"]
mod granularity;
#[path = "bench/graph.rs"]
mod graph;

/// Entries of the synthetic tree's table (8 MiB of `u64`), the same on the GPU and the CPU.
const TREE_TABLE: usize = 1 << 20;

/// The statistics of the last GPU run, printed after each GPU benchmark.
static LAST: Mutex<Option<gtap_host::gpu_runtime::GpuStats>> = Mutex::new(None);

fn note(s: gtap_host::gpu_runtime::GpuStats) -> (Duration, u64) {
    let out = (s.kernel_time, s.tasks);
    *LAST.lock().unwrap() = Some(s);
    out
}

/// One line of the results table.
struct Row {
    bench: String,
    backend: &'static str,
    /// How many times were measured.
    runs: usize,
    /// Figures of those times, in milliseconds: computed once, printed three times (progress,
    /// markdown and CSV).
    median_ms: f64,
    min_ms: f64,
    max_ms: f64,
    tasks: u64,
}

impl Row {
    /// The row of `times` (at least one).
    fn new(bench: String, backend: &'static str, times: &[Duration], tasks: u64) -> Row {
        let mut t: Vec<f64> = times.iter().map(|d| d.as_secs_f64() * 1e3).collect();
        t.sort_by(f64::total_cmp);
        let n = t.len();
        let median_ms = if n % 2 == 1 {
            t[n / 2]
        } else {
            (t[n / 2 - 1] + t[n / 2]) / 2.0
        };
        Row {
            bench,
            backend,
            runs: n,
            median_ms,
            min_ms: t[0],
            max_ms: t[n - 1],
            tasks,
        }
    }
}

struct Harness {
    runs: usize,
    rows: Vec<Row>,
    gpu: Option<GpuRuntime>,
    /// `--gpu-only`: skip the CPU baselines.
    gpu_only: bool,
    /// `--profile DIR`: where each GPU benchmark's profile goes.
    profile_dir: Option<PathBuf>,
    /// Profiles that could not be written.
    failures: usize,
}

impl Harness {
    /// Times `f` (which returns its own measured time and a task count, and checks its
    /// result) once to warm up and then `runs` times.
    fn measure(
        &mut self,
        bench: String,
        backend: &'static str,
        mut f: impl FnMut() -> (Duration, u64),
    ) {
        if self.gpu_only && !is_gpu(backend) {
            return;
        }
        let (first, _) = f();
        let runs = if !is_gpu(backend) && first > Duration::from_secs(1) {
            3.max(self.runs / 3)
        } else {
            self.runs
        };
        let mut times = Vec::with_capacity(runs.max(1));
        if runs == 0 {
            times.push(first);
        }
        let mut tasks = 0;
        for _ in 0..runs {
            let (t, n) = f();
            times.push(t);
            tasks = n;
        }
        let row = Row::new(bench, backend, &times, tasks);
        eprintln!(
            "{:<28} {:<5} median {:>10.3} ms  (min {:.3}, max {:.3}, {} runs)",
            row.bench, row.backend, row.median_ms, row.min_ms, row.max_ms, row.runs
        );
        if is_gpu(backend)
            && let Some(mut s) = LAST.lock().unwrap().take()
        {
            if let (Some(dir), Some(profile)) = (&self.profile_dir, s.profile.take()) {
                let dir = dir.join(slug(&bench_label(&self.rows, &row)));
                match profile.write_dir(&dir) {
                    Ok(()) => {
                        let summary = profile.summary().to_string();
                        for line in summary.lines().take(4) {
                            eprintln!("    {line}");
                        }
                        eprintln!("    profile written to {}", dir.display());
                    }
                    Err(e) => {
                        eprintln!("    {e}");
                        self.failures += 1;
                    }
                }
            }
            eprintln!(
                "    grid {} x {}, rounds {} ({:.1}% idle), steals {} of {}, peak records/warp {}, peak queue {}",
                s.grid,
                s.block,
                s.rounds,
                100.0 * s.idle_rounds as f64 / s.rounds.max(1) as f64,
                s.steals_won,
                s.steals_attempted,
                s.peak_records_per_warp,
                s.peak_queue
            );
        }
        self.rows.push(row);
    }
}

/// Whether `backend` is a GPU's (`gpu`, or `gpu-block` for block programs).
fn is_gpu(backend: &str) -> bool {
    backend.starts_with("gpu")
}

/// The label of `row` (already measured, not yet pushed), made unique among `rows` (the
/// EPAQ runs share a label per cutoff only with their queue count).
fn bench_label(rows: &[Row], row: &Row) -> String {
    let same = rows
        .iter()
        .filter(|r| r.bench == row.bench && r.backend == row.backend)
        .count();
    if same == 0 {
        row.bench.clone()
    } else {
        format!("{} #{}", row.bench, same + 1)
    }
}

/// `s` as a folder name: lowercase letters and digits, other runs of characters as one `-`.
fn slug(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.ends_with('-') {
            out.push('-');
        }
    }
    out.trim_matches('-').to_string()
}

fn timed<T>(f: impl FnOnce() -> T) -> (Duration, T) {
    let start = Instant::now();
    let v = f();
    (start.elapsed(), v)
}

// ---- CPU baselines: the same algorithms, sequential and with rayon ----

fn fib_seq(n: u32) -> u64 {
    if n < 2 {
        n as u64
    } else {
        fib_seq(n - 1) + fib_seq(n - 2)
    }
}

fn fib_rayon(n: u32) -> u64 {
    if n < 2 {
        return n as u64;
    }
    let (a, b) = rayon::join(|| fib_rayon(n - 1), || fib_rayon(n - 2));
    a + b
}

fn nqueens_rayon(n: u32, row: u32, cols: u32, dl: u32, dr: u32, cutoff: u32) -> u64 {
    if row == n {
        return 1;
    }
    if row >= cutoff {
        return nqueens::count_seq(n, row, cols, dl, dr);
    }
    let full = if n == 32 { u32::MAX } else { (1u32 << n) - 1 };
    let mut free = full & !(cols | dl | dr);
    let mut bits = Vec::new();
    while free != 0 {
        let bit = free & free.wrapping_neg();
        free ^= bit;
        bits.push(bit);
    }
    use rayon::prelude::*;
    bits.par_iter()
        .map(|&bit| {
            nqueens_rayon(
                n,
                row + 1,
                cols | bit,
                (dl | bit) << 1,
                (dr | bit) >> 1,
                cutoff,
            )
        })
        .sum()
}

fn mergesort_cpu(data: &mut [u32], tmp: &mut [u32], cutoff: usize, par: bool) {
    let n = data.len();
    if n <= cutoff.max(1) {
        insertion_sort(data);
        return;
    }
    let mid = n / 2;
    {
        let (dl, dr) = data.split_at_mut(mid);
        let (tl, tr) = tmp.split_at_mut(mid);
        if par {
            rayon::join(
                || mergesort_cpu(dl, tl, cutoff, true),
                || mergesort_cpu(dr, tr, cutoff, true),
            );
        } else {
            mergesort_cpu(dl, tl, cutoff, false);
            mergesort_cpu(dr, tr, cutoff, false);
        }
    }
    let (a, b) = data.split_at(mid);
    merge_into(a, b, tmp);
    data.copy_from_slice(tmp);
}

fn merge_cpu(x: &[u32], y: &[u32], out: &mut [u32], cutoff: usize, par: bool) {
    let (x, y) = if x.len() < y.len() { (y, x) } else { (x, y) };
    if x.len() + y.len() <= cutoff.max(2) || x.len() < 2 || !par {
        merge_into(x, y, out);
        return;
    }
    let xm = x.len() / 2;
    let ym = y.partition_point(|&v| v < x[xm]);
    let (ol, or) = out.split_at_mut(xm + ym);
    rayon::join(
        || merge_cpu(&x[..xm], &y[..ym], ol, cutoff, true),
        || merge_cpu(&x[xm..], &y[ym..], or, cutoff, true),
    );
}

fn cilksort_cpu(
    data: &mut [u32],
    tmp: &mut [u32],
    sort_cutoff: usize,
    merge_cutoff: usize,
    par: bool,
) {
    let n = data.len();
    if n <= sort_cutoff.max(4) {
        insertion_sort(data);
        return;
    }
    let q = n / 4;
    {
        let (d01, d23) = data.split_at_mut(2 * q);
        let (d0, d1) = d01.split_at_mut(q);
        let (d2, d3) = d23.split_at_mut(q);
        let (t01, t23) = tmp.split_at_mut(2 * q);
        let (t0, t1) = t01.split_at_mut(q);
        let (t2, t3) = t23.split_at_mut(q);
        let s = |d: &mut [u32], t: &mut [u32]| cilksort_cpu(d, t, sort_cutoff, merge_cutoff, par);
        if par {
            rayon::join(
                || rayon::join(|| s(d0, t0), || s(d1, t1)),
                || rayon::join(|| s(d2, t2), || s(d3, t3)),
            );
        } else {
            s(d0, t0);
            s(d1, t1);
            s(d2, t2);
            s(d3, t3);
        }
    }
    {
        let (d01, d23) = data.split_at(2 * q);
        let (t01, t23) = tmp.split_at_mut(2 * q);
        let m = |a: &[u32], b: &[u32], o: &mut [u32]| merge_cpu(a, b, o, merge_cutoff, par);
        if par {
            rayon::join(
                || m(&d01[..q], &d01[q..], t01),
                || m(&d23[..q], &d23[q..], t23),
            );
        } else {
            m(&d01[..q], &d01[q..], t01);
            m(&d23[..q], &d23[q..], t23);
        }
    }
    let (t01, t23) = tmp.split_at(2 * q);
    merge_cpu(t01, t23, data, merge_cutoff, par);
}

fn tree_rayon(depth: u32, id: u64, w: tree::Work) -> (u64, u64) {
    let own = (1, tree::node_work(id, w));
    if depth == 0 {
        return own;
    }
    let (l, r) = rayon::join(
        || tree_rayon(depth - 1, 2 * id + 1, w),
        || tree_rayon(depth - 1, 2 * id + 2, w),
    );
    (own.0 + l.0 + r.0, own.1.wrapping_add(l.1).wrapping_add(r.1))
}

// ---- GPU helpers ----

fn upload<T: gtap_host::cudarc::driver::DeviceRepr>(gpu: &Gpu, data: &[T]) -> CudaSlice<T> {
    gpu.stream().clone_htod(data).expect("upload")
}

fn dptr<T>(gpu: &Gpu, s: &CudaSlice<T>) -> u64 {
    let (p, _sync) = s.device_ptr(gpu.stream());
    p
}

/// A comma-separated list of numbers from the environment variable `var`, if set.
fn env_list(var: &str) -> Option<Vec<u32>> {
    let v = std::env::var(var).ok()?;
    Some(v.split(',').filter_map(|c| c.trim().parse().ok()).collect())
}

fn random_input(n: usize, seed: u64) -> Vec<u32> {
    let mut rng = Rng::new(seed);
    (0..n).map(|_| rng.next() as u32).collect()
}

/// GTaP section 6.4 (Fig. 10): each program with a cutoff (sequential code below it), one
/// queue against EPAQ queues, at each cutoff of its list. Every run is checked.
fn epaq(h: &mut Harness, rt: &mut GpuRuntime, wanted: &dyn Fn(&str) -> bool) {
    let size = |var: &str, default: u32| {
        env_list(var)
            .and_then(|v| v.first().copied())
            .unwrap_or(default)
    };
    let base = rt.config().clone();
    // A warp that follows one queue keeps more tasks alive: more records.
    let config = |queues| {
        base.clone()
            .num_queues(queues)
            .tasks_per_warp(32768)
            .queue_capacity(16384)
    };
    let label = |program: &str, cutoff: u32, queues: u32| {
        format!("{program} cutoff {cutoff}, {queues} queue(s)")
    };
    if wanted("epaq-fib") {
        // Recursing tasks, cutoff tasks, continuations: fib::epaq.
        let n = size("GTAP_EPAQ_FIB_N", 40);
        let want = fib::reference(n);
        // GTaP's sequential code makes real calls (`fib_calls`); ours by default walks the
        // same call tree with an explicit stack. `GTAP_FIB_LEAF=calls|stack|both`.
        let leaves: &[(Leaf, &str)] = match std::env::var("GTAP_FIB_LEAF").as_deref() {
            Ok("stack") => &[(Leaf::Stack, "fib")],
            Ok("both") => &[(Leaf::Calls, "fib-calls"), (Leaf::Stack, "fib")],
            _ => &[(Leaf::Calls, "fib-calls")],
        };
        for cutoff in env_list("GTAP_CUTOFFS").unwrap_or_else(|| vec![10]) {
            let tasks = fib::cutoff_task_count(n, cutoff);
            for &(leaf, name) in leaves {
                for (queues, epaq) in [(1, 0), (3, 1)] {
                    rt.set_config(config(queues)).expect("EPAQ configuration");
                    h.measure(
                        label(&format!("{name}({n})"), cutoff, queues),
                        "gpu",
                        || {
                            let (v, s) = rt
                                .run(fib::epaq::fib_cutoff(n, cutoff, epaq, leaf))
                                .unwrap_or_else(|e| panic!("GPU run: {e}"));
                            assert_eq!(v, want, "fib({n}) cutoff {cutoff} on the GPU");
                            assert_eq!(s.tasks, tasks, "fib({n}) cutoff {cutoff} task count");
                            note(s)
                        },
                    );
                }
            }
        }
    }
    if wanted("epaq-nqueens") {
        // Spawning tasks, sequential counts, continuations: nqueens::epaq. Two queues is
        // GTaP's classifier (continuations with the spawning tasks), three gives the
        // continuations their own queue as for fib.
        let n = size("GTAP_EPAQ_NQ_N", 16);
        let want = nqueens::KNOWN[n as usize];
        for cutoff in env_list("GTAP_NQ_CUTOFFS").unwrap_or_else(|| vec![7]) {
            let tasks = nqueens::cutoff_task_count(n, cutoff);
            for (queues, epaq) in [(1, 0), (2, 1), (3, 2)] {
                rt.set_config(config(queues)).expect("EPAQ configuration");
                h.measure(
                    label(&format!("nqueens({n})"), cutoff, queues),
                    "gpu",
                    || {
                        let (v, s) = rt
                            .run(nqueens::epaq::nqueens(n, 0, 0, 0, 0, cutoff, epaq))
                            .unwrap_or_else(|e| panic!("GPU run: {e}"));
                        assert_eq!(v, want, "nqueens({n}) cutoff {cutoff} on the GPU");
                        assert_eq!(s.tasks, tasks, "nqueens({n}) cutoff {cutoff} task count");
                        note(s)
                    },
                );
            }
        }
    }
    if wanted("epaq-cilksort") {
        // Spawning tasks and continuations, sort leaves, merge leaves: cilksort_epaq, with
        // the sort and merge cutoffs both at the cutoff (as GTaP's sweep).
        let n = size("GTAP_EPAQ_CILKSORT_N", 50_000_000) as usize;
        let input = random_input(n, 12345);
        let mut sorted = input.clone();
        {
            use rayon::slice::ParallelSliceMut;
            sorted.par_sort_unstable();
        }
        let gpu = rt.gpu().clone();
        let tmp = upload(&gpu, &vec![0u32; n]);
        for cutoff in env_list("GTAP_CILKSORT_CUTOFFS").unwrap_or_else(|| vec![256]) {
            let c = cutoff as usize;
            // The count depends on the data (where the merges split), so every run, with
            // either queue count, must agree with the first.
            let mut tasks = None;
            for (queues, epaq) in [(1, 0), (3, 1)] {
                rt.set_config(config(queues)).expect("EPAQ configuration");
                h.measure(
                    label(&format!("cilksort({n:.0e})"), cutoff, queues),
                    "gpu",
                    || {
                        let data = upload(&gpu, &input);
                        // SAFETY: both device buffers hold `n` u32s and outlive the run.
                        let (d, t) = unsafe {
                            (
                                Buf::from_raw(dptr(&gpu, &data) as *mut u32, n),
                                Buf::from_raw(dptr(&gpu, &tmp) as *mut u32, n),
                            )
                        };
                        let (_, s) = rt
                            .run(cilksort_epaq::program::cilksort(d, t, 0, n, c, c, epaq))
                            .unwrap_or_else(|e| panic!("GPU run: {e}"));
                        assert!(
                            gpu.stream().clone_dtoh(&data).expect("download") == sorted,
                            "cilksort({n}) cutoff {cutoff} on the GPU"
                        );
                        assert_eq!(
                            s.tasks,
                            *tasks.get_or_insert(s.tasks),
                            "cilksort({n}) cutoff {cutoff} task count, run to run"
                        );
                        note(s)
                    },
                );
            }
        }
    }
    rt.set_config(base).expect("configuration");
}

fn main() -> ExitCode {
    let mut runs = None;
    let mut out = None;
    let mut gpu_only = false;
    let mut profile_dir: Option<PathBuf> = None;
    let mut names = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--runs" => runs = Some(args.next().and_then(|v| v.parse().ok()).unwrap_or(10)),
            "--out" => out = args.next(),
            "--gpu-only" => gpu_only = true,
            "--profile" => match args.next() {
                Some(dir) => profile_dir = Some(dir.into()),
                None => {
                    eprintln!("--profile needs a folder: --profile DIR");
                    return ExitCode::FAILURE;
                }
            },
            _ => names.push(a),
        }
    }
    let profiling = profile_dir.is_some();
    let runs = runs.unwrap_or(if profiling { 1 } else { 10 });
    if profiling {
        gpu_only = true;
        if names.is_empty() {
            names.push("fib".into());
        }
    }
    let wanted =
        |name: &str| names.is_empty() || names.iter().any(|n| name.starts_with(n.as_str()));
    let gpu = match Gpu::new(0) {
        Ok(gpu) => {
            eprintln!("GPU: {}", gpu.props());
            let env = |name: &str| std::env::var(name).ok().and_then(|v| v.parse::<u32>().ok());
            let mut config = GpuConfig::new().tasks_per_warp(8192);
            if let Some(r) = env("GTAP_MAX_REGISTERS") {
                config = config.max_registers(r);
            }
            if let Some(b) = env("GTAP_BLOCK") {
                config = config.block(b);
            }
            if let Some(g) = env("GTAP_GRID") {
                config = config.grid(g);
            }
            if let Some(k) = env("GTAP_KEEP") {
                config = config.keep_unpublished(k);
            }
            match std::env::var("GTAP_QUEUE_ORDER").as_deref() {
                Ok("stay") => config = config.queue_order(QueueOrder::Stay),
                Ok("most-generated") => config = config.queue_order(QueueOrder::MostGenerated),
                Ok("next-full") | Err(_) => {}
                Ok(other) => {
                    eprintln!(
                        "GTAP_QUEUE_ORDER: unknown order `{other}` (next-full, stay, most-generated)"
                    );
                    return ExitCode::FAILURE;
                }
            }
            if let Some(v) = env("GTAP_STEAL_ATTEMPTS") {
                config = config.steal_attempts(v);
            }
            if let Some(v) = env("GTAP_TOP_UP") {
                config = config.top_up(v);
            }
            if env("GTAP_STEAL_PER_QUEUE") == Some(1) {
                config = config.steal_per_queue(true);
            }
            if env("GTAP_KEEP_EVERY_QUEUE") == Some(1) {
                config = config.keep_every_queue(true);
            }
            if let Some(s) = env("GTAP_TIMEOUT_S") {
                config = config.timeout(std::time::Duration::from_secs(s.into()));
            }
            if env("GTAP_RESUME_INLINE") == Some(1) {
                config = config.resume_inline(true);
            }
            match std::env::var("GTAP_SCHEDULER").as_deref() {
                Ok("one-at-a-time") => config = config.scheduler(Scheduler::OneAtATime),
                Ok("global-queue") => config = config.scheduler(Scheduler::GlobalQueue),
                _ => {}
            }
            let ptx = if profiling {
                config = config.profile(env("GTAP_PROFILE_EVENTS").unwrap_or(4096));
                gtap_examples::PTX_PROFILED
            } else {
                gtap_examples::PTX
            };
            Some(GpuRuntime::new(gpu, ptx, config).expect("GPU runtime"))
        }
        Err(e) if profiling => {
            eprintln!("--profile needs a GPU: {e}");
            return ExitCode::FAILURE;
        }
        Err(e) => {
            eprintln!("no GPU ({e}); CPU baselines only");
            None
        }
    };
    eprintln!("CPU: {} threads for rayon", rayon::current_num_threads());
    let mut h = Harness {
        runs,
        rows: Vec::new(),
        gpu,
        gpu_only,
        profile_dir,
        failures: 0,
    };

    if wanted("fib") {
        let default_sizes = if profiling {
            vec![30]
        } else {
            vec![30, 35, 40]
        };
        let sizes = env_list("GTAP_FIB_N").unwrap_or(default_sizes);
        for n in sizes {
            let want = fib::reference(n);
            if let Some(rt) = h.gpu.as_mut().map(|r| r as *mut GpuRuntime) {
                // SAFETY: `rt` points into `h`, which `measure` does not touch through `gpu`.
                let rt = unsafe { &mut *rt };
                h.measure(format!("fib({n})"), "gpu", || {
                    let (v, s) = rt.run(fib::program::fib(n)).expect("GPU run");
                    assert_eq!(v, want, "fib({n}) on the GPU");
                    note(s)
                });
            }
            h.measure(format!("fib({n})"), "seq", || {
                let (t, v) = timed(|| fib_seq(std::hint::black_box(n)));
                assert_eq!(v, want);
                (t, 0)
            });
            h.measure(format!("fib({n})"), "rayon", || {
                let (t, v) = timed(|| fib_rayon(std::hint::black_box(n)));
                assert_eq!(v, want);
                (t, 0)
            });
        }
    }
    if let Some(rt) = h.gpu.as_mut().map(|r| r as *mut GpuRuntime) {
        // SAFETY: `rt` points into `h`, which `measure` does not touch through `gpu`.
        let rt = unsafe { &mut *rt };
        epaq(&mut h, rt, &wanted);
    }
    if wanted("nqueens") {
        for n in env_list("GTAP_NQ_N").unwrap_or_else(|| vec![12, 14, 16]) {
            let want = nqueens::KNOWN[n as usize];
            if let Some(rt) = h.gpu.as_mut().map(|r| r as *mut GpuRuntime) {
                // SAFETY: as above.
                let rt = unsafe { &mut *rt };
                h.measure(format!("nqueens({n}), cutoff 7"), "gpu", || {
                    let (v, s) = rt
                        .run(nqueens::program::nqueens(n, 0, 0, 0, 0, 7))
                        .expect("GPU run");
                    assert_eq!(v, want, "nqueens({n}) on the GPU");
                    note(s)
                });
            }
            h.measure(format!("nqueens({n}), cutoff 7"), "seq", || {
                let (t, v) = timed(|| nqueens::count_seq(n, 0, 0, 0, 0));
                assert_eq!(v, want);
                (t, 0)
            });
            h.measure(format!("nqueens({n}), cutoff 7"), "rayon", || {
                let (t, v) = timed(|| nqueens_rayon(n, 0, 0, 0, 0, 7));
                assert_eq!(v, want);
                (t, 0)
            });
        }
    }
    let sort_n = |var: &str, default: usize| {
        env_list(var)
            .and_then(|v| v.first().map(|&n| n as usize))
            .unwrap_or(default)
    };
    for (name, n, is_cilk) in [
        ("mergesort", sort_n("GTAP_MERGESORT_N", 10_000_000), false),
        ("cilksort", sort_n("GTAP_CILKSORT_N", 100_000_000), true),
    ] {
        if !wanted(name) {
            continue;
        }
        let label = format!("{name} {n:.0e}");
        let input = random_input(n, 12345);
        let mut sorted = input.clone();
        sorted.sort_unstable();
        if let Some(rt) = h.gpu.as_mut().map(|r| r as *mut GpuRuntime) {
            // SAFETY: as above.
            let rt = unsafe { &mut *rt };
            let gpu = rt.gpu().clone();
            let tmp = upload(&gpu, &vec![0u32; n]);
            h.measure(label.clone(), "gpu", || {
                let data = upload(&gpu, &input);
                // SAFETY: both device buffers hold `n` u32s and outlive the run.
                let (d, t) = unsafe {
                    (
                        Buf::from_raw(dptr(&gpu, &data) as *mut u32, n),
                        Buf::from_raw(dptr(&gpu, &tmp) as *mut u32, n),
                    )
                };
                let (_, s) = if is_cilk {
                    rt.run(cilksort::program::cilksort(d, t, 0, n, 64, 256))
                        .expect("GPU run")
                } else {
                    rt.run(mergesort::program::mergesort(d, t, 0, n, 128))
                        .expect("GPU run")
                };
                assert!(
                    gpu.stream().clone_dtoh(&data).expect("download") == sorted,
                    "{name} on the GPU"
                );
                note(s)
            });
        }
        for (backend, par) in [("seq", false), ("rayon", true)] {
            let mut tmp = vec![0u32; n];
            h.measure(label.clone(), backend, || {
                let mut data = input.clone();
                let (t, ()) = timed(|| {
                    if is_cilk {
                        cilksort_cpu(&mut data, &mut tmp, 4096, 4096, par)
                    } else {
                        mergesort_cpu(&mut data, &mut tmp, 4096, par)
                    }
                });
                assert!(data == sorted, "{name} on the CPU");
                (t, 0)
            });
        }
    }
    if wanted("tree") {
        let (depth, mem_ops, iters) = (22u32, 256u32, 256u32);
        let mut rng = Rng::new(7);
        let table: &'static [u64] = Box::leak(
            (0..TREE_TABLE)
                .map(|_| rng.next())
                .collect::<Vec<_>>()
                .into_boxed_slice(),
        );
        let host_work = tree::Work::new(table, mem_ops, iters);
        let want = tree_rayon(depth, 0, host_work);
        let label = format!("full binary tree D={depth}, mem {mem_ops}, fma {iters}");
        if let Some(rt) = h.gpu.as_mut().map(|r| r as *mut GpuRuntime) {
            // SAFETY: as above.
            let rt = unsafe { &mut *rt };
            let gpu = rt.gpu().clone();
            let dtable = upload(&gpu, table);
            // SAFETY: the device table holds 2^20 u64s and outlives the runs.
            let w = unsafe {
                tree::Work::from_raw(
                    dptr(&gpu, &dtable) as *const u64,
                    TREE_TABLE,
                    mem_ops,
                    iters,
                )
            };
            h.measure(label.clone(), "gpu", || {
                let (v, s) = rt
                    .run(tree::full_binary::node(depth, 0, w))
                    .expect("GPU run");
                assert_eq!(v, want, "tree on the GPU");
                note(s)
            });
        }
        h.measure(label.clone(), "seq", || {
            let (t, v) = timed(|| tree::full_binary_reference(depth, 0, host_work));
            assert_eq!(v, want);
            (t, 0)
        });
        h.measure(label, "rayon", || {
            let (t, v) = timed(|| tree_rayon(depth, 0, host_work));
            assert_eq!(v, want);
            (t, 0)
        });
    }
    if wanted("granularity") {
        granularity::run(&mut h);
    }
    if wanted("bfs") {
        graph::bfs(&mut h);
    }
    if wanted("spmv") {
        graph::spmv_bench(&mut h);
    }

    let mut csv = String::from("benchmark,backend,median_ms,min_ms,max_ms,runs,tasks\n");
    println!("| benchmark | backend | median ms | min ms | max ms | runs | tasks |");
    println!("|---|---|---:|---:|---:|---:|---:|");
    for r in &h.rows {
        println!(
            "| {} | {} | {:.3} | {:.3} | {:.3} | {} | {} |",
            r.bench, r.backend, r.median_ms, r.min_ms, r.max_ms, r.runs, r.tasks
        );
        // Names hold commas ("fib(40) cutoff 2, 1 queue(s)"): quoted, as CSV wants.
        csv.push_str(&format!(
            "\"{}\",{},{:.4},{:.4},{:.4},{},{}\n",
            r.bench.replace('"', "\"\""),
            r.backend,
            r.median_ms,
            r.min_ms,
            r.max_ms,
            r.runs,
            r.tasks
        ));
    }
    if let Some(path) = out
        && let Err(e) = std::fs::write(&path, csv)
    {
        eprintln!("could not write {path}: {e}");
        return ExitCode::FAILURE;
    }
    if h.failures > 0 {
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}
