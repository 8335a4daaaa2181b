//! A run's plan: every check a run can fail before it touches device memory, and the length of
//! every device array it uses.
//!
//! The checks and the arithmetic are pure (a configuration, the device's properties and the
//! program's host-side sizes in; a [`RunPlan`] or the error out), so they are tested here on
//! the CPU, and the later steps (buffers, control block, launch, decode) take every size from
//! the one plan instead of recomputing it. The two inputs that need a GPU, the grid (from the
//! kernel's occupancy) and the kernel's thread limit, come in as arguments; the limit as a
//! closure, asked only once the launch passed the device's checks, so that a launch the device
//! cannot take is reported as such whatever the kernel's limit.

use std::mem::{align_of, size_of};

use cudarc::driver::LaunchConfig;
use gtap_device::runtime::gpu::layout::NONE;
use gtap_device::runtime::gpu::layout::{
    GlobalQueue, ProfileEvent, ProfileWarp, TaskCounts, WarpStats,
};
use gtap_device::runtime::granularity::LEVELS;
use gtap_device::runtime::record::Record;
use gtap_device::runtime::reserve::{CHUNK_RECORDS, ReserveState};
use gtap_device::task::Program;

use super::config::{DeviceFootprint, ProgramKind};
use super::{GpuConfig, GpuRunError, Scheduler};
use crate::DeviceProps;

/// The roots a launch runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Roots {
    /// This many, built by the warps at the kernel's start (1 for `GpuRuntime::run`).
    Batch(usize),
    /// A resident session's: none at the start, taken from its ring while the kernel runs
    /// (planned as a run of one root, with a `running` array: [`RunPlan::resident`]).
    Resident,
}

/// What a run needs to know of its program `P` and root result type `R`: the sizes and
/// alignment as the host compiled them (the kernel checks the records' and the arguments'
/// against its own).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct ProgramShape {
    /// `P::NAME`, for messages.
    pub name: &'static str,
    /// `P::BLOCK`: block tasks, one worker per thread block.
    pub block: bool,
    /// `P::MIXED`: thread tasks and block tasks both.
    pub mixed: bool,
    /// `size_of::<Record<P::Task>>()`.
    pub record_size: usize,
    /// `align_of::<Record<P::Task>>()`.
    pub record_align: usize,
    /// `size_of::<P::Args>()`: the root's arguments.
    pub args_size: usize,
    /// `size_of::<R>()`: the root's result.
    pub result_size: usize,
}

impl ProgramShape {
    /// How the program's workers are laid out.
    pub fn kind(&self) -> ProgramKind {
        ProgramKind::of(self.block, self.mixed)
    }

    /// The shape of program `P` run for a root result `R`.
    pub fn of<P: Program, R>() -> ProgramShape {
        ProgramShape {
            name: P::NAME,
            block: P::BLOCK,
            mixed: P::MIXED,
            record_size: size_of::<Record<P::Task>>(),
            record_align: align_of::<Record<P::Task>>(),
            args_size: size_of::<P::Args>(),
            result_size: size_of::<R>(),
        }
    }
}

/// Refuses, for a program with block tasks (of one kind or both), the settings only thread
/// programs support.
pub(super) fn check_program(cfg: &GpuConfig, program: &ProgramShape) -> Result<(), GpuRunError> {
    if program.block {
        let unsupported = if cfg.tuning.scheduler != Scheduler::WorkStealing {
            Some("the ablation schedulers (GpuConfig::scheduler)")
        } else if cfg.launch.profile.is_some() {
            Some("the per-warp profiler (GpuConfig::profile)")
        } else {
            None
        };
        if let Some(what) = unsupported {
            return Err(GpuRunError::NotForBlockPrograms {
                program: program.name,
                what,
            });
        }
    }
    Ok(())
}

/// Everything a run launches with, checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct RunPlan {
    /// The program's sizes.
    pub program: ProgramShape,
    /// Blocks launched.
    pub grid: u32,
    /// Threads per block.
    pub block: u32,
    /// Dynamic shared memory per block.
    pub shared_mem_bytes: u32,
    /// Workers of the grid: warps (thread programs) or blocks (block programs).
    pub warps: usize,
    /// The global-queue ablation is on.
    pub global: bool,
    /// Entries of the global queue's ring (a power of two), 1 when the ablation is off.
    pub global_capacity: u32,
    /// Profile events per warp, 0 when profiling is off.
    pub profile_capacity: u32,
    /// Root tasks of the run (1, or a batch's).
    pub roots: u32,
    /// Chunks of the record reserve ([`reserve_chunks`]).
    pub reserve_chunks: u32,
    /// The length of each device array.
    pub lens: ArrayLens,
}

