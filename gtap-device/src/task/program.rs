//! What `#[gtap::program]` generates an implementation of: the program's task enum and the
//! one `match` that resumes any of its tasks.

use core::marker::PhantomData;
use core::pin::Pin;

use super::Ctx;

/// A task program: every `#[gtap::task]` of one `#[gtap::program]` module, as one enum.
///
/// Implemented by the macro for the module's `Program` marker type; never by hand.
/// Dispatch is a `match` on [`Program::Task`] (static calls only: GPU indirect calls are slow
/// and stop inlining).
pub trait Program: Sized + 'static {
    /// One variant per task, holding that task's frame: a pinned state machine whose
    /// variants hold what is live at each `taskwait!()`.
    type Task: 'static;

    /// One variant per task, holding its arguments: a `#[repr(C)]` enum of `#[repr(C)]`
    /// structs, so that the host and the GPU agree on its layout. A run's root task crosses
    /// from the host to the GPU as its arguments and is built there with
    /// [`Program::start`]: the layout of a frame (a coroutine) is rustc's choice and may
    /// differ between two compilations, so frames never cross.
    type Args: 'static;

    /// The frame of a task called with `args` (not started yet).
    fn start(args: Self::Args) -> Self::Task;

    /// The program's name (the module's, or `#[gtap::program(name = "..")]`), for messages;
    /// its GPU kernel is exported as `gtap_<NAME>`.
    const NAME: &'static str;

    /// Whether any task of the program contains a `taskwait!()`. When none does, the
    /// runtime skips join bookkeeping.
    const HAS_TASKWAIT: bool;

    /// The most children one task may spawn between two `taskwait!()`s (the program's
    /// `max_children` setting). In a block program the limit holds per thread.
    const MAX_CHILDREN: u32;

    /// Whether any of the program's tasks is a block task (`#[gtap::task(block)]`), which
    /// runs on a whole team of threads (a GPU thread block) at once, see
    /// [`crate::task::block`]: the program's workers are teams.
    const BLOCK: bool = false;

    /// Whether the program has both thread tasks and block tasks ([`Program::task_is_block`]
    /// tells them apart). The CPU backend runs such programs (a team's leader runs a thread
    /// task alone); the GPU backend does not yet.
    const MIXED: bool = false;

    /// Whether `task` is a block task. The default: every task is of the program's kind.
    fn task_is_block(task: &Self::Task) -> bool {
        let _ = task;
        Self::BLOCK
    }

    /// Whether the program has sequential versions of its tasks ([`Program::run_seq`]): true
    /// for every thread program the macro generates; false for block programs (a block
    /// task's body is written for a whole team) and for programs lowered by hand. A runtime
    /// runs a spawn inline only when this is true.
    const SEQ: bool = false;

    /// Runs the task that `args` calls to its end on the calling thread, as its sequential
    /// version (the serial elision: every `spawn!` a plain call, every `taskwait!()`
    /// nothing), and writes its result to `out`. No task record, queue or join is involved.
    ///
    /// # Safety
    /// `out` is valid for one write of the called task's result type, and
    /// [`Program::SEQ`] is true (the default panics).
    #[inline(always)]
    unsafe fn run_seq(args: Self::Args, out: *mut u8) {
        let _ = (args, out);
        unreachable!("this program has no sequential versions (Program::SEQ is false)")
    }

    /// Runs `task` until it reaches a `taskwait!()` that must wait ([`Step::Wait`]) or
    /// returns ([`Step::Done`], after its result was delivered through `ctx`).
    ///
    /// # Safety
    /// - `task` lives in its task record and is never moved while the task exists.
    /// - `ctx` points to a valid [`Ctx`] of the backend running the task, describing this task.
    /// - The task has not returned yet.
    unsafe fn resume(task: Pin<&mut Self::Task>, ctx: *mut Ctx) -> Step;

    /// The name of the task a frame belongs to, for errors and statistics.
    fn task_name(task: &Self::Task) -> &'static str;

    /// The names of the program's tasks, in declaration order: `TASK_NAMES[task_index(t)]`
    /// is `task_name(t)`. The GPU reports a task by index; the host turns it into a name.
    const TASK_NAMES: &'static [&'static str];

    /// The position of a frame's task in [`Program::TASK_NAMES`].
    fn task_index(task: &Self::Task) -> u32;
}

/// How a task's run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// Suspended at a `taskwait!()`: resume it once its children have completed.
    Wait,
    /// Returned; its result has been delivered.
    Done,
}

