//! Cilksort with both kinds of task: thread tasks split the array into quarters as
//! [`crate::cilksort`] does, and the large pieces of work, the sorts of whole chunks and the
//! big merges, are block tasks that all the threads of a block share.
//!
//! # What runs where
//!
//! A sort task of `n` elements ([`program::sort`]) does one of three things:
//!
//! - `n <= leaf`: sorts them itself (`sort_unstable`, one thread);
//! - `n <= block_sort`: the chunk is one block task ([`program::sort_block`], the block sort
//!   below);
//! - larger: sorts four quarters in parallel (each a sort task or a block sort by its size),
//!   merges them pairwise from `data` into `tmp`, and the two halves back into `data`.
//!
//! A merge of at least `block_merge` elements is split by *merge path* into up to
//! [`MAX_PARTS`] block tasks of about `part` outputs each (as in
//! [`crate::mergesort_mixed`]: each thread of a part finds where its own stretch of the
//! output starts in both runs by binary search, then merges it alone); a smaller one is
//! Cilk's parallel merge in thread tasks ([`program::merge`]: split the longer run at its
//! middle, find that element in the other by binary search, merge the two pairs in parallel,
//! sequentially from `merge_leaf` elements down).
//!
//! # The block sort
//!
//! With scratch for a tile of [`crate::block_sort::ITEMS`] keys per thread, a block sorts a
//! chunk in tiles in registers and scratch, then merges the tiles ([`crate::block_sort`]).
//! Without, a block of `T` threads sorts a chunk of `n` elements in place, using the same
//! range of `tmp` as the other buffer:
//!
//! 1. thread `t` sorts its own equal share `t` of the chunk with `sort_unstable`;
//! 2. `ceil(log2 T)` merge passes follow, each after a barrier. Pass `j` merges pairs of
//!    neighbouring runs of `2^j` shares into runs of `2^(j+1)` shares, from one buffer into
//!    the other; every thread takes the outputs of its own share's position, so each pass
//!    keeps all `T` threads busy whatever the run length. Its outputs start where the merge
//!    path crosses its diagonal, found by binary search ([`crate::mergesort_mixed::merge_path`]).
//!    A run without a partner (when `T` is not a power of two) is copied.
//!
//! The passes alternate between the two buffers instead of copying back, and the chunk must
//! end in `data`: with an even number of passes the shares are sorted where they are; with an
//! odd number each thread first copies its share to `tmp` and sorts it there. So every element
//! is read and written once per pass, and the barriers are the only synchronisation. The
//! chunk is small enough (`block_sort`, 2^16 elements by default) to stay in the GPU's L2
//! cache across its passes, which is what makes them cheaper than the global merges above.
//!
//! The whole sort ping-pongs the same way: sorted quarters are in `data`, the two merges of
//! quarters write halves into `tmp`, the last merge writes back into `data`; no level copies.
//!
//! # Why block tasks here
//!
//! [`crate::cilksort`]'s merges run on one GPU thread each below the merge cutoff, whose
//! scattered reads and writes leave the memory system idle; its leaves are insertion sorts
//! of 64 elements on one thread. Here a block's threads work on neighbouring stretches of the
//! same chunk or merge at once, and the block merges replace the deep recursion of thread
//! merges with one level of block tasks. [`reference()`] runs the same algorithm on one thread,
//! simulating a team of any size; the tests check it for every team size from 1 up.

use gtap::Block;

use crate::buf::Buf;
use crate::mergesort_mixed::{merge_range, share};
use crate::sorting::merge_into;

/// The most block tasks one merge is split into. A sort task spawns the parts of two merges
/// at once, so the program's `max_children` is twice this.
pub const MAX_PARTS: usize = 256;

/// The sizes that decide which kind of task does what.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Params {
    /// A sort of at most this many elements runs on one thread (`sort_unstable`).
    pub leaf: usize,
    /// A sort of more than `leaf` and at most this many elements is one block task (0: none).
    pub block_sort: usize,
    /// A thread merge of at most this many elements merges sequentially.
    pub merge_leaf: usize,
    /// A merge of at least this many elements is split into block tasks; a smaller one is
    /// thread tasks' (`usize::MAX`: never).
    pub block_merge: usize,
    /// Output elements each block task of a merge aims at (at most [`MAX_PARTS`] parts).
    pub part: usize,
}

