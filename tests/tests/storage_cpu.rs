//! Task storage on the CPU: by default a run gets as many task records as a quarter of the
//! host's memory holds (`CpuConfig::records_for`; the pages of a record are touched only when
//! it is first used), so a program that keeps more tasks alive than the former fixed pool of
//! 2^20 records completes without a hand-set size. A capacity set by hand still bounds a run,
//! with `PoolExhausted` naming it.

use gtap_host::RunError;
use gtap_host::cpu::{CpuConfig, CpuError, CpuRuntime};
use gtap_tests::lang::program as lang;

/// Levels of the chain, past the former default of 2^20 records: `even(n)` keeps `n + 1`
/// tasks alive at its deepest (each waits for its child).
const DEPTH: u32 = (1 << 20) + 4096;

/// Every spawn a task: the granularity policy would run the chain inline once records ran
/// short, and on the stack of one worker.
fn all_tasks() -> CpuConfig {
    CpuConfig::new().threads(2).auto_granularity(false)
}

#[test]
fn a_chain_deeper_than_the_former_default_pool_completes() {
    let records = all_tasks().records_for::<lang::Program>();
    if records <= DEPTH {
        eprintln!("skipped: this host's default of {records} records is too small for the test");
        return;
    }
    let mut rt = CpuRuntime::new(all_tasks()).unwrap();
    let (even, stats) = rt.run(lang::even(DEPTH)).unwrap();
    assert!(even);
    assert_eq!(stats.task_capacity, records, "{stats:?}");
    assert!(stats.peak_records_in_use > DEPTH, "{stats:?}");
}

#[test]
fn a_capacity_set_by_hand_bounds_the_run() {
    let config = all_tasks().task_capacity(1 << 12);
    assert_eq!(config.records_for::<lang::Program>(), 1 << 12);
    let mut rt = CpuRuntime::new(config).unwrap();
    let err = rt.run(lang::even(1 << 13)).unwrap_err();
    assert!(
        matches!(
            err,
            CpuError::Run(RunError::PoolExhausted { capacity: 4096 })
        ),
        "{err}"
    );
    assert!(err.to_string().contains("task_capacity"), "{err}");
    // The runtime stays usable: the same chain fits a larger capacity.
    rt.set_config(all_tasks().task_capacity(1 << 14)).unwrap();
    let (even, stats) = rt.run(lang::even(1 << 13)).unwrap();
    assert!(even);
    assert_eq!(stats.task_capacity, 1 << 14);
}
