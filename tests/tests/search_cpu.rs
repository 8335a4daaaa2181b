//! Search with a bound shared by every task, on the CPU backend: knapsack (BOTS's branch and
//! bound, against dynamic programming) and floorplan (against an exhaustive search), with
//! the granularity policy on and off, on generated instances. The same on the GPU:
//! `search_gpu.rs`.

use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::time::Duration;

use gtap::{AtomicView, DeviceVec, View};
use gtap_examples::floorplan::{self, reference as fp};
use gtap_examples::knapsack::instance::{Correlation, Instance};
use gtap_examples::knapsack::reference::{dp_best, search};
use gtap_examples::knapsack::{self, Found, Item};
use gtap_host::cpu::{CpuConfig, CpuRuntime};

fn runtime(policy: bool) -> CpuRuntime {
    let config = CpuConfig::new()
        .threads(4)
        .auto_granularity(policy)
        .timeout(Duration::from_secs(120));
    CpuRuntime::new(config).expect("CPU runtime")
}

const CORRELATIONS: [Correlation; 3] = [Correlation::None, Correlation::Weak, Correlation::Strong];

/// The knapsack program's answer for `inst` on `rt`, checked to agree with the shared best.
fn run_knapsack(rt: &mut CpuRuntime, inst: &Instance) -> Found {
    let items = DeviceVec::from_slice(rt, &inst.items).unwrap();
    let mut best = DeviceVec::<u32>::zeros(rt, 1).unwrap();
    let (found, _) = rt
        .run(knapsack::program::knapsack(
            items.view(),
            inst.capacity,
            best.atomics(),
        ))
        .unwrap();
    assert_eq!(
        best.to_vec().unwrap(),
        [found.best],
        "the shared best is the answer"
    );
    found
}

#[test]
fn knapsack_finds_what_dynamic_programming_finds() {
    for policy in [false, true] {
        let mut rt = runtime(policy);
        for seed in 0..6 {
            for c in CORRELATIONS {
                for n in [1, 12, 28] {
                    let inst = Instance::generate(n, 1000, c, seed);
                    let want = dp_best(&inst.items, inst.capacity);
                    let found = run_knapsack(&mut rt, &inst);
                    assert_eq!(
                        found.best, want,
                        "n {n}, {c:?}, seed {seed}, policy {policy}"
                    );
                    assert!(found.nodes >= 1);
                }
            }
        }
    }
}

#[test]
fn knapsack_corner_cases() {
    let mut rt = runtime(false);
    let heavy = |w| Item {
        weight: w,
        value: 5,
    };
    for (items, capacity, want) in [
        (vec![], 10, 0),
        (vec![heavy(3), heavy(4)], 0, 0),
        (vec![heavy(11), heavy(12)], 10, 0),
        (vec![heavy(10)], 10, 5),
        (
            vec![
                Item {
                    weight: 1,
                    value: 0
                };
                5
            ],
            3,
            0,
        ),
    ] {
        let inst = Instance::new(items, capacity);
        assert_eq!(run_knapsack(&mut rt, &inst).best, want, "{inst:?}");
        assert_eq!(dp_best(&inst.items, inst.capacity), want, "{inst:?}");
    }
}

#[test]
fn the_sequential_version_visits_the_reference_s_nodes() {
    // Sequential, both visit the same nodes in the same order with the same best: the node
    // counts agree exactly (a parallel run's depend on its schedule).
    for c in CORRELATIONS {
        let inst = Instance::generate(26, 1000, c, 3);
        let mut shared = [0u32];
        let found = knapsack::program::seq::knapsack(
            View::from_slice(&inst.items),
            inst.capacity,
            AtomicView::from_slice(&mut shared),
        );
        let best = AtomicU32::new(0);
        let want = search(&inst.items, inst.capacity, 0, &best);
        assert_eq!((found.best, found.nodes), (want.best, want.nodes), "{c:?}");
    }
}

#[test]
fn floorplan_finds_what_trying_every_placement_finds() {
    for policy in [false, true] {
        let mut rt = runtime(policy);
        for seed in 0..12 {
            let cells = fp::generate(7, 9, 5, seed);
            let want = fp::exhaustive(&cells).unwrap_or(u32::MAX);
            let dc = DeviceVec::from_slice(&rt, &cells).unwrap();
            let mut best = DeviceVec::from_slice(&rt, &[u32::MAX]).unwrap();
            let mut nodes = DeviceVec::<u64>::zeros(&rt, 1).unwrap();
            rt.run(floorplan::program::floorplan(
                dc.view(),
                best.atomics(),
                nodes.atomics(),
            ))
            .unwrap();
            assert_eq!(
                best.to_vec().unwrap(),
                [want],
                "seed {seed}, policy {policy}"
            );
            assert!(nodes.to_vec().unwrap()[0] >= 1);
        }
    }
}

#[test]
fn floorplan_s_sequential_version_counts_the_reference_s_nodes() {
    for seed in 0..5 {
        let cells = fp::generate(8, 9, 5, seed);
        let (mut best, mut nodes) = ([u32::MAX], [0u64]);
        floorplan::program::seq::floorplan(
            View::from_slice(&cells),
            AtomicView::from_slice(&mut best),
            AtomicView::from_slice(&mut nodes),
        );
        let (rb, rn) = (AtomicU32::new(u32::MAX), AtomicU64::new(0));
        fp::search(&cells, &rb, &rn);
        assert_eq!(
            (best[0], nodes[0]),
            (rb.load(Ordering::Relaxed), rn.load(Ordering::Relaxed)),
            "seed {seed}"
        );
    }
}