impl Default for Params {
    fn default() -> Self {
        Params {
            leaf: 256,
            block_sort: 1 << 16,
            merge_leaf: 256,
            block_merge: 1 << 13,
            part: 1 << 15,
        }
    }
}

impl Params {
    /// The same sizes with thread tasks only: no block sorts, no block merges (the program is
    /// then Cilk's cilksort with `sort_unstable` leaves).
    pub fn threads_only(self) -> Params {
        Params {
            block_sort: 0,
            block_merge: usize::MAX,
            ..self
        }
    }
}

/// Whether a sort of `n` elements runs on one thread: at or below the leaf size, and always
/// from 4 elements down (a quarter must not be empty).
pub fn is_thread_leaf(n: usize, p: Params) -> bool {
    n <= p.leaf.max(4)
}

/// Whether a sort of `n` elements is one block sort.
pub fn is_block_sort(n: usize, p: Params) -> bool {
    !is_thread_leaf(n, p) && n <= p.block_sort
}

/// How many block tasks merge `n` elements: 1 (thread tasks merge it) below
/// `p.block_merge`, else one per `p.part` outputs, 2 to [`MAX_PARTS`].
pub fn parts(n: usize, p: Params) -> usize {
    if n < p.block_merge {
        1
    } else {
        n.div_ceil(p.part.max(1)).clamp(2, MAX_PARTS)
    }
}

/// The `i`-th quarter (`0..4`) of `lo..lo + n`: its start and length (the last takes the
/// remainder).
pub fn quarter(lo: usize, n: usize, i: usize) -> (usize, usize) {
    let q = n / 4;
    (lo + i * q, if i == 3 { n - 3 * q } else { q })
}

/// The first index in `y[yl..yh]` whose element is not less than `x[xm]`.
pub fn lower_bound(y: Buf, yl: usize, yh: usize, x: Buf, xm: usize) -> usize {
    // SAFETY: both ranges are sorted runs that no task writes during this merge.
    let (ys, key) = unsafe { (y.slice(yl, yh), x.slice(xm, xm + 1)[0]) };
    yl + crate::sorting::lower_bound(ys, key)
}

/// Merges `x[xl..xh]` and `y[yl..yh]` into `out[ol..]` on this thread.
#[allow(clippy::too_many_arguments)]
pub fn merge_seq(x: Buf, xl: usize, xh: usize, y: Buf, yl: usize, yh: usize, out: Buf, ol: usize) {
    let n = (xh - xl) + (yh - yl);
    // SAFETY: the inputs are read-only during this merge and this task owns `out[ol..ol+n]`,
    // which does not overlap them (they are in the other buffer).
    let (xs, ys, os) = unsafe { (x.slice(xl, xh), y.slice(yl, yh), out.slice(ol, ol + n)) };
    merge_into(xs, ys, os);
}

/// The task program.
#[gtap::program(name = "cilksort_mixed", max_children = 512)]
pub mod program {
    use gtap::Block;

    use super::{
        Params, is_block_sort, is_thread_leaf, lower_bound, merge_buf, merge_seq, parts, quarter,
        share,
    };
    use crate::buf::Buf;
    use crate::cilksort::merge_is_leaf;

