//! Where a child's result goes, and the types that say whether it may be read yet.
//!
//! `let a = spawn!(fib(n - 1));` becomes a hidden [`Slot`] in the parent's frame plus
//! `a: Pending<'_, '_, u64>` borrowing it. The child writes its result straight into the slot
//! (the frame lives in the parent's task record and never moves), so a finished child needs
//! no record of its own any more. `taskwait!()` re-binds every handle in scope as a
//! [`Joined`] handle, made from its slot ([`Slot::__joined`]), and only a joined handle can
//! be read: reading a child's result before the taskwait that covers it is a compile error.
//!
//! Because the slot is borrowed by the handle, it cannot be moved while the handle lives, and
//! the macro checks that each handle's block reaches a `taskwait!()` before it ends, so a
//! running child never writes into storage the parent has reused.
//!
//! A pending handle also holds the borrow of the child's arguments (its second lifetime):
//! the macro ends each pending handle *after* the suspension of the taskwait that joins it
//! ([`end_borrow`]), so what the child borrowed stays borrowed, to the compiler, exactly as
//! long as the child may run (see [`crate::data`]). Pending handles are zero-sized: keeping
//! them across the suspension costs no frame space.
//!
//! # Memory ordering
//! The child's plain store of the result happens before its release decrement of the parent's
//! join counter; the parent is resumed only after an acquire that reads that decrement (see
//! the runtime's join protocol), so the parent's read of the slot sees the result.

use core::cell::UnsafeCell;
use core::marker::{PhantomData, PhantomPinned};
use core::mem::MaybeUninit;

/// Storage for one child's result, in the parent's frame. Written once by the child.
pub struct Slot<R> {
    value: UnsafeCell<MaybeUninit<R>>,
    _pinned: PhantomPinned,
}

impl<R> Slot<R> {
    /// An empty slot.
    #[allow(clippy::new_without_default)]
    pub const fn new() -> Self {
        Slot {
            value: UnsafeCell::new(MaybeUninit::uninit()),
            _pinned: PhantomPinned,
        }
    }

    /// Where the child writes its result.
    pub fn as_ptr(&self) -> *mut R {
        self.value.get().cast()
    }

    /// The joined handle of the child spawned with this slot. `taskwait!()` re-binds each
    /// handle through its slot, not through the pending handle: the pending handle (a
    /// pointer) is then dead at the suspension and not saved in the frame, and a read after
    /// the taskwait is one load at a fixed offset in the frame instead of two dependent ones.
    ///
    /// # Safety
    /// The `taskwait!()` that covers the child spawned with this slot has completed (the macro
    /// calls this right after it).
    #[doc(hidden)]
    pub unsafe fn __joined(&self) -> Joined<'_, R> {
        Joined { slot: self }
    }
}

/// A child's result that may not be read yet: it is spawned and not yet joined.
///
/// There is deliberately no way to read it. After `taskwait!()` the same name refers to a
/// [`Joined`] handle. `'a` borrows the result's slot, `'c` what the child's arguments borrow.
pub struct Pending<'a, 'c, R> {
    _slot: PhantomData<&'a Slot<R>>,
    _args: PhantomData<&'c ()>,
}

impl<R> Clone for Pending<'_, '_, R> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<R> Copy for Pending<'_, '_, R> {}

/// Marks the handle types whose result may be read. A pending handle is not one of them.
#[diagnostic::on_unimplemented(
    message = "a child's result is read before the `taskwait!()` that joins it",
    label = "this child may still be running",
    note = "add `taskwait!();` between the `spawn!` and this read"
)]
pub trait Readable {}

impl<'a, 'c, R> Pending<'a, 'c, R> {
    #[doc(hidden)]
    pub fn __new(slot: &'a Slot<R>) -> Self {
        let _ = slot;
        Pending {
            _slot: PhantomData,
            _args: PhantomData,
        }
    }

