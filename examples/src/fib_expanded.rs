//! What `#[gtap::program]` makes of [`crate::fib`], written out by hand and commented: the
//! lowering of a task into a state machine, for readers. It compiles and runs like the macro's
//! output (`tests/tests/programs_cpu.rs` checks that both give the same results); the macro's
//! own output differs only in names and spans.
//!
//! The source:
//!
//! ```ignore
//! #[gtap::program(name = "fib_expanded")]
//! pub mod program {
//!     #[gtap::task]
//!     pub fn fib(n: u32) -> u64 {
//!         if n < 2 {
//!             return n as u64;
//!         }
//!         let a = spawn!(fib(n - 1));
//!         let b = spawn!(fib(n - 2));
//!         taskwait!();
//!         a.get() + b.get()
//!     }
//! }
//! ```

/// The expansion.
pub mod program {
    use core::ops::{Coroutine, CoroutineState};
    use core::pin::Pin;

    use gtap::__private::{Ctx, Slot};

    /// The program's marker type: `gtap::Program` is implemented for it below.
    pub struct Program;

    /// One variant per task, holding the task's frame. Static dispatch: resuming a task is a
    /// `match` on this enum, never an indirect call.
    #[allow(non_camel_case_types)]
    pub enum Task {
        /// The frame of task `fib`.
        fib(FibFrame<'static>),
    }

    /// The frame of `fib`: the type of the coroutine below. It is unnameable, so it is named
    /// through a `type_alias_impl_trait` alias defined by `fib_frame`. rustc lays it out as a
    /// state machine: one variant per suspension point holding exactly what is live there
    /// (here, at the `yield`: the two result slots). `'task` is the lifetime of what the
    /// task's arguments borrow (nothing here: `fib` takes a `u32`); the body is checked with
    /// it unknown, and the frame is stored as `FibFrame<'static>`.
    pub type FibFrame<'task> = impl Coroutine<*mut Ctx, Yield = (), Return = u64>;

    /// Builds the frame of `fib(n)`: captures the argument, runs nothing yet.
    #[define_opaque(FibFrame)]
    fn fib_frame<'task>(n: u32) -> FibFrame<'task> {
        // `static`: the frame may borrow from itself across the `yield` (the handles borrow
        // the slots). It is never moved once started: it lives in its task record.
        // The resume argument is the runtime's context for this task; it is taken afresh after
        // every `yield`, because the task may resume on another worker.
        #[coroutine]
        static move |mut ctx: *mut Ctx| -> u64 {
            // The argument, copied from the capture (which lives in the frame, in global
            // memory, and would be read from there at every use, again after each spawn) into
            // a local (a register, saved in the frame only if used after the `yield`). The macro
            // writes `let mut`, in case the parameter was `mut`.
            let n = n;
            if n < 2 {
                // `return` completes the coroutine; `resume` below delivers the value to
                // the parent's slot.
                return n as u64;
            }
            // `let a = spawn!(fib(n - 1));`: a slot in this frame for the child's result,
            // then the spawn, which builds the child's frame in a new record and hands it
            // the slot's address. The pending handle (zero-sized) borrows the slot, so the
            // slot cannot move while it lives, and borrows what the child's arguments borrow,
            // until the taskwait ends it.
            let call_a = gtap::__private::into_call::<Program, _>(fib(n - 1));
            let slot_a = Slot::new();
            // SAFETY: `ctx` is this task's context; `slot_a` lives in this frame, and the
            // pending handle is kept, until the taskwait below has returned (the macro checks
            // this for every handle).
            let pending_a = unsafe { gtap::__private::spawn(ctx, &slot_a, call_a, 0) };
            // (Unread: the taskwait re-binds `a` through the slot, as the macro does.)
            #[allow(unused_variables)]
            let a = pending_a;
            let call_b = gtap::__private::into_call::<Program, _>(fib(n - 2));
            let slot_b = Slot::new();
            // SAFETY: as above.
            let pending_b = unsafe { gtap::__private::spawn(ctx, &slot_b, call_b, 0) };
            #[allow(unused_variables)]
            let b = pending_b;
            // `taskwait!();`: suspend only if there are children to wait for. The runtime
            // resumes the frame after the last child completed; the children wrote their
            // results into `slot_a` and `slot_b` before that.
            // SAFETY: `ctx` is this task's context.
            if unsafe { gtap::__private::begin_wait(ctx, 0) } {
                ctx = yield ();
            }
            let _ = ctx;
            // What the children borrowed is the parent's again only now: the pending handles
            // are used here, after the suspension.
            gtap::__private::end_borrow(pending_a);
            gtap::__private::end_borrow(pending_b);
            // After the taskwait the handles are re-bound as joined handles: only those can
            // be read, so reading a result before its taskwait does not compile. They are
            // made from the slots, so a read is one load at a fixed place in the frame.
            // SAFETY: the taskwait covering both children has returned.
            let (a, b) = unsafe { (slot_a.__joined(), slot_b.__joined()) };
            a.get() + b.get()
        }
    }

