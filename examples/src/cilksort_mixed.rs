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
//! # Views
//!
//! The arrays are exclusive views ([`ViewMut`](gtap::ViewMut)), split and lent as in
//! [`crate::cilksort`]: quarters of both to the four sorts; shared views of the sorted
//! quarters and halves of `tmp` to the first merges; a shared view of `tmp` and all of `data`
//! to the last. A block merge's part of the output is a [`TeamMut`] (each thread writes its
//! own equal share of it, as in [`crate::mergesort_mixed`]), and so are a block sort's two
//! buffers. Every task is safe code. The block sort's merge passes read the whole of one
//! buffer while each thread writes its share of the other ([`TeamMut::pass_from`]), which is
//! sound only while every thread of the team is in the same pass: the pass checks that at
//! its barriers ([`gtap::Block::agree`]), and panics on every thread if not. The tiles'
//! copies through the team's scratch ([`crate::block_sort`]) reach memory by address inside
//! `sort_chunk`, which checks the same at its start.
//!
//! # Why block tasks here
//!
//! [`crate::cilksort`]'s merges run on one GPU thread each below the merge cutoff, whose
//! scattered reads and writes leave the memory system idle; its leaves are insertion sorts
//! of 64 elements on one thread. Here a block's threads work on neighbouring stretches of the
//! same chunk or merge at once, and the block merges replace the deep recursion of thread
//! merges with one level of block tasks. [`reference()`] runs the same algorithm on one thread,
//! simulating a team of any size; the tests check it for every team size from 1 up.

use gtap::{Block, TeamMut};

pub use crate::mergesort_mixed::merge_range;
use crate::mergesort_mixed::share;
use crate::sorting::merge_into;

/// The most block tasks one merge is split into. A sort task spawns the parts of two merges
/// at once, so the program's `max_children` (and the slots a sort task keeps for them) is
/// twice this.
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

/// The task program.
#[gtap::program(name = "cilksort_mixed", max_children = 512)]
pub mod program {
    use gtap::{Block, TeamMut, View, ViewMut};

    use super::{Params, is_block_sort, is_thread_leaf, merge_range, parts, share};
    use crate::cilksort::{merge_is_leaf, merge_seq, split_merge};

    /// Sorts `data`, using `tmp` (as long) as scratch.
    #[gtap::task]
    pub fn sort(mut data: ViewMut<'_, u32>, mut tmp: ViewMut<'_, u32>, p: Params) {
        let n = data.len();
        if is_thread_leaf(n, p) {
            data.as_mut_slice().sort_unstable();
            return;
        }
        if is_block_sort(n, p) {
            // Only a root this small gets here: larger sorts spawn their block quarters.
            spawn!(sort_block(data, tmp));
            taskwait!();
            return;
        }
        let q = n / 4;
        {
            // Quarters of both arrays (the last takes the remainder), each a sort task or a
            // block sort by its size: slots, as the two kinds' handles differ.
            let sorts = slots!((); 4);
            let (d01, d23) = data.split_at_mut(2 * q);
            let ((d0, d1), (d2, d3)) = (d01.into_split_at(q), d23.into_split_at(q));
            let (t01, t23) = tmp.split_at_mut(2 * q);
            let ((t0, t1), (t2, t3)) = (t01.into_split_at(q), t23.into_split_at(q));
            for (d, t) in [(d0, t0), (d1, t1), (d2, t2), (d3, t3)] {
                if is_block_sort(d.len(), p) {
                    spawn!(into sorts, sort_block(d, t));
                } else {
                    spawn!(into sorts, sort(d, t, p));
                }
            }
            taskwait!();
        }
        {
            // Quarters in `data`, halves into `tmp`: both arrays are needed again after this
            // join, so the parts borrow them through slots.
            let merges = slots!((); 512);
            let (x, y) = data.as_view().split_at(2 * q);
            let (t01, t23) = tmp.split_at_mut(2 * q);
            for (run, out) in [(x, t01), (y, t23)] {
                let k = parts(out.len(), p);
                if k > 1 {
                    // Part `i` of the outputs goes to block task `i`.
                    let mut rest = out;
                    let mut i = 0;
                    while i < k {
                        let (p0, p1) = share(run.len(), i, k);
                        let (part, tail) = rest.into_split_at(p1 - p0);
                        spawn!(into merges, merge_block(run, q, p0, part));
                        rest = tail;
                        i += 1;
                    }
                } else {
                    let (a, b) = run.split_at(q);
                    spawn!(into merges, merge(a, b, out, p.merge_leaf));
                }
            }
            taskwait!();
        }
        // Halves in `tmp`, the whole back into `data`: the last use of both.
        let run = tmp.into_view();
        let k = parts(n, p);
        if k > 1 {
            let mut rest = data;
            let mut i = 0;
            while i < k {
                let (p0, p1) = share(n, i, k);
                let (part, tail) = rest.into_split_at(p1 - p0);
                spawn!(merge_block(run, 2 * q, p0, part));
                rest = tail;
                i += 1;
            }
        } else {
            let (a, b) = run.split_at(2 * q);
            spawn!(merge(a, b, data, p.merge_leaf));
        }
        taskwait!();
    }

