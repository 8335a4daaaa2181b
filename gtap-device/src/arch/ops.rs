//! Layer 2: atomics, strong loads and stores, and fences, parameterised by scope and
//! ordering *types* (see [`super::order`]).
//!
//! `<u32 as AtomicInt>::fetch_add::<Gpu, AcqRel>(p, 1)` is `atom.acq_rel.gpu.add.u32` and
//! nothing else: each operation matches on `S::KIND` and `O::KIND`, which are constants in
//! every monomorphised instance, so after inlining exactly one layer-1 (`arch::raw`) wrapper is
//! left. (`tests/tests/ptx_text.rs` checks this for every combination, in PTX.)
//!
//! The integer types are `u32`, `i32`, `u64`, `i64`; signed values travel through the
//! unsigned or bit-typed instruction where signedness does not matter (`add`, `exch`, `cas`,
//! bit operations, loads, stores) and through the `.s32`/`.s64` form where it does (`min`,
//! `max`).
//!
//! # On the host
//! [`AtomicInt`] and [`fence`] also exist on the host, implemented with
//! `core::sync::atomic` (where scope means nothing and ordering maps one to one), so code
//! written against them can be tested on the CPU. On the device `core::sync::atomic` is
//! never used: the NVPTX backend drops the ordering of its read-modify-writes and gives the
//! rest `.sys` scope (rust-lang/rust#136480).

use super::order::{FenceOrdering, LoadOrdering, RmwOrdering, Scope, StoreOrdering};
#[cfg(target_arch = "nvptx64")]
use super::order::{Ordering, OrderingKind, ScopeKind};
#[cfg(target_arch = "nvptx64")]
use super::raw;

mod sealed {
    pub trait Sealed {}
}

/// An integer type the device can operate on atomically: `u32`, `i32`, `u64`, `i64`.
/// Sealed.
///
/// Every operation takes its scope `S` and ordering `O` as type parameters (see the module
/// docs) and compiles to one `atom`, `ld` or `st` instruction.
///
/// # Safety (every method)
/// The pointer must be a generic address of global or shared memory (never a local
/// variable: atomics on the stack are undefined on the GPU, rust-lang/rust#146686), aligned
/// to `size_of::<Self>()` and valid for the access. Every concurrent access to the location
/// must be atomic and by a thread within `S` (a weak, plain access racing with it is a data
/// race, and so is an atomic one from outside the scope).
pub trait AtomicInt: sealed::Sealed + Copy + Eq + Send + Sync + 'static {
    /// Atomically loads `*p` (`ld.<O>.<S>`).
    ///
    /// # Safety
    /// See the trait docs.
    unsafe fn load<S: Scope, O: LoadOrdering>(p: *const Self) -> Self;
    /// Atomically stores `v` to `*p` (`st.<O>.<S>`).
    ///
    /// # Safety
    /// See the trait docs.
    unsafe fn store<S: Scope, O: StoreOrdering>(p: *mut Self, v: Self);
    /// Adds `v` to `*p` (wrapping) and returns the old value (`atom.<O>.<S>.add`).
    ///
    /// # Safety
    /// See the trait docs.
    unsafe fn fetch_add<S: Scope, O: RmwOrdering>(p: *mut Self, v: Self) -> Self;
    /// Writes `v` to `*p` and returns the old value (`atom.<O>.<S>.exch`).
    ///
    /// # Safety
    /// See the trait docs.
    unsafe fn swap<S: Scope, O: RmwOrdering>(p: *mut Self, v: Self) -> Self;
    /// If `*p == current` writes `new`; returns the old value either way, so the swap
    /// happened iff the result equals `current` (`atom.<O>.<S>.cas`). A failed compare is
    /// still an access with ordering `O`.
    ///
    /// # Safety
    /// See the trait docs.
    unsafe fn compare_and_swap<S: Scope, O: RmwOrdering>(
        p: *mut Self,
        current: Self,
        new: Self,
    ) -> Self;
    /// Writes `min(*p, v)` and returns the old value (`atom.<O>.<S>.min`).
    ///
    /// # Safety
    /// See the trait docs.
    unsafe fn fetch_min<S: Scope, O: RmwOrdering>(p: *mut Self, v: Self) -> Self;
    /// Writes `max(*p, v)` and returns the old value (`atom.<O>.<S>.max`).
    ///
    /// # Safety
    /// See the trait docs.
    unsafe fn fetch_max<S: Scope, O: RmwOrdering>(p: *mut Self, v: Self) -> Self;
    /// Writes `*p & v` and returns the old value (`atom.<O>.<S>.and`).
    ///
    /// # Safety
    /// See the trait docs.
    unsafe fn fetch_and<S: Scope, O: RmwOrdering>(p: *mut Self, v: Self) -> Self;
    /// Writes `*p | v` and returns the old value (`atom.<O>.<S>.or`).
    ///
    /// # Safety
    /// See the trait docs.
    unsafe fn fetch_or<S: Scope, O: RmwOrdering>(p: *mut Self, v: Self) -> Self;
    /// Writes `*p ^ v` and returns the old value (`atom.<O>.<S>.xor`).
    ///
    /// # Safety
    /// See the trait docs.
    unsafe fn fetch_xor<S: Scope, O: RmwOrdering>(p: *mut Self, v: Self) -> Self;
}

