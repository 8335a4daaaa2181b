//! Task storage on the GPU: a warp whose slab runs short borrows chunks of the device-wide
//! record reserve (`gtap_device::runtime::reserve`), so that a program which keeps more tasks
//! alive on one warp than its slab holds completes; a program too large for the slabs and the
//! reserve together still ends in `PoolExhausted`, which names the run's records.

mod common;

use gtap_host::RunError;
use gtap_host::gpu_runtime::{GpuConfig, GpuRunError};
use gtap_tests::lang::program as lang;

/// Levels of the chain: `even(n)` keeps `n + 1` tasks alive at its deepest (each waits for
/// its child), far more than one warp's slab.
const DEPTH: u32 = 20_000;

/// One warp, so that every record of the chain comes from the same slab, and every spawn a
/// task (the granularity policy would run the chain inline once records ran short).
fn one_warp() -> GpuConfig {
    GpuConfig::new().grid(1).block(32).auto_granularity(false)
}

fn a_deep_chain_borrows_from_the_reserve() {
    let Some(mut rt) = common::runtime(gtap_tests::PTX, one_warp().reserve_records(0)) else {
        return;
    };
    // Without a reserve (how every run was before): the warp's slab of 4096 is all it has.
    let err = rt.run(lang::even(DEPTH)).unwrap_err();
    assert!(
        matches!(
            err,
            GpuRunError::Run(RunError::PoolExhausted { capacity: 4096 })
        ),
        "{err}"
    );
    // The default configuration sizes a reserve from the device's free memory.
    rt.set_config(one_warp()).unwrap();
    let (even, stats) = rt.run(lang::even(DEPTH)).unwrap();
    assert!(even);
    let (odd, _) = rt.run(lang::even(DEPTH + 1)).unwrap();
    assert!(!odd);
    assert!(
        stats.chunks_borrowed >= u64::from(DEPTH - 4096).div_ceil(1024),
        "the chain's records past the slab come from borrowed chunks: {stats:?}"
    );
    assert!(stats.reserve_records >= u64::from(DEPTH), "{stats:?}");
    // The chunks came back: the same run again borrows them again.
    let (again, _) = rt.run(lang::even(DEPTH)).unwrap();
    assert!(again);
}

fn a_program_too_large_for_slabs_and_reserve_names_its_records() {
    let config = one_warp().reserve_records(4096);
    let Some(mut rt) = common::runtime(gtap_tests::PTX, config) else {
        return;
    };
    let err = rt.run(lang::even(DEPTH)).unwrap_err();
    // 4096 records of the slab and 4 chunks of 1024.
    assert!(
        matches!(
            err,
            GpuRunError::Run(RunError::PoolExhausted { capacity: 8192 })
        ),
        "{err}"
    );
    let msg = err.to_string();
    assert!(
        msg.contains("8192") && msg.contains("reserve_records"),
        "{msg}"
    );
    // The runtime stays usable, and a chain that fits completes.
    let (even, _) = rt.run(lang::even(6000)).unwrap();
    assert!(even);
}

gtap_host::gpu_test_main!(
    a_deep_chain_borrows_from_the_reserve,
    a_program_too_large_for_slabs_and_reserve_names_its_records,
);
