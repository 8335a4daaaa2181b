//! [`Profile`]: the per-warp timeline of a profiled GPU run, and its exporters.
//!
//! Turn profiling on with [`GpuConfig::profile`](super::GpuConfig::profile) (events per
//! warp), load PTX built with the lab kernels (gtap-builder's `PtxBuilder::lab(true)`
//! or `GTAP_LAB=1`), and every successful run's [`GpuStats::profile`](super::GpuStats)
//! holds one [`ProfileEvent`] per round of every warp (consecutive idle rounds merged into
//! one), recorded on the GPU by each warp's lane 0 (see `gtap_device::runtime::gpu::profile`).
//!
//! | exporter | what | for |
//! |---|---|---|
//! | [`Profile::write_chrome_trace`] | Chrome trace JSON: one track per warp, grouped by SM; a slice per run phase ("run 17 lanes") and per idle stretch | <https://ui.perfetto.dev> or `chrome://tracing` (GTaP Fig. 6, interactively) |
//! | [`Profile::write_timeline_csv`] | `row,start_ns,end_ns,value`: a row per warp, a span per run phase, value = busy lanes / 32 | `gtap-plot timeline` (GTaP Fig. 6) |
//! | [`Profile::write_round_times_csv`] | `warp,round,run_ns,lanes,resumes,run_cycles,source,queue` and the round's four times: a line per round that ran tasks | the distribution of per-round task time (GTaP Fig. 11) |
//! | [`Profile::summary`] | rounds, mean busy lanes, busy fraction of time per warp | a first look |
//! | [`Profile::write_dir`] | all four into one folder | `bench --profile DIR` |
//!
//! Times in the exports are relative to the earliest round's start over all warps
//! ([`Profile::origin_ns`]). They come from `%globaltimer`, whose resolution is about a
//! microsecond on many GPUs: a run phase shorter than that may read as 0 ns. `run_cycles`
//! (the SM's cycle counter) measures run phases finely.

use std::fmt;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use gtap_device::runtime::gpu::layout::{self, ProfileWarp, batch_source};

/// Where a round's tasks came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BatchSource {
    /// No task (an idle round: the warp found nothing to pop or steal).
    None,
    /// Only tasks the warp kept unpublished from its previous round.
    Kept,
    /// A pop from the warp's own deque (with kept tasks, if any).
    Pop,
    /// A steal from another warp.
    Steal,
    /// The global queue of the global-queue ablation (with kept tasks, if any).
    Global,
    /// The warp's own tasks, filled up by a steal (`GpuConfig::top_up`).
    TopUp,
    /// A code this host does not know (PTX from another gtap version).
    Unknown(u32),
}

impl BatchSource {
    /// The source with device code `code` (`layout::batch_source`).
    pub fn from_code(code: u32) -> BatchSource {
        match code {
            batch_source::NONE => BatchSource::None,
            batch_source::KEPT => BatchSource::Kept,
            batch_source::POP => BatchSource::Pop,
            batch_source::STEAL => BatchSource::Steal,
            batch_source::GLOBAL => BatchSource::Global,
            batch_source::TOP_UP => BatchSource::TopUp,
            other => BatchSource::Unknown(other),
        }
    }

    /// A short lowercase name (`none`, `kept`, `pop`, `steal`, `global`, `unknown`).
    pub fn name(self) -> &'static str {
        match self {
            BatchSource::None => "none",
            BatchSource::Kept => "kept",
            BatchSource::Pop => "pop",
            BatchSource::Steal => "steal",
            BatchSource::Global => "global",
            BatchSource::TopUp => "top-up",
            BatchSource::Unknown(_) => "unknown",
        }
    }
}

impl fmt::Display for BatchSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One round of one warp (or a stretch of idle rounds), with `%globaltimer` times in
/// nanoseconds (absolute: subtract [`Profile::origin_ns`] for times relative to the run).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProfileEvent {
    /// When the round began (an idle stretch: its first round).
    pub start_ns: u64,
    /// When the lanes began running the round's tasks (0 for idle rounds).
    pub run_start_ns: u64,
    /// When every lane had finished them (0 for idle rounds).
    pub run_end_ns: u64,
    /// When the round ended, its new tasks published (an idle stretch: its last round's end).
    pub end_ns: u64,
    /// The run phase's length in cycles of the warp's SM (0 for idle rounds).
    pub run_cycles: u64,
    /// Lanes that had a task when the run phase began, `1..=32` (0 for idle rounds).
    pub lanes: u32,
    /// Task frames resumed in the round: `lanes`, plus parents resumed in the same round by
    /// the lane that completed their last child (`GpuConfig::resume_inline`).
    pub resumes: u32,
    /// Where the tasks came from.
    pub source: BatchSource,
    /// The EPAQ queue they were taken from (0 for idle rounds).
    pub queue: u32,
    /// Rounds this event stands for: 1 for a round that ran tasks, `n` for `n` idle rounds
    /// in a row.
    pub rounds: u32,
}

