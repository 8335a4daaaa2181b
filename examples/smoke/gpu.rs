//! The smoke run on the GPU: every program family at a small size, on each configuration of
//! [`configs`], each result checked against its CPU reference. Thread programs run on
//! thread-level workers; BFS, SpMV and the block trees on block-level workers, and the mixed
//! programs (sorts with block merges and block sorts, BFS with hubs on blocks, a tree with
//! its nodes' work on blocks) on the mixed kernel (every configuration but the ablation
//! schedulers, which block and mixed programs refuse).

use std::sync::Arc;

use gtap::device::data::Home;
use gtap::host::Gpu;
use gtap::host::cudarc::driver::{CudaSlice, CudaStream, DevicePtr, DeviceRepr};
use gtap::host::gpu_runtime::{GpuConfig, GpuRunError, GpuRuntime, QueueOrder, Scheduler};
use gtap::{DeviceVec, ViewMut};
use gtap_examples::bfs;
use gtap_examples::block_reduce::gpu_scratch_needed;
use gtap_examples::graph::bfs::bfs_sequential;
use gtap_examples::graph::device::DeviceCsr;
use gtap_examples::graph::spmv::{check_close, input_vector, spmv};
use gtap_examples::graph::{kronecker, mtx};
use gtap_examples::spmv::Spmv;
use gtap_examples::{
    bfs_mixed, cilksort, cilksort_epaq, cilksort_mixed, fib, mergesort, mergesort_mixed, nqueens,
    tree, tree_block, tree_mixed,
};

use crate::{check, input, sorted, table};

/// The sample graph, carried in the binary: it runs where it was not built.
const SMALL_MTX: &str = include_str!("../data/small.mtx");

type Res<T> = Result<T, String>;

fn s(e: GpuRunError) -> String {
    e.to_string()
}

/// The configurations to run on: the default one alone, or (`all`) also every EPAQ queue
/// order, top-up, inline resumes, unpublished batches and the two ablation schedulers.
pub fn configs(grid: u32, block: u32, all: bool) -> Vec<(&'static str, GpuConfig)> {
    let base = GpuConfig::new().grid(grid).block(block);
    let mut v = vec![("default", base.clone())];
    if all {
        let q3 = base.clone().num_queues(3);
        v.extend([
            ("3 queues, next-full", q3.clone()),
            (
                "3 queues, most-generated, top-up 2, inline resumes",
                q3.clone()
                    .queue_order(QueueOrder::MostGenerated)
                    .top_up(2)
                    .resume_inline(true),
            ),
            (
                "2 queues, stay, every queue kept, top-up 1, per-queue steals",
                base.clone()
                    .num_queues(2)
                    .queue_order(QueueOrder::Stay)
                    .keep_every_queue(true)
                    .top_up(1)
                    .steal_per_queue(true),
            ),
            (
                "128 kept unpublished, inline resumes",
                base.clone().keep_unpublished(128).resume_inline(true),
            ),
            ("one task at a time", q3.scheduler(Scheduler::OneAtATime)),
            ("global queue", base.scheduler(Scheduler::GlobalQueue)),
        ]);
    }
    v
}

/// Runs every program on every configuration; the number of checked runs.
pub fn run(gpu: Gpu, configs: &[(&str, GpuConfig)]) -> Res<usize> {
    let mut runs = 0;
    for (name, config) in configs {
        println!("== {name}");
        let ptx = if config.needs_lab_kernels() {
            gtap_examples::PTX_LAB
        } else {
            gtap_examples::PTX
        };
        let mut rt = GpuRuntime::new(gpu.clone(), ptx, config.clone()).map_err(s)?;
        runs += thread_programs(&mut rt)?;
        if config.tuning().scheduler() == Scheduler::WorkStealing {
            let scratch = gpu_scratch_needed(config.launch().block()) as u32;
            let block_config = config
                .clone()
                .block_scratch(config.limits().block_scratch().max(scratch))
                .tasks_per_warp(1 << 14)
                .queue_capacity(1 << 14);
            rt.set_config(block_config).map_err(s)?;
            runs += block_programs(&mut rt)?;
            runs += mixed_programs(&mut rt)?;
        }
    }
    Ok(runs)
}

/// The queue classifier argument of the EPAQ programs for `queues` queues: the largest one
/// whose queue indices fit.
fn classifier(queues: u32, max: u32) -> u32 {
    (queues - 1).min(max)
}

