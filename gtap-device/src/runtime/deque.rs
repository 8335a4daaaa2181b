//! A worker's deque of runnable task ids: GTaP's batched work-stealing queue.
//!
//! # Algorithm
//! GTaP's thread-level deque (paper, section 4.3.2, Program 2 and Algorithm 1), a bounded
//! variant of the Chase-Lev work-stealing deque (Chase and Lev, "Dynamic Circular Work-Stealing
//! Deque", SPAA 2005) in which a `count` of unclaimed entries, not the two ends, decides who
//! gets what:
//!
//! - a fixed ring of `capacity` (a power of two) task ids, addressed by free-running `u32`
//!   logical positions (`position & (capacity - 1)`), so the ends may wrap around `u32::MAX`;
//! - `head`, the steal end (oldest entry), shared;
//! - `tail`, the owner end (one past the newest entry), private to the owner ([`OwnerEnd`]);
//!   on the GPU it lives in shared memory;
//! - `count`, how many entries are published and not yet claimed, shared;
//! - a per-deque steal lock, taken with a try-lock, so at most one thief works on a deque.
//!
//! Owner and thieves *claim* entries by CAS on `count`: the CAS serialises all claims, so each
//! entry is claimed once. The owner then takes its entries from the tail end, a thief from the
//! head end. Because `count` never exceeds the number of entries between the ends that nobody
//! claimed, the two ranges never overlap; the lock makes sure only one thief reads at `head`.
//!
//! | operation | who | steps |
//! |---|---|---|
//! | [`Deque::push_batch`] | owner | check room against `head`, write the ids at `tail`, `count += n` (Release) |
//! | [`Deque::pop_batch`] | owner | claim `k <= max` by CAS on `count`, `tail -= k`, read the ids at `tail` |
//! | [`Deque::steal_batch`] | thief | try-lock, claim `k` by CAS on `count`, read the ids at `head`, `head += k` (Release), unlock |
//!
//! The claim ([`claim`]) and publish ([`publish`]) steps are separate functions over the
//! [`super::sync`] facade so that the GPU's warp-cooperative batches (lane 0 claims, the
//! claimed count is broadcast, each lane reads one id) reuse them unchanged. The CPU backend
//! pops one id at a time and steals up to half of a victim's entries, at most [`STEAL_MAX`].
//!
//! A full deque is an error ([`RunError::QueueFull`]): the ring never grows.
//!
//! # Memory ordering
//! Ids are stored in the ring with relaxed atomic stores and read with relaxed atomic loads
//! (on the GPU: L2 accesses that bypass the non-coherent L1). What makes a read see the right
//! id are these happens-before edges:
//!
//! 1. **Push -> steal.** The owner writes the ids, then adds to `count` with a Release RMW.
//!    A thief claims with an Acquire CAS on `count`. The value it reads was written by that
//!    add or by a later RMW on `count` (all changes of `count` are RMWs, so they continue the
//!    add's release sequence), hence the add synchronises with the CAS and the thief sees the
//!    ids and everything the owner wrote before pushing (the task's record).
//! 2. **Steal -> push (reuse of ring slots).** A thief reads its ids, then stores the new
//!    `head` with Release. The owner's room check loads `head` with Acquire before writing, so
//!    the thief's reads of slots happen before the owner overwrites them. A stale `head` is
//!    smaller, so the room check errs on the side of "full", never overwrites a slot in use.
//! 3. **Steal -> steal.** The lock is taken with an Acquire CAS and released with a Release
//!    store after `head` was advanced, so the next thief reads the latest `head`.
//! 4. **Pop.** The owner reads only ids it wrote itself: program order suffices, so its claim
//!    CAS is Relaxed. (The CAS still races correctly with thieves' CASes: all RMWs on `count`
//!    are totally ordered whatever their ordering argument.)
//!
//! On the GPU every one of these accesses needs `.gpu` scope: owner and thieves are warps on
//! different SMs.

use super::error::RunError;
use super::sync::{AtomicU32, Ordering};

/// The most ids one steal takes: a warp's width, so a GPU steal fills at most one warp.
pub const STEAL_MAX: u32 = 32;

/// The largest ring a deque may have (keeps `count` and position differences far from `u32`
/// overflow).
pub const MAX_CAPACITY: u32 = 1 << 30;

