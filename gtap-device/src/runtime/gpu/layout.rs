//! The memory a GPU run uses, as both the host (which allocates and fills it) and the kernel
//! (which runs on it) see it. Everything here is `#[repr(C)]` and made of fixed-size
//! integers, so the two compilations agree on it byte for byte.
//!
//! | array | size | who writes it |
//! |---|---|---|
//! | task records | `num_warps * tasks_per_warp` records of `record_size` bytes | warp `w` allocates from its slab `w * tasks_per_warp ..`; any warp may run or free a record |
//! | rings | `num_warps * num_queues * queue_capacity` task ids | the owner warp writes; owner and thieves read |
//! | deque states | `num_warps * num_queues` [`DequeState`](crate::runtime::deque::DequeState)s | owner and thieves (atomics) |
//! | reserve records | `reserve_chunks * CHUNK_RECORDS` more records, after the slabs | lent a chunk at a time to a warp whose slab runs short (`runtime::reserve`) |
//! | reserve state and chunk words | a `ReserveState`, then per chunk a link and a live count | any warp (atomics) |
//! | free stacks | `num_warps * tasks_per_warp` record ids | the owner warp only |
//! | remote free lists | `num_warps` list heads | any warp pushes (CAS); the owner takes all (exchange) |
//! | warp statistics | `num_warps` [`WarpStats`] | each warp at its end |
//! | task counters | `num_warps` [`TaskCounts`] | each warp after each round (programs without `taskwait!`) |
//! | root result | `size_of::<R>()` bytes | the root task, when it returns |
//! | profile events (profiled kernel only) | `num_warps * profile_capacity` [`ProfileEvent`]s | warp `w`'s lane 0 into `w * profile_capacity ..`, once per round (see `profile`) |
//! | profile headers (profiled kernel only) | `num_warps` [`ProfileWarp`]s | each warp's lane 0, at its start and end |
//! | block board (mixed programs only) | one `u32` per thread block | a warp adds the block tasks it published, a leader subtracts those it took (atomics) |

use core::time::Duration;

use crate::runtime::RunError;
use crate::runtime::granularity::Granularity;

/// The most EPAQ queues a warp may have (per-warp state in shared memory is sized for it).
pub const MAX_QUEUES: u32 = 8;

/// Bytes of shared memory each warp of the kernel needs (its `WarpShared`: a copy of the
/// run's [`GpuRun`], its statistics, then its scheduling state); the host launches with
/// `warps_per_block * WARP_SHARED_BYTES` of dynamic shared memory. The kernel checks this
/// against its own layout at compile time.
pub const WARP_SHARED_BYTES: u32 = (core::mem::size_of::<GpuRun>() as u32
    + core::mem::size_of::<WarpStats>() as u32
    + 3 * 8
    + 6 * 4 * MAX_QUEUES
    + 25 * 4
    + 2 * MAX_QUEUES
    + 4 * 56
    + 4 * crate::runtime::granularity::LEVELS
    + 8 * crate::runtime::granularity::LEVELS)
    .next_multiple_of(core::mem::align_of::<GpuRun>() as u32);

/// "No record": the end of a free list, the root's parent.
pub const NONE: u32 = crate::runtime::record::NONE;

/// Bit of [`GpuRun::stop`]: the root task completed.
pub const STOP_DONE: u32 = 1;
/// Bit of [`GpuRun::stop`]: a warp recorded an error, or the host asked to stop; every warp
/// leaves its loop.
pub const STOP_ABORT: u32 = 2;

/// Error codes in [`GpuRun::error_code`]: the first of the three words a [`KernelError`] is
/// written as ([`KernelError::encode`] says what [`GpuRun::error_a`] and [`GpuRun::error_b`]
/// hold for each).
pub mod error_code {
    /// No error.
    pub const NONE: u32 = 0;
    /// [`RunError::PoolExhausted`](crate::runtime::RunError::PoolExhausted).
    pub const POOL_EXHAUSTED: u32 = 1;
    /// [`RunError::QueueFull`](crate::runtime::RunError::QueueFull).
    pub const QUEUE_FULL: u32 = 2;
    /// [`RunError::TooManyChildren`](crate::runtime::RunError::TooManyChildren).
    pub const TOO_MANY_CHILDREN: u32 = 3;
    /// [`RunError::SlotsFull`](crate::runtime::RunError::SlotsFull).
    pub const SLOTS_FULL: u32 = 4;
    /// [`RunError::BadQueue`](crate::runtime::RunError::BadQueue).
    pub const BAD_QUEUE: u32 = 5;
    /// [`KernelError::LayoutMismatch`](super::KernelError::LayoutMismatch).
    pub const LAYOUT_MISMATCH: u32 = 6;
    /// [`RunError::TimedOut`](crate::runtime::RunError::TimedOut).
    pub const TIMED_OUT: u32 = 7;
    /// [`RunError::DivergentTaskwait`](crate::runtime::RunError::DivergentTaskwait).
    pub const DIVERGENT_TASKWAIT: u32 = 8;
    /// [`RunError::NonUniformState`](crate::runtime::RunError::NonUniformState).
    pub const NON_UNIFORM_STATE: u32 = 9;
}

/// What stops a kernel early: a [`RunError`] (the limits and block rules, which the CPU
/// backend reports too), or the one error only a kernel has. Device code names tasks by their
/// index in the program's `TASK_NAMES`; the host maps them to names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KernelError {
    /// A limit or a block rule.
    Run(RunError<u32>),
    /// The kernel's task records (or root arguments) are laid out differently from the
    /// host's: the PTX was built from another version of the program.
    LayoutMismatch {
        /// The device's `size_of::<Record<P::Task>>()`.
        size: u32,
        /// The device's `align_of::<Record<P::Task>>()`.
        align: u32,
    },
}

