//! [`GpuConfig`]: the launch shape and the sizes of the run's structures.

use std::time::Duration;

use std::mem::size_of;

use gtap_device::runtime::deque::DequeState;
use gtap_device::runtime::gpu::layout::{
    MAX_QUEUES, ProfileEvent, ProfileWarp, TaskCounts, WARP_SHARED_BYTES, WarpStats,
};
use gtap_device::runtime::record::Record;
use gtap_device::task::block::RUNTIME_SHARED_BYTES;

use super::GpuRunError;
use crate::{DeviceProps, Limits};

/// How a program's workers are laid out on the GPU, which decides its shared memory, its
/// workers and its queues.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ProgramKind {
    /// Thread tasks only: every warp is a worker.
    Thread,
    /// Block tasks only: every thread block is a worker.
    Block,
    /// Both kinds: every warp is a worker, and every block also runs block tasks, from one
    /// more queue per warp (see `gtap_device::runtime::gpu::mixed`).
    Mixed,
}

impl ProgramKind {
    /// The kind of a program with block tasks (`P::BLOCK`) and both kinds (`P::MIXED`).
    pub(crate) fn of(block: bool, mixed: bool) -> ProgramKind {
        match (block, mixed) {
            (_, true) => ProgramKind::Mixed,
            (true, false) => ProgramKind::Block,
            (false, false) => ProgramKind::Thread,
        }
    }

    /// Queues per worker: the EPAQ queues, and a mixed program's block queue.
    pub(crate) fn queues(self, num_queues: u32) -> u32 {
        num_queues + u32::from(self == ProgramKind::Mixed)
    }
}

/// How a GPU run is launched and how large its structures are, in three parts: the launch
/// ([`GpuLaunch`]: grid, block, records, profiler), the [`Limits`] the CPU backend shares,
/// and the scheduler's experiment knobs ([`GpuTuning`]). Every setting has a default derived
/// from the device or from GTaP's evaluation.
///
/// Build it with the setters, which are named after the settings, and read it through
/// [`GpuConfig::launch`], [`GpuConfig::limits`] and [`GpuConfig::tuning`];
/// [`GpuConfig::validate`] rejects values that cannot work, before anything is allocated.
///
/// ```
/// use gtap_host::gpu_runtime::GpuConfig;
/// let config = GpuConfig::new().grid(7).num_queues(2).top_up(2);
/// assert_eq!(config.launch().grid(), Some(7));
/// assert_eq!(config.limits().num_queues(), 2);
/// assert_eq!(config.tuning().top_up(), Some(2));
/// assert_eq!(config.scheduling().top_up, 2);
/// assert!(config.validate().is_ok());
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GpuConfig {
    pub(crate) launch: GpuLaunch,
    pub(crate) limits: Limits,
    pub(crate) tuning: GpuTuning,
}

/// The launch part of a [`GpuConfig`]: how many blocks of how many threads, how many task
/// records each warp has, and whether the profiler records. Set through `GpuConfig`'s setters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GpuLaunch {
    pub(crate) grid: Option<u32>,
    pub(crate) warps_per_sm: u32,
    pub(crate) block: u32,
    pub(crate) tasks_per_warp: u32,
    pub(crate) reserve_records: Option<u32>,
    pub(crate) profile: Option<u32>,
    pub(crate) stack_bytes: u32,
}

impl GpuLaunch {
    /// Blocks in the grid ([`GpuConfig::grid`]). `None` (the default): as many as can be
    /// resident at once (occupancy × SMs), so that every worker runs from the start, but at
    /// most [`warps_per_sm`](GpuLaunch::warps_per_sm) warps per SM. Set it to measure a grid
    /// sweep or to run a small program on few warps.
    pub fn grid(&self) -> Option<u32> {
        self.grid
    }

    /// With no grid set, the most warps per SM the default grid puts to work (default 16;
    /// 64 or more: every resident warp). Fewer warps than the SM can hold are faster on the
    /// programs measured (the grid sweep in results/), as they contend less for the memory
    /// system and each other's queues; raise it for programs whose tasks wait on memory.
    pub fn warps_per_sm(&self) -> u32 {
        self.warps_per_sm
    }

    /// Threads per block, a positive multiple of 32 (default 32, as in GTaP's thread-level
    /// runs). Block programs (`#[gtap::task(block)]`) need it to match their block width.
    pub fn block(&self) -> u32 {
        self.block
    }

    /// Task records per warp (each warp allocates from its own slab), `1..=2^24`, default
    /// 4096: the records a warp hands out without touching anything shared. A warp whose slab
    /// runs short borrows chunks of the device-wide reserve
    /// ([`reserve_records`](GpuLaunch::reserve_records)); raise it when a program keeps many
    /// tasks alive on every warp, to spare those loans.
    pub fn tasks_per_warp(&self) -> u32 {
        self.tasks_per_warp
    }

    /// Records of the device-wide reserve, lent in chunks of
    /// [`CHUNK_RECORDS`](gtap_device::runtime::reserve::CHUNK_RECORDS) to warps whose slab runs
    /// short and returned when all their records are free again. `None` (the default): sized
    /// from the device's free memory as it was when the runtime was made or last configured
    /// (counting the records the runtime holds): a quarter of what a run's other arrays
    /// leave, at most 8 GiB and at most what record ids can number, halved at a run until it
    /// can be allocated. `Some(0)`: no reserve, each warp has its slab only. A run fails
    /// with `PoolExhausted` only when the slabs and the reserve are all in use.
    pub fn reserve_records(&self) -> Option<u32> {
        self.reserve_records
    }

    /// The per-warp timeline profiler: `Some(n)` runs the program's profiled kernel
    /// (`gtap_<name>_profiled`, a lab kernel: in PTX built with `GTAP_LAB=1` or
    /// `PtxBuilder::lab(true)`), which records up to `n` rounds per warp (`1..=2^24`)
    /// into a buffer of `warps * n * 56` bytes, returned as
    /// [`GpuStats::profile`](super::GpuStats). `None` (the default): the plain kernel, which
    /// records nothing. Turn it on to see where a run's warps spend their rounds.
    pub fn profile(&self) -> Option<u32> {
        self.profile
    }

