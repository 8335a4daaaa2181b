//! The task language beyond GTaP's restrictions, run on the CPU backend: taskwait in loops,
//! branches and match arms, several taskwaits per task, early returns, tasks without
//! results, a variable number of children, tasks calling each other, EPAQ queues.

use std::time::{Duration, Instant};

use gtap_host::RunError;
use gtap_host::cpu::{CpuConfig, CpuError, CpuRuntime};
use gtap_tests::lang::{Counter, branches_reference, program as lang};

/// A zeroed counter in leaked host memory.
fn counter() -> Counter {
    let cell: &'static mut u64 = Box::leak(Box::new(0u64));
    // SAFETY: zeroed, aligned, leaked (lives for the program).
    unsafe { Counter::from_ptr(cell) }
}

fn runtime(threads: usize) -> CpuRuntime {
    CpuRuntime::new(
        CpuConfig::new()
            .auto_granularity(false)
            .threads(threads)
            .num_queues(3),
    )
    .expect("CPU runtime")
}

#[test]
fn taskwait_in_a_loop() {
    let mut rt = runtime(4);
    let n = 50u32;
    let expected: u64 = (0..n as u64).map(|i| i * i).sum();
    assert_eq!(rt.run(lang::loop_join(n)).unwrap().0, expected);
}

#[test]
fn taskwait_in_branches_and_match_arms() {
    let mut rt = runtime(3);
    for n in 0..14 {
        assert_eq!(
            rt.run(lang::branches(n)).unwrap().0,
            branches_reference(n),
            "branches({n})"
        );
    }
}

#[test]
fn several_taskwaits_keep_earlier_results() {
    let mut rt = runtime(2);
    let n = 5u64;
    let expected = n * n + (n + 1).pow(2) + (n + 2).pow(2) + (n + 3).pow(2);
    assert_eq!(rt.run(lang::staged(5)).unwrap().0, expected);
}

#[test]
fn a_program_without_taskwait_runs_every_task() {
    use gtap_tests::detached::{program as detached, tree_tasks};
    let mut rt = runtime(4);
    for (depth, fanout) in [(0, 2), (1, 2), (8, 3)] {
        let counter = counter();
        let (v, stats) = rt.run(detached::root(counter, depth, fanout)).unwrap();
        let chain = u64::from(depth * 10);
        let tasks = tree_tasks(depth, fanout.into());
        assert_eq!(v, 7);
        assert_eq!(counter.get(), tasks + chain * (chain + 1) / 2);
        assert_eq!(stats.tasks_executed, 1 + tasks + chain + 1);
    }
}

#[test]
fn fire_and_forget_children_all_run_before_the_run_ends() {
    let mut rt = runtime(4);
    for depth in [0, 3, 10] {
        let counter = counter();
        rt.run(lang::scatter(counter, depth)).unwrap();
        assert_eq!(
            counter.get(),
            (1 << (depth + 1)) - 1,
            "tasks run at depth {depth}"
        );
    }
}

#[test]
fn taskwait_covers_the_whole_subtree_of_its_children() {
    let mut rt = runtime(4);
    let counter = counter();
    let (seen, _) = rt.run(lang::scatter_then_read(counter, 8)).unwrap();
    assert_eq!(seen, (1 << 9) - 1);
}

#[test]
fn variable_fan_out_into_slots() {
    let mut rt = runtime(4);
    for (n, width) in [(0, 3), (3, 5), (4, 7), (2, 16)] {
        let expected: u64 = (0..=n).map(|d| (width as u64).pow(d)).sum();
        assert_eq!(
            rt.run(lang::fan(n, width)).unwrap().0,
            expected,
            "fan({n}, {width})"
        );
    }
}

#[test]
fn slots_overflow_is_an_error_and_the_runtime_stays_usable() {
    let mut rt = runtime(2);
    let err = rt.run(lang::fan(2, 17)).unwrap_err();
    assert!(
        matches!(err, CpuError::Run(RunError::SlotsFull { .. })),
        "{err}"
    );
    assert!(err.to_string().contains("16"), "{err}");
    assert_eq!(rt.run(lang::fan(2, 2)).unwrap().0, 7);
}