    /// Sorts `data[lo..lo + n]`, using `tmp[lo..lo + n]` as scratch.
    #[gtap::task]
    pub fn sort(data: Buf, tmp: Buf, lo: usize, n: usize, p: Params) {
        if is_thread_leaf(n, p) {
            super::sort_leaf(data, lo, n);
            return;
        }
        if is_block_sort(n, p) {
            // Only a root this small gets here: larger sorts spawn their block quarters.
            spawn!(sort_block(data, tmp, lo, n));
            taskwait!();
            return;
        }
        let mut i = 0;
        while i < 4 {
            let (s, m) = quarter(lo, n, i);
            if is_block_sort(m, p) {
                spawn!(sort_block(data, tmp, s, m));
            } else {
                spawn!(sort(data, tmp, s, m, p));
            }
            i += 1;
        }
        taskwait!();
        let (a, _) = quarter(lo, n, 0);
        let (b, _) = quarter(lo, n, 1);
        let (c, _) = quarter(lo, n, 2);
        let (d, _) = quarter(lo, n, 3);
        let e = lo + n;
        // Quarters in `data`, halves into `tmp`.
        let k = parts(c - a, p);
        if k > 1 {
            let mut i = 0;
            while i < k {
                spawn!(merge_block(data, tmp, a, b, c, i as u32, k as u32));
                i += 1;
            }
        } else {
            spawn!(merge(data, a, b, data, b, c, tmp, a, p.merge_leaf));
        }
        let k = parts(e - c, p);
        if k > 1 {
            let mut i = 0;
            while i < k {
                spawn!(merge_block(data, tmp, c, d, e, i as u32, k as u32));
                i += 1;
            }
        } else {
            spawn!(merge(data, c, d, data, d, e, tmp, c, p.merge_leaf));
        }
        taskwait!();
        // Halves in `tmp`, the whole back into `data`.
        let k = parts(n, p);
        if k > 1 {
            let mut i = 0;
            while i < k {
                spawn!(merge_block(tmp, data, a, c, e, i as u32, k as u32));
                i += 1;
            }
        } else {
            spawn!(merge(tmp, a, c, tmp, c, e, data, a, p.merge_leaf));
        }
        taskwait!();
    }

    /// Sorts the chunk `data[lo..lo + n]` with the whole block ([`super::block_sort`]).
    #[gtap::task(block)]
    pub fn sort_block(b: Block, data: Buf, tmp: Buf, lo: usize, n: usize) {
        super::block_sort(b, data, tmp, lo, n);
    }

    /// Part `part` of `parts` of the merge of `src[lo..mid]` and `src[mid..hi]` into
    /// `dst[lo..hi]`, by the whole block: each thread merges its own equal share of the
    /// part's outputs.
    #[gtap::task(block)]
    #[allow(clippy::too_many_arguments)]
    pub fn merge_block(
        b: Block,
        src: Buf,
        dst: Buf,
        lo: usize,
        mid: usize,
        hi: usize,
        part: u32,
        parts: u32,
    ) {
        let (p0, p1) = share(hi - lo, part as usize, parts as usize);
        let (t0, t1) = share(p1 - p0, b.index() as usize, b.size() as usize);
        merge_buf(src, dst, lo, mid, hi, p0 + t0, p0 + t1);
    }

    /// Merges the sorted runs `x[xl..xh]` and `y[yl..yh]` into `out[ol..]` with thread
    /// tasks: Cilk's parallel merge, sequential at or below `cutoff` elements.
    #[gtap::task]
    #[allow(clippy::too_many_arguments)]
    pub fn merge(
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
        spawn!(merge(x, xl, xm, y, yl, ym, out, ol, cutoff));
        spawn!(merge(x, xm, xh, y, ym, yh, out, om, cutoff));
        taskwait!();
    }
}

/// Merges the outputs `[from, to)` of the merge of `src[lo..mid]` and `src[mid..hi]` into
/// `dst[lo + from..lo + to]` on this thread ([`merge_range`] on the buffers' ranges). The
/// caller owns those outputs of `dst` (another buffer than `src`), and no task writes
/// `src[lo..hi]` meanwhile.
#[allow(clippy::too_many_arguments)]
pub fn merge_buf(src: Buf, dst: Buf, lo: usize, mid: usize, hi: usize, from: usize, to: usize) {
    // SAFETY: the caller's contract: the runs are only read during the merge, and the caller
    // owns outputs `from..to` of `dst`.
    let (run, out) = unsafe { (src.read(lo, hi), dst.slice(lo + from, lo + to)) };
    merge_range(run, mid - lo, from, out);
}

/// Sorts `data[lo..lo + n]` on one thread.
pub fn sort_leaf(data: Buf, lo: usize, n: usize) {
    // SAFETY: the calling task owns this range.
    unsafe { data.slice(lo, lo + n) }.sort_unstable();
}

/// The pairwise merge passes that turn `runs` sorted runs into one, `ceil(log2 runs)`: a block
/// sort's passes over its threads' shares, or ([`crate::block_sort`]) over its tiles.
pub fn merge_passes(runs: usize) -> u32 {
    runs.max(1).next_power_of_two().trailing_zeros()
}