    /// Bytes of call stack per GPU thread (`CU_LIMIT_STACK_SIZE`, raised on the context when
    /// the runtime is made or configured, if it is below this: the limit is the whole
    /// context's, so a process's runtimes share the largest any asked for),
    /// `1024..=2^20`, default 16 KiB. A spawn the
    /// granularity policy runs inline calls the child's sequential version, a plain
    /// recursive function: every level of its recursion is a call with a frame in the
    /// thread's local memory (the PTX's `__local_depot` of each `__gtap_seq_*` function plus
    /// the registers the call saves: fib's about 32 bytes, nqueens' over 512, for its
    /// 32 result slots). CUDA's default of 1 KiB holds a few levels; 16 KiB holds fib's and
    /// nqueens' deepest. The driver reserves this much for every thread that can be
    /// resident (16 KiB: about 4.3 GB on a GPU with 132 SMs). A recursion deeper than the stack ends the
    /// run with the driver's stack error: raise it, or turn the policy off.
    pub fn stack_bytes(&self) -> u32 {
        self.stack_bytes
    }
}

/// The scheduler's experiment knobs of a [`GpuConfig`]: how warps steal, publish and pick
/// queues. The defaults are the fastest on the programs measured; the others exist to
/// measure GTaP's choices against. Set through `GpuConfig`'s setters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GpuTuning {
    pub(crate) steal_attempts: u32,
    pub(crate) top_up: Option<u32>,
    pub(crate) steal_per_queue: bool,
    pub(crate) max_registers: Option<u32>,
    pub(crate) keep_unpublished: u32,
    pub(crate) resume_inline: Option<bool>,
    pub(crate) keep_every_queue: bool,
    pub(crate) queue_order: Option<QueueOrder>,
    pub(crate) scheduler: Scheduler,
    pub(crate) inline_min_depth: Option<u32>,
    pub(crate) inline_min_queued: u32,
    pub(crate) inline_backoff_ratio: u32,
    pub(crate) inline_task_rounds: u32,
    pub(crate) inline_wide_tasks: u32,
    pub(crate) inline_wide_width: u32,
    pub(crate) inline_grid_heavy_rounds: Option<u32>,
}

impl GpuTuning {
    /// Victims an idle warp tries per round, at least 1 (default 8). More finds work sooner
    /// in a run with little of it, at the price of more failed steals.
    pub fn steal_attempts(&self) -> u32 {
        self.steal_attempts
    }

    /// Victims a warp tries to fill up a batch that its own deque left short of a warp's
    /// width, stealing from the same EPAQ queue (GTaP fills every batch so; 0: the warp runs
    /// the short batch as it is). Short batches leave lanes idle for the whole round, which
    /// costs most where a round's tasks are long (sequential leaves below a cutoff). `None`,
    /// the default: by the number of queues ([`GpuConfig::scheduling`]).
    pub fn top_up(&self) -> Option<u32> {
        self.top_up
    }

    /// With `top_up > 0`: a warp whose own deque of its current queue is empty steals from
    /// that queue of other warps before it turns to its own next queue (GTaP's order; keeps
    /// rounds to one kind of task at the price of more steals). Default off: a warp runs its
    /// own tasks of every queue before it steals.
    pub fn steal_per_queue(&self) -> bool {
        self.steal_per_queue
    }

    /// Registers per thread the driver may give the kernels, `16..=255` (`None`, the default:
    /// its own choice). Fewer registers let more warps be resident (block size permitting),
    /// at the price of spills; try it when occupancy, not memory, limits a run.
    pub fn max_registers(&self) -> Option<u32> {
        self.max_registers
    }

    /// The most tasks a warp keeps for itself, unpublished, at the end of a round (default
    /// 32, a warp's width, as GTaP), `0..=queue_capacity/2`. More saves the warp the atomics
    /// of publishing and popping while it has plenty of work, but hides those tasks from
    /// thieves.
    pub fn keep_unpublished(&self) -> u32 {
        self.keep_unpublished
    }

    /// Whether the lane that completes a parent's last child resumes the parent at once (when
    /// the parent's continuation goes to the current queue) instead of queueing it for a later
    /// round (GTaP's behaviour). `None`, the default: by the number of queues
    /// ([`GpuConfig::scheduling`]).
    pub fn resume_inline(&self) -> Option<bool> {
        self.resume_inline
    }

    /// EPAQ: whether a warp keeps up to `keep_unpublished` new tasks unpublished in every one
    /// of its queues at the end of a round (fewer publish and pop atomics; more tasks hidden
    /// from thieves), instead of only in the queue its next round takes from. Default off.
    pub fn keep_every_queue(&self) -> bool {
        self.keep_every_queue
    }

    /// EPAQ: which queue a warp's next round takes from ([`QueueOrder`]). Matters only with
    /// several queues. `None`, the default: by the number of queues
    /// ([`GpuConfig::scheduling`]).
    pub fn queue_order(&self) -> Option<QueueOrder> {
        self.queue_order
    }

    /// How warps share work: GTaP's work stealing (the default), or one of the ablations the
    /// paper measures it against ([`Scheduler`]), which run in lab kernels (PTX built with
    /// `GTAP_LAB=1` or `PtxBuilder::lab(true)`).
    pub fn scheduler(&self) -> Scheduler {
        self.scheduler
    }

    /// The granularity policy ([`Limits::auto_granularity`]): a spawn nearer the root than
    /// this depth is always a task (unless the warp is short of records or queue entries).
    /// `None`, the default: `ceil(log2(warps × 32)) + 5`, five levels past where a binary
    /// tree has a task for every lane (32 subtrees per lane), so that no subtree near the
    /// root is committed to one lane. A tree that branches more widely reaches that breadth sooner: lower it for
    /// such a program (nqueens: about its hand-written cutoff).
    pub fn inline_min_depth(&self) -> Option<u32> {
        self.inline_min_depth
    }

    /// The granularity policy: past `inline_min_depth`, a spawn runs inline while the
    /// warp's queue it would go to holds at least this many tasks (default 32, one round's
    /// batch), and is a task otherwise.
    pub fn inline_min_queued(&self) -> u32 {
        self.inline_min_queued
    }

    /// The granularity policy: a warp whose inline calls take longer than this many of its
    /// ordinary rounds (those without one) inlines from a level deeper, and comes back a
    /// level when they take under a quarter of that (default 4; 0: never). Depth alone
    /// cannot tell a subtree's cost: in a program with a hand-written cutoff, or with nodes
    /// that carry work of their own, a subtree at the same depth takes far longer, and one
    /// lane running it holds up its warp.
    pub fn inline_backoff_ratio(&self) -> u32 {
        self.inline_backoff_ratio
    }

