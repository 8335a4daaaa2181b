//! The test harness of GPU test binaries: GPU tests that show as skipped where there is no GPU.
//!
//! libtest decides what is ignored when it compiles (`#[ignore]`), so a GPU test that finds no
//! GPU can only return early, and `cargo test` then counts it as passed. This harness (built on
//! `libtest-mimic`, which prints and parses like libtest) opens GPU 0 once, before any test
//! runs, and decides:
//!
//! | GPU 0 | `GTAP_REQUIRE_GPU` | GPU tests |
//! |---|---|---|
//! | opens | any | run |
//! | no driver or no device | unset | *ignored*, with one line saying how many and why |
//! | no driver or no device | set | fail, each with the reason |
//! | fails to open otherwise | any | run (and fail, naming the error, in [`Gpu::for_tests`]) |
//!
//! A GPU test that runs anyway without a GPU (`--include-ignored`) fails with the reason rather
//! than passing. Tests that need no GPU can share the binary ([`Test::cpu`]). At most four
//! tests run at once unless `--test-threads` says otherwise (they share the GPU's memory).
//!
//! Use it through [`gpu_test_main!`](crate::gpu_test_main), with `harness = false` on the
//! binary's `[[test]]` entry and the feature `test-harness` of `gtap-host`.

use std::process::ExitCode;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::Duration;

use libtest_mimic::{Arguments, Failed, Trial};

use crate::gpu::Gpu;
use crate::testing::{REQUIRE_GPU_ENV, require_gpu};

/// One test of a harness binary.
pub struct Test {
    name: &'static str,
    body: fn(),
    needs_gpu: bool,
    /// Set: ignored unless this environment variable is set (a test run on request).
    on_request: Option<&'static str>,
}

impl Test {
    /// A test that needs GPU 0.
    pub fn gpu(name: &'static str, body: fn()) -> Test {
        Test {
            name,
            body,
            needs_gpu: true,
            on_request: None,
        }
    }

    /// A test that needs no GPU and always runs.
    pub fn cpu(name: &'static str, body: fn()) -> Test {
        Test {
            needs_gpu: false,
            ..Test::gpu(name, body)
        }
    }

    /// This test runs only when environment variable `var` is set (to anything); otherwise it
    /// is ignored. For GPU runs that are not tests of the suite: a soak, a planted hang.
    pub fn on_request(self, var: &'static str) -> Test {
        Test {
            on_request: Some(var),
            ..self
        }
    }
}

/// Why GPU tests cannot run on this machine, or `None` where they can (or must try).
fn missing_gpu() -> Option<String> {
    match Gpu::new(0) {
        Err(e) if e.is_no_gpu() => Some(e.to_string()),
        _ => None,
    }
}

/// How many tests run at once where the command line does not say (`--test-threads`). A
/// binary's GPU tests share one GPU, and each runtime reserves up to 8 GiB of task records
/// (a quarter of the memory free when it is made): a dozen tests at once, one of them in a
/// child process with its own context, can run an 80 GB GPU out of memory.
const DEFAULT_TEST_THREADS: usize = 4;

/// Runs `tests` as libtest would, with the command line's filters and options, and returns
/// the process's exit code.
pub fn run(tests: Vec<Test>) -> ExitCode {
    let mut args = Arguments::from_args();
    args.test_threads.get_or_insert(DEFAULT_TEST_THREADS);
    let missing = missing_gpu();
    let require = require_gpu();
    let skipping = if require { None } else { missing.as_deref() };
    let gpu_tests = tests.iter().filter(|t| t.needs_gpu).count();
    if let (Some(why), false) = (skipping, args.list) {
        println!(
            "{gpu_tests} GPU tests skipped: {why}; run them on a GPU machine (README, 'GPU \
             tests'; {REQUIRE_GPU_ENV}=1 makes this a failure)"
        );
    }
    let trials = tests
        .into_iter()
        .map(|t| trial(t, missing.clone(), skipping.is_some()))
        .collect();
    libtest_mimic::run(&args, trials).exit_code()
}

/// The libtest-mimic trial of `test`. `missing`: why there is no GPU; `skip_gpu`: GPU tests
/// are ignored.
fn trial(test: Test, missing: Option<String>, skip_gpu: bool) -> Trial {
    let requested = test
        .on_request
        .is_none_or(|var| std::env::var_os(var).is_some());
    let ignored = !requested || (test.needs_gpu && skip_gpu);
    let Test {
        name,
        body,
        needs_gpu,
        ..
    } = test;
    Trial::test(name, move || match (&missing, needs_gpu) {
        (Some(why), true) => Err(Failed::from(format!("no GPU to run this test on: {why}"))),
        _ => {
            let notice = |waited: Duration| {
                eprintln!(
                    "test `{name}` is still running after {} s",
                    waited.as_secs()
                );
            };
            watched(notice_period(), notice, body);
            Ok(())
        }
    })
    .with_kind(if needs_gpu { "gpu" } else { "" })
    .with_ignored_flag(ignored)
}

