//! Unbalanced Tree Search (UTS; Olivier et al., LCPC 2006): count the nodes of a tree that
//! exists only as a rule for making children, so that its shape cannot be known before it is
//! walked. Every node has a 20-byte SHA-1 state ([`rng`]); its child `i`'s state is the
//! digest of the node's state and `i`, and the node's random number decides how many children
//! it has ([`tree`]: binomial and geometric trees). The trees are UTS's own, checked against
//! the sizes UTS publishes for its sample trees ([`SAMPLES`]: T1, T3, T1L, T3L and others).
//!
//! The binomial trees (T3, T3L) are the standard test of a work stealer's load balance: most
//! nodes are leaves, the rest have `m` children, with `q m` just under one, so the tree is a
//! few long thin chains (T3L is 17,844 levels deep) with bursts of width, and any thread can
//! find itself holding all the remaining work.
//!
//! # The task program
//!
//! [`program`] joins: a node task spawns its children, waits for them and returns its
//! subtree's [`Count`] (nodes, leaves, depth). Each task computes its own state from its
//! parent's state and its index, so that every task does exactly one SHA-1 and a parent's
//! lanes do not hash for all its children. A node with more than [`FANOUT`] children (up to
//! 100 in a geometric tree, 2000 at a binomial root) spawns [`program::span`] tasks for parts
//! of its children instead, which split again until a part is small: so no task waits for more
//! than [`FANOUT`] children, and its frame stays small.
//!
//! Joining keeps every ancestor of a running node suspended in its record until its subtree
//! is done: a path of `depth` records, plus the spawned siblings waiting along it. That is
//! about 17,844 x 5 records for T3L, well inside the CPU backend's default `2^20` records;
//! what runs out on the CPU is the worker's queue, which holds the siblings of every level of
//! a depth-first walk: T3L needs `queue_capacity(1 << 17)` (its default `2^16` is enough for
//! every other sample). The tests run T1 and T3 this way.
//!
//! # The references
//!
//! [`count_sequential`] walks the tree with an explicit stack (T3L's depth would overflow a
//! thread's stack with one frame per level), and [`count_rayon`] is rayon's own recursion
//! with a parallel iterator over each node's children, the same SHA-1 and the same child
//! rule: the bench's CPU baseline (it needs a large stack for the deep trees, see there).

pub mod rng;
pub mod tree;

pub use rng::State;
pub use tree::{ArgError, Kind, Shape, Tree};

/// The most children a task spawns; a node with more splits them into [`program::span`]s.
pub const FANOUT: u32 = 8;

/// What a subtree holds: its nodes, its leaves, and its deepest node's height (the root's
/// height is 0). UTS prints the same three for a whole tree.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[repr(C)]
pub struct Count {
    /// Nodes.
    pub nodes: u64,
    /// Nodes without children.
    pub leaves: u64,
    /// The largest height of a node (UTS's "tree depth").
    pub depth: u32,
}

impl Count {
    /// Nothing: the count of an empty range of children.
    pub const ZERO: Count = Count {
        nodes: 0,
        leaves: 0,
        depth: 0,
    };

    /// One node at `height`, a leaf or not.
    #[inline]
    pub fn node(height: u32, leaf: bool) -> Count {
        Count {
            nodes: 1,
            leaves: leaf as u64,
            depth: height,
        }
    }

    /// Two disjoint parts of a tree together.
    #[inline]
    pub fn add(self, other: Count) -> Count {
        Count {
            nodes: self.nodes + other.nodes,
            leaves: self.leaves + other.leaves,
            depth: self.depth.max(other.depth),
        }
    }
}

/// The `k`-th of [`FANOUT`] near-equal parts of `lo..hi` (non-empty where `hi - lo >=
/// FANOUT`).
#[inline]
pub fn part(lo: u32, hi: u32, k: u32) -> (u32, u32) {
    let n = u64::from(hi - lo);
    let at = |k: u32| lo + (n * u64::from(k) / u64::from(FANOUT)) as u32;
    (at(k), at(k + 1))
}

/// The task program: one task per node, plus spans for wide nodes.
#[gtap::program(name = "uts")]
pub mod program {
    use super::{Count, FANOUT, State, Tree, part};

    /// The whole tree: the root, its children as one span.
    #[gtap::task]
    pub fn root(tree: Tree) -> Count {
        let state = State::root(tree.seed);
        let n = tree.children(&state, 0);
        if n == 0 {
            return Count::node(0, true);
        }
        let kids = spawn!(span(tree, state, 1, 0, n));
        taskwait!();
        Count::node(0, false).add(kids.get())
    }

    /// Child `index`, at `height`, of the node whose state is `parent`, and its subtree.
    #[gtap::task]
    pub fn node(tree: Tree, parent: State, index: u32, height: u32) -> Count {
        let state = parent.child(index);
        let n = tree.children(&state, height);
        if n == 0 {
            return Count::node(height, true);
        }
        let kids = slots!(Count; FANOUT as usize);
        if n <= FANOUT {
            for i in 0..n {
                spawn!(into kids, node(tree, state, i, height + 1));
            }
        } else {
            for k in 0..FANOUT {
                let (lo, hi) = part(0, n, k);
                spawn!(into kids, span(tree, state, height + 1, lo, hi));
            }
        }
        taskwait!();
        kids.iter().fold(Count::node(height, false), Count::add)
    }

