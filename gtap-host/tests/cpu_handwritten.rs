//! End-to-end tests of the CPU runtime with task programs lowered by hand, exactly as
//! `#[gtap::program]` lowers them: one `static` coroutine per task (resume argument
//! `*mut Ctx`), named through a `#[define_opaque]` type alias and stored in the program's
//! `Task` enum; `spawn!` as `task::ctx::spawn*`, `taskwait!()` as `begin_wait` plus a `yield`,
//! and a `Program` impl whose `resume` matches on the enum.

#![feature(coroutines, coroutine_trait, type_alias_impl_trait)]

use std::sync::atomic::{AtomicU64, Ordering};

use gtap_host::RunError;
use gtap_host::cpu::{CpuConfig, CpuError, CpuRuntime};

/// The `impl Program` that `#[gtap::program]` generates for a `Task` enum whose variants are
/// named after the tasks.
macro_rules! program_impl {
    (
        $name:literal,
        has_taskwait = $wait:literal,
        max_children = $max:literal,
        tasks = [$($task:ident),*]
    ) => {
        /// This module's task program.
        pub struct Program;

        impl gtap_device::task::Program for Program {
            type Task = Task;
            // These hand-lowered programs run only on the CPU backend, where a root task's
            // frame is built on the host: their arguments never cross to a GPU.
            type Args = ();

            fn start(_: ()) -> Task {
                unreachable!("CPU-only test program: roots are built from their frames")
            }
            const NAME: &'static str = $name;
            const HAS_TASKWAIT: bool = $wait;
            const MAX_CHILDREN: u32 = $max;

            #[inline(always)]
            unsafe fn resume(
                task: ::core::pin::Pin<&mut Task>,
                ctx: *mut gtap_device::task::Ctx,
            ) -> gtap_device::task::Step {
                // SAFETY: the caller keeps the frame pinned in its record (trait contract).
                match unsafe { task.get_unchecked_mut() } {
                    $(
                        Task::$task(frame) => {
                            // SAFETY: as above; the frame is not moved while pinned.
                            let frame = unsafe { ::core::pin::Pin::new_unchecked(frame) };
                            match ::core::ops::Coroutine::resume(frame, ctx) {
                                ::core::ops::CoroutineState::Yielded(()) => {
                                    gtap_device::task::Step::Wait
                                }
                                ::core::ops::CoroutineState::Complete(value) => {
                                    // SAFETY: `ctx` describes this task; its parent gave a
                                    // slot of this task's result type.
                                    unsafe { gtap_device::task::ctx::deliver(ctx, value) };
                                    gtap_device::task::Step::Done
                                }
                            }
                        }
                    )*
                }
            }

            fn task_name(task: &Task) -> &'static str {
                match task {
                    $( Task::$task(_) => stringify!($task), )*
                }
            }

            const TASK_NAMES: &'static [&'static str] = &[$( stringify!($task) ),*];

            fn task_index(task: &Task) -> u32 {
                let name = Self::task_name(task);
                Self::TASK_NAMES.iter().position(|n| *n == name).unwrap() as u32
            }
        }
    };
}

/// `fib` as `#[gtap::program]` would lower it.
///
/// ```ignore
/// #[gtap::task]
/// pub fn fib(n: u32) -> u64 {
///     if n < 2 { return n as u64; }
///     let a = spawn!(fib(n - 1));
///     let b = spawn!(fib(n - 2));
///     taskwait!();
///     a.get() + b.get()
/// }
/// ```
mod fib_program {
    use core::ops::Coroutine;

    use gtap_device::task::ctx::{begin_wait, spawn};
    use gtap_device::task::handle::end_borrow;
    use gtap_device::task::{Call, Ctx, Slot};

    pub type FibFrame = impl Coroutine<*mut Ctx, Yield = (), Return = u64>;

