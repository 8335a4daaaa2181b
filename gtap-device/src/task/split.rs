//! Splitting a summing task by a budget of work instead of spawning at every call.
//!
//! A task that spawns at every call (fib with no cutoff) pays a record, a queue entry and a
//! join for a call that costs a few instructions, and the granularity policy that inlines
//! spawns ([`crate::runtime::granularity`]) decides per spawn, at a depth, without knowing how
//! large the subtree under it is. For a task whose result is the sum of its children's (the
//! summing form, `gtap-macros/src/seq_sum.rs`), in a program that asks for it
//! (`#[gtap::program(split = true)]`), the macro generates a hidden *split task* besides it: it
//! walks the calls under its own sequentially, at most `budget` of them and while at most
//! [`PENDING`] are pending, adds their own parts of the result, and makes a task of each call
//! still pending when it stops, with a larger budget ([`next_budget`]). Near the root the
//! budget is small, so the tree fans out into tasks within a few rounds; further down it grows,
//! so the tasks that keep every lane busy each carry enough work to pay for themselves. A
//! call's cost is what a budget of calls counts, which fits a task whose calls cost about the
//! same (a body without a hand-written cutoff); tasks whose spawns name a queue, or whose
//! children go to `slots!`, are not split (the macro's docs).
//!
//! The runtime starts a split task where the program would start the task itself as a task
//! (its root, and spawns that the policy makes tasks), when the policy is on and its
//! `split_budget` is not zero ([`Program::split`]); with the policy
//! off, the tasks are the source's.
//!
//! [`SplitStack`] holds the pending calls: the walk pushes and pops at its top, and the task
//! then takes them from the bottom, oldest first, to spawn them ([`SplitPending`]). The walk
//! visits a body's children in the order the body spawns them (each body pushes into room
//! reserved for it, from the highest slot down), so a split task walks its calls in the
//! program's order and leaves the later ones pending, as a sequential run would reach them.

use core::mem::MaybeUninit;

use super::Program;
use crate::runtime::granularity::Granularity;

/// The most calls a split task leaves pending, and so the most children it spawns.
pub const PENDING: usize = 32;

/// The largest budget [`next_budget`] grows to: a split task walks at most this many calls.
pub const MAX_BUDGET: u32 = 2048;

/// A child split task's budget: its parent's doubled, up to [`MAX_BUDGET`], and never below
/// its parent's (a first budget above the largest stays).
#[inline(always)]
pub fn next_budget(budget: u32) -> u32 {
    budget.saturating_mul(2).min(MAX_BUDGET).max(budget)
}

/// The budget of the split tasks started for program `P` under `policy`, for its roots and
/// for the spawns that become tasks (0: none): the policy's `split_budget` while the policy
/// is on and `P` has split tasks. One rule for both backends and the roots.
#[inline(always)]
pub fn budget<P: Program>(policy: &Granularity) -> u32 {
    if P::SPLITS && policy.on != 0 {
        policy.split_budget
    } else {
        0
    }
}

/// The arguments of a root task as a run starts it under `policy`: its split task's, when it
/// has one and the policy splits ([`Program::split`]), else its own.
#[inline(always)]
pub fn split_root<P: Program>(args: P::Args, policy: &Granularity) -> P::Args {
    match budget::<P>(policy) {
        0 => args,
        budget => P::split(args, budget),
    }
}

/// Counts the calls a split task's walk ran (besides its own body) in the run's statistics,
/// as spawns run inline (`CpuStats::spawns_inlined`, `GpuStats`' inlined spawns).
///
/// # Safety
/// `ctx` is the running task's context, given by the backend running it now.
#[inline(always)]
pub unsafe fn count_walked<P: Program>(ctx: *mut super::Ctx, calls: u32) {
    // SAFETY: forwarded from this function's contract.
    unsafe { crate::backend::split_walked::<P>(ctx, calls) }
}

/// The storage of a split task's pending calls: a local of the task's runner, lent to the
/// walk ([`SplitStack`]) and then read back ([`SplitPending`]).
pub type SplitBuffer<A> = [MaybeUninit<A>; PENDING];

/// An empty [`SplitBuffer`].
#[inline(always)]
pub fn split_buffer<A>() -> SplitBuffer<A> {
    [const { MaybeUninit::uninit() }; PENDING]
}

/// The walk's stack of pending calls: at most [`PENDING`] argument tuples in a
/// [`SplitBuffer`].
///
/// A body's pushes go into room reserved before it runs ([`SplitStack::open`]), from the
/// highest reserved slot down, so that the stack holds them in the reverse of their order:
/// the walk visits a body's children in the order the body spawns them, with no reversal
/// afterwards. No push can fail, so a body runs with no branch to a fallback, and the walk's
/// lanes stay converged as the hand-written walk's do. Apart from the buffer, so that a walk
/// that keeps it as a local keeps its counts in registers (behind a reference they are
/// loaded and stored at every push and pop, on the walk's critical path).
pub struct SplitStack<'b, A> {
    buf: &'b mut SplitBuffer<A>,
    /// Values in `buf[..len]` are live. Counts are `u32`: 64-bit arithmetic takes two
    /// instructions on the GPU, on the walk's critical path.
    len: u32,
    /// While a body runs: the reserved slot its last push took (its next push takes the
    /// one below).
    next: u32,
}

