//! Cilksort with EPAQ queues, GTaP's section 6.4 benchmark (its Fig. 10 sweeps the sort and
//! merge cutoffs together on 5e7 elements). The algorithm is [`crate::cilksort`]'s, with the
//! same leaf tests ([`sort_is_leaf`], [`merge_is_leaf`]) and the same splits; only the
//! queues differ.
//!
//! The program has three kinds of work that take different paths: sort tasks at or below
//! the sort cutoff run an insertion sort, merge tasks at or below the merge cutoff run a
//! sequential merge, and the rest spawn (four quarter sorts and their merges, or two half
//! merges). Whether a child is a leaf depends only on its sizes, which the parent knows when
//! it spawns it, so the parent can queue it by kind. With `epaq != 0` the classifier is
//! GTaP's for this program: tasks that spawn in queue 0, sort leaves in queue 1, merge
//! leaves in queue 2, and continuations after a taskwait in queue 0 (they spawn merges); run
//! with `num_queues = 3`. With `epaq == 0` everything goes to queue 0.
//!
//! Unlike GTaP's, whose leaves sort with a bitonic network in a local array as long as the
//! cutoff, the sort leaves here run the same insertion sort as [`crate::cilksort`], whose
//! cost grows with the square of the leaf size: large cutoffs cost more here.

use crate::buf::Buf;
use crate::cilksort::{lower_bound, merge_is_leaf, merge_seq, sort_is_leaf};

/// The task program.
#[gtap::program(name = "cilksort_epaq")]
pub mod program {
    use crate::buf::Buf;
    use crate::cilksort::{lower_bound, merge_is_leaf, merge_seq, sort_is_leaf, sort_seq};

    /// The queue of a child of the classifier `epaq`: `leaf_queue` if the child is a leaf,
    /// else 0.
    fn child_queue(epaq: u32, leaf: bool, leaf_queue: u32) -> u32 {
        if epaq != 0 && leaf { leaf_queue } else { 0 }
    }

    /// Sorts `data[lo..lo+n]`, using `tmp[lo..lo+n]` as scratch, as
    /// [`cilksort::program::cilksort`](crate::cilksort::program::cilksort) does.
    #[gtap::task]
    pub fn cilksort(
        data: Buf,
        tmp: Buf,
        lo: usize,
        n: usize,
        sort_cutoff: usize,
        merge_cutoff: usize,
        epaq: u32,
    ) {
        if sort_is_leaf(n, sort_cutoff) {
            sort_seq(data, lo, n);
            return;
        }
        let q = n / 4;
        let (a, b, c, d) = (lo, lo + q, lo + 2 * q, lo + 3 * q);
        let last = n - 3 * q;
        // The queues as plain values, not closures: a closure borrows what it captures, and
        // one whose scope spans a taskwait lives in the task's record (see the README).
        let sq = child_queue(epaq, sort_is_leaf(q, sort_cutoff), 1);
        let sq_last = child_queue(epaq, sort_is_leaf(last, sort_cutoff), 1);
        spawn!(
            queue(sq),
            cilksort(data, tmp, a, q, sort_cutoff, merge_cutoff, epaq)
        );
        spawn!(
            queue(sq),
            cilksort(data, tmp, b, q, sort_cutoff, merge_cutoff, epaq)
        );
        spawn!(
            queue(sq),
            cilksort(data, tmp, c, q, sort_cutoff, merge_cutoff, epaq)
        );
        spawn!(
            queue(sq_last),
            cilksort(data, tmp, d, last, sort_cutoff, merge_cutoff, epaq)
        );
        taskwait!();
        // data quarters -> tmp halves
        spawn!(
            queue(child_queue(epaq, merge_is_leaf(q, q, merge_cutoff), 2)),
            cilkmerge(data, a, b, data, b, c, tmp, a, merge_cutoff, epaq)
        );
        spawn!(
            queue(child_queue(epaq, merge_is_leaf(q, last, merge_cutoff), 2)),
            cilkmerge(data, c, d, data, d, lo + n, tmp, c, merge_cutoff, epaq)
        );
        taskwait!();
        // tmp halves -> data
        spawn!(
            queue(child_queue(
                epaq,
                merge_is_leaf(2 * q, n - 2 * q, merge_cutoff),
                2
            )),
            cilkmerge(tmp, a, c, tmp, c, lo + n, data, a, merge_cutoff, epaq)
        );
        taskwait!();
    }