impl ProfileEvent {
    /// Whether the event is a stretch of idle rounds (no run phase).
    pub fn is_idle(&self) -> bool {
        self.lanes == 0
    }

    /// The run phase's length in nanoseconds (0 for idle rounds).
    pub fn run_ns(&self) -> u64 {
        self.run_end_ns.saturating_sub(self.run_start_ns)
    }

    fn from_raw(e: &layout::ProfileEvent) -> ProfileEvent {
        ProfileEvent {
            start_ns: e.start_ns,
            run_start_ns: e.run_start_ns,
            run_end_ns: e.run_end_ns,
            end_ns: e.end_ns,
            run_cycles: e.run_cycles,
            lanes: e.lanes,
            resumes: e.resumes,
            source: BatchSource::from_code(e.source),
            queue: e.queue,
            rounds: e.rounds,
        }
    }
}

/// One warp's recorded rounds.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WarpProfile {
    /// The SM the warp ran on (`%smid`; not a dense index).
    pub sm: u32,
    /// Its rounds in order (consecutive idle rounds merged), at most
    /// [`Profile::events_per_warp`].
    pub events: Vec<ProfileEvent>,
    /// Rounds not recorded because the warp's region was full (the last ones of its run).
    pub dropped: u32,
}

/// The per-warp timeline of one profiled GPU run ([`GpuStats::profile`](super::GpuStats)).
/// Its `Debug` prints the totals only (a profile may hold millions of events).
#[derive(Clone, Default, PartialEq, Eq)]
pub struct Profile {
    /// Events each warp could record (the run's `GpuConfig::profile`).
    pub events_per_warp: u32,
    /// One entry per warp of the grid, in warp order (the warp index is the position).
    pub warps: Vec<WarpProfile>,
}

impl fmt::Debug for Profile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Profile")
            .field("events_per_warp", &self.events_per_warp)
            .field("warps", &self.warps.len())
            .field("events", &self.events())
            .field("dropped", &self.dropped())
            .finish_non_exhaustive()
    }
}

/// A profile file that could not be written.
#[derive(Debug, thiserror::Error)]
#[error(
    "could not write the GPU profile to {path}: {source}; check that the folder exists and is \
     writable"
)]
pub struct ProfileWriteError {
    /// The file.
    pub path: PathBuf,
    /// Why.
    pub source: io::Error,
}

/// Nanoseconds as microseconds with three decimals, exactly (`1234567` -> `1234.567`).
fn micros(ns: u64) -> String {
    format!("{}.{:03}", ns / 1000, ns % 1000)
}

impl Profile {
    /// Builds the profile from what the kernel wrote: a header per warp, and per warp the
    /// events its header counts.
    pub(crate) fn from_raw(
        events_per_warp: u32,
        headers: &[ProfileWarp],
        regions: Vec<Vec<layout::ProfileEvent>>,
    ) -> Profile {
        let warps = headers
            .iter()
            .zip(regions)
            .map(|(h, region)| WarpProfile {
                sm: h.sm,
                events: region.iter().map(ProfileEvent::from_raw).collect(),
                dropped: h.dropped,
            })
            .collect();
        Profile {
            events_per_warp,
            warps,
        }
    }

    /// Rounds not recorded, over all warps (0 unless some warp's region filled up: raise
    /// `GpuConfig::profile` to keep them).
    pub fn dropped(&self) -> u64 {
        self.warps.iter().map(|w| u64::from(w.dropped)).sum()
    }

    /// Events recorded, over all warps.
    pub fn events(&self) -> usize {
        self.warps.iter().map(|w| w.events.len()).sum()
    }

    /// The earliest round start over all warps (`%globaltimer` ns), the zero of the exports;
    /// 0 when nothing was recorded.
    pub fn origin_ns(&self) -> u64 {
        self.all_events()
            .map(|(_, e)| e.start_ns)
            .min()
            .unwrap_or(0)
    }

    /// The latest round end over all warps; 0 when nothing was recorded.
    pub fn end_ns(&self) -> u64 {
        self.all_events().map(|(_, e)| e.end_ns).max().unwrap_or(0)
    }

