//! A block's merge of two sorted runs, staged through the team's scratch memory (shared memory
//! on the GPU): what the mixed sorts' block tasks do with a part of a large merge.
//!
//! Merging alone, each thread of a block walks its own stretch of both runs and of the output
//! ([`crate::mergesort_mixed::merge_range`]), so at each step the 32 threads of a warp load
//! from and store to 32 unrelated places. Staged, the block works through its outputs in
//! *tiles* of `items x threads` elements:
//!
//! 1. where each tile starts in the two runs (the merge path at the tile's first output) is
//!    found for up to `threads` tiles at once, one binary search per thread, into scratch;
//! 2. per tile, the block copies the tile's stretch of both runs into scratch, thread `t`
//!    taking elements `t`, `t + threads`, ... (neighbouring threads, neighbouring addresses);
//! 3. each thread merges its `items` outputs from scratch into scratch (its own merge path
//!    within the tile, found by binary search in scratch);
//! 4. the block copies the tile's outputs to the destination the same strided way.
//!
//! A barrier separates the steps, and the two scratch areas are rewritten only after the
//! barrier that follows their last readers. With less scratch than one output per thread
//! needs, each thread merges its share of the outputs alone, unstaged.
//!
//! The result is the same as the unstaged merge's: the merge path breaks ties towards the
//! first run, so both put the same elements in the same places.

use core::slice;

use gtap::Block;

use crate::buf::Buf;
use crate::mergesort_mixed::{merge_path, merge_range, share};
use crate::sorting::merge_into;

/// The most outputs one thread merges per tile: more would lengthen each thread's sequential
/// merge without saving barriers worth having.
pub const MAX_ITEMS: usize = 16;

/// How the team's scratch is cut up for a staged merge, in elements.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tiles {
    /// Outputs each thread merges per tile.
    pub items: usize,
    /// Outputs per tile (`items x threads`).
    pub tile: usize,
}

impl Tiles {
    /// The tiles a team of `threads` threads with `scratch_bytes` of scratch merges in, or
    /// `None` if that is too little for one output per thread (the merge is then unstaged).
    ///
    /// Scratch holds `threads + 1` tile starts (`usize`), then the tile's inputs and its
    /// outputs (`u32` each).
    pub fn fit(threads: usize, scratch_bytes: usize) -> Option<Tiles> {
        let threads = threads.max(1);
        let starts = (threads + 1) * size_of::<usize>();
        let per_item = 2 * threads * size_of::<u32>();
        let items = (scratch_bytes.checked_sub(starts)? / per_item).min(MAX_ITEMS);
        (items > 0).then_some(Tiles {
            items,
            tile: items * threads,
        })
    }

    /// The scratch bytes a team of `threads` needs for tiles of `items` outputs per thread.
    pub fn scratch_bytes(threads: usize, items: usize) -> usize {
        (threads + 1) * size_of::<usize>() + 2 * items * threads * size_of::<u32>()
    }
}

/// The team's scratch, cut up as [`Tiles`] says: tile starts, tile inputs, tile outputs.
#[derive(Clone, Copy)]
struct Scratch {
    starts: *mut usize,
    input: *mut u32,
    output: *mut u32,
}

impl Scratch {
    fn of(b: Block, t: Tiles) -> Scratch {
        let starts = b.scratch().cast::<usize>();
        // `Block::scratch` is aligned to 8, and `Tiles::fit` checked it holds all three.
        let input = starts.wrapping_add(b.size() as usize + 1).cast::<u32>();
        Scratch {
            starts,
            input,
            output: input.wrapping_add(t.tile),
        }
    }
}

/// Merges the outputs `[from, to)` of the merge of `src[lo..mid]` and `src[mid..hi]` into
/// `dst[lo + from..lo + to]`, with every thread of the block (all must call it, with the same
/// arguments). The block owns those outputs of `dst` (another buffer than `src`), and no
/// task writes `src[lo..hi]` meanwhile.
#[allow(clippy::too_many_arguments)]
pub fn merge_range_block(
    b: Block,
    src: Buf,
    dst: Buf,
    lo: usize,
    mid: usize,
    hi: usize,
    from: usize,
    to: usize,
) {
    let threads = b.size() as usize;
    let Some(tiles) = Tiles::fit(threads, b.scratch_bytes()) else {
        let (t0, t1) = share(to - from, b.index() as usize, threads);
        merge_range(src, dst, lo, mid, hi, from + t0, from + t1);
        return;
    };
    let s = Scratch::of(b, tiles);
    let runs = Runs {
        src,
        dst,
        lo,
        mid,
        hi,
    };
    let count = (to - from).div_ceil(tiles.tile);
    let mut first = 0;
    while first < count {
        let group = (count - first).min(threads);
        // The previous group's tiles are done with the starts.
        b.sync();
        find_starts(
            b,
            s,
            &runs,
            from + first * tiles.tile,
            to,
            tiles.tile,
            group,
        );
        b.sync();
        for k in 0..group {
            let o0 = from + (first + k) * tiles.tile;
            merge_tile(b, s, &runs, k, o0, (o0 + tiles.tile).min(to), tiles.items);
        }
        first += group;
    }
}

