//! `floorplan`: cells placed with pruning against the smallest area any task has found (a
//! simplified BOTS floorplan, `gtap_examples::floorplan`), one GPU task per placement, the
//! area and the node count shared `AtomicView` elements. CPU baselines with the same sharing:
//! the sequential search, and rayon spawning a task per placement in the top
//! `--rayon-levels` cells. Every run's area is checked against the sequential search's.

use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};

use gtap::DeviceVec;
use gtap_examples::floorplan::program;
use gtap_examples::floorplan::reference::{generate, search, search_rayon};

use crate::Bench;
use crate::cli::FloorplanArgs;
use crate::harness::{Key, Sample, timed};

/// The rows of `a`.
pub fn run(b: &mut Bench, a: &FloorplanArgs) {
    for &n in &a.cells {
        let cells = generate(n, a.max_area, a.max_side, a.seed);
        let seq = || {
            let (best, nodes) = (AtomicU32::new(u32::MAX), AtomicU64::new(0));
            search(&cells, &best, &nodes);
            (best.into_inner(), nodes.into_inner())
        };
        let (want, seq_nodes) = seq();
        let size = format!("{n} cells");
        let what = format!(
            "areas 2..={}, sides <= {}, seed {}",
            a.max_area, a.max_side, a.seed
        );
        eprintln!("floorplan: {n} cells ({what}): area {want}, {seq_nodes} nodes sequentially");
        if let Some(rt) = b.rt.as_mut() {
            let dc = DeviceVec::from_slice(rt, &cells).expect("upload");
            let mut best = DeviceVec::from_slice(rt, &[u32::MAX]).expect("upload");
            let mut nodes = DeviceVec::<u64>::zeros(rt, 1).expect("device memory");
            let key = Key::new(
                "floorplan",
                &size,
                "gpu",
                format!("task per placement, {what}"),
            );
            let mut counts = Vec::new();
            b.h.measure(key.queues(1), || {
                let (e2e, (r, area, visited)) = timed(|| {
                    best.copy_from(&[u32::MAX]).expect("upload");
                    nodes.copy_from(&[0]).expect("upload");
                    let root = program::floorplan(dc.view(), best.atomics(), nodes.atomics());
                    let r = rt.run(root);
                    let area = best.to_vec().expect("download")[0];
                    (r, area, nodes.to_vec().expect("download")[0])
                });
                let ((), s) = r.unwrap_or_else(|e| panic!("floorplan on the GPU: {e}"));
                assert_eq!(area, want, "floorplan of {n} cells on the GPU");
                counts.push(visited);
                Sample::gpu(s, e2e)
            });
            if let (Some(lo), Some(hi)) = (counts.iter().min(), counts.iter().max()) {
                eprintln!("    gpu: {lo} to {hi} nodes");
            }
        }
        b.h.measure(
            Key::new("floorplan", &size, "seq", format!("search, {what}")),
            || {
                let (t, (area, _)) = timed(seq);
                assert_eq!(area, want, "floorplan of {n} cells, sequentially");
                Sample::cpu(t)
            },
        );
        let levels = a.rayon_levels;
        let variant = format!("a task per placement in the top {levels} cells, {what}");
        b.h.measure(Key::new("floorplan", &size, "rayon", variant), || {
            let (best, nodes) = (AtomicU32::new(u32::MAX), AtomicU64::new(0));
            let (t, ()) = timed(|| search_rayon(&cells, &best, &nodes, levels));
            assert_eq!(
                best.load(Ordering::Relaxed),
                want,
                "floorplan of {n} cells on rayon"
            );
            Sample::cpu(t)
        });
    }
}
