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

use core::marker::PhantomData;

use super::Plain;
use super::home::Raw;
use super::view::ViewMut;
use crate::task::Block;

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
    use std::sync::{Arc, Barrier};
    use std::vec::Vec;

    use super::*;
    use crate::task::block::{TeamEnv, set_team_env};

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

    fn barrier(arg: *const ()) {
        // SAFETY: `arg` is the `Barrier` the team shares, alive until every thread joined.
        unsafe { &*arg.cast::<Barrier>() }.wait();
    }

    /// The team's shared pointers, handed to its threads (Miri-friendly: no integer casts).
    #[derive(Clone, Copy)]
    struct Shared {
        xs: *mut u32,
        barrier: *const Barrier,
    }
    // SAFETY: the test's threads use the pointers only as the module docs allow (each its
    // own share; the barrier is `Sync`).
    unsafe impl Send for Shared {}

    #[test]
    fn each_thread_of_a_team_writes_its_share() {
        for team in [1usize, 2, 3, 8] {
            let mut xs: Vec<u32> = (0..100).collect();
            let bar = Arc::new(Barrier::new(team));
            let len = xs.len();
            let shared = Shared {
                xs: xs.as_mut_ptr(),
                barrier: Arc::as_ptr(&bar),
            };
            std::thread::scope(|s| {
                for index in 0..team {
                    s.spawn(move || {
                        let shared = shared;
                        set_team_env(TeamEnv {
                            index: index as u32,
                            size: team as u32,
                            barrier,
                            barrier_arg: shared.barrier.cast(),
                            scratch: core::ptr::null_mut(),
                            scratch_len: 0,
                        });
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
}
