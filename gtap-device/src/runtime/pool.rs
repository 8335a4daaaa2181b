//! The task pool: a fixed array of task records and the free lists that hand them out.
//!
//! The host allocates `capacity` records once (GTaP bulk-allocates task storage before any
//! task runs, paper section 4.1); the runtime receives a base pointer and the capacity, and
//! hands out ids `0..capacity`. Allocation is built so that a spawn does not touch one global
//! counter:
//!
//! 1. each worker keeps a bounded cache of free ids ([`LocalCache`]), used first and refilled
//!    in batches;
//! 2. freed records go back to the cache; a full cache spills half of itself, as one linked
//!    chain pushed with one CAS, onto a global lock-free free stack (Treiber's stack: R. K.
//!    Treiber, "Systems Programming: Coping with Parallelism", IBM RJ 5118, 1986) whose head is
//!    a tagged word `tag << 32 | id`, the tag bumped by every change so that a stale CAS fails
//!    (the ABA problem);
//! 3. records never used in this run are handed out in chunks by a global bump pointer.
//!
//! When the cache, the stack and the bump region are all empty, allocation fails with
//! [`RunError::PoolExhausted`], which ends the run; it never waits. At that moment up to
//! `workers × cache_limit` free records can sit in other workers' caches; the cache limit is
//! scaled down for small pools so that this is at most a quarter of the pool. Idle workers
//! return their whole cache to the stack ([`Pool::flush`]).
//!
//! # Memory ordering
//! - **Free -> reuse.** Every change of the stack head is a CAS. A push links its chain through
//!   the records' `next_free` (relaxed stores) and installs the new head with Release; a pop
//!   loads the head with Acquire (and its CAS acquires too). A pop therefore sees the links of
//!   the chain it pops from, and everything the freeing worker did with the records (its last
//!   use of the frame) happens before the new owner writes them. Pops are RMWs, so they
//!   continue the release sequence of the push that installed an entry.
//! - **Stale pops.** A pop reads `next_free` of the head record before its CAS. If another
//!   thread popped that record meanwhile and is reusing it, the read is of an atomic (no data
//!   race), and the value is discarded because the head's tag changed and the CAS fails.
//!   The 32-bit tag could in principle wrap to the same value while one thread is stalled
//!   between its load and its CAS (2^32 stack operations); the risk is accepted.
//! - **Bump.** Relaxed: a never-used record has no earlier access in this run to order
//!   against. The worker that takes it initializes it ([`Record::init`]) and publishes it with
//!   the deque push like any other.
//! - **Cache.** Private to its worker: no ordering.
//!
//! On the GPU all of these are `.gpu`-scoped: any SM may free a record another allocated.

use super::error::RunError;
use super::record::{NONE, Record};
use super::sync::{AtomicU32, AtomicU64, Ordering};

/// The largest per-worker cache of free ids.
pub const CACHE_MAX: usize = 64;

/// The largest pool (ids must stay below [`NONE`] and fit the stack head's low word).
pub const MAX_CAPACITY: u32 = 1 << 31;

const EMPTY_STACK: u64 = NONE as u64;

/// A tagged stack head: `tag` in the high word, `id` (or [`NONE`]) in the low one. Shared with
/// the GPU's chunk reserve (`reserve`), a Treiber stack of the same shape.
#[inline(always)]
pub(crate) fn pack(tag: u32, id: u32) -> u64 {
    (u64::from(tag) << 32) | u64::from(id)
}

/// The `(tag, id)` of a word made by [`pack`].
#[inline(always)]
pub(crate) fn unpack(word: u64) -> (u32, u32) {
    ((word >> 32) as u32, word as u32)
}

/// The pool's shared words. Allocated by the host next to the records.
#[repr(C, align(128))]
pub struct PoolState {
    /// Records `0..bump` have been handed out at least once this run. CAS by allocating
    /// workers; read for statistics. Never exceeds the capacity.
    bump: AtomicU32,
    /// The free stack's head, `tag << 32 | id` (`id == NONE`: empty). CAS by every push and
    /// pop (Release / Acquire).
    free: AtomicU64,
}