    /// Reading a pending handle is a compile error; see [`Readable`].
    pub fn get(&self) -> R
    where
        Self: Readable,
    {
        unreachable!("Pending is never Readable")
    }
}

/// Ends the borrows that a pending handle holds (the child's arguments and its slot): what
/// the macro emits after the suspension of the taskwait that joins the child, so that the
/// compiler sees them borrowed until then.
#[doc(hidden)]
#[inline(always)]
pub fn end_borrow<T: Copy>(pending: T) {
    let _ = pending;
}

/// A child's result after the `taskwait!()` that joined it.
pub struct Joined<'a, R> {
    slot: &'a Slot<R>,
}

impl<R> Readable for Joined<'_, R> {}

impl<R> Clone for Joined<'_, R> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<R> Copy for Joined<'_, R> {}

impl<R: Copy> Joined<'_, R> {
    /// The child's result.
    pub fn get(&self) -> R {
        // SAFETY: a `Joined` exists only after the taskwait that covers the child, which
        // completes only after the child wrote the slot (module docs, "Memory ordering").
        unsafe { (*self.slot.value.get()).assume_init() }
    }
}

/// Storage for up to `N` children's results, for a variable number of children spawned in a
/// loop: `let hs = slots!(u64; 16); for .. { spawn!(into hs, f(i)); } taskwait!();`.
pub struct Slots<R, const N: usize> {
    slots: [Slot<R>; N],
    len: UnsafeCell<usize>,
}

impl<R, const N: usize> Slots<R, N> {
    /// `N` empty slots.
    #[allow(clippy::new_without_default)]
    pub const fn new() -> Self {
        Slots {
            slots: [const { Slot::new() }; N],
            len: UnsafeCell::new(0),
        }
    }

    /// The joined handle of the children spawned into these slots, made from the storage
    /// itself for the reasons given at [`Slot::__joined`].
    ///
    /// # Safety
    /// As [`Slot::__joined`], for every child spawned into these slots.
    #[doc(hidden)]
    pub unsafe fn __joined(&self) -> JoinedSlots<'_, R, N> {
        JoinedSlots { slots: self }
    }
}

/// Results of children spawned `into` a [`Slots`], not yet joined. `'c` is what every
/// child's arguments borrow, until the taskwait that joins them.
pub struct PendingSlots<'a, 'c, R, const N: usize> {
    slots: &'a Slots<R, N>,
    _args: PhantomData<&'c ()>,
}

impl<R, const N: usize> Clone for PendingSlots<'_, '_, R, N> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<R, const N: usize> Copy for PendingSlots<'_, '_, R, N> {}

impl<'a, 'c, R, const N: usize> PendingSlots<'a, 'c, R, N> {
    #[doc(hidden)]
    pub fn __new(slots: &'a Slots<R, N>) -> Self {
        PendingSlots {
            slots,
            _args: PhantomData,
        }
    }

    /// How many children were spawned into these slots so far.
    pub fn len(&self) -> usize {
        // SAFETY: `len` is written only by the owning task (in `__next`), which is the one
        // running this code; children never touch it.
        unsafe { *self.slots.len.get() }
    }

    /// Whether no child was spawned into these slots yet.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Reading pending slots is a compile error; see [`Readable`].
    pub fn get(&self, _i: usize) -> R
    where
        Self: Readable,
    {
        unreachable!("PendingSlots is never Readable")
    }

    /// The next free slot, or `None` when all `N` are taken.
    #[doc(hidden)]
    pub fn __next(&self) -> Option<*mut R> {
        // SAFETY: see `len`: only the owning task reads and writes `len`.
        let len = unsafe { &mut *self.slots.len.get() };
        let slot = self.slots.slots.get(*len)?;
        *len += 1;
        Some(slot.as_ptr())
    }

    /// The capacity `N`, for error messages.
    #[doc(hidden)]
    pub fn __capacity(&self) -> usize {
        N
    }

