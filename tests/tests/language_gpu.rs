//! The task language on the GPU (the same program as `language_cpu.rs`), and every run-time
//! limit ending with its typed error, after which the runtime keeps working.

mod common;

use std::time::{Duration, Instant};

use common::{device_ptr, download, upload};
use gtap_host::RunError;
use gtap_host::gpu_runtime::{GpuConfig, GpuRunError};
use gtap_tests::lang::{Counter, branches_reference, program as lang};

fn config() -> GpuConfig {
    GpuConfig::new()
        .auto_granularity(false)
        .grid(16)
        .block(64)
        .num_queues(3)
}

fn language_features_on_the_gpu() {
    let Some(mut rt) = common::runtime(gtap_tests::PTX, config()) else {
        return;
    };
    let expected: u64 = (0..50u64).map(|i| i * i).sum();
    assert_eq!(rt.run(lang::loop_join(50)).unwrap().0, expected);
    for n in 0..14 {
        assert_eq!(
            rt.run(lang::branches(n)).unwrap().0,
            branches_reference(n),
            "branches({n})"
        );
    }
    assert_eq!(rt.run(lang::staged(5)).unwrap().0, 25 + 36 + 49 + 64);
    for (n, width) in [(0u32, 3u32), (3, 5), (4, 7), (2, 16)] {
        let expected: u64 = (0..=n).map(|d| (width as u64).pow(d)).sum();
        assert_eq!(
            rt.run(lang::fan(n, width)).unwrap().0,
            expected,
            "fan({n}, {width})"
        );
    }
    for n in 0..30 {
        assert_eq!(rt.run(lang::even(n)).unwrap().0, n % 2 == 0);
    }
    for salt in 0..6 {
        assert_eq!(
            rt.run(lang::fib_q(18, salt)).unwrap().0,
            2584,
            "salt {salt}"
        );
    }
    assert_eq!(rt.run(lang::locals(10)).unwrap().0, 10 + 19 + 100);
}

/// The granularity policy runs no spawn inline that goes to another queue than its
/// spawner's (EPAQ keeps each kind of task in its own queue's rounds), and runs spawns of
/// the same program inline when they stay in one queue.
fn a_spawn_into_another_queue_is_a_task_on_the_gpu() {
    let Some(mut rt) = common::runtime(gtap_tests::PTX, config().auto_granularity(true)) else {
        return;
    };
    let (same, kept) = rt.run(lang::fib_queues(24, 0, false)).unwrap();
    let (flipped, apart) = rt.run(lang::fib_queues(24, 0, true)).unwrap();
    assert_eq!((same, flipped), (46_368, 46_368));
    assert!(kept.spawns_inlined > 0, "{kept:?}");
    assert_eq!(apart.spawns_inlined, 0, "{apart:?}");
    assert_eq!(apart.tasks, 2 * 75_025 - 1, "one task per call");
}

/// A task that sums its children (its sequential version the summing loop) gives its
/// reference with the policy off, and inlining from depth 1 on, where the loop runs whole
/// subtrees on the GPU, some deeper than its stack (width 6, depth 5).
fn a_summing_task_gives_its_reference_with_its_loop_inline_on_the_gpu() {
    for (on, depth) in [(false, None), (true, Some(1)), (true, None)] {
        let mut cfg = config().auto_granularity(on).inline_min_queued(0);
        if let Some(d) = depth {
            cfg = cfg.inline_min_depth(d);
        }
        let Some(mut rt) = common::runtime(gtap_tests::PTX, cfg) else {
            return;
        };
        for (d, width) in [(5, 6), (7, 4), (3, 16)] {
            let (want, nodes) = gtap_tests::lang::weights_reference(d, width, 7, 1);
            let (got, stats) = rt.run(lang::weights(d, width, 7, 1)).unwrap();
            assert_eq!(
                got, want,
                "depth {d}, width {width}, policy {on}, from {depth:?}"
            );
            if on && depth.is_some() {
                assert!(stats.spawns_inlined > 0, "{stats:?}");
            } else if !on {
                assert_eq!(stats.tasks, nodes, "one task per node");
            }
        }
    }
}