impl From<RunError<u32>> for KernelError {
    #[inline(always)]
    fn from(error: RunError<u32>) -> Self {
        KernelError::Run(error)
    }
}

/// A [`KernelError`] as the control block holds it: [`GpuRun::error_code`],
/// [`GpuRun::error_a`] and [`GpuRun::error_b`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ErrorWords {
    /// An [`error_code`]; [`error_code::NONE`] when the run had no error.
    pub code: u32,
    /// First detail.
    pub a: u32,
    /// Second detail.
    pub b: u32,
}

impl KernelError {
    /// The three words device code writes for this error; [`KernelError::decode`] is the
    /// inverse. Only constants and the error's own fields: a call site with a constant
    /// variant compiles to three register moves.
    ///
    /// | error | `a` | `b` |
    /// |---|---|---|
    /// | `PoolExhausted` | the run's records (slabs and reserve) | 0 |
    /// | `QueueFull` | the queue's capacity | 0 |
    /// | `TooManyChildren` | task index | `max_children` |
    /// | `SlotsFull` | spawned task's index | the slots' capacity |
    /// | `BadQueue` | queue index | queues per warp |
    /// | `TimedOut` | timeout in ns, low 32 bits | high 32 bits |
    /// | `DivergentTaskwait` | task index | first differing thread |
    /// | `NonUniformState` | task index | 0 |
    /// | `LayoutMismatch` | device record size | device record alignment |
    ///
    /// A timeout must be below 2^64 ns (584 years), as the kernel's own (a `u64` of ns) is.
    #[inline(always)]
    pub fn encode(self) -> ErrorWords {
        let (code, a, b) = match self {
            KernelError::Run(e) => match e {
                RunError::PoolExhausted { capacity } => (error_code::POOL_EXHAUSTED, capacity, 0),
                RunError::QueueFull { capacity } => (error_code::QUEUE_FULL, capacity, 0),
                RunError::TooManyChildren { task, limit } => {
                    (error_code::TOO_MANY_CHILDREN, task, limit)
                }
                RunError::SlotsFull { task, capacity } => (error_code::SLOTS_FULL, task, capacity),
                RunError::BadQueue { queue, num_queues } => {
                    (error_code::BAD_QUEUE, queue, num_queues)
                }
                RunError::TimedOut { after } => {
                    // Wrapping u64 arithmetic: the kernel builds `after` from its u64 of
                    // nanoseconds, and this folds back into that u64 (no instructions, no u128
                    // or overflow check on the device).
                    let ns = after
                        .as_secs()
                        .wrapping_mul(1_000_000_000)
                        .wrapping_add(u64::from(after.subsec_nanos()));
                    (error_code::TIMED_OUT, ns as u32, (ns >> 32) as u32)
                }
                RunError::DivergentTaskwait { task, thread } => {
                    (error_code::DIVERGENT_TASKWAIT, task, thread)
                }
                RunError::NonUniformState { task } => (error_code::NON_UNIFORM_STATE, task, 0),
            },
            KernelError::LayoutMismatch { size, align } => {
                (error_code::LAYOUT_MISMATCH, size, align)
            }
        };
        ErrorWords { code, a, b }
    }

    /// The error that [`KernelError::encode`] wrote as `words`: `Ok(None)` when the code is
    /// [`error_code::NONE`], `Err(code)` for a code this version does not know (PTX from
    /// another version of gtap).
    pub fn decode(words: ErrorWords) -> Result<Option<KernelError>, u32> {
        let ErrorWords { code, a, b } = words;
        let run = match code {
            error_code::NONE => return Ok(None),
            error_code::POOL_EXHAUSTED => RunError::PoolExhausted { capacity: a },
            error_code::QUEUE_FULL => RunError::QueueFull { capacity: a },
            error_code::TOO_MANY_CHILDREN => RunError::TooManyChildren { task: a, limit: b },
            error_code::SLOTS_FULL => RunError::SlotsFull {
                task: a,
                capacity: b,
            },
            error_code::BAD_QUEUE => RunError::BadQueue {
                queue: a,
                num_queues: b,
            },
            error_code::TIMED_OUT => RunError::TimedOut {
                after: Duration::from_nanos(u64::from(a) | (u64::from(b) << 32)),
            },
            error_code::DIVERGENT_TASKWAIT => RunError::DivergentTaskwait { task: a, thread: b },
            error_code::NON_UNIFORM_STATE => RunError::NonUniformState { task: a },
            error_code::LAYOUT_MISMATCH => {
                return Ok(Some(KernelError::LayoutMismatch { size: a, align: b }));
            }
            code => return Err(code),
        };
        Ok(Some(KernelError::Run(run)))
    }
}

