//! The task language's run-time side: what `#[gtap::program]` and `#[gtap::task]` lower to.
//!
//! A task is a function whose body is turned into a `static` coroutine: `taskwait!()` becomes
//! a `yield`, so rustc's own coroutine transform computes what is live at each join, for any
//! control flow (loops, branches, `match`, early `return`), and stores exactly that in the
//! frame. The frame is the task's state machine; it lives in the task's record and is resumed
//! there after the join. See `gtap-macros` for the lowering and `examples/fib-expanded.rs`
//! for a worked expansion.
//!
//! # Why rustc's coroutines
//! GTaP's compiler splits a task at each taskwait and spills what is live into a record, with
//! its own liveness analysis and restrictions (no taskwait in loops or branches in practice,
//! annotated locals). rustc's coroutine transform already does exactly that job, for any
//! control flow, with borrow checking across the suspension points, and its output compiles
//! to PTX. So the macro only rewrites `taskwait!()` into `yield` and `spawn!` into runtime
//! calls, and leaves liveness, layout and the state machine to rustc. The cost is that a
//! frame's layout is rustc's choice in each compilation: frames never cross between the host
//! and the GPU (a root task travels as its `#[repr(C)]` arguments, see [`Program::Args`]).
//!
//! | file | what |
//! |---|---|
//! | [`program`] | the [`Program`] trait the macro implements: the task enum and its dispatch |
//! | [`ctx`] | [`Ctx`], the resume argument, and the calls `spawn!`/`taskwait!` expand to |
//! | [`handle`] | result slots and the pending/joined handle types |
//! | [`checks`] | the compile-time frame-size check and the stand-in for a task called like a function |
//! | [`gpu_root`] | whether a call's arguments hold references (it may not be a GPU root then) |
//! | [`sum_stack`] | the pending calls of a summing sequential version |
//! | [`split`] | splitting a summing task by a budget of work: the budget and the pending calls |

pub mod block;
pub mod checks;
pub mod ctx;
pub mod gpu_root;
pub mod handle;
pub mod program;
pub mod split;
pub mod sum_stack;

pub use block::{AgreeDomain, Block};
pub use ctx::Ctx;
pub use handle::{
    BlockJoined, BlockPending, Joined, JoinedSlots, Pending, PendingSlots, Readable, Slot, Slots,
};
pub use program::{BlockArg, Call, IntoCall, Program, Step, TaskArg, TaskResult};
