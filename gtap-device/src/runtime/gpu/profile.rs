//! The per-warp timeline profiler of the profiled kernel (GTaP's per-warp timelines, Fig. 6,
//! and per-round task times, Fig. 11).
//!
//! In a profiled run, lane 0 of every warp appends one fixed-size
//! [`ProfileEvent`] per round to the warp's own region of a device buffer: when the round
//! began, when its run phase (the lanes resuming their tasks) began and ended, how many lanes
//! had a task, how many frames were resumed, and where the batch came from (kept, own pop,
//! steal, global queue, none). A stretch of consecutive idle rounds is one event (its
//! `rounds` counts them), so a warp that waits for work does not fill its region with idle
//! rounds. When the region is full the warp records nothing more and counts each further
//! round in [`ProfileWarp::dropped`]; there is no wrap-around and no error. At its end, lane
//! 0 writes the warp's [`ProfileWarp`] header: how many events it wrote, how many rounds it
//! dropped, and the SM it ran on.
//!
//! # Zero cost when off: a compile-time switch
//! The worker loop (`thread_worker`, device only) is generic over its [`Hooks`]:
//! `On` records, [`Off`] has no state (a zero-sized type) and empty hooks, which inline to
//! nothing, so the plain kernel (`gtap_<name>`, with `Off`) compiles to the same PTX as
//! before the profiler existed: the same instructions, the text differing only in comments
//! (LLVM's names for blocks) and in the line numbers of `worker.rs` in panic locations
//! (checked on the examples' and the tests' PTX when the profiler was added). Passing the
//! hooks anything derived from the worker's local copy of the control block (`&cfg`) broke
//! that (it changed LLVM's block layout), so `start` takes the raw pointer. The profiled kernel `gtap_<name>_profiled`
//! (with `On`) is a second entry point, which `#[gtap::program]` emits only when the
//! program's crate is built with `--cfg gtap_lab` (gtap-builder's
//! `PtxBuilder::lab(true)` or `GTAP_LAB=1`), so default builds do not carry (or
//! JIT-compile) a second kernel either. A run-time flag in the control block was the
//! alternative; it would cost every round of every run a load and branches, and keep the
//! profiler's registers live in the plain kernel.
//!
//! # Memory ordering and scope
//! None is needed beyond program order. Every access here is a plain (weak) store, or the
//! read of a special register:
//! - a warp's events and its header are written by that warp's lane 0 alone, into memory
//!   no other thread of the grid reads or writes (the regions are disjoint, one per warp);
//!   an idle stretch's event is rewritten in place by the same thread, in program order;
//! - the host reads the buffer only after the kernel has ended: the end of a kernel is a
//!   full synchronization point (every write of the grid is performed before the stream's
//!   next operation, the host's copy, begins), so no fence, atomic or `.volatile` access is
//!   needed, at any scope. A kernel that traps leaves no profile to read (the run is an
//!   error).
//!
//! `%globaltimer` is the GPU-wide nanosecond clock (comparable across SMs, coarse on many
//! GPUs); `%clock64` is the SM's cycle counter, used only for the length of a run phase,
//! which one warp measures on one SM between two reads a few microseconds apart.

// The recorder is built for the host too, where only its tests use it.
#![cfg_attr(not(target_arch = "nvptx64"), allow(dead_code))]

use super::layout::{GpuRun, ProfileEvent, ProfileWarp};
#[cfg(target_arch = "nvptx64")]
use crate::arch::time::{clock64, global_timer_ns};