/// Bits of [`GpuRun::tuning`].
pub mod tuning {
    /// The lane that completes a parent's last child resumes the parent at once, in the same
    /// round, instead of staging it for a later round (when the parent's continuation goes to
    /// the round's queue).
    pub const RESUME_INLINE: u32 = 1;
    /// Ablation, read by the profiled kernel only ([`ByTuning`](super::super::sched::ByTuning);
    /// the others are compiled for one scheduler): pops and steals claim one task per CAS.
    pub const ONE_AT_A_TIME: u32 = 2;
    /// Ablation, read by the profiled kernel only (as above): one global queue for the whole
    /// grid; see [`GlobalQueue`](super::GlobalQueue). Needs one EPAQ queue.
    pub const GLOBAL_QUEUE: u32 = 4;
    /// Block programs: at every suspension each thread compares its frame with the leader's
    /// (the uniformity check of `task::block`).
    pub const CHECK_UNIFORM: u32 = 8;
    /// EPAQ: at the end of a round a warp keeps up to `keep_max` new tasks unpublished in
    /// every queue, not only in the queue its next round takes from.
    pub const KEEP_EVERY_QUEUE: u32 = 16;
    /// EPAQ: a warp stays on the queue it used last while that queue holds a whole batch,
    /// instead of turning to the next queue that holds one.
    pub const STAY_ON_QUEUE: u32 = 32;
    /// EPAQ, GTaP's order: a warp's next round takes from the queue that got the most new
    /// tasks in the round just run (the lowest on a tie), or from queue 0 first after a round
    /// that made none.
    pub const MOST_GENERATED: u32 = 64;
    /// GTaP's steal order: a warp whose own deque of its current queue is empty tries to
    /// steal from that same queue of other warps (`top_up` victims) before it turns to its
    /// own next queue. Needs `top_up > 0`.
    pub const STEAL_PER_QUEUE: u32 = 128;
}

/// The single queue of the global-queue ablation ([`tuning::GLOBAL_QUEUE`]): a ring of
/// `global_capacity` task ids and four free-running positions. A producer warp reserves
/// `[alloc, alloc + n)`, writes the ids, waits until `tail` reaches its reservation and
/// moves `tail` past it (Release), so `tail` only ever covers written ids. A consumer
/// claims `[head, head + k)` below `tail` by CAS, reads the ids, waits until `freed` reaches
/// its claim and moves `freed` past it (Release), so a producer reuses only slots read
/// (`alloc + n - freed <= capacity`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct GlobalQueue {
    /// Next slot to reserve.
    pub alloc: u32,
    /// Slots below are written and may be claimed.
    pub tail: u32,
    /// Next slot to claim.
    pub head: u32,
    /// Slots below have been read by their consumers.
    pub freed: u32,
}

