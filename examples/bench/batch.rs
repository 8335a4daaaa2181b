//! `batch`: many small independent roots. On the GPU, one launch for all of them
//! (`GpuRuntime::run_batch`) against one launch per root (`GpuRuntime::run` in a loop, over
//! the first `--loop-roots` of them, since a loop over all would take minutes); on the CPU,
//! rayon over the roots with the sequential program per root. Every result is checked.
//!
//! Rows: `batch` of `N` roots (kernel and end-to-end time of the one launch), `loop` of
//! `--loop-roots` roots (the sums of kernel and end-to-end times), and the rayon row. The
//! per-root cost of each is its time over its size.

use std::hint::black_box;

use gtap::host::gpu_runtime::GpuStats;
use gtap_examples::{fib, nqueens};
use rayon::prelude::*;

use crate::Bench;
use crate::cli::{BatchArgs, BatchProgram};
use crate::harness::{Key, Sample, timed};

impl BatchProgram {
    /// The root's name in the rows.
    pub(crate) fn name(self) -> &'static str {
        match self {
            BatchProgram::Nqueens10 => "nqueens(10), cutoff 3",
            BatchProgram::Fib20 => "fib(20), one task per call",
        }
    }

    /// The expected result of every root.
    pub(crate) fn expected(self) -> u64 {
        match self {
            BatchProgram::Nqueens10 => 724,
            BatchProgram::Fib20 => fib::reference(20),
        }
    }

    /// One root, sequentially on the calling thread.
    fn sequential(self) -> u64 {
        match self {
            BatchProgram::Nqueens10 => nqueens::count_seq(black_box(10), 0, 0, 0, 0),
            BatchProgram::Fib20 => fib::fib_recursive(black_box(20)),
        }
    }
}

/// The rows of `a`.
pub fn run(b: &mut Bench, a: &BatchArgs) {
    for &p in &a.program {
        let want = p.expected();
        if let Some(rt) = b.rt.as_mut() {
            let variant = format!("run_batch, {}", p.name());
            b.h.measure(Key::new("batch", a.roots, "gpu", variant), || {
                let (e2e, r) = timed(|| match p {
                    BatchProgram::Nqueens10 => rt.run_batch(
                        (0..a.roots).map(|_| nqueens::program::nqueens(10, 0, 0, 0, 0, 3)),
                    ),
                    BatchProgram::Fib20 => {
                        rt.run_batch((0..a.roots).map(|_| fib::program::fib(20)))
                    }
                });
                let (values, stats) = r.unwrap_or_else(|e| panic!("batch on the GPU: {e}"));
                assert!(values.len() == a.roots && values.iter().all(|&v| v == want));
                Sample::gpu(stats, e2e)
            });
            let variant = format!("run per root, {}", p.name());
            b.h.measure(Key::new("loop", a.loop_roots, "gpu", variant), || {
                let mut kernel = GpuStats::default();
                let (e2e, ()) = timed(|| {
                    for _ in 0..a.loop_roots {
                        let (v, s) = match p {
                            BatchProgram::Nqueens10 => {
                                rt.run(nqueens::program::nqueens(10, 0, 0, 0, 0, 3))
                            }
                            BatchProgram::Fib20 => rt.run(fib::program::fib(20)),
                        }
                        .unwrap_or_else(|e| panic!("a root on the GPU: {e}"));
                        assert_eq!(v, want);
                        kernel.kernel_time += s.kernel_time;
                        kernel.tasks += s.tasks;
                    }
                });
                Sample::gpu(kernel, e2e)
            });
        }
        let variant = format!("rayon over the roots, sequential {}", p.name());
        b.h.measure(Key::new("batch", a.roots, "rayon", variant), || {
            let (t, ok) = timed(|| (0..a.roots).into_par_iter().all(|_| p.sequential() == want));
            assert!(ok, "a root on the CPU");
            Sample::cpu(t)
        });
    }
}
