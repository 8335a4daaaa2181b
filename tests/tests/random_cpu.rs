//! Thousands of random fork-join programs on the CPU backend (see `gtap_tests::random`): each
//! result and task count must match the sequential reference, for several worker counts and
//! EPAQ queue counts.

mod common;

use common::counter;
use gtap_host::cpu::{CpuConfig, CpuRuntime};
use gtap_tests::random::{program, reference};

#[test]
fn random_programs_match_their_reference() {
    let mut programs = 0;
    let mut tasks = 0;
    for (threads, queues, seeds) in [
        (1usize, 1u32, 0..500u64),
        (2, 3, 500..1500),
        (4, 2, 1500..3000),
    ] {
        let mut rt = CpuRuntime::new(CpuConfig::new().threads(threads).num_queues(queues)).unwrap();
        for seed in seeds {
            let (c, _cell) = counter();
            let (value, _) = rt.run(program::node(seed, 0, queues, c)).unwrap();
            let (want, nodes) = reference(seed, 0);
            assert_eq!(
                value, want,
                "value of random program {seed} ({threads} threads, {queues} queues)"
            );
            assert_eq!(
                c.get(),
                nodes,
                "tasks run by random program {seed} ({threads} threads, {queues} queues)"
            );
            programs += 1;
            tasks += nodes;
        }
    }
    assert_eq!(programs, 3000);
    eprintln!("{programs} random programs, {tasks} tasks");
    assert!(
        tasks > 100_000,
        "the programs are too small to test anything: {tasks} tasks"
    );
}

#[test]
fn random_mixed_programs_match_their_reference() {
    use gtap_tests::random::{is_block, mixed_reference, mixed_root};
    let mut programs = 0;
    let mut tasks = 0;
    let mut block_roots = 0;
    for (threads, team, queues, seeds) in [
        (1usize, 1u32, 1u32, 0..150u64),
        (2, 2, 2, 150..300),
        (2, 3, 1, 300..450),
        (3, 4, 3, 450..600),
    ] {
        let config = CpuConfig::new()
            .threads(threads)
            .team(team)
            .num_queues(queues)
            .check_uniform(true);
        let mut rt = CpuRuntime::new(config).unwrap();
        for seed in seeds {
            let (c, _cell) = counter();
            let (value, stats) = rt.run(mixed_root(seed, queues, c)).unwrap();
            let (want, nodes) = mixed_reference(seed, 0, team);
            let shape = format!("{threads} teams of {team}, {queues} queues");
            assert_eq!(
                value, want,
                "value of random mixed program {seed} ({shape})"
            );
            assert_eq!(
                c.get(),
                nodes,
                "nodes of random mixed program {seed} ({shape})"
            );
            // Mixed programs have no sequential versions: every node is a task.
            assert_eq!(
                stats.tasks_executed, nodes,
                "tasks of program {seed} ({shape})"
            );
            programs += 1;
            tasks += nodes;
            block_roots += u64::from(is_block(seed));
        }
    }
    eprintln!("{programs} random mixed programs, {tasks} tasks, {block_roots} block roots");
    assert!(
        tasks > 15_000 && block_roots > 100,
        "the programs are too small to test anything: {tasks} tasks, {block_roots} block roots"
    );
}
