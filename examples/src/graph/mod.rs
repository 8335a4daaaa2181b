//! Graph inputs and CPU reference algorithms for the BFS and SpMV programs (host only).
//!
//! The GPU programs read a graph in compressed sparse rows ([`Csr`]) and are checked against,
//! and timed against, the CPU versions here. Inputs come from two places:
//!
//! - [`kronecker()`]: Graph500's synthetic power-law graphs, generated in parallel from a seed,
//!   reproducible on every platform (our own random numbers, `rng.rs`);
//! - [`road()`]: road-like graphs, a 2-D grid with streets closed and short cuts added
//!   (small degrees, a diameter in the thousands), generated from a seed;
//! - [`mtx`]: Matrix Market files, the format of the SuiteSparse collection of real graphs.
//!
//! | module | holds |
//! |---|---|
//! | [`csr`] | the [`Csr`] layout, its construction from edges, and its invariants ([`Csr::check`]) |
//! | `assemble` | the parallel counting-sort construction behind [`Csr::from_edges`] |
//! | [`kronecker`](mod@kronecker) | the Graph500 Kronecker generator |
//! | [`road`](mod@road) | the road-like grid generator |
//! | [`mtx`] | the Matrix Market reader, hardened for downloaded files |
//! | [`bfs`] | sequential and parallel BFS depths, traversed edges for TEPS |
//! | [`spmv`] | sequential and parallel `y = A x`, the relative-error check for a GPU result |
//! | [`rng`] | splitmix64 and xoshiro256\*\* |
//! | [`error`] | [`GraphError`] and the details it carries |
//! | `fuzz` | property tests of the loaders on generated, mutated and random input (tests only) |
//!
//! ```
//! use gtap_examples::graph::{bfs, kronecker, spmv};
//!
//! let g = kronecker(10, 16, 1)?; // 1024 vertices, 16 * 1024 random undirected edges
//! let depths = bfs::bfs_parallel(&g, 0);
//! assert_eq!(depths, bfs::bfs_sequential(&g, 0));
//! let x = spmv::input_vector(g.n, 1);
//! spmv::check_close(&spmv::spmv(&g, &x), &spmv::spmv_parallel(&g, &x), 0.0)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! All of it is host code (it uses `std`, rayon and files), compiled out of the GPU build of
//! this crate.

mod assemble;
pub mod bfs;
pub mod csr;
pub mod device;
pub mod error;
#[cfg(test)]
mod fuzz;
pub mod kronecker;
pub mod mtx;
pub mod rng;
pub mod road;
pub mod spmv;

pub use csr::Csr;
pub use error::{CsrError, GraphError, MtxError};
pub use kronecker::kronecker;
pub use road::road;
