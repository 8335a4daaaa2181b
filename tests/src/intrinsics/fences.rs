//! Message-passing kernels: fences (`fence.{acq_rel,sc}.{cta,gpu,sys}`) and release/acquire
//! accesses, each in the pattern it exists for.
//!
//! `mp_fence_<sem>_<scope>(data, flags, out)` and `mp_release_acquire_<scope>(data, flags,
//! out)`: [`MP_PAIRS`] producer-consumer pairs. A producer writes [`MP_WORDS`] words of
//! `data` with plain (weak) stores, then publishes: `fence; st.relaxed flag` (or
//! `st.release flag`). Its consumer waits for the flag (`ld.relaxed flag; fence`, or
//! `ld.acquire flag`), then copies the words to `out` with plain loads. The host checks
//! `out` against `mp_word`. `data`, `flags` and `out` hold `MP_PAIRS * MP_WORDS`,
//! `MP_PAIRS`, `MP_PAIRS * MP_WORDS` `u32`s, zeroed.
//!
//! - `.cta` kernels: [`MP_PAIRS`] blocks of 64 threads; thread 0 produces, thread 32 (the
//!   other warp) consumes: a `.cta` fence only orders for threads of the block.
//! - `.gpu`/`.sys` kernels: `2 * MP_PAIRS` blocks of 32 threads; thread 0 of block `p`
//!   produces for pair `p`, thread 0 of block `MP_PAIRS + p` consumes.

use gtap_device::arch::index::{block_id, thread_id_in_block};
use gtap_device::arch::order::ScopeKind;
use gtap_device::arch::time::nanosleep;
use gtap_device::arch::{
    DeviceAtomicU32, FenceOrdering, LoadOrdering, Relaxed, Scope, StoreOrdering, fence,
};

use super::values::{MP_PAIRS, MP_WORDS, mp_word};

enum Role {
    Producer(u32),
    Consumer(u32),
    Idle,
}

#[inline(always)]
fn role<S: Scope>() -> Role {
    let (b, t) = (block_id(), thread_id_in_block());
    if S::KIND == ScopeKind::Cta {
        match t {
            0 => Role::Producer(b),
            32 => Role::Consumer(b),
            _ => Role::Idle,
        }
    } else if t != 0 {
        Role::Idle
    } else if b < MP_PAIRS {
        Role::Producer(b)
    } else {
        Role::Consumer(b - MP_PAIRS)
    }
}

/// The pattern with a publishing and a receiving step chosen by the caller.
#[inline(always)]
unsafe fn message_pass<S: Scope>(
    data: *mut u32,
    flags: *mut u32,
    out: *mut u32,
    publish: impl Fn(&DeviceAtomicU32<S>),
    receive: impl Fn(&DeviceAtomicU32<S>),
) {
    match role::<S>() {
        Role::Producer(p) => {
            for k in 0..MP_WORDS {
                // SAFETY: `data` has `MP_PAIRS * MP_WORDS` words; only this producer writes
                // pair `p`'s words, and its consumer reads them only after the flag.
                unsafe { data.add((p * MP_WORDS + k) as usize).write(mp_word(p, k)) };
            }
            // SAFETY: `flags` has `MP_PAIRS` words of global memory, accessed only through
            // scope-`S` atomics by the pair's two threads, which are both within `S`.
            publish(unsafe { DeviceAtomicU32::<S>::from_ptr(flags.add(p as usize)) });
        }
        Role::Consumer(p) => {
            // SAFETY: as for the producer.
            receive(unsafe { DeviceAtomicU32::<S>::from_ptr(flags.add(p as usize)) });
            for k in 0..MP_WORDS {
                let at = (p * MP_WORDS + k) as usize;
                // SAFETY: the producer's writes happen before these reads (the fences or the
                // release/acquire pair); `out` has as many words as `data`.
                unsafe { out.add(at).write(data.add(at).read()) };
            }
        }
        Role::Idle => {}
    }
}

/// Waits until the flag is set, with `O` loads and a short back-off.
#[inline(always)]
fn wait_for<S: Scope, O: LoadOrdering>(flag: &DeviceAtomicU32<S>) {
    while flag.load::<O>() == 0 {
        nanosleep(64);
    }
}

#[inline(always)]
unsafe fn mp_fence<S: Scope, F: FenceOrdering>(data: *mut u32, flags: *mut u32, out: *mut u32) {
    // SAFETY: forwarded from the kernel's contract.
    unsafe {
        message_pass::<S>(
            data,
            flags,
            out,
            |flag| {
                fence::<S, F>();
                flag.store::<Relaxed>(1);
            },
            |flag| {
                wait_for::<S, Relaxed>(flag);
                fence::<S, F>();
            },
        )
    }
}

#[inline(always)]
unsafe fn mp_release_acquire<S: Scope, R: StoreOrdering, A: LoadOrdering>(
    data: *mut u32,
    flags: *mut u32,
    out: *mut u32,
) {
    // SAFETY: forwarded from the kernel's contract.
    unsafe {
        message_pass::<S>(
            data,
            flags,
            out,
            |flag| flag.store::<R>(1),
            |flag| wait_for::<S, A>(flag),
        )
    }
}

macro_rules! mp_kernels {
    ($($scope:ident $Scope:ident),*) => {$(
        /// Message passing through `fence.acq_rel`; see the module docs.
        ///
        /// # Safety
        /// Launch and buffers as the module docs say.
        #[unsafe(no_mangle)]
        pub unsafe extern "ptx-kernel" fn ${concat(mp_fence_acq_rel_, $scope)}(
            data: *mut u32,
            flags: *mut u32,
            out: *mut u32,
        ) {
            // SAFETY: forwarded from the kernel's contract.
            unsafe {
                mp_fence::<gtap_device::arch::$Scope, gtap_device::arch::AcqRel>(data, flags, out)
            }
        }

        /// Message passing through `fence.sc`; see the module docs.
        ///
        /// # Safety
        /// Launch and buffers as the module docs say.
        #[unsafe(no_mangle)]
        pub unsafe extern "ptx-kernel" fn ${concat(mp_fence_sc_, $scope)}(
            data: *mut u32,
            flags: *mut u32,
            out: *mut u32,
        ) {
            // SAFETY: forwarded from the kernel's contract.
            unsafe {
                mp_fence::<gtap_device::arch::$Scope, gtap_device::arch::SeqCst>(data, flags, out)
            }
        }

        /// Message passing through `st.release` / `ld.acquire`; see the module docs.
        ///
        /// # Safety
        /// Launch and buffers as the module docs say.
        #[unsafe(no_mangle)]
        pub unsafe extern "ptx-kernel" fn ${concat(mp_release_acquire_, $scope)}(
            data: *mut u32,
            flags: *mut u32,
            out: *mut u32,
        ) {
            // SAFETY: forwarded from the kernel's contract.
            unsafe {
                mp_release_acquire::<
                    gtap_device::arch::$Scope,
                    gtap_device::arch::Release,
                    gtap_device::arch::Acquire,
                >(data, flags, out)
            }
        }
    )*};
}

mp_kernels!(cta Cta, gpu Gpu, sys Sys);
