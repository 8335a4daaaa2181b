//! Where a view's memory is, and the pointer-and-length pair every view is made of.
//!
//! A view made on the host for GPU memory holds an address that only the GPU may read, and a
//! view of host memory holds one that only the host may read (the CPU backend). The type of
//! a view cannot say which: a task program is one type for both backends. So every view
//! carries its [`Home`] at run time, packed into the top bit of its length (a length never
//! needs it: a slice holds at most `isize::MAX` bytes), and a view turns into a slice or an
//! atomic reference only where its memory is: elsewhere it panics with a message that says
//! which runtime the data was made for. That check is one comparison where a task turns a
//! view into a slice, and nothing per element.

use core::ptr::NonNull;

/// The address space of a view's memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Home {
    /// Host memory: the CPU backend's data, or a slice on the host.
    Host,
    /// GPU memory: data of a `DeviceVec` made for a GPU runtime, or a slice in device code.
    Gpu,
}

impl Home {
    /// The home of the code being compiled: [`Home::Gpu`] in device code, [`Home::Host`]
    /// elsewhere. A view is readable exactly where its home is this.
    pub const HERE: Home = if cfg!(target_arch = "nvptx64") {
        Home::Gpu
    } else {
        Home::Host
    };
}

/// The bit of [`Raw::len_home`] that says "GPU memory".
const GPU_BIT: usize = 1 << (usize::BITS - 1);

/// A pointer, a length and a home: the whole of every view, `#[repr(C)]` so that a root
/// task's arguments lay out the same on the host and the GPU.
///
/// Invariants (upheld by every constructor of the views that hold one): `ptr` is aligned and
/// non-null, `len * size_of::<T>() <= isize::MAX`, and `len` elements from `ptr` are valid in
/// the memory `home` names for as long as the view that holds this may use them.
#[repr(C)]
pub(crate) struct Raw<T> {
    ptr: NonNull<T>,
    /// The length, with [`GPU_BIT`] set for GPU memory.
    len_home: usize,
}

impl<T> Clone for Raw<T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for Raw<T> {}

impl<T> Raw<T> {
    /// The pair for `len` elements at `ptr` in `home`'s memory.
    ///
    /// # Panics
    /// If `len` elements of `T` would exceed `isize::MAX` bytes.
    #[inline(always)]
    pub(crate) fn new(ptr: NonNull<T>, len: usize, home: Home) -> Self {
        let fits = len
            .checked_mul(size_of::<T>().max(1))
            .is_some_and(|b| b <= isize::MAX as usize);
        assert!(fits, "gtap: a view longer than isize::MAX bytes");
        let bit = match home {
            Home::Host => 0,
            Home::Gpu => GPU_BIT,
        };
        Raw {
            ptr,
            len_home: len | bit,
        }
    }

    /// The number of elements.
    #[inline(always)]
    pub(crate) fn len(self) -> usize {
        self.len_home & !GPU_BIT
    }

    /// Where the elements are.
    #[inline(always)]
    pub(crate) fn home(self) -> Home {
        if self.len_home & GPU_BIT != 0 {
            Home::Gpu
        } else {
            Home::Host
        }
    }

    /// The address, after checking that the elements may be read here.
    ///
    /// # Panics
    /// If the elements are in the other backend's memory.
    #[inline(always)]
    #[track_caller]
    pub(crate) fn checked_ptr(self) -> NonNull<T> {
        if self.home() != Home::HERE {
            wrong_home(self.home());
        }
        self.ptr
    }

    /// The elements `0..mid` and `mid..len`, in the same home.
    ///
    /// # Panics
    /// If `mid > len`.
    #[inline(always)]
    #[track_caller]
    pub(crate) fn split_at(self, mid: usize) -> (Raw<T>, Raw<T>) {
        let len = self.len();
        assert!(
            mid <= len,
            "gtap: split_at({mid}) of a view of {len} elements"
        );
        let home = self.len_home & GPU_BIT;
        // SAFETY: `mid <= len`, so the address is inside the view or one past its end, and
        // non-null because `ptr` is (an allocation does not wrap around).
        let right = unsafe { self.ptr.add(mid) };
        (
            Raw {
                ptr: self.ptr,
                len_home: mid | home,
            },
            Raw {
                ptr: right,
                len_home: (len - mid) | home,
            },
        )
    }
}

#[cold]
#[inline(never)]
#[track_caller]
fn wrong_home(home: Home) -> ! {
    match home {
        Home::Gpu => panic!(
            "gtap: a view of GPU memory was used on the host (the CPU backend): make the \
             DeviceVec with the runtime that runs the task (DeviceVec::from_slice(&cpu_runtime, ..))"
        ),
        Home::Host => panic!(
            "gtap: a view of host memory was used on the GPU: make the DeviceVec with the GPU \
             runtime that runs the task (DeviceVec::from_slice(&gpu_runtime, ..))"
        ),
    }
}

#[cfg(test)]
mod tests {
    extern crate std;

    use super::*;

    #[test]
    fn the_home_rides_in_the_top_bit_of_the_length() {
        let mut x = [0u32; 4];
        let p = NonNull::from(&mut x).cast::<u32>();
        for home in [Home::Host, Home::Gpu] {
            let r = Raw::new(p, 4, home);
            assert_eq!((r.len(), r.home()), (4, home));
            let (a, b) = r.split_at(1);
            assert_eq!((a.len(), a.home(), b.len(), b.home()), (1, home, 3, home));
        }
    }

    #[test]
    fn a_view_of_gpu_memory_is_refused_on_the_host() {
        let mut x = [0u32; 1];
        let r = Raw::new(NonNull::from(&mut x).cast::<u32>(), 1, Home::Gpu);
        let e = std::panic::catch_unwind(|| r.checked_ptr()).unwrap_err();
        let msg = e.downcast_ref::<&str>().copied().unwrap_or_default();
        assert!(msg.contains("GPU memory was used on the host"), "{msg}");
        let p = NonNull::from(&mut x).cast::<u32>();
        assert_eq!(Raw::new(p, 1, Home::Host).checked_ptr(), p);
    }

    #[test]
    #[should_panic(expected = "split_at(3) of a view of 2 elements")]
    fn splitting_past_the_end_panics() {
        let mut x = [0u32; 2];
        let _ = Raw::new(NonNull::from(&mut x).cast::<u32>(), 2, Home::Host).split_at(3);
    }
}