fn thread_programs(rt: &mut GpuRuntime) -> Res<usize> {
    let queues = rt.config().limits().num_queues();
    let v = rt.run(fib::program::fib(18)).map_err(s)?.0;
    check("fib(18)", v, fib::reference(18))?;
    let epaq = u32::from(queues >= 3);
    let (v, _) = rt
        .run(fib::epaq::fib_cutoff(20, 6, epaq, fib::Leaf::Calls))
        .map_err(s)?;
    check("fib(20), cutoff 6", v, fib::reference(20))?;
    let (v, _) = rt
        .run(nqueens::program::nqueens(9, 0, 0, 0, 0, 4))
        .map_err(s)?;
    check("nqueens(9)", v, nqueens::KNOWN[9])?;
    let epaq = classifier(queues, 2);
    let (v, _) = rt
        .run(nqueens::epaq::nqueens(9, 0, 0, 0, 0, 4, epaq))
        .map_err(s)?;
    check("nqueens(9), EPAQ", v, nqueens::KNOWN[9])?;
    Ok(4 + sorts(rt)? + trees(rt)?)
}

fn sorts(rt: &mut GpuRuntime) -> Res<usize> {
    let epaq = u32::from(rt.config().limits().num_queues() >= 3);
    let sorts = ["mergesort", "cilksort", "cilksort, EPAQ"];
    for name in sorts {
        let n = 20_000;
        let host = input(n, 11);
        let mut data = DeviceVec::from_slice(rt.gpu(), &host).map_err(|e| e.to_string())?;
        let mut tmp = DeviceVec::<u32>::zeros(rt.gpu(), n).map_err(|e| e.to_string())?;
        let (a, t) = (data.view_mut(), tmp.view_mut());
        let ran = match name {
            "mergesort" => rt.run(mergesort::program::mergesort(a, t, 128)),
            "cilksort" => rt.run(cilksort::program::cilksort(a, t, 64, 256)),
            _ => rt.run(cilksort_epaq::program::cilksort(a, t, 64, 256, epaq)),
        };
        ran.map_err(s)?;
        let out = data.to_vec().map_err(|e| e.to_string())?;
        check(&format!("{name} of {n}: sorted"), out == sorted(host), true)?;
    }
    Ok(sorts.len())
}

fn trees(rt: &mut GpuRuntime) -> Res<usize> {
    let host_table = table();
    let dev_table = DeviceVec::from_slice(rt.gpu(), host_table).map_err(|e| e.to_string())?;
    let dev_work = |m, c| tree::Work::from_view(dev_table.view(), m, c);
    let host_work = |m, c| tree::Work::new(host_table, m, c);
    let (v, _) = rt
        .run(tree::full_binary::node(10, 0, dev_work(16, 16)))
        .map_err(s)?;
    let want = tree::full_binary_reference(10, 0, host_work(16, 16));
    check("full binary tree, depth 10", v, want)?;
    let (v, _) = rt
        .run(tree::pruned::node(0, 10, 0, dev_work(8, 8)))
        .map_err(s)?;
    check(
        "pruned tree, depth 10",
        v,
        tree::pruned_reference(0, 10, 0, host_work(8, 8)),
    )?;
    Ok(2)
}

fn block_programs(rt: &mut GpuRuntime) -> Res<usize> {
    let host_table = table();
    let dev_table = DeviceVec::from_slice(rt.gpu(), host_table).map_err(|e| e.to_string())?;
    let work = tree::Work::from_view(dev_table.view(), 16, 16);
    let (v, _) = rt
        .run(tree_block::full_binary_block::node(8, 0, work))
        .map_err(s)?;
    let want = tree::full_binary_reference(8, 0, tree::Work::new(host_table, 16, 16));
    check("full binary tree of blocks, depth 8", v, want)?;
    let small = mtx::read_str(SMALL_MTX).map_err(|e| e.to_string())?;
    let kron = kronecker(8, 16, 1).map_err(|e| e.to_string())?;
    for (g, what) in [(&small, "small.mtx"), (&kron, "kronecker(8)")] {
        let dg = DeviceCsr::upload(rt.gpu(), g).map_err(|e| e.to_string())?;
        let mut init = vec![bfs::UNREACHED; g.n as usize];
        init[0] = 0;
        let mut depths = DeviceVec::from_slice(rt.gpu(), &init).map_err(|e| e.to_string())?;
        rt.run(bfs::program::visit(dg.view(), depths.atomics(), 0, 0))
            .map_err(s)?;
        let got = depths.to_vec().map_err(|e| e.to_string())?;
        check(&format!("BFS of {what}"), got == bfs_sequential(g, 0), true)?;
    }
    let dg = DeviceCsr::upload(rt.gpu(), &kron).map_err(|e| e.to_string())?;
    let x = input_vector(kron.n, 3);
    let dx = DeviceVec::from_slice(rt.gpu(), &x).map_err(|e| e.to_string())?;
    let mut dy = DeviceVec::from_slice(rt.gpu(), &vec![f32::NAN; kron.n as usize])
        .map_err(|e| e.to_string())?;
    let sp = Spmv::new(dg.view(), dx.view(), dy.atomics());
    rt.run(gtap_examples::spmv::program::rows(sp, 0, kron.n, 64))
        .map_err(s)?;
    let y = dy.to_vec().map_err(|e| e.to_string())?;
    check_close(&spmv(&kron, &x), &y, 1e-6).map_err(|e| format!("SpMV: {e}"))?;
    println!("SpMV of kronecker(8): close to the reference (correct)");
    Ok(4)
}

