//! GTaP's synthetic tree workloads (paper section 6.3). Each node is a task that spawns its
//! children, joins them, then does `mem_ops` pseudo-random 64-bit loads from a table and
//! `compute_iters` FP64 fused multiply-adds. The result is the node count and a checksum
//! (wrapping sum over nodes, so independent of the order nodes ran in).
//!
//! A node's work is a wrapping sum of independent per-operation terms, as in GTaP's
//! `do_memory_and_compute`: operation `i` (a load, or an FMA) depends only on the node's id
//! and `i`, not on the operations before it. So the work can be split over the threads of a
//! block in any way ([`node_work_share`]: thread `t` of `n` takes operations `t, t + n, ..`,
//! GTaP's loop) and summed back, and the block programs of [`crate::tree_block`] give the
//! same checksums as the thread programs here, on every team size.

use gtap::View;

/// Per-node work: the table to load from (a shared view: host memory on the CPU backend, a
/// `DeviceVec`'s on the GPU) and how much to do.
#[derive(Clone, Copy, Debug)]
pub struct Work<'a> {
    table: View<'a, u64>,
    /// Pseudo-random 64-bit loads per node.
    pub mem_ops: u32,
    /// FP64 fused multiply-adds per node.
    pub compute_iters: u32,
}

impl<'a> Work<'a> {
    /// Work reading from `table`, whose length must be a power of two (at most 2^32: an
    /// operation's index is a 32-bit random number).
    ///
    /// # Panics
    /// If `table.len()` is not a power of two, or over 2^32.
    pub fn new(table: &'a [u64], mem_ops: u32, compute_iters: u32) -> Work<'a> {
        Work::from_view(View::from_slice(table), mem_ops, compute_iters)
    }

    /// Work reading from a view, e.g. of a `DeviceVec`.
    ///
    /// # Panics
    /// As [`Work::new`].
    pub fn from_view(table: View<'a, u64>, mem_ops: u32, compute_iters: u32) -> Work<'a> {
        assert!(
            table.len().is_power_of_two() && table.len() <= 1 << 32,
            "the tree workload's table length must be a power of two, at most 2^32"
        );
        Work {
            table,
            mem_ops,
            compute_iters,
        }
    }
}

/// The work of one node: its loads and FMAs folded into one value (all its operations:
/// [`node_work_share`] with `first = 0, step = 1`).
#[inline(always)]
pub fn node_work(id: u64, w: Work<'_>) -> u64 {
    node_work_share(id, w, 0, 1)
}

/// The share `first, first + step, ..` of a node's operations (its loads, then its FMAs), as a
/// wrapping sum of one term per operation: the loaded value, or the bits of the FMA's result.
/// The shares `0..step` of a node sum (wrapping) to [`node_work`], for any `step >= 1`.
///
/// The terms follow GTaP's `do_memory_and_compute`: operation `i`'s random number is
/// `xorshift32(seed + i * 747796405)`, where `seed` comes from the node id; a load reads the
/// table at that number (masked), an FMA is `fma(x, 1.0000001192092896, 0.9999999403953552)`
/// of it as an `f64`. GTaP keeps one thread's result; we sum them all, so that a lost or
/// repeated operation changes the checksum.
///
/// # Panics
/// If `step` is 0.
#[inline(always)]
pub fn node_work_share(id: u64, w: Work<'_>, first: u32, step: u32) -> u64 {
    let seed = xorshift32(((id ^ (id >> 32)) as u32) ^ 0x9E37_79B9);
    let term = |i: u32| xorshift32(seed.wrapping_add(i.wrapping_mul(747_796_405)));
    let table = w.table.as_slice();
    // The table's length is a power of two (`Work::from_view`): masking keeps an index in it.
    let mask = table.len() - 1;
    let mut acc = 0u64;
    for i in (first..w.mem_ops).step_by(step as usize) {
        acc = acc.wrapping_add(table[term(i) as usize & mask]);
    }
    for i in (first..w.compute_iters).step_by(step as usize) {
        let y = core::f64::math::mul_add(
            f64::from(term(i)),
            1.000_000_119_209_289_6,
            0.999_999_940_395_355_2,
        );
        acc = acc.wrapping_add(y.to_bits());
    }
    acc
}

/// Marsaglia's 32-bit xorshift (13, 17, 5), GTaP's per-operation random numbers.
#[inline(always)]
fn xorshift32(mut x: u32) -> u32 {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    x
}

/// Adds a child's `(count, checksum)` to a node's.
pub(crate) fn fold(a: (u64, u64), b: (u64, u64)) -> (u64, u64) {
    (a.0 + b.0, a.1.wrapping_add(b.1))
}

/// The full binary tree: every node above the leaves has two children.
#[gtap::program(name = "full_binary_tree")]
pub mod full_binary {
    use super::{Work, fold, node_work};

    /// The subtree of `depth` more levels below node `id`.
    #[gtap::task]
    pub fn node(depth: u32, id: u64, w: Work<'_>) -> (u64, u64) {
        let mut total = (1, 0);
        if depth > 0 {
            let left = spawn!(node(depth - 1, 2 * id + 1, w));
            let right = spawn!(node(depth - 1, 2 * id + 2, w));
            taskwait!();
            total = fold(fold(total, left.get()), right.get());
        }
        fold(total, (0, node_work(id, w)))
    }
}

/// The children of a pruned tree's node: at depth `d` of `max_depth`, each of the `B` = 3
/// children exists with probability `1 - d / max_depth` (decided by a hash of the ids, so
/// every run builds the same tree).
pub fn keeps_child(id: u64, child: u64, d: u32, max_depth: u32) -> bool {
    let mut h = id
        .wrapping_mul(3)
        .wrapping_add(child + 1)
        .wrapping_mul(0x9E37_79B9_7F4A_7C15);
    h ^= h >> 31;
    h = h.wrapping_mul(0xBF58_476D_1CE4_E5B9);
    h ^= h >> 29;
    (h % u64::from(max_depth)) < u64::from(max_depth - d)
}

/// The branching factor of the pruned tree.
pub const B: u64 = 3;

/// The children a pruned tree's node keeps ([`keeps_child`]), in child order: `ids[..len]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Kept {
    /// The kept children's node ids, the first `len` of them valid.
    pub ids: [u64; B as usize],
    /// How many children are kept, `0..=B`.
    pub len: u32,
}

/// The children node `id` at depth `d` of `max_depth` keeps (none at `max_depth`).
pub fn kept_children(id: u64, d: u32, max_depth: u32) -> Kept {
    let mut kept = Kept {
        ids: [0; B as usize],
        len: 0,
    };
    if d < max_depth {
        for c in 0..B {
            if keeps_child(id, c, d, max_depth) {
                kept.ids[kept.len as usize] = id * B + c + 1;
                kept.len += 1;
            }
        }
    }
    kept
}

/// The depth-pruned B-ary tree (B = 3), which thins out with depth.
#[gtap::program(name = "pruned_tree")]
pub mod pruned {
    use super::{Work, fold, kept_children, node_work};

