//! [`Plain`]: element types that may live in a `DeviceVec` and be viewed by tasks.

/// A type whose values are plain bytes: `Copy`, no padding, every bit pattern a valid value,
/// nothing borrowed or owned, and the same layout on the host and on the GPU.
///
/// `DeviceVec<T>` (in gtap-host) copies elements between host memory and GPU memory as bytes
/// and starts them zeroed, and tasks read them through [`View`](super::View)s; this trait is
/// what makes both sound. Implemented for the integers (not `i128`/`u128`, whose alignment
/// differs between the host and the GPU), `f32`, `f64` and arrays of them. For a struct of
/// such fields use `#[derive(gtap::Plain)]` with `#[repr(C)]`, which checks every condition.
///
/// # Safety
/// Implement it only for a type that is `#[repr(C)]` or `#[repr(transparent)]`, has no
/// padding bytes, whose fields are all `Plain`, and for which every bit pattern is a value.
pub unsafe trait Plain: Copy + Send + Sync + 'static {}

macro_rules! plain {
    ($($t:ty),*) => {$(
        // SAFETY: a primitive integer or float: no padding, every bit pattern a value, one
        // layout on x86_64 and nvptx64.
        unsafe impl Plain for $t {}
    )*};
}

plain!(u8, u16, u32, u64, usize, i8, i16, i32, i64, isize, f32, f64);

// SAFETY: an array has its element's layout repeated without padding between elements.
unsafe impl<T: Plain, const N: usize> Plain for [T; N] {}

/// Checks, at compile time, what `#[derive(Plain)]` needs of a field (used by the derive).
#[doc(hidden)]
pub const fn assert_plain<T: Plain>() {}
