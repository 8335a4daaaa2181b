//! Merge sort with both kinds of task: thread tasks split the array down to small leaves and
//! merge small runs on one thread, and every large merge is split by *merge path* into parts
//! that block tasks merge, each with all the threads of a block.
//!
//! A sequential merge is the critical path of a plain merge sort ([`crate::mergesort`]: its
//! last merge of `n` elements runs on one GPU thread). Here a merge of `n >= block_merge`
//! elements becomes up to [`MAX_PARTS`] block tasks, each owning an equal stretch of the
//! output; inside a block each thread finds where its own stretch starts in both inputs by
//! binary search along the merge path and merges it alone, so the merge takes
//! `n / (parts x threads)` sequential steps. The two arrays swap roles at each level (the
//! children leave their halves in the buffer their parent merges from), so no level copies.
//!
//! The arrays are exclusive views ([`ViewMut`](gtap::ViewMut)): a sort task splits both for
//! its children and has them whole again after the join, then lends the run it merges from
//! to the merge's block tasks as a shared view and the other array to them in parts, one
//! part per block task. A block task takes its part as a [`TeamMut`](gtap::TeamMut), of which
//! each of its threads reaches only its own share: no `unsafe` in the program.

use crate::sorting::merge_into_halves;
pub use crate::sorting::merge_path;
/// Share `k` of `of` equal shares of `0..n`, as a block task's threads share a `TeamMut`.
pub use gtap::device::data::share_of as share;

/// The most block tasks one merge is split into (the program's `max_children`).
pub const MAX_PARTS: usize = 256;

/// The sizes that decide which kind of task does what.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Params {
    /// A task of at most this many elements sorts them sequentially (`sort_unstable`).
    pub leaf: usize,
    /// A merge of at least this many elements is done by block tasks, a smaller one by the
    /// thread task itself.
    pub block_merge: usize,
    /// Output elements each block task of a merge aims at (at most [`MAX_PARTS`] parts).
    pub part: usize,
}

impl Default for Params {
    /// The sizes that sorted 1e7 random `u32`s fastest in a sweep on an H100 with blocks of
    /// 256 threads (results/2026-11-25-mixed-h100.md): small leaves and block merges from
    /// 2048 elements, because one GPU thread merging or sorting alone is the slow part.
    fn default() -> Self {
        Params {
            leaf: 64,
            block_merge: 1 << 11,
            part: 1 << 14,
        }
    }
}

/// The task program.
#[gtap::program(name = "mergesort_mixed", max_children = 256)]
pub mod program {
    use gtap::{Block, TeamMut, View, ViewMut};

    use super::{Params, merge_range, parts, share, sort_leaf};

    /// Sorts `x`, leaving the sorted run in `y` when `to_y`, else in `x`; the other buffer
    /// (as long) is scratch.
    #[gtap::task]
    pub fn sort(mut x: ViewMut<'_, u32>, mut y: ViewMut<'_, u32>, to_y: bool, p: Params) {
        let n = x.len();
        if n <= p.leaf.max(1) {
            sort_leaf(x.as_mut_slice(), y.as_mut_slice(), to_y);
            return;
        }
        let mid = n / 2;
        // The halves end up in the buffer this task merges from.
        let (x0, x1) = x.split_at_mut(mid);
        let (y0, y1) = y.split_at_mut(mid);
        let left = spawn!(sort(x0, y0, !to_y, p));
        let right = spawn!(sort(x1, y1, !to_y, p));
        taskwait!();
        let (src, mut dst) = if to_y {
            (x.into_view(), y)
        } else {
            (y.into_view(), x)
        };
        let k = parts(n, p);
        if k <= 1 {
            merge_range(src.as_slice(), mid, 0, dst.as_mut_slice());
            return;
        }
        // Part `i` of the outputs goes to block task `i`.
        let mut i = 0;
        while i < k {
            let (p0, p1) = share(n, i, k);
            let (part, rest) = dst.into_split_at(p1 - p0);
            spawn!(merge(src, mid, p0, part));
            dst = rest;
            i += 1;
        }
        taskwait!();
    }