    #[define_opaque(FibFrame)]
    #[allow(unused_mut, unused_assignments)]
    fn make_fib(n: u32) -> FibFrame {
        #[coroutine]
        static move |mut ctx: *mut Ctx| -> u64 {
            if n < 2 {
                return n as u64;
            }
            let slot_a = Slot::new();
            // SAFETY: `ctx` is this task's context; `slot_a` lives in this frame until the
            // taskwait below.
            let a = unsafe { spawn::<Program, _>(ctx, &slot_a, fib(n - 1), 0) };
            let slot_b = Slot::new();
            // SAFETY: as above.
            let b = unsafe { spawn::<Program, _>(ctx, &slot_b, fib(n - 2), 0) };
            // SAFETY: `ctx` is this task's context.
            if unsafe { begin_wait(ctx, 0) } {
                ctx = yield ();
            }
            // The children's borrows end after the suspension, as the macro ends them.
            end_borrow(a);
            end_borrow(b);
            // SAFETY: the taskwait covering both children has returned.
            let (a, b) = unsafe { (slot_a.__joined(), slot_b.__joined()) };
            a.get() + b.get()
        }
    }

    /// `fib(n)`.
    pub fn fib(n: u32) -> Call<'static, Program, u64> {
        Call::__new(Task::fib(make_fib(n)), ())
    }

    /// One variant per task.
    #[allow(non_camel_case_types)]
    pub enum Task {
        fib(FibFrame),
    }

    program_impl!(
        "fib",
        has_taskwait = true,
        max_children = 256,
        tasks = [fib]
    );
}

/// Fire and forget: every node spawns its children detached and returns without a taskwait;
/// leaves count themselves in a shared counter.
///
/// ```ignore
/// #[gtap::task]
/// pub fn tree(depth: u32, leaves: &'static AtomicU64) -> u32 {
///     if depth == 0 { leaves.fetch_add(1, Relaxed); return 0; }
///     spawn!(tree(depth - 1, leaves));
///     spawn!(tree(depth - 1, leaves));
///     depth
/// }
/// ```
mod detached_program {
    use core::ops::Coroutine;
    use std::sync::atomic::{AtomicU64, Ordering};

    use gtap_device::task::ctx::spawn_detached;
    use gtap_device::task::{Call, Ctx};

    pub type TreeFrame = impl Coroutine<*mut Ctx, Yield = (), Return = u32>;

    #[define_opaque(TreeFrame)]
    #[allow(unused_mut, unused_assignments)]
    fn make_tree(depth: u32, leaves: &'static AtomicU64) -> TreeFrame {
        #[coroutine]
        static move |mut ctx: *mut Ctx| -> u32 {
            if depth == 0 {
                leaves.fetch_add(1, Ordering::Relaxed);
                return 0;
            }
            // SAFETY: `ctx` is this task's context.
            unsafe { spawn_detached::<Program, _>(ctx, tree(depth - 1, leaves), 0) };
            // SAFETY: as above.
            unsafe { spawn_detached::<Program, _>(ctx, tree(depth - 1, leaves), 0) };
            depth
        }
    }

    /// The subtree of `depth` levels.
    pub fn tree(depth: u32, leaves: &'static AtomicU64) -> Call<'static, Program, u32> {
        Call::__new(Task::tree(make_tree(depth, leaves)), ())
    }

    /// One variant per task.
    #[allow(non_camel_case_types)]
    pub enum Task {
        tree(TreeFrame),
    }

    program_impl!(
        "detached",
        has_taskwait = false,
        max_children = 256,
        tasks = [tree]
    );
}

/// A taskwait in a loop, with a variable number of children spawned `into` slots, and EPAQ
/// queue indices.
///
/// ```ignore
/// #[gtap::task]
/// pub fn rounds(rounds: u32, width: u32, queue: u32) -> u64 {
///     let mut total = 0;
///     for r in 0..rounds {
///         let hs = slots!(u64; 8);
///         for i in 0..width { spawn!(into hs, queue(queue), square(r * width + i)); }
///         taskwait!(queue(queue));
///         total += hs.iter().sum::<u64>();
///     }
///     total
/// }
/// #[gtap::task]
/// pub fn square(x: u32) -> u64 { x as u64 * x as u64 }
/// ```
mod loop_program {
    use core::ops::Coroutine;