fn fire_and_forget_children_all_run_on_the_gpu() {
    let Some(mut rt) = common::runtime(gtap_tests::PTX, config()) else {
        return;
    };
    let gpu = rt.gpu().clone();
    for depth in [0, 3, 12] {
        let cell = upload(&gpu, &[0u64]);
        // SAFETY: a zeroed, aligned device u64 that outlives the run.
        let counter = unsafe { Counter::from_ptr(device_ptr(&gpu, &cell) as *mut u64) };
        rt.run(lang::scatter(counter, depth)).unwrap();
        assert_eq!(
            download(&gpu, &cell)[0],
            (1 << (depth + 1)) - 1,
            "depth {depth}"
        );
        let cell = upload(&gpu, &[0u64]);
        // SAFETY: as above.
        let counter = unsafe { Counter::from_ptr(device_ptr(&gpu, &cell) as *mut u64) };
        assert_eq!(
            rt.run(lang::scatter_then_read(counter, depth)).unwrap().0,
            (1 << (depth + 1)) - 1
        );
    }
}

fn a_program_without_taskwait_ends_when_every_task_has_run() {
    // No join bookkeeping in such a program: the run must still wait for every task, on one
    // warp, on a few blocks and on the default grid, whatever the root returns first.
    use gtap_tests::detached::{program as detached, tree_tasks};
    for config in [
        GpuConfig::new().auto_granularity(false).grid(1).block(32),
        GpuConfig::new().auto_granularity(false).grid(7).block(64),
        GpuConfig::new()
            .auto_granularity(false)
            .tasks_per_warp(8192),
    ] {
        let Some(mut rt) = common::runtime(gtap_tests::PTX, config) else {
            return;
        };
        let gpu = rt.gpu().clone();
        for (depth, fanout) in [(0, 2), (1, 2), (10, 3), (17, 2)] {
            let cell = upload(&gpu, &[0u64]);
            // SAFETY: a zeroed, aligned device u64 that outlives the run.
            let counter = unsafe { Counter::from_ptr(device_ptr(&gpu, &cell) as *mut u64) };
            let (v, stats) = rt.run(detached::root(counter, depth, fanout)).unwrap();
            let chain = u64::from(depth * 10);
            let tasks = tree_tasks(depth, fanout.into());
            assert_eq!(v, 7);
            assert_eq!(
                download(&gpu, &cell)[0],
                tasks + chain * (chain + 1) / 2,
                "tree({depth}, {fanout}) with {:?}",
                rt.config()
            );
            assert_eq!(
                stats.tasks,
                1 + tasks + chain + 1,
                "tasks of tree({depth}, {fanout})"
            );
        }
    }
}