/// Calls the raw wrapper `<module>::<prefix><sem>_<scope>_<suffix>` that `S` and `O` name.
///
/// Input: `dispatch!(S, O, atom::atom_, add_u32, (p, v), [Relaxed relaxed, ...])`
/// Output: `match O::KIND { Relaxed => match S::KIND { Cta => atom_relaxed_cta_add_u32(p, v),
/// ... }, ... }`, which folds to one call in every instance.
#[cfg(target_arch = "nvptx64")]
macro_rules! dispatch {
    ($S:ident, $O:ident, $module:ident :: $prefix:ident, $suffix:ident, $args:tt,
     [$($kind:ident $sem:ident),*]) => {
        match <$O as Ordering>::KIND {
            $(
                OrderingKind::$kind => match <$S as Scope>::KIND {
                    ScopeKind::Cta => raw::$module::${concat($prefix, $sem, _cta_, $suffix)} $args,
                    ScopeKind::Gpu => raw::$module::${concat($prefix, $sem, _gpu_, $suffix)} $args,
                    ScopeKind::Sys => raw::$module::${concat($prefix, $sem, _sys_, $suffix)} $args,
                },
            )*
            // Unreachable: the sealed ordering traits admit no other kind here.
            _ => unreachable!(),
        }
    };
}

/// Read-modify-write: every ordering.
#[cfg(target_arch = "nvptx64")]
macro_rules! rmw {
    ($S:ident, $O:ident, $suffix:ident, $args:tt) => {
        dispatch!($S, $O, atom::atom_, $suffix, $args,
            [Relaxed relaxed, Acquire acquire, Release release, AcqRel acq_rel])
    };
}

