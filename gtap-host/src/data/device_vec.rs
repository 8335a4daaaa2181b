//! [`DeviceVec`]: an array that tasks read and write, in the memory of the runtime that runs
//! them.

use std::alloc::Layout;
use std::marker::PhantomData;

use gtap_device::data::{AtomicValue, AtomicView, Home, Plain, View, ViewMut};

use super::storage::{HasMemory, Memory, Storage};
use super::{DataError, poison};

/// `len` elements of `T` in the memory of a runtime: GPU memory for a
/// [`GpuRuntime`](crate::gpu_runtime::GpuRuntime), host memory for a
/// [`CpuRuntime`](crate::cpu::CpuRuntime). Copy data in and out on the host; hand its views to
/// a run.
///
/// ```
/// # #![feature(coroutines, coroutine_trait, type_alias_impl_trait)]
/// use gtap_host::cpu::{CpuConfig, CpuRuntime};
/// use gtap_host::data::DeviceVec;
///
/// #[gtap::program]
/// mod double {
///     use gtap::ViewMut;
///
///     /// Doubles every element, halving the array among children down to 4 elements.
///     #[gtap::task]
///     pub fn double(mut v: ViewMut<'_, u32>) {
///         if v.len() <= 4 {
///             return v.as_mut_slice().iter_mut().for_each(|x| *x *= 2);
///         }
///         let mid = v.len() / 2;
///         let (lo, hi) = v.split_at_mut(mid);
///         let a = spawn!(double(lo)); // `lo` and `hi` are lent to the children
///         let b = spawn!(double(hi));
///         taskwait!(); // and `v` is whole again here
///     }
/// }
///
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let mut rt = CpuRuntime::new(CpuConfig::new().threads(2))?;
/// let mut data = DeviceVec::from_slice(&rt, &[1u32, 2, 3, 4, 5, 6, 7, 8, 9])?;
/// rt.run(double::double(data.view_mut()))?;
/// assert_eq!(data.to_vec()?, [2, 4, 6, 8, 10, 12, 14, 16, 18]);
/// # Ok(())
/// # }
/// ```
///
/// # Borrowing
/// [`DeviceVec::view`] borrows the vector shared and [`DeviceVec::view_mut`] (and
/// [`DeviceVec::atomics`]) exclusively, for as long as the view, the task call made from it,
/// and the run of that call live: the borrow checker keeps the vector alive, and keeps the
/// host's own reads and writes away while a run may write it. The views carry where the
/// memory is ([`Home`]): a task turning a view of GPU memory into a slice on the CPU backend
/// panics with a message saying so, and a GPU root that takes host references is refused.
///
/// # After a stuck run
/// A run that ends `Stuck` leaves a task running on whatever it was given. Every vector made
/// before then refuses access from then on ([`DataError::InUseByStuckRun`]; the view methods
/// panic) and leaks its memory when dropped, instead of freeing memory the task may write.
pub struct DeviceVec<T: Plain> {
    storage: Option<Storage>,
    len: usize,
    /// The count of stuck runs when the vector was made (see `poison`).
    born: u64,
    _elements: PhantomData<T>,
}

impl<T: Plain> DeviceVec<T> {
    /// `len` zeroed elements in the memory of `on` (a runtime, a `Gpu`, or a [`Memory`]).
    pub fn zeros(on: &impl HasMemory, len: usize) -> Result<Self, DataError> {
        let layout =
            Layout::array::<T>(len).map_err(|_| DataError::OutOfMemory { bytes: usize::MAX })?;
        Ok(DeviceVec {
            storage: Some(Storage::zeroed(&on.memory(), layout)?),
            len,
            born: poison::stuck_runs(),
            _elements: PhantomData,
        })
    }

