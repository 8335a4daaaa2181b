//! One warp's worker state: what lives in shared memory, and the per-lane operations on it
//! that tasks call while they run (allocate a record, free one, stage a task, fail the run).
//!
//! Lanes run tasks independently (they may diverge), so everything they do to the warp's
//! state during a round is a `.cta` atomic on shared memory (`atom.relaxed.cta`): cheap,
//! on-chip, and correct however the lanes interleave. Lane 0 alone rewrites the state between
//! rounds, separated from the lanes by `bar.warp.sync` (see the module docs of `gpu`).

use core::mem::size_of;

use super::layout::{
    ErrorWords, GpuRun, KernelError, MAX_QUEUES, STOP_ABORT, TaskCounts, WarpStats,
};
use crate::arch::copy::{copy_words, zero_words};
use crate::arch::ops::AtomicInt;
use crate::arch::order::{Cta, Relaxed};
use crate::runtime::RunError;
use crate::runtime::deque::DequeState;
use crate::runtime::granularity::LEVELS;
use crate::runtime::record::Record;
use crate::runtime::sync::{AtomicU32, AtomicU64, Ordering};

/// How many records freed by their own warp one round can hold before the rest go through
/// the warp's remote list. Short of 64 by the words of [`WarpShared`]'s later fields
/// (`fastest_round`, `heavy_leaves`, `backed_off`, `free_open`, `round_inline_uncounted` and
/// the per-queue `round_cycles`), so that the struct keeps the size it had before them: with every other
/// field where it was, a change of the struct's size alone moved several kernels' register
/// counts (one past the 168 that fit 12 warps per SM).
pub const FREED_CAP: usize = 56;

/// [`WarpShared::round_cycles`] holds cycles in units of `1 << ROUND_UNIT_SHIFT`, so that a
/// `u16` per queue holds rounds of up to about a million cycles (longer ones count as that).
pub const ROUND_UNIT_SHIFT: u32 = 4;

