//! Layer 3: [`DeviceAtomic`], an integer in global or shared memory with a fixed scope, whose
//! operations are safe.
//!
//! ```ignore
//! // A grid-wide counter in global memory, handed to the kernel as `*mut u32`:
//! let counter = unsafe { DeviceAtomicU32::<Gpu>::from_ptr(ptr) };
//! let ticket = counter.fetch_add::<Relaxed>(1);            // atom.relaxed.gpu.add.u32
//! counter.store::<Release>(0);                             // st.release.gpu.u32
//! ```
//!
//! The scope is part of the type because it belongs to the *location*: every thread that
//! touches one location must use a scope that includes the others, so mixing scopes on one
//! location is a bug, and the type prevents it. The ordering belongs to each *access* and is
//! a type parameter of each method, as in PTX.
//!
//! Soundness rests on where the value lives. `atom` on local memory (the stack) is undefined
//! on the GPU (rust-lang/rust#146686), so a `DeviceAtomic` can be made only by unsafe code
//! that promises a global or shared location: [`DeviceAtomic::from_ptr`], or
//! [`DeviceAtomic::new`] for a `static`. Once made, every operation is safe.
//!
//! On the host the same type works through `core::sync::atomic` (see [`super::ops`]), so
//! host tests and a CPU backend can share code with the device.

use core::cell::UnsafeCell;
use core::marker::PhantomData;

use super::ops::AtomicInt;
use super::order::{Gpu, LoadOrdering, RmwOrdering, Scope, StoreOrdering};

/// An atomic `T` at scope `S` in global or shared memory. `#[repr(transparent)]`: the same
/// layout as `T`, so the host allocates and zeroes plain `T`s.
#[repr(transparent)]
pub struct DeviceAtomic<T: AtomicInt, S: Scope = Gpu> {
    v: UnsafeCell<T>,
    _scope: PhantomData<S>,
}

/// An atomic `u32` at scope `S`.
pub type DeviceAtomicU32<S = Gpu> = DeviceAtomic<u32, S>;
/// An atomic `i32` at scope `S`.
pub type DeviceAtomicI32<S = Gpu> = DeviceAtomic<i32, S>;
/// An atomic `u64` at scope `S`.
pub type DeviceAtomicU64<S = Gpu> = DeviceAtomic<u64, S>;
/// An atomic `i64` at scope `S`.
pub type DeviceAtomicI64<S = Gpu> = DeviceAtomic<i64, S>;

// SAFETY: every access to `v` goes through an atomic operation (`AtomicInt`), so sharing
// `&DeviceAtomic` between threads cannot race.
unsafe impl<T: AtomicInt, S: Scope> Sync for DeviceAtomic<T, S> {}

impl<T: AtomicInt, S: Scope> DeviceAtomic<T, S> {
    /// A new atomic holding `v`, for a `static` (which lives in global memory).
    ///
    /// # Safety
    /// The value must not be used from local memory: put it in a `static` (or copy it into
    /// global or shared memory) before calling any operation on it. A `DeviceAtomic` on the
    /// stack makes every operation undefined on the GPU.
    pub const unsafe fn new(v: T) -> Self {
        DeviceAtomic {
            v: UnsafeCell::new(v),
            _scope: PhantomData,
        }
    }

    /// Views `*ptr` as an atomic at scope `S`.
    ///
    /// # Safety
    /// - `ptr` is a generic address of global or shared memory (not the stack), aligned to
    ///   `size_of::<T>()`, valid for reads and writes for `'a`.
    /// - For `'a`, every access to `*ptr` is atomic and made by threads within `S`, with
    ///   scope `S` or wider (accesses through other `DeviceAtomic<T, S>` views are).
    #[inline(always)]
    pub const unsafe fn from_ptr<'a>(ptr: *mut T) -> &'a Self {
        // SAFETY: `DeviceAtomic<T, S>` is `repr(transparent)` over `UnsafeCell<T>`, which has
        // `T`'s layout; the caller guarantees validity and atomic-only access for `'a`.
        unsafe { &*ptr.cast::<Self>() }
    }

    /// The address of the value (for handing it on, e.g. to the host or another kernel).
    #[inline(always)]
    pub const fn as_ptr(&self) -> *mut T {
        self.v.get()
    }

    /// Loads the value with ordering `O` ([`Relaxed`](super::order::Relaxed) or
    /// [`Acquire`](super::order::Acquire)): `ld.<O>.<S>`.
    #[inline(always)]
    pub fn load<O: LoadOrdering>(&self) -> T {
        // SAFETY: the constructors guarantee a valid global/shared location accessed only
        // atomically within `S`.
        unsafe { T::load::<S, O>(self.v.get()) }
    }

