//! Atomic read-modify-write kernels: one per operation x type x scope x ordering
//! (`atom_<op>_<type>_<scope>_<ordering>`, 384 of them), plus one per operation x type on
//! shared memory (`smem_atom_<op>_<type>`, `.cta` and `.acq_rel`).
//!
//! Every kernel runs on [`ATOM_BLOCKS`](super::values::ATOM_BLOCKS) x [`ATOM_THREADS`](super::values::ATOM_THREADS) threads and has the signature
//! `(target: *mut T, out: *mut T)`. Thread `i` (its global index) applies
//! `TestInt::operand(op, i)` to a *slot* and writes the old value it got back to `out[i]`.
//! `.cta` kernels use one slot per block (`target[block]`): a `.cta` atomic is only atomic
//! against threads of its own block. `.gpu` and `.sys` kernels all use `target[0]`. The host
//! fills the slots with `TestInt::init(op)` first and checks the final slots and the old
//! values against the known answers (see `values`).
//!
//! `static_atomic_counter(out)` adds 1 to a `static DeviceAtomicU32<Gpu>` (so a Rust
//! `static` works as a device atomic) from every thread, writing the old values to `out`:
//! they must be `0..n`, each once (on a freshly loaded module).
//!
//! The CAS kernels run a compare-and-swap loop that starts from the known initial value (no
//! separate load, so the kernel holds `atom.*.cas` and nothing else with a semantic).

use gtap_device::arch::barrier::sync_threads;
use gtap_device::arch::index::{block_id, global_thread_id, thread_id_in_block};
use gtap_device::arch::order::ScopeKind;
use gtap_device::arch::shared::dynamic_shared_memory;
use gtap_device::arch::{
    AcqRel, AtomicInt, Cta, DeviceAtomic, DeviceAtomicU32, Gpu, Relaxed, RmwOrdering, Scope,
};

use super::values::{Op, TestInt};

/// The body of every global-memory atomic kernel.
#[inline(always)]
unsafe fn run<T: AtomicInt + TestInt, S: Scope, O: RmwOrdering>(
    op: Op,
    target: *mut T,
    out: *mut T,
) {
    let slot = if S::KIND == ScopeKind::Cta {
        block_id()
    } else {
        0
    };
    let i = global_thread_id();
    // SAFETY: the host passes `ATOM_BLOCKS` slots of global memory, accessed only through
    // these atomics during the kernel, all with scope `S` by threads within `S` (per-block
    // slots for `.cta`).
    let a = unsafe { DeviceAtomic::<T, S>::from_ptr(target.add(slot as usize)) };
    let old = apply::<T, S, O>(op, a, i);
    // SAFETY: the host passes one `out` element per thread.
    unsafe { *out.add(i as usize) = old };
}

/// Applies thread `i`'s operand of `op` to `a` and returns the old value.
#[inline(always)]
fn apply<T: AtomicInt + TestInt, S: Scope, O: RmwOrdering>(
    op: Op,
    a: &DeviceAtomic<T, S>,
    i: u32,
) -> T {
    let v = T::operand(op, i);
    match op {
        Op::Add => a.fetch_add::<O>(v),
        Op::Exch => a.swap::<O>(v),
        Op::Cas => {
            let mut cur = T::init(Op::Cas);
            loop {
                match a.compare_exchange::<O>(cur, T::apply(Op::Cas, cur, v)) {
                    Ok(old) => break old,
                    Err(actual) => cur = actual,
                }
            }
        }
        Op::Min => a.fetch_min::<O>(v),
        Op::Max => a.fetch_max::<O>(v),
        Op::And => a.fetch_and::<O>(v),
        Op::Or => a.fetch_or::<O>(v),
        Op::Xor => a.fetch_xor::<O>(v),
    }
}

/// The body of every shared-memory atomic kernel: the block's slot lives in dynamic shared
/// memory (launch with `size_of::<T>()` bytes of it), thread 0 copies it in from and back
/// out to `target[block]` around the atomics.
#[inline(always)]
unsafe fn run_shared<T: AtomicInt + TestInt>(op: Op, target: *mut T, out: *mut T) {
    let smem = dynamic_shared_memory::<T>();
    let slot = block_id() as usize;
    if thread_id_in_block() == 0 {
        // SAFETY: `target` has one element per block; the launch gives at least one `T` of
        // dynamic shared memory; no other thread touches `smem` before the barrier.
        unsafe { smem.write(target.add(slot).read()) };
    }
    // SAFETY: every thread of the block reaches this barrier, warp-uniformly.
    unsafe { sync_threads() };
    // SAFETY: `smem` is shared memory accessed only through `.cta` atomics until the next
    // barrier.
    let a = unsafe { DeviceAtomic::<T, Cta>::from_ptr(smem) };
    let i = global_thread_id();
    let old = apply::<T, Cta, AcqRel>(op, a, i);
    // SAFETY: the host passes one `out` element per thread.
    unsafe { *out.add(i as usize) = old };
    // SAFETY: as above.
    unsafe { sync_threads() };
    if thread_id_in_block() == 0 {
        // SAFETY: all atomics on `smem` are done (barrier above); `target` has a slot per block.
        unsafe { target.add(slot).write(smem.read()) };
    }
}