#[test]
fn mutual_recursion_between_tasks() {
    let mut rt = runtime(2);
    for n in 0..40 {
        assert_eq!(rt.run(lang::even(n)).unwrap().0, n % 2 == 0);
    }
}

#[test]
fn epaq_queue_choices_do_not_change_results() {
    let mut rt = runtime(4);
    for salt in 0..6 {
        assert_eq!(rt.run(lang::fib_q(18, salt)).unwrap().0, 2584);
    }
}

#[test]
fn locals_live_across_joins() {
    let mut rt = runtime(2);
    assert_eq!(
        rt.run(lang::locals(10)).unwrap().0,
        10 + (10 + 2 + 3 + 4) + 100
    );
}

#[test]
fn too_many_children_is_an_error_naming_the_setting() {
    let mut rt = runtime(2);
    let err = rt.run(lang::too_many(1000)).unwrap_err();
    assert!(
        matches!(err, CpuError::Run(RunError::TooManyChildren { .. })),
        "{err}"
    );
    assert!(err.to_string().contains("max_children"), "{err}");
    rt.run(lang::too_many(10)).unwrap();
}

#[test]
fn a_panic_inside_a_task_is_an_error_and_the_runtime_stays_usable() {
    let mut rt = runtime(2);
    assert_eq!(rt.run(lang::index(2)).unwrap().0, 12);
    let err = rt.run(lang::index(7)).unwrap_err();
    assert!(matches!(err, CpuError::TaskPanicked { .. }), "{err}");
    assert_eq!(rt.run(lang::index(3)).unwrap().0, 13);
}

#[test]
fn a_run_longer_than_the_timeout_is_stopped_and_the_runtime_stays_usable() {
    let timeout = Duration::from_millis(20);
    let mut rt = CpuRuntime::new(
        CpuConfig::new()
            .auto_granularity(false)
            .threads(2)
            .timeout(timeout),
    )
    .unwrap();
    let began = Instant::now();
    // Four billion joins in a chain: hours of work.
    let err = rt.run(lang::loop_join(u32::MAX)).unwrap_err();
    let took = began.elapsed();
    assert!(
        matches!(err, CpuError::Run(RunError::TimedOut { after }) if after == timeout),
        "{err}"
    );
    assert!(err.to_string().contains("CpuConfig::timeout"), "{err}");
    assert!(
        took >= timeout,
        "stopped after {took:?}, before its timeout"
    );
    assert_eq!(
        rt.run(lang::loop_join(50)).unwrap().0,
        (0..50u64).map(|i| i * i).sum()
    );
    assert_eq!(rt.run(lang::fan(3, 4)).unwrap().0, 1 + 4 + 16 + 64);
}

#[test]
fn a_task_that_never_returns_is_reported_stuck_and_the_runtime_stays_usable() {
    let timeout = Duration::from_millis(20);
    for (threads, children) in [(1, 0), (2, 5)] {
        let mut rt = CpuRuntime::new(
            CpuConfig::new()
                .auto_granularity(false)
                .threads(threads)
                .timeout(timeout),
        )
        .unwrap();
        rt.run(lang::fan(2, 3)).unwrap();
        let first_records = rt.records_addr();
        let release = counter();
        let began = Instant::now();
        let err = rt.run(lang::spin(release, children)).unwrap_err();
        let took = began.elapsed();
        assert!(
            matches!(err, CpuError::Stuck { after } if after == timeout),
            "{threads} threads: {err}"
        );
        assert!(err.to_string().contains("did not return"), "{err}");
        // Reported after the timeout and its grace period (at least 0.1 s), not before.
        assert!(
            took >= timeout + Duration::from_millis(100),
            "reported after {took:?}"
        );
        // The stuck worker still spins in the old memory; the runtime runs on fresh memory.
        assert_eq!(
            rt.run(lang::loop_join(50)).unwrap().0,
            (0..50u64).map(|i| i * i).sum()
        );
        assert_eq!(rt.run(lang::staged(5)).unwrap().0, 25 + 36 + 49 + 64);
        assert_ne!(
            rt.records_addr(),
            first_records,
            "the stuck run's records were reused"
        );
        // Let the stuck task return: its worker then finishes in the leaked memory and exits.
        release.add(1);
    }
}
