//! A block's sort of a chunk in tiles: each tile sorted in registers and the team's scratch
//! (shared memory on the GPU), then the sorted tiles merged by the whole block.
//!
//! This is the chunk sort of [`crate::cilksort_mixed`] when the block has scratch for a tile
//! ([`scratch_bytes`]). A tile is [`ITEMS`] elements per thread:
//!
//! 1. the block copies the tile into scratch (thread `t` takes elements `t`, `t + threads`,
//!    ...: neighbouring threads, neighbouring addresses), and each thread reads its own
//!    `ITEMS` neighbouring elements into registers (a tile's tail past the chunk is padded
//!    with `u32::MAX`, which sorts last and is never stored);
//! 2. each thread sorts its `ITEMS` keys with a sorting network: fixed compare-exchanges
//!    on registers, the same on every thread, so no thread waits for another's branches;
//! 3. merge passes in scratch double the sorted runs from `ITEMS` keys to the whole tile:
//!    each thread writes its keys back, and after a barrier merges its `ITEMS` outputs of
//!    the pass from the pair of runs they belong to (where they start found by binary search
//!    along the merge path, as in every merge here);
//! 4. the block copies the sorted tile out the way it came in.
//!
//! The sorted tiles are then merged pairwise by the whole block, from one buffer to the other
//! ([`crate::cilksort_mixed::merge_range`] on each thread's equal share of the chunk's
//! outputs, split where its share crosses from one pair of runs to the next), and the tiles
//! are written to the buffer that makes the last pass end in `data`.
//!
//! Against the unstaged chunk sort (each thread `sort_unstable`s its share of the chunk in
//! global memory, then one merge pass per doubling of shares), the tiles' work happens in
//! registers and scratch, and the passes through global memory start from runs of a whole
//! tile instead of one thread's share: `log2(threads)` fewer of them.
//!
//! The merge passes through global memory are [`gtap::TeamMut::pass_from`]'s (each thread its
//! equal share of the outputs, from the whole of the other buffer); the tiles' copies in and
//! out (thread `t` its elements `t`, `t + threads`, ... of the tile, for neighbouring
//! addresses) and the scratch are reached by address, each access argued below, since no
//! safe API shares memory between threads in those patterns (see `cilksort_mixed`'s Views).
//! What those arguments rest on, that every thread of the team runs the same [`sort_chunk`]
//! with the same two views, is checked when it starts ([`Block::agree`]), so `sort_chunk` is a
//! safe function: from there on every thread runs the same loops, with the same bounds, to
//! the end.

use gtap::{AgreeDomain, Block, TeamMut};

use crate::cilksort_mixed::{merge_passes, merge_range};
use crate::mergesort_mixed::merge_path;

/// Keys each thread sorts in registers; a tile is `ITEMS x threads` keys.
pub const ITEMS: usize = 8;

/// The scratch bytes a team of `threads` needs to sort in tiles.
pub fn scratch_bytes(threads: usize) -> usize {
    ITEMS * threads.max(1) * size_of::<u32>()
}

/// Whether a team of `threads` with `scratch` bytes of scratch sorts in tiles.
pub fn fits(threads: usize, scratch: usize) -> bool {
    scratch >= scratch_bytes(threads)
}

/// The domain of [`sort_chunk`]'s check at its start.
static SORT_CHUNK: AgreeDomain = AgreeDomain::new();

/// Sorts the chunk `data` with every thread of the block, `tmp` (as long) as the other
/// buffer. Every thread of the team calls it with the same two views, as with
/// [`Block::sync`].
///
/// # Panics
/// If the block has less than [`scratch_bytes`] of scratch, if `tmp` is shorter than `data`,
/// or (on every thread) if the team's threads did not all come to a `sort_chunk` of the same
/// two views.
pub fn sort_chunk<'a>(b: Block, data: &mut TeamMut<'a, u32>, tmp: &mut TeamMut<'a, u32>) {
    assert!(
        fits(b.size() as usize, b.scratch_bytes()),
        "block_sort::sort_chunk needs scratch_bytes(block size) of block scratch"
    );
    assert!(
        tmp.len() >= data.len(),
        "block_sort::sort_chunk: tmp is shorter than data"
    );
    if !b.agree(&SORT_CHUNK, data.agree_key(tmp)) {
        panic!("block_sort::sort_chunk: the team's threads came with different views");
    }
    let n = data.len();
    let tile = ITEMS * b.size() as usize;
    let passes = merge_passes(n.div_ceil(tile));
    let input = data.as_mut_ptr().cast_const();
    // The tiles go where an even number of passes is left, so that the last one writes
    // `data`.
    let first = if passes.is_multiple_of(2) {
        data.as_mut_ptr()
    } else {
        tmp.as_mut_ptr()
    };
    let mut s = 0;
    while s < n {
        // SAFETY: `s + len <= n <= tmp.len()` (asserted above); every thread sorts the same
        // tiles in the same order (every thread is here with the same views, checked above).
        unsafe { sort_tile(b, input.add(s), first.add(s), tile.min(n - s)) };
        s += tile;
    }
    for pass in 0..passes {
        let (src, dst) = if pass.is_multiple_of(2) == passes.is_multiple_of(2) {
            (&mut *data, &mut *tmp)
        } else {
            (&mut *tmp, &mut *data)
        };
        let width = tile << pass;
        // The tiles' writes by address came before the first pass's barrier.
        dst.pass_from(b, src, |src, out| merge_runs(b, src, out, width));
    }
}