/// The merge's two runs and its destination.
struct Runs {
    src: Buf,
    dst: Buf,
    lo: usize,
    mid: usize,
    hi: usize,
}

impl Runs {
    /// The two sorted runs, read-only for the whole merge.
    fn inputs(&self) -> (&[u32], &[u32]) {
        // SAFETY: no task writes `src[lo..hi]` during the merge (`merge_range_block`'s
        // contract), and these are only read.
        unsafe {
            (
                self.src.slice(self.lo, self.mid),
                self.src.slice(self.mid, self.hi),
            )
        }
    }
}

/// Step 1: thread `k <= group` writes where tile `k` of the group (outputs from
/// `o0 + k x tile`, at most `to`) starts in the first run; entry `group` is the last tile's end.
fn find_starts(b: Block, s: Scratch, runs: &Runs, o0: usize, to: usize, tile: usize, group: usize) {
    let k = b.index() as usize;
    if k > group {
        return;
    }
    let (a, c) = runs.inputs();
    let i = merge_path(a, c, (o0 + k * tile).min(to));
    // SAFETY: entry `k` of the starts is this thread's alone between the two barriers around
    // this step, and in scratch (`Tiles::fit`: `threads + 1` entries).
    unsafe { s.starts.add(k).write(i) };
    if k == group - 1 && group == b.size() as usize {
        // With a full group, no thread `group` exists: the last thread writes the end too.
        let end = merge_path(a, c, (o0 + group * tile).min(to));
        // SAFETY: as above, entry `group` is this thread's alone in this step.
        unsafe { s.starts.add(group).write(end) };
    }
}

/// Steps 2 to 4 for tile `k` of the group, whose outputs are `[o0, o1)`.
fn merge_tile(b: Block, s: Scratch, runs: &Runs, k: usize, o0: usize, o1: usize, items: usize) {
    let (t, threads) = (b.index() as usize, b.size() as usize);
    // SAFETY: the starts were written before the barrier that ended step 1, and are
    // rewritten only after the barrier that begins the next group.
    let (i0, i1) = unsafe { (s.starts.add(k).read(), s.starts.add(k + 1).read()) };
    let (j0, len, la) = (o0 - i0, o1 - o0, i1 - i0);
    let (a, c) = runs.inputs();
    let mut e = t;
    while e < len {
        let v = if e < la { a[i0 + e] } else { c[j0 + e - la] };
        // SAFETY: input entry `e` is this thread's alone in this step (threads take
        // `t`, `t + threads`, ...), and `e < tile` (Tiles::fit).
        unsafe { s.input.add(e).write(v) };
        e += threads;
    }
    b.sync();
    {
        // SAFETY: every input entry below `len` was written before the barrier above, and
        // none is written until after the barrier below.
        let staged = unsafe { slice::from_raw_parts(s.input, len) };
        let (sa, sc) = staged.split_at(la);
        let (d0, d1) = ((t * items).min(len), ((t + 1) * items).min(len));
        let (p0, p1) = (merge_path(sa, sc, d0), merge_path(sa, sc, d1));
        // SAFETY: output entries `d0..d1` are this thread's alone in this step (threads'
        // ranges are disjoint), and inside the tile.
        let out = unsafe { slice::from_raw_parts_mut(s.output.add(d0), d1 - d0) };
        merge_into(&sa[p0..p1], &sc[d0 - p0..d1 - p1], out);
    }
    b.sync();
    // SAFETY: the block owns outputs `o0..o1` (`merge_range_block`'s contract), and thread
    // `t` alone writes entries `t`, `t + threads`, ... of them.
    let out = runs.dst;
    let base = runs.lo + o0;
    let mut e = t;
    while e < len {
        // SAFETY: output entry `e` was written before the barrier above, and is rewritten
        // only after the next tile's first barrier.
        let v = unsafe { s.output.add(e).read() };
        // SAFETY: as said above the loop.
        unsafe { out.slice(base + e, base + e + 1)[0] = v };
        e += threads;
    }
}

#[cfg(all(test, not(target_arch = "nvptx64")))]
mod tests {
    use super::*;

    #[test]
    fn tiles_fit_the_scratch_or_the_merge_is_unstaged() {
        assert_eq!(Tiles::fit(256, 0), None);
        assert_eq!(Tiles::fit(256, 4096), None, "under one output per thread");
        let one = Tiles::scratch_bytes(256, 1);
        assert_eq!(
            Tiles::fit(256, one),
            Some(Tiles {
                items: 1,
                tile: 256
            })
        );
        let big = Tiles::fit(256, 1 << 20).unwrap();
        assert_eq!((big.items, big.tile), (MAX_ITEMS, MAX_ITEMS * 256));
        assert_eq!(Tiles::fit(4, 4096).unwrap().items, MAX_ITEMS);
        assert_eq!(Tiles::scratch_bytes(256, 8), 257 * 8 + 2 * 8 * 256 * 4);
    }
}
