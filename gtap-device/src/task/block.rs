//! Block tasks: `#[gtap::task(block)]`, a task run by a whole team of threads at once.
//!
//! GTaP's block-level workers (paper, sections 4.3.1 and 5.1.3) run each task on a whole thread
//! block, written data-parallel: frontier expansion in BFS, a row block of SpMV, a large merge.
//! A block task takes a [`Block`] as its first parameter (not an argument of its calls) and
//! uses it for its thread's index, the team's size, a barrier and scratch memory.
//!
//! # The rules
//! - Every thread runs the whole body, with its own copy of the frame (the task's locals).
//! - `taskwait!()` is a block-wide operation: every thread reaches the same one, on the same
//!   path. So is `let h = spawn!(..)` (a spawn with a result handle): every thread reaches
//!   it, the block spawns one child (its leader does), and after the join every thread reads
//!   the same result. A spawn without a handle, `spawn!(f(x));`, is a thread's own: each
//!   thread that executes it spawns a child (how BFS spawns one task per improved vertex).
//! - What lives across a `taskwait!()` must be the same on every thread: the task may resume
//!   on another team, with every thread's frame copied from the leader's. Values that differ
//!   per thread (the thread index, partial sums) must be recomputed after the join. Nothing may
//!   borrow a local across a `taskwait!()` (the compiler rejects it: copies move), and
//!   nothing held across one may have drop glue (each thread would drop its copy; this one is
//!   not checked yet). Arguments and results are `Copy` anyway, but for an exclusive view
//!   declared [`TeamMut`](crate::data::TeamMut): callers lend the task a `ViewMut`, and each
//!   thread reaches only its own equal share of it.
//! - The task's result is the leader's return value.
//! - `Block::sync` is a barrier of the whole team: every thread must call it, the same number
//!   of times, as with `__syncthreads`. So is `Block::agree`, a barrier of its own that also
//!   tells every thread whether all came with the leader's key.
//!
//! The runtime checks the rules it can see: every thread must suspend at the same taskwait or
//! return together (else the run fails with a divergence error), and with the uniformity check
//! on (the default in debug builds of the host) every thread's frame must equal the leader's at
//! each suspension. Block-wide operations that lend memory between the team's threads check
//! theirs with `Block::agree` (`TeamMut::pass_from`).
//!
//! On the GPU a team is a thread block (`GpuConfig::block` threads); on the CPU backend a team
//! of threads per worker (`CpuConfig::team`).

/// Bytes at the start of a GPU block's dynamic shared memory that the runtime keeps for its
/// block-wide state. A block task's scratch ([`Block::scratch`]) follows them in a block
/// program; in a mixed program the block's warps' states come first (the kernel says where,
/// at [`SCRATCH_OFFSET_AT`]).
pub const RUNTIME_SHARED_BYTES: usize = 1568;

/// Where, in the runtime's part of a GPU block's dynamic shared memory (its last word), the
/// kernel writes the byte offset at which the scratch starts, before any task runs; the
/// scratch runs from there to the end of the block's dynamic shared memory.
pub const SCRATCH_OFFSET_AT: usize = RUNTIME_SHARED_BYTES - 4;

/// Where, in the runtime's part of a GPU block's dynamic shared memory, the leader writes its
/// key for [`Block::agree`]: [`AGREE_WORDS`] words, below the scratch offset word.
pub const AGREE_AT: usize = SCRATCH_OFFSET_AT - 4 - AGREE_WORDS * 8;

/// Words of a [`Block::agree`] key as the barrier compares it: the domain's address, then
/// the caller's [`AGREE_KEY_WORDS`] words.
pub const AGREE_WORDS: usize = 1 + AGREE_KEY_WORDS;

/// Words of the key a caller of [`Block::agree`] passes.
pub const AGREE_KEY_WORDS: usize = 5;

/// The full key a team's threads compare at [`Block::agree`].
pub type AgreeKey = [u64; AGREE_WORDS];

