//! Block tasks (`#[gtap::task(block)]`) on the CPU backend, where each worker is a team of
//! threads: block-wide spawns with results, per-thread spawns, the team barrier and scratch,
//! and the mistakes the runtime catches (a divergent taskwait, non-uniform live state, threads
//! that come to different passes of `TeamMut::pass_from`).

mod common;

use std::time::Duration;

use gtap_host::RunError;
use gtap_host::cpu::{CpuConfig, CpuError, CpuRuntime};
use gtap_tests::block::{fan_expected, program as blocks, tree_expected};
use gtap_tests::lang::Counter;

fn counter() -> Counter {
    let cell: &'static mut u64 = Box::leak(Box::new(0u64));
    // SAFETY: zeroed, aligned, leaked (lives for the program).
    unsafe { Counter::from_ptr(cell) }
}

fn runtime(threads: usize, team: u32) -> CpuRuntime {
    let config = CpuConfig::new()
        .threads(threads)
        .team(team)
        .check_uniform(true)
        .timeout(Duration::from_secs(60));
    CpuRuntime::new(config).expect("CPU runtime")
}

#[test]
fn block_wide_spawns_return_every_result_on_several_team_sizes() {
    for (threads, team) in [(1, 1), (1, 4), (2, 3), (3, 8)] {
        let mut rt = runtime(threads, team);
        for depth in [0, 1, 5, 9] {
            let (got, stats) = rt.run(blocks::tree(depth)).unwrap();
            assert_eq!(
                got,
                tree_expected(depth, team),
                "tree({depth}) on {threads} teams of {team}"
            );
            assert_eq!(stats.tasks_executed, (1u64 << (depth + 1)) - 1);
        }
    }
}

#[test]
fn per_thread_spawns_each_make_a_child() {
    for (threads, team, fanout) in [(1, 4, 2), (2, 4, 3), (2, 8, 4)] {
        let mut rt = runtime(threads, team);
        let c = counter();
        rt.run(blocks::fan(c, 6, fanout)).unwrap();
        assert_eq!(c.get(), fan_expected(6, fanout), "fan on {threads}x{team}");
    }
}

#[test]
fn a_taskwait_joins_the_children_of_every_thread() {
    let mut rt = runtime(2, 4);
    let c = counter();
    let (seen, _) = rt.run(blocks::fan_then_read(c, 5, 3)).unwrap();
    // The root itself does not count; its 3 subtrees of depth 4 do, all before the join.
    assert_eq!(seen, 3 * fan_expected(4, 3));
}

#[test]
fn a_divergent_taskwait_is_an_error_and_the_runtime_stays_usable() {
    let mut rt = runtime(2, 4);
    let err = rt.run(blocks::divergent()).unwrap_err();
    assert!(
        matches!(
            err,
            CpuError::Run(RunError::DivergentTaskwait {
                task: "divergent",
                thread: 1
            })
        ),
        "{err}"
    );
    assert_eq!(rt.run(blocks::tree(3)).unwrap().0, tree_expected(3, 4));
}

#[test]
fn non_uniform_live_state_is_an_error_when_checked() {
    let mut rt = runtime(2, 4);
    let err = rt.run(blocks::non_uniform()).unwrap_err();
    assert!(
        matches!(
            err,
            CpuError::Run(RunError::NonUniformState {
                task: "non_uniform"
            })
        ),
        "{err}"
    );
    assert_eq!(rt.run(blocks::tree(2)).unwrap().0, tree_expected(2, 4));
    // With the check off the mistake goes unseen: the leader's value wins.
    let mut unchecked =
        CpuRuntime::new(CpuConfig::new().threads(1).team(4).check_uniform(false)).unwrap();
    assert_eq!(unchecked.run(blocks::non_uniform()).unwrap().0, 1);
}

#[test]
fn a_team_of_one_runs_block_tasks_too() {
    let mut rt = runtime(2, 1);
    assert_eq!(rt.run(blocks::tree(6)).unwrap().0, tree_expected(6, 1));
    // One thread cannot diverge from itself.
    assert_eq!(rt.run(blocks::divergent()).unwrap().0, 1);
}

/// A batch of block roots in which root `bad` panics on one team thread, the leader or a
/// follower, `depth` tasks below it: the error names the root and the task, and the next run
/// on the same runtime works.
#[test]
fn a_panic_on_any_team_thread_names_its_root_and_task() {
    let mut rt = runtime(2, 4);
    for (bad, thread, depth) in [(0, 0, 0), (5, 0, 2), (7, 2, 0), (11, 3, 3)] {
        let roots = (0..12u32)
            .map(|i| blocks::panic_on_thread(depth, thread, u32::from(i == bad), i.into()));
        let (root, roots, source) = common::cpu_in_root(rt.run_batch(roots).unwrap_err());
        let at = format!("root {bad}, thread {thread}, depth {depth}");
        assert_eq!((root, roots), (bad as usize, 12), "{at}");
        assert!(
            matches!(
                source,
                CpuError::TaskPanicked {
                    task: "panic_on_thread",
                    ..
                }
            ),
            "{at}: {source}"
        );
    }
    let roots = (0..12u32).map(|i| blocks::panic_on_thread(2, 1, 0, i.into()));
    let (values, _) = rt.run_batch(roots).unwrap();
    assert_eq!(values, (0..12).collect::<Vec<u64>>());
}

/// A block-wide pass (`TeamMut::pass_from`) writes every element; when one thread of the team
/// passes the other way the run fails with the pass's panic and neither array is touched.
#[test]
fn threads_that_come_to_different_passes_fail_the_run_before_touching_the_data() {
    for team in [1, 2, 4] {
        let mut rt = runtime(2, team);
        let mut x: Vec<u32> = (0..100).collect();
        let mut y = vec![0u32; 100];
        let root = blocks::pass(
            gtap::ViewMut::from_slice(&mut x),
            gtap::ViewMut::from_slice(&mut y),
            0,
        );
        assert_eq!(rt.run(root).unwrap().0, u64::from(team));
        assert_eq!(y, (1..=100).collect::<Vec<u32>>(), "team {team}");
        if team == 1 {
            continue; // one thread cannot diverge from itself
        }
        let mut y = vec![0u32; 100];
        let root = blocks::pass(
            gtap::ViewMut::from_slice(&mut x),
            gtap::ViewMut::from_slice(&mut y),
            1,
        );
        match rt.run(root).unwrap_err() {
            CpuError::TaskPanicked { task, message } => {
                assert_eq!(task, "pass");
                assert!(message.contains("different passes"), "{message}");
            }
            other => panic!("expected TaskPanicked, got {other}"),
        }
        assert_eq!(x, (0..100).collect::<Vec<u32>>(), "team {team}");
        assert_eq!(y, vec![0u32; 100], "team {team}");
    }
}