impl PoolState {
    /// An empty pool state.
    pub fn new() -> Self {
        PoolState {
            bump: AtomicU32::new(0),
            free: AtomicU64::new(EMPTY_STACK),
        }
    }

    /// Forgets every record for a new run. Needs `&mut`: no worker is alive.
    pub fn reset(&mut self) {
        *self = Self::new();
    }

    /// How many records have been handed out at least once this run: an upper bound on the
    /// peak number in use (see [`Pool::touched`]).
    pub fn touched(&self) -> u32 {
        self.bump.load(Ordering::Relaxed)
    }
}

impl Default for PoolState {
    fn default() -> Self {
        Self::new()
    }
}

/// A worker's private cache of free record ids.
pub struct LocalCache {
    ids: [u32; CACHE_MAX],
    len: usize,
    /// How many ids this cache holds at most (scaled to the pool, see [`Pool::new`]).
    limit: usize,
}

impl LocalCache {
    /// An empty cache holding at most `limit` (clamped to `1..=CACHE_MAX`) ids.
    pub fn new(limit: usize) -> Self {
        LocalCache {
            ids: [NONE; CACHE_MAX],
            len: 0,
            limit: limit.clamp(1, CACHE_MAX),
        }
    }

    /// How many free ids the cache holds.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the cache holds no id.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// The records of a run and the shared state that allocates them.
pub struct Pool<'a, T> {
    state: &'a PoolState,
    base: *mut Record<T>,
    capacity: u32,
    cache_limit: usize,
}

// SAFETY: the pool hands each record to one thread at a time; the records' shared fields are
// atomics and their plain fields and frames are ordered by the protocols in the module docs.
// Task frames move between threads, which is what a program's tasks are built for.
unsafe impl<T> Sync for Pool<'_, T> {}
// SAFETY: as for `Sync`.
unsafe impl<T> Send for Pool<'_, T> {}

impl<'a, T> Pool<'a, T> {
    /// The pool over `capacity` records at `base`, for `workers` workers.
    ///
    /// # Safety
    /// `base` is aligned for `Record<T>` and valid for reads and writes of `capacity` records
    /// for `'a`; nothing else uses that memory meanwhile. `state` was reset for this run
    /// ([`PoolState::reset`]); the memory itself need not be initialized.
    pub unsafe fn new(
        state: &'a PoolState,
        base: *mut Record<T>,
        capacity: u32,
        workers: u32,
    ) -> Self {
        debug_assert!(capacity <= MAX_CAPACITY);
        let per_worker = capacity as usize / (4 * workers.max(1) as usize);
        Pool {
            state,
            base,
            capacity,
            cache_limit: per_worker.clamp(1, CACHE_MAX),
        }
    }

    /// How many records the pool has.
    pub fn capacity(&self) -> u32 {
        self.capacity
    }

    /// A cache sized for this pool, for one worker.
    pub fn new_cache(&self) -> LocalCache {
        LocalCache::new(self.cache_limit)
    }

    /// The record with id `id`.
    #[inline(always)]
    pub fn record(&self, id: u32) -> *mut Record<T> {
        debug_assert!(id < self.capacity);
        // SAFETY: ids handed out are below `capacity`, and the allocation holds `capacity`
        // records (`new`'s contract).
        unsafe { self.base.add(id as usize) }
    }

    /// Records handed out at least once this run. In-use records are always among them, so
    /// this bounds the peak number in use from above. A record is first handed out only when
    /// the free stack is empty and the allocating worker's cache too, so the bound exceeds the
    /// true peak by at most the free ids in the other caches and the new chunk:
    /// `workers × cache_limit`.
    pub fn touched(&self) -> u32 {
        self.state.touched()
    }

