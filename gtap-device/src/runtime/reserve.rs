//! The GPU's device-wide reserve of task records: chunks of [`CHUNK_RECORDS`] records after
//! the warps' slabs, which a warp takes when its own slab runs short and which go back to the
//! reserve when every record of the chunk is free again.
//!
//! A warp's slab is fast because it is private: the warp hands its records out and takes them
//! back (its free stack, its remote list) with no contention. But a fixed slab per warp makes
//! a run fail as soon as one warp keeps more tasks alive than its slab holds, however many
//! records the other warps leave unused (a deep or breadth-heavy subtree on one warp, EPAQ's
//! expansion of one queue at a time). The reserve lends the memory that is left to the warps
//! that need it, in chunks, so that a run fails only when the records of the whole device are
//! in use.
//!
//! # The protocol
//! - **Take** ([`Reserve::take`]): a chunk from the free list (a Treiber stack of chunk ids,
//!   its head a tagged word as the CPU pool's, see `pool`), else a never-used chunk from a
//!   bump counter. The taker sets the chunk's live count to [`CHUNK_RECORDS`] and hands the
//!   chunk's records out once each, in order, as fresh records (the warp's "window").
//! - **Release** ([`Reserve::release`]): a chunk's record is never recycled by a warp's free
//!   stack; whoever frees it subtracts one from the chunk's live count, and the one that
//!   brings it to zero pushes the chunk back onto the free list. Every record of a chunk is
//!   handed out exactly once per loan and freed exactly once, so the count reaches zero
//!   exactly when the last of them is freed, after all were handed out; no owner table and no
//!   remote list are needed, and a chunk never goes back while one of its records is live.
//!   The price: a warp that stops needing a chunk half-way keeps its rest until the run ends
//!   (at most two chunks per warp, see `gpu::close`).
//!
//! # Memory ordering
//! - **Free -> reuse.** Each release is an `AcqRel` RMW on the live count: the releases of one
//!   loan form a release sequence, so the release that reads 1 has acquired every earlier
//!   freer's last use of its record. It pushes the chunk with a Release CAS; a take pops with
//!   an Acquire CAS. So every use of every record of the chunk happens before the next
//!   taker's writes to them.
//! - **Live count.** Set by the taker with a Relaxed store: the first release of the loan
//!   frees a record that was spawned after the take (program order on the taker) and
//!   published to the freer by the deque's Release/Acquire, so the store happens before it.
//! - **Stale pops and ABA.** As the CPU pool's stack: a pop reads the head chunk's link (an
//!   atomic) before its CAS; if the chunk was popped (and maybe pushed back) meanwhile, the
//!   head's tag changed and the CAS fails. The 32-bit tag wraps only after 2^32 operations
//!   while one taker is stalled; the risk is accepted.
//! - **Bump.** Relaxed: a never-used chunk has no earlier access to order against. The
//!   counter is read before it is bumped, so it passes the number of chunks only by the
//!   takers racing for the last one.
//!
//! On the GPU the atomics are `.gpu`-scoped (the facade's): any SM may free a record of a
//! chunk another SM's warp took. The same code runs on the CPU, where the unit tests and the
//! loom model check it.

use super::pool::{pack, unpack};
use super::record::NONE;
use super::sync::{AtomicU32, AtomicU64, Ordering};

/// Records per chunk of the reserve. Large enough that a warp takes a chunk rarely (one take
/// per this many spawns beyond its slab) and that one chunk covers a round's spawns (a
/// warp's 32 lanes with up to 32 children each).
pub const CHUNK_RECORDS: u32 = 1024;

/// The reserve's shared words. The host zeroes them and sets `head` to [`ReserveState::EMPTY`]
/// before a run.
#[repr(C)]
pub struct ReserveState {
    /// The free list's head, `tag << 32 | chunk` (`chunk == NONE`: empty).
    pub head: AtomicU64,
    /// Chunks `0..bump` have been lent at least once this run (may pass the number of chunks
    /// by the takers that raced for the last one; read with `min`).
    pub bump: AtomicU32,
    /// Keeps the struct's size a multiple of 8 (it is an array element on the host side).
    pub pad: u32,
}

impl ReserveState {
    /// The free list's empty head, as the host writes it.
    pub const EMPTY: u64 = NONE as u64;

    /// A reserve with every chunk never used.
    pub fn new() -> Self {
        ReserveState {
            head: AtomicU64::new(Self::EMPTY),
            bump: AtomicU32::new(0),
            pad: 0,
        }
    }
}

impl Default for ReserveState {
    fn default() -> Self {
        Self::new()
    }
}

/// The reserve of a run: its state and, per chunk, a free-list link and a live count.
#[derive(Clone, Copy)]
pub struct Reserve {
    state: *const ReserveState,
    links: *const AtomicU32,
    live: *const AtomicU32,
    chunks: u32,
}

impl Reserve {
    /// The reserve of `chunks` chunks over `state` and the per-chunk arrays `links` and
    /// `live` (`chunks` words each).
    ///
    /// # Safety
    /// The pointers are valid for the run (every use of the returned value) and only
    /// accessed atomically; `chunks < NONE`.
    #[inline(always)]
    pub unsafe fn new(
        state: *const ReserveState,
        links: *const AtomicU32,
        live: *const AtomicU32,
        chunks: u32,
    ) -> Reserve {
        Reserve {
            state,
            links,
            live,
            chunks,
        }
    }