fn limits_end_with_typed_errors_and_the_runtime_stays_usable() {
    let Some(mut rt) = common::runtime(gtap_tests::PTX, config()) else {
        return;
    };
    let check_usable = |rt: &mut gtap_host::gpu_runtime::GpuRuntime| {
        assert_eq!(rt.run(lang::fan(3, 4)).unwrap().0, 1 + 4 + 16 + 64);
    };

    let err = rt.run(lang::too_many(1000)).unwrap_err();
    assert!(
        matches!(
            err,
            GpuRunError::Run(RunError::TooManyChildren {
                task: "too_many",
                limit: 256
            })
        ),
        "{err}"
    );
    assert!(err.to_string().contains("max_children"), "{err}");
    check_usable(&mut rt);

    let err = rt.run(lang::fan(2, 17)).unwrap_err();
    assert!(
        matches!(
            err,
            GpuRunError::Run(RunError::SlotsFull { capacity: 16, .. })
        ),
        "{err}"
    );
    check_usable(&mut rt);

    rt.set_config(config().num_queues(1)).unwrap();
    let err = rt.run(lang::fib_q(10, 1)).unwrap_err();
    assert!(
        matches!(
            err,
            GpuRunError::Run(RunError::BadQueue { num_queues: 1, .. })
        ),
        "{err}"
    );
    assert!(err.to_string().contains("num_queues"), "{err}");
    check_usable(&mut rt);
    // A taskwait's queue out of range, its spawns in range: caught at the taskwait.
    let err = rt.run(lang::wait_in(2)).unwrap_err();
    assert!(
        matches!(
            err,
            GpuRunError::Run(RunError::BadQueue {
                queue: 2,
                num_queues: 1
            })
        ),
        "{err}"
    );
    check_usable(&mut rt);
    assert_eq!(rt.run(lang::wait_in(0)).unwrap().0, 9);

    // No reserve: the run has its 32 warps' slabs of 8 records only.
    rt.set_config(config().tasks_per_warp(8).reserve_records(0))
        .unwrap();
    let err = rt.run(lang::fan(6, 8)).unwrap_err();
    assert!(
        matches!(
            err,
            GpuRunError::Run(RunError::PoolExhausted { capacity: 256 })
        ),
        "{err}"
    );
    assert!(err.to_string().contains("tasks_per_warp"), "{err}");
    rt.set_config(config()).unwrap();
    check_usable(&mut rt);

    rt.set_config(config().grid(1).block(32).queue_capacity(64))
        .unwrap();
    let err = rt.run(lang::fan(3, 16)).unwrap_err();
    assert!(
        matches!(err, GpuRunError::Run(RunError::QueueFull { capacity: 64 })),
        "{err}"
    );
    assert!(err.to_string().contains("queue_capacity"), "{err}");
    rt.set_config(config()).unwrap();
    check_usable(&mut rt);

    rt.set_config(config().timeout(Duration::from_millis(20)))
        .unwrap();
    // A long chain of joins (one child at a time): far longer than 20 ms, little memory.
    let err = rt.run(lang::loop_join(100_000_000)).unwrap_err();
    assert!(
        matches!(err, GpuRunError::Run(RunError::TimedOut { .. })),
        "{err}"
    );
    assert!(err.to_string().contains("timeout"), "{err}");
    rt.set_config(config()).unwrap();
    check_usable(&mut rt);
}

fn a_timeout_counts_from_the_kernel_start_when_it_waits_behind_another_run() {
    // Two runtimes on one GPU share the context's stream: the second run's kernel waits for
    // the first. Its 20 ms timeout must not fire while it waits, and must still stop it once
    // it runs. (An earlier host-side abort could be lost or blocked here: the run neither
    // stopped nor ended.)
    // Alone in a process of its own: the other tests' kernels share the context's stream, and
    // with them queued the two runs below could launch in either order.
    if gtap_host::Gpu::for_hang_test(
        "a_timeout_counts_from_the_kernel_start_when_it_waits_behind_another_run",
        Duration::from_secs(120),
    )
    .is_none()
    {
        return;
    }
    let timeout = Duration::from_millis(20);
    // Time for the first run to launch its kernel once asked: both runtimes have run once
    // (their buffers exist), so a run launches within a millisecond or so.
    let head_start = Duration::from_millis(100);
    let Some(mut second) = common::runtime(gtap_tests::PTX, config().timeout(timeout)) else {
        return;
    };
    second.run(lang::loop_join(5)).unwrap();
    let (ready, started) = std::sync::mpsc::channel();
    std::thread::scope(|s| {
        let long = s.spawn(move || {
            // (A runtime is not `Send`: this thread makes its own.)
            let mut first = common::runtime(gtap_tests::PTX, config()).expect("GPU");
            first.run(lang::loop_join(5)).unwrap();
            // The first kernel starts after this instant.
            ready.send(Instant::now()).unwrap();
            first
                .run(lang::loop_join(300_000))
                .map(|(v, stats)| (v, stats.kernel_time))
        });
        let first_asked = started.recv().unwrap();
        std::thread::sleep(head_start);
        let asked = Instant::now();
        let err = second.run(lang::loop_join(100_000_000)).unwrap_err();
        let stopped = Instant::now();
        assert!(
            matches!(err, GpuRunError::Run(RunError::TimedOut { .. })),
            "{err}"
        );
        let (_, first_kernel) = long.join().unwrap().expect("the first run");
        // The test means something only if the second run waited longer than its timeout.
        assert!(
            first_kernel > head_start + 2 * timeout,
            "the first run took only {first_kernel:?}: make it longer"
        );
        // The first kernel ended no earlier than `first_asked + first_kernel`, and the second
        // starts when the first ends, so its timeout ends after that: it did not fire while
        // the kernel waited. (Not the first run's return: its host waits for the whole
        // stream, the second kernel included.)
        assert!(
            stopped > first_asked + first_kernel,
            "the second run stopped {:?} after it was asked to run, before the first kernel \
             ended: its timeout counted while it waited",
            stopped - asked
        );
        assert!(stopped - asked >= timeout, "stopped before its timeout");
    });
}