/// A kind of checked barrier ([`Block::agree`]): keys of two domains never agree, so code
/// that checks its own barriers with a private domain (a `static` no other code can name)
/// cannot be matched by any other code's keys. Not zero-sized, so that every `static` of it
/// has an address of its own.
#[derive(Debug)]
pub struct AgreeDomain(#[allow(dead_code)] u8);

impl AgreeDomain {
    /// A new domain; make it a `static`.
    pub const fn new() -> Self {
        AgreeDomain(0)
    }

    fn word(&'static self) -> u64 {
        core::ptr::from_ref(self).addr() as u64
    }
}

impl Default for AgreeDomain {
    fn default() -> Self {
        Self::new()
    }
}

/// A block task's view of its team. `Copy`, holds nothing: it may live across a taskwait.
#[derive(Clone, Copy, Debug)]
pub struct Block {
    _private: (),
}

impl Block {
    /// The handle the generated code gives a block task's first parameter.
    ///
    /// # Safety
    /// Only inside a block task run by a block-program runtime.
    #[doc(hidden)]
    pub unsafe fn __new() -> Block {
        Block { _private: () }
    }

    /// This thread's index in its team, `0..self.size()`. Thread 0 is the leader.
    #[inline(always)]
    pub fn index(self) -> u32 {
        imp::index()
    }

    /// The number of threads in the team.
    #[inline(always)]
    pub fn size(self) -> u32 {
        imp::size()
    }

    /// Whether this thread is the team's leader (index 0).
    #[inline(always)]
    pub fn is_leader(self) -> bool {
        self.index() == 0
    }

    /// Waits until every thread of the team has called `sync` (a block barrier; memory
    /// written before it by any thread of the team is visible after it to every other).
    /// Every thread must call it, the same number of times.
    #[inline(always)]
    pub fn sync(self) {
        imp::sync()
    }

    /// A checked barrier of the team: waits until every thread has called `agree`, and returns
    /// whether every thread came with the same `domain` and `key` as the leader (every
    /// thread gets the same answer). Memory written before it by any thread of the team is
    /// visible after it to every other, as with [`Block::sync`].
    ///
    /// It uses a barrier of its own, never [`Block::sync`]'s, so an `agree` pairs only with
    /// other threads' `agree`s: after one that returns `true`, every thread of the team is at
    /// the same call of the same domain with the same key, which is what a block-wide
    /// operation that lends memory between threads needs to know before it does
    /// ([`crate::data::TeamMut::pass_from`] checks its passes with it). Every thread must
    /// call it the same number of times; a thread that never comes leaves the others waiting
    /// until the run's timeout.
    #[inline(always)]
    pub fn agree(self, domain: &'static AgreeDomain, key: [u64; AGREE_KEY_WORDS]) -> bool {
        let mut full = [0u64; AGREE_WORDS];
        full[0] = domain.word();
        full[1..].copy_from_slice(&key);
        imp::agree(&full)
    }

    /// The team's scratch memory: shared by its threads, undefined contents at the start of
    /// each task, `scratch_bytes` long (`GpuConfig::block_scratch` / `CpuConfig::block_scratch`),
    /// aligned to 8. On the GPU it is shared memory.
    #[inline(always)]
    pub fn scratch(self) -> *mut u8 {
        imp::scratch().0
    }

    /// The length of [`Block::scratch`] in bytes.
    #[inline(always)]
    pub fn scratch_bytes(self) -> usize {
        imp::scratch().1
    }
}

#[cfg(target_arch = "nvptx64")]
mod imp {
    use crate::arch::index::{block_dim_x, thread_idx_x};
    use crate::arch::shared::{dynamic_shared_memory, dynamic_shared_memory_bytes};

    pub fn index() -> u32 {
        thread_idx_x()
    }

    pub fn size() -> u32 {
        block_dim_x()
    }

    pub fn sync() {
        // SAFETY: the rules of block tasks (module docs): every thread of the block calls it.
        unsafe { crate::arch::barrier::sync_threads() }
    }

    /// The leader writes its key into the runtime's words at [`super::AGREE_AT`]; after the
    /// first barrier every thread compares it with its own, and the second barrier (an AND
    /// of the comparisons) tells every thread whether all agreed. The leader writes the
    /// next key only after the second barrier, when every thread has read this one.
    pub fn agree(key: &super::AgreeKey) -> bool {
        use crate::arch::barrier::{agree_sync, agree_sync_and};
        let slot = dynamic_shared_memory::<u8>()
            .wrapping_add(super::AGREE_AT)
            .cast::<u64>();
        if thread_idx_x() == 0 {
            for (k, &w) in key.iter().enumerate() {
                // SAFETY: the runtime's words at `AGREE_AT`, 8-aligned, inside the runtime's
                // part of shared memory (the kernels assert their state ends before them);
                // only the leader writes them, between the barriers described above.
                unsafe { slot.add(k).write_volatile(w) };
            }
        }
        // SAFETY: every thread of a block task's team calls `agree` (`Block::agree`'s rule);
        // only `agree` uses this barrier. A thread that broke the rule is caught below or
        // leaves the block waiting, never passes early (non-aligned barriers).
        unsafe { agree_sync() };
        // SAFETY: written by the leader before the barrier above; not written again until
        // after the next one.
        let same = (0..key.len()).all(|k| unsafe { slot.add(k).read_volatile() } == key[k]);
        // SAFETY: as for `agree_sync` above.
        unsafe { agree_sync_and(same) }
    }

    pub fn scratch() -> (*mut u8, usize) {
        let base = dynamic_shared_memory::<u8>();
        // SAFETY: the runtime's word in the block's dynamic shared memory, written by the
        // kernel at its start, before the barrier that precedes any task's run.
        let offset = unsafe {
            base.add(super::SCRATCH_OFFSET_AT)
                .cast::<u32>()
                .read_volatile()
        };
        let offset = offset as usize;
        let len = (dynamic_shared_memory_bytes() as usize).saturating_sub(offset);
        (base.wrapping_add(offset), len)
    }
}

#[cfg(not(target_arch = "nvptx64"))]
pub use imp::{TeamEnv, set_team_env};

#[cfg(not(target_arch = "nvptx64"))]
mod imp {
    use core::cell::Cell;

    /// What a CPU team thread tells the block tasks it runs about its team.
    #[derive(Clone, Copy, Debug)]
    pub struct TeamEnv {
        /// The thread's index in the team.
        pub index: u32,
        /// Threads in the team.
        pub size: u32,
        /// The team's barrier, called with `barrier_arg`.
        pub barrier: fn(*const ()),
        /// The team's checked barrier ([`super::Block::agree`]), called with `barrier_arg` and
        /// the thread's index:
        /// whether every thread came with the same key, or `None` when the run was aborted
        /// while the thread waited (a teammate may never come).
        pub agree: fn(*const (), u32, &super::AgreeKey) -> Option<bool>,
        /// The argument of `barrier` and `agree`.
        pub barrier_arg: *const (),
        /// The team's scratch memory and its length.
        pub scratch: *mut u8,
        /// Length of `scratch` in bytes.
        pub scratch_len: usize,
    }

    fn no_barrier(_: *const ()) {
        panic!("Block::sync called outside a block task");
    }

    fn no_agree(_: *const (), _: u32, _: &super::AgreeKey) -> Option<bool> {
        panic!("Block::agree called outside a block task");
    }

    #[thread_local]
    static ENV: Cell<TeamEnv> = Cell::new(TeamEnv {
        index: 0,
        size: 1,
        barrier: no_barrier,
        agree: no_agree,
        barrier_arg: core::ptr::null(),
        scratch: core::ptr::null_mut(),
        scratch_len: 0,
    });

    /// Sets the calling thread's team (the CPU backend does, before its team threads run).
    pub fn set_team_env(env: TeamEnv) {
        ENV.set(env);
    }

    pub fn index() -> u32 {
        ENV.get().index
    }

    pub fn size() -> u32 {
        ENV.get().size
    }

    pub fn sync() {
        let env = ENV.get();
        (env.barrier)(env.barrier_arg)
    }

    /// An aborted run ends the task here: going on would run the caller's code past a barrier
    /// that did not hold.
    pub fn agree(key: &super::AgreeKey) -> bool {
        let env = ENV.get();
        match (env.agree)(env.barrier_arg, env.index, key) {
            Some(all) => all,
            None => panic!("the run was aborted while this thread waited at Block::agree"),
        }
    }

    pub fn scratch() -> (*mut u8, usize) {
        let env = ENV.get();
        (env.scratch, env.scratch_len)
    }
}
