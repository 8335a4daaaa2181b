//! The bench's command line: one subcommand per benchmark family, the GPU configuration as
//! flags that every subcommand takes (before or after its name), sizes and cutoffs as typed
//! comma-separated lists. Anything clap cannot parse is an error with clap's message.

use std::path::PathBuf;
use std::time::Duration;

use clap::builder::{PossibleValuesParser, TypedValueParser};
use clap::{Args, Parser, Subcommand, ValueEnum};
use gtap::host::gpu_runtime::{GpuConfig, QueueOrder, Scheduler};

/// Text after `--help`: what the columns mean and how to pass lists.
const AFTER_HELP: &str = "\
Every row is one warm-up run and then --runs measured runs, each checked against the answer.
Columns (stdout as markdown, --out as CSV): benchmark, size, cutoff, queues, backend (gpu,
gpu-block, seq, rayon), variant (what the row runs), config (--config-name, GPU rows),
runs, median/min/max ms, e2e median/min/max ms, tasks.
  GPU time: kernel time from CUDA events around the launch.
  GPU e2e: wall clock from the host call to the result in host memory: the runtime's reset
    of its queues and counters, the launch, the wait, the read-back of result and statistics,
    and the copies the program needs each run (sorts: input upload and output download;
    graph: see `graph --help`). Not in it: loading the PTX, allocating buffers (done once).
  CPU time and e2e: the same wall-clock time around the call.
Lists: --n 30,35,40 (or --n 30 --n 35). Counts take 1e7, 10_000_000 or 10000000.";

/// gtap's benchmark harness: the GTaP paper's programs on the GPU, against CPU baselines
/// (sequential Rust and rayon on every core), every run checked.
#[derive(Parser, Debug)]
#[command(name = "bench", after_help = AFTER_HELP, arg_required_else_help = true)]
pub struct Cli {
    /// How rows are measured and written.
    #[command(flatten)]
    pub common: Common,
    /// The GPU configuration, shared by every subcommand.
    #[command(flatten)]
    pub gpu: GpuArgs,
    /// The benchmark family.
    #[command(subcommand)]
    pub command: Command,
}

/// Flags about measuring and output.
#[derive(Args, Debug, Clone)]
#[command(next_help_heading = "Measurement")]
pub struct Common {
    /// Measured runs per row after one warm-up run [default: 10; 1 with --profile]. 0: the
    /// warm-up run is the measurement. A CPU baseline whose warm-up takes over a second runs
    /// a third as often (at least 3, at most RUNS).
    #[arg(long, global = true, value_name = "N")]
    pub runs: Option<usize>,
    /// Also write the rows as CSV to FILE.
    #[arg(long, global = true, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// GPU rows only, no CPU baselines (fails where there is no GPU).
    #[arg(long, global = true, conflicts_with = "cpu_only")]
    pub gpu_only: bool,
    /// CPU baselines only; the GPU is not opened.
    #[arg(long, global = true)]
    pub cpu_only: bool,
    /// Load the programs' kernels from this PTX file instead of the PTX built into the bench
    /// (for A/B runs of device-code variants with one host binary: the file must come from a
    /// build of the same examples crate, which the kernels check at launch). The plain PTX
    /// that the bench embeds is the build script's `OUT_DIR/gtap_examples.ptx`
    /// (`target/release/build/gtap-examples-*/out/`); `target/gtap-ptx/.../gtap_examples.ptx`
    /// is the last device build's, usually the lab one, whose kernels run slower.
    #[arg(long, global = true, value_name = "FILE", conflicts_with = "cpu_only")]
    pub ptx: Option<PathBuf>,
}