impl RunPlan {
    /// The plan of a run of one root of `program` on `grid` blocks with `cfg` on a device with
    /// `props` ([`RunPlan::batch`] with one root, and no free memory for a default reserve).
    #[cfg(test)]
    pub fn new(
        cfg: &GpuConfig,
        props: &DeviceProps,
        grid: u32,
        program: ProgramShape,
        max_threads: impl FnOnce() -> Result<i32, GpuRunError>,
    ) -> Result<RunPlan, GpuRunError> {
        RunPlan::batch(cfg, props, grid, program, 1, 0, max_threads)
    }

    /// The plan of a run of `roots` roots of `program` on `grid` blocks with `cfg` on a device
    /// with `props`, `free_bytes` of whose memory the run's records may take (for the
    /// reserve's default size); `max_threads` gives the kernel's most threads per block (asked
    /// only once the device's memory and grid checks passed).
    #[allow(clippy::too_many_arguments)]
    pub fn batch(
        cfg: &GpuConfig,
        props: &DeviceProps,
        grid: u32,
        program: ProgramShape,
        roots: usize,
        free_bytes: u64,
        max_threads: impl FnOnce() -> Result<i32, GpuRunError>,
    ) -> Result<RunPlan, GpuRunError> {
        // Every size below comes from here: checked against the device before any allocation.
        let kind = program.kind();
        let sizes = cfg.check_launch(props, grid, program.record_size as u64, kind)?;
        let reserve_chunks = reserve_chunks(cfg, props, &sizes, program.record_size, free_bytes)?;
        // The driver's compiler fixed the kernel's registers per thread, which bound the
        // threads of a block: say so, rather than fail the launch "out of resources".
        let max_threads = max_threads()?;
        if i64::from(cfg.launch.block) > i64::from(max_threads) {
            return Err(GpuRunError::InvalidConfig {
                setting: "block",
                value: cfg.launch.block.into(),
                why: "more threads per block than this program's kernel can launch with its \
                      registers per thread: use fewer threads, or cap the registers \
                      (GpuConfig::max_registers)",
            });
        }
        let warps = sizes.warps as usize;
        let roots = check_batch(cfg, &program, warps, roots)?;
        let global = cfg.tuning.scheduler == Scheduler::GlobalQueue;
        let global_capacity = global_capacity(cfg, warps)?;
        let profile_capacity = cfg.launch.profile.unwrap_or(0);
        Ok(RunPlan {
            program,
            grid,
            block: cfg.launch.block,
            shared_mem_bytes: cfg.shared_mem_bytes(kind),
            warps,
            global,
            global_capacity,
            profile_capacity,
            roots,
            reserve_chunks,
            lens: ArrayLens::new(
                &sizes,
                &program,
                grid,
                roots,
                global_capacity,
                profile_capacity,
            )
            .with_reserve(reserve_chunks, program.record_size)
            .with_running(grid as usize * cfg.launch.block as usize, roots),
        })
    }

    /// This plan for a resident session's launch: it has a `running` array, as a batch has,
    /// whatever its count of roots (a session starts with none and takes many while it
    /// runs), so that a panicking task can name its root's slot.
    pub fn resident(mut self) -> RunPlan {
        self.lens.running = self.threads();
        self
    }

    /// Threads the kernel is launched with.
    fn threads(&self) -> usize {
        self.grid as usize * self.block as usize
    }

    /// The kernel's launch shape: `grid` blocks of `block` threads, one dimension.
    pub fn launch_config(&self) -> LaunchConfig {
        LaunchConfig {
            grid_dim: (self.grid, 1, 1),
            block_dim: (self.block, 1, 1),
            shared_mem_bytes: self.shared_mem_bytes,
        }
    }
}