    use gtap_device::task::ctx::{begin_wait, spawn_into};
    use gtap_device::task::{Call, Ctx, PendingSlots, Slots};

    pub type RoundsFrame = impl Coroutine<*mut Ctx, Yield = (), Return = u64>;
    pub type SquareFrame = impl Coroutine<*mut Ctx, Yield = (), Return = u64>;

    #[define_opaque(RoundsFrame)]
    #[allow(unused_mut, unused_assignments)]
    fn make_rounds(rounds: u32, width: u32, queue: u32) -> RoundsFrame {
        #[coroutine]
        static move |mut ctx: *mut Ctx| -> u64 {
            let mut total = 0;
            for r in 0..rounds {
                let store = Slots::<u64, 8>::new();
                let hs = PendingSlots::__new(&store);
                for i in 0..width {
                    // SAFETY: `ctx` is this task's context; `store` lives in this frame until
                    // the taskwait below.
                    unsafe { spawn_into::<Program, _, 8>(ctx, &hs, square(r * width + i), queue) };
                }
                // SAFETY: `ctx` is this task's context.
                if unsafe { begin_wait(ctx, queue) } {
                    ctx = yield ();
                }
                // SAFETY: the taskwait covering the children has returned.
                let hs = unsafe { hs.__joined() };
                total += hs.iter().sum::<u64>();
            }
            total
        }
    }

    #[define_opaque(SquareFrame)]
    #[allow(unused_mut, unused_assignments, unused_variables)]
    fn make_square(x: u32) -> SquareFrame {
        #[coroutine]
        static move |mut ctx: *mut Ctx| -> u64 { x as u64 * x as u64 }
    }

    /// `rounds` rounds of `width` children each, joined each round.
    pub fn rounds(rounds: u32, width: u32, queue: u32) -> Call<'static, Program, u64> {
        Call::__new(Task::rounds(make_rounds(rounds, width, queue)), ())
    }

    /// `x * x`.
    pub fn square(x: u32) -> Call<'static, Program, u64> {
        Call::__new(Task::square(make_square(x)), ())
    }

    /// One variant per task.
    #[allow(non_camel_case_types)]
    pub enum Task {
        rounds(RoundsFrame),
        square(SquareFrame),
    }

    program_impl!(
        "loops",
        has_taskwait = true,
        max_children = 8,
        tasks = [rounds, square]
    );
}

/// A task that panics at the bottom of a recursion.
mod panic_program {
    use core::ops::Coroutine;

    use gtap_device::task::ctx::{begin_wait, spawn};
    use gtap_device::task::handle::end_borrow;
    use gtap_device::task::{Call, Ctx, Slot};

    pub type DownFrame = impl Coroutine<*mut Ctx, Yield = (), Return = u32>;

    #[define_opaque(DownFrame)]
    #[allow(unused_mut, unused_assignments)]
    fn make_down(n: u32) -> DownFrame {
        #[coroutine]
        static move |mut ctx: *mut Ctx| -> u32 {
            if n == 0 {
                panic!("reached the bottom");
            }
            let slot = Slot::new();
            // SAFETY: `ctx` is this task's context; `slot` lives until the taskwait.
            let h = unsafe { spawn::<Program, _>(ctx, &slot, down(n - 1), 0) };
            // SAFETY: `ctx` is this task's context.
            if unsafe { begin_wait(ctx, 0) } {
                ctx = yield ();
            }
            end_borrow(h);
            // SAFETY: the taskwait covering the child has returned.
            unsafe { slot.__joined() }.get() + 1
        }
    }