/// Implements [`AtomicInt`] for one type on the device.
///
/// Input: `i32: bits u32, add add_s32, min min_s32, max max_s32, b b32, ld u32`
/// Output: `impl AtomicInt for i32 { ... atom_<sem>_<scope>_add_s32 ... }`
#[cfg(target_arch = "nvptx64")]
macro_rules! impl_atomic_int {
    ($($t:ty: add $add:ident, min $min:ident, max $max:ident, b $b:ident, ld $ld:ident;)*) => {$(
        impl sealed::Sealed for $t {}
        impl AtomicInt for $t {
            #[inline(always)]
            unsafe fn load<S: Scope, O: LoadOrdering>(p: *const Self) -> Self {
                // SAFETY: forwarded from this method's contract (the trait docs), which is
                // the raw wrapper's.
                unsafe {
                    dispatch!(S, O, ld_st::ld_, $ld, (p.cast()),
                        [Relaxed relaxed, Acquire acquire]) as Self
                }
            }
            #[inline(always)]
            unsafe fn store<S: Scope, O: StoreOrdering>(p: *mut Self, v: Self) {
                // SAFETY: forwarded from this method's contract (the trait docs), which is
                // the raw wrapper's.
                unsafe {
                    dispatch!(S, O, ld_st::st_, $ld, (p.cast(), v as _),
                        [Relaxed relaxed, Release release])
                }
            }
            #[inline(always)]
            unsafe fn fetch_add<S: Scope, O: RmwOrdering>(p: *mut Self, v: Self) -> Self {
                // SAFETY: forwarded from this method's contract, which is the raw wrapper's.
                unsafe { rmw!(S, O, ${concat(add_, $add)}, (p.cast(), v as _)) as Self }
            }
            #[inline(always)]
            unsafe fn swap<S: Scope, O: RmwOrdering>(p: *mut Self, v: Self) -> Self {
                // SAFETY: forwarded from this method's contract, which is the raw wrapper's.
                unsafe { rmw!(S, O, ${concat(exch_, $b)}, (p.cast(), v as _)) as Self }
            }
            #[inline(always)]
            unsafe fn compare_and_swap<S: Scope, O: RmwOrdering>(
                p: *mut Self,
                current: Self,
                new: Self,
            ) -> Self {
                // SAFETY: forwarded from this method's contract, which is the raw wrapper's.
                unsafe {
                    rmw!(S, O, ${concat(cas_, $b)}, (p.cast(), current as _, new as _)) as Self
                }
            }
            #[inline(always)]
            unsafe fn fetch_min<S: Scope, O: RmwOrdering>(p: *mut Self, v: Self) -> Self {
                // SAFETY: forwarded from this method's contract, which is the raw wrapper's.
                unsafe { rmw!(S, O, ${concat(min_, $min)}, (p.cast(), v as _)) as Self }
            }
            #[inline(always)]
            unsafe fn fetch_max<S: Scope, O: RmwOrdering>(p: *mut Self, v: Self) -> Self {
                // SAFETY: forwarded from this method's contract, which is the raw wrapper's.
                unsafe { rmw!(S, O, ${concat(max_, $max)}, (p.cast(), v as _)) as Self }
            }
            #[inline(always)]
            unsafe fn fetch_and<S: Scope, O: RmwOrdering>(p: *mut Self, v: Self) -> Self {
                // SAFETY: forwarded from this method's contract, which is the raw wrapper's.
                unsafe { rmw!(S, O, ${concat(and_, $b)}, (p.cast(), v as _)) as Self }
            }
            #[inline(always)]
            unsafe fn fetch_or<S: Scope, O: RmwOrdering>(p: *mut Self, v: Self) -> Self {
                // SAFETY: forwarded from this method's contract, which is the raw wrapper's.
                unsafe { rmw!(S, O, ${concat(or_, $b)}, (p.cast(), v as _)) as Self }
            }
            #[inline(always)]
            unsafe fn fetch_xor<S: Scope, O: RmwOrdering>(p: *mut Self, v: Self) -> Self {
                // SAFETY: forwarded from this method's contract, which is the raw wrapper's.
                unsafe { rmw!(S, O, ${concat(xor_, $b)}, (p.cast(), v as _)) as Self }
            }
        }
    )*};
}

#[cfg(target_arch = "nvptx64")]
impl_atomic_int! {
    u32: add u32, min u32, max u32, b b32, ld u32;
    i32: add s32, min s32, max s32, b b32, ld u32;
    u64: add u64, min u64, max u64, b b64, ld u64;
    i64: add u64, min s64, max s64, b b64, ld u64;
}