/// Checks that a batch of `roots` roots fits a launch of `workers` workers: each builds its
/// share at the start and queues it (see `gtap_device::runtime::gpu::layout::roots_built`),
/// so a share may take at most half of a worker's records and of its queue, leaving the rest
/// for the roots' children. Returns the count as the control block holds it.
fn check_batch(
    cfg: &GpuConfig,
    program: &ProgramShape,
    workers: usize,
    roots: usize,
) -> Result<u32, GpuRunError> {
    if roots > 1 && program.mixed {
        return Err(GpuRunError::NotForBlockPrograms {
            program: program.name,
            what: "several roots in one launch (run_batch) when they are mixed with thread tasks",
        });
    }
    if roots > 1 && cfg.tuning.scheduler == Scheduler::GlobalQueue {
        // Its warps take from the global queue, never from the per-warp queues the roots
        // start in.
        return Err(GpuRunError::InvalidConfig {
            setting: "scheduler",
            value: roots as u64,
            why: "the global-queue ablation runs one root per launch: use run, or work stealing",
        });
    }
    let per_worker = u32::try_from(roots.div_ceil(workers.max(1))).unwrap_or(u32::MAX);
    let bounds = [
        ("tasks_per_warp", cfg.launch.tasks_per_warp),
        ("queue_capacity", cfg.limits.queue_capacity),
    ];
    for (setting, limit) in bounds {
        if roots > 1 && per_worker > limit / 2 {
            return Err(GpuRunError::BatchTooLarge {
                roots,
                per_worker,
                workers,
                setting,
                limit,
            });
        }
    }
    u32::try_from(roots).map_err(|_| GpuRunError::BatchTooLarge {
        roots,
        per_worker,
        workers,
        setting: "tasks_per_warp",
        limit: cfg.launch.tasks_per_warp,
    })
}

/// The global-queue ablation's ring: as large as all the warps' rings together (a power of
/// two); a single slot when the ablation is off.
fn global_capacity(cfg: &GpuConfig, warps: usize) -> Result<u32, GpuRunError> {
    Ok(if cfg.tuning.scheduler == Scheduler::GlobalQueue {
        u32::try_from((warps as u64 * u64::from(cfg.limits.queue_capacity)).next_power_of_two())
            .ok()
            .filter(|c| *c <= 1 << 30)
            .ok_or(GpuRunError::InvalidConfig {
                setting: "queue_capacity",
                value: cfg.limits.queue_capacity.into(),
                why: "the global queue (warps x queue_capacity entries) exceeds 2^30 entries",
            })?
    } else {
        1
    })
}

/// The default reserve's share of the memory a run's other arrays leave free: a quarter, so
/// that several runtimes of a process (one per thread, say) each get one.
const RESERVE_SHARE: u64 = 4;
/// The default reserve's most bytes.
const RESERVE_MAX_BYTES: u64 = 8 << 30;

/// Chunks of the record reserve for a run whose other arrays are `sizes`, with records of
/// `record_size` bytes: as [`GpuLaunch::reserve_records`](super::GpuLaunch::reserve_records)
/// says, the set number (checked against the device's memory and the ids), or a share of the
/// `free_bytes` the records may take. Record ids stay below `NONE`.
fn reserve_chunks(
    cfg: &GpuConfig,
    props: &DeviceProps,
    sizes: &DeviceFootprint,
    record_size: usize,
    free_bytes: u64,
) -> Result<u32, GpuRunError> {
    let slab = sizes.warps * u64::from(cfg.launch.tasks_per_warp);
    let chunk = u64::from(CHUNK_RECORDS);
    let id_room = (u64::from(NONE) - 1).saturating_sub(slab) / chunk;
    // The records of a chunk and its two words.
    let chunk_bytes = chunk * record_size as u64 + 8;
    let others = sizes.total().unwrap_or(u64::MAX);
    let chunks = match cfg.launch.reserve_records {
        None => {
            let share = free_bytes.saturating_sub(others) / RESERVE_SHARE;
            (share.min(RESERVE_MAX_BYTES) / chunk_bytes).min(id_room)
        }
        Some(records) => {
            let chunks = u64::from(records).div_ceil(chunk);
            if chunks > id_room {
                return Err(GpuRunError::InvalidConfig {
                    setting: "reserve_records",
                    value: records.into(),
                    why: "the slabs and the reserve together exceed 2^32 record ids",
                });
            }
            let needed = others.saturating_add(chunks * chunk_bytes);
            if needed > props.total_mem as u64 {
                return Err(GpuRunError::NotEnoughMemory {
                    needed,
                    total: props.total_mem as u64,
                    what: "the task records' reserve",
                    setting: "reserve_records",
                    value: records.into(),
                });
            }
            chunks
        }
    };
    Ok(u32::try_from(chunks).unwrap_or(u32::MAX))
}

