//! [`AtomicView`]: an array of device-wide atomics that every task may read and update at
//! once: a best bound that a search prunes with, a visited flag per vertex, a depth per
//! vertex, an output written by many threads of a block.
//!
//! Each element is a [`DeviceAtomic`] at GPU scope ([`Gpu`](crate::arch::Gpu)): on the GPU
//! every operation is one PTX instruction with its scope and ordering spelled out
//! (`atom.relaxed.gpu.max.u32`), never `core::sync::atomic` (whose orderings the NVPTX
//! backend drops); on the CPU backend the same calls are `core::sync::atomic` operations
//! with the same ordering.
//!
//! # Memory ordering
//! The view's own methods ([`AtomicView::load`], [`AtomicView::store`],
//! [`AtomicView::fetch_max`], [`AtomicView::set_bit`], ...) are `Relaxed`, which is what a
//! bound, a flag or a counter needs and nothing more: each operation is atomic (no update is
//! lost and no value is torn), and
//! - a task that reads a stale bound only prunes less, so the result is the same;
//! - what a task writes before it spawns a child is visible to the child, and what a child
//!   writes is visible to its parent after the `taskwait!()` that joins it: the runtime's
//!   spawn and join carry release/acquire edges (see the runtime's join protocol);
//! - the host reads the values after the run has ended, which orders every write of the run
//!   before the read (the CPU backend joins its workers; the GPU's kernel has completed).
//!
//! Where one value *publishes* others (a flag set after writing a solution that another task
//! reads once it sees the flag), take the element with [`AtomicView::get`] and use an
//! acquire load and a release store or read-modify-write on it:
//! `view.get(i).store::<Release>(1)`, `view.get(i).load::<Acquire>()`.
//!
//! # Scope
//! `.gpu`: every task of a run runs on one GPU, so every access to the array comes from a
//! thread of that GPU, and `.gpu` atomics are atomic with respect to each other. The host
//! touches the array only before and after a run (kernel boundaries order that), so `.sys`
//! would only cost more.

use core::marker::PhantomData;
use core::ptr::NonNull;

use super::Plain;
use super::home::{Home, Raw};
use crate::arch::{AtomicInt, DeviceAtomic, Relaxed};

mod sealed {
    pub trait Sealed {}
}

/// A type an [`AtomicView`] may hold: the integers `u32`, `i32`, `u64`, `i64` (every
/// operation), and `f32`, `f64` (loads, stores and swaps, through their bits). Sealed.
pub trait AtomicValue: Plain + sealed::Sealed {
    /// The integer the value is stored as: itself for integers, the bits for floats.
    type Bits: AtomicInt + Plain;
    /// The value's bits.
    fn to_bits(self) -> Self::Bits;
    /// The value of `bits`.
    fn from_bits(bits: Self::Bits) -> Self;
}

macro_rules! int_value {
    ($($t:ty),*) => {$(
        impl sealed::Sealed for $t {}
        impl AtomicValue for $t {
            type Bits = $t;
            #[inline(always)]
            fn to_bits(self) -> $t {
                self
            }
            #[inline(always)]
            fn from_bits(bits: $t) -> $t {
                bits
            }
        }
    )*};
}
int_value!(u32, i32, u64, i64);

macro_rules! float_value {
    ($($t:ty: $bits:ty),*) => {$(
        impl sealed::Sealed for $t {}
        impl AtomicValue for $t {
            type Bits = $bits;
            #[inline(always)]
            fn to_bits(self) -> $bits {
                <$t>::to_bits(self)
            }
            #[inline(always)]
            fn from_bits(bits: $bits) -> $t {
                <$t>::from_bits(bits)
            }
        }
    )*};
}
float_value!(f32: u32, f64: u64);

/// A view of `len` atomics holding `T`s, in host or GPU memory, borrowed for `'a`.
///
/// `Copy`: every task may hold the same view and update it concurrently. The host makes one
/// with `DeviceVec::atomics` (which takes the vector exclusively for as long as the view
/// lives, so that no plain access on the host races with a task's atomic one). Element
/// operations check the index and the view's [`Home`] each time; a task that updates one
/// element often can take it once with [`AtomicView::get`] and pass the
/// `&DeviceAtomic` itself to its children.
///
/// ```
/// use gtap_device::data::AtomicView;
///
/// let mut best = [0u32; 1];
/// let v = AtomicView::from_slice(&mut best);
/// v.fetch_max(0, 7);
/// v.fetch_max(0, 5);
/// assert_eq!(v.load(0), 7);
/// ```
#[repr(C)]
pub struct AtomicView<'a, T: AtomicValue> {
    raw: Raw<T::Bits>,
    _borrow: PhantomData<&'a [DeviceAtomic<T::Bits>]>,
}

impl<T: AtomicValue> Clone for AtomicView<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T: AtomicValue> Copy for AtomicView<'_, T> {}