/// The warp's state in shared memory (one per warp of the block, in dynamic shared memory).
#[repr(C)]
pub struct WarpShared {
    /// The run's configuration, copied from the control block by lane 0 at kernel start and
    /// only read afterwards ([`WarpCtx::run`]). Every record, ring and deque address is
    /// computed from it, in every step of every round; read from the control block in
    /// global memory, each such read after an atomic (an `asm` memory clobber, so the
    /// compiler reloads) or an acquire fence (which empties the SM's L1) was a round trip
    /// to L2. The fields the run changes (`stop`, the error fields) are read and written
    /// in the control block itself, never here.
    pub cfg: GpuRun,
    /// The warp's statistics, kept by lane 0 between rounds (lanes add the calls their split
    /// tasks walk to `inlined` during a round, atomically; a block worker keeps its own in registers and
    /// takes only `max_queue`, which `close_round` updates, from here). Here rather than in
    /// registers: the persistent loop's state is live across every task a lane runs, so
    /// each register it holds is one more for the whole kernel, and registers are what limit
    /// the warps per SM.
    pub stats: WarpStats,
    /// `%globaltimer` when the warp started, for the run's timeout (lane 0).
    pub started_ns: u64,
    /// `%clock64` when the round's tasks started to run, with the granularity policy on
    /// (lane 0, at the round's start; read by lane 0 after the run).
    pub run_started: u64,
    /// Cycles the lanes spent in inline calls this round, together. Bumped by lanes (`.cta`
    /// atomic), read and reset by lane 0 between rounds.
    pub round_inline_cycles: u64,
    /// Per queue: logical position one past the newest published entry (the owner end).
    /// Lane 0 writes between rounds; lanes read during a round.
    pub tail: [u32; MAX_QUEUES as usize],
    /// Per queue: entries kept unpublished from the last round, at `tail .. tail + private`.
    pub private: [u32; MAX_QUEUES as usize],
    /// Per queue: entries staged this round, above `tail + private`. Bumped by lanes (`.cta`
    /// atomic), reset by lane 0. While lane 0 closes the round, after its last read as a
    /// staging count, it holds how many entries to publish (`close_round`).
    pub staged: [u32; MAX_QUEUES as usize],
    /// Per queue: how many entries may be staged this round without overrunning `head`.
    /// Lane 0 writes at the round's start.
    pub room: [u32; MAX_QUEUES as usize],
    /// Per queue: the steal end as lane 0 last read it (never ahead of the real one).
    pub head: [u32; MAX_QUEUES as usize],
    /// Per queue: where this round's staging starts (`tail + private`), set by lane 0 at the
    /// round's start.
    pub stage_base: [u32; MAX_QUEUES as usize],
    /// Records allocated this round. Bumped by lanes, reset by lane 0.
    pub alloc_taken: u32,
    /// Free stack depth at the round's start.
    pub sp: u32,
    /// Never-used records left start at `fresh` (slab-relative) at the round's start.
    pub fresh: u32,
    /// With the granularity policy on: the records the warp could take at the round's start
    /// (its free stack, its slab's never-used records and the reserve's windows), set by
    /// lane 0 in `open_round`, so that a spawn's policy test reads one word for them.
    pub free_open: u32,
    /// Records of this warp freed this round (up to [`FREED_CAP`] kept in `freed`). Set by
    /// lane 0 in [`WarpCtx::free_all`] (thread workers), bumped by a `.cta` atomic in
    /// [`WarpCtx::free`] (block workers), reset by lane 0 between rounds.
    pub freed_n: u32,
    /// Fresh records lent by the reserve, used after the slab's: two windows (the current
    /// chunk's rest and the next chunk), each the id of its next record ...
    pub win_next: [u32; 2],
    /// ... and how many records it has left. Lane 0 writes between rounds (`close`); lanes
    /// only read them during a round.
    pub win_left: [u32; 2],
    /// Spawns the lanes ran inline this round. Bumped by lanes (`.cta` atomic), added to
    /// `stats.inlined` and reset by lane 0 between rounds.
    pub round_inlined: u32,
    /// Tasks the lanes' inline calls saved this round: each call's inlined spawn and the
    /// spawns it ran as plain calls below it. Bumped by lanes (`.cta` atomic), read and
    /// reset by lane 0 between rounds.
    pub round_inline_spawns: u32,
    /// Of the round's inline calls, those that ran a sequential version their task named
    /// (`Program::UNCOUNTED`), whose saved tasks no count gives. Bumped by lanes (`.cta`
    /// atomic), read and reset by lane 0 between rounds.
    pub round_inline_uncounted: u32,
    /// Calls the lanes' split tasks walked this round (`spawn::split_walked`). Bumped by
    /// lanes (`.cta` atomic), added to `stats.inlined` and reset by lane 0 between rounds: a
    /// 32-bit atomic on shared memory is one instruction, where the 64-bit statistic's is a
    /// compare-and-swap loop that a warp's lanes would each retry.
    pub round_walked: u32,
    /// Per queue: the running average of how long the warp's ordinary rounds (those without
    /// inline calls) of that queue's tasks took to run them, in units of
    /// `1 << ROUND_UNIT_SHIFT` cycles. Per queue because EPAQ's queues hold tasks of very
    /// different lengths (fib's spawning tasks, a few thousand cycles a round, beside its
    /// sequential leaves, tens of thousands), and an inline call runs in a round of its own
    /// queue's tasks: weighed against all rounds, it looked cheap next to the leaves'.
    /// Lane 0 alone, between rounds.
    pub round_cycles: [u16; MAX_QUEUES as usize],
    /// Levels past `inline_from` from which the warp inlines now, or above it where negative
    /// (`granularity::adjust_backoff`). Lane 0 writes between rounds; lanes read it.
    pub backoff: i32,
    /// Nonzero once the warp has backed off (moved its inline depth down) at least once:
    /// from then on it does not move up past `inline_from` (`granularity::MAX_LIFT`).
    /// Lane 0 alone.
    pub backed_off: u32,
    /// Rounds for which lane 0 leaves the remote free list alone (it found the list empty
    /// not long ago, and the slab has never-used records to spare): see `close_round`.
    pub remote_skip: u32,
    /// The part of a remote free list lane 0 took but has not moved onto the free stack yet
    /// (`close::refill_free_stack`), linked as the list was; `NONE` when there is none.
    pub remote_rest: u32,
    /// The depth from which the warp's spawns may run inline, before its back-off
    /// (`granularity::SpawnView::from_depth`): the policy's `min_depth`, lowered to one below
    /// the first depth at which the warp has made the policy's `wide_tasks` tasks (by lanes,
    /// `.cta` atomic min, during rounds), and by lane 0 between rounds to the grid's (its
    /// width estimate, and the other warps' depths); read by lanes.
    pub inline_from: u32,
    /// Bit `d`: the grid has counted enough tasks started at depth `d`
    /// (`granularity::LEVEL_SAMPLE`) for its estimate of the tree's width, and the lanes
    /// count no more there. Lane 0 writes between rounds (`close::share_grid_policy`);
    /// lanes read it.
    pub levels_known: u32,
    /// The round's batch as lane 0 took it ([`Batch::words`](super::batch::Batch)): lane 0
    /// writes it before the take step's barrier, every lane reads it after. Shared memory
    /// rather than shuffles: the warp reaches that barrier diverged (lane 0's take has
    /// loops), so each shuffle after it would run on the slow, collective path.
    pub batch: [u32; 4],
    /// Per depth below `granularity::LEVELS`: the tasks the warp's lanes may still make
    /// at it, with the granularity policy on, before it lowers `inline_from` (the policy's
    /// `wide_tasks` at the start; `u32::MAX` when that is 0: never in practice). Counted down
    /// by lanes (`.cta` atomic) after each task step that made children, in programs whose
    /// spawns the policy weighs (`spawn::count_children`).
    pub level_left: [u32; LEVELS as usize],
    /// Per depth below `granularity::LEVELS` and above `inline_from`, since lane 0 last
    /// added them to the grid's (`GpuRun::fanout`): the tasks the warp's lanes started
    /// there ... Bumped by lanes (`.cta` atomic) after a task's first step, in programs
    /// whose spawns the policy weighs (`spawn::count_level`); read and zeroed by lane 0
    /// between rounds.
    pub level_started: [u32; LEVELS as usize],
    /// ... and the children those made (after each step that made some).
    pub level_children: [u32; LEVELS as usize],
    /// Ids freed this round, pushed onto the free stack by lane 0 at the round's end.
    pub freed: [u32; FREED_CAP],
    /// The cycles of the warp's fastest ordinary round so far (0: none yet). Lane 0 alone,
    /// between rounds.
    pub fastest_round: u32,
    /// Ordinary rounds so far that ran heavy leaf tasks (`granularity::heavy_leaf_round`),
    /// up to `granularity::HEAVY_LEAF_ROUNDS`, when the warp stops inlining. Lane 0 alone.
    pub heavy_leaves: u32,
}

