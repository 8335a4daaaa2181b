//! The barriers of a CPU team: [`Block::sync`](crate::task::Block::sync)'s and the checked
//! one of [`Block::agree`](crate::task::Block::agree), as the GPU has `bar.sync 0` and a
//! barrier of its own for `agree`.
//!
//! Both are one `SpinBarrier`, a count and a generation, which also ANDs a flag over the
//! arrivals (the GPU's `barrier.red.and`). `agree` is two of its waits: the leader stores its
//! key before the first, every thread compares it with its own between them, and the second
//! ANDs the comparisons. The leader stores the next key only after the second, when every
//! thread has read this one.
//!
//! A wait gives up when the run was aborted (an error, a panic, the timeout): a teammate may
//! then never arrive. `sync` then returns; `agree` answers `None`, and its caller stops the
//! task rather than run on past a barrier that did not hold.
//!
//! # Memory ordering
//! - An arrival's count increment is AcqRel: the last arriver acquires every other arriver's
//!   writes before it releases the next generation, which the waiters acquire. So every write
//!   before a wait (the key, a flag, the caller's data) is visible after it to every thread.
//! - A thread's `nay` increment is Relaxed: it comes before the thread's AcqRel arrival, which
//!   the last arriver acquires before it reads the count; the verdict it stores is Relaxed,
//!   published by its Release bump of the generation.
//! - Each generation uses the flag words of its parity. The last arriver of generation `g`
//!   clears the other parity's `nay` before releasing `g`: every thread has arrived at `g`, so
//!   none still reads the verdict of `g - 1`, and none counts a nay for `g + 1` before it sees
//!   generation `g + 1`.

use crate::runtime::sync::{AtomicU32, AtomicU64, Ordering, spin_loop};
use crate::runtime::termination::{ABORT, Termination};
use crate::task::block::{AGREE_WORDS, AgreeKey, TeamEnv};

/// The barriers a team's threads share.
pub struct TeamSync {
    barrier: SpinBarrier,
    agree: SpinBarrier,
    /// The leader's key at the current `agree`.
    key: [AtomicU64; AGREE_WORDS],
}

impl TeamSync {
    /// A team's barriers, nobody waiting.
    pub fn new() -> Self {
        TeamSync {
            barrier: SpinBarrier::new(),
            agree: SpinBarrier::new(),
            // `from_fn`, not `[const { .. }; N]`: loom's atomics have no const constructor.
            key: core::array::from_fn(|_| AtomicU64::new(0)),
        }
    }

    /// `Block::sync` for a team of `size`: waits for every thread, or until `aborted()`.
    pub fn sync(&self, size: u32, idle: fn(), aborted: impl Fn() -> bool) {
        self.barrier.wait_and(true, size, idle, aborted);
    }

    /// `Block::agree` for thread `index` of a team of `size`: whether every thread came with
    /// the leader's `key`, or `None` if the run was aborted meanwhile.
    pub fn agree(
        &self,
        index: u32,
        size: u32,
        key: &AgreeKey,
        idle: fn(),
        aborted: impl Fn() -> bool,
    ) -> Option<bool> {
        if index == 0 {
            for (slot, &w) in self.key.iter().zip(key) {
                // Relaxed: published by this thread's arrival below (module docs).
                slot.store(w, Ordering::Relaxed);
            }
        }
        self.agree.wait_and(true, size, idle, &aborted)?;
        // Relaxed: the leader's stores came before its arrival, acquired by the wait above.
        let same = self
            .key
            .iter()
            .zip(key)
            .all(|(slot, &w)| slot.load(Ordering::Relaxed) == w);
        self.agree.wait_and(same, size, idle, &aborted)
    }
}

impl Default for TeamSync {
    fn default() -> Self {
        Self::new()
    }
}

/// Whether the run was aborted (an error, a panic, the timeout).
pub(super) fn aborted(termination: &Termination) -> bool {
    termination.stop() & ABORT != 0
}

/// Spins (then calls `idle` between checks) until `done()`.
pub(super) fn wait_until(idle: fn(), done: impl Fn() -> bool) {
    let mut round = 0u32;
    while !done() {
        if round < 6 {
            for _ in 0..(1u32 << round) {
                spin_loop();
            }
            round += 1;
        } else {
            idle();
        }
    }
}