/// The shared part of one deque. Allocated by the host, one per worker (and per EPAQ queue on
/// the GPU); the ring of ids is a separate array.
///
/// Aligned to 128 bytes so that two workers' deques never share a cache line (nor an L2 sector
/// pair on the GPU).
#[repr(C, align(128))]
pub struct DequeState {
    /// Logical position of the oldest unstolen entry. Written only by a thief holding `lock`
    /// (Release); read by thieves under `lock` and by the owner's room check (Acquire).
    head: AtomicU32,
    /// Entries published and not yet claimed. Incremented by the owner's push (after a Release
    /// add), decremented by CAS by the owner's pop and by thieves' steals (Acquire).
    count: AtomicU32,
    /// The steal lock: 0 free, 1 held. Try-locked by thieves (Acquire CAS), released by the
    /// holder (Release store). The owner never takes it.
    lock: AtomicU32,
}

impl DequeState {
    /// An empty deque.
    pub fn new() -> Self {
        DequeState {
            head: AtomicU32::new(0),
            count: AtomicU32::new(0),
            lock: AtomicU32::new(0),
        }
    }

    /// Empties the deque for a new run, with both ends at position 0. Call only while no other
    /// thread uses the deque (between runs); `owner` must be this deque's owner end.
    pub fn reset(&self, owner: &mut OwnerEnd) {
        self.reset_at(owner, 0);
    }

    /// As [`DequeState::reset`], with both ends at logical position `start` (tests use it to put
    /// the ends next to the ring's end or `u32::MAX`).
    pub fn reset_at(&self, owner: &mut OwnerEnd, start: u32) {
        // Relaxed: no other thread uses the deque now; the next run's threads are started
        // after this (thread spawn / kernel launch orders it).
        self.head.store(start, Ordering::Relaxed);
        self.count.store(0, Ordering::Relaxed);
        self.lock.store(0, Ordering::Relaxed);
        owner.tail = start;
    }
}

impl DequeState {
    /// The steal end (see the field docs). For backends that run the steps themselves, like
    /// the GPU's warp-cooperative batches.
    #[inline(always)]
    pub fn head(&self) -> &AtomicU32 {
        &self.head
    }

    /// The count of published, unclaimed entries (see the field docs).
    #[inline(always)]
    pub fn count(&self) -> &AtomicU32 {
        &self.count
    }

    /// The steal lock (see the field docs).
    #[inline(always)]
    pub fn lock(&self) -> &AtomicU32 {
        &self.lock
    }
}

impl Default for DequeState {
    fn default() -> Self {
        Self::new()
    }
}

/// The owner's private end of a deque: its `tail`. Exactly one per deque, held by the owner
/// worker (a thread, or on the GPU the owner warp's shared memory).
#[derive(Debug, Default)]
pub struct OwnerEnd {
    /// Logical position one past the newest entry. Read and written only by the owner.
    tail: u32,
}

impl OwnerEnd {
    /// An owner end at position 0, matching a freshly created or reset [`DequeState`].
    pub const fn new() -> Self {
        OwnerEnd { tail: 0 }
    }
}

/// How many entries a steal claims, given how many are available.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StealSize {
    /// As many as are available, up to the bound (the GPU's warp-sized steal).
    UpTo(u32),
    /// Half of what is available, rounded up, up to the bound (the CPU backend's steal).
    HalfUpTo(u32),
}

impl StealSize {
    /// The amount to claim when `available > 0` entries are unclaimed.
    #[inline]
    pub fn amount(self, available: u32) -> u32 {
        match self {
            StealSize::UpTo(max) => available.min(max),
            StealSize::HalfUpTo(max) => (available - available / 2).min(max),
        }
    }
}

/// What a steal attempt found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Steal {
    /// Nothing to take.
    Empty,
    /// Another thief holds the victim's lock; try elsewhere.
    Busy,
    /// This many ids were taken, written to the start of the output buffer.
    Taken(u32),
}

/// Claims up to `want(available)` of the entries counted by `count`, by CAS. Returns how many
/// were claimed (0 when none were available or `want` asked for none).
///
/// `success` is the ordering of the successful CAS: Acquire for a thief (it reads ids other
/// threads pushed), Relaxed for the owner (module docs, "Memory ordering").
#[inline]
pub fn claim(count: &AtomicU32, want: impl Fn(u32) -> u32, success: Ordering) -> u32 {
    // Relaxed: only a hint for the first CAS; the CAS itself reads the latest value.
    let mut seen = count.load(Ordering::Relaxed);
    loop {
        if seen == 0 {
            return 0;
        }
        let k = want(seen).min(seen);
        if k == 0 {
            return 0;
        }
        match count.compare_exchange(seen, seen - k, success, Ordering::Relaxed) {
            Ok(_) => return k,
            Err(now) => seen = now,
        }
    }
}

