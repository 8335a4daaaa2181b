//! Fibonacci with no cutoff: every call is a task (GTaP's task-overhead benchmark).

/// The task program.
#[gtap::program(name = "fib")]
pub mod program {
    /// `fib(n)`, spawning both recursive calls.
    #[gtap::task]
    pub fn fib(n: u32) -> u64 {
        if n < 2 {
            return n as u64;
        }
        let a = spawn!(fib(n - 1));
        let b = spawn!(fib(n - 2));
        taskwait!();
        a.get() + b.get()
    }
}

/// `fib(n)` computed sequentially (the check).
pub fn reference(n: u32) -> u64 {
    let (mut a, mut b) = (0u64, 1u64);
    for _ in 0..n {
        (a, b) = (b, a + b);
    }
    a
}

/// How many tasks `fib(n)` runs: one per call.
pub fn task_count(n: u32) -> u64 {
    2 * reference(n + 1) - 1
}
