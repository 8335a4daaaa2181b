//! `atom`: atomic read-modify-write, one wrapper per PTX instruction form.
//!
//! Each wrapper is named after its instruction with `.` as `_`:
//! [`atom_acq_rel_gpu_add_u32`] is `atom.acq_rel.gpu.add.u32`. Generated for every
//! semantic (`.relaxed`, `.acquire`, `.release`, `.acq_rel`) times every scope (`.cta`,
//! `.gpu`, `.sys`) times these forms:
//!
//! | op | types | note |
//! |---|---|---|
//! | `add` | `u32`, `s32`, `u64` | PTX has no `add.s64`: two's complement makes `add.u64` the same |
//! | `min`, `max` | `u32`, `s32`, `u64`, `s64` | signedness matters |
//! | `exch`, `and`, `or`, `xor` | `b32`, `b64` | bit operations |
//! | `cas` | `b32`, `b64` | `d = *a; if d == b { *a = c }` |
//!
//! No state space is named, so the address is generic and may point into global or shared
//! memory. Every wrapper keeps the `asm!` default of "may read and write any memory", so the
//! compiler moves no memory access across it (what `.acquire`/`.release` need; for
//! `.relaxed` it only costs a little freedom).
//!
//! Requires `sm_70` and PTX ISA 6.0 (the `.sem` and `.scope` qualifiers).

use core::arch::asm;

use super::doc::{scope_doc, sem_doc};

/// The `# Safety` text every `atom` wrapper shares.
macro_rules! atom_safety {
    () => {
        "`a` must be a generic address of global or shared memory (never local memory, i.e. \
         the stack: `atom` on it is undefined; rust-lang/rust#146686), aligned to the access \
         size and valid for reads and writes. Every concurrent access to `*a` must be atomic \
         (an `atom`, `red`, or a `.relaxed`/`.acquire`/`.release` `ld`/`st`) or the program \
         has a data race; accesses from threads outside the scope count as concurrent too."
    };
}

/// One `atom` wrapper.
macro_rules! atom_one {
    // Input: `acq_rel gpu (cas b32 u32 reg32)`
    // Output: `pub unsafe fn atom_acq_rel_gpu_cas_b32(a: *mut u32, b: u32, c: u32) -> u32`
    ($sem:ident $scope:ident (cas $ty:ident $rust:ty, $class:ident)) => {
        #[doc = concat!(
            "`atom.", stringify!($sem), ".", stringify!($scope), ".cas.", stringify!($ty),
            "`: if `*a == b` writes `c` to `*a`; returns the old `*a` either way (the swap \
             happened iff it equals `b`)."
        )]
        #[doc = ""]
        #[doc = concat!("- ", sem_doc!($sem))]
        #[doc = concat!("- ", scope_doc!($scope))]
        #[doc = ""]
        #[doc = "A failed compare still counts as an access with the given semantic."]
        #[doc = ""]
        #[doc = "# Safety"]
        #[doc = atom_safety!()]
        #[inline(always)]
        pub unsafe fn ${concat(atom_, $sem, _, $scope, _cas_, $ty)}(
            a: *mut $rust,
            b: $rust,
            c: $rust,
        ) -> $rust {
            let d: $rust;
            // SAFETY: the caller guarantees `a` is a valid, aligned generic address of global
            // or shared memory with only atomic concurrent accesses; the instruction touches
            // `*a` alone.
            unsafe {
                asm!(
                    concat!(
                        "atom.", stringify!($sem), ".", stringify!($scope), ".cas.",
                        stringify!($ty), " {d}, [{a}], {b}, {c};"
                    ),
                    d = out($class) d,
                    a = in(reg64) a,
                    b = in($class) b,
                    c = in($class) c,
                    options(nostack),
                );
            }
            d
        }
    };
    // Input: `acq_rel gpu (add u32 u32 reg32 "adds `b` to `*a`")`
    // Output: `pub unsafe fn atom_acq_rel_gpu_add_u32(a: *mut u32, b: u32) -> u32`
    ($sem:ident $scope:ident ($op:ident $ty:ident $rust:ty, $class:ident, $what:literal)) => {
        #[doc = concat!(
            "`atom.", stringify!($sem), ".", stringify!($scope), ".", stringify!($op), ".",
            stringify!($ty), "`: ", $what, "; returns the old `*a`."
        )]
        #[doc = ""]
        #[doc = concat!("- ", sem_doc!($sem))]
        #[doc = concat!("- ", scope_doc!($scope))]
        #[doc = ""]
        #[doc = "# Safety"]
        #[doc = atom_safety!()]
        #[inline(always)]
        pub unsafe fn ${concat(atom_, $sem, _, $scope, _, $op, _, $ty)}(
            a: *mut $rust,
            b: $rust,
        ) -> $rust {
            let d: $rust;
            // SAFETY: the caller guarantees `a` is a valid, aligned generic address of global
            // or shared memory with only atomic concurrent accesses; the instruction touches
            // `*a` alone.
            unsafe {
                asm!(
                    concat!(
                        "atom.", stringify!($sem), ".", stringify!($scope), ".",
                        stringify!($op), ".", stringify!($ty), " {d}, [{a}], {b};"
                    ),
                    d = out($class) d,
                    a = in(reg64) a,
                    b = in($class) b,
                    options(nostack),
                );
            }
            d
        }
    };
}

/// Every semantic times every scope times every form.
macro_rules! atom_all {
    ([$($sem:ident)*] $scopes:tt $forms:tt) => {
        $( atom_all!(@sem $sem $scopes $forms); )*
    };
    (@sem $sem:ident [$($scope:ident)*] $forms:tt) => {
        $( atom_all!(@scope $sem $scope $forms); )*
    };
    (@scope $sem:ident $scope:ident [$($form:tt)*]) => {
        $( atom_one!($sem $scope $form); )*
    };
}

atom_all! {
    [relaxed acquire release acq_rel]
    [cta gpu sys]
    [
        (add u32 u32, reg32, "adds `b` to `*a` (wrapping)")
        (add s32 i32, reg32, "adds `b` to `*a` (wrapping)")
        (add u64 u64, reg64, "adds `b` to `*a` (wrapping; also the signed 64-bit add)")
        (min u32 u32, reg32, "writes `min(*a, b)` (unsigned)")
        (min s32 i32, reg32, "writes `min(*a, b)` (signed)")
        (min u64 u64, reg64, "writes `min(*a, b)` (unsigned)")
        (min s64 i64, reg64, "writes `min(*a, b)` (signed)")
        (max u32 u32, reg32, "writes `max(*a, b)` (unsigned)")
        (max s32 i32, reg32, "writes `max(*a, b)` (signed)")
        (max u64 u64, reg64, "writes `max(*a, b)` (unsigned)")
        (max s64 i64, reg64, "writes `max(*a, b)` (signed)")
        (exch b32 u32, reg32, "writes `b` to `*a`")
        (exch b64 u64, reg64, "writes `b` to `*a`")
        (and b32 u32, reg32, "writes `*a & b`")
        (and b64 u64, reg64, "writes `*a & b`")
        (or b32 u32, reg32, "writes `*a | b`")
        (or b64 u64, reg64, "writes `*a | b`")
        (xor b32 u32, reg32, "writes `*a ^ b`")
        (xor b64 u64, reg64, "writes `*a ^ b`")
        (cas b32 u32, reg32)
        (cas b64 u64, reg64)
    ]
}