    /// A copy of `data` in the memory of `on` (a runtime, a `Gpu`, or a [`Memory`]).
    ///
    /// Elements of a struct type derive `gtap::Plain`, which checks at compile time that the
    /// struct may be copied as bytes:
    ///
    /// ```
    /// use gtap_host::data::{DeviceVec, Memory};
    ///
    /// #[derive(Clone, Copy, Debug, PartialEq, gtap::Plain)]
    /// #[repr(C)]
    /// struct Item {
    ///     weight: u32,
    ///     value: u32,
    /// }
    ///
    /// let items = [Item { weight: 3, value: 4 }, Item { weight: 1, value: 1 }];
    /// let v = DeviceVec::from_slice(&Memory::Host, &items)?;
    /// assert_eq!(v.to_vec()?, items);
    /// # Ok::<(), gtap_host::data::DataError>(())
    /// ```
    pub fn from_slice(on: &impl HasMemory, data: &[T]) -> Result<Self, DataError> {
        let mut v = DeviceVec::zeros(on, data.len())?;
        v.copy_from(data)?;
        Ok(v)
    }

    /// The number of elements.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the vector has no elements.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Where the elements are.
    pub fn home(&self) -> Home {
        match self.storage {
            Some(Storage::Gpu { .. }) => Home::Gpu,
            _ => Home::Host,
        }
    }

    /// The storage, unless a stuck run may still use it.
    fn storage(&self) -> Result<&Storage, DataError> {
        match &self.storage {
            Some(s) if poison::stuck_runs() == self.born => Ok(s),
            _ => Err(DataError::InUseByStuckRun),
        }
    }

    /// Overwrites every element with `data`, which must be as long.
    pub fn copy_from(&mut self, data: &[T]) -> Result<(), DataError> {
        if data.len() != self.len {
            return Err(DataError::LengthMismatch {
                len: self.len,
                given: data.len(),
            });
        }
        self.storage()?;
        let storage = self.storage.as_mut().expect("checked above");
        storage.write(as_bytes(data))
    }

    /// Copies every element into `out`, which must be as long.
    pub fn copy_to(&self, out: &mut [T]) -> Result<(), DataError> {
        if out.len() != self.len {
            return Err(DataError::LengthMismatch {
                len: self.len,
                given: out.len(),
            });
        }
        self.storage()?.read(as_bytes_mut(out))
    }

    /// The elements, copied to host memory.
    pub fn to_vec(&self) -> Result<Vec<T>, DataError> {
        let mut out = vec![zeroed::<T>(); self.len];
        self.copy_to(&mut out)?;
        Ok(out)
    }

    /// The address and home the views are made of.
    ///
    /// # Panics
    /// If a stuck run may still use the vector (see the type's docs).
    #[track_caller]
    fn raw(&self) -> (*mut T, Home) {
        match self.storage() {
            Ok(s) => (s.addr().cast::<T>(), self.home()),
            Err(e) => panic!("gtap: {e}"),
        }
    }

    /// A shared view, for tasks that read the elements; the vector is borrowed (read-only)
    /// while it, and any run given it, lives.
    ///
    /// # Panics
    /// If a stuck run may still use the vector (see the type's docs).
    #[track_caller]
    pub fn view(&self) -> View<'_, T> {
        let (ptr, home) = self.raw();
        // SAFETY: `len` elements at `ptr` in `home`'s memory, aligned (`Layout::array`, or
        // cuMemAlloc's 256 bytes), valid while `self` is borrowed, and written by nothing
        // meanwhile: writing needs `&mut self`, and no stuck run uses them (checked).
        unsafe { View::from_raw_parts(ptr, self.len, home) }
    }

    /// An exclusive view, for tasks that write the elements; the vector is borrowed
    /// exclusively while it, and any run given it, lives.
    ///
    /// # Panics
    /// If a stuck run may still use the vector (see the type's docs).
    #[track_caller]
    pub fn view_mut(&mut self) -> ViewMut<'_, T> {
        let (ptr, home) = self.raw();
        // SAFETY: as in `view`; `&mut self` makes the view the only access meanwhile.
        unsafe { ViewMut::from_raw_parts(ptr, self.len, home) }
    }
}