const _: () = assert!(
    core::mem::size_of::<WarpShared>() == super::layout::WARP_SHARED_BYTES as usize,
    "layout::WARP_SHARED_BYTES must match WarpShared"
);

/// What a lane's running task needs to reach its warp and run: pointed to by `Ctx::worker`.
#[derive(Clone, Copy)]
pub struct WarpCtx {
    /// The run's control block (device memory).
    pub run: *mut GpuRun,
    /// This warp's shared state.
    pub sh: *mut WarpShared,
    /// The warp's index in the grid.
    pub warp: u32,
}

/// `atom.relaxed.cta.add` on shared memory.
///
/// The lanes claim slots of the warp's shared counters (`alloc_taken`, `staged`, `freed_n`)
/// with one of these each, not with a warp-aggregated claim (an `activemask` group whose
/// lowest lane adds for all and shuffles the base back, as this runtime once did): the
/// claims happen in the divergent part of a step, and a collective run by an `activemask`
/// group there deadlocked (see [`WarpCtx::free_all`]). A per-lane shared-memory atomic costs
/// a few cycles and needs no group.
///
/// # Safety
/// `p` points into the block's shared memory, accessed only atomically during a round.
#[inline(always)]
pub unsafe fn cta_add(p: *mut u32, v: u32) -> u32 {
    // SAFETY: forwarded.
    unsafe { u32::fetch_add::<Cta, Relaxed>(p, v) }
}

