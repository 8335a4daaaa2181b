//! `resident`: roots submitted one at a time to a resident session
//! (`GpuRuntime::resident`), against one launch per root. Every result is checked.
//!
//! Rows, each on the GPU, for each program: `resident` of `N` roots (a session started, all
//! `N` submitted, then all waited for), `pipelined` of `N` (at most `--window` in flight: a
//! submitter that waits for its oldest root before it submits past the window), `loop` of
//! `--loop-roots` roots (one `run` each, the anchor of both), and `latency` (the median, over
//! `--samples` roots submitted one at a time to an idle session, from `submit` to a completed
//! handle; its anchor, `run latency`, is the median of one `run` of the same root, a kernel
//! launch and its synchronisation), for each program and for a small root, fib(5). `bench
//! batch` gives `run_batch` over the same roots.
//! A row's per-root cost is its time over its size.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use gtap::host::gpu_runtime::{GpuResident, GpuRuntime, GpuStats};
use gtap_examples::{fib, nqueens};

use crate::Bench;
use crate::cli::{BatchProgram, ResidentArgs};
use crate::harness::{Key, Sample, timed};

/// How a root program of `bench resident` is named in its rows, and its result.
trait Roots: Sized {
    fn name(self) -> &'static str;
    fn expected(self) -> u64;
}

impl Roots for BatchProgram {
    fn name(self) -> &'static str {
        match self {
            BatchProgram::Nqueens10 => "nqueens(10), cutoff 3",
            BatchProgram::Fib20 => "fib(20), one task per call",
        }
    }

    fn expected(self) -> u64 {
        match self {
            BatchProgram::Nqueens10 => 724,
            BatchProgram::Fib20 => fib::reference(20),
        }
    }
}

/// The rows of `a`.
pub fn run(b: &mut Bench, a: &ResidentArgs) {
    let Some(rt) = b.rt.as_mut() else {
        eprintln!("bench resident: no GPU, nothing to measure");
        return;
    };
    for &p in &a.program {
        match p {
            BatchProgram::Nqueens10 => {
                rows::<nqueens::program::Program>(&mut b.h, rt, a, p, || {
                    nqueens::program::nqueens(10, 0, 0, 0, 0, 3)
                })
            }
            BatchProgram::Fib20 => {
                rows::<fib::program::Program>(&mut b.h, rt, a, p, || fib::program::fib(20))
            }
        }
    }
    // A small root: fib(5), 15 calls, whose latency is mostly the way in and out.
    let small = || fib::program::fib(5);
    latency_rows::<fib::program::Program>(&mut b.h, rt, a.samples, "fib(5)", small, 5);
}

/// Every row of one program whose roots `root` makes.
fn rows<P: gtap::Program>(
    h: &mut crate::harness::Harness,
    rt: &mut GpuRuntime,
    a: &ResidentArgs,
    p: BatchProgram,
    root: impl Fn() -> gtap::Call<'static, P, u64> + Copy,
) {
    let want = p.expected();
    h.measure(
        Key::new(
            "resident",
            a.roots,
            "gpu",
            format!("submit all, wait all, {}", p.name()),
        ),
        || {
            let (t, ()) = timed(|| {
                let s = rt.resident::<P, u64>().expect("a resident session");
                let handles: Vec<_> = (0..a.roots).map(|_| s.submit(root())).collect();
                for hd in handles {
                    assert_eq!(hd.wait().expect("a root"), want);
                }
                s.shutdown().expect("a clean shutdown");
            });
            Sample::cpu(t)
        },
    );
    h.measure(
        Key::new(
            "pipelined",
            a.roots,
            "gpu",
            format!("window {}, {}", a.window, p.name()),
        ),
        || {
            let (t, ()) = timed(|| {
                let s = rt.resident::<P, u64>().expect("a resident session");
                let mut window = VecDeque::with_capacity(a.window);
                for _ in 0..a.roots {
                    if window.len() == a.window {
                        let hd: gtap::host::RootHandle<u64> = window.pop_front().expect("full");
                        assert_eq!(hd.wait().expect("a root"), want);
                    }
                    window.push_back(s.submit(root()));
                }
                for hd in window {
                    assert_eq!(hd.wait().expect("a root"), want);
                }
                s.shutdown().expect("a clean shutdown");
            });
            Sample::cpu(t)
        },
    );
    h.measure(
        Key::new(
            "loop",
            a.loop_roots,
            "gpu",
            format!("run per root, {}", p.name()),
        ),
        || {
            let mut kernel = GpuStats::default();
            let (e2e, ()) = timed(|| {
                for _ in 0..a.loop_roots {
                    let (v, st) = rt.run(root()).expect("a root");
                    assert_eq!(v, want);
                    kernel.kernel_time += st.kernel_time;
                    kernel.tasks += st.tasks;
                }
            });
            Sample::gpu(kernel, e2e)
        },
    );
    latency_rows(h, rt, a.samples, p.name(), root, want);
}

/// The latency rows of one root (`name`, made by `root`, whose result is `want`): resident,
/// and its anchor, one `run`.
fn latency_rows<P: gtap::Program>(
    h: &mut crate::harness::Harness,
    rt: &mut GpuRuntime,
    samples: usize,
    name: &str,
    root: impl Fn() -> gtap::Call<'static, P, u64> + Copy,
    want: u64,
) {
    let key = |what: &str| Key::new("latency", samples, "gpu", format!("{what}, median, {name}"));
    h.measure(key("resident"), || {
        let s = rt.resident::<P, u64>().expect("a resident session");
        let t = median_latency(&s, samples, root, want);
        s.shutdown().expect("a clean shutdown");
        Sample::cpu(t)
    });
    h.measure(key("run (launch + sync)"), || {
        let mut times: Vec<Duration> = (0..samples)
            .map(|_| {
                let (t, r) = timed(|| rt.run(root()));
                assert_eq!(r.expect("a root").0, want);
                t
            })
            .collect();
        times.sort();
        Sample::cpu(times[times.len() / 2])
    });
}

/// The median time from `submit` to a completed handle of `samples` roots, each submitted
/// to the idle session `s` (after a pause that lets its warps back off fully), the handle
/// polled without blocking.
fn median_latency<P: gtap::Program>(
    s: &GpuResident<'_, P, u64>,
    samples: usize,
    root: impl Fn() -> gtap::Call<'static, P, u64>,
    want: u64,
) -> Duration {
    let mut times: Vec<Duration> = (0..samples.max(1))
        .map(|_| {
            std::thread::sleep(Duration::from_micros(500));
            let call = root();
            let start = Instant::now();
            let hd = s.submit(call);
            let v = loop {
                if let Some(r) = hd.try_result() {
                    break r.expect("a root");
                }
                std::hint::spin_loop();
            };
            let t = start.elapsed();
            assert_eq!(v, want);
            t
        })
        .collect();
    times.sort();
    times[times.len() / 2]
}
