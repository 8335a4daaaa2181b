//! `resident`: roots submitted one at a time to a resident session
//! (`GpuRuntime::resident`), against one launch per root. Every result is checked.
//!
//! Rows, each on the GPU, for each program: `resident` of `N` roots (a session started, all
//! `N` submitted, then all waited for), `pipelined` of `N` (at most `--window` in flight: a
//! submitter that waits for its oldest root before it submits past the window), `loop` of
//! `--loop-roots` roots (one `run` each, the anchor of both), and `latency` (the median, over
//! `--samples` roots submitted one at a time to an idle session, from `submit` to a completed
//! handle; its anchor, `run latency`, is the median of one `run` of the same root, a kernel
//! launch and its synchronisation), for each program and for two small roots, fib(5) and
//! fib(1) (one task: the way in and out alone). `bench
//! batch` gives `run_batch` over the same roots.
//! A row's per-root cost is its time over its size.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use gtap::host::gpu_runtime::{GpuResident, GpuRuntime, GpuStats, RootTrace, trace_now_ns};
use gtap_examples::{fib, nqueens};

use crate::Bench;
use crate::cli::{BatchProgram, ResidentArgs};
use crate::harness::{Key, Sample, timed};

/// The rows of `a`.
pub fn run(b: &mut Bench, a: &ResidentArgs) {
    let Some(rt) = b.rt.as_mut() else {
        eprintln!("bench resident: no GPU, nothing to measure");
        return;
    };
    if a.trace {
        trace_rows(rt, a);
    }
    for &p in &a.program {
        if a.latency_only {
            match p {
                BatchProgram::Nqueens10 => latency_rows::<nqueens::program::Program>(
                    &mut b.h,
                    rt,
                    a.samples,
                    p.name(),
                    || nqueens::program::nqueens(10, 0, 0, 0, 0, 3),
                    p.expected(),
                ),
                BatchProgram::Fib20 => latency_rows::<fib::program::Program>(
                    &mut b.h,
                    rt,
                    a.samples,
                    p.name(),
                    || fib::program::fib(20),
                    p.expected(),
                ),
            }
            continue;
        }
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
    // A small root: fib(5), 15 calls, whose latency is mostly the way in and out; and fib(1),
    // one task, whose latency is the way in and out alone.
    let small = || fib::program::fib(5);
    latency_rows::<fib::program::Program>(&mut b.h, rt, a.samples, "fib(5)", small, 5);
    let one = || fib::program::fib(1);
    latency_rows::<fib::program::Program>(&mut b.h, rt, a.samples, "fib(1)", one, 1);
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

/// The traced latency rows (`--trace`): fib(5), fib(1), nqueens(10) and fib(20), each root
/// submitted to an idle session after a pause, for a few pauses and two ways of waiting.
fn trace_rows(rt: &mut GpuRuntime, a: &ResidentArgs) {
    println!(
        "trace: medians in us; host clock SystemTime, device clock %globaltimer; \
         submit->pub, pub->claim (cross-clock), claim->done (device), done->seen (cross-clock), \
         seen->deliv, deliv->bench, total; and pub->seen minus claim->done (both crossings)"
    );
    for (pause_us, samples) in [
        (0, a.samples),
        (500, a.samples),
        (25_000, a.samples.min(100)),
    ] {
        for wait in [false, true] {
            trace_one::<fib::program::Program>(rt, "fib(5)", pause_us, samples, wait, || {
                fib::program::fib(5)
            });
        }
    }
    trace_one::<fib::program::Program>(rt, "fib(1)", 500, a.samples, false, || {
        fib::program::fib(1)
    });
    trace_one::<nqueens::program::Program>(rt, "nqueens(10)", 500, a.samples, false, || {
        nqueens::program::nqueens(10, 0, 0, 0, 0, 3)
    });
    trace_one::<fib::program::Program>(rt, "fib(20)", 500, a.samples, false, || {
        fib::program::fib(20)
    });
}

/// One traced row: `samples` roots made by `root`, each after a pause of `pause_us`,
/// waited for with `try_result` polling or (`wait`) `RootHandle::wait`.
fn trace_one<P: gtap::Program>(
    rt: &mut GpuRuntime,
    name: &str,
    pause_us: u64,
    samples: usize,
    wait: bool,
    root: impl Fn() -> gtap::Call<'static, P, u64>,
) {
    let s = rt.resident::<P, u64>().expect("a resident session");
    s.set_trace(true);
    let mut steps: Vec<[i64; 8]> = Vec::with_capacity(samples);
    for _ in 0..samples.max(1) {
        std::thread::sleep(Duration::from_micros(pause_us));
        let call = root();
        let start = trace_now_ns();
        let hd = s.submit(call);
        if wait {
            hd.wait().expect("a root");
        } else {
            while hd.try_result().is_none() {
                std::hint::spin_loop();
            }
        }
        let end = trace_now_ns();
        let t: RootTrace = s.trace(hd.root());
        let d = |a: u64, b: u64| b as i64 - a as i64;
        steps.push([
            d(start, t.published_ns),
            d(t.published_ns, t.claimed_ns),
            d(t.claimed_ns, t.done_ns),
            d(t.done_ns, t.seen_ns),
            d(t.seen_ns, t.delivered_ns),
            d(t.delivered_ns, end),
            d(start, end),
            d(t.published_ns, t.seen_ns) - d(t.claimed_ns, t.done_ns),
        ]);
    }
    s.shutdown().expect("a clean shutdown");
    let median = |k: usize| {
        let mut v: Vec<i64> = steps.iter().map(|x| x[k]).collect();
        v.sort_unstable();
        v[v.len() / 2] as f64 / 1000.0
    };
    let p90 = |k: usize| {
        let mut v: Vec<i64> = steps.iter().map(|x| x[k]).collect();
        v.sort_unstable();
        v[v.len() * 9 / 10] as f64 / 1000.0
    };
    println!(
        "trace {name:12} pause {pause_us:>6} us, {}: {:8.1} {:10.1} {:8.1} {:10.1} {:6.1} {:6.1} | total {:8.1} (p90 {:8.1}) | crossings {:8.1}",
        if wait { "wait      " } else { "try_result" },
        median(0),
        median(1),
        median(2),
        median(3),
        median(4),
        median(5),
        median(6),
        p90(6),
        median(7),
    );
}