/// A reusable barrier: a count and a generation, and per generation parity the arrivals that
/// passed `false` and the verdict (module docs).
struct SpinBarrier {
    count: AtomicU32,
    generation: AtomicU32,
    nays: [AtomicU32; 2],
    verdict: [AtomicU32; 2],
}

impl SpinBarrier {
    fn new() -> Self {
        SpinBarrier {
            count: AtomicU32::new(0),
            generation: AtomicU32::new(0),
            nays: core::array::from_fn(|_| AtomicU32::new(0)),
            verdict: core::array::from_fn(|_| AtomicU32::new(0)),
        }
    }

    /// Waits for `size` arrivals; returns whether every one passed `pred`, or `None` if
    /// `aborted()` came first.
    fn wait_and(
        &self,
        pred: bool,
        size: u32,
        idle: fn(),
        aborted: impl Fn() -> bool,
    ) -> Option<bool> {
        // Acquire on the generation read first: this thread's arrival belongs to it.
        let generation = self.generation.load(Ordering::Acquire);
        let p = (generation % 2) as usize;
        if !pred {
            self.nays[p].fetch_add(1, Ordering::Relaxed);
        }
        if self.count.fetch_add(1, Ordering::AcqRel) + 1 == size {
            let all = self.nays[p].load(Ordering::Relaxed) == 0;
            self.verdict[p].store(u32::from(all), Ordering::Relaxed);
            self.nays[1 - p].store(0, Ordering::Relaxed);
            // Relaxed: ordered before the Release bump below, which the waiters acquire
            // before they can arrive at the next use.
            self.count.store(0, Ordering::Relaxed);
            self.generation.fetch_add(1, Ordering::Release);
            return Some(all);
        }
        wait_until(idle, || {
            self.generation.load(Ordering::Acquire) != generation || aborted()
        });
        if self.generation.load(Ordering::Acquire) == generation {
            return None;
        }
        Some(self.verdict[p].load(Ordering::Relaxed) != 0)
    }
}

/// A team of plain threads outside any run (nothing aborts it), for tests of block-task code:
/// each thread calls [`StandaloneTeam::env`] and installs it with
/// [`crate::task::block::set_team_env`].
pub struct StandaloneTeam {
    sync: TeamSync,
    size: u32,
    idle: fn(),
}

impl StandaloneTeam {
    /// A team of `size` threads that call `idle` while they wait (after a short spin): give
    /// it `std::thread::yield_now` when the team may have more threads than cores.
    pub fn new(size: u32, idle: fn()) -> Self {
        StandaloneTeam {
            sync: TeamSync::new(),
            size,
            idle,
        }
    }

