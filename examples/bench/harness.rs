//! Measuring: a row is one warm-up run and then `--runs` measured runs of a closure that does
//! one run, checks its answer and returns a [`Sample`]. The harness keeps the rows for the
//! table, prints progress, and writes the profiles of profiled GPU runs.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use gtap::device::runtime::granularity::MAX_BACKOFF;
use gtap::host::gpu_runtime::{GpuRunError, GpuStats};

use crate::cli::Common;

/// One measured run.
pub struct Sample {
    /// The row's main time: the kernel time (CUDA events) on the GPU, wall clock on the CPU.
    pub time: Duration,
    /// Wall clock from the host call to the result in host memory (for the CPU, `time`).
    pub e2e: Duration,
    /// Tasks the GPU ran (0 on the CPU).
    pub tasks: u64,
    /// The GPU run's statistics, printed after the row.
    pub stats: Option<GpuStats>,
}

impl Sample {
    /// A CPU run that took `time` from the call to the result.
    pub fn cpu(time: Duration) -> Sample {
        Sample {
            time,
            e2e: time,
            tasks: 0,
            stats: None,
        }
    }

    /// A GPU run: its statistics and the wall-clock time around the host call and the
    /// copies the program needs.
    pub fn gpu(stats: GpuStats, e2e: Duration) -> Sample {
        Sample {
            time: stats.kernel_time,
            e2e,
            tasks: stats.tasks,
            stats: Some(stats),
        }
    }
}

/// What a row measures: its identifying columns.
#[derive(Clone, Debug)]
pub struct Key {
    /// The program, e.g. `fib`, `fib-calls`, `cilksort`.
    pub benchmark: String,
    /// The problem size (`40`, `1e8`, a depth or scale).
    pub size: String,
    /// The cutoff, where the row has one.
    pub cutoff: String,
    /// EPAQ queues of a GPU row.
    pub queues: Option<u32>,
    /// `gpu`, `gpu-block`, `seq` or `rayon`.
    pub backend: &'static str,
    /// What the row runs, e.g. `sort_unstable` or `join above the cutoff`.
    pub variant: String,
}

impl Key {
    /// A row of `benchmark` at `size` on `backend`, running `variant`.
    pub fn new(
        benchmark: impl Into<String>,
        size: impl ToString,
        backend: &'static str,
        variant: impl Into<String>,
    ) -> Key {
        Key {
            benchmark: benchmark.into(),
            size: size.to_string(),
            cutoff: String::new(),
            queues: None,
            backend,
            variant: variant.into(),
        }
    }

    /// With a cutoff.
    pub fn cutoff(mut self, cutoff: impl ToString) -> Key {
        self.cutoff = cutoff.to_string();
        self
    }

    /// With `pinned`, a GPU row whose host buffers are page-locked (`--pinned`): its variant
    /// says so.
    pub fn pinned(mut self, pinned: bool) -> Key {
        if pinned {
            self.variant += "; page-locked host buffers";
        }
        self
    }

    /// With a queue count (GPU rows).
    pub fn queues(mut self, queues: u32) -> Key {
        self.queues = Some(queues);
        self
    }

    /// The row in words, for progress lines and profile folders.
    pub fn label(&self) -> String {
        let mut s = format!("{}({})", self.benchmark, self.size);
        if !self.cutoff.is_empty() {
            s += &format!(" cutoff {}", self.cutoff);
        }
        if let Some(q) = self.queues.filter(|&q| q > 1) {
            s += &format!(", {q} queues");
        }
        format!("{s} [{}: {}]", self.backend, self.variant)
    }
}

/// Median, minimum and maximum of a row's times, in milliseconds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Stat {
    /// Median (the mean of the middle two for an even count).
    pub median: f64,
    /// Minimum.
    pub min: f64,
    /// Maximum.
    pub max: f64,
}

