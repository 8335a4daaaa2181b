//! Resident sessions on the GPU (`GpuRuntime::resident`): roots submitted from several
//! threads while the kernel runs, polled, waited for and awaited; a failing root reported on
//! its handle (and the session closed, the runtime usable again); a panicking root named
//! among hundreds in flight; dropped handles; shutdown with work in flight; other runtimes
//! of the process beside an open session (`gtap-host/src/gate.rs`). The same checks
//! on the CPU: `resident_cpu.rs`. Reported as ignored without a GPU (the GPU test harness).

mod common;

use std::time::Duration;

use gtap_examples::{fib, nqueens};
use gtap_host::gpu_runtime::{GpuConfig, GpuRunError, GpuRuntime};
use gtap_host::{GpuError, RootError, RunError, RuntimeError};
use gtap_tests::lang::program as lang;

fn config() -> GpuConfig {
    GpuConfig::new().timeout(Duration::from_secs(60))
}

fn roots_from_several_threads_all_get_their_results() {
    let Some(mut rt) = common::runtime(gtap_examples::PTX, config()) else {
        return;
    };
    for round in 0..2 {
        let session = rt.resident::<fib::program::Program, u64>().unwrap();
        std::thread::scope(|s| {
            for t in 0..4u32 {
                let session = &session;
                s.spawn(move || {
                    // More than the ring holds, so that submissions wait for slots too.
                    let handles: Vec<_> = (0..6000u32)
                        .map(|i| (i, session.submit(fib::program::fib((i + t) % 23))))
                        .collect();
                    for (i, h) in handles {
                        let v = h.wait().unwrap_or_else(|e| panic!("{round}/{t}/{i}: {e}"));
                        assert_eq!(v, fib::reference((i + t) % 23), "{round}/{t}/{i}");
                    }
                });
            }
        });
        assert_eq!(session.submitted(), 24_000);
        session.shutdown().unwrap();
    }
    // The runtime runs as before once the session is over.
    assert_eq!(rt.run(fib::program::fib(20)).unwrap().0, 6765);
}

fn a_handle_can_be_polled_and_awaited() {
    let Some(mut rt) = common::runtime(gtap_examples::PTX, config()) else {
        return;
    };
    let session = rt.resident::<nqueens::program::Program, u64>().unwrap();
    let h = session.submit(nqueens::program::nqueens(9, 0, 0, 0, 0, 3));
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    let value = loop {
        if let Some(outcome) = h.try_result() {
            break outcome.unwrap();
        }
        assert!(
            std::time::Instant::now() < deadline,
            "no outcome after 60 s"
        );
        std::hint::spin_loop();
    };
    assert_eq!(value, 352);
    let total = common::block_on(async {
        let a = session.submit(nqueens::program::nqueens(8, 0, 0, 0, 0, 3));
        let b = session.submit(nqueens::program::nqueens(10, 0, 0, 0, 0, 3));
        a.await.unwrap() + b.await.unwrap()
    });
    assert_eq!(total, 92 + 724);
    session.shutdown().unwrap();
}

fn a_failing_root_is_reported_on_its_handle() {
    let cfg = config().auto_granularity(false);
    let Some(mut rt) = common::runtime(gtap_tests::PTX, cfg) else {
        return;
    };
    let session = rt.resident::<lang::Program, u64>().unwrap();
    let good = lang::seq::loop_join(5);
    let before: Vec<_> = (0..200)
        .map(|_| session.submit(lang::loop_join(5)))
        .collect();
    for h in &before {
        assert_eq!(h.wait().unwrap(), good);
    }
    let bad = session.submit(lang::fail_below(3));
    let others: Vec<_> = (0..200)
        .map(|_| session.submit(lang::loop_join(5)))
        .collect();
    match bad.wait().unwrap_err() {
        RootError::Failed { root, source } => {
            assert_eq!(root, 200);
            assert!(
                matches!(source.run_error(), Some(RunError::SlotsFull { .. })),
                "{source}"
            );
        }
        other => panic!("expected Failed, got {other}"),
    }
    for h in others {
        match h.wait() {
            Ok(v) => assert_eq!(v, good),
            Err(RootError::Aborted { failed_root, .. }) => assert_eq!(failed_root, Some(200)),
            Err(RootError::Closed { .. }) => {}
            Err(other) => panic!("root {}: {other}", h.root()),
        }
    }
    // The session is closed: later roots are refused on their handles.
    let late = session.submit(lang::loop_join(5));
    assert!(
        matches!(late.wait(), Err(RootError::Closed { .. })),
        "{:?}",
        late.try_result()
    );
    let err = session.shutdown().unwrap_err();
    assert!(matches!(err, GpuRunError::ResidentFailed { .. }), "{err}");
    // A limit leaves the runtime usable.
    assert_eq!(rt.run(lang::loop_join(5)).unwrap().0, good);
}