/// The GPU configuration (`GpuConfig`); unset flags keep the library's defaults except where
/// a default is given here.
#[derive(Args, Debug, Clone)]
#[command(next_help_heading = "GPU configuration")]
pub struct GpuArgs {
    /// Name of this configuration in the GPU rows' `config` column.
    #[arg(long, global = true, value_name = "NAME", default_value = "default")]
    pub config_name: String,
    /// Blocks in the grid [default: as many as are resident at once, up to --warps-per-sm].
    #[arg(long, global = true, value_name = "BLOCKS")]
    pub grid: Option<u32>,
    /// Without --grid: the most warps per SM the default grid puts to work [default: 16].
    #[arg(long, global = true, value_name = "WARPS")]
    pub warps_per_sm: Option<u32>,
    /// Threads per block, a multiple of 32 [default: 32].
    #[arg(long, global = true, value_name = "THREADS")]
    pub block: Option<u32>,
    /// Registers per thread the driver may give the kernels [default: the driver's choice].
    #[arg(long, global = true, value_name = "N")]
    pub max_registers: Option<u32>,
    /// Task records per warp [default: 8192; epaq: 32768].
    #[arg(long, global = true, value_name = "N")]
    pub tasks_per_warp: Option<u32>,
    /// Entries of each warp queue, a power of two [default: 4096; epaq: 32768].
    #[arg(long, global = true, value_name = "N")]
    pub queue_capacity: Option<u32>,
    /// Tasks a warp keeps unpublished at the end of a round (keep_unpublished) [default: 32].
    #[arg(long, global = true, value_name = "TASKS")]
    pub keep: Option<u32>,
    /// EPAQ: keep up to --keep tasks unpublished in every queue, not only the next round's.
    #[arg(long, global = true)]
    pub keep_every_queue: bool,
    /// EPAQ: which queue a warp's next round takes from [default: next-full with one queue,
    /// most-generated with several].
    #[arg(long, global = true, value_name = "ORDER")]
    pub queue_order: Option<QueueOrderArg>,
    /// Victims a warp tries to fill a short batch from the same queue [default: 0 with one
    /// queue, 2 with several].
    #[arg(long, global = true, value_name = "VICTIMS")]
    pub top_up: Option<u32>,
    /// Victims an idle warp tries per round [default: 8].
    #[arg(long, global = true, value_name = "N")]
    pub steal_attempts: Option<u32>,
    /// With --top-up: steal from the current queue before turning to the own next queue.
    #[arg(long, global = true)]
    pub steal_per_queue: bool,
    /// The lane that completes a parent's last child resumes the parent at once [default:
    /// with several queues, not with one].
    #[arg(long, global = true, conflicts_with = "no_resume_inline")]
    pub resume_inline: bool,
    /// Parents wait for a later round, whatever the queues.
    #[arg(long, global = true)]
    pub no_resume_inline: bool,
    /// Turn the automatic granularity policy off: every spawn is a task (as before the
    /// policy; what the hand-cutoff rows are usually compared as).
    #[arg(long, global = true)]
    pub no_auto_granularity: bool,
    /// The granularity policy: spawns nearer the root than this depth are always tasks
    /// [default: ceil(log2(warps * 32)) + 5].
    #[arg(long, global = true, value_name = "DEPTH")]
    pub inline_min_depth: Option<u32>,
    /// The granularity policy: past --inline-min-depth, a spawn runs inline while the warp's
    /// queue holds at least this many tasks [default: 32].
    #[arg(long, global = true, value_name = "TASKS")]
    pub inline_min_queued: Option<u32>,
    /// The granularity policy: a warp whose inline calls take longer than this many of its
    /// ordinary rounds inlines from a level deeper; 0: never [default: 4].
    #[arg(long, global = true, value_name = "ROUNDS")]
    pub inline_backoff_ratio: Option<u32>,
    /// The granularity policy: what a task costs beyond its work, in rounds of one lane; a
    /// warp whose inline calls held its lanes longer than the tasks they saved would have
    /// cost inlines from a level deeper; 0: not weighed [default: 8].
    #[arg(long, global = true, value_name = "ROUNDS")]
    pub inline_task_rounds: Option<u32>,
    /// The granularity policy: tasks a warp makes at one depth before it inlines from the
    /// next depth on, as from --inline-min-depth; 0: never [default: 2048].
    #[arg(long, global = true, value_name = "TASKS")]
    pub inline_wide_tasks: Option<u32>,
    /// The granularity policy: tasks for each lane of the grid that the grid's estimate of
    /// a level's width must reach for the warps to inline from that level on; 0: no
    /// estimate [default: 32].
    #[arg(long, global = true, value_name = "TASKS")]
    pub inline_wide_width: Option<u32>,
    /// The granularity policy: rounds of heavy leaf tasks across the grid from which every
    /// warp stops inlining (where they are also one in 128 of the grid's busy rounds); 0:
    /// each warp judges alone [default: one for every four warps].
    #[arg(long, global = true, value_name = "ROUNDS")]
    pub inline_grid_heavy_rounds: Option<u32>,
    /// The granularity policy: calls a split task walks before it makes tasks of the rest,
    /// doubled per generation up to 2048, for the tasks that have split tasks (fib's); 0:
    /// none is split, the policy decides spawn by spawn [default: 2].
    #[arg(long, global = true, value_name = "CALLS")]
    pub split_calls: Option<u32>,
    /// Split tasks: of the calls a split task leaves pending, the oldest this many become
    /// tasks of their own and the others one task that walks them all; 0: each its own task
    /// [default: 2].
    #[arg(long, global = true, value_name = "CALLS")]
    pub split_singles: Option<u32>,
    /// Call stack per GPU thread in bytes, for the sequential versions the policy runs
    /// inline [default: 16384].
    #[arg(long, global = true, value_name = "BYTES")]
    pub stack_bytes: Option<u32>,
    /// A run longer than this is stopped as timed out [default: 120].
    #[arg(long, global = true, value_name = "SECONDS")]
    pub timeout: Option<u64>,
    /// How warps share work: GTaP's work stealing or one of its ablations [default:
    /// work-stealing].
    #[arg(long, global = true, value_name = "SCHEDULER")]
    pub scheduler: Option<SchedulerArg>,
    /// Block programs (granularity's gpu-block rows, graph): blocks in the grid
    /// [default: --grid].
    #[arg(
        long,
        global = true,
        value_name = "BLOCKS",
        help_heading = "Block programs"
    )]
    pub bp_grid: Option<u32>,
    /// Block programs: threads per block [default: --block].
    #[arg(
        long,
        global = true,
        value_name = "THREADS",
        help_heading = "Block programs"
    )]
    pub bp_block: Option<u32>,
    /// Block programs: task records per block [default: --tasks-per-warp].
    #[arg(long, global = true, value_name = "N", help_heading = "Block programs")]
    pub bp_tasks: Option<u32>,
    /// Block programs: queue entries per block [default: --queue-capacity].
    #[arg(long, global = true, value_name = "N", help_heading = "Block programs")]
    pub bp_queue: Option<u32>,
    /// Profile every GPU row with the per-warp timeline profiler and write DIR/<row>/
    /// (trace.json for ui.perfetto.dev, timeline.csv, round_times.csv, summary.txt) from its
    /// last run. Implies --gpu-only and one measured run unless --runs says otherwise;
    /// profiled kernel times include the profiler's cost.
    #[arg(long, global = true, value_name = "DIR", help_heading = "Profiling")]
    pub profile: Option<PathBuf>,
    /// With --profile: events recorded per warp, one per round [default: 4096].
    #[arg(
        long,
        global = true,
        value_name = "N",
        requires = "profile",
        help_heading = "Profiling"
    )]
    pub profile_events: Option<u32>,
}

/// `GpuConfig::queue_order`.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum QueueOrderArg {
    /// The next queue holding a whole batch (round-robin).
    NextFull,
    /// The current queue while it holds a whole batch.
    Stay,
    /// GTaP's: the queue that got the most new tasks in the last round.
    MostGenerated,
}

/// `GpuConfig::scheduler`.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum SchedulerArg {
    /// Per-warp deques, batched warp-cooperative operations (GTaP).
    WorkStealing,
    /// Ablation: per-warp deques, one task per pop or steal.
    OneAtATime,
    /// Ablation: one queue for the whole grid.
    GlobalQueue,
}

