//! [`TeamMut`]: an exclusive view of an array lent to a block task, of which each thread of
//! the team may touch only its own share.
//!
//! A block task's frame is copied to every thread of its team, so an exclusive view
//! (`ViewMut`) as a block task's argument would be held by every thread at once. A block task
//! may instead declare the parameter as a `TeamMut`: its callers pass a `ViewMut` (lent, as
//! to any child, until the `taskwait!()` that joins it), and inside the task each thread
//! holds a `TeamMut` that gives it its equal share of the elements, by its index in the team
//! ([`TeamMut::share`]). The shares of different threads are disjoint, so each thread's
//! `&mut [T]` is the only access to its elements.
//!
//! What keeps that true:
//! - a thread gets its share through `&mut self`, so it cannot hold two at once;
//! - a `TeamMut` is neither `Copy` nor `Clone`, and not `Send`: a thread cannot pass it on to
//!   a child task (task arguments must be `Send`), where a child block's threads would get
//!   the same shares as the parent's;
//! - the share is picked by [`Block`], whose index is the calling thread's own;
//! - the runtime copies a block task's frame to every thread bytewise (each thread then holds
//!   one `TeamMut`), never through `Clone`.
//!
//! `#[gtap::task(block)]` does the conversion: a parameter declared `TeamMut<'_, T>` is a
//! `ViewMut<'_, T>` in the task's constructor, and each thread starts with it as a
//! `TeamMut`.
//!
//! # Passes: reading the whole array, between checked barriers
//! A block-wide merge pass writes each thread's share of one array from anywhere in another,
//! and the next pass swaps the two ([`TeamMut::pass_from`]). Reading other threads' shares is
//! sound only while no thread writes them, which holds when every thread is in the same pass:
//! between the barrier before it (every earlier write of the source, by any thread, is done
//! and visible) and the barrier after it (no thread writes the source again before every
//! thread has stopped reading it).
//!
//! Plain barriers cannot show that: one pairs the `n`-th arrival of each thread, wherever it
//! comes from, so a thread that branched on its index into another pass, or into
//! [`Block::sync`] and a write of its share of the source, would meet the others at the same
//! barriers and write what they read. So a pass's barriers are [`Block::agree`]s, on a barrier
//! of their own, with the pass's two views (and whether it is the start or the end) as the
//! key, in a domain only this module names. A pass goes ahead only when every thread of the
//! team is at the start of a pass of the same two views, and it returns only when every
//! thread is at the end of that pass; otherwise every thread panics (a trap on the GPU, a
//! failed run on either backend), before any thread reads or writes through the pass.

use core::marker::PhantomData;

use super::Plain;
use super::home::Raw;
use super::view::ViewMut;
use crate::task::block::AGREE_KEY_WORDS;
use crate::task::{AgreeDomain, Block};

/// The domains of a pass's two checked barriers (module docs).
static PASS_START: AgreeDomain = AgreeDomain::new();
static PASS_END: AgreeDomain = AgreeDomain::new();

/// An exclusive view of `len` elements lent to a block task; each thread of the team may
/// reach only its share (see the module docs).
///
/// ```ignore
/// #[gtap::task(block)]
/// fn double(b: Block, mut xs: TeamMut<'_, u32>) {
///     for x in xs.share(b) {
///         *x *= 2;
///     }
/// }
/// // a thread task: spawn!(double(view_mut)); taskwait!();
/// ```
pub struct TeamMut<'a, T> {
    raw: Raw<T>,
    _borrow: PhantomData<&'a mut [T]>,
    /// Not `Send`, not `Sync`: a thread's `TeamMut` stays with the thread.
    _here: PhantomData<*mut ()>,
}

impl<'a, T: Plain> TeamMut<'a, T> {
    /// The view `view`, as one thread of a block task's team holds it.
    ///
    /// # Safety
    /// Only the code `#[gtap::task(block)]` generates calls it, once per thread of the team
    /// that runs the task, with the view the task was given (so the team as a whole holds it
    /// exclusively, and each thread only ever reaches its own share).
    #[doc(hidden)]
    #[inline(always)]
    pub unsafe fn __from_view(view: ViewMut<'a, T>) -> Self {
        TeamMut {
            raw: view.raw(),
            _borrow: PhantomData,
            _here: PhantomData,
        }
    }