    /// The sequential version of `fib` (the macro names it `__gtap_seqc_fib`; users call
    /// `seq::fib`, below): the same body, with each `spawn!` a plain call of the child's
    /// sequential version, run at once, and `taskwait!()` nothing. The handles stay, so the
    /// body reads as the task's: each slot is filled when its child returns, and the handle
    /// becomes readable where the taskwait would have joined it. A runtime calls it (through
    /// `Program::run_seq`) for a spawn it runs inline instead of making it a task. A plain
    /// recursive function: on the GPU each call is a real call, with a frame on the thread's
    /// stack.
    ///
    /// It also counts the spawns it ran as calls: `spawns` comes in as the count so far and
    /// goes out with this call's and its children's added (a value passed along, so it stays
    /// in registers). The GPU's granularity policy weighs an inline call's cycles by it.
    /// The macro wraps the body in a closure called at once, so that a `return` in the body
    /// still returns the count; this body has its one `return` written out instead.
    pub fn fib_seq_counted(n: u32, mut spawns: u32) -> (u64, u32) {
        if n < 2 {
            return (n as u64, spawns);
        }
        let value_a = {
            let (value, after) = fib_seq_counted(n - 1, spawns + 1);
            spawns = after;
            value
        };
        let slot_a = Slot::new();
        // SAFETY: the slot is empty and read only after the taskwait below.
        #[allow(unused_variables)]
        let pending_a = unsafe { gtap::__private::seq_spawn(&slot_a, value_a, 0) };
        let value_b = {
            let (value, after) = fib_seq_counted(n - 2, spawns + 1);
            spawns = after;
            value
        };
        let slot_b = Slot::new();
        // SAFETY: as above.
        #[allow(unused_variables)]
        let pending_b = unsafe { gtap::__private::seq_spawn(&slot_b, value_b, 0) };
        // `taskwait!();`: both children have run; only the queue expression is evaluated.
        gtap::__private::seq_wait(0);
        gtap::__private::end_borrow(pending_a);
        gtap::__private::end_borrow(pending_b);
        // SAFETY: the children have returned (they ran above).
        let (a, b) = unsafe { (slot_a.__joined(), slot_b.__joined()) };
        (a.get() + b.get(), spawns)
    }

    /// What users call (the macro names it `__gtap_seq_fib` and re-exports it as
    /// `seq::fib`): the counting version, with the count dropped.
    #[inline(always)]
    pub fn fib_seq(n: u32) -> u64 {
        fib_seq_counted(n, 0).0
    }

    /// The sequential versions under their tasks' names.
    pub mod seq {
        pub use super::fib_seq as fib;
    }