    /// Takes a free record id. The record is initialized and not live; fill it with
    /// [`Record::fill`].
    #[inline]
    pub fn alloc(&self, cache: &mut LocalCache) -> Result<u32, RunError> {
        if cache.len == 0 {
            self.refill(cache);
            if cache.len == 0 {
                return Err(RunError::PoolExhausted {
                    capacity: self.capacity,
                });
            }
        }
        cache.len -= 1;
        Ok(cache.ids[cache.len])
    }

    /// Takes `n` never-used records with consecutive ids, initialized and not live, and
    /// returns the first id: for a run's roots, which the host builds before any worker
    /// starts (and finds again by id). Fails when fewer than `n` never-used records are left.
    pub fn alloc_fresh(&self, n: u32) -> Result<u32, RunError> {
        let (start, end) = self.bump(n);
        if end - start < n {
            return Err(RunError::PoolExhausted {
                capacity: self.capacity,
            });
        }
        for id in start..end {
            // SAFETY: ids from the bump region were never handed out in this run: nobody else
            // can reach them, and `record` is in bounds.
            unsafe { Record::init(self.record(id)) };
        }
        Ok(start)
    }

    /// Returns record `id` (completed, its frame dropped) to the pool.
    #[inline]
    pub fn free(&self, cache: &mut LocalCache, id: u32) {
        if cache.len == cache.limit {
            let keep = cache.limit / 2;
            self.push_chain(&cache.ids[keep..cache.len]);
            cache.len = keep;
        }
        cache.ids[cache.len] = id;
        cache.len += 1;
    }

    /// Returns every id of `cache` to the shared stack (an idle worker does, so that busy
    /// workers can use them).
    pub fn flush(&self, cache: &mut LocalCache) {
        self.push_chain(&cache.ids[..cache.len]);
        cache.len = 0;
    }

    /// Fills an empty cache with up to half its limit: from the free stack, else from the bump
    /// region.
    fn refill(&self, cache: &mut LocalCache) {
        let want = cache.limit.div_ceil(2);
        while cache.len < want {
            match self.pop() {
                Some(id) => {
                    cache.ids[cache.len] = id;
                    cache.len += 1;
                }
                None => break,
            }
        }
        if cache.len > 0 {
            return;
        }
        let (start, end) = self.bump(want as u32);
        for id in start..end {
            // SAFETY: ids from the bump region were never handed out in this run: nobody else
            // can reach them, and `record` is in bounds.
            unsafe { Record::init(self.record(id)) };
            cache.ids[cache.len] = id;
            cache.len += 1;
        }
    }

    /// Takes up to `n` never-used ids: `start..end`, empty when the region is used up.
    fn bump(&self, n: u32) -> (u32, u32) {
        // Relaxed throughout: see "Bump" in the module docs.
        let mut seen = self.state.bump.load(Ordering::Relaxed);
        loop {
            if seen >= self.capacity {
                return (seen, seen);
            }
            let end = seen + n.min(self.capacity - seen);
            match self
                .state
                .bump
                .compare_exchange(seen, end, Ordering::Relaxed, Ordering::Relaxed)
            {
                Ok(_) => return (seen, end),
                Err(now) => seen = now,
            }
        }
    }

    /// Pops one id from the free stack.
    fn pop(&self) -> Option<u32> {
        // Acquire: see the links and the freeing worker's last writes ("Free -> reuse").
        let mut head = self.state.free.load(Ordering::Acquire);
        loop {
            let (tag, id) = unpack(head);
            if id == NONE {
                return None;
            }
            // SAFETY: every id on the stack (even a stale one) is below `capacity` and its
            // record was initialized when first handed out; `next_free` is atomic.
            // Relaxed: ordered by the Acquire load of the head ("Stale pops" in the module docs).
            let next = unsafe { Record::next_free(self.record(id)) }.load(Ordering::Relaxed);
            match self.state.free.compare_exchange(
                head,
                pack(tag.wrapping_add(1), next),
                Ordering::Acquire,
                Ordering::Acquire,
            ) {
                Ok(_) => return Some(id),
                Err(now) => head = now,
            }
        }
    }

