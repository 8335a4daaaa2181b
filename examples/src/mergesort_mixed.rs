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

use gtap::Block;

use crate::buf::Buf;
use crate::sorting::merge_into_halves;
pub use crate::sorting::merge_path;

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
    use gtap::Block;

    use super::{Params, merge_part_block, parts, sort_leaf};
    use crate::buf::Buf;

    /// Sorts `x[lo..hi]`, leaving the sorted run in `y[lo..hi]` when `to_y`, else in
    /// `x[lo..hi]`; the other buffer's `lo..hi` is scratch.
    #[gtap::task]
    pub fn sort(x: Buf, y: Buf, lo: usize, hi: usize, to_y: bool, p: Params) {
        let n = hi - lo;
        if n <= p.leaf.max(1) {
            sort_leaf(x, y, lo, hi, to_y);
            return;
        }
        let mid = lo + n / 2;
        // The halves end up in the buffer this task merges from.
        spawn!(sort(x, y, lo, mid, !to_y, p));
        spawn!(sort(x, y, mid, hi, !to_y, p));
        taskwait!();
        let (src, dst) = if to_y { (x, y) } else { (y, x) };
        let k = parts(n, p);
        if k <= 1 {
            super::merge_part(src, dst, lo, mid, hi, 0, 1);
            return;
        }
        let mut i = 0;
        while i < k {
            spawn!(merge(src, dst, lo, mid, hi, i as u32, k as u32));
            i += 1;
        }
        taskwait!();
    }

    /// Part `part` of `parts` of the merge of the sorted runs `src[lo..mid]` and
    /// `src[mid..hi]` into `dst[lo..hi]`, by the whole block.
    #[gtap::task(block)]
    #[allow(clippy::too_many_arguments)]
    pub fn merge(
        b: Block,
        src: Buf,
        dst: Buf,
        lo: usize,
        mid: usize,
        hi: usize,
        part: u32,
        parts: u32,
    ) {
        merge_part_block(b, src, dst, lo, mid, hi, part, parts);
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

/// Sorts `x[lo..hi]` in place and, when `to_y`, copies it to `y[lo..hi]`.
pub fn sort_leaf(x: Buf, y: Buf, lo: usize, hi: usize, to_y: bool) {
    // SAFETY: the leaf task owns `lo..hi` of both buffers.
    let xs = unsafe { x.slice(lo, hi) };
    xs.sort_unstable();
    if to_y {
        // SAFETY: as above.
        unsafe { y.slice(lo, hi) }.copy_from_slice(xs);
    }
}

/// Merges the outputs `[from, to)` of the merge of `src[lo..mid]` and `src[mid..hi]` into
/// `dst[lo + from..lo + to]`. The caller owns those outputs of `dst` (another buffer than
/// `src`), and no task writes `src[lo..hi]` meanwhile.
pub fn merge_range(src: Buf, dst: Buf, lo: usize, mid: usize, hi: usize, from: usize, to: usize) {
    // SAFETY: the sorted runs are read-only during the merge, and the caller owns outputs
    // `from..to` of `dst`, another buffer.
    let (a, b, out) = unsafe {
        (
            src.slice(lo, mid),
            src.slice(mid, hi),
            dst.slice(lo + from, lo + to),
        )
    };
    let (i0, i1) = (merge_path(a, b, from), merge_path(a, b, to));
    merge_into_halves(&a[i0..i1], &b[from - i0..to - i1], out);
}

/// Part `part` of `parts` of the merge, on one thread (a merge too small for block tasks).
pub fn merge_part(src: Buf, dst: Buf, lo: usize, mid: usize, hi: usize, part: u32, parts: u32) {
    let n = hi - lo;
    let (from, to) = share(n, part as usize, parts as usize);
    merge_range(src, dst, lo, mid, hi, from, to);
}

/// Part `part` of `parts` of the merge, by every thread of the block: each merges its own
/// equal share of the part's outputs.
#[allow(clippy::too_many_arguments)]
pub fn merge_part_block(
    b: Block,
    src: Buf,
    dst: Buf,
    lo: usize,
    mid: usize,
    hi: usize,
    part: u32,
    parts: u32,
) {
    let n = hi - lo;
    let (p0, p1) = share(n, part as usize, parts as usize);
    let (t0, t1) = share(p1 - p0, b.index() as usize, b.size() as usize);
    merge_range(src, dst, lo, mid, hi, p0 + t0, p0 + t1);
}

/// Share `k` of `of` equal shares of `0..n`: `[n k / of, n (k + 1) / of)`.
pub fn share(n: usize, k: usize, of: usize) -> (usize, usize) {
    (n * k / of, n * (k + 1) / of)
}

/// Sorts `data` on the calling thread, with the program's algorithm and `tmp` as scratch: the
/// reference the tests compare with (and the order every run must give).
pub fn reference(data: &mut [u32], tmp: &mut [u32], p: Params) {
    let n = data.len();
    let (x, y) = (Buf::new(data), Buf::new(tmp));
    sort_ref(x, y, 0, n, false, p);
}

fn sort_ref(x: Buf, y: Buf, lo: usize, hi: usize, to_y: bool, p: Params) {
    let n = hi - lo;
    if n <= p.leaf.max(1) {
        sort_leaf(x, y, lo, hi, to_y);
        return;
    }
    let mid = lo + n / 2;
    sort_ref(x, y, lo, mid, !to_y, p);
    sort_ref(x, y, mid, hi, !to_y, p);
    let (src, dst) = if to_y { (x, y) } else { (y, x) };
    let k = parts(n, p);
    for i in 0..k {
        merge_part(src, dst, lo, mid, hi, i as u32, k as u32);
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
