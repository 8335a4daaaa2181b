//! Unbalanced Tree Search (UTS; Olivier et al., LCPC 2006): count the nodes of a tree that
//! exists only as a rule for making children, so that its shape cannot be known before it is
//! walked. Every node has a 20-byte SHA-1 state ([`rng`]); its child `i`'s state is the
//! digest of the node's state and `i`, and the node's random number decides how many children
//! it has ([`tree`]: binomial and geometric trees). The trees are UTS's own, checked against
//! the sizes UTS publishes for its sample trees ([`SAMPLES`]: T1, T3, T1L, T3L and others).
//!
//! The binomial trees (T3, T3L) are the standard test of a work stealer's load balance: most
//! nodes are leaves, the rest have `m` children, with `q m` close to one, so the tree is a
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
//! is done, so the deepest tree, T3L at 17,844 levels, holds a chain of 17,844 suspended
//! tasks. That fits: on one CPU worker, which walks depth first, the tasks waiting in its
//! queue are the unvisited siblings along the current path (at most 35,802 for T3L, counted
//! by the same walk done sequentially), under the default `2^16` queue entries, and the
//! records are those and the chain, far under the default capacity; T3L passes on one and on two
//! workers with the defaults (`tests/tests/uts_cpu.rs`, ignored tests for release builds).
//! So the program joins, which also gives each subtree's leaves and depth, not only the node
//! count. On the GPU the chain's records come from the slabs of the warps that spawned them,
//! so a run that keeps the deep chain on few warps needs more records per warp than the
//! default (the bench's `--tasks-per-warp`); the run says so if it runs out. [`detached`] is
//! the same walk without joins, whose nodes' records are free as soon as they return, and
//! which counts nodes only (as tasks run).
//!
//! With automatic granularity (the runtimes' default) a spawn may run inline, as the child's
//! sequential version (`program::seq::node`), which walks the child's whole subtree by plain
//! recursion on the spawning thread's stack. A binomial tree has no depth bound: with every
//! spawn left to the policy, T3L's chains overflowed a CPU worker's 2 MiB stack (the process
//! aborts), and T3's 1572 levels would take 390 KB of a GPU thread's stack (248 bytes of local
//! memory per call of `seq::node` in the PTX; 16 KiB by default). So a spawn is left to the
//! policy only where the child's subtree has at most [`INLINE_LEVELS`] levels by the tree's
//! shape ([`may_inline`]: T1, T1L, the deep parts of the cyclic trees), and is a task
//! otherwise (`spawn!(task, ..)`: every spawn of a binomial tree).
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
}

/// Two disjoint parts of a tree together.
impl core::ops::Add for Count {
    type Output = Count;

