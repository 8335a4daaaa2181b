//! The synthetic trees of [`crate::tree`] as block programs: GTaP's block-level workers in its
//! worker-granularity study (paper section 6.3), where a whole thread block runs each node.
//!
//! The trees, the node ids and the per-node work are those of the thread programs, and so are
//! the results: `(node count, checksum)` equal to [`tree::full_binary_reference`] and
//! [`tree::pruned_reference`] on every team size. A node's work is split over the block as
//! GTaP splits it (thread `t` of `n` does operations `t, t + n, ..`,
//! [`tree::node_work_share`]), and the shares are summed back through the team's scratch
//! memory ([`block_reduce::sum_u64`]); the work is a wrapping sum of per-operation terms, so
//! the split does not change it.
//!
//! Children are spawned block-wide, with handles (one child per spawn, made by the leader, its
//! result seen by every thread after the join). A pruned node has 0 to 3 children, decided by
//! a hash of its id that every thread computes alike; as `slots!` is not available in block
//! tasks, the node takes one of four arms by its number of children, each arm spawning that
//! many handles and joining them (a handle must be joined in the block that spawned it, so
//! the spawns cannot sit in separate `if`s in front of one taskwait).
//!
//! As in GTaP, a node spawns, joins, then does its own work. The team's scratch must hold
//! [`block_reduce::scratch_needed`] bytes (on the GPU, 256 bytes are enough for any block of
//! whole warps).
//!
//! [`tree::full_binary_reference`]: crate::tree::full_binary_reference
//! [`tree::pruned_reference`]: crate::tree::pruned_reference
//! [`tree::node_work_share`]: crate::tree::node_work_share
//! [`block_reduce::sum_u64`]: crate::block_reduce::sum_u64
//! [`block_reduce::scratch_needed`]: crate::block_reduce::scratch_needed

use gtap::Block;

use crate::block_reduce;
use crate::tree::{Work, node_work_share};

/// The work of node `id`, done by the whole block: equal to [`crate::tree::node_work`] on
/// every thread.
#[inline(always)]
pub fn node_work_block(b: Block, id: u64, w: Work<'_>) -> u64 {
    block_reduce::sum_u64(b, node_work_share(id, w, b.index(), b.size()))
}

/// The full binary tree, one block per node.
#[gtap::program(name = "full_binary_tree_block")]
pub mod full_binary_block {
    use gtap::Block;

    use super::node_work_block;
    use crate::tree::{Work, fold};

    /// The subtree of `depth` more levels below node `id`.
    #[gtap::task(block)]
    pub fn node(b: Block, depth: u32, id: u64, w: Work<'_>) -> (u64, u64) {
        let mut total = (1, 0);
        if depth > 0 {
            let left = spawn!(node(depth - 1, 2 * id + 1, w));
            let right = spawn!(node(depth - 1, 2 * id + 2, w));
            taskwait!();
            total = fold(fold(total, left.get()), right.get());
        }
        fold(total, (0, node_work_block(b, id, w)))
    }
}

/// The depth-pruned 3-ary tree, one block per node.
#[gtap::program(name = "pruned_tree_block")]
pub mod pruned_block {
    use gtap::Block;

    use super::node_work_block;
    use crate::tree::{Work, fold, kept_children};

    /// The subtree below node `id`, at depth `d` of `max_depth`.
    #[gtap::task(block)]
    pub fn node(b: Block, d: u32, max_depth: u32, id: u64, w: Work<'_>) -> (u64, u64) {
        // The same on every thread: a hash of the ids.
        let kept = kept_children(id, d, max_depth);
        let ids = kept.ids;
        let mut total = (1, 0);
        match kept.len {
            0 => {}
            1 => {
                let a = spawn!(node(d + 1, max_depth, ids[0], w));
                taskwait!();
                total = fold(total, a.get());
            }
            2 => {
                let a = spawn!(node(d + 1, max_depth, ids[0], w));
                let c = spawn!(node(d + 1, max_depth, ids[1], w));
                taskwait!();
                total = fold(fold(total, a.get()), c.get());
            }
            _ => {
                let a = spawn!(node(d + 1, max_depth, ids[0], w));
                let c = spawn!(node(d + 1, max_depth, ids[1], w));
                let e = spawn!(node(d + 1, max_depth, ids[2], w));
                taskwait!();
                total = fold(fold(fold(total, a.get()), c.get()), e.get());
            }
        }
        fold(total, (0, node_work_block(b, id, w)))
    }
}