/// Task records per warp when `--tasks-per-warp` is not given.
const TASKS_PER_WARP: u32 = 8192;

impl GpuArgs {
    /// The configuration these flags describe, checked (`GpuConfig::validate`) so that a bad
    /// value is an error even where there is no GPU.
    pub fn config(&self) -> Result<GpuConfig, String> {
        let mut c = GpuConfig::new().tasks_per_warp(self.tasks_per_warp.unwrap_or(TASKS_PER_WARP));
        if let Some(g) = self.grid {
            c = c.grid(g);
        }
        if let Some(w) = self.warps_per_sm {
            c = c.warps_per_sm(w);
        }
        if let Some(b) = self.block {
            c = c.block(b);
        }
        if let Some(r) = self.max_registers {
            c = c.max_registers(r);
        }
        if let Some(q) = self.queue_capacity {
            c = c.queue_capacity(q);
        }
        if let Some(k) = self.keep {
            c = c.keep_unpublished(k);
        }
        if let Some(v) = self.top_up {
            c = c.top_up(v);
        }
        if let Some(v) = self.steal_attempts {
            c = c.steal_attempts(v);
        }
        if let Some(s) = self.timeout {
            c = c.timeout(Duration::from_secs(s));
        }
        if let Some(o) = self.queue_order {
            c = c.queue_order(match o {
                QueueOrderArg::NextFull => QueueOrder::NextFull,
                QueueOrderArg::Stay => QueueOrder::Stay,
                QueueOrderArg::MostGenerated => QueueOrder::MostGenerated,
            });
        }
        if let Some(s) = self.scheduler {
            c = c.scheduler(match s {
                SchedulerArg::WorkStealing => Scheduler::WorkStealing,
                SchedulerArg::OneAtATime => Scheduler::OneAtATime,
                SchedulerArg::GlobalQueue => Scheduler::GlobalQueue,
            });
        }
        if let Some(d) = self.inline_min_depth {
            c = c.inline_min_depth(d);
        }
        if let Some(q) = self.inline_min_queued {
            c = c.inline_min_queued(q);
        }
        if let Some(r) = self.inline_backoff_ratio {
            c = c.inline_backoff_ratio(r);
        }
        if let Some(r) = self.inline_task_rounds {
            c = c.inline_task_rounds(r);
        }
        if let Some(t) = self.inline_wide_width {
            c = c.inline_wide_width(t);
        }
        if let Some(t) = self.inline_wide_tasks {
            c = c.inline_wide_tasks(t);
        }
        if let Some(r) = self.inline_grid_heavy_rounds {
            c = c.inline_grid_heavy_rounds(r);
        }
        if let Some(b) = self.split_calls {
            c = c.split_budget(b);
        }
        if let Some(s) = self.split_singles {
            c = c.split_singles(s);
        }
        if let Some(b) = self.stack_bytes {
            c = c.stack_bytes(b);
        }
        c = c
            .auto_granularity(!self.no_auto_granularity)
            .keep_every_queue(self.keep_every_queue)
            .steal_per_queue(self.steal_per_queue);
        if self.resume_inline || self.no_resume_inline {
            c = c.resume_inline(self.resume_inline);
        }
        if self.profile.is_some() {
            c = c.profile(self.profile_events.unwrap_or(4096));
        }
        c.validate().map_err(|e| e.to_string())?;
        Ok(c)
    }
}

/// The benchmark families.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Fibonacci, one GPU task per call; CPU: recursion, rayon with and without a cutoff.
    Fib(FibArgs),
    /// N-Queens with a cutoff; CPU: the sequential count, rayon at the same and a coarser cutoff.
    ///
    /// Cutoffs count rows: tasks of row >= CUTOFF count sequentially. GTaP's cutoff depth d
    /// (its tasks of row > d count sequentially) runs the same tasks as our cutoff d + 1.
    Nqueens(NqueensArgs),
    /// mergesort and cilksort of random u32s; CPU: the same algorithms with sort_unstable
    /// leaves, sort_unstable and par_sort_unstable.
    ///
    /// The GPU's e2e time includes uploading the input and downloading the sorted output
    /// into a host buffer made before the runs. CPU runs sort a fresh copy of the input,
    /// copied outside the timing into a buffer made before the runs.
    Sort(SortArgs),
    /// The synthetic full binary tree (loads and FMAs per node).
    ///
    /// The node table stays in device memory (uploaded once); the e2e time is the host call.
    Tree(TreeArgs),
    /// Unbalanced Tree Search on UTS's sample trees; CPU: a sequential walk, rayon.
    ///
    /// Every run's node count, leaves and depth are checked against UTS's published sizes.
    /// Deep binomial trees (T3L) keep a long chain of joined tasks: raise --tasks-per-warp
    /// and --queue-capacity if the run says it ran out of records or queue entries.
    Uts(UtsArgs),
    /// EPAQ (GTaP 6.4, Fig. 10): a program with a cutoff, one queue against several, GPU only.
    ///
    /// 32768 task records and 32768 queue entries per warp unless --tasks-per-warp and
    /// --queue-capacity say otherwise. Every run checks the value and the task count.
    Epaq(EpaqArgs),
    /// GTaP 6.3: the synthetic trees as thread, block and mixed programs, against rayon.
    Granularity(GranularityArgs),
    /// BFS (block program, and mixed: thread tasks for short adjacency lists, block tasks for
    /// long ones) and SpMV (block program) on Kronecker graphs, road-like grids and Matrix
    /// Market files, against sequential and rayon references.
    ///
    /// The graph stays in device memory (uploaded once). The GPU's e2e time includes
    /// uploading the initial depths and downloading the depths (BFS), uploading x and
    /// downloading y (SpMV).
    Graph(GraphArgs),
    /// Many small roots: one launch for all (run_batch) against one launch per root; CPU:
    /// rayon over the roots.
    Batch(BatchArgs),
    /// Roots submitted one at a time to a resident session (GpuRuntime::resident): all at
    /// once, pipelined, and the latency of one root on an idle session; against one launch
    /// per root.
    Resident(ResidentArgs),
    /// 0/1 knapsack by branch and bound (BOTS), the best value shared by every task; CPU: the
    /// same search sequentially and on rayon with the same bound sharing.
    ///
    /// Generated instances (items by weight range and correlation, capacity half the total
    /// weight); every run's answer is checked against dynamic programming. The items stay in
    /// device memory; the GPU's e2e time includes resetting the shared best. Node counts vary
    /// from run to run (they depend on when each task read the best) and are printed.
    Knapsack(KnapsackArgs),
    /// Floorplan (a simplified BOTS floorplan): cells placed with pruning against the
    /// smallest area found by any task; CPU: the same search sequentially and on rayon.
    ///
    /// Every run's area is checked against the sequential search's. The cells stay in device
    /// memory; the GPU's e2e time includes resetting the shared area and node count.
    Floorplan(FloorplanArgs),
    /// The headline programs with their CPU baselines: fib(40), nqueens(16), mergesort 1e7,
    /// cilksort 1e8.
    Headline(HeadlineArgs),
    /// Every family at its defaults.
    All,
    /// Join gtap's CSVs with GTaP's anchor CSV into one side-by-side table (no GPU needed).
    Join(JoinArgs),
}

