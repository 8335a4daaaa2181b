//! Resident sessions on the CPU backend (`CpuRuntime::resident`, `Runtime::resident`): roots
//! submitted from several threads while others run, results on their handles, a failing
//! root, dropped handles, shutdown with work in flight, and `.await` from a minimal
//! executor. The same checks on the GPU: `resident_gpu.rs`.
mod common;

use std::time::Duration;

use gtap_examples::{fib, nqueens};
use gtap_host::cpu::{CpuConfig, CpuRuntime};
use gtap_host::{RootError, RunError, Runtime};
use gtap_tests::lang::program as lang;

fn runtime(threads: usize) -> CpuRuntime {
    CpuRuntime::new(CpuConfig::new().threads(threads)).expect("CPU runtime")
}

#[test]
fn roots_from_several_threads_all_get_their_results() {
    let rt = runtime(3);
    let session = rt.resident::<fib::program::Program, u64>().unwrap();
    std::thread::scope(|s| {
        for t in 0..4u32 {
            let session = &session;
            s.spawn(move || {
                let handles: Vec<_> = (0..200u32)
                    .map(|i| (i, session.submit(fib::program::fib((i + t) % 21))))
                    .collect();
                for (i, h) in handles {
                    assert_eq!(h.wait().unwrap(), fib::reference((i + t) % 21), "{t}/{i}");
                }
            });
        }
    });
    assert_eq!(session.submitted(), 800);
    session.shutdown();
}

#[test]
fn a_handle_can_be_polled_and_awaited() {
    let rt = runtime(2);
    let session = rt.resident::<nqueens::program::Program, u64>().unwrap();
    let h = session.submit(nqueens::program::nqueens(8, 0, 0, 0, 0, 3));
    // Polled without blocking until it has its outcome.
    let value = loop {
        if let Some(outcome) = h.try_result() {
            break outcome.unwrap();
        }
        std::thread::sleep(Duration::from_micros(50));
    };
    assert_eq!(value, 92);
    assert!(h.is_done());
    // Awaited: several roots joined from one async fn on a minimal executor.
    let total = common::block_on(async {
        let a = session.submit(nqueens::program::nqueens(6, 0, 0, 0, 0, 3));
        let b = session.submit(nqueens::program::nqueens(7, 0, 0, 0, 0, 3));
        a.await.unwrap() + b.await.unwrap()
    });
    assert_eq!(total, 4 + 40);
}

#[test]
fn a_failing_root_is_reported_on_its_handle_and_the_session_goes_on() {
    // Policy off: the failing spawn must be a task, not an inline call.
    let rt = CpuRuntime::new(CpuConfig::new().threads(2).auto_granularity(false)).unwrap();
    let session = rt.resident::<lang::Program, u64>().unwrap();
    let bad = session.submit(lang::fail_below(2));
    match bad.wait().unwrap_err() {
        RootError::Failed { root, source } => {
            assert_eq!(root, 0);
            assert!(
                matches!(source.run_error(), Some(RunError::SlotsFull { .. })),
                "{source}"
            );
        }
        other => panic!("expected Failed, got {other:?}"),
    }
    // Later roots run; any that shared a batch with a failing one are reported, not lost.
    let handles: Vec<_> = (0..50)
        .map(|i| {
            if i == 25 {
                session.submit(lang::fail_below(1))
            } else {
                session.submit(lang::loop_join(5))
            }
        })
        .collect();
    let good = lang::seq::loop_join(5);
    for (i, h) in handles.into_iter().enumerate() {
        match h.wait() {
            Ok(v) => assert_eq!(v, good, "root {i}"),
            Err(RootError::Failed { root, .. }) => assert_eq!(root, 26, "only root 26 fails"),
            Err(RootError::Aborted {
                root, failed_root, ..
            }) => {
                assert_ne!(root, 26);
                assert_eq!(failed_root, Some(26), "root {root} names the failing one");
            }
            Err(other) => panic!("root {i}: {other}"),
        }
    }
    let after = session.submit(lang::loop_join(5));
    assert_eq!(after.wait().unwrap(), good);
}

#[test]
fn dropped_handles_and_shutdown_with_work_in_flight_lose_nothing() {
    let rt = runtime(2);
    let session = rt.resident::<fib::program::Program, u64>().unwrap();
    // Dropped at once: their roots still run, their results go nowhere.
    for n in 0..100 {
        drop(session.submit(fib::program::fib(n % 25)));
    }
    let kept: Vec<_> = (0..100u32)
        .map(|n| (n, session.submit(fib::program::fib(n % 25))))
        .collect();
    // Shut down while most of them are still queued or running.
    session.shutdown();
    for (n, h) in kept {
        assert!(
            h.is_done(),
            "root {} has no outcome after shutdown",
            h.root()
        );
        assert_eq!(h.try_result().unwrap().unwrap(), fib::reference(n % 25));
    }
}

#[test]
fn the_facade_offers_the_same_session() {
    let mut rt = Runtime::cpu(CpuConfig::new().threads(2)).unwrap();
    let session = rt.resident::<fib::program::Program, u64>().unwrap();
    let h = session.submit(fib::program::fib(20));
    assert_eq!(h.wait().unwrap(), 6765);
    drop(session); // shuts down
    // The runtime is usable again once the session is gone.
    let (v, _) = rt.run(fib::program::fib(10)).unwrap();
    assert_eq!(v, 55);
}

/// The body of the PTX function whose mangled name contains `name` (its definition, not a
/// declaration).
fn ptx_function<'a>(ptx: &'a str, name: &str) -> &'a str {
    ptx.split("\n.func")
        .chain(ptx.split("\n.visible .func"))
        .find(|f| f.lines().next().is_some_and(|l| l.contains(name)) && f.contains('{'))
        .unwrap_or_else(|| panic!("no definition of {name} in the PTX"))
}

#[test]
fn the_kernels_take_roots_and_report_completions_at_system_scope() {
    // The resident protocol's two edges with the host (see gtap_device's `runtime::gpu::inject`):
    // the pollers acquire `published` and the roots' completions release their status, both at
    // system scope, which the host's accesses need.
    let ptx = gtap_examples::PTX;
    let take = ptx_function(ptx, "6inject10take_roots");
    assert!(take.contains("ld.acquire.sys.u32"), "{take}");
    let done = ptx_function(ptx, "6inject14root_completed");
    assert!(done.contains("st.release.sys.u32"), "{done}");
    let end = ptx_function(ptx, "6inject8finished");
    assert_eq!(end.matches("ld.acquire.sys.u32").count(), 2, "{end}");
}

#[test]
fn the_panic_handler_finds_the_root_out_of_line_and_reports_its_slot_at_system_scope() {
    // After a trap the host can read no device memory: the panicking thread walks to its
    // root record itself (gtap_device's `runtime::gpu::panic`), in a function of its own
    // that stays out of the kernels' code, and stores a resident root's slot address into
    // the report in mapped host memory at system scope.
    let ptx = gtap_examples::PTX;
    let report = ptx_function(ptx, "5panic12report_panic");
    assert!(report.contains("5panic14panicking_root"), "{report}");
    assert!(report.contains("st.relaxed.sys.u64"), "{report}");
    ptx_function(ptx, "5panic14panicking_root");
}