/// The run's control block, in device memory. The host fills the configuration and array
/// addresses and zeroes the rest before launching the kernel.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct GpuRun {
    /// Task records, `record_size` bytes each.
    pub records: u64,
    /// Ring entries (task ids), `queue_capacity` per deque.
    pub rings: u64,
    /// Deque states, 128 bytes each, `num_queues` per warp.
    pub deques: u64,
    /// Free stacks, `tasks_per_warp` ids per warp.
    pub free_stacks: u64,
    /// Remote free list heads, one `u32` per warp, [`NONE`] when empty.
    pub remote_free: u64,
    /// [`WarpStats`], one per warp.
    pub stats: u64,
    /// Where the roots' results go: root `i`'s at `root_result + i * result_size`.
    pub root_result: u64,
    /// The roots' arguments (`P::Args` each, root `i`'s at `root_args + i * args_size`), from
    /// which the kernel builds their frames ([`roots_built`] says which warp builds which).
    pub root_args: u64,
    /// Warps in the grid that take part (`grid * block / 32`).
    pub num_warps: u32,
    /// EPAQ queues per warp, `1..=MAX_QUEUES`.
    pub num_queues: u32,
    /// Entries per ring, a power of two.
    pub queue_capacity: u32,
    /// Records per warp slab.
    pub tasks_per_warp: u32,
    /// `size_of::<Record<P::Task>>()` as the host computed it; the kernel checks its own.
    pub record_size: u32,
    /// `align_of::<Record<P::Task>>()` as the host computed it.
    pub record_align: u32,
    /// How many victims an idle warp tries per round.
    pub steal_attempts: u32,
    /// `size_of::<P::Args>()` as the host computed it; the kernel checks its own.
    pub args_size: u32,
    /// [`STOP_DONE`] | [`STOP_ABORT`], set by warps (atomically).
    pub stop: u32,
    /// The first error's code ([`error_code`]); the first warp to CAS it from 0 owns `a`, `b`
    /// ([`KernelError::encode`]).
    pub error_code: u32,
    /// First detail of the error.
    pub error_a: u32,
    /// Second detail of the error.
    pub error_b: u32,
    /// The most tasks a warp keeps unpublished in its current queue at the end of a round
    /// (`32..=queue_capacity`); see `GpuConfig::keep_unpublished`.
    pub keep_max: u32,
    /// Scheduling switches ([`tuning`] bits), uniform across the grid.
    pub tuning: u32,
    /// Victims a warp tries, in the same queue, to fill up a batch its own deque left short
    /// of a warp's width (0: it runs the short batch as it is); see `GpuConfig::top_up`.
    pub top_up: u32,
    /// The granularity policy's heavy-leaf rule across the grid: the rounds of heavy leaf
    /// tasks (`heavy_rounds`) from which every warp stops inlining, where they are also
    /// common enough (`granularity::grid_heavy_leaves`; 0: each warp judges alone). The
    /// host's. (Here, in what was padding before `counters`.)
    pub grid_heavy_rounds: u32,
    /// [`TaskCounts`], one per warp, zeroed by the host: how a program without `taskwait!`
    /// detects its end (see `worker::quiescent`).
    pub counters: u64,
    /// The global-queue ablation: its [`GlobalQueue`] (zeroed by the host) and its ring.
    pub global_queue: u64,
    /// The global queue's ring, `global_capacity` ids.
    pub global_ring: u64,
    /// Entries of the global queue's ring, a power of two (0 when not used).
    pub global_capacity: u32,
    /// Device address of a [`PanicReport`] in mapped host memory, or 0. A panicking task
    /// writes its location there before it traps (after a trap no CUDA call works, so the
    /// report must already be in host memory).
    pub panic_report: u64,
    /// A batch of roots or a resident session: one record id per launched thread, the task
    /// it runs now (`NONE` before its first), so that a panicking task's report can name its
    /// root (a batch's position, a session's slot); 0 for a run of one root, which then
    /// writes nothing here.
    pub running: u64,
    /// The run's timeout in nanoseconds of `%globaltimer`, counted by each warp from its own
    /// start. The kernel stops itself: a host-side abort would need a CUDA call while the
    /// kernel runs, and such a call can wait on a lock held by another thread of the process
    /// that waits for this kernel (another runtime freeing memory, say), which never ends.
    pub timeout_ns: u64,
    /// The profiled kernel (`gtap_<name>_profiled`) only: [`ProfileEvent`]s,
    /// `profile_capacity` per warp (0: none). The plain kernel never reads it.
    pub profile_events: u64,
    /// The profiled kernel only: one [`ProfileWarp`] per warp (0: none).
    pub profile_warps: u64,
    /// The profiled kernel only: events each warp may record; a warp whose region is full
    /// counts the rest as dropped.
    pub profile_capacity: u32,
    /// The granularity policy: which spawns run inline instead of as tasks (thread
    /// programs; see `runtime::granularity`). Off in a zeroed block.
    pub granularity: Granularity,
    /// How many root tasks the run has (1 for `GpuRuntime::run`, more for a batch).
    pub num_roots: u32,
    /// Bytes of one root's result.
    pub result_size: u32,
    /// Roots not completed yet: `num_roots` when the kernel starts; the warp that completes
    /// the last one raises [`STOP_DONE`] (`crate::runtime::termination::last_root`).
    pub roots_left: u32,
    /// The record of a task whose spawn failed the run (the first to write it), or [`NONE`]
    /// (set by the host): the host follows its parents to the root it belongs to.
    pub error_record: u32,
    /// Mixed programs: the block board, one `u32` per thread block, zeroed by the host: how
    /// many block tasks the block's warps published and no leader has taken yet (a hint for
    /// idle leaders looking for block tasks, see `mixed`). 0 in other programs.
    pub block_board: u64,
    /// Resident sessions: the device address of the injection ring's [`InjectHeader`] in
    /// mapped host memory; 0 in every other run (see `inject`).
    pub inject: u64,
    /// Resident sessions: the roots' arguments, `inject_capacity` entries of
    /// `inject_args_stride` bytes (a `P::Args` each), in mapped host memory.
    pub inject_args: u64,
    /// Resident sessions: the completion slots, `inject_capacity` of `inject_slot_stride`
    /// bytes (a status word, the result at [`SLOT_RESULT`]), in mapped host memory.
    pub inject_slots: u64,
    /// Entries of the ring and slots, a power of two (0 when not resident).
    pub inject_capacity: u32,
    /// Bytes between two entries of `inject_args`.
    pub inject_args_stride: u32,
    /// Bytes between two slots of `inject_slots`.
    pub inject_slot_stride: u32,
    /// Resident sessions: roots taken from the ring so far (claimed by CAS; zeroed by the
    /// host).
    pub inject_taken: u32,
    /// Resident sessions: roots completed so far (zeroed by the host).
    pub inject_completed: u32,
    /// Resident sessions: one warp in this many polls the ring (a power of two; 0 when not
    /// resident).
    pub inject_poll_stride: u32,
    /// Resident sessions: the longest idle sleep of a warp, in ns (0 when not resident).
    pub inject_idle_ns: u32,
    /// Resident sessions: [`inject_flags`] bits (0 when not resident).
    pub inject_flags: u32,
    /// Resident sessions, with [`inject_flags::ONE_READER`]: 1 while a polling warp reads the
    /// ring's header over the bus (the others read the copies below); zeroed by the host.
    pub inject_reader: u32,
    /// Resident sessions, with [`inject_flags::ONE_READER`]: the last `published` a reader
    /// saw (device memory); zeroed by the host.
    pub inject_seen: u32,
    /// Resident sessions, with [`inject_flags::ONE_READER`]: nonzero once a reader saw the
    /// ring's `shutdown`; zeroed by the host.
    pub inject_shutdown_seen: u32,
    /// Resident sessions, with [`inject_flags::ONE_READER`]: reads of the header so far (the
    /// reader reads `shutdown` on every `SHUTDOWN_EVERY`-th); zeroed by the host.
    pub inject_reads: u32,
    /// The granularity policy's wide-level rule across the grid: the shallowest depth from
    /// which a warp inlines by that rule (`WarpShared::inline_from`), stored negated
    /// (`!depth`) so that the host's zero means none yet. Each warp's lane 0 offers its own
    /// and takes this one every few rounds, by `fetch_max` (`close::share_grid_policy`).
    pub wide_from_not: u32,
    /// The granularity policy's heavy-leaf rule across the grid: rounds of heavy leaf tasks
    /// (`granularity::heavy_leaf_round`) the warps have seen so far, counted by `.gpu`
    /// atomics (`close::note_round_extremes`); zeroed by the host, read back as
    /// `GpuStats::heavy_leaf_rounds`. (Here, in what was padding before `reserve`.)
    pub heavy_rounds: u32,
    /// The record reserve's [`ReserveState`](crate::runtime::reserve::ReserveState), set up
    /// by the host (see `runtime::reserve`).
    pub reserve: u64,
    /// Per chunk of the reserve: its free-list link (`reserve_chunks` `u32`s), then its live
    /// count (`reserve_chunks` more).
    pub chunk_words: u64,
    /// Chunks of [`CHUNK_RECORDS`](crate::runtime::reserve::CHUNK_RECORDS) records in the
    /// reserve, after the slabs (0: none).
    pub reserve_chunks: u32,
    /// `num_warps * tasks_per_warp`: the slabs' records; ids from here on are the reserve's.
    pub slab_records: u32,
    /// The granularity policy's estimate of the tree's width across the grid: per depth
    /// below `granularity::LEVELS`, a `u64` of the tasks started there (high 32 bits) and
    /// the children they made (low 32 bits), which each warp's lane 0 adds its own counts
    /// to every few rounds by `.gpu` atomics (`close::share_grid_policy`); zeroed by the
    /// host. The array's address.
    pub fanout: u64,
}