    /// Stores `v` with ordering `O` ([`Relaxed`](super::order::Relaxed) or
    /// [`Release`](super::order::Release)): `st.<O>.<S>`.
    #[inline(always)]
    pub fn store<O: StoreOrdering>(&self, v: T) {
        // SAFETY: as in `load`.
        unsafe { T::store::<S, O>(self.v.get(), v) }
    }

    /// Adds `v` (wrapping) and returns the previous value: `atom.<O>.<S>.add`.
    #[inline(always)]
    pub fn fetch_add<O: RmwOrdering>(&self, v: T) -> T {
        // SAFETY: as in `load`.
        unsafe { T::fetch_add::<S, O>(self.v.get(), v) }
    }

    /// Stores `v` and returns the previous value: `atom.<O>.<S>.exch`.
    #[inline(always)]
    pub fn swap<O: RmwOrdering>(&self, v: T) -> T {
        // SAFETY: as in `load`.
        unsafe { T::swap::<S, O>(self.v.get(), v) }
    }

    /// Stores `new` if the value is `current`: `Ok(previous)` if it did, `Err(actual)` if
    /// not (`atom.<O>.<S>.cas`; a failed compare still has ordering `O`).
    #[inline(always)]
    pub fn compare_exchange<O: RmwOrdering>(&self, current: T, new: T) -> Result<T, T> {
        // SAFETY: as in `load`.
        let old = unsafe { T::compare_and_swap::<S, O>(self.v.get(), current, new) };
        if old == current { Ok(old) } else { Err(old) }
    }

    /// Applies `f` until a compare-and-swap succeeds (a CAS loop): `Ok(previous)` once it
    /// stores `f(previous)`, or `Err(previous)` as soon as `f` returns `None`. The first
    /// guess is a relaxed load; every attempt is `atom.<O>.<S>.cas`.
    #[inline(always)]
    pub fn fetch_update<O: RmwOrdering>(&self, mut f: impl FnMut(T) -> Option<T>) -> Result<T, T> {
        let mut cur = self.load::<super::order::Relaxed>();
        while let Some(new) = f(cur) {
            match self.compare_exchange::<O>(cur, new) {
                Ok(old) => return Ok(old),
                Err(actual) => cur = actual,
            }
        }
        Err(cur)
    }

    /// Stores the minimum of the value and `v`, returns the previous value:
    /// `atom.<O>.<S>.min` (signed for `i32`/`i64`).
    #[inline(always)]
    pub fn fetch_min<O: RmwOrdering>(&self, v: T) -> T {
        // SAFETY: as in `load`.
        unsafe { T::fetch_min::<S, O>(self.v.get(), v) }
    }

    /// Stores the maximum of the value and `v`, returns the previous value:
    /// `atom.<O>.<S>.max` (signed for `i32`/`i64`).
    #[inline(always)]
    pub fn fetch_max<O: RmwOrdering>(&self, v: T) -> T {
        // SAFETY: as in `load`.
        unsafe { T::fetch_max::<S, O>(self.v.get(), v) }
    }

    /// Stores `value & v`, returns the previous value: `atom.<O>.<S>.and`.
    #[inline(always)]
    pub fn fetch_and<O: RmwOrdering>(&self, v: T) -> T {
        // SAFETY: as in `load`.
        unsafe { T::fetch_and::<S, O>(self.v.get(), v) }
    }

    /// Stores `value | v`, returns the previous value: `atom.<O>.<S>.or`.
    #[inline(always)]
    pub fn fetch_or<O: RmwOrdering>(&self, v: T) -> T {
        // SAFETY: as in `load`.
        unsafe { T::fetch_or::<S, O>(self.v.get(), v) }
    }

    /// Stores `value ^ v`, returns the previous value: `atom.<O>.<S>.xor`.
    #[inline(always)]
    pub fn fetch_xor<O: RmwOrdering>(&self, v: T) -> T {
        // SAFETY: as in `load`.
        unsafe { T::fetch_xor::<S, O>(self.v.get(), v) }
    }
}

impl<T: AtomicInt + core::fmt::Debug, S: Scope> core::fmt::Debug for DeviceAtomic<T, S> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_tuple("DeviceAtomic")
            .field(&self.load::<super::order::Relaxed>())
            .finish()
    }
}
