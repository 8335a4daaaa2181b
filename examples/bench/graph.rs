//! `graph`: BFS and SpMV on Graph500-style Kronecker graphs (skewed degrees, small diameter),
//! road-like grids (small degrees, a diameter in the thousands) and Matrix Market files
//! (`--mtx`, how users bring their graphs), each run checked.
//!
//! Rows per BFS input: the block program (`gpu-block`, GTaP's Program 5: a block task per
//! vertex), the mixed program for every `--block-degree` (`gpu-mixed`: thread tasks expand
//! vertices of fewer neighbours, block tasks the others; at `inf`, backend `gpu`, thread tasks
//! only), and the CPU references, sequential (`seq`) and with rayon (`rayon`). SpMV: the
//! block program against the same two.
//!
//! BFS starts from a vertex of nonzero degree picked by a generator seeded with the input's
//! size (Graph500 picks random roots of nonzero degree). Its variant names the root, the
//! levels of the search (the root's eccentricity: about 5 on Kronecker graphs, thousands on
//! road-like ones) and the edges the search traverses, counted as Graph500 does (undirected
//! edges of the reached component, half the traversed CSR entries; on a directed Matrix
//! Market graph, all of them), and each measurement prints its rate in GTEPS (billions of
//! traversed edges per second, at the median time). The graph stays in device memory across
//! runs; the GPU e2e time includes uploading the initial depths and downloading the depths
//! (BFS), uploading x and downloading y (SpMV).

use std::path::Path;

use gtap::DeviceVec;
use gtap::host::gpu_runtime::GpuRuntime;
use gtap_examples::bfs;
use gtap_examples::bfs_mixed::{self, Bfs};
use gtap_examples::graph::bfs::{bfs_parallel, bfs_sequential, traversed_edges};
use gtap_examples::graph::device::DeviceCsr;
use gtap_examples::graph::spmv::{check_close, input_vector, spmv, spmv_parallel};
use gtap_examples::graph::{Csr, kronecker, mtx, road};
use gtap_examples::rng::Rng;
use gtap_examples::spmv::Spmv;

use crate::Bench;
use crate::blocks::{measure_block, measure_under, mixed_config};
use crate::cli::{GraphAlgo, GraphArgs, GraphKind, fmt_degree};
use crate::harness::{Harness, Key, Sample, cpu_checked, timed};

/// One input graph and how its rows name it.
struct Input {
    /// The family, as the benchmark column continues it: `kronecker`, `road`, `mtx NAME`.
    family: String,
    /// The size column: the scale of a generated graph, the vertex count of a file's.
    size: String,
    /// What the variant column says about it (generator settings), possibly empty.
    about: String,
    /// The seed of the BFS root's choice.
    seed: u64,
    g: Csr,
}

/// The rows of `a`.
pub fn run(b: &mut Bench, a: &GraphArgs) {
    let kinds = a.graph.clone().unwrap_or_else(|| {
        if a.mtx.is_empty() {
            vec![GraphKind::Kronecker]
        } else {
            Vec::new()
        }
    });
    let mut inputs: Vec<Box<dyn Fn() -> Input>> = Vec::new();
    for &kind in &kinds {
        for &scale in &a.scale {
            inputs.push(Box::new(move || generated(kind, scale, a.edge_factor)));
        }
    }
    for path in &a.mtx {
        inputs.push(Box::new(move || from_file(path)));
    }
    // One graph in memory at a time: each is built where its rows start.
    for input in inputs {
        let input = input();
        for &algo in &a.algo {
            match algo {
                GraphAlgo::Bfs => bfs_rows(b, &input, a),
                GraphAlgo::Spmv => spmv_rows(b, &input, a),
            }
        }
    }
}

/// A generated graph of `scale`, seeded with the scale, with a line about it.
fn generated(kind: GraphKind, scale: u32, edge_factor: u32) -> Input {
    let seed = u64::from(scale);
    let (t, (family, about, g)) = timed(|| match kind {
        GraphKind::Kronecker => {
            let g = kronecker(scale, edge_factor, seed).expect("Kronecker graph");
            ("kronecker", format!("ef {edge_factor}"), g)
        }
        GraphKind::Road => (
            "road",
            String::new(),
            road(scale, seed).expect("road graph"),
        ),
    });
    eprintln!(
        "{family}({scale}): {} vertices, {} entries, built in {:.1} s",
        g.n,
        g.num_edges(),
        t.as_secs_f64()
    );
    Input {
        family: family.into(),
        size: scale.to_string(),
        about,
        seed,
        g,
    }
}

/// The graph of a Matrix Market file (its pattern: values are dropped, as the generated
/// graphs have none), with a line about it.
fn from_file(path: &Path) -> Input {
    let (t, mut g) =
        timed(|| mtx::read_path(path).unwrap_or_else(|e| panic!("--mtx {}: {e}", path.display())));
    g.val = None;
    let name = path.file_stem().map_or_else(
        || path.display().to_string(),
        |s| s.to_string_lossy().into(),
    );
    eprintln!(
        "{}: {} vertices, {} entries, {}symmetric, read in {:.1} s",
        path.display(),
        g.n,
        g.num_edges(),
        if g.is_symmetric() { "" } else { "not " },
        t.as_secs_f64()
    );
    Input {
        family: format!("mtx {name}"),
        size: g.n.to_string(),
        about: String::new(),
        seed: u64::from(g.n),
        g,
    }
}