/// Parses a count such as `1e8`, `100_000_000` or `100000000`.
pub fn parse_count(s: &str) -> Result<usize, String> {
    let t = s.trim().replace('_', "");
    if let Ok(n) = t.parse::<usize>() {
        return Ok(n);
    }
    let (m, e) = t
        .split_once(['e', 'E'])
        .ok_or_else(|| format!("`{s}` is not a count (e.g. 1e7 or 10000000)"))?;
    let (m, e): (usize, u32) = match (m.parse(), e.parse()) {
        (Ok(m), Ok(e)) => (m, e),
        _ => return Err(format!("`{s}` is not a count (e.g. 1e7 or 10000000)")),
    };
    10usize
        .checked_pow(e)
        .and_then(|p| p.checked_mul(m))
        .ok_or_else(|| format!("`{s}` is too large"))
}

/// `n` as the size column writes it: `5e7` where that is exact, else all digits.
pub fn fmt_count(n: usize) -> String {
    let mut m = n;
    let mut e = 0;
    while m >= 10 && m.is_multiple_of(10) {
        m /= 10;
        e += 1;
    }
    if e >= 3 && m < 10 {
        format!("{m}e{e}")
    } else {
        n.to_string()
    }
}

/// `fib`.
#[derive(Parser, Debug, Clone)]
pub struct FibArgs {
    /// Values of n.
    #[arg(long, value_delimiter = ',', default_values_t = [30u32, 35, 40],
          value_parser = clap::value_parser!(u32).range(..=93))]
    pub n: Vec<u32>,
    /// rayon with a cutoff: a join in the top LEVELS values of n (calls of n > N - LEVELS),
    /// sequential recursion below; one row per value (0: none).
    #[arg(long, value_delimiter = ',', default_values_t = [20u32], value_name = "LEVELS")]
    pub rayon_levels: Vec<u32>,
    #[command(flatten)]
    pub split: SplitArgs,
}

/// The rows of the programs split by a budget of work (`fib::split`, `nqueens::split`).
#[derive(Args, Debug, Clone)]
pub struct SplitArgs {
    /// GPU rows of the program split by a budget (calls, placements) instead of a cutoff,
    /// one per BUDGET and SHIFT (none by default).
    #[arg(long, value_delimiter = ',', value_name = "BUDGET")]
    pub split_budget: Vec<u32>,
    /// With --split-budget: a child's budget is its parent's shifted left by SHIFT.
    #[arg(long, value_delimiter = ',', default_values_t = [0u32], value_name = "SHIFT")]
    pub split_grow: Vec<u32>,
    /// With a SHIFT above 0: the largest budget.
    #[arg(long, default_value_t = 2048)]
    pub split_max: u32,
}

/// One split row: the budget of the root, the shift per level, the largest budget, and
/// the row's variant text.
pub struct SplitRow {
    pub budget: u32,
    pub grow: u32,
    pub max: u32,
    pub variant: String,
}

impl SplitArgs {
    /// Every row asked for, budgets outer, shifts inner.
    pub fn rows(&self, unit: &str) -> Vec<SplitRow> {
        let mut rows = Vec::new();
        for &budget in &self.split_budget {
            for &grow in &self.split_grow {
                let (max, variant) = match grow {
                    0 => (budget, format!("split every {budget} {unit}")),
                    _ => {
                        let max = self.split_max.max(budget);
                        let factor = 1u64 << grow.min(63);
                        (
                            max,
                            format!("split every {budget} {unit}, x{factor} per level to {max}"),
                        )
                    }
                };
                rows.push(SplitRow {
                    budget,
                    grow,
                    max,
                    variant,
                });
            }
        }
        rows
    }
}

/// `batch`.
#[derive(Parser, Debug, Clone)]
pub struct BatchArgs {
    /// Programs each root runs.
    #[arg(long, value_delimiter = ',', default_values = ["nqueens10", "fib20"])]
    pub program: Vec<BatchProgram>,
    /// Roots in the batch.
    #[arg(long, value_parser = parse_count, default_value = "100000")]
    pub roots: usize,
    /// Roots run one launch each, for the comparison.
    #[arg(long, value_parser = parse_count, default_value = "2000")]
    pub loop_roots: usize,
}

/// `resident`.
#[derive(Parser, Debug, Clone)]
pub struct ResidentArgs {
    /// Programs each root runs.
    #[arg(long, value_delimiter = ',', default_values = ["nqueens10", "fib20"])]
    pub program: Vec<BatchProgram>,
    /// Roots submitted per row.
    #[arg(long, value_parser = parse_count, default_value = "100000")]
    pub roots: usize,
    /// Roots in flight at once in the pipelined row.
    #[arg(long, value_parser = parse_count, default_value = "4096")]
    pub window: usize,
    /// Roots run one launch each, for the comparison.
    #[arg(long, value_parser = parse_count, default_value = "2000")]
    pub loop_roots: usize,
    /// Roots timed one at a time for the latency rows.
    #[arg(long, value_parser = parse_count, default_value = "1000")]
    pub samples: usize,
    /// Only the latency rows (no throughput rows).
    #[arg(long)]
    pub latency_only: bool,
    /// Also trace the latency rows' roots (`GpuResident::set_trace`) and print where each
    /// root's time went, median per step, for a few pauses between roots.
    #[arg(long)]
    pub trace: bool,
}

