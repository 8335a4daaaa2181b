//! What `#[gtap::program]` generates an implementation of: the program's task enum and the
//! one `match` that resumes any of its tasks.

use core::marker::PhantomData;
use core::pin::Pin;

use super::Ctx;

/// What [`Program::run_seq`] returns for a call of a sequential version that its task named
/// (`#[gtap::task(seq = g)]`): `g` runs no spawns, and how much work it did, which the
/// generated versions count in spawns, is not known.
pub const UNCOUNTED: u32 = u32::MAX;

/// What [`Program::run_seq`] of program `P` returned, `below`, as spawns run and whether
/// the call was [`UNCOUNTED`] (then no spawn a count can see: 0). Tested only in a program
/// that names a sequential version ([`Program::NAMED_SEQ`]): in any other the constant
/// folds it away.
#[inline(always)]
pub fn seq_spawns<P: Program>(below: u32) -> (u32, bool) {
    let uncounted = P::NAMED_SEQ && below == UNCOUNTED;
    (if uncounted { 0 } else { below }, uncounted)
}

/// A task program: every `#[gtap::task]` of one `#[gtap::program]` module, as one enum.
///
/// Implemented by the macro for the module's `Program` marker type; never by hand.
/// Dispatch is a `match` on [`Program::Task`] (static calls only: GPU indirect calls are slow
/// and stop inlining).
pub trait Program: Sized + 'static {
    /// One variant per task, holding that task's frame: a pinned state machine whose
    /// variants hold what is live at each `taskwait!()`.
    ///
    /// `'static` as a type, but a frame may hold borrows whose lifetime was erased: its
    /// task's arguments may borrow, for as long as the [`Call`] that made it said (`'g`).
    /// Whoever holds a frame keeps it within that lifetime (a parent's join, a run).
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

    /// Whether some task of the program has a spawn the granularity policy weighs (one not
    /// marked `spawn!(task, ..)`, in a program with sequential versions). A GPU warp counts
    /// its tasks' children by depth for the policy's wide-level rule only in such programs,
    /// so that a program whose every spawn is a task pays nothing for it.
    const WEIGHS: bool = false;

    /// Runs the task that `args` calls to its end on the calling thread, as its sequential
    /// version (the serial elision: every `spawn!` a plain call, every `taskwait!()`
    /// nothing), and writes its result to `out`. No task record, queue or join is involved.
    /// Returns how many spawns the call ran as plain calls below it (every `spawn!` it and
    /// its children reached): the tasks it saved, which the GPU's granularity policy weighs
    /// its cycles by; or [`UNCOUNTED`] when the task named its own sequential version
    /// (`#[gtap::task(seq = g)]`), whose work no count of spawns describes.
    ///
    /// # Safety
    /// `out` is valid for one write of the called task's result type, and
    /// [`Program::SEQ`] is true (the default panics).
    #[inline(always)]
    unsafe fn run_seq(args: Self::Args, out: *mut u8) -> u32 {
        let _ = (args, out);
        unreachable!("this program has no sequential versions (Program::SEQ is false)")
    }

    /// Whether some task of the program names its own sequential version, so that
    /// [`Program::run_seq`] may return [`UNCOUNTED`] (a runtime tests for it only then).
    const NAMED_SEQ: bool = false;

    /// Whether some task of the program has a split task ([`Program::split`]).
    const SPLITS: bool = false;

    /// The arguments of `args`'s task's split task ([`crate::task::split`]) with `budget`
    /// calls to walk, when the task has one; `args` unchanged otherwise (the default: no
    /// task has one). What a runtime starts instead of a task it would start for a call the
    /// program did not force to be a task, when the granularity policy splits.
    #[inline(always)]
    fn split(args: Self::Args, budget: u32) -> Self::Args {
        let _ = budget;
        args
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
///
/// `'g` is how long the call's arguments may be used: as long as what they borrow lives
/// (`'static` for arguments that borrow nothing). `spawn!` keeps that borrow until the
/// `taskwait!()` that joins the child, and a runtime keeps it until the run is over, which is
/// what makes references and views sound task arguments (see [`crate::data`]).
#[must_use = "a task call does nothing until it is spawned (`spawn!(f(x))` inside a task) or run as a root task (`Runtime::run`); `seq::f(x)` calls a task as a plain function"]
pub struct Call<'g, P: Program, R> {
    made: Made<P>,
    /// The called task's position in [`Program::TASK_NAMES`].
    index: u32,
    /// `spawn!(task, ..)`: the spawn makes a task whatever the granularity policy says.
    forced: bool,
    /// The task's parameter types name a lifetime: its arguments may borrow data that a
    /// runtime must not release before every task of the run has completed.
    borrows: bool,
    /// No parameter holds a reference (`&T`, `&mut T`) anywhere in its type: the arguments
    /// may be handed to the GPU as a root (views and plain values may; references made on the
    /// host point into host memory).
    gpu_root: bool,
    _result: PhantomData<fn() -> R>,
    _borrow: PhantomData<&'g ()>,
}

