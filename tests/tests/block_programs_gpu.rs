//! The block programs of the examples (BFS, SpMV, the synthetic trees run a block per node) on
//! the GPU's block-level workers, checked against their sequential references on several
//! block and grid shapes: the checks of `block_programs_cpu.rs`. Reported as ignored without a
//! GPU (the GPU test harness).

mod common;

use common::{directed_graph, sample_graph, tree_table, two_components, weighted_matrix};
use gtap::DeviceVec;
use gtap_examples::bfs;
use gtap_examples::block_reduce::gpu_scratch_needed;
use gtap_examples::graph::bfs::bfs_sequential;
use gtap_examples::graph::device::DeviceCsr;
use gtap_examples::graph::spmv::{check_close, input_vector, spmv};
use gtap_examples::graph::{Csr, kronecker};
use gtap_examples::spmv::Spmv;
use gtap_examples::{tree, tree_block};
use gtap_host::cudarc::driver::{LaunchConfig, PushKernelArg};
use gtap_host::gpu_runtime::{GpuConfig, GpuRuntime};
use gtap_host::{Gpu, GpuError, Module};

/// The test crate's own kernels (`smem_fill`).
const TEST_PTX: &str = gtap::include_ptx!();

/// Block shapes every program is checked on: one warp per block alone, a few blocks of two
/// warps, wide blocks, and every resident block of the default size.
fn shapes() -> Vec<GpuConfig> {
    vec![
        GpuConfig::new().grid(1).block(32),
        GpuConfig::new().grid(7).block(64),
        GpuConfig::new().grid(64).block(256),
        GpuConfig::new().block(64),
    ]
}

/// A shape's configuration with the scratch memory the block reductions need.
fn with_scratch(config: GpuConfig) -> GpuConfig {
    let bytes = gpu_scratch_needed(config.launch().block()) as u32;
    let scratch = config.limits().block_scratch().max(bytes);
    config.block_scratch(scratch)
}

fn runtimes() -> Vec<GpuRuntime> {
    shapes()
        .into_iter()
        .filter_map(|c| common::runtime(gtap_examples::PTX, with_scratch(c)))
        .collect()
}

fn to_device(gpu: &Gpu, g: &Csr) -> DeviceCsr {
    DeviceCsr::upload(gpu, g).expect("upload")
}

fn check_bfs(rt: &mut GpuRuntime, g: &Csr, source: u32, what: &str) {
    let dg = to_device(rt.gpu(), g);
    let mut init = vec![bfs::UNREACHED; g.n as usize];
    init[source as usize] = 0;
    let mut depths = DeviceVec::from_slice(rt.gpu(), &init).unwrap();
    rt.run(bfs::program::visit(dg.view(), depths.atomics(), source, 0))
        .unwrap_or_else(|e| panic!("BFS of {what} from {source} with {:?}: {e}", rt.config()));
    assert_eq!(
        depths.to_vec().unwrap(),
        bfs_sequential(g, source),
        "BFS of {what} from {source} with {:?}",
        rt.config()
    );
}

fn bfs_matches_the_sequential_search() {
    let runtimes = runtimes();
    if runtimes.is_empty() {
        return;
    }
    let sample = sample_graph();
    let components = two_components();
    let directed = directed_graph();
    let single = Csr::from_edges(1, &[], true).unwrap();
    let kron: Vec<(String, Csr)> = [(8, 1), (10, 2), (12, 3), (12, 4)]
        .into_iter()
        .map(|(s, seed)| {
            let what = format!("kronecker({s}, 16, {seed})");
            (what, kronecker(s, 16, seed).unwrap())
        })
        .collect();
    for mut rt in runtimes {
        // A step spawns a task per improved neighbour: a hub's whole adjacency at once, and
        // on few blocks most of the frontier waits in queues. Room for it all.
        let config = rt.config().clone();
        let room = match config.launch().grid() {
            Some(g) => ((1u32 << 22) / g)
                .next_power_of_two()
                .clamp(1 << 16, 1 << 20),
            None => 1 << 16,
        };
        rt.set_config(config.tasks_per_warp(room).queue_capacity(room))
            .unwrap();
        for (g, what) in [
            (&sample, "small.mtx"),
            (&components, "two components"),
            (&directed, "a directed graph"),
            (&single, "one vertex"),
        ] {
            for source in 0..g.n {
                check_bfs(&mut rt, g, source, what);
            }
        }
        for (what, g) in &kron {
            let hub = (0..g.n).max_by_key(|&v| g.degree(v)).unwrap();
            for source in [hub, 0, g.n - 1] {
                check_bfs(&mut rt, g, source, what);
            }
        }
    }
}

