//! [`View`] and [`ViewMut`]: a shared and an exclusive view of an array, which a task may
//! take as an argument (a root task too: the host makes them from a `DeviceVec`).
//!
//! They are `&'a [T]` and `&'a mut [T]` that may point into GPU memory while on the host:
//! the host can hold one and hand it to a run, but only code where the memory is can turn
//! it into a slice ([`super::home`]). Inside tasks, work on slices: a task may take `&[T]` and
//! `&mut [T]` arguments as well, and split them with the slice methods; a view is what a
//! task takes when it is a root, or when it hands its array on to children that are roots
//! elsewhere too.

use core::marker::PhantomData;
use core::ptr::NonNull;

use super::Plain;
use super::home::{Home, Raw};

/// A shared view of `len` elements of type `T`, in host or GPU memory, borrowed for `'a`.
///
/// `Copy`: hand the same view to as many children as you like. The host makes one with
/// `DeviceVec::view`; device code and CPU-backend code may also view a slice of their own
/// memory ([`View::from_slice`]).
///
/// ```
/// use gtap_device::data::View;
///
/// let xs = [1u32, 2, 3, 4];
/// let v = View::from_slice(&xs);
/// let (a, b) = v.split_at(1);
/// assert_eq!((a.as_slice(), b.len()), (&[1][..], 3));
/// ```
#[repr(C)]
pub struct View<'a, T> {
    raw: Raw<T>,
    _borrow: PhantomData<&'a [T]>,
}

impl<T> Clone for View<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for View<'_, T> {}

// SAFETY: a `View` gives the access a `&[T]` gives (shared reads), so it may cross threads
// when `&[T]` may.
unsafe impl<T: Sync> Send for View<'_, T> {}
// SAFETY: as above.
unsafe impl<T: Sync> Sync for View<'_, T> {}

impl<'a, T: Plain> View<'a, T> {
    /// Views `slice`, in the memory of the code that runs this ([`Home::HERE`]).
    #[inline(always)]
    pub fn from_slice(slice: &'a [T]) -> Self {
        View {
            raw: Raw::new(NonNull::from(slice).cast(), slice.len(), Home::HERE),
            _borrow: PhantomData,
        }
    }

    /// A view of `len` elements at `ptr` in `home`'s memory (how `DeviceVec` makes one).
    ///
    /// # Safety
    /// `ptr` is non-null and aligned, and `len` elements from it are valid in `home`'s memory
    /// and not written by anyone for `'a`.
    #[inline(always)]
    pub unsafe fn from_raw_parts(ptr: *const T, len: usize, home: Home) -> Self {
        let ptr = NonNull::new(ptr.cast_mut()).expect("gtap: a view of a null pointer");
        View {
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

    /// The elements.
    ///
    /// # Panics
    /// If they are in the other backend's memory (a view of GPU memory on the CPU backend,
    /// or of host memory on the GPU): see [`Home`].
    #[inline(always)]
    #[track_caller]
    pub fn as_slice(&self) -> &'a [T] {
        let ptr = self.raw.checked_ptr();
        // SAFETY: `len` elements at `ptr` are valid here (checked home, the constructors'
        // contract) and only read for `'a`.
        unsafe { core::slice::from_raw_parts(ptr.as_ptr(), self.len()) }
    }

    /// The elements `0..mid` and `mid..len`.
    ///
    /// # Panics
    /// If `mid > len`.
    #[inline(always)]
    #[track_caller]
    pub fn split_at(self, mid: usize) -> (View<'a, T>, View<'a, T>) {
        let (a, b) = self.raw.split_at(mid);
        (
            View {
                raw: a,
                _borrow: PhantomData,
            },
            View {
                raw: b,
                _borrow: PhantomData,
            },
        )
    }
}

impl<'a, T: Plain> From<&'a [T]> for View<'a, T> {
    fn from(slice: &'a [T]) -> Self {
        View::from_slice(slice)
    }
}

impl<T: Plain + core::fmt::Debug> core::fmt::Debug for View<'_, T> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("View")
            .field("len", &self.len())
            .field("home", &self.home())
            .finish()
    }
}