/// A session with hundreds of roots in flight in which one panics three tasks below it: its
/// handle gets `Failed` with the panic (the panicking thread finds its root before the trap
/// and leaves the root's slot in the panic report), every other root that did not complete
/// `Aborted` naming it. Roots far longer than the panicking one (chains 500 tasks deep) go
/// just before it, so that several roots are sure to be pending when the trap ends the
/// kernel: with one pending, the session would name it even without the report. A trap ends
/// CUDA in the process, so the test runs in a child process (`Gpu::for_fault_test`).
fn a_panicking_root_among_many_is_named() {
    let Some(gpu) = gtap_host::Gpu::for_fault_test("a_panicking_root_among_many_is_named") else {
        return;
    };
    let mut rt = GpuRuntime::new(gpu, gtap_tests::PTX, config().auto_granularity(false)).unwrap();
    let session = rt.resident::<lang::Program, u32>().unwrap();
    // `panic_below(depth, i)` returns `10 + i` for `i < 4`, and panics for `i >= 4`.
    let short = |i: u32| (i, session.submit(lang::panic_below(3, i % 4)));
    let mut handles: Vec<_> = (0..400).map(short).collect();
    let long: Vec<_> = (0..4)
        .map(|i| session.submit(lang::panic_below(500, i)))
        .collect();
    let bad = session.submit(lang::panic_below(3, 7));
    let bad_root = bad.root();
    assert_eq!(bad_root, 404);
    handles.extend((400..800).map(short));
    match bad.wait().unwrap_err() {
        RootError::Failed { root, source } => {
            assert_eq!(root, bad_root);
            match &*source {
                RuntimeError::Gpu(GpuRunError::TaskPanicked { location, .. }) => {
                    assert!(location.contains("lang.rs"), "{location}");
                }
                other => panic!("expected TaskPanicked, got {other}"),
            }
        }
        other => panic!("expected Failed, got {other}"),
    }
    for h in long {
        match h.wait() {
            Err(RootError::Aborted { failed_root, .. }) => assert_eq!(failed_root, Some(bad_root)),
            other => panic!("long root {}: expected Aborted, got {other:?}", h.root()),
        }
    }
    for (i, h) in handles {
        match h.wait() {
            Ok(v) => assert_eq!(v, 10 + i % 4, "root {}", h.root()),
            Err(RootError::Aborted { failed_root, .. }) => assert_eq!(failed_root, Some(bad_root)),
            Err(RootError::Closed { .. }) => {}
            Err(other) => panic!("root {}: {other}", h.root()),
        }
    }
    let err = session.shutdown().unwrap_err();
    assert!(matches!(err, GpuRunError::ResidentFailed { .. }), "{err}");
}

fn dropped_handles_and_shutdown_with_work_in_flight_lose_nothing() {
    let Some(mut rt) = common::runtime(gtap_examples::PTX, config()) else {
        return;
    };
    let session = rt.resident::<fib::program::Program, u64>().unwrap();
    let mut kept = Vec::new();
    for n in 0..40_000u32 {
        let h = session.submit(fib::program::fib(n % 25));
        if n % 2 == 0 {
            kept.push((n, h));
        }
    }
    session.shutdown().unwrap();
    for (n, h) in kept {
        assert!(
            h.is_done(),
            "root {} has no outcome after shutdown",
            h.root()
        );
        assert_eq!(h.try_result().unwrap().unwrap(), fib::reference(n % 25));
    }
    // Dropping a session shuts it down too.
    let session = rt.resident::<fib::program::Program, u64>().unwrap();
    let h = session.submit(fib::program::fib(22));
    drop(session);
    assert_eq!(h.try_result().unwrap().unwrap(), 17_711);
}

