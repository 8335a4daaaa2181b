//! Programs with both thread tasks and block tasks on the CPU backend: a team's leader runs
//! a thread task alone and a block task with its team; joins, results and per-thread spawns
//! cross the two kinds. (The GPU backend refuses such programs for now: see
//! `GpuRunError::MixedProgram`.)

mod common;

use common::counter;
use gtap::Program;
use gtap_host::cpu::{CpuConfig, CpuRuntime};
use gtap_tests::mixed::{program, walk_reference};

// The macro says the program is mixed, and gives it no sequential versions (yet).
const _: () = assert!(program::Program::BLOCK && program::Program::MIXED && !program::Program::SEQ);

#[test]
fn thread_and_block_tasks_join_each_other_on_every_team_shape() {
    for threads in [1, 2, 3] {
        for team in [1, 2, 4] {
            let mut rt = CpuRuntime::new(CpuConfig::new().threads(threads).team(team)).unwrap();
            for n in [0, 1, 7, 40] {
                let (c, cell) = counter();
                let (v, stats) = rt.run(program::walk(c, n)).unwrap();
                assert_eq!(v, walk_reference(n, team), "{threads} x {team}, n = {n}");
                assert_eq!(*cell, u64::from(n * team), "{threads} x {team}, n = {n}");
                // walk: n + 1 tasks; each team_step: itself, its square, a bump per thread.
                let tasks = u64::from(n + 1) + u64::from(n) * (2 + u64::from(team));
                assert_eq!(stats.tasks_executed, tasks, "{threads} x {team}, n = {n}");
            }
        }
    }
}
