//! The control block: the one [`GpuRun`] the kernel takes as its argument, holding the run's
//! configuration, the addresses of its arrays, and the words the kernel reports back in.
//!
//! Filling it is pure (configuration, plan and addresses in, a `GpuRun` out), so which
//! setting becomes which field or [`tuning`] bit is tested here on the CPU; copying it to the
//! device is the only device work. The fields the kernel reports in (`stop`, the error words)
//! start at zero, from `GpuRun::default()`.

use std::mem::size_of;
use std::sync::Arc;

use cudarc::driver::{CudaSlice, CudaStream};
use gtap_device::runtime::gpu::layout::{GpuRun, NONE, POLL_STRIDE, inject_flags, tuning};
use gtap_device::runtime::granularity::{Granularity, ceil_log2};

use super::buffers::{DeviceArrays, addr, ensure};
use super::config::ProgramKind;
use super::error::driver;
use super::plan::RunPlan;
use super::{GpuConfig, GpuRunError, QueueOrder, Scheduler};

/// The control block of a run of `plan` with `cfg`, its arrays at `arrays`, a panicking task
/// reporting at device address `panic_report`.
pub(super) fn control_block(
    cfg: &GpuConfig,
    plan: &RunPlan,
    arrays: &DeviceArrays,
    panic_report: u64,
) -> GpuRun {
    let kind = plan.program.kind();
    GpuRun {
        records: arrays.records,
        rings: arrays.rings,
        deques: arrays.deques,
        free_stacks: arrays.free_stacks,
        remote_free: arrays.remote_free,
        stats: arrays.stats,
        counters: arrays.counters,
        global_queue: arrays.global_queue,
        global_ring: arrays.global_ring,
        global_capacity: if plan.global { plan.global_capacity } else { 0 },
        root_result: arrays.root_result,
        root_args: arrays.root_args,
        num_warps: plan.warps as u32,
        num_queues: kind.queues(cfg.limits.num_queues),
        queue_capacity: cfg.limits.queue_capacity,
        tasks_per_warp: cfg.launch.tasks_per_warp,
        record_size: plan.program.record_size as u32,
        record_align: plan.program.record_align as u32,
        steal_attempts: cfg.tuning.steal_attempts,
        top_up: cfg.scheduling().top_up,
        panic_report,
        running: arrays.running,
        args_size: plan.program.args_size as u32,
        num_roots: plan.roots,
        result_size: plan.program.result_size as u32,
        roots_left: plan.roots,
        error_record: NONE,
        keep_max: keep_max(cfg, kind),
        timeout_ns: u64::try_from(cfg.limits.timeout.as_nanos()).unwrap_or(u64::MAX),
        profile_events: arrays.profile_events,
        profile_warps: arrays.profile_warps,
        block_board: arrays.block_board,
        fanout: arrays.fanout,
        reserve: arrays.reserve,
        chunk_words: arrays.chunk_words,
        reserve_chunks: plan.reserve_chunks,
        slab_records: plan.warps as u32 * cfg.launch.tasks_per_warp,
        profile_capacity: plan.profile_capacity,
        tuning: tuning_bits(cfg, kind),
        granularity: granularity(cfg, plan),
        grid_heavy_rounds: grid_heavy_rounds(cfg, plan),
        ..GpuRun::default()
    }
}

/// A resident session's longest idle sleep of a warp, in ns: its warps idle between roots,
/// and a shorter sleep measured no faster on roots with work
/// (results/2026-11-26-resident-latency-h200.md). A plain run's warps sleep less (the
/// device's `IDLE_SLEEP_MAX_NS`).
const RESIDENT_IDLE_NS: u32 = 4096;