/// Sorts the chunk `data[lo..lo + n]` with every thread of the block, `tmp[lo..lo + n]` as
/// the other buffer: on the GPU in tiles ([`crate::block_sort`]) when the block has the
/// scratch for them, else unstaged (see the module docs). On the CPU backend always
/// unstaged: a team's threads there are OS threads, for which each of the tiles' barriers
/// costs microseconds, where a GPU block's costs nanoseconds. Block-wide: every thread
/// calls it.
pub fn block_sort(b: Block, data: Buf, tmp: Buf, lo: usize, n: usize) {
    let (t, threads) = (b.index() as usize, b.size() as usize);
    if cfg!(target_arch = "nvptx64") && crate::block_sort::fits(threads, b.scratch_bytes()) {
        crate::block_sort::sort_chunk(b, data, tmp, lo, n);
        return;
    }
    let passes = merge_passes(threads);
    sort_share(data, tmp, lo, n, t, threads);
    for pass in 0..passes {
        // The previous pass's outputs (or the sorted shares) are complete.
        b.sync();
        merge_pass(data, tmp, lo, n, t, threads, pass);
    }
}

/// The buffer that holds the chunk's runs before pass `pass` of `passes` (the sorted shares
/// before pass 0, the sorted chunk after the last): `data` when an even number of passes is
/// left, so that the last one writes `data`.
fn runs_before(data: Buf, tmp: Buf, pass: u32, passes: u32) -> (Buf, Buf) {
    if (passes - pass).is_multiple_of(2) {
        (data, tmp)
    } else {
        (tmp, data)
    }
}

/// Step 1 of a block sort, for thread `t` of `threads`: sorts its share of the chunk into
/// the buffer pass 0 reads.
fn sort_share(data: Buf, tmp: Buf, lo: usize, n: usize, t: usize, threads: usize) {
    let passes = merge_passes(threads);
    let (s0, s1) = share(n, t, threads);
    let (at, _) = runs_before(data, tmp, 0, passes);
    // SAFETY: the block owns `lo..lo + n` of both buffers, and thread `t` alone touches its
    // share of them until the next barrier.
    let (from, to) = unsafe { (data.slice(lo + s0, lo + s1), at.slice(lo + s0, lo + s1)) };
    if !core::ptr::eq(from.as_ptr(), to.as_ptr()) {
        to.copy_from_slice(from);
    }
    to.sort_unstable();
}

/// Pass `pass` of a block sort, for thread `t` of `threads`: the outputs of its share's
/// position in the merge of the two runs its share belongs to.
fn merge_pass(data: Buf, tmp: Buf, lo: usize, n: usize, t: usize, threads: usize, pass: u32) {
    let passes = merge_passes(threads);
    let (src, dst) = runs_before(data, tmp, pass, passes);
    // The pair of runs holding share `t`: shares `first..end`, split at `middle`.
    let run = 1usize << pass;
    let first = t & !(2 * run - 1);
    let middle = (first + run).min(threads);
    let end = (first + 2 * run).min(threads);
    let at = |k: usize| share(n, k, threads).0;
    let (r0, r1, r2) = (at(first), at(middle), at(end));
    let (o0, o1) = share(n, t, threads);
    merge_buf(src, dst, lo + r0, lo + r1, lo + r2, o0 - r0, o1 - r0);
}

/// Sorts `data` on the calling thread with the program's algorithm, block tasks simulated on
/// a team of `team` threads (each step of every thread in turn, a barrier between steps),
/// `tmp` as scratch: what the tests check the algorithm with on every team size.
pub fn reference(data: &mut [u32], tmp: &mut [u32], p: Params, team: usize) {
    assert_eq!(data.len(), tmp.len(), "the buffers have the same length");
    let n = data.len();
    let (x, y) = (Buf::new(data), Buf::new(tmp));
    sort_ref(x, y, 0, n, p, team.max(1));
}

fn sort_ref(data: Buf, tmp: Buf, lo: usize, n: usize, p: Params, team: usize) {
    if is_thread_leaf(n, p) {
        sort_leaf(data, lo, n);
        return;
    }
    if is_block_sort(n, p) {
        block_sort_ref(data, tmp, lo, n, team);
        return;
    }
    for i in 0..4 {
        let (s, m) = quarter(lo, n, i);
        sort_ref(data, tmp, s, m, p, team);
    }
    let (a, b, c, d, e) = (
        quarter(lo, n, 0).0,
        quarter(lo, n, 1).0,
        quarter(lo, n, 2).0,
        quarter(lo, n, 3).0,
        lo + n,
    );
    merge_ref(data, tmp, a, b, c, p, team);
    merge_ref(data, tmp, c, d, e, p, team);
    merge_ref(tmp, data, a, c, e, p, team);
}