impl WarpCtx {
    /// The run's configuration: the warp's copy in shared memory ([`WarpShared::cfg`]). Its
    /// `stop` and error fields are stale: reach those through `self.run`.
    #[inline(always)]
    pub fn run(&self) -> &GpuRun {
        // SAFETY: lane 0 wrote the copy at kernel start, before the warp's first barrier
        // (`init`); nobody writes it afterwards.
        unsafe { &(*self.sh).cfg }
    }

    /// An atomic view of a `u32` field of the control block.
    #[inline(always)]
    pub fn run_atomic(&self, field: *mut u32) -> &AtomicU32 {
        // SAFETY: `field` points into the control block, which lives for the run; the facade's
        // atomics have the layout of `u32`.
        unsafe { &*(field as *const AtomicU32) }
    }

    /// Record `id` of program task type `T`.
    #[inline(always)]
    pub fn record<T>(&self, id: u32) -> *mut Record<T> {
        let base = self.run().records as *mut u8;
        // SAFETY: ids are below `num_warps * tasks_per_warp`, the array's length, and the
        // host checked `record_size == size_of::<Record<T>>()` (so is the kernel, at start).
        unsafe { base.add(id as usize * size_of::<Record<T>>()).cast() }
    }

    /// The deque state of `warp`'s queue `q`.
    #[inline(always)]
    pub fn deque(&self, warp: u32, q: u32) -> &DequeState {
        let run = self.run();
        let i = (warp * run.num_queues + q) as usize;
        // SAFETY: in bounds (warp < num_warps, q < num_queues); states live for the run.
        unsafe { &*(run.deques as *const DequeState).add(i) }
    }

    /// Entry `pos` (a free-running logical position) of `warp`'s ring for queue `q`.
    #[inline(always)]
    pub fn ring(&self, warp: u32, q: u32, pos: u32) -> &AtomicU32 {
        let run = self.run();
        let ring = (warp * run.num_queues + q) as usize * run.queue_capacity as usize;
        let i = ring + (pos & (run.queue_capacity - 1)) as usize;
        // SAFETY: in bounds (the capacity is a power of two, checked by the host); entries
        // are only accessed atomically.
        unsafe { &*(run.rings as *const AtomicU32).add(i) }
    }

    /// The task counters of `warp` (programs without `taskwait!`): (spawned, completed).
    #[inline(always)]
    pub fn counts(&self, warp: u32) -> (&AtomicU64, &AtomicU64) {
        let c = self.run().counters as *mut TaskCounts;
        // SAFETY: one `TaskCounts` per warp (`warp < num_warps`), zeroed by the host, only
        // accessed atomically during the run; the facade's atomics have `u64`'s layout.
        unsafe {
            let c = c.add(warp as usize);
            (
                &*((&raw mut (*c).spawned) as *const AtomicU64),
                &*((&raw mut (*c).completed) as *const AtomicU64),
            )
        }
    }

    /// Entry `i` of this warp's free stack.
    #[inline(always)]
    pub fn free_stack(&self, i: u32) -> *mut u32 {
        let run = self.run();
        let base = self.warp as usize * run.tasks_per_warp as usize;
        // SAFETY: `i < tasks_per_warp` (a warp's stack never holds more than its slab).
        unsafe { (run.free_stacks as *mut u32).add(base + i as usize) }
    }

    /// The head of `owner`'s remote free list.
    #[inline(always)]
    pub fn remote_free(&self, owner: u32) -> &AtomicU32 {
        // SAFETY: one head per warp, `owner < num_warps`; accessed only atomically.
        unsafe { &*(self.run().remote_free as *const AtomicU32).add(owner as usize) }
    }

    /// This warp's shared state, for lane 0 between rounds.
    ///
    /// # Safety
    /// The caller is lane 0, between the barrier that ends one round's lane work and the one
    /// that starts the next (or at kernel start or end): no other lane touches the state then.
    /// The reference (of any lifetime `'a` the caller picks) must not outlive that window.
    #[inline(always)]
    pub unsafe fn lane0<'a>(&self) -> &'a mut WarpShared {
        // SAFETY: the warp's own slot of the block's shared memory, and by this function's
        // contract lane 0 is alone with it.
        unsafe { &mut *self.sh }
    }