// SAFETY: every access through the view is atomic, so sharing it between threads cannot race.
unsafe impl<T: AtomicValue> Send for AtomicView<'_, T> {}
// SAFETY: as above.
unsafe impl<T: AtomicValue> Sync for AtomicView<'_, T> {}

impl<'a, T: AtomicValue> AtomicView<'a, T> {
    /// Views `slice` as atomics, in the memory of the code that runs this ([`Home::HERE`]).
    /// The exclusive borrow guarantees that nothing accesses the elements non-atomically
    /// while the view lives.
    #[inline(always)]
    pub fn from_slice(slice: &'a mut [T]) -> Self {
        let len = slice.len();
        AtomicView {
            raw: Raw::new(NonNull::from(slice).cast(), len, Home::HERE),
            _borrow: PhantomData,
        }
    }

    /// A view of `len` atomics at `ptr` in `home`'s memory (how `DeviceVec` makes one).
    ///
    /// # Safety
    /// `ptr` is non-null, aligned to `size_of::<T>()`, in global memory (never a stack: see
    /// [`DeviceAtomic::from_ptr`]), and `len` elements from it are valid in `home`'s memory
    /// for `'a` and accessed only atomically meanwhile.
    #[inline(always)]
    pub unsafe fn from_raw_parts(ptr: *mut T, len: usize, home: Home) -> Self {
        let ptr = NonNull::new(ptr.cast::<T::Bits>()).expect("gtap: a view of a null pointer");
        AtomicView {
            raw: Raw::new(ptr, len, home),
            _borrow: PhantomData,
        }
    }

    /// The number of elements.
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.raw.len()
    }

    /// Whether the view has no elements.
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Where the elements are.
    #[inline(always)]
    pub fn home(&self) -> Home {
        self.raw.home()
    }

    /// Element `i`, with every operation of [`DeviceAtomic`] at any ordering (for floats,
    /// on their bits).
    ///
    /// # Panics
    /// If `i >= len`, or the elements are in the other backend's memory (see [`Home`]).
    #[inline(always)]
    #[track_caller]
    pub fn get(&self, i: usize) -> &'a DeviceAtomic<T::Bits> {
        &self.as_slice()[i]
    }

    /// Every element, as a slice of atomics that a task may pass to its children.
    ///
    /// # Panics
    /// If the elements are in the other backend's memory (see [`Home`]).
    #[inline(always)]
    #[track_caller]
    pub fn as_slice(&self) -> &'a [DeviceAtomic<T::Bits>] {
        let ptr = self.raw.checked_ptr();
        // SAFETY: `DeviceAtomic<B>` is `repr(transparent)` over `B`; `len` elements at `ptr`
        // are valid here, in global memory, and accessed only atomically for `'a` (the
        // constructors' contracts).
        unsafe { core::slice::from_raw_parts(ptr.as_ptr().cast(), self.len()) }
    }

    /// Element `i` (`Relaxed`; see the module docs).
    #[inline(always)]
    #[track_caller]
    pub fn load(&self, i: usize) -> T {
        T::from_bits(self.get(i).load::<Relaxed>())
    }

    /// Sets element `i` to `v` (`Relaxed`).
    #[inline(always)]
    #[track_caller]
    pub fn store(&self, i: usize, v: T) {
        self.get(i).store::<Relaxed>(v.to_bits())
    }

    /// Sets element `i` to `v` and returns what it held (`Relaxed`).
    #[inline(always)]
    #[track_caller]
    pub fn swap(&self, i: usize, v: T) -> T {
        T::from_bits(self.get(i).swap::<Relaxed>(v.to_bits()))
    }

    /// Sets element `i` to `new` if it holds `current` (compared bit for bit): `Ok` with
    /// the value it held if it did, `Err` with the value it holds if not (`Relaxed`).
    #[inline(always)]
    #[track_caller]
    pub fn compare_exchange(&self, i: usize, current: T, new: T) -> Result<T, T> {
        self.get(i)
            .compare_exchange::<Relaxed>(current.to_bits(), new.to_bits())
            .map(T::from_bits)
            .map_err(T::from_bits)
    }
}

/// The integer operations (`Relaxed`; see the module docs).
impl<T: AtomicValue<Bits = T> + AtomicInt> AtomicView<'_, T> {
    /// Raises element `i` to `v` if `v` is larger; returns what it held (`atom.max`).
    #[inline(always)]
    #[track_caller]
    pub fn fetch_max(&self, i: usize, v: T) -> T {
        self.get(i).fetch_max::<Relaxed>(v)
    }

    /// Lowers element `i` to `v` if `v` is smaller; returns what it held (`atom.min`).
    #[inline(always)]
    #[track_caller]
    pub fn fetch_min(&self, i: usize, v: T) -> T {
        self.get(i).fetch_min::<Relaxed>(v)
    }

    /// Adds `v` to element `i` (wrapping); returns what it held (`atom.add`).
    #[inline(always)]
    #[track_caller]
    pub fn fetch_add(&self, i: usize, v: T) -> T {
        self.get(i).fetch_add::<Relaxed>(v)
    }

    /// Sets the bits of `v` in element `i`; returns what it held (`atom.or`).
    #[inline(always)]
    #[track_caller]
    pub fn fetch_or(&self, i: usize, v: T) -> T {
        self.get(i).fetch_or::<Relaxed>(v)
    }

    /// Clears the bits of element `i` that are clear in `v`; returns what it held
    /// (`atom.and`).
    #[inline(always)]
    #[track_caller]
    pub fn fetch_and(&self, i: usize, v: T) -> T {
        self.get(i).fetch_and::<Relaxed>(v)
    }
}

