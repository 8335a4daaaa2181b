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
        fib(FibFrame),
    }

    /// The frame of `fib`: the type of the coroutine below. It is unnameable, so it is named
    /// through a `type_alias_impl_trait` alias defined by `fib_frame`. rustc lays it out as a
    /// state machine: one variant per suspension point holding exactly what is live there
    /// (here, at the `yield`: the two result slots).
    pub type FibFrame = impl Coroutine<*mut Ctx, Yield = (), Return = u64>;

    /// Builds the frame of `fib(n)`: captures the argument, runs nothing yet.
    #[define_opaque(FibFrame)]
    fn fib_frame(n: u32) -> FibFrame {
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
            // then the spawn, which copies the child's frame into a new record and hands it
            // the slot's address. `a` borrows the slot, so the slot cannot move while `a` lives.
            let call_a = gtap::__private::into_call::<Program, _>(fib(n - 1));
            let slot_a = Slot::new();
            // SAFETY: `ctx` is this task's context; `slot_a` lives in this frame until the
            // taskwait below has returned (the macro checks this for every handle).
            // (Unread: the taskwait re-binds `a` through the slot, as the macro does.)
            #[allow(unused_variables)]
            let a = unsafe { gtap::__private::spawn(ctx, &slot_a, call_a, 0) };
            let call_b = gtap::__private::into_call::<Program, _>(fib(n - 2));
            let slot_b = Slot::new();
            // SAFETY: as above.
            #[allow(unused_variables)]
            let b = unsafe { gtap::__private::spawn(ctx, &slot_b, call_b, 0) };
            // `taskwait!();`: suspend only if there are children to wait for. The runtime
            // resumes the frame after the last child completed; the children wrote their
            // results into `slot_a` and `slot_b` before that.
            // SAFETY: `ctx` is this task's context.
            if unsafe { gtap::__private::begin_wait(ctx, 0) } {
                ctx = yield ();
            }
            let _ = ctx;
            // After the taskwait the handles are re-bound as joined handles: only those can
            // be read, so reading a result before its taskwait does not compile. They are
            // made from the slots, so the pending handles (pointers) are dead at the `yield`
            // and not saved in the frame.
            // SAFETY: the taskwait covering both children has returned.
            let (a, b) = unsafe { (slot_a.__joined(), slot_b.__joined()) };
            a.get() + b.get()
        }
    }

    /// The sequential version of `fib` (the macro names it `__gtap_seq_fib` and re-exports it
    /// as `seq::fib`): the same body, with each `spawn!` a plain call of the child's
    /// sequential version, run at once, and `taskwait!()` nothing. The handles stay, so the
    /// body reads as the task's: each slot is filled when its child returns, and the handle
    /// becomes readable where the taskwait would have joined it. A runtime calls it (through
    /// `Program::run_seq`) for a spawn it runs inline instead of making it a task; users may
    /// call it too. A plain recursive function: on the GPU each call is a real call, with a
    /// frame on the thread's stack.
    pub fn fib_seq(n: u32) -> u64 {
        if n < 2 {
            return n as u64;
        }
        let value_a = fib_seq(n - 1);
        let slot_a = Slot::new();
        // SAFETY: the slot is empty and read only after the taskwait below.
        #[allow(unused_variables)]
        let a = unsafe { gtap::__private::seq_spawn(&slot_a, value_a, 0) };
        let value_b = fib_seq(n - 2);
        let slot_b = Slot::new();
        // SAFETY: as above.
        #[allow(unused_variables)]
        let b = unsafe { gtap::__private::seq_spawn(&slot_b, value_b, 0) };
        // `taskwait!();`: both children have run; only the queue expression is evaluated.
        gtap::__private::seq_wait(0);
        // SAFETY: the children have returned (they ran above).
        let (a, b) = unsafe { (slot_a.__joined(), slot_b.__joined()) };
        a.get() + b.get()
    }

    /// The sequential versions under their tasks' names.
    pub mod seq {
        pub use super::fib_seq as fib;
    }

    /// The arguments of each task, with a layout the host and the GPU agree on (`repr(C)`):
    /// a run's root task crosses to the GPU as its arguments, and the GPU builds its frame
    /// (frames are coroutines, whose layout is rustc's choice in each compilation).
    #[repr(C)]
    #[allow(non_camel_case_types)]
    pub enum Args {
        /// The arguments of task `fib`.
        fib(FibArgs),
    }

    /// `fib`'s parameters.
    #[repr(C)]
    pub struct FibArgs {
        /// `n`.
        pub n: u32,
    }

    /// The task constructor: what `fib(40)` means inside the program (and on the host, for the
    /// root task). It builds the frame; nothing runs until the frame is spawned or run.
    pub fn fib(n: u32) -> gtap::Call<Program, u64> {
        gtap::Call::__new(Task::fib(fib_frame(n)), Args::fib(FibArgs { n }))
    }

    impl gtap::Program for Program {
        type Task = Task;
        type Args = Args;

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

        unsafe fn run_seq(args: Args, out: *mut u8) {
            match args {
                // SAFETY: `out` holds `fib`'s result type, `u64` (trait contract).
                Args::fib(a) => unsafe { out.cast::<u64>().write(fib_seq(a.n)) },
            }
        }
    }

    // The frame must fit the program's `max_frame_bytes`; too large is a compile error that
    // names the task.
    const _: () = assert!(
        core::mem::size_of::<FibFrame>() <= 512,
        "the frame of task `fib` is too large"
    );
}