impl Stat {
    /// The figures of `times` (at least one).
    pub fn of(times: impl Iterator<Item = Duration>) -> Stat {
        let mut t: Vec<f64> = times.map(|d| d.as_secs_f64() * 1e3).collect();
        t.sort_by(f64::total_cmp);
        let n = t.len();
        let median = if n % 2 == 1 {
            t[n / 2]
        } else {
            (t[n / 2 - 1] + t[n / 2]) / 2.0
        };
        Stat {
            median,
            min: t[0],
            max: t[n - 1],
        }
    }
}

/// One line of the results table.
pub struct Row {
    /// What was measured.
    pub key: Key,
    /// The GPU configuration's name (`--config-name`); empty for CPU rows.
    pub config: String,
    /// How many runs were measured.
    pub runs: usize,
    /// The main time (kernel time on the GPU).
    pub time: Stat,
    /// The end-to-end time.
    pub e2e: Stat,
    /// Tasks of the last run (GPU rows).
    pub tasks: u64,
}

/// Whether `backend` is a GPU's (`gpu`, or `gpu-block` for block programs).
pub fn is_gpu(backend: &str) -> bool {
    backend.starts_with("gpu")
}

/// `f`'s wall-clock time and result.
pub fn timed<T>(f: impl FnOnce() -> T) -> (Duration, T) {
    let start = Instant::now();
    let v = f();
    (start.elapsed(), v)
}

/// A GPU run, `run`, timed from the host call to the result in host memory, its result
/// checked against `want`: the GPU twin of [`cpu_checked`].
pub fn gpu_checked<T: PartialEq + std::fmt::Debug>(
    want: &T,
    what: &str,
    run: impl FnOnce() -> Result<(T, GpuStats), GpuRunError>,
) -> Sample {
    let (e2e, r) = timed(run);
    let (v, s) = r.unwrap_or_else(|e| panic!("{what} on the GPU: {e}"));
    assert_eq!(v, *want, "{what} on the GPU");
    Sample::gpu(s, e2e)
}

/// Checks a GPU run's task count against the program's `expected` count: equal when no spawn
/// ran inline; fewer when the granularity policy ran some inline (each inline spawn runs its
/// child's whole subtree without tasks).
pub fn check_task_count(sample: &Sample, expected: u64, what: &str) {
    let inlined = sample.stats.as_ref().map_or(0, |s| s.spawns_inlined);
    if inlined == 0 {
        assert_eq!(sample.tasks, expected, "{what} task count");
    } else {
        assert!(
            sample.tasks < expected,
            "{what}: {} tasks with {inlined} spawns inline, {expected} without",
            sample.tasks
        );
    }
}

/// A CPU run of `f`, timed, its result checked against `want`.
pub fn cpu_checked<T: PartialEq>(want: &T, what: &str, f: impl FnOnce() -> T) -> Sample {
    let (t, v) = timed(f);
    assert!(v == *want, "{what}: wrong result on the CPU");
    Sample::cpu(t)
}

/// The rows measured so far and how to measure more.
pub struct Harness {
    runs: usize,
    gpu_only: bool,
    cpu_only: bool,
    config_name: String,
    profile_dir: Option<PathBuf>,
    /// The rows, in the order measured.
    pub rows: Vec<Row>,
    /// Things that went wrong without ending the run (profiles not written, block programs
    /// the runtime refused): the exit status is a failure if any.
    pub failures: usize,
}

impl Harness {
    /// A harness for `common`'s flags; GPU rows are named `config_name`.
    pub fn new(common: &Common, config_name: &str, profile_dir: Option<PathBuf>) -> Harness {
        let profiling = profile_dir.is_some();
        Harness {
            runs: common.runs.unwrap_or(if profiling { 1 } else { 10 }),
            gpu_only: common.gpu_only || profiling,
            cpu_only: common.cpu_only,
            config_name: config_name.to_string(),
            profile_dir,
            rows: Vec::new(),
            failures: 0,
        }
    }

    /// Whether CPU rows are skipped.
    pub fn gpu_only(&self) -> bool {
        self.gpu_only
    }