    fn all_events(&self) -> impl Iterator<Item = (usize, &ProfileEvent)> {
        self.warps
            .iter()
            .enumerate()
            .flat_map(|(w, wp)| wp.events.iter().map(move |e| (w, e)))
    }

    /// The rounds that ran tasks: (warp, the round's index in its warp counting idle rounds
    /// from 0, event).
    pub fn busy_rounds(&self) -> impl Iterator<Item = (usize, u64, &ProfileEvent)> {
        self.warps.iter().enumerate().flat_map(|(w, wp)| {
            let mut round = 0u64;
            wp.events.iter().filter_map(move |e| {
                let at = round;
                round += u64::from(e.rounds);
                (!e.is_idle()).then_some((w, at, e))
            })
        })
    }

    /// Writes the Chrome trace (see [`Profile::chrome_trace`]) to `path`.
    pub fn write_chrome_trace(&self, path: impl AsRef<Path>) -> Result<(), ProfileWriteError> {
        write_file(path.as_ref(), |w| self.chrome_trace(w))
    }

    /// The Chrome trace event format (JSON; open it in <https://ui.perfetto.dev> or
    /// `chrome://tracing`): a process per SM (`pid` = SM), a thread per warp (`tid` = warp,
    /// named `warp N` by `thread_name` metadata), and a complete (`"X"`) event per run
    /// phase, named `run N lanes`, with `args` {lanes, resumes, source, round, run_cycles,
    /// take_ns (round start to run start), publish_ns (run end to round end)}, and one per
    /// idle stretch, named `idle`, with `args` {rounds}. `ts` and `dur` are microseconds
    /// since [`Profile::origin_ns`].
    pub fn chrome_trace(&self, out: impl Write) -> io::Result<()> {
        let mut out = BufWriter::new(out);
        let origin = self.origin_ns();
        writeln!(
            out,
            "{{\"displayTimeUnit\":\"ns\",\"otherData\":{{\"events_per_warp\":{},\"dropped_rounds\":{},\"origin_ns\":{}}},\"traceEvents\":[",
            self.events_per_warp,
            self.dropped(),
            origin
        )?;
        let mut first = true;
        // Writes the comma before every event but the first.
        let sep = |out: &mut dyn Write, first: &mut bool| -> io::Result<()> {
            if !std::mem::take(first) {
                out.write_all(b",\n")?;
            }
            Ok(())
        };
        let mut sms: Vec<u32> = self.warps.iter().map(|w| w.sm).collect();
        sms.sort_unstable();
        sms.dedup();
        for sm in sms {
            sep(&mut out, &mut first)?;
            write!(
                out,
                "{{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":{sm},\"tid\":0,\"args\":{{\"name\":\"SM {sm}\"}}}}"
            )?;
            sep(&mut out, &mut first)?;
            write!(
                out,
                "{{\"name\":\"process_sort_index\",\"ph\":\"M\",\"pid\":{sm},\"tid\":0,\"args\":{{\"sort_index\":{sm}}}}}"
            )?;
        }
        for (w, wp) in self.warps.iter().enumerate() {
            let sm = wp.sm;
            sep(&mut out, &mut first)?;
            write!(
                out,
                "{{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":{sm},\"tid\":{w},\"args\":{{\"name\":\"warp {w}\"}}}}"
            )?;
            sep(&mut out, &mut first)?;
            write!(
                out,
                "{{\"name\":\"thread_sort_index\",\"ph\":\"M\",\"pid\":{sm},\"tid\":{w},\"args\":{{\"sort_index\":{w}}}}}"
            )?;
            let mut round = 0u64;
            for e in &wp.events {
                sep(&mut out, &mut first)?;
                if e.is_idle() {
                    write!(
                        out,
                        "{{\"name\":\"idle\",\"cat\":\"idle\",\"ph\":\"X\",\"pid\":{sm},\"tid\":{w},\"ts\":{},\"dur\":{},\"args\":{{\"rounds\":{}}}}}",
                        micros(e.start_ns.saturating_sub(origin)),
                        micros(e.end_ns.saturating_sub(e.start_ns)),
                        e.rounds
                    )?;
                } else {
                    write!(
                        out,
                        "{{\"name\":\"run {} lanes\",\"cat\":\"run\",\"ph\":\"X\",\"pid\":{sm},\"tid\":{w},\"ts\":{},\"dur\":{},\"args\":{{\"lanes\":{},\"resumes\":{},\"source\":\"{}\",\"round\":{},\"run_cycles\":{},\"take_ns\":{},\"publish_ns\":{}}}}}",
                        e.lanes,
                        micros(e.run_start_ns.saturating_sub(origin)),
                        micros(e.run_ns()),
                        e.lanes,
                        e.resumes,
                        e.source,
                        round,
                        e.run_cycles,
                        e.run_start_ns.saturating_sub(e.start_ns),
                        e.end_ns.saturating_sub(e.run_end_ns)
                    )?;
                }
                round += u64::from(e.rounds);
            }
        }
        out.write_all(b"\n]}\n")?;
        out.flush()
    }