/// What a [`Call`] was made from: generated code makes the arguments only (the frame is
/// built from them when the call becomes a task, [`Program::start`]); programs lowered by
/// hand give both.
enum Made<P: Program> {
    Args(P::Args),
    Both(P::Task, P::Args),
}

impl<P: Program, R> Call<'static, P, R> {
    /// Wraps a frame whose task returns `R`, with the arguments it was made from (programs
    /// lowered by hand, whose arguments borrow nothing).
    #[doc(hidden)]
    pub fn __new(task: P::Task, args: P::Args) -> Self {
        Call {
            index: P::task_index(&task),
            made: Made::Both(task, args),
            forced: false,
            borrows: false,
            gpu_root: true,
            _result: PhantomData,
            _borrow: PhantomData,
        }
    }
}

impl<'g, P: Program, R> Call<'g, P, R> {
    /// A call of task `index` (of [`Program::TASK_NAMES`]) with `args`; how the generated
    /// task constructors make one. `borrows` and `gpu_root` describe the task's parameter
    /// types (see the fields).
    ///
    /// # Safety
    /// `args` may borrow data that lives only for `'g` (its type says `'static`: the
    /// program's `Args` enum has one type for every call); `index` is the task that `args`
    /// calls, whose result type is `R`.
    #[doc(hidden)]
    #[inline(always)]
    pub unsafe fn __from_args(args: P::Args, index: u32, borrows: bool, gpu_root: bool) -> Self {
        Call {
            made: Made::Args(args),
            index,
            forced: false,
            borrows,
            gpu_root,
            _result: PhantomData,
            _borrow: PhantomData,
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

    /// Whether the called task's parameter types name a lifetime, so that its arguments may
    /// borrow data (a runtime that gives up on a run must then not return while a task may
    /// still use them).
    pub fn borrows(&self) -> bool {
        self.borrows
    }

    /// Whether the call may be a root on the GPU: none of its parameter types holds a
    /// reference (`&T`, `&mut T`), which the host could only have made into host memory.
    /// Views (`View`, `ViewMut`, `AtomicView`) and plain values may cross.
    pub fn gpu_root(&self) -> bool {
        self.gpu_root
    }

    /// The call's arguments, without the frame (how a root task is sent to the GPU). They
    /// may borrow for `'g`, which their type no longer says: keep using them within `'g`.
    pub fn into_args(self) -> P::Args {
        match self.made {
            Made::Args(args) | Made::Both(_, args) => args,
        }
    }

    /// The frame to store in a task record, which may borrow for `'g` as the arguments do.
    #[inline(always)]
    pub fn into_task(self) -> P::Task {
        match self.made {
            Made::Args(args) => P::start(args),
            Made::Both(task, _) => task,
        }
    }

    /// The frame to store in a task record for a spawn that the granularity policy made a
    /// task: the called task's split task with `budget` calls to walk, when it has one, the
    /// policy splits (`budget` is not zero) and the program did not force the call to be a
    /// task of its own ([`Program::split`]); the call's own frame otherwise.
    #[inline(always)]
    pub fn into_task_split(self, budget: u32) -> P::Task {
        match self.made {
            Made::Args(args) if P::SPLITS && budget != 0 && !self.forced => {
                P::start(P::split(args, budget))
            }
            _ => self.into_task(),
        }
    }

    /// Runs the call to its end on this thread, as the task's sequential version (see
    /// [`Program::run_seq`]), and returns its result and `spawns` plus the spawns the call
    /// ran as plain calls. What the generated sequential versions do for a `spawn!` whose
    /// call is not written as a direct call of a task, and what a runtime does for a detached
    /// spawn it runs inline.
    ///
    /// # Panics
    /// If the program has no sequential versions ([`Program::SEQ`] is false).
    #[doc(hidden)]
    #[inline(always)]
    pub fn __run_seq_counted(self, spawns: u32) -> (R, u32) {
        let (result, below) = self.__run_seq();
        (result, spawns.wrapping_add(seq_spawns::<P>(below).0))
    }

    /// Runs the call to its end on this thread, as [`Call::__run_seq_counted`], and returns
    /// its result and what [`Program::run_seq`] returned (the spawns it ran as plain calls,
    /// or [`UNCOUNTED`]). What a runtime does for a detached spawn it runs inline.
    ///
    /// # Panics
    /// If the program has no sequential versions ([`Program::SEQ`] is false).
    #[doc(hidden)]
    #[inline(always)]
    pub fn __run_seq(self) -> (R, u32) {
        assert!(P::SEQ, "this program has no sequential versions");
        let mut out = core::mem::MaybeUninit::<R>::uninit();
        // SAFETY: `out` holds an `R`, the result type of the task this call calls (a `Call`
        // is made only by that task's generated constructor); `P::SEQ` was checked above.
        // The arguments are used only during this call, within `'g`.
        let below = unsafe { P::run_seq(self.into_args(), out.as_mut_ptr().cast()) };
        // SAFETY: `run_seq` wrote the result.
        (unsafe { out.assume_init() }, below)
    }

    /// The name of the task being called.
    pub fn task_name(&self) -> &'static str {
        P::TASK_NAMES
            .get(self.index as usize)
            .copied()
            .unwrap_or("?")
    }

    /// The index of the task being called in [`Program::TASK_NAMES`].
    pub fn task_index(&self) -> u32 {
        self.index
    }
}

/// What `spawn!` accepts: a call of a task of program `P`.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a call of a task of this program",
    label = "expected a call of a #[gtap::task] fn of this program module, like `fib(n - 1)`",
    note = "spawn!(..) takes a task call; tasks of another #[gtap::program] module cannot be spawned here"
)]
pub trait IntoCall<'g, P: Program> {
    /// The task's result type.
    type Output;
    /// The call itself.
    fn into_call(self) -> Call<'g, P, Self::Output>;
}

