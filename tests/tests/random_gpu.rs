//! Random fork-join programs on the GPU (see `gtap_tests::random`): 15,300 programs across
//! launch shapes, EPAQ queue counts and the schedulers (work stealing and its two
//! ablations), and 6,000 with block tasks among their thread tasks (the mixed kernel) across
//! block sizes, each result and task count checked against the sequential reference.
//! Reported as ignored without a GPU (the GPU test harness).

mod common;

use common::{device_ptr, download, upload};
use gtap_host::gpu_runtime::{GpuConfig, Scheduler};
use gtap_tests::lang::Counter;
use gtap_tests::random::{program, reference};

fn random_programs_match_their_reference_on_the_gpu() {
    let shapes = [
        (GpuConfig::new().grid(1).block(32), 1u32),
        (GpuConfig::new().grid(16).block(64).num_queues(3), 3),
        (GpuConfig::new().grid(200).block(128).num_queues(2), 2),
        (GpuConfig::new().num_queues(3), 3),
        (
            GpuConfig::new()
                .grid(64)
                .block(64)
                .num_queues(2)
                .scheduler(Scheduler::OneAtATime),
            2,
        ),
        (
            GpuConfig::new()
                .grid(64)
                .block(64)
                .scheduler(Scheduler::GlobalQueue),
            1,
        ),
    ];
    let mut programs = 0u64;
    let mut tasks = 0u64;
    for (i, (config, queues)) in shapes.into_iter().enumerate() {
        let Some(mut rt) = common::runtime(gtap_tests::PTX, config) else {
            return;
        };
        let gpu = rt.gpu().clone();
        let first = i as u64 * 100_000;
        for seed in first..first + 2550 {
            let cell = upload(&gpu, &[0u64]);
            // SAFETY: a zeroed, aligned device u64 that outlives the run.
            let counter = unsafe { Counter::from_ptr(device_ptr(&gpu, &cell) as *mut u64) };
            let (value, stats) = rt.run(program::node(seed, 0, queues, counter)).unwrap();
            let (want, nodes) = reference(seed, 0);
            assert_eq!(
                value,
                want,
                "value of random program {seed} with {:?}",
                rt.config()
            );
            assert_eq!(
                download(&gpu, &cell)[0],
                nodes,
                "tasks run by program {seed} with {:?}",
                rt.config()
            );
            // Every node is a task, unless the granularity policy (on by default) ran a
            // spawn inline: its whole subtree then ran as one call, counted once.
            assert!(
                stats.tasks + stats.spawns_inlined <= nodes
                    && (stats.spawns_inlined > 0 || stats.tasks == nodes),
                "tasks completed in program {seed} with {:?}: {} tasks, {} inline, {nodes} nodes",
                rt.config(),
                stats.tasks,
                stats.spawns_inlined,
            );
            programs += 1;
            tasks += nodes;
        }
    }
    eprintln!("{programs} random programs on the GPU, {tasks} tasks");
}

fn random_mixed_programs_match_their_reference_on_the_gpu() {
    use gtap_tests::random::{mixed_reference, mixed_root};
    // (grid, block, queues): the block is a block task's team.
    let shapes = [
        (1, 32, 1u32),
        (16, 64, 3),
        (132, 128, 2),
        (8, 256, 1),
        (132, 256, 2),
        (64, 512, 1),
    ];
    let mut programs = 0u64;
    let mut tasks = 0u64;
    for (i, (grid, block, queues)) in shapes.into_iter().enumerate() {
        let config = GpuConfig::new()
            .grid(grid)
            .block(block)
            .num_queues(queues)
            .check_uniform(true);
        // A block of 512 threads fits the register file only with the registers capped.
        let config = match block {
            512 => config.max_registers(128),
            _ => config,
        };
        let Some(mut rt) = common::runtime(gtap_tests::PTX, config) else {
            return;
        };
        let gpu = rt.gpu().clone();
        let first = i as u64 * 100_000;
        for seed in first..first + 1000 {
            let cell = upload(&gpu, &[0u64]);
            // SAFETY: a zeroed, aligned device u64 that outlives the run.
            let counter = unsafe { Counter::from_ptr(device_ptr(&gpu, &cell) as *mut u64) };
            let shape = format!("{grid} blocks of {block}, {queues} queues");
            let (value, stats) = rt
                .run(mixed_root(seed, queues, counter))
                .unwrap_or_else(|e| panic!("random mixed program {seed} on {shape}: {e}"));
            let (want, nodes) = mixed_reference(seed, 0, block);
            assert_eq!(
                value, want,
                "value of random mixed program {seed} on {shape}"
            );
            assert_eq!(
                download(&gpu, &cell)[0],
                nodes,
                "nodes of random mixed program {seed} on {shape}"
            );
            // Mixed programs have no sequential versions: every node is a task.
            assert_eq!(
                stats.tasks, nodes,
                "tasks of random mixed program {seed} on {shape}"
            );
            programs += 1;
            tasks += nodes;
        }
    }
    eprintln!("{programs} random mixed programs on the GPU, {tasks} tasks");
}

gtap_host::gpu_test_main!(
    random_programs_match_their_reference_on_the_gpu,
    random_mixed_programs_match_their_reference_on_the_gpu,
);