    /// The granularity policy: what it counts a task as costing beyond its own work, in
    /// rounds of one lane (default 8; 0: not weighed). A warp whose round with inline calls
    /// took longer than an ordinary round, times its 32 lanes held, than the calls' own
    /// cycles plus this many lane-rounds for each task they saved (the inlined spawn and the
    /// spawns its sequential call ran as calls) inlines from a level deeper, and does not
    /// come back while that holds. This is what tells a program with a hand-written cutoff,
    /// whose inline calls save a task per sequential leaf, from one whose calls save a task
    /// per tenth of a round (README, "Automatic granularity").
    pub fn inline_task_rounds(&self) -> u32 {
        self.inline_task_rounds
    }

    /// The granularity policy: tasks a warp makes at one depth before it runs spawns inline
    /// from the next depth on, as from `inline_min_depth` (default 2048, 64 per lane; 0:
    /// never), and so does every other warp within a few rounds. The default `inline_min_depth` is the depth at which a tree of two children
    /// per node has tasks for every lane; a tree with more children per node (a search over
    /// 16 columns) has them far sooner, and this finds where (README, "Automatic
    /// granularity").
    pub fn inline_wide_tasks(&self) -> u32 {
        self.inline_wide_tasks
    }

    /// The granularity policy: the tasks for each of the grid's lanes that the grid's
    /// estimate of a level's width must reach for the warps to inline from that level on
    /// (default 32, the width a tree of two children per node has at the default
    /// `inline_min_depth`; 0: no estimate). The grid estimates each level's width from the
    /// children that the tasks started at the levels above it made, long before the level
    /// is complete (README, "Automatic granularity").
    pub fn inline_wide_width(&self) -> u32 {
        self.inline_wide_width
    }

    /// The granularity policy: rounds of heavy leaf tasks across the grid from which every
    /// warp stops running spawns inline, as a warp does after four of its own, where they
    /// are also at least one in 128 of the grid's busy rounds (default `None`: one for
    /// every four warps of the grid; 0: each warp judges alone). Below a hand-written
    /// cutoff most warps run too few leaf rounds to judge before the tree is deep enough
    /// to inline (README, "Automatic granularity").
    pub fn inline_grid_heavy_rounds(&self) -> Option<u32> {
        self.inline_grid_heavy_rounds
    }
}

/// The most scratch bytes per block [`GpuConfig::block_scratch`] accepts (the largest shared
/// memory of a block on any GPU gtap supports; the device's own limit is checked at launch).
const MAX_BLOCK_SCRATCH: u32 = 227 * 1024;

/// The most events per warp [`GpuConfig::profile`] accepts.
const MAX_PROFILE_EVENTS: u32 = 1 << 24;

/// How the warps of a run share tasks ([`GpuConfig::scheduler`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Scheduler {
    /// Per-warp deques with warp-cooperative batched pop, steal and push (GTaP).
    #[default]
    WorkStealing,
    /// Ablation: per-warp deques whose pops and steals take one task per CAS, up to 32 a
    /// round (GTaP's "sequential Chase-Lev" comparison).
    OneAtATime,
    /// Ablation: one queue for the whole grid, no stealing (GTaP's global-queue comparison).
    /// Needs `num_queues == 1`.
    GlobalQueue,
}

/// With several EPAQ queues, which queue a warp's next round takes from
/// ([`GpuConfig::queue_order`]). Every order runs every task; they differ in how long a warp
/// keeps to one kind of task, and so in divergence, queue switches and live records.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum QueueOrder {
    /// The next queue after the current one (round-robin, the current one last) that holds
    /// a whole batch, or the one holding the most if none does.
    #[default]
    NextFull,
    /// The current queue while it holds a whole batch, then round-robin as `NextFull`:
    /// expands one kind of task as far as it goes before the others (fewer switches, more
    /// live records).
    Stay,
    /// GTaP's order: the queue that got the most new tasks in the round just run (the
    /// lowest such queue on a tie), whose newest tasks the warp keeps and runs next; after a
    /// round that made none, queue 0 first, then the others round-robin.
    MostGenerated,
}

/// The scheduling options a run uses ([`GpuConfig::scheduling`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scheduling {
    /// Victims a warp tries to fill up a short batch from ([`GpuTuning::top_up`]).
    pub top_up: u32,
    /// Whether a parent is resumed by the lane that completed its last child
    /// ([`GpuTuning::resume_inline`]).
    pub resume_inline: bool,
    /// Which queue a warp's next round takes from ([`GpuTuning::queue_order`]).
    pub queue_order: QueueOrder,
}

impl Default for GpuConfig {
    fn default() -> Self {
        GpuConfig {
            launch: GpuLaunch {
                grid: None,
                warps_per_sm: 16,
                block: 32,
                tasks_per_warp: 4096,
                reserve_records: None,
                profile: None,
                stack_bytes: 16 * 1024,
            },
            limits: Limits::gpu_default(),
            tuning: GpuTuning {
                steal_attempts: 8,
                top_up: None,
                steal_per_queue: false,
                max_registers: None,
                keep_unpublished: 32,
                resume_inline: None,
                keep_every_queue: false,
                queue_order: None,
                scheduler: Scheduler::WorkStealing,
                inline_min_depth: None,
                inline_min_queued: 32,
                inline_backoff_ratio: 4,
                inline_task_rounds: 8,
                inline_wide_tasks: 2048,
                inline_wide_width: 32,
                inline_grid_heavy_rounds: None,
            },
        }
    }
}

impl GpuConfig {
    crate::limits::limit_setters!();

    /// Whether a run under this configuration needs the program's lab kernels (profiling,
    /// or an ablation scheduler), which only PTX built with `GTAP_LAB=1` or
    /// `PtxBuilder::lab(true)` has.
    pub fn needs_lab_kernels(&self) -> bool {
        self.lab_kernel().is_some()
    }

