//! `epaq`: GTaP section 6.4 (Fig. 10). A program with a cutoff (sequential code below it),
//! one queue against EPAQ queues, at each cutoff of a list, on the GPU only; rows
//! `PROGRAM(SIZE) cutoff C` with the queue count in `queues`. Every run is checked: the
//! value and the exact task count (cilksort: output sorted, and the same task count on every
//! run, since its count depends on where the merges split the data); with spawns run inline
//! by the granularity policy, fewer tasks than that.
//!
//! The runs get 32768 task records and 32768 queue entries per warp unless
//! `--tasks-per-warp` and `--queue-capacity` say otherwise: a warp that follows one queue
//! keeps more tasks alive.

use gtap::DeviceVec;
use gtap::host::gpu_runtime::{GpuConfig, GpuRuntime};
use gtap_examples::fib::{self, Leaf};
use gtap_examples::{cilksort_epaq, nqueens};

use crate::Bench;
use crate::cli::{
    EpaqCilksortArgs, EpaqFibArgs, EpaqNqueensArgs, EpaqProgram, GpuArgs, LeafArg, fmt_count,
};
use crate::harness::{Harness, Key, Sample, check_task_count, gpu_checked, timed};
use crate::sort::random_input;

/// The rows of `program`.
pub fn run(b: &mut Bench, program: &EpaqProgram) {
    let Some(rt) = b.rt.as_mut() else {
        eprintln!("epaq runs on the GPU only: nothing to measure here");
        return;
    };
    let base = rt.config().clone();
    let h = &mut b.h;
    let config = |queues: u32| epaq_config(&base, &b.gpu, queues);
    // The scheduling options default by the number of queues (`GpuConfig::scheduling`): say
    // what each row's count ran with, since the configuration line above has one queue.
    for queues in 1..=3 {
        eprintln!(
            "scheduling with {queues} queue(s): {:?}",
            config(queues).scheduling()
        );
    }
    match program {
        EpaqProgram::Fib(a) => fib_rows(h, rt, &config, a),
        EpaqProgram::Nqueens(a) => nqueens_rows(h, rt, &config, a),
        EpaqProgram::Cilksort(a) => cilksort_rows(h, rt, &config, a),
        EpaqProgram::All => {
            use clap::Parser;
            fib_rows(h, rt, &config, &EpaqFibArgs::parse_from(["fib"]));
            nqueens_rows(h, rt, &config, &EpaqNqueensArgs::parse_from(["nqueens"]));
            cilksort_rows(h, rt, &config, &EpaqCilksortArgs::parse_from(["cilksort"]));
        }
    }
    rt.set_config(base).expect("configuration");
}

/// `base` with `queues` queues and the EPAQ runs' records and queue entries.
fn epaq_config(base: &GpuConfig, args: &GpuArgs, queues: u32) -> GpuConfig {
    base.clone()
        .num_queues(queues)
        .tasks_per_warp(args.tasks_per_warp.unwrap_or(32768))
        .queue_capacity(args.queue_capacity.unwrap_or(32768))
}

/// fib with a cutoff: queue counts 1 (classifier 0) and 3 (recursing tasks, sequential tasks,
/// continuations: classifier 1).
fn fib_rows(
    h: &mut Harness,
    rt: &mut GpuRuntime,
    config: &dyn Fn(u32) -> GpuConfig,
    a: &EpaqFibArgs,
) {
    let n = a.n;
    let want = fib::reference(n);
    // GTaP's sequential code makes real calls; the explicit stack walks the same call tree.
    let leaves: &[(Leaf, &str, &str)] = match a.leaf {
        LeafArg::Calls => &[(Leaf::Calls, "fib-calls", "GTaP's recursive leaves")],
        LeafArg::Stack => &[(Leaf::Stack, "fib", "explicit-stack leaves")],
        LeafArg::Both => &[
            (Leaf::Calls, "fib-calls", "GTaP's recursive leaves"),
            (Leaf::Stack, "fib", "explicit-stack leaves"),
        ],
    };
    for &cutoff in &a.cutoff {
        let tasks = fib::cutoff_task_count(n, cutoff);
        for &(leaf, name, variant) in leaves {
            for &queues in &a.queues {
                let epaq = u32::from(queues > 1);
                rt.set_config(config(queues)).expect("EPAQ configuration");
                let key = Key::new(name, n, "gpu", variant)
                    .cutoff(cutoff)
                    .queues(queues);
                let what = format!("fib({n}) cutoff {cutoff}");
                h.measure(key, || {
                    let root = fib::epaq::fib_cutoff(n, cutoff, epaq, leaf);
                    let sample = gpu_checked(&want, &what, || rt.run(root));
                    check_task_count(&sample, tasks, &what);
                    sample
                });
            }
        }
    }
}