    /// The arguments of each task, with a layout the host and the GPU agree on (`repr(C)`):
    /// a run's root task crosses to the GPU as its arguments, and the GPU builds its frame
    /// (frames are coroutines, whose layout is rustc's choice in each compilation). A call
    /// holds only its arguments; the frame is built from them when the call becomes a task
    /// (`Program::start`), or never, when the runtime runs the call inline.
    #[repr(C)]
    #[allow(non_camel_case_types)]
    pub enum Args {
        /// The arguments of task `fib`.
        fib(FibArgs<'static>),
    }

    /// `fib`'s parameters, with the lifetime of what they borrow.
    #[repr(C)]
    pub struct FibArgs<'task> {
        /// `n`.
        pub n: u32,
        /// What the arguments borrow (nothing, for `fib`).
        pub borrow: core::marker::PhantomData<&'task ()>,
    }

    /// The task constructor: what `fib(40)` means inside the program (and on the host, for the
    /// root task). It holds the arguments; nothing runs until the call is spawned or run.
    pub fn fib<'task>(n: u32) -> gtap::Call<'task, Program, u64> {
        let args = FibArgs::<'task> {
            n,
            borrow: core::marker::PhantomData,
        };
        // SAFETY: the types differ only in the lifetime, which has no part in the layout;
        // the `Call` keeps `'task`, and whoever consumes it keeps the borrow until the task
        // is complete.
        let args = unsafe { core::mem::transmute::<FibArgs<'task>, FibArgs<'static>>(args) };
        // SAFETY: `args` borrows for `'task` (above); task 0 is `fib`, which returns `u64`.
        // Its parameters name no lifetime (it borrows nothing) and hold no reference (it may
        // be a root on the GPU).
        unsafe { gtap::Call::__from_args(Args::fib(args), 0, false, true) }
    }

    impl gtap::Program for Program {
        type Task = Task;
        type Args = Args;

        #[inline(always)]
        fn start(args: Args) -> Task {
            match args {
                Args::fib(a) => Task::fib(fib_frame(a.n)),
            }
        }

        const NAME: &'static str = "fib_expanded";
        const HAS_TASKWAIT: bool = true;
        const MAX_CHILDREN: u32 = 256;
        const TASK_NAMES: &'static [&'static str] = &["fib"];

        unsafe fn resume(task: Pin<&mut Task>, ctx: *mut Ctx) -> gtap::Step {
            // SAFETY: the runtime keeps the frame pinned in its record (trait contract).
            match unsafe { task.get_unchecked_mut() } {
                Task::fib(frame) => {
                    // SAFETY: as above.
                    let frame = unsafe { Pin::new_unchecked(frame) };
                    match frame.resume(ctx) {
                        // Suspended at the taskwait: the runtime applies the join protocol.
                        CoroutineState::Yielded(()) => gtap::Step::Wait,
                        CoroutineState::Complete(value) => {
                            // SAFETY: `ctx` describes this task; its parent gave a `u64` slot.
                            unsafe { gtap::__private::deliver(ctx, value) };
                            gtap::Step::Done
                        }
                    }
                }
            }
        }

        fn task_name(task: &Task) -> &'static str {
            match task {
                Task::fib(_) => "fib",
            }
        }

        fn task_index(task: &Task) -> u32 {
            match task {
                Task::fib(_) => 0,
            }
        }

        // Every task has a sequential version, which a runtime may run in place of a spawn.
        const SEQ: bool = true;

        unsafe fn run_seq(args: Args, out: *mut u8) -> u32 {
            match args {
                Args::fib(a) => {
                    let (result, spawns) = fib_seq_counted(a.n, 0);
                    // SAFETY: `out` holds `fib`'s result type, `u64` (trait contract).
                    unsafe { out.cast::<u64>().write(result) };
                    spawns
                }
            }
        }
    }

    // The frame must fit the program's `max_frame_bytes`; too large is a compile error that
    // names the task.
    const _: () = assert!(
        core::mem::size_of::<FibFrame<'static>>() <= 512,
        "the frame of task `fib` is too large"
    );
}
