//! Splitting a summing task by a budget of work instead of spawning at every call.
//!
//! A task that spawns at every call (fib with no cutoff) pays a record, a queue entry and a
//! join for a call that costs a few instructions, and the granularity policy that inlines
//! spawns ([`crate::runtime::granularity`]) decides per spawn, at a depth, without knowing how
//! large the subtree under it is. For a task whose result is the sum of its children's (the
//! summing form, `gtap-macros/src/seq_sum.rs`), in a program that does not turn it off
//! (`#[gtap::program(split = false)]`), the macro generates a hidden *split task* besides it: it
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
//! When the walk stops, most of the calls it leaves pending are small: they lay on its path
//! below the last call it ran, while the oldest, nearest its start, are the largest. So the
//! task makes a task of each of its oldest few (the policy's `split_singles`) and one task,
//! a bundle ([`SplitCalls`]), of the others, whose walk starts from all of them: fewer and
//! larger tasks, where one per pending call made many that walked a call or two while the
//! other lanes of their round walked thousands. A bundle's calls stay in its parent's frame
//! ([`SplitBundle`]), so that its arguments, which records copy and registers carry, stay a
//! few words.
//!
//! [`SplitStack`] holds the pending calls: the walk puts and pops at its top, and the task
//! then takes them from the bottom, oldest first, to spawn them ([`SplitPending`]). The walk
//! visits a body's children in the order the body spawns them (it runs a body's first child
//! next and puts the others last site first), so a split task walks its calls in the
//! program's order and leaves the later ones pending, as a sequential run would reach them.

use core::marker::PhantomData;
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