    /// Children `lo..hi`, at `height`, of the node whose state is `parent`, and their
    /// subtrees.
    #[gtap::task]
    pub fn span(tree: Tree, parent: State, height: u32, lo: u32, hi: u32) -> Count {
        let kids = slots!(Count; FANOUT as usize);
        if hi - lo <= FANOUT {
            for i in lo..hi {
                spawn!(into kids, node(tree, parent, i, height));
            }
        } else {
            for k in 0..FANOUT {
                let (a, b) = part(lo, hi, k);
                spawn!(into kids, span(tree, parent, height, a, b));
            }
        }
        taskwait!();
        kids.iter().fold(Count::ZERO, Count::add)
    }
}

/// A sample tree of UTS (its `sample_trees.sh`), with the size UTS publishes for it.
#[derive(Clone, Copy, Debug)]
pub struct Sample {
    /// UTS's name, e.g. `T1L`.
    pub name: &'static str,
    /// UTS's command line for it.
    pub args: &'static str,
    /// Its published size: nodes, leaves and depth.
    pub want: Count,
}

impl Sample {
    /// The tree of [`Sample::args`].
    pub fn tree(&self) -> Tree {
        Tree::from_uts_args(self.args).expect("a sample's command line is valid")
    }

    /// The sample named `name` (`t1`, `T3L`, ..., in any case).
    pub fn named(name: &str) -> Option<Sample> {
        SAMPLES
            .iter()
            .find(|s| s.name.eq_ignore_ascii_case(name))
            .copied()
    }
}

const fn count(nodes: u64, leaves: u64, depth: u32) -> Count {
    Count {
        nodes,
        leaves,
        depth,
    }
}

/// UTS's sample trees of the two types implemented here, with their published sizes.
#[rustfmt::skip]
pub const SAMPLES: [Sample; 8] = [
    Sample { name: "T1", args: "-t 1 -a 3 -d 10 -b 4 -r 19", want: count(4_130_071, 3_305_118, 10) },
    Sample { name: "T5", args: "-t 1 -a 0 -d 20 -b 4 -r 34", want: count(4_147_582, 2_181_318, 20) },
    Sample { name: "T2", args: "-t 1 -a 2 -d 16 -b 6 -r 502", want: count(4_117_769, 2_342_762, 81) },
    Sample { name: "T3", args: "-t 0 -b 2000 -q 0.124875 -m 8 -r 42", want: count(4_112_897, 3_599_034, 1_572) },
    Sample { name: "T1L", args: "-t 1 -a 3 -d 13 -b 4 -r 29", want: count(102_181_082, 81_746_377, 13) },
    Sample { name: "T2L", args: "-t 1 -a 2 -d 23 -b 7 -r 220", want: count(96_793_510, 53_791_152, 67) },
    Sample { name: "T3L", args: "-t 0 -b 2000 -q 0.200014 -m 5 -r 7", want: count(111_345_631, 89_076_904, 17_844) },
    Sample { name: "T1XL", args: "-t 1 -a 3 -d 15 -b 4 -r 29", want: count(1_635_119_272, 1_308_100_063, 15) },
];

/// `tree`'s count, sequentially: depth first with an explicit stack of the nodes still to
/// visit (at most `depth x max children` of them).
#[cfg(not(target_arch = "nvptx64"))]
pub fn count_sequential(tree: &Tree) -> Count {
    let mut total = Count::ZERO;
    let mut stack = std::vec![(State::root(tree.seed), 0u32)];
    while let Some((state, height)) = stack.pop() {
        let n = tree.children(&state, height);
        total = total.add(Count::node(height, n == 0));
        stack.extend((0..n).map(|i| (state.child(i), height + 1)));
    }
    total
}

/// `tree`'s count with rayon: a parallel iterator over every node's children, recursively.
///
/// Its recursion is as deep as the tree, and each level takes a few of rayon's frames: run it
/// in a pool whose threads have large stacks (T3L needs more than 64 MiB; the bench gives
/// them [`RAYON_STACK`] through [`rayon_pool`]).
#[cfg(not(target_arch = "nvptx64"))]
pub fn count_rayon(tree: &Tree) -> Count {
    subtree_rayon(tree, State::root(tree.seed), 0)
}

/// The stack size for [`count_rayon`]'s threads that every sample tree fits in.
#[cfg(not(target_arch = "nvptx64"))]
pub const RAYON_STACK: usize = 512 << 20;

/// A rayon pool of `threads` threads (0: one per core) whose stacks hold [`count_rayon`]'s
/// recursion on every sample tree ([`RAYON_STACK`]; only the pages used are touched).
#[cfg(not(target_arch = "nvptx64"))]
pub fn rayon_pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .stack_size(RAYON_STACK)
        .build()
        .expect("a rayon pool")
}

#[cfg(not(target_arch = "nvptx64"))]
fn subtree_rayon(tree: &Tree, state: State, height: u32) -> Count {
    use rayon::prelude::*;
    let n = tree.children(&state, height);
    (0..n)
        .into_par_iter()
        .map(|i| subtree_rayon(tree, state.child(i), height + 1))
        .reduce(|| Count::ZERO, Count::add)
        .add(Count::node(height, n == 0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_small_samples_have_their_published_sizes() {
        for name in ["T1", "T5", "T2", "T3"] {
            let s = Sample::named(name).unwrap();
            let t = std::time::Instant::now();
            assert_eq!(count_sequential(&s.tree()), s.want, "{name}");
            std::eprintln!("{name}: {:?}", t.elapsed());
        }
    }

    #[test]
    #[ignore = "about a minute in a release build: cargo test --release -p gtap-examples --lib uts -- --ignored"]
    fn the_large_samples_have_their_published_sizes() {
        for name in ["T1L", "T2L", "T3L"] {
            let s = Sample::named(name).unwrap();
            let t = std::time::Instant::now();
            assert_eq!(count_sequential(&s.tree()), s.want, "{name}");
            std::eprintln!("{name}: {:?}", t.elapsed());
        }
    }
}