    #[inline]
    fn add(self, other: Count) -> Count {
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

/// The most levels a subtree may have for the runtime to run it inline, as its sequential
/// version ([`may_inline`]).
pub const INLINE_LEVELS: u32 = 32;

/// Whether the runtime may run a child at `height` inline (automatic granularity), rather than
/// always as a task (`spawn!(task, ..)`): only where the child's subtree is known to have at
/// most [`INLINE_LEVELS`] levels. An inline child runs its whole subtree as plain recursion on
/// the spawning thread's stack, one call per level; a binomial tree has no depth bound (T3L:
/// 17,844 levels, which overflow a CPU worker's 2 MiB stack), while 32 levels of `seq::node`
/// take 8 KB of local memory (248 bytes a call, before the registers saved at each) of the
/// GPU's default 16 KiB stack.
#[inline]
pub fn may_inline(tree: &Tree, height: u32) -> bool {
    tree.max_height()
        .is_some_and(|max| max.saturating_sub(height) <= INLINE_LEVELS)
}

/// The task program: one task per node, plus spans for wide nodes.
#[gtap::program(name = "uts")]
pub mod program {
    use super::{Count, FANOUT, State, Tree, may_inline, part};

    /// The whole tree: the root, its children as one span.
    #[gtap::task]
    pub fn root(tree: Tree) -> Count {
        let state = State::root(tree.seed);
        let n = tree.children(&state, 0);
        if n == 0 {
            return Count::node(0, true);
        }
        let kids = spawn!(task, span(tree, state, 1, 0, n));
        taskwait!();
        Count::node(0, false) + kids.get()
    }

    /// Child `index`, at `height`, of the node whose state is `parent`, and its subtree.
    #[gtap::task]
    pub fn node(tree: Tree, parent: State, index: u32, height: u32) -> Count {
        let state = parent.child(index);
        let n = tree.children(&state, height);
        if n == 0 {
            return Count::node(height, true);
        }
        let inline = may_inline(&tree, height + 1);
        let kids = slots!(Count; FANOUT as usize);
        if n <= FANOUT {
            for i in 0..n {
                if inline {
                    spawn!(into kids, node(tree, state, i, height + 1));
                } else {
                    spawn!(into kids, task, node(tree, state, i, height + 1));
                }
            }
        } else {
            for k in 0..FANOUT {
                let (lo, hi) = part(0, n, k);
                if inline {
                    spawn!(into kids, span(tree, state, height + 1, lo, hi));
                } else {
                    spawn!(into kids, task, span(tree, state, height + 1, lo, hi));
                }
            }
        }
        taskwait!();
        kids.iter().fold(Count::node(height, false), |a, b| a + b)
    }

    /// Children `lo..hi`, at `height`, of the node whose state is `parent`, and their
    /// subtrees.
    #[gtap::task]
    pub fn span(tree: Tree, parent: State, height: u32, lo: u32, hi: u32) -> Count {
        let inline = may_inline(&tree, height);
        let kids = slots!(Count; FANOUT as usize);
        if hi - lo <= FANOUT {
            for i in lo..hi {
                if inline {
                    spawn!(into kids, node(tree, parent, i, height));
                } else {
                    spawn!(into kids, task, node(tree, parent, i, height));
                }
            }
        } else {
            for k in 0..FANOUT {
                let (a, b) = part(lo, hi, k);
                if inline {
                    spawn!(into kids, span(tree, parent, height, a, b));
                } else {
                    spawn!(into kids, task, span(tree, parent, height, a, b));
                }
            }
        }
        taskwait!();
        kids.iter().fold(Count::ZERO, |a, b| a + b)
    }
}

/// The same walk without joins: a node spawns its children and returns, so no task waits and
/// a finished node's record is free at once (on the GPU, where a program without
/// `taskwait!()` ends by counting tasks; the CPU backend keeps join counters to detect the
/// end). The count is the runtime's: one task per node (every spawn a task, `spawn!(task, ..)`,
/// whatever the granularity policy), so the tasks run are the tree's nodes (leaves and depth
/// are not counted). Every node spawns all its children itself: at most 100
/// below the root, and a binomial root's `floor(b)` (2000 in the samples; the program's
/// `max_children`).
///
/// This is the formulation for a runtime whose records cannot hold the joined program's
/// chains of suspended ancestors (T3L's 17,844 levels) where they gather on few workers.
#[gtap::program(name = "uts_detached", max_children = 2000)]
pub mod detached {
    use super::{State, Tree};

    /// The root: spawns its children.
    #[gtap::task]
    pub fn root(tree: Tree) {
        let state = State::root(tree.seed);
        for i in 0..tree.children(&state, 0) {
            spawn!(task, node(tree, state, i, 1));
        }
    }

    /// Child `index`, at `height`, of the node whose state is `parent`: spawns its children.
    #[gtap::task]
    pub fn node(tree: Tree, parent: State, index: u32, height: u32) {
        let state = parent.child(index);
        for i in 0..tree.children(&state, height) {
            spawn!(task, node(tree, state, i, height + 1));
        }
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
        total = total + Count::node(height, n == 0);
        stack.extend((0..n).map(|i| (state.child(i), height + 1)));
    }
    total
}

/// How many tasks [`program::root`] runs on `tree` where no spawn runs inline (automatic
/// granularity off, or a tree whose spawns are all tasks, [`may_inline`]): one per node, and
/// the [`program::span`]s of the root's children and of every node with more than [`FANOUT`]
/// children. Walks the tree as [`count_sequential`] does.
#[cfg(not(target_arch = "nvptx64"))]
pub fn task_count(tree: &Tree) -> u64 {
    // The spans a span over `n` children runs, itself included.
    fn spans(n: u32) -> u64 {
        if n <= FANOUT {
            return 1;
        }
        1 + (0..FANOUT)
            .map(|k| {
                let (lo, hi) = part(0, n, k);
                spans(hi - lo)
            })
            .sum::<u64>()
    }
    let root = State::root(tree.seed);
    let n = tree.children(&root, 0);
    // The root task, and one span over its children.
    let mut tasks = 1 + if n > 0 { spans(n) } else { 0 };
    let mut stack: std::vec::Vec<(State, u32)> = (0..n).map(|i| (root.child(i), 1)).collect();
    while let Some((state, height)) = stack.pop() {
        let n = tree.children(&state, height);
        // The node's task, and its parts' spans (the node spawns them itself).
        tasks += 1 + if n > FANOUT { spans(n) - 1 } else { 0 };
        stack.extend((0..n).map(|i| (state.child(i), height + 1)));
    }
    tasks
}

/// `tree`'s count with rayon: a parallel iterator over every node's children, recursively.
///
/// Its recursion is as deep as the tree, and each level takes a few of rayon's frames: run it
/// in a pool whose threads have large stacks ([`rayon_pool`]; in a release build T3L's 17,844
/// levels overflow 32 MiB and fit in 64 MiB).
#[cfg(not(target_arch = "nvptx64"))]
pub fn count_rayon(tree: &Tree) -> Count {
    subtree_rayon(tree, State::root(tree.seed), 0)
}

/// The stack size for [`count_rayon`]'s threads: four times what T3L needs in a release build.
#[cfg(not(target_arch = "nvptx64"))]
pub const RAYON_STACK: usize = 256 << 20;

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
    // Most nodes are leaves: no parallel iterator for them.
    if n == 0 {
        return Count::node(height, true);
    }
    (0..n)
        .into_par_iter()
        .map(|i| subtree_rayon(tree, state.child(i), height + 1))
        .reduce(|| Count::ZERO, |a, b| a + b)
        + Count::node(height, false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_small_samples_have_their_published_sizes() {
        // T1 fixed, T5 linear, T2 cyclic (libm's pow and sin), T3 binomial.
        for name in ["T1", "T5", "T2", "T3"] {
            let s = Sample::named(name).unwrap();
            assert_eq!(count_sequential(&s.tree()), s.want, "{name}");
        }
    }

    #[test]
    #[ignore = "about a minute in a release build: cargo test --release -p gtap-examples --lib uts -- --ignored"]
    fn the_large_samples_have_their_published_sizes() {
        for name in ["T1L", "T2L", "T3L"] {
            let s = Sample::named(name).unwrap();
            assert_eq!(count_sequential(&s.tree()), s.want, "{name}");
        }
    }

    #[test]
    fn parts_cover_a_range_without_gaps_or_empty_parts() {
        for (lo, hi) in [(0, 8), (0, 9), (3, 100), (0, 2000), (17, 42)] {
            let mut next = lo;
            for k in 0..FANOUT {
                let (a, b) = part(lo, hi, k);
                assert_eq!(a, next, "part {k} of {lo}..{hi}");
                assert!(b > a, "part {k} of {lo}..{hi} is empty");
                next = b;
            }
            assert_eq!(next, hi);
        }
    }

    #[test]
    fn command_lines_parse_as_uts_reads_them() {
        let t1 = Tree::from_uts_args("-t 1 -a 3 -d 10 -b 4 -r 19").unwrap();
        assert_eq!(t1, Tree::geometric(Shape::Fixed, 10, 4.0, 19));
        // UTS's defaults: a geometric tree, linear shape, depth 6, b 4, seed 0.
        assert_eq!(
            Tree::from_uts_args("").unwrap(),
            Tree::geometric(Shape::Linear, 6, 4.0, 0)
        );
        let t3 = Tree::from_uts_args("-t 0 -b 2000 -q 0.124875 -m 8 -r 42").unwrap();
        assert_eq!(t3, Tree::binomial(2000.0, 0.124875, 8, 42));
        let err = |args| Tree::from_uts_args(args).unwrap_err();
        assert_eq!(err("-t 2 -a 0 -d 16 -b 6 -r 1"), ArgError::UnsupportedType);
        assert_eq!(err("-g 2"), ArgError::UnknownFlag);
        assert_eq!(err("-d"), ArgError::MissingValue);
        assert_eq!(err("-d x"), ArgError::BadValue);
        assert_eq!(err("-a 4"), ArgError::BadValue);
    }

    #[test]
    fn every_sample_is_found_by_name_in_any_case() {
        for s in SAMPLES {
            let found = Sample::named(&s.name.to_ascii_lowercase()).unwrap();
            assert_eq!(found.args, s.args);
            s.tree();
        }
        assert!(Sample::named("T4").is_none());
    }
}
