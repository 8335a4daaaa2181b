//! Building a CSR from an edge list in parallel, without a global sort of the edges.
//!
//! A Graph500 graph of scale 24 has 268 M input edges, 537 M stored entries once symmetrized;
//! sorting all `(u, v)` pairs would dominate its generation, and so would scattering entries
//! to their rows through per-row atomic cursors (every entry is then two cache misses that an
//! atomic instruction keeps from overlapping). Instead, a two-level counting sort:
//!
//! 1. partition the entries into [`MAX_BUCKETS`] or fewer buckets of consecutive source
//!    vertices: each chunk of edges counts its entries per bucket, a prefix sum over (bucket,
//!    chunk) gives each chunk its own range in every bucket, and each chunk copies its entries,
//!    with their source, into its ranges (sequential writes into a few thousand streams, no
//!    atomics);
//! 2. count each row's entries, bucket by bucket (each bucket's counters fit in cache), and
//!    turn the counts into row offsets;
//! 3. place each bucket's entries into their rows (a counting sort inside the bucket);
//! 4. sort and deduplicate each row, rows in parallel, the few huge rows of a power-law graph
//!    with a parallel sort;
//! 5. if deduplication shrank rows, copy the rows into place under new offsets.
//!
//! The result is the same for every schedule: the order inside a row is erased by step 4's
//! sort, whose key orders duplicate entries too (so their values are summed in a fixed
//! order).
//!
//! # Memory ordering
//! The only atomics are step 4's per-row counters, each stored by the one task that owns the
//! row, `Relaxed`, and read only after the pass has returned: rayon's `for_each` and `join`
//! return only after every task they ran has finished, with happens-before from each task's
//! end to the return.

use core::sync::atomic::{AtomicU32, Ordering::Relaxed};
use std::vec;
use std::vec::Vec;

use rayon::prelude::*;

use super::error::CsrError;

/// An input edge: its endpoints, and the entry it stores.
pub(crate) trait InputEdge: Sync {
    /// What a row stores for the edge.
    type Entry: Entry;
    /// `(source, target)`.
    fn ends(&self) -> (u32, u32);
    /// The entry the edge stores in a row, pointing to `col` (the target, or the source for
    /// the mirrored entry of a symmetrized edge).
    fn entry(&self, col: u32) -> Self::Entry;
}

/// A stored entry: a column, perhaps with a value.
pub(crate) trait Entry: Copy + Default + Send + Sync {
    /// Its column.
    fn col(self) -> u32;
    /// The order of entries in a row: by column, ties broken by a total order on the rest.
    fn sort_key(self) -> u64;
    /// Folds a duplicate entry (same column) into this one.
    fn merge(&mut self, dup: Self);
}

impl InputEdge for (u32, u32) {
    type Entry = u32;
    fn ends(&self) -> (u32, u32) {
        (self.0, self.1)
    }
    fn entry(&self, col: u32) -> u32 {
        col
    }
}

impl Entry for u32 {
    fn col(self) -> u32 {
        self
    }
    fn sort_key(self) -> u64 {
        self as u64
    }
    fn merge(&mut self, _dup: u32) {}
}

/// A weighted entry, before it is split into `col` and `val`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Weighted {
    /// The column.
    pub col: u32,
    /// The value.
    pub val: f32,
}

impl InputEdge for (u32, u32, f32) {
    type Entry = Weighted;
    fn ends(&self) -> (u32, u32) {
        (self.0, self.1)
    }
    fn entry(&self, col: u32) -> Weighted {
        Weighted { col, val: self.2 }
    }
}

impl Entry for Weighted {
    fn col(self) -> u32 {
        self.col
    }
    fn sort_key(self) -> u64 {
        ((self.col as u64) << 32) | self.val.to_bits() as u64
    }
    fn merge(&mut self, dup: Weighted) {
        self.val += dup.val;
    }
}

/// Rows with at most this many entries in all are handled by one task.
const GRAIN: usize = 1 << 14;
/// A single row longer than this is sorted in parallel.
const PAR_SORT: usize = 1 << 16;
/// The most buckets of step 1 (fewer for small graphs, whose buckets hold
/// `2^`[`MIN_BUCKET_BITS`] vertices): few enough that a chunk's write streams stay in cache.
const MAX_BUCKETS: usize = 1 << 12;
/// Buckets hold at least `2^MIN_BUCKET_BITS` vertices, whose step-2 counters fit in L1.
const MIN_BUCKET_BITS: u32 = 12;
/// Step 1 splits the edges into about this many chunks (more for huge inputs is not needed:
/// this is ample slack for load balance, and the per-chunk counts grow with the chunks).
const CHUNKS: usize = 256;
/// The smallest chunk, so that small inputs are not split into tiny tasks.
const MIN_CHUNK: usize = 1 << 16;