    /// Recurses `n` levels, then panics.
    pub fn down(n: u32) -> Call<'static, Program, u32> {
        Call::__new(Task::down(make_down(n)), ())
    }

    /// One variant per task.
    #[allow(non_camel_case_types)]
    pub enum Task {
        down(DownFrame),
    }

    program_impl!(
        "panics",
        has_taskwait = true,
        max_children = 256,
        tasks = [down]
    );
}

fn fib_closed_form(n: u32) -> u64 {
    let (mut a, mut b) = (0u64, 1u64);
    for _ in 0..n {
        (a, b) = (b, a + b);
    }
    a
}

fn runtime(threads: usize) -> CpuRuntime {
    CpuRuntime::new(
        CpuConfig::new()
            .threads(threads)
            .task_capacity(1 << 16)
            .queue_capacity(1 << 12),
    )
    .unwrap()
}

#[test]
fn fib_matches_closed_form_on_1_2_4_threads() {
    for threads in [1, 2, 4] {
        let mut rt = runtime(threads);
        for n in 1..=25 {
            let (value, stats) = rt.run(fib_program::fib(n)).unwrap();
            assert_eq!(value, fib_closed_form(n), "fib({n}) on {threads} threads");
            // One task per call of fib: 2 * fib(n + 1) - 1 of them.
            assert_eq!(stats.tasks_executed, 2 * fib_closed_form(n + 1) - 1);
            assert!(stats.peak_records_in_use >= 1);
            assert_eq!(stats.threads, threads);
        }
    }
}

#[test]
fn work_is_stolen_with_several_threads() {
    let mut rt = runtime(4);
    let (value, stats) = rt.run(fib_program::fib(27)).unwrap();
    assert_eq!(value, fib_closed_form(27));
    assert!(stats.steals_won > 0, "{stats:?}");
    assert!(stats.steals_won <= stats.steals_attempted);
    // Every task that waits is resumed once more than it runs to its end.
    assert!(stats.resumes >= stats.tasks_executed);
}

#[test]
fn runs_reuse_the_record_memory() {
    let mut rt = runtime(2);
    rt.run(fib_program::fib(10)).unwrap();
    let first = rt.records_addr();
    assert!(first.is_some());
    for n in 11..15 {
        rt.run(fib_program::fib(n)).unwrap();
        assert_eq!(rt.records_addr(), first);
    }
}

#[test]
fn fire_and_forget_completes_the_whole_tree_before_returning() {
    for threads in [1, 2, 4] {
        let mut rt = runtime(threads);
        for depth in [0, 1, 5, 12] {
            let leaves: &'static AtomicU64 = Box::leak(Box::new(AtomicU64::new(0)));
            let (value, stats) = rt.run(detached_program::tree(depth, leaves)).unwrap();
            assert_eq!(value, depth);
            // The run ends at the root's completion, which covers every detached descendant.
            assert_eq!(
                leaves.load(Ordering::Relaxed),
                1 << depth,
                "depth {depth} on {threads} threads"
            );
            assert_eq!(stats.tasks_executed, (2 << depth) - 1);
        }
    }
}

#[test]
fn taskwait_in_a_loop() {
    let expected = |rounds: u32, width: u32| {
        (0..rounds * width)
            .map(|x| u64::from(x) * u64::from(x))
            .sum::<u64>()
    };
    for threads in [1, 2, 4] {
        let mut rt = runtime(threads);
        for (rounds, width) in [(0, 3), (1, 1), (5, 8), (40, 7)] {
            let (value, _) = rt.run(loop_program::rounds(rounds, width, 0)).unwrap();
            assert_eq!(
                value,
                expected(rounds, width),
                "{rounds} rounds of {width} on {threads} threads"
            );
        }
    }
}

