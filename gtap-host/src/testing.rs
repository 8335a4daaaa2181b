//! Opening a GPU in tests: skip with a message on machines without one, unless told not to.
//!
//! GPU tests start with
//! ```
//! let Some(gpu) = gtap_host::Gpu::for_tests() else { return };
//! println!("{}", gpu.props());
//! ```
//! so that `cargo test` passes on a machine without a GPU (CI still compiles them) and runs
//! them where there is one. Setting `GTAP_REQUIRE_GPU=1` turns the skip into a failure, for
//! runs that must not pass vacuously (the GPU machine's test script sets it).
//!
//! # Tests that make a kernel fault
//! A kernel fault (a trap, an illegal address) leaves CUDA unusable for the rest of the process
//! (see [`Gpu::sync`]), and so would fail every GPU test after it in the same test binary. Such
//! tests start with [`Gpu::for_fault_test`] instead, which reruns just that test in a child
//! process:
//! ```no_run
//! # use gtap_host::{Gpu, GpuError};
//! #[test]
//! fn a_panic_on_the_gpu_is_a_trap() {
//!     // The name as `cargo test -- --list` prints it.
//!     let Some(gpu) = Gpu::for_fault_test("faults::a_panic_on_the_gpu_is_a_trap") else { return };
//!     // Only the child process gets here: make the kernel fault, check the error.
//! }
//! ```

use std::process::Command;

use crate::error::GpuError;
use crate::gpu::Gpu;

/// The environment variable that makes [`Gpu::for_tests`] panic instead of skipping:
/// `1`, `true` or `yes` (any case) turn it on.
pub const REQUIRE_GPU_ENV: &str = "GTAP_REQUIRE_GPU";

impl Gpu {
    /// GPU 0 for a test, or `None` after printing why the test is skipped.
    ///
    /// - A GPU: `Some`.
    /// - No driver or no GPU ([`GpuError::is_no_gpu`]): prints
    ///   `skipping GPU test: <why>; ...` to stderr and returns `None`; with
    ///   `GTAP_REQUIRE_GPU=1` it panics with that message instead.
    /// - Any other error (a broken driver, a GPU that fails to open): panics, since a test
    ///   that skipped here would hide it.
    pub fn for_tests() -> Option<Gpu> {
        gpu_or_skip(Gpu::new(0), require_gpu())
    }

    /// For a test that makes a kernel fault on purpose: reruns test `test` (its full name, as
    /// `cargo test -- --list` prints it) alone in a child process of the same test binary, and
    /// returns `Some` only there.
    ///
    /// In the test's own process it skips like [`Gpu::for_tests`] when there is no GPU;
    /// otherwise it starts the child (`<this binary> <test> --exact --include-ignored
    /// --nocapture`), waits, prints the child's stderr, panics if the child failed or ran no
    /// test, and returns `None`, so the test returns. In the child (marked by the
    /// environment variable `GTAP_FAULT_TEST_CHILD`) it is [`Gpu::for_tests`].
    pub fn for_fault_test(test: &str) -> Option<Gpu> {
        if std::env::var_os(FAULT_CHILD_ENV).is_some() {
            return Gpu::for_tests();
        }
        drop(Gpu::for_tests()?);
        let exe = std::env::current_exe().expect("the path of the running test binary");
        let out = Command::new(&exe)
            .args([
                test,
                "--exact",
                "--include-ignored",
                "--nocapture",
                "--test-threads=1",
            ])
            .env(FAULT_CHILD_ENV, "1")
            .output()
            .unwrap_or_else(|e| panic!("could not rerun {} for `{test}`: {e}", exe.display()));
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        if let Err(why) = child_verdict(test, out.status.success(), &stdout) {
            panic!("{why}\n--- child stdout ---\n{stdout}\n--- child stderr ---\n{stderr}");
        }
        eprint!("{stderr}");
        None
    }
}

/// Marks the child process that [`Gpu::for_fault_test`] starts.
const FAULT_CHILD_ENV: &str = "GTAP_FAULT_TEST_CHILD";

/// Whether the child of [`Gpu::for_fault_test`] ran test `test` and passed.
fn child_verdict(test: &str, success: bool, stdout: &str) -> Result<(), String> {
    if !stdout.contains("running 1 test") {
        return Err(format!(
            "`{test}` names no test of this binary: pass the full name that \
             `cargo test -- --list` prints (module path included)"
        ));
    }
    if !success {
        return Err(format!("fault test `{test}` failed in its child process"));
    }
    Ok(())
}