/// A part of a [`DeviceFootprint`] in bytes as a `usize`. Each part fits in the device's
/// memory (`check_launch`), whose size is a `usize`; an unknown size (never, after that check)
/// would be a failed allocation, not a panic.
fn bytes(part: Option<u64>) -> usize {
    part.and_then(|b| usize::try_from(b).ok())
        .unwrap_or(usize::MAX)
}

/// The length of each device array of a run, in its elements: bytes for the arrays of
/// `u8`, task ids for those of `u32` (`rings`, `free_stacks`, `remote_free`, `global_ring`).
/// The buffers step grows each array to at least this (and to at least one element).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct ArrayLens {
    /// Task records (bytes, with room to align them).
    pub records: usize,
    /// Queue rings (ids).
    pub rings: usize,
    /// Queue states (bytes).
    pub deques: usize,
    /// Free stacks (ids).
    pub free_stacks: usize,
    /// Remote free list heads (ids), one per warp.
    pub remote_free: usize,
    /// Per-warp [`WarpStats`] (bytes).
    pub stats: usize,
    /// Per-warp [`TaskCounts`] (bytes).
    pub counters: usize,
    /// The global queue's [`GlobalQueue`] state (bytes).
    pub global_queue: usize,
    /// The global queue's ring (ids).
    pub global_ring: usize,
    /// The roots' results (bytes).
    pub result: usize,
    /// The roots' arguments (bytes).
    pub args: usize,
    /// The profiler's events (bytes; 0 when profiling is off).
    pub profile_events: usize,
    /// The profiler's per-warp headers (bytes).
    pub profile_warps: usize,
    /// Mixed programs: the block board, one count per thread block (0 for other programs).
    pub block_board: usize,
    /// The reserve's state (`u64` words: the free list's head, then the bump counter).
    pub reserve: usize,
    /// Per chunk of the reserve, its link and its live count (`u32`s).
    pub chunk_words: usize,
    /// A batch or a resident session: the record each launched thread runs now (ids), for
    /// naming the root of a task that panics (0 for a run of one root).
    pub running: usize,
    /// The granularity policy's counts of the tree's levels (`u64`s, `GpuRun::fanout`).
    pub fanout: usize,
}

impl ArrayLens {
    fn new(
        sizes: &DeviceFootprint,
        program: &ProgramShape,
        grid: u32,
        roots: u32,
        global_capacity: u32,
        profile_capacity: u32,
    ) -> ArrayLens {
        let warps = sizes.warps as usize;
        ArrayLens {
            records: bytes(sizes.records),
            rings: bytes(sizes.rings) / size_of::<u32>(),
            deques: bytes(sizes.deques),
            free_stacks: bytes(sizes.free_stacks) / size_of::<u32>(),
            remote_free: warps,
            stats: warps * size_of::<WarpStats>(),
            counters: warps * size_of::<TaskCounts>(),
            global_queue: size_of::<GlobalQueue>(),
            global_ring: global_capacity as usize,
            result: program.result_size * roots as usize,
            args: program.args_size * roots as usize,
            profile_events: warps * profile_capacity as usize * size_of::<ProfileEvent>(),
            profile_warps: warps * size_of::<ProfileWarp>(),
            block_board: if program.mixed { grid as usize } else { 0 },
            reserve: size_of::<ReserveState>() / size_of::<u64>(),
            chunk_words: 0,
            running: 0,
            fanout: LEVELS as usize,
        }
    }

    /// These lengths with a `running` array for `threads` launched threads when the run has
    /// more than one of its `roots`.
    fn with_running(mut self, threads: usize, roots: u32) -> ArrayLens {
        self.running = if roots > 1 { threads } else { 0 };
        self
    }