    /// How many chunks the reserve has.
    pub fn chunks(&self) -> u32 {
        self.chunks
    }

    fn state(&self) -> &ReserveState {
        // SAFETY: valid for the run (`new`'s contract).
        unsafe { &*self.state }
    }

    fn link(&self, chunk: u32) -> &AtomicU32 {
        debug_assert!(chunk < self.chunks);
        // SAFETY: `chunk < chunks`, the array's length (`new`'s contract).
        unsafe { &*self.links.add(chunk as usize) }
    }

    fn live(&self, chunk: u32) -> &AtomicU32 {
        debug_assert!(chunk < self.chunks);
        // SAFETY: as in `link`.
        unsafe { &*self.live.add(chunk as usize) }
    }

    /// Lends a chunk: its index, its [`CHUNK_RECORDS`] records the caller's to hand out once
    /// each; `None` when every chunk is lent.
    #[inline(never)]
    pub fn take(&self) -> Option<u32> {
        let chunk = self.pop().or_else(|| self.bump())?;
        // Relaxed: see the module docs (the live count).
        self.live(chunk).store(CHUNK_RECORDS, Ordering::Relaxed);
        Some(chunk)
    }

    /// Notes that `n` records of `chunk` are free (complete, their last use done); the chunk
    /// goes back to the free list when that was the last of its loan's records. Returns
    /// whether it did.
    #[inline(always)]
    pub fn release(&self, chunk: u32, n: u32) -> bool {
        // AcqRel: see the module docs (free -> reuse).
        let before = self.live(chunk).fetch_sub(n, Ordering::AcqRel);
        debug_assert!(before >= n, "a chunk's record freed twice");
        if before == n {
            self.push(chunk);
            true
        } else {
            false
        }
    }

    /// Chunks lent at least once this run.
    pub fn touched(&self) -> u32 {
        self.state().bump.load(Ordering::Relaxed).min(self.chunks)
    }

    fn bump(&self) -> Option<u32> {
        let bump = &self.state().bump;
        // Relaxed: see the module docs (bump). Read first, so that a dry reserve's counter
        // does not grow with every look.
        if bump.load(Ordering::Relaxed) >= self.chunks {
            return None;
        }
        let chunk = bump.fetch_add(1, Ordering::Relaxed);
        (chunk < self.chunks).then_some(chunk)
    }

    fn pop(&self) -> Option<u32> {
        let head = &self.state().head;
        // Acquire: the push that installed the head happens before our reuse (module docs).
        let mut word = head.load(Ordering::Acquire);
        loop {
            let (tag, chunk) = unpack(word);
            if chunk == NONE {
                return None;
            }
            // Relaxed: the link was written before the Release push we acquired; a stale
            // value is discarded by the failing CAS (module docs).
            let next = self.link(chunk).load(Ordering::Relaxed);
            match head.compare_exchange(
                word,
                pack(tag.wrapping_add(1), next),
                Ordering::Acquire,
                Ordering::Acquire,
            ) {
                Ok(_) => return Some(chunk),
                Err(now) => word = now,
            }
        }
    }

    #[cold]
    #[inline(never)]
    fn push(&self, chunk: u32) {
        let head = &self.state().head;
        let mut word = head.load(Ordering::Relaxed);
        loop {
            let (tag, top) = unpack(word);
            // Relaxed: published by the Release CAS below.
            self.link(chunk).store(top, Ordering::Relaxed);
            match head.compare_exchange(
                word,
                pack(tag.wrapping_add(1), chunk),
                Ordering::Release,
                Ordering::Relaxed,
            ) {
                Ok(_) => return,
                Err(now) => word = now,
            }
        }
    }
}

/// Where record ids live in a run of `slab_records` slab records followed by the reserve's
/// chunks: the chunk of record `id`, or `None` for a slab record.
#[inline(always)]
pub fn chunk_of(id: u32, slab_records: u32) -> Option<u32> {
    (id >= slab_records).then(|| (id - slab_records) / CHUNK_RECORDS)
}

/// The first record id of `chunk`.
#[inline(always)]
pub fn chunk_start(chunk: u32, slab_records: u32) -> u32 {
    slab_records + chunk * CHUNK_RECORDS
}

/// A reserve's arrays owned by a test, for the unit tests and the loom model alike.
#[cfg(test)]
mod fixture {
    extern crate std;
    use std::vec::Vec;

    use super::*;

    pub(super) struct Owned {
        state: ReserveState,
        links: Vec<AtomicU32>,
        live: Vec<AtomicU32>,
    }

    impl Owned {
        pub(super) fn new(chunks: u32) -> Owned {
            Owned {
                state: ReserveState::new(),
                links: (0..chunks).map(|_| AtomicU32::new(0)).collect(),
                live: (0..chunks).map(|_| AtomicU32::new(0)).collect(),
            }
        }

