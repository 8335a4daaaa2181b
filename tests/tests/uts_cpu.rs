//! Unbalanced Tree Search on the CPU backend: UTS's sample trees T1 (geometric) and T3
//! (binomial) counted by the task program, node for node as UTS publishes them (nodes, leaves,
//! depth), with the automatic granularity policy on (the default) and off; the program without
//! joins, one task per node; and the CPU references on the same trees.
//!
//! The large samples (T1L, T3L: about 10^8 nodes) run only when asked, in a release build:
//! `cargo test --release -p gtap-tests --test uts_cpu -- --ignored`.

use gtap_examples::uts::{self, Sample, detached, program};
use gtap_host::cpu::{CpuConfig, CpuRuntime, CpuStats};

fn sample(name: &str) -> Sample {
    Sample::named(name).unwrap()
}

/// Runs `s` on the CPU backend with `config`, checks its count, and returns the run's
/// statistics.
fn run(config: CpuConfig, s: Sample) -> CpuStats {
    let threads = config.workers().threads();
    let mut rt = CpuRuntime::new(config).unwrap();
    let (count, stats) = rt
        .run(program::root(s.tree()))
        .unwrap_or_else(|e| panic!("{} on {threads} worker(s): {e}", s.name));
    assert_eq!(count, s.want, "{} on {threads} worker(s)", s.name);
    stats
}

/// Asserts that the run of `s` made one task per node and span, none inline.
fn assert_every_spawn_a_task(stats: &CpuStats, s: Sample) {
    assert_eq!(stats.spawns_inlined, 0, "spawns of {} run inline", s.name);
    let tasks = uts::task_count(&s.tree());
    assert_eq!(stats.tasks_executed, tasks, "tasks of {}", s.name);
}

#[test]
fn t1_and_t3_have_their_published_sizes_on_the_cpu_backend() {
    for threads in [1, 2] {
        run(CpuConfig::new().threads(threads), sample("T1"));
        // A binomial tree has no depth bound: its spawns are tasks whatever the policy.
        let t3 = sample("T3");
        let stats = run(CpuConfig::new().threads(threads), t3);
        assert_every_spawn_a_task(&stats, t3);
    }
}

#[test]
fn with_automatic_granularity_off_every_node_and_span_is_a_task() {
    let t1 = sample("T1");
    let stats = run(CpuConfig::new().threads(2).auto_granularity(false), t1);
    assert_every_spawn_a_task(&stats, t1);
}

#[test]
fn the_detached_program_runs_one_task_per_node_of_t1_and_t3() {
    let mut rt = CpuRuntime::new(CpuConfig::new().threads(2)).unwrap();
    for s in [sample("T1"), sample("T3")] {
        let ((), stats) = rt.run(detached::root(s.tree())).unwrap();
        assert_eq!(stats.tasks_executed, s.want.nodes, "tasks of {}", s.name);
    }
}

#[test]
fn the_references_count_t1_and_t3() {
    let pool = uts::rayon_pool(2);
    for s in [sample("T1"), sample("T3")] {
        assert_eq!(uts::count_sequential(&s.tree()), s.want, "{}", s.name);
        let got = pool.install(|| uts::count_rayon(&s.tree()));
        assert_eq!(got, s.want, "{} with rayon", s.name);
    }
}

#[test]
#[ignore = "10^8 nodes: run in a release build"]
fn t1l_has_its_published_size_on_the_cpu_backend() {
    run(CpuConfig::new(), sample("T1L"));
    run(CpuConfig::new().auto_granularity(false), sample("T1L"));
}

/// T3L's 17,844 levels as tasks: one worker walks depth first, so its queue holds the waiting
/// siblings of every level on the current path, and its records every suspended ancestor and
/// those siblings. The defaults (2^16 queue entries, records sized from the host's memory)
/// hold them.
#[test]
#[ignore = "10^8 nodes: run in a release build"]
fn t3l_has_its_published_size_on_the_cpu_backend() {
    run(CpuConfig::new().threads(1), sample("T3L"));
    run(CpuConfig::new(), sample("T3L"));
}