macro_rules! flags {
    ($($t:ty),*) => {$(
        /// The array as a set of flags, one bit each (`Relaxed`; see the module docs): flag
        /// `k` is bit `k % BITS` of element `k / BITS`.
        impl AtomicView<'_, $t> {
            /// The number of flags: `len * BITS`.
            #[inline(always)]
            pub fn flags(&self) -> usize {
                self.len() * <$t>::BITS as usize
            }

            /// Whether flag `k` is set.
            ///
            /// # Panics
            /// If `k >= self.flags()`, or the elements are in the other backend's memory.
            #[inline(always)]
            #[track_caller]
            pub fn test_bit(&self, k: usize) -> bool {
                let (word, bit) = (k / <$t>::BITS as usize, k % <$t>::BITS as usize);
                self.load(word) & (1 << bit) != 0
            }

            /// Sets flag `k`; `true` if this call set it (it was clear), `false` if it was
            /// set already. Of many tasks that set one flag at once, exactly one gets `true`:
            /// the "first visitor" of a vertex.
            ///
            /// # Panics
            /// As [`Self::test_bit`].
            #[inline(always)]
            #[track_caller]
            pub fn set_bit(&self, k: usize) -> bool {
                let (word, bit) = (k / <$t>::BITS as usize, k % <$t>::BITS as usize);
                self.fetch_or(word, 1 << bit) & (1 << bit) == 0
            }
        }
    )*};
}
flags!(u32, u64);

impl<T: AtomicValue + core::fmt::Debug> core::fmt::Debug for AtomicView<'_, T> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("AtomicView")
            .field("len", &self.len())
            .field("home", &self.home())
            .finish()
    }
}

#[cfg(test)]
mod tests {
    extern crate std;

    use super::*;

    #[test]
    fn integer_operations() {
        let mut xs = [10u64, 0, 0];
        let v = AtomicView::from_slice(&mut xs);
        assert_eq!(v.fetch_max(0, 5), 10);
        assert_eq!(v.fetch_min(0, 3), 10);
        assert_eq!(v.fetch_add(1, 2), 0);
        assert_eq!(v.fetch_or(2, 0b101), 0);
        assert_eq!(v.fetch_and(2, 0b100), 0b101);
        assert_eq!(v.swap(1, 9), 2);
        assert_eq!(v.compare_exchange(1, 9, 8), Ok(9));
        assert_eq!(v.compare_exchange(1, 9, 7), Err(8));
        assert_eq!((v.load(0), v.load(1), v.load(2)), (3, 8, 0b100));
    }

    #[test]
    fn flags_are_set_once() {
        let mut words = [0u32; 2];
        let v = AtomicView::from_slice(&mut words);
        assert_eq!(v.flags(), 64);
        assert!(v.set_bit(33));
        assert!(!v.set_bit(33));
        assert!(v.test_bit(33) && !v.test_bit(32));
        assert_eq!(words, [0, 2]);
    }

    #[test]
    fn floats_travel_as_bits() {
        let mut ys = [0.0f32; 2];
        let v = AtomicView::from_slice(&mut ys);
        v.store(1, 2.5);
        assert_eq!(v.swap(1, -1.0), 2.5);
        assert_eq!(v.compare_exchange(0, 0.0, 1.5), Ok(0.0));
        assert_eq!(ys, [1.5, -1.0]);
    }

    #[test]
    fn threads_agree_on_one_maximum_and_one_first_visitor() {
        let mut best = [0u32; 1];
        let mut seen = [0u32; 1];
        let (best_v, seen_v) = (
            AtomicView::from_slice(&mut best),
            AtomicView::from_slice(&mut seen),
        );
        let firsts: u32 = std::thread::scope(|s| {
            let hs: std::vec::Vec<_> = (0..4u32)
                .map(|t| {
                    s.spawn(move || {
                        for x in 0..50 {
                            best_v.fetch_max(0, x * 4 + t);
                        }
                        u32::from(seen_v.set_bit(5))
                    })
                })
                .collect();
            hs.into_iter().map(|h| h.join().unwrap()).sum()
        });
        assert_eq!((best[0], firsts, seen[0]), (199, 1, 1 << 5));
    }
}
