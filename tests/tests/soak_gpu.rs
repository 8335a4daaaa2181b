//! The soak run: random fork-join programs, random mixed programs (thread and block tasks)
//! and block programs on the GPU, across launch shapes, EPAQ queue counts, queue orders,
//! top-up, inline resumes and the ablation schedulers (thread programs only), for as long as `GTAP_SOAK_SECS` says, every result checked. Runs only when
//! that variable is set (`scripts/gpu-soak.sh`); it is a run to record, not part of the suite.
//!
//! A wrong answer or a failed run is counted and the soak goes on; a run that does not end
//! (`TimedOut`, or `Stuck`, after which the runtime refuses to run) counts as a hang. The
//! summary line counts programs, tasks, wrong answers and hangs; the test fails unless the last
//! two are zero.

mod common;

use std::time::{Duration, Instant};

use common::{device_ptr, download, upload};
use gtap_host::RunError;
use gtap_host::gpu_runtime::{GpuConfig, GpuRunError, GpuRuntime, QueueOrder, Scheduler};
use gtap_tests::block::{fan_expected, program as blocks, tree_expected};
use gtap_tests::lang::Counter;
use gtap_tests::random::{mixed_reference, mixed_root, program, reference};

/// A run that takes longer is a hang: the largest random program takes milliseconds.
const RUN_TIMEOUT: Duration = Duration::from_secs(20);

/// Random programs run on one configuration before the soak moves to the next.
const PROGRAMS_PER_CONFIG: u64 = 300;

#[derive(Default, Debug)]
struct Tally {
    programs: u64,
    tasks: u64,
    wrong: u64,
    hangs: u64,
    errors: u64,
}

impl Tally {
    /// Counts the outcome of one run of `tasks` tasks; `want` is what it must give.
    fn count<T: PartialEq + std::fmt::Debug>(
        &mut self,
        what: &str,
        got: Result<T, GpuRunError>,
        want: T,
        tasks: u64,
    ) {
        self.programs += 1;
        match got {
            Ok(got) if got == want => self.tasks += tasks,
            Ok(got) => {
                self.wrong += 1;
                eprintln!("WRONG: {what}: {got:?}, expected {want:?}");
            }
            Err(e @ (GpuRunError::Run(RunError::TimedOut { .. }) | GpuRunError::Stuck { .. })) => {
                self.hangs += 1;
                eprintln!("HANG: {what}: {e}");
            }
            Err(e) => {
                self.errors += 1;
                eprintln!("ERROR: {what}: {e}");
            }
        }
    }
}

/// The thread-program configurations, each with its EPAQ queue count.
fn thread_configs() -> Vec<(GpuConfig, u32)> {
    let shapes = [
        GpuConfig::new().auto_granularity(false).grid(1).block(32),
        GpuConfig::new().auto_granularity(false).grid(16).block(64),
        GpuConfig::new()
            .auto_granularity(false)
            .grid(200)
            .block(128),
        GpuConfig::new().auto_granularity(false),
    ];
    let options: [fn(GpuConfig) -> GpuConfig; 9] = [
        |c| c,
        |c| c.resume_inline(true),
        |c| c.keep_unpublished(128).resume_inline(true),
        |c| c.top_up(2),
        |c| c.queue_order(QueueOrder::Stay).keep_every_queue(true),
        |c| c.queue_order(QueueOrder::MostGenerated).top_up(1),
        |c| c.steal_per_queue(true).top_up(1),
        |c| c.scheduler(Scheduler::OneAtATime),
        |c| c.scheduler(Scheduler::GlobalQueue),
    ];
    let mut configs = Vec::new();
    for (i, option) in options.iter().enumerate() {
        for (j, shape) in shapes.iter().enumerate() {
            // The global queue has one queue; the others rotate through one to three.
            let queues = if i == 8 { 1 } else { 1 + ((i + j) % 3) as u32 };
            let c = option(shape.clone().num_queues(queues).timeout(RUN_TIMEOUT));
            configs.push((c, queues));
        }
    }
    configs
}

/// Runs random programs from `first_seed` on `rt` until done or `until`.
fn random_programs(
    rt: &mut GpuRuntime,
    queues: u32,
    first_seed: u64,
    until: Instant,
    t: &mut Tally,
) {
    let gpu = rt.gpu().clone();
    for seed in first_seed..first_seed + PROGRAMS_PER_CONFIG {
        if Instant::now() >= until {
            return;
        }
        let cell = upload(&gpu, &[0u64]);
        // SAFETY: a zeroed, aligned device u64 that outlives the run.
        let counter = unsafe { Counter::from_ptr(device_ptr(&gpu, &cell) as *mut u64) };
        // (value, tasks counted by the program, tasks the runtime completed)
        let got = rt
            .run(program::node(seed, 0, queues, counter))
            .map(|(v, stats)| (v, download(&gpu, &cell)[0], stats.tasks));
        let what = format!("random program {seed} with {:?}", rt.config());
        let (value, nodes) = reference(seed, 0);
        t.count(&what, got, (value, nodes, nodes), nodes);
        if t.hangs > 0 {
            return;
        }
    }
}