/// Publishes `n` entries whose ids were already written: `count += n` with Release.
#[inline]
pub fn publish(count: &AtomicU32, n: u32) {
    // Release: the ids written before this RMW (and the tasks' records, written before the
    // ids) are visible to any thief whose Acquire claim reads this add or a later RMW of
    // `count` (module docs, edge 1). A release RMW rather than a release fence plus a relaxed
    // RMW: on the GPU it is one `atom.release.gpu`, with no L1 invalidation.
    count.fetch_add(n, Ordering::Release);
}

/// A deque: its shared state and its ring of ids, both allocated by the host.
#[derive(Clone, Copy)]
pub struct Deque<'a> {
    state: &'a DequeState,
    ring: &'a [AtomicU32],
    mask: u32,
}

impl<'a> Deque<'a> {
    /// The deque made of `state` and `ring`.
    ///
    /// # Panics
    /// If `ring.len()` is not a power of two or exceeds [`MAX_CAPACITY`] (hosts validate their
    /// configuration before allocating).
    pub fn new(state: &'a DequeState, ring: &'a [AtomicU32]) -> Self {
        let len = ring.len();
        assert!(
            len.is_power_of_two() && len <= MAX_CAPACITY as usize,
            "deque ring length {len} is not a power of two <= 2^30"
        );
        Deque {
            state,
            ring,
            mask: len as u32 - 1,
        }
    }

    /// How many ids the ring holds.
    pub fn capacity(&self) -> u32 {
        self.mask + 1
    }

    /// Unclaimed entries right now (a snapshot; may be stale by the time it is used).
    pub fn len(&self) -> u32 {
        self.state.count.load(Ordering::Relaxed)
    }

    /// Whether the snapshot [`Deque::len`] is zero.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    #[inline(always)]
    fn slot(&self, position: u32) -> &AtomicU32 {
        &self.ring[(position & self.mask) as usize]
    }

    /// Owner: appends `ids` at the tail, oldest first, and publishes them together.
    ///
    /// Fails with [`RunError::QueueFull`] (and pushes nothing) when the ring has no room
    /// for all of them.
    pub fn push_batch(&self, owner: &mut OwnerEnd, ids: &[u32]) -> Result<(), RunError> {
        let full = RunError::QueueFull {
            capacity: self.capacity(),
        };
        let n = u32::try_from(ids.len()).map_err(|_| full)?;
        // Acquire: thieves' reads of the slots below `head` happen before we overwrite them
        // (module docs, edge 2).
        let head = self.state.head.load(Ordering::Acquire);
        let used = owner.tail.wrapping_sub(head);
        if u64::from(used) + u64::from(n) > u64::from(self.capacity()) {
            return Err(full);
        }
        for (i, &id) in ids.iter().enumerate() {
            // Relaxed: published by the Release add in `publish`.
            self.slot(owner.tail.wrapping_add(i as u32))
                .store(id, Ordering::Relaxed);
        }
        owner.tail = owner.tail.wrapping_add(n);
        publish(&self.state.count, n);
        Ok(())
    }

    /// Owner: pushes one id. See [`Deque::push_batch`].
    pub fn push(&self, owner: &mut OwnerEnd, id: u32) -> Result<(), RunError> {
        self.push_batch(owner, core::slice::from_ref(&id))
    }

    /// Owner: takes up to `out.len()` of the newest ids; returns how many. `out[0..k]` holds
    /// them oldest first (so `out[k - 1]` is the newest).
    pub fn pop_batch(&self, owner: &mut OwnerEnd, out: &mut [u32]) -> u32 {
        let max = u32::try_from(out.len()).unwrap_or(u32::MAX);
        let k = claim(&self.state.count, |_| max, Ordering::Relaxed);
        owner.tail = owner.tail.wrapping_sub(k);
        for (i, out) in out.iter_mut().take(k as usize).enumerate() {
            // Relaxed: the owner wrote these slots itself (module docs, edge 4).
            *out = self
                .slot(owner.tail.wrapping_add(i as u32))
                .load(Ordering::Relaxed);
        }
        k
    }

