//! Copies and clears of one value in whole words.
//!
//! LLVM's NVPTX backend expands a `memcpy` or `memset` that it does not turn into a few moves
//! into a loop over single bytes (the target does not choose a wider loop type), and a typed
//! copy such as `ptr::copy_nonoverlapping::<T>(.., 1)` or `*dst = *src` of a struct is such a
//! `memcpy`. A block task's frame copied that way costs one dependent byte load and one byte
//! store per byte, on every thread, at every step; a thread task's frame moved into its
//! record ([`crate::runtime::record::Record::fill`]), the same at every spawn.
//! [`copy_words`], [`read_words`] and [`zero_words`] do the same in the widest unit that
//! `T`'s alignment allows, as a loop the backend keeps as it is (it does not turn loops back
//! into `memcpy`: the target has no C library to call).
//!
//! The words are moved as `MaybeUninit`, so padding and uninitialised bytes are copied
//! without being read as integers. Plain Rust: the same code runs on the host, where the
//! tests (and Miri) check it.

use core::mem::{MaybeUninit, align_of, size_of};

/// Copies one `T` from `src` to `dst`, as [`core::ptr::copy_nonoverlapping`]`(src, dst, 1)`.
///
/// # Safety
/// As for `copy_nonoverlapping` with a count of one: `src` is valid for reads and `dst` for
/// writes of a `T`, both aligned, and they do not overlap.
#[inline(always)]
pub unsafe fn copy_words<T>(dst: *mut T, src: *const T) {
    let bytes = size_of::<T>();
    // SAFETY: a `T` is `bytes / size_of::<W>()` whole words of any `W` whose alignment its
    // own alignment covers (a type's size is a multiple of its alignment); the contract
    // gives the rest.
    unsafe {
        if align_of::<T>() >= 8 {
            copy_in::<u64>(dst.cast(), src.cast(), bytes / 8);
        } else if align_of::<T>() >= 4 {
            copy_in::<u32>(dst.cast(), src.cast(), bytes / 4);
        } else if align_of::<T>() >= 2 {
            copy_in::<u16>(dst.cast(), src.cast(), bytes / 2);
        } else {
            copy_in::<u8>(dst.cast(), src.cast(), bytes);
        }
    }
}

/// Reads one `T` from `src`, as [`core::ptr::read`].
///
/// # Safety
/// As for `ptr::read`: `src` is valid for reads of a `T`, aligned, and holds a valid `T`.
#[inline(always)]
pub unsafe fn read_words<T>(src: *const T) -> T {
    let mut v = MaybeUninit::<T>::uninit();
    // SAFETY: `v` is a distinct local of type `T`; `src` is as the contract says.
    unsafe {
        copy_words(v.as_mut_ptr(), src);
        v.assume_init()
    }
}

/// Sets every byte of the `T` at `dst` to zero, as [`core::ptr::write_bytes`]`(dst, 0, 1)`.
///
/// # Safety
/// `dst` is valid for writes of a `T` and aligned; all-zero bytes must be a valid `T` before
/// it is read as one.
#[inline(always)]
pub unsafe fn zero_words<T>(dst: *mut T) {
    let bytes = size_of::<T>();
    // SAFETY: as in `copy_words`.
    unsafe {
        if align_of::<T>() >= 8 {
            zero_in::<u64>(dst.cast(), bytes / 8);
        } else if align_of::<T>() >= 4 {
            zero_in::<u32>(dst.cast(), bytes / 4);
        } else if align_of::<T>() >= 2 {
            zero_in::<u16>(dst.cast(), bytes / 2);
        } else {
            zero_in::<u8>(dst.cast(), bytes);
        }
    }
}

/// `n` words from `src` to `dst`.
///
/// # Safety
/// Both hold `n` aligned words and do not overlap.
#[inline(always)]
unsafe fn copy_in<W: Copy>(dst: *mut MaybeUninit<W>, src: *const MaybeUninit<W>, n: usize) {
    for i in 0..n {
        // SAFETY: `i < n` (contract).
        unsafe { dst.add(i).write(src.add(i).read()) };
    }
}

/// `n` zero words at `dst`.
///
/// # Safety
/// `dst` holds `n` aligned words.
#[inline(always)]
unsafe fn zero_in<W: Copy + Default>(dst: *mut W, n: usize) {
    for i in 0..n {
        // SAFETY: `i < n` (contract).
        unsafe { dst.add(i).write(W::default()) };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A frame-like value with padding (after `b`, after `d`) and every alignment class.
    #[derive(Clone, Copy, Debug, PartialEq)]
    #[repr(C)]
    struct Mixed {
        a: u64,
        b: u8,
        c: u32,
        d: u16,
        e: [u8; 3],
    }

    fn roundtrip<T: Copy + PartialEq + core::fmt::Debug>(v: T) {
        let mut out = MaybeUninit::<T>::uninit();
        // SAFETY: distinct locals of type `T`.
        unsafe { copy_words(out.as_mut_ptr(), &v) };
        // SAFETY: every byte of a `T` was copied from an initialised `T`.
        assert_eq!(unsafe { out.assume_init() }, v);
    }

    #[test]
    fn copies_values_of_every_alignment() {
        roundtrip(Mixed {
            a: u64::MAX - 3,
            b: 7,
            c: 0xDEAD_BEEF,
            d: 0x1234,
            e: [1, 2, 3],
        });
        roundtrip([0xABu8; 13]);
        roundtrip([0x1234u16; 5]);
        roundtrip([7u32, 8, 9]);
        roundtrip(());
        roundtrip((1u64, 2u8));
        // SAFETY: a local `[u32; 3]`.
        assert_eq!(unsafe { read_words(&[4u32, 5, 6]) }, [4, 5, 6]);
    }

    #[test]
    fn copies_a_value_with_uninitialised_bytes() {
        let mut v = MaybeUninit::<[u64; 4]>::uninit();
        // SAFETY: the first word is in bounds; the rest stay uninitialised.
        unsafe { v.as_mut_ptr().cast::<u64>().write(42) };
        let mut out = MaybeUninit::<MaybeUninit<[u64; 4]>>::uninit();
        // SAFETY: distinct locals of one type; the copy reads no byte as an integer.
        unsafe { copy_words(out.as_mut_ptr(), &v) };
        // SAFETY: the first word was initialised in `v` and copied.
        assert_eq!(unsafe { out.as_ptr().cast::<u64>().read() }, 42);
    }

    #[test]
    fn zeroes_every_byte() {
        let mut m = Mixed {
            a: 1,
            b: 2,
            c: 3,
            d: 4,
            e: [5; 3],
        };
        // SAFETY: a local `Mixed`, for which all-zero bytes are valid.
        unsafe { zero_words(&mut m) };
        assert_eq!(
            m,
            Mixed {
                a: 0,
                b: 0,
                c: 0,
                d: 0,
                e: [0; 3]
            }
        );
        let mut bytes = [9u8; 7];
        // SAFETY: as above.
        unsafe { zero_words(&mut bytes) };
        assert_eq!(bytes, [0; 7]);
    }
}