    /// Sorts the chunk `data` with the whole block, `tmp` (as long) as the other buffer
    /// ([`super::block_sort`]).
    #[gtap::task(block)]
    pub fn sort_block(b: Block, mut data: TeamMut<'_, u32>, mut tmp: TeamMut<'_, u32>) {
        super::block_sort(b, &mut data, &mut tmp);
    }

    /// Outputs `from..from + out.len()` of the merge of the sorted runs `run[..mid]` and
    /// `run[mid..]`, by the whole block: each thread merges its equal share of them.
    #[gtap::task(block)]
    pub fn merge_block(
        b: Block,
        run: View<'_, u32>,
        mid: usize,
        from: usize,
        mut out: TeamMut<'_, u32>,
    ) {
        let (t0, _) = out.share_bounds(b);
        merge_range(run.as_slice(), mid, from + t0, out.share(b));
    }

    /// Merges the sorted runs `x` and `y` into `out` (as long as both) with thread tasks:
    /// Cilk's parallel merge, sequential at or below `cutoff` elements.
    #[gtap::task]
    pub fn merge(x: View<'_, u32>, y: View<'_, u32>, out: ViewMut<'_, u32>, cutoff: usize) {
        // Make `x` the longer run.
        let (x, y) = if x.len() < y.len() { (y, x) } else { (x, y) };
        if merge_is_leaf(x.len(), y.len(), cutoff) {
            merge_seq(x, y, out);
            return;
        }
        let ((x0, x1), (y0, y1), (o0, o1)) = split_merge(x, y, out);
        spawn!(merge(x0, y0, o0, cutoff));
        spawn!(merge(x1, y1, o1, cutoff));
        taskwait!();
    }
}

/// The pairwise merge passes that turn `runs` sorted runs into one, `ceil(log2 runs)`: a block
/// sort's passes over its threads' shares, or ([`crate::block_sort`]) over its tiles.
pub fn merge_passes(runs: usize) -> u32 {
    runs.max(1).next_power_of_two().trailing_zeros()
}

/// Sorts the chunk `data` with every thread of the block, `tmp` (as long) as the other
/// buffer: on the GPU in tiles ([`crate::block_sort`]) when the block has the scratch for
/// them, else unstaged (see the module docs). On the CPU backend always unstaged: a team's
/// threads there are OS threads, for which each of the tiles' barriers costs microseconds,
/// where a GPU block's costs nanoseconds.
///
/// Every thread of the team makes this call with the same two views, as with
/// [`Block::sync`] (checked: see [`TeamMut::pass_from`]).
pub fn block_sort<'a>(b: Block, data: &mut TeamMut<'a, u32>, tmp: &mut TeamMut<'a, u32>) {
    let (t, threads) = (b.index() as usize, b.size() as usize);
    if cfg!(target_arch = "nvptx64") && crate::block_sort::fits(threads, b.scratch_bytes()) {
        crate::block_sort::sort_chunk(b, data, tmp);
        return;
    }
    let passes = merge_passes(threads);
    sort_share(data.share(b), tmp.share(b), passes);
    for pass in 0..passes {
        let (src, dst) = runs_before(data, tmp, pass, passes);
        dst.pass_from(b, src, |src, out| merge_pass(src, out, t, threads, pass));
    }
}

/// The buffer that holds the chunk's runs before pass `pass` of `passes` (the sorted shares
/// before pass 0, the sorted chunk after the last), and the other: `data` when an even number
/// of passes is left, so that the last one writes `data`.
fn runs_before<'v, T: ?Sized>(
    data: &'v mut T,
    tmp: &'v mut T,
    pass: u32,
    passes: u32,
) -> (&'v mut T, &'v mut T) {
    if (passes - pass).is_multiple_of(2) {
        (data, tmp)
    } else {
        (tmp, data)
    }
}