fn bad_configurations_are_rejected_before_launch() {
    let Some(gpu) = gtap_host::Gpu::for_tests() else {
        return;
    };
    for (cfg, setting) in [
        (config().block(48), "block"),
        (config().block(2048), "block"),
        (config().queue_capacity(100), "queue_capacity"),
        (config().num_queues(9), "num_queues"),
        (config().tasks_per_warp(0), "tasks_per_warp"),
        // More blocks than any GPU's grid takes.
        (config().grid(u32::MAX), "grid"),
        // 2^20 blocks of 2 warps with 2^24 records each: more records than ids.
        (
            config().grid(1 << 20).tasks_per_warp(1 << 24),
            "tasks_per_warp",
        ),
        // 2^21 warps of 8 queues of 2^24 entries: 2^50 bytes of queues.
        (
            config()
                .grid(1 << 20)
                .tasks_per_warp(1)
                .num_queues(8)
                .queue_capacity(1 << 24),
            "queue_capacity",
        ),
    ] {
        let err =
            gtap_host::gpu_runtime::GpuRuntime::new(gpu.clone(), gtap_tests::PTX, cfg.clone())
                .err()
                .unwrap_or_else(|| panic!("{cfg:?} must be rejected"));
        assert!(err.to_string().contains(setting), "{err}");
    }

    // With the grid left to the runtime, the memory is checked at the run, against the grid
    // the program's occupancy gives; nothing is allocated or launched, and the runtime stays
    // usable.
    let mut rt = gtap_host::gpu_runtime::GpuRuntime::new(gpu, gtap_tests::PTX, config()).unwrap();
    // At least one block of 32 warps per SM, each with 2^29 bytes of queues: 2^41 bytes on
    // 128 SMs, more than any GPU has.
    let absurd = GpuConfig::new()
        .auto_granularity(false)
        .block(1024)
        .num_queues(8)
        .queue_capacity(1 << 24);
    rt.set_config(absurd).unwrap();
    let err = rt.run(lang::fan(3, 4)).unwrap_err();
    assert!(
        matches!(
            err,
            GpuRunError::NotEnoughMemory {
                setting: "queue_capacity",
                ..
            }
        ),
        "{err}"
    );
    rt.set_config(config()).unwrap();
    assert_eq!(rt.run(lang::fan(3, 4)).unwrap().0, 1 + 4 + 16 + 64);
}

fn a_panic_inside_a_task_is_a_trap() {
    // A trap makes CUDA unusable in the process, so the check runs in a child process.
    let Some(gpu) = gtap_host::Gpu::for_fault_test("a_panic_inside_a_task_is_a_trap") else {
        return;
    };
    let mut rt = gtap_host::gpu_runtime::GpuRuntime::new(gpu, gtap_tests::PTX, config()).unwrap();
    assert_eq!(rt.run(lang::index(2)).unwrap().0, 12);
    let err = rt.run(lang::index(7)).unwrap_err();
    // The panic's location reaches the host through mapped memory before the trap.
    match &err {
        GpuRunError::TaskPanicked { location, source } => {
            assert!(location.contains("lang.rs"), "{err}");
            assert!(matches!(source, gtap_host::GpuError::Trap { .. }), "{err}");
        }
        other => panic!("expected TaskPanicked, got {other}"),
    }
}

gtap_host::gpu_test_main!(
    language_features_on_the_gpu,
    a_spawn_into_another_queue_is_a_task_on_the_gpu,
    a_summing_task_gives_its_reference_with_its_loop_inline_on_the_gpu,
    fire_and_forget_children_all_run_on_the_gpu,
    a_program_without_taskwait_ends_when_every_task_has_run,
    limits_end_with_typed_errors_and_the_runtime_stays_usable,
    a_timeout_counts_from_the_kernel_start_when_it_waits_behind_another_run,
    bad_configurations_are_rejected_before_launch,
    a_panic_inside_a_task_is_a_trap,
);
