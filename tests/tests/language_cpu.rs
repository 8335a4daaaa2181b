//! The task language beyond GTaP's restrictions, run on the CPU backend: taskwait in loops,
//! branches and match arms, several taskwaits per task, early returns, tasks without
//! results, a variable number of children, tasks calling each other, EPAQ queues.

#![feature(coroutines, coroutine_trait, type_alias_impl_trait)]

use std::sync::atomic::{AtomicU64, Ordering};

use gtap_host::cpu::{CpuConfig, CpuError, CpuRuntime};

#[gtap::program]
mod lang {
    use super::Counter;

    /// Sums `f(i)` for `i` in `0..n`, one child per iteration, joined inside the loop.
    #[gtap::task]
    pub fn loop_join(n: u32) -> u64 {
        let mut total = 0;
        for i in 0..n {
            let h = spawn!(square(i));
            taskwait!();
            total += h.get();
        }
        total
    }

    #[gtap::task]
    pub fn square(i: u32) -> u64 {
        (i as u64) * (i as u64)
    }

    /// A taskwait in each branch of an `if` and of a `match`, and one after both.
    #[gtap::task]
    pub fn branches(n: u32) -> u64 {
        if n == 0 {
            return 1;
        }
        let mut acc = 0;
        if n % 2 == 0 {
            let a = spawn!(branches(n - 1));
            taskwait!();
            acc += a.get();
        } else {
            let a = spawn!(branches(n - 1));
            let b = spawn!(square(n));
            taskwait!();
            acc += a.get() + b.get();
        }
        match n % 3 {
            0 => {
                let c = spawn!(square(n + 1));
                taskwait!();
                acc += c.get();
            }
            1 => acc += 7,
            _ => {
                let d = spawn!(branches(n / 2));
                taskwait!();
                acc += 2 * d.get();
            }
        }
        let e = spawn!(square(2));
        taskwait!();
        acc + e.get()
    }

    /// Several sequential taskwaits, with handles from earlier joins read at the end.
    #[gtap::task]
    pub fn staged(n: u32) -> u64 {
        let a = spawn!(square(n));
        taskwait!();
        let b = spawn!(square(n + 1));
        let c = spawn!(square(n + 2));
        taskwait!();
        let d = spawn!(square(n + 3));
        taskwait!();
        a.get() + b.get() + c.get() + d.get()
    }

    /// Fire and forget: children without results, never joined by this task.
    #[gtap::task]
    pub fn scatter(counter: Counter, depth: u32) {
        counter.add(1);
        if depth > 0 {
            spawn!(scatter(counter, depth - 1));
            spawn!(scatter(counter, depth - 1));
        }
    }

    /// Waits for fire-and-forget children, which the taskwait covers too.
    #[gtap::task]
    pub fn scatter_then_read(counter: Counter, depth: u32) -> u64 {
        spawn!(scatter(counter, depth));
        taskwait!();
        counter.get()
    }

    /// A variable number of children per task, into slots, with a loop-carried sum.
    #[gtap::task]
    pub fn fan(n: u32, width: u32) -> u64 {
        if n == 0 {
            return 1;
        }
        let kids = slots!(u64; 16);
        for _ in 0..width {
            spawn!(into kids, fan(n - 1, width));
        }
        taskwait!();
        1 + kids.iter().sum::<u64>()
    }

    /// Mutual recursion between two tasks, with early returns.
    #[gtap::task]
    pub fn even(n: u32) -> bool {
        if n == 0 {
            return true;
        }
        let r = spawn!(odd(n - 1));
        taskwait!();
        r.get()
    }

    #[gtap::task]
    pub fn odd(n: u32) -> bool {
        if n == 0 {
            return false;
        }
        let r = spawn!(even(n - 1));
        taskwait!();
        r.get()
    }

    /// Fibonacci with EPAQ queue selectors computed at run time (they only move tasks
    /// between queues; the result must not change).
    #[gtap::task]
    pub fn fib_q(n: u32, salt: u32) -> u64 {
        if n < 2 {
            return n as u64;
        }
        let a = spawn!(queue((n ^ salt) % 3), fib_q(n - 1, salt));
        let b = spawn!(queue((n + salt) % 3), fib_q(n - 2, salt));
        taskwait!(queue(salt % 3));
        a.get() + b.get()
    }

    /// A taskwait with nothing to wait for, and locals (a borrow among them) that live
    /// across joins without type annotations.
    #[gtap::task]
    pub fn locals(n: u32) -> u64 {
        taskwait!();
        let table = [n as u64, 2, 3, 4];
        let first = &table[0];
        let h = spawn!(square(n));
        taskwait!();
        *first + table.iter().sum::<u64>() + h.get()
    }