impl<'g, P: Program, R> IntoCall<'g, P> for Call<'g, P, R> {
    type Output = R;
    #[inline(always)]
    fn into_call(self) -> Call<'g, P, R> {
        self
    }
}

/// A type a task may take as a parameter: moved into the child's record at spawn time,
/// where the child may run on another thread, so `Send`. Checked on the parameter type with
/// its elided lifetimes as `'static` (the macro also checks that it has no drop glue: a
/// frame is dropped wherever its task completes, and never on the GPU's terms).
#[diagnostic::on_unimplemented(
    message = "task parameters must be `Send`, and `{Self}` is not",
    note = "a child may run on another thread: pass plain values, views (`gtap::View`, \
            `gtap::ViewMut`, `gtap::AtomicView`), or references to `Sync` data"
)]
pub trait TaskArg {}
impl<T: Send + 'static> TaskArg for T {}

/// A type a block task may take as a parameter: every thread of the team runs the task
/// with its own copy of the frame, so `Copy` (and, as every parameter, [`TaskArg`]).
#[diagnostic::on_unimplemented(
    message = "block task parameters must be `Copy`, and `{Self}` is not",
    note = "every thread of a block task's team has its own copy of the frame: pass plain \
            values, shared views (`gtap::View`, `&[T]`) or atomics (`gtap::AtomicView`); an \
            exclusive view (`ViewMut`, `&mut [T]`) would be held by every thread at once: \
            declare it a `gtap::TeamMut`, of which each thread reaches its own share"
)]
pub trait BlockArg {}
impl<T: Copy + TaskArg> BlockArg for T {}

/// A type a task may return: written into its parent's frame by the child, on another
/// thread perhaps, so `Copy + Send + 'static`: a result carries values, never borrows.
#[diagnostic::on_unimplemented(
    message = "task results must be `Copy + Send + 'static`, and `{Self}` is not",
    note = "a child writes its result into its parent's frame when it returns; results carry \
            values back, while what a child borrowed comes back to its parent at the taskwait"
)]
pub trait TaskResult {}
impl<T: Copy + Send + 'static> TaskResult for T {}