/// Bits of [`GpuRun::inject_flags`].
pub mod inject_flags {
    /// One polling warp at a time reads the ring's header over the bus and copies it into
    /// device memory, where the other polling warps read it (instead of every polling warp
    /// reading the header itself).
    pub const ONE_READER: u32 = 1;
}

/// One warp in this many polls the ring (the rest get roots by stealing): enough pollers to
/// take roots at the rate a GPU runs small ones, few enough that their reads over the bus
/// stay cheap.
/// (The host's default for `GpuRun::inject_poll_stride`.)
pub const POLL_STRIDE: u32 = 32;

/// Where a completion slot's result starts, in bytes (its status word comes first; 16 keeps
/// any result type aligned).
pub const SLOT_RESULT: u32 = 16;
/// Where a completion slot keeps the `%globaltimer` reading (a `u64`, in ns) of the moment
/// a warp claimed its root, for the host's latency trace.
pub const SLOT_CLAIMED_NS: u32 = 8;
/// Where a completion slot keeps the low 32 bits of the `%globaltimer` reading of the moment
/// its root completed (a `u32`, written before the status), for the host's latency trace.
pub const SLOT_DONE_NS: u32 = 4;
/// A completion slot's status: its root has not completed (set by the host before it
/// publishes the root).
pub const SLOT_PENDING: u32 = 0;
/// A completion slot's status: its root completed and its result is in the slot.
pub const SLOT_DONE: u32 = 1;

/// The head of a resident session's injection ring, in page-locked host memory mapped into
/// the device. The host writes the roots' arguments into their entries, then moves
/// `published` past them (a release store); the kernel's polling warps read `published`
/// with acquire at system scope and claim roots below it. `shutdown` (set by the host after
/// its last publication) tells the kernel to end once every published root has completed.
/// Each word has a cache line of its own, so the host's writes of one do not disturb the
/// device's reads of the other.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct InjectHeader {
    /// Roots published so far (a free-running count; root `s` is in entry
    /// `s % inject_capacity`).
    pub published: u32,
    /// Keeps `shutdown` on the next 64-byte line.
    pub _pad0: [u32; 15],
    /// Nonzero: no more roots will be published.
    pub shutdown: u32,
    /// Fills the line.
    pub _pad1: [u32; 15],
}

impl GpuRun {
    /// The run's record reserve (see `runtime::reserve`).
    ///
    /// # Safety
    /// `self` is the configuration of the running kernel, as the host set it up: `reserve`
    /// and `chunk_words` point to the reserve's state and `2 * reserve_chunks` words, which
    /// live for the run and are accessed only atomically.
    #[inline(always)]
    pub unsafe fn record_reserve(&self) -> crate::runtime::reserve::Reserve {
        let words = self.chunk_words as *const crate::runtime::sync::AtomicU32;
        // SAFETY: as the contract says; the live counts follow the links.
        unsafe {
            crate::runtime::reserve::Reserve::new(
                self.reserve as *const crate::runtime::reserve::ReserveState,
                words,
                words.add(self.reserve_chunks as usize),
                self.reserve_chunks,
            )
        }
    }

    /// The error words the kernel left ([`KernelError::decode`] reads them).
    pub fn error_words(&self) -> ErrorWords {
        ErrorWords {
            code: self.error_code,
            a: self.error_a,
            b: self.error_b,
        }
    }
}

/// How many of a run's `roots` roots warp `warp` (of `warps`) builds at its start: one root,
/// in warp 0; a batch, round-robin: warp `w` builds roots `w, w + warps, ..`, the `k`-th of
/// them in record `k` of its slab ([`root_of_record`] inverts this).
pub fn roots_built(warp: u32, warps: u32, roots: u32) -> u32 {
    if warp >= roots {
        0
    } else {
        (roots - warp).div_ceil(warps)
    }
}

/// Which root record `id` holds at the start of a run of `roots` roots on `warps` warps of
/// `tasks_per_warp` records each, if it holds one (see [`roots_built`]).
pub fn root_of_record(id: u32, tasks_per_warp: u32, warps: u32, roots: u32) -> Option<u32> {
    let (warp, k) = (id / tasks_per_warp, id % tasks_per_warp);
    (warp < warps && k < roots_built(warp, warps, roots)).then(|| warp + k * warps)
}

/// The root record of record `id`'s task: follows the parents, as `parent_of` reads them, up
/// to the record without one. `records` is how many records the run has (slabs and
/// reserve): a record outside them, a chain longer than them (a corrupt header), or a parent
/// that cannot be read (`None` from `parent_of`) leads nowhere. The panic handler reads the
/// parents in device memory, the host after the kernel ended; the walk is the same.
pub fn root_record_of_task(
    id: u32,
    records: u32,
    mut parent_of: impl FnMut(u32) -> Option<u32>,
) -> Option<u32> {
    let mut id = id;
    for _ in 0..records {
        if id >= records {
            return None;
        }
        match parent_of(id)? {
            NONE => return Some(id),
            parent => id = parent,
        }
    }
    None
}