impl<T: Plain + AtomicValue> DeviceVec<T> {
    /// A view of the elements as atomics, which every task of a run may update at once (a
    /// shared bound, flags); the vector is borrowed exclusively while it, and any run given
    /// it, lives, so that no plain access races with the atomic ones.
    ///
    /// # Panics
    /// If a stuck run may still use the vector (see the type's docs).
    #[track_caller]
    pub fn atomics(&mut self) -> AtomicView<'_, T> {
        let (ptr, home) = self.raw();
        // SAFETY: as in `view_mut`: the only access while the view lives, and in global
        // memory (a heap or device allocation, never a stack), aligned to the element.
        unsafe { AtomicView::from_raw_parts(ptr, self.len, home) }
    }
}

impl<T: Plain> Drop for DeviceVec<T> {
    fn drop(&mut self) {
        if let Some(storage) = self.storage.take()
            && poison::stuck_runs() != self.born
        {
            storage.leak();
        }
    }
}

impl<T: Plain> std::fmt::Debug for DeviceVec<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DeviceVec")
            .field("len", &self.len)
            .field("home", &self.home())
            .finish()
    }
}

/// `Memory`'s name in messages and debug output.
impl std::fmt::Display for Memory {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Memory::Host => f.write_str("host memory"),
            Memory::Gpu(gpu) => write!(f, "the memory of GPU {}", gpu.props().ordinal),
        }
    }
}

/// A zero `T` (every bit pattern is one: `Plain`).
fn zeroed<T: Plain>() -> T {
    // SAFETY: `T: Plain`: all-zero bytes are a value.
    unsafe { std::mem::zeroed() }
}

/// The bytes of `data`.
fn as_bytes<T: Plain>(data: &[T]) -> &[u8] {
    // SAFETY: `T: Plain` has no padding, so every byte of `data` is initialized; `u8` has
    // alignment 1 and the length is the slice's size in bytes.
    unsafe { std::slice::from_raw_parts(data.as_ptr().cast(), size_of_val(data)) }
}

/// The bytes of `data`, writable.
fn as_bytes_mut<T: Plain>(data: &mut [T]) -> &mut [u8] {
    // SAFETY: as in `as_bytes`, and every bit pattern is a `T` (`Plain`), so any bytes
    // written leave valid elements.
    unsafe { std::slice::from_raw_parts_mut(data.as_mut_ptr().cast(), size_of_val(data)) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn host_vectors_copy_in_and_out() {
        let mut v = DeviceVec::from_slice(&Memory::Host, &[1u32, 2, 3]).unwrap();
        assert_eq!((v.len(), v.home()), (3, Home::Host));
        assert_eq!(v.to_vec().unwrap(), [1, 2, 3]);
        v.copy_from(&[7, 8, 9]).unwrap();
        let mut out = [0; 3];
        v.copy_to(&mut out).unwrap();
        assert_eq!(out, [7, 8, 9]);
        assert!(matches!(
            v.copy_from(&[1]),
            Err(DataError::LengthMismatch { len: 3, given: 1 })
        ));
        let e = DeviceVec::<f64>::zeros(&Memory::Host, 0).unwrap();
        assert!(e.is_empty() && e.to_vec().unwrap().is_empty() && e.view().is_empty());
    }

    #[test]
    fn views_write_through_to_the_vector() {
        let mut v = DeviceVec::<[u16; 2]>::zeros(&Memory::Host, 4).unwrap();
        {
            let mut w = v.view_mut();
            let (_, mut hi) = w.split_at_mut(2);
            hi.as_mut_slice()[1] = [5, 6];
        }
        assert_eq!(v.view().as_slice()[3], [5, 6]);
        let mut flags = DeviceVec::<u64>::zeros(&Memory::Host, 2).unwrap();
        assert!(flags.atomics().set_bit(70));
        assert_eq!(flags.to_vec().unwrap(), [0, 1 << 6]);
    }
}