/// Whether `GTAP_REQUIRE_GPU` is set to a true value.
fn require_gpu() -> bool {
    std::env::var(REQUIRE_GPU_ENV)
        .is_ok_and(|v| matches!(v.trim().to_ascii_lowercase().as_str(), "1" | "true" | "yes"))
}

/// The decision of [`Gpu::for_tests`], apart from where the GPU comes from.
fn gpu_or_skip<T>(opened: Result<T, GpuError>, require: bool) -> Option<T> {
    match opened {
        Ok(gpu) => Some(gpu),
        Err(e) if e.is_no_gpu() => {
            let msg = skip_message(&e);
            if require {
                panic!("{msg}\n({REQUIRE_GPU_ENV} is set, so a missing GPU fails the test)");
            }
            eprintln!("{msg}");
            None
        }
        Err(e) => panic!("could not open GPU 0 for a test: {e}"),
    }
}

fn skip_message(e: &GpuError) -> String {
    format!(
        "skipping GPU test: {e}; run on a GPU machine, see README 'GPU tests' \
         ({REQUIRE_GPU_ENV}=1 makes this a failure)"
    )
}

#[cfg(test)]
mod tests {
    use cudarc::driver::DriverError;
    use cudarc::driver::sys::CUresult;

    use super::*;

    fn no_driver() -> GpuError {
        GpuError::NoDriver {
            reason: "libcuda.so.1 could not be loaded".into(),
        }
    }

    #[test]
    fn no_gpu_skips() {
        assert_eq!(gpu_or_skip::<u8>(Err(no_driver()), false), None);
        assert_eq!(
            gpu_or_skip::<u8>(
                Err(GpuError::NoDevice {
                    ordinal: 0,
                    count: 0
                }),
                false
            ),
            None
        );
        assert_eq!(gpu_or_skip(Ok(7u8), false), Some(7));
        assert_eq!(gpu_or_skip(Ok(7u8), true), Some(7));
    }

    #[test]
    #[should_panic(
        expected = "skipping GPU test: no CUDA driver found (libcuda.so.1 could not be loaded)"
    )]
    fn no_gpu_fails_when_a_gpu_is_required() {
        gpu_or_skip::<u8>(Err(no_driver()), true);
    }

    #[test]
    #[should_panic(
        expected = "could not open GPU 0 for a test: CUDA driver call cuDevicePrimaryCtxRetain"
    )]
    fn other_errors_fail_the_test() {
        let e = GpuError::Driver {
            call: "cuDevicePrimaryCtxRetain",
            source: DriverError(CUresult::CUDA_ERROR_OUT_OF_MEMORY),
        };
        gpu_or_skip::<u8>(Err(e), false);
    }

    #[test]
    fn skip_message_is_one_line_that_says_what_to_do() {
        let msg = skip_message(&no_driver());
        assert!(
            msg.starts_with("skipping GPU test: no CUDA driver found (libcuda.so.1"),
            "{msg}"
        );
        assert!(
            msg.contains("README 'GPU tests'") && msg.contains("GTAP_REQUIRE_GPU=1"),
            "{msg}"
        );
        assert!(!msg.contains('\n'), "{msg}");
    }

    #[test]
    fn a_fault_test_child_must_run_one_test_and_pass() {
        let ran = "\nrunning 1 test\ntest t ... ok\n\ntest result: ok. 1 passed";
        assert_eq!(child_verdict("t", true, ran), Ok(()));
        let failed = child_verdict("t", false, ran).unwrap_err();
        assert!(failed.contains("failed in its child"), "{failed}");
        let none = child_verdict("t", true, "\nrunning 0 tests\n").unwrap_err();
        assert!(none.contains("names no test"), "{none}");
    }

    #[test]
    fn for_tests_matches_new() {
        // Without a GPU (and without GTAP_REQUIRE_GPU) this must be None, with one Some.
        if require_gpu() {
            assert!(Gpu::for_tests().is_some());
        } else {
            assert_eq!(Gpu::for_tests().is_some(), Gpu::new(0).is_ok());
        }
    }
}