/// Turns `block`, a control block for one root, into a resident session's: no roots at the
/// start (the kernel takes them from `ring`), no timeout (the kernel waits for roots for as
/// long as the session lives; the host bounds each wait instead), and the granularity policy
/// set as for roots that each have a warp's lanes to themselves.
pub(super) fn make_resident(block: &mut GpuRun, cfg: &GpuConfig, ring: &super::ring::Ring) {
    (block.num_roots, block.roots_left) = (0, 0);
    block.timeout_ns = u64::MAX;
    (block.inject, block.inject_args, block.inject_slots) = ring.device_addrs();
    block.inject_capacity = ring.capacity;
    block.inject_args_stride = ring.args_stride;
    block.inject_slot_stride = ring.slot_stride;
    block.inject_poll_stride = POLL_STRIDE;
    block.inject_idle_ns = RESIDENT_IDLE_NS;
    block.inject_flags = inject_flags::ONE_READER;
    if block.granularity.on != 0 {
        // Roots come one after another: the grid's counts of a level mix all of them.
        block.granularity.wide_nodes = 0;
        block.granularity.min_depth = cfg
            .tuning
            .inline_min_depth
            .unwrap_or(ceil_log2(32) + INLINE_DEPTH_MARGIN);
    }
}

/// How many levels past the depth at which a binary tree has a task for every lane the
/// policy starts to inline by default: at that depth every lane has 32 subtrees to balance
/// with, so that stealing still evens out subtrees of unequal size (the granularity-policy
/// record in results/ has a sweep of the margin on fib(40)).
const INLINE_DEPTH_MARGIN: u32 = 5;

/// The granularity policy's settings ([`GpuTuning::inline_min_depth`] and
/// [`GpuTuning::inline_min_queued`]): by default, inline from `INLINE_DEPTH_MARGIN` levels
/// below the depth at which a binary tree per root has a task for every lane; its reserve is 64 records and queue entries (two
/// rounds' spawns of a warp that spawns one child per lane, and room for a round's resumed
/// parents, which are never inline), or a quarter of the slab or ring if that is smaller.
/// Block programs have no sequential versions, and the global-queue ablation has no
/// per-warp queues to look at: off for both.
fn granularity(cfg: &GpuConfig, plan: &RunPlan) -> Granularity {
    if !cfg.limits.auto_granularity || plan.program.block || plan.global {
        return Granularity::OFF;
    }
    // Lanes per root: a batch's roots already spread over the lanes, so each root's tree
    // needs fewer levels of tasks before every lane has work.
    let lanes = (plan.warps as u32)
        .saturating_mul(32)
        .div_ceil(plan.roots.max(1));
    let smaller = cfg.launch.tasks_per_warp.min(cfg.limits.queue_capacity);
    Granularity {
        on: 1,
        min_depth: cfg
            .tuning
            .inline_min_depth
            .unwrap_or(ceil_log2(lanes) + INLINE_DEPTH_MARGIN),
        min_queued: cfg.tuning.inline_min_queued,
        reserve: (smaller / 4).min(64),
        backoff_ratio: cfg.tuning.inline_backoff_ratio,
        task_rounds: cfg.tuning.inline_task_rounds,
        wide_tasks: cfg.tuning.inline_wide_tasks,
        wide_nodes: wide_nodes(cfg, plan),
        split_budget: cfg.limits.split_budget,
        split_singles: cfg.limits.split_singles,
    }
}

/// [`Granularity::wide_nodes`]: [`GpuTuning::inline_wide_width`] tasks (by default
/// `2^INLINE_DEPTH_MARGIN`, the width a binary tree has at the default `min_depth`) for
/// each of the grid's lanes; a batch's roots are counted together, as its
/// lanes are.
fn wide_nodes(cfg: &GpuConfig, plan: &RunPlan) -> u32 {
    (plan.warps as u32)
        .saturating_mul(32)
        .saturating_mul(cfg.tuning.inline_wide_width)
}

/// The heavy leaf rounds across the grid that stop every warp's inlining (0: never).
fn grid_heavy_rounds(cfg: &GpuConfig, plan: &RunPlan) -> u32 {
    if granularity(cfg, plan).on == 0 {
        return 0;
    }
    let default = (plan.warps as u32 / GRID_HEAVY_WARPS).max(1);
    cfg.tuning.inline_grid_heavy_rounds.unwrap_or(default)
}

