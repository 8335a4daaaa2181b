//! A task record: the fixed-size slot one task lives in from spawn to completion.
//!
//! GTaP keeps every task in a persistent record indexed by a task id (paper, section 4.1):
//! the host allocates an array of them once per run, and ids, not pointers, travel through the
//! deques. A record is a small header (join counter, parent id, result slot, queue) followed by
//! the task's frame, the program's `Task` enum holding the task's state machine. The frame
//! never moves while the task exists, so the pinned coroutine inside it may point into itself.
//!
//! Records are accessed through raw pointers only, field by field: several threads touch one
//! record (its running worker, the worker completing its last child, a stale reader of the free
//! stack), and a `&Record` would claim more than any of them may. The shared fields are atomics;
//! the plain fields are written by one worker before an edge that orders them before every
//! reader (a deque push, a join-counter RMW, a free-stack push; see the module docs of
//! [`super::deque`], [`super::join`] and [`super::pool`]).

use core::alloc::{Layout, LayoutError};
use core::mem::MaybeUninit;

use super::sync::{AtomicI32, AtomicU32};

/// "No record": the parent of the root task, and the end of the free stack.
pub const NONE: u32 = u32::MAX;

/// Where a record's header keeps its parent's id, in bytes from the record's start, whatever
/// the task type (the header comes first and does not depend on it): for a host that follows
/// parents in device memory after a failed run.
pub const PARENT_OFFSET: usize = core::mem::offset_of!(Record<u8>, parent);
/// Where a record's result slot pointer is, in bytes from its start (the host reads it to
/// tell which root of a resident session a failing task belonged to).
pub const RESULT_SLOT_OFFSET: usize = core::mem::offset_of!(Record<u8>, result_slot);

/// One task record. `T` is the program's task enum.
#[repr(C)]
pub struct Record<T> {
    /// The join counter ([`super::join`]). Stored 0 by the spawner; RMW'd by the task's own
    /// worker at a taskwait or return, and by each of its children as they complete.
    join: AtomicI32,
    /// The next record on the pool's free stack ([`super::pool`]). Written by the worker that
    /// frees the record; read by any thread popping the free stack, possibly after the record
    /// was reused (those readers then fail their CAS, but the read must be atomic).
    next_free: AtomicU32,
    /// The parent's record id, or [`NONE`] for the root. Written by the spawner; read by the
    /// worker that completes the task.
    parent: u32,
    /// The EPAQ queue the task goes to when it is next enqueued: its spawn queue, then its
    /// taskwait's resume queue. Written by the spawner, then by the task's own worker before
    /// the taskwait's join RMW; read by the worker that enqueues the task.
    queue: u32,
    /// Where the task's result goes (a slot in the parent's frame), or null. Written by the
    /// spawner; read by every worker that resumes the task.
    result_slot: *mut u8,
    /// Whether `task` holds a frame not yet dropped. Written by the spawner (true) and the
    /// completing worker (false); read by the host after an aborted CPU run, to drop what is
    /// left. Not maintained on the GPU (frames there are never dropped by the host).
    live: bool,
    /// Whether the task has run a step: set by the GPU's worker at the task's first step, for
    /// the granularity policy's count of the tasks started at each depth
    /// ([`Record::first_step`]). In the header's padding, as `depth`.
    started: bool,
    /// The task's depth in the task tree (the root's is 0; saturating), for the granularity
    /// policy ([`super::granularity`]). Written by the spawner after [`Record::fill`]; read
    /// by the task's own worker when the task spawns. In the header's padding: the record's
    /// size is unchanged.
    depth: u16,
    /// The task's frame; initialized while `live`.
    task: MaybeUninit<T>,
}

impl<T> Record<T> {
    /// The memory layout of an array of `capacity` records, for the host's allocation.
    pub fn array_layout(capacity: u32) -> Result<Layout, LayoutError> {
        Layout::array::<Record<T>>(capacity as usize)
    }