    /// The lab kernel this configuration needs, as the suffix of its name
    /// (`gtap_<name>_<suffix>`) and what asks for it; `None` for the plain kernel. Profiling
    /// wins: the profiled kernel runs every scheduler.
    pub(crate) fn lab_kernel(&self) -> Option<(&'static str, &'static str)> {
        if self.launch.profile.is_some() {
            return Some(("profiled", "GpuConfig::profile is set"));
        }
        match self.tuning.scheduler {
            Scheduler::WorkStealing => None,
            Scheduler::OneAtATime => Some(("one_at_a_time", "the scheduler is OneAtATime")),
            Scheduler::GlobalQueue => Some(("global_queue", "the scheduler is GlobalQueue")),
        }
    }

    /// The defaults (see each getter of [`GpuLaunch`], [`Limits`] and [`GpuTuning`]).
    pub fn new() -> Self {
        Self::default()
    }

    /// The launch settings: grid, block, records per warp, profiler.
    pub fn launch(&self) -> &GpuLaunch {
        &self.launch
    }

    /// The settings the CPU backend shares: queues, timeout, block scratch, uniformity check.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// The scheduler's experiment knobs.
    pub fn tuning(&self) -> &GpuTuning {
        &self.tuning
    }

    /// How the run's warps fill their batches and move between queues: the options the
    /// configuration sets ([`GpuTuning::top_up`], [`GpuTuning::resume_inline`],
    /// [`GpuTuning::queue_order`]) and, for those it leaves unset, the defaults for its
    /// number of queues. With one queue: no top-up, no inline resumes, [`QueueOrder::NextFull`].
    /// With several (EPAQ): GTaP's choices, top-up from 2 victims, inline resumes and
    /// [`QueueOrder::MostGenerated`]. Together they keep a round to one kind of task and
    /// full, which is what several queues are for; with one queue a warp's rounds mix the
    /// kinds anyway, and the same options only add steals and longer rounds.
    pub fn scheduling(&self) -> Scheduling {
        let several = self.limits.num_queues > 1;
        Scheduling {
            top_up: self.tuning.top_up.unwrap_or(if several { 2 } else { 0 }),
            resume_inline: self.tuning.resume_inline.unwrap_or(several),
            queue_order: self.tuning.queue_order.unwrap_or(if several {
                QueueOrder::MostGenerated
            } else {
                QueueOrder::NextFull
            }),
        }
    }

    /// Sets the number of blocks ([`GpuLaunch::grid`]; default: as many as are resident, up
    /// to `warps_per_sm` warps per SM).
    pub fn grid(mut self, blocks: u32) -> Self {
        self.launch.grid = Some(blocks);
        self
    }

    /// Sets the most warps per SM of the default grid ([`GpuLaunch::warps_per_sm`], default
    /// 16; 64 or more: every resident warp).
    pub fn warps_per_sm(mut self, warps: u32) -> Self {
        self.launch.warps_per_sm = warps;
        self
    }

    /// Sets the threads per block ([`GpuLaunch::block`], a multiple of 32, default 32).
    pub fn block(mut self, threads: u32) -> Self {
        self.launch.block = threads;
        self
    }

    /// Sets the task records per warp ([`GpuLaunch::tasks_per_warp`], default 4096).
    pub fn tasks_per_warp(mut self, records: u32) -> Self {
        self.launch.tasks_per_warp = records;
        self
    }

    /// Sets the records of the device-wide reserve ([`GpuLaunch::reserve_records`], rounded
    /// up to whole chunks; 0: no reserve). The default sizes it from the device's free memory.
    pub fn reserve_records(mut self, records: u32) -> Self {
        self.launch.reserve_records = Some(records);
        self
    }

    /// Sizes the reserve from the device's free memory at each run (the default; see
    /// [`GpuLaunch::reserve_records`]).
    pub fn auto_reserve(mut self) -> Self {
        self.launch.reserve_records = None;
        self
    }

    /// Sets the victims an idle warp tries per round ([`GpuTuning::steal_attempts`], default
    /// 8).
    pub fn steal_attempts(mut self, attempts: u32) -> Self {
        self.tuning.steal_attempts = attempts;
        self
    }

    /// Sets the victims a warp tries to fill up a short batch from ([`GpuTuning::top_up`];
    /// default: by the number of queues, [`GpuConfig::scheduling`]).
    pub fn top_up(mut self, victims: u32) -> Self {
        self.tuning.top_up = Some(victims);
        self
    }

    /// Sets whether a warp steals from its current EPAQ queue before it turns to its own
    /// next queue ([`GpuTuning::steal_per_queue`], default off; needs `top_up > 0`).
    pub fn steal_per_queue(mut self, on: bool) -> Self {
        self.tuning.steal_per_queue = on;
        self
    }

