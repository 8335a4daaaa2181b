//! Task arguments that borrow, on the GPU: the programs of `borrow_cpu.rs` on `DeviceVec`s,
//! on several launch shapes, with the granularity policy on and off; a root that takes host
//! references is refused before anything runs; a view of host memory used on the GPU traps
//! with its location. Reported as ignored without a GPU (the GPU test harness).

mod common;

use common::random_input;
use gtap::{DeviceVec, PinnedVec, ViewMut};
use gtap_host::gpu_runtime::{GpuConfig, GpuRunError, GpuRuntime};
use gtap_tests::borrow::{block_program, program, root_reference};

fn shapes() -> Vec<GpuConfig> {
    vec![
        GpuConfig::new().grid(1).block(32),
        GpuConfig::new().grid(7).block(64),
        GpuConfig::new(),
    ]
}

/// Made as the caller takes them: one at a time holds its records and queues.
fn runtimes() -> impl Iterator<Item = GpuRuntime> {
    shapes()
        .into_iter()
        .flat_map(|c| [c.clone(), c.auto_granularity(false)])
        .filter_map(|c| common::runtime(gtap_tests::PTX, c))
}

fn a_split_array_is_whole_again_after_the_join() {
    for mut rt in runtimes() {
        for (n, grain) in [(1, 4), (1000, 1), (100_000, 256)] {
            let input = random_input(n, n as u64);
            let bias = [3, 1, 4, 1, 5];
            let mut want = input.clone();
            let want_sum = root_reference(&mut want, &bias);
            let mut data = DeviceVec::from_slice(&rt, &input).unwrap();
            let db = DeviceVec::from_slice(&rt, &bias).unwrap();
            let what = format!("n {n}, grain {grain}, {:?}", rt.config());
            let (sum, _) = rt
                .run(program::root(data.view_mut(), db.view(), grain))
                .unwrap_or_else(|e| panic!("{what}: {e}"));
            assert_eq!((sum, data.to_vec().unwrap()), (want_sum, want), "{what}");

            let mut filled = DeviceVec::<u32>::zeros(&rt, n).unwrap();
            rt.run(program::fill(filled.view_mut(), 0, grain))
                .unwrap_or_else(|e| panic!("fill, {what}: {e}"));
            let got = filled.to_vec().unwrap();
            assert!(
                got.iter().enumerate().all(|(i, &x)| x == i as u32 + 1),
                "fill, {what}"
            );
        }
    }
}

fn page_locked_buffers_carry_a_run_in_and_out() {
    // The same program with its input copied from, and its output copied to, page-locked
    // host memory: those copies run by DMA after the driver call returns, so a copy that
    // did not wait for its end would leave stale or partial data here.
    let Some(mut rt) = common::runtime(gtap_tests::PTX, GpuConfig::new()) else {
        return;
    };
    for n in [1, 1000, 3_000_000] {
        let input = random_input(n, 7 + n as u64);
        let mut want = input.clone();
        let bias = [2, 7, 1, 8];
        let want_sum = root_reference(&mut want, &bias);
        let pinned_in = PinnedVec::from_slice(&rt, &input).unwrap();
        assert!(pinned_in.is_pinned());
        let mut data = DeviceVec::<u32>::zeros(&rt, n).unwrap();
        data.copy_from(&pinned_in).unwrap();
        let db = DeviceVec::from_slice(&rt, &bias).unwrap();
        let (sum, _) = rt
            .run(program::root(data.view_mut(), db.view(), 256))
            .unwrap_or_else(|e| panic!("n {n}: {e}"));
        let mut out = PinnedVec::<u32>::zeroed(&rt, n).unwrap();
        data.copy_to(&mut out).unwrap();
        assert_eq!((sum, &out[..]), (want_sum, &want[..]), "n {n}");
    }
}