/// Implements [`AtomicInt`] for one type on the host, with `core::sync::atomic`.
#[cfg(not(target_arch = "nvptx64"))]
macro_rules! impl_atomic_int_host {
    ($($t:ty: $atomic:ident;)*) => {$(
        impl sealed::Sealed for $t {}
        impl AtomicInt for $t {
            #[inline]
            unsafe fn load<S: Scope, O: LoadOrdering>(p: *const Self) -> Self {
                // SAFETY: the caller guarantees `p` is valid, aligned and accessed only
                // atomically, which is `from_ptr`'s contract.
                unsafe { core::sync::atomic::$atomic::from_ptr(p.cast_mut()) }
                    .load(O::KIND.to_core())
            }
            #[inline]
            unsafe fn store<S: Scope, O: StoreOrdering>(p: *mut Self, v: Self) {
                // SAFETY: as in `load`.
                unsafe { core::sync::atomic::$atomic::from_ptr(p) }.store(v, O::KIND.to_core())
            }
            #[inline]
            unsafe fn fetch_add<S: Scope, O: RmwOrdering>(p: *mut Self, v: Self) -> Self {
                // SAFETY: as in `load`.
                unsafe { core::sync::atomic::$atomic::from_ptr(p) }
                    .fetch_add(v, O::KIND.to_core())
            }
            #[inline]
            unsafe fn swap<S: Scope, O: RmwOrdering>(p: *mut Self, v: Self) -> Self {
                // SAFETY: as in `load`.
                unsafe { core::sync::atomic::$atomic::from_ptr(p) }.swap(v, O::KIND.to_core())
            }
            #[inline]
            unsafe fn compare_and_swap<S: Scope, O: RmwOrdering>(
                p: *mut Self,
                current: Self,
                new: Self,
            ) -> Self {
                // SAFETY: as in `load`.
                let a = unsafe { core::sync::atomic::$atomic::from_ptr(p) };
                match a.compare_exchange(
                    current,
                    new,
                    O::KIND.to_core(),
                    O::KIND.to_core_failure(),
                ) {
                    Ok(old) | Err(old) => old,
                }
            }
            #[inline]
            unsafe fn fetch_min<S: Scope, O: RmwOrdering>(p: *mut Self, v: Self) -> Self {
                // SAFETY: as in `load`.
                unsafe { core::sync::atomic::$atomic::from_ptr(p) }
                    .fetch_min(v, O::KIND.to_core())
            }
            #[inline]
            unsafe fn fetch_max<S: Scope, O: RmwOrdering>(p: *mut Self, v: Self) -> Self {
                // SAFETY: as in `load`.
                unsafe { core::sync::atomic::$atomic::from_ptr(p) }
                    .fetch_max(v, O::KIND.to_core())
            }
            #[inline]
            unsafe fn fetch_and<S: Scope, O: RmwOrdering>(p: *mut Self, v: Self) -> Self {
                // SAFETY: as in `load`.
                unsafe { core::sync::atomic::$atomic::from_ptr(p) }
                    .fetch_and(v, O::KIND.to_core())
            }
            #[inline]
            unsafe fn fetch_or<S: Scope, O: RmwOrdering>(p: *mut Self, v: Self) -> Self {
                // SAFETY: as in `load`.
                unsafe { core::sync::atomic::$atomic::from_ptr(p) }
                    .fetch_or(v, O::KIND.to_core())
            }
            #[inline]
            unsafe fn fetch_xor<S: Scope, O: RmwOrdering>(p: *mut Self, v: Self) -> Self {
                // SAFETY: as in `load`.
                unsafe { core::sync::atomic::$atomic::from_ptr(p) }
                    .fetch_xor(v, O::KIND.to_core())
            }
        }
    )*};
}

#[cfg(not(target_arch = "nvptx64"))]
impl_atomic_int_host! {
    u32: AtomicU32;
    i32: AtomicI32;
    u64: AtomicU64;
    i64: AtomicI64;
}

