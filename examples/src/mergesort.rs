//! Merge sort with a cutoff: halves are sorted by child tasks, then merged by the parent
//! (sequentially: the last merge is the critical path, which is what cilksort improves).
//!
//! The array is an exclusive view ([`ViewMut`](gtap::ViewMut)): each task splits its part in
//! two for its children, and has the whole part back after the taskwait that joins them, to
//! merge it.

use crate::sorting::merge_into;

/// The task program.
#[gtap::program(name = "mergesort")]
pub mod program {
    use gtap::ViewMut;

    use super::merge_halves;
    use crate::sorting::insertion_sort;

    /// Sorts `data`, using `tmp` (as long) as scratch.
    #[gtap::task]
    pub fn mergesort(mut data: ViewMut<'_, u32>, mut tmp: ViewMut<'_, u32>, cutoff: usize) {
        let n = data.len();
        if n <= cutoff.max(1) {
            insertion_sort(data.as_mut_slice());
            return;
        }
        let mid = n / 2;
        let (d0, d1) = data.split_at_mut(mid);
        let (t0, t1) = tmp.split_at_mut(mid);
        let left = spawn!(mergesort(d0, t0, cutoff));
        let right = spawn!(mergesort(d1, t1, cutoff));
        taskwait!();
        merge_halves(data.as_mut_slice(), tmp.as_mut_slice(), mid);
    }
}

/// Merges the sorted `data[..mid]` and `data[mid..]` through `tmp` (as long as `data`).
pub fn merge_halves(data: &mut [u32], tmp: &mut [u32], mid: usize) {
    let (a, b) = data.split_at(mid);
    merge_into(a, b, tmp);
    data.copy_from_slice(tmp);
}