#[test]
fn epaq_queue_indices_are_checked() {
    let mut rt = CpuRuntime::new(CpuConfig::new().threads(2).num_queues(2)).unwrap();
    let (value, _) = rt.run(loop_program::rounds(3, 4, 1)).unwrap();
    assert_eq!(value, (0..12u64).map(|x| x * x).sum::<u64>());
    match rt.run(loop_program::rounds(3, 4, 2)) {
        Err(CpuError::Run(RunError::BadQueue {
            queue: 2,
            num_queues: 2,
        })) => {}
        other => panic!("expected BadQueue, got {other:?}"),
    }
    assert!(rt.run(loop_program::rounds(3, 4, 1)).is_ok());
}

/// After each error the same runtime runs fib correctly.
fn assert_recovers(rt: &mut CpuRuntime) {
    let (value, _) = rt.run(fib_program::fib(15)).unwrap();
    assert_eq!(value, fib_closed_form(15));
}

#[test]
fn pool_too_small_is_an_error() {
    for threads in [1, 3] {
        let mut rt = CpuRuntime::new(CpuConfig::new().threads(threads).task_capacity(8)).unwrap();
        match rt.run(fib_program::fib(20)) {
            Err(CpuError::Run(RunError::PoolExhausted { capacity: 8 })) => {}
            other => panic!("expected PoolExhausted, got {other:?}"),
        }
        let msg = rt.run(fib_program::fib(20)).unwrap_err().to_string();
        assert!(msg.contains("CpuConfig::task_capacity"), "{msg}");
        rt.set_config(rt.config().clone().task_capacity(1 << 12))
            .unwrap();
        assert_recovers(&mut rt);
    }
}

#[test]
fn queue_too_small_is_an_error() {
    // Depth-first fib leaves one sibling per level queued: about 20 entries for fib(20).
    let mut rt = CpuRuntime::new(CpuConfig::new().threads(1).queue_capacity(4)).unwrap();
    match rt.run(fib_program::fib(20)) {
        Err(CpuError::Run(RunError::QueueFull { capacity: 4 })) => {}
        other => panic!("expected QueueFull, got {other:?}"),
    }
    // Small enough for fib(3): the same runtime still works.
    let (value, _) = rt.run(fib_program::fib(3)).unwrap();
    assert_eq!(value, 2);
    rt.set_config(rt.config().clone().queue_capacity(1 << 8))
        .unwrap();
    assert_recovers(&mut rt);
}

#[test]
fn too_many_children_is_an_error() {
    // The loop program allows 8 children between taskwaits and has 8 slots; 9 children
    // overflow the slots first (SlotsFull), which the program's limit would also catch.
    let mut rt = runtime(2);
    match rt.run(loop_program::rounds(2, 9, 0)) {
        Err(CpuError::Run(RunError::SlotsFull {
            task: "square",
            capacity: 8,
        })) => {}
        other => panic!("expected SlotsFull, got {other:?}"),
    }
    assert_recovers(&mut rt);
}

/// A program whose only task spawns `n` detached children, more than its `max_children`.
mod wide_program {
    use core::ops::Coroutine;

    use gtap_device::task::ctx::{begin_wait, spawn_detached};
    use gtap_device::task::{Call, Ctx};

    pub type WideFrame = impl Coroutine<*mut Ctx, Yield = (), Return = u32>;

    #[define_opaque(WideFrame)]
    #[allow(unused_mut, unused_assignments)]
    fn make_wide(n: u32) -> WideFrame {
        #[coroutine]
        static move |mut ctx: *mut Ctx| -> u32 {
            for _ in 0..n {
                // SAFETY: `ctx` is this task's context.
                unsafe { spawn_detached::<Program, _>(ctx, wide(0), 0) };
            }
            // SAFETY: as above.
            if unsafe { begin_wait(ctx, 0) } {
                ctx = yield ();
            }
            n
        }
    }

    /// Spawns `n` children (which spawn none).
    pub fn wide(n: u32) -> Call<'static, Program, u32> {
        Call::__new(Task::wide(make_wide(n)), ())
    }

    /// One variant per task.
    #[allow(non_camel_case_types)]
    pub enum Task {
        wide(WideFrame),
    }

    program_impl!(
        "wide",
        has_taskwait = true,
        max_children = 4,
        tasks = [wide]
    );
}

