//! The atomics facade every runtime protocol is written over.
//!
//! The deque, the pool's free stack, the join counters and the termination flags use only
//! what this module exports, and only this surface:
//!
//! | item | operations |
//! |---|---|
//! | [`AtomicU32`], [`AtomicI32`], [`AtomicU64`] | `new`, `load`, `store`, `fetch_add`, `fetch_sub`, `compare_exchange`, `swap` |
//! | [`fence`] | `Release`, `Acquire`, `AcqRel` |
//! | [`spin_loop`] | a busy-wait hint |
//!
//! Three implementations plug in here:
//!
//! - on the host, `core::sync::atomic` (the CPU backend and the ordinary unit tests);
//! - under `cfg(loom)`, loom's model-checked types, so `cargo test --lib loom` explores every
//!   interleaving and every stale read the C++ memory model allows;
//! - on the GPU, inline-PTX atomics from [`crate::arch`] at `.gpu` scope (see the crate docs
//!   for why `core::sync::atomic` cannot be used there). `.gpu` is the scope every runtime
//!   structure needs: records, deques and flags are shared by warps on every SM, and nothing
//!   outside the GPU touches them while the kernel runs. `SeqCst` is given `acq_rel`
//!   semantics plus a `fence.sc.gpu` for fences; the protocols use no `SeqCst` RMW.
//!
//! Keep the surface small: everything added here must also be written in PTX.

#[cfg(all(not(loom), not(target_arch = "nvptx64")))]
pub use core::sync::atomic::{AtomicI32, AtomicU32, AtomicU64, Ordering, fence};

#[cfg(target_arch = "nvptx64")]
pub use gpu::{AtomicI32, AtomicU32, AtomicU64, Ordering, fence};

#[cfg(loom)]
pub use loom::sync::atomic::{AtomicI32, AtomicU32, AtomicU64, Ordering, fence};

/// Tells the processor (or loom's scheduler) that the caller is busy-waiting.
#[inline(always)]
pub fn spin_loop() {
    #[cfg(not(loom))]
    core::hint::spin_loop();
    #[cfg(loom)]
    loom::thread::yield_now();
}

/// The facade on the GPU: `core`-shaped atomics whose every operation is one inline-PTX
/// instruction at `.gpu` scope, with the ordering asked for.
#[cfg(target_arch = "nvptx64")]
mod gpu {
    use core::cell::UnsafeCell;

    use crate::arch::ops::AtomicInt;
    use crate::arch::order::{AcqRel, Acquire, Gpu, Relaxed, Release, SeqCst};