        pub(super) fn reserve(&self) -> Reserve {
            // SAFETY: the arrays hold `links.len()` words and outlive the reserve (the tests
            // drop the reserve first, or keep the arrays in an `Arc` every thread holds).
            unsafe {
                Reserve::new(
                    &self.state,
                    self.links.as_ptr(),
                    self.live.as_ptr(),
                    self.links.len() as u32,
                )
            }
        }
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    extern crate std;
    use std::vec::Vec;

    use super::fixture::Owned;
    use super::*;

    #[test]
    fn takes_every_chunk_once_then_runs_dry() {
        let o = Owned::new(3);
        let r = o.reserve();
        let mut got: Vec<u32> = (0..3).map(|_| r.take().unwrap()).collect();
        got.sort();
        assert_eq!(got, [0, 1, 2]);
        assert_eq!(r.take(), None);
        assert_eq!(r.take(), None);
        assert_eq!(r.touched(), 3);
    }

    #[test]
    fn a_chunk_comes_back_only_when_its_last_record_is_freed() {
        let o = Owned::new(1);
        let r = o.reserve();
        let c = r.take().unwrap();
        assert!(!r.release(c, CHUNK_RECORDS - 1));
        assert_eq!(r.take(), None, "one record still live");
        assert!(r.release(c, 1));
        assert_eq!(r.take(), Some(c));
    }

    #[test]
    fn returned_chunks_are_lent_again_in_lifo_order() {
        let o = Owned::new(4);
        let r = o.reserve();
        let all: Vec<u32> = (0..4).map(|_| r.take().unwrap()).collect();
        for &c in &all {
            for _ in 0..CHUNK_RECORDS {
                r.release(c, 1);
            }
        }
        let again: Vec<u32> = (0..4).map(|_| r.take().unwrap()).collect();
        assert_eq!(again, [3, 2, 1, 0]);
        assert_eq!(r.take(), None);
    }

    #[test]
    fn record_ids_map_to_their_chunks() {
        let slab = 4 * 4096;
        assert_eq!(chunk_of(slab - 1, slab), None);
        assert_eq!(chunk_of(slab, slab), Some(0));
        assert_eq!(
            chunk_of(chunk_start(5, slab) + CHUNK_RECORDS - 1, slab),
            Some(5)
        );
        assert_eq!(chunk_of(chunk_start(6, slab), slab), Some(6));
    }

    #[test]
    fn stress_threads_lending_and_returning_never_share_a_chunk() {
        use std::sync::atomic::AtomicBool;
        let o = Owned::new(4);
        let held: Vec<AtomicBool> = (0..4).map(|_| AtomicBool::new(false)).collect();
        std::thread::scope(|s| {
            for _ in 0..4 {
                s.spawn(|| {
                    let r = o.reserve();
                    for _ in 0..2000 {
                        let Some(c) = r.take() else { continue };
                        let was = held[c as usize].swap(true, core::sync::atomic::Ordering::AcqRel);
                        assert!(!was, "chunk {c} lent twice");
                        held[c as usize].store(false, core::sync::atomic::Ordering::Release);
                        r.release(c, CHUNK_RECORDS);
                    }
                });
            }
        });
    }
}

#[cfg(all(test, loom))]
mod loom_tests {
    extern crate std;
    use std::sync::Arc;
    use std::vec::Vec;

    use super::fixture::Owned;
    use super::*;
    use loom::cell::UnsafeCell;

    struct Shared {
        arrays: Owned,
        /// A plain word per chunk, standing in for its records: written by each taker, so
        /// loom reports a race if two loans overlap or a reuse is not ordered after the
        /// last free.
        data: Vec<UnsafeCell<u32>>,
    }

    impl Shared {
        fn reserve(&self) -> Reserve {
            self.arrays.reserve()
        }
    }

    /// Two chunks, two threads: each takes a chunk, writes its records, frees them in two
    /// halves and takes again (the ABA case: a pop stalled between reading the head's link and
    /// its CAS while the other thread takes and returns). No chunk is ever lent twice at once
    /// and every reuse sees the previous loan's writes ordered before it.
    #[test]
    fn loom_take_and_return() {
        loom::model(|| {
            let shared = Arc::new(Shared {
                arrays: Owned::new(2),
                data: (0..2).map(|_| UnsafeCell::new(0)).collect(),
            });
            let worker = |s: Arc<Shared>, me: u32| {
                move || {
                    let r = s.reserve();
                    for _ in 0..2 {
                        if let Some(c) = r.take() {
                            s.data[c as usize].with_mut(|p| {
                                // SAFETY: loom checks that this access is exclusive.
                                unsafe { *p = me }
                            });
                            r.release(c, CHUNK_RECORDS / 2);
                            r.release(c, CHUNK_RECORDS / 2);
                        }
                    }
                }
            };
            let t = loom::thread::spawn(worker(shared.clone(), 1));
            worker(shared.clone(), 2)();
            t.join().unwrap();
            let r = shared.reserve();
            let mut all: Vec<u32> = (0..2).filter_map(|_| r.take()).collect();
            all.sort();
            assert_eq!(all, [0, 1], "every chunk came back");
        });
    }
}