/// The default heavy leaf rounds across the grid that stop every warp's inlining
/// ([`GpuTuning::inline_grid_heavy_rounds`](super::GpuTuning::inline_grid_heavy_rounds)): one
/// for every this many warps. Few enough that, below a hand-written cutoff, the grid gets
/// there before the tree is deep enough to inline; more than a fine-grained program's
/// warps see in a run of fib(40) or nqueens(16) (the device's share rule covers longer
/// ones; results/2026-11-29-grid-heavy-leaves-h200.md).
const GRID_HEAVY_WARPS: u32 = 4;

/// The most tasks a worker keeps unpublished.
fn keep_max(cfg: &GpuConfig, kind: ProgramKind) -> u32 {
    // A block worker keeps at most its next task: its batch is one task.
    if kind == ProgramKind::Block {
        cfg.tuning.keep_unpublished.min(1)
    } else {
        cfg.tuning.keep_unpublished
    }
}

/// The scheduling switches of `cfg` as [`tuning`] bits.
fn tuning_bits(cfg: &GpuConfig, kind: ProgramKind) -> u32 {
    let scheduling = cfg.scheduling();
    (if scheduling.resume_inline {
        tuning::RESUME_INLINE
    } else {
        0
    }) | match cfg.tuning.scheduler {
        Scheduler::WorkStealing => 0,
        Scheduler::OneAtATime => tuning::ONE_AT_A_TIME,
        Scheduler::GlobalQueue => tuning::GLOBAL_QUEUE,
    } | if cfg.tuning.keep_every_queue {
        tuning::KEEP_EVERY_QUEUE
    } else {
        0
    } | match scheduling.queue_order {
        QueueOrder::NextFull => 0,
        QueueOrder::Stay => tuning::STAY_ON_QUEUE,
        QueueOrder::MostGenerated => tuning::MOST_GENERATED,
    } | if cfg.tuning.steal_per_queue {
        tuning::STEAL_PER_QUEUE
    } else {
        0
    } | if kind != ProgramKind::Thread && cfg.limits.check_uniform {
        tuning::CHECK_UNIFORM
    } else {
        0
    }
}

