//! 0/1 knapsack by branch and bound with a bound shared by every task: the algorithm of
//! BOTS's `knapsack` (the Barcelona OpenMP Tasks Suite), as a gtap program.
//!
//! The items are sorted by value per unit of weight, best first. A task holds the items not
//! decided yet, the capacity left and the value packed so far, and:
//! - with no item left, or no capacity left, has found a packing: it raises the shared best
//!   value to its own (`fetch_max`) and returns;
//! - otherwise bounds what its subtree can reach: the value packed plus the capacity left
//!   filled at the next item's ratio, the best ratio left (the fractional relaxation of the
//!   remaining problem). If the bound is below the best value found by any task so far, the
//!   subtree cannot improve on it and the task returns (pruned);
//! - otherwise spawns a child without the next item and, if it fits, a child with it, and
//!   returns the better of their results.
//!
//! Every task reads the shared best to prune and raises it at each packing: the sooner a good
//! packing is found anywhere, the more every other task prunes. The bound is taken in
//! integers, rounded down: an upper bound still, as every packing's value is an integer.
//!
//! What differs from BOTS: a packing raises the shared best as soon as it is found (BOTS
//! raises it when a task returns, after its children), and a child that would not fit is not
//! spawned (BOTS spawns it, and the child returns at once). Neither changes the answer; both
//! change how many nodes a run visits, as does the order in which tasks run: the node count
//! of a parallel run varies from run to run (see [`Found::nodes`]).
//!
//! # Memory ordering
//! The best value is an [`AtomicView`](gtap::AtomicView) element, read and raised with
//! `Relaxed` atomics at GPU scope ([`gtap::device::data::AtomicView`]'s docs say why that is
//! enough): a task that reads a stale best prunes less, never wrongly, since the best only
//! grows; the answer comes back through the results, which the joins order.
//!
//! The instances are generated ([`instance`]), checked against dynamic programming
//! ([`reference::dp_best`]), and run sequentially and on rayon with the same bound sharing
//! ([`mod@reference`]).
//!
//! # Sizes
//! The tree's size is set by how close the items' ratios are: the closer, the less the bound
//! prunes. With values independent of weights, 36 items take 4.3·10^5 nodes; with strongly
//! correlated ones (each value its weight plus a tenth of the range, the benchmark's kind)
//! the tree grows about 1.26 times per item, 2.5 times per 4 items (the sequential search,
//! weights in 1..=1000, seed 1):
//!
//! | items | 40 | 44 | 48 | 52 | 56 |
//! |---|---:|---:|---:|---:|---:|
//! | nodes | 6.7·10^6 | 1.7·10^7 | 5.1·10^7 | 1.0·10^8 | 3.3·10^8 |
//!
//! and from one seed to another at 52 items between 1.0·10^8 and 2.2·10^8. A parallel run
//! visits more: many subtrees start before the first good packings have raised the best
//! (rayon at 36 items: 4.96 to 5.75·10^6 nodes where one thread visits 4.80·10^6). So 52 and
//! 56 strongly correlated items give trees of 10^8 nodes and more on the GPU.

pub mod instance;
#[cfg(not(target_arch = "nvptx64"))]
pub mod reference;

/// One item: what it weighs and what it is worth. `Plain`, so that it may fill a
/// `DeviceVec`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, gtap::Plain)]
#[repr(C)]
pub struct Item {
    /// Its weight (at least 1).
    pub weight: u32,
    /// Its value.
    pub value: u32,
}

/// What the search of a subtree found.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(C)]
pub struct Found {
    /// The best value of a packing in the subtree (0 where every branch was pruned).
    pub best: u32,
    /// The nodes of the subtree that were visited: this task and its children's, pruned ones
    /// included. It depends on when each task read the shared best.
    pub nodes: u64,
}

impl Found {
    /// A node that found a packing of `value`, or was pruned (`value` 0), with no children.
    #[inline(always)]
    pub fn leaf(value: u32) -> Found {
        Found {
            best: value,
            nodes: 1,
        }
    }

    /// This node with its children's results folded in.
    #[inline(always)]
    pub fn with(self, child: Found) -> Found {
        Found {
            best: self.best.max(child.best),
            nodes: self.nodes + child.nodes,
        }
    }
}

/// The upper bound of a node with `capacity` left and `value` packed whose next item is
/// `next` (the best ratio left): `value + capacity * next.value / next.weight`, rounded down.
#[inline(always)]
pub fn bound(next: Item, capacity: u32, value: u32) -> u64 {
    u64::from(value) + u64::from(capacity) * u64::from(next.value) / u64::from(next.weight)
}

/// The program.
#[gtap::program(name = "knapsack")]
pub mod program {
    use gtap::device::data::{DeviceAtomic, Relaxed};
    use gtap::{AtomicView, View};

    use super::{Found, Item, bound};

    /// The best packing of `items` (sorted by ratio, best first, as
    /// [`super::instance::Instance`] holds them) into `capacity`; `best` holds one `u32`, the
    /// shared best value (start it at 0, or at a value known to be reachable).
    ///
    /// The root takes views (what the host makes of `DeviceVec`s) and hands its child the
    /// slice and the atomic: a slice and a reference are smaller and need no check when used.
    #[gtap::task]
    pub fn knapsack(items: View<'_, Item>, capacity: u32, best: AtomicView<'_, u32>) -> Found {
        let root = spawn!(search(items.as_slice(), capacity, 0, best.get(0)));
        taskwait!();
        root.get()
    }

    /// Searches the subtree where `items` are still to be decided, `capacity` is left and
    /// `value` is packed (see the module docs).
    #[gtap::task]
    pub fn search(items: &[Item], capacity: u32, value: u32, best: &DeviceAtomic<u32>) -> Found {
        let Some((&next, rest)) = items.split_first() else {
            best.fetch_max::<Relaxed>(value);
            return Found::leaf(value);
        };
        if capacity == 0 {
            best.fetch_max::<Relaxed>(value);
            return Found::leaf(value);
        }
        if bound(next, capacity, value) < u64::from(best.load::<Relaxed>()) {
            return Found::leaf(0);
        }
        // Always tasks (`task`): the granularity policy's inline call would search the whole
        // subtree on this one thread, depth first, with no other thread to find the packings
        // that prune it; here a subtree's size is set by the bound, not by its depth, so the
        // policy cannot tell a small one from a huge one.
        let children = slots!(Found; 2);
        spawn!(into children, task, search(rest, capacity, value, best));
        if next.weight <= capacity {
            let (c, v) = (capacity - next.weight, value + next.value);
            spawn!(into children, task, search(rest, c, v, best));
        }
        taskwait!();
        children.iter().fold(Found::leaf(0), Found::with)
    }
}