fn flags_set_by_many_tasks_expand_each_vertex_once() {
    let n = 100_000u32;
    // Each vertex is spawned at most once, so n + 1 task records and queue entries per warp
    // can never run out, however the tasks spread (one warp may hold every pending one: with
    // the defaults, a single warp runs out of its 4096 records).
    let roomy = [
        GpuConfig::new().grid(1).block(32),
        GpuConfig::new().grid(7).block(64),
    ]
    .map(|c| c.tasks_per_warp(1 << 17).queue_capacity(1 << 17));
    let runtimes = roomy
        .into_iter()
        .flat_map(|c| [c.clone(), c.auto_granularity(false)])
        .filter_map(|c| common::runtime(gtap_tests::PTX, c));
    for mut rt in runtimes {
        // Vertex v's edges go to 3v + 1 ..= 3v + 3 (mod n), for v below n / 2.
        let (mut row_ptr, mut col) = (vec![0u32], Vec::new());
        for v in 0..n {
            if v < n / 2 {
                col.extend((1..=3).map(|k| (3 * v + k) % n));
            }
            row_ptr.push(col.len() as u32);
        }
        let mut seen = vec![false; n as usize];
        let mut stack = vec![0u32];
        seen[0] = true;
        while let Some(v) = stack.pop() {
            for &u in &col[row_ptr[v as usize] as usize..row_ptr[v as usize + 1] as usize] {
                if !std::mem::replace(&mut seen[u as usize], true) {
                    stack.push(u);
                }
            }
        }
        let rows = DeviceVec::from_slice(&rt, &row_ptr).unwrap();
        let cols = DeviceVec::from_slice(&rt, &col).unwrap();
        let mut flags = vec![0u32; n.div_ceil(32) as usize];
        flags[0] = 1;
        let mut visited = DeviceVec::from_slice(&rt, &flags).unwrap();
        let root = program::reach(rows.view(), cols.view(), visited.atomics(), 0);
        let (_, stats) = rt
            .run(root)
            .unwrap_or_else(|e| panic!("{:?}: {e}", rt.config()));
        let words = visited.to_vec().unwrap();
        let got: Vec<bool> = (0..n as usize)
            .map(|v| words[v / 32] & 1 << (v % 32) != 0)
            .collect();
        assert!(got == seen, "reached vertices with {:?}", rt.config());
        // One task per reached vertex, with the policy on too: `reach` spawns with
        // `spawn!(task, ..)`, which the policy never runs inline.
        let reached = seen.iter().filter(|&&s| s).count() as u64;
        assert_eq!(
            (stats.tasks, stats.spawns_inlined),
            (reached, 0),
            "tasks with {:?}",
            rt.config()
        );
    }
}

fn a_block_program_sums_a_shared_view() {
    for config in shapes() {
        let Some(mut rt) = common::runtime(gtap_tests::PTX, config.block(64)) else {
            return;
        };
        let xs = random_input(1_000_003, 4);
        let want: u64 = xs.iter().map(|&x| u64::from(x)).sum();
        let dx = DeviceVec::from_slice(&rt, &xs).unwrap();
        let mut total = DeviceVec::<u64>::zeros(&rt, 1).unwrap();
        rt.run(block_program::sum(dx.view(), total.atomics(), 4096))
            .unwrap_or_else(|e| panic!("{:?}: {e}", rt.config()));
        assert_eq!(total.to_vec().unwrap(), [want], "{:?}", rt.config());
    }
}

fn a_root_that_takes_host_references_is_refused() {
    let Some(mut rt) = common::runtime(gtap_tests::PTX, GpuConfig::new()) else {
        return;
    };
    let mut host = vec![1u32; 100];
    let err = rt.run(program::double(&mut host, 8)).unwrap_err();
    assert!(
        matches!(err, GpuRunError::HostReferenceRoot { task: "double" }),
        "{err}"
    );
    assert!(err.to_string().contains("gtap::DeviceVec"), "{err}");
    // Nothing ran, and the runtime is ready for the next run.
    assert_eq!(host, [1; 100]);
    let mut data = DeviceVec::from_slice(&rt, &host).unwrap();
    let db = DeviceVec::from_slice(&rt, &[0u32]).unwrap();
    let (sum, _) = rt
        .run(program::root(data.view_mut(), db.view(), 8))
        .unwrap();
    assert_eq!(sum, 200);
}

fn a_view_of_host_memory_traps_on_the_gpu() {
    // A trap makes CUDA unusable in the process, so the check runs in a child process.
    let Some(gpu) = gtap_host::Gpu::for_fault_test("a_view_of_host_memory_traps_on_the_gpu") else {
        return;
    };
    let mut rt = GpuRuntime::new(gpu, gtap_tests::PTX, GpuConfig::new()).unwrap();
    let mut host = vec![1u32; 16];
    let db = DeviceVec::from_slice(&rt, &[0u32]).unwrap();
    let err = rt
        .run(program::root(ViewMut::from_slice(&mut host), db.view(), 4))
        .unwrap_err();
    match &err {
        GpuRunError::TaskPanicked { location, .. } => {
            assert!(location.contains("borrow.rs"), "{err}");
        }
        other => panic!("expected TaskPanicked, got {other}"),
    }
}

gtap_host::gpu_test_main!(
    a_split_array_is_whole_again_after_the_join,
    page_locked_buffers_carry_a_run_in_and_out,
    flags_set_by_many_tasks_expand_each_vertex_once,
    a_block_program_sums_a_shared_view,
    a_root_that_takes_host_references_is_refused,
    a_view_of_host_memory_traps_on_the_gpu,
);