/// A root program of `batch`.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum BatchProgram {
    /// nqueens(10) with tasks in the top 3 rows.
    Nqueens10,
    /// fib(20), one task per call.
    Fib20,
}

/// `nqueens`.
#[derive(Parser, Debug, Clone)]
pub struct NqueensArgs {
    /// Board sizes.
    #[arg(long, value_delimiter = ',', default_values_t = [12u32, 14, 16],
          value_parser = clap::value_parser!(u32).range(1..=16))]
    pub n: Vec<u32>,
    /// GPU cutoffs; rayon runs at each too (the same algorithm).
    #[arg(long, value_delimiter = ',', default_values_t = [7u32])]
    pub cutoff: Vec<u32>,
    /// Further rayon cutoffs: a few hundred to thousands of leaves are plenty for a CPU.
    #[arg(long, value_delimiter = ',', default_values_t = [4u32])]
    pub rayon_cutoff: Vec<u32>,
    /// The GPU programs: `joined` (rows `nqueens`: parents sum their children's counts
    /// after a taskwait), `detached` (rows `nqueens-detached`: no taskwait, leaves add to one
    /// shared counter, as GTaP's own nqueens), `auto` (rows `nqueens-auto`: no cutoff in
    /// the source, the runtime's policy elides spawns into `count_seq`; one row per size,
    /// --cutoff does not apply).
    #[arg(long, value_delimiter = ',', default_values = ["joined", "detached"])]
    pub form: Vec<NqueensForm>,
    /// Rows of `nqueens::split` (no cutoff; --cutoff does not apply to them).
    #[command(flatten)]
    pub split: SplitArgs,
}

/// How `nqueens` gathers its count on the GPU.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum NqueensForm {
    /// Each parent waits for its children and sums their counts (`nqueens::program`).
    Joined,
    /// No task waits: leaves add their counts to a shared counter (`nqueens::detached`).
    Detached,
    /// Joined, with no cutoff in the source: a task per placement, `count_seq` its named
    /// sequential version, run where the granularity policy elides a spawn (`nqueens::auto`).
    Auto,
}

/// A sort algorithm of `sort`.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum SortAlgo {
    /// Two halves, a sequential merge.
    Mergesort,
    /// Mergesort whose large merges are block tasks (merge path), the rest thread tasks.
    MergesortMixed,
    /// Four quarters, parallel merges.
    Cilksort,
    /// Cilksort whose chunk sorts and large merges are block tasks, the rest thread tasks.
    CilksortMixed,
}

/// `sort`.
#[derive(Parser, Debug, Clone)]
pub struct SortArgs {
    /// Algorithms.
    #[arg(long, value_delimiter = ',', default_values = ["mergesort", "cilksort"])]
    pub algo: Vec<SortAlgo>,
    /// Elements [default: mergesort 1e7, cilksort 1e8].
    #[arg(long, value_delimiter = ',', value_parser = parse_count)]
    pub n: Option<Vec<usize>>,
    /// GPU leaf: sort sequentially on one thread (insertion sort; the mixed programs:
    /// sort_unstable) at or below this many elements [default: mergesort 128, cilksort 64,
    /// the mixed programs their own].
    #[arg(long, value_parser = parse_count)]
    pub cutoff: Option<usize>,
    /// cilksort and cilksort-mixed on the GPU: a thread merge is sequential at or below this
    /// many elements.
    #[arg(long, value_parser = parse_count, default_value = "256")]
    pub merge_cutoff: usize,
    /// The mixed programs: merges of at least this many elements are split into block tasks
    /// [default: the program's].
    #[arg(long, value_parser = parse_count)]
    pub block_merge: Option<usize>,
    /// The mixed programs: output elements per block task of a merge, at most 256 parts
    /// [default: the program's].
    #[arg(long, value_parser = parse_count)]
    pub part: Option<usize>,
    /// cilksort-mixed: a sort of more than --cutoff and at most this many elements is one
    /// block task (a block-wide sort); 0: none. One row per value.
    #[arg(long, value_delimiter = ',', value_parser = parse_count, default_value = "65536")]
    pub block_sort: Vec<usize>,
    /// The mixed programs: threads per block, the team of a block task (its warps run thread
    /// tasks otherwise).
    #[arg(long, default_value_t = 256)]
    pub team: u32,
    /// The mixed programs: scratch bytes per block (`GpuConfig::block_scratch`); with room for
    /// a tile of 8 keys per thread, cilksort-mixed sorts its chunks in tiles in shared memory
    /// (`gtap_examples::block_sort`), with less each thread sorts its share in global memory.
    /// One row per value [default: a tile's room].
    #[arg(long, value_delimiter = ',')]
    pub block_scratch: Option<Vec<u32>>,
    /// CPU versions of the algorithms: sort_unstable leaves (and sequential merges) at or
    /// below this many elements; one row per value.
    #[arg(long, value_delimiter = ',', value_parser = parse_count, default_value = "16384")]
    pub cpu_cutoff: Vec<usize>,
    /// GPU rows: the input and the sorted output in page-locked host memory
    /// (`gtap::PinnedVec`, made before the runs), which the GPU copies by DMA, instead of
    /// ordinary host memory, which the driver stages; the variant says so.
    #[arg(long)]
    pub pinned: bool,
}