/// An exclusive view of `len` elements of type `T`, in host or GPU memory, borrowed for `'a`.
///
/// Not `Copy`: like `&mut [T]`, there is one. Split it into disjoint parts for children
/// ([`ViewMut::split_at_mut`], or the slice's own methods after
/// [`ViewMut::as_mut_slice`]); the parts borrow the view, and a child's arguments stay
/// borrowed until the `taskwait!()` that joins it, so the whole view is usable again right
/// after that taskwait, and not before.
///
/// ```
/// use gtap_device::data::ViewMut;
///
/// let mut xs = [4u32, 3, 2, 1];
/// let mut v = ViewMut::from_slice(&mut xs);
/// let (mut a, mut b) = v.split_at_mut(2);
/// a.as_mut_slice().sort();
/// b.as_mut_slice().sort();
/// assert_eq!(v.as_slice(), &[3, 4, 1, 2]);
/// ```
#[repr(C)]
pub struct ViewMut<'a, T> {
    raw: Raw<T>,
    _borrow: PhantomData<&'a mut [T]>,
}

// SAFETY: a `ViewMut` gives the access a `&mut [T]` gives, so it may cross threads when
// `&mut [T]` may.
unsafe impl<T: Send> Send for ViewMut<'_, T> {}
// SAFETY: as above (`&ViewMut` only reads).
unsafe impl<T: Sync> Sync for ViewMut<'_, T> {}

impl<'a, T: Plain> ViewMut<'a, T> {
    /// Views `slice`, in the memory of the code that runs this ([`Home::HERE`]).
    #[inline(always)]
    pub fn from_slice(slice: &'a mut [T]) -> Self {
        let len = slice.len();
        ViewMut {
            raw: Raw::new(NonNull::from(slice).cast(), len, Home::HERE),
            _borrow: PhantomData,
        }
    }

    /// An exclusive view of `len` elements at `ptr` in `home`'s memory (how `DeviceVec`
    /// makes one).
    ///
    /// # Safety
    /// `ptr` is non-null and aligned, `len` elements from it are valid in `home`'s memory for
    /// `'a`, and nothing but this view accesses them meanwhile.
    #[inline(always)]
    pub unsafe fn from_raw_parts(ptr: *mut T, len: usize, home: Home) -> Self {
        let ptr = NonNull::new(ptr).expect("gtap: a view of a null pointer");
        ViewMut {
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

    /// The elements, for reading.
    ///
    /// # Panics
    /// If they are in the other backend's memory (see [`Home`]).
    #[inline(always)]
    #[track_caller]
    pub fn as_slice(&self) -> &[T] {
        let ptr = self.raw.checked_ptr();
        // SAFETY: valid here (checked home, constructors' contract); `&self` keeps writes
        // through this view away while the slice lives.
        unsafe { core::slice::from_raw_parts(ptr.as_ptr(), self.len()) }
    }

    /// The elements, for reading and writing.
    ///
    /// # Panics
    /// If they are in the other backend's memory (see [`Home`]).
    #[inline(always)]
    #[track_caller]
    pub fn as_mut_slice(&mut self) -> &mut [T] {
        let ptr = self.raw.checked_ptr();
        // SAFETY: valid here and accessed by nothing but this view (constructors' contract);
        // `&mut self` makes the slice the only access while it lives.
        unsafe { core::slice::from_raw_parts_mut(ptr.as_ptr(), self.len()) }
    }

    /// The elements as a slice for all of `'a` (the view is used up).
    ///
    /// # Panics
    /// If they are in the other backend's memory (see [`Home`]).
    #[inline(always)]
    #[track_caller]
    pub fn into_mut_slice(self) -> &'a mut [T] {
        let ptr = self.raw.checked_ptr();
        // SAFETY: as in `as_mut_slice`; the view is consumed, so the slice is the only
        // access for `'a`.
        unsafe { core::slice::from_raw_parts_mut(ptr.as_ptr(), self.len()) }
    }

    /// A shorter-lived exclusive view of the same elements (this view is unusable while it
    /// lives), to hand to a child and use again after the join.
    #[inline(always)]
    pub fn reborrow(&mut self) -> ViewMut<'_, T> {
        ViewMut {
            raw: self.raw,
            _borrow: PhantomData,
        }
    }