/// One pass through global memory: this thread's share `out` of the outputs of the merges of
/// the pairs of neighbouring sorted runs of `width` elements of `src` (the whole chunk).
fn merge_runs(b: Block, src: &[u32], out: &mut [u32], width: usize) {
    let n = src.len();
    let (o0, o1) = crate::mergesort_mixed::share(n, b.index() as usize, b.size() as usize);
    let mut o = o0;
    while o < o1 {
        let first = o - o % (2 * width);
        let (mid, end) = ((first + width).min(n), (first + 2 * width).min(n));
        let upto = o1.min(end);
        merge_range(
            &src[first..end],
            mid - first,
            o - first,
            &mut out[o - o0..upto - o0],
        );
        o = upto;
    }
}

/// Steps 1 to 4 for the tile of `len` elements at `src` (`len` at most `ITEMS x threads`),
/// written sorted to `dst` (which may be `src`).
///
/// # Safety
/// Every thread of the team calls it with the same arguments; `len` elements at `src` and at
/// `dst` are the team's, and no thread touches them meanwhile but through this call; the
/// block has [`scratch_bytes`] of scratch.
unsafe fn sort_tile(b: Block, src: *const u32, dst: *mut u32, len: usize) {
    let (t, threads) = (b.index() as usize, b.size() as usize);
    let tile = ITEMS * threads;
    let sh = b.scratch().cast::<u32>();
    // The previous tile's threads are done with scratch.
    b.sync();
    let mut e = t;
    while e < tile {
        let v = if e < len {
            // SAFETY: `e < len` is in the tile; thread `t` alone reads or writes its entries
            // `t`, `t + threads`, ... of `src` and `dst` in this call.
            unsafe { src.add(e).read() }
        } else {
            u32::MAX
        };
        // SAFETY: entry `e < tile` is in scratch (`fits`), and this thread's alone (threads
        // take `t`, `t + threads`, ...) until the barrier below.
        unsafe { sh.add(e).write(v) };
        e += threads;
    }
    b.sync();
    // SAFETY: every entry was written before the barrier above; none is written until after
    // the next one.
    let mut keys: [u32; ITEMS] = core::array::from_fn(|k| unsafe { sh.add(t * ITEMS + k).read() });
    sort_network(&mut keys);
    let mut width = ITEMS;
    while width < tile {
        exchange(b, sh, &keys);
        keys = merge_pass(b, sh, width);
        width *= 2;
    }
    exchange(b, sh, &keys);
    let mut e = t;
    while e < len {
        // SAFETY: the sorted tile was written before the barrier that ended `exchange`.
        let v = unsafe { sh.add(e).read() };
        // SAFETY: `e < len`; thread `t` alone reads or writes entries `t`, `t + threads`, ...
        // of `src` and `dst`, and it read its entries of `src` into scratch before, so
        // `dst == src` is fine.
        unsafe { dst.add(e).write(v) };
        e += threads;
    }
}

/// Writes each thread's keys to its `ITEMS` entries of scratch, between two barriers (the
/// first: everyone has read what the previous step left there).
fn exchange(b: Block, sh: *mut u32, keys: &[u32; ITEMS]) {
    let t = b.index() as usize;
    b.sync();
    for (k, &v) in keys.iter().enumerate() {
        // SAFETY: entries `t x ITEMS..(t + 1) x ITEMS` are this thread's alone between the
        // two barriers, and in scratch (`fits`).
        unsafe { sh.add(t * ITEMS + k).write(v) };
    }
    b.sync();
}