    /// The number of elements of the whole view (every thread's shares together).
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.raw.len()
    }

    /// Whether the view has no elements.
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Where thread `b.index()`'s share lies in the view: `[len x i / size, len x (i + 1) /
    /// size)` for thread `i` of `size`, equal shares in thread order.
    #[inline(always)]
    pub fn share_bounds(&self, b: Block) -> (usize, usize) {
        share_of(self.len(), b.index() as usize, b.size() as usize)
    }

    /// This thread's share of the elements, for reading and writing.
    ///
    /// # Panics
    /// If they are in the other backend's memory (see [`Home`](super::Home)).
    #[inline(always)]
    #[track_caller]
    pub fn share(&mut self, b: Block) -> &mut [T] {
        let (lo, hi) = self.share_bounds(b);
        let ptr = self.raw.checked_ptr();
        // SAFETY: `lo <= hi <= len` (`share_of`), so the range is inside the view, which is
        // valid here (checked home, `__from_view`'s contract). No other thread's share
        // overlaps it (the shares partition the view by thread index), and `&mut self`
        // makes the slice this thread's only access while it lives.
        unsafe { core::slice::from_raw_parts_mut(ptr.as_ptr().add(lo), hi - lo) }
    }

    /// One pass of the team from `src` into `self`: `f` gets all of `src`, to read, and this
    /// thread's share of `self` ([`TeamMut::share`]), to write, between two checked barriers
    /// of the team (see the module docs). Returns what `f` returns.
    ///
    /// Every thread of the team makes the same passes in the same order, with the same two
    /// views, as with [`Block::sync`]; `&mut` on both views keeps this thread from holding a
    /// share of either meanwhile.
    ///
    /// # Panics
    /// On every thread of the team, if the threads did not all come to a pass of the same two
    /// views (or did not all finish it together); and if either view is in the other
    /// backend's memory (see [`Home`](super::Home)).
    #[inline(always)]
    #[track_caller]
    pub fn pass_from<R>(
        &mut self,
        b: Block,
        src: &mut TeamMut<'_, T>,
        f: impl FnOnce(&[T], &mut [T]) -> R,
    ) -> R {
        let from = src.raw.checked_ptr();
        let key = self.agree_key(src);
        if !b.agree(&PASS_START, key) {
            panic!("TeamMut::pass_from: the team's threads came to different passes");
        }
        // SAFETY: `src` is valid here (checked home, `__from_view`'s contract) and not
        // written until every thread has ended this pass: every thread is at the start of a
        // pass from `src` into `self` (the agreement above), where threads write only their
        // shares of `self`, whose memory is not `src`'s (two views a task was lent
        // exclusively), and none leaves it before all agree at its end below; this thread's
        // `&mut src` keeps its own shares of `src` away while the slice lives.
        let all = unsafe { core::slice::from_raw_parts(from.as_ptr(), src.len()) };
        let out = f(all, self.share(b));
        if !b.agree(&PASS_END, key) {
            panic!("TeamMut::pass_from: the team's threads did not end the same pass together");
        }
        out
    }

    /// A key for [`Block::agree`] that names this view and `other` (their addresses and
    /// lengths): threads that agree on it hold the same two views, for a block-wide
    /// operation on both.
    ///
    /// # Panics
    /// If either view is in the other backend's memory (see [`Home`](super::Home)).
    #[inline(always)]
    #[track_caller]
    pub fn agree_key(&self, other: &TeamMut<'_, T>) -> [u64; AGREE_KEY_WORDS] {
        [
            self.raw.checked_ptr().as_ptr().addr() as u64,
            self.len() as u64,
            other.raw.checked_ptr().as_ptr().addr() as u64,
            other.len() as u64,
            0,
        ]
    }

    /// The address of the whole view's first element, for unsafe code that orders the team's
    /// accesses to the whole view itself (with the team's barriers): an access outside this
    /// thread's share must not meet another thread's access to the same element with either
    /// writing, and a reference made from it must not cover elements another thread writes
    /// while it lives.
    ///
    /// # Panics
    /// If the view is in the other backend's memory (see [`Home`](super::Home)).
    #[inline(always)]
    #[track_caller]
    pub fn as_mut_ptr(&mut self) -> *mut T {
        self.raw.checked_ptr().as_ptr()
    }
}