    /// Thread `index`'s environment, with `scratch_len` bytes of scratch at `scratch`. The
    /// team must outlive every block-task call the thread makes with it.
    pub fn env(&self, index: u32, scratch: *mut u8, scratch_len: usize) -> TeamEnv {
        fn barrier(arg: *const ()) {
            // SAFETY: `arg` is the `StandaloneTeam` that made this environment, alive while
            // its threads use it (`env`'s contract).
            let t = unsafe { &*arg.cast::<StandaloneTeam>() };
            t.sync.sync(t.size, t.idle, || false);
        }
        fn agree(arg: *const (), index: u32, key: &AgreeKey) -> Option<bool> {
            // SAFETY: as in `barrier`.
            let t = unsafe { &*arg.cast::<StandaloneTeam>() };
            t.sync.agree(index, t.size, key, t.idle, || false)
        }
        TeamEnv {
            index,
            size: self.size,
            barrier,
            agree,
            barrier_arg: core::ptr::from_ref(self).cast(),
            scratch,
            scratch_len,
        }
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    extern crate std;
    use std::vec::Vec;

    use super::*;
    use crate::runtime::sync::AtomicU32;

    /// Runs `f(index)` on a team of `size` threads sharing `sync`; returns what each returned.
    fn on_team<R: Send>(size: u32, f: impl Fn(u32) -> R + Sync) -> Vec<R> {
        let f = &f;
        std::thread::scope(|s| {
            let hs: Vec<_> = (0..size).map(|i| s.spawn(move || f(i))).collect();
            hs.into_iter().map(|h| h.join().unwrap()).collect()
        })
    }

    #[test]
    fn every_thread_hears_whether_all_keys_were_the_leaders() {
        for size in [1u32, 2, 3, 8] {
            let sync = TeamSync::new();
            let got = on_team(size, |i| {
                (0..50u64)
                    .map(|round| {
                        // In odd rounds the last thread comes with another key.
                        let odd_one = round % 2 == 1 && i == size - 1 && size > 1;
                        let key = [round, 7, 7, 7, 7, u64::from(odd_one)];
                        sync.agree(i, size, &key, std::thread::yield_now, || false)
                            .unwrap()
                    })
                    .collect::<Vec<_>>()
            });
            for (i, rounds) in got.iter().enumerate() {
                for (round, &all) in rounds.iter().enumerate() {
                    let expected = size == 1 || round % 2 == 0;
                    assert_eq!(all, expected, "team {size}, thread {i}, round {round}");
                }
            }
        }
    }

    #[test]
    fn the_flag_and_of_a_barrier_is_per_generation() {
        let sync = TeamSync::new();
        let size = 4;
        let got = on_team(size, |i| {
            (0..100u32)
                .map(|g| {
                    let pred = g % 3 != 0 || i != g % size;
                    sync.agree
                        .wait_and(pred, size, std::thread::yield_now, || false)
                })
                .collect::<Vec<_>>()
        });
        for rounds in &got {
            for (g, &all) in rounds.iter().enumerate() {
                assert_eq!(all, Some(g % 3 != 0), "generation {g}");
            }
        }
    }

    #[test]
    fn a_wait_gives_up_when_the_run_is_aborted() {
        let sync = TeamSync::new();
        let abort = AtomicU32::new(0);
        let got = on_team(2, |i| {
            if i == 0 {
                // Thread 1 never comes; the abort releases thread 0.
                sync.agree(0, 2, &[0; AGREE_WORDS], std::thread::yield_now, || {
                    abort.load(Ordering::Relaxed) != 0
                })
            } else {
                std::thread::sleep(std::time::Duration::from_millis(20));
                abort.store(1, Ordering::Relaxed);
                Some(true)
            }
        });
        assert_eq!(got, [None, Some(true)]);
    }
}

#[cfg(all(test, loom))]
mod loom_tests {
    extern crate std;
    use std::sync::Arc;

    use loom::cell::UnsafeCell;
    use loom::thread;

    use super::*;

    /// A team of two and a word that the follower writes before an `agree` and the leader
    /// reads after it.
    struct Team {
        sync: TeamSync,
        word: UnsafeCell<u32>,
    }

    // SAFETY: test-only; `word` is the data whose ordering the model checks (loom reports any
    // unordered access as a race).
    unsafe impl Sync for Team {}

    fn key(k: u64) -> AgreeKey {
        [k; AGREE_WORDS]
    }

    /// Thread `index`'s three agreements: keys equal, then the follower's differs, then equal
    /// again (the verdict of one generation does not leak into the next).
    fn member(t: &Team, index: u32) -> [Option<bool>; 3] {
        let first = if index == 1 {
            // SAFETY: only the follower writes, before the first agreement; loom reports any
            // access the barrier does not order.
            t.word.with_mut(|w| unsafe { *w = 7 });
            t.sync.agree(index, 2, &key(1), spin_loop, || false)
        } else {
            let all = t.sync.agree(index, 2, &key(1), spin_loop, || false);
            // SAFETY: the follower's write came before its arrival (what loom checks).
            assert_eq!(t.word.with(|w| unsafe { *w }), 7);
            all
        };
        let second = t
            .sync
            .agree(index, 2, &key(2 + u64::from(index)), spin_loop, || false);
        let third = t.sync.agree(index, 2, &key(9), spin_loop, || false);
        [first, second, third]
    }

    #[test]
    fn loom_agree_orders_writes_and_answers_each_round() {
        let mut model = loom::model::Builder::new();
        model.preemption_bound = Some(2);
        model.check(|| {
            let t = Arc::new(Team {
                sync: TeamSync::new(),
                word: UnsafeCell::new(0),
            });
            let follower = {
                let t = t.clone();
                thread::spawn(move || member(&t, 1))
            };
            let leader = member(&t, 0);
            let expected = [Some(true), Some(false), Some(true)];
            assert_eq!(leader, expected);
            assert_eq!(follower.join().unwrap(), expected);
        });
    }
}