    /// Writes the timeline CSV (see [`Profile::timeline_csv`]) to `path`.
    pub fn write_timeline_csv(&self, path: impl AsRef<Path>) -> Result<(), ProfileWriteError> {
        write_file(path.as_ref(), |w| self.timeline_csv(w))
    }

    /// `row,start_ns,end_ns,value`: a line per run phase; `row` is the warp, the times are
    /// nanoseconds since [`Profile::origin_ns`], `value` is the busy lanes / 32 (`0..=1`).
    /// The input of `gtap-plot timeline`.
    pub fn timeline_csv(&self, out: impl Write) -> io::Result<()> {
        let mut out = BufWriter::new(out);
        let origin = self.origin_ns();
        out.write_all(b"row,start_ns,end_ns,value\n")?;
        for (w, _, e) in self.busy_rounds() {
            writeln!(
                out,
                "{w},{},{},{}",
                e.run_start_ns.saturating_sub(origin),
                e.run_end_ns.saturating_sub(origin),
                f64::from(e.lanes) / 32.0
            )?;
        }
        out.flush()
    }

    /// Writes the per-round times CSV (see [`Profile::round_times_csv`]) to `path`.
    pub fn write_round_times_csv(&self, path: impl AsRef<Path>) -> Result<(), ProfileWriteError> {
        write_file(path.as_ref(), |w| self.round_times_csv(w))
    }

    /// `warp,round,run_ns,lanes,resumes,run_cycles,source,queue,start_ns,run_start_ns,
    /// run_end_ns,end_ns`: a line per round that ran tasks; `round` counts the warp's rounds
    /// from 0, idle ones included; `run_ns` is the run phase's length (the distribution of
    /// per-warp task time per round, GTaP Fig. 11); `queue` is the EPAQ queue of the batch;
    /// the four times (nanoseconds since [`Profile::origin_ns`]) split the round into taking
    /// the batch, running it and closing the round.
    pub fn round_times_csv(&self, out: impl Write) -> io::Result<()> {
        let mut out = BufWriter::new(out);
        let origin = self.origin_ns();
        out.write_all(b"warp,round,run_ns,lanes,resumes,run_cycles,source,queue,start_ns,run_start_ns,run_end_ns,end_ns\n")?;
        for (w, round, e) in self.busy_rounds() {
            writeln!(
                out,
                "{w},{round},{},{},{},{},{},{},{},{},{},{}",
                e.run_ns(),
                e.lanes,
                e.resumes,
                e.run_cycles,
                e.source,
                e.queue,
                e.start_ns.saturating_sub(origin),
                e.run_start_ns.saturating_sub(origin),
                e.run_end_ns.saturating_sub(origin),
                e.end_ns.saturating_sub(origin)
            )?;
        }
        out.flush()
    }

    /// Rounds, busy lanes and busy time, over the run and per warp.
    pub fn summary(&self) -> ProfileSummary {
        let origin = self.origin_ns();
        let span_ns = self.end_ns().saturating_sub(origin);
        let per_warp: Vec<WarpSummary> = self
            .warps
            .iter()
            .enumerate()
            .map(|(w, wp)| {
                let busy: Vec<&ProfileEvent> = wp.events.iter().filter(|e| !e.is_idle()).collect();
                let lanes: u64 = busy.iter().map(|e| u64::from(e.lanes)).sum();
                let run_ns: u64 = busy.iter().map(|e| e.run_ns()).sum();
                WarpSummary {
                    warp: w as u32,
                    sm: wp.sm,
                    busy_rounds: busy.len() as u64,
                    idle_rounds: wp
                        .events
                        .iter()
                        .filter(|e| e.is_idle())
                        .map(|e| u64::from(e.rounds))
                        .sum(),
                    lanes,
                    resumes: busy.iter().map(|e| u64::from(e.resumes)).sum(),
                    run_ns,
                    busy_fraction: if span_ns == 0 {
                        0.0
                    } else {
                        run_ns as f64 / span_ns as f64
                    },
                    dropped: wp.dropped,
                }
            })
            .collect();
        let mut per_queue: Vec<QueueSummary> = Vec::new();
        let mut idle_ns = 0;
        for e in self.warps.iter().flat_map(|w| &w.events) {
            if e.is_idle() {
                idle_ns += e.end_ns.saturating_sub(e.start_ns);
                continue;
            }
            let q = e.queue as usize;
            if per_queue.len() <= q {
                per_queue.resize_with(q + 1, QueueSummary::default);
            }
            per_queue[q].queue = e.queue;
            per_queue[q].add(e);
        }
        per_queue.retain(|q| q.rounds > 0);
        ProfileSummary {
            events_per_warp: self.events_per_warp,
            events: self.events() as u64,
            span_ns,
            per_warp,
            per_queue,
            idle_ns,
        }
    }