    /// Owner: takes the newest id, if any.
    pub fn pop(&self, owner: &mut OwnerEnd) -> Option<u32> {
        let mut id = 0;
        (self.pop_batch(owner, core::slice::from_mut(&mut id)) == 1).then_some(id)
    }

    /// Thief: takes up to `size` (and at most `out.len()`) of the oldest ids, written to the
    /// start of `out`, oldest first.
    pub fn steal_batch(&self, size: StealSize, out: &mut [u32]) -> Steal {
        // Relaxed: a cheap look before taking the lock; a stale zero only skips this victim.
        if self.state.count.load(Ordering::Relaxed) == 0 {
            return Steal::Empty;
        }
        // Acquire: the previous holder's `head` store happens before our `head` load (edge 3).
        if self
            .state
            .lock
            .compare_exchange(0, 1, Ordering::Acquire, Ordering::Relaxed)
            .is_err()
        {
            return Steal::Busy;
        }
        let room = u32::try_from(out.len()).unwrap_or(u32::MAX);
        // Acquire: see the ids the owner published (edge 1).
        let k = claim(
            &self.state.count,
            |available| size.amount(available).min(room),
            Ordering::Acquire,
        );
        if k > 0 {
            // Relaxed: under the lock only we write `head`; edge 3 ordered the last write.
            let head = self.state.head.load(Ordering::Relaxed);
            for (i, out) in out.iter_mut().take(k as usize).enumerate() {
                // Relaxed: ordered by the Acquire claim above.
                *out = self
                    .slot(head.wrapping_add(i as u32))
                    .load(Ordering::Relaxed);
            }
            // Release: our slot reads happen before the owner's overwrite (edge 2).
            self.state
                .head
                .store(head.wrapping_add(k), Ordering::Release);
        }
        // Release: the next thief sees our `head` (edge 3).
        self.state.lock.store(0, Ordering::Release);
        if k == 0 {
            Steal::Empty
        } else {
            Steal::Taken(k)
        }
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    extern crate std;
    use std::sync::Arc;
    use std::sync::atomic::AtomicBool;
    use std::vec::Vec;

    use super::*;

    struct Owned {
        state: DequeState,
        ring: Vec<AtomicU32>,
    }

    impl Owned {
        fn new(capacity: u32) -> Self {
            Owned {
                state: DequeState::new(),
                ring: (0..capacity).map(|_| AtomicU32::new(u32::MAX)).collect(),
            }
        }
        fn deque(&self) -> Deque<'_> {
            Deque::new(&self.state, &self.ring)
        }
    }

    #[test]
    fn smoke_lifo_pop_fifo_steal() {
        let q = Owned::new(8);
        let d = q.deque();
        let mut owner = OwnerEnd::new();
        d.push_batch(&mut owner, &[1, 2, 3, 4]).unwrap();
        assert_eq!(d.len(), 4);
        assert_eq!(d.pop(&mut owner), Some(4));
        let mut out = [0; 4];
        assert_eq!(d.steal_batch(StealSize::UpTo(1), &mut out), Steal::Taken(1));
        assert_eq!(out[0], 1);
        assert_eq!(
            d.steal_batch(StealSize::HalfUpTo(32), &mut out),
            Steal::Taken(1)
        );
        assert_eq!(out[0], 2);
        assert_eq!(d.pop_batch(&mut owner, &mut out), 1);
        assert_eq!(out[0], 3);
        assert_eq!(d.pop(&mut owner), None);
        assert_eq!(d.steal_batch(StealSize::UpTo(4), &mut out), Steal::Empty);
    }

    #[test]
    fn pop_batch_returns_oldest_first() {
        let q = Owned::new(8);
        let d = q.deque();
        let mut owner = OwnerEnd::new();
        d.push_batch(&mut owner, &[10, 11, 12, 13, 14]).unwrap();
        let mut out = [0; 3];
        assert_eq!(d.pop_batch(&mut owner, &mut out), 3);
        assert_eq!(out, [12, 13, 14]);
        let mut out = [0; 8];
        assert_eq!(d.steal_batch(StealSize::UpTo(8), &mut out), Steal::Taken(2));
        assert_eq!(&out[..2], &[10, 11]);
    }

