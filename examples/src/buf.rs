//! A raw view of a buffer that tasks can pass to their children.
//!
//! Task arguments are copied into the child's record, so they cannot borrow; programs that
//! work on a shared array pass its address. The tasks of one program write disjoint parts of
//! it, which is what makes the accesses below sound.

/// A `u32` array in memory that outlives the task run (host memory on the CPU backend,
/// device memory on the GPU).
#[derive(Clone, Copy, Debug)]
pub struct Buf {
    ptr: *mut u32,
    len: usize,
}

impl Buf {
    /// Views `slice` for the duration of a run.
    ///
    /// The caller keeps `slice` alive and untouched until the run that uses the `Buf` ends.
    pub fn new(slice: &mut [u32]) -> Buf {
        Buf {
            ptr: slice.as_mut_ptr(),
            len: slice.len(),
        }
    }

    /// A `Buf` over raw memory, e.g. a device allocation.
    ///
    /// # Safety
    /// `ptr` is valid for reads and writes of `len` elements for as long as the `Buf` is used.
    pub unsafe fn from_raw(ptr: *mut u32, len: usize) -> Buf {
        Buf { ptr, len }
    }

    /// Number of elements.
    pub fn len(self) -> usize {
        self.len
    }

    /// Whether the buffer is empty.
    pub fn is_empty(self) -> bool {
        self.len == 0
    }

    /// The elements `lo..hi` as a mutable slice.
    ///
    /// # Safety
    /// No other task reads or writes `lo..hi` while the slice is in use.
    ///
    /// # Panics
    /// If `lo..hi` is not inside the buffer.
    #[allow(clippy::mut_from_ref)]
    pub unsafe fn slice(self, lo: usize, hi: usize) -> &'static mut [u32] {
        assert!(lo <= hi && hi <= self.len, "Buf range out of bounds");
        // SAFETY: in bounds (checked above), valid for the run (constructor contract), and not
        // aliased (this function's contract).
        unsafe { core::slice::from_raw_parts_mut(self.ptr.add(lo), hi - lo) }
    }
}

/// Sorts `s` in place by insertion: the sequential sort below a program's cutoff.
pub fn insertion_sort(s: &mut [u32]) {
    for i in 1..s.len() {
        let x = s[i];
        let mut j = i;
        while j > 0 && s[j - 1] > x {
            s[j] = s[j - 1];
            j -= 1;
        }
        s[j] = x;
    }
}

/// Merges the sorted `a` and `b` into `out` (`out.len() == a.len() + b.len()`).
pub fn merge_into(a: &[u32], b: &[u32], out: &mut [u32]) {
    let (mut i, mut j) = (0, 0);
    for slot in out.iter_mut() {
        if j >= b.len() || (i < a.len() && a[i] <= b[j]) {
            *slot = a[i];
            i += 1;
        } else {
            *slot = b[j];
            j += 1;
        }
    }
}

/// A small, fast pseudo-random generator (xorshift64*), for inputs and synthetic workloads.
#[derive(Clone, Copy, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator seeded with `seed` (any value; zero is remapped).
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    /// The next 64 random bits.
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
}