    /// Makes the uninitialized memory at `rec` a free record (join 0, no frame).
    ///
    /// # Safety
    /// `rec` is valid for writes and aligned, and no other thread can reach it (it was never
    /// handed out in this run).
    pub unsafe fn init(rec: *mut Self) {
        // SAFETY: per the contract, nobody else reads or writes this memory now.
        unsafe {
            (&raw mut (*rec).join).write(AtomicI32::new(0));
            (&raw mut (*rec).next_free).write(AtomicU32::new(NONE));
            (&raw mut (*rec).parent).write(NONE);
            (&raw mut (*rec).queue).write(0);
            (&raw mut (*rec).result_slot).write(core::ptr::null_mut());
            (&raw mut (*rec).live).write(false);
            (&raw mut (*rec).started).write(false);
            (&raw mut (*rec).depth).write(0);
        }
    }

    /// Fills a freshly allocated record with a new task.
    ///
    /// # Safety
    /// `rec` is an initialized record ([`Record::init`]) just taken from the pool by this
    /// thread, not live; the write is published to other threads by a later Release edge.
    pub unsafe fn fill(rec: *mut Self, parent: u32, result_slot: *mut u8, queue: u32, task: T) {
        // SAFETY: per the contract, this thread owns the record's plain fields and frame.
        unsafe {
            // Relaxed: ordered before every other user of the counter by the deque push.
            (*rec).join.store(0, super::sync::Ordering::Relaxed);
            (&raw mut (*rec).parent).write(parent);
            (&raw mut (*rec).queue).write(queue);
            (&raw mut (*rec).result_slot).write(result_slot);
            // The host drops the frames left in a CPU run's records after an abort; nothing
            // reads `live` on the GPU, so the GPU does not pay for the store.
            #[cfg(not(target_arch = "nvptx64"))]
            (&raw mut (*rec).live).write(true);
            // A root's depth; a spawner sets its child's with `set_depth`.
            (&raw mut (*rec).depth).write(0);
            (&raw mut (*rec).started).write(false);
            // In whole words, not as a typed move: a task enum's frame starts as the
            // coroutine's arguments beside a byte-sized state and a large uninitialized
            // part, and LLVM merges the move into one `memcpy` that starts at an odd offset,
            // which the NVPTX backend expands into a loop of byte loads and stores (see
            // `arch::copy`). Word copies of the uninitialized part fold away.
            let task = MaybeUninit::new(task);
            crate::arch::copy::copy_words(&raw mut (*rec).task, &raw const task);
        }
    }

    /// The join counter.
    ///
    /// # Safety
    /// `rec` points to an initialized record that outlives `'a`.
    #[inline(always)]
    pub unsafe fn join<'a>(rec: *mut Self) -> &'a AtomicI32 {
        // SAFETY: an atomic may be shared; the record is initialized (contract).
        unsafe { &(*rec).join }
    }

    /// The free-stack link.
    ///
    /// # Safety
    /// As [`Record::join`].
    #[inline(always)]
    pub unsafe fn next_free<'a>(rec: *mut Self) -> &'a AtomicU32 {
        // SAFETY: an atomic may be shared; the record is initialized (contract).
        unsafe { &(*rec).next_free }
    }

    /// The parent's id.
    ///
    /// # Safety
    /// `rec` is a live record and the caller is ordered after its spawn (it runs or completes
    /// the task).
    #[inline(always)]
    pub unsafe fn parent(rec: *mut Self) -> u32 {
        // SAFETY: per the contract, the spawner's write happens before this read.
        unsafe { (&raw const (*rec).parent).read() }
    }

    /// The queue the task goes to when next enqueued.
    ///
    /// # Safety
    /// As [`Record::parent`], and ordered after the task's last taskwait (if any).
    #[inline(always)]
    pub unsafe fn queue(rec: *mut Self) -> u32 {
        // SAFETY: per the contract, the last write happens before this read.
        unsafe { (&raw const (*rec).queue).read() }
    }

