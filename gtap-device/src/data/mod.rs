//! Data that tasks work on: typed views of arrays, and arrays of device-wide atomics, on both
//! backends, with no `unsafe` in task code.
//!
//! | item | what | like |
//! |---|---|---|
//! | [`View<'a, T>`](View) | shared view of an array, `Copy` | `&'a [T]` |
//! | [`ViewMut<'a, T>`](ViewMut) | exclusive view of an array | `&'a mut [T]` |
//! | [`TeamMut<'a, T>`](TeamMut) | an exclusive view lent to a block task: each thread reaches its own share | `&'a mut [T]`, split by thread |
//! | [`AtomicView<'a, T>`](AtomicView) | array of atomics every task may update (a bound, flags) | `&'a [AtomicU32]` |
//! | [`Plain`] | what an array may hold (`#[derive(gtap::Plain)]` for structs) | `bytemuck::Pod` |
//! | [`Home`] | where a view's memory is: host or GPU | |
//!
//! The host side is `DeviceVec<T>` (in gtap-host, `gtap::DeviceVec`): an array in GPU memory
//! for the GPU backend or host memory for the CPU backend, copied in and out, whose views
//! borrow it, so the borrow checker keeps it alive and untouched on the host while a run
//! uses them.
//!
//! # Splitting an array across a join
//! A task may take references and views as arguments, and hand its children parts of what
//! it holds: a child's arguments stay borrowed until the `taskwait!()` that joins the child
//! (the borrow lives in the child's result handle, which the taskwait ends), so the parent
//! cannot touch what it lent until the child is done, and has it whole again right after.
//! That is `split_at_mut` made to work across a join:
//!
//! ```ignore
//! #[gtap::task]
//! fn sort(data: &mut [u32]) {
//!     if data.len() <= 1024 {
//!         return data.sort_unstable();
//!     }
//!     let mid = data.len() / 2;
//!     let (lo, hi) = data.split_at_mut(mid);
//!     let a = spawn!(sort(lo));      // `lo` and `hi` stay borrowed until the taskwait:
//!     let b = spawn!(sort(hi));      // using `data` here is a compile error
//!     taskwait!();
//!     merge_in_place(data, mid);     // whole again
//! }
//! ```
//!
//! Why this is sound, and not only convenient:
//! - A task's frame is a `static` coroutine in its task record, which stays put until the
//!   task is complete; what a child borrows from the parent's frame (a local, or the
//!   parent's own arguments) is alive in that record until the parent passes the taskwait,
//!   which returns only after the child and its whole subtree are complete. The parent's
//!   code cannot use it meanwhile: the borrow checker sees the child's handle hold it.
//! - A child whose handle is not kept (`spawn!(f(x));`, joined by whichever taskwait comes
//!   next) may take only what its parent itself holds for the parent's whole life: the
//!   parent's arguments, or `'static` data, never a borrow of a parent's local. The parent
//!   is not complete before such a child is.
//! - A task's body is checked with its argument lifetime as an unknown lifetime (the task's
//!   frame is generic over it), so it cannot keep a borrowed argument past its own
//!   completion: not in its result, which must be `'static`, nor anywhere else.
//! - The host hands a run views that borrow `DeviceVec`s; the run borrows them until it
//!   returns, and a run returns only after every task of it has completed.
//! - A block task's frame is copied to every thread of its team, so it may take only
//!   `Copy` arguments (shared views, atomics, plain values) and borrow nothing across a
//!   taskwait: a `ViewMut` or `&mut [T]` is a compile error there. An array it writes is a
//!   [`TeamMut`] parameter: its callers lend it a `ViewMut`, and each thread reaches only its
//!   own share.
//!
//! - Every parameter is `Send` (a child may run on another thread: a `&Cell<T>` is refused)
//!   and has no drop glue (a frame moves between threads and records, and the GPU never
//!   drops anything).
//! - A run that gives up on a task that never returns cannot hand borrowed data back: on the
//!   CPU backend such a run aborts the process, and `DeviceVec`s made before a stuck run
//!   refuse access and leak (see `DeviceVec`).
//!
//! Task results stay `Copy + Send + 'static`: results carry values back, and what was lent
//! comes back by the join itself.
//!
//! The macro names the argument lifetime `'task` (`gtap-macros`, `lifetimes.rs`), which is
//! the name the compiler's messages use ("`x` is borrowed for `'task`").
//!
//! # Why borrows, and not views moved into children and returned
//! A first design moved a non-`Copy` exclusive view into each child, had the child return it
//! as its result, and joined the halves again with a run-time adjacency check. It is sound,
//! but every task must return what it was lent (through results that then carry views), a
//! child that drops its part loses it for good, and a part cannot be lent read-only to
//! several children and taken back exclusive afterwards (cilksort's merges read the sorted
//! quarters that the next phase writes again): a `Copy` shared view could not be known to
//! be gone. With borrows the compiler proves all of that, the task code is plain Rust
//! (`split_at_mut`, `chunks_mut`, `as_view`), results stay values, and the cost at run time
//! is nothing: the borrow lives in a zero-sized handle.
//!
//! # Views and homes
//! On the GPU a `DeviceVec`'s memory is device memory, whose addresses the host must never
//! read; on the CPU backend it is host memory. One task program runs on both, so the view
//! types are the same for both, and every view carries its [`Home`]: turning a view into a
//! slice checks it (one comparison per slice, none per element) and panics with a message
//! that names the runtime to make the data for. A task that takes `&[T]` or `&mut [T]`
//! cannot be a root on the GPU (the host cannot make such references into GPU memory); the
//! GPU runtime refuses such a root with a typed error before it launches anything.

mod atomic_view;
mod home;
mod plain;
mod team;
mod view;

pub use crate::arch::{AcqRel, Acquire, DeviceAtomic, Relaxed, Release};
pub use atomic_view::{AtomicValue, AtomicView};
pub use home::Home;
pub use plain::{Plain, assert_plain};
pub use team::{TeamMut, share_of};
pub use view::{View, ViewMut};
