//! `knapsack`: 0/1 knapsack by branch and bound (BOTS's algorithm, `gtap_examples::knapsack`),
//! one GPU task per node, the best value an `AtomicView` element that every task reads to
//! prune and raises with `fetch_max`. CPU baselines with the same bound sharing (one
//! `AtomicU32`, relaxed): the sequential search, and rayon joining both children of the nodes
//! in the top `--rayon-levels` levels. Every search's shared best starts at the greedy
//! packing's value (`--start zero`: at 0, as BOTS). Every run's answer is checked against
//! dynamic programming. A run's node count depends on when its tasks read the best, so it varies;
//! each row's counts are printed (least and most over its runs).

use std::sync::atomic::AtomicU32;

use gtap::DeviceVec;
use gtap_examples::knapsack::instance::{Correlation, Instance};
use gtap_examples::knapsack::reference::{dp_best, greedy, search, search_rayon};
use gtap_examples::knapsack::{Found, program};

use crate::Bench;
use crate::cli::{CorrelationArg, KnapsackArgs, KnapsackStart};
use crate::harness::{Key, Sample, timed};

impl CorrelationArg {
    fn correlation(self) -> Correlation {
        match self {
            CorrelationArg::None => Correlation::None,
            CorrelationArg::Weak => Correlation::Weak,
            CorrelationArg::Strong => Correlation::Strong,
        }
    }
}

/// The least and most nodes of a row's runs, printed after it.
#[derive(Default)]
struct Nodes(Option<(u64, u64)>);

impl Nodes {
    fn add(&mut self, found: Found) {
        let (lo, hi) = self.0.get_or_insert((found.nodes, found.nodes));
        *lo = (*lo).min(found.nodes);
        *hi = (*hi).max(found.nodes);
    }

    fn print(&self, what: &str) {
        if let Some((lo, hi)) = self.0 {
            eprintln!("    {what}: {lo} to {hi} nodes");
        }
    }
}

/// The rows of `a`.
pub fn run(b: &mut Bench, a: &KnapsackArgs) {
    for &n in &a.n {
        let inst = Instance::generate(n, a.range, a.correlation.correlation(), a.seed);
        let want = dp_best(&inst.items, inst.capacity);
        let size = format!("{n} items");
        let start = match a.start {
            KnapsackStart::Greedy => greedy(&inst.items, inst.capacity),
            KnapsackStart::Zero => 0,
        };
        let what = format!(
            "{:?}, range {}, seed {}, best from {start}",
            a.correlation, a.range, a.seed
        );
        eprintln!(
            "knapsack: {n} items ({what}), capacity {}, best {want}",
            inst.capacity
        );
        // A search reports only the packings it reached: from a start at the best it may
        // reach none, and then the best is the start's.
        let check = |found: Found, backend: &str| {
            assert_eq!(
                found.best.max(start),
                want,
                "knapsack of {n} items on {backend}: not the best"
            );
        };
        if let Some(rt) = b.rt.as_mut() {
            let items = DeviceVec::from_slice(rt, &inst.items).expect("upload");
            let mut best = DeviceVec::<u32>::zeros(rt, 1).expect("device memory");
            let mut nodes = Nodes::default();
            let key = Key::new("knapsack", &size, "gpu", format!("task per node, {what}"));
            b.h.measure(key.queues(1), || {
                let (e2e, r) = timed(|| {
                    best.copy_from(&[start]).expect("upload");
                    rt.run(program::knapsack(
                        items.view(),
                        inst.capacity,
                        best.atomics(),
                    ))
                });
                let (found, s) = r.unwrap_or_else(|e| panic!("knapsack on the GPU: {e}"));
                check(found, "the GPU");
                nodes.add(found);
                Sample::gpu(s, e2e)
            });
            nodes.print("gpu");
        }
        let mut nodes = Nodes::default();
        b.h.measure(
            Key::new(
                "knapsack",
                &size,
                "seq",
                format!("branch and bound, {what}"),
            ),
            || {
                let (t, found) =
                    timed(|| search(&inst.items, inst.capacity, 0, &AtomicU32::new(start)));
                check(found, "one thread");
                nodes.add(found);
                Sample::cpu(t)
            },
        );
        nodes.print("seq");
        let mut nodes = Nodes::default();
        let levels = a.rayon_levels;
        let variant = format!("join in the top {levels} levels, {what}");
        b.h.measure(Key::new("knapsack", &size, "rayon", variant), || {
            let (t, found) = timed(|| {
                search_rayon(
                    &inst.items,
                    inst.capacity,
                    0,
                    &AtomicU32::new(start),
                    levels,
                )
            });
            check(found, "rayon");
            nodes.add(found);
            Sample::cpu(t)
        });
        nodes.print("rayon");
    }
}
