//! The task language's run-time side: what `#[gtap::program]` and `#[gtap::task]` lower to.
//!
//! A task is a function whose body is turned into a `static` coroutine: `taskwait!()` becomes
//! a `yield`, so rustc's own coroutine transform computes what is live at each join, for any
//! control flow (loops, branches, `match`, early `return`), and stores exactly that in the
//! frame. The frame is the task's state machine; it lives in the task's record and is resumed
//! there after the join. See `gtap-macros` for the lowering and `examples/fib-expanded.rs`
//! for a worked expansion.
//!
//! | file | what |
//! |---|---|
//! | [`program`] | the [`Program`] trait the macro implements: the task enum and its dispatch |
//! | [`ctx`] | [`Ctx`], the resume argument, and the calls `spawn!`/`taskwait!` expand to |
//! | [`handle`] | result slots and the pending/joined handle types |

pub mod ctx;
pub mod handle;
pub mod program;

pub use ctx::Ctx;
pub use handle::{Joined, JoinedSlots, Pending, PendingSlots, Readable, Slot, Slots};
pub use program::{Call, IntoCall, Program, Step, TaskArg, TaskResult};