/// `tree`.
#[derive(Parser, Debug, Clone)]
pub struct TreeArgs {
    /// Depth of the full binary tree (2^(D+1) - 1 nodes).
    #[arg(long, default_value_t = 22, value_parser = clap::value_parser!(u32).range(..=40))]
    pub depth: u32,
    /// Loads per node from the 2^20-entry table.
    #[arg(long, default_value_t = 256)]
    pub mem_ops: u32,
    /// FMAs per node.
    #[arg(long, default_value_t = 256)]
    pub compute_iters: u32,
}

/// `knapsack --start`.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum KnapsackStart {
    /// The greedy packing's value.
    Greedy,
    /// Zero.
    Zero,
}

/// A UTS sample tree of `uts`.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum UtsTree {
    /// Geometric, fixed branching factor 4, depth 10: 4,130,071 nodes.
    T1,
    /// Binomial, 2000 root children, q = 0.124875, m = 8: 4,112,897 nodes, depth 1572.
    T3,
    /// Geometric, fixed branching factor 4, depth 13: 102,181,082 nodes.
    T1l,
    /// Binomial, 2000 root children, q = 0.200014, m = 5: 111,345,631 nodes, depth 17,844.
    T3l,
}

impl UtsTree {
    /// UTS's name of the tree (`gtap_examples::uts::Sample::name`).
    pub fn name(self) -> &'static str {
        match self {
            UtsTree::T1 => "T1",
            UtsTree::T3 => "T3",
            UtsTree::T1l => "T1L",
            UtsTree::T3l => "T3L",
        }
    }
}

/// `uts`.
#[derive(Parser, Debug, Clone)]
pub struct UtsArgs {
    /// Sample trees.
    #[arg(long, value_delimiter = ',', default_values = ["t1l", "t3l"])]
    pub tree: Vec<UtsTree>,
}

/// `epaq`: the program.
#[derive(Args, Debug)]
pub struct EpaqArgs {
    /// The program (`all`: each at its defaults).
    #[command(subcommand)]
    pub program: EpaqProgram,
}

/// `epaq`'s programs.
#[derive(Subcommand, Debug)]
pub enum EpaqProgram {
    /// fib with a cutoff: 1 queue, or 3 (recursing tasks, sequential tasks, continuations).
    Fib(EpaqFibArgs),
    /// nqueens with a cutoff: 1 queue, 2 (GTaP's classifier) or 3 (continuations apart).
    Nqueens(EpaqNqueensArgs),
    /// cilksort with EPAQ: 1 queue, or 3 (spawning tasks, sort leaves, merge leaves).
    Cilksort(EpaqCilksortArgs),
    /// All three at their defaults.
    All,
}

/// fib's sequential code below the cutoff.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum LeafArg {
    /// GTaP's recursive calls (rows `fib-calls`).
    Calls,
    /// The call tree walked with an explicit stack (rows `fib`).
    Stack,
    /// Both.
    Both,
}

/// `epaq fib`.
#[derive(Parser, Debug, Clone)]
pub struct EpaqFibArgs {
    /// n.
    #[arg(long, default_value_t = 40, value_parser = clap::value_parser!(u32).range(..=93))]
    pub n: u32,
    /// Cutoffs: calls of n < CUTOFF run sequentially (as GTaP's).
    #[arg(long, value_delimiter = ',', default_values_t = [10u32])]
    pub cutoff: Vec<u32>,
    /// The sequential code.
    #[arg(long, value_enum, default_value_t = LeafArg::Calls)]
    pub leaf: LeafArg,
    /// Queue counts.
    #[arg(long, value_delimiter = ',', default_values = ["1", "3"],
          value_parser = PossibleValuesParser::new(["1", "3"]).map(|s| s.parse::<u32>().unwrap()))]
    pub queues: Vec<u32>,
}

/// `epaq nqueens`.
#[derive(Parser, Debug, Clone)]
pub struct EpaqNqueensArgs {
    /// Board size.
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u32).range(1..=16))]
    pub n: u32,
    /// Cutoffs (ours: GTaP's cutoff depth d is our d + 1).
    #[arg(long, value_delimiter = ',', default_values_t = [7u32])]
    pub cutoff: Vec<u32>,
    /// Queue counts.
    #[arg(long, value_delimiter = ',', default_values = ["1", "2", "3"],
          value_parser = PossibleValuesParser::new(["1", "2", "3"]).map(|s| s.parse::<u32>().unwrap()))]
    pub queues: Vec<u32>,
}

/// `epaq cilksort`.
#[derive(Parser, Debug, Clone)]
pub struct EpaqCilksortArgs {
    /// Elements.
    #[arg(long, default_value = "5e7", value_parser = parse_count)]
    pub n: usize,
    /// Cutoffs, the sort and the merge cutoff alike.
    #[arg(long, value_delimiter = ',', value_parser = parse_count, default_value = "256")]
    pub cutoff: Vec<usize>,
    /// Queue counts.
    #[arg(long, value_delimiter = ',', default_values = ["1", "3"],
          value_parser = PossibleValuesParser::new(["1", "3"]).map(|s| s.parse::<u32>().unwrap()))]
    pub queues: Vec<u32>,
}

/// A synthetic tree of `granularity`.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum TreeKind {
    /// The full binary tree.
    Full,
    /// The depth-pruned 3-ary tree.
    Pruned,
}

/// `granularity`: every combination of the lists runs.
#[derive(Parser, Debug, Clone)]
pub struct GranularityArgs {
    /// Trees.
    #[arg(long, value_delimiter = ',', default_values = ["full", "pruned"])]
    pub trees: Vec<TreeKind>,
    /// Full binary tree depths.
    #[arg(long, value_delimiter = ',', default_values_t = [20u32])]
    pub full_depth: Vec<u32>,
    /// Pruned 3-ary tree depths.
    #[arg(long, value_delimiter = ',', default_values_t = [32u32])]
    pub pruned_depth: Vec<u32>,
    /// Loads per node.
    #[arg(long, value_delimiter = ',', default_values_t = [256u32])]
    pub mem_ops: Vec<u32>,
    /// FMAs per node.
    #[arg(long, value_delimiter = ',', default_values_t = [256u32])]
    pub compute_iters: Vec<u32>,
    /// The mixed programs (gpu-mixed rows): a node with at least this many loads does its
    /// work as a block task (`inf`: never by loads).
    #[arg(long, default_value = "8192", value_parser = parse_degree)]
    pub heavy_mem: u32,
    /// The mixed programs: a node with at least this many FMAs does its work as a block task
    /// (`inf`: never by FMAs).
    #[arg(long, default_value = "16384", value_parser = parse_degree)]
    pub heavy_fma: u32,
    /// The mixed programs: threads per block, the team of a block task [default: --block].
    #[arg(long)]
    pub team: Option<u32>,
}

