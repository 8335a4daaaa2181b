//! Cilksort: sort four quarters in parallel, then merge pairs with a parallel merge that
//! splits the larger run at its middle and the other by binary search (Cilk-5's `cilksort`).
//! [`crate::cilksort_epaq`] is the same program with EPAQ queues.
//!
//! The array and the scratch are exclusive views ([`ViewMut`](gtap::ViewMut)): a sort task
//! lends its children quarters of both, then shared views ([`View`](gtap::View)) of the
//! sorted quarters with halves of the scratch to merge into, then the scratch's halves with
//! the whole array; after each taskwait it has both whole again.

use crate::sorting::{insertion_sort, lower_bound, merge_into};

/// The task program.
#[gtap::program(name = "cilksort")]
pub mod program {
    use gtap::{View, ViewMut};

    use super::{merge_is_leaf, merge_seq, sort_is_leaf, sort_seq, split_merge};

    /// Sorts `data`, using `tmp` (as long) as scratch.
    #[gtap::task]
    pub fn cilksort(
        mut data: ViewMut<'_, u32>,
        mut tmp: ViewMut<'_, u32>,
        sort_cutoff: usize,
        merge_cutoff: usize,
    ) {
        let n = data.len();
        if sort_is_leaf(n, sort_cutoff) {
            sort_seq(data);
            return;
        }
        let q = n / 4;
        let (d01, d23) = data.split_at_mut(2 * q);
        let ((d0, d1), (d2, d3)) = (d01.into_split_at(q), d23.into_split_at(q));
        let (t01, t23) = tmp.split_at_mut(2 * q);
        let ((t0, t1), (t2, t3)) = (t01.into_split_at(q), t23.into_split_at(q));
        let a = spawn!(cilksort(d0, t0, sort_cutoff, merge_cutoff));
        let b = spawn!(cilksort(d1, t1, sort_cutoff, merge_cutoff));
        let c = spawn!(cilksort(d2, t2, sort_cutoff, merge_cutoff));
        let d = spawn!(cilksort(d3, t3, sort_cutoff, merge_cutoff));
        taskwait!();
        // data quarters -> tmp halves
        let (d01, d23) = data.as_view().split_at(2 * q);
        let ((d0, d1), (d2, d3)) = (d01.split_at(q), d23.split_at(q));
        let (t01, t23) = tmp.split_at_mut(2 * q);
        let ab = spawn!(cilkmerge(d0, d1, t01, merge_cutoff));
        let cd = spawn!(cilkmerge(d2, d3, t23, merge_cutoff));
        taskwait!();
        // tmp halves -> data
        let (t01, t23) = tmp.as_view().split_at(2 * q);
        let all = spawn!(cilkmerge(t01, t23, data.reborrow(), merge_cutoff));
        taskwait!();
    }

    /// Merges the sorted runs `x` and `y` into `out` (as long as both).
    #[gtap::task]
    pub fn cilkmerge(x: View<'_, u32>, y: View<'_, u32>, out: ViewMut<'_, u32>, cutoff: usize) {
        // Make `x` the longer run.
        let (x, y) = if x.len() < y.len() { (y, x) } else { (x, y) };
        if merge_is_leaf(x.len(), y.len(), cutoff) {
            merge_seq(x, y, out);
            return;
        }
        let ((x0, x1), (y0, y1), (o0, o1)) = split_merge(x, y, out);
        spawn!(cilkmerge(x0, y0, o0, cutoff));
        spawn!(cilkmerge(x1, y1, o1, cutoff));
        taskwait!();
    }
}

/// Whether a sort task of `n` elements sorts them sequentially instead of spawning: at or
/// below the cutoff, and always from 4 elements down (a quarter must not be empty).
pub fn sort_is_leaf(n: usize, cutoff: usize) -> bool {
    n <= cutoff.max(4)
}

/// Whether a merge task of runs of `a` and `b` elements merges them sequentially instead
/// of splitting: at or below the cutoff (at least 2), or when the longer run has under 2
/// elements (it could not be split).
pub fn merge_is_leaf(a: usize, b: usize, cutoff: usize) -> bool {
    a + b <= cutoff.max(2) || a.max(b) < 2
}

/// Sorts `data` sequentially.
pub fn sort_seq(mut data: gtap::ViewMut<'_, u32>) {
    insertion_sort(data.as_mut_slice());
}

/// Merges `x` and `y` into `out` sequentially.
pub fn merge_seq(x: gtap::View<'_, u32>, y: gtap::View<'_, u32>, mut out: gtap::ViewMut<'_, u32>) {
    merge_into(x.as_slice(), y.as_slice(), out.as_mut_slice());
}

/// The parallel merge's split of the runs `x` (the longer) and `y` and of their output
/// `out`: `x` at its middle, `y` where `x`'s middle element would go, `out` after both
/// first parts; the first parts merge into the first part of `out`, the second into the
/// second.
#[allow(clippy::type_complexity)]
pub fn split_merge<'a>(
    x: gtap::View<'a, u32>,
    y: gtap::View<'a, u32>,
    out: gtap::ViewMut<'a, u32>,
) -> (
    (gtap::View<'a, u32>, gtap::View<'a, u32>),
    (gtap::View<'a, u32>, gtap::View<'a, u32>),
    (gtap::ViewMut<'a, u32>, gtap::ViewMut<'a, u32>),
) {
    let xm = x.len() / 2;
    let ym = lower_bound(y.as_slice(), x.as_slice()[xm]);
    (x.split_at(xm), y.split_at(ym), out.into_split_at(xm + ym))
}