    /// Records the run's first error and stops every warp. Later errors are dropped.
    ///
    /// Inlined so that the encoding folds into constants at the call site; the writes are in
    /// [`WarpCtx::fail_words`], out of line.
    #[inline(always)]
    pub fn fail(&self, error: impl Into<KernelError>) {
        let ErrorWords { code, a, b } = error.into().encode();
        self.fail_words(code, a, b);
    }

    /// [`WarpCtx::fail`] with the error encoded ([`KernelError::encode`]).
    #[cold]
    #[inline(never)]
    fn fail_words(&self, code: u32, a: u32, b: u32) {
        let run = self.run;
        // SAFETY: fields of the live control block.
        let (code_p, a_p, b_p, stop_p) = unsafe {
            (
                &raw mut (*run).error_code,
                &raw mut (*run).error_a,
                &raw mut (*run).error_b,
                &raw mut (*run).stop,
            )
        };
        // The CAS elects one writer of `a` and `b`; the host reads them after the kernel ended.
        if self
            .run_atomic(code_p)
            .compare_exchange(0, code, Ordering::Relaxed, Ordering::Relaxed)
            .is_ok()
        {
            self.run_atomic(a_p).store(a, Ordering::Relaxed);
            self.run_atomic(b_p).store(b, Ordering::Relaxed);
        }
        // Relaxed: warps only stop on this bit; they read nothing the failing lane wrote.
        self.raise_stop(stop_p, STOP_ABORT, Ordering::Relaxed);
    }

    /// Sets `bit` in the control block's `stop` word (at `stop_p`) with `ordering`, keeping
    /// the bits already set (a CAS loop: the facade has no `fetch_or` at `.gpu` scope).
    #[inline(never)]
    pub fn raise_stop(&self, stop_p: *mut u32, bit: u32, ordering: Ordering) {
        let stop = self.run_atomic(stop_p);
        let mut seen = stop.load(Ordering::Relaxed);
        while seen & bit == 0 {
            match stop.compare_exchange(seen, seen | bit, ordering, Ordering::Relaxed) {
                Ok(_) => break,
                Err(now) => seen = now,
            }
        }
    }

    /// A root task completed: raises [`STOP_DONE`](super::layout::STOP_DONE) when it was the
    /// run's last root (the run's end; Release: the results and every task's writes, acquired
    /// along the completion chains and by the count, happen before the host reads them).
    #[inline(always)]
    pub fn root_completed(&self) {
        // SAFETY: fields of the live control block.
        let (left, stop) = unsafe { (&raw mut (*self.run).roots_left, &raw mut (*self.run).stop) };
        if crate::runtime::termination::last_root(self.run_atomic(left)) {
            self.raise_stop(stop, super::layout::STOP_DONE, Ordering::Release);
        }
    }

    /// Notes that a spawn of the task in record `record` failed the run, for the host to tell
    /// which root of a batch failed (the first task to note one wins; relaxed: the host reads
    /// it after the kernel).
    #[cold]
    #[inline(never)]
    pub fn note_failed_task(&self, record: u32) {
        // SAFETY: a field of the live control block.
        let word = self.run_atomic(unsafe { &raw mut (*self.run).error_record });
        let _ = word.compare_exchange(
            super::layout::NONE,
            record,
            Ordering::Relaxed,
            Ordering::Relaxed,
        );
    }

    /// Takes a record for a new task: from the warp's free stack, its slab's never-used
    /// records, then the reserve's chunks it holds (`win_*`); or fails the run.
    #[inline(always)]
    pub fn alloc(&self) -> Option<u32> {
        let sh = self.sh;
        // SAFETY: `alloc_taken` is bumped only atomically during a round.
        let k = unsafe { cta_add(&raw mut (*sh).alloc_taken, 1) };
        // SAFETY: lane 0 wrote `sp` and `fresh` before this round's barrier; lanes only read
        // them during the round.
        let (sp, fresh) = unsafe { ((*sh).sp, (*sh).fresh) };
        let run = self.run();
        if k < sp {
            // SAFETY: entries below `sp` were written by lane 0 before this round's barrier.
            return Some(unsafe { *self.free_stack(sp - 1 - k) });
        }
        let local = fresh + (k - sp);
        if local < run.tasks_per_warp {
            return Some(self.warp * run.tasks_per_warp + local);
        }
        self.alloc_lent(local - run.tasks_per_warp)
    }