    /// # Safety
    /// As [`Slots::__joined`].
    #[doc(hidden)]
    pub unsafe fn __joined(self) -> JoinedSlots<'a, R, N> {
        JoinedSlots { slots: self.slots }
    }
}

/// Results of children spawned `into` a [`Slots`], after the `taskwait!()` that joined them.
pub struct JoinedSlots<'a, R, const N: usize> {
    slots: &'a Slots<R, N>,
}

impl<R, const N: usize> Readable for JoinedSlots<'_, R, N> {}

impl<R, const N: usize> Clone for JoinedSlots<'_, R, N> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<R, const N: usize> Copy for JoinedSlots<'_, R, N> {}

impl<'a, R: Copy, const N: usize> JoinedSlots<'a, R, N> {
    /// How many children were spawned into these slots.
    pub fn len(&self) -> usize {
        // SAFETY: only the owning task writes `len`, and it is running this code.
        unsafe { *self.slots.len.get() }
    }

    /// Whether no child was spawned into these slots.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The result of the `i`-th child spawned into these slots.
    ///
    /// # Panics
    /// If `i >= self.len()`.
    pub fn get(&self, i: usize) -> R {
        assert!(i < self.len(), "slot index out of range");
        // SAFETY: slots below `len` were handed to children that have completed (joined).
        unsafe { (*self.slots.slots[i].value.get()).assume_init() }
    }

    /// The results in spawn order.
    pub fn iter(&self) -> impl Iterator<Item = R> + 'a {
        let this = *self;
        (0..this.len()).map(move |i| this.get(i))
    }
}

/// A block task's handle on a child's result, before the `taskwait!()` that joins it.
///
/// Unlike [`Pending`] it owns its slot: every thread of the block resumes its own copy of a
/// block task's frame (copies move, so nothing may borrow the frame across a taskwait). The
/// leader spawns the child with the address of this slot in the frame stored in the task's
/// record; the child writes there, and every thread's copy of the frame is taken from the
/// record when the task resumes.
pub struct BlockPending<R> {
    value: MaybeUninit<R>,
}

impl<R> BlockPending<R> {
    /// An empty slot (what `let h = spawn!(..)` declares in a block task).
    #[doc(hidden)]
    #[allow(clippy::new_without_default)]
    pub const fn __new() -> Self {
        // Zeroed, not uninitialized: every thread's copy of the frame then has the same bytes
        // here until the child writes its result, which the uniformity check relies on.
        BlockPending {
            value: MaybeUninit::zeroed(),
        }
    }

    /// The slot's address in the running copy of the frame.
    #[doc(hidden)]
    pub fn __slot(&mut self) -> *mut R {
        self.value.as_mut_ptr()
    }

    /// Not available before the join: see [`Pending::get`].
    pub fn get(&self) -> R
    where
        Self: Readable,
    {
        unreachable!("BlockPending is never Readable")
    }

    /// Re-binds the handle as joined (what `taskwait!()` does to every handle in scope).
    ///
    /// # Safety
    /// The taskwait covering this child has returned, so the child wrote its result.
    #[doc(hidden)]
    pub unsafe fn __joined(self) -> BlockJoined<R> {
        BlockJoined { value: self.value }
    }
}

/// A block task's handle on a child's result after the join: [`BlockJoined::get`] reads it.
pub struct BlockJoined<R> {
    value: MaybeUninit<R>,
}

impl<R> Readable for BlockJoined<R> {}

impl<R: Copy> Clone for BlockJoined<R> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<R: Copy> Copy for BlockJoined<R> {}

impl<R: Copy> BlockJoined<R> {
    /// The child's result.
    pub fn get(&self) -> R {
        // SAFETY: a `BlockJoined` is made only after the join, when the child has written
        // the slot (in the record's copy of the frame, which this copy was taken from).
        unsafe { self.value.assume_init() }
    }

    /// Joining twice changes nothing.
    #[doc(hidden)]
    pub unsafe fn __joined(self) -> BlockJoined<R> {
        self
    }
}