    /// Sets the queue for the task's next enqueue (at a taskwait).
    ///
    /// # Safety
    /// The caller is the worker running the task, before the taskwait's join RMW.
    #[inline(always)]
    pub unsafe fn set_queue(rec: *mut Self, queue: u32) {
        // SAFETY: only the running worker writes now; readers come after the join RMW.
        unsafe { (&raw mut (*rec).queue).write(queue) }
    }

    /// Where the task's result goes.
    ///
    /// # Safety
    /// As [`Record::parent`].
    #[inline(always)]
    pub unsafe fn result_slot(rec: *mut Self) -> *mut u8 {
        // SAFETY: per the contract, the spawner's write happens before this read.
        unsafe { (&raw const (*rec).result_slot).read() }
    }

    /// The task's depth in the task tree.
    ///
    /// # Safety
    /// As [`Record::parent`].
    #[inline(always)]
    pub unsafe fn depth(rec: *mut Self) -> u32 {
        // SAFETY: per the contract, the spawner's write happens before this read.
        u32::from(unsafe { (&raw const (*rec).depth).read() })
    }

    /// Whether this is the task's first step (the first call since [`Record::fill`]), noting
    /// that it has run one.
    ///
    /// # Safety
    /// As [`Record::parent`], by the task's own worker while it runs the task.
    #[inline(always)]
    pub unsafe fn first_step(rec: *mut Self) -> bool {
        // SAFETY: per the contract, the fill happens before, and only this worker touches
        // the flag while it runs the task.
        unsafe {
            let first = !(&raw const (*rec).started).read();
            (&raw mut (*rec).started).write(true);
            first
        }
    }

    /// Sets the depth of a task just filled in (its parent's depth plus one, saturating).
    ///
    /// # Safety
    /// As [`Record::fill`]: the caller filled `rec` and has not published it yet.
    #[inline(always)]
    pub unsafe fn set_depth(rec: *mut Self, depth: u32) {
        let depth = depth.min(u32::from(u16::MAX)) as u16;
        // SAFETY: per the contract, this thread owns the record's plain fields.
        unsafe { (&raw mut (*rec).depth).write(depth) }
    }

    /// Whether the record holds a frame not yet dropped.
    ///
    /// # Safety
    /// `rec` is initialized, and no worker of the run is alive (the host asks after the run).
    pub unsafe fn is_live(rec: *mut Self) -> bool {
        // SAFETY: per the contract, no concurrent writer.
        unsafe { (&raw const (*rec).live).read() }
    }

    /// The task's frame.
    ///
    /// # Safety
    /// `rec` is live; the caller is the only one resuming or dropping the task now.
    #[inline(always)]
    pub unsafe fn task(rec: *mut Self) -> *mut T {
        // SAFETY: a field projection of a valid record pointer.
        unsafe { (&raw mut (*rec).task).cast::<T>() }
    }

    /// Drops the task's frame and marks the record not live.
    ///
    /// # Safety
    /// `rec` is live, its task is not running, and nobody will resume it again (it completed,
    /// or the run was abandoned).
    pub unsafe fn drop_task(rec: *mut Self) {
        // SAFETY: per the contract the frame is initialized and unused; it is pinned in the
        // record, and dropping it in place is what the pinning contract asks.
        unsafe {
            #[cfg(not(target_arch = "nvptx64"))]
            (&raw mut (*rec).live).write(false);
            core::ptr::drop_in_place(Self::task(rec));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Record;

    /// The header as it was before the depth field.
    #[allow(dead_code)]
    #[repr(C)]
    struct WithoutDepth<T> {
        words: [u32; 4],
        result_slot: *mut u8,
        live: bool,
        task: T,
    }

    #[test]
    fn the_depth_lives_in_the_header_padding() {
        use core::mem::size_of;
        assert_eq!(size_of::<Record<u32>>(), size_of::<WithoutDepth<u32>>());
        assert_eq!(size_of::<Record<u64>>(), size_of::<WithoutDepth<u64>>());
        assert_eq!(
            size_of::<Record<[u64; 4]>>(),
            size_of::<WithoutDepth<[u64; 4]>>()
        );
    }
}