#[test]
fn more_children_than_max_children_is_an_error() {
    let mut rt = runtime(2);
    assert_eq!(rt.run(wide_program::wide(4)).unwrap().0, 4);
    match rt.run(wide_program::wide(5)) {
        Err(CpuError::Run(RunError::TooManyChildren {
            task: "wide",
            limit: 4,
        })) => {}
        other => panic!("expected TooManyChildren, got {other:?}"),
    }
    assert_recovers(&mut rt);
}

#[test]
fn a_task_panic_is_an_error() {
    for threads in [1, 4] {
        let mut rt = runtime(threads);
        match rt.run(panic_program::down(30)) {
            Err(CpuError::TaskPanicked {
                task: "down",
                message,
            }) => assert_eq!(message, "reached the bottom"),
            other => panic!("expected TaskPanicked, got {other:?}"),
        }
        assert_recovers(&mut rt);
    }
}

#[test]
fn configuration_errors_name_the_setter() {
    let e = CpuRuntime::new(CpuConfig::new().threads(0)).err().unwrap();
    assert!(e.to_string().contains("CpuConfig::threads(0)"), "{e}");
    let mut rt = runtime(1);
    assert!(
        rt.set_config(rt.config().clone().queue_capacity(3))
            .is_err()
    );
    // A rejected configuration leaves the runtime as it was.
    assert_eq!(rt.config().limits().queue_capacity(), 1 << 12);
    assert_recovers(&mut rt);
}

/// Many runs of every program on many threads (more than this machine may have cores).
/// `cargo test -p gtap-host --release --test cpu_handwritten -- --ignored`.
#[test]
#[ignore = "long; run explicitly with --ignored"]
fn stress_many_threads() {
    for threads in [3, 8, 16, 32] {
        let mut rt = CpuRuntime::new(CpuConfig::new().threads(threads)).unwrap();
        for round in 0..20 {
            let n = 18 + round % 8;
            assert_eq!(rt.run(fib_program::fib(n)).unwrap().0, fib_closed_form(n));
            let leaves: &'static AtomicU64 = Box::leak(Box::new(AtomicU64::new(0)));
            assert_eq!(rt.run(detached_program::tree(14, leaves)).unwrap().0, 14);
            assert_eq!(leaves.load(Ordering::Relaxed), 1 << 14);
            let (value, _) = rt.run(loop_program::rounds(200, 8, 0)).unwrap();
            assert_eq!(value, (0..1600u64).map(|x| x * x).sum::<u64>());
            if round % 5 == 0 {
                assert!(matches!(
                    rt.run(panic_program::down(20)),
                    Err(CpuError::TaskPanicked { .. })
                ));
            }
        }
    }
}

/// Prints the throughput of `fib(30)` (2.7 million tasks) on 1, 2, 4, ... threads:
/// `cargo test -p gtap-host --release --test cpu_handwritten fib_throughput --
/// --ignored --nocapture`.
#[test]
#[ignore = "timing; run explicitly with --ignored --nocapture"]
fn fib_throughput() {
    let max = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut threads = 1;
    while threads <= max {
        let mut rt = CpuRuntime::new(CpuConfig::new().threads(threads)).unwrap();
        rt.run(fib_program::fib(20)).unwrap();
        let (value, stats) = rt.run(fib_program::fib(30)).unwrap();
        assert_eq!(value, fib_closed_form(30));
        let rate = stats.tasks_executed as f64 / stats.elapsed.as_secs_f64() / 1e6;
        println!(
            "fib(30) on {threads:>3} threads: {:>8.1?}, {rate:.1} M tasks/s, \
             {} steals of {} attempts, peak records <= {}",
            stats.elapsed, stats.steals_won, stats.steals_attempted, stats.peak_records_in_use
        );
        threads *= 2;
    }
}