    /// Sets the run's time limit ([`Limits::timeout`], default 120 s).
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.limits.timeout = timeout;
        self
    }

    /// Limits the registers per thread ([`GpuTuning::max_registers`], 16 to 255; default:
    /// the driver's choice).
    pub fn max_registers(mut self, registers: u32) -> Self {
        self.tuning.max_registers = Some(registers);
        self
    }

    /// Sets the most tasks a warp keeps unpublished between rounds
    /// ([`GpuTuning::keep_unpublished`], default 32).
    pub fn keep_unpublished(mut self, tasks: u32) -> Self {
        self.tuning.keep_unpublished = tasks;
        self
    }

    /// Sets whether a warp keeps unpublished tasks in every EPAQ queue
    /// ([`GpuTuning::keep_every_queue`], default off).
    pub fn keep_every_queue(mut self, on: bool) -> Self {
        self.tuning.keep_every_queue = on;
        self
    }

    /// Sets which EPAQ queue a warp's next round takes from ([`GpuTuning::queue_order`];
    /// default: by the number of queues, [`GpuConfig::scheduling`]).
    pub fn queue_order(mut self, order: QueueOrder) -> Self {
        self.tuning.queue_order = Some(order);
        self
    }

    /// Sets whether the lane that completes a parent's last child resumes it at once
    /// ([`GpuTuning::resume_inline`]; default: by the number of queues,
    /// [`GpuConfig::scheduling`]).
    pub fn resume_inline(mut self, on: bool) -> Self {
        self.tuning.resume_inline = Some(on);
        self
    }

    /// Sets the call stack per GPU thread ([`GpuLaunch::stack_bytes`], default 16 KiB).
    pub fn stack_bytes(mut self, bytes: u32) -> Self {
        self.launch.stack_bytes = bytes;
        self
    }

    /// Sets the depth from which the granularity policy may run a spawn inline
    /// ([`GpuTuning::inline_min_depth`], default derived from the launch).
    pub fn inline_min_depth(mut self, depth: u32) -> Self {
        self.tuning.inline_min_depth = Some(depth);
        self
    }

    /// Sets how many ordinary rounds a warp's inline calls may take before it inlines from a
    /// level deeper ([`GpuTuning::inline_backoff_ratio`], default 4; 0: never).
    pub fn inline_backoff_ratio(mut self, rounds: u32) -> Self {
        self.tuning.inline_backoff_ratio = rounds;
        self
    }

    /// Sets what the granularity policy counts a task as costing beyond its work, in rounds
    /// of one lane ([`GpuTuning::inline_task_rounds`], default 8; 0: not weighed).
    pub fn inline_task_rounds(mut self, rounds: u32) -> Self {
        self.tuning.inline_task_rounds = rounds;
        self
    }

    /// Sets the tasks a warp makes at one depth before it inlines from the next
    /// ([`GpuTuning::inline_wide_tasks`], default 2048; 0: never).
    pub fn inline_wide_tasks(mut self, tasks: u32) -> Self {
        self.tuning.inline_wide_tasks = tasks;
        self
    }

    /// Sets the tasks per lane at which the grid's estimate of a level's width makes the
    /// warps inline from that level on ([`GpuTuning::inline_wide_width`], default 32; 0: no
    /// estimate).
    pub fn inline_wide_width(mut self, tasks_per_lane: u32) -> Self {
        self.tuning.inline_wide_width = tasks_per_lane;
        self
    }

    /// Sets the heavy leaf rounds across the grid from which every warp stops inlining
    /// ([`GpuTuning::inline_grid_heavy_rounds`], default one for every four warps; 0: never).
    pub fn inline_grid_heavy_rounds(mut self, rounds: u32) -> Self {
        self.tuning.inline_grid_heavy_rounds = Some(rounds);
        self
    }

    /// Sets the queued tasks from which the granularity policy runs a spawn inline
    /// ([`GpuTuning::inline_min_queued`], default 32).
    pub fn inline_min_queued(mut self, tasks: u32) -> Self {
        self.tuning.inline_min_queued = tasks;
        self
    }

    /// Sets how warps share tasks ([`GpuTuning::scheduler`], default work stealing; the
    /// others are ablations, which need PTX with the lab kernels).
    pub fn scheduler(mut self, scheduler: Scheduler) -> Self {
        self.tuning.scheduler = scheduler;
        self
    }

    /// Turns the per-warp timeline profiler on, recording up to `events_per_warp` rounds per
    /// warp (consecutive idle rounds count as one; a warp whose buffer is full counts the
    /// rest as dropped). Default off. Needs PTX with the lab kernels: build it with
    /// `GTAP_LAB=1` or `PtxBuilder::lab(true)`. See [`GpuLaunch::profile`] and
    /// [`Profile`](super::Profile).
    pub fn profile(mut self, events_per_warp: u32) -> Self {
        self.launch.profile = Some(events_per_warp);
        self
    }

    /// Turns the per-warp timeline profiler off (the default): the plain kernel runs.
    pub fn no_profile(mut self) -> Self {
        self.launch.profile = None;
        self
    }

    /// Checks the settings that do not depend on the device.
    pub fn validate(&self) -> Result<(), GpuRunError> {
        let bad = |setting: &'static str, value: u64, why: &'static str| {
            Err(GpuRunError::InvalidConfig {
                setting,
                value,
                why,
            })
        };
        if self.launch.block == 0 || !self.launch.block.is_multiple_of(32) {
            return bad(
                "block",
                self.launch.block.into(),
                "threads per block must be a positive multiple of 32 (a warp)",
            );
        }
        if self.launch.warps_per_sm == 0 {
            return bad(
                "warps_per_sm",
                0,
                "the default grid needs at least one warp per SM",
            );
        }
        if self.launch.grid == Some(0) {
            return bad("grid", 0, "the grid needs at least one block");
        }
        if self.launch.tasks_per_warp == 0 || self.launch.tasks_per_warp > 1 << 24 {
            return bad(
                "tasks_per_warp",
                self.launch.tasks_per_warp.into(),
                "must be between 1 and 2^24",
            );
        }
        if self.launch.stack_bytes < 1024 || self.launch.stack_bytes > 1 << 20 {
            return bad(
                "stack_bytes",
                self.launch.stack_bytes.into(),
                "must be between 1024 and 2^20",
            );
        }
        if !self.limits.queue_capacity.is_power_of_two()
            || self.limits.queue_capacity < 64
            || self.limits.queue_capacity > 1 << 24
        {
            return bad(
                "queue_capacity",
                self.limits.queue_capacity.into(),
                "must be a power of two between 64 and 2^24",
            );
        }
        if self.limits.num_queues == 0 || self.limits.num_queues > MAX_QUEUES {
            return bad(
                "num_queues",
                self.limits.num_queues.into(),
                "must be between 1 and 8",
            );
        }
        if self.tuning.steal_attempts == 0 {
            return bad(
                "steal_attempts",
                0,
                "an idle warp must try at least one victim",
            );
        }
        if self.tuning.steal_per_queue && self.scheduling().top_up == 0 {
            return bad(
                "top_up",
                0,
                "steal_per_queue steals with top_up's victims: set top_up to at least 1",
            );
        }
        if let Some(r) = self.tuning.max_registers
            && !(16..=255).contains(&r)
        {
            return bad("max_registers", r.into(), "must be between 16 and 255");
        }
        if self.tuning.scheduler == Scheduler::GlobalQueue && self.limits.num_queues != 1 {
            return bad(
                "num_queues",
                self.limits.num_queues.into(),
                "the global-queue scheduler has one queue: set num_queues to 1",
            );
        }
        if self.tuning.keep_unpublished > self.limits.queue_capacity / 2 {
            return bad(
                "keep_unpublished",
                self.tuning.keep_unpublished.into(),
                "must be at most half of queue_capacity",
            );
        }
        if let Err((setting, value, why)) = self.limits.check_shared() {
            return bad(setting, value, why);
        }
        if !self.limits.block_scratch.is_multiple_of(8)
            || self.limits.block_scratch > MAX_BLOCK_SCRATCH
        {
            return bad(
                "block_scratch",
                self.limits.block_scratch.into(),
                "must be a multiple of 8, at most 227 KiB (a block's shared memory)",
            );
        }
        if let Some(n) = self.launch.profile
            && !(1..=MAX_PROFILE_EVENTS).contains(&n)
        {
            return bad(
                "profile",
                n.into(),
                "events per warp must be between 1 and 2^24 (GpuConfig::no_profile turns profiling off)",
            );
        }
        Ok(())
    }

    /// Checks the settings against the device, before anything is allocated: the block size
    /// and the shared memory its warps need, and, when the grid is set, the grid against the
    /// device's limit and the memory of a run (with the smallest possible task records; a
    /// run checks again with its program's records, see [`GpuConfig::check_launch`]).
    pub(crate) fn validate_for(&self, props: &DeviceProps) -> Result<(), GpuRunError> {
        if self.launch.block > props.max_threads_per_block {
            return Err(GpuRunError::InvalidConfig {
                setting: "block",
                value: self.launch.block.into(),
                why: "more threads per block than the device allows",
            });
        }
        if u64::from(self.shared_mem_bytes(ProgramKind::Thread)) > props.shared_mem_per_block as u64
        {
            return Err(GpuRunError::InvalidConfig {
                setting: "block",
                value: self.launch.block.into(),
                why: "its warps need more shared memory than the device gives a block \
                      (gtap_device::runtime::gpu::layout::WARP_SHARED_BYTES per warp)",
            });
        }
        if let Some(grid) = self.launch.grid {
            self.check_launch(
                props,
                grid,
                size_of::<Record<()>>() as u64,
                ProgramKind::Thread,
            )?;
        }
        Ok(())
    }

    /// Dynamic shared memory a block needs: [`WARP_SHARED_BYTES`] per warp for warps that run
    /// thread tasks; the runtime's block state and the scratch for blocks that run block tasks.
    pub(crate) fn shared_mem_bytes(&self, kind: ProgramKind) -> u32 {
        let warps = self.launch.block / 32 * WARP_SHARED_BYTES;
        let team = RUNTIME_SHARED_BYTES as u32 + self.limits.block_scratch;
        match kind {
            ProgramKind::Thread => warps,
            ProgramKind::Block => team,
            ProgramKind::Mixed => warps + team,
        }
    }

    /// Workers of a grid of `grid` blocks: a warp each (thread and mixed programs), or a block
    /// each (block programs).
    pub(crate) fn workers(&self, grid: u32, kind: ProgramKind) -> u64 {
        if kind == ProgramKind::Block {
            u64::from(grid)
        } else {
            u64::from(grid) * u64::from(self.launch.block) / 32
        }
    }

    /// Checks a launch of `grid` blocks of a program whose task records are `record_size`
    /// bytes against the device, and returns what it allocates. Every size is computed in
    /// checked `u64` arithmetic, so absurd settings are an error here, not an overflow or a
    /// failed allocation later.
    pub(crate) fn check_launch(
        &self,
        props: &DeviceProps,
        grid: u32,
        record_size: u64,
        kind: ProgramKind,
    ) -> Result<DeviceFootprint, GpuRunError> {
        if grid > props.max_grid_dim_x {
            return Err(GpuRunError::InvalidConfig {
                setting: "grid",
                value: grid.into(),
                why: "more blocks than the device's largest grid (x dimension)",
            });
        }
        if kind != ProgramKind::Thread
            && u64::from(self.shared_mem_bytes(kind)) > props.shared_mem_per_block as u64
        {
            return Err(GpuRunError::InvalidConfig {
                setting: "block_scratch",
                value: self.limits.block_scratch.into(),
                why: "the scratch and the runtime's block state (and, in a program with both \
                      kinds of task, the warps' state) need more shared memory than the device \
                      gives a block",
            });
        }
        let warps = self.workers(grid, kind);
        let records = warps * u64::from(self.launch.tasks_per_warp);
        if records > u64::from(u32::MAX - 1) {
            return Err(GpuRunError::InvalidConfig {
                setting: "tasks_per_warp",
                value: self.launch.tasks_per_warp.into(),
                why: "grid * block / 32 * tasks_per_warp task records exceed 2^32 ids",
            });
        }
        let footprint = DeviceFootprint::new(self, warps, record_size, kind);
        let total = props.total_mem as u64;
        let needed = footprint.total();
        if needed.is_none_or(|n| n > total) {
            let (what, setting, value) = footprint.largest(self, grid);
            return Err(GpuRunError::NotEnoughMemory {
                needed: needed.unwrap_or(u64::MAX),
                total,
                what,
                setting,
                value,
            });
        }
        Ok(footprint)
    }
}

