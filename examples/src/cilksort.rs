//! Cilksort: sort four quarters in parallel, then merge pairs with a parallel merge that
//! splits the larger run at its middle and the other by binary search (Cilk-5's `cilksort`).
//! [`crate::cilksort_epaq`] is the same program with EPAQ queues.

use crate::buf::{Buf, insertion_sort, merge_into};

/// The task program.
#[gtap::program(name = "cilksort")]
pub mod program {
    use super::{lower_bound, merge_is_leaf, merge_seq, sort_is_leaf, sort_seq};
    use crate::buf::Buf;

    /// Sorts `data[lo..lo+n]`, using `tmp[lo..lo+n]` as scratch.
    #[gtap::task]
    pub fn cilksort(
        data: Buf,
        tmp: Buf,
        lo: usize,
        n: usize,
        sort_cutoff: usize,
        merge_cutoff: usize,
    ) {
        if sort_is_leaf(n, sort_cutoff) {
            sort_seq(data, lo, n);
            return;
        }
        let q = n / 4;
        let (a, b, c, d) = (lo, lo + q, lo + 2 * q, lo + 3 * q);
        let last = n - 3 * q;
        spawn!(cilksort(data, tmp, a, q, sort_cutoff, merge_cutoff));
        spawn!(cilksort(data, tmp, b, q, sort_cutoff, merge_cutoff));
        spawn!(cilksort(data, tmp, c, q, sort_cutoff, merge_cutoff));
        spawn!(cilksort(data, tmp, d, last, sort_cutoff, merge_cutoff));
        taskwait!();
        // data quarters -> tmp halves
        spawn!(cilkmerge(data, a, b, data, b, c, tmp, a, merge_cutoff));
        spawn!(cilkmerge(data, c, d, data, d, lo + n, tmp, c, merge_cutoff));
        taskwait!();
        // tmp halves -> data
        spawn!(cilkmerge(tmp, a, c, tmp, c, lo + n, data, a, merge_cutoff));
        taskwait!();
    }

    /// Merges the sorted runs `x[xl..xh]` and `y[yl..yh]` into `out[ol..]`.
    #[gtap::task]
    #[allow(clippy::too_many_arguments)]
    pub fn cilkmerge(
        x: Buf,
        xl: usize,
        xh: usize,
        y: Buf,
        yl: usize,
        yh: usize,
        out: Buf,
        ol: usize,
        cutoff: usize,
    ) {
        // Make `x` the longer run.
        let (x, xl, xh, y, yl, yh) = if xh - xl < yh - yl {
            (y, yl, yh, x, xl, xh)
        } else {
            (x, xl, xh, y, yl, yh)
        };
        if merge_is_leaf(xh - xl, yh - yl, cutoff) {
            merge_seq(x, xl, xh, y, yl, yh, out, ol);
            return;
        }
        let xm = xl + (xh - xl) / 2;
        let ym = lower_bound(y, yl, yh, x, xm);
        let om = ol + (xm - xl) + (ym - yl);
        spawn!(cilkmerge(x, xl, xm, y, yl, ym, out, ol, cutoff));
        spawn!(cilkmerge(x, xm, xh, y, ym, yh, out, om, cutoff));
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

/// Sorts `data[lo..lo+n]` sequentially.
pub fn sort_seq(data: Buf, lo: usize, n: usize) {
    // SAFETY: the calling task owns this range.
    insertion_sort(unsafe { data.slice(lo, lo + n) });
}

/// The first index in `y[yl..yh]` whose element is not less than `x[xm]`.
pub fn lower_bound(y: Buf, yl: usize, yh: usize, x: Buf, xm: usize) -> usize {
    // SAFETY: both ranges are sorted runs that no task writes during this merge.
    let (ys, key) = unsafe { (y.slice(yl, yh), x.slice(xm, xm + 1)[0]) };
    yl + ys.partition_point(|&v| v < key)
}

/// Merges `x[xl..xh]` and `y[yl..yh]` into `out[ol..]` sequentially.
#[allow(clippy::too_many_arguments)]
pub fn merge_seq(x: Buf, xl: usize, xh: usize, y: Buf, yl: usize, yh: usize, out: Buf, ol: usize) {
    let n = (xh - xl) + (yh - yl);
    // SAFETY: the inputs are read-only during this merge and this task owns `out[ol..ol+n]`,
    // which does not overlap them (they are in the other buffer).
    let (xs, ys, os) = unsafe { (x.slice(xl, xh), y.slice(yl, yh), out.slice(ol, ol + n)) };
    merge_into(xs, ys, os);
}