    #[test]
    fn steal_half_rounds_up_and_respects_bounds() {
        assert_eq!(StealSize::HalfUpTo(32).amount(1), 1);
        assert_eq!(StealSize::HalfUpTo(32).amount(5), 3);
        assert_eq!(StealSize::HalfUpTo(32).amount(1000), 32);
        assert_eq!(StealSize::UpTo(32).amount(7), 7);
        let q = Owned::new(64);
        let d = q.deque();
        let mut owner = OwnerEnd::new();
        let ids: Vec<u32> = (0..40).collect();
        d.push_batch(&mut owner, &ids).unwrap();
        let mut out = [0; 4];
        // Bounded by the output buffer too.
        assert_eq!(
            d.steal_batch(StealSize::HalfUpTo(32), &mut out),
            Steal::Taken(4)
        );
        assert_eq!(out, [0, 1, 2, 3]);
    }

    #[test]
    fn full_is_an_error_and_steals_make_room() {
        let q = Owned::new(4);
        let d = q.deque();
        let mut owner = OwnerEnd::new();
        d.push_batch(&mut owner, &[1, 2, 3]).unwrap();
        assert_eq!(
            d.push_batch(&mut owner, &[4, 5]),
            Err(RunError::QueueFull { capacity: 4 })
        );
        d.push(&mut owner, 4).unwrap();
        assert_eq!(
            d.push(&mut owner, 5),
            Err(RunError::QueueFull { capacity: 4 })
        );
        let mut out = [0; 2];
        assert_eq!(d.steal_batch(StealSize::UpTo(2), &mut out), Steal::Taken(2));
        d.push_batch(&mut owner, &[5, 6]).unwrap();
        let mut all = [0; 4];
        assert_eq!(d.pop_batch(&mut owner, &mut all), 4);
        assert_eq!(all, [3, 4, 5, 6]);
    }

    #[test]
    fn positions_wrap_around_u32() {
        let q = Owned::new(4);
        let d = q.deque();
        let mut owner = OwnerEnd::new();
        q.state.reset_at(&mut owner, u32::MAX - 2);
        for round in 0..10u32 {
            d.push_batch(&mut owner, &[round * 3, round * 3 + 1, round * 3 + 2])
                .unwrap();
            let mut out = [0; 2];
            assert_eq!(d.steal_batch(StealSize::UpTo(2), &mut out), Steal::Taken(2));
            assert_eq!(out, [round * 3, round * 3 + 1]);
            assert_eq!(d.pop(&mut owner), Some(round * 3 + 2));
        }
    }

    #[test]
    fn busy_when_locked() {
        let q = Owned::new(4);
        let d = q.deque();
        let mut owner = OwnerEnd::new();
        d.push(&mut owner, 7).unwrap();
        q.state.lock.store(1, Ordering::Relaxed);
        let mut out = [0; 1];
        assert_eq!(d.steal_batch(StealSize::UpTo(1), &mut out), Steal::Busy);
        q.state.lock.store(0, Ordering::Relaxed);
        assert_eq!(d.steal_batch(StealSize::UpTo(1), &mut out), Steal::Taken(1));
    }

    /// Every id pushed is taken exactly once; `taken[id]` counts takes.
    fn check_exactly_once(taken: &[std::sync::atomic::AtomicU32]) {
        for (id, t) in taken.iter().enumerate() {
            assert_eq!(
                t.load(Ordering::Relaxed),
                1,
                "id {id} taken {} times",
                t.load(Ordering::Relaxed)
            );
        }
    }

