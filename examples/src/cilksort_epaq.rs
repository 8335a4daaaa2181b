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

use crate::cilksort::{merge_is_leaf, sort_is_leaf};
use crate::sorting::{lower_bound, merge_into};

/// The task program.
#[gtap::program(name = "cilksort_epaq")]
pub mod program {
    use gtap::{View, ViewMut};

    use crate::cilksort::{merge_is_leaf, merge_seq, sort_is_leaf, sort_seq, split_merge};

    /// The queue of a child of the classifier `epaq`: `leaf_queue` if the child is a leaf,
    /// else 0.
    fn child_queue(epaq: u32, leaf: bool, leaf_queue: u32) -> u32 {
        if epaq != 0 && leaf { leaf_queue } else { 0 }
    }

    /// Sorts `data`, using `tmp` (as long) as scratch, as
    /// [`cilksort::program::cilksort`](crate::cilksort::program::cilksort) does.
    #[gtap::task]
    pub fn cilksort(
        mut data: ViewMut<'_, u32>,
        mut tmp: ViewMut<'_, u32>,
        sort_cutoff: usize,
        merge_cutoff: usize,
        epaq: u32,
    ) {
        let n = data.len();
        if sort_is_leaf(n, sort_cutoff) {
            sort_seq(data);
            return;
        }
        let q = n / 4;
        let last = n - 3 * q;
        // The queues as plain values, not closures: a closure borrows what it captures, and
        // one whose scope spans a taskwait lives in the task's record (see the README).
        let sq = child_queue(epaq, sort_is_leaf(q, sort_cutoff), 1);
        let sq_last = child_queue(epaq, sort_is_leaf(last, sort_cutoff), 1);
        let (d01, d23) = data.split_at_mut(2 * q);
        let ((d0, d1), (d2, d3)) = (d01.into_split_at(q), d23.into_split_at(q));
        let (t01, t23) = tmp.split_at_mut(2 * q);
        let ((t0, t1), (t2, t3)) = (t01.into_split_at(q), t23.into_split_at(q));
        let a = spawn!(queue(sq), cilksort(d0, t0, sort_cutoff, merge_cutoff, epaq));
        let b = spawn!(queue(sq), cilksort(d1, t1, sort_cutoff, merge_cutoff, epaq));
        let c = spawn!(queue(sq), cilksort(d2, t2, sort_cutoff, merge_cutoff, epaq));
        let d = spawn!(
            queue(sq_last),
            cilksort(d3, t3, sort_cutoff, merge_cutoff, epaq)
        );
        taskwait!();
        // data quarters -> tmp halves
        let (d01, d23) = data.as_view().split_at(2 * q);
        let ((d0, d1), (d2, d3)) = (d01.split_at(q), d23.split_at(q));
        let (t01, t23) = tmp.split_at_mut(2 * q);
        let ab = spawn!(
            queue(child_queue(epaq, merge_is_leaf(q, q, merge_cutoff), 2)),
            cilkmerge(d0, d1, t01, merge_cutoff, epaq)
        );
        let cd = spawn!(
            queue(child_queue(epaq, merge_is_leaf(q, last, merge_cutoff), 2)),
            cilkmerge(d2, d3, t23, merge_cutoff, epaq)
        );
        taskwait!();
        // tmp halves -> data
        let (t01, t23) = tmp.as_view().split_at(2 * q);
        let all = spawn!(
            queue(child_queue(
                epaq,
                merge_is_leaf(2 * q, n - 2 * q, merge_cutoff),
                2
            )),
            cilkmerge(t01, t23, data.reborrow(), merge_cutoff, epaq)
        );
        taskwait!();
    }

    /// Merges the sorted runs `x` and `y` into `out`, as
    /// [`cilksort::program::cilkmerge`](crate::cilksort::program::cilkmerge) does.
    #[gtap::task]
    pub fn cilkmerge(
        x: View<'_, u32>,
        y: View<'_, u32>,
        out: ViewMut<'_, u32>,
        cutoff: usize,
        epaq: u32,
    ) {
        // Make `x` the longer run.
        let (x, y) = if x.len() < y.len() { (y, x) } else { (x, y) };
        if merge_is_leaf(x.len(), y.len(), cutoff) {
            merge_seq(x, y, out);
            return;
        }
        let ((x0, x1), (y0, y1), (o0, o1)) = split_merge(x, y, out);
        let lq = child_queue(epaq, merge_is_leaf(x0.len(), y0.len(), cutoff), 2);
        let rq = child_queue(epaq, merge_is_leaf(x1.len(), y1.len(), cutoff), 2);
        spawn!(queue(lq), cilkmerge(x0, y0, o0, cutoff, epaq));
        spawn!(queue(rq), cilkmerge(x1, y1, o1, cutoff, epaq));
        taskwait!();
    }
}

/// How many tasks [`program::cilksort`] runs on `data` (either program, any classifier: the
/// queues change the order, not the tasks), found by walking the program's recursion
/// sequentially: the merges split where the data says, so the count depends on it. Sorts
/// `data` as the program does, using `tmp` (as long) alike.
pub fn task_count(
    data: &mut [u32],
    tmp: &mut [u32],
    sort_cutoff: usize,
    merge_cutoff: usize,
) -> u64 {
    let n = data.len();
    if sort_is_leaf(n, sort_cutoff) {
        // Any sort leaves the same run; the walk does not need the program's slow one.
        data.sort_unstable();
        return 1;
    }
    let q = n / 4;
    let mut sorts = 0;
    for (d, t) in data.chunks_mut(q).zip(tmp.chunks_mut(q)).take(3) {
        sorts += task_count(d, t, sort_cutoff, merge_cutoff);
    }
    sorts += task_count(
        &mut data[3 * q..],
        &mut tmp[3 * q..],
        sort_cutoff,
        merge_cutoff,
    );
    let (t01, t23) = tmp.split_at_mut(2 * q);
    let merges = merge_task_count(&data[..q], &data[q..2 * q], t01, merge_cutoff)
        + merge_task_count(&data[2 * q..3 * q], &data[3 * q..], t23, merge_cutoff)
        + merge_task_count(&tmp[..2 * q], &tmp[2 * q..], data, merge_cutoff);
    1 + sorts + merges
}

/// How many tasks [`program::cilkmerge`] runs on these runs, merging them as it does.
fn merge_task_count(x: &[u32], y: &[u32], out: &mut [u32], cutoff: usize) -> u64 {
    let (x, y) = if x.len() < y.len() { (y, x) } else { (x, y) };
    if merge_is_leaf(x.len(), y.len(), cutoff) {
        merge_into(x, y, out);
        return 1;
    }
    let xm = x.len() / 2;
    let ym = lower_bound(y, x[xm]);
    let (o0, o1) = out.split_at_mut(xm + ym);
    1 + merge_task_count(&x[..xm], &y[..ym], o0, cutoff)
        + merge_task_count(&x[xm..], &y[ym..], o1, cutoff)
}