/// The oldest pending calls a split task of program `P` makes tasks of one by one before it
/// bundles the others under `policy` (its `split_singles`; 0 for a program without split
/// tasks). One rule for both backends.
#[inline(always)]
pub fn singles<P: Program>(policy: &Granularity) -> u32 {
    if P::SPLITS { policy.split_singles } else { 0 }
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

/// The oldest pending calls the running split task makes tasks of one by one before it
/// bundles the others: the run's policy's `split_singles`.
///
/// # Safety
/// `ctx` is the running task's context, given by the backend running it now.
#[inline(always)]
pub unsafe fn singles_for<P: Program>(ctx: *mut super::Ctx) -> u32 {
    // SAFETY: forwarded from this function's contract.
    unsafe { crate::backend::split_singles::<P>(ctx) }
}

/// Runs `f` on each of `calls`, oldest first: the sequential version of a split task, which
/// no runtime runs on the GPU (a split task's spawns are forced to be tasks) and which stays
/// out of line so that a kernel does not carry its loop.
#[inline(never)]
pub fn run_each<A>(calls: &SplitCalls<A>, f: impl FnMut(A)) {
    calls.each(f)
}

/// The storage of a split task's pending calls: a local of the task's runner, lent to the
/// walk ([`SplitStack`]) and then read back ([`SplitPending`]).
pub type SplitBuffer<A> = [MaybeUninit<A>; PENDING];

/// An empty [`SplitBuffer`].
#[inline(always)]
pub fn split_buffer<A>() -> SplitBuffer<A> {
    [const { MaybeUninit::uninit() }; PENDING]
}

/// Words of a [`SplitBundle`]: a few calls' worth. A bundle lives in its split task's frame,
/// and every record of the program is as large as its largest frame: with more words, the
/// fib kernel's spawns built each new record in local memory before copying it (a task enum
/// larger than what LLVM keeps in registers), and the frame would come nearer the default
/// frame limit (`gtap-macros/src/split.rs`), which a split task's frame must fit.
const BUNDLE_WORDS: usize = 8;

/// Where a split task keeps the calls of the bundle it makes, after the first
/// ([`SplitPending::take_task`]): a local of its frame, saved across its taskwait, so that
/// the bundle's task reads them from there (the parent waits at its taskwait until that
/// task is complete, and does not touch them meanwhile) and a bundle's arguments stay a
/// few words, however many calls it holds: arguments are copied into records and held in
/// registers on the way, where a bundle's worth of calls would cost the kernel registers.
pub struct SplitBundle<A> {
    words: [MaybeUninit<u64>; BUNDLE_WORDS],
    _calls: PhantomData<A>,
}

/// An empty [`SplitBundle`].
#[inline(always)]
pub fn split_bundle<A>() -> SplitBundle<A> {
    SplitBundle {
        words: [MaybeUninit::uninit(); BUNDLE_WORDS],
        _calls: PhantomData,
    }
}

impl<A> SplitBundle<A> {
    /// Calls it holds: as many as its words fit, when `A` is aligned to at most a word
    /// (any number of zero-sized ones: [`PENDING`]).
    const CAP: usize = if align_of::<A>() > align_of::<u64>() {
        0
    } else {
        match (BUNDLE_WORDS * size_of::<u64>()).checked_div(size_of::<A>()) {
            Some(fit) => fit,
            None => PENDING,
        }
    };

    /// Where call `i` lives.
    ///
    /// # Safety
    /// `i < CAP`.
    #[inline(always)]
    unsafe fn at(this: *mut Self, i: usize) -> *mut A {
        debug_assert!(i < Self::CAP);
        // SAFETY: `i * size_of::<A>() + size_of::<A>() <= BUNDLE_WORDS * 8` for `i < CAP`
        // (`CAP`'s definition), and the words' alignment is at least `A`'s there.
        unsafe { (&raw mut (*this).words).cast::<A>().add(i) }
    }
}

/// The calls a split task walks: the call it was started for, or a bundle of calls that
/// another split task left pending (oldest first), so that the small calls a walk leaves
/// when it stops make one task rather than one each. A task parameter, moved bytewise into
/// records: plain data, no drop glue. The first call is its own; the others lie in the
/// [`SplitBundle`] of the split task that made it.
pub struct SplitCalls<A> {
    first: MaybeUninit<A>,
    /// The parent's bundle (null for one call).
    more: *const A,
    len: u32,
}

// SAFETY: the calls are `A`s (task arguments, `Send`); the pointer reaches calls that the
// parent wrote before the spawn that published this value and does not touch until this
// task is complete.
unsafe impl<A: Send> Send for SplitCalls<A> {}

impl<A> SplitCalls<A> {
    /// The most calls a bundle holds: one, and as many more as a [`SplitBundle`] fits, never
    /// more than [`PENDING`].
    pub const CAP: usize = {
        let more = SplitBundle::<A>::CAP;
        if 1 + more > PENDING {
            PENDING
        } else {
            1 + more
        }
    };

    /// One call.
    #[inline(always)]
    pub fn one(call: A) -> Self {
        SplitCalls {
            first: MaybeUninit::new(call),
            more: core::ptr::null(),
            len: 1,
        }
    }

    /// How many calls it holds (at least one).
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// Whether it holds none (never, as made by [`one`](Self::one) and
    /// [`SplitPending::take_task`]).
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Runs `f` on a copy of each call, oldest first ([`run_each`]).
    #[inline(always)]
    fn each(&self, mut f: impl FnMut(A)) {
        for i in 0..self.len() {
            // SAFETY: `i < len`.
            f(unsafe { self.read(i) });
        }
    }

    /// A bytewise copy of call `i`: the call, as a task's arguments are plain data (no drop
    /// glue), read once.
    ///
    /// # Safety
    /// `i < len`, and the bundle that made these calls is still there (its task is waiting
    /// for this one).
    #[inline(always)]
    unsafe fn read(&self, i: usize) -> A {
        if i == 0 {
            // SAFETY: call 0 is initialized while `len >= 1`.
            unsafe { self.first.assume_init_read() }
        } else {
            // SAFETY: `1 <= i < len`: `take_task` wrote calls `1..len` to `more[..len - 1]`.
            unsafe { self.more.add(i - 1).read() }
        }
    }
}

/// The walk's stack of pending calls: at most [`PENDING`] argument tuples in a
/// [`SplitBuffer`].
///
/// A body does not push onto it while it runs: each of its spawn sites keeps its child in a
/// variable of its own (a site, a top-level statement, runs at most once per body). After
/// the body, the first site's child, when that site ran, is the walk's next call, held in
/// registers ([`next_call`](SplitStack::next_call)), and the walk
/// [`put`](SplitStack::put)s the others, last site first, so that the walk visits a body's
/// children in the order the body spawns them. Neither a put nor the choice of the next call
/// branches around a memory access (a put is a store under a predicate, the next call a
/// select), so a body, its puts and the loop's test compile to straight-line code: the lanes
/// of a warp, each walking its own calls, stay converged, as in the hand-written walk; and
/// the chain of dependent steps from one call to the next passes through local memory only
/// when the last body spawned nothing. Apart from the buffer, so that a walk that keeps it
/// as a local keeps its count in a register (behind a reference it is loaded and stored at
/// every put and pop).
pub struct SplitStack<'b, A> {
    buf: &'b mut SplitBuffer<A>,
    /// Values in `buf[..len]` are live. `u32`: 64-bit arithmetic takes two instructions on
    /// the GPU, on the walk's critical path.
    len: u32,
}