/// The merge of `src[lo..mid]` and `src[mid..hi]` into `dst[lo..hi]`, in the parts and
/// threads' shares the program would use (or sequentially where thread tasks merge).
fn merge_ref(src: Buf, dst: Buf, lo: usize, mid: usize, hi: usize, p: Params, team: usize) {
    let k = parts(hi - lo, p);
    if k == 1 {
        merge_seq(src, lo, mid, src, mid, hi, dst, lo);
        return;
    }
    for part in 0..k {
        let (p0, p1) = share(hi - lo, part, k);
        for t in 0..team {
            let (t0, t1) = share(p1 - p0, t, team);
            merge_buf(src, dst, lo, mid, hi, p0 + t0, p0 + t1);
        }
    }
}

fn block_sort_ref(data: Buf, tmp: Buf, lo: usize, n: usize, team: usize) {
    for t in 0..team {
        sort_share(data, tmp, lo, n, t, team);
    }
    for pass in 0..merge_passes(team) {
        for t in 0..team {
            merge_pass(data, tmp, lo, n, t, team, pass);
        }
    }
}

#[cfg(all(test, not(target_arch = "nvptx64")))]
mod tests {
    extern crate std;
    use std::vec::Vec;

    use super::*;

    fn input(n: usize, seed: u64, range: u64) -> Vec<u32> {
        let mut rng = crate::rng::Rng::new(seed);
        (0..n).map(|_| (rng.next() % range) as u32).collect()
    }

    #[test]
    fn passes_cover_every_team_size() {
        let passes: Vec<u32> = (1..=9).map(merge_passes).collect();
        assert_eq!(passes, [0, 1, 2, 2, 3, 3, 3, 3, 4]);
        assert_eq!(merge_passes(256), 8);
    }

    #[test]
    fn the_block_sort_sorts_on_every_team_size() {
        for team in 1..=9 {
            for n in [0, 1, 2, 3, 5, 8, 13, 64, 100, 257, 1000] {
                for range in [3, 1 << 20] {
                    let mut data = input(n, n as u64 * 31 + team as u64, range);
                    let mut expected = data.clone();
                    expected.sort_unstable();
                    let mut tmp = std::vec![0; n];
                    block_sort_ref(Buf::new(&mut data), Buf::new(&mut tmp), 0, n, team);
                    assert_eq!(data, expected, "team {team}, n = {n}, values below {range}");
                }
            }
        }
    }

    #[test]
    fn the_reference_sorts_with_every_kind_of_step() {
        let small = Params {
            leaf: 8,
            block_sort: 40,
            merge_leaf: 6,
            block_merge: 100,
            part: 37,
        };
        for p in [small, small.threads_only(), Params::default()] {
            for team in [1, 3, 4, 8] {
                for n in [0, 1, 4, 5, 39, 41, 150, 1000, 4099] {
                    let mut data = input(n, n as u64 + 7, 50);
                    let mut expected = data.clone();
                    expected.sort_unstable();
                    let mut tmp = std::vec![0; n];
                    reference(&mut data, &mut tmp, p, team);
                    assert_eq!(data, expected, "{p:?}, team {team}, n = {n}");
                }
            }
        }
    }

    #[test]
    fn sizes_pick_the_kind_of_task() {
        let p = Params::default();
        assert!(is_thread_leaf(4, Params { leaf: 0, ..p }));
        assert!(is_thread_leaf(256, p) && !is_block_sort(256, p));
        assert!(is_block_sort(257, p) && is_block_sort(1 << 16, p));
        assert!(!is_block_sort((1 << 16) + 1, p));
        assert!(!is_block_sort(1000, p.threads_only()));
        assert_eq!(parts((1 << 13) - 1, p), 1);
        assert_eq!(parts(1 << 13, p), 2);
        assert_eq!(parts(100_000_000, p), MAX_PARTS);
        assert_eq!(parts(usize::MAX / 2, p.threads_only()), 1);
    }
}