impl<'b, A> SplitStack<'b, A> {
    /// An empty stack in `buf`, whose contents it ignores.
    #[inline(always)]
    pub fn new(buf: &'b mut SplitBuffer<A>) -> Self {
        SplitStack {
            buf,
            len: 0,
            next: 0,
        }
    }

    /// How many values it holds.
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// Whether it holds none.
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Whether a body that pushes at most `sites` values may run now: the stack's values and
    /// those pushes fit in [`PENDING`].
    #[inline(always)]
    pub fn has_room(&self, sites: usize) -> bool {
        self.len() + sites <= PENDING
    }

    /// Reserves room for the pushes of a body that makes at most `SITES` of them, before it
    /// runs. The walk calls it after [`has_room`](SplitStack::has_room)`(SITES)` said yes, or
    /// on an empty stack (a const assertion checks that `SITES` fits in an empty one).
    #[inline(always)]
    pub fn open<const SITES: usize>(&mut self) {
        const {
            assert!(
                SITES >= 1 && SITES <= PENDING,
                "a body's spawns must fit the stack"
            )
        };
        debug_assert!(self.has_room(SITES));
        self.next = self.len + SITES as u32;
    }

    /// Pushes `value`, a spawn of the body that the last [`open`](SplitStack::open) made room
    /// for.
    ///
    /// # Safety
    /// Since that `open::<SITES>()`, fewer than `SITES` values were pushed, and its
    /// condition held.
    #[inline(always)]
    pub unsafe fn push_reserved(&mut self, value: A) {
        debug_assert!(self.next > self.len);
        self.next -= 1;
        // SAFETY: the reservation put `next` in `len..len + SITES`, below `PENDING`, and each
        // push takes the slot below the last one's (contract): a slot of the buffer that
        // holds no live value.
        unsafe { self.buf.get_unchecked_mut(self.next as usize).write(value) };
    }

    /// Ends the body that `open::<SITES>()` made room for: its pushes, which fill the
    /// reserved slots from the highest down, move down onto the live values when the body
    /// made fewer than `SITES`.
    #[inline(always)]
    pub fn close<const SITES: usize>(&mut self) {
        let pushed = self.len + SITES as u32 - self.next;
        if self.next != self.len {
            // Element by element, lowest first (each moves down, so none is overwritten
            // before it moves): `ptr::copy` would be a byte loop on the GPU. A body that
            // pushed fewer than `SITES` pushed at most `SITES - 1`: the `min` gives the
            // compiler that bound, which it cannot derive from `next`.
            let at = self.buf.as_mut_ptr();
            for i in 0..pushed.min(SITES as u32 - 1) {
                // SAFETY: `len < next` and `next + pushed = len + SITES <= PENDING` (the
                // reservation): both slots lie in the buffer, which the stack borrows
                // exclusively; slot `next + i` holds a pushed value, which moves (its slot
                // is free from now on).
                unsafe {
                    let value = at.add((self.next + i) as usize).read();
                    at.add((self.len + i) as usize).write(value);
                }
            }
        }
        self.len += pushed;
    }

    /// Pops the value pushed last, if any.
    #[inline(always)]
    pub fn pop(&mut self) -> Option<A> {
        if self.len == 0 {
            return None;
        }
        self.len -= 1;
        // SAFETY: slot `len` (after the decrement) was below the length, so a push wrote it
        // (or `close` moved a pushed value there) and nothing has read it since; the read
        // moves the value out and the slot is free from now on. `len < PENDING`.
        Some(unsafe { self.buf.get_unchecked(self.len as usize).assume_init_read() })
    }

    /// The values still on the stack, to be taken oldest first.
    #[inline(always)]
    pub fn into_pending(self) -> SplitPending<'b, A> {
        let this = core::mem::ManuallyDrop::new(self);
        // SAFETY: `this` is never used or dropped again, so moving its buffer borrow out is
        // the only use of it.
        let buf = unsafe { core::ptr::read(&this.buf) };
        SplitPending {
            buf,
            first: 0,
            len: this.len as usize,
        }
    }
}

impl<A> Drop for SplitStack<'_, A> {
    fn drop(&mut self) {
        // Values still pending when a body panics out of the walk (those a body pushed
        // before `close` are left, as `len` does not count them yet).
        while self.pop().is_some() {}
    }
}