/// The device memory of one run, in bytes per array (`None`: the size overflows `u64`). The
/// arrays are those of [`gtap_device::runtime::gpu::layout`]; `GpuRuntime::run` allocates
/// them with these sizes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct DeviceFootprint {
    /// Warps of the grid.
    pub warps: u64,
    /// Task records, plus 256 bytes for aligning them.
    pub records: Option<u64>,
    /// Free stacks: one record id per record.
    pub free_stacks: Option<u64>,
    /// Queue rings: one task id per entry.
    pub rings: Option<u64>,
    /// Queue states.
    pub deques: Option<u64>,
    /// Per-warp statistics, task counters and remote free lists.
    pub per_warp: Option<u64>,
    /// The profiler's events and per-warp headers (0 when profiling is off).
    pub profile: Option<u64>,
}

impl DeviceFootprint {
    fn new(config: &GpuConfig, warps: u64, record_size: u64, kind: ProgramKind) -> Self {
        let records = warps.checked_mul(config.launch.tasks_per_warp.into());
        let queues = warps.checked_mul(kind.queues(config.limits.num_queues).into());
        let entries = queues.and_then(|q| q.checked_mul(config.limits.queue_capacity.into()));
        DeviceFootprint {
            warps,
            records: records
                .and_then(|r| r.checked_mul(record_size))
                .and_then(|b| b.checked_add(256)),
            free_stacks: records.and_then(|r| r.checked_mul(4)),
            rings: entries.and_then(|e| e.checked_mul(4)),
            deques: queues.and_then(|q| q.checked_mul(size_of::<DequeState>() as u64)),
            per_warp: warps
                .checked_mul((size_of::<WarpStats>() + size_of::<TaskCounts>() + 4) as u64),
            profile: match config.launch.profile {
                None => Some(0),
                Some(n) => u64::from(n)
                    .checked_mul(size_of::<ProfileEvent>() as u64)
                    .and_then(|b| b.checked_add(size_of::<ProfileWarp>() as u64))
                    .and_then(|b| b.checked_mul(warps)),
            },
        }
    }