fn spmv_matches_the_reference() {
    let runtimes = runtimes();
    if runtimes.is_empty() {
        return;
    }
    let weighted = weighted_matrix();
    let pattern = kronecker(14, 16, 5).unwrap();
    for mut rt in runtimes {
        let gpu = rt.gpu().clone();
        for (a, what) in [(&weighted, "weighted"), (&pattern, "kronecker(14)")] {
            let da = to_device(&gpu, a);
            let x = input_vector(a.n, 3);
            let dx = DeviceVec::from_slice(&gpu, &x).unwrap();
            let want = spmv(a, &x);
            for grain in [1, 64, 1000, 1 << 20] {
                let mut dy = DeviceVec::from_slice(&gpu, &vec![f32::NAN; a.n as usize]).unwrap();
                let s = Spmv::new(da.view(), dx.view(), dy.atomics());
                rt.run(gtap_examples::spmv::program::rows(s, 0, a.n, grain))
                    .unwrap_or_else(|e| panic!("SpMV of {what} with {:?}: {e}", rt.config()));
                check_close(&want, &dy.to_vec().unwrap(), 1e-6).unwrap_or_else(|e| {
                    panic!("SpMV of {what}, grain {grain}, with {:?}: {e}", rt.config())
                });
            }
        }
    }
}

fn block_trees_match_the_thread_trees() {
    let leaked = tree_table();
    for mut rt in runtimes() {
        let table = DeviceVec::from_slice(&rt, leaked).unwrap();
        let dev_work = |m, c| tree::Work::from_view(table.view(), m, c);
        for (m, c) in [(16, 16), (0, 5), (100, 3), (1000, 1000)] {
            let host = tree::Work::new(leaked, m, c);
            for depth in [0, 1, 5, 12] {
                let (got, stats) = rt
                    .run(tree_block::full_binary_block::node(
                        depth,
                        0,
                        dev_work(m, c),
                    ))
                    .unwrap();
                let want = tree::full_binary_reference(depth, 0, host);
                assert_eq!(
                    got,
                    want,
                    "full binary tree, depth {depth}, mem {m}, fma {c}, with {:?}",
                    rt.config()
                );
                assert_eq!(stats.tasks, want.0);
            }
            for depth in [4, 12, 16] {
                let (got, stats) = rt
                    .run(tree_block::pruned_block::node(0, depth, 0, dev_work(m, c)))
                    .unwrap();
                let want = tree::pruned_reference(0, depth, 0, host);
                assert_eq!(
                    got,
                    want,
                    "pruned tree, depth {depth}, mem {m}, fma {c}, with {:?}",
                    rt.config()
                );
                assert_eq!(stats.tasks, want.0);
            }
        }
    }
}

/// Fills the dynamic shared memory of every block slot of every SM with `value` (48 KiB per
/// block, the most a launch gets without opting in, many blocks per SM), with `module`, the
/// test crate's kernels loaded on `gpu`.
fn poison_shared_memory(gpu: &Gpu, module: &Module, value: u32) -> Result<(), GpuError> {
    let kernel = module.kernel("smem_fill")?;
    let mut args = gpu.stream().launch_builder(kernel.function());
    args.arg(&value);
    let cfg = LaunchConfig {
        grid_dim: (gpu.props().sm_count * 32, 1, 1),
        block_dim: (256, 1, 1),
        shared_mem_bytes: 48 * 1024,
    };
    // SAFETY: `smem_fill` takes one `u32` and touches only its dynamic shared memory.
    unsafe { args.launch(cfg) }.map_err(|e| GpuError::launch("smem_fill", e))?;
    gpu.sync("smem_fill")
}

/// A block worker's threads read the runtime's state in shared memory (the copy of the
/// control block) only after its leader wrote it: runs that start on shared memory left full
/// of ones (every tuning bit set, every count at its maximum) or of zeros (no workers) by the
/// kernel before complete as on fresh memory.
fn block_workers_ignore_what_shared_memory_held_before() {
    let leaked = tree_table();
    for mut rt in runtimes() {
        let table = DeviceVec::from_slice(&rt, leaked).unwrap();
        let host = tree::Work::new(leaked, 16, 16);
        let want = tree::pruned_reference(0, 12, 0, host);
        let module = rt.gpu().load(TEST_PTX).unwrap_or_else(|e| panic!("{e}"));
        for (round, value) in [u32::MAX, 0, u32::MAX, 0x8000_0001].into_iter().enumerate() {
            poison_shared_memory(rt.gpu(), &module, value).unwrap_or_else(|e| panic!("{e}"));
            let work = tree::Work::from_view(table.view(), 16, 16);
            let got = rt.run(tree_block::pruned_block::node(0, 12, 0, work));
            let what = format!(
                "round {round}, shared memory of {value:#x}, {:?}",
                rt.config()
            );
            let (got, _) = got.unwrap_or_else(|e| panic!("pruned block tree, {what}: {e}"));
            assert_eq!(got, want, "pruned block tree, {what}");
        }
    }
}

gtap_host::gpu_test_main!(
    bfs_matches_the_sequential_search,
    spmv_matches_the_reference,
    block_trees_match_the_thread_trees,
    block_workers_ignore_what_shared_memory_held_before,
);
