//! `ld` and `st` with a cache operator or a memory-model semantic, one wrapper per form.
//!
//! | wrapper | instruction | what for |
//! |---|---|---|
//! | [`ld_global_cg_u32`], [`ld_global_cg_u64`] | `ld.global.cg` | weak load cached in L2 only, never a stale L1 line |
//! | [`st_global_cg_u32`], [`st_global_cg_u64`] | `st.global.cg` | weak store cached in L2 only |
//! | `ld_{relaxed,acquire}_{cta,gpu,sys}_{u32,u64}` | `ld.relaxed.gpu.u32`, ... | atomic (strong) loads |
//! | `st_{relaxed,release}_{cta,gpu,sys}_{u32,u64}` | `st.release.gpu.u32`, ... | atomic (strong) stores |
//!
//! `.cg` accesses are *weak*: they are not atomic, a concurrent write makes the value read
//! unspecified, and they order nothing. They are for data published through a fence or a
//! release/acquire pair, where skipping L1 (which is not coherent between SMs) matters. The
//! `.global` form needs a global-window address: the wrappers take the generic address Rust
//! pointers hold and convert it with `cvta.to.global` (free on current GPUs, where the two
//! windows coincide, and correct by the letter of the ISA).
//!
//! The semantic forms use generic addressing, so they work on global and shared memory.
//! They require `sm_70` and PTX ISA 6.0.
//!
//! Every wrapper keeps the `asm!` default of "may read and write any memory", so the
//! compiler moves no memory access across it, as acquire and release need.

use core::arch::asm;

use super::doc::{scope_doc, sem_doc};

/// `ld.global.cg.u32`: a weak 32-bit load that is cached in L2 but not in L1.
///
/// # Safety
/// `a` must be a generic address of global memory (not shared or local), aligned to 4 and
/// valid for reads. A write to `*a` that races with this load makes the value unspecified.
#[inline(always)]
pub unsafe fn ld_global_cg_u32(a: *const u32) -> u32 {
    let d: u32;
    // SAFETY: the caller guarantees `a` is a valid, aligned global address; the instruction
    // reads `*a` alone (the `cvta` only converts the address).
    unsafe {
        asm!(
            "{{ .reg .b64 %ga; cvta.to.global.u64 %ga, {a}; ld.global.cg.u32 {d}, [%ga]; }}",
            d = out(reg32) d,
            a = in(reg64) a,
            options(nostack),
        );
    }
    d
}

/// `ld.global.cg.u64`: a weak 64-bit load that is cached in L2 but not in L1.
///
/// # Safety
/// `a` must be a generic address of global memory (not shared or local), aligned to 8 and
/// valid for reads. A write to `*a` that races with this load makes the value unspecified.
#[inline(always)]
pub unsafe fn ld_global_cg_u64(a: *const u64) -> u64 {
    let d: u64;
    // SAFETY: the caller guarantees `a` is a valid, aligned global address; the instruction
    // reads `*a` alone (the `cvta` only converts the address).
    unsafe {
        asm!(
            "{{ .reg .b64 %ga; cvta.to.global.u64 %ga, {a}; ld.global.cg.u64 {d}, [%ga]; }}",
            d = out(reg64) d,
            a = in(reg64) a,
            options(nostack),
        );
    }
    d
}

/// `st.global.cg.u32`: a weak 32-bit store that is cached in L2 but not in L1.
///
/// # Safety
/// `a` must be a generic address of global memory (not shared or local), aligned to 4 and
/// valid for writes. Any access to `*a` that races with this store is a data race (its
/// value, and what this store leaves, are unspecified).
#[inline(always)]
pub unsafe fn st_global_cg_u32(a: *mut u32, b: u32) {
    // SAFETY: the caller guarantees `a` is a valid, aligned global address; the instruction
    // writes `*a` alone (the `cvta` only converts the address).
    unsafe {
        asm!(
            "{{ .reg .b64 %ga; cvta.to.global.u64 %ga, {a}; st.global.cg.u32 [%ga], {b}; }}",
            a = in(reg64) a,
            b = in(reg32) b,
            options(nostack),
        );
    }
}

