//! Unbalanced Tree Search on the GPU: UTS's sample trees T1 (geometric) and T3 (binomial),
//! node for node as UTS publishes them (nodes, leaves, depth), on several launch shapes, with
//! the automatic granularity policy on and off (off: one task per node and span), and
//! without joins (one task per node); and the large samples T1L and T3L on the default shape
//! with 32768 records per warp. Reported as ignored without a GPU (the GPU test harness).

mod common;

use gtap_examples::uts::{self, Sample, detached, program};
use gtap_host::gpu_runtime::{GpuConfig, GpuRuntime, Scheduler};

fn sample(name: &str) -> Sample {
    Sample::named(name).unwrap()
}

/// Launch shapes: one warp alone, a few blocks of several warps, every resident block, the
/// scheduling switches, and the ablation that runs one task at a time.
fn shapes() -> Vec<GpuConfig> {
    vec![
        GpuConfig::new().grid(1).block(32),
        GpuConfig::new().grid(7).block(64),
        GpuConfig::new(),
        GpuConfig::new().keep_unpublished(512).resume_inline(true),
        GpuConfig::new()
            .grid(7)
            .block(64)
            .scheduler(Scheduler::OneAtATime),
    ]
}

/// `config` with the records and queue entries a depth-first walk of T3 needs on few warps
/// (its 1572 levels, each with up to 7 siblings waiting), and at least 16384 per warp.
fn with_room(config: GpuConfig) -> GpuConfig {
    let warps = config
        .launch()
        .grid()
        .map_or(u32::MAX, |g| g * config.launch().block() / 32);
    let room = ((1u32 << 20) / warps).next_power_of_two().max(16384);
    config.tasks_per_warp(room).queue_capacity(room)
}

fn runtime(config: GpuConfig) -> Option<GpuRuntime> {
    let config = with_room(config);
    common::runtime(common::examples_ptx(&config), config)
}

fn t1_and_t3_have_their_published_sizes_on_every_shape() {
    let samples = [sample("T1"), sample("T3")];
    let tasks = samples.map(|s| uts::task_count(&s.tree()));
    for config in shapes() {
        // With the granularity policy (the default) and without: T1's spawns may run inline,
        // T3's (a binomial tree, no depth bound) are tasks either way.
        for policy in [true, false] {
            let Some(mut rt) = runtime(config.clone().auto_granularity(policy)) else {
                return;
            };
            for (s, &want_tasks) in samples.iter().zip(&tasks) {
                let what = format!("{} with {:?}", s.name, rt.config());
                let (count, stats) = rt
                    .run(program::root(s.tree()))
                    .unwrap_or_else(|e| panic!("{what}: {e}"));
                assert_eq!(count, s.want, "{what}");
                if !policy || s.name == "T3" {
                    assert_eq!(stats.spawns_inlined, 0, "inline spawns of {what}");
                    assert_eq!(stats.tasks, want_tasks, "tasks of {what}");
                }
                let ((), stats) = rt
                    .run(detached::root(s.tree()))
                    .unwrap_or_else(|e| panic!("{what}, detached: {e}"));
                assert_eq!(stats.tasks, s.want.nodes, "tasks of {what}, detached");
            }
        }
    }
}

fn t1l_and_t3l_have_their_published_sizes() {
    // The default shape with the records and queue entries of the bench's EPAQ runs: room for
    // T3L's chains of suspended ancestors where they gather on few warps.
    let config = GpuConfig::new().tasks_per_warp(32768).queue_capacity(16384);
    let Some(mut rt) = common::runtime(gtap_examples::PTX, config) else {
        return;
    };
    for s in [sample("T1L"), sample("T3L")] {
        let (count, stats) = rt
            .run(program::root(s.tree()))
            .unwrap_or_else(|e| panic!("{}: {e}", s.name));
        assert_eq!(count, s.want, "{}", s.name);
        eprintln!(
            "{}: {} tasks, kernel {:?}",
            s.name, stats.tasks, stats.kernel_time
        );
        let ((), stats) = rt
            .run(detached::root(s.tree()))
            .unwrap_or_else(|e| panic!("{}, detached: {e}", s.name));
        assert_eq!(stats.tasks, s.want.nodes, "{}, detached", s.name);
        eprintln!("{} detached: kernel {:?}", s.name, stats.kernel_time);
    }
}

gtap_host::gpu_test_main!(
    t1_and_t3_have_their_published_sizes_on_every_shape,
    t1l_and_t3l_have_their_published_sizes,
);