/// Share `k` of `of` equal shares of `0..n`: `[n k / of, n (k + 1) / of)` (empty for
/// `k >= of`), computed without overflow for any `n`.
#[inline(always)]
pub fn share_of(n: usize, k: usize, of: usize) -> (usize, usize) {
    let of = of.max(1);
    let at = |k: usize| {
        let k = k.min(of);
        match n.checked_mul(k) {
            Some(nk) => nk / of,
            // In 128 bits where `n * k` does not fit (`n` near `usize::MAX`).
            None => ((n as u128 * k as u128) / of as u128) as usize,
        }
    };
    (at(k), at(k + 1))
}

#[cfg(all(test, not(target_arch = "nvptx64")))]
mod tests {
    extern crate std;
    use std::vec::Vec;

    use super::*;
    use crate::runtime::cpu::StandaloneTeam;
    use crate::task::block::set_team_env;

    #[test]
    fn shares_partition_the_range_in_thread_order() {
        for n in [0, 1, 5, 64, 1000, usize::MAX] {
            for of in 1..=9 {
                let mut next = 0;
                for k in 0..of {
                    let (lo, hi) = share_of(n, k, of);
                    assert_eq!(lo, next, "n {n}, share {k} of {of}");
                    assert!(hi >= lo);
                    next = hi;
                }
                assert_eq!(next, n, "n {n}, {of} shares");
                assert_eq!(share_of(n, of, of), (n, n));
            }
        }
    }

    /// The team's shared pointers, handed to its threads (Miri-friendly: no integer casts).
    #[derive(Clone, Copy)]
    struct Shared {
        xs: *mut u32,
        ys: *mut u32,
        team: *const StandaloneTeam,
    }
    // SAFETY: the test's threads use the pointers only as the module docs allow (each its
    // own share; the team's barriers are atomics).
    unsafe impl Send for Shared {}

    /// Makes the calling thread member `index` of `team`, with no scratch.
    fn join_team(index: usize, team: *const StandaloneTeam) {
        // SAFETY: the team outlives the scope its threads run in.
        let team = unsafe { &*team };
        set_team_env(team.env(index as u32, core::ptr::null_mut(), 0));
    }

    /// This thread's `TeamMut`s of both vectors of `x` (`n` elements each) and its `Block`.
    ///
    /// # Safety
    /// Both vectors hold `n` elements and outlive the thread's use of the views; the team as
    /// a whole is their only user, and each thread calls this once, after `join_team`.
    unsafe fn both_views(
        x: Shared,
        n: usize,
    ) -> (TeamMut<'static, u32>, TeamMut<'static, u32>, Block) {
        let home = crate::data::Home::HERE;
        // SAFETY: this function's contract, as the block-task macro does once per thread.
        unsafe {
            (
                TeamMut::__from_view(ViewMut::from_raw_parts(x.xs, n, home)),
                TeamMut::__from_view(ViewMut::from_raw_parts(x.ys, n, home)),
                Block::__new(),
            )
        }
    }

    #[test]
    fn each_thread_of_a_team_writes_its_share() {
        for team in [1usize, 2, 3, 8] {
            let mut xs: Vec<u32> = (0..100).collect();
            let bar = StandaloneTeam::new(team as u32, std::thread::yield_now);
            let len = xs.len();
            let shared = Shared {
                xs: xs.as_mut_ptr(),
                ys: core::ptr::null_mut(),
                team: &raw const bar,
            };
            std::thread::scope(|s| {
                for index in 0..team {
                    s.spawn(move || {
                        let shared = shared;
                        join_team(index, shared.team);
                        // SAFETY: the vector outlives the scope, and the team as a whole is
                        // its only user (no thread makes a reference to all of it); this
                        // thread is one of the team.
                        let (view, b) = unsafe {
                            let home = crate::data::Home::HERE;
                            (
                                ViewMut::from_raw_parts(shared.xs, len, home),
                                Block::__new(),
                            )
                        };
                        // SAFETY: as the block-task macro does, once per thread of the team.
                        let mut mine = unsafe { TeamMut::__from_view(view) };
                        for x in mine.share(b) {
                            *x = *x * 10 + index as u32;
                        }
                    });
                }
            });
            for (i, x) in xs.iter().enumerate() {
                let owner = (0..team).find(|&k| share_of(100, k, team).1 > i).unwrap();
                assert_eq!(*x, i as u32 * 10 + owner as u32, "team {team}, element {i}");
            }
        }
    }