    /// [`WarpCtx::alloc`] past the slab: the `j`-th record of the round beyond it, from the
    /// reserve's windows, or the run fails. Inlined into every spawn: a call here keeps the
    /// spawning task's live values across it and costs kernels registers per thread (and so
    /// resident warps), which the slab's fast path must not pay.
    #[inline(always)]
    fn alloc_lent(&self, j: u32) -> Option<u32> {
        let sh = self.sh;
        // SAFETY: lane 0 wrote the windows before this round's barrier; lanes only read them.
        let (next, left) = unsafe { ((*sh).win_next, (*sh).win_left) };
        if j < left[0] {
            return Some(next[0] + j);
        }
        if j - left[0] < left[1] {
            return Some(next[1] + (j - left[0]));
        }
        self.fail_exhausted();
        None
    }

    /// The run is out of records: this warp's round asked for more records than its slab and
    /// windows held, and the reserve had no chunk left when lane 0 last looked. The
    /// error names every record of the run (slabs and reserve): a warp fails only once the
    /// whole device's are lent.
    #[cold]
    #[inline(never)]
    fn fail_exhausted(&self) {
        let run = self.run();
        let reserve = run.reserve_chunks * crate::runtime::reserve::CHUNK_RECORDS;
        self.fail(RunError::PoolExhausted {
            capacity: run.slab_records + reserve,
        });
    }

    /// The whole warp, converged: frees the records the lanes completed in the step just run
    /// (`id` per lane, or [`NONE`](super::layout::NONE)), each complete and its frame
    /// dropped. Records of this warp go to the round's `freed` buffer (a slot each, by a
    /// ballot and a prefix count); the rest, and this warp's beyond the buffer, to their
    /// owners' remote lists ([`WarpCtx::push_remote_all`]).
    ///
    /// Why here and not where each lane completes its task: the lanes complete tasks in the
    /// divergent part of a step, and a multi-step warp collective there (an `activemask`
    /// taken as the group, then shuffles and ballots over it) can deadlock: a lane can wait in
    /// a shuffle for a lane of its `activemask` group that has already left the collective and
    /// waits at the step's full-warp barrier (the top-up deadlock; results/ has the record).
    /// Over the full warp, after the step's barrier, every lane runs the same collectives by
    /// construction.
    ///
    /// # Safety
    /// Every lane of the warp calls this together (converged), between the step's barrier
    /// and the end of the round; a lane's `id`, if any, is a record it completed in the step.
    #[inline(always)]
    pub unsafe fn free_all<T>(&self, id: u32) {
        use crate::arch::warp::{ballot, lane_mask_lt, shfl_idx};
        const FULL: u32 = u32::MAX;
        let lane = crate::arch::index::lane_id();
        let run = self.run();
        let lent = id != super::layout::NONE && id >= run.slab_records;
        let owner = if id == super::layout::NONE || lent {
            super::layout::NONE
        } else {
            id / run.tasks_per_warp
        };
        if lent {
            self.release_lent(id);
        }
        let local = owner == self.warp;
        // SAFETY: converged (contract).
        let locals = unsafe { ballot(FULL, local) };
        let mut remote = owner != super::layout::NONE && !local;
        if locals != 0 {
            let sh = self.sh;
            let mut base = 0;
            if lane == 0 {
                // SAFETY: `freed_n` is written only here during a round, by lane 0, after
                // the broadcast below has taken its old value to every lane.
                base = unsafe { (*sh).freed_n };
            }
            // SAFETY: converged (contract).
            let base = unsafe { shfl_idx(FULL, base, 0) };
            if local {
                let slot = (base + (locals & lane_mask_lt()).count_ones()) as usize;
                if slot < FREED_CAP {
                    // SAFETY: slot `slot` is this lane's alone (a distinct prefix count).
                    unsafe { (*sh).freed[slot] = id };
                } else {
                    remote = true;
                }
            }
            if lane == 0 {
                // SAFETY: as above; read by lane 0 between rounds (`settle_allocator`).
                unsafe { (*sh).freed_n = base + locals.count_ones() };
            }
        }
        // SAFETY: converged (contract).
        let remotes = unsafe { ballot(FULL, remote) };
        if remotes != 0 {
            // SAFETY: converged; the lanes of `remotes` free records they completed.
            unsafe { self.push_remote_all::<T>(owner, id, remote, remotes) };
        }
    }