impl<'b, A> SplitStack<'b, A> {
    /// An empty stack in `buf`, whose contents it ignores.
    #[inline(always)]
    pub fn new(buf: &'b mut SplitBuffer<A>) -> Self {
        SplitStack { buf, len: 0 }
    }

    /// Starts a walk of `calls` in an empty stack: puts all but the youngest, oldest first,
    /// and returns the youngest, the walk's first call (so that a bundle's calls run from
    /// the youngest, as the walk that left them would have run them, and the oldest stay
    /// pending longest).
    ///
    /// # Safety
    /// The bundle that made `calls` is still there (the task that made it is waiting for
    /// this one). The stack is empty, and the first body's `SITES` children fit beside the
    /// others:
    /// `calls.len() - 1 + SITES <= PENDING` ([`SplitPending::take_task`]'s bundles, or one
    /// call with `SITES <= PENDING`).
    #[inline(always)]
    pub unsafe fn start<const SITES: usize>(&mut self, calls: &SplitCalls<A>) -> A {
        debug_assert!(self.is_empty() && !calls.is_empty());
        debug_assert!(calls.len() - 1 + SITES <= PENDING);
        let last = calls.len() - 1;
        for i in 0..last {
            // SAFETY: `i < len`, the bundle still there (contract); a task's arguments are
            // plain data (no drop glue), so the copy is the call, and the split task never
            // uses `calls` again; the stack has room for `len - 1 <= PENDING` calls.
            unsafe { *self.buf.get_unchecked_mut(i) = MaybeUninit::new(calls.read(i)) };
        }
        self.len = last as u32;
        // SAFETY: `last < len`, as above.
        unsafe { calls.read(last) }
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

    /// Puts a site's child after a body ran: `value` is pushed when its site `ran`, and may
    /// be uninitialized otherwise (then nothing changes).
    ///
    /// # Safety
    /// The stack holds fewer than [`PENDING`] values: the walk runs a body only when its
    /// `SITES` puts fit ([`ready_for`](SplitStack::ready_for) before it took the body's
    /// call, or [`start`](SplitStack::start) for the first body).
    #[inline(always)]
    pub unsafe fn put(&mut self, value: MaybeUninit<A>, ran: bool) {
        debug_assert!(self.len() < PENDING);
        if ran {
            // SAFETY: `len < PENDING` (contract), and slot `len` holds no live value.
            unsafe { *self.buf.get_unchecked_mut(self.len as usize) = value };
            self.len += 1;
        }
    }

    /// Whether the walk may go on to another body of at most `SITES` children: there is a
    /// call to run (the last body's first child when `held`, which it keeps out of the
    /// stack, else the stack's top) and that body's children fit the stack with the held
    /// call put on it (the room a walk that stops there needs).
    #[inline(always)]
    pub fn ready_for<const SITES: usize>(&self, held: bool) -> bool {
        const {
            assert!(
                SITES >= 1 && SITES <= PENDING,
                "a body's spawns must fit the stack"
            )
        };
        // With the next call taken (popped, or held), its body's children and the held
        // call's room: `calls - 1 + SITES <= PENDING`, written without the wrap-around at
        // `calls == 0`.
        let calls = self.len + u32::from(held);
        (calls != 0) & (calls as usize + SITES <= PENDING + 1)
    }

    /// The next call of the walk: `held`, the last body's first child, when it `ran`, else
    /// the value pushed last (popped).
    ///
    /// # Safety
    /// [`ready_for`](SplitStack::ready_for)`(ran)` said yes, and `held` is initialized when
    /// `ran`.
    #[inline(always)]
    pub unsafe fn next_call(&mut self, held: MaybeUninit<A>, ran: bool) -> A {
        // The top slot is read whether or not it is taken (slot 0 of an empty stack: in the
        // buffer either way), so that the choice is a select rather than a branch around
        // the load.
        // SAFETY: the index is below `PENDING`; reading a `MaybeUninit` copies its bytes,
        // initialized or not, and the copy is used only when it is the value popped.
        let top =
            unsafe { core::ptr::read(self.buf.get_unchecked(self.len.saturating_sub(1) as usize)) };
        self.len -= u32::from(!ran);
        // SAFETY: `held` is initialized when `ran` (contract); otherwise `ready_for(false)`
        // said the stack was not empty, so `top` came from slot `len` (after the decrement),
        // below the length before it: a put counted the value it stored there and nothing
        // has read it since; it is moved out here and the slot is free from now on.
        unsafe { if ran { held } else { top }.assume_init() }
    }

    /// Pops the value pushed last, if any.
    #[inline(always)]
    pub fn pop(&mut self) -> Option<A> {
        if self.len == 0 {
            return None;
        }
        self.len -= 1;
        // SAFETY: slot `len` (after the decrement) was below the length, so a put counted
        // the value it stored there and nothing has read it since; the read moves the value
        // out and the slot is free from now on. `len < PENDING`.
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
        // Values still pending when a body panics out of the walk (the children in the
        // panicking body's sites are left: no put counted them).
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

    /// The calls of the split task to make next, if any are left: the oldest call on its
    /// own while fewer than `singles` have been taken so, or while more are left than one
    /// bundle holds; else all those left, as one bundle, whose calls after the first go to
    /// `bundle` and whose walk starts with room for a body of `SITES` children
    /// ([`SplitStack::start`]). `singles == 0`: one call each.
    ///
    /// The oldest calls are the nearest the walk's start, and in a tree of similar calls the
    /// largest: each is worth a task that thieves can take. The youngest lay on the walk's
    /// path when it stopped, below the last of its calls: most are small, and a task each
    /// would cost more than its work and hold a lane of a round that a large task's walk
    /// makes long.
    ///
    /// # Safety
    /// `bundle` is the running split task's own, a local of its frame saved across its
    /// taskwait, which it does not touch until that taskwait returns; at most one bundle is
    /// made into it (this takes every call left when it makes one).
    #[inline(always)]
    pub unsafe fn take_task<const SITES: usize>(
        &mut self,
        singles: u32,
        bundle: *mut SplitBundle<A>,
    ) -> Option<SplitCalls<A>> {
        let left = self.len();
        let cap = SplitCalls::<A>::CAP.min(PENDING + 1 - SITES);
        let bundled = singles != 0 && left >= 2 && left <= cap && self.first >= singles as usize;
        let mut calls = SplitCalls::one(self.take_oldest()?);
        if bundled {
            let mut i = 0;
            while let Some(call) = self.take_oldest() {
                // SAFETY: `i < left - 1 < cap <= SplitCalls::CAP`, so `i < SplitBundle::CAP`;
                // the bundle is the task's own and unused (contract).
                unsafe { SplitBundle::at(bundle, i).write(call) };
                i += 1;
            }
            // SAFETY: call 0's place in the bundle, as above.
            calls.more = unsafe { SplitBundle::at(bundle, 0) }.cast_const();
            calls.len = left as u32;
        }
        Some(calls)
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

    /// Puts one body's sites, as the walk does: `sites[k]` is site `k`'s child, if it ran.
    fn body<A>(s: &mut SplitStack<'_, A>, sites: std::vec::Vec<Option<A>>) {
        for site in sites.into_iter().rev() {
            let ran = site.is_some();
            let value = site.map_or(MaybeUninit::uninit(), MaybeUninit::new);
            // SAFETY: the tests put at most as many values as `ready_for` made room for.
            unsafe { s.put(value, ran) };
        }
    }

    /// Pops for a body of `SITES` sites, as the walk does when the last body held no call.
    fn pop_for<const SITES: usize, A>(s: &mut SplitStack<'_, A>) -> Option<A> {
        // SAFETY: `ready_for` said the stack is not empty, and nothing is held.
        s.ready_for::<SITES>(false)
            .then(|| unsafe { s.next_call(MaybeUninit::uninit(), false) })
    }

    #[test]
    fn a_walk_pops_in_spawn_order_and_leaves_the_rest_oldest_first() {
        let mut buf = split_buffer();
        let mut s = SplitStack::<u32>::new(&mut buf);
        body(&mut s, std::vec![Some(100)]);
        assert_eq!(pop_for::<5, _>(&mut s), Some(100));
        body(&mut s, [100, 1, 2, 3, 4].map(Some).to_vec());
        assert_eq!(
            pop_for::<4, _>(&mut s),
            Some(100),
            "the body's first spawn pops first"
        );
        body(&mut s, std::vec![Some(1), None, Some(2), None]);
        assert_eq!(pop_for::<3, _>(&mut s), Some(1));
        body(&mut s, std::vec![None, Some(7), None]);
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
    fn a_body_whose_sites_did_not_run_leaves_the_stack_as_it_was() {
        let mut buf = split_buffer();
        let mut s = SplitStack::<u32>::new(&mut buf);
        body(&mut s, std::vec![Some(5), Some(6)]);
        assert_eq!(pop_for::<2, _>(&mut s), Some(5));
        body(&mut s, std::vec![None, None]);
        assert_eq!(s.len(), 1);
        assert_eq!(pop_for::<2, _>(&mut s), Some(6));
        assert_eq!(pop_for::<2, _>(&mut s), None);
    }

    #[test]
    fn a_pop_leaves_room_for_the_body_it_runs() {
        let mut buf = split_buffer();
        let mut s = SplitStack::<u64>::new(&mut buf);
        body(&mut s, (0..PENDING as u64).map(Some).collect());
        assert_eq!(s.len(), PENDING);
        assert_eq!(
            pop_for::<2, _>(&mut s),
            None,
            "its two children would not fit"
        );
        assert_eq!(pop_for::<1, _>(&mut s), Some(0));
        assert_eq!(
            pop_for::<2, _>(&mut s),
            Some(1),
            "room for two after the pop"
        );
        body(&mut s, std::vec![Some(8), Some(9)]);
        assert_eq!(s.len(), PENDING);
        let mut p = s.into_pending();
        let left: std::vec::Vec<u64> = core::iter::from_fn(|| p.take_oldest()).collect();
        let mut want: std::vec::Vec<u64> = (2..PENDING as u64).rev().collect();
        want.extend([9, 8]);
        assert_eq!(left, want);
    }

    #[test]
    fn a_held_call_runs_next_and_needs_room_to_be_put() {
        let mut buf = split_buffer();
        let mut s = SplitStack::<u32>::new(&mut buf);
        assert!(!s.ready_for::<2>(false), "nothing to run");
        assert!(s.ready_for::<2>(true));
        // SAFETY: `ready_for(true)` said yes, and the held value is initialized.
        assert_eq!(unsafe { s.next_call(MaybeUninit::new(7), true) }, 7);
        assert!(s.is_empty(), "a held call does not touch the stack");
        body(&mut s, (0..PENDING as u32 - 1).map(Some).collect());
        assert!(
            s.ready_for::<1>(true),
            "31 on the stack and one held: room for one"
        );
        assert!(!s.ready_for::<2>(true));
        assert!(s.ready_for::<2>(false), "popping one leaves room for two");
    }

    /// Every call `take_task` hands out with `singles`, for a pending list of `values`
    /// (oldest first) and bodies of `SITES` sites.
    fn tasks<const SITES: usize>(
        values: &[u32],
        singles: u32,
    ) -> std::vec::Vec<std::vec::Vec<u32>> {
        let mut buf = split_buffer();
        let mut s = SplitStack::new(&mut buf);
        for &v in values.iter() {
            // SAFETY: at most `PENDING` values.
            unsafe { s.put(MaybeUninit::new((v,)), true) };
        }
        let mut bundle = split_bundle();
        let mut pending = s.into_pending();
        let mut out = std::vec::Vec::new();
        // SAFETY: one bundle, this test's own, read only below while it lives.
        while let Some(calls) = unsafe { pending.take_task::<SITES>(singles, &raw mut bundle) } {
            let mut got = std::vec::Vec::new();
            calls.each(|(v,)| got.push(v));
            assert_eq!(got.len(), calls.len());
            out.push(got);
        }
        out
    }

    #[test]
    fn a_bundle_holds_what_its_words_fit() {
        assert_eq!(SplitCalls::<(u32,)>::CAP, 1 + BUNDLE_WORDS * 2);
        assert_eq!(SplitCalls::<(u64, u64)>::CAP, 1 + BUNDLE_WORDS / 2);
        assert_eq!(
            SplitCalls::<[u8; 200]>::CAP,
            1,
            "larger than a bundle: one call each"
        );
        assert_eq!(
            SplitCalls::<u128>::CAP,
            1,
            "aligned past a word: one call each"
        );
        assert_eq!(SplitCalls::<()>::CAP, PENDING);
    }

    #[test]
    fn the_oldest_calls_are_tasks_of_their_own_and_the_rest_one_bundle() {
        let values: std::vec::Vec<u32> = (0..6).collect();
        let one_each: std::vec::Vec<_> = values.iter().map(|&v| std::vec![v]).collect();
        assert_eq!(tasks::<2>(&values, 0), one_each, "singles 0: no bundle");
        assert_eq!(
            tasks::<2>(&values, 2),
            std::vec![std::vec![0], std::vec![1], std::vec![2, 3, 4, 5]]
        );
        assert_eq!(tasks::<2>(&values, 6), one_each, "all singles");
        assert_eq!(
            tasks::<2>(&values, 5),
            one_each,
            "a bundle of one is a single"
        );
        assert_eq!(tasks::<2>(&[7], 1), std::vec![std::vec![7]]);
        assert!(tasks::<2>(&[], 2).is_empty());
    }

    #[test]
    fn a_bundle_never_leaves_a_body_without_room() {
        // 30 pending calls of 4 bytes: a bundle holds 17; with bodies of 20 sites, 13.
        let values: std::vec::Vec<u32> = (0..30).collect();
        let got = tasks::<2>(&values, 2);
        assert_eq!(got.len(), 14, "13 singles, then a bundle of 17: {got:?}");
        assert_eq!(got[13], (13..30).collect::<std::vec::Vec<_>>());
        let got = tasks::<20>(&values, 2);
        assert_eq!(got.last().unwrap().len(), PENDING + 1 - 20);
        assert_eq!(got.concat(), values, "every call once, oldest first");
    }

    #[test]
    fn a_walk_starts_from_a_bundles_youngest_call() {
        let mut bundle = split_bundle();
        let mut buf = split_buffer();
        let mut s = SplitStack::new(&mut buf);
        for v in [10u32, 11, 12, 13] {
            // SAFETY: four values.
            unsafe { s.put(MaybeUninit::new((v,)), true) };
        }
        let mut pending = s.into_pending();
        // SAFETY: one bundle, read below while it lives.
        let calls = unsafe { pending.take_task::<2>(1, &raw mut bundle) }.unwrap();
        assert_eq!(calls.len(), 1);
        // SAFETY: as above.
        let calls = unsafe { pending.take_task::<2>(1, &raw mut bundle) }.unwrap();
        assert_eq!(calls.len(), 3);
        let mut buf = split_buffer();
        let mut s = SplitStack::new(&mut buf);
        // SAFETY: an empty stack; a bundle of 3 leaves room for two sites; its bundle lives.
        assert_eq!(unsafe { s.start::<2>(&calls) }, (13,));
        assert_eq!(s.pop(), Some((12,)));
        assert_eq!(s.pop(), Some((11,)));
        assert_eq!(s.pop(), None);
        let one = SplitCalls::one((5u32,));
        // SAFETY: as above.
        assert_eq!(unsafe { s.start::<2>(&one) }, (5,));
        assert!(s.is_empty());
    }

    #[test]
    fn values_left_are_dropped() {
        use std::rc::Rc;
        let counted = Rc::new(());
        let mut buf = split_buffer();
        let mut s = SplitStack::new(&mut buf);
        body(&mut s, (0..4).map(|_| Some(Rc::clone(&counted))).collect());
        drop(s.pop());
        drop(s);
        assert_eq!(Rc::strong_count(&counted), 1);
        let mut buf = split_buffer();
        let mut s = SplitStack::new(&mut buf);
        body(&mut s, (0..4).map(|_| Some(Rc::clone(&counted))).collect());
        let mut p = s.into_pending();
        drop(p.take_oldest());
        assert_eq!(Rc::strong_count(&counted), 4);
        drop(p);
        assert_eq!(Rc::strong_count(&counted), 1);
    }
}