/// The row offsets and entries of the graph on vertices `0..n` with `edges` (and their
/// reverses when `symmetrize`), self loops dropped, duplicates merged, rows sorted.
///
/// # Errors
/// [`CsrError::VertexOutOfRange`] for the first edge with an endpoint `>= n`;
/// [`CsrError::TooManyEntries`] if `edges.len()` (doubled when symmetrizing) exceeds
/// `u32::MAX`.
pub(crate) fn assemble<E: InputEdge>(
    n: u32,
    edges: &[E],
    symmetrize: bool,
) -> Result<(Vec<u32>, Vec<E::Entry>), CsrError> {
    let outside = |e: &E| {
        let (u, v) = e.ends();
        u >= n || v >= n
    };
    // Chunks with a tight loop inside: per-item `position_first` costs more than the check.
    if edges.par_chunks(MIN_CHUNK).any(|c| c.iter().any(outside)) {
        let index = edges
            .iter()
            .position(outside)
            .expect("an edge was out of range");
        let (u, v) = edges[index].ends();
        return Err(CsrError::VertexOutOfRange { index, u, v, n });
    }
    // Bounds every count below, so none overflows.
    let bound = edges.len() as u64 * if symmetrize { 2 } else { 1 };
    if bound > u32::MAX as u64 {
        return Err(CsrError::TooManyEntries { entries: bound });
    }
    // 1. Partition by bucket of source vertices.
    let bits = bucket_bits(n);
    let (bucket_ptr, pairs) = partition(n, bits, edges, symmetrize);
    let total = bucket_ptr.last().copied().unwrap_or(0) as usize;

    // 2. Row offsets.
    let mut counts = vec![0u32; n as usize];
    counts
        .par_chunks_mut(1 << bits)
        .enumerate()
        .for_each(|(b, counts)| {
            let mask = (1u32 << bits) - 1;
            for &(u, _) in &pairs[bucket_ptr[b] as usize..bucket_ptr[b + 1] as usize] {
                counts[(u & mask) as usize] += 1;
            }
        });
    let row_ptr = offsets(counts.iter().copied());
    drop(counts);

    // 3. Place each bucket's entries into its rows.
    let mut placed = vec![E::Entry::default(); total];
    for_each_row(&bucket_ptr, 0, &mut placed, &|b, region| {
        let first = (b as usize) << bits;
        let last = (first + (1 << bits)).min(n as usize);
        let base = bucket_ptr[b as usize];
        let mut cursor: Vec<u32> = row_ptr[first..last].iter().map(|&p| p - base).collect();
        for &(u, entry) in &pairs[base as usize..bucket_ptr[b as usize + 1] as usize] {
            let slot = &mut cursor[u as usize - first];
            region[*slot as usize] = entry;
            *slot += 1;
        }
    });
    drop(pairs);

    // 4. Sort and deduplicate each row, remembering its new length.
    let lengths: Vec<AtomicU32> = (0..n).into_par_iter().map(|_| AtomicU32::new(0)).collect();
    for_each_row(&row_ptr, 0, &mut placed, &|row, entries| {
        lengths[row as usize].store(sort_dedup(entries), Relaxed);
    });
    let new_ptr = offsets(lengths.iter().map(|l| l.load(Relaxed)));
    if new_ptr[n as usize] as usize == total {
        // No row shrank (each new length is at most the old one, and the sums agree).
        return Ok((row_ptr, placed));
    }

    // 5. Compact.
    let mut compact = vec![E::Entry::default(); new_ptr[n as usize] as usize];
    for_each_row(&new_ptr, 0, &mut compact, &|row, dst| {
        let start = row_ptr[row as usize] as usize;
        dst.copy_from_slice(&placed[start..start + dst.len()]);
    });
    Ok((new_ptr, compact))
}

/// Calls `put(row, entry)` for each entry that `e` stores: none for a self loop, else one,
/// and its mirror too when `symmetrize`.
fn each_entry<E: InputEdge>(e: &E, symmetrize: bool, mut put: impl FnMut(u32, E::Entry)) {
    let (u, v) = e.ends();
    if u != v {
        put(u, e.entry(v));
        if symmetrize {
            put(v, e.entry(u));
        }
    }
}