/// What the worker loop tells a profiler, at fixed points of every round. Every lane calls
/// every hook (an implementation acts in lane 0 only, except in [`Hooks::run_end`]).
pub trait Hooks: Sized {
    /// The state of warp `warp`'s lane `lane` at kernel start.
    ///
    /// # Safety
    /// `run` points to the run's control block, alive for the kernel. For `On`, moreover,
    /// `run.profile_events` is 0 or holds `num_warps * profile_capacity`
    /// [`ProfileEvent`]s, and `run.profile_warps` is 0 or holds `num_warps`
    /// [`ProfileWarp`]s. [`Off`] requires nothing.
    unsafe fn start(run: *const GpuRun, warp: u32, lane: u32) -> Self;
    /// A round begins (the warp did not stop).
    fn round_start(&mut self);
    /// The round found no task; the warp has slept its back-off and goes to the next round.
    fn idle_round(&mut self);
    /// The lanes begin running the round's tasks.
    fn run_start(&mut self);
    /// The lanes have run the round's tasks: this lane resumed `resumes` frames; the batch
    /// gave `lanes` lanes a task, from `source` (lane 0's value counts), of EPAQ queue
    /// `queue`.
    ///
    /// # Safety
    /// The whole warp is converged (it may run warp collectives).
    unsafe fn run_end(&mut self, resumes: u32, lanes: u32, source: u32, queue: u32);
    /// The round ends, its new tasks published.
    fn round_end(&mut self);
    /// The warp leaves its loop.
    fn finish(&self);
}

/// No profiling: no state, no code.
pub struct Off;

impl Hooks for Off {
    #[inline(always)]
    unsafe fn start(_: *const GpuRun, _: u32, _: u32) -> Self {
        Off
    }
    #[inline(always)]
    fn round_start(&mut self) {}
    #[inline(always)]
    fn idle_round(&mut self) {}
    #[inline(always)]
    fn run_start(&mut self) {}
    #[inline(always)]
    unsafe fn run_end(&mut self, _: u32, _: u32, _: u32, _: u32) {}
    #[inline(always)]
    fn round_end(&mut self) {}
    #[inline(always)]
    fn finish(&self) {}
}

/// Profiling: lane 0 records one event per round into its warp's region (see the module
/// docs).
#[cfg(target_arch = "nvptx64")]
pub struct On {
    lane0: bool,
    rec: Recorder,
    /// The round being recorded.
    event: ProfileEvent,
    /// `%clock64` when the run phase began.
    cycles: u64,
}

#[cfg(target_arch = "nvptx64")]
impl Hooks for On {
    #[inline(always)]
    unsafe fn start(run: *const GpuRun, warp: u32, lane: u32) -> Self {
        // SAFETY: the control block lives for the kernel (the worker's contract).
        let run = unsafe { &*run };
        On {
            lane0: lane == 0,
            rec: if lane == 0 {
                Recorder::new(run, warp)
            } else {
                Recorder::off()
            },
            event: ProfileEvent::default(),
            cycles: 0,
        }
    }

    #[inline(always)]
    fn round_start(&mut self) {
        if self.lane0 {
            self.event = ProfileEvent {
                start_ns: global_timer_ns(),
                rounds: 1,
                ..ProfileEvent::default()
            };
        }
    }

    #[inline(always)]
    fn idle_round(&mut self) {
        if self.lane0 {
            self.rec.idle(self.event.start_ns, global_timer_ns());
        }
    }

    #[inline(always)]
    fn run_start(&mut self) {
        if self.lane0 {
            self.event.run_start_ns = global_timer_ns();
            self.cycles = clock64();
        }
    }

    #[inline(always)]
    unsafe fn run_end(&mut self, resumes: u32, lanes: u32, source: u32, queue: u32) {
        // The round's resumes over the warp (a butterfly sum: every lane gets it).
        let mut total = resumes;
        let mut offset = crate::arch::warp::WARP_SIZE / 2;
        while offset > 0 {
            // SAFETY: the whole warp is converged (contract).
            total += unsafe { crate::arch::warp::shfl_xor(u32::MAX, total, offset) };
            offset /= 2;
        }
        if self.lane0 {
            let e = &mut self.event;
            e.run_end_ns = global_timer_ns();
            e.run_cycles = clock64().wrapping_sub(self.cycles);
            e.resumes = total;
            e.lanes = lanes;
            e.source = source;
            e.queue = queue;
        }
    }

    #[inline(always)]
    fn round_end(&mut self) {
        if self.lane0 {
            self.event.end_ns = global_timer_ns();
            self.rec.busy(self.event);
        }
    }