    /// The subtree below node `id`, at depth `d` of `max_depth`.
    #[gtap::task]
    pub fn node(d: u32, max_depth: u32, id: u64, w: Work<'_>) -> (u64, u64) {
        let kids = slots!((u64, u64); 3);
        let kept = kept_children(id, d, max_depth);
        for &child in &kept.ids[..kept.len as usize] {
            spawn!(into kids, node(d + 1, max_depth, child, w));
        }
        taskwait!();
        kids.iter().fold((1, node_work(id, w)), fold)
    }
}

/// The full binary tree's `(count, checksum)`, sequentially.
pub fn full_binary_reference(depth: u32, id: u64, w: Work<'_>) -> (u64, u64) {
    let mut total = (1, node_work(id, w));
    if depth > 0 {
        total = fold(total, full_binary_reference(depth - 1, 2 * id + 1, w));
        total = fold(total, full_binary_reference(depth - 1, 2 * id + 2, w));
    }
    total
}

/// The pruned tree's `(count, checksum)`, sequentially.
pub fn pruned_reference(d: u32, max_depth: u32, id: u64, w: Work<'_>) -> (u64, u64) {
    let kept = kept_children(id, d, max_depth);
    kept.ids[..kept.len as usize]
        .iter()
        .map(|&child| pruned_reference(d + 1, max_depth, child, w))
        .fold((1, node_work(id, w)), fold)
}