/// nqueens with a cutoff: 1 queue, 2 (spawning tasks and continuations, sequential counts:
/// GTaP's classifier) and 3 (continuations apart, as for fib).
fn nqueens_rows(
    h: &mut Harness,
    rt: &mut GpuRuntime,
    config: &dyn Fn(u32) -> GpuConfig,
    a: &EpaqNqueensArgs,
) {
    let n = a.n;
    let want = nqueens::KNOWN[n as usize];
    for &cutoff in &a.cutoff {
        let tasks = nqueens::cutoff_task_count(n, cutoff);
        for &queues in &a.queues {
            let epaq = queues - 1;
            rt.set_config(config(queues)).expect("EPAQ configuration");
            let variant = "GTaP's classifier";
            let key = Key::new("nqueens", n, "gpu", variant)
                .cutoff(cutoff)
                .queues(queues);
            let what = format!("nqueens({n}) cutoff {cutoff}");
            h.measure(key, || {
                let root = nqueens::epaq::nqueens(n, 0, 0, 0, 0, cutoff, epaq);
                let sample = gpu_checked(&want, &what, || rt.run(root));
                check_task_count(&sample, tasks, &what);
                sample
            });
        }
    }
}

/// cilksort with EPAQ: 1 queue, and 3 (spawning tasks and continuations, sort leaves, merge
/// leaves: GTaP's classifier), the sort and merge cutoffs both at the cutoff. The e2e time
/// includes the input's upload and the output's download.
fn cilksort_rows(
    h: &mut Harness,
    rt: &mut GpuRuntime,
    config: &dyn Fn(u32) -> GpuConfig,
    a: &EpaqCilksortArgs,
) {
    let n = a.n;
    let input = random_input(n, 12345);
    let mut sorted = input.clone();
    sorted.sort_unstable();
    let mut data = DeviceVec::from_slice(rt.gpu(), &input).expect("upload");
    let mut tmp = DeviceVec::<u32>::zeros(rt.gpu(), n).expect("device memory");
    for &c in &a.cutoff {
        let mut tasks = None;
        for &queues in &a.queues {
            let epaq = u32::from(queues > 1);
            rt.set_config(config(queues)).expect("EPAQ configuration");
            let key = Key::new("cilksort", fmt_count(n), "gpu", "GTaP's classifier");
            h.measure(key.cutoff(c).queues(queues), || {
                let (e2e, (out, s)) = timed(|| {
                    data.copy_from(&input).expect("upload");
                    let (d, t) = (data.view_mut(), tmp.view_mut());
                    let root = cilksort_epaq::program::cilksort(d, t, c, c, epaq);
                    let (_, s) = rt
                        .run(root)
                        .unwrap_or_else(|e| panic!("cilksort({n}): {e}"));
                    (data.to_vec().expect("download"), s)
                });
                assert!(out == sorted, "cilksort({n}) cutoff {c} on the GPU");
                // The same tasks every run, unless the granularity policy ran spawns inline
                // (which ones depends on the queues' state).
                if s.spawns_inlined == 0 {
                    let first = *tasks.get_or_insert(s.tasks);
                    assert_eq!(
                        s.tasks, first,
                        "cilksort({n}) cutoff {c} task count, run to run"
                    );
                }
                Sample::gpu(s, e2e)
            });
        }
    }
}
