//! Opening a GPU in tests: skip visibly on machines without one, unless told not to.
//!
//! A test binary of GPU tests uses the harness of `harness` (feature `test-harness`,
//! `harness = false` in its `[[test]]` entry), which marks every GPU test *ignored* where there
//! is no GPU, so that `cargo test` reports them as skipped (and prints how many) rather than
//! as passed:
//! ```ignore
//! fn loads_and_runs() {
//!     let gpu = gtap_host::Gpu::for_tests().expect("the harness runs this only with a GPU");
//!     // ...
//! }
//! gtap_host::gpu_test_main!(loads_and_runs);
//! ```
//! Setting `GTAP_REQUIRE_GPU=1` turns the skip into a failure, for runs that must not pass
//! vacuously (the GPU machine's test script sets it, and so does every GPU path of the
//! examples).
//!
//! # Tests that fault, hang or get stuck on purpose
//! A kernel fault (a trap, an illegal address) leaves CUDA unusable for the rest of the process
//! (see [`Gpu::sync`]), and so would fail every GPU test after it in the same test binary. A
//! regression test of a deadlock must fail rather than hang, and a kernel stuck inside a task
//! keeps the GPU until its process ends. Such tests rerun themselves alone in a child process
//! of the same binary, with a deadline ([`child`]):
//! ```no_run
//! # use gtap_host::{Gpu, GpuError};
//! fn a_panic_on_the_gpu_is_a_trap() {
//!     // The name as `<test binary> --list` prints it.
//!     let Some(gpu) = Gpu::for_fault_test("a_panic_on_the_gpu_is_a_trap") else { return };
//!     // Only the child process gets here: make the kernel fault, check the error.
//! }
//! ```

pub mod child;
#[cfg(feature = "test-harness")]
pub mod harness;

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
}

/// Whether `GTAP_REQUIRE_GPU` is set to a true value: then a machine without a GPU is an
/// error for every GPU path (tests, examples), never a reason to skip or fall back to the CPU.
pub fn require_gpu() -> bool {
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
    fn for_tests_matches_new() {
        // Without a GPU (and without GTAP_REQUIRE_GPU) this must be None, with one Some.
        if require_gpu() {
            assert!(Gpu::for_tests().is_some());
        } else {
            assert_eq!(Gpu::for_tests().is_some(), Gpu::new(0).is_ok());
        }
    }
}
