//! Search with a bound shared by every task, on the GPU: knapsack against dynamic
//! programming and floorplan against an exhaustive search, on several launch shapes with the
//! granularity policy on and off, and knapsack on an instance of the benchmark's kind (about
//! 10^7 nodes). The checks of `search_cpu.rs`. Reported as ignored without a GPU (the GPU test
//! harness).

mod common;

use gtap::DeviceVec;
use gtap_examples::floorplan::{self, reference as fp};
use gtap_examples::knapsack::instance::{Correlation, Instance};
use gtap_examples::knapsack::reference::dp_best;
use gtap_examples::knapsack::{self, Found};
use gtap_host::gpu_runtime::{GpuConfig, GpuRuntime};

/// Made as the caller takes them: one at a time holds its records and queues.
fn runtimes() -> impl Iterator<Item = GpuRuntime> {
    [
        GpuConfig::new().grid(1).block(32),
        GpuConfig::new().grid(7).block(64),
        GpuConfig::new(),
    ]
    .into_iter()
    .flat_map(|c| [c.clone(), c.auto_granularity(false)])
    .filter_map(|c| common::runtime(gtap_examples::PTX, c))
}

fn run_knapsack(rt: &mut GpuRuntime, inst: &Instance) -> Found {
    let items = DeviceVec::from_slice(rt, &inst.items).unwrap();
    let mut best = DeviceVec::<u32>::zeros(rt, 1).unwrap();
    let root = knapsack::program::knapsack(items.view(), inst.capacity, best.atomics());
    let (found, _) = rt
        .run(root)
        .unwrap_or_else(|e| panic!("knapsack with {:?}: {e}", rt.config()));
    assert_eq!(
        best.to_vec().unwrap(),
        [found.best],
        "the shared best is the answer"
    );
    found
}

fn knapsack_finds_what_dynamic_programming_finds() {
    let cases: Vec<(Instance, u32)> = (0..4)
        .flat_map(|seed| {
            [Correlation::None, Correlation::Weak, Correlation::Strong]
                .map(|c| Instance::generate(30, 1000, c, seed))
        })
        .map(|inst| {
            let want = dp_best(&inst.items, inst.capacity);
            (inst, want)
        })
        .collect();
    for mut rt in runtimes() {
        for (inst, want) in &cases {
            let found = run_knapsack(&mut rt, inst);
            assert_eq!(
                found.best,
                *want,
                "{} items with {:?}",
                inst.items.len(),
                rt.config()
            );
        }
    }
}

fn knapsack_of_the_benchmark_s_kind() {
    let Some(mut rt) = common::runtime(gtap_examples::PTX, GpuConfig::new()) else {
        return;
    };
    let inst = Instance::generate(40, 1000, Correlation::Strong, 1);
    let want = dp_best(&inst.items, inst.capacity);
    for _ in 0..3 {
        let found = run_knapsack(&mut rt, &inst);
        assert_eq!(found.best, want);
        eprintln!(
            "knapsack, 40 strongly correlated items: {} nodes",
            found.nodes
        );
    }
}

fn floorplan_finds_what_trying_every_placement_finds() {
    let cases: Vec<_> = (0..8)
        .map(|seed| {
            let cells = fp::generate(7, 9, 5, seed);
            let want = fp::exhaustive(&cells).unwrap_or(u32::MAX);
            (cells, want)
        })
        .collect();
    for mut rt in runtimes() {
        for (cells, want) in &cases {
            let dc = DeviceVec::from_slice(&rt, cells).unwrap();
            let mut best = DeviceVec::from_slice(&rt, &[u32::MAX]).unwrap();
            let mut nodes = DeviceVec::<u64>::zeros(&rt, 1).unwrap();
            let root = floorplan::program::floorplan(dc.view(), best.atomics(), nodes.atomics());
            rt.run(root)
                .unwrap_or_else(|e| panic!("floorplan with {:?}: {e}", rt.config()));
            assert_eq!(best.to_vec().unwrap(), [*want], "{:?}", rt.config());
            assert!(nodes.to_vec().unwrap()[0] >= 1);
        }
    }
}

gtap_host::gpu_test_main!(
    knapsack_finds_what_dynamic_programming_finds,
    knapsack_of_the_benchmark_s_kind,
    floorplan_finds_what_trying_every_placement_finds,
);
