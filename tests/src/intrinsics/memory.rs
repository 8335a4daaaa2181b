//! Load and store kernels: `ld.global.cg`/`st.global.cg` round trips and every strong load
//! (`ld.{relaxed,acquire}.{cta,gpu,sys}`) and store (`st.{relaxed,release}.{cta,gpu,sys}`).
//!
//! Any 1-D launch. Thread `i` (global index) below `n` works on element `i`:
//! - `ld_*(inp, out, n)`: `out[i] = load(inp[i])`; the host fills `inp` and compares.
//! - `st_*(out, n)`: `store(out[i], value(i))`; the host compares with `TestInt::value`.

use gtap_device::arch::index::global_thread_id;
use gtap_device::arch::ops::{load_cg, store_cg};
use gtap_device::arch::{DeviceAtomic, LoadOrdering, Scope, StoreOrdering};

use super::values::TestInt;

macro_rules! cg_kernels {
    ($($t:ident),*) => {$(
        #[doc = concat!("`out[i] = ld.global.cg(inp[i])` for `", stringify!($t), "`.")]
        ///
        /// # Safety
        /// `inp` and `out` are global buffers of `n` elements.
        #[unsafe(no_mangle)]
        pub unsafe extern "ptx-kernel" fn ${concat(ld_cg_, $t)}(inp: *const $t, out: *mut $t, n: u32) {
            let i = global_thread_id();
            if i < n {
                // SAFETY: `i < n` and both buffers are global with `n` elements.
                unsafe { *out.add(i as usize) = load_cg(inp.add(i as usize)) };
            }
        }

        #[doc = concat!("`st.global.cg(out[i], value(i))` for `", stringify!($t), "`.")]
        ///
        /// # Safety
        /// `out` is a global buffer of `n` elements.
        #[unsafe(no_mangle)]
        pub unsafe extern "ptx-kernel" fn ${concat(st_cg_, $t)}(out: *mut $t, n: u32) {
            let i = global_thread_id();
            if i < n {
                // SAFETY: `i < n` and `out` is global with `n` elements.
                unsafe { store_cg(out.add(i as usize), <$t as TestInt>::value(i)) };
            }
        }
    )*};
}

cg_kernels!(u32, u64, i32, i64);

#[inline(always)]
unsafe fn load_one<T: gtap_device::arch::AtomicInt, S: Scope, O: LoadOrdering>(
    inp: *const T,
    out: *mut T,
    n: u32,
) {
    let i = global_thread_id();
    if i < n {
        // SAFETY: `i < n`; `inp` is global, each element read by one thread only.
        let a = unsafe { DeviceAtomic::<T, S>::from_ptr(inp.add(i as usize).cast_mut()) };
        // SAFETY: `out` has `n` elements.
        unsafe { *out.add(i as usize) = a.load::<O>() };
    }
}

#[inline(always)]
unsafe fn store_one<T: gtap_device::arch::AtomicInt + TestInt, S: Scope, O: StoreOrdering>(
    out: *mut T,
    n: u32,
) {
    let i = global_thread_id();
    if i < n {
        // SAFETY: `i < n`; `out` is global, each element written by one thread only.
        let a = unsafe { DeviceAtomic::<T, S>::from_ptr(out.add(i as usize)) };
        a.store::<O>(T::value(i));
    }
}

/// One strong load or store kernel.
///
/// Input: `ld acquire Acquire gpu Gpu u32`
/// Output: `pub unsafe extern "ptx-kernel" fn ld_acquire_gpu_u32(inp, out, n)`
macro_rules! strong_kernel {
    (ld $ord:ident $Ord:ident $scope:ident $Scope:ident $t:ident) => {
        #[doc = concat!(
            "`out[i] = ld.", stringify!($ord), ".", stringify!($scope), "(inp[i])` for `",
            stringify!($t), "`."
        )]
        ///
        /// # Safety
        /// `inp` and `out` are global buffers of `n` elements.
        #[unsafe(no_mangle)]
        pub unsafe extern "ptx-kernel" fn ${concat(ld_, $ord, _, $scope, _, $t)}(
            inp: *const $t,
            out: *mut $t,
            n: u32,
        ) {
            // SAFETY: forwarded from the kernel's contract.
            unsafe { load_one::<$t, gtap_device::arch::$Scope, gtap_device::arch::$Ord>(inp, out, n) }
        }
    };
    (st $ord:ident $Ord:ident $scope:ident $Scope:ident $t:ident) => {
        #[doc = concat!(
            "`st.", stringify!($ord), ".", stringify!($scope), "(out[i], value(i))` for `",
            stringify!($t), "`."
        )]
        ///
        /// # Safety
        /// `out` is a global buffer of `n` elements.
        #[unsafe(no_mangle)]
        pub unsafe extern "ptx-kernel" fn ${concat(st_, $ord, _, $scope, _, $t)}(out: *mut $t, n: u32) {
            // SAFETY: forwarded from the kernel's contract.
            unsafe { store_one::<$t, gtap_device::arch::$Scope, gtap_device::arch::$Ord>(out, n) }
        }
    };
}

/// Every scope and type for one kind (`ld`/`st`) and ordering.
macro_rules! strong_kernels {
    ($($kind:ident $ord:ident $Ord:ident;)*) => {$(
        strong_kernels!(@scope $kind $ord $Ord cta Cta);
        strong_kernels!(@scope $kind $ord $Ord gpu Gpu);
        strong_kernels!(@scope $kind $ord $Ord sys Sys);
    )*};
    (@scope $kind:ident $ord:ident $Ord:ident $scope:ident $Scope:ident) => {
        strong_kernel!($kind $ord $Ord $scope $Scope u32);
        strong_kernel!($kind $ord $Ord $scope $Scope i32);
        strong_kernel!($kind $ord $Ord $scope $Scope u64);
        strong_kernel!($kind $ord $Ord $scope $Scope i64);
    };
}

strong_kernels! {
    ld relaxed Relaxed;
    ld acquire Acquire;
    st relaxed Relaxed;
    st release Release;
}