    /// Writes `trace.json` (Chrome trace), `timeline.csv`, `round_times.csv` and
    /// `summary.txt` into `dir` (created if missing).
    pub fn write_dir(&self, dir: impl AsRef<Path>) -> Result<(), ProfileWriteError> {
        let dir = dir.as_ref();
        std::fs::create_dir_all(dir).map_err(|source| ProfileWriteError {
            path: dir.to_path_buf(),
            source,
        })?;
        self.write_chrome_trace(dir.join("trace.json"))?;
        self.write_timeline_csv(dir.join("timeline.csv"))?;
        self.write_round_times_csv(dir.join("round_times.csv"))?;
        let summary = self.summary().to_string();
        write_file(&dir.join("summary.txt"), |w| {
            w.write_all(summary.as_bytes())
        })
    }
}

/// Creates `path` and writes it with `f`, naming the file in the error.
fn write_file(
    path: &Path,
    f: impl FnOnce(&mut std::fs::File) -> io::Result<()>,
) -> Result<(), ProfileWriteError> {
    let err = |source| ProfileWriteError {
        path: path.to_path_buf(),
        source,
    };
    let mut file = std::fs::File::create(path).map_err(err)?;
    f(&mut file).map_err(err)
}

/// One warp's line of a [`ProfileSummary`].
#[derive(Clone, Debug, PartialEq)]
pub struct WarpSummary {
    /// The warp.
    pub warp: u32,
    /// Its SM.
    pub sm: u32,
    /// Recorded rounds that ran tasks.
    pub busy_rounds: u64,
    /// Recorded idle rounds.
    pub idle_rounds: u64,
    /// Busy lanes summed over its rounds (tasks the batches gave it).
    pub lanes: u64,
    /// Frames resumed.
    pub resumes: u64,
    /// Time in run phases, in nanoseconds.
    pub run_ns: u64,
    /// `run_ns` over the run's span (earliest round start to latest round end, all warps).
    pub busy_fraction: f64,
    /// Rounds not recorded.
    pub dropped: u32,
}

/// The rounds that took their batch from one EPAQ queue, over all warps: how full they were
/// and where their time went. A round has three phases: taking the batch (popping,
/// stealing, reading the ids: round start to run start), running the tasks (run start to
/// run end), and closing (settling the allocator, publishing: run end to round end).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct QueueSummary {
    /// The queue.
    pub queue: u32,
    /// Rounds that ran tasks from it.
    pub rounds: u64,
    /// Busy lanes summed over those rounds.
    pub lanes: u64,
    /// Nanoseconds summed over those rounds: taking the batch, running, closing.
    pub take_ns: u64,
    /// See `take_ns`.
    pub run_ns: u64,
    /// See `take_ns`.
    pub close_ns: u64,
}

impl QueueSummary {
    fn add(&mut self, e: &ProfileEvent) {
        self.rounds += 1;
        self.lanes += u64::from(e.lanes);
        self.take_ns += e.run_start_ns.saturating_sub(e.start_ns);
        self.run_ns += e.run_ns();
        self.close_ns += e.end_ns.saturating_sub(e.run_end_ns);
    }
}

/// What [`Profile::summary`] computes; `Display` prints it as text (totals, then a line per
/// warp).
#[derive(Clone, Debug, PartialEq)]
pub struct ProfileSummary {
    /// Events each warp could record.
    pub events_per_warp: u32,
    /// Events recorded.
    pub events: u64,
    /// Earliest round start to latest round end over all warps, in nanoseconds.
    pub span_ns: u64,
    /// One per warp.
    pub per_warp: Vec<WarpSummary>,
    /// One per EPAQ queue that ran a round, by queue.
    pub per_queue: Vec<QueueSummary>,
    /// Nanoseconds in idle rounds (looking for work and backing off), over all warps.
    pub idle_ns: u64,
}