    #[inline(always)]
    fn finish(&self) {
        if self.lane0 {
            self.rec.finish();
        }
    }
}

/// Lane 0's profiler state, in registers. Built with [`Recorder::new`] by lane 0 of a
/// profiled kernel; the plain kernel builds [`Recorder::off`] and never calls it.
pub(super) struct Recorder {
    /// This warp's region: `capacity` events.
    region: *mut ProfileEvent,
    /// Where this warp's header goes (null: nowhere).
    header: *mut ProfileWarp,
    capacity: u32,
    /// Events written so far.
    len: u32,
    /// Rounds not recorded (the region was full).
    dropped: u32,
    /// Rounds in the idle stretch that `region[len - 1]` records, while it may grow; 0 when
    /// the last event is not an open idle stretch.
    open_idle: u32,
    sm: u32,
}

impl Recorder {
    /// A recorder that records nothing.
    #[inline(always)]
    pub(super) fn off() -> Recorder {
        Recorder {
            region: core::ptr::null_mut(),
            header: core::ptr::null_mut(),
            capacity: 0,
            len: 0,
            dropped: 0,
            open_idle: 0,
            sm: 0,
        }
    }

    /// Warp `warp`'s recorder for the run `run` describes. A run without a buffer (address
    /// 0) records nothing and counts every round as dropped.
    #[inline(always)]
    pub(super) fn new(run: &GpuRun, warp: u32) -> Recorder {
        let capacity = if run.profile_events == 0 {
            0
        } else {
            run.profile_capacity
        };
        let header = if run.profile_warps == 0 {
            core::ptr::null_mut()
        } else {
            (run.profile_warps as *mut ProfileWarp).wrapping_add(warp as usize)
        };
        Recorder {
            // Not dereferenced unless `capacity > 0`, when the host allocated
            // `num_warps * capacity` events there.
            region: (run.profile_events as *mut ProfileEvent)
                .wrapping_add(warp as usize * capacity as usize),
            header,
            capacity,
            len: 0,
            dropped: 0,
            open_idle: 0,
            sm: sm(),
        }
    }

    /// Records a round that ran tasks.
    #[inline(always)]
    pub(super) fn busy(&mut self, event: ProfileEvent) {
        self.open_idle = 0;
        if self.len < self.capacity {
            // SAFETY: `len < capacity`: inside this warp's region, which only this lane
            // writes (see "Memory ordering and scope"); a plain store suffices.
            unsafe { self.region.add(self.len as usize).write(event) };
            self.len += 1;
        } else {
            self.dropped += 1;
        }
    }

    /// Records an idle round from `start_ns` to `end_ns`: extends the open idle stretch, or
    /// starts one.
    #[inline(always)]
    pub(super) fn idle(&mut self, start_ns: u64, end_ns: u64) {
        if self.open_idle > 0 {
            self.open_idle += 1;
            // SAFETY: an open stretch is event `len - 1` (`len >= 1`), written by this lane,
            // in this warp's region; plain stores in program order after the first.
            unsafe {
                let e = self.region.add(self.len as usize - 1);
                (&raw mut (*e).end_ns).write(end_ns);
                (&raw mut (*e).rounds).write(self.open_idle);
            }
        } else if self.len < self.capacity {
            let event = ProfileEvent {
                start_ns,
                end_ns,
                rounds: 1,
                ..ProfileEvent::default()
            };
            // SAFETY: as in `busy`.
            unsafe { self.region.add(self.len as usize).write(event) };
            self.len += 1;
            self.open_idle = 1;
        } else {
            self.dropped += 1;
        }
    }

    /// Writes the warp's header, once, when it leaves its loop.
    #[inline(always)]
    pub(super) fn finish(&self) {
        if self.header.is_null() {
            return;
        }
        let header = ProfileWarp {
            events: self.len,
            dropped: self.dropped,
            sm: self.sm,
            written: 1,
        };
        // SAFETY: one header per warp (`warp < num_warps`), written only by this warp's lane
        // 0, once; read by the host after the kernel.
        unsafe { self.header.write(header) };
    }
}