    fn parts(&self) -> [Option<u64>; 6] {
        [
            self.records,
            self.free_stacks,
            self.rings,
            self.deques,
            self.per_warp,
            self.profile,
        ]
    }

    /// All arrays together.
    pub fn total(&self) -> Option<u64> {
        self.parts()
            .into_iter()
            .try_fold(0u64, |sum, part| sum.checked_add(part?))
    }

    /// The largest array (an overflowing one first): what it is, and the setting and value
    /// that size it.
    fn largest(&self, config: &GpuConfig, grid: u32) -> (&'static str, &'static str, u64) {
        let named = [
            (
                "the task records",
                "tasks_per_warp",
                config.launch.tasks_per_warp,
            ),
            (
                "the free stacks",
                "tasks_per_warp",
                config.launch.tasks_per_warp,
            ),
            (
                "the task queues",
                "queue_capacity",
                config.limits.queue_capacity,
            ),
            ("the queue states", "num_queues", config.limits.num_queues),
            ("the per-warp statistics", "grid", grid),
            (
                "the profile buffer",
                "profile",
                config.launch.profile.unwrap_or(0),
            ),
        ];
        // An overflowing size (`None`) counts as the largest.
        let sizes = self.parts().map(|part| part.unwrap_or(u64::MAX));
        let mut largest = 0;
        for (i, &size) in sizes.iter().enumerate() {
            if size > sizes[largest] {
                largest = i;
            }
        }
        let (what, setting, value) = named[largest];
        (what, setting, value.into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_valid() {
        GpuConfig::new().validate().unwrap();
    }

    #[test]
    fn the_scheduling_defaults_follow_the_number_of_queues() {
        let one = Scheduling {
            top_up: 0,
            resume_inline: false,
            queue_order: QueueOrder::NextFull,
        };
        let several = Scheduling {
            top_up: 2,
            resume_inline: true,
            queue_order: QueueOrder::MostGenerated,
        };
        assert_eq!(GpuConfig::new().scheduling(), one);
        for q in 2..=8 {
            assert_eq!(
                GpuConfig::new().num_queues(q).scheduling(),
                several,
                "{q} queues"
            );
        }
        // What a configuration sets holds whatever the queues.
        let set = GpuConfig::new()
            .top_up(1)
            .resume_inline(false)
            .queue_order(QueueOrder::Stay);
        let want = Scheduling {
            top_up: 1,
            resume_inline: false,
            queue_order: QueueOrder::Stay,
        };
        assert_eq!(set.clone().scheduling(), want);
        assert_eq!(set.num_queues(3).scheduling(), want);
        assert_eq!(
            GpuConfig::new().num_queues(3).top_up(0).scheduling().top_up,
            0
        );
        // `steal_per_queue` needs top-up victims: several queues have them by default.
        GpuConfig::new()
            .num_queues(3)
            .steal_per_queue(true)
            .validate()
            .unwrap();
        assert!(GpuConfig::new().steal_per_queue(true).validate().is_err());
    }

    #[test]
    fn bad_settings_are_named() {
        for (cfg, setting) in [
            (GpuConfig::new().block(48), "block"),
            (GpuConfig::new().block(0), "block"),
            (GpuConfig::new().grid(0), "grid"),
            (GpuConfig::new().tasks_per_warp(0), "tasks_per_warp"),
            (GpuConfig::new().queue_capacity(1000), "queue_capacity"),
            (GpuConfig::new().num_queues(9), "num_queues"),
            (GpuConfig::new().num_queues(0), "num_queues"),
            (GpuConfig::new().timeout(Duration::ZERO), "timeout"),
            (GpuConfig::new().max_registers(8), "max_registers"),
            (GpuConfig::new().keep_unpublished(4096), "keep_unpublished"),
            (GpuConfig::new().profile(0), "profile"),
            (GpuConfig::new().profile((1 << 24) + 1), "profile"),
            (GpuConfig::new().steal_per_queue(true), "top_up"),
        ] {
            let err = cfg.validate().unwrap_err().to_string();
            assert!(err.contains(setting), "{err}");
        }
    }

    /// A device as small as can be: shared memory for two warps' state per block, a small
    /// grid, 64 MiB of memory.
    fn tiny_gpu() -> DeviceProps {
        DeviceProps {
            shared_mem_per_block: 2 * WARP_SHARED_BYTES as usize,
            max_grid_dim_x: 1000,
            total_mem: 64 << 20,
            ..crate::props::tests::h100()
        }
    }

    fn rejected(config: &GpuConfig, props: &DeviceProps) -> GpuRunError {
        config.validate().expect("valid without a device");
        config
            .validate_for(props)
            .expect_err("must be rejected for this device")
    }

    #[test]
    fn the_defaults_fit_an_h100() {
        let h100 = crate::props::tests::h100();
        GpuConfig::new().validate_for(&h100).unwrap();
        // The grid a run of the defaults uses on this device: 32 blocks per SM.
        let grid = 32 * h100.sm_count;
        let sizes = GpuConfig::new()
            .check_launch(&h100, grid, 512, ProgramKind::Thread)
            .unwrap();
        assert_eq!(sizes.warps, u64::from(grid));
        assert!(sizes.total().unwrap() < h100.total_mem as u64);
    }

    #[test]
    fn shared_memory_beyond_the_block_limit_is_rejected() {
        // A block limit of 3 warps' shared state: 2 warps fit, 4 do not.
        let gpu = DeviceProps {
            shared_mem_per_block: 3 * WARP_SHARED_BYTES as usize,
            ..tiny_gpu()
        };
        GpuConfig::new().block(64).validate_for(&gpu).unwrap();
        match rejected(&GpuConfig::new().block(128), &gpu) {
            GpuRunError::InvalidConfig {
                setting,
                value,
                why,
            } => {
                assert_eq!((setting, value), ("block", 128));
                assert!(why.contains("shared memory"), "{why}");
            }
            other => panic!("expected InvalidConfig for block, got {other:?}"),
        }
    }

    #[test]
    fn a_grid_beyond_the_device_limit_is_rejected() {
        GpuConfig::new()
            .grid(1000)
            .tasks_per_warp(16)
            .queue_capacity(64)
            .validate_for(&tiny_gpu())
            .unwrap();
        let err = rejected(&GpuConfig::new().grid(1001), &tiny_gpu());
        assert!(
            matches!(
                err,
                GpuRunError::InvalidConfig {
                    setting: "grid",
                    value: 1001,
                    ..
                }
            ),
            "{err:?}"
        );
    }

    #[test]
    fn more_memory_than_the_device_has_is_rejected_naming_the_largest_part() {
        // 100 warps of 4096 records of 32 bytes: 13 MiB of records, and 1.6 MiB of free stacks.
        let fits = GpuConfig::new().grid(100).tasks_per_warp(4096);
        fits.validate_for(&tiny_gpu()).unwrap();
        // 100 warps of 65536 records: 210 MiB of records.
        let err = rejected(&fits.clone().tasks_per_warp(1 << 16), &tiny_gpu());
        match &err {
            GpuRunError::NotEnoughMemory {
                setting,
                value,
                total,
                needed,
                ..
            } => {
                assert_eq!(
                    (*setting, *value, *total),
                    ("tasks_per_warp", 1 << 16, 64 << 20)
                );
                assert!(*needed > 100 * (1 << 16) * 32, "{needed}");
            }
            other => panic!("expected NotEnoughMemory, got {other:?}"),
        }
        let msg = err.to_string();
        assert!(
            msg.contains("GpuConfig::tasks_per_warp (now 65536)"),
            "{msg}"
        );
        // Queues the largest part: 100 warps of 8 queues of 2^16 entries, 200 MiB.
        let err = rejected(
            &fits.clone().num_queues(8).queue_capacity(1 << 16),
            &tiny_gpu(),
        );
        assert!(
            matches!(
                err,
                GpuRunError::NotEnoughMemory {
                    setting: "queue_capacity",
                    ..
                }
            ),
            "{err:?}"
        );
    }

    #[test]
    fn absurd_sizes_are_rejected_before_anything_is_allocated() {
        let h100 = crate::props::tests::h100();
        // The most records per warp with a large grid: more records than ids.
        let err = rejected(
            &GpuConfig::new().grid(1 << 20).tasks_per_warp(1 << 24),
            &h100,
        );
        assert!(
            matches!(
                err,
                GpuRunError::InvalidConfig {
                    setting: "tasks_per_warp",
                    ..
                }
            ),
            "{err:?}"
        );
        // The largest queues on a large grid: 2^49 bytes of rings.
        let err = rejected(
            &GpuConfig::new()
                .grid(1 << 20)
                .tasks_per_warp(1)
                .num_queues(8)
                .queue_capacity(1 << 24),
            &h100,
        );
        match err {
            GpuRunError::NotEnoughMemory {
                needed, setting, ..
            } => assert_eq!((needed >> 49, setting), (1, "queue_capacity")),
            other => panic!("expected NotEnoughMemory, got {other:?}"),
        }
    }

    #[test]
    fn profiling_is_off_by_default_and_its_range_is_checked() {
        assert_eq!(GpuConfig::new().launch().profile(), None);
        GpuConfig::new().profile(1).validate().unwrap();
        GpuConfig::new().profile(1 << 24).validate().unwrap();
        let err = GpuConfig::new()
            .profile(0)
            .validate()
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("profile = 0") && err.contains("GpuConfig::no_profile"),
            "{err}"
        );
        let off = GpuConfig::new().profile(8).no_profile();
        assert_eq!(off.launch().profile(), None);
    }

    #[test]
    fn the_footprint_includes_the_profile_buffer() {
        let h100 = crate::props::tests::h100();
        let plain = GpuConfig::new().grid(10).block(64);
        let off = plain
            .check_launch(&h100, 10, 512, ProgramKind::Thread)
            .unwrap();
        assert_eq!(off.profile, Some(0));
        let on = plain
            .clone()
            .profile(1000)
            .check_launch(&h100, 10, 512, ProgramKind::Thread)
            .unwrap();
        // 20 warps of 1000 events of 64 bytes and a 16-byte header.
        assert_eq!(size_of::<ProfileEvent>(), 64);
        assert_eq!(on.profile, Some(20 * (1000 * 64 + 16)));
        assert_eq!(
            on.total().unwrap() - off.total().unwrap(),
            20 * (1000 * 64 + 16)
        );
        // A profile larger than the device's memory is named as the largest part.
        let err = rejected(&plain.profile(1 << 24).grid(1000), &h100);
        match err {
            GpuRunError::NotEnoughMemory { setting, value, .. } => {
                assert_eq!((setting, value), ("profile", 1 << 24))
            }
            other => panic!("expected NotEnoughMemory, got {other:?}"),
        }
    }

    #[test]
    fn sizes_that_overflow_u64_count_as_the_largest() {
        let config = GpuConfig::new().num_queues(8).queue_capacity(1 << 24);
        let sizes = DeviceFootprint::new(&config, 1 << 40, 32, ProgramKind::Thread);
        assert_eq!(sizes.rings, None);
        assert_eq!(sizes.total(), None);
        assert_eq!(
            sizes.largest(&config, 1 << 30),
            ("the task queues", "queue_capacity", 1 << 24)
        );
    }

    #[test]
    fn the_kernel_follows_profiling_then_the_scheduler() {
        let suffix = |c: GpuConfig| c.lab_kernel().map(|(s, _)| s);
        assert_eq!(suffix(GpuConfig::new()), None);
        let one = GpuConfig::new().scheduler(Scheduler::OneAtATime);
        let global = GpuConfig::new().scheduler(Scheduler::GlobalQueue);
        assert_eq!(suffix(one.clone()), Some("one_at_a_time"));
        assert_eq!(suffix(global.clone()), Some("global_queue"));
        for c in [GpuConfig::new(), one, global] {
            assert_eq!(suffix(c.clone().profile(64)), Some("profiled"));
            assert_eq!(c.needs_lab_kernels(), c.lab_kernel().is_some());
        }
    }
}
