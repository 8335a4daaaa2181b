//! The host side of `gtap_device::arch`'s typed atomics: on the CPU, `DeviceAtomic` and
//! `fence` run on `core::sync::atomic`, with the same results as on the device (the scope
//! has no meaning there). These run everywhere, CI included.

use gtap_device::arch::{
    AcqRel, Acquire, Cta, DeviceAtomicI32, DeviceAtomicI64, DeviceAtomicU32, DeviceAtomicU64, Gpu,
    Relaxed, Release, SeqCst, Sys, fence,
};

#[test]
fn every_operation_returns_the_previous_value() {
    let mut cell = 5u32;
    // SAFETY: `cell` outlives `a` and is accessed only through it (on the host a stack
    // location is fine).
    let a = unsafe { DeviceAtomicU32::<Gpu>::from_ptr(&mut cell) };
    assert_eq!(a.fetch_add::<AcqRel>(3), 5);
    assert_eq!(a.swap::<Relaxed>(10), 8);
    assert_eq!(a.compare_exchange::<AcqRel>(9, 1), Err(10));
    assert_eq!(a.compare_exchange::<AcqRel>(10, 1), Ok(10));
    assert_eq!(a.fetch_max::<Release>(7), 1);
    assert_eq!(a.fetch_min::<Acquire>(2), 7);
    assert_eq!(a.fetch_or::<Relaxed>(0b100), 2);
    assert_eq!(a.fetch_and::<Relaxed>(0b110), 0b110);
    assert_eq!(a.fetch_xor::<Relaxed>(0b011), 0b110);
    assert_eq!(a.fetch_update::<AcqRel>(|v| Some(v * 2)), Ok(0b101));
    assert_eq!(a.fetch_update::<AcqRel>(|_| None), Err(10));
    a.store::<Release>(42);
    assert_eq!(a.load::<Acquire>(), 42);
    fence::<Gpu, AcqRel>();
    fence::<Sys, SeqCst>();
    assert_eq!(cell, 42);
}

#[test]
fn signed_min_max_are_signed_and_add_wraps() {
    let mut wide = -1i64;
    // SAFETY: as above.
    let a = unsafe { DeviceAtomicI64::<Sys>::from_ptr(&mut wide) };
    assert_eq!(a.fetch_max::<Relaxed>(3), -1);
    assert_eq!(a.fetch_min::<Relaxed>(-7), 3);
    assert_eq!(a.load::<Relaxed>(), -7);

    let mut narrow = 0i32;
    // SAFETY: as above.
    let b = unsafe { DeviceAtomicI32::<Cta>::from_ptr(&mut narrow) };
    assert_eq!(b.fetch_add::<Relaxed>(-4), 0);
    assert_eq!(b.fetch_min::<Relaxed>(-2), -4);
    assert_eq!(b.load::<Relaxed>(), -4);

    let mut top = u64::MAX;
    // SAFETY: as above.
    let c = unsafe { DeviceAtomicU64::<Gpu>::from_ptr(&mut top) };
    assert_eq!(c.fetch_add::<AcqRel>(2), u64::MAX);
    assert_eq!(c.load::<Relaxed>(), 1);
}

#[test]
fn the_atomic_is_laid_out_as_its_integer() {
    use core::mem::{align_of, size_of};
    assert_eq!(size_of::<DeviceAtomicU64<Gpu>>(), 8);
    assert_eq!(align_of::<DeviceAtomicU64<Gpu>>(), 8);
    assert_eq!(size_of::<DeviceAtomicU32<Cta>>(), 4);
    assert_eq!(align_of::<DeviceAtomicI32<Sys>>(), 4);
}

#[test]
fn concurrent_increments_on_the_host_all_land() {
    static mut COUNTER: u64 = 0;
    // SAFETY: `COUNTER` is a static (valid forever) accessed only through this view.
    let c = unsafe { DeviceAtomicU64::<Gpu>::from_ptr(&raw mut COUNTER) };
    std::thread::scope(|s| {
        for _ in 0..4 {
            s.spawn(|| {
                for _ in 0..10_000 {
                    c.fetch_add::<Relaxed>(1);
                }
            });
        }
    });
    assert_eq!(c.load::<Acquire>(), 40_000);
}
