//! Merge sort with a cutoff: halves are sorted by child tasks, then merged by the parent
//! (sequentially: the last merge is the critical path, which is what cilksort improves).

use crate::buf::{Buf, insertion_sort, merge_into};

/// The task program.
#[gtap::program(name = "mergesort")]
pub mod program {
    use super::{merge_halves, sort_leaf};
    use crate::buf::Buf;

    /// Sorts `data[lo..hi]`, using `tmp[lo..hi]` as scratch.
    #[gtap::task]
    pub fn mergesort(data: Buf, tmp: Buf, lo: usize, hi: usize, cutoff: usize) {
        if hi - lo <= cutoff.max(1) {
            sort_leaf(data, lo, hi);
            return;
        }
        let mid = lo + (hi - lo) / 2;
        spawn!(mergesort(data, tmp, lo, mid, cutoff));
        spawn!(mergesort(data, tmp, mid, hi, cutoff));
        taskwait!();
        merge_halves(data, tmp, lo, mid, hi);
    }
}

/// Sorts `data[lo..hi]` sequentially.
pub fn sort_leaf(data: Buf, lo: usize, hi: usize) {
    // SAFETY: the task that owns `lo..hi` is the only one touching it now.
    insertion_sort(unsafe { data.slice(lo, hi) });
}

/// Merges the sorted `data[lo..mid]` and `data[mid..hi]` through `tmp`.
pub fn merge_halves(data: Buf, tmp: Buf, lo: usize, mid: usize, hi: usize) {
    // SAFETY: the children that sorted the halves have completed; this task owns `lo..hi` of
    // both buffers.
    let (d, t) = unsafe { (data.slice(lo, hi), tmp.slice(lo, hi)) };
    let (a, b) = d.split_at(mid - lo);
    merge_into(a, b, t);
    d.copy_from_slice(t);
}
