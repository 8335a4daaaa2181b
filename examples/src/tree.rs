//! GTaP's synthetic tree workloads (paper section 6.3). Each node is a task that spawns its
//! children, joins them, then does `mem_ops` pseudo-random 64-bit loads from a table and
//! `compute_iters` FP64 fused multiply-adds. The result is the node count and a checksum
//! (wrapping sum over nodes, so independent of the order nodes ran in).

/// Per-node work: where the table is and how much to do.
#[derive(Clone, Copy, Debug)]
pub struct Work {
    table: *const u64,
    mask: u64,
    /// Pseudo-random 64-bit loads per node.
    pub mem_ops: u32,
    /// FP64 fused multiply-adds per node.
    pub compute_iters: u32,
}

// SAFETY: a `Work` only reads its table, which its constructors require to stay valid and
// unchanged while it is used; sharing read-only access between threads is sound.
unsafe impl Send for Work {}
// SAFETY: as above.
unsafe impl Sync for Work {}

impl Work {
    /// Work reading from `table`, whose length must be a power of two.
    ///
    /// # Panics
    /// If `table.len()` is not a power of two.
    pub fn new(table: &'static [u64], mem_ops: u32, compute_iters: u32) -> Work {
        // SAFETY: a `'static` slice is valid for the whole program.
        unsafe { Work::from_raw(table.as_ptr(), table.len(), mem_ops, compute_iters) }
    }

    /// Work reading from a raw table, e.g. in device memory.
    ///
    /// # Safety
    /// `table` is valid for reads of `len` elements for as long as tasks use this `Work`.
    ///
    /// # Panics
    /// If `len` is not a power of two.
    pub unsafe fn from_raw(
        table: *const u64,
        len: usize,
        mem_ops: u32,
        compute_iters: u32,
    ) -> Work {
        assert!(
            len.is_power_of_two(),
            "the tree workload's table length must be a power of two"
        );
        Work {
            table,
            mask: len as u64 - 1,
            mem_ops,
            compute_iters,
        }
    }
}

/// The work of one node: its loads and FMAs folded into one value.
pub fn node_work(id: u64, w: Work) -> u64 {
    let mut x = id.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0xD1B5_4A32_D192_ED03;
    let mut acc = 0u64;
    for _ in 0..w.mem_ops {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        // SAFETY: the index is masked to the table's length (a power of two, checked in
        // `Work::from_raw`), and the table is valid while tasks run (its contract).
        acc = acc.wrapping_add(unsafe { *w.table.add((x & w.mask) as usize) });
    }
    let mut f = (id & 0xFFFF) as f64 * 1e-6 + 1.0;
    for _ in 0..w.compute_iters {
        f = core::f64::math::mul_add(f, 0.999_999_9, 1e-7);
    }
    acc ^ f.to_bits()
}

/// Adds a child's `(count, checksum)` to a node's.
fn fold(a: (u64, u64), b: (u64, u64)) -> (u64, u64) {
    (a.0 + b.0, a.1.wrapping_add(b.1))
}

/// The full binary tree: every node above the leaves has two children.
#[gtap::program(name = "full_binary_tree")]
pub mod full_binary {
    use super::{Work, fold, node_work};

    /// The subtree of `depth` more levels below node `id`.
    #[gtap::task]
    pub fn node(depth: u32, id: u64, w: Work) -> (u64, u64) {
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

/// The depth-pruned B-ary tree (B = 3), which thins out with depth.
#[gtap::program(name = "pruned_tree")]
pub mod pruned {
    use super::{B, Work, fold, keeps_child, node_work};

    /// The subtree below node `id`, at depth `d` of `max_depth`.
    #[gtap::task]
    pub fn node(d: u32, max_depth: u32, id: u64, w: Work) -> (u64, u64) {
        let kids = slots!((u64, u64); 3);
        if d < max_depth {
            for c in 0..B {
                if keeps_child(id, c, d, max_depth) {
                    spawn!(into kids, node(d + 1, max_depth, id * B + c + 1, w));
                }
            }
        }
        taskwait!();
        kids.iter().fold((1, node_work(id, w)), fold)
    }
}

/// The full binary tree's `(count, checksum)`, sequentially.
pub fn full_binary_reference(depth: u32, id: u64, w: Work) -> (u64, u64) {
    let mut total = (1, node_work(id, w));
    if depth > 0 {
        total = fold(total, full_binary_reference(depth - 1, 2 * id + 1, w));
        total = fold(total, full_binary_reference(depth - 1, 2 * id + 2, w));
    }
    total
}

/// The pruned tree's `(count, checksum)`, sequentially.
pub fn pruned_reference(d: u32, max_depth: u32, id: u64, w: Work) -> (u64, u64) {
    let mut total = (1, node_work(id, w));
    if d < max_depth {
        for c in 0..B {
            if keeps_child(id, c, d, max_depth) {
                total = fold(total, pruned_reference(d + 1, max_depth, id * B + c + 1, w));
            }
        }
    }
    total
}