/// Random mixed programs from `first_seed` on blocks of `block` threads (a block task's team),
/// with one of the scheduler options (the ablation schedulers do not run mixed programs), on
/// a GPU whose blocks have `block_registers` registers.
fn mixed_programs(
    block: u32,
    block_registers: u32,
    option: u64,
    first_seed: u64,
    until: Instant,
    t: &mut Tally,
) {
    let queues = 1 + (option % 3) as u32;
    let base = GpuConfig::new()
        .grid(132)
        .block(block)
        .num_queues(queues)
        .block_scratch(8 * block)
        .timeout(RUN_TIMEOUT);
    // The mixed kernels need more registers per thread than a block of 512 threads leaves
    // of a block's registers: capped, so that the soak runs such blocks rather than counting
    // each program as a launch error.
    let base = if block > 256 {
        base.max_registers(block_registers / block)
    } else {
        base
    };
    let config = match option % 4 {
        0 => base,
        1 => base.resume_inline(true),
        2 => base.top_up(2),
        _ => base.queue_order(QueueOrder::MostGenerated).top_up(1),
    };
    let mut rt = common::runtime(gtap_tests::PTX, config).expect("GPU");
    let gpu = rt.gpu().clone();
    for seed in first_seed..first_seed + PROGRAMS_PER_CONFIG {
        if Instant::now() >= until || t.hangs > 0 {
            return;
        }
        let cell = upload(&gpu, &[0u64]);
        // SAFETY: a zeroed, aligned device u64 that outlives the run.
        let counter = unsafe { Counter::from_ptr(device_ptr(&gpu, &cell) as *mut u64) };
        let got = rt
            .run(mixed_root(seed, queues, counter))
            .map(|(v, stats)| (v, download(&gpu, &cell)[0], stats.tasks));
        let what = format!("random mixed program {seed} with {:?}", rt.config());
        let (value, nodes) = mixed_reference(seed, 0, block);
        t.count(&what, got, (value, nodes, nodes), nodes);
    }
}

/// Block programs: block-wide trees of random depth on a block size.
fn block_programs(block: u32, seed: u64, until: Instant, t: &mut Tally) {
    let config = GpuConfig::new()
        .auto_granularity(false)
        .grid(132)
        .block(block)
        .block_scratch(8 * block)
        .timeout(RUN_TIMEOUT);
    let mut rt = common::runtime(gtap_tests::PTX, config).expect("GPU");
    let gpu = rt.gpu().clone();
    for i in 0..60 {
        if Instant::now() >= until || t.hangs > 0 {
            return;
        }
        let depth = ((seed + i) * 7 % 13) as u32;
        let got = rt.run(blocks::tree(depth)).map(|(v, s)| (v, s.tasks));
        let nodes = (1u64 << (depth + 1)) - 1;
        let want = (tree_expected(depth, block), nodes);
        t.count(
            &format!("block tree({depth}) on blocks of {block}"),
            got,
            want,
            nodes,
        );
        let fanout = 2 + (i % 3) as u32;
        let cell = upload(&gpu, &[0u64]);
        // SAFETY: a zeroed, aligned device u64 that outlives the run.
        let c = unsafe { Counter::from_ptr(device_ptr(&gpu, &cell) as *mut u64) };
        let got = rt
            .run(blocks::fan(c, 5, fanout))
            .map(|(_, s)| (download(&gpu, &cell)[0], s.tasks));
        let n = fan_expected(5, fanout);
        t.count(
            &format!("block fan(5, {fanout}) on blocks of {block}"),
            got,
            (n, n),
            n,
        );
    }
}

fn soak() {
    let secs: u64 = std::env::var("GTAP_SOAK_SECS")
        .expect("GTAP_SOAK_SECS")
        .parse()
        .expect("GTAP_SOAK_SECS: a whole number of seconds");
    let began = Instant::now();
    let until = began + Duration::from_secs(secs);
    let configs = thread_configs();
    let mut t = Tally::default();
    let mut round = 0u64;
    while Instant::now() < until && t.hangs == 0 {
        let (config, queues) = configs[round as usize % configs.len()].clone();
        let mut rt = common::runtime(gtap_tests::PTX, config).expect("GPU");
        random_programs(&mut rt, queues, round * 1_000_003, until, &mut t);
        if round % 4 == 1 {
            let block = [64, 256, 32, 512, 128][(round / 4 % 5) as usize];
            let registers = rt.gpu().props().registers_per_block;
            mixed_programs(
                block,
                registers,
                round / 4,
                round * 1_000_003 + 1,
                until,
                &mut t,
            );
        }
        if round % 4 == 3 {
            let block = [32, 64, 128, 256][(round / 4 % 4) as usize];
            block_programs(block, round, until, &mut t);
        }
        round += 1;
    }
    println!(
        "soak: {:.0} s, {} rounds (a runtime each), {} programs, {} tasks, {} wrong, {} hangs, {} errors",
        began.elapsed().as_secs_f64(),
        round,
        t.programs,
        t.tasks,
        t.wrong,
        t.hangs,
        t.errors
    );
    assert_eq!((t.wrong, t.hangs, t.errors), (0, 0, 0), "{t:?}");
}

gtap_host::gpu_test_main!(; on_request("GTAP_SOAK_SECS"): [soak]);
