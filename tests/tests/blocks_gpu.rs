//! Block tasks (`#[gtap::task(block)]`) on the GPU's block-level workers (one worker per
//! thread block): the same program and checks as `blocks_cpu.rs`, on several block sizes,
//! plus the settings block programs refuse. Reported as ignored without a GPU (the GPU test harness).

mod common;

use common::{device_ptr, download, upload};
use gtap_host::RunError;
use gtap_host::gpu_runtime::{GpuConfig, GpuRunError, GpuRuntime, Scheduler};
use gtap_tests::block::{fan_expected, program as blocks, tree_expected};
use gtap_tests::lang::Counter;

/// `grid` blocks of `block` threads, with room in the scratch for one `u64` per thread.
fn config(grid: u32, block: u32) -> GpuConfig {
    GpuConfig::new()
        .grid(grid)
        .block(block)
        .block_scratch(8 * block)
        .check_uniform(true)
}

fn runtime(grid: u32, block: u32) -> Option<GpuRuntime> {
    common::runtime(gtap_tests::PTX, config(grid, block))
}

fn block_wide_spawns_return_every_result_on_several_block_sizes() {
    for (grid, block) in [(1, 32), (4, 64), (16, 128), (132, 256), (8, 512), (4, 1024)] {
        // A block of 1024 threads fits the register file only with at most 64 registers, one
        // of 512 with at most 128.
        let registers = match block {
            1024 => Some(32),
            512 => Some(128),
            _ => None,
        };
        let config = match registers {
            Some(r) => config(grid, block).max_registers(r),
            None => config(grid, block),
        };
        let Some(mut rt) = common::runtime(gtap_tests::PTX, config) else {
            return;
        };
        for depth in [0, 1, 5, 10] {
            let (got, stats) = rt.run(blocks::tree(depth)).unwrap();
            assert_eq!(
                got,
                tree_expected(depth, block),
                "tree({depth}) on {grid} blocks of {block}"
            );
            assert_eq!(stats.tasks, (1u64 << (depth + 1)) - 1);
            assert_eq!(stats.block, block);
        }
    }
}

fn per_thread_spawns_each_make_a_child() {
    for (grid, block, fanout) in [(1, 32, 2), (8, 64, 3), (32, 256, 4)] {
        let Some(mut rt) = runtime(grid, block) else {
            return;
        };
        let gpu = rt.gpu().clone();
        let cell = upload(&gpu, &[0u64]);
        // SAFETY: a zeroed, aligned device u64 that outlives the run.
        let c = unsafe { Counter::from_ptr(device_ptr(&gpu, &cell) as *mut u64) };
        let (_, stats) = rt.run(blocks::fan(c, 6, fanout)).unwrap();
        assert_eq!(
            download(&gpu, &cell)[0],
            fan_expected(6, fanout),
            "fan on {grid}x{block}"
        );
        assert_eq!(stats.tasks, fan_expected(6, fanout));
    }
}

fn a_taskwait_joins_the_children_of_every_thread() {
    let Some(mut rt) = runtime(8, 64) else {
        return;
    };
    let gpu = rt.gpu().clone();
    let cell = upload(&gpu, &[0u64]);
    // SAFETY: as above.
    let c = unsafe { Counter::from_ptr(device_ptr(&gpu, &cell) as *mut u64) };
    let (seen, _) = rt.run(blocks::fan_then_read(c, 5, 3)).unwrap();
    // The root itself does not count; its 3 subtrees of depth 4 do, all before the join.
    assert_eq!(seen, 3 * fan_expected(4, 3));
}

fn a_divergent_taskwait_is_an_error_and_the_runtime_stays_usable() {
    let Some(mut rt) = runtime(4, 64) else {
        return;
    };
    let err = rt.run(blocks::divergent()).unwrap_err();
    assert!(
        matches!(
            err,
            GpuRunError::Run(RunError::DivergentTaskwait {
                task: "divergent",
                thread: 1
            })
        ),
        "{err}"
    );
    assert_eq!(rt.run(blocks::tree(3)).unwrap().0, tree_expected(3, 64));
}