/// Beside an open session, on the session's own thread: a runtime made before the session
/// runs a program to its end (both kernels on one block per SM, so that both fit on the GPU at
/// once); dropping it waits for nothing (what it frees is kept until the session ends); a
/// runtime made now cannot load its PTX, since loading waits for every kernel, the
/// session's too, and fails with `SessionOpen` after its timeout instead of hanging; the
/// session goes on, and after its shutdown a runtime loads and runs. (Loading a module and
/// freeing page-locked memory there hung the process: a child process with a deadline.)
fn beside_an_open_session_other_runtimes_run_drop_and_refuse_to_load() {
    let test = "beside_an_open_session_other_runtimes_run_drop_and_refuse_to_load";
    let Some(gpu) = gtap_host::Gpu::for_hang_test(test, Duration::from_secs(240)) else {
        return;
    };
    let cfg = config().grid(gpu.props().sm_count);
    let mut before = GpuRuntime::new(gpu.clone(), gtap_examples::PTX, cfg.clone()).unwrap();
    let mut rt = GpuRuntime::new(gpu.clone(), gtap_examples::PTX, cfg.clone()).unwrap();
    let session = rt.resident::<fib::program::Program, u64>().unwrap();
    assert_eq!(session.submit(fib::program::fib(20)).wait().unwrap(), 6765);
    let queens = || nqueens::program::nqueens(10, 0, 0, 0, 0, 3);
    assert_eq!(before.run(queens()).unwrap().0, 724);
    drop(before);
    let short = cfg.clone().timeout(Duration::from_secs(2));
    let asked = std::time::Instant::now();
    let err = GpuRuntime::new(gpu.clone(), gtap_examples::PTX, short)
        .err()
        .expect("a PTX load beside an open session on its own thread is refused");
    assert!(
        matches!(err, GpuRunError::Gpu(GpuError::SessionOpen { .. })),
        "{err}"
    );
    assert!(asked.elapsed() < Duration::from_secs(60), "{err}");
    assert_eq!(
        session.submit(fib::program::fib(24)).wait().unwrap(),
        46_368
    );
    session.shutdown().unwrap();
    let mut after = GpuRuntime::new(gpu, gtap_examples::PTX, cfg).unwrap();
    assert_eq!(after.run(queens()).unwrap().0, 724);
}

/// A runtime made on another thread while a session is open waits for the session to shut
/// down, then loads and runs.
fn a_runtime_made_beside_an_open_session_waits_for_its_shutdown() {
    let test = "a_runtime_made_beside_an_open_session_waits_for_its_shutdown";
    let Some(gpu) = gtap_host::Gpu::for_hang_test(test, Duration::from_secs(240)) else {
        return;
    };
    let cfg = config().grid(gpu.props().sm_count);
    let mut rt = GpuRuntime::new(gpu.clone(), gtap_examples::PTX, cfg.clone()).unwrap();
    let session = rt.resident::<fib::program::Program, u64>().unwrap();
    assert_eq!(session.submit(fib::program::fib(20)).wait().unwrap(), 6765);
    let other = std::thread::spawn(move || {
        let mut other = GpuRuntime::new(gpu, gtap_examples::PTX, cfg).unwrap();
        let queens = nqueens::program::nqueens(10, 0, 0, 0, 0, 3);
        other.run(queens).unwrap().0
    });
    std::thread::sleep(Duration::from_millis(500));
    assert!(
        !other.is_finished(),
        "the runtime was made while the session was open"
    );
    assert_eq!(
        session.submit(fib::program::fib(24)).wait().unwrap(),
        46_368
    );
    session.shutdown().unwrap();
    assert_eq!(other.join().unwrap(), 724);
}

fn programs_a_session_cannot_run_are_refused() {
    let Some(mut rt) = common::runtime(gtap_examples::PTX, config()) else {
        return;
    };
    let err = rt
        .resident::<gtap_examples::tree_block::full_binary_block::Program, u64>()
        .err()
        .expect("a block program is refused");
    assert!(matches!(err, GpuRunError::NotResident { .. }), "{err}");
}

gtap_host::gpu_test_main!(
    roots_from_several_threads_all_get_their_results,
    a_handle_can_be_polled_and_awaited,
    a_failing_root_is_reported_on_its_handle,
    a_panicking_root_among_many_is_named,
    dropped_handles_and_shutdown_with_work_in_flight_lose_nothing,
    programs_a_session_cannot_run_are_refused,
    beside_an_open_session_other_runtimes_run_drop_and_refuse_to_load,
    a_runtime_made_beside_an_open_session_waits_for_its_shutdown,
);