/// Step 1's bucket size: `2^bits` vertices, at least `2^MIN_BUCKET_BITS`, and few enough
/// buckets that there are at most [`MAX_BUCKETS`].
fn bucket_bits(n: u32) -> u32 {
    let log2_n = u32::BITS - n.saturating_sub(1).leading_zeros();
    log2_n
        .saturating_sub(MAX_BUCKETS.trailing_zeros())
        .max(MIN_BUCKET_BITS)
}

/// Step 1: the stored entries of `edges` (see [`each_entry`]) as `(row, entry)` pairs grouped
/// by bucket `row >> bits`, and the offsets of the buckets in that list.
fn partition<E: InputEdge>(
    n: u32,
    bits: u32,
    edges: &[E],
    symmetrize: bool,
) -> (Vec<u32>, Vec<(u32, E::Entry)>) {
    let buckets = (n as usize).div_ceil(1 << bits);
    let chunk = edges.len().div_ceil(CHUNKS).max(MIN_CHUNK);

    // Each chunk's entries per bucket.
    let mut starts: Vec<Vec<u32>> = edges
        .par_chunks(chunk)
        .map(|c| {
            let mut count = vec![0u32; buckets];
            for e in c {
                each_entry(e, symmetrize, |row, _| count[(row >> bits) as usize] += 1);
            }
            count
        })
        .collect();
    // Bucket by bucket, chunk by chunk: each chunk's range `starts[c][b]..ends[c][b]` in each
    // bucket, laid end to end.
    let mut ends = vec![vec![0u32; buckets]; starts.len()];
    let mut bucket_ptr = Vec::with_capacity(buckets + 1);
    let mut sum = 0u32;
    for b in 0..buckets {
        bucket_ptr.push(sum);
        for c in 0..starts.len() {
            let count = starts[c][b];
            starts[c][b] = sum;
            sum += count;
            ends[c][b] = sum;
        }
    }
    bucket_ptr.push(sum);

    // Each chunk copies its entries into its ranges.
    let mut pairs: Vec<(u32, E::Entry)> = (0..sum as usize)
        .into_par_iter()
        .map(|_| Default::default())
        .collect();
    let slots = Slots(pairs.as_mut_ptr());
    edges
        .par_chunks(chunk)
        .zip(starts.par_iter_mut())
        .zip(&ends)
        .for_each(|((c, cursor), end)| {
            for e in c {
                each_entry(e, symmetrize, |row, entry| {
                    let b = (row >> bits) as usize;
                    let i = cursor[b];
                    // The counting pass counted exactly these entries, so the cursor stays
                    // inside the range; checked anyway, so that soundness does not rest on
                    // that argument.
                    assert!(i < end[b], "CSR partition overran bucket {b}");
                    cursor[b] += 1;
                    // SAFETY: `i < end[b] <= sum` (asserted above), so the slot is inside
                    // `pairs`, which outlives this pass and is not otherwise accessed during
                    // it. The chunks' ranges are disjoint (the prefix sum above laid them end
                    // to end), and within its ranges a chunk writes each slot once (its
                    // cursor only grows), so no two writes race. The pairs are `Copy`, so
                    // overwriting the default without dropping it is fine.
                    unsafe { slots.write(i as usize, (row, entry)) };
                });
            }
        });
    (bucket_ptr, pairs)
}

/// The exclusive prefix sum of `counts`, with the total appended. The caller guarantees the
/// total fits `u32`.
fn offsets(counts: impl ExactSizeIterator<Item = u32>) -> Vec<u32> {
    let mut ptr = Vec::with_capacity(counts.len() + 1);
    let mut sum = 0u32;
    ptr.push(0);
    for c in counts {
        sum += c;
        ptr.push(sum);
    }
    ptr
}

/// The partition's target, shared by the tasks of step 1.
struct Slots<T>(*mut T);

// SAFETY: tasks write disjoint slots (see the SAFETY comment at the one write), and nothing
// reads the buffer until the pass has ended.
unsafe impl<T: Send> Sync for Slots<T> {}

impl<T> Slots<T> {
    /// Writes slot `i`. (A method, so that closures capture the whole `Slots`, which is
    /// `Sync`, rather than its raw pointer, which is not.)
    ///
    /// # Safety
    /// `i` is inside the buffer, and no other thread accesses slot `i` concurrently.
    unsafe fn write(&self, i: usize, value: T) {
        // SAFETY: the caller's contract.
        unsafe { self.0.add(i).write(value) }
    }
}