    /// These lengths with a reserve of `chunks` chunks of records of `record_size` bytes
    /// after the slabs.
    fn with_reserve(mut self, chunks: u32, record_size: usize) -> ArrayLens {
        let records = chunks as usize * CHUNK_RECORDS as usize;
        self.records = self
            .records
            .saturating_add(records.saturating_mul(record_size));
        self.chunk_words = 2 * chunks as usize;
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::props::tests::h100;

    fn shape(block: bool) -> ProgramShape {
        ProgramShape {
            name: "test",
            block,
            mixed: false,
            record_size: 512,
            record_align: 16,
            args_size: 12,
            result_size: 8,
        }
    }

    fn plan(cfg: &GpuConfig, grid: u32, block: bool) -> Result<RunPlan, GpuRunError> {
        RunPlan::new(cfg, &h100(), grid, shape(block), || Ok(1024))
    }

    #[test]
    fn block_programs_refuse_the_ablations_and_the_profiler() {
        let refused = |cfg: GpuConfig| match check_program(&cfg, &shape(true)) {
            Err(GpuRunError::NotForBlockPrograms { program, what }) => {
                assert_eq!(program, "test");
                what
            }
            other => panic!("expected NotForBlockPrograms, got {other:?}"),
        };
        assert!(refused(GpuConfig::new().scheduler(Scheduler::GlobalQueue)).contains("scheduler"));
        assert!(refused(GpuConfig::new().scheduler(Scheduler::OneAtATime)).contains("scheduler"));
        assert!(refused(GpuConfig::new().profile(64)).contains("profile"));
        check_program(&GpuConfig::new(), &shape(true)).unwrap();
        // Thread programs take all of them.
        let all = GpuConfig::new()
            .scheduler(Scheduler::GlobalQueue)
            .profile(64);
        check_program(&all, &shape(false)).unwrap();
    }

    #[test]
    fn batches_and_resident_sessions_note_each_threads_task() {
        let cfg = GpuConfig::new().block(64).tasks_per_warp(64);
        let batch =
            |roots| RunPlan::batch(&cfg, &h100(), 20, shape(false), roots, 1 << 30, || Ok(1024));
        // One word per launched thread (20 blocks of 64), for a panic to name its root.
        assert_eq!(batch(2).unwrap().lens.running, 20 * 64);
        // One root needs no naming.
        let one = batch(1).unwrap();
        let one_lens = one.lens;
        assert_eq!(one_lens.running, 0);
        // A session is planned as one root, and takes many while it runs.
        let resident = one.resident();
        assert_eq!(resident.lens.running, 20 * 64);
        assert_eq!(resident.roots, 1);
        let others = ArrayLens {
            running: 0,
            ..resident.lens
        };
        assert_eq!(others, one_lens, "only the running array differs");
    }

    #[test]
    fn a_batch_sizes_its_arrays_and_must_fit_half_a_worker() {
        let cfg = GpuConfig::new()
            .block(64)
            .tasks_per_warp(64)
            .queue_capacity(128);
        // 20 blocks of 2 warps: 40 workers.
        let batch =
            |roots| RunPlan::batch(&cfg, &h100(), 20, shape(false), roots, 1 << 30, || Ok(1024));
        let p = batch(1000).unwrap();
        assert_eq!((p.roots, p.lens.args, p.lens.result), (1000, 12_000, 8000));
        // 40 x 32 roots fit (half of 64 records each); one more does not.
        batch(40 * 32).unwrap();
        match batch(40 * 32 + 1).unwrap_err() {
            GpuRunError::BatchTooLarge {
                per_worker,
                workers,
                setting,
                limit,
                ..
            } => assert_eq!(
                (per_worker, workers, setting, limit),
                (33, 40, "tasks_per_warp", 64)
            ),
            other => panic!("expected BatchTooLarge, got {other:?}"),
        }
        let mixed = ProgramShape {
            mixed: true,
            ..shape(true)
        };
        let refused =
            RunPlan::batch(&cfg, &h100(), 20, mixed, 2, 1 << 30, || Ok(1024)).unwrap_err();
        assert!(
            matches!(refused, GpuRunError::NotForBlockPrograms { .. }),
            "{refused:?}"
        );
        RunPlan::batch(&cfg, &h100(), 20, mixed, 1, 1 << 30, || Ok(1024)).unwrap();
    }

    #[test]
    fn mixed_programs_refuse_what_block_programs_refuse() {
        let mixed = ProgramShape {
            mixed: true,
            ..shape(true)
        };
        check_program(&GpuConfig::new(), &mixed).unwrap();
        let err = check_program(&GpuConfig::new().profile(64), &mixed).unwrap_err();
        assert!(
            matches!(
                err,
                GpuRunError::NotForBlockPrograms {
                    program: "test",
                    ..
                }
            ),
            "{err:?}"
        );
    }

    #[test]
    fn a_mixed_program_has_a_worker_per_warp_and_a_block_queue_each() {
        let cfg = GpuConfig::new().block(256).num_queues(2);
        let mixed = ProgramShape {
            mixed: true,
            ..shape(true)
        };
        let p = RunPlan::new(&cfg, &h100(), 10, mixed, || Ok(1024)).unwrap();
        assert_eq!(p.warps, 80);
        let thread = RunPlan::new(&cfg, &h100(), 10, shape(false), || Ok(1024)).unwrap();
        assert_eq!(p.warps, thread.warps);
        assert_eq!((p.lens.block_board, thread.lens.block_board), (10, 0));
        // Three queues per warp (two EPAQ queues and the block queue) against two.
        assert_eq!(p.lens.rings * 2, thread.lens.rings * 3);
        assert_eq!(p.lens.deques * 2, thread.lens.deques * 3);
        // The block's state and scratch, then the warps' states.
        assert_eq!(
            p.shared_mem_bytes,
            cfg.shared_mem_bytes(ProgramKind::Block) + cfg.shared_mem_bytes(ProgramKind::Thread)
        );
    }

    #[test]
    fn the_lengths_are_the_footprint_in_elements() {
        let cfg = GpuConfig::new().block(128).profile(10);
        let p = plan(&cfg, 100, false).unwrap();
        let sizes = cfg
            .check_launch(&h100(), 100, 512, ProgramKind::Thread)
            .unwrap();
        assert_eq!(p.warps, 400);
        assert_eq!(p.block, 128);
        assert_eq!(
            p.shared_mem_bytes,
            cfg.shared_mem_bytes(ProgramKind::Thread)
        );
        let l = p.lens;
        assert_eq!(Some(l.records as u64), sizes.records);
        assert_eq!(
            l.records,
            400 * cfg.launch.tasks_per_warp as usize * 512 + 256,
            "records and their alignment"
        );
        assert_eq!(Some(4 * l.rings as u64), sizes.rings);
        assert_eq!(Some(l.deques as u64), sizes.deques);
        assert_eq!(Some(4 * l.free_stacks as u64), sizes.free_stacks);
        assert_eq!(
            Some((l.stats + l.counters + 4 * l.remote_free) as u64),
            sizes.per_warp
        );
        assert_eq!(
            Some((l.profile_events + l.profile_warps) as u64),
            sizes.profile
        );
        assert_eq!(l.profile_events, 400 * 10 * size_of::<ProfileEvent>());
        assert_eq!((l.result, l.args), (8, 12));
        assert_eq!(l.global_queue, size_of::<GlobalQueue>());
        assert_eq!((p.global, p.global_capacity, l.global_ring), (false, 1, 1));
        assert_eq!(p.profile_capacity, 10);
    }

    #[test]
    fn a_block_program_has_one_worker_per_block() {
        let cfg = GpuConfig::new().block(256);
        let p = plan(&cfg, 50, true).unwrap();
        assert_eq!(p.warps, 50);
        assert_eq!(p.lens.remote_free, 50);
        assert_eq!(p.shared_mem_bytes, cfg.shared_mem_bytes(ProgramKind::Block));
        let launch = p.launch_config();
        assert_eq!(
            (launch.grid_dim, launch.block_dim, launch.shared_mem_bytes),
            (
                (50, 1, 1),
                (256, 1, 1),
                cfg.shared_mem_bytes(ProgramKind::Block)
            )
        );
    }

    #[test]
    fn the_global_ring_holds_every_warps_ring_rounded_up() {
        let cfg = GpuConfig::new()
            .block(96)
            .queue_capacity(64)
            .scheduler(Scheduler::GlobalQueue);
        // 10 blocks of 3 warps: 30 * 64 entries, rounded up to 2048.
        let p = plan(&cfg, 10, false).unwrap();
        assert_eq!(
            (p.global, p.global_capacity, p.lens.global_ring),
            (true, 2048, 2048)
        );
        match global_capacity(&cfg.clone().queue_capacity(1 << 20), 1 << 11) {
            Err(GpuRunError::InvalidConfig { setting, .. }) => {
                assert_eq!(setting, "queue_capacity")
            }
            other => panic!("expected InvalidConfig, got {other:?}"),
        }
        assert_eq!(
            global_capacity(&cfg.clone().queue_capacity(1 << 20), 1 << 10).unwrap(),
            1 << 30
        );
    }

    #[test]
    fn more_threads_than_the_kernel_takes_are_refused_after_the_device_checks() {
        let cfg = GpuConfig::new().block(1024);
        match RunPlan::new(&cfg, &h100(), 10, shape(false), || Ok(512)) {
            Err(GpuRunError::InvalidConfig { setting, value, .. }) => {
                assert_eq!((setting, value), ("block", 1024))
            }
            other => panic!("expected InvalidConfig for block, got {other:?}"),
        }
        RunPlan::new(&cfg, &h100(), 10, shape(false), || Ok(1024)).unwrap();
        // A grid the device cannot launch is named before the kernel is asked anything.
        let grid = h100().max_grid_dim_x + 1;
        match RunPlan::new(&cfg, &h100(), grid, shape(false), || {
            panic!("the thread limit must not be asked")
        }) {
            Err(GpuRunError::InvalidConfig { setting, .. }) => assert_eq!(setting, "grid"),
            other => panic!("expected InvalidConfig for grid, got {other:?}"),
        }
    }

    #[test]
    fn sizes_past_usize_are_a_failed_allocation_not_a_panic() {
        assert_eq!(bytes(None), usize::MAX);
        assert_eq!(bytes(Some(12)), 12);
    }

    /// A plan of 20 blocks of 32 threads (20 warps of 4096 records of 512 bytes) given
    /// `free` bytes for its records.
    fn with_free(cfg: &GpuConfig, free: u64) -> Result<RunPlan, GpuRunError> {
        RunPlan::batch(cfg, &h100(), 20, shape(false), 1, free, || Ok(1024))
    }

    #[test]
    fn the_default_reserve_takes_a_quarter_of_the_memory_the_other_arrays_leave() {
        let cfg = GpuConfig::new();
        let base = with_free(&cfg, 0).unwrap();
        assert_eq!(base.reserve_chunks, 0, "no memory free: no reserve");
        let others = cfg
            .check_launch(&h100(), 20, 512, ProgramKind::Thread)
            .unwrap()
            .total()
            .unwrap();
        let chunk_bytes = 1024 * 512 + 8;
        let plan = with_free(&cfg, others + 100 * chunk_bytes).unwrap();
        assert_eq!(plan.reserve_chunks, 25);
        assert_eq!(plan.lens.records, base.lens.records + 25 * 1024 * 512);
        assert_eq!(plan.lens.chunk_words, 50);
        // At most 8 GiB, however much is free.
        let big = with_free(&cfg, 1 << 40).unwrap();
        assert_eq!(big.reserve_chunks as u64, (8 << 30) / chunk_bytes);
    }

    #[test]
    fn a_set_reserve_is_whole_chunks_and_checked() {
        let plan = with_free(&GpuConfig::new().reserve_records(1025), 0).unwrap();
        assert_eq!(plan.reserve_chunks, 2, "rounded up to whole chunks");
        let none = with_free(&GpuConfig::new().reserve_records(0), 1 << 40).unwrap();
        assert_eq!(none.reserve_chunks, 0);
        match with_free(&GpuConfig::new().reserve_records(1 << 31), 0).unwrap_err() {
            GpuRunError::NotEnoughMemory { setting, .. } => assert_eq!(setting, "reserve_records"),
            other => panic!("expected NotEnoughMemory, got {other:?}"),
        }
        // Ids: 200 warps of 2^24 records leave room for fewer chunks than 16 GiB would hold.
        let wide = GpuConfig::new().tasks_per_warp(1 << 24);
        let room = (u64::from(u32::MAX - 1) - 200 * (1 << 24)) / 1024;
        let shape1 = ProgramShape {
            record_size: 8,
            ..shape(false)
        };
        let auto = RunPlan::batch(&wide, &h100(), 200, shape1, 1, 1 << 40, || Ok(1024)).unwrap();
        assert_eq!(u64::from(auto.reserve_chunks), room, "capped by the ids");
        let too_many = wide.reserve_records(u32::MAX);
        match RunPlan::batch(&too_many, &h100(), 200, shape1, 1, 0, || Ok(1024)).unwrap_err() {
            GpuRunError::InvalidConfig { setting, .. } => assert_eq!(setting, "reserve_records"),
            other => panic!("expected InvalidConfig, got {other:?}"),
        }
    }
}