/// Which root of a batch record `id`'s task belongs to: the root that its root record
/// ([`root_record_of_task`], whose arguments and checks these are) holds
/// ([`root_of_record`]).
pub fn root_of_task(
    id: u32,
    records: u32,
    tasks_per_warp: u32,
    warps: u32,
    roots: u32,
    parent_of: impl FnMut(u32) -> Option<u32>,
) -> Option<u32> {
    root_record_of_task(id, records, parent_of)
        .and_then(|root| root_of_record(root, tasks_per_warp, warps, roots))
}

/// Where a round's batch of tasks came from ([`ProfileEvent::source`]).
pub mod batch_source {
    /// No task: an idle round (the warp tried to steal and found nothing).
    pub const NONE: u32 = 0;
    /// Only tasks the warp kept unpublished from its last round (no atomic).
    pub const KEPT: u32 = 1;
    /// A pop from the warp's own deque (with the kept tasks, if any).
    pub const POP: u32 = 2;
    /// A steal from another warp's deque.
    pub const STEAL: u32 = 3;
    /// The global queue of the global-queue ablation (with the kept tasks, if any).
    pub const GLOBAL: u32 = 4;
    /// The warp's own tasks (kept or popped), filled up by a steal from the same queue of
    /// another warp (`GpuConfig::top_up`).
    pub const TOP_UP: u32 = 5;
}

/// One round of one warp, as the profiled kernel records it (see the device module
/// `runtime::gpu::profile`). Written by the warp's lane 0 with plain stores into the warp's
/// own region; read by the host after the kernel ended. Times are `%globaltimer`
/// nanoseconds (the same clock on every SM, about a microsecond's resolution on many GPUs).
///
/// A stretch of consecutive idle rounds is one event (`rounds > 1`), so that a warp waiting
/// for work does not fill its region with idle rounds.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ProfileEvent {
    /// When the round began (for an idle stretch: its first round).
    pub start_ns: u64,
    /// When the lanes began running the round's tasks (0 for an idle stretch).
    pub run_start_ns: u64,
    /// When every lane had finished them (0 for an idle stretch).
    pub run_end_ns: u64,
    /// When the round ended, its new tasks published (for an idle stretch: the end of its
    /// last round's back-off sleep).
    pub end_ns: u64,
    /// The run phase's length in `%clock64` cycles of the warp's SM (finer than the
    /// nanosecond timer; 0 for an idle stretch).
    pub run_cycles: u64,
    /// Tasks the round's batch gave the lanes: the busy lanes when the run phase began
    /// (`1..=32`; 0 for an idle stretch).
    pub lanes: u32,
    /// Task frames the lanes resumed in the round: `lanes`, plus parents resumed in the same
    /// round by the lane that completed their last child (`GpuConfig::resume_inline`).
    pub resumes: u32,
    /// Where the batch came from: a [`batch_source`] code.
    pub source: u32,
    /// Rounds this event stands for: 1 for a round that ran tasks, `n` for a stretch of `n`
    /// idle rounds.
    pub rounds: u32,
    /// The EPAQ queue the batch was taken from (0 for an idle stretch).
    pub queue: u32,
    /// Keeps the size a multiple of 8 (64 bytes).
    pub _pad: u32,
}

/// What a warp's lane 0 tells the host about its profile, written at its start and end.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ProfileWarp {
    /// Events written into the warp's region (`<= profile_capacity`).
    pub events: u32,
    /// Rounds not recorded because the region was full.
    pub dropped: u32,
    /// The SM the warp ran on (`%smid` at its start; for grouping, not a dense index).
    pub sm: u32,
    /// 1 once the warp wrote this header (at its end); 0 for a warp that never ran its loop.
    pub written: u32,
}

/// Where a task panicked on the GPU. In host memory mapped into the device; written by the
/// first panicking thread (it wins `flag` by CAS at `.sys` scope), read by the host after
/// the kernel trapped.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct PanicReport {
    /// 0 until a thread panicked; then 1.
    pub flag: u32,
    /// The panic's line.
    pub line: u32,
    /// The panic's column.
    pub column: u32,
    /// Bytes of `file` used.
    pub file_len: u32,
    /// The source file's path (truncated).
    pub file: [u8; 240],
    /// Bytes of `message` used (0 when the message has formatted arguments).
    pub message_len: u32,
    /// The panic message, when it is a plain string (truncated).
    pub message: [u8; 120],
    /// Nonzero when `root` holds the root of the batch the panicking task belongs to.
    pub root_known: u32,
    /// The root's position in the batch (see `root_known`).
    pub root: u32,
    /// Zero: keeps `root_slot` at a multiple of 8 with no implicit padding, so that the host
    /// and the device lay the report out alike.
    pub _pad: u32,
    /// A resident session: the result pointer of the panicking task's root record, which is
    /// the device address of the root's completion slot's result (`SLOT_RESULT` bytes into
    /// the slot, as the host's `Ring::slot_of` takes it); 0 when unknown or not resident.
    pub root_slot: u64,
}

impl Default for PanicReport {
    fn default() -> Self {
        PanicReport {
            flag: 0,
            line: 0,
            column: 0,
            file_len: 0,
            file: [0; 240],
            message_len: 0,
            message: [0; 120],
            root_known: 0,
            root: 0,
            _pad: 0,
            root_slot: 0,
        }
    }
}

/// Tasks one warp has spawned and completed so far, in a program without `taskwait!`
/// (whose tasks complete without telling their parents, so the root's completion does not
/// mean the end). Written by the warp's lane 0 after each round; read by the warp that
/// checks for the end.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct TaskCounts {
    /// Tasks spawned by this warp's tasks (warp 0 also counts the root).
    pub spawned: u64,
    /// Tasks that completed on this warp.
    pub completed: u64,
}

