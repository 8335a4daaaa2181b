//! Whole task programs on the CPU backend, small enough to run under Miri: the code that
//! `#[gtap::program]` generates, the worker loop, the deques, the pool, the join protocol and
//! the host runtime's threads and memory, together. CI runs this file under Miri
//! (`cargo miri test -p gtap-tests --test cpu_end_to_end`, see `.ci/run`), where Miri checks
//! every access of every thread for undefined behaviour and data races.
//!
//! Two workers and small capacities: Miri interprets every instruction, so each program is a
//! few hundred tasks at most.

use std::sync::atomic::AtomicU64;
use std::time::Duration;

use gtap::{AtomicView, DeviceVec, View, ViewMut};
use gtap_examples::knapsack::instance::{Correlation, Instance};
use gtap_examples::knapsack::reference::dp_best;
use gtap_examples::{cilksort, fib, knapsack, mergesort};
use gtap_host::RunError;
use gtap_host::cpu::{CpuConfig, CpuError, CpuRuntime};
use gtap_tests::borrow::{block_program, program as borrow, root_reference};
use gtap_tests::lang::{Counter, branches_reference, program as lang};

fn runtime() -> CpuRuntime {
    CpuRuntime::new(
        CpuConfig::new()
            .auto_granularity(false)
            .threads(2)
            .task_capacity(512)
            .queue_capacity(512)
            .num_queues(3),
    )
    .expect("CPU runtime")
}

/// A counter in a static: Miri's leak check, on for all but the stuck-task test, would
/// report one in leaked heap memory.
fn counter(cell: &'static AtomicU64) -> Counter {
    // SAFETY: `AtomicU64` has `u64`'s size and alignment; a static lives for the program.
    unsafe { Counter::from_ptr(cell.as_ptr()) }
}

#[test]
fn fib() {
    let mut rt = runtime();
    for n in 8..=10 {
        let (value, stats) = rt.run(fib::program::fib(n)).unwrap();
        assert_eq!(value, fib::reference(n), "fib({n})");
        assert_eq!(
            stats.tasks_executed,
            fib::task_count(n),
            "tasks of fib({n})"
        );
    }
}

#[test]
fn mergesort() {
    let mut rt = runtime();
    let input: Vec<u32> = (0..48u32)
        .map(|i| i.wrapping_mul(2_654_435_761) >> 20)
        .collect();
    let mut data = input.clone();
    let mut tmp = vec![0u32; data.len()];
    let (d, t) = (
        ViewMut::from_slice(&mut data),
        ViewMut::from_slice(&mut tmp),
    );
    rt.run(mergesort::program::mergesort(d, t, 4)).unwrap();
    let mut expected = input;
    expected.sort_unstable();
    assert_eq!(data, expected);
}

/// Borrowed arguments: a slice split among children, used whole after the join, shared
/// views, slots over chunks, children without handles, host views and `DeviceVec`s.
#[test]
fn borrowed_arguments() {
    let mut rt = runtime();
    let input: Vec<u32> = (0..16u32).map(|i| i.wrapping_mul(2_654_435_761)).collect();
    let bias = [1, 2, 3];
    let mut want = input.clone();
    let want_sum = root_reference(&mut want, &bias);
    let mut data = DeviceVec::from_slice(&rt, &input).unwrap();
    let (sum, _) = rt
        .run(borrow::root(data.view_mut(), View::from_slice(&bias), 4))
        .unwrap();
    assert_eq!((sum, data.to_vec().unwrap()), (want_sum, want));
    let mut filled = vec![0u32; 12];
    rt.run(borrow::fill(ViewMut::from_slice(&mut filled), 0, 4))
        .unwrap();
    assert!(filled.iter().enumerate().all(|(i, &x)| x == i as u32 + 1));
}

/// Views of two arrays in turn, shared and exclusive (cilksort's merges), and an array of
/// atomics that every task updates (knapsack's best value).
#[test]
fn views_and_a_shared_bound() {
    let mut rt = runtime();
    let input: Vec<u32> = (0..24u32)
        .map(|i| i.wrapping_mul(2_654_435_761) >> 16)
        .collect();
    let (mut data, mut tmp) = (input.clone(), vec![0u32; input.len()]);
    let (d, t) = (
        ViewMut::from_slice(&mut data),
        ViewMut::from_slice(&mut tmp),
    );
    rt.run(cilksort::program::cilksort(d, t, 4, 4)).unwrap();
    let mut sorted = input;
    sorted.sort_unstable();
    assert_eq!(data, sorted);

    let inst = Instance::generate(6, 30, Correlation::Weak, 1);
    let items = DeviceVec::from_slice(&rt, &inst.items).unwrap();
    let mut best = DeviceVec::<u32>::zeros(&rt, 1).unwrap();
    let root = knapsack::program::knapsack(items.view(), inst.capacity, best.atomics());
    let (found, _) = rt.run(root).unwrap();
    let want = dp_best(&inst.items, inst.capacity);
    assert_eq!((found.best, best.to_vec().unwrap()[0]), (want, want));
}