/// A memory fence with ordering `O` ([`AcqRel`](super::order::AcqRel) or
/// [`SeqCst`](super::order::SeqCst)) at scope `S`: `fence.acq_rel.gpu`, `fence.sc.cta`, ...
///
/// It orders this thread's memory accesses before it against those after it, as threads in
/// `S` observe them; see `arch::raw::fence` for how two fences synchronise.
#[inline(always)]
pub fn fence<S: Scope, O: FenceOrdering>() {
    #[cfg(target_arch = "nvptx64")]
    {
        use raw::fence::*;
        match (O::KIND, S::KIND) {
            (OrderingKind::SeqCst, ScopeKind::Cta) => fence_sc_cta(),
            (OrderingKind::SeqCst, ScopeKind::Gpu) => fence_sc_gpu(),
            (OrderingKind::SeqCst, ScopeKind::Sys) => fence_sc_sys(),
            (_, ScopeKind::Cta) => fence_acq_rel_cta(),
            (_, ScopeKind::Gpu) => fence_acq_rel_gpu(),
            (_, ScopeKind::Sys) => fence_acq_rel_sys(),
        }
    }
    #[cfg(not(target_arch = "nvptx64"))]
    core::sync::atomic::fence(O::KIND.to_core());
}

/// A type that `ld.global.cg` / `st.global.cg` can move: `u32`, `i32`, `u64`, `i64`.
/// Sealed.
#[cfg(target_arch = "nvptx64")]
pub trait CacheGlobal: sealed::Sealed + Copy {
    /// `ld.global.cg`: a weak load that bypasses L1 (see [`raw::ld_st`]).
    ///
    /// # Safety
    /// `p` must be a generic address of global memory, aligned and valid for reads; a
    /// racing write makes the value unspecified.
    unsafe fn load_cg(p: *const Self) -> Self;
    /// `st.global.cg`: a weak store that bypasses L1 (see [`raw::ld_st`]).
    ///
    /// # Safety
    /// `p` must be a generic address of global memory, aligned and valid for writes; a
    /// racing access is a data race.
    unsafe fn store_cg(p: *mut Self, v: Self);
}

#[cfg(target_arch = "nvptx64")]
macro_rules! impl_cache_global {
    ($($t:ty: $ld:ident, $st:ident;)*) => {$(
        impl CacheGlobal for $t {
            #[inline(always)]
            unsafe fn load_cg(p: *const Self) -> Self {
                // SAFETY: forwarded from this method's contract, which is the raw wrapper's.
                unsafe { raw::ld_st::$ld(p.cast()) as Self }
            }
            #[inline(always)]
            unsafe fn store_cg(p: *mut Self, v: Self) {
                // SAFETY: forwarded from this method's contract, which is the raw wrapper's.
                unsafe { raw::ld_st::$st(p.cast(), v as _) }
            }
        }
    )*};
}

#[cfg(target_arch = "nvptx64")]
impl_cache_global! {
    u32: ld_global_cg_u32, st_global_cg_u32;
    i32: ld_global_cg_u32, st_global_cg_u32;
    u64: ld_global_cg_u64, st_global_cg_u64;
    i64: ld_global_cg_u64, st_global_cg_u64;
}

/// `ld.global.cg`: a weak load of `*p` that bypasses L1 (so never sees a stale L1 line).
///
/// # Safety
/// See [`CacheGlobal::load_cg`].
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
pub unsafe fn load_cg<T: CacheGlobal>(p: *const T) -> T {
    // SAFETY: forwarded from this function's contract.
    unsafe { T::load_cg(p) }
}

/// `st.global.cg`: a weak store of `v` to `*p` that bypasses L1.
///
/// # Safety
/// See [`CacheGlobal::store_cg`].
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
pub unsafe fn store_cg<T: CacheGlobal>(p: *mut T, v: T) {
    // SAFETY: forwarded from this function's contract.
    unsafe { T::store_cg(p, v) }
}