/// What one warp counted during a run, written by the warp when it leaves its loop.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct WarpStats {
    /// Tasks that completed their run here (a task resumed after a join counts again).
    pub resumes: u64,
    /// Tasks started (first runs of a frame).
    pub tasks: u64,
    /// Victims tried.
    pub steals_attempted: u64,
    /// Steals that took at least one task.
    pub steals_won: u64,
    /// Rounds of the persistent loop.
    pub rounds: u64,
    /// Rounds that found no task.
    pub idle_rounds: u64,
    /// Spawns its lanes ran inline, as the child's sequential version, instead of making
    /// them tasks (the granularity policy, `GpuRun::granularity`), and calls its lanes'
    /// split tasks walked (`crate::task::split`).
    pub inlined: u64,
    /// Chunks the warp borrowed from the record reserve (`runtime::reserve`) when its slab
    /// ran short.
    pub chunks_borrowed: u64,
    /// Cycles its lanes spent in inline calls, together.
    pub inline_cycles: u64,
    /// Tasks its lanes' inline calls saved: the inlined spawns and every spawn they ran as a
    /// plain call below them.
    pub spawns_elided: u64,
    /// Records of the warp's slab ever used (its high-water mark).
    pub records_touched: u32,
    /// Most tasks published in one of the warp's queues at once.
    pub max_queue: u32,
    /// The most levels the warp backed off its inline depth (`granularity::adjust_backoff`).
    pub backoff: u32,
    /// The running average of its ordinary rounds' cycles when it left (the granularity
    /// policy's yardstick; summed over warps when merged, saturating).
    pub round_cycles: u32,
}

