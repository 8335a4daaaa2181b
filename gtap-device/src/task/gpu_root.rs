//! Whether a task's arguments may be a root on the GPU: none of them holds a reference.
//!
//! A task may take `&[T]` and `&mut [T]`, and on the CPU backend the host may pass its own
//! slices to a root. On the GPU it may not: a reference made on the host points into host
//! memory, which a kernel must not read (at best it faults, which leaves CUDA unusable in the
//! process). Views ([`View`] and the others) are how the host hands GPU
//! memory to a root. So every generated task constructor computes, from its parameter
//! types, whether the call holds a reference anywhere ([`NoRef`], an auto trait, looks
//! through every field), and the GPU runtime refuses a root that does, with a typed error,
//! before it launches anything.
//!
//! The constructor asks per parameter type `T` with
//! `(&Probe::<T>::new()).__gtap_gpu_root()`: method resolution picks [`ProbeGpuRoot`]
//! (`true`) when `T: NoRef`, and otherwise, one auto-reference further, [`ProbeHostRef`]
//! (`false`). Task parameter types are concrete (tasks are not generic), so the choice is
//! made at compile time, where the type is known.

use core::marker::PhantomData;

use crate::data::{AtomicValue, AtomicView, View, ViewMut};

/// Types that hold no reference (`&T`, `&mut T`) anywhere in them. Raw pointers and views
/// are not references: a view of GPU memory is how the host hands one to the GPU.
pub auto trait NoRef {}

impl<T: ?Sized> !NoRef for &T {}
impl<T: ?Sized> !NoRef for &mut T {}
// The views hold their borrow as `PhantomData<&[T]>`, which is no reference at run time.
impl<T> NoRef for View<'_, T> {}
impl<T> NoRef for ViewMut<'_, T> {}
impl<T: AtomicValue> NoRef for AtomicView<'_, T> {}

/// The probe the generated constructors ask about a parameter type `T`.
#[doc(hidden)]
pub struct Probe<T: ?Sized>(PhantomData<fn() -> PhantomData<T>>);

impl<T: ?Sized> Probe<T> {
    /// A probe for `T`.
    #[doc(hidden)]
    #[allow(clippy::new_without_default)]
    pub const fn new() -> Self {
        Probe(PhantomData)
    }
}

/// Answers `true` for a parameter type without references (see the module docs).
#[doc(hidden)]
pub trait ProbeGpuRoot {
    /// Whether the parameter may be part of a GPU root.
    #[inline(always)]
    fn __gtap_gpu_root(&self) -> bool {
        true
    }
}
impl<T: ?Sized + NoRef> ProbeGpuRoot for Probe<T> {}

/// Answers `false` for a parameter type that holds a reference (see the module docs).
#[doc(hidden)]
pub trait ProbeHostRef {
    /// Whether the parameter may be part of a GPU root.
    #[inline(always)]
    fn __gtap_gpu_root(&self) -> bool {
        false
    }
}
impl<T: ?Sized> ProbeHostRef for &Probe<T> {}

#[cfg(test)]
mod tests {
    use super::*;

    struct Holds<'a> {
        _x: &'a [u32],
    }
    struct Plain {
        _v: View<'static, u32>,
        _p: *const u8,
    }

    // The `&` is how the generated constructors ask: it picks the method.
    #[allow(clippy::needless_borrow)]
    #[test]
    fn references_anywhere_are_found_and_views_are_not_references() {
        assert!((&Probe::<u32>::new()).__gtap_gpu_root());
        assert!((&Probe::<ViewMut<'_, u32>>::new()).__gtap_gpu_root());
        assert!((&Probe::<AtomicView<'_, u64>>::new()).__gtap_gpu_root());
        assert!((&Probe::<Plain>::new()).__gtap_gpu_root());
        assert!(!(&Probe::<&[u32]>::new()).__gtap_gpu_root());
        assert!(!(&Probe::<&mut u32>::new()).__gtap_gpu_root());
        assert!(!(&Probe::<Holds<'_>>::new()).__gtap_gpu_root());
        assert!(!(&Probe::<(u32, &'static str)>::new()).__gtap_gpu_root());
    }
}
