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
//!   of times, as with `__syncthreads`.
//!
//! The runtime checks the rules it can see: every thread must suspend at the same taskwait or
//! return together (else the run fails with a divergence error), and with the uniformity check
//! on (the default in debug builds of the host) every thread's frame must equal the leader's at
//! each suspension.
//!
//! On the GPU a team is a thread block (`GpuConfig::block` threads); on the CPU backend a team
//! of threads per worker (`CpuConfig::team`).

/// Bytes at the start of a GPU block's dynamic shared memory that the runtime keeps for its
/// block-wide state. A block task's scratch ([`Block::scratch`]) follows them in a block
/// program; in a mixed program the block's warps' states come first (the kernel says where,
/// at [`SCRATCH_OFFSET_AT`]).
pub const RUNTIME_SHARED_BYTES: usize = 1024;

/// Where, in the runtime's part of a GPU block's dynamic shared memory (its last word), the
/// kernel writes the byte offset at which the scratch starts, before any task runs; the
/// scratch runs from there to the end of the block's dynamic shared memory.
pub const SCRATCH_OFFSET_AT: usize = RUNTIME_SHARED_BYTES - 4;

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
        /// The argument of `barrier`.
        pub barrier_arg: *const (),
        /// The team's scratch memory and its length.
        pub scratch: *mut u8,
        /// Length of `scratch` in bytes.
        pub scratch_len: usize,
    }

    fn no_barrier(_: *const ()) {
        panic!("Block::sync called outside a block task");
    }

    #[thread_local]
    static ENV: Cell<TeamEnv> = Cell::new(TeamEnv {
        index: 0,
        size: 1,
        barrier: no_barrier,
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

    pub fn scratch() -> (*mut u8, usize) {
        let env = ENV.get();
        (env.scratch, env.scratch_len)
    }
}