    /// The whole warp, converged: the lanes of `pending` (those with `mine`) push their record
    /// `id` onto `owner`'s remote free list; lanes pushing to the same owner link their
    /// records into one chain, which the group's lowest lane pushes with one CAS (lanes
    /// pushing one by one onto one head retried up to 32 times, each retry a release CAS
    /// with its `MEMBAR.GPU`).
    ///
    /// Memory ordering: every lane's last use of its record and its link store come before
    /// the `bar.warp.sync` of the group; the leader's Release CAS after it is cumulative, so
    /// the owner, who takes the list with an Acquire exchange, sees them all before it
    /// reuses the records.
    ///
    /// # Safety
    /// Every lane of the warp calls this together; `pending` is the ballot of `mine`, and a
    /// lane with `mine` owns complete record `id` of warp `owner`.
    #[inline(always)]
    unsafe fn push_remote_all<T>(&self, owner: u32, id: u32, mine: bool, pending: u32) {
        use crate::arch::warp::{ballot, shfl_idx, sync_warp};
        const FULL: u32 = u32::MAX;
        let lane = crate::arch::index::lane_id();
        let mut pending = pending;
        while pending != 0 {
            let leader = pending.trailing_zeros();
            // SAFETY: converged (contract); `pending` is uniform, so every lane runs the
            // same iterations.
            let leader_owner = unsafe { shfl_idx(FULL, owner, leader) };
            // SAFETY: as above.
            let group = unsafe { ballot(FULL, mine && owner == leader_owner) } & pending;
            // The chain runs from the group's lowest lane up; each lane links to the next
            // lane of the group above it, the last one to the list's old head.
            let above = if lane == 31 {
                0
            } else {
                group & (u32::MAX << (lane + 1))
            };
            let succ = if above == 0 {
                lane
            } else {
                above.trailing_zeros()
            };
            let last = 31 - group.leading_zeros();
            // SAFETY: as above.
            let next_id = unsafe { shfl_idx(FULL, id, succ) };
            // SAFETY: as above.
            let last_id = unsafe { shfl_idx(FULL, id, last) };
            if group & (1 << lane) != 0 && lane != last {
                // SAFETY: `id` is a record this lane frees; its free link is an atomic.
                // Relaxed: ordered before the leader's push by the barrier below.
                unsafe { Record::<T>::next_free(self.record::<T>(id)) }
                    .store(next_id, Ordering::Relaxed);
            }
            // SAFETY: converged (contract).
            unsafe { sync_warp(FULL) };
            if lane == leader {
                // SAFETY: the group's records are this warp's to free, linked above (the
                // barrier orders the links before the push).
                unsafe { self.push_chain::<T>(leader_owner, id, last_id) };
            }
            pending &= !group;
        }
    }

    /// Pushes the chain of free records from `first` to `last` (linked by their free links,
    /// `last`'s about to be set) onto `owner`'s remote list with one Release CAS (retried
    /// while other pushers win). The Release makes this lane's writes, and those ordered
    /// before it (the group's link stores and last uses, by the barrier before), visible to
    /// the owner, who takes the list with an Acquire exchange before reusing the records.
    ///
    /// # Safety
    /// The records of the chain are complete, the caller's to free, and linked from `first`
    /// to `last`.
    #[inline(always)]
    unsafe fn push_chain<T>(&self, owner: u32, first: u32, last: u32) {
        let head = self.remote_free(owner);
        // SAFETY: `last` is a valid record (contract); its free link is an atomic.
        let tail_link = unsafe { Record::<T>::next_free(self.record::<T>(last)) };
        let mut h = head.load(Ordering::Relaxed);
        loop {
            tail_link.store(h, Ordering::Relaxed);
            // Release: see above.
            match head.compare_exchange(h, first, Ordering::Release, Ordering::Relaxed) {
                Ok(_) => break,
                Err(now) => h = now,
            }
        }
    }

