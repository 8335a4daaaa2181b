//! The per-warp timeline profiler on the GPU (`GpuConfig::profile`): what a profiled fib run
//! records agrees with the run's statistics, event by event and in total. Reported as
//! ignored without a GPU, except the test that checks the two PTX variants' kernels (plain and lab).

mod common;

use gtap::Program;
use gtap_examples::fib;
use gtap_host::gpu_runtime::{BatchSource, GpuConfig, GpuRunError, GpuStats, Profile, Scheduler};

/// The kernels (`.entry` names) of a PTX text.
fn entries(ptx: &str) -> Vec<&str> {
    ptx.lines()
        .filter_map(|l| l.strip_prefix(".visible .entry "))
        .map(|rest| rest.split('(').next().unwrap().trim())
        .collect()
}

/// What the lab kernels of a program's kernel `k` are called.
const LAB_SUFFIXES: [&str; 3] = ["_profiled", "_one_at_a_time", "_global_queue"];

fn only_the_lab_ptx_has_lab_kernels() {
    let plain = entries(gtap_examples::PTX);
    let lab = entries(gtap_examples::PTX_LAB);
    assert!(plain.contains(&"gtap_fib"), "{plain:?}");
    // `GTAP_LAB=1` makes every build a lab one, the default one too.
    let everything_lab = option_env!("GTAP_LAB")
        .is_some_and(|v| ["1", "true", "yes"].contains(&v.trim().to_ascii_lowercase().as_str()));
    let is_lab = |k: &str| LAB_SUFFIXES.iter().any(|s| k.ends_with(s));
    let plain: Vec<&str> = plain
        .into_iter()
        .filter(|k| !(everything_lab && is_lab(k)))
        .collect();
    assert!(
        plain.iter().all(|k| !is_lab(k)),
        "the default build must not carry lab kernels: {plain:?}"
    );
    // Every plain kernel, and the lab twins of each thread program's (block and mixed
    // programs have none: the profiler records warps' rounds, and the ablations are of the
    // warps' queues).
    let block_programs = [
        <gtap_examples::bfs::program::Program as Program>::NAME,
        <gtap_examples::spmv::program::Program as Program>::NAME,
        <gtap_examples::tree_block::full_binary_block::Program as Program>::NAME,
        <gtap_examples::tree_block::pruned_block::Program as Program>::NAME,
        <gtap_examples::mergesort_mixed::program::Program as Program>::NAME,
        <gtap_examples::cilksort_mixed::program::Program as Program>::NAME,
        <gtap_examples::bfs_mixed::program::Program as Program>::NAME,
        <gtap_examples::tree_mixed::full_binary_mixed::Program as Program>::NAME,
        <gtap_examples::tree_mixed::pruned_mixed::Program as Program>::NAME,
    ]
    .map(|name| format!("gtap_{name}"));
    for k in &plain {
        assert!(lab.contains(k), "{k} missing from {lab:?}");
        let block = block_programs.iter().any(|b| b == k);
        for suffix in LAB_SUFFIXES {
            let twin = format!("{k}{suffix}");
            assert_eq!(
                lab.contains(&twin.as_str()),
                !block,
                "{twin}: wanted only for thread programs, in {lab:?}"
            );
        }
    }
    assert_eq!(
        lab.len(),
        plain.len() + LAB_SUFFIXES.len() * (plain.len() - block_programs.len()),
        "{lab:?}"
    );
}