/// A call of a task, not yet run: what `fib(40)` evaluates to inside a program module.
/// Spawn it with `spawn!`, or hand it to a runtime as the root task.
#[must_use = "a task call does nothing until it is spawned (`spawn!(f(x))` inside a task) or run as a root task (`Runtime::run`); `seq::f(x)` calls a task as a plain function"]
pub struct Call<P: Program, R> {
    task: P::Task,
    args: P::Args,
    /// `spawn!(task, ..)`: the spawn makes a task whatever the granularity policy says.
    forced: bool,
    _result: PhantomData<fn() -> R>,
}

impl<P: Program, R> Call<P, R> {
    /// Wraps a frame whose task returns `R`, with the arguments it was made from. Used by the
    /// generated task constructors.
    #[doc(hidden)]
    pub fn __new(task: P::Task, args: P::Args) -> Self {
        Call {
            task,
            args,
            forced: false,
            _result: PhantomData,
        }
    }

    /// The same call, to be spawned as a task whatever the runtime's granularity policy
    /// would decide (`spawn!(task, f(x))`).
    #[doc(hidden)]
    #[inline(always)]
    pub fn __task(mut self) -> Self {
        self.forced = true;
        self
    }

    /// Whether the spawn of this call may run it inline (see
    /// `crate::runtime::granularity`): the program has sequential versions and the spawn
    /// did not ask for a task.
    #[inline(always)]
    pub(crate) fn may_inline(&self) -> bool {
        P::SEQ && !self.forced
    }

    /// The call's arguments, without the frame (how a root task is sent to the GPU).
    pub fn into_args(self) -> P::Args {
        self.args
    }

    /// The frame to store in a task record.
    pub fn into_task(self) -> P::Task {
        self.task
    }

    /// Runs the call to its end on this thread, as the task's sequential version (see
    /// [`Program::run_seq`]), and returns its result. What the generated sequential versions
    /// do for a `spawn!` whose call is not written as a direct call of a task.
    ///
    /// # Panics
    /// If the program has no sequential versions ([`Program::SEQ`] is false).
    #[doc(hidden)]
    #[inline(always)]
    pub fn __run_seq(self) -> R {
        assert!(P::SEQ, "this program has no sequential versions");
        let mut out = core::mem::MaybeUninit::<R>::uninit();
        // SAFETY: `out` holds an `R`, the result type of the task this call calls (a `Call`
        // is made only by that task's generated constructor); `P::SEQ` was checked above.
        unsafe { P::run_seq(self.args, out.as_mut_ptr().cast()) };
        // SAFETY: `run_seq` wrote the result.
        unsafe { out.assume_init() }
    }

    /// The name of the task being called.
    pub fn task_name(&self) -> &'static str {
        P::task_name(&self.task)
    }

    /// The index of the task being called in [`Program::TASK_NAMES`].
    pub fn task_index(&self) -> u32 {
        P::task_index(&self.task)
    }
}

/// What `spawn!` accepts: a call of a task of program `P`.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a call of a task of this program",
    label = "expected a call of a #[gtap::task] fn of this program module, like `fib(n - 1)`",
    note = "spawn!(..) takes a task call; tasks of another #[gtap::program] module cannot be spawned here"
)]
pub trait IntoCall<P: Program> {
    /// The task's result type.
    type Output;
    /// The call itself.
    fn into_call(self) -> Call<P, Self::Output>;
}

impl<P: Program, R> IntoCall<P> for Call<P, R> {
    type Output = R;
    fn into_call(self) -> Call<P, R> {
        self
    }
}

/// A type a task may take as a parameter: copied into the child's record at spawn time, so
/// `Copy` and owning nothing borrowed (`'static`).
#[diagnostic::on_unimplemented(
    message = "task parameters must be `Copy + 'static`, and `{Self}` is not",
    note = "arguments are copied into the child's task record when it is spawned and the child may \
            run on another thread or GPU core; pass plain values, `&'static` data or raw pointers to device memory"
)]
pub trait TaskArg {}
impl<T: Copy + 'static> TaskArg for T {}

/// A type a task may return: written into its parent's frame by the child, so `Copy + 'static`.
#[diagnostic::on_unimplemented(
    message = "task results must be `Copy + 'static`, and `{Self}` is not",
    note = "a child writes its result into its parent's frame when it returns"
)]
pub trait TaskResult {}
impl<T: Copy + 'static> TaskResult for T {}
