//! The fork-join runtime's backend-independent pieces, and the CPU backend's worker loop.
//!
//! GTaP's runtime (paper, section 4) is a set of fixed-size structures in memory the host
//! allocates before the run, driven by persistent workers: task records indexed by id, one
//! work-stealing deque per worker, a join counter per record, and a run-wide stop flag. Every
//! piece here is written over the small atomics facade in [`sync`], so the same code runs on
//! host threads (the CPU backend, and the tests that exercise it in CI), under loom's model
//! checker, and on the GPU with inline-PTX atomics.
//!
//! | file | what |
//! |---|---|
//! | [`sync`] | the atomics facade: `core`, loom, or inline PTX on the GPU |
//! | [`record`] | a task record: header + the task's frame |
//! | [`pool`] | the record array and its allocator: per-worker caches, a tagged free stack, a bump pointer |
//! | [`deque`] | GTaP's batched work-stealing deque of task ids |
//! | [`granularity`] | automatic granularity: whether a spawn makes a task or runs the child's sequential version inline |
//! | [`join`] | join counting: when a task resumes after a taskwait, and when it is complete |
//! | [`termination`] | the stop flags (root completed / aborted) and the first error |
//! | [`error`] | [`RunError`]: which limit a run hit, in the words of both backends |
//! | [`rng`] | xorshift victim selection |
//! | [`cpu`] | the CPU backend's worker loop (host only) |
//! | [`gpu`] | the GPU runtime: thread-level workers in a persistent kernel (device only), and the memory layout the host sets up |
//!
//! `README.md` beside this file is the design note on join counting and termination: why a
//! run ends exactly when every task has completed, and why it cannot hang.
//!
//! Model-checked tests of the deque, the free stack and the join protocol run with
//! `RUSTFLAGS="--cfg loom" cargo test -p gtap-device --release --lib loom`.

pub mod deque;
pub mod error;
pub mod gpu;
pub mod granularity;
pub mod join;
pub mod pool;
pub mod record;
pub mod reserve;
pub mod rng;
pub mod sync;
pub mod termination;

#[cfg(not(target_arch = "nvptx64"))]
pub mod cpu;

pub use error::RunError;