/// Device memory holding `data`, for the mixed sorts' views.
fn upload<T: DeviceRepr>(stream: &Arc<CudaStream>, data: &[T]) -> Res<CudaSlice<T>> {
    stream.clone_htod(data).map_err(|e| e.to_string())
}

/// The device address of `b`, for a raw view.
fn addr<T>(stream: &CudaStream, b: &CudaSlice<T>) -> u64 {
    b.device_ptr(stream).0
}

fn mixed_programs(rt: &mut GpuRuntime) -> Res<usize> {
    let stream = rt.gpu().stream().clone();
    let n = 20_000;
    let host = input(n, 13);
    for name in [
        "mergesort, block merges",
        "cilksort, block sorts and merges",
    ] {
        let data = upload(&stream, &host)?;
        let tmp = upload(&stream, &vec![0u32; n])?;
        // SAFETY: both device buffers hold `n` u32s and outlive the run, its only user.
        let (x, y) = unsafe {
            (
                ViewMut::from_raw_parts(addr(&stream, &data) as *mut u32, n, Home::Gpu),
                ViewMut::from_raw_parts(addr(&stream, &tmp) as *mut u32, n, Home::Gpu),
            )
        };
        let ran = if name.starts_with("mergesort") {
            let p = mergesort_mixed::Params {
                leaf: 64,
                block_merge: 1000,
                part: 1500,
            };
            rt.run(mergesort_mixed::program::sort(x, y, false, p))
        } else {
            let p = cilksort_mixed::Params {
                leaf: 64,
                block_sort: 1000,
                merge_leaf: 128,
                block_merge: 2000,
                part: 1500,
            };
            rt.run(cilksort_mixed::program::sort(x, y, p))
        };
        ran.map_err(s)?;
        let out = stream.clone_dtoh(&data).map_err(|e| e.to_string())?;
        check(
            &format!("{name} of {n}: sorted"),
            out == sorted(host.clone()),
            true,
        )?;
    }
    let kron = kronecker(8, 16, 1).map_err(|e| e.to_string())?;
    let dg = DeviceCsr::upload(rt.gpu(), &kron).map_err(|e| e.to_string())?;
    let mut init = vec![bfs::UNREACHED; kron.n as usize];
    init[0] = 0;
    let mut depths = DeviceVec::from_slice(rt.gpu(), &init).map_err(|e| e.to_string())?;
    let search = bfs_mixed::Bfs::new(dg.view(), depths.atomics(), 16).grains(8, 64);
    rt.run(bfs_mixed::root(search, 0)).map_err(s)?;
    let got = depths.to_vec().map_err(|e| e.to_string())?;
    check(
        "BFS of kronecker(8), hubs on blocks",
        got == bfs_sequential(&kron, 0),
        true,
    )?;
    let host_table = table();
    let dev_table = DeviceVec::from_slice(rt.gpu(), host_table).map_err(|e| e.to_string())?;
    let work = tree::Work::from_view(dev_table.view(), 64, 8);
    let heavy = tree_mixed::Heavy {
        mem_ops: 64,
        compute_iters: u32::MAX,
    };
    let (v, _) = rt
        .run(tree_mixed::pruned_mixed::node(0, 10, 0, work, heavy))
        .map_err(s)?;
    let want = tree::pruned_reference(0, 10, 0, tree::Work::new(host_table, 64, 8));
    check("pruned tree, depth 10, work on blocks", v, want)?;
    Ok(4)
}