/// A program of `graph`.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum GraphAlgo {
    /// Breadth-first search (GTaP's Program 5).
    Bfs,
    /// Sparse matrix times vector.
    Spmv,
}

/// A generated graph of `graph`.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum GraphKind {
    /// Graph500's Kronecker graphs: skewed degrees, small diameter.
    Kronecker,
    /// A 2-D grid with a quarter of its streets closed and a few local short cuts: degrees 1
    /// to 6 (mostly 2 to 4), a diameter in the thousands.
    Road,
}

/// `graph`.
#[derive(Parser, Debug, Clone)]
pub struct GraphArgs {
    /// Programs.
    #[arg(long, value_delimiter = ',', default_values = ["bfs", "spmv"])]
    pub algo: Vec<GraphAlgo>,
    /// Generated graphs [default: kronecker, none when --mtx is given].
    #[arg(long, value_delimiter = ',')]
    pub graph: Option<Vec<GraphKind>>,
    /// Scales of the generated graphs (2^SCALE vertices).
    #[arg(long, value_delimiter = ',', default_values_t = [20u32, 21, 22],
          value_parser = clap::value_parser!(u32).range(1..=31))]
    pub scale: Vec<u32>,
    /// Edges per vertex of the Kronecker generator.
    #[arg(long, default_value_t = 16)]
    pub edge_factor: u32,
    /// Matrix Market files to read as further inputs (BFS follows their entries as edges).
    #[arg(long, value_delimiter = ',', value_name = "PATH")]
    pub mtx: Vec<PathBuf>,
    /// SpMV: rows per leaf task.
    #[arg(long, default_value_t = 256, value_parser = clap::value_parser!(u32).range(1..))]
    pub grain: u32,
    /// BFS (mixed program): a vertex with at least this many neighbours is expanded by a
    /// block task, the others by thread tasks; one row per value (`inf`: thread tasks only,
    /// 0: block tasks only).
    #[arg(long, value_delimiter = ',', value_parser = parse_degree,
          default_values = ["inf", "32", "256", "2048"])]
    pub block_degree: Vec<u32>,
    /// BFS (mixed program): the most row entries a thread task expands (longer ranges are
    /// split in halves).
    #[arg(long, default_value_t = 256, value_parser = clap::value_parser!(u32).range(1..))]
    pub bfs_grain: u32,
    /// BFS (mixed program): the most row entries a block task expands (longer ranges are
    /// split into chunks).
    #[arg(long, default_value_t = 8192, value_parser = clap::value_parser!(u32).range(1..))]
    pub bfs_block_grain: u32,
    /// BFS (mixed program): threads per block, the team of a block task.
    #[arg(long, default_value_t = 256)]
    pub team: u32,
    /// BFS (mixed program): task records and queue entries per warp (every improved
    /// neighbour is a task).
    #[arg(long, default_value_t = 1 << 16)]
    pub mixed_room: u32,
}

/// Parses a threshold (a degree, a node's work): a count, or `inf` for none.
pub fn parse_degree(s: &str) -> Result<u32, String> {
    if s.trim() == "inf" {
        return Ok(u32::MAX);
    }
    let n = parse_count(s)?;
    u32::try_from(n).map_err(|_| format!("`{s}` is too large for a degree (use inf)"))
}

/// A threshold as `parse_degree` reads it.
pub fn fmt_degree(d: u32) -> String {
    if d == u32::MAX {
        "inf".into()
    } else {
        d.to_string()
    }
}

/// How a knapsack instance's values relate to its weights.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum CorrelationArg {
    /// Independent.
    None,
    /// Each value within a tenth of the range of its weight.
    Weak,
    /// Each value its weight plus a tenth of the range (the hardest for the bound).
    Strong,
}

/// `knapsack`.
#[derive(Parser, Debug, Clone)]
pub struct KnapsackArgs {
    /// Numbers of items.
    #[arg(long, value_delimiter = ',', default_values_t = [52usize, 56],
          value_parser = clap::value_parser!(u16).range(1..=4096).map(usize::from))]
    pub n: Vec<usize>,
    /// Weights (and values) range over 1..=RANGE.
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u32).range(10..=1_000_000))]
    pub range: u32,
    /// How values relate to weights.
    #[arg(long, value_enum, default_value_t = CorrelationArg::Strong)]
    pub correlation: CorrelationArg,
    /// The instance generator's seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// rayon: join both children while fewer than this many items are decided.
    #[arg(long, default_value_t = 16)]
    pub rayon_levels: u32,
    /// Where every search's shared best starts: the greedy packing's value (a packing that
    /// exists, so the bound prunes from the first node), or 0 (BOTS's start).
    #[arg(long, value_enum, default_value_t = KnapsackStart::Greedy)]
    pub start: KnapsackStart,
}

/// `floorplan`.
#[derive(Parser, Debug, Clone)]
pub struct FloorplanArgs {
    /// Numbers of cells.
    #[arg(long, value_delimiter = ',', default_values_t = [16usize, 18],
          value_parser = clap::value_parser!(u16).range(1..=64).map(usize::from))]
    pub cells: Vec<usize>,
    /// A cell's area ranges over 2..=MAX_AREA.
    #[arg(long, default_value_t = 9, value_parser = clap::value_parser!(u32).range(2..=64))]
    pub max_area: u32,
    /// A cell's sides are at most MAX_SIDE.
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(2..=16))]
    pub max_side: u32,
    /// The instance generator's seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// rayon: a task per placement while fewer than this many cells are placed.
    #[arg(long, default_value_t = 6)]
    pub rayon_levels: u32,
}