    /// Outputs `from..from + out.len()` of the merge of the sorted runs `run[..mid]` and
    /// `run[mid..]`, by the whole block: each thread merges its equal share of them.
    #[gtap::task(block)]
    pub fn merge(b: Block, run: View<'_, u32>, mid: usize, from: usize, mut out: TeamMut<'_, u32>) {
        let (t0, _) = out.share_bounds(b);
        merge_range(run.as_slice(), mid, from + t0, out.share(b));
    }
}

/// How many block tasks merge `n` elements: none (the thread merges) below
/// `p.block_merge`, else one per `p.part` output elements, at most [`MAX_PARTS`].
pub fn parts(n: usize, p: Params) -> usize {
    if n < p.block_merge {
        1
    } else {
        n.div_ceil(p.part.max(1)).clamp(2, MAX_PARTS)
    }
}

/// Sorts `x` in place and, when `to_y`, copies it to `y`.
pub fn sort_leaf(x: &mut [u32], y: &mut [u32], to_y: bool) {
    x.sort_unstable();
    if to_y {
        y.copy_from_slice(x);
    }
}

/// Writes outputs `from..from + out.len()` of the merge of the sorted runs `run[..mid]` and
/// `run[mid..]` into `out`: where they start and end in both runs is found by merge path.
pub fn merge_range(run: &[u32], mid: usize, from: usize, out: &mut [u32]) {
    let (a, b) = run.split_at(mid);
    let to = from + out.len();
    let (i0, i1) = (merge_path(a, b, from), merge_path(a, b, to));
    merge_into_halves(&a[i0..i1], &b[from - i0..to - i1], out);
}

/// Sorts `data` on the calling thread, with the program's algorithm and `tmp` as scratch: the
/// reference the tests compare with (and the order every run must give).
pub fn reference(data: &mut [u32], tmp: &mut [u32], p: Params) {
    sort_ref(data, tmp, false, p);
}

fn sort_ref(x: &mut [u32], y: &mut [u32], to_y: bool, p: Params) {
    let n = x.len();
    if n <= p.leaf.max(1) {
        sort_leaf(x, y, to_y);
        return;
    }
    let mid = n / 2;
    {
        let ((x0, x1), (y0, y1)) = (x.split_at_mut(mid), y.split_at_mut(mid));
        sort_ref(x0, y0, !to_y, p);
        sort_ref(x1, y1, !to_y, p);
    }
    let (src, dst) = if to_y { (&*x, y) } else { (&*y, x) };
    let k = parts(n, p);
    for i in 0..k {
        let (p0, p1) = share(n, i, k);
        merge_range(src, mid, p0, &mut dst[p0..p1]);
    }
}

#[cfg(all(test, not(target_arch = "nvptx64")))]
mod tests {
    extern crate std;
    use std::vec::Vec;

    use super::*;

    fn input(n: usize, seed: u64) -> Vec<u32> {
        let mut rng = crate::rng::Rng::new(seed);
        (0..n).map(|_| (rng.next() % 1000) as u32).collect()
    }

    #[test]
    fn the_merge_path_splits_every_diagonal_in_order() {
        let a = [1, 3, 3, 5, 9];
        let b = [2, 3, 4, 10];
        let mut merged = Vec::new();
        merged.extend_from_slice(&a);
        merged.extend_from_slice(&b);
        merged.sort();
        for diag in 0..=a.len() + b.len() {
            let i = merge_path(&a, &b, diag);
            let j = diag - i;
            let mut first: Vec<u32> = a[..i].iter().chain(&b[..j]).copied().collect();
            first.sort();
            assert_eq!(first, merged[..diag], "diagonal {diag}");
        }
    }

    #[test]
    fn the_reference_sorts_with_small_parts() {
        let p = Params {
            leaf: 4,
            block_merge: 16,
            part: 5,
        };
        for n in [0, 1, 2, 7, 16, 17, 100, 1000, 4099] {
            let mut data = input(n, n as u64);
            let mut tmp = std::vec![0; n];
            let mut expected = data.clone();
            expected.sort();
            reference(&mut data, &mut tmp, p);
            assert_eq!(data, expected, "n = {n}");
        }
    }
}