    /// The orderings of `core::sync::atomic::Ordering`, mapped onto PTX's.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum Ordering {
        /// `.relaxed`
        Relaxed,
        /// `.release` (stores and RMWs)
        Release,
        /// `.acquire` (loads and RMWs)
        Acquire,
        /// `.acq_rel`
        AcqRel,
        /// `.acq_rel` (RMWs), `.acquire`/`.release` (loads/stores), `fence.sc` (fences)
        SeqCst,
    }

    /// A fence at `.gpu` scope: `fence.acq_rel.gpu`, or `fence.sc.gpu` for `SeqCst`.
    #[inline(always)]
    pub fn fence(order: Ordering) {
        match order {
            Ordering::SeqCst => crate::arch::fence::<Gpu, SeqCst>(),
            _ => crate::arch::fence::<Gpu, AcqRel>(),
        }
    }

    macro_rules! gpu_atomic {
        ($name:ident, $t:ty) => {
            /// A `.gpu`-scope atomic integer with `core`'s API shape.
            #[repr(transparent)]
            pub struct $name(UnsafeCell<$t>);

            // SAFETY: every access goes through an atomic PTX instruction.
            unsafe impl Sync for $name {}

            impl $name {
                /// A new atomic holding `v`.
                pub const fn new(v: $t) -> Self {
                    $name(UnsafeCell::new(v))
                }

                #[inline(always)]
                fn ptr(&self) -> *mut $t {
                    self.0.get()
                }

                /// `ld.relaxed.gpu` / `ld.acquire.gpu`.
                #[inline(always)]
                pub fn load(&self, order: Ordering) -> $t {
                    // SAFETY: `self` is a valid, aligned atomic shared only through atomics.
                    unsafe {
                        match order {
                            Ordering::Relaxed | Ordering::Release => {
                                <$t>::load::<Gpu, Relaxed>(self.ptr())
                            }
                            _ => <$t>::load::<Gpu, Acquire>(self.ptr()),
                        }
                    }
                }

                /// `st.relaxed.gpu` / `st.release.gpu`.
                #[inline(always)]
                pub fn store(&self, v: $t, order: Ordering) {
                    // SAFETY: as `load`.
                    unsafe {
                        match order {
                            Ordering::Relaxed | Ordering::Acquire => {
                                <$t>::store::<Gpu, Relaxed>(self.ptr(), v)
                            }
                            _ => <$t>::store::<Gpu, Release>(self.ptr(), v),
                        }
                    }
                }

                /// `atom.<order>.gpu.add`.
                #[inline(always)]
                pub fn fetch_add(&self, v: $t, order: Ordering) -> $t {
                    // SAFETY: as `load`.
                    unsafe {
                        match order {
                            Ordering::Relaxed => <$t>::fetch_add::<Gpu, Relaxed>(self.ptr(), v),
                            Ordering::Acquire => <$t>::fetch_add::<Gpu, Acquire>(self.ptr(), v),
                            Ordering::Release => <$t>::fetch_add::<Gpu, Release>(self.ptr(), v),
                            _ => <$t>::fetch_add::<Gpu, AcqRel>(self.ptr(), v),
                        }
                    }
                }

                /// `atom.<order>.gpu.add` of the negation (wrapping).
                #[inline(always)]
                pub fn fetch_sub(&self, v: $t, order: Ordering) -> $t {
                    self.fetch_add((0 as $t).wrapping_sub(v), order)
                }

                /// `atom.<order>.gpu.exch`.
                #[inline(always)]
                pub fn swap(&self, v: $t, order: Ordering) -> $t {
                    // SAFETY: as `load`.
                    unsafe {
                        match order {
                            Ordering::Relaxed => <$t>::swap::<Gpu, Relaxed>(self.ptr(), v),
                            Ordering::Acquire => <$t>::swap::<Gpu, Acquire>(self.ptr(), v),
                            Ordering::Release => <$t>::swap::<Gpu, Release>(self.ptr(), v),
                            _ => <$t>::swap::<Gpu, AcqRel>(self.ptr(), v),
                        }
                    }
                }

                /// `atom.<success>.gpu.cas`; PTX has one ordering per CAS, so the failure
                /// ordering is covered by the success one (which is at least as strong in
                /// every call the runtime makes).
                #[inline(always)]
                pub fn compare_exchange(
                    &self,
                    current: $t,
                    new: $t,
                    success: Ordering,
                    _failure: Ordering,
                ) -> Result<$t, $t> {
                    // SAFETY: as `load`.
                    let old = unsafe {
                        match success {
                            Ordering::Relaxed => {
                                <$t>::compare_and_swap::<Gpu, Relaxed>(self.ptr(), current, new)
                            }
                            Ordering::Acquire => {
                                <$t>::compare_and_swap::<Gpu, Acquire>(self.ptr(), current, new)
                            }
                            Ordering::Release => {
                                <$t>::compare_and_swap::<Gpu, Release>(self.ptr(), current, new)
                            }
                            _ => <$t>::compare_and_swap::<Gpu, AcqRel>(self.ptr(), current, new),
                        }
                    };
                    if old == current { Ok(old) } else { Err(old) }
                }

                /// Same as [`compare_exchange`](Self::compare_exchange) (a PTX CAS does not fail spuriously).
                #[inline(always)]
                pub fn compare_exchange_weak(
                    &self,
                    current: $t,
                    new: $t,
                    success: Ordering,
                    failure: Ordering,
                ) -> Result<$t, $t> {
                    self.compare_exchange(current, new, success, failure)
                }
            }
        };
    }

    gpu_atomic!(AtomicU32, u32);
    gpu_atomic!(AtomicI32, i32);
    gpu_atomic!(AtomicU64, u64);
}