    /// Merges the sorted runs `x[xl..xh]` and `y[yl..yh]` into `out[ol..]`, as
    /// [`cilksort::program::cilkmerge`](crate::cilksort::program::cilkmerge) does.
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
        epaq: u32,
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
        let lq = child_queue(epaq, merge_is_leaf(xm - xl, ym - yl, cutoff), 2);
        let rq = child_queue(epaq, merge_is_leaf(xh - xm, yh - ym, cutoff), 2);
        spawn!(
            queue(lq),
            cilkmerge(x, xl, xm, y, yl, ym, out, ol, cutoff, epaq)
        );
        spawn!(
            queue(rq),
            cilkmerge(x, xm, xh, y, ym, yh, out, om, cutoff, epaq)
        );
        taskwait!();
    }
}

/// How many tasks [`program::cilksort`] runs on `data[lo..lo+n]` (either program, any
/// classifier: the queues change the order, not the tasks), found by walking the program's
/// recursion sequentially: the merges split where the data says, so the count depends on
/// it. Sorts `data[lo..lo+n]` as the program does, using `tmp` alike.
pub fn task_count(
    data: Buf,
    tmp: Buf,
    lo: usize,
    n: usize,
    sort_cutoff: usize,
    merge_cutoff: usize,
) -> u64 {
    if sort_is_leaf(n, sort_cutoff) {
        // Any sort leaves the same run; the walk does not need the program's slow one.
        // SAFETY: the walk is sequential, so nothing else touches `data[lo..lo+n]` while the
        // slice lives (as for `sort_seq`, the caller's buffers outlive the walk).
        unsafe { data.slice(lo, lo + n) }.sort_unstable();
        return 1;
    }
    let q = n / 4;
    let (a, b, c, d) = (lo, lo + q, lo + 2 * q, lo + 3 * q);
    let last = n - 3 * q;
    let sorts = task_count(data, tmp, a, q, sort_cutoff, merge_cutoff)
        + task_count(data, tmp, b, q, sort_cutoff, merge_cutoff)
        + task_count(data, tmp, c, q, sort_cutoff, merge_cutoff)
        + task_count(data, tmp, d, last, sort_cutoff, merge_cutoff);
    let merges = merge_task_count(data, a, b, data, b, c, tmp, a, merge_cutoff)
        + merge_task_count(data, c, d, data, d, lo + n, tmp, c, merge_cutoff)
        + merge_task_count(tmp, a, c, tmp, c, lo + n, data, a, merge_cutoff);
    1 + sorts + merges
}

/// How many tasks [`program::cilkmerge`] runs on these runs, merging them as it does.
#[allow(clippy::too_many_arguments)]
fn merge_task_count(
    x: Buf,
    xl: usize,
    xh: usize,
    y: Buf,
    yl: usize,
    yh: usize,
    out: Buf,
    ol: usize,
    cutoff: usize,
) -> u64 {
    let (x, xl, xh, y, yl, yh) = if xh - xl < yh - yl {
        (y, yl, yh, x, xl, xh)
    } else {
        (x, xl, xh, y, yl, yh)
    };
    if merge_is_leaf(xh - xl, yh - yl, cutoff) {
        merge_seq(x, xl, xh, y, yl, yh, out, ol);
        return 1;
    }
    let xm = xl + (xh - xl) / 2;
    let ym = lower_bound(y, yl, yh, x, xm);
    let om = ol + (xm - xl) + (ym - yl);
    1 + merge_task_count(x, xl, xm, y, yl, ym, out, ol, cutoff)
        + merge_task_count(x, xm, xh, y, ym, yh, out, om, cutoff)
}
