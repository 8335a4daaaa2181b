//! `bfs` and `spmv`: the block programs on Graph500-style Kronecker graphs (edge factor 16),
//! on the GPU (`gpu-block`) against the CPU references, sequential (`seq`) and with rayon
//! (`rayon`), each run checked.
//!
//! Environment: `GTAP_BFS_SCALES` and `GTAP_SPMV_SCALES` (default 20,21,22),
//! `GTAP_EDGE_FACTOR` (default 16), `GTAP_SPMV_GRAIN` (rows per SpMV leaf task, default 256),
//! and `GTAP_BP_BLOCK` / `GTAP_BP_GRID` for the block programs' launch, `GTAP_BP_TASKS` /
//! `GTAP_BP_QUEUE` for their records and queue entries per block (see `blocks.rs`).
//!
//! BFS starts from a vertex of nonzero degree picked by a generator seeded with the scale
//! (Graph500 picks random roots of nonzero degree). Its label carries the edges the search
//! traverses, counted as Graph500 does (undirected edges of the reached component, half the
//! traversed CSR entries), and each measurement prints its rate in GTEPS (billions of
//! traversed edges per second, at the median time). GPU times are kernel times: uploading
//! the graph and resetting the depths before each run are not in them.

use std::time::Duration;

use gtap_examples::bfs::{self, Depths};
use gtap_examples::buf::Rng;
use gtap_examples::csr_view::CsrView;
use gtap_examples::graph::bfs::{bfs_parallel, bfs_sequential, traversed_edges};
use gtap_examples::graph::spmv::{check_close, input_vector, spmv, spmv_parallel};
use gtap_examples::graph::{Csr, kronecker};
use gtap_examples::spmv::Spmv;
use gtap_host::Gpu;
use gtap_host::cudarc::driver::CudaSlice;

use super::blocks::measure_block;
use super::{Harness, dptr, env_list, timed, upload};

fn scales(var: &str) -> Vec<u32> {
    env_list(var).unwrap_or_else(|| vec![20, 21, 22])
}

fn edge_factor() -> u32 {
    env_list("GTAP_EDGE_FACTOR")
        .and_then(|v| v.first().copied())
        .unwrap_or(16)
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

/// A CSR graph in device memory, and its view.
struct DeviceCsr {
    _row_ptr: CudaSlice<u32>,
    _col: CudaSlice<u32>,
    view: CsrView,
}

fn to_device(gpu: &Gpu, g: &Csr) -> DeviceCsr {
    assert!(g.val.is_none(), "the benchmarks' graphs are patterns");
    let row_ptr = upload(gpu, &g.row_ptr);
    let col = upload(gpu, if g.col.is_empty() { &[0] } else { &g.col });
    // SAFETY: the device arrays hold a copy of `g` (a valid CSR) and live as long as the
    // returned value, which outlives the runs that use its view.
    let view = unsafe {
        CsrView::from_raw(
            dptr(gpu, &row_ptr) as *const u32,
            dptr(gpu, &col) as *const u32,
            std::ptr::null(),
            g.n,
        )
    };
    DeviceCsr {
        _row_ptr: row_ptr,
        _col: col,
        view,
    }
}

/// Prints the rate of the last measured row, for `edges` traversed edges.
fn print_teps(h: &Harness, edges: u64) {
    if let Some(row) = h.rows.last() {
        let teps = edges as f64 / (row.median_ms * 1e-3);
        eprintln!("    {:.3} GTEPS ({})", teps * 1e-9, row.backend);
    }
}

pub fn bfs(h: &mut Harness) {
    let ef = edge_factor();
    let mut gpu = h.gpu.take();
    for scale in scales("GTAP_BFS_SCALES") {
        let g = graph(scale, ef);
        let mut rng = Rng::new(u64::from(scale));
        let source = (0..64)
            .map(|_| (rng.next() % u64::from(g.n)) as u32)
            .find(|&v| g.degree(v) > 0)
            .unwrap_or_else(|| (0..g.n).max_by_key(|&v| g.degree(v)).unwrap_or(0));
        let want = bfs_sequential(&g, source);
        let edges = traversed_edges(&g, &want) / 2;
        let label = format!("bfs kronecker({scale}, {ef}) from {source}, {edges} edges");
        if let Some(rt) = gpu.as_mut() {
            let device = rt.gpu().clone();
            let dg = to_device(&device, &g);
            let mut init = vec![bfs::UNREACHED; g.n as usize];
            init[source as usize] = 0;
            let mut depths = upload(&device, &init);
            measure_block(h, rt, &label, |rt| {
                device
                    .stream()
                    .memcpy_htod(&init, &mut depths)
                    .expect("reset the depths");
                // SAFETY: `depths` holds `n` u32s in device memory and outlives the run.
                let view = unsafe { Depths::from_raw(dptr(&device, &depths) as *mut u32, g.n) };
                let (_, s) = rt.run(bfs::program::visit(dg.view, view, source, 0))?;
                let got = device.stream().clone_dtoh(&depths).expect("download");
                assert!(got == want, "{label}: the GPU's depths differ");
                Ok(s)
            });
            print_teps(h, edges);
        }
        h.measure(label.clone(), "seq", || {
            let (t, d) = timed(|| bfs_sequential(&g, source));
            assert!(d == want);
            (t, 0)
        });
        print_teps(h, edges);
        h.measure(label, "rayon", || {
            let (t, d) = timed(|| bfs_parallel(&g, source));
            assert!(d == want, "rayon BFS");
            (t, 0)
        });
        print_teps(h, edges);
    }
    h.gpu = gpu;
}

pub fn spmv_bench(h: &mut Harness) {
    let ef = edge_factor();
    let grain = env_list("GTAP_SPMV_GRAIN")
        .and_then(|v| v.first().copied())
        .unwrap_or(256);
    let mut gpu = h.gpu.take();
    for scale in scales("GTAP_SPMV_SCALES") {
        let a = graph(scale, ef);
        let x = input_vector(a.n, u64::from(scale));
        let want = spmv(&a, &x);
        let label = format!(
            "spmv kronecker({scale}, {ef}), {} nonzeros, grain {grain}",
            a.num_edges()
        );
        if let Some(rt) = gpu.as_mut() {
            let device = rt.gpu().clone();
            let da = to_device(&device, &a);
            let dx = upload(&device, &x);
            let dy = upload(&device, &vec![0f32; a.n as usize]);
            measure_block(h, rt, &label, |rt| {
                // SAFETY: `dx` and `dy` hold `n` f32s in device memory and outlive the run.
                let s = unsafe {
                    Spmv::from_raw(
                        da.view,
                        dptr(&device, &dx) as *const f32,
                        dptr(&device, &dy) as *mut f32,
                    )
                };
                let (_, stats) = rt.run(gtap_examples::spmv::program::rows(s, 0, a.n, grain))?;
                let y = device.stream().clone_dtoh(&dy).expect("download");
                check_close(&want, &y, 1e-6).unwrap_or_else(|e| panic!("{label}: {e}"));
                Ok(stats)
            });
        }
        h.measure(label.clone(), "seq", || timed_check(&want, || spmv(&a, &x)));
        h.measure(label, "rayon", || {
            timed_check(&want, || spmv_parallel(&a, &x))
        });
    }
    h.gpu = gpu;
}

fn timed_check(want: &[f32], f: impl FnOnce() -> Vec<f32>) -> (Duration, u64) {
    let (t, y) = timed(f);
    assert!(y == want);
    (t, 0)
}