/// Step 3 for one pass: this thread's `ITEMS` outputs of the merge of the pair of runs of
/// `width` keys that holds its position, from the tile in scratch.
fn merge_pass(b: Block, sh: *const u32, width: usize) -> [u32; ITEMS] {
    let tile = ITEMS * b.size() as usize;
    let start = b.index() as usize * ITEMS;
    let first = start - start % (2 * width);
    let (mid, end) = ((first + width).min(tile), (first + 2 * width).min(tile));
    // SAFETY: the tile was written before the barrier that ended `exchange`, and is not
    // written until after the next one.
    let staged = unsafe { core::slice::from_raw_parts(sh, tile) };
    let (x, y) = (&staged[first..mid], &staged[mid..end]);
    let diag = start - first;
    let mut i = merge_path(x, y, diag);
    let mut j = diag - i;
    core::array::from_fn(|_| {
        if j >= y.len() || (i < x.len() && x[i] <= y[j]) {
            i += 1;
            x[i - 1]
        } else {
            j += 1;
            y[j - 1]
        }
    })
}

/// Sorts `keys` with a fixed sequence of compare-exchanges (odd-even transposition: `ITEMS`
/// rounds of neighbours), which the compiler unrolls onto registers.
#[inline(always)]
pub fn sort_network(keys: &mut [u32; ITEMS]) {
    for round in 0..ITEMS {
        let mut k = round % 2;
        while k + 1 < ITEMS {
            let (lo, hi) = (keys[k].min(keys[k + 1]), keys[k].max(keys[k + 1]));
            (keys[k], keys[k + 1]) = (lo, hi);
            k += 2;
        }
    }
}

#[cfg(all(test, not(target_arch = "nvptx64")))]
mod tests {
    extern crate std;
    use std::vec::Vec;

    use gtap::ViewMut;
    use gtap::device::runtime::cpu::StandaloneTeam;
    use gtap::device::task::block::set_team_env;

    use super::*;

    #[test]
    fn the_network_sorts_every_pattern_of_its_width() {
        for seed in 0..2000u32 {
            let mut keys: [u32; ITEMS] =
                core::array::from_fn(|k| (seed.wrapping_mul(2654435761) >> (k * 3)) % 5);
            let mut expected = keys;
            expected.sort_unstable();
            sort_network(&mut keys);
            assert_eq!(keys, expected, "seed {seed}");
        }
    }

    #[test]
    fn passes_cover_the_runs() {
        let got: Vec<u32> = [0, 1, 2, 3, 4, 5, 12, 16, 17].map(merge_passes).to_vec();
        assert_eq!(got, [0, 0, 1, 2, 2, 3, 4, 4, 5]);
    }

    /// Runs `sort_chunk` on a team of `team` std threads, as the CPU backend's team would.
    fn sort_on_team(data: &mut [u32], team: usize) {
        let n = data.len();
        let mut tmp = std::vec![0u32; n];
        let mut scratch = std::vec![0u64; scratch_bytes(team).div_ceil(8)];
        let members = StandaloneTeam::new(team as u32, std::thread::yield_now);
        let (d, t) = (data.as_mut_ptr() as usize, tmp.as_mut_ptr() as usize);
        let scr = scratch.as_mut_ptr() as usize;
        let members = &members;
        std::thread::scope(|s| {
            for index in 0..team {
                s.spawn(move || {
                    set_team_env(members.env(index as u32, scr as *mut u8, scratch_bytes(team)));
                    // SAFETY: this thread is one of the team the environment describes; the
                    // buffers hold `n` elements and outlive the scope, and the team as a whole
                    // is their only user; each thread makes each of them a `TeamMut` once, as
                    // the block-task macro does.
                    let (mut d, mut t, b) = unsafe {
                        let home = gtap::device::data::Home::HERE;
                        let (d, t) = (
                            ViewMut::from_raw_parts(d as *mut u32, n, home),
                            ViewMut::from_raw_parts(t as *mut u32, n, home),
                        );
                        (
                            TeamMut::__from_view(d),
                            TeamMut::__from_view(t),
                            Block::__new(),
                        )
                    };
                    sort_chunk(b, &mut d, &mut t);
                });
            }
        });
    }

    #[test]
    fn a_chunk_sorts_on_every_team_size() {
        let mut rng = crate::rng::Rng::new(17);
        for team in [1, 2, 3, 4, 5, 8] {
            for n in [0, 1, 7, 8, 9, 40, 100, 257, 1000, 3001] {
                for range in [3, 1 << 30] {
                    let mut data: Vec<u32> = (0..n).map(|_| (rng.next() % range) as u32).collect();
                    if range == 3 && n > 2 {
                        data[n / 2] = u32::MAX;
                    }
                    let mut expected = data.clone();
                    expected.sort_unstable();
                    sort_on_team(&mut data, team);
                    assert_eq!(data, expected, "team {team}, n = {n}, values below {range}");
                }
            }
        }
    }
}