/// `headline`.
#[derive(Parser, Debug, Clone)]
pub struct HeadlineArgs {
    /// nqueens(16)'s cutoff (ours; GTaP's cutoff depth 7 is our 8).
    #[arg(long, default_value_t = 7)]
    pub nqueens_cutoff: u32,
}

/// `join`.
#[derive(Parser, Debug, Clone)]
pub struct JoinArgs {
    /// CSVs the bench wrote (--out), any number.
    #[arg(long, required = true, value_delimiter = ',', num_args = 1..)]
    pub gtap_csv: Vec<PathBuf>,
    /// What GTaP's anchor (`run.sh`) printed: `#` lines and CSV program,n,queues,kernel_ms.
    #[arg(long)]
    pub anchor_csv: PathBuf,
    /// The joined table as CSV.
    #[arg(long, value_name = "FILE")]
    pub out_csv: Option<PathBuf>,
    /// The joined table as markdown (also printed to stdout).
    #[arg(long, value_name = "FILE")]
    pub out_md: Option<PathBuf>,
    /// The GPU, for the header (e.g. nvidia-smi's name, memory and driver).
    #[arg(long, value_name = "TEXT")]
    pub gpu: Option<String>,
    /// gtap's commit, for the header.
    #[arg(long, value_name = "TEXT")]
    pub commit: Option<String>,
    /// The date, for the header.
    #[arg(long, value_name = "TEXT")]
    pub date: Option<String>,
    /// The cutoff depth the anchor's nq ran with (GTaP's convention; run.sh passes 7). Its
    /// rows join gtap's nqueens rows at cutoff depth + 1.
    #[arg(long, default_value_t = 7)]
    pub anchor_nq_cutoff: u32,
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn command_line_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn counts() {
        assert_eq!(parse_count("1e8"), Ok(100_000_000));
        assert_eq!(parse_count("10_000_000"), Ok(10_000_000));
        assert_eq!(parse_count("5E7"), Ok(50_000_000));
        assert!(parse_count("1.5e7").is_err());
        assert!(parse_count("x").is_err());
        assert_eq!(fmt_count(50_000_000), "5e7");
        assert_eq!(fmt_count(12_345_678), "12345678");
        assert_eq!(fmt_count(256), "256");
    }

    #[test]
    fn flags_anywhere_and_bad_values_rejected() {
        let cli =
            Cli::try_parse_from(["bench", "--runs", "2", "fib", "--n", "25,26", "--grid", "8"])
                .unwrap();
        assert_eq!(cli.common.runs, Some(2));
        assert_eq!(cli.gpu.grid, Some(8));
        match cli.command {
            Command::Fib(a) => assert_eq!(a.n, [25, 26]),
            other => panic!("{other:?}"),
        }
        assert!(Cli::try_parse_from(["bench", "fib", "--n", "x"]).is_err());
        assert!(Cli::try_parse_from(["bench", "fib", "--bogus"]).is_err());
        assert!(Cli::try_parse_from(["bench", "--queue-order", "sideways", "fib"]).is_err());
        assert!(Cli::try_parse_from(["bench", "epaq", "fib", "--queues", "2"]).is_err());
        assert!(Cli::try_parse_from(["bench", "--gpu-only", "--cpu-only", "fib"]).is_err());
    }

    #[test]
    fn uts_trees_are_the_samples() {
        let cli = Cli::try_parse_from(["bench", "uts", "--tree", "t1,t3l"]).unwrap();
        match cli.command {
            Command::Uts(a) => assert_eq!(a.tree, [UtsTree::T1, UtsTree::T3l]),
            other => panic!("{other:?}"),
        }
        assert!(Cli::try_parse_from(["bench", "uts", "--tree", "t2"]).is_err());
        for t in UtsTree::value_variants() {
            let s = gtap_examples::uts::Sample::named(t.name()).unwrap();
            assert_eq!(
                s.name.to_ascii_lowercase(),
                format!("{t:?}").to_ascii_lowercase()
            );
        }
        let a = UtsArgs::parse_from(["uts"]);
        assert_eq!(a.tree, [UtsTree::T1l, UtsTree::T3l]);
    }

    #[test]
    fn graph_inputs_and_thresholds() {
        let g = GraphArgs::parse_from(["graph"]);
        assert_eq!(g.graph, None);
        assert_eq!(g.block_degree, [u32::MAX, 32, 256, 2048]);
        let g = GraphArgs::parse_from([
            "graph",
            "--graph",
            "road,kronecker",
            "--mtx",
            "a.mtx,b.mtx",
            "--block-degree",
            "0,1e3,inf",
        ]);
        assert_eq!(g.graph, Some(vec![GraphKind::Road, GraphKind::Kronecker]));
        assert_eq!(g.mtx.len(), 2);
        assert_eq!(g.block_degree, [0, 1000, u32::MAX]);
        assert_eq!(fmt_degree(u32::MAX), "inf");
        assert!(GraphArgs::try_parse_from(["graph", "--block-degree", "1e10"]).is_err());
        assert!(GraphArgs::try_parse_from(["graph", "--graph", "grid"]).is_err());
    }

    #[test]
    fn defaults_parse() {
        let s = SortArgs::parse_from(["sort"]);
        assert_eq!(s.algo, [SortAlgo::Mergesort, SortAlgo::Cilksort]);
        assert_eq!(s.cpu_cutoff, [16384]);
        let e = EpaqFibArgs::parse_from(["fib"]);
        assert_eq!((e.n, e.queues), (40, vec![1, 3]));
        assert!(GpuArgs::parse_config(&["--block", "48"]).is_err());
    }

    impl GpuArgs {
        /// The configuration of `bench <flags> all`.
        fn parse_config(flags: &[&str]) -> Result<GpuConfig, String> {
            let args = ["bench"].iter().chain(flags).chain(&["all"]);
            Cli::try_parse_from(args).unwrap().gpu.config()
        }
    }
}