/// Step 1 of a block sort, for one thread's share (`from` in `data`, `to` the same range of
/// `tmp`): sorted into the buffer pass 0 of `passes` reads.
fn sort_share(from: &mut [u32], to: &mut [u32], passes: u32) {
    if passes.is_multiple_of(2) {
        from.sort_unstable();
    } else {
        to.copy_from_slice(from);
        to.sort_unstable();
    }
}

/// Pass `pass` of a block sort, for thread `t` of `threads`: `out`, its share of the outputs,
/// from the merge of the two runs of `src` (the whole chunk) that its share belongs to.
fn merge_pass(src: &[u32], out: &mut [u32], t: usize, threads: usize, pass: u32) {
    let n = src.len();
    // The pair of runs holding share `t`: shares `first..end`, split at `middle`.
    let run = 1usize << pass;
    let first = t & !(2 * run - 1);
    let middle = (first + run).min(threads);
    let end = (first + 2 * run).min(threads);
    let at = |k: usize| share(n, k, threads).0;
    let (r0, r1, r2) = (at(first), at(middle), at(end));
    let (o0, _) = share(n, t, threads);
    merge_range(&src[r0..r2], r1 - r0, o0 - r0, out);
}

/// Sorts `data` on the calling thread with the program's algorithm, block tasks simulated on
/// a team of `team` threads (each step of every thread in turn, a barrier between steps),
/// `tmp` as scratch: what the tests check the algorithm with on every team size.
pub fn reference(data: &mut [u32], tmp: &mut [u32], p: Params, team: usize) {
    assert_eq!(data.len(), tmp.len(), "the buffers have the same length");
    sort_ref(data, tmp, p, team.max(1));
}

fn sort_ref(data: &mut [u32], tmp: &mut [u32], p: Params, team: usize) {
    let n = data.len();
    if is_thread_leaf(n, p) {
        data.sort_unstable();
        return;
    }
    if is_block_sort(n, p) {
        block_sort_ref(data, tmp, team);
        return;
    }
    let q = n / 4;
    {
        let (d01, d23) = data.split_at_mut(2 * q);
        let ((d0, d1), (d2, d3)) = (d01.split_at_mut(q), d23.split_at_mut(q));
        let (t01, t23) = tmp.split_at_mut(2 * q);
        let ((t0, t1), (t2, t3)) = (t01.split_at_mut(q), t23.split_at_mut(q));
        for (d, t) in [(d0, t0), (d1, t1), (d2, t2), (d3, t3)] {
            sort_ref(d, t, p, team);
        }
    }
    let (x, y) = data.split_at(2 * q);
    let (t01, t23) = tmp.split_at_mut(2 * q);
    merge_ref(x, q, t01, p, team);
    merge_ref(y, q, t23, p, team);
    merge_ref(tmp, 2 * q, data, p, team);
}

/// The merge of `run[..mid]` and `run[mid..]` into `out`, in the parts and threads' shares
/// the program would use (or sequentially where thread tasks merge).
fn merge_ref(run: &[u32], mid: usize, out: &mut [u32], p: Params, team: usize) {
    let n = run.len();
    let k = parts(n, p);
    if k == 1 {
        merge_into(&run[..mid], &run[mid..], out);
        return;
    }
    for part in 0..k {
        let (p0, p1) = share(n, part, k);
        for t in 0..team {
            let (t0, t1) = share(p1 - p0, t, team);
            merge_range(run, mid, p0 + t0, &mut out[p0 + t0..p0 + t1]);
        }
    }
}

fn block_sort_ref(data: &mut [u32], tmp: &mut [u32], team: usize) {
    let n = data.len();
    let passes = merge_passes(team);
    for t in 0..team {
        let (s0, s1) = share(n, t, team);
        sort_share(&mut data[s0..s1], &mut tmp[s0..s1], passes);
    }
    for pass in 0..passes {
        let (src, dst) = runs_before(data, tmp, pass, passes);
        for t in 0..team {
            let (o0, o1) = share(n, t, team);
            merge_pass(src, &mut dst[o0..o1], t, team, pass);
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
                    block_sort_ref(&mut data, &mut tmp, team);
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