    /// The elements `0..mid` and `mid..len` as two exclusive views that borrow this one:
    /// hand them to two children, and after the `taskwait!()` that joins both this view is
    /// whole again.
    ///
    /// # Panics
    /// If `mid > len`.
    #[inline(always)]
    #[track_caller]
    pub fn split_at_mut(&mut self, mid: usize) -> (ViewMut<'_, T>, ViewMut<'_, T>) {
        self.reborrow().into_split_at(mid)
    }

    /// The elements `0..mid` and `mid..len` as two exclusive views for all of `'a` (the view
    /// is used up).
    ///
    /// # Panics
    /// If `mid > len`.
    #[inline(always)]
    #[track_caller]
    pub fn into_split_at(self, mid: usize) -> (ViewMut<'a, T>, ViewMut<'a, T>) {
        let (a, b) = self.raw.split_at(mid);
        // The two parts are disjoint, and the whole is consumed: each part is the only
        // access to its elements, as the constructors require.
        (
            ViewMut {
                raw: a,
                _borrow: PhantomData,
            },
            ViewMut {
                raw: b,
                _borrow: PhantomData,
            },
        )
    }

    /// A shared view of the same elements (this view is read-only while it lives).
    #[inline(always)]
    pub fn as_view(&self) -> View<'_, T> {
        View {
            raw: self.raw,
            _borrow: PhantomData,
        }
    }

    /// The address, length and home (the view is used up): how a block task's view becomes
    /// its threads' [`TeamMut`](super::TeamMut)s.
    #[inline(always)]
    pub(crate) fn raw(self) -> Raw<T> {
        self.raw
    }

    /// A shared view for all of `'a` (the view is used up).
    #[inline(always)]
    pub fn into_view(self) -> View<'a, T> {
        View {
            raw: self.raw,
            _borrow: PhantomData,
        }
    }
}

impl<'a, T: Plain> From<&'a mut [T]> for ViewMut<'a, T> {
    fn from(slice: &'a mut [T]) -> Self {
        ViewMut::from_slice(slice)
    }
}

impl<T: Plain> core::fmt::Debug for ViewMut<'_, T> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("ViewMut")
            .field("len", &self.len())
            .field("home", &self.home())
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn halves_are_disjoint_and_the_whole_is_usable_after_them() {
        let mut xs = [5u32, 4, 3, 2, 1];
        let mut v = ViewMut::from_slice(&mut xs);
        {
            let (mut a, mut b) = v.split_at_mut(2);
            a.as_mut_slice().sort_unstable();
            b.as_mut_slice()[0] = 9;
            assert_eq!((a.len(), b.len()), (2, 3));
        }
        assert_eq!(v.as_slice(), &[4, 5, 9, 2, 1]);
        let s = v.as_view();
        let (l, r) = s.split_at(5);
        assert_eq!((l.len(), r.len(), r.is_empty()), (5, 0, true));
        assert_eq!(l.as_slice(), &[4, 5, 9, 2, 1]);
    }

    #[test]
    fn consuming_splits_and_views_keep_the_borrow() {
        let mut xs = [1u64, 2, 3];
        let v = ViewMut::from_slice(&mut xs);
        let (a, b) = v.into_split_at(1);
        let a = a.into_mut_slice();
        let b = b.into_view().as_slice();
        a[0] = b[1];
        assert_eq!(xs, [3, 2, 3]);
    }

    #[test]
    fn views_of_gpu_memory_are_refused_here() {
        let xs = [1u32];
        // SAFETY: valid host memory, only read; labelled as GPU memory on purpose.
        let v = unsafe { View::from_raw_parts(xs.as_ptr(), 1, Home::Gpu) };
        assert_eq!((v.len(), v.home()), (1, Home::Gpu));
        extern crate std;
        assert!(std::panic::catch_unwind(|| v.as_slice().len()).is_err());
    }
}
