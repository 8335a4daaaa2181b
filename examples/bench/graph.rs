//! `graph`: the BFS and SpMV block programs on Graph500-style Kronecker graphs, on the GPU
//! (`gpu-block`) against the CPU references, sequential (`seq`) and with rayon (`rayon`),
//! each run checked.
//!
//! BFS starts from a vertex of nonzero degree picked by a generator seeded with the scale
//! (Graph500 picks random roots of nonzero degree). Its variant names the root and the edges
//! the search traverses, counted as Graph500 does (undirected edges of the reached
//! component, half the traversed CSR entries), and each measurement prints its rate in GTEPS
//! (billions of traversed edges per second, at the median time). The graph stays in device
//! memory across runs; the GPU e2e time includes uploading the initial depths and
//! downloading the depths (BFS), uploading x and downloading y (SpMV).

use gtap::DeviceVec;
use gtap_examples::bfs;
use gtap_examples::graph::bfs::{bfs_parallel, bfs_sequential, traversed_edges};
use gtap_examples::graph::device::DeviceCsr;
use gtap_examples::graph::spmv::{check_close, input_vector, spmv, spmv_parallel};
use gtap_examples::graph::{Csr, kronecker};
use gtap_examples::rng::Rng;
use gtap_examples::spmv::Spmv;
use gtap_host::Gpu;

use crate::Bench;
use crate::blocks::measure_block;
use crate::cli::{GraphAlgo, GraphArgs};
use crate::harness::{Harness, Key, Sample, cpu_checked, timed};

/// The rows of `a`.
pub fn run(b: &mut Bench, a: &GraphArgs) {
    for &algo in &a.algo {
        for &scale in &a.scale {
            let g = graph(scale, a.edge_factor);
            match algo {
                GraphAlgo::Bfs => bfs_rows(b, &g, scale, a.edge_factor),
                GraphAlgo::Spmv => spmv_rows(b, &g, scale, a),
            }
        }
    }
}

/// The Kronecker graph of `scale`, seeded with the scale, with a line about it.
fn graph(scale: u32, edge_factor: u32) -> Csr {
    let (t, g) =
        timed(|| kronecker(scale, edge_factor, u64::from(scale)).expect("Kronecker graph"));
    eprintln!(
        "kronecker({scale}, {edge_factor}): {} vertices, {} entries, built in {:.1} s",
        g.n,
        g.num_edges(),
        t.as_secs_f64()
    );
    g
}

fn to_device(gpu: &Gpu, g: &Csr) -> DeviceCsr {
    assert!(g.val.is_none(), "the benchmarks' graphs are patterns");
    DeviceCsr::upload(gpu, g).expect("upload")
}

/// Prints the rate of the last measured row, for `edges` traversed edges.
fn print_teps(h: &Harness, edges: u64) {
    if let Some(row) = h.rows.last() {
        let teps = edges as f64 / (row.time.median * 1e-3);
        eprintln!("    {:.3} GTEPS ({})", teps * 1e-9, row.key.backend);
    }
}

fn bfs_rows(b: &mut Bench, g: &Csr, scale: u32, ef: u32) {
    let mut rng = Rng::new(u64::from(scale));
    let source = (0..64)
        .map(|_| (rng.next() % u64::from(g.n)) as u32)
        .find(|&v| g.degree(v) > 0)
        .unwrap_or_else(|| (0..g.n).max_by_key(|&v| g.degree(v)).unwrap_or(0));
    let want = bfs_sequential(g, source);
    let edges = traversed_edges(g, &want) / 2;
    let what = format!("ef {ef}, from {source}, {edges} edges");
    let key =
        |backend, how: &str| Key::new("bfs kronecker", scale, backend, format!("{how}, {what}"));
    if let Some(rt) = b.rt.as_mut() {
        let device = rt.gpu().clone();
        let dg = to_device(&device, g);
        let mut init = vec![bfs::UNREACHED; g.n as usize];
        init[source as usize] = 0;
        let mut depths = DeviceVec::from_slice(&device, &init).expect("upload");
        let k = key("gpu-block", "block program").queues(1);
        measure_block(&mut b.h, rt, &b.gpu, k, |rt| {
            let (e2e, (got, r)) = timed(|| {
                depths.copy_from(&init).expect("upload");
                let r = rt.run(bfs::program::visit(dg.view(), depths.atomics(), source, 0));
                (depths.to_vec().expect("download"), r)
            });
            let (_, s) = r?;
            assert!(
                got == want,
                "bfs kronecker({scale}): the GPU's depths differ"
            );
            Ok(Sample::gpu(s, e2e))
        });
        print_teps(&b.h, edges);
    }
    b.h.measure(key("seq", "bfs_sequential"), || {
        cpu_checked(&want, "bfs", || bfs_sequential(g, source))
    });
    print_teps(&b.h, edges);
    b.h.measure(key("rayon", "bfs_parallel"), || {
        cpu_checked(&want, "rayon bfs", || bfs_parallel(g, source))
    });
    print_teps(&b.h, edges);
}

fn spmv_rows(b: &mut Bench, a_csr: &Csr, scale: u32, args: &GraphArgs) {
    let grain = args.grain;
    let x = input_vector(a_csr.n, u64::from(scale));
    let want = spmv(a_csr, &x);
    let what = format!("ef {}, {} nonzeros", args.edge_factor, a_csr.num_edges());
    let key =
        |backend, how: &str| Key::new("spmv kronecker", scale, backend, format!("{how}, {what}"));
    if let Some(rt) = b.rt.as_mut() {
        let device = rt.gpu().clone();
        let da = to_device(&device, a_csr);
        let mut dx = DeviceVec::from_slice(&device, &x).expect("upload");
        let mut dy = DeviceVec::<f32>::zeros(&device, a_csr.n as usize).expect("device memory");
        let how = format!("block program, {grain} rows per leaf");
        let k = key("gpu-block", &how).queues(1);
        measure_block(&mut b.h, rt, &b.gpu, k, |rt| {
            let (e2e, (y, r)) = timed(|| {
                dx.copy_from(&x).expect("upload");
                let s = Spmv::new(da.view(), dx.view(), dy.atomics());
                let r = rt.run(gtap_examples::spmv::program::rows(s, 0, a_csr.n, grain));
                (dy.to_vec().expect("download"), r)
            });
            let (_, stats) = r?;
            check_close(&want, &y, 1e-6).unwrap_or_else(|e| panic!("spmv kronecker({scale}): {e}"));
            Ok(Sample::gpu(stats, e2e))
        });
    }
    b.h.measure(key("seq", "spmv"), || {
        cpu_checked(&want, "spmv", || spmv(a_csr, &x))
    });
    b.h.measure(key("rayon", "spmv_parallel"), || {
        cpu_checked(&want, "rayon spmv", || spmv_parallel(a_csr, &x))
    });
}