    /// Spawns more children than its program allows between two taskwaits.
    #[gtap::task]
    pub fn too_many(n: u32) {
        for _ in 0..n {
            spawn!(square(1));
        }
        taskwait!();
    }
}

/// A shared counter, passed to children by address.
#[derive(Clone, Copy)]
pub struct Counter(&'static AtomicU64);

impl Counter {
    fn new() -> Counter {
        Counter(Box::leak(Box::new(AtomicU64::new(0))))
    }
    /// Adds `v`.
    pub fn add(self, v: u64) {
        self.0.fetch_add(v, Ordering::Relaxed);
    }
    /// The current value.
    pub fn get(self) -> u64 {
        self.0.load(Ordering::Relaxed)
    }
}

fn runtime(threads: usize) -> CpuRuntime {
    CpuRuntime::new(CpuConfig::new().threads(threads).num_queues(3)).expect("CPU runtime")
}

#[test]
fn taskwait_in_a_loop() {
    let mut rt = runtime(4);
    let n = 50u32;
    let expected: u64 = (0..n as u64).map(|i| i * i).sum();
    assert_eq!(rt.run(lang::loop_join(n)).unwrap().0, expected);
}

fn branches_reference(n: u32) -> u64 {
    if n == 0 {
        return 1;
    }
    let mut acc = if n.is_multiple_of(2) {
        branches_reference(n - 1)
    } else {
        branches_reference(n - 1) + (n as u64).pow(2)
    };
    acc += match n % 3 {
        0 => (n as u64 + 1).pow(2),
        1 => 7,
        _ => 2 * branches_reference(n / 2),
    };
    acc + 4
}

#[test]
fn taskwait_in_branches_and_match_arms() {
    let mut rt = runtime(3);
    for n in 0..14 {
        assert_eq!(
            rt.run(lang::branches(n)).unwrap().0,
            branches_reference(n),
            "branches({n})"
        );
    }
}

#[test]
fn several_taskwaits_keep_earlier_results() {
    let mut rt = runtime(2);
    let n = 5u64;
    let expected = n * n + (n + 1).pow(2) + (n + 2).pow(2) + (n + 3).pow(2);
    assert_eq!(rt.run(lang::staged(5)).unwrap().0, expected);
}

#[test]
fn fire_and_forget_children_all_run_before_the_run_ends() {
    let mut rt = runtime(4);
    for depth in [0, 3, 10] {
        let counter = Counter::new();
        rt.run(lang::scatter(counter, depth)).unwrap();
        assert_eq!(
            counter.get(),
            (1 << (depth + 1)) - 1,
            "tasks run at depth {depth}"
        );
    }
}

#[test]
fn taskwait_covers_the_whole_subtree_of_its_children() {
    let mut rt = runtime(4);
    let counter = Counter::new();
    let (seen, _) = rt.run(lang::scatter_then_read(counter, 8)).unwrap();
    assert_eq!(seen, (1 << 9) - 1);
}

#[test]
fn variable_fan_out_into_slots() {
    let mut rt = runtime(4);
    for (n, width) in [(0, 3), (3, 5), (4, 7), (2, 16)] {
        let expected: u64 = (0..=n).map(|d| (width as u64).pow(d)).sum();
        assert_eq!(
            rt.run(lang::fan(n, width)).unwrap().0,
            expected,
            "fan({n}, {width})"
        );
    }
}

#[test]
fn slots_overflow_is_an_error_and_the_runtime_stays_usable() {
    let mut rt = runtime(2);
    let err = rt.run(lang::fan(2, 17)).unwrap_err();
    assert!(matches!(err, CpuError::SlotsFull { .. }), "{err}");
    assert!(err.to_string().contains("16"), "{err}");
    assert_eq!(rt.run(lang::fan(2, 2)).unwrap().0, 7);
}

#[test]
fn mutual_recursion_between_tasks() {
    let mut rt = runtime(2);
    for n in 0..40 {
        assert_eq!(rt.run(lang::even(n)).unwrap().0, n % 2 == 0);
    }
}

#[test]
fn epaq_queue_choices_do_not_change_results() {
    let mut rt = runtime(4);
    for salt in 0..6 {
        assert_eq!(rt.run(lang::fib_q(18, salt)).unwrap().0, 2584);
    }
}

#[test]
fn locals_live_across_joins() {
    let mut rt = runtime(2);
    assert_eq!(
        rt.run(lang::locals(10)).unwrap().0,
        10 + (10 + 2 + 3 + 4) + 100
    );
}

#[test]
fn too_many_children_is_an_error_naming_the_setting() {
    let mut rt = runtime(2);
    let err = rt.run(lang::too_many(1000)).unwrap_err();
    assert!(matches!(err, CpuError::TooManyChildren { .. }), "{err}");
    assert!(err.to_string().contains("max_children"), "{err}");
    rt.run(lang::too_many(10)).unwrap();
}
