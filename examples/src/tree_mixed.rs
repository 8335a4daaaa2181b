//! The synthetic trees of [`crate::tree`] as mixed programs: every node is a thread task, as
//! in the thread programs, and a *heavy* node's own work is a block task that the whole block
//! does ([`tree_block::node_work_block`]).
//!
//! GTaP's granularity study (paper section 6.3, our `bench granularity`) runs each tree
//! either one node per GPU thread or one node per thread block. Thread workers win wherever
//! the tree has many nodes ready at once and each node's work is small (deep trees, light
//! nodes: up to 8x on the thinning tree); block workers win only where a node's work is large
//! enough to pay for a whole block (the thinning tree at 32768 FMAs per node, 1.39x). A
//! block step per node is what makes the block program slow elsewhere: a node spawns its
//! children in one step and does its work in another, while most of the block has nothing to
//! do. Here the tree is walked by thread tasks, so spawning and joining cost what they cost
//! in the thread program, and only the work of a heavy node takes a block step; the block
//! task is spawned beside the node's children, so it runs while they do.
//!
//! A node is heavy when its loads reach [`Heavy::mem_ops`] or its FMAs
//! [`Heavy::compute_iters`]: FMAs gain most from a block (they are independent, so a block
//! of `T` threads does them `T` times as fast), loads less (they are random reads from a
//! table, limited by the memory system rather than by threads), which is why there are two
//! thresholds and not one weighted sum. In the study every node of a tree has the same work,
//! so at one point of it either every node is heavy or none is; the program decides per node.
//! [`Heavy::NEVER`] makes it the thread program in the mixed kernel, [`Heavy::ALWAYS`] puts
//! every node's work on a block.
//!
//! The results are the thread programs': `(node count, checksum)` equal to
//! [`tree::full_binary_reference`] and [`tree::pruned_reference`] on every team size (a
//! node's work is a wrapping sum of per-operation terms, which the block splits and sums back
//! without changing it). The team's scratch must hold [`block_reduce::scratch_needed`] bytes.
//!
//! [`tree_block::node_work_block`]: crate::tree_block::node_work_block
//! [`tree::full_binary_reference`]: crate::tree::full_binary_reference
//! [`tree::pruned_reference`]: crate::tree::pruned_reference
//! [`block_reduce::scratch_needed`]: crate::block_reduce::scratch_needed

use crate::tree::Work;

/// When a node's work is a block task: from this many loads, or from this many FMAs.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Heavy {
    /// Loads per node from which a node is heavy.
    pub mem_ops: u32,
    /// FMAs per node from which a node is heavy.
    pub compute_iters: u32,
}

impl Heavy {
    /// No node is heavy: thread tasks only.
    pub const NEVER: Heavy = Heavy {
        mem_ops: u32::MAX,
        compute_iters: u32::MAX,
    };

    /// Every node is heavy.
    pub const ALWAYS: Heavy = Heavy {
        mem_ops: 0,
        compute_iters: 0,
    };

    /// Whether a node with work `w` is heavy.
    #[inline(always)]
    pub fn is(self, w: Work<'_>) -> bool {
        w.mem_ops >= self.mem_ops || w.compute_iters >= self.compute_iters
    }
}

/// The full binary tree: thread tasks, heavy nodes' work on a block.
#[gtap::program(name = "full_binary_tree_mixed")]
pub mod full_binary_mixed {
    use gtap::Block;

    use super::Heavy;
    use crate::tree::{Work, fold, node_work};
    use crate::tree_block::node_work_block;

    /// The subtree of `depth` more levels below node `id`.
    #[gtap::task]
    pub fn node(depth: u32, id: u64, w: Work<'_>, heavy: Heavy) -> (u64, u64) {
        if heavy.is(w) {
            if depth > 0 {
                let own = spawn!(work(id, w));
                let left = spawn!(node(depth - 1, 2 * id + 1, w, heavy));
                let right = spawn!(node(depth - 1, 2 * id + 2, w, heavy));
                taskwait!();
                return fold(fold((1, own.get()), left.get()), right.get());
            }
            let own = spawn!(work(id, w));
            taskwait!();
            return (1, own.get());
        }
        let mut total = (1, 0);
        if depth > 0 {
            let left = spawn!(node(depth - 1, 2 * id + 1, w, heavy));
            let right = spawn!(node(depth - 1, 2 * id + 2, w, heavy));
            taskwait!();
            total = fold(fold(total, left.get()), right.get());
        }
        fold(total, (0, node_work(id, w)))
    }

    /// Node `id`'s work, by the whole block.
    #[gtap::task(block)]
    pub fn work(b: Block, id: u64, w: Work<'_>) -> u64 {
        node_work_block(b, id, w)
    }
}

/// The depth-pruned 3-ary tree: thread tasks, heavy nodes' work on a block.
#[gtap::program(name = "pruned_tree_mixed")]
pub mod pruned_mixed {
    use gtap::Block;

    use super::Heavy;
    use crate::tree::{Work, fold, kept_children, node_work};
    use crate::tree_block::node_work_block;

    /// The subtree below node `id`, at depth `d` of `max_depth`.
    #[gtap::task]
    pub fn node(d: u32, max_depth: u32, id: u64, w: Work<'_>, heavy: Heavy) -> (u64, u64) {
        let kids = slots!((u64, u64); 3);
        let kept = kept_children(id, d, max_depth);
        for &child in &kept.ids[..kept.len as usize] {
            spawn!(into kids, node(d + 1, max_depth, child, w, heavy));
        }
        if heavy.is(w) {
            let own = spawn!(work(id, w));
            taskwait!();
            return kids.iter().fold((1, own.get()), fold);
        }
        taskwait!();
        kids.iter().fold((1, node_work(id, w)), fold)
    }

    /// Node `id`'s work, by the whole block.
    #[gtap::task(block)]
    pub fn work(b: Block, id: u64, w: Work<'_>) -> u64 {
        node_work_block(b, id, w)
    }
}