/// The SM this thread runs on (0 on the host, where the recorder is only tested).
#[inline(always)]
fn sm() -> u32 {
    #[cfg(target_arch = "nvptx64")]
    return crate::arch::index::sm_id();
    #[cfg(not(target_arch = "nvptx64"))]
    0
}

#[cfg(test)]
mod tests {
    extern crate std;
    use std::vec;
    use std::vec::Vec;

    use super::*;

    /// A run of `warps` warps with `capacity` events each, and its buffers.
    fn run(warps: usize, capacity: u32) -> (GpuRun, Vec<ProfileEvent>, Vec<ProfileWarp>) {
        let mut events = vec![ProfileEvent::default(); warps * capacity as usize];
        let mut headers = vec![ProfileWarp::default(); warps];
        let run = GpuRun {
            num_warps: warps as u32,
            profile_events: events.as_mut_ptr() as u64,
            profile_warps: headers.as_mut_ptr() as u64,
            profile_capacity: capacity,
            ..GpuRun::default()
        };
        (run, events, headers)
    }

    fn busy(start: u64, lanes: u32) -> ProfileEvent {
        ProfileEvent {
            start_ns: start,
            run_start_ns: start + 1,
            run_end_ns: start + 2,
            end_ns: start + 3,
            run_cycles: 7,
            lanes,
            resumes: lanes,
            source: crate::runtime::gpu::layout::batch_source::POP,
            rounds: 1,
            ..ProfileEvent::default()
        }
    }

    #[test]
    fn rounds_go_to_their_warps_region_and_idle_stretches_merge() {
        let (run, events, headers) = run(2, 4);
        let mut r = Recorder::new(&run, 1);
        r.idle(10, 11);
        r.idle(12, 13);
        r.idle(14, 15);
        r.busy(busy(20, 32));
        r.idle(30, 31);
        r.busy(busy(40, 5));
        r.finish();
        // Warp 0's region and header are untouched.
        assert!(events[..4].iter().all(|e| *e == ProfileEvent::default()));
        assert_eq!(headers[0], ProfileWarp::default());
        let mine = &events[4..];
        assert_eq!(
            (
                mine[0].start_ns,
                mine[0].end_ns,
                mine[0].rounds,
                mine[0].lanes
            ),
            (10, 15, 3, 0)
        );
        assert_eq!(mine[1], busy(20, 32));
        assert_eq!(
            (mine[2].start_ns, mine[2].end_ns, mine[2].rounds),
            (30, 31, 1)
        );
        assert_eq!(mine[3], busy(40, 5));
        assert_eq!(
            headers[1],
            ProfileWarp {
                events: 4,
                dropped: 0,
                sm: 0,
                written: 1
            }
        );
    }

    #[test]
    fn a_full_region_drops_rounds_without_writing_past_it() {
        let (run, events, headers) = run(2, 2);
        let mut r = Recorder::new(&run, 0);
        r.busy(busy(0, 1));
        r.idle(5, 6);
        // Extends the open stretch in place: no new slot, nothing dropped.
        r.idle(7, 8);
        r.busy(busy(10, 2));
        r.idle(20, 21);
        r.idle(22, 23);
        r.finish();
        assert_eq!(events[0], busy(0, 1));
        assert_eq!(
            (events[1].start_ns, events[1].end_ns, events[1].rounds),
            (5, 8, 2)
        );
        // Warp 1's region stays untouched.
        assert!(events[2..].iter().all(|e| *e == ProfileEvent::default()));
        assert_eq!((headers[0].events, headers[0].dropped), (2, 3));
    }

    #[test]
    fn a_run_without_a_buffer_records_nothing() {
        let run = GpuRun {
            num_warps: 1,
            profile_capacity: 8,
            ..GpuRun::default()
        };
        let mut r = Recorder::new(&run, 0);
        r.busy(busy(0, 1));
        r.idle(1, 2);
        assert_eq!((r.len, r.dropped), (0, 2));
        r.finish();
        Recorder::off().finish();
    }
}