/// `st.global.cg.u64`: a weak 64-bit store that is cached in L2 but not in L1.
///
/// # Safety
/// `a` must be a generic address of global memory (not shared or local), aligned to 8 and
/// valid for writes. Any access to `*a` that races with this store is a data race (its
/// value, and what this store leaves, are unspecified).
#[inline(always)]
pub unsafe fn st_global_cg_u64(a: *mut u64, b: u64) {
    // SAFETY: the caller guarantees `a` is a valid, aligned global address; the instruction
    // writes `*a` alone (the `cvta` only converts the address).
    unsafe {
        asm!(
            "{{ .reg .b64 %ga; cvta.to.global.u64 %ga, {a}; st.global.cg.u64 [%ga], {b}; }}",
            a = in(reg64) a,
            b = in(reg64) b,
            options(nostack),
        );
    }
}

/// The `# Safety` text of the strong loads and stores.
macro_rules! strong_safety {
    () => {
        "`a` must be a generic address of global or shared memory, aligned to the access size \
         and valid for the access. A concurrent non-atomic (weak) access to `*a` is a data \
         race; so is a concurrent atomic one from a thread outside the scope."
    };
}

/// One strong `ld` or `st` wrapper.
macro_rules! ld_st_one {
    // Input: `ld acquire gpu (u32 u32 reg32)`
    // Output: `pub unsafe fn ld_acquire_gpu_u32(a: *const u32) -> u32`
    (ld $sem:ident $scope:ident ($ty:ident $rust:ty, $class:ident)) => {
        #[doc = concat!(
            "`ld.", stringify!($sem), ".", stringify!($scope), ".", stringify!($ty),
            "`: an atomic load of `*a`."
        )]
        #[doc = ""]
        #[doc = concat!("- ", sem_doc!($sem))]
        #[doc = concat!("- ", scope_doc!($scope))]
        #[doc = ""]
        #[doc = "# Safety"]
        #[doc = strong_safety!()]
        #[inline(always)]
        pub unsafe fn ${concat(ld_, $sem, _, $scope, _, $ty)}(a: *const $rust) -> $rust {
            let d: $rust;
            // SAFETY: the caller guarantees `a` is a valid, aligned generic address of global
            // or shared memory; the instruction reads `*a` alone.
            unsafe {
                asm!(
                    concat!(
                        "ld.", stringify!($sem), ".", stringify!($scope), ".", stringify!($ty),
                        " {d}, [{a}];"
                    ),
                    d = out($class) d,
                    a = in(reg64) a,
                    options(nostack),
                );
            }
            d
        }
    };
    // Input: `st release gpu (u32 u32 reg32)`
    // Output: `pub unsafe fn st_release_gpu_u32(a: *mut u32, b: u32)`
    (st $sem:ident $scope:ident ($ty:ident $rust:ty, $class:ident)) => {
        #[doc = concat!(
            "`st.", stringify!($sem), ".", stringify!($scope), ".", stringify!($ty),
            "`: an atomic store of `b` to `*a`."
        )]
        #[doc = ""]
        #[doc = concat!("- ", sem_doc!($sem))]
        #[doc = concat!("- ", scope_doc!($scope))]
        #[doc = ""]
        #[doc = "# Safety"]
        #[doc = strong_safety!()]
        #[inline(always)]
        pub unsafe fn ${concat(st_, $sem, _, $scope, _, $ty)}(a: *mut $rust, b: $rust) {
            // SAFETY: the caller guarantees `a` is a valid, aligned generic address of global
            // or shared memory; the instruction writes `*a` alone.
            unsafe {
                asm!(
                    concat!(
                        "st.", stringify!($sem), ".", stringify!($scope), ".", stringify!($ty),
                        " [{a}], {b};"
                    ),
                    a = in(reg64) a,
                    b = in($class) b,
                    options(nostack),
                );
            }
        }
    };
}

/// `$kind` (`ld` or `st`) for every semantic times every scope times every type.
macro_rules! ld_st_all {
    ($kind:ident [$($sem:ident)*] $scopes:tt $types:tt) => {
        $( ld_st_all!(@sem $kind $sem $scopes $types); )*
    };
    (@sem $kind:ident $sem:ident [$($scope:ident)*] $types:tt) => {
        $( ld_st_all!(@scope $kind $sem $scope $types); )*
    };
    (@scope $kind:ident $sem:ident $scope:ident [$($ty:tt)*]) => {
        $( ld_st_one!($kind $sem $scope $ty); )*
    };
}

ld_st_all!(ld [relaxed acquire] [cta gpu sys] [(u32 u32, reg32) (u64 u64, reg64)]);
ld_st_all!(st [relaxed release] [cta gpu sys] [(u32 u32, reg32) (u64 u64, reg64)]);
