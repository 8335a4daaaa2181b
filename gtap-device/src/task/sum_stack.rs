//! The pending calls of a summing sequential version: a small stack of argument tuples.
//!
//! A task whose result is the sum of its children's results (fib, nqueens: see
//! `gtap-macros/src/seq_sum.rs`) gets a sequential version that does not recurse: each
//! spawn pushes the child's arguments here, a loop pops them one by one and runs the task's
//! body on them, and every body's own part of the result goes into one running sum. On the
//! GPU this takes the task's results and frames out of the call ABI, which saves and restores
//! registers in local memory at every call, and drops the per-call result slots (a `slots!`
//! array of 32 results is 256 bytes to clear and sum at every call).
//!
//! The stack is a fixed buffer of [`BYTES`] bytes in the caller's frame (local memory on the
//! GPU), so that a call's frame has a known size, and the newest tuple in a local beside it;
//! how many tuples fit depends on the tuple's size. A push that finds it full hands the
//! tuple back, and the caller runs that child by a call of the summing version itself, with
//! a stack of its own: correct for any tree, and rare for the trees it is made for (a binary
//! tree of depth `d` keeps at most `d` calls pending, a search of `n` rows at most the free
//! columns of the rows between).

use core::mem::{MaybeUninit, align_of, size_of};

/// The buffer's size in bytes.
pub const BYTES: usize = 768;

/// Words of the buffer: its storage is `u64`s, so a tuple of alignment up to 8 fits.
const WORDS: usize = BYTES / size_of::<u64>();

/// The storage of a [`SumStack`], a local of the summing loop's function.
///
/// Apart from the stack's length, which then stays in a register: in one struct with the
/// buffer (which lives in local memory, being indexed) the length was stored and reloaded at
/// every push, and its initial zero was merged with the uninitialised buffer into a loop
/// that cleared the whole buffer at every call.
pub type SumBuffer = MaybeUninit<[u64; WORDS]>;

/// A stack of values of `A` in a [`SumBuffer`]: at most `BYTES / size_of::<A>()` there
/// (none when `A`'s alignment is above 8, or `A` is zero-sized), and with `KEEP_TOP` the
/// newest one more, in a local beside it ([`SumStack::push`] says when that pays).
pub struct SumStack<'b, A, const KEEP_TOP: bool> {
    buf: &'b mut SumBuffer,
    len: usize,
    /// With `KEEP_TOP`, the value pushed last, kept out of the buffer (else always `None`).
    top: Option<A>,
    _values: core::marker::PhantomData<A>,
}

impl<'b, A, const KEEP_TOP: bool> SumStack<'b, A, KEEP_TOP> {
    /// How many values fit in the buffer: a constant for each `A`, folded at compile time.
    const CAP: usize = if align_of::<A>() > align_of::<u64>() || size_of::<A>() == 0 {
        0
    } else {
        BYTES / size_of::<A>()
    };

    /// An empty stack in `buf`, whose contents it ignores: it reads only what it pushed.
    #[inline(always)]
    pub fn new(buf: &'b mut SumBuffer) -> Self {
        SumStack {
            buf,
            len: 0,
            top: None,
            _values: core::marker::PhantomData,
        }
    }

    /// Pushes `value`, or hands it back when the stack is full.
    ///
    /// With `KEEP_TOP` the newest value stays in a local, and a push moves the one there into
    /// the buffer. The summing loop pops right after a task's body pushed its children, so
    /// the last child pushed comes from that local, and on the GPU, where the buffer is local
    /// memory, without a load that the loop's next step waits for: in a binary tree only a
    /// leaf's pop loads. A body that pushes many children in a loop of its own (a search's
    /// placements) pays for moving each through the local, and keeps no top.
    #[inline(always)]
    pub fn push(&mut self, value: A) -> Result<(), A> {
        if !KEEP_TOP {
            return self.store(value);
        }
        let Some(older) = self.top.take() else {
            self.top = Some(value);
            return Ok(());
        };
        match self.store(older) {
            Ok(()) => {
                self.top = Some(value);
                Ok(())
            }
            Err(older) => {
                self.top = Some(older);
                Err(value)
            }
        }
    }

    /// Pushes `value` into the buffer, or hands it back when the buffer is full.
    #[inline(always)]
    fn store(&mut self, value: A) -> Result<(), A> {
        if self.len >= Self::CAP {
            return Err(value);
        }
        let at = self.buf.as_mut_ptr().cast::<A>().wrapping_add(self.len);
        // SAFETY: `len < CAP`, so `at` and the `size_of::<A>()` bytes after it lie inside
        // the buffer (`CAP * size_of::<A>() <= BYTES`), and it is aligned for `A` (the
        // buffer is aligned to 8, `A`'s alignment divides 8 when `CAP > 0`, and
        // `size_of::<A>()` is a multiple of it). The slot holds no live value (slots from
        // `len` on are free), and the buffer is borrowed exclusively by this stack.
        unsafe { at.write(value) };
        self.len += 1;
        Ok(())
    }