/// Checks what every profiled run must satisfy, against its statistics: per warp, events in
/// time order and fields in range; in total, the rounds and resumes the stats counted.
/// Returns the profile.
fn check_profile(stats: &GpuStats, capacity: u32) -> &Profile {
    let p = stats
        .profile
        .as_ref()
        .expect("a profiled run returns a profile");
    assert_eq!(p.events_per_warp, capacity);
    assert_eq!(
        p.warps.len() as u64,
        u64::from(stats.grid) * u64::from(stats.block) / 32,
        "one entry per warp"
    );
    let (mut rounds, mut idle_rounds, mut resumes) = (0u64, 0u64, 0u64);
    for (w, wp) in p.warps.iter().enumerate() {
        assert!(wp.events.len() <= capacity as usize, "warp {w}");
        let mut last_end = 0;
        for (i, e) in wp.events.iter().enumerate() {
            let at = format!("warp {w}, event {i}: {e:?}");
            assert!(e.start_ns >= last_end, "rounds overlap at {at}");
            assert!(e.rounds >= 1, "{at}");
            if e.is_idle() {
                assert_eq!(e.source, BatchSource::None, "{at}");
                assert_eq!((e.run_start_ns, e.run_end_ns, e.resumes), (0, 0, 0), "{at}");
                assert!(e.start_ns <= e.end_ns, "{at}");
                idle_rounds += u64::from(e.rounds);
            } else {
                assert!((1..=32).contains(&e.lanes), "{at}");
                assert!(
                    e.resumes >= e.lanes,
                    "every busy lane resumes its task: {at}"
                );
                assert_eq!(e.rounds, 1, "{at}");
                assert!(
                    matches!(
                        e.source,
                        BatchSource::Kept
                            | BatchSource::Pop
                            | BatchSource::Steal
                            | BatchSource::Global
                            | BatchSource::TopUp
                    ),
                    "{at}"
                );
                assert!(
                    e.start_ns <= e.run_start_ns
                        && e.run_start_ns <= e.run_end_ns
                        && e.run_end_ns <= e.end_ns,
                    "times out of order at {at}"
                );
                resumes += u64::from(e.resumes);
            }
            rounds += u64::from(e.rounds);
            last_end = e.end_ns;
        }
    }
    // Every round the warps counted is an event's or a dropped one.
    assert_eq!(rounds + p.dropped(), stats.rounds, "rounds");
    if p.dropped() == 0 {
        assert_eq!(idle_rounds, stats.idle_rounds, "idle rounds");
        // Each round's resumes are summed over its lanes: together, every resume of the run.
        assert_eq!(resumes, stats.resumes, "resumes");
    }
    p
}