impl ProfileSummary {
    /// Rounds that ran tasks, over all warps.
    pub fn busy_rounds(&self) -> u64 {
        self.per_warp.iter().map(|w| w.busy_rounds).sum()
    }

    /// Idle rounds, over all warps.
    pub fn idle_rounds(&self) -> u64 {
        self.per_warp.iter().map(|w| w.idle_rounds).sum()
    }

    /// Busy lanes per round that ran tasks, on average (0 without such rounds).
    pub fn mean_busy_lanes(&self) -> f64 {
        let lanes: u64 = self.per_warp.iter().map(|w| w.lanes).sum();
        lanes as f64 / self.busy_rounds().max(1) as f64
    }

    /// Rounds not recorded, over all warps.
    pub fn dropped(&self) -> u64 {
        self.per_warp.iter().map(|w| u64::from(w.dropped)).sum()
    }
}

impl fmt::Display for ProfileSummary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let warps = self.per_warp.len();
        writeln!(
            f,
            "profile: {warps} warps, {} events recorded (at most {} per warp), {} rounds dropped{}",
            self.events,
            self.events_per_warp,
            self.dropped(),
            if self.dropped() > 0 {
                " (raise GpuConfig::profile to keep them)"
            } else {
                ""
            }
        )?;
        writeln!(
            f,
            "span: {} us (earliest round start to latest round end)",
            micros(self.span_ns)
        )?;
        writeln!(
            f,
            "rounds: {} ran tasks, {} idle; busy lanes per round that ran tasks: {:.2} of 32",
            self.busy_rounds(),
            self.idle_rounds(),
            self.mean_busy_lanes()
        )?;
        let mut fr: Vec<f64> = self.per_warp.iter().map(|w| w.busy_fraction).collect();
        fr.sort_by(f64::total_cmp);
        if let (Some(min), Some(max)) = (fr.first(), fr.last()) {
            let mean = fr.iter().sum::<f64>() / fr.len() as f64;
            writeln!(
                f,
                "busy fraction of the span per warp (time in run phases): min {min:.3}, median {:.3}, mean {mean:.3}, max {max:.3}",
                fr[fr.len() / 2]
            )?;
        }
        let warps_ns = self.span_ns.saturating_mul(warps as u64).max(1) as f64;
        let pct = |ns: u64| 100.0 * ns as f64 / warps_ns;
        let (take, run, close) = self.per_queue.iter().fold((0, 0, 0), |(t, r, c), q| {
            (t + q.take_ns, r + q.run_ns, c + q.close_ns)
        });
        writeln!(
            f,
            "warp time over the span: {:.1}% taking batches, {:.1}% running tasks, {:.1}% closing rounds, {:.1}% idle rounds, {:.1}% before the first or after the last round",
            pct(take),
            pct(run),
            pct(close),
            pct(self.idle_ns),
            (100.0 - pct(take + run + close + self.idle_ns)).max(0.0)
        )?;
        writeln!(
            f,
            "\n{:>5} {:>9} {:>10} {:>9} {:>9} {:>9}   (per round that ran tasks, means)",
            "queue", "rounds", "mean lanes", "take us", "run us", "close us"
        )?;
        for q in &self.per_queue {
            let n = q.rounds.max(1) as f64;
            writeln!(
                f,
                "{:>5} {:>9} {:>10.2} {:>9.2} {:>9.2} {:>9.2}",
                q.queue,
                q.rounds,
                q.lanes as f64 / n,
                q.take_ns as f64 / n / 1e3,
                q.run_ns as f64 / n / 1e3,
                q.close_ns as f64 / n / 1e3
            )?;
        }
        writeln!(
            f,
            "\n{:>6} {:>5} {:>8} {:>8} {:>10} {:>10} {:>9} {:>8}",
            "warp", "sm", "rounds", "idle", "mean lanes", "run us", "busy", "dropped"
        )?;
        for w in &self.per_warp {
            writeln!(
                f,
                "{:>6} {:>5} {:>8} {:>8} {:>10.2} {:>10} {:>9.3} {:>8}",
                w.warp,
                w.sm,
                w.busy_rounds,
                w.idle_rounds,
                w.lanes as f64 / w.busy_rounds.max(1) as f64,
                micros(w.run_ns),
                w.busy_fraction,
                w.dropped
            )?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn busy(start: u64, lanes: u32, source: BatchSource) -> ProfileEvent {
        ProfileEvent {
            start_ns: start,
            run_start_ns: start + 100,
            run_end_ns: start + 1100,
            end_ns: start + 1200,
            run_cycles: 1500,
            lanes,
            resumes: lanes,
            source,
            queue: if source == BatchSource::Steal { 2 } else { 0 },
            rounds: 1,
        }
    }

    fn idle(start: u64, end: u64, rounds: u32) -> ProfileEvent {
        ProfileEvent {
            start_ns: start,
            run_start_ns: 0,
            run_end_ns: 0,
            end_ns: end,
            run_cycles: 0,
            lanes: 0,
            resumes: 0,
            source: BatchSource::None,
            queue: 0,
            rounds,
        }
    }

    /// Two warps on SMs 4 and 2, starting at 1 s of `%globaltimer`.
    fn sample() -> Profile {
        let t = 1_000_000_000;
        Profile {
            events_per_warp: 8,
            warps: vec![
                WarpProfile {
                    sm: 4,
                    events: vec![
                        busy(t, 1, BatchSource::Kept),
                        busy(t + 1200, 32, BatchSource::Pop),
                    ],
                    dropped: 0,
                },
                WarpProfile {
                    sm: 2,
                    events: vec![
                        idle(t + 50, t + 2050, 3),
                        busy(t + 2100, 17, BatchSource::Steal),
                    ],
                    dropped: 5,
                },
            ],
        }
    }

    fn text(f: impl FnOnce(&mut Vec<u8>) -> io::Result<()>) -> String {
        let mut out = Vec::new();
        f(&mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn raw_events_become_a_profile_per_warp() {
        let raw = |start, lanes, source| layout::ProfileEvent {
            start_ns: start,
            end_ns: start + 1,
            lanes,
            resumes: lanes,
            source,
            rounds: 1,
            ..Default::default()
        };
        let regions = vec![
            vec![
                raw(10, 3, batch_source::POP),
                raw(20, 4, batch_source::STEAL),
            ],
            vec![raw(30, 32, batch_source::KEPT)],
        ];
        let headers = [
            ProfileWarp {
                events: 2,
                dropped: 0,
                sm: 1,
                written: 1,
            },
            ProfileWarp {
                events: 1,
                dropped: 9,
                sm: 3,
                written: 1,
            },
        ];
        let p = Profile::from_raw(3, &headers, regions);
        assert_eq!(p.warps.len(), 2);
        assert_eq!(p.warps[0].events.len(), 2);
        assert_eq!(p.warps[0].events[1].source, BatchSource::Steal);
        assert_eq!((p.warps[1].sm, p.warps[1].dropped), (3, 9));
        assert_eq!(p.warps[1].events[0].lanes, 32);
        assert_eq!(p.dropped(), 9);
        assert_eq!(p.origin_ns(), 10);
        assert_eq!(BatchSource::from_code(42), BatchSource::Unknown(42));
        assert_eq!(
            format!("{p:?}"),
            "Profile { events_per_warp: 3, warps: 2, events: 3, dropped: 9, .. }"
        );
    }

    #[test]
    fn the_chrome_trace_is_json_with_relative_microseconds() {
        let p = sample();
        let json = text(|o| p.chrome_trace(o));
        let v: serde_json::Value = serde_json::from_str(&json).expect("valid JSON");
        let events = v["traceEvents"].as_array().unwrap();
        let runs: Vec<_> = events
            .iter()
            .filter(|e| e["ph"] == "X" && e["cat"] == "run")
            .collect();
        assert_eq!(runs.len(), 3);
        // The earliest event (warp 0's first round) starts at 0; its run phase 100 ns later.
        assert_eq!(runs[0]["name"], "run 1 lanes");
        assert_eq!(runs[0]["ts"].as_f64(), Some(0.1));
        assert_eq!(runs[0]["dur"].as_f64(), Some(1.0));
        assert_eq!(
            (runs[0]["pid"].as_u64(), runs[0]["tid"].as_u64()),
            (Some(4), Some(0))
        );
        assert_eq!(runs[1]["args"]["source"], "pop");
        assert_eq!(runs[1]["args"]["round"], 1);
        let steal = runs[2];
        assert_eq!(steal["name"], "run 17 lanes");
        assert_eq!(steal["tid"], 1);
        assert_eq!(steal["pid"], 2);
        assert_eq!(steal["ts"].as_f64(), Some(2.2));
        assert_eq!(steal["args"]["lanes"], 17);
        assert_eq!(steal["args"]["source"], "steal");
        // Its round counts the three idle rounds before it.
        assert_eq!(steal["args"]["round"], 3);
        assert_eq!(steal["args"]["take_ns"], 100);
        let idle: Vec<_> = events.iter().filter(|e| e["cat"] == "idle").collect();
        assert_eq!(idle.len(), 1);
        assert_eq!(idle[0]["ts"].as_f64(), Some(0.05));
        assert_eq!(idle[0]["dur"].as_f64(), Some(2.0));
        assert_eq!(idle[0]["args"]["rounds"], 3);
        // Every warp is named, on its SM's track.
        let names: Vec<_> = events
            .iter()
            .filter(|e| e["name"] == "thread_name")
            .map(|e| {
                (
                    e["pid"].as_u64().unwrap(),
                    e["args"]["name"].as_str().unwrap(),
                )
            })
            .collect();
        assert_eq!(names, [(4, "warp 0"), (2, "warp 1")]);
        assert_eq!(v["otherData"]["dropped_rounds"], 5);
        // Every complete event has a non-negative time and duration.
        for e in events.iter().filter(|e| e["ph"] == "X") {
            assert!(e["ts"].as_f64().unwrap() >= 0.0 && e["dur"].as_f64().unwrap() >= 0.0);
        }
    }

    #[test]
    fn an_empty_profile_is_still_valid_json() {
        let json = text(|o| Profile::default().chrome_trace(o));
        let v: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(v["traceEvents"].as_array().unwrap().len(), 0);
        assert_eq!(
            text(|o| Profile::default().timeline_csv(o)),
            "row,start_ns,end_ns,value\n"
        );
    }

    #[test]
    fn the_timeline_csv_has_a_span_per_run_phase() {
        let csv = text(|o| sample().timeline_csv(o));
        assert_eq!(
            csv,
            "row,start_ns,end_ns,value\n\
             0,100,1100,0.03125\n\
             0,1300,2300,1\n\
             1,2200,3200,0.53125\n"
        );
    }

    #[test]
    fn the_round_times_csv_has_a_line_per_round_that_ran_tasks() {
        let csv = text(|o| sample().round_times_csv(o));
        let mut lines = csv.lines();
        assert_eq!(
            lines.next(),
            Some(
                "warp,round,run_ns,lanes,resumes,run_cycles,source,queue,start_ns,run_start_ns,run_end_ns,end_ns"
            )
        );
        assert_eq!(
            lines.collect::<Vec<_>>(),
            [
                "0,0,1000,1,1,1500,kept,0,0,100,1100,1200",
                "0,1,1000,32,32,1500,pop,0,1200,1300,2300,2400",
                "1,3,1000,17,17,1500,steal,2,2100,2200,3200,3300"
            ]
        );
    }

    #[test]
    fn the_summary_counts_rounds_lanes_and_busy_time() {
        let s = sample().summary();
        assert_eq!(s.busy_rounds(), 3);
        assert_eq!(s.idle_rounds(), 3);
        assert_eq!(s.dropped(), 5);
        assert!((s.mean_busy_lanes() - 50.0 / 3.0).abs() < 1e-9);
        // The span: 0 to warp 1's last round end (2100 + 1200 ns).
        assert_eq!(s.span_ns, 3300);
        assert!((s.per_warp[0].busy_fraction - 2000.0 / 3300.0).abs() < 1e-9);
        // Queues 0 (two rounds) and 2 (one); every round takes 100 ns, runs 1000, closes 100.
        let q: Vec<_> = s
            .per_queue
            .iter()
            .map(|q| (q.queue, q.rounds, q.lanes, q.take_ns, q.run_ns, q.close_ns))
            .collect();
        assert_eq!(q, [(0, 2, 33, 200, 2000, 200), (2, 1, 17, 100, 1000, 100)]);
        assert_eq!(s.idle_ns, 2000);
        assert_eq!(s.per_warp[1].sm, 2);
        let text = s.to_string();
        assert!(text.contains("2 warps, 4 events"), "{text}");
        assert!(
            text.contains("5 rounds dropped (raise GpuConfig::profile"),
            "{text}"
        );
        assert!(text.contains("3 ran tasks, 3 idle"), "{text}");
        assert!(text.contains("16.67 of 32"), "{text}");
    }

    #[test]
    fn write_dir_writes_four_files_and_names_a_bad_path() {
        let dir = std::env::temp_dir().join(format!("gtap-profile-{}", std::process::id()));
        sample().write_dir(&dir).unwrap();
        for f in [
            "trace.json",
            "timeline.csv",
            "round_times.csv",
            "summary.txt",
        ] {
            assert!(dir.join(f).metadata().unwrap().len() > 0, "{f}");
        }
        // A file where the folder should be.
        let blocked = dir.join("trace.json").join("sub");
        let err = sample().write_dir(&blocked).unwrap_err().to_string();
        assert!(
            err.contains("trace.json/sub") && err.contains("writable"),
            "{err}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