    /// Many thieves, one owner that pushes everything in bursts and pops as well.
    #[test]
    fn stampede() {
        const IDS: u32 = 200_000;
        const THIEVES: usize = 8;
        let q = Arc::new(Owned::new(1 << 12));
        let taken: Arc<Vec<std::sync::atomic::AtomicU32>> = Arc::new(
            (0..IDS)
                .map(|_| std::sync::atomic::AtomicU32::new(0))
                .collect(),
        );
        let finished = Arc::new(AtomicBool::new(false));
        let thieves: Vec<_> = (0..THIEVES)
            .map(|t| {
                let (q, taken, finished) = (q.clone(), taken.clone(), finished.clone());
                std::thread::spawn(move || {
                    let d = q.deque();
                    let mut out = [0; STEAL_MAX as usize];
                    let size = if t % 2 == 0 {
                        StealSize::HalfUpTo(STEAL_MAX)
                    } else {
                        StealSize::UpTo(3)
                    };
                    loop {
                        match d.steal_batch(size, &mut out) {
                            Steal::Taken(k) => {
                                for &id in &out[..k as usize] {
                                    taken[id as usize].fetch_add(1, Ordering::Relaxed);
                                }
                            }
                            Steal::Busy => core::hint::spin_loop(),
                            Steal::Empty if finished.load(Ordering::Acquire) => break,
                            Steal::Empty => std::thread::yield_now(),
                        }
                    }
                })
            })
            .collect();
        let d = q.deque();
        let mut owner = OwnerEnd::new();
        let mut next = 0u32;
        let mut out = [0; 4];
        while next < IDS {
            let burst: Vec<u32> = (next..(next + 64).min(IDS)).collect();
            match d.push_batch(&mut owner, &burst) {
                Ok(()) => next += burst.len() as u32,
                Err(_) => {
                    // Full: the owner takes some itself.
                    let k = d.pop_batch(&mut owner, &mut out);
                    for &id in &out[..k as usize] {
                        taken[id as usize].fetch_add(1, Ordering::Relaxed);
                    }
                }
            }
            if next.is_multiple_of(1024)
                && let Some(id) = d.pop(&mut owner)
            {
                taken[id as usize].fetch_add(1, Ordering::Relaxed);
            }
        }
        while let Some(id) = d.pop(&mut owner) {
            taken[id as usize].fetch_add(1, Ordering::Relaxed);
        }
        finished.store(true, Ordering::Release);
        for t in thieves {
            t.join().unwrap();
        }
        check_exactly_once(&taken);
    }

    /// Random owner pushes and pops racing with thieves on a small ring that wraps often.
    #[test]
    fn stress_small_ring() {
        const IDS: u32 = 100_000;
        let q = Arc::new(Owned::new(16));
        let taken: Arc<Vec<std::sync::atomic::AtomicU32>> = Arc::new(
            (0..IDS)
                .map(|_| std::sync::atomic::AtomicU32::new(0))
                .collect(),
        );
        let finished = Arc::new(AtomicBool::new(false));
        let thieves: Vec<_> = (0..3)
            .map(|_| {
                let (q, taken, finished) = (q.clone(), taken.clone(), finished.clone());
                std::thread::spawn(move || {
                    let d = q.deque();
                    let mut out = [0; 8];
                    loop {
                        match d.steal_batch(StealSize::HalfUpTo(8), &mut out) {
                            Steal::Taken(k) => {
                                for &id in &out[..k as usize] {
                                    taken[id as usize].fetch_add(1, Ordering::Relaxed);
                                }
                            }
                            Steal::Empty if finished.load(Ordering::Acquire) => break,
                            _ => core::hint::spin_loop(),
                        }
                    }
                })
            })
            .collect();
        let d = q.deque();
        let mut owner = OwnerEnd::new();
        let mut rng = super::super::rng::XorShift32::for_worker(0);
        let mut next = 0u32;
        while next < IDS {
            if rng.next_u32().is_multiple_of(3) {
                if let Some(id) = d.pop(&mut owner) {
                    taken[id as usize].fetch_add(1, Ordering::Relaxed);
                }
            } else if d.push(&mut owner, next).is_ok() {
                next += 1;
            }
        }
        while let Some(id) = d.pop(&mut owner) {
            taken[id as usize].fetch_add(1, Ordering::Relaxed);
        }
        finished.store(true, Ordering::Release);
        for t in thieves {
            t.join().unwrap();
        }
        check_exactly_once(&taken);
    }
}

/// Model-checked: `RUSTFLAGS="--cfg loom" cargo test -p gtap-device --release --lib loom`.
#[cfg(all(test, loom))]
mod loom_tests {
    extern crate std;
    use std::sync::Arc;
    use std::vec::Vec;

    use loom::thread;

    use super::*;

    struct Owned {
        state: DequeState,
        ring: Vec<AtomicU32>,
    }

    fn owned(capacity: u32) -> Arc<Owned> {
        Arc::new(Owned {
            state: DequeState::new(),
            ring: (0..capacity).map(|_| AtomicU32::new(u32::MAX)).collect(),
        })
    }