    /// Runs `f(index, x, y, b)` on every thread of a team of `team` with its `TeamMut`s of
    /// `xs` and `ys` (as long); returns what each thread returned, in index order.
    fn on_two_views<R: Send>(
        team: usize,
        xs: &mut [u32],
        ys: &mut [u32],
        f: impl Fn(usize, &mut TeamMut<'_, u32>, &mut TeamMut<'_, u32>, Block) -> R + Sync,
    ) -> Vec<R> {
        let n = xs.len();
        assert_eq!(ys.len(), n);
        let bar = StandaloneTeam::new(team as u32, std::thread::yield_now);
        let x = Shared {
            xs: xs.as_mut_ptr(),
            ys: ys.as_mut_ptr(),
            team: &raw const bar,
        };
        let f = &f;
        std::thread::scope(|s| {
            let hs: Vec<_> = (0..team)
                .map(|index| {
                    s.spawn(move || {
                        let x = x;
                        join_team(index, x.team);
                        // SAFETY: the slices outlive the scope, and the team is their only
                        // user meanwhile.
                        let (mut xv, mut yv, b) = unsafe { both_views(x, n) };
                        f(index, &mut xv, &mut yv, b)
                    })
                })
                .collect();
            hs.into_iter().map(|h| h.join().unwrap()).collect()
        })
    }

    #[test]
    fn passes_read_the_whole_source_and_write_shares_both_ways() {
        for team in [1usize, 2, 3, 8] {
            let n = 50;
            let mut xs: Vec<u32> = (0..n as u32).collect();
            let mut ys = std::vec![0u32; n];
            on_two_views(team, &mut xs, &mut ys, |_, xv, yv, b| {
                let (lo, _) = yv.share_bounds(b);
                // y[i] = x[n - 1 - i], then x[i] = y[n - 1 - i] + 1.
                yv.pass_from(b, xv, |src, out| {
                    for (k, o) in out.iter_mut().enumerate() {
                        *o = src[n - 1 - (lo + k)];
                    }
                });
                xv.pass_from(b, yv, |src, out| {
                    for (k, o) in out.iter_mut().enumerate() {
                        *o = src[n - 1 - (lo + k)] + 1;
                    }
                });
            });
            let expected: Vec<u32> = (1..=n as u32).collect();
            assert_eq!(xs, expected, "team {team}");
            assert_eq!(ys, (0..n as u32).rev().collect::<Vec<_>>(), "team {team}");
        }
    }

    #[test]
    fn threads_that_come_to_different_passes_all_panic_before_touching_the_data() {
        let team = 3usize;
        let n = 30;
        let mut xs: Vec<u32> = (0..n as u32).collect();
        let mut ys = std::vec![0u32; n];
        let outcomes = on_two_views(team, &mut xs, &mut ys, |index, xv, yv, b| {
            std::panic::catch_unwind(core::panic::AssertUnwindSafe(|| {
                // The last thread passes the other way.
                if index == team - 1 {
                    xv.pass_from(b, yv, |_, out| out.fill(7));
                } else {
                    yv.pass_from(b, xv, |_, out| out.fill(7));
                }
            }))
            .is_err()
        });
        assert_eq!(outcomes, [true; 3], "every thread panics");
        assert_eq!(xs, (0..n as u32).collect::<Vec<_>>(), "nothing written");
        assert_eq!(ys, std::vec![0u32; n], "nothing written");
    }
}