    /// Pushes `ids` (free records owned by this worker) onto the free stack, as one chain.
    fn push_chain(&self, ids: &[u32]) {
        let (Some(&first), Some(&last)) = (ids.first(), ids.last()) else {
            return;
        };
        for pair in ids.windows(2) {
            // SAFETY: the ids are this worker's free records, initialized and in bounds.
            // Relaxed: published by the Release CAS below.
            unsafe { Record::next_free(self.record(pair[0])) }.store(pair[1], Ordering::Relaxed);
        }
        let mut head = self.state.free.load(Ordering::Relaxed);
        loop {
            let (tag, top) = unpack(head);
            // SAFETY: as above.
            unsafe { Record::next_free(self.record(last)) }.store(top, Ordering::Relaxed);
            // Release: publishes the links and our last use of the records ("Free -> reuse").
            match self.state.free.compare_exchange(
                head,
                pack(tag.wrapping_add(1), first),
                Ordering::Release,
                Ordering::Relaxed,
            ) {
                Ok(_) => return,
                Err(now) => head = now,
            }
        }
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    extern crate std;
    use core::mem::MaybeUninit;
    use std::collections::HashSet;
    use std::vec::Vec;

    use super::*;

    type Rec = Record<u64>;

    fn memory(capacity: u32) -> Vec<MaybeUninit<Rec>> {
        (0..capacity).map(|_| MaybeUninit::uninit()).collect()
    }

    #[test]
    fn hands_out_every_id_once_then_reports_exhaustion() {
        let mut mem = memory(100);
        let state = PoolState::new();
        // SAFETY: `mem` holds 100 records and outlives the pool.
        let pool = unsafe { Pool::new(&state, mem.as_mut_ptr().cast::<Rec>(), 100, 1) };
        let mut cache = pool.new_cache();
        let mut seen = HashSet::new();
        for _ in 0..100 {
            assert!(seen.insert(pool.alloc(&mut cache).unwrap()));
        }
        assert_eq!(
            pool.alloc(&mut cache),
            Err(RunError::PoolExhausted { capacity: 100 })
        );
        assert_eq!(pool.touched(), 100);
        for &id in &seen {
            pool.free(&mut cache, id);
        }
        let mut again = HashSet::new();
        for _ in 0..100 {
            assert!(again.insert(pool.alloc(&mut cache).unwrap()));
        }
        assert_eq!(seen, again);
    }

    #[test]
    fn flushed_ids_reach_other_workers() {
        let mut mem = memory(8);
        let state = PoolState::new();
        // SAFETY: `mem` holds 8 records and outlives the pool.
        let pool = unsafe { Pool::new(&state, mem.as_mut_ptr().cast::<Rec>(), 8, 2) };
        let (mut a, mut b) = (pool.new_cache(), pool.new_cache());
        let ids: Vec<u32> = (0..8).map(|_| pool.alloc(&mut a).unwrap()).collect();
        assert!(pool.alloc(&mut b).is_err());
        for &id in &ids {
            pool.free(&mut a, id);
        }
        pool.flush(&mut a);
        assert!(a.is_empty());
        let got: HashSet<u32> = (0..8).map(|_| pool.alloc(&mut b).unwrap()).collect();
        assert_eq!(got.len(), 8);
    }

    #[test]
    fn small_pools_get_small_caches() {
        let state = PoolState::new();
        let mut mem = memory(16);
        // SAFETY: as above.
        let pool = unsafe { Pool::new(&state, mem.as_mut_ptr().cast::<Rec>(), 16, 4) };
        assert_eq!(pool.new_cache().limit, 1);
    }

    /// Threads allocate and free at random; no id is ever held by two threads at once.
    #[test]
    fn concurrent_alloc_free_never_duplicates() {
        const CAP: u32 = 512;
        // Under Miri (CI) each step is interpreted: 2,000 per thread still take and return
        // every cache's worth of ids many times over, which is what its data-race checks
        // need to see, in a time CI can afford.
        const STEPS: u32 = if cfg!(miri) { 2_000 } else { 50_000 };
        let mut mem = memory(CAP);
        let state = PoolState::new();
        let owners: Vec<std::sync::atomic::AtomicU32> = (0..CAP)
            .map(|_| std::sync::atomic::AtomicU32::new(u32::MAX))
            .collect();
        // SAFETY: `mem` holds CAP records and outlives the scope.
        let pool = unsafe { Pool::new(&state, mem.as_mut_ptr().cast::<Rec>(), CAP, 4) };
        std::thread::scope(|s| {
            for t in 0..4u32 {
                let (pool, owners) = (&pool, &owners);
                s.spawn(move || {
                    let mut cache = pool.new_cache();
                    let mut held = Vec::new();
                    let mut rng = super::super::rng::XorShift32::for_worker(t);
                    for _ in 0..STEPS {
                        if held.len() < 100 && rng.next_u32().is_multiple_of(2) {
                            if let Ok(id) = pool.alloc(&mut cache) {
                                let prev = owners[id as usize]
                                    .swap(t, std::sync::atomic::Ordering::Relaxed);
                                assert_eq!(prev, u32::MAX, "id {id} handed out twice");
                                held.push(id);
                            }
                        } else if let Some(id) = held.pop() {
                            owners[id as usize]
                                .store(u32::MAX, std::sync::atomic::Ordering::Relaxed);
                            pool.free(&mut cache, id);
                        }
                    }
                    for id in held {
                        owners[id as usize].store(u32::MAX, std::sync::atomic::Ordering::Relaxed);
                        pool.free(&mut cache, id);
                    }
                    pool.flush(&mut cache);
                });
            }
        });
        // Everything came back: the whole pool can be allocated again by one worker.
        let mut cache = pool.new_cache();
        let all: HashSet<u32> = (0..CAP).map(|_| pool.alloc(&mut cache).unwrap()).collect();
        assert_eq!(all.len(), CAP as usize);
    }
}

/// Model-checked: the free stack's tagged head under concurrent pops and pushes.
#[cfg(all(test, loom))]
mod loom_tests {
    extern crate std;
    use core::mem::MaybeUninit;
    use std::sync::Arc;
    use std::vec::Vec;