/// The calls a split task's walk left pending, taken oldest first to be spawned
/// ([`SplitStack::into_pending`]).
pub struct SplitPending<'b, A> {
    buf: &'b mut SplitBuffer<A>,
    /// Values at `first..len` are live.
    first: usize,
    len: usize,
}

impl<A> SplitPending<'_, A> {
    /// How many are left.
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.len - self.first
    }

    /// Whether none is left.
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.first == self.len
    }

    /// Takes the oldest value left, if any.
    #[inline(always)]
    pub fn take_oldest(&mut self) -> Option<A> {
        if self.first == self.len {
            return None;
        }
        let at = self.first;
        self.first += 1;
        // SAFETY: slot `at` lay in `first..len`, so it holds a value a push wrote and
        // nothing read since; `first` moved past it, so nothing reads it again.
        Some(unsafe { self.buf[at].assume_init_read() })
    }
}

impl<A> Drop for SplitPending<'_, A> {
    fn drop(&mut self) {
        while self.take_oldest().is_some() {}
    }
}

#[cfg(test)]
mod tests {
    extern crate std;

    use super::*;

    #[test]
    fn budgets_double_up_to_the_largest_and_never_shrink() {
        assert_eq!(next_budget(16), 32);
        assert_eq!(next_budget(1024), 2048);
        assert_eq!(next_budget(2048), 2048);
        assert_eq!(next_budget(5000), 5000);
        assert_eq!(next_budget(u32::MAX), u32::MAX);
        assert_eq!(next_budget(0), 0);
    }

    /// Runs one body on `s` that pushes `values` (at most `SITES`), as the walk does.
    fn body<const SITES: usize, A>(s: &mut SplitStack<'_, A>, values: impl IntoIterator<Item = A>) {
        s.open::<SITES>();
        for v in values {
            // SAFETY: the tests push at most `SITES` values per body on a stack with room.
            unsafe { s.push_reserved(v) };
        }
        s.close::<SITES>();
    }

    #[test]
    fn a_walk_pops_in_spawn_order_and_leaves_the_rest_oldest_first() {
        let mut buf = split_buffer();
        let mut s = SplitStack::<u32>::new(&mut buf);
        body::<1, _>(&mut s, [100]);
        assert_eq!(s.pop(), Some(100));
        body::<5, _>(&mut s, [100, 1, 2, 3, 4]);
        assert_eq!(s.pop(), Some(100), "the body's first push pops first");
        body::<4, _>(&mut s, [1, 2]);
        assert_eq!(s.pop(), Some(1));
        body::<3, _>(&mut s, [7]);
        assert_eq!(s.len(), 6);
        let mut p = s.into_pending();
        assert_eq!(p.len(), 6);
        for want in [4, 3, 2, 1, 2, 7] {
            assert_eq!(p.take_oldest(), Some(want));
        }
        assert_eq!(p.take_oldest(), None);
        assert!(p.is_empty());
    }

    #[test]
    fn a_body_without_pushes_leaves_the_stack_as_it_was() {
        let mut buf = split_buffer();
        let mut s = SplitStack::<u32>::new(&mut buf);
        body::<2, _>(&mut s, [5, 6]);
        assert_eq!(s.pop(), Some(5));
        body::<2, _>(&mut s, []);
        assert_eq!(s.len(), 1);
        assert_eq!(s.pop(), Some(6));
        assert_eq!(s.pop(), None);
    }

    #[test]
    fn room_counts_every_pending_value() {
        let mut buf = split_buffer();
        let mut s = SplitStack::<u64>::new(&mut buf);
        body::<PENDING, _>(&mut s, 0..PENDING as u64);
        assert_eq!(s.len(), PENDING);
        assert!(!s.has_room(1));
        assert_eq!(s.pop(), Some(0));
        assert!(s.has_room(1) && !s.has_room(2));
        body::<1, _>(&mut s, [9]);
        let mut p = s.into_pending();
        let left: std::vec::Vec<u64> = core::iter::from_fn(|| p.take_oldest()).collect();
        let mut want: std::vec::Vec<u64> = (1..PENDING as u64).rev().collect();
        want.push(9);
        assert_eq!(left, want);
    }

    #[test]
    fn values_left_are_dropped() {
        use std::rc::Rc;
        let counted = Rc::new(());
        let mut buf = split_buffer();
        let mut s = SplitStack::new(&mut buf);
        body::<4, _>(&mut s, (0..4).map(|_| Rc::clone(&counted)));
        drop(s.pop());
        drop(s);
        assert_eq!(Rc::strong_count(&counted), 1);
        let mut buf = split_buffer();
        let mut s = SplitStack::new(&mut buf);
        body::<4, _>(&mut s, (0..4).map(|_| Rc::clone(&counted)));
        let mut p = s.into_pending();
        drop(p.take_oldest());
        assert_eq!(Rc::strong_count(&counted), 4);
        drop(p);
        assert_eq!(Rc::strong_count(&counted), 1);
    }
}
