//! After a run ends stuck (a task that does not return), every `DeviceVec` made before it
//! may be in use by that task: it refuses access and leaks its memory, and vectors made
//! afterwards work. A binary of its own: the stuck run marks every older vector of the
//! process, which other tests running beside it would see.

use std::sync::atomic::AtomicU64;
use std::time::Duration;

use gtap::DeviceVec;
use gtap_host::cpu::{CpuConfig, CpuError, CpuRuntime};
use gtap_host::data::DataError;
use gtap_tests::lang::Counter;
use gtap_tests::lang::program as lang;

#[test]
fn vectors_made_before_a_stuck_run_refuse_access_and_later_ones_work() {
    let config = CpuConfig::new()
        .threads(2)
        .timeout(Duration::from_millis(50));
    let mut rt = CpuRuntime::new(config).unwrap();
    let mut before = DeviceVec::from_slice(&rt, &[1u32, 2, 3]).unwrap();
    assert_eq!(before.to_vec().unwrap(), [1, 2, 3]);

    static RELEASE: AtomicU64 = AtomicU64::new(0);
    // SAFETY: `AtomicU64` has `u64`'s size and alignment; a static lives for the program.
    let release = unsafe { Counter::from_ptr(RELEASE.as_ptr()) };
    let err = rt.run(lang::spin(release, 2)).unwrap_err();
    assert!(matches!(err, CpuError::Stuck { .. }), "{err}");

    let e = before.to_vec().unwrap_err();
    assert!(matches!(e, DataError::InUseByStuckRun), "{e}");
    assert!(e.to_string().contains("end the process"), "{e}");
    assert!(matches!(
        before.copy_from(&[0; 3]),
        Err(DataError::InUseByStuckRun)
    ));
    let panicked =
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| before.view_mut().len()));
    assert!(panicked.is_err(), "a view of a vector a stuck run may use");
    drop(before); // leaks its memory

    let after = DeviceVec::from_slice(&rt, &[4u32, 5]).unwrap();
    assert_eq!(after.to_vec().unwrap(), [4, 5]);
    release.add(1);
}