    use super::*;

    type Rec = Record<u32>;

    struct Mem(Vec<MaybeUninit<Rec>>);
    // SAFETY: test-only; records are accessed through the pool's protocols.
    unsafe impl Send for Mem {}
    // SAFETY: as above.
    unsafe impl Sync for Mem {}

    /// Two threads pop and re-push while the stack holds 3 records: every id ends up held by
    /// exactly one thread or on the stack (the ABA case: a pop stalled between reading `next`
    /// and its CAS while the other thread pops two and pushes one back).
    #[test]
    fn loom_free_stack_aba() {
        loom::model(|| {
            let mem = Arc::new(Mem((0..3).map(|_| MaybeUninit::uninit()).collect()));
            let state = Arc::new(PoolState::new());
            let base = mem.0.as_ptr() as *mut Rec;
            // SAFETY: `mem` holds 3 records and outlives every use (kept alive by the Arcs).
            let pool = unsafe { Pool::new(&state, base, 3, 1) };
            let mut cache = LocalCache::new(4);
            let ids: Vec<u32> = (0..3).map(|_| pool.alloc(&mut cache).unwrap()).collect();
            pool.push_chain(&ids);
            let other = {
                let (state, mem) = (state.clone(), mem.clone());
                loom::thread::spawn(move || {
                    // SAFETY: as above.
                    let pool = unsafe { Pool::new(&state, mem.0.as_ptr() as *mut Rec, 3, 1) };
                    let a = pool.pop();
                    let b = pool.pop();
                    if let Some(a) = a {
                        pool.push_chain(&[a]);
                    }
                    b
                })
            };
            let mine = pool.pop();
            let theirs = other.join().unwrap();
            let mut held: Vec<u32> = mine.into_iter().chain(theirs).collect();
            while let Some(id) = pool.pop() {
                held.push(id);
            }
            held.sort_unstable();
            assert_eq!(held, std::vec![0, 1, 2]);
        });
    }
}