    /// Returns record `id` (complete, its frame dropped) to its slab's warp: for a worker
    /// whose frees happen one lane at a time (the block worker's leader); a thread worker's
    /// lanes free together with [`WarpCtx::free_all`].
    #[inline(always)]
    pub fn free<T>(&self, id: u32) {
        if id >= self.run().slab_records {
            self.release_lent(id);
            return;
        }
        let owner = id / self.run().tasks_per_warp;
        if owner == self.warp {
            let sh = self.sh;
            // SAFETY: `freed_n` is bumped only atomically during a round.
            let f = unsafe { cta_add(&raw mut (*sh).freed_n, 1) } as usize;
            if f < FREED_CAP {
                // SAFETY: slot `f` is this lane's alone (the atomic handed it out).
                unsafe { (*sh).freed[f] = id };
                return;
            }
        }
        // Another warp's record (or the round's buffer is full): push it on the owner's
        // remote list, alone.
        // SAFETY: `id` is a record this lane may free (contract of the callers), a chain of
        // one.
        unsafe { self.push_chain::<T>(owner, id, id) };
    }

    /// Frees record `id` of a chunk lent by the reserve (complete, its frame dropped): one
    /// off its chunk's live count, the chunk back to the reserve with its last record
    /// (`runtime::reserve`; the AcqRel there orders this lane's last use of the record
    /// before the chunk's next loan). Inlined: a call here, on every step's free path, would
    /// cost registers across the whole step; the rare return of a chunk is the call.
    #[inline(always)]
    fn release_lent(&self, id: u32) {
        let run = self.run();
        if let Some(chunk) = crate::runtime::reserve::chunk_of(id, run.slab_records) {
            // SAFETY: the configuration of the running kernel, as the host set it up.
            unsafe { run.record_reserve() }.release(chunk, 1);
        }
    }

    /// Stages task `id` in queue `q` (unpublished, above the owner end), or fails the run and
    /// returns false.
    #[inline(always)]
    pub fn stage(&self, q: u32, id: u32) -> bool {
        let run = self.run();
        if let Err(e) = RunError::check_queue(q, run.num_queues) {
            self.fail(e);
            return false;
        }
        let sh = self.sh;
        // SAFETY: `staged` is bumped only atomically during a round; `q < MAX_QUEUES`.
        let idx = unsafe { cta_add(&raw mut (*sh).staged[q as usize], 1) };
        // SAFETY: lane 0 wrote `room` and `stage_base` before this round's barrier; lanes only
        // read them during the round. `q < MAX_QUEUES` (checked above against num_queues).
        let (room, base) = unsafe { ((*sh).room[q as usize], (*sh).stage_base[q as usize]) };
        if idx >= room {
            self.fail(RunError::QueueFull {
                capacity: run.queue_capacity,
            });
            return false;
        }
        let pos = base.wrapping_add(idx);
        // Relaxed: published later by the round's push (release fence + count).
        self.ring(self.warp, q, pos).store(id, Ordering::Relaxed);
        true
    }
}

/// Lane 0, at the start of the kernel: the warp's empty state and its copy of the run's
/// configuration `cfg`. The warp then builds its roots, if any (see `worker::init_worker`).
pub fn init(sh: &mut WarpShared, warp: u32, cfg: &GpuRun) {
    // The empty state is all zeros (no tasks, counts and positions at 0), written word by
    // word: a struct literal stored into shared memory is a byte-by-byte copy on the GPU.
    // SAFETY: `sh` is a whole `WarpShared` (a `&mut`), for which zero bytes are valid: it
    // holds integers and arrays of them only.
    unsafe {
        zero_words(sh);
        copy_words(&mut sh.cfg, cfg);
    }
    sh.remote_rest = super::layout::NONE;
    sh.inline_from = cfg.granularity.min_depth;
    // Without the width estimate no level is counted.
    if cfg.granularity.wide_nodes == 0 {
        sh.levels_known = u32::MAX;
    }
    let wide = cfg.granularity.wide_tasks;
    for left in &mut sh.level_left {
        *left = if wide == 0 { u32::MAX } else { wide };
    }
    sh.started_ns = crate::arch::time::global_timer_ns();
    let _ = warp;
}