    /// Measures `f` (one run, checked) once to warm up and then the row's number of runs.
    pub fn measure(&mut self, key: Key, mut f: impl FnMut() -> Sample) {
        let gpu = is_gpu(key.backend);
        if (self.gpu_only && !gpu) || (self.cpu_only && gpu) {
            return;
        }
        let first = f();
        let runs = if !gpu && first.time > Duration::from_secs(1) {
            self.runs.min(3.max(self.runs / 3))
        } else {
            self.runs
        };
        let mut samples: Vec<Sample> = (0..runs).map(|_| f()).collect();
        if samples.is_empty() {
            samples.push(first);
        }
        let stats = samples.last_mut().and_then(|s| s.stats.take());
        let row = Row {
            config: if gpu {
                self.config_name.clone()
            } else {
                String::new()
            },
            runs: samples.len(),
            time: Stat::of(samples.iter().map(|s| s.time)),
            e2e: Stat::of(samples.iter().map(|s| s.e2e)),
            tasks: samples.last().map_or(0, |s| s.tasks),
            key,
        };
        eprintln!(
            "{}: median {:.3} ms (min {:.3}, max {:.3}, {} runs), e2e median {:.3} ms",
            row.key.label(),
            row.time.median,
            row.time.min,
            row.time.max,
            row.runs,
            row.e2e.median
        );
        if let Some(s) = stats {
            self.report_gpu(&row, s);
        }
        self.rows.push(row);
    }

    /// The statistics of a GPU row's last run, and its profile when profiling.
    fn report_gpu(&mut self, row: &Row, mut s: GpuStats) {
        if let (Some(dir), Some(profile)) = (&self.profile_dir, s.profile.take()) {
            let dir = dir.join(slug(&self.unique_label(row)));
            match profile.write_dir(&dir) {
                Ok(()) => {
                    for line in profile.summary().to_string().lines().take(4) {
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
            "    grid {} x {}, rounds {} ({:.1}% idle), steals {} of {}, peak records/warp {}, peak queue {}, \
             tasks {}, spawns inline {}, reserve chunks borrowed {} (reserve {} records)",
            s.grid,
            s.block,
            s.rounds,
            100.0 * s.idle_rounds as f64 / s.rounds.max(1) as f64,
            s.steals_won,
            s.steals_attempted,
            s.peak_records_per_warp,
            s.peak_queue,
            s.tasks,
            s.spawns_inlined,
            s.chunks_borrowed,
            s.reserve_records
        );
        if s.spawns_inlined > 0 || s.round_cycles > 0 {
            eprintln!(
                "    inline calls {:.0} cycles each, {:.0} per task saved ({} saved), ordinary \
                 rounds {} cycles, {} ({} heavy leaf rounds)",
                s.inline_cycles as f64 / s.spawns_inlined.max(1) as f64,
                s.inline_cycles as f64 / s.spawns_elided.max(1) as f64,
                s.spawns_elided,
                s.round_cycles,
                if s.backoff >= MAX_BACKOFF.unsigned_abs() {
                    "inlining stopped by heavy leaves".to_string()
                } else {
                    format!("back-off up to {} levels", s.backoff)
                },
                s.heavy_leaf_rounds
            );
        }
    }

    /// `row`'s label (not yet pushed), numbered when an earlier row has the same.
    fn unique_label(&self, row: &Row) -> String {
        let label = row.key.label();
        let same = self.rows.iter().filter(|r| r.key.label() == label).count();
        if same == 0 {
            label
        } else {
            format!("{label} #{}", same + 1)
        }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stats_and_labels() {
        let ms = |v: u64| Duration::from_millis(v);
        let s = Stat::of([ms(4), ms(1), ms(3), ms(2)].into_iter());
        assert_eq!((s.median, s.min, s.max), (2.5, 1.0, 4.0));
        let k = Key::new("fib-calls", 40, "gpu", "GTaP's recursive leaves")
            .cutoff(10)
            .queues(3);
        assert_eq!(
            k.label(),
            "fib-calls(40) cutoff 10, 3 queues [gpu: GTaP's recursive leaves]"
        );
        assert_eq!(
            slug(&k.label()),
            "fib-calls-40-cutoff-10-3-queues-gpu-gtap-s-recursive-leaves"
        );
    }
}
