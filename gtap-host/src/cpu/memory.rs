//! The CPU runtime's memory: allocated once, reset (not reallocated) for every run.
//!
//! Like the GPU runtime, the CPU backend never allocates during a run. Before the first run it
//! allocates:
//! - one [`DequeState`] per worker, and the workers' rings of task ids;
//! - the pool's shared words and the run's stop flags;
//! - the task records, sized for the program being run.
//!
//! Records depend on the program's task type. They are kept in one raw buffer that is reused
//! whenever the next program's records fit in it. Large buffers are zero-filled by the
//! allocator (`alloc_zeroed`), which on common systems maps pages lazily. A record or ring
//! page is therefore only touched once it is used.

use std::alloc::{self, Layout};
use std::ptr::NonNull;

use gtap_device::runtime::cpu::{RunMemory, TeamState};
use gtap_device::runtime::deque::DequeState;
use gtap_device::runtime::pool::PoolState;
use gtap_device::runtime::sync::AtomicU32;
use gtap_device::runtime::termination::Termination;

use super::error::CpuError;

/// A zeroed heap buffer with a fixed layout, freed on drop.
pub(crate) struct RawBuf {
    ptr: NonNull<u8>,
    layout: Layout,
}

// SAFETY: `RawBuf` owns its allocation like a `Box<[u8]>`; what is stored in it is accessed by
// the runtime's own protocols.
unsafe impl Send for RawBuf {}

impl RawBuf {
    /// A zeroed buffer of `layout` (of nonzero size).
    fn zeroed(layout: Layout, what: &'static str, setting: &'static str) -> Result<Self, CpuError> {
        assert!(layout.size() > 0);
        // SAFETY: the layout has a nonzero size.
        let ptr = unsafe { alloc::alloc_zeroed(layout) };
        let ptr = NonNull::new(ptr).ok_or(CpuError::OutOfMemory {
            what,
            bytes: layout.size(),
            setting,
        })?;
        Ok(RawBuf { ptr, layout })
    }

    /// Whether memory of `layout` fits in this buffer.
    fn fits(&self, layout: Layout) -> bool {
        layout.size() <= self.layout.size() && layout.align() <= self.layout.align()
    }
}

impl Drop for RawBuf {
    fn drop(&mut self) {
        // SAFETY: allocated in `zeroed` with this layout.
        unsafe { alloc::dealloc(self.ptr.as_ptr(), self.layout) }
    }
}

/// Everything a run uses, owned by the [`CpuRuntime`](super::CpuRuntime).
pub(crate) struct CpuMemory {
    pool: PoolState,
    termination: Termination,
    deques: Vec<DequeState>,
    /// `deques.len() × queue_capacity` zero-initialized atomics.
    rings: RawBuf,
    rings_len: usize,
    /// Task records of the last program run (none before the first run).
    records: Option<RawBuf>,
    /// Block programs: one team state per worker, the teams' staging areas (as large as their
    /// queues) and their scratch memory. Empty until a block program runs.
    teams: Vec<TeamState>,
    staging: Vec<AtomicU32>,
    scratch: Vec<u64>,
}

impl CpuMemory {
    /// Memory for `threads` workers with queues of `queue_capacity` ids (validated).
    pub fn new(threads: usize, queue_capacity: u32) -> Result<Self, CpuError> {
        let rings_len = threads * queue_capacity as usize;
        let oom = CpuError::OutOfMemory {
            what: "the task queues",
            bytes: usize::MAX,
            setting: "queue_capacity",
        };
        let layout = Layout::array::<AtomicU32>(rings_len).map_err(|_| oom)?;
        let rings = RawBuf::zeroed(layout, "the task queues", "queue_capacity")?;
        Ok(CpuMemory {
            pool: PoolState::new(),
            termination: Termination::new(),
            deques: (0..threads).map(|_| DequeState::new()).collect(),
            rings,
            rings_len,
            records: None,
            teams: Vec::new(),
            staging: Vec::new(),
            scratch: Vec::new(),
        })
    }

    /// A record buffer of at least `layout`: the current one if it fits, else a new one.
    pub fn ensure_records(&mut self, layout: Layout) -> Result<(), CpuError> {
        if !self.records.as_ref().is_some_and(|b| b.fits(layout)) {
            // Free the old buffer first, so that peak memory is not old + new.
            self.records = None;
            self.records = Some(RawBuf::zeroed(layout, "the task records", "task_capacity")?);
        }
        Ok(())
    }

    /// The memory of one run of a program whose `record_capacity` records need `layout`:
    /// the current record buffer if it fits, else a new one.
    pub fn for_run(
        &mut self,
        layout: Layout,
        record_capacity: u32,
        block_scratch: Option<usize>,
    ) -> Result<RunMemory<'_>, CpuError> {
        self.ensure_records(layout)?;
        let records = self
            .records
            .as_ref()
            .map_or(std::ptr::null_mut(), |b| b.ptr.as_ptr());
        // SAFETY: `rings` holds `rings_len` atomics, zero-initialized (a valid `AtomicU32` is
        // any bit pattern), aligned by their layout, and borrowed through `&mut self`.
        let rings = unsafe {
            std::slice::from_raw_parts_mut(
                self.rings.ptr.as_ptr().cast::<AtomicU32>(),
                self.rings_len,
            )
        };
        let workers = self.deques.len();
        let scratch_bytes = match block_scratch {
            Some(bytes) => {
                // Sized once per configuration; vectors of atomics are zeroed on creation.
                if self.teams.len() != workers {
                    self.teams = (0..workers).map(|_| TeamState::new()).collect();
                }
                if self.staging.len() != self.rings_len {
                    self.staging = (0..self.rings_len).map(|_| AtomicU32::new(0)).collect();
                }
                let words = bytes.div_ceil(8).max(1) * workers;
                if self.scratch.len() != words {
                    self.scratch = vec![0; words];
                }
                bytes.div_ceil(8).max(1) * 8
            }
            None => 0,
        };
        Ok(RunMemory {
            teams: &mut self.teams,
            staging: &self.staging,
            scratch: self.scratch.as_mut_ptr().cast(),
            scratch_bytes,
            pool: &mut self.pool,
            termination: &mut self.termination,
            deques: &mut self.deques,
            rings,
            records,
            record_capacity,
        })
    }

    /// The address of the record buffer, if any (tests check that it is reused).
    pub fn records_addr(&self) -> Option<usize> {
        self.records.as_ref().map(|b| b.ptr.as_ptr() as usize)
    }
}