    /// Pops the value pushed last, if any.
    #[inline(always)]
    pub fn pop(&mut self) -> Option<A> {
        if KEEP_TOP && let Some(value) = self.top.take() {
            return Some(value);
        }
        if self.len == 0 {
            return None;
        }
        self.len -= 1;
        let at = self.buf.as_ptr().cast::<A>().wrapping_add(self.len);
        // SAFETY: slot `len` (before the decrement, `len - 1` now) was written by a push and
        // not read since: slots below `len` hold live values, and this read moves the value
        // out of the slot, which is free from now on.
        Some(unsafe { at.read() })
    }
}

impl<A, const KEEP_TOP: bool> Drop for SumStack<'_, A, KEEP_TOP> {
    fn drop(&mut self) {
        // Values still pending when a body panics out of the loop: drop them as a
        // recursion's frames would. (A loop that ends normally has popped them all.)
        while self.pop().is_some() {}
    }
}

#[cfg(test)]
mod tests {
    extern crate std;

    use super::*;

    /// Pushes until full, then pops everything: the values come back newest first.
    fn fill_and_empty<const KEEP_TOP: bool>() {
        let mut buf = SumBuffer::uninit();
        let mut s = SumStack::<(u32, u64), KEEP_TOP>::new(&mut buf);
        // The buffer's values, and with `KEEP_TOP` the newest one beside it.
        let cap = BYTES / size_of::<(u32, u64)>() + usize::from(KEEP_TOP);
        for i in 0..cap as u32 {
            assert_eq!(s.push((i, u64::from(i) * 3)), Ok(()));
        }
        assert_eq!(s.push((7, 7)), Err((7, 7)), "full");
        for i in (0..cap as u32).rev() {
            assert_eq!(s.pop(), Some((i, u64::from(i) * 3)));
        }
        assert_eq!(s.pop(), None);
        assert_eq!(s.push((1, 2)), Ok(()), "room again");
    }

    #[test]
    fn pops_in_reverse_order_and_hands_back_past_its_capacity() {
        fill_and_empty::<false>();
        fill_and_empty::<true>();
    }

    /// A summing loop's pattern, against a `Vec`: pop one, push zero to three.
    fn interleaved<const KEEP_TOP: bool>() {
        let mut buf = SumBuffer::uninit();
        let mut s = SumStack::<u32, KEEP_TOP>::new(&mut buf);
        let mut model = std::vec::Vec::new();
        let mut x = 12345u32;
        for step in 0..2_000u32 {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            for k in 0..x % 4 {
                let v = step * 4 + k;
                assert_eq!(s.push(v), Ok(()));
                model.push(v);
            }
            assert_eq!(s.pop(), model.pop());
            while model.len() > 100 {
                assert_eq!(s.pop(), model.pop());
            }
        }
        while let Some(v) = model.pop() {
            assert_eq!(s.pop(), Some(v));
        }
        assert_eq!(s.pop(), None);
    }

    #[test]
    fn interleaved_pushes_and_pops_keep_the_order() {
        interleaved::<false>();
        interleaved::<true>();
    }

    #[test]
    fn over_aligned_or_zero_sized_values_fit_only_beside_the_buffer() {
        #[repr(align(16))]
        #[derive(Debug, PartialEq)]
        struct Wide(u8);
        let mut buf = SumBuffer::uninit();
        assert_eq!(
            SumStack::<Wide, false>::new(&mut buf).push(Wide(1)),
            Err(Wide(1))
        );
        assert_eq!(SumStack::<(), false>::new(&mut buf).push(()), Err(()));
        let mut wide = SumStack::<Wide, true>::new(&mut buf);
        assert_eq!(wide.push(Wide(1)), Ok(()));
        assert_eq!(wide.push(Wide(2)), Err(Wide(2)), "only the local");
        assert_eq!(wide.pop(), Some(Wide(1)));
        assert_eq!(wide.pop(), None);
        drop(wide);
        let mut unit = SumStack::<(), true>::new(&mut buf);
        assert_eq!(unit.push(()), Ok(()));
        assert_eq!(unit.push(()), Err(()));
    }

    #[test]
    fn values_left_pending_are_dropped() {
        use std::rc::Rc;
        let counted = Rc::new(());
        let mut buf = SumBuffer::uninit();
        let mut s = SumStack::<_, true>::new(&mut buf);
        for _ in 0..3 {
            s.push(Rc::clone(&counted)).expect("room");
        }
        assert_eq!(Rc::strong_count(&counted), 4);
        drop(s);
        assert_eq!(Rc::strong_count(&counted), 1);
    }
}