/// How often a test that is still running says so ([`watched`]): `GTAP_TEST_NOTICE_S`
/// seconds (0: never), by default a minute.
fn notice_period() -> Option<Duration> {
    let secs = std::env::var(NOTICE_ENV)
        .ok()
        .and_then(|v| v.trim().parse::<u64>().ok())
        .unwrap_or(DEFAULT_NOTICE_S);
    (secs > 0).then(|| Duration::from_secs(secs))
}

/// The environment variable of [`notice_period`].
const NOTICE_ENV: &str = "GTAP_TEST_NOTICE_S";

/// [`notice_period`]'s default, in seconds: longer than any test of the suite takes.
const DEFAULT_NOTICE_S: u64 = 60;

/// Runs `body`, calling `notice` with the time waited every `period` while it runs. A test
/// that hangs is then named in the log while it hangs: tests run in parallel and report only
/// when they end, so the watchdog that kills a hung binary would otherwise leave only the
/// names of the tests that ended.
fn watched(period: Option<Duration>, notice: impl Fn(Duration) + Send, body: fn()) {
    let Some(period) = period else {
        return body();
    };
    let (done, ended) = mpsc::channel::<()>();
    std::thread::scope(|s| {
        s.spawn(move || {
            let mut waited = Duration::ZERO;
            while let Err(RecvTimeoutError::Timeout) = ended.recv_timeout(period) {
                waited += period;
                notice(waited);
            }
        });
        // Dropped when `body` returns or unwinds, which ends the watcher.
        let _done = done;
        body();
    });
}

/// The `main` of a test binary whose tests are the functions named (paths, `fn()`), each a
/// GPU test; `cpu: [...]` names tests that need no GPU, `on_request(VAR): [...]` GPU tests
/// that run only when environment variable `VAR` is set. See [`harness`](self).
///
/// ```ignore
/// gtap_host::gpu_test_main!(loads_and_runs, faults::a_trap_is_reported; cpu: [parses_args]);
/// ```
#[macro_export]
macro_rules! gpu_test_main {
    (
        $($gpu:path),* $(,)?
        $(; cpu: [$($cpu:path),* $(,)?])?
        $(; on_request($var:literal): [$($req:path),* $(,)?])?
    ) => {
        fn main() -> ::std::process::ExitCode {
            use $crate::testing::harness::{Test, run};
            let mut tests = ::std::vec::Vec::new();
            $(tests.push(Test::gpu(stringify!($gpu), $gpu));)*
            $($(tests.push(Test::cpu(stringify!($cpu), $cpu));)*)?
            $($(tests.push(Test::gpu(stringify!($req), $req).on_request($var));)*)?
            run(tests)
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    fn body() {}

    #[test]
    fn gpu_tests_are_ignored_when_skipping_and_cpu_tests_never() {
        assert!(trial(Test::gpu("g", body), Some("no".into()), true).has_ignored_flag());
        assert!(!trial(Test::gpu("g", body), None, false).has_ignored_flag());
        assert!(!trial(Test::cpu("c", body), Some("no".into()), true).has_ignored_flag());
    }

    #[test]
    fn a_test_on_request_is_ignored_without_its_variable() {
        let t = Test::gpu("r", body).on_request("GTAP_TEST_VARIABLE_NEVER_SET");
        assert!(trial(t, None, false).has_ignored_flag());
        let t = Test::cpu("r", body).on_request("PATH");
        assert!(!trial(t, None, false).has_ignored_flag());
    }

    /// Notices the watcher gave in [`a_test_still_running_is_noticed_until_it_ends`].
    static NOTICES: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

    fn waits_for_two_notices() {
        let give_up = std::time::Instant::now() + Duration::from_secs(30);
        while NOTICES.load(std::sync::atomic::Ordering::SeqCst) < 2 {
            assert!(std::time::Instant::now() < give_up, "no notices after 30 s");
            std::thread::sleep(Duration::from_millis(1));
        }
    }

    #[test]
    fn a_test_still_running_is_noticed_until_it_ends() {
        let waits = std::sync::Mutex::new(Vec::new());
        let notice = |waited| {
            waits.lock().unwrap().push(waited);
            NOTICES.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        };
        watched(
            Some(Duration::from_millis(5)),
            notice,
            waits_for_two_notices,
        );
        let waits = waits.into_inner().unwrap();
        // Each notice says how long it has waited, in whole periods.
        assert!(waits.len() >= 2, "{waits:?}");
        for (i, w) in waits.iter().enumerate() {
            assert_eq!(*w, Duration::from_millis(5) * (i as u32 + 1));
        }
    }

    #[test]
    fn a_quick_test_or_no_period_gives_no_notice() {
        let notice = |_| panic!("no notice expected");
        watched(Some(Duration::from_secs(3600)), notice, body);
        watched(None, notice, body);
    }

    #[test]
    fn a_panicking_test_ends_its_watcher() {
        let caught = std::panic::catch_unwind(|| {
            watched(
                Some(Duration::from_secs(3600)),
                |_| {},
                || panic!("the test fails"),
            )
        });
        assert!(caught.is_err());
    }

    #[test]
    fn gpu_tests_are_marked_as_such() {
        assert_eq!(trial(Test::gpu("g", body), None, false).kind(), "gpu");
        assert_eq!(trial(Test::cpu("c", body), None, false).kind(), "");
    }
}
