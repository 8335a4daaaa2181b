//! Task arguments that borrow, on the CPU backend: arrays split among children and whole
//! again after the join, shared arrays, slots over chunks, children without handles, views
//! of host slices and of `DeviceVec`s at the root, flags set by many tasks at once, a block
//! program over shared views; with the granularity policy on (spawns may run inline, as the
//! sequential versions) and off. The same programs on the GPU: `borrow_gpu.rs`.

mod common;

use std::time::Duration;

use common::random_input;
use gtap::{AtomicView, DeviceVec, View, ViewMut};
use gtap_host::cpu::{CpuConfig, CpuError, CpuRuntime};
use gtap_host::data::{DataError, Memory};
use gtap_tests::borrow::{block_program, program, root_reference};

fn runtime(policy: bool) -> CpuRuntime {
    let config = CpuConfig::new()
        .threads(4)
        .auto_granularity(policy)
        .timeout(Duration::from_secs(60));
    CpuRuntime::new(config).expect("CPU runtime")
}

#[test]
fn a_split_array_is_whole_again_after_the_join() {
    for policy in [false, true] {
        let mut rt = runtime(policy);
        for (n, grain) in [(0, 4), (1, 4), (1000, 1), (4097, 64), (100_000, 1000)] {
            let input = random_input(n, n as u64);
            let bias = [3, 1, 4, 1, 5];
            let mut want = input.clone();
            let want_sum = root_reference(&mut want, &bias);

            let mut data = input.clone();
            let root = program::root(
                ViewMut::from_slice(&mut data),
                View::from_slice(&bias),
                grain,
            );
            let (sum, _) = rt.run(root).unwrap();
            assert_eq!(
                (sum, &data),
                (want_sum, &want),
                "host slices, n {n}, policy {policy}"
            );

            let mut dv = DeviceVec::from_slice(&rt, &input).unwrap();
            let db = DeviceVec::from_slice(&rt, &bias).unwrap();
            let (sum, _) = rt
                .run(program::root(dv.view_mut(), db.view(), grain))
                .unwrap();
            assert_eq!(
                (sum, dv.to_vec().unwrap()),
                (want_sum, want),
                "DeviceVec, n {n}"
            );
        }
    }
}

#[test]
fn sequential_versions_take_the_same_borrows() {
    let input = random_input(5000, 9);
    let mut data = input.clone();
    let mut want = input;
    let bias = [7, 0, 2];
    let want_sum = root_reference(&mut want, &bias);
    let sum = program::seq::root(ViewMut::from_slice(&mut data), View::from_slice(&bias), 16);
    assert_eq!((sum, data), (want_sum, want));
}

#[test]
fn children_without_handles_fill_their_parts() {
    for policy in [false, true] {
        let mut rt = runtime(policy);
        for (n, grain) in [(1usize, 1usize), (999, 3), (50_000, 128)] {
            let mut data = vec![0u32; n];
            rt.run(program::fill(ViewMut::from_slice(&mut data), 0, grain))
                .unwrap();
            assert!(
                data.iter().enumerate().all(|(i, &x)| x == i as u32 + 1),
                "n {n}"
            );
        }
    }
}

/// A graph of `n` vertices in compressed rows: vertex `v`'s edges go to `3v + 1 .. 3v + 3`
/// (modulo `n`) for `v` below `n / 2`, and nowhere from the rest; and which vertices a
/// search from 0 reaches.
fn graph(n: u32) -> (Vec<u32>, Vec<u32>, Vec<bool>) {
    let (mut row_ptr, mut col) = (vec![0], Vec::new());
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
    (row_ptr, col, seen)
}

#[test]
fn flags_set_by_many_tasks_expand_each_vertex_once() {
    for policy in [false, true] {
        let mut rt = runtime(policy);
        for n in [1u32, 10, 1000, 30_000] {
            let (row_ptr, col, seen) = graph(n);
            let mut flags = vec![0u32; n.div_ceil(32) as usize];
            let visited = AtomicView::from_slice(&mut flags);
            assert!(visited.set_bit(0));
            let root = program::reach(
                View::from_slice(&row_ptr),
                View::from_slice(&col),
                visited,
                0,
            );
            let (_, stats) = rt.run(root).unwrap();
            let got: Vec<bool> = (0..n as usize)
                .map(|v| flags[v / 32] & 1 << (v % 32) != 0)
                .collect();
            assert_eq!(got, seen, "n {n}");
            // One task per reached vertex, the root's included, with the policy on too:
            // `reach` spawns with `spawn!(task, ..)`, which the policy never runs inline.
            let reached = seen.iter().filter(|&&s| s).count() as u64;
            assert_eq!(
                (stats.tasks_executed, stats.spawns_inlined),
                (reached, 0),
                "n {n}, policy {policy}"
            );
        }
    }
}

#[test]
fn a_block_program_sums_a_shared_view() {
    for (teams, team) in [(1, 1), (2, 4), (3, 8)] {
        let config = CpuConfig::new()
            .threads(teams)
            .team(team)
            .check_uniform(true);
        let mut rt = CpuRuntime::new(config).unwrap();
        let xs = random_input(10_007, 4);
        let want: u64 = xs.iter().map(|&x| u64::from(x)).sum();
        let dx = DeviceVec::from_slice(&rt, &xs).unwrap();
        let mut total = DeviceVec::<u64>::zeros(&rt, 1).unwrap();
        rt.run(block_program::sum(dx.view(), total.atomics(), 500))
            .unwrap();
        assert_eq!(total.to_vec().unwrap(), [want], "{teams}x{team}");
    }
}

#[test]
fn a_view_of_gpu_memory_is_refused_on_the_cpu_with_a_message() {
    let mut rt = runtime(false);
    let mut host = vec![1u32; 8];
    // SAFETY: valid host memory, used only through this view; labelled as GPU memory to
    // stand for a DeviceVec made for a GPU runtime.
    let view =
        unsafe { ViewMut::from_raw_parts(host.as_mut_ptr(), 8, gtap::device::data::Home::Gpu) };
    let bias = [0u32];
    match rt.run(program::root(view, View::from_slice(&bias), 2)) {
        Err(e @ CpuError::TaskPanicked { .. }) => {
            let msg = e.to_string();
            assert!(msg.contains("GPU memory was used on the host"), "{msg}");
        }
        other => panic!("expected a task panic, got {other:?}"),
    }
    assert_eq!(host, [1; 8], "nothing was written");
}

#[test]
fn device_vec_copies_check_lengths() {
    let mut v = DeviceVec::<f32>::zeros(&Memory::Host, 3).unwrap();
    assert!(matches!(
        v.copy_from(&[1.0; 4]),
        Err(DataError::LengthMismatch { len: 3, given: 4 })
    ));
    let mut out = [0.0; 2];
    assert!(matches!(
        v.copy_to(&mut out),
        Err(DataError::LengthMismatch { .. })
    ));
    let e = v.copy_from(&[1.0]).unwrap_err().to_string();
    assert!(e.contains("copy a slice of exactly its length"), "{e}");
}