/// Calls `f(row, entries)` for every row of a window of a CSR, in parallel, each row with its
/// own slice of `data`. The window is rows `first..first + row_ptr.len() - 1`; `row_ptr` is
/// its `rows + 1` offsets (not rebased); `data` holds exactly its entries.
///
/// Windows split at the row boundary nearest the middle of their entries, so one huge row
/// ends up alone after at most two splits instead of unbalancing every level.
fn for_each_row<T: Send>(
    row_ptr: &[u32],
    first: u32,
    data: &mut [T],
    f: &(impl Fn(u32, &mut [T]) + Sync),
) {
    let rows = row_ptr.len() - 1;
    let base = row_ptr[0];
    if rows <= 1 || data.len() <= GRAIN {
        let mut rest = data;
        for r in 0..rows {
            let (entries, tail) = rest.split_at_mut((row_ptr[r + 1] - row_ptr[r]) as usize);
            f(first + r as u32, entries);
            rest = tail;
        }
        return;
    }
    let half = base + (data.len() / 2) as u32;
    let mid = row_ptr.partition_point(|&p| p <= half).clamp(1, rows - 1);
    let (lo, hi) = data.split_at_mut((row_ptr[mid] - base) as usize);
    rayon::join(
        || for_each_row(&row_ptr[..=mid], first, lo, f),
        || for_each_row(&row_ptr[mid..], first + mid as u32, hi, f),
    );
}

/// Sorts a row by [`Entry::sort_key`] and merges runs of one column into their first entry;
/// returns the number of entries left at the front.
fn sort_dedup<T: Entry>(row: &mut [T]) -> u32 {
    if row.len() > PAR_SORT {
        row.par_sort_unstable_by_key(|e| e.sort_key());
    } else {
        row.sort_unstable_by_key(|e| e.sort_key());
    }
    if row.is_empty() {
        return 0;
    }
    let mut w = 0;
    for r in 1..row.len() {
        if row[r].col() == row[w].col() {
            let dup = row[r];
            row[w].merge(dup);
        } else {
            w += 1;
            row[w] = row[r];
        }
    }
    (w + 1) as u32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::rng::Xoshiro256;

    /// The same graph by sorting all pairs: the obvious way, for comparison.
    fn naive(n: u32, edges: &[(u32, u32)], symmetrize: bool) -> (Vec<u32>, Vec<u32>) {
        let mut pairs: Vec<(u32, u32)> = edges.iter().copied().filter(|(u, v)| u != v).collect();
        if symmetrize {
            pairs.extend(pairs.clone().into_iter().map(|(u, v)| (v, u)));
        }
        pairs.sort_unstable();
        pairs.dedup();
        let mut row_ptr = vec![0u32; n as usize + 1];
        for &(u, _) in &pairs {
            row_ptr[u as usize + 1] += 1;
        }
        for i in 0..n as usize {
            row_ptr[i + 1] += row_ptr[i];
        }
        (row_ptr, pairs.into_iter().map(|(_, v)| v).collect())
    }

    #[test]
    fn matches_a_global_sort_on_skewed_graphs() {
        // A hub row longer than PAR_SORT, many duplicates, loops and empty rows, so every
        // path of the splitting, sorting and compaction runs.
        let n = 3000;
        let mut rng = Xoshiro256::new(42);
        let mut edges = Vec::new();
        for _ in 0..200_000 {
            let u = if rng.below(3) == 0 {
                7
            } else {
                rng.below(n / 2)
            };
            edges.push((u, rng.below(n)));
        }
        for symmetrize in [false, true] {
            let got = assemble(n, &edges, symmetrize).unwrap();
            assert_eq!(
                got,
                naive(n, &edges, symmetrize),
                "symmetrize = {symmetrize}"
            );
        }
    }

    #[test]
    fn rows_without_duplicates_are_not_copied_again() {
        let (row_ptr, col) = assemble(4, &[(3, 1), (0, 2), (0, 1)], false).unwrap();
        assert_eq!((row_ptr, col), (vec![0, 2, 2, 2, 3], vec![1, 2, 1]));
    }

    #[test]
    fn for_each_row_visits_every_row_once_with_its_entries() {
        let row_ptr: Vec<u32> = [0, 0, 40_000, 40_001, 40_001, 70_000, 70_002].into();
        let mut data: Vec<u32> = (0..70_002).collect();
        let seen: Vec<AtomicU32> = (0..6).map(|_| AtomicU32::new(0)).collect();
        for_each_row(&row_ptr, 0, &mut data, &|row, entries| {
            let r = row as usize;
            assert_eq!(entries.len() as u32, row_ptr[r + 1] - row_ptr[r]);
            assert!(
                entries
                    .iter()
                    .all(|&x| x >= row_ptr[r] && x < row_ptr[r + 1])
            );
            seen[r].fetch_add(1, Relaxed);
        });
        assert!(seen.iter().all(|s| s.load(Relaxed) == 1));
    }
}