/// Prints the rate of the last measured row, for `edges` traversed edges.
fn print_teps(h: &Harness, edges: u64) {
    if let Some(row) = h.rows.last() {
        let teps = edges as f64 / (row.time.median * 1e-3);
        eprintln!("    {:.3} GTEPS ({})", teps * 1e-9, row.key.backend);
    }
}

fn bfs_rows(b: &mut Bench, input: &Input, a: &GraphArgs) {
    let g = &input.g;
    let mut rng = Rng::new(input.seed);
    let source = (0..64)
        .map(|_| (rng.next() % u64::from(g.n.max(1))) as u32)
        .find(|&v| g.degree(v) > 0)
        .unwrap_or_else(|| (0..g.n).max_by_key(|&v| g.degree(v)).unwrap_or(0));
    let want = bfs_sequential(g, source);
    let levels = want.iter().filter(|&&d| d != bfs::UNREACHED).max().copied();
    let entries = traversed_edges(g, &want);
    let edges = if g.is_symmetric() {
        entries / 2
    } else {
        entries
    };
    let reached = want.iter().filter(|&&d| d != bfs::UNREACHED).count();
    let mut what = format!(
        "from {source}, {} levels, {reached} reached, {edges} edges",
        levels.unwrap_or(0)
    );
    if !input.about.is_empty() {
        what = format!("{}, {what}", input.about);
    }
    let bench = format!("bfs {}", input.family);
    let key = |backend, how: &str| Key::new(&bench, &input.size, backend, format!("{how}, {what}"));
    if let Some(rt) = b.rt.as_mut() {
        let device = rt.gpu().clone();
        let dg = DeviceCsr::upload(&device, g).expect("upload");
        let mut init = vec![bfs::UNREACHED; g.n as usize];
        init[source as usize] = 0;
        let mut depths = DeviceVec::from_slice(&device, &init).expect("upload");
        // One run of the block program (`None`) or of the mixed one with block tasks from
        // `Some(degree)` up, checked.
        let mut run_and_check = |rt: &mut GpuRuntime, mixed: Option<u32>| {
            let (e2e, (got, r)) = timed(|| {
                depths.copy_from(&init).expect("upload");
                let r = match mixed {
                    None => rt.run(bfs::program::visit(dg.view(), depths.atomics(), source, 0)),
                    Some(degree) => {
                        let s = Bfs::new(dg.view(), depths.atomics(), degree)
                            .grains(a.bfs_grain, a.bfs_block_grain);
                        rt.run(bfs_mixed::root(s, source))
                    }
                };
                (depths.to_vec().expect("download"), r)
            });
            let (_, s) = r?;
            assert!(
                got == want,
                "{bench}({}): the GPU's depths differ",
                input.size
            );
            Ok(Sample::gpu(s, e2e))
        };
        let k = key("gpu-block", "block program").queues(1);
        measure_block(&mut b.h, rt, &b.gpu, k, |rt| run_and_check(rt, None));
        print_teps(&b.h, edges);
        for &degree in &a.block_degree {
            let grains = format!("rows split above {} and {}", a.bfs_grain, a.bfs_block_grain);
            let (backend, how) = if degree == u32::MAX {
                ("gpu", format!("mixed program, thread tasks only, {grains}"))
            } else {
                let how = format!(
                    "mixed program, blocks from degree {}, teams of {}, {grains}",
                    fmt_degree(degree),
                    a.team
                );
                ("gpu-mixed", how)
            };
            let config = mixed_config(rt.config(), a.team, Some(a.mixed_room));
            let k = key(backend, &how).queues(1);
            measure_under(&mut b.h, rt, config, k, |rt| {
                run_and_check(rt, Some(degree))
            });
            print_teps(&b.h, edges);
        }
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

fn spmv_rows(b: &mut Bench, input: &Input, args: &GraphArgs) {
    let a_csr = &input.g;
    let grain = args.grain;
    let x = input_vector(a_csr.n, input.seed);
    let want = spmv(a_csr, &x);
    let mut what = format!("{} nonzeros", a_csr.num_edges());
    if !input.about.is_empty() {
        what = format!("{}, {what}", input.about);
    }
    let bench = format!("spmv {}", input.family);
    let key = |backend, how: &str| Key::new(&bench, &input.size, backend, format!("{how}, {what}"));
    if let Some(rt) = b.rt.as_mut() {
        let device = rt.gpu().clone();
        let da = DeviceCsr::upload(&device, a_csr).expect("upload");
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
            check_close(&want, &y, 1e-6).unwrap_or_else(|e| panic!("{bench}({}): {e}", input.size));
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