fn a_profiled_fib_run_records_every_round() {
    let capacity = 1 << 14;
    let config = GpuConfig::new()
        .auto_granularity(false)
        .grid(8)
        .block(64)
        .profile(capacity);
    let Some(mut rt) = common::runtime(gtap_examples::PTX_LAB, config) else {
        return;
    };
    for n in [1, 20, 24] {
        let (v, stats) = rt.run(fib::program::fib(n)).unwrap();
        assert_eq!(v, fib::reference(n), "fib({n})");
        assert_eq!(stats.tasks, fib::task_count(n), "tasks of fib({n})");
        let p = check_profile(&stats, capacity);
        assert_eq!(
            p.dropped(),
            0,
            "fib({n}): {capacity} events per warp are plenty"
        );
        // fib never resumes two frames in one lane in one round (its parents wait for
        // children that run in later rounds, and `resume_inline` is off), so the busy lanes
        // of all rounds are exactly the run's resumes.
        let lanes: u64 = p.busy_rounds().map(|(_, _, e)| u64::from(e.lanes)).sum();
        assert_eq!(lanes, stats.resumes, "fib({n}): busy lanes");
        if n >= 20 {
            // Work was shared: some warp other than the root's ran a stolen batch.
            assert!(
                p.busy_rounds()
                    .any(|(w, _, e)| w > 0 && e.source == BatchSource::Steal),
                "fib({n}): no steal recorded"
            );
        }
        let s = p.summary();
        assert!(s.mean_busy_lanes() >= 1.0 && s.mean_busy_lanes() <= 32.0);
        println!(
            "fib({n}):\n{}",
            s.to_string().lines().take(4).collect::<Vec<_>>().join("\n")
        );
    }
    // The exporters run on a real profile.
    let (_, stats) = rt.run(fib::program::fib(20)).unwrap();
    let dir = std::env::temp_dir().join(format!("gtap-profile-gpu-{}", std::process::id()));
    stats.profile.as_ref().unwrap().write_dir(&dir).unwrap();
    let timeline = std::fs::read_to_string(dir.join("timeline.csv")).unwrap();
    assert!(
        timeline.starts_with("row,start_ns,end_ns,value\n0,"),
        "{timeline:.200}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

fn a_tiny_capacity_drops_rounds_and_counts_them() {
    let config = GpuConfig::new()
        .auto_granularity(false)
        .grid(2)
        .block(64)
        .profile(3);
    let Some(mut rt) = common::runtime(gtap_examples::PTX_LAB, config) else {
        return;
    };
    let (v, stats) = rt.run(fib::program::fib(22)).unwrap();
    assert_eq!(v, fib::reference(22));
    let p = check_profile(&stats, 3);
    assert!(
        p.dropped() > 0,
        "fib(22) on 4 warps runs more than 3 rounds each"
    );
    // A full warp kept its first 3 events.
    assert!(p.warps.iter().any(|w| w.events.len() == 3 && w.dropped > 0));
}

fn other_schedulers_and_inline_resumes_are_profiled_too() {
    for config in [
        GpuConfig::new()
            .auto_granularity(false)
            .grid(4)
            .block(64)
            .resume_inline(true),
        GpuConfig::new()
            .auto_granularity(false)
            .grid(4)
            .block(64)
            .scheduler(Scheduler::GlobalQueue),
        GpuConfig::new()
            .auto_granularity(false)
            .grid(4)
            .block(64)
            .scheduler(Scheduler::OneAtATime),
    ] {
        let inline = config.scheduling().resume_inline;
        let global = config.tuning().scheduler() == Scheduler::GlobalQueue;
        let Some(mut rt) = common::runtime(gtap_examples::PTX_LAB, config.profile(1 << 14)) else {
            return;
        };
        let (v, stats) = rt.run(fib::program::fib(20)).unwrap();
        assert_eq!(v, fib::reference(20));
        let p = check_profile(&stats, 1 << 14);
        let lanes: u64 = p.busy_rounds().map(|(_, _, e)| u64::from(e.lanes)).sum();
        if inline {
            // A lane that completes a parent's last child may resume the parent at once.
            assert!(lanes <= stats.resumes);
        } else {
            assert_eq!(lanes, stats.resumes);
        }
        for (_, _, e) in p.busy_rounds() {
            if global {
                assert!(
                    matches!(e.source, BatchSource::Kept | BatchSource::Global),
                    "{e:?}"
                );
            } else {
                assert_ne!(e.source, BatchSource::Global, "{e:?}");
            }
        }
    }
}

fn lab_ptx_runs_plain_and_plain_ptx_has_no_lab_kernels() {
    // The lab PTX holds the plain kernels too: without `profile`, no profile.
    let Some(mut rt) = common::runtime(
        gtap_examples::PTX_LAB,
        GpuConfig::new().auto_granularity(false).grid(4),
    ) else {
        return;
    };
    let (v, stats) = rt.run(fib::program::fib(15)).unwrap();
    assert_eq!(v, fib::reference(15));
    assert!(stats.profile.is_none());

    let Some(mut rt) = common::runtime(
        gtap_examples::PTX,
        GpuConfig::new().auto_granularity(false).grid(4).profile(64),
    ) else {
        return;
    };
    for (config, kernel) in [
        (GpuConfig::new().grid(4).profile(64), "gtap_fib_profiled"),
        (
            GpuConfig::new().grid(4).scheduler(Scheduler::OneAtATime),
            "gtap_fib_one_at_a_time",
        ),
        (
            GpuConfig::new().grid(4).scheduler(Scheduler::GlobalQueue),
            "gtap_fib_global_queue",
        ),
    ] {
        rt.set_config(config).unwrap();
        let err = rt.run(fib::program::fib(15)).unwrap_err();
        assert!(
            matches!(
                &err,
                GpuRunError::NoLabKernel { kernel: k, program: "fib", .. } if k == kernel
            ),
            "{err:?}"
        );
        let msg = err.to_string();
        assert!(
            msg.contains("GTAP_LAB=1") && msg.contains("lab(true)"),
            "{msg}"
        );
    }
    // The runtime stays usable with the plain kernel.
    rt.set_config(GpuConfig::new().grid(4)).unwrap();
    assert_eq!(rt.run(fib::program::fib(15)).unwrap().0, fib::reference(15));
}

gtap_host::gpu_test_main!(
    a_profiled_fib_run_records_every_round,
    a_tiny_capacity_drops_rounds_and_counts_them,
    other_schedulers_and_inline_resumes_are_profiled_too,
    lab_ptx_runs_plain_and_plain_ptx_has_no_lab_kernels,
; cpu: [only_the_lab_ptx_has_lab_kernels]);