/// Copies `control` into the control block's array in `slot` (grown if need be) and returns
/// its device address: the kernel's one argument.
pub(super) fn upload(
    stream: &Arc<CudaStream>,
    slot: &mut Option<CudaSlice<u8>>,
    control: &GpuRun,
) -> Result<u64, GpuRunError> {
    // SAFETY: `GpuRun` is plain `repr(C)` integers.
    let control_bytes = unsafe {
        std::slice::from_raw_parts((&raw const *control).cast::<u8>(), size_of::<GpuRun>())
    };
    let run_slice = ensure(stream, slot, size_of::<GpuRun>(), "the control block")?;
    stream
        .memcpy_htod(control_bytes, run_slice)
        .map_err(driver("cuMemcpyHtoD"))?;
    Ok(addr(stream, run_slice))
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::gpu_runtime::plan::{ProgramShape, RunPlan};
    use crate::props::tests::h100;

    fn plan(cfg: &GpuConfig, block: bool) -> RunPlan {
        plan_of(cfg, block, false)
    }

    fn plan_of(cfg: &GpuConfig, block: bool, mixed: bool) -> RunPlan {
        let program = ProgramShape {
            name: "test",
            block,
            mixed,
            record_size: 320,
            record_align: 32,
            args_size: 24,
            result_size: 8,
        };
        RunPlan::new(cfg, &h100(), 20, program, || Ok(1024)).unwrap()
    }

    fn arrays() -> DeviceArrays {
        DeviceArrays {
            records: 1,
            rings: 2,
            deques: 3,
            free_stacks: 4,
            remote_free: 5,
            stats: 6,
            counters: 7,
            global_queue: 8,
            global_ring: 9,
            root_result: 10,
            root_args: 11,
            profile_events: 12,
            profile_warps: 13,
            block_board: 14,
            reserve: 15,
            chunk_words: 16,
            running: 17,
            fanout: 18,
        }
    }

    #[test]
    fn addresses_and_sizes_go_where_the_kernel_reads_them() {
        let cfg = GpuConfig::new()
            .block(64)
            .tasks_per_warp(256)
            .queue_capacity(512)
            .num_queues(3)
            .steal_attempts(5)
            .top_up(2)
            .keep_unpublished(100)
            .profile(7)
            .timeout(Duration::from_millis(1500));
        let run = control_block(&cfg, &plan(&cfg, false), &arrays(), 99);
        let addresses = [
            run.records,
            run.rings,
            run.deques,
            run.free_stacks,
            run.remote_free,
            run.stats,
            run.counters,
            run.global_queue,
            run.global_ring,
            run.root_result,
            run.root_args,
            run.profile_events,
            run.profile_warps,
            run.block_board,
            run.fanout,
        ];
        assert_eq!(
            addresses,
            [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 18]
        );
        assert_eq!(run.panic_report, 99);
        assert_eq!(run.num_warps, 40, "20 blocks of 2 warps");
        assert_eq!(
            (run.num_queues, run.queue_capacity, run.tasks_per_warp),
            (3, 512, 256)
        );
        assert_eq!(
            (run.record_size, run.record_align, run.args_size),
            (320, 32, 24)
        );
        assert_eq!((run.steal_attempts, run.top_up, run.keep_max), (5, 2, 100));
        assert_eq!(run.profile_capacity, 7);
        assert_eq!(run.timeout_ns, 1_500_000_000);
        assert_eq!(run.global_capacity, 0, "no global queue");
        // What the kernel reports in starts at zero.
        assert_eq!(
            (run.stop, run.error_code, run.error_a, run.error_b),
            (0, 0, 0, 0)
        );
    }

    #[test]
    fn the_global_queue_is_named_only_when_used() {
        let cfg = GpuConfig::new()
            .block(64)
            .queue_capacity(64)
            .resume_inline(false)
            .scheduler(Scheduler::GlobalQueue);
        let run = control_block(&cfg, &plan(&cfg, false), &arrays(), 0);
        // 40 warps of 64 entries, rounded up to a power of two.
        assert_eq!(run.global_capacity, 4096);
        assert_eq!(run.tuning, tuning::GLOBAL_QUEUE);
    }

    #[test]
    fn a_timeout_past_u64_nanoseconds_saturates() {
        let cfg = GpuConfig::new().timeout(Duration::from_secs(u64::MAX));
        let run = control_block(&cfg, &plan(&cfg, false), &arrays(), 0);
        assert_eq!(run.timeout_ns, u64::MAX);
    }

    #[test]
    fn a_mixed_program_has_a_block_queue_per_warp_and_keeps_like_a_thread_program() {
        let cfg = GpuConfig::new()
            .block(128)
            .num_queues(3)
            .keep_unpublished(64);
        let run = control_block(&cfg, &plan_of(&cfg, true, true), &arrays(), 0);
        assert_eq!(run.num_queues, 4);
        assert_eq!(run.keep_max, 64);
        assert_eq!(run.num_warps, 20 * 4);
        // Its thread tasks have no sequential versions: the policy stays off.
        assert_eq!(run.granularity.on, 0);
        let thread = control_block(&cfg, &plan(&cfg, false), &arrays(), 0);
        assert_eq!(thread.num_queues, 3);
    }

    #[test]
    fn a_batch_inlines_nearer_its_roots() {
        let cfg = GpuConfig::new().block(64);
        let plan_with = |roots: usize| {
            let program = ProgramShape {
                name: "test",
                block: false,
                mixed: false,
                record_size: 320,
                record_align: 32,
                args_size: 24,
                result_size: 8,
            };
            RunPlan::batch(&cfg, &h100(), 20, program, roots, 1 << 30, || Ok(1024)).unwrap()
        };
        // 20 blocks of 2 warps: 1280 lanes, 11 levels for one root, plus the margin.
        let depth = |roots| granularity(&cfg, &plan_with(roots)).min_depth;
        assert_eq!(depth(1), 11 + INLINE_DEPTH_MARGIN);
        assert_eq!(depth(10), 7 + INLINE_DEPTH_MARGIN);
        assert_eq!(depth(5000), INLINE_DEPTH_MARGIN);
        // A depth set by hand is kept.
        let fixed = cfg.clone().inline_min_depth(3);
        assert_eq!(granularity(&fixed, &plan_with(5000)).min_depth, 3);
        // The width the grid's estimate looks for: 32 tasks a lane, over every root; none
        // with the wide-level rule off.
        let wide = |cfg: &GpuConfig, roots| granularity(cfg, &plan_with(roots)).wide_nodes;
        assert_eq!((wide(&cfg, 1), wide(&cfg, 10)), (1280 * 32, 1280 * 32));
        assert_eq!(cfg.tuning.inline_wide_width, 1 << INLINE_DEPTH_MARGIN);
        assert_eq!(wide(&cfg.clone().inline_wide_width(0), 1), 0);
        assert_eq!(wide(&cfg.clone().inline_wide_width(64), 1), 1280 * 64);
    }

    #[test]
    fn a_block_worker_keeps_at_most_one_task() {
        let cfg = GpuConfig::new().block(128).keep_unpublished(64);
        assert_eq!(
            control_block(&cfg, &plan(&cfg, true), &arrays(), 0).keep_max,
            1
        );
        assert_eq!(
            control_block(&cfg, &plan(&cfg, false), &arrays(), 0).keep_max,
            64
        );
        let none = cfg.keep_unpublished(0);
        assert_eq!(keep_max(&none, ProgramKind::Block), 0);
    }

    #[test]
    fn each_switch_sets_its_tuning_bit() {
        let base = GpuConfig::new()
            .resume_inline(false)
            .keep_every_queue(false)
            .steal_per_queue(false)
            .check_uniform(false)
            .queue_order(QueueOrder::NextFull)
            .scheduler(Scheduler::WorkStealing);
        assert_eq!(tuning_bits(&base, ProgramKind::Thread), 0);
        assert_eq!(tuning_bits(&base, ProgramKind::Block), 0);
        let one = |cfg: GpuConfig, bit: u32| {
            assert_eq!(tuning_bits(&cfg, ProgramKind::Thread), bit, "{cfg:?}");
        };
        one(base.clone().resume_inline(true), tuning::RESUME_INLINE);
        one(
            base.clone().scheduler(Scheduler::OneAtATime),
            tuning::ONE_AT_A_TIME,
        );
        one(
            base.clone().scheduler(Scheduler::GlobalQueue),
            tuning::GLOBAL_QUEUE,
        );
        one(
            base.clone().keep_every_queue(true),
            tuning::KEEP_EVERY_QUEUE,
        );
        one(
            base.clone().queue_order(QueueOrder::Stay),
            tuning::STAY_ON_QUEUE,
        );
        one(
            base.clone().queue_order(QueueOrder::MostGenerated),
            tuning::MOST_GENERATED,
        );
        // `steal_per_queue` is valid only with `top_up`, which sets no bit of its own.
        one(
            base.clone().top_up(1).steal_per_queue(true),
            tuning::STEAL_PER_QUEUE,
        );
        // Uniformity checks are for block programs only.
        let uniform = base.clone().check_uniform(true);
        assert_eq!(tuning_bits(&uniform, ProgramKind::Thread), 0);
        assert_eq!(
            tuning_bits(&uniform, ProgramKind::Block),
            tuning::CHECK_UNIFORM
        );
        assert_eq!(
            tuning_bits(&uniform, ProgramKind::Mixed),
            tuning::CHECK_UNIFORM
        );
        let all = base
            .resume_inline(true)
            .keep_every_queue(true)
            .queue_order(QueueOrder::Stay)
            .top_up(1)
            .steal_per_queue(true)
            .check_uniform(true);
        assert_eq!(
            tuning_bits(&all, ProgramKind::Block),
            tuning::RESUME_INLINE
                | tuning::KEEP_EVERY_QUEUE
                | tuning::STAY_ON_QUEUE
                | tuning::STEAL_PER_QUEUE
                | tuning::CHECK_UNIFORM
        );
    }
}