fn non_uniform_live_state_is_an_error_when_checked() {
    let Some(mut rt) = runtime(4, 64) else {
        return;
    };
    let err = rt.run(blocks::non_uniform()).unwrap_err();
    assert!(
        matches!(
            err,
            GpuRunError::Run(RunError::NonUniformState {
                task: "non_uniform"
            })
        ),
        "{err}"
    );
    assert_eq!(rt.run(blocks::tree(2)).unwrap().0, tree_expected(2, 64));
    // With the check off the mistake goes unseen: the leader's value wins.
    rt.set_config(config(4, 64).check_uniform(false)).unwrap();
    assert_eq!(rt.run(blocks::non_uniform()).unwrap().0, 1);
}

fn settings_block_programs_do_not_support_are_refused() {
    let Some(mut rt) = runtime(4, 64) else {
        return;
    };
    rt.set_config(config(4, 64).scheduler(Scheduler::GlobalQueue))
        .unwrap();
    let err = rt.run(blocks::tree(2)).unwrap_err();
    assert!(
        matches!(
            err,
            GpuRunError::NotForBlockPrograms {
                program: "blocks",
                ..
            }
        ),
        "{err}"
    );
    // Scratch beyond what the device gives a block.
    rt.set_config(config(4, 64).block_scratch(226 * 1024))
        .unwrap();
    let err = rt.run(blocks::tree(2)).unwrap_err();
    assert!(
        matches!(
            err,
            GpuRunError::InvalidConfig {
                setting: "block_scratch",
                ..
            }
        ),
        "{err}"
    );
    // More threads than the kernel's registers allow (the driver's compiler gives it more
    // than 64 per thread on sm_90): named before the launch.
    rt.set_config(config(1, 1024)).unwrap();
    let err = rt.run(blocks::tree(2)).unwrap_err();
    assert!(
        matches!(
            err,
            GpuRunError::InvalidConfig {
                setting: "block",
                value: 1024,
                ..
            }
        ),
        "{err}"
    );
    rt.set_config(config(4, 64)).unwrap();
    assert_eq!(rt.run(blocks::tree(4)).unwrap().0, tree_expected(4, 64));
}

/// A block-wide pass (`TeamMut::pass_from`) writes every element on blocks of several sizes.
fn a_block_wide_pass_writes_every_element() {
    for (grid, block) in [(1, 32), (4, 64), (8, 256)] {
        let Some(mut rt) = runtime(grid, block) else {
            return;
        };
        let n = 5000u32;
        let mut x = gtap::DeviceVec::from_slice(&rt, &(0..n).collect::<Vec<u32>>()).unwrap();
        let mut y = gtap::DeviceVec::<u32>::zeros(&rt, n as usize).unwrap();
        let (size, _) = rt.run(blocks::pass(x.view_mut(), y.view_mut(), 0)).unwrap();
        assert_eq!(size, u64::from(block));
        assert_eq!(
            y.to_vec().unwrap(),
            (1..=n).collect::<Vec<u32>>(),
            "blocks of {block}"
        );
    }
}

/// When one thread of the block passes the other way, the pass panics on every thread (a
/// trap, so in a child process of its own) before any thread touches the arrays.
fn threads_that_come_to_different_passes_fail_the_run() {
    let test = "threads_that_come_to_different_passes_fail_the_run";
    let Some(gpu) = gtap_host::Gpu::for_fault_test(test) else {
        return;
    };
    let mut rt = GpuRuntime::new(gpu, gtap_tests::PTX, config(4, 64)).unwrap();
    let mut x = gtap::DeviceVec::from_slice(&rt, &[1u32; 1000]).unwrap();
    let mut y = gtap::DeviceVec::<u32>::zeros(&rt, 1000).unwrap();
    match rt
        .run(blocks::pass(x.view_mut(), y.view_mut(), 1))
        .unwrap_err()
    {
        GpuRunError::TaskPanicked { location, .. } => {
            assert!(location.contains("different passes"), "{location}");
        }
        other => panic!("expected TaskPanicked, got {other}"),
    }
}

gtap_host::gpu_test_main!(
    a_block_wide_pass_writes_every_element,
    threads_that_come_to_different_passes_fail_the_run,
    block_wide_spawns_return_every_result_on_several_block_sizes,
    per_thread_spawns_each_make_a_child,
    a_taskwait_joins_the_children_of_every_thread,
    a_divergent_taskwait_is_an_error_and_the_runtime_stays_usable,
    non_uniform_live_state_is_an_error_when_checked,
    settings_block_programs_do_not_support_are_refused,
);