/// One global-memory kernel.
///
/// Input: `add Add u32 gpu Gpu acq_rel AcqRel`
/// Output: `pub unsafe extern "ptx-kernel" fn atom_add_u32_gpu_acq_rel(target: *mut u32, out: *mut u32)`
macro_rules! kernel {
    ($op:ident $Op:ident $t:ident $scope:ident $Scope:ident $ord:ident $Ord:ident) => {
        #[doc = concat!(
            "`", stringify!($Op), "` on `", stringify!($t), "` at `", stringify!($Scope),
            "` / `", stringify!($Ord), "`; see the module docs."
        )]
        ///
        /// # Safety
        /// Launch as the module docs say, with the buffers they describe.
        #[unsafe(no_mangle)]
        pub unsafe extern "ptx-kernel" fn ${concat(atom_, $op, _, $t, _, $scope, _, $ord)}(
            target: *mut $t,
            out: *mut $t,
        ) {
            // SAFETY: forwarded from the kernel's contract.
            unsafe {
                run::<$t, gtap_device::arch::$Scope, gtap_device::arch::$Ord>(Op::$Op, target, out)
            }
        }
    };
}

/// Every scope and ordering for one operation and type, and the shared-memory kernel.
macro_rules! kernels_for {
    ($op:ident $Op:ident $t:ident) => {
        kernel!($op $Op $t cta Cta relaxed Relaxed);
        kernel!($op $Op $t cta Cta acquire Acquire);
        kernel!($op $Op $t cta Cta release Release);
        kernel!($op $Op $t cta Cta acq_rel AcqRel);
        kernel!($op $Op $t gpu Gpu relaxed Relaxed);
        kernel!($op $Op $t gpu Gpu acquire Acquire);
        kernel!($op $Op $t gpu Gpu release Release);
        kernel!($op $Op $t gpu Gpu acq_rel AcqRel);
        kernel!($op $Op $t sys Sys relaxed Relaxed);
        kernel!($op $Op $t sys Sys acquire Acquire);
        kernel!($op $Op $t sys Sys release Release);
        kernel!($op $Op $t sys Sys acq_rel AcqRel);

        #[doc = concat!(
            "`", stringify!($Op), "` on `", stringify!($t), "` in shared memory (`.cta`, \
             `.acq_rel`); see the module docs."
        )]
        ///
        /// # Safety
        /// Launch as the module docs say, with `size_of::<T>()` bytes of dynamic shared memory.
        #[unsafe(no_mangle)]
        pub unsafe extern "ptx-kernel" fn ${concat(smem_atom_, $op, _, $t)}(
            target: *mut $t,
            out: *mut $t,
        ) {
            // SAFETY: forwarded from the kernel's contract.
            unsafe { run_shared::<$t>(Op::$Op, target, out) }
        }
    };
}

/// Every type for each operation.
macro_rules! all_kernels {
    ($($op:ident $Op:ident),*) => {$(
        kernels_for!($op $Op u32);
        kernels_for!($op $Op i32);
        kernels_for!($op $Op u64);
        kernels_for!($op $Op i64);
    )*};
}

all_kernels!(add Add, exch Exch, cas Cas, min Min, max Max, and And, or Or, xor Xor);

// SAFETY: a `static` lives in global memory, never on the stack.
static COUNTER: DeviceAtomicU32<Gpu> = unsafe { DeviceAtomic::new(0) };

/// Every thread adds 1 to a `static` counter and writes the old value to `out[i]`.
///
/// # Safety
/// `out` holds one `u32` per thread of the launch.
#[unsafe(no_mangle)]
pub unsafe extern "ptx-kernel" fn static_atomic_counter(out: *mut u32) {
    let old = COUNTER.fetch_add::<Relaxed>(1);
    // SAFETY: `out` has one element per thread.
    unsafe { *out.add(global_thread_id() as usize) = old };
}