/// Flags set by many tasks at once, and a block program reading a shared view.
#[test]
fn atomic_flags_and_a_block_program() {
    let mut rt = runtime();
    // A ring of 12 vertices, each with an edge to the next two.
    let row_ptr: Vec<u32> = (0..=12).map(|v| 2 * v).collect();
    let col: Vec<u32> = (0..12).flat_map(|v| [(v + 1) % 12, (v + 2) % 12]).collect();
    let mut flags = [0u32; 1];
    let visited = AtomicView::from_slice(&mut flags);
    visited.set_bit(0);
    let root = borrow::reach(
        View::from_slice(&row_ptr),
        View::from_slice(&col),
        visited,
        0,
    );
    let (_, stats) = rt.run(root).unwrap();
    assert_eq!((flags[0], stats.tasks_executed), ((1 << 12) - 1, 12));

    let mut teams = CpuRuntime::new(CpuConfig::new().threads(2).team(2)).unwrap();
    let xs: Vec<u32> = (1..=12).collect();
    let mut total = [0u64];
    let root = block_program::sum(View::from_slice(&xs), AtomicView::from_slice(&mut total), 4);
    teams.run(root).unwrap();
    assert_eq!(total, [78]);
}

#[test]
fn language_features() {
    let mut rt = runtime();
    assert_eq!(rt.run(lang::loop_join(6)).unwrap().0, 1 + 4 + 9 + 16 + 25);
    assert_eq!(rt.run(lang::branches(6)).unwrap().0, branches_reference(6));
    assert_eq!(rt.run(lang::staged(2)).unwrap().0, 4 + 9 + 16 + 25);
    assert_eq!(rt.run(lang::fan(2, 3)).unwrap().0, 1 + 3 + 9);
    assert!(rt.run(lang::even(6)).unwrap().0);
    assert_eq!(rt.run(lang::fib_q(7, 1)).unwrap().0, 13);
    assert_eq!(rt.run(lang::locals(3)).unwrap().0, 3 + (3 + 2 + 3 + 4) + 9);
    static COUNT: AtomicU64 = AtomicU64::new(0);
    let (seen, _) = rt.run(lang::scatter_then_read(counter(&COUNT), 4)).unwrap();
    assert_eq!(seen, (1 << 5) - 1);
}

#[test]
fn limit_errors_and_a_panic_leave_the_runtime_usable() {
    let mut rt = runtime();
    // 257 children in a queue of 512: more than the program's `max_children` (256).
    let err = rt.run(lang::too_many(300)).unwrap_err();
    assert!(
        matches!(err, CpuError::Run(RunError::TooManyChildren { .. })),
        "{err}"
    );
    let err = rt.run(lang::fan(1, 17)).unwrap_err();
    assert!(
        matches!(err, CpuError::Run(RunError::SlotsFull { .. })),
        "{err}"
    );
    let err = rt.run(lang::index(7)).unwrap_err();
    assert!(matches!(err, CpuError::TaskPanicked { .. }), "{err}");
    assert_eq!(rt.run(lang::index(1)).unwrap().0, 11);
    // One queue, four records, queues of two entries.
    let mut small = CpuRuntime::new(
        CpuConfig::new()
            .auto_granularity(false)
            .threads(2)
            .task_capacity(4)
            .queue_capacity(2),
    )
    .unwrap();
    let err = small.run(lang::fib_q(6, 1)).unwrap_err();
    assert!(
        matches!(err, CpuError::Run(RunError::BadQueue { queue: 1, .. })),
        "{err}"
    );
    let err = small.run(fib::program::fib(8)).unwrap_err();
    assert!(
        matches!(
            err,
            CpuError::Run(RunError::PoolExhausted { capacity: 4 })
                | CpuError::Run(RunError::QueueFull { capacity: 2 })
        ),
        "{err}"
    );
    assert_eq!(small.run(fib::program::fib(2)).unwrap().0, 1);
}

fn runtime_with_timeout(timeout: Duration) -> CpuRuntime {
    CpuRuntime::new(
        CpuConfig::new()
            .auto_granularity(false)
            .threads(2)
            .task_capacity(64)
            .queue_capacity(16)
            .timeout(timeout),
    )
    .unwrap()
}

#[test]
fn timeout() {
    let mut rt = runtime_with_timeout(Duration::from_millis(20));
    let err = rt.run(lang::loop_join(u32::MAX)).unwrap_err();
    assert!(
        matches!(err, CpuError::Run(RunError::TimedOut { .. })),
        "{err}"
    );
    // Time to spare for the next run: Miri's clock counts the steps of every thread, those of
    // the tests running beside this one too.
    rt.set_config(rt.config().clone().timeout(Duration::from_secs(600)))
        .unwrap();
    assert_eq!(rt.run(lang::loop_join(4)).unwrap().0, 1 + 4 + 9);
}

/// The run's memory is leaked on purpose here, so under Miri this test runs on its own with
/// `-Zmiri-ignore-leaks` (`.ci/run`): what it checks is that the stuck worker and the runtime
/// never touch each other's memory.
#[test]
fn stuck_task() {
    // Long enough for worker 0 to have started the root under Miri, whose clock counts every
    // thread's steps (the workers' start-up among them) and depends on the seed: the error
    // must come from the root spinning, not from a run stopped before it began.
    let mut rt = runtime_with_timeout(Duration::from_millis(200));
    static RELEASE: AtomicU64 = AtomicU64::new(0);
    let release = counter(&RELEASE);
    let err = rt.run(lang::spin(release, 3)).unwrap_err();
    assert!(matches!(err, CpuError::Stuck { .. }), "{err}");
    // The stuck worker spins in the leaked memory while the runtime runs on fresh memory
    // (with time to spare: under Miri the spinning thread's steps advance the clock too).
    rt.set_config(rt.config().clone().timeout(Duration::from_secs(600)))
        .unwrap();
    assert_eq!(rt.run(lang::loop_join(4)).unwrap().0, 1 + 4 + 9);
    // Let it return: it finishes its run in the leaked memory and exits.
    release.add(1);
}