impl WarpStats {
    /// Adds `other`'s counts to these (and keeps the larger high-water marks).
    pub fn merge(&mut self, other: &WarpStats) {
        self.resumes += other.resumes;
        self.tasks += other.tasks;
        self.steals_attempted += other.steals_attempted;
        self.steals_won += other.steals_won;
        self.rounds += other.rounds;
        self.idle_rounds += other.idle_rounds;
        self.inlined += other.inlined;
        self.chunks_borrowed += other.chunks_borrowed;
        self.inline_cycles += other.inline_cycles;
        self.spawns_elided += other.spawns_elided;
        self.round_cycles = self.round_cycles.saturating_add(other.round_cycles);
        self.backoff = self.backoff.max(other.backoff);
        self.records_touched = self.records_touched.max(other.records_touched);
        self.max_queue = self.max_queue.max(other.max_queue);
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    extern crate std;

    use super::*;

    /// One error of every kind, with details that differ from each other and from 0, so that
    /// a swapped or dropped word shows.
    fn every_error() -> [KernelError; 10] {
        let run = |e: RunError<u32>| KernelError::Run(e);
        [
            run(RunError::PoolExhausted { capacity: 4096 }),
            run(RunError::QueueFull { capacity: 64 }),
            run(RunError::TooManyChildren { task: 2, limit: 3 }),
            run(RunError::SlotsFull {
                task: 1,
                capacity: 16,
            }),
            run(RunError::BadQueue {
                queue: 7,
                num_queues: 2,
            }),
            run(RunError::TimedOut {
                after: Duration::from_millis(1500),
            }),
            // Past 2^32 ns: both words carry bits.
            run(RunError::TimedOut {
                after: Duration::new(120, 123_456_789),
            }),
            run(RunError::DivergentTaskwait {
                task: 4,
                thread: 31,
            }),
            run(RunError::NonUniformState { task: 5 }),
            KernelError::LayoutMismatch {
                size: 96,
                align: 16,
            },
        ]
    }

    #[test]
    fn decode_inverts_encode_for_every_error() {
        for e in every_error() {
            let words = e.encode();
            assert_ne!(words.code, error_code::NONE, "{e:?}");
            assert_eq!(
                KernelError::decode(words),
                Ok(Some(e)),
                "{e:?} -> {words:?}"
            );
        }
    }

    /// Which kind an error is. Exhaustive, so a new variant does not compile until it has a
    /// kind here, and then fails `every_kind_is_tested_and_has_its_own_code` until
    /// `every_error` has one of it.
    fn kind(e: &KernelError) -> usize {
        match e {
            KernelError::Run(e) => match e {
                RunError::PoolExhausted { .. } => 0,
                RunError::QueueFull { .. } => 1,
                RunError::TooManyChildren { .. } => 2,
                RunError::SlotsFull { .. } => 3,
                RunError::BadQueue { .. } => 4,
                RunError::TimedOut { .. } => 5,
                RunError::DivergentTaskwait { .. } => 6,
                RunError::NonUniformState { .. } => 7,
            },
            KernelError::LayoutMismatch { .. } => 8,
        }
    }
    const KINDS: usize = 9;

    #[test]
    fn every_kind_is_tested_and_has_its_own_code() {
        let mut code_of = [None; KINDS];
        for e in every_error() {
            let code = e.encode().code;
            let seen = code_of[kind(&e)].get_or_insert(code);
            assert_eq!(*seen, code, "{e:?}");
        }
        let codes: std::vec::Vec<u32> = code_of
            .iter()
            .enumerate()
            .map(|(k, c)| c.unwrap_or_else(|| panic!("no error of kind {k} in every_error")))
            .collect();
        for (i, c) in codes.iter().enumerate() {
            assert!(!codes[i + 1..].contains(c), "two kinds have code {c}");
        }
    }

    #[test]
    fn the_longest_timeout_a_kernel_can_have_survives() {
        let e = KernelError::Run(RunError::TimedOut {
            after: Duration::from_nanos(u64::MAX),
        });
        assert_eq!(KernelError::decode(e.encode()), Ok(Some(e)));
    }

    #[test]
    fn every_root_is_built_once_and_found_again_from_its_record() {
        for (warps, roots, per_warp) in [(1, 1, 4), (4, 1, 4), (4, 3, 4), (4, 10, 8), (3, 300, 100)]
        {
            let built: u32 = (0..warps).map(|w| roots_built(w, warps, roots)).sum();
            assert_eq!(built, roots, "{warps} warps, {roots} roots");
            let mut seen = std::vec![false; roots as usize];
            for id in 0..warps * per_warp {
                if let Some(i) = root_of_record(id, per_warp, warps, roots) {
                    assert!(!seen[i as usize], "root {i} twice");
                    seen[i as usize] = true;
                    assert_eq!(i % warps, id / per_warp, "root {i} in warp {}", i % warps);
                }
            }
            assert!(
                seen.iter().all(|&s| s),
                "{warps} warps, {roots} roots: a root not found"
            );
        }
        // One root: warp 0, record 0.
        assert_eq!(roots_built(0, 8, 1), 1);
        assert_eq!(roots_built(1, 8, 1), 0);
        assert_eq!(root_of_record(0, 16, 8, 1), Some(0));
        assert_eq!(root_of_record(1, 16, 8, 1), None);
    }

    /// Parents as an array (`NONE` for a root record), read as the walk asks.
    fn walk(parents: &[u32], id: u32, per_warp: u32, warps: u32, roots: u32) -> Option<u32> {
        let records = parents.len() as u32;
        root_of_task(id, records, per_warp, warps, roots, |i| {
            Some(parents[i as usize])
        })
    }

    #[test]
    fn a_task_belongs_to_the_root_at_the_top_of_its_chain() {
        // 2 warps of 4 records, 3 roots: warp 0 builds roots 0 and 2 in its records 0 and
        // 1, warp 1 root 1 in its record 0 (record 4).
        let mut parents = [NONE; 8];
        parents[2] = 1; // a child of root 2
        parents[3] = 2; // its child
        parents[5] = 4; // a child of root 1
        assert_eq!(walk(&parents, 3, 4, 2, 3), Some(2));
        assert_eq!(walk(&parents, 5, 4, 2, 3), Some(1));
        assert_eq!(walk(&parents, 0, 4, 2, 3), Some(0));
        // A record without a parent that holds no root (a corrupt header) names none.
        assert_eq!(walk(&parents, 6, 4, 2, 3), None);
    }

    #[test]
    fn a_corrupt_chain_names_no_root() {
        // A parent outside the records.
        assert_eq!(walk(&[NONE, 9], 1, 2, 1, 1), None);
        // A cycle: the walk stops after as many steps as there are records.
        assert_eq!(walk(&[1, 0], 0, 2, 1, 1), None);
        // A start outside the records.
        assert_eq!(walk(&[NONE], 3, 1, 1, 1), None);
        // A parent that cannot be read.
        assert_eq!(root_of_task(1, 2, 2, 1, 1, |_| None), None);
    }

    #[test]
    fn the_walk_ends_at_the_record_without_a_parent() {
        // Two trees, as a resident session's: roots in records 4 and 1 (records hold no
        // batch roots there, so only the record names them).
        let mut parents = [NONE; 6];
        parents[0] = 4;
        parents[3] = 0;
        parents[5] = 3;
        parents[2] = 1;
        let records = parents.len() as u32;
        let top = |id| root_record_of_task(id, records, |i| Some(parents[i as usize]));
        assert_eq!(top(5), Some(4), "three levels up");
        assert_eq!(top(2), Some(1));
        assert_eq!(top(4), Some(4), "a root record is its own");
        // The same checks as the batch walk's: a parent outside the records, a cycle, a
        // start outside, a parent that cannot be read.
        assert_eq!(
            root_record_of_task(1, 2, |i| Some([NONE, 9][i as usize])),
            None
        );
        assert_eq!(
            root_record_of_task(0, 2, |i| Some([1, 0][i as usize])),
            None
        );
        assert_eq!(root_record_of_task(3, 1, |_| Some(NONE)), None);
        assert_eq!(root_record_of_task(1, 2, |_| None), None);
        // The longest chain the records allow still ends.
        let chain: std::vec::Vec<u32> =
            (0..64).map(|i| if i == 0 { NONE } else { i - 1 }).collect();
        assert_eq!(
            root_record_of_task(63, 64, |i| Some(chain[i as usize])),
            Some(0)
        );
    }

    #[test]
    fn the_panic_report_has_the_same_layout_on_both_sides() {
        // The host allocates it and the kernel writes it: fixed offsets, no implicit padding
        // (the explicit `_pad` keeps the `u64` aligned on both targets).
        assert_eq!(core::mem::offset_of!(PanicReport, root), 384);
        assert_eq!(core::mem::offset_of!(PanicReport, root_slot), 392);
        assert_eq!(core::mem::size_of::<PanicReport>(), 400);
        assert_eq!(core::mem::align_of::<PanicReport>(), 8);
        assert_eq!(PanicReport::default().root_slot, 0, "0: no slot known");
    }

    #[test]
    fn no_error_and_unknown_codes() {
        assert_eq!(KernelError::decode(ErrorWords::default()), Ok(None));
        assert_eq!(GpuRun::default().error_words(), ErrorWords::default());
        assert_eq!(
            KernelError::decode(ErrorWords {
                code: 1000,
                a: 1,
                b: 2
            }),
            Err(1000)
        );
    }
}