    impl Owned {
        fn deque(&self) -> Deque<'_> {
            Deque::new(&self.state, &self.ring)
        }
    }

    /// Collects taken ids and checks each of `expected` was taken exactly once.
    fn assert_each_once(mut got: Vec<u32>, expected: &[u32]) {
        got.sort_unstable();
        let mut want = expected.to_vec();
        want.sort_unstable();
        assert_eq!(got, want);
    }

    /// The owner pops while a thief steals; the ring wraps (ends start at position 1 of 2).
    #[test]
    fn loom_pop_races_steal_across_ring_end() {
        loom::model(|| {
            let q = owned(2);
            let mut owner = OwnerEnd::new();
            q.state.reset_at(&mut owner, 1);
            q.deque().push_batch(&mut owner, &[10, 11]).unwrap();
            let thief = {
                let q = q.clone();
                thread::spawn(move || {
                    let mut out = [0; 2];
                    match q.deque().steal_batch(StealSize::UpTo(2), &mut out) {
                        Steal::Taken(k) => out[..k as usize].to_vec(),
                        _ => Vec::new(),
                    }
                })
            };
            let mut got = Vec::new();
            if let Some(id) = q.deque().pop(&mut owner) {
                got.push(id);
            }
            got.extend(thief.join().unwrap());
            while let Some(id) = q.deque().pop(&mut owner) {
                got.push(id);
            }
            assert_each_once(got, &[10, 11]);
        });
    }

    /// A push published while a thief steals: the thief sees either nothing or the written id,
    /// never a stale ring entry; with `u32` positions wrapping during the run.
    #[test]
    fn loom_push_publishes_to_thief_across_u32_wrap() {
        loom::model(|| {
            let q = owned(2);
            let mut owner = OwnerEnd::new();
            q.state.reset_at(&mut owner, u32::MAX);
            q.deque().push(&mut owner, 20).unwrap();
            let thief = {
                let q = q.clone();
                thread::spawn(move || {
                    let mut got = Vec::new();
                    let mut out = [0; 2];
                    for _ in 0..2 {
                        if let Steal::Taken(k) =
                            q.deque().steal_batch(StealSize::HalfUpTo(2), &mut out)
                        {
                            got.extend_from_slice(&out[..k as usize]);
                        }
                    }
                    got
                })
            };
            q.deque().push(&mut owner, 21).unwrap();
            let mut got = thief.join().unwrap();
            while let Some(id) = q.deque().pop(&mut owner) {
                got.push(id);
            }
            assert_each_once(got, &[20, 21]);
        });
    }

    /// The owner refills a full ring while a thief is still reading its slots: either the push
    /// sees no room, or the thief's read of the slot happened before the overwrite.
    #[test]
    fn loom_push_never_overwrites_slot_being_stolen() {
        loom::model(|| {
            let q = owned(2);
            let mut owner = OwnerEnd::new();
            q.deque().push_batch(&mut owner, &[30, 31]).unwrap();
            let thief = {
                let q = q.clone();
                thread::spawn(move || {
                    let mut out = [0; 1];
                    match q.deque().steal_batch(StealSize::UpTo(1), &mut out) {
                        Steal::Taken(1) => Some(out[0]),
                        _ => None,
                    }
                })
            };
            let mut pushed = std::vec![30, 31];
            if q.deque().push(&mut owner, 32).is_ok() {
                pushed.push(32);
            }
            let mut got: Vec<u32> = thief.join().unwrap().into_iter().collect();
            while let Some(id) = q.deque().pop(&mut owner) {
                got.push(id);
            }
            let mut out = [0; 2];
            if let Steal::Taken(k) = q.deque().steal_batch(StealSize::UpTo(2), &mut out) {
                got.extend_from_slice(&out[..k as usize]);
            }
            assert_each_once(got, &pushed);
        });
    }

    /// Two thieves and the owner's pop contend for two entries.
    #[test]
    fn loom_two_thieves_and_owner() {
        loom::model(|| {
            let q = owned(2);
            let mut owner = OwnerEnd::new();
            q.deque().push_batch(&mut owner, &[40, 41]).unwrap();
            let thieves: Vec<_> = (0..2)
                .map(|_| {
                    let q = q.clone();
                    thread::spawn(move || {
                        let mut out = [0; 1];
                        match q.deque().steal_batch(StealSize::UpTo(1), &mut out) {
                            Steal::Taken(1) => Some(out[0]),
                            _ => None,
                        }
                    })
                })
                .collect();
            let mut got = Vec::new();
            if let Some(id) = q.deque().pop(&mut owner) {
                got.push(id);
            }
            for t in thieves {
                got.extend(t.join().unwrap());
            }
            while let Some(id) = q.deque().pop(&mut owner) {
                got.push(id);
            }
            assert_each_once(got, &[40, 41]);
        });
    }
}
