//! The GTaP paper's programs written as gtap task programs, each with a sequential
//! reference implementation used to check its results.
//!
//! | module | program | shows |
//! |---|---|---|
//! | [`fib`] | Fibonacci, no cutoff; also with a cutoff and EPAQ queues, and split by a budget of calls | the cost of a task: one task per call |
//! | [`fib_expanded`] | the same, as the macro lowers it, commented | how a task becomes a state machine |
//! | [`nqueens`] | N-Queens, bitmask backtracking with a cutoff depth; also with EPAQ queues, and without a cutoff split by a budget of placements | a variable number of children per task (`slots!`) |
//! | [`mergesort`] | merge sort with a cutoff | an array split among children and whole again after the join (`ViewMut`) |
//! | [`mergesort_mixed`] | merge sort whose large merges are split by merge path into block tasks | thread tasks and block tasks in one program; a block task's threads each writing their share of a lent view (`TeamMut`) |
//! | [`cilksort`] | Cilk's sort with a parallel merge | several joins per task; two tasks calling each other; shared and exclusive views of one array in turn |
//! | [`cilksort_mixed`] | the same with block tasks for chunk sorts and large merges (merge path) | ping-pong buffers; a block-wide sort |
//! | [`cilksort_epaq`] | the same with EPAQ queues (GTaP section 6.4) | queueing children by the path they will take |
//! | [`tree`] | the synthetic full binary tree and depth-pruned B-ary tree | per-task memory and FP64 work |
//! | [`tree_block`] | the same trees as block programs | a node's work split over a block and summed back |
//! | [`tree_mixed`] | the same trees walked by thread tasks, a heavy node's work on a block | block tasks only where they pay |
//! | [`bfs`] | breadth-first search, GTaP's Program 5 (block program) | per-thread spawns, an `AtomicView` of depths, a shared graph, no join |
//! | [`bfs_mixed`] | BFS expanding short adjacency lists in thread tasks, long ones in block tasks | a child's kind chosen at its spawn |
//! | [`spmv`] | sparse matrix times vector (block program) | row ranges split by the leader; long rows shared by a block |
//! | [`knapsack`] | 0/1 knapsack by branch and bound, BOTS's algorithm | a best value shared by every task (`AtomicView`, `fetch_max`) to prune with; slices of a read-only array as arguments |
//! | [`floorplan`] | cell placement with pruning, a simplified BOTS `floorplan` | tasks that return nothing: the answer and a node count in shared atomics |
//! | [`uts`] | Unbalanced Tree Search: UTS's SHA-1 trees, binomial and geometric | an irregular tree known only as it is walked; deep joins |
//!
//! Beside the programs: [`csr_view`], the view of a graph that the graph programs take,
//! [`block_sort`], the block-wide chunk sort of cilksort-mixed (in the team's scratch),
//! [`sorting`], the sorts' sequential pieces, [`rng`], the inputs' random generator, and
//! [`block_reduce`], block-wide sums through a team's scratch memory, and [`split_budget`], the
//! budget schedule of the programs split by a budget of work.
//!
//! This library is `no_std` so that the same code builds for the GPU. The host-only
//! [`graph`] module (inputs and CPU references for the BFS and SpMV programs) uses `std` and
//! is compiled out of the GPU build.

#![no_std]
#![feature(coroutines, coroutine_trait, type_alias_impl_trait, core_float_math)]
#![cfg_attr(target_arch = "nvptx64", feature(abi_ptx))]

#[cfg(not(target_arch = "nvptx64"))]
extern crate std;

pub mod bfs;
pub mod bfs_mixed;
pub mod block_reduce;
pub mod block_sort;
pub mod cilksort;
pub mod cilksort_epaq;
pub mod cilksort_mixed;
pub mod csr_view;
pub mod fib;
pub mod fib_expanded;
pub mod floorplan;
#[cfg(not(target_arch = "nvptx64"))]
pub mod graph;
pub mod knapsack;
pub mod mergesort;
pub mod mergesort_mixed;
pub mod nqueens;
pub mod rng;
pub mod sorting;
pub mod split_budget;
pub mod spmv;
pub mod tree;
pub mod tree_block;
pub mod tree_mixed;
pub mod uts;

/// This library's PTX (the GPU kernels of every program above), built by `build.rs`.
#[cfg(not(target_arch = "nvptx64"))]
pub const PTX: &str = gtap::include_ptx!();

/// The same programs with their lab kernels too (`gtap_<name>_profiled` for
/// `GpuConfig::profile`, `gtap_<name>_one_at_a_time` and `gtap_<name>_global_queue` for
/// `GpuConfig::scheduler`), built by `build.rs` with `--cfg gtap_lab`.
#[cfg(not(target_arch = "nvptx64"))]
pub const PTX_LAB: &str = gtap::include_ptx!("gtap_examples_lab");
